//===- fatomic-engine-example.cpp - fatomic in an engine's shader compiler ===//
//
// The usual path of an engine that compiles its shaders at build or load
// time, all in memory:
//
//   1. glslang compiles GLSL to SPIR-V words;
//   2. fatomic lowers the float atomic min/max the device lacks, for a device
//      profile (the JSON `vulkaninfo --json` writes, or a list of features);
//   3. spvtools::Optimizer runs the engine's usual passes;
//   4. spvtools validates the result, which the engine hands to
//      vkCreateShaderModule (here: writes to a file).
//
// usage: fatomic-engine-example [--profile=FILE] [--native=F1+F2...]
//                               [--options=OPTIONS] <shader.comp> <out.spv>
//
// It prints one line per step and exits 1 on any error, writing nothing.
//
//===----------------------------------------------------------------------===//

#include "fatomic/LowerFloatAtomicMinMax.h"
#include "fatomic/Options.h"
#include "fatomic/Target.h"

#include <glslang/Public/ResourceLimits.h>
#include <glslang/Public/ShaderLang.h>
#include <glslang/SPIRV/GlslangToSpv.h>

#include <spirv-tools/libspirv.hpp>
#include <spirv-tools/optimizer.hpp>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace {

constexpr spv_target_env Env = SPV_ENV_VULKAN_1_2;

bool readFile(const std::string &Path, std::string &Text) {
  std::ifstream In(Path, std::ios::binary);
  if (!In)
    return false;
  std::ostringstream SS;
  SS << In.rdbuf();
  Text = SS.str();
  return true;
}

/// Step 1: GLSL compute shader -> SPIR-V 1.5 for Vulkan 1.2.
bool compileGlsl(const std::string &Source, const std::string &Name,
                 std::vector<uint32_t> &Words) {
  glslang::TShader Shader(EShLangCompute);
  const char *Text = Source.c_str();
  const char *Names = Name.c_str();
  Shader.setStringsWithLengthsAndNames(&Text, nullptr, &Names, 1);
  Shader.setEnvInput(glslang::EShSourceGlsl, EShLangCompute,
                     glslang::EShClientVulkan, 100);
  Shader.setEnvClient(glslang::EShClientVulkan, glslang::EShTargetVulkan_1_2);
  Shader.setEnvTarget(glslang::EShTargetSpv, glslang::EShTargetSpv_1_5);
  const auto Messages = static_cast<EShMessages>(EShMsgSpvRules | EShMsgVulkanRules);
  if (!Shader.parse(GetDefaultResources(), 450, false, Messages)) {
    std::cerr << "error: " << Shader.getInfoLog();
    return false;
  }
  glslang::TProgram Program;
  Program.addShader(&Shader);
  if (!Program.link(Messages)) {
    std::cerr << "error: " << Program.getInfoLog();
    return false;
  }
  std::vector<unsigned> Spirv;
  glslang::GlslangToSpv(*Program.getIntermediate(EShLangCompute), Spirv);
  Words.assign(Spirv.begin(), Spirv.end());
  return true;
}

void printMessage(spv_message_level_t Level, const char *,
                  const spv_position_t &, const char *Text) {
  std::cerr << (Level <= SPV_MSG_ERROR ? "error: " : "note: ") << Text << '\n';
}

/// Step 2: the lowering.  A pointer that reaches an atomic through a function
/// parameter cannot be traced to its variable; an engine then inlines, as
/// fatomic-opt does, and lowers again.
bool lower(std::vector<uint32_t> &Words, const fatomic::LoweringOptions &Options,
           const fatomic::TargetModel &Target, unsigned &Lowered) {
  fatomic::LowerFloatAtomicMinMaxPass Pass(Options, Target);
  Pass.SetMessageConsumer(printMessage);
  fatomic::PassStatus Status = Pass.Process(Words);
  if (Status == fatomic::PassStatus::Failure &&
      Pass.lastFailure() == fatomic::FailureKind::UntraceablePointer) {
    spvtools::Optimizer Inliner(Env);
    Inliner.SetMessageConsumer(printMessage);
    Inliner.RegisterPass(spvtools::CreateInlineExhaustivePass());
    Inliner.RegisterPass(spvtools::CreateEliminateDeadFunctionsPass());
    if (!Inliner.Run(Words.data(), Words.size(), &Words))
      return false;
    Status = Pass.Process(Words);
  }
  Lowered = Pass.loweredCount();
  return Status != fatomic::PassStatus::Failure;
}

} // namespace

