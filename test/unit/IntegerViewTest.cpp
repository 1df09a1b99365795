//===- IntegerViewTest.cpp - The integer views of the SPIR-V pass ---------===//
//
// lib/SPIRV's three integer views on small assembled modules: BufferAlias
// (the alias variable with the atomic's path turned into integers),
// SharedRetype and ImageRetype (one walk that checks every use and records
// its edit, then the record applied).  Each test plans through the pass's
// own rooms, checks what was recorded or rejected, applies it, and runs
// the whole pass over the same module, whose output must validate.
//
//===----------------------------------------------------------------------===//

#include "BufferAlias.h"
#include "ImageRetype.h"
#include "IntegerTypes.h"
#include "LoweringState.h"
#include "Module.h"
#include "SharedRetype.h"
#include "SitePlan.h"
#include "SpirvTestSupport.h"

#include "fatomic/LowerFloatAtomicMinMax.h"

#include <spirv-tools/libspirv.hpp>

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

using namespace fatomic;
using namespace fatomic::spirv;
using namespace fatomic::test;

namespace {

/// Runs the whole pass; returns the validator's complaint ("" when valid).
std::string lowerAndValidate(const std::string &Text, LoweringOptions Opts = {}) {
  std::vector<uint32_t> Words = assemble(Text);
  LowerFloatAtomicMinMaxPass Pass(Opts, TargetModel{});
  std::string Error;
  Pass.SetMessageConsumer(appendMessagesTo(Error));
  if (Pass.Process(Words) != PassStatus::SuccessWithChange)
    return "the pass did not lower: " + Error;
  return validationError(Words);
}

/// The rooms of the pass over one module, up to the integer views.
struct Rooms {
  std::string Errors;
  spvtools::MessageConsumer Consumer = [this](spv_message_level_t, const char *,
                                              const spv_position_t &, const char *Msg) {
    Errors += Msg;
    Errors += '\n';
  };
  LoweringOptions Opts;
  TargetModel Target;
  Module M;
  std::unique_ptr<LoweringContext> C;
  SitePlan Plan;
  std::unique_ptr<IntegerTypes> Types;
  BodyEdits Edits;

  /// Parses \p Text and collects its sites.
  bool load(const std::string &Text) {
    if (!assembleAndParse(M, Text))
      return false;
    C = std::make_unique<LoweringContext>(M, Opts, Target, Consumer);
    Types = std::make_unique<IntegerTypes>(*C);
    SitePlanner Planner(*C, Plan);
    return Planner.collect();
  }
  std::vector<Op> opcodesOf(const std::vector<InstRef> &Refs) const {
    return test::opcodesOf(M, Refs);
  }
};

const char *const SharedModule = R"(
               OpCapability Shader
               OpCapability AtomicFloat32MinMaxEXT
               OpExtension "SPV_EXT_shader_atomic_float_min_max"
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %1 "main" %10 %11
               OpExecutionMode %1 LocalSize 64 1 1
          %2 = OpTypeVoid
          %3 = OpTypeFunction %2
          %4 = OpTypeFloat 32
          %5 = OpTypeInt 32 0
          %6 = OpConstant %5 4
          %7 = OpTypeBool
         %20 = OpTypeArray %4 %6
         %21 = OpTypePointer Workgroup %20
         %22 = OpTypePointer Workgroup %4
         %10 = OpVariable %21 Workgroup
         %11 = OpVariable %21 Workgroup
         %30 = OpConstant %5 0
         %31 = OpConstant %5 1
         %32 = OpConstant %4 2
         %33 = OpConstant %5 2
         %34 = OpConstantTrue %7
          %1 = OpFunction %2 None %3
         %40 = OpLabel
         %41 = OpAccessChain %22 %10 %31
         %42 = OpAtomicFMaxEXT %4 %41 %33 %30 %32
         %43 = OpLoad %4 %41
         %44 = OpFAdd %4 %43 %32
               OpStore %41 %44
               OpCopyMemory %10 %11
               EXTRA
               OpReturn
               OpFunctionEnd
)";

std::string withExtra(const char *Module, const std::string &Extra) {
  std::string S = Module;
  S.replace(S.find("EXTRA"), 5, Extra);
  return S;
}

