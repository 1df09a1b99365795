//===- fatomic-opt.cpp - spirv-opt with lower-float-atomic-minmax ---------===//
//
// Reads a SPIR-V binary, validates it, runs the steps of the command line in
// order (spirv-opt passes through spvtools::Optimizer, the lowering through
// fatomic::LowerFloatAtomicMinMaxPass), validates the result and writes it.
// Any error stops the run with exit status 1 and nothing written.
//
//===----------------------------------------------------------------------===//

#include "CommandLine.h"
#include "ModuleFile.h"
#include "StepReport.h"

#include "fatomic/InlineRetry.h"
#include "fatomic/LowerFloatAtomicMinMax.h"

#include <spirv-tools/libspirv.hpp>
#include <spirv-tools/optimizer.hpp>
#include <spirv/unified1/spirv.hpp11>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#ifndef FATOMIC_VERSION
#define FATOMIC_VERSION "unknown"
#endif

using namespace fatomic_opt;

namespace {

const char *levelName(spv_message_level_t Level) {
  switch (Level) {
  case SPV_MSG_FATAL:
    return "fatal";
  case SPV_MSG_INTERNAL_ERROR:
    return "internal error";
  case SPV_MSG_ERROR:
    return "error";
  case SPV_MSG_WARNING:
    return "warning";
  case SPV_MSG_INFO:
    return "info";
  case SPV_MSG_DEBUG:
    return "debug";
  }
  return "error";
}

// SPIR-V opcodes and the capability the retry's report reads.
constexpr uint32_t OpCapabilityCode = uint32_t(spv::Op::OpCapability),
                   OpEntryPointCode = uint32_t(spv::Op::OpEntryPoint),
                   OpFunctionCode = uint32_t(spv::Op::OpFunction),
                   OpFunctionParameterCode = uint32_t(spv::Op::OpFunctionParameter),
                   CapabilityLinkage = uint32_t(spv::Capability::Linkage);

/// What kept an untraceable pointer untraceable after the inline retry:
/// functions with parameters that the inliner left (and why it leaves
/// some), or none, when the pointer comes from a phi or select.
std::string retryBlocker(const std::vector<uint32_t> &Words) {
  std::vector<uint32_t> EntryPoints;
  bool Linkage = false, InFunction = false, Counted = false;
  uint32_t Function = 0;
  unsigned Left = 0;
  for (size_t I = 5; I < Words.size();) {
    const uint32_t Count = Words[I] >> 16, Op = Words[I] & 0xFFFF;
    if (Count == 0 || I + Count > Words.size())
      break;
    if (Op == OpCapabilityCode && Count >= 2 && Words[I + 1] == CapabilityLinkage)
      Linkage = true;
    if (Op == OpEntryPointCode && Count >= 3)
      EntryPoints.push_back(Words[I + 2]);
    if (Op == OpFunctionCode && Count >= 3) {
      Function = Words[I + 2];
      InFunction = true;
      Counted = false;
    }
    if (Op == OpFunctionParameterCode && InFunction && !Counted &&
        std::find(EntryPoints.begin(), EntryPoints.end(), Function) == EntryPoints.end()) {
      ++Left;
      Counted = true;
    }
    I += Count;
  }
  if (Left == 0)
    return "after inlining, no function with parameters is left: the "
           "pointer comes from an OpPhi or OpSelect of pointers, which "
           "inlining does not remove; write the shader so that each atomic "
           "names its variable";
  return "after inlining, " + std::to_string(Left) +
         " function(s) with parameters are left, which spirv-opt's inliner "
         "does not inline" +
         (Linkage ? " (a Linkage module: exported functions are not inlined)"
                  : " (for example a function called from a loop's continue "
                    "construct that returns early or ends in OpKill, which "
                    "merge-return does not restructure)") +
         "; inline them by hand or pass the variable's pointer directly";
}

/// A diagnostic held back while it is unclear whether it matters.
struct Message {
  spv_message_level_t Level;
  spv_position_t Position;
  std::string Text;
};

/// Prints diagnostics to stderr as "<level>: <file>: line <n>: <text>"; the
/// file and line parts only where known.
class Diagnostics {
public:
  void setFile(std::string Name) { File = std::move(Name); }

