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
//      vkCreateShaderModule (here: writes to a file, whole or not at all).
//
// usage: fatomic-engine-example [--profile=FILE] [--native=F1+F2...]
//                               [--options=OPTIONS] <shader.comp> <out.spv>
//
// It prints one line per step on stderr (the output may be /dev/stdout) and
// exits 1 on any error, writing nothing.
//
//===----------------------------------------------------------------------===//

#include "fatomic/InlineRetry.h"
#include "fatomic/LowerFloatAtomicMinMax.h"
#include "fatomic/Options.h"
#include "fatomic/Target.h"

#include <glslang/Public/ResourceLimits.h>
#include <glslang/Public/ShaderLang.h>
#include <glslang/SPIRV/GlslangToSpv.h>

#include <spirv-tools/libspirv.hpp>
#include <spirv-tools/optimizer.hpp>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

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
/// parameter cannot be traced to its variable; an engine then inlines
/// (fatomic::inlineForRetry, the retry fatomic-opt makes) and lowers again.
bool lower(std::vector<uint32_t> &Words, const fatomic::LoweringOptions &Options,
           const fatomic::TargetModel &Target, unsigned &Lowered) {
  fatomic::LowerFloatAtomicMinMaxPass Pass(Options, Target);
  Pass.SetMessageConsumer(printMessage);
  fatomic::PassStatus Status = Pass.Process(Words);
  if (Status == fatomic::PassStatus::Failure &&
      Pass.lastFailure() == fatomic::FailureKind::UntraceablePointer) {
    if (!fatomic::inlineForRetry(Words, Env, printMessage))
      return false;
    Status = Pass.Process(Words);
  }
  Lowered = Pass.loweredCount();
  return Status != fatomic::PassStatus::Failure;
}

constexpr const char *Usage =
    "usage: fatomic-engine-example [--profile=FILE] [--native=F1+F2...]\n"
    "                              [--options=OPTIONS] <shader.comp> <out.spv>\n"
    "\n"
    "Compiles a GLSL compute shader with glslang, lowers the float atomic\n"
    "min/max the device lacks with fatomic, optimizes and validates the result\n"
    "with spvtools (Vulkan 1.2) and writes it to <out.spv> (which may be\n"
    "/dev/stdout: the steps and errors go to stderr).\n"
    "\n"
    "  --profile=FILE     the device: the JSON `vulkaninfo --json` writes\n"
    "  --native=F1+F2...  features the device has (added to the profile's)\n"
    "  --options=OPTIONS  the lowering's options, as fatomic-opt's\n"
    "                     --lower-float-atomic-minmax=OPTIONS\n";

struct CommandLine {
  std::optional<std::string> ProfilePath;
  std::string OptionText, NativeText;
  std::vector<std::string> Files; ///< the shader and the output
  bool Help = false;
};

bool parseCommandLine(int Argc, char **Argv, CommandLine &L) {
  for (int I = 1; I < Argc; ++I) {
    std::string Arg = Argv[I];
    if (Arg == "--help" || Arg == "-h") {
      L.Help = true;
      return true;
    } else if (Arg.rfind("--profile=", 0) == 0) {
      L.ProfilePath = Arg.substr(10);
    } else if (Arg.rfind("--options=", 0) == 0) {
      L.OptionText = Arg.substr(10);
    } else if (Arg.rfind("--native=", 0) == 0) {
      L.NativeText = Arg.substr(9);
    } else if (!Arg.empty() && Arg[0] == '-') {
      std::cerr << "error: unknown option '" << Arg << "'\n";
      return false;
    } else {
      L.Files.push_back(Arg);
    }
  }
  if (L.Files.size() != 2) {
    std::cerr << Usage;
    return false;
  }
  return true;
}

/// The device (a profile from the machine, and/or named features) and the
/// lowering's options.
bool targetAndOptions(const CommandLine &L, fatomic::TargetModel &Target,
                      fatomic::LoweringOptions &Options) {
  std::string Error;
  if (L.ProfilePath) {
    std::optional<fatomic::TargetModel> Profile = fatomic::loadProfileFile(*L.ProfilePath, Error);
    if (!Profile) {
      std::cerr << "error: " << Error << '\n';
      return false;
    }
    Target = std::move(*Profile);
  }
  std::optional<fatomic::LoweringOptions> Parsed = fatomic::parseOptions(L.OptionText, Error);
  if (!Parsed) {
    std::cerr << "error: " << Error << '\n';
    return false;
  }
  // --native adds to a native= of --options (a second native= item would
  // replace the first).
  if (!L.NativeText.empty()) {
    std::optional<fatomic::LoweringOptions> Native =
        fatomic::parseOptions("native=" + L.NativeText, Error);
    if (!Native) {
      std::cerr << "error: " << Error << '\n';
      return false;
    }
    Parsed->Native.insert(Parsed->Native.end(), Native->Native.begin(), Native->Native.end());
  }
  Options = *Parsed;
  return true;
}

/// Steps 3 and 4: the engine's own optimization, then validation before the
/// module goes to the driver.
bool optimizeAndValidate(std::vector<uint32_t> &Words) {
  spvtools::Optimizer Opt(Env);
  Opt.SetMessageConsumer(printMessage);
  Opt.RegisterPerformancePasses();
  if (!Opt.Run(Words.data(), Words.size(), &Words))
    return false;
  std::cerr << "spvtools::Optimizer: " << Words.size() << " words\n";
  spvtools::SpirvTools Tools(Env);
  Tools.SetMessageConsumer(printMessage);
  if (!Tools.Validate(Words)) {
    std::cerr << "error: the result is not valid SPIR-V for Vulkan 1.2\n";
    return false;
  }
  std::cerr << "spirv-val: valid for Vulkan 1.2\n";
  return true;
}