TEST(SharedRetype, RecordsOneEditPerAccessAndAppliesThem) {
  Rooms R;
  ASSERT_TRUE(R.load(withExtra(SharedModule, ""))) << R.Errors;
  ASSERT_EQ(R.Plan.SharedRoots, std::set<uint32_t>{10});
  SharedRetype Shared(*R.C, R.Plan, *R.Types, R.Edits);
  ASSERT_TRUE(Shared.plan()) << R.Errors;
  ASSERT_TRUE(Shared.checkPaths()) << R.Errors;
  // The chain, the copy of memory, the load and the store; not the atomic
  // (lowered), not the entry point.
  std::vector<std::pair<Op, SharedRetype::Edit>> Got;
  for (const SharedRetype::Change &Ch : Shared.changesOf(10))
    Got.push_back({R.M.inst(Ch.Inst).Opcode, Ch.What});
  using E = SharedRetype::Edit;
  const std::vector<std::pair<Op, SharedRetype::Edit>> Want{
      {Op::OpAccessChain, E::Pointer},
      {Op::OpCopyMemory, E::CopyMemory},
      {Op::OpLoad, E::Result},
      {Op::OpStore, E::Value}};
  EXPECT_EQ(Got, Want);

  Shared.apply();
  Shared.splitCopies();
  R.Edits.apply(R.M);
  // The variable and the chain hold integers now; the load's old result id
  // is a bitcast of the integer it loads; the store stores a bitcast; the
  // copy of memory became a load, a conversion and a store.
  EXPECT_FALSE(R.C->hasFloat(R.C->pointee(R.C->typeOf(10))));
  EXPECT_EQ(R.M.opOf(R.C->pointee(R.C->typeOf(41))), Op::OpTypeInt);
  EXPECT_EQ(R.M.opOf(43), Op::OpBitcast);
  const std::vector<InstRef> &Body = R.M.functions()[0].Blocks[0].Body;
  const std::vector<Op> Ops = R.opcodesOf(Body);
  EXPECT_EQ(std::count(Ops.begin(), Ops.end(), Op::OpCopyMemory), 0);
  EXPECT_EQ(std::count(Ops.begin(), Ops.end(), Op::OpCompositeExtract), 4);
  EXPECT_EQ(lowerAndValidate(withExtra(SharedModule, "")), "");
}

TEST(SharedRetype, AUseItCannotRewriteStopsBeforeAnyChange) {
  Rooms R;
  // A select of the variable's pointer (a variable pointer): no rewrite.
  ASSERT_TRUE(R.load(withExtra(SharedModule, "%50 = OpSelect %21 %34 %10 %11"))) << R.Errors;
  const uint32_t TypeBefore = R.C->typeOf(10);
  SharedRetype Shared(*R.C, R.Plan, *R.Types, R.Edits);
  EXPECT_FALSE(Shared.plan());
  EXPECT_NE(R.Errors.find("uses Workgroup variable %10, which is retyped to integers"),
            std::string::npos)
      << R.Errors;
  EXPECT_EQ(R.C->Failure, FailureKind::Unsupported);
  EXPECT_EQ(R.C->typeOf(10), TypeBefore);
}

TEST(SharedRetype, CallsAreUntraceable) {
  Rooms R;
  std::string Text = withExtra(SharedModule, "%50 = OpFunctionCall %2 %60 %10");
  const std::string PtrType = "%22 = OpTypePointer Workgroup %4\n";
  Text.insert(Text.find(PtrType) + PtrType.size(), "%61 = OpTypeFunction %2 %21\n");
  Text += "%60 = OpFunction %2 None %61\n%62 = OpFunctionParameter %21\n%63 = OpLabel\n"
          "OpReturn\nOpFunctionEnd\n";
  ASSERT_TRUE(R.load(Text))
      << R.Errors;
  SharedRetype Shared(*R.C, R.Plan, *R.Types, R.Edits);
  EXPECT_FALSE(Shared.plan());
  EXPECT_EQ(R.C->Failure, FailureKind::UntraceablePointer);
  EXPECT_NE(R.Errors.find("passes Workgroup variable %10 to a function"), std::string::npos)
      << R.Errors;
}