int main(int Argc, char **Argv) {
  std::optional<std::string> ProfilePath;
  std::string OptionText, NativeText;
  std::vector<std::string> Files;
  for (int I = 1; I < Argc; ++I) {
    std::string Arg = Argv[I];
    if (Arg.rfind("--profile=", 0) == 0)
      ProfilePath = Arg.substr(10);
    else if (Arg.rfind("--options=", 0) == 0)
      OptionText = Arg.substr(10);
    else if (Arg.rfind("--native=", 0) == 0)
      NativeText = Arg.substr(9);
    else if (!Arg.empty() && Arg[0] == '-') {
      std::cerr << "error: unknown option '" << Arg << "'\n";
      return 1;
    } else
      Files.push_back(Arg);
  }
  if (Files.size() != 2) {
    std::cerr << "usage: fatomic-engine-example [--profile=FILE] "
                 "[--native=F1+F2...] [--options=OPTIONS] <shader.comp> "
                 "<out.spv>\n";
    return 1;
  }

  // The device: a profile from the machine, and/or named features.
  std::string Error;
  fatomic::TargetModel Target;
  if (ProfilePath) {
    std::optional<fatomic::TargetModel> Profile =
        fatomic::loadProfileFile(*ProfilePath, Error);
    if (!Profile) {
      std::cerr << "error: " << Error << '\n';
      return 1;
    }
    Target = std::move(*Profile);
  }
  if (!NativeText.empty())
    OptionText += (OptionText.empty() ? "native=" : ",native=") + NativeText;
  std::optional<fatomic::LoweringOptions> Options =
      fatomic::parseOptions(OptionText, Error);
  if (!Options) {
    std::cerr << "error: " << Error << '\n';
    return 1;
  }

  std::string Source;
  if (!readFile(Files[0], Source)) {
    std::cerr << "error: cannot read '" << Files[0] << "'\n";
    return 1;
  }

  glslang::InitializeProcess();
  std::vector<uint32_t> Words;
  const bool Compiled = compileGlsl(Source, Files[0], Words);
  glslang::FinalizeProcess();
  if (!Compiled)
    return 1;
  std::cout << "glslang: " << Words.size() << " words\n";

  unsigned Lowered = 0;
  if (!lower(Words, *Options, Target, Lowered))
    return 1;
  std::cout << "fatomic: lowered " << Lowered << " float atomic min/max\n";

  // Step 3: the engine's own optimization.
  spvtools::Optimizer Opt(Env);
  Opt.SetMessageConsumer(printMessage);
  Opt.RegisterPerformancePasses();
  if (!Opt.Run(Words.data(), Words.size(), &Words))
    return 1;
  std::cout << "spvtools::Optimizer: " << Words.size() << " words\n";

  // Step 4: validate before handing it to the driver.
  spvtools::SpirvTools Tools(Env);
  Tools.SetMessageConsumer(printMessage);
  if (!Tools.Validate(Words)) {
    std::cerr << "error: the result is not valid SPIR-V for Vulkan 1.2\n";
    return 1;
  }
  std::cout << "spirv-val: valid for Vulkan 1.2\n";

  std::ofstream Out(Files[1], std::ios::binary);
  Out.write(reinterpret_cast<const char *>(Words.data()),
            std::streamsize(Words.size() * sizeof(uint32_t)));
  Out.close();
  if (!Out) {
    std::remove(Files[1].c_str());
    std::cerr << "error: cannot write '" << Files[1] << "'\n";
    return 1;
  }
  return 0;
}
