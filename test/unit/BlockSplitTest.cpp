//===- BlockSplitTest.cpp - Splitting blocks at lowered atomics -----------===//
//
// lib/SPIRV/BlockSplit on the loop shapes that broke before: a loop that is
// one block (header, continue target and back edge), an OpLine before the
// phis of a successor whose predecessor was split, and an OpLine before the
// phis of a loop header.  The lowering is a stand-in (the atomic moves into
// a block of its own), so that what is tested is the splitting; every
// result must pass spirv-val.
//
//===----------------------------------------------------------------------===//

#include "BlockSplit.h"
#include "Module.h"
#include "SpirvTestSupport.h"

#include <spirv-tools/libspirv.hpp>

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

using namespace fatomic::spirv;
using namespace fatomic::test;

namespace {

const char *const Header = R"(
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %1 "main" %10
               OpExecutionMode %1 LocalSize 1 1 1
          %8 = OpString "shader.comp"
               OpDecorate %20 Block
               OpMemberDecorate %20 0 Offset 0
               OpDecorate %10 DescriptorSet 0
               OpDecorate %10 Binding 0
          %2 = OpTypeVoid
          %3 = OpTypeFunction %2
          %5 = OpTypeInt 32 0
          %7 = OpTypeBool
         %20 = OpTypeStruct %5
         %21 = OpTypePointer StorageBuffer %20
         %22 = OpTypePointer StorageBuffer %5
         %10 = OpVariable %21 StorageBuffer
         %30 = OpConstant %5 0
         %31 = OpConstant %5 1
         %32 = OpConstant %5 10
          %1 = OpFunction %2 None %3
         %40 = OpLabel
         %41 = OpAccessChain %22 %10 %30
)";

/// A function made of \p Body after the entry block's access chain; %53 is
/// the atomic that is split at.
struct Split {
  Module M;

  void run(const std::string &Body) {
    std::vector<uint32_t> Words;
    ASSERT_TRUE(assembleText(std::string(Header) + Body + "OpFunctionEnd\n", Words));
    ASSERT_EQ(validationError(Words), "") << "the input is invalid";
    ASSERT_TRUE(parseWords(M, Words));
    const std::set<InstRef> Sites{M.def(53)};
    BlockSplit::Hooks H;
    H.IsSite = [Sites](InstRef R) { return Sites.count(R) != 0; };
    H.Outline = [](InstRef) { return Module::NoInst; };
    H.Lower = [this](std::vector<Block> &Blocks, InstRef R) {
      const uint32_t L = M.newId();
      Blocks.back().Body.push_back(M.create(Op::OpBranch, 0, 0, {L}));
      Block B;
      B.Label = L;
      B.LabelInst = M.create(Op::OpLabel, 0, L, {});
      B.Body.push_back(R);
      Blocks.push_back(std::move(B));
    };
    BlockSplit(M, std::move(H)).run(M.functions()[0]);
  }
  /// Empty when the split module is valid, else spirv-val's message.
  std::string validate() const { return validationError(M.emit()); }
  const Block *block(uint32_t Label) const {
    for (const Block &B : M.functions()[0].Blocks)
      if (B.Label == Label)
        return &B;
    return nullptr;
  }
  std::vector<Op> opcodes(const Block &B) const { return opcodesOf(M, B.Body); }
};

/// A loop of one block (%50: header, continue target and back edge) around
/// the atomic %53; \p PhiLine and \p AtomicLine stand before the phi and
/// the atomic.
std::string oneBlockLoop(const std::string &PhiLine = "",
                         const std::string &AtomicLine = "") {
  return R"(
               OpBranch %50
         %50 = OpLabel
)" + PhiLine + R"(
         %51 = OpPhi %5 %30 %40 %52 %50
)" + AtomicLine + R"(
         %53 = OpAtomicIAdd %5 %41 %31 %30 %31
         %52 = OpIAdd %5 %51 %31
         %54 = OpULessThan %7 %52 %32
               OpLoopMerge %60 %50 None
               OpBranchConditional %54 %50 %60
         %60 = OpLabel
               OpReturn
)";
}