const char *const ImageModule = R"(
               OpCapability Shader
               OpCapability AtomicFloat32MinMaxEXT
               OpExtension "SPV_EXT_shader_atomic_float_min_max"
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %1 "main" %10
               OpExecutionMode %1 LocalSize 8 8 1
               OpDecorate %10 DescriptorSet 0
               OpDecorate %10 Binding 0
          %2 = OpTypeVoid
          %3 = OpTypeFunction %2
          %4 = OpTypeFloat 32
          %5 = OpTypeInt 32 0
          %6 = OpTypeInt 32 1
          %7 = OpTypeVector %6 2
          %8 = OpTypeVector %4 4
         %20 = OpTypeImage %4 2D 0 0 0 2 R32f
         %21 = OpTypePointer UniformConstant %20
         %22 = OpTypePointer Image %4
         %10 = OpVariable %21 UniformConstant
         %30 = OpConstant %5 0
         %31 = OpConstant %5 1
         %32 = OpConstant %4 2
         %33 = OpConstant %6 0
         %34 = OpConstantComposite %7 %33 %33
          %1 = OpFunction %2 None %3
         %40 = OpLabel
         %41 = OpImageTexelPointer %22 %10 %34 %30
         %42 = OpAtomicFMaxEXT %4 %41 %31 %30 %32
         %43 = OpLoad %20 %10
         %44 = OpImageRead %8 %43 %34
               OpImageWrite %43 %34 %44
         %45 = OpAtomicLoad %4 %41 %31 %30
               EXTRA
               OpReturn
               OpFunctionEnd
)";

TEST(ImageRetype, RecordsOneEditPerUseAndAppliesThem) {
  Rooms R;
  R.Opts.RetypeImages = true;
  ASSERT_TRUE(R.load(withExtra(ImageModule, ""))) << R.Errors;
  ASSERT_EQ(R.Plan.ImageRoots, std::set<uint32_t>{10});
  ImageRetype Images(*R.C, R.Plan, *R.Types, R.Edits);
  ASSERT_TRUE(Images.plan()) << R.Errors;
  std::vector<std::pair<Op, ImageRetype::Edit>> Got;
  for (const ImageRetype::Change &Ch : Images.changesOf(10))
    Got.push_back({R.M.inst(Ch.Inst).Opcode, Ch.What});
  using E = ImageRetype::Edit;
  const std::vector<std::pair<Op, ImageRetype::Edit>> Want{
      {Op::OpImageTexelPointer, E::TexelPointer},
      {Op::OpLoad, E::LoadImage},
      {Op::OpImageRead, E::ReadResult},
      {Op::OpImageWrite, E::WriteTexel},
      {Op::OpAtomicLoad, E::AtomicResult}};
  EXPECT_EQ(Got, Want);

  Images.apply();
  R.Edits.apply(R.M);
  // An R32ui image of uint texels; reads and atomic loads give their old
  // result ids through bitcasts.
  const InstRef Image = R.M.def(R.C->pointee(R.C->typeOf(10)));
  EXPECT_EQ(R.M.operand(Image, 6), uint32_t(spv::ImageFormat::R32ui));
  EXPECT_EQ(R.M.opOf(R.M.operand(Image, 0)), Op::OpTypeInt);
  EXPECT_EQ(R.M.opOf(44), Op::OpBitcast);
  EXPECT_EQ(R.M.opOf(45), Op::OpBitcast);
  EXPECT_EQ(R.M.opOf(R.C->pointee(R.C->typeOf(41))), Op::OpTypeInt);
  LoweringOptions Opts;
  Opts.RetypeImages = true;
  EXPECT_EQ(lowerAndValidate(withExtra(ImageModule, ""), Opts), "");
}

TEST(ImageRetype, AUseWithoutIntegerFormIsRejected) {
  Rooms R;
  R.Opts.RetypeImages = true;
  ASSERT_TRUE(R.load(withExtra(ImageModule, "%50 = OpAtomicFAddEXT %4 %41 %31 %30 %32")))
      << R.Errors;
  const uint32_t TypeBefore = R.C->typeOf(10);
  ImageRetype Images(*R.C, R.Plan, *R.Types, R.Edits);
  EXPECT_FALSE(Images.plan());
  EXPECT_NE(R.Errors.find("image variable %10 is retyped to R32ui for its float min/max "
                          "atomics, but"),
            std::string::npos)
      << R.Errors;
  EXPECT_EQ(R.C->typeOf(10), TypeBefore);
}

