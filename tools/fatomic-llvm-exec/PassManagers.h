//===- PassManagers.h - LLVM's new pass manager for the linked-pass tools -===//
//
// What fatomic-llvm-static-check and fatomic-both-passes, the tools that link
// the LLVM pass instead of loading it, both need: the four analysis
// managers registered with a PassBuilder and cross-registered, and the
// count of float and integer atomicrmw instructions of a function.
//
//===----------------------------------------------------------------------===//

#ifndef FATOMIC_TOOLS_LLVM_EXEC_PASSMANAGERS_H
#define FATOMIC_TOOLS_LLVM_EXEC_PASSMANAGERS_H

#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Passes/PassBuilder.h"

namespace fatomic {
namespace hosttools {

/// The analysis managers of a module pipeline, registered with \p PB.
struct AnalysisManagers {
  llvm::LoopAnalysisManager LAM;
  llvm::FunctionAnalysisManager FAM;
  llvm::CGSCCAnalysisManager CGAM;
  llvm::ModuleAnalysisManager MAM;

  explicit AnalysisManagers(llvm::PassBuilder &PB) {
    PB.registerModuleAnalyses(MAM);
    PB.registerCGSCCAnalyses(CGAM);
    PB.registerFunctionAnalyses(FAM);
    PB.registerLoopAnalyses(LAM);
    PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
  }
};

/// The atomicrmw instructions of some functions: float and integer ones.
struct AtomicCount {
  unsigned Float = 0, Integer = 0;

  void add(llvm::Function &F) {
    for (llvm::Instruction &I : llvm::instructions(F))
      if (auto *RMW = llvm::dyn_cast<llvm::AtomicRMWInst>(&I))
        ++(RMW->isFloatingPointOperation() ? Float : Integer);
  }
};

} // namespace hosttools
} // namespace fatomic

#endif // FATOMIC_TOOLS_LLVM_EXEC_PASSMANAGERS_H
