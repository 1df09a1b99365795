//===- fatomic-both-passes.cpp - The SPIR-V and the LLVM pass in one program ===//
//
// An engine that compiles shaders to SPIR-V and kernels through LLVM uses
// both passes.  This translation unit includes both headers, the program
// links both static libraries (fatomic::spirv and fatomic_llvm), and runs
// each pass once: fatomic::LowerFloatAtomicMinMaxPass on a small SPIR-V
// module (OpAtomicFMinEXT on a storage buffer) and
// fatomic::llvmir::LowerFloatAtomicMinMaxPass on a small LLVM module
// (atomicrmw fmax).  Checks that each lowered its atomic and that the
// results validate / verify.  Exit status 0 on success.
//
//===----------------------------------------------------------------------===//

#include "PassManagers.h"

#include "fatomic/LLVM/LowerFloatAtomicMinMax.h"
#include "fatomic/LowerFloatAtomicMinMax.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <spirv-tools/libspirv.hpp>

#include <cstdio>

namespace {

const char *const SpirvSource = R"(
               OpCapability Shader
               OpCapability AtomicFloat32MinMaxEXT
               OpExtension "SPV_EXT_shader_atomic_float_min_max"
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main" %buf
               OpExecutionMode %main LocalSize 1 1 1
               OpDecorate %Blk Block
               OpMemberDecorate %Blk 0 Offset 0
               OpDecorate %buf DescriptorSet 0
               OpDecorate %buf Binding 0
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %uint = OpTypeInt 32 0
      %float = OpTypeFloat 32
        %Blk = OpTypeStruct %float
    %ptr_Blk = OpTypePointer StorageBuffer %Blk
  %ptr_float = OpTypePointer StorageBuffer %float
     %uint_0 = OpConstant %uint 0
     %uint_1 = OpConstant %uint 1
          %v = OpConstant %float 2.5
        %buf = OpVariable %ptr_Blk StorageBuffer
       %main = OpFunction %void None %fn
      %entry = OpLabel
          %p = OpAccessChain %ptr_float %buf %uint_0
          %r = OpAtomicFMinEXT %float %p %uint_1 %uint_0 %v
               OpReturn
               OpFunctionEnd
)";

const char *const LLVMSource = R"(
define float @f(ptr %p, float %v) {
  %r = atomicrmw fmax ptr %p, float %v monotonic, align 4
  ret float %r
}
)";

bool runSpirvPass() {
  spvtools::SpirvTools Tools(SPV_ENV_VULKAN_1_2);
  std::vector<uint32_t> Words;
  if (!Tools.Assemble(SpirvSource, &Words))
    return false;
  fatomic::LowerFloatAtomicMinMaxPass Pass(fatomic::LoweringOptions{},
                                           fatomic::TargetModel{});
  if (Pass.Process(Words) != fatomic::PassStatus::SuccessWithChange ||
      Pass.loweredCount() != 1) {
    std::fprintf(stderr, "SPIR-V pass: expected one lowered atomic\n");
    return false;
  }
  if (!Tools.Validate(Words)) {
    std::fprintf(stderr, "SPIR-V pass: the output does not validate\n");
    return false;
  }
  return true;
}

bool runLLVMPass() {
  using namespace llvm;
  LLVMContext Ctx;
  SMDiagnostic Diag;
  std::unique_ptr<Module> M = parseAssemblyString(LLVMSource, Diag, Ctx);
  if (!M)
    return false;
  PassBuilder PB;
  fatomic::hosttools::AnalysisManagers AM(PB);
  ModulePassManager MPM;
  fatomic::LoweringOptions Options;
  Options.Outline = false;
  MPM.addPass(fatomic::llvmir::LowerFloatAtomicMinMaxPass(Options));
  MPM.run(*M, AM.MAM);
  fatomic::hosttools::AtomicCount Atomics;
  Atomics.add(*M->getFunction("f"));
  if (Atomics.Float != 0 || Atomics.Integer == 0 || verifyModule(*M, &errs())) {
    std::fprintf(stderr, "LLVM pass: expected only integer atomics\n");
    return false;
  }
  return true;
}

} // namespace

int main() {
  const bool Spirv = runSpirvPass(), LLVM = runLLVMPass();
  std::printf("fatomic-both-passes: SPIR-V pass %s, LLVM pass %s\n",
              Spirv ? "ok" : "FAILED", LLVM ? "ok" : "FAILED");
  return Spirv && LLVM ? 0 : 1;
}
