//===- CommandLine.h - fatomic-opt's command line -------------------------===//
//
// fatomic-opt takes every spirv-opt option plus two of its own:
//
//   --lower-float-atomic-minmax[=OPTIONS]   run the lowering at this point of
//                                           the pass sequence (Options.h)
//   --target-profile=FILE                   read the native features from a
//                                           Vulkan profile (Target.h)
//
// The pass flags, in order, become a list of steps: each run of consecutive
// spirv-opt flags is one step for one spvtools::Optimizer, and each
// --lower-float-atomic-minmax is a step of its own.  As in spirv-opt, the
// pass flags of an -Oconfig=FILE are added when FILE is read and those of
// the command line at its end: every file's passes run first.
//
//===----------------------------------------------------------------------===//
#ifndef FATOMIC_OPT_COMMANDLINE_H
#define FATOMIC_OPT_COMMANDLINE_H

#include "fatomic/Options.h"

#include <spirv-tools/libspirv.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace fatomic_opt {

/// One step of the pipeline: spirv-opt passes, or the lowering.
struct Step {
  /// Flags for spvtools::Optimizer::RegisterPassesFromFlags; empty for the
  /// lowering.
  std::vector<std::string> SpirvOptFlags;
  /// Set for the lowering.
  std::optional<fatomic::LoweringOptions> Lowering;
};

/// The validator options spirv-opt forwards to spirv-val.
struct ValidatorFlags {
  bool RelaxLogicalPointer = false;
  bool RelaxBlockLayout = false;
  bool RelaxStructStore = false;
  bool ScalarBlockLayout = false;
  bool WorkgroupScalarBlockLayout = false;
  bool SkipBlockLayout = false;
  bool BeforeHlslLegalization = false;
};

/// Everything the command line says.
struct Invocation {
  std::string Input = "-"; ///< "-" is standard input
  std::string Output;      ///< "-" is standard output
  spv_target_env TargetEnv = SPV_ENV_UNIVERSAL_1_6;
  std::optional<std::string> TargetProfile;
  std::vector<Step> Steps;

  ValidatorFlags Validator;
  bool SkipValidation = false;
  bool ValidateAfterAll = false;
  uint32_t MaxIdBound = 0x3FFFFF;
  bool PreserveBindings = false;
  bool PreserveSpecConstants = false;
  bool PrintAll = false;
  bool TimeReport = false;
};

enum class Action { Run, Help, Version, Fail };

/// Parses argv into \p Inv.  Errors are printed to stderr (Action::Fail).
Action parseCommandLine(int Argc, const char *const *Argv, Invocation &Inv);

void printHelp();

} // namespace fatomic_opt

#endif // FATOMIC_OPT_COMMANDLINE_H
