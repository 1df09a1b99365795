//===- PluginEntry.cpp - Entry point of FatomicLLVMPlugin -----------------===//
//
// The symbol that `opt -load-pass-plugin` and `clang -fpass-plugin` look up.
// Tools that link fatomic_llvm statically define FATOMIC_LLVM_LINK_INTO_TOOLS
// (or simply do not compile this file) and call
// fatomic::llvmir::registerLowerFloatAtomicMinMax themselves.
//
// Besides the pipeline name `lower-float-atomic-minmax<OPTIONS>`, the plugin
// adds the pass at the end of the default optimization pipelines (the
// OptimizerLast extension point, which every -O level runs, -O0 included), so
// that `clang -fpass-plugin=...` lowers without a pipeline string.  The
// parameters of that pass come from the option -fatomic-options=OPTIONS;
// clang passes it with -mllvm (clang-22 loads -fpass-plugin= plugins before
// it reads -mllvm options).  -fatomic-default-pipeline=false turns
// the extension point off.  The extension point comes after the pipeline's
// inliner, so there the lowering is written out at each atomic (outline=off)
// unless the options say outline=on.
// The hidden -fatomic-warp-reconverge-for-testing is for tools/nvptx's
// checks only (WarpAggregate.h, setReconvergeForTesting).
//
//===----------------------------------------------------------------------===//

#include "fatomic/LLVM/LowerFloatAtomicMinMax.h"
#include "WarpAggregate.h"

#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/CommandLine.h"
#if __has_include("llvm/Plugins/PassPlugin.h")
#include "llvm/Plugins/PassPlugin.h"
#else
#include "llvm/Passes/PassPlugin.h"
#endif

#ifndef FATOMIC_LLVM_LINK_INTO_TOOLS

using namespace llvm;

namespace {

/// Checks -fatomic-options with the pass's own parameter parser, so that a
/// bad value is a command-line error naming the item.
class OptionsParser : public cl::parser<std::string> {
public:
  using cl::parser<std::string>::parser;

  bool parse(cl::Option &O, StringRef, StringRef Arg, std::string &Value) {
    Expected<fatomic::LoweringOptions> Parsed =
        fatomic::llvmir::parseLLVMPassOptions(Arg);
    if (!Parsed)
      return O.error(toString(Parsed.takeError()));
    Value = Arg.str();
    return false;
  }
};

cl::opt<std::string, false, OptionsParser> PipelineOptions(
    "fatomic-options", cl::value_desc("options"),
    cl::desc("Parameters of the lower-float-atomic-minmax pass that "
             "FatomicLLVMPlugin adds to the default pipelines, as in "
             "lower-float-atomic-minmax<OPTIONS> (e.g. "
             "nan=propagate;strategy=cas)"));

cl::opt<bool> AddToDefaultPipeline(
    "fatomic-default-pipeline", cl::init(true),
    cl::desc("Add lower-float-atomic-minmax at the end of the default "
             "optimization pipelines (default: true)"));

cl::opt<bool> ReconvergeForTesting(
    "fatomic-warp-reconverge-for-testing", cl::Hidden, cl::init(false),
    cl::desc("Testing: end each NVPTX warp-aggregated atomic with "
             "bar.warp.sync on the lanes that reached it together"),
    cl::callback([](const bool &On) {
      fatomic::llvmir::setReconvergeForTesting(On);
    }));

/// Adds the pass, with -fatomic-options, at the end of a default pipeline.
void addToPipeline(ModulePassManager &MPM) {
  if (!AddToDefaultPipeline)
    return;
  // Checked when the option was parsed.
  fatomic::LoweringOptions Options =
      cantFail(fatomic::llvmir::parseLLVMPassOptions(PipelineOptions));
  // No inliner runs after this point: helpers would stay calls.
  if (!Options.OutlineGiven)
    Options.Outline = false;
  MPM.addPass(fatomic::llvmir::LowerFloatAtomicMinMaxPass(std::move(Options)));
}

void registerCallbacks(PassBuilder &PB) {
  fatomic::llvmir::registerLowerFloatAtomicMinMax(PB);
  // The per-module pipelines (default<O*>, the pre-link and ThinLTO ones)
  // end in the optimizer's last extension point; the full LTO link
  // pipeline (lto<O*>) has one of its own.  Where both run, the second
  // finds nothing left to lower.
  PB.registerOptimizerLastEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel, ThinOrFullLTOPhase) {
        addToPipeline(MPM);
      });
  PB.registerFullLinkTimeOptimizationLastEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel) { addToPipeline(MPM); });
}

} // namespace

extern "C" LLVM_ALWAYS_EXPORT LLVM_ATTRIBUTE_WEAK ::llvm::PassPluginLibraryInfo
llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "FatomicLLVMPlugin", "0.1",
          registerCallbacks};
}

#endif
