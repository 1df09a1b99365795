//===- PluginEntry.cpp - Entry point of FatomicLLVMPlugin -----------------===//
//
// The symbol `opt -load-pass-plugin` looks up.  Tools that link fatomic_llvm
// statically define FATOMIC_LLVM_LINK_INTO_TOOLS (or simply do not compile
// this file) and call fatomic::registerLowerFloatAtomicMinMax themselves.
//
//===----------------------------------------------------------------------===//

#include "fatomic/LLVM/LowerFloatAtomicMinMax.h"

#if __has_include("llvm/Plugins/PassPlugin.h")
#include "llvm/Plugins/PassPlugin.h"
#else
#include "llvm/Passes/PassPlugin.h"
#endif

#ifndef FATOMIC_LLVM_LINK_INTO_TOOLS
extern "C" LLVM_ALWAYS_EXPORT LLVM_ATTRIBUTE_WEAK ::llvm::PassPluginLibraryInfo
llvmGetPassPluginInfo() {
  return fatomic::getFatomicPluginInfo();
}
#endif
