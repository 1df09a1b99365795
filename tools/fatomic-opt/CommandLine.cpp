//===- CommandLine.cpp - fatomic-opt's command line -----------------------===//

#include "CommandLine.h"

#include "fatomic/LowerFloatAtomicMinMax.h"

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string_view>

namespace fatomic_opt {

namespace {

constexpr std::string_view LowerFlag = "--lower-float-atomic-minmax";

/// spirv-opt pass flags that also take their argument as the next word:
/// `--loop-fission 10` is `--loop-fission=10`.
bool takesSeparateArgument(std::string_view Flag) {
  return Flag == "--loop-fission" || Flag == "--loop-fusion" ||
         Flag == "--loop-unroll-partial" || Flag == "--loop-peeling-threshold" ||
         Flag == "--set-spec-const-default-value";
}

/// The value of `--name=value` when \p Arg starts with \p Prefix ("--name=").
std::optional<std::string> valueOf(std::string_view Arg,
                                   std::string_view Prefix) {
  if (Arg.substr(0, Prefix.size()) != Prefix)
    return std::nullopt;
  return std::string(Arg.substr(Prefix.size()));
}

/// Decimal as in spirv-opt, or hexadecimal with 0x.
std::optional<uint32_t> parseUInt32(const std::string &Text) {
  if (Text.empty() || !std::isdigit(static_cast<unsigned char>(Text[0])))
    return std::nullopt;
  const bool Hex = Text.size() > 2 && Text[0] == '0' &&
                   (Text[1] == 'x' || Text[1] == 'X');
  char *End = nullptr;
  errno = 0;
  const unsigned long long Value =
      std::strtoull(Text.c_str(), &End, Hex ? 16 : 10);
  if (*End != '\0' || errno == ERANGE || Value > UINT32_MAX)
    return std::nullopt;
  return uint32_t(Value);
}

bool fail(const std::string &Message) {
  std::fprintf(stderr, "error: %s\n", Message.c_str());
  return false;
}

class Parser {
public:
  explicit Parser(Invocation &Inv) : Inv(Inv) {}

  /// Parses \p Args; \p FromConfig when they come from an -Oconfig file.
  /// As in spirv-opt, their pass flags are added to the pipeline once all
  /// of \p Args is read, after the passes of the -Oconfig files they name.
  bool parse(const std::vector<std::string> &Args, bool FromConfig);

  bool WantHelp = false;
  bool WantVersion = false;

private:
  bool parseOne(const std::vector<std::string> &Args, size_t &I,
                bool FromConfig, std::vector<Step> &Steps);
  bool parseValidatorFlag(std::string_view Arg);
  bool readConfigFile(const std::string &Path);
  void addSpirvOptFlag(std::vector<Step> &Steps, std::string Flag);
  bool addLowering(std::vector<Step> &Steps, std::string_view OptionText);

