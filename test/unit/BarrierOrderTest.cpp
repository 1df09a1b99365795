//===- BarrierOrderTest.cpp - Workgroup barriers order a write -------------===//
//
// lib/SPIRV/BarrierOrder on small assembled compute shaders: a store to a
// Workgroup float (%12) and an atomic max on it, in the shapes that order
// the store before every atomic (a workgroup barrier between, the store in
// a branch before the barrier, a barrier at the top of the atomic's loop)
// and in those that do not (no barrier, the two in the two arms of one
// branch, a loop back to the store, a barrier of subgroup scope or without
// WorkgroupMemory, code in a called function, the atomic first).
//
//===----------------------------------------------------------------------===//

#include "BarrierOrder.h"
#include "Module.h"
#include "SpirvTestSupport.h"

#include <gtest/gtest.h>

#include <ostream>
#include <string>
#include <vector>

using namespace fatomic::spirv;
using namespace fatomic::test;

namespace {

// BODY holds the entry point's blocks after its first label %40; FUNCS any
// further functions.  %33/%36 are Workgroup/Subgroup scopes, %34 the
// semantics of GLSL's barrier() (AcquireRelease | WorkgroupMemory), %37
// AcquireRelease | UniformMemory.
const char *const Template = R"(
               OpCapability Shader
               OpCapability AtomicFloat32MinMaxEXT
               OpExtension "SPV_EXT_shader_atomic_float_min_max"
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %1 "main"
               OpExecutionMode %1 LocalSize 64 1 1
          %2 = OpTypeVoid
          %3 = OpTypeFunction %2
          %4 = OpTypeFloat 32
          %5 = OpTypeInt 32 0
          %6 = OpTypeBool
         %26 = OpTypePointer Workgroup %4
         %12 = OpVariable %26 Workgroup
         %30 = OpConstant %5 0
         %31 = OpConstant %5 1
         %32 = OpConstant %4 2
         %33 = OpConstant %5 2
         %34 = OpConstant %5 264
         %35 = OpConstantTrue %6
         %36 = OpConstant %5 3
         %37 = OpConstant %5 72
          %1 = OpFunction %2 None %3
         %40 = OpLabel
BODY
               OpFunctionEnd
FUNCS
)";

struct Shape {
  const char *Name, *Body, *Funcs;
  bool Before;
};

void PrintTo(const Shape &S, std::ostream *OS) { *OS << S.Name; }

std::string replace(std::string S, const std::string &Key, const std::string &Value) {
  S.replace(S.find(Key), Key.size(), Value);
  return S;
}

/// The first instruction of \p M with opcode \p O, or NoInst.
InstRef first(const Module &M, Op O) {
  for (const Function &F : M.functions())
    for (const Block &B : F.Blocks)
      for (InstRef R : B.Body)
        if (M.inst(R).Opcode == O)
          return R;
  return Module::NoInst;
}

class BarrierOrderShapes : public ::testing::TestWithParam<Shape> {};

TEST_P(BarrierOrderShapes, StoreBeforeEveryAtomic) {
  const Shape &S = GetParam();
  std::vector<uint32_t> Words;
  ASSERT_TRUE(assembleText(replace(replace(Template, "BODY", S.Body), "FUNCS", S.Funcs),
                           Words, SPV_ENV_UNIVERSAL_1_5));
  Module M;
  ASSERT_TRUE(parseWords(M, Words));
  const InstRef W = first(M, Op::OpStore), A = first(M, Op::OpAtomicFMaxEXT);
  ASSERT_NE(W, Module::NoInst);
  ASSERT_NE(A, Module::NoInst);
  EXPECT_EQ(BarrierOrder(M).before(W, A), S.Before);
}

#define STORE "OpStore %12 %32\n"
#define ATOMIC "%42 = OpAtomicFMaxEXT %4 %12 %31 %30 %32\n"
#define BARRIER "OpControlBarrier %33 %33 %34\n"

INSTANTIATE_TEST_SUITE_P(
    BarrierOrder, BarrierOrderShapes,
    ::testing::Values(
        Shape{"BarrierBetween", STORE BARRIER ATOMIC "OpReturn", "", true},
        Shape{"StoreInABranchBeforeTheBarrier",
              "OpSelectionMerge %45 None\nOpBranchConditional %35 %43 %45\n"
              "%43 = OpLabel\n" STORE "OpBranch %45\n"
              "%45 = OpLabel\n" BARRIER ATOMIC "OpReturn",
              "", true},
        Shape{"BarrierInTheAtomicsLoop",
              STORE "OpBranch %43\n"
              "%43 = OpLabel\nOpLoopMerge %45 %44 None\nOpBranch %46\n"
              "%46 = OpLabel\n" BARRIER ATOMIC "OpBranch %44\n"
              "%44 = OpLabel\nOpBranchConditional %35 %43 %45\n"
              "%45 = OpLabel\nOpReturn",
              "", true},
        Shape{"NoBarrier", STORE ATOMIC "OpReturn", "", false},
        Shape{"TheTwoArmsOfOneBranch",
              "OpSelectionMerge %45 None\nOpBranchConditional %35 %43 %44\n"
              "%43 = OpLabel\n" STORE "OpBranch %45\n"
              "%44 = OpLabel\n" ATOMIC "OpBranch %45\n"
              "%45 = OpLabel\n" BARRIER "OpReturn",
              "", false},
        Shape{"LoopBackToTheStore",
              "OpBranch %43\n"
              "%43 = OpLabel\nOpLoopMerge %45 %44 None\nOpBranch %46\n"
              "%46 = OpLabel\n" STORE BARRIER ATOMIC BARRIER "OpBranch %44\n"
              "%44 = OpLabel\nOpBranchConditional %35 %43 %45\n"
              "%45 = OpLabel\nOpReturn",
              "", false},
        Shape{"SubgroupScopeBarrier", STORE "OpControlBarrier %36 %36 %34\n" ATOMIC "OpReturn",
              "", false},
        Shape{"BarrierWithoutWorkgroupMemory", STORE "OpControlBarrier %33 %33 %37\n" ATOMIC
              "OpReturn", "", false},
        Shape{"AtomicFirst", ATOMIC BARRIER STORE "OpReturn", "", false},
        Shape{"InACalledFunction", "%50 = OpFunctionCall %2 %51\nOpReturn",
              "%51 = OpFunction %2 None %3\n%52 = OpLabel\n" STORE BARRIER ATOMIC
              "OpReturn\nOpFunctionEnd",
              false}));

} // namespace
