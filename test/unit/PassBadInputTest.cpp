//===- PassBadInputTest.cpp - The library entry point on bad words --------===//
//
// LowerFloatAtomicMinMaxPass::Process must report, never crash, on words
// that are not a well-formed module: each case expects Failure, the words
// untouched, exactly one error through the consumer, the failure kind, and
// the message.  The good modules are assembled with SPIRV-Tools; the bad
// ones are derived from them word by word (docs/robustness.md has the
// catalogue; the fuzz targets in test/fuzz found some of these).
//
//===----------------------------------------------------------------------===//

#include "SpirvTestSupport.h"

#include "fatomic/LowerFloatAtomicMinMax.h"

#include <spirv-tools/libspirv.hpp>
#include <spirv/unified1/spirv.hpp11>

#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

using namespace fatomic;
using fatomic::test::assemble;
using fatomic::test::validationError;

namespace {

using fatomic::test::BufferMaxModule;

struct Result {
  PassStatus Status;
  FailureKind Kind;
  std::vector<std::string> Errors;
  std::vector<uint32_t> Words;
};

Result lower(std::vector<uint32_t> Words, TargetModel Target = {}) {
  LowerFloatAtomicMinMaxPass Pass(LoweringOptions{}, Target);
  Result R;
  Pass.SetMessageConsumer([&R](spv_message_level_t Level, const char *,
                               const spv_position_t &, const char *Text) {
    if (Level <= SPV_MSG_ERROR)
      R.Errors.push_back(Text);
  });
  R.Status = Pass.Process(Words);
  R.Kind = Pass.lastFailure();
  R.Words = std::move(Words);
  return R;
}

/// Failure, words untouched, one error of kind \p Kind containing \p Text.
void expectRejected(const std::vector<uint32_t> &Words, FailureKind Kind,
                    const std::string &Text) {
  const Result R = lower(Words);
  EXPECT_EQ(R.Status, PassStatus::Failure);
  EXPECT_EQ(R.Kind, Kind);
  EXPECT_EQ(R.Words, Words) << "the words changed on failure";
  ASSERT_EQ(R.Errors.size(), 1u);
  EXPECT_NE(R.Errors[0].find(Text), std::string::npos) << R.Errors[0];
}

/// Index of the first instruction with \p Opcode.
size_t find(const std::vector<uint32_t> &W, spv::Op Opcode) {
  for (size_t I = 5; I < W.size(); I += W[I] >> 16)
    if ((W[I] & 0xFFFF) == uint32_t(Opcode))
      return I;
  ADD_FAILURE() << "no instruction with opcode " << uint32_t(Opcode);
  return 0;
}

/// Moves the instruction at word \p From so that it stands before word
/// \p To (both indices into the words before the move).
void moveInstruction(std::vector<uint32_t> &W, size_t From, size_t To) {
  const size_t End = From + (W[From] >> 16);
  if (To < From)
    std::rotate(W.begin() + To, W.begin() + From, W.begin() + End);
  else
    std::rotate(W.begin() + From, W.begin() + End, W.begin() + To);
}

TEST(PassBadInput, GoodModuleLowers) {
  const Result R = lower(assemble(BufferMaxModule));
  EXPECT_EQ(R.Status, PassStatus::SuccessWithChange);
  EXPECT_TRUE(R.Errors.empty());
}

TEST(PassBadInput, Empty) {
  expectRejected({}, FailureKind::InvalidModule, "shorter than the 20-byte header");
}

TEST(PassBadInput, HeaderOnly) {
  std::vector<uint32_t> W = assemble(BufferMaxModule);
  W.resize(5);
  expectRejected(W, FailureKind::InvalidModule, "module has no OpMemoryModel");
}

TEST(PassBadInput, WrongMagic) {
  std::vector<uint32_t> W = assemble(BufferMaxModule);
  W[0] = 0xDEADBEEF;
  expectRejected(W, FailureKind::InvalidModule, "bad magic 0xdeadbeef");
}

// A version word spvBinaryParse does not know: it reported "Internal
// error: unhandled header parse failure", which reads as a bug of its own.
TEST(PassBadInput, UnknownVersion) {
  std::vector<uint32_t> W = assemble(BufferMaxModule);
  W[1] = 0x00010700;
  expectRejected(W, FailureKind::InvalidModule,
                 "unsupported SPIR-V version word 0x00010700: fatomic reads SPIR-V 1.0 to 1.6");
  W[1] = 0x00020000;
  expectRejected(W, FailureKind::InvalidModule, "unsupported SPIR-V version word 0x00020000");
  W[1] = 0x00010301;
  expectRejected(W, FailureKind::InvalidModule, "unsupported SPIR-V version word 0x00010301");
}

TEST(PassBadInput, IdBoundZeroAndTooBig) {
  std::vector<uint32_t> W = assemble(BufferMaxModule);
  W[3] = 0;
  expectRejected(W, FailureKind::InvalidModule, "id bound 0 is out of range");
  W[3] = 0x400001;
  expectRejected(W, FailureKind::InvalidModule, "id bound 4194305 is out of range");
}

TEST(PassBadInput, WordCountZero) {
  std::vector<uint32_t> W = assemble(BufferMaxModule);
  W[5] &= 0xFFFF;
  expectRejected(W, FailureKind::InvalidModule, "Invalid instruction word count: 0");
}

TEST(PassBadInput, WordCountPastTheEnd) {
  std::vector<uint32_t> W = assemble(BufferMaxModule);
  const size_t End = find(W, spv::Op::OpFunctionEnd);
  W[End] = (4u << 16) | (W[End] & 0xFFFF);
  expectRejected(W, FailureKind::InvalidModule, "stated word count is 4");
}

TEST(PassBadInput, Truncated) {
  std::vector<uint32_t> W = assemble(BufferMaxModule);
  W.pop_back(); // OpFunctionEnd
  expectRejected(W, FailureKind::InvalidModule, "the last function has no OpFunctionEnd");
}

TEST(PassBadInput, CodeOutsideABlock) {
  // The access chain moved in front of the OpLabel: only debug
  // instructions may stand there.  (%14 is %pf: the assembler numbers the
  // names, and nothing here carries OpName.)
  std::vector<uint32_t> W = assemble(BufferMaxModule);
  moveInstruction(W, find(W, spv::Op::OpAccessChain), find(W, spv::Op::OpLabel));
  expectRejected(W, FailureKind::InvalidModule,
                 "instruction outside a block in a function: %14 = OpAccessChain");
}

TEST(PassBadInput, ConstantInAFunction) {
  // The constant 2.0 moved into the entry block, after the OpLabel: a
  // type or constant there would be invisible to the pass's type lookups.
  std::vector<uint32_t> W = assemble(BufferMaxModule);
  const size_t Label = find(W, spv::Op::OpLabel);
  size_t Two = find(W, spv::Op::OpConstant);
  for (int K = 0; K < 2; ++K) // past %uint_0 and %device
    Two += W[Two] >> 16;
  moveInstruction(W, Two, Label + (W[Label] >> 16));
  expectRejected(W, FailureKind::InvalidModule,
                 "module-level instruction in a function: %");
}

TEST(PassBadInput, GlobalAfterAFunction) {
  // The variable moved after the function.
  std::vector<uint32_t> W = assemble(BufferMaxModule);
  moveInstruction(W, find(W, spv::Op::OpVariable), W.size());
  // The constants after it are now after the function too; the first of
  // them is what the reader meets.
  expectRejected(W, FailureKind::InvalidModule, "instruction between or after functions");
}

TEST(PassBadInput, UnknownOpcode) {
  std::vector<uint32_t> W = assemble(BufferMaxModule);
  const size_t Fn = find(W, spv::Op::OpFunction);
  W[Fn] = (W[Fn] & 0xFFFF0000) | 0xFFF0;
  expectRejected(W, FailureKind::InvalidModule, "Invalid opcode: 65520");
}

TEST(PassBadInput, ResultIdNotBelowBound) {
  std::vector<uint32_t> W = assemble(BufferMaxModule);
  // %r is the largest id; a bound equal to it leaves it out.
  W[3] = W[find(W, spv::Op::OpAtomicFMaxEXT) + 2];
  expectRejected(W, FailureKind::InvalidModule, "is not below the id bound");
}

TEST(PassBadInput, OperandIdAtOrAboveBound) {
  // The atomic's value operand names an id past the bound, which nothing
  // defines and which the pass's own new ids would define.
  std::vector<uint32_t> W = assemble(BufferMaxModule);
  const size_t Atomic = find(W, spv::Op::OpAtomicFMaxEXT);
  W[Atomic + 6] = W[3] + 3;
  expectRejected(W, FailureKind::InvalidModule,
                 "id %" + std::to_string(W[3] + 3) + " in %");
}

TEST(PassBadInput, IntegerOfAnOddWidth) {
  std::vector<uint32_t> W = assemble(BufferMaxModule);
  W[find(W, spv::Op::OpTypeInt) + 2] = 0xFF000040;
  expectRejected(W, FailureKind::InvalidModule,
                 "= OpTypeInt has width 4278190144, not 8, 16, 32 or 64");
}

TEST(PassBadInput, ResultIdDefinedTwice) {
  std::vector<uint32_t> W = assemble(BufferMaxModule);
  const size_t Var = find(W, spv::Op::OpVariable);
  const uint32_t N = W[Var] >> 16;
  W.insert(W.begin() + Var + N, W.begin() + Var, W.begin() + Var + N);
  expectRejected(W, FailureKind::InvalidModule, "is defined more than once");
}

// Words in the other byte order are refused by their magic number
// (docs/diagnostics.md): read as they are, their strings come out garbled and
// the module would come back in the host's order.  fatomic-opt swaps a
// big-endian file before it gets here (bad-input/big-endian.test).
TEST(PassBadInput, ByteSwappedWordsAreRefused) {
  std::vector<uint32_t> W = assemble(BufferMaxModule);
  for (uint32_t &X : W)
    X = __builtin_bswap32(X);
  expectRejected(W, FailureKind::InvalidModule,
                 "not a SPIR-V module: bad magic 0x03022307");
}

// The lowering adds the alias variable (and the bound cache's variables) to
// the entry point's interface: an OpEntryPoint already at the 65535-word
// limit cannot take them.
TEST(PassBadInput, EntryPointAtTheWordLimit) {
  std::vector<uint32_t> W = assemble(BufferMaxModule);
  const size_t Ep = find(W, spv::Op::OpEntryPoint);
  const uint32_t N = W[Ep] >> 16;
  const uint32_t Var = W[Ep + N - 1]; // %buf, the last interface id
  W.insert(W.begin() + Ep + N, 0xFFFF - N, Var);
  W[Ep] = (0xFFFFu << 16) | (W[Ep] & 0xFFFF);
  expectRejected(W, FailureKind::Unsupported,
                 "OpEntryPoint: lowering would make it 65537 words long, above "
                 "the SPIR-V limit of 65535");
}

// Found by fuzz-pass (test/fuzz/regressions/pass): an access chain index
// into an id that is no type was followed as if it were one.
TEST(PassBadInput, AccessChainIntoUndefinedType) {
  std::vector<uint32_t> W = assemble(BufferMaxModule);
  // %Buf's only member becomes %main, which is not a type.
  const size_t Struct = find(W, spv::Op::OpTypeStruct);
  W[Struct + 2] = W[find(W, spv::Op::OpFunction) + 2];
  expectRejected(W, FailureKind::InvalidModule,
                 "the access chains do not lead to the atomic's float type");
}

TEST(PassBadInput, PointerChainInACircle) {
  // The access chain's base is its own result.
  std::vector<uint32_t> W = assemble(BufferMaxModule);
  const size_t Ac = find(W, spv::Op::OpAccessChain);
  W[Ac + 3] = W[Ac + 2];
  expectRejected(W, FailureKind::InvalidModule, "goes round in a circle");
}

// A message consumer that throws at the first error: the exception leaves
// Process, and lastFailure() still names the error's kind (before, it said
// None, as Process had not yet copied the kind from the lowering).
TEST(PassBadInput, ThrowingConsumerKeepsTheFailureKind) {
  std::vector<uint32_t> W = assemble(BufferMaxModule);
  const size_t A = find(W, spv::Op::OpAtomicFMaxEXT);
  W[A + 1] = W[find(W, spv::Op::OpTypeInt) + 1]; // the result type becomes %uint
  const std::vector<uint32_t> Before = W;
  LowerFloatAtomicMinMaxPass Pass(LoweringOptions{}, TargetModel{});
  Pass.SetMessageConsumer([](spv_message_level_t, const char *, const spv_position_t &,
                             const char *Text) { throw std::runtime_error(Text); });
  EXPECT_THROW(Pass.Process(W), std::runtime_error);
  EXPECT_EQ(Pass.lastFailure(), FailureKind::Unsupported);
  EXPECT_EQ(W, Before) << "the words changed";
}

TEST(PassBadInput, PointeeIsNotTheResultType) {
  std::vector<uint32_t> W = assemble(BufferMaxModule);
  // The atomic's result type becomes %uint.
  const size_t A = find(W, spv::Op::OpAtomicFMaxEXT);
  W[A + 1] = W[find(W, spv::Op::OpTypeInt) + 1];
  expectRejected(W, FailureKind::Unsupported, "only scalar float results are supported");
}

// Workgroup variables retyped for a lowered atomic: a cyclic struct type is
// malformed, not followed forever.
TEST(PassBadInput, CyclicWorkgroupType) {
  const std::string Text = R"(
               OpCapability Shader
               OpCapability AtomicFloat32MinMaxEXT
               OpExtension "SPV_EXT_shader_atomic_float_min_max"
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %1 "main" %8
               OpExecutionMode %1 LocalSize 1 1 1
          %2 = OpTypeVoid
          %3 = OpTypeFunction %2
          %4 = OpTypeFloat 32
          %5 = OpTypeInt 32 0
          %6 = OpTypeStruct %4 %4
          %7 = OpTypePointer Workgroup %6
          %9 = OpTypePointer Workgroup %4
          %8 = OpVariable %7 Workgroup
         %10 = OpConstant %5 0
         %11 = OpConstant %5 2
         %12 = OpConstant %4 2
          %1 = OpFunction %2 None %3
         %13 = OpLabel
         %14 = OpAccessChain %9 %8 %10
         %15 = OpAtomicFMinEXT %4 %14 %11 %10 %12
               OpReturn
               OpFunctionEnd
)";
  std::vector<uint32_t> W = assemble(Text);
  ASSERT_EQ(lower(W).Status, PassStatus::SuccessWithChange);
  // The struct's second member becomes the struct itself.
  W[find(W, spv::Op::OpTypeStruct) + 3] = 6;
  expectRejected(W, FailureKind::InvalidModule, "type is not well formed");
}