  Invocation &Inv;
  bool HaveInput = false;
  bool HaveOutput = false;
};

/// Appends \p S to \p Steps, joining it to a last step of spirv-opt flags.
void appendStep(std::vector<Step> &Steps, Step S) {
  if (!S.Lowering && !Steps.empty() && !Steps.back().Lowering) {
    std::vector<std::string> &Flags = Steps.back().SpirvOptFlags;
    Flags.insert(Flags.end(), S.SpirvOptFlags.begin(), S.SpirvOptFlags.end());
    return;
  }
  Steps.push_back(std::move(S));
}

bool Parser::parse(const std::vector<std::string> &Args, bool FromConfig) {
  // spirv-opt registers the pass flags of a command line (or of an -Oconfig
  // file) at its end, and an -Oconfig file's as soon as the file is read:
  // a file's passes run before the pass flags around its -Oconfig.
  std::vector<Step> Steps;
  for (size_t I = 0; I < Args.size() && !WantHelp && !WantVersion; ++I)
    if (!parseOne(Args, I, FromConfig, Steps))
      return false;
  for (Step &S : Steps)
    appendStep(Inv.Steps, std::move(S));
  return true;
}

bool Parser::parseOne(const std::vector<std::string> &Args, size_t &I,
                      bool FromConfig, std::vector<Step> &Steps) {
  const std::string &Arg = Args[I];

  if (Arg == "-h" || Arg == "--help") {
    WantHelp = true;
    return true;
  }
  if (Arg == "--version") {
    WantVersion = true;
    return true;
  }
  if (Arg == "-o") {
    if (I + 1 == Args.size() || Args[I + 1].empty())
      return fail("-o needs an output file name");
    if (HaveOutput)
      return fail("more than one output file specified");
    Inv.Output = Args[++I];
    HaveOutput = true;
    return true;
  }
  if (Arg == "-" || Arg.empty() || Arg[0] != '-') {
    if (HaveInput)
      return fail("more than one input file specified ('" + Inv.Input +
                  "' and '" + Arg + "')");
    Inv.Input = Arg;
    HaveInput = true;
    return true;
  }

  // fatomic's own options.
  if (Arg == LowerFlag)
    return addLowering(Steps, "");
  if (auto Text = valueOf(Arg, std::string(LowerFlag) + "="))
    return addLowering(Steps, *Text);
  if (Arg == "--target-profile")
    return fail("--target-profile needs a file: --target-profile=<file>");
  if (auto Path = valueOf(Arg, "--target-profile=")) {
    if (Path->empty())
      return fail("--target-profile needs a file name");
    // One device: a second profile would silently replace the first.
    if (Inv.TargetProfile)
      return fail("more than one --target-profile given ('" + *Inv.TargetProfile + "' and '" +
                  *Path + "')");
    Inv.TargetProfile = *Path;
    return true;
  }

  // Options spirv-opt handles itself rather than passing to the optimizer.
  if (auto Path = valueOf(Arg, "-Oconfig=")) {
    if (FromConfig)
      return fail("-Oconfig cannot be used inside an -Oconfig file");
    return readConfigFile(*Path);
  }
  if (auto Env = valueOf(Arg, "--target-env=")) {
    if (!spvParseTargetEnv(Env->c_str(), &Inv.TargetEnv))
      return fail("invalid value passed to --target-env: '" + *Env +
                  "' (see spirv-opt --help for the list)");
    return true;
  }
  if (auto Bound = valueOf(Arg, "--max-id-bound=")) {
    const std::optional<uint32_t> Value = parseUInt32(*Bound);
    if (!Value)
      return fail("invalid value passed to --max-id-bound: '" + *Bound + "'");
    if (*Value < 0x3FFFFF)
      return fail("the max id bound must be at least 0x3FFFFF");
    Inv.MaxIdBound = *Value;
    return true;
  }
  if (Arg == "--skip-validation")
    Inv.SkipValidation = true;
  else if (Arg == "--validate-after-all")
    Inv.ValidateAfterAll = true;
  else if (Arg == "--preserve-bindings")
    Inv.PreserveBindings = true;
  else if (Arg == "--preserve-spec-constants")
    Inv.PreserveSpecConstants = true;
  else if (Arg == "--print-all")
    Inv.PrintAll = true;
  else if (Arg == "--time-report")
    Inv.TimeReport = true;
  else if (!parseValidatorFlag(Arg)) {
    // A pass flag.  spvtools::Optimizer says whether it knows it.
    if (takesSeparateArgument(Arg) && I + 1 < Args.size())
      addSpirvOptFlag(Steps, Arg + "=" + Args[++I]);
    else
      addSpirvOptFlag(Steps, Arg);
  }
  return true;
}

bool Parser::parseValidatorFlag(std::string_view Arg) {
  ValidatorFlags &V = Inv.Validator;
  if (Arg == "--relax-logical-pointer")
    V.RelaxLogicalPointer = true;
  else if (Arg == "--relax-block-layout")
    V.RelaxBlockLayout = true;
  else if (Arg == "--relax-struct-store")
    V.RelaxStructStore = true;
  else if (Arg == "--scalar-block-layout")
    V.ScalarBlockLayout = true;
  else if (Arg == "--workgroup-scalar-block-layout")
    V.WorkgroupScalarBlockLayout = true;
  else if (Arg == "--skip-block-layout")
    V.SkipBlockLayout = true;
  else if (Arg == "--before-hlsl-legalization")
    V.BeforeHlslLegalization = true;
  else
    return false;
  return true;
}

/// Whitespace-separated flags; a line whose first word starts with '#' is a
/// comment.
bool Parser::readConfigFile(const std::string &Path) {
  errno = 0;
  std::ifstream In(Path);
  if (!In)
    return fail("cannot open -Oconfig file '" + Path + "'" +
                (errno ? std::string(": ") + std::strerror(errno) : std::string()));
  std::vector<std::string> Args;
  std::string Line;
  while (std::getline(In, Line)) {
    std::istringstream Words(Line);
    std::string Word;
    if (!(Words >> Word) || Word[0] == '#')
      continue;
    do
      Args.push_back(Word);
    while (Words >> Word);
  }
  if (In.bad())
    return fail("cannot read -Oconfig file '" + Path + "'");
  return parse(Args, /*FromConfig=*/true);
}

void Parser::addSpirvOptFlag(std::vector<Step> &Steps, std::string Flag) {
  // As in spirv-opt: the input of HLSL legalization is validated by the
  // rules before legalization (a whole runtime array may be loaded, ...) and
  // with relaxed logical pointer rules.
  if (Flag == "--legalize-hlsl") {
    Inv.Validator.RelaxLogicalPointer = true;
    Inv.Validator.BeforeHlslLegalization = true;
  }
  Step S;
  S.SpirvOptFlags.push_back(std::move(Flag));
  appendStep(Steps, std::move(S));
}

bool Parser::addLowering(std::vector<Step> &Steps,
                         std::string_view OptionText) {
  std::string Error;
  std::optional<fatomic::LoweringOptions> Options =
      fatomic::parseOptions(OptionText, Error);
  if (!Options)
    return fail(std::string(LowerFlag) + ": " + Error);
  Step S;
  S.Lowering = std::move(*Options);
  Steps.push_back(std::move(S));
  return true;
}

/// The pass flags of `spirv-opt --help` (SPIRV-Tools 2023.1), as spirv-opt
/// writes them: fatomic-opt hands each to spvtools::Optimizer at its place in
/// the pipeline.  test/utils/check_pass_flags.py keeps the list equal to
/// spirv-opt's and checks that the optimizer accepts every flag.
constexpr const char *SpirvOptPassFlags[] = {
    "--amd-ext-to-khr",
    "--ccp",
    "--cfg-cleanup",
    "--combine-access-chains",
    "--compact-ids",
    "--convert-local-access-chains",
    "--convert-relaxed-to-half",
    "--convert-to-sampled-image=\"<set>:<binding> ...\"",
    "--copy-propagate-arrays",
    "--descriptor-scalar-replacement",
    "--eliminate-dead-branches",
    "--eliminate-dead-code-aggressive",
    "--eliminate-dead-const",
    "--eliminate-dead-functions",
    "--eliminate-dead-input-components",
    "--eliminate-dead-inserts",
    "--eliminate-dead-variables",
    "--eliminate-insert-extract",
    "--eliminate-local-multi-store",
    "--eliminate-local-single-block",
    "--eliminate-local-single-store",
    "--fix-func-call-param",
    "--flatten-decorations",
    "--fold-spec-const-op-composite",
    "--freeze-spec-const",
    "--graphics-robust-access",
    "--if-conversion",
    "--inline-entry-points-exhaustive",
    "--legalize-hlsl",
    "--local-redundancy-elimination",
    "--loop-fission <n>",
    "--loop-fusion <n>",
    "--loop-invariant-code-motion",
    "--loop-peeling",
    "--loop-peeling-threshold <n>",
    "--loop-unroll",
    "--loop-unroll-partial <n>",
    "--loop-unswitch",
    "--merge-blocks",
    "--merge-return",
    "--private-to-local",
    "--reduce-load-size[=<threshold>]",
    "--redundancy-elimination",
    "--relax-float-ops",
    "--remove-duplicates",
    "--remove-unused-interface-variables",
    "--replace-desc-array-access-using-var-index",
    "--replace-invalid-opcode",
    "--scalar-replacement[=<n>]",
    "--set-spec-const-default-value \"<spec id>:<value> ...\"",
    "--simplify-instructions",
    "--spread-volatile-semantics",
    "--ssa-rewrite",
    "--strength-reduction",
    "--strip-debug",
    "--strip-nonsemantic",
    "--strip-reflect",
    "--unify-const",
    "--upgrade-memory-model",
    "--vector-dce",
    "--workaround-1209",
    "--wrap-opkill",
};

/// The pass flags in two columns of 38 characters, indented by four; a
/// flag too wide for a column has a line of its own.
void printPassFlags() {
  constexpr size_t Column = 38;
  std::string Line;
  const auto Flush = [&Line] {
    Line.erase(Line.find_last_not_of(' ') + 1);
    if (!Line.empty())
      std::printf("    %s\n", Line.c_str());
    Line.clear();
  };
  for (const char *Flag : SpirvOptPassFlags) {
    const std::string_view F(Flag);
    if (F.size() >= Column) {
      Flush();
      Line = F;
      Flush();
    } else if (Line.empty()) {
      Line = F;
      Line.resize(Column, ' ');
    } else {
      Line += F;
      Flush();
    }
  }
  Flush();
}

} // namespace

Action parseCommandLine(int Argc, const char *const *Argv, Invocation &Inv) {
  Parser P(Inv);
  if (!P.parse(std::vector<std::string>(Argv + 1, Argv + Argc),
               /*FromConfig=*/false))
    return Action::Fail;
  if (P.WantHelp)
    return Action::Help;
  if (P.WantVersion)
    return Action::Version;
  if (Inv.Output.empty()) {
    fail("-o required (use '-o -' for standard output)");
    return Action::Fail;
  }
  return Action::Run;
}

void printHelp() {
  std::fputs(R"(fatomic-opt - Optimize a SPIR-V binary, lowering float atomic min/max.

USAGE: fatomic-opt [options] [<input>] -o <output>

fatomic-opt is a drop-in superset of spirv-opt: every spirv-opt option and
pass flag works as it does there (see `spirv-opt --help` for the passes), and
fatomic-opt adds --lower-float-atomic-minmax and --target-profile.  All passes
run in the order of their flags, --lower-float-atomic-minmax included; -O and
-Os stand for their passes at the place they are written.  As in spirv-opt,
the passes of -Oconfig=<file> files run before all pass flags of the command
line.

The SPIR-V binary is read from <input>, or from standard input when <input>
is "-" or absent.  It is written to <output>, or to standard output when
<output> is "-".  The input is validated first, and the result after the
last step, unless --skip-validation is given.  The output file is written
only when every step succeeds and the result is valid; on an error nothing
is written and an existing <output> is left as it was.

fatomic options:
  --lower-float-atomic-minmax[=<options>]
               Rewrite OpAtomicFMinEXT and OpAtomicFMaxEXT (f32, f64) that the
               target does not run natively into integer atomics on the same
               memory.  The float atomic capabilities, and then
               SPV_EXT_shader_atomic_float_min_max, are removed once no atomic
               needs them.  Runs at its place in the pass sequence; may be
               given more than once.  <options> is a list of key=value items
               separated by ',' or ';', all optional; a key given twice
               takes its last value:

               nan=number|propagate|fast
                   What the lowered atomic does with NaN.
                   number     (default) as the extension specifies: a NaN
                              operand leaves memory unchanged, a NaN in memory
                              is replaced by the operand, both NaN gives NaN.
                   propagate  IEEE 754-2019 minimum/maximum: any NaN makes
                              memory NaN, and it stays NaN.
                   fast       no NaN handling code at all; NaNs are ordered
                              as integers (positive NaNs above +inf, negative
                              NaNs below -inf).
                   Under every policy -0 < +0.
               strategy=dispatch|cas
                   dispatch   (default) exactly one integer atomic, chosen by
                              the operand's sign bit: OpAtomicSMin or
                              OpAtomicUMax for min, OpAtomicSMax or
                              OpAtomicUMin for max.
                   cas        an OpAtomicCompareExchange loop.
               early-out=on|off
                   on         (default) read memory with an atomic load first
                              and skip the read-modify-write when the operand
                              cannot change it.  Applied only where the memory
                              semantics have no Release bit and the access is
                              not volatile.
                   off        always do the read-modify-write.
               native=<feature>[+<feature>...]
                   Features the target runs natively, named as the members of
                   VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT (for example
                   shaderBufferFloat32AtomicMinMax,
                   shaderSharedFloat64AtomicMinMax), or shaderBufferInt64Atomics
                   and shaderSharedInt64Atomics.  Atomics that run natively are
                   left alone.  Added to the features of --target-profile.
                   Default: none.
               images=retype|off
                   retype: lower image atomics by retyping R32f storage images
                   to R32ui; the application must then bind an R32_UINT view.
                   The image's reads and writes are bitcast; other images of
                   the same type keep it.  A sampled use of the image, or a
                   float atomic add on it, is an error.  off: an image atomic
                   that needs lowering is an error.  Default: off.

               outline=on|off
                   on: lower each kind of atomic once, in a helper function
                   (marked Inline) that the atomics call with their array
                   indices and operand; the output stays about the size of
                   the input.  off: write the lowering out at every atomic.
                   Image and Function/Private atomics are always written
                   out.  Default: on.
               writers=module|any
                   Who may write an atomic's memory while it runs.  Every
                   lowered atomic is linearizable against every writer in
                   the module; a cheaper form (the NaN fix-up decided by the
                   early-out's load, nan=propagate's single integer atomic)
                   is used only where the module's only writers of that
                   memory are lowered atomics of the same kind.
                   module     (default) other shaders or pipelines do not
                              write the memory while this one runs.
                   any        they may: no atomic gets a cheaper form.
               aggregate=auto|subgroup|off
                   Where the invocations of a subgroup hit one address,
                   their operands are combined with subgroup operations
                   and one invocation does the atomic for all; used
                   results are rebuilt for each.  Compute shaders, SPIR-V
                   1.3+, buffer and Workgroup memory, Relaxed semantics
                   only.  It needs subgroup basic and arithmetic
                   operations in compute, ballot for used results, and
                   shaderSubgroupExtendedTypes for f64.
                   auto       (default) where --target-profile shows those
                              operations; without a profile, nowhere.
                              Not for an unused f32 result on buffer
                              memory behind the bound cache where the
                              profile's driver combines such atomics
                              itself (NVIDIA's proprietary driver).
                   subgroup   also without a profile (you vouch for the
                              target); not where the profile lacks them.
                   off        every invocation does its own atomic.
               cache=on|off
                   on         (default) where the result is unused, the
                              semantics are Relaxed and the module's only
                              writers of the memory are lowered atomics of
                              the same kind (see writers=), each invocation
                              keeps the bound that memory is known to have
                              reached at the address it last used, and skips
                              an operand that cannot pass it without
                              touching memory.  Not under strategy=cas or
                              early-out=off.  Costs, per address
                              expression, one Private variable per
                              non-constant index and one for the bound.
                   off        every operation reads memory.

               Scope and memory semantics of each atomic are kept.  A
               pointer that reaches an atomic through OpFunctionParameter,
               OpPhi or OpSelect cannot be traced to its variable: fatomic-opt
               then clears DontInline, runs --merge-return,
               --inline-entry-points-exhaustive and
               --eliminate-dead-functions, says so on standard error, and
               lowers once more; if that fails too, it is an error, and a
               note says what blocked it.

               Examples:
                 --lower-float-atomic-minmax
                 --lower-float-atomic-minmax=nan=propagate,strategy=cas
                 --lower-float-atomic-minmax=nan=fast,early-out=off

  --target-profile=<file>
               Read the features the target runs natively from a Vulkan
               profile, the JSON that `vulkaninfo --json` writes.  A feature
               the profile does not list is taken as missing.  Default: no
               profile, nothing native: every float min/max atomic is lowered.

spirv-opt options that fatomic-opt handles itself, as spirv-opt does:
  -o <output>  Where to write the result ("-": standard output).  Required.
               A regular file is replaced whole, in one rename, keeping its
               mode, owner and group; one that a new file cannot stand in
               for (hard links, extended attributes, a sticky or read-only
               directory) is written in place after reserving its room; a
               symbolic link is followed and kept; a FIFO, socket or device
               such as /dev/null or /dev/stdout is written through, as
               spirv-opt does.
  --target-env=<env>
               Target environment for validation and the passes, e.g.
               vulkan1.2, spv1.6, opencl2.2 (the list is in spirv-opt --help).
               Default: spv1.6, as in spirv-opt.
  --skip-validation
               Do not validate the input or the result.
  --validate-after-all
               Validate the module after every pass.
  --relax-logical-pointer, --relax-block-layout, --relax-struct-store,
  --scalar-block-layout, --workgroup-scalar-block-layout,
  --skip-block-layout, --before-hlsl-legalization
               Passed on to the validator (see spirv-val --help).
  --max-id-bound=<n>
               Largest id bound a module may reach, in decimal or as 0x...
               hexadecimal (at least and by default 0x3FFFFF), in the
               passes and the lowering alike.
  --preserve-bindings, --preserve-spec-constants
               Keep unused bindings or specialization constants.
  --print-all  Print the module as assembly to standard error before each
               pass, the lowering included, and once after the last one
               (without a pass, only that once).
  --time-report
               Print the time and memory each pass takes, the lowering
               included, to standard error: one table for the whole run.
  -O, -Os      The spirv-opt performance or size pass sequence.
  -Oconfig=<file>
               The flags in <file> (separated by white space; lines starting
               with '#' are comments).  They may include
               --lower-float-atomic-minmax, not -Oconfig.  As in spirv-opt,
               the passes of every -Oconfig file run before all pass flags
               of the command line, wherever -Oconfig is written.
  -h, --help   Print this help.
  --version    Print the versions of fatomic and SPIRV-Tools.

spirv-opt pass flags (`spirv-opt --help` says what each does), run by
spvtools::Optimizer at their place in the pipeline; any other flag that
spvtools::Optimizer accepts works too, an unknown one is an error:
)",
             stdout);
  printPassFlags();
}

} // namespace fatomic_opt