  void print(spv_message_level_t Level, const spv_position_t &Position,
             const std::string &Text) {
    if (Level <= SPV_MSG_ERROR)
      ++Errors;
    std::string Line = std::string(levelName(Level)) + ": " + where();
    if (Position.index)
      Line += "line " + std::to_string(Position.index) + ": ";
    std::fprintf(stderr, "%s%s\n", Line.c_str(), Text.c_str());
  }
  void error(const std::string &Text) { print(SPV_MSG_ERROR, {}, Text); }
  void note(const std::string &Text) {
    std::fprintf(stderr, "note: %s%s\n", where().c_str(), Text.c_str());
  }

  spvtools::MessageConsumer consumer() {
    return [this](spv_message_level_t Level, const char *,
                  const spv_position_t &Position, const char *Text) {
      print(Level, Position, Text);
    };
  }

  unsigned errorCount() const { return Errors; }

private:
  std::string where() const { return File.empty() ? "" : File + ": "; }

  std::string File;
  unsigned Errors = 0;
};

/// Runs the steps of an invocation on a module.
class Driver {
public:
  Driver(const Invocation &Inv, fatomic::TargetModel Target, Diagnostics &Diag);

  /// Registers the spirv-opt passes of every step.  False on a flag that
  /// spvtools::Optimizer does not know (reported).
  bool registerPasses();

  /// Validates \p Words (unless told not to) and runs every step.
  bool run(std::vector<uint32_t> &Words);

private:
  bool validate(const std::vector<uint32_t> &Words);
  std::unique_ptr<spvtools::Optimizer> makeOptimizer();
  bool runOptimizer(const spvtools::Optimizer &Opt,
                    std::vector<uint32_t> &Words, bool Last);
  bool runLowering(const fatomic::LoweringOptions &Options,
                   std::vector<uint32_t> &Words, bool Last);
  fatomic::PassStatus processTimed(fatomic::LowerFloatAtomicMinMaxPass &Pass,
                                   std::vector<uint32_t> &Words,
                                   Usage &Used);
  void printModule(const char *Title, const std::vector<uint32_t> &Words);