bool writeAll(int Fd, const char *Data, size_t Size) {
  while (Size > 0) {
    const ssize_t N = ::write(Fd, Data, Size);
    if (N < 0 && errno == EINTR)
      continue;
    if (N < 0)
      return false;
    Data += N;
    Size -= size_t(N);
  }
  return true;
}

/// The file a chain of symbolic links at \p Path ends at (which need not
/// exist yet); \p Path itself when it is no link.
std::string followLinks(std::string Path) {
  std::error_code EC;
  for (int Depth = 0; Depth < 40 && std::filesystem::is_symlink(Path, EC);
       ++Depth) {
    const std::filesystem::path Next = std::filesystem::read_symlink(Path, EC);
    if (EC)
      break;
    Path = Next.is_absolute()
               ? Next.string()
               : (std::filesystem::path(Path).parent_path() / Next).string();
  }
  return Path;
}

/// A FIFO, a device or /dev/stdout: the bytes go to its reader or device
/// and the node stays.  Empty on success, else the reason.
std::string writeThrough(const std::string &Path, const char *Data,
                         size_t Size) {
  const int Fd = ::open(Path.c_str(), O_WRONLY | O_TRUNC);
  if (Fd < 0)
    return std::strerror(errno);
  std::string Error;
  if (!writeAll(Fd, Data, Size))
    Error = std::strerror(errno);
  if (::close(Fd) != 0 && Error.empty())
    Error = std::strerror(errno);
  return Error;
}

/// A regular file, new or old: the bytes go to a temporary file in the same
/// directory, which replaces \p Path in one rename, so that a failure leaves
/// the old file whole.  An old file (\p Old) keeps its mode.  Empty on
/// success, else the reason.
std::string replaceFile(const std::string &Path, const struct stat *Old,
                        const char *Data, size_t Size) {
  std::string Temp =
      (std::filesystem::path(Path).parent_path() / ".fatomic-engine.XXXXXX")
          .string();
  const int Fd = ::mkstemp(Temp.data());
  if (Fd < 0)
    return std::strerror(errno);
  const mode_t Umask = ::umask(0);
  ::umask(Umask);
  const mode_t Mode = Old ? Old->st_mode & 07777 : 0666 & ~Umask;
  std::string Error;
  if (::fchmod(Fd, Mode) != 0 || !writeAll(Fd, Data, Size))
    Error = std::strerror(errno);
  if (::close(Fd) != 0 && Error.empty())
    Error = std::strerror(errno);
  if (Error.empty() && std::rename(Temp.c_str(), Path.c_str()) != 0)
    Error = std::strerror(errno);
  if (!Error.empty())
    ::unlink(Temp.c_str());
  return Error;
}

/// Writes the module to \p Path, whole or not at all, and never removes
/// anything but its own temporary file: a regular file (or the one a
/// symbolic link leads to: the link stays a link) is replaced
/// (replaceFile); anything else is written through (writeThrough).
/// fatomic-opt's writer (tools/fatomic-opt/ModuleFile.cpp) also keeps an old
/// file's owner, group, hard links and extended attributes.
bool writeModule(const std::string &Path, const std::vector<uint32_t> &Words) {
  const char *Data = reinterpret_cast<const char *>(Words.data());
  const size_t Size = Words.size() * sizeof(uint32_t);
  struct stat Old, Target;
  const int StatError = ::stat(Path.c_str(), &Old) == 0 ? 0 : errno;
  const bool Exists = StatError == 0;
  const std::string Resolved = followLinks(Path);
  std::string Error;
  if (!Exists && StatError != ENOENT)
    Error = std::strerror(StatError);
  else if (!Exists)
    Error = replaceFile(Resolved, nullptr, Data, Size);
  // /dev/stdout and /dev/fd/N lead to the descriptor's file, which the text
  // of the link need not name (a pipe, a deleted file): written through.
  else if (S_ISREG(Old.st_mode) && ::stat(Resolved.c_str(), &Target) == 0 &&
           Target.st_dev == Old.st_dev && Target.st_ino == Old.st_ino)
    Error = replaceFile(Resolved, &Old, Data, Size);
  else
    Error = writeThrough(Path, Data, Size);
  if (!Error.empty())
    std::cerr << "error: cannot write '" << Path << "': " << Error << '\n';
  return Error.empty();
}

} // namespace

int main(int Argc, char **Argv) {
  CommandLine L;
  fatomic::TargetModel Target;
  fatomic::LoweringOptions Options;
  if (!parseCommandLine(Argc, Argv, L))
    return 1;
  if (L.Help) {
    std::cout << Usage;
    return 0;
  }
  if (!targetAndOptions(L, Target, Options))
    return 1;
  std::string Source;
  if (!readFile(L.Files[0], Source)) {
    std::cerr << "error: cannot read '" << L.Files[0] << "'\n";
    return 1;
  }

  glslang::InitializeProcess();
  std::vector<uint32_t> Words;
  const bool Compiled = compileGlsl(Source, L.Files[0], Words);
  glslang::FinalizeProcess();
  if (!Compiled)
    return 1;
  std::cerr << "glslang: " << Words.size() << " words\n";

  unsigned Lowered = 0;
  if (!lower(Words, Options, Target, Lowered))
    return 1;
  std::cerr << "fatomic: lowered " << Lowered << " float atomic min/max\n";
  return optimizeAndValidate(Words) && writeModule(L.Files[1], Words) ? 0 : 1;
}
