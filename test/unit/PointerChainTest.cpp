//===- PointerChainTest.cpp - From a pointer back to its variable ---------===//
//
// lib/SPIRV/PointerChain: the walk through access chains and copies to the
// variable (the chains root side first, NonUniform noted), where it stops
// otherwise (a select, a pointer of another storage class), and a select
// between two paths into one variable resolved into one access chain.
//
//===----------------------------------------------------------------------===//

#include "LoweringState.h"
#include "fatomic/InlineRetry.h"
#include "Module.h"
#include "PointerChain.h"
#include "SpirvTestSupport.h"

#include <spirv-tools/libspirv.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

using namespace fatomic;
using namespace fatomic::spirv;

namespace {

const char *const Text = R"(
               OpCapability Shader
               OpCapability AtomicFloat32MinMaxEXT
               OpExtension "SPV_EXT_shader_atomic_float_min_max"
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %1 "main" %10
               OpExecutionMode %1 LocalSize 64 1 1
               OpDecorate %43 NonUniform
          %2 = OpTypeVoid
          %3 = OpTypeFunction %2
          %4 = OpTypeFloat 32
          %5 = OpTypeInt 32 0
          %6 = OpConstant %5 4
          %7 = OpTypeBool
         %20 = OpTypeArray %4 %6
         %23 = OpTypeStruct %20 %4
         %24 = OpTypeArray %23 %6
         %21 = OpTypePointer Workgroup %24
         %25 = OpTypePointer Workgroup %23
         %26 = OpTypePointer Workgroup %20
         %22 = OpTypePointer Workgroup %4
         %10 = OpVariable %21 Workgroup
         %30 = OpConstant %5 0
         %31 = OpConstant %5 1
         %34 = OpConstantTrue %7
         %35 = OpConstant %4 2
          %1 = OpFunction %2 None %3
         %40 = OpLabel
         %41 = OpAccessChain %25 %10 %31
         %42 = OpCopyObject %25 %41
         %43 = OpAccessChain %22 %42 %30 %31
         %44 = OpAccessChain %22 %10 %30 %30 %30
         %45 = OpSelect %22 %34 %43 %44
         %46 = OpAccessChain %22 %10 %31 %31
         %47 = OpSelect %22 %34 %44 %46
         %48 = OpLoad %4 %47
         %49 = OpAccessChain %22 %10 %30 %30 %31
         %50 = OpAccessChain %22 %10 %31 %30 %31
         %51 = OpSelect %22 %34 %49 %50
         %52 = OpAtomicFMaxEXT %4 %51 %31 %30 %35
               OpReturn
               OpFunctionEnd
)";

struct Walks : ::testing::Test {
  Module M;
  LoweringOptions Opts;
  TargetModel Target;
  spvtools::MessageConsumer Consumer;
  std::unique_ptr<LoweringContext> C;

  void SetUp() override {
    ASSERT_TRUE(test::assembleAndParse(M, Text));
    C = std::make_unique<LoweringContext>(M, Opts, Target, Consumer);
  }
};

TEST_F(Walks, ThroughChainsAndCopiesToTheVariable) {
  const ChainWalk W = walkPointerChain(*C, 43, spv::StorageClass::Workgroup);
  EXPECT_EQ(W.Stop, ChainWalk::End::Variable);
  EXPECT_EQ(W.Id, 10u);
  EXPECT_EQ(W.Chain, (std::vector<InstRef>{M.def(41), M.def(43)})); // root side first
  EXPECT_TRUE(W.NonUniform);
  std::vector<InstRef> Chain;
  EXPECT_EQ(chainRoot(*C, 43, Chain), 10u);
  EXPECT_EQ(Chain, W.Chain);
  // The path: 1 (array), 0 (struct member, a value), 1 (array).
  std::vector<uint32_t> Ids;
  std::vector<uint64_t> Members;
  ASSERT_TRUE(flatIndices(*C, Chain, Ids, Members));
  EXPECT_EQ(Ids, (std::vector<uint32_t>{31, 30, 31}));
  EXPECT_EQ(Members, (std::vector<uint64_t>{~uint64_t{0}, 0, ~uint64_t{0}}));
}

TEST_F(Walks, StopsAtASelectOrAnotherStorageClass) {
  const ChainWalk W = walkPointerChain(*C, 45, std::nullopt);
  EXPECT_EQ(W.Stop, ChainWalk::End::Other);
  EXPECT_EQ(W.Def, M.def(45));
  const ChainWalk P = walkPointerChain(*C, 43, spv::StorageClass::StorageBuffer);
  EXPECT_EQ(P.Stop, ChainWalk::End::NotSamePointer);
  std::vector<InstRef> Chain;
  EXPECT_EQ(chainRoot(*C, 45, Chain), 0u);
  const ChainWalk U = walkPointerChain(*C, 999, std::nullopt);
  EXPECT_EQ(U.Stop, ChainWalk::End::NoDefinition);
}

TEST_F(Walks, ASelectOfArrayIndicesBecomesOneChain) {
  // %51, the atomic's pointer, chooses between [0].a[1] and [1].a[1]: one
  // chain with the first index selected.  %45 and %47 lead to no atomic.
  resolvePointerSelects(*C);
  ASSERT_EQ(M.opOf(51), Op::OpAccessChain);
  const InstRef R = M.def(51);
  ASSERT_EQ(M.numOperands(R), 4u);
  EXPECT_EQ(M.operand(R, 0), 10u);
  const InstRef Index = M.def(M.operand(R, 1));
  ASSERT_EQ(M.inst(Index).Opcode, Op::OpSelect);
  EXPECT_EQ(M.operand(Index, 0), 34u);
  EXPECT_EQ(M.operand(Index, 1), 30u);
  EXPECT_EQ(M.operand(Index, 2), 31u);
  EXPECT_EQ(M.operand(R, 2), 30u);
  EXPECT_EQ(M.operand(R, 3), 31u);
  EXPECT_EQ(M.opOf(45), Op::OpSelect);
  EXPECT_EQ(M.opOf(47), Op::OpSelect);
  // The new select sits before the chain in the block.
  const std::vector<InstRef> &Body = M.functions()[0].Blocks[0].Body;
  const auto At = [&](InstRef X) { return std::find(Body.begin(), Body.end(), X); };
  EXPECT_LT(At(Index), At(R));
}

} // namespace

// The advice that ends every UntraceablePointer error gives way after the
// retry (fatomic-opt and the layer pass the second attempt's messages
// through afterInlineRetry); a message without it stays.
TEST(InlineRetry, AfterTheRetryTheAdviceGoes) {
  const std::string Known = "the pointer of %9 comes from %8 = OpPhi, so its variable is not known";
  EXPECT_EQ(fatomic::afterInlineRetry(Known + "; " + fatomic::spirv::InlineFirstAdvice),
            Known + ", even with the entry points inlined");
  EXPECT_EQ(fatomic::afterInlineRetry("id bound 0 is out of range"), "id bound 0 is out of range");
}