  const Invocation &Inv;
  const fatomic::TargetModel Target;
  Diagnostics &Diag;
  StepReport Report;
  spvtools::ValidatorOptions ValidatorOptions;
  spvtools::OptimizerOptions OptimizerOptions;
  /// One per step; null for the lowering steps.
  std::vector<std::unique_ptr<spvtools::Optimizer>> Optimizers;
};

Driver::Driver(const Invocation &Inv, fatomic::TargetModel Target,
               Diagnostics &Diag)
    : Inv(Inv), Target(std::move(Target)), Diag(Diag),
      Report(Inv.PrintAll, Inv.TimeReport) {
  const ValidatorFlags &V = Inv.Validator;
  ValidatorOptions.SetRelaxLogicalPointer(V.RelaxLogicalPointer);
  ValidatorOptions.SetRelaxBlockLayout(V.RelaxBlockLayout);
  ValidatorOptions.SetRelaxStructStore(V.RelaxStructStore);
  ValidatorOptions.SetScalarBlockLayout(V.ScalarBlockLayout);
  ValidatorOptions.SetWorkgroupScalarBlockLayout(V.WorkgroupScalarBlockLayout);
  ValidatorOptions.SetSkipBlockLayout(V.SkipBlockLayout);
  ValidatorOptions.SetBeforeHlslLegalization(V.BeforeHlslLegalization);
  ValidatorOptions.SetUniversalLimit(spv_validator_limit_max_id_bound,
                                     Inv.MaxIdBound);

  // The input is validated once, up front; the optimizers only validate
  // between passes when --validate-after-all asks for it.
  OptimizerOptions.set_run_validator(false);
  OptimizerOptions.set_validator_options(ValidatorOptions);
  OptimizerOptions.set_max_id_bound(Inv.MaxIdBound);
  OptimizerOptions.set_preserve_bindings(Inv.PreserveBindings);
  OptimizerOptions.set_preserve_spec_constants(Inv.PreserveSpecConstants);
}

std::unique_ptr<spvtools::Optimizer> Driver::makeOptimizer() {
  auto Opt = std::make_unique<spvtools::Optimizer>(Inv.TargetEnv);
  Opt->SetMessageConsumer(Diag.consumer());
  Opt->SetPrintAll(Report.printAllStream());
  Opt->SetTimeReport(Report.timeReportStream());
  Opt->SetValidateAfterAll(Inv.ValidateAfterAll);
  return Opt;
}

bool Driver::registerPasses() {
  for (const Step &S : Inv.Steps) {
    if (S.Lowering) {
      Optimizers.emplace_back();
      continue;
    }
    Optimizers.push_back(makeOptimizer());
    if (!Optimizers.back()->RegisterPassesFromFlags(S.SpirvOptFlags))
      return false;
  }
  // Without a pass, spirv-opt still prints the time table's header and the
  // module "after last pass": an optimizer without passes prints them.
  if (Inv.Steps.empty() && (Inv.PrintAll || Inv.TimeReport))
    Optimizers.push_back(makeOptimizer());
  return true;
}

bool Driver::validate(const std::vector<uint32_t> &Words) {
  spvtools::SpirvTools Tools(Inv.TargetEnv);
  Tools.SetMessageConsumer(Diag.consumer());
  return Tools.Validate(Words.data(), Words.size(), ValidatorOptions);
}

/// Whether \p Words declares capability \p Cap.
bool declaresCapability(const std::vector<uint32_t> &Words, spv::Capability Cap) {
  for (size_t I = 5; I < Words.size();) {
    const uint32_t Count = Words[I] >> spv::WordCountShift;
    const auto Op = spv::Op(Words[I] & spv::OpCodeMask);
    if (Count == 0 || I + Count > Words.size())
      return false;
    if (Op == spv::Op::OpCapability && Count >= 2 && Words[I + 1] == uint32_t(Cap))
      return true;
    if (Op != spv::Op::OpCapability && Op != spv::Op::OpNop)
      return false; // the capabilities come first
    I += Count;
  }
  return false;
}

bool isOpenCLEmbeddedEnv(spv_target_env Env) {
  switch (Env) {
  case SPV_ENV_OPENCL_EMBEDDED_1_2: case SPV_ENV_OPENCL_EMBEDDED_2_0:
  case SPV_ENV_OPENCL_EMBEDDED_2_1: case SPV_ENV_OPENCL_EMBEDDED_2_2:
    return true;
  default:
    return false;
  }
}

bool isOpenCLEnv(spv_target_env Env) {
  switch (Env) {
  case SPV_ENV_OPENCL_1_2: case SPV_ENV_OPENCL_2_0:
  case SPV_ENV_OPENCL_2_1: case SPV_ENV_OPENCL_2_2:
    return true;
  default:
    return isOpenCLEmbeddedEnv(Env);
  }
}

bool Driver::run(std::vector<uint32_t> &Words) {
  if (!Inv.SkipValidation && !validate(Words))
    return false;
  const bool HadInt64Atomics = declaresCapability(Words, spv::Capability::Int64Atomics);
  const bool HadInt64 = declaresCapability(Words, spv::Capability::Int64);
  if (Inv.Steps.empty() && !Optimizers.empty()) {
    // Only for its report (see registerPasses): the words stay as they are.
    std::vector<uint32_t> Reported = Words;
    return runOptimizer(*Optimizers.front(), Reported, /*Last=*/true);
  }
  for (size_t I = 0; I < Inv.Steps.size(); ++I) {
    const Step &S = Inv.Steps[I];
    const bool Last = I + 1 == Inv.Steps.size();
    if (!(S.Lowering ? runLowering(*S.Lowering, Words, Last)
                     : runOptimizer(*Optimizers[I], Words, Last)))
      return false;
  }
  // A valid input comes out valid or not at all: the result is validated
  // too, since a step (spirv-opt's passes on some debug-info shapes) may
  // break a module without reporting it.  --validate-after-all has already
  // validated it after the last pass.
  if (!Inv.SkipValidation && !Inv.ValidateAfterAll && !Inv.Steps.empty() &&
      !validate(Words)) {
    Diag.error("the result is not valid SPIR-V, so nothing is written; "
               "--validate-after-all names the pass that breaks it");
    if (isOpenCLEmbeddedEnv(Inv.TargetEnv) && !HadInt64 &&
        declaresCapability(Words, spv::Capability::Int64))
      Diag.note("the lowering of 64-bit float atomics declares Int64 and Int64Atomics; "
                "an OpenCL embedded profile has 64-bit integers only with "
                "cles_khr_int64 and their atomics only with cl_khr_int64_base_atomics, "
                "and its validation assumes neither; where the device has both, "
                "validate for the universal environment (--target-env=spv1.x)");
    else if (isOpenCLEnv(Inv.TargetEnv) && !HadInt64Atomics &&
             declaresCapability(Words, spv::Capability::Int64Atomics))
      Diag.note("the lowering of 64-bit float atomics declares Int64Atomics, which an "
                "OpenCL environment's validation takes only with "
                "cl_khr_int64_base_atomics, an extension it does not assume; where the "
                "device has it, validate for the universal environment "
                "(--target-env=spv1.x)");
    return false;
  }
  return true;
}

bool Driver::runOptimizer(const spvtools::Optimizer &Opt,
                          std::vector<uint32_t> &Words, bool Last) {
  const unsigned ErrorsBefore = Diag.errorCount();
  std::vector<uint32_t> Result;
  // The module after this optimizer's last pass is printed only at the end
  // of the pipeline, as spirv-opt prints it once.
  Report.beginOptimizer(Last);
  const bool Ok = Opt.Run(Words.data(), Words.size(), &Result, OptimizerOptions);
  Report.endOptimizer();
  if (!Ok) {
    if (Diag.errorCount() == ErrorsBefore)
      Diag.error("spirv-opt passes failed");
    return false;
  }
  Words.swap(Result);
  return true;
}

fatomic::PassStatus
Driver::processTimed(fatomic::LowerFloatAtomicMinMaxPass &Pass,
                     std::vector<uint32_t> &Words, Usage &Used) {
  const Usage Before = Usage::now();
  const fatomic::PassStatus Status = Pass.Process(Words);
  Used += Usage::now() - Before;
  return Status;
}

bool Driver::runLowering(const fatomic::LoweringOptions &Options,
                         std::vector<uint32_t> &Words, bool Last) {
  if (Inv.PrintAll)
    printModule("; IR before pass lower-float-atomic-minmax", Words);

  fatomic::TargetModel StepTarget = Target;
  for (fatomic::Feature F : Options.Native)
    StepTarget.set(F);
  fatomic::LowerFloatAtomicMinMaxPass Pass(Options, StepTarget);
  Pass.SetMaxIdBound(Inv.MaxIdBound);

  // The first attempt's diagnostics are held back: an untraceable pointer
  // may go away once functions are inlined.
  std::vector<Message> Held;
  Pass.SetMessageConsumer([&Held](spv_message_level_t Level, const char *,
                                  const spv_position_t &Position,
                                  const char *Text) {
    Held.push_back({Level, Position, Text});
  });
  const unsigned ErrorsBefore = Diag.errorCount();
  Usage Used;
  fatomic::PassStatus Status = processTimed(Pass, Words, Used);

  // The retry's optimizer takes only a valid module: the input was
  // validated (with the relaxations asked for), unless --skip-validation
  // said not to; then its structure is checked here.
  const bool Untraceable = Status == fatomic::PassStatus::Failure &&
                           Pass.lastFailure() == fatomic::FailureKind::UntraceablePointer;
  if (Untraceable && Inv.SkipValidation &&
      !fatomic::retryCanTake(Words, Diag.consumer(),
                             {Inv.Validator.RelaxStructStore,
                              Inv.Validator.BeforeHlslLegalization})) {
    for (const Message &M : Held)
      Diag.print(M.Level, M.Position, M.Text);
    Diag.note("not inlining to lower again: the module is not valid SPIR-V "
              "(the validator's message above)");
  } else if (Untraceable) {
    for (const Message &M : Held)
      Diag.note(M.Text);
    Diag.note("clearing DontInline, inlining all functions into the entry "
              "points (--merge-return --inline-entry-points-exhaustive "
              "--eliminate-dead-functions) and lowering again");
    // fatomic::inlineForRetry's steps, through an optimizer of the tool's
    // own, which times and prints its passes.
    fatomic::clearDontInline(Words);
    std::unique_ptr<spvtools::Optimizer> Inliner = makeOptimizer();
    Inliner->RegisterPassesFromFlags(fatomic::retryInlineFlags());
    if (!runOptimizer(*Inliner, Words, /*Last=*/false))
      return false;
    // The pass's advice to inline first is what was just done.
    Pass.SetMessageConsumer([Consumer = Diag.consumer()](
                                spv_message_level_t Level, const char *Source,
                                const spv_position_t &Position, const char *Text) {
      Consumer(Level, Source, Position, fatomic::afterInlineRetry(Text).c_str());
    });
    const std::vector<uint32_t> Inlined = Words;
    Status = processTimed(Pass, Words, Used);
    if (Status == fatomic::PassStatus::Failure &&
        Pass.lastFailure() == fatomic::FailureKind::UntraceablePointer)
      Diag.note(retryBlocker(Inlined));
  } else {
    for (const Message &M : Held)
      Diag.print(M.Level, M.Position, M.Text);
  }

  // The row of the pass itself; the inliner's passes have rows of their own.
  Report.printTime("lower-float-atomic-minmax", Used);
  if (Status == fatomic::PassStatus::Failure) {
    if (Diag.errorCount() == ErrorsBefore)
      Diag.error("lower-float-atomic-minmax failed");
    return false;
  }
  if (Inv.ValidateAfterAll && !validate(Words)) {
    Diag.error("the module is not valid after lower-float-atomic-minmax");
    return false;
  }
  if (Inv.PrintAll && Last)
    printModule("; IR after last pass", Words);
  return true;
}

void Driver::printModule(const char *Title,
                         const std::vector<uint32_t> &Words) {
  spvtools::SpirvTools Tools(Inv.TargetEnv);
  Tools.SetMessageConsumer(Diag.consumer());
  std::string Text;
  if (Tools.Disassemble(Words, &Text))
    Report.printModule(Title, Text);
}

/// --target-profile only tells the lowering what is native: without a
/// --lower-float-atomic-minmax step it does nothing, which deserves a word.
void warnUnusedProfile(const Invocation &Inv, Diagnostics &Diag) {
  if (!Inv.TargetProfile)
    return;
  for (const Step &S : Inv.Steps)
    if (S.Lowering)
      return;
  Diag.print(SPV_MSG_WARNING, {},
             "--target-profile has no effect without "
             "--lower-float-atomic-minmax (the profile only says which float "
             "atomics the lowering may leave alone)");
}

void printVersion() {
  std::printf("fatomic-opt (fatomic %s)\n%s\n", FATOMIC_VERSION,
              spvSoftwareVersionDetailsString());
}

} // namespace

