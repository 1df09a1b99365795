//===- fatomic-llvm-static-check.cpp - The pass linked in statically ------===//
//
// Links fatomic_llvm into a tool (no plugin), registers the pass with a
// PassBuilder, runs `lower-float-atomic-minmax<nan=fast>` on a small module,
// as the module pass and as the function pass, and checks that no float
// min/max atomic is left, the helper functions, and that the module
// verifies.
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

/// Runs \p Pipeline on a fresh copy of Source and checks that no float
/// min/max atomic is left, that integer atomics are, that the module
/// verifies and that it has \p Helpers helper functions.
static bool check(const char *Pipeline, unsigned Helpers) {
  LLVMContext Ctx;
  SMDiagnostic Diag;
  std::unique_ptr<Module> M = parseAssemblyString(Source, Diag, Ctx);
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
  if (verifyModule(*M, &errs()) || Left || !IntegerAtomics ||
      Made != Helpers) {
    errs() << "fatomic-llvm-static-check: " << Pipeline << ": " << Left
           << " float atomics left, " << IntegerAtomics
           << " integer atomics, " << Made << " helper functions (expected "
           << Helpers << ")\n";
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
  bool Ok = check("lower-float-atomic-minmax<nan=fast>", 2);
  Ok &= check("function(lower-float-atomic-minmax<nan=fast>)", 0);
  return Ok ? 0 : 1;
}
