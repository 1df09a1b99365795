//===- fatomic-llvm-static-check.cpp - The pass linked in statically ------===//
//
// Links fatomic_llvm into a tool (no plugin), registers the pass with a
// PassBuilder, runs `lower-float-atomic-minmax<nan=fast>` on a small module,
// as the module pass and as the function pass, and checks that no float
// min/max atomic is left, the helper functions, and that the module
// verifies; then the same on an NVPTX module for sm_90, where the atomics
// are aggregated over the warp (redux.sync) as well, results used or not.
// Exit status 0 on success.
//
//===----------------------------------------------------------------------===//

#include "PassManagers.h"

#include "fatomic/LLVM/LowerFloatAtomicMinMax.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

static const char *const Source = R"(
define float @f(ptr %p, float %v) {
  %r = atomicrmw fmin ptr %p, float %v monotonic, align 4
  ret float %r
}
define double @g(ptr %p, double %v) {
  %r = atomicrmw fmaximum ptr %p, double %v seq_cst, align 8
  ret double %r
}
)";

static const char *const NvptxSource = R"(
target triple = "nvptx64-nvidia-cuda"
define void @f(ptr addrspace(1) %p, float %v) "target-cpu"="sm_90" {
  %r = atomicrmw fmax ptr addrspace(1) %p, float %v monotonic, align 4
  ret void
}
define void @g(ptr %p, double %v) "target-cpu"="sm_90" {
  %r = atomicrmw fminimum ptr %p, double %v syncscope("block") monotonic, align 8
  ret void
}
define float @h(ptr addrspace(1) %p, float %v) "target-cpu"="sm_90" {
  %r = atomicrmw fmax ptr addrspace(1) %p, float %v monotonic, align 4
  ret float %r
}
)";

/// The calls of \p M to intrinsics whose name starts with \p Prefix.
static unsigned countCalls(Module &M, StringRef Prefix) {
  unsigned N = 0;
  for (Function &F : M)
    if (F.isDeclaration() && F.getName().starts_with(Prefix))
      N += F.getNumUses();
  return N;
}

/// Runs \p Pipeline on a fresh copy of \p Text and checks that no float
/// min/max atomic is left, that integer atomics are, that the module
/// verifies, that it has \p Helpers helper functions and \p Reductions
/// calls of llvm.nvvm.redux.sync.
static bool check(const char *Text, const char *Pipeline, unsigned Helpers,
                  unsigned Reductions) {
  LLVMContext Ctx;
  SMDiagnostic Diag;
  std::unique_ptr<Module> M = parseAssemblyString(Text, Diag, Ctx);
  if (!M) {
    Diag.print("fatomic-llvm-static-check", errs());
    return false;
  }

  PassBuilder PB;
  fatomic::llvmir::registerLowerFloatAtomicMinMax(PB);
  fatomic::hosttools::AnalysisManagers AM(PB);

  ModulePassManager MPM;
  if (Error E = PB.parsePassPipeline(MPM, Pipeline)) {
    errs() << "fatomic-llvm-static-check: " << toString(std::move(E)) << '\n';
    return false;
  }
  // The parameters are checked here too.
  ModulePassManager Bad;
  if (Error E = PB.parsePassPipeline(Bad, "lower-float-atomic-minmax<nan=no>"))
    consumeError(std::move(E));
  else {
    errs() << "fatomic-llvm-static-check: a bad parameter was accepted\n";
    return false;
  }

  MPM.run(*M, AM.MAM);

  fatomic::hosttools::AtomicCount Atomics;
  unsigned Made = 0;
  for (Function &F : *M) {
    Made += F.hasInternalLinkage() && F.getName().starts_with("fatomic.");
    Atomics.add(F);
  }
  const unsigned Left = Atomics.Float, IntegerAtomics = Atomics.Integer;
  const unsigned Reduced = countCalls(*M, "llvm.nvvm.redux.sync");
  if (verifyModule(*M, &errs()) || Left || !IntegerAtomics ||
      Made != Helpers || Reduced != Reductions) {
    errs() << "fatomic-llvm-static-check: " << Pipeline << ": " << Left
           << " float atomics left, " << IntegerAtomics
           << " integer atomics, " << Made << " helper functions (expected "
           << Helpers << "), " << Reduced << " redux.sync (expected "
           << Reductions << ")\n";
    return false;
  }
  outs() << "fatomic-llvm-static-check: " << Pipeline << ": ok, "
         << IntegerAtomics << " integer atomics, " << Made
         << " helper functions\n";
  return true;
}

int main() {
  // The module pass (one helper per kind of atomic, two here) and the
  // function form (in place).
  bool Ok = check(Source, "lower-float-atomic-minmax<nan=fast>", 2, 0);
  Ok &= check(Source, "function(lower-float-atomic-minmax<nan=fast>)", 0, 0);
  // Warp aggregation: one reduction for each f32 atomic, two for f64; the
  // used one (h) as well (in the full warp).  The elected lane's and the
  // per-lane atomics of one kind share a helper.
  Ok &= check(NvptxSource, "lower-float-atomic-minmax", 2, 4);
  Ok &= check(NvptxSource, "function(lower-float-atomic-minmax<nan=fast>)", 0,
              4);
  return Ok ? 0 : 1;
}