// A native f32 atomic on a Workgroup struct that is retyped for a lowered
// f64 atomic on the same variable: the retype turns only the f64 member
// into an integer, so the f32 member keeps its type and its native atomic
// (before, every float member was retyped and the f32 atomic was lowered
// as well, so as not to be left on an integer).
TEST(PassBadInput, NativeAtomicBesideRetypedWorkgroupMemberStaysNative) {
  const std::string Text = R"(
               OpCapability Shader
               OpCapability Float64
               OpCapability AtomicFloat32MinMaxEXT
               OpCapability AtomicFloat64MinMaxEXT
               OpExtension "SPV_EXT_shader_atomic_float_min_max"
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %1 "main" %8
               OpExecutionMode %1 LocalSize 1 1 1
          %2 = OpTypeVoid
          %3 = OpTypeFunction %2
          %4 = OpTypeFloat 32
         %20 = OpTypeFloat 64
          %5 = OpTypeInt 32 0
          %6 = OpTypeStruct %4 %20
          %7 = OpTypePointer Workgroup %6
          %9 = OpTypePointer Workgroup %4
         %21 = OpTypePointer Workgroup %20
          %8 = OpVariable %7 Workgroup
         %10 = OpConstant %5 0
         %16 = OpConstant %5 1
         %11 = OpConstant %5 2
         %12 = OpConstant %4 2
         %22 = OpConstant %20 2
          %1 = OpFunction %2 None %3
         %13 = OpLabel
         %14 = OpAccessChain %9 %8 %10
         %15 = OpAtomicFMinEXT %4 %14 %11 %10 %12
         %17 = OpAccessChain %21 %8 %16
         %18 = OpAtomicFMinEXT %20 %17 %11 %10 %22
               OpReturn
               OpFunctionEnd
)";
  TargetModel Target;
  Target.set(Feature::ShaderSharedFloat32AtomicMinMax);
  const Result R = lower(assemble(Text), Target);
  ASSERT_EQ(R.Status, PassStatus::SuccessWithChange);
  EXPECT_TRUE(R.Errors.empty());
  spvtools::SpirvTools Tools(SPV_ENV_VULKAN_1_2);
  std::string Dis;
  ASSERT_TRUE(Tools.Disassemble(R.Words, &Dis));
  EXPECT_NE(Dis.find("OpAtomicFMinEXT %float"), std::string::npos) << Dis;
  EXPECT_EQ(Dis.find("OpAtomicFMinEXT %double"), std::string::npos) << Dis;
  EXPECT_NE(Dis.find("OpTypeStruct %float %ulong"), std::string::npos) << Dis;
  EXPECT_EQ(validationError(R.Words), "");
}

} // namespace