int main(int Argc, char **Argv) {
  Invocation Inv;
  switch (parseCommandLine(Argc, Argv, Inv)) {
  case Action::Fail:
    return 1;
  case Action::Help:
    printHelp();
    return 0;
  case Action::Version:
    printVersion();
    return 0;
  case Action::Run:
    break;
  }

  Diagnostics Diag;
  warnUnusedProfile(Inv, Diag);
  fatomic::TargetModel Target;
  if (Inv.TargetProfile) {
    std::string Error;
    std::optional<fatomic::TargetModel> Profile =
        fatomic::loadProfileFile(*Inv.TargetProfile, Error);
    if (!Profile) {
      Diag.error("--target-profile: " + Error);
      return 1;
    }
    Target = std::move(*Profile);
  }

  Driver D(Inv, std::move(Target), Diag);
  if (!D.registerPasses())
    return 1;

  Diag.setFile(displayName(Inv.Input));
  std::vector<uint32_t> Words;
  std::string Error;
  if (!readModule(Inv.Input, Words, Error)) {
    Diag.error(Error);
    return 1;
  }
  if (!D.run(Words))
    return 1;

  Diag.setFile("");
  if (!writeModule(Inv.Output, Words, Error)) {
    Diag.error(Error);
    return 1;
  }
  return 0;
}