/// The atomic %53, then a branch to %70, whose body before its OpReturn is
/// \p Successor.
std::string atomicThenSuccessor(const std::string &Successor) {
  return R"(
         %53 = OpAtomicIAdd %5 %41 %31 %30 %31
               OpBranch %70
         %70 = OpLabel
)" + Successor + R"(
               OpReturn
)";
}

/// Splits \p Body in \p S; the result must pass spirv-val.
void splitValid(Split &S, const std::string &Body) {
  S.run(Body);
  ASSERT_FALSE(::testing::Test::HasFatalFailure());
  EXPECT_EQ(S.validate(), "");
}

TEST(BlockSplit, OneBlockLoopGetsAContinueTarget) {
  Split S;
  splitValid(S, oneBlockLoop());
  ASSERT_FALSE(HasFatalFailure());
  // The header keeps its phi, its merge and a branch.
  const Block *H = S.block(50);
  ASSERT_TRUE(H);
  EXPECT_EQ(S.opcodes(*H), (std::vector<Op>{Op::OpPhi, Op::OpLoopMerge, Op::OpBranch}));
  // The continue target is a new block that holds the back edge, and the
  // phi names it.
  const InstRef Merge = H->Body[1];
  const uint32_t Cont = S.M.operand(Merge, 1);
  EXPECT_NE(Cont, 50u);
  const Block *C = S.block(Cont);
  ASSERT_TRUE(C);
  EXPECT_EQ(S.opcodes(*C), std::vector<Op>{Op::OpBranchConditional});
  EXPECT_EQ(S.M.operand(H->Body[0], 3), Cont);
}

TEST(BlockSplit, LineBeforeTheSuccessorsPhi) {
  Split S;
  splitValid(S, atomicThenSuccessor(R"(
               OpLine %8 3 1
         %71 = OpPhi %5 %53 %40
)"));
  ASSERT_FALSE(HasFatalFailure());
  // The phi names the piece that now branches to it.
  const InstRef Phi = S.M.def(71);
  const uint32_t From = S.M.operand(Phi, 1);
  EXPECT_NE(From, 40u);
  const Block *B = S.block(From);
  ASSERT_TRUE(B);
  EXPECT_EQ(S.M.inst(B->Body.back()).Opcode, Op::OpBranch);
}

TEST(BlockSplit, LineBeforeALoopHeadersPhi) {
  Split S;
  splitValid(S, oneBlockLoop("OpLine %8 7 1", "OpLine %8 8 1"));
  ASSERT_FALSE(HasFatalFailure());
  const Block *H = S.block(50);
  ASSERT_TRUE(H);
  EXPECT_EQ(S.opcodes(*H),
            (std::vector<Op>{Op::OpLine, Op::OpPhi, Op::OpLoopMerge, Op::OpBranch}));
}

TEST(BlockSplit, LeadingPhisCountLinesAmongThem) {
  Split S;
  splitValid(S, atomicThenSuccessor(R"(
               OpLine %8 3 1
         %71 = OpPhi %5 %53 %40
               OpNoLine
         %72 = OpPhi %5 %30 %40
               OpLine %8 4 1
         %73 = OpIAdd %5 %71 %72
)"));
  ASSERT_FALSE(HasFatalFailure());
  const Block *B = S.block(70);
  ASSERT_TRUE(B);
  EXPECT_EQ(leadingPhis(S.M, B->Body, B->Body.size()), 4u);
  EXPECT_EQ(leadingPhis(S.M, B->Body, 1), 0u); // an OpLine alone
  // Both phis name the new predecessor.
  EXPECT_EQ(S.M.operand(S.M.def(71), 1), S.M.operand(S.M.def(72), 1));
  EXPECT_NE(S.M.operand(S.M.def(72), 1), 40u);
}

} // namespace