const char *const BufferModule = R"(
               OpCapability Shader
               OpCapability AtomicFloat32MinMaxEXT
               OpExtension "SPV_EXT_shader_atomic_float_min_max"
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %1 "main" %10
               OpExecutionMode %1 LocalSize 64 1 1
               OpDecorate %20 Block
               OpMemberDecorate %20 0 Offset 0
               OpMemberDecorate %20 1 Offset 16
               OpDecorate %23 ArrayStride 4
               OpDecorate %10 DescriptorSet 0
               OpDecorate %10 Binding 3
          %2 = OpTypeVoid
          %3 = OpTypeFunction %2
          %4 = OpTypeFloat 32
          %5 = OpTypeInt 32 0
          %6 = OpConstant %5 4
         %23 = OpTypeArray %4 %6
         %24 = OpTypeVector %4 4
         %20 = OpTypeStruct %23 %24
         %21 = OpTypePointer StorageBuffer %20
         %22 = OpTypePointer StorageBuffer %4
         %10 = OpVariable %21 StorageBuffer
         %30 = OpConstant %5 0
         %31 = OpConstant %5 1
         %32 = OpConstant %4 2
          %1 = OpFunction %2 None %3
         %40 = OpLabel
         %41 = OpAccessChain %22 %10 %30 %31
         %42 = OpAtomicFMaxEXT %4 %41 %31 %30 %32
               OpReturn
               OpFunctionEnd
)";

TEST(BufferAlias, AliasesThePathOnly) {
  Rooms R;
  ASSERT_TRUE(R.load(BufferModule)) << R.Errors;
  BufferAlias Buffers(*R.C, R.Plan, *R.Types);
  ASSERT_TRUE(Buffers.plan()) << R.Errors;
  Buffers.apply();
  const uint32_t Alias = R.Plan.Sites[0].Root;
  ASSERT_NE(Alias, 10u);
  EXPECT_EQ(R.C->pointerClass(R.C->typeOf(Alias)), spv::StorageClass::StorageBuffer);
  // The block's member 0 (the atomic's array) is an array of uint, member 1
  // (off the path) the same float vector.
  const InstRef Block = R.M.def(R.C->pointee(R.C->typeOf(Alias)));
  ASSERT_EQ(R.M.inst(Block).Opcode, Op::OpTypeStruct);
  const InstRef Array = R.M.def(R.M.operand(Block, 0));
  EXPECT_EQ(R.M.inst(Array).Opcode, Op::OpTypeArray);
  EXPECT_EQ(R.M.opOf(R.M.operand(Array, 0)), Op::OpTypeInt);
  EXPECT_EQ(R.M.operand(Block, 1), 24u);
  // Same binding, both Aliased; the clone keeps the block's layout.
  for (uint32_t V : {10u, Alias})
    EXPECT_TRUE(R.M.hasDecoration(V, spv::Decoration::Aliased)) << V;
  EXPECT_TRUE(R.M.hasDecoration(Alias, spv::Decoration::Binding));
  EXPECT_TRUE(R.M.hasDecoration(R.M.inst(Block).ResultId, spv::Decoration::Block));
  EXPECT_EQ(lowerAndValidate(BufferModule), "");
}

TEST(BufferAlias, APathThroughAMatrixIsRefused) {
  std::string Text = BufferModule;
  Text.replace(Text.find("%24 = OpTypeVector %4 4"), 23,
               "%25 = OpTypeVector %4 4\n%24 = OpTypeMatrix %25 4");
  Text.replace(Text.find("OpMemberDecorate %20 1 Offset 16"), 32,
               "OpMemberDecorate %20 1 Offset 16\nOpMemberDecorate %20 1 ColMajor\n"
               "OpMemberDecorate %20 1 MatrixStride 16");
  Text.replace(Text.find("%41 = OpAccessChain %22 %10 %30 %31"), 36,
               "%41 = OpAccessChain %22 %10 %31 %31 %30");
  Rooms R;
  ASSERT_TRUE(R.load(Text)) << R.Errors;
  BufferAlias Buffers(*R.C, R.Plan, *R.Types);
  EXPECT_FALSE(Buffers.plan());
  EXPECT_NE(R.Errors.find("which has no integer counterpart in SPIR-V"), std::string::npos)
      << R.Errors;
}

} // namespace
