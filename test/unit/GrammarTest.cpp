//===- GrammarTest.cpp - Operand kinds from the SPIR-V grammar -------------===//
//
// lib/SPIRV/Grammar (the id words of an instruction, from the tables
// generated from spirv-headers' grammar files) on the instructions whose
// operands are hard to follow: decorations with id and literal parameters,
// loop controls and image operands with parameters, OpSwitch with 32- and
// 64-bit selectors, OpExtInst of known and unknown sets, OpSpecConstantOp,
// OpTypeFunction past 64 operands.  Then every instruction of every module
// the test suite assembles: the grammar's id words equal those that
// spvBinaryParse reports.  And the guarded facts of Module: stale use lists
// and hand-written masks that disagree with the grammar are assertion
// failures in debug builds; instruction references survive create().
//
//===----------------------------------------------------------------------===//

#include "Grammar.h"
#include "Module.h"
#include "SpirvTestSupport.h"

#include <spirv-tools/libspirv.hpp>

#include <gtest/gtest.h>

#include <dirent.h>
#include <sys/stat.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

using namespace fatomic::spirv;
using spv::Op;

namespace {

/// The id word indices of \p Opcode with these operand words.
std::vector<uint32_t> ids(Op Opcode, const std::vector<uint32_t> &Ops,
                          const grammar::OperandContext &C = {}) {
  const grammar::IdWords W = grammar::idWords(Opcode, Ops.data(), uint32_t(Ops.size()), C);
  std::vector<uint32_t> Out;
  for (uint32_t I = 0; I < Ops.size() + 64; ++I)
    if (W.test(I))
      Out.push_back(I);
  return Out;
}

using V = std::vector<uint32_t>;
constexpr uint32_t D(spv::Decoration X) { return uint32_t(X); }

TEST(Grammar, DecorateLiteralParameters) {
  EXPECT_EQ(ids(Op::OpDecorate, {7, D(spv::Decoration::Binding), 3}), V{0});
  EXPECT_EQ(ids(Op::OpDecorate, {7, D(spv::Decoration::SpecId), 12}), V{0});
  EXPECT_EQ(ids(Op::OpDecorate, {7, D(spv::Decoration::Block)}), V{0});
  // A literal string parameter ("abcdefg" and its nul: two words).
  EXPECT_EQ(ids(Op::OpDecorateString,
                {7, D(spv::Decoration::UserSemantic), 0x64636261, 0x00676665}),
            V{0});
  EXPECT_EQ(ids(Op::OpMemberDecorate, {7, 2, D(spv::Decoration::Offset), 16}), V{0});
}

TEST(Grammar, DecorateIdParameters) {
  EXPECT_EQ(ids(Op::OpDecorateId, {7, D(spv::Decoration::AlignmentId), 9}), (V{0, 2}));
  EXPECT_EQ(ids(Op::OpDecorateId, {7, D(spv::Decoration::UniformId), 9}), (V{0, 2}));
  EXPECT_EQ(ids(Op::OpDecorateId, {7, D(spv::Decoration::CounterBuffer), 9}), (V{0, 2}));
}

TEST(Grammar, LoopMergeParameters) {
  const uint32_t DependencyLength = uint32_t(spv::LoopControlMask::DependencyLength);
  const uint32_t Unroll = uint32_t(spv::LoopControlMask::Unroll);
  EXPECT_EQ(ids(Op::OpLoopMerge, {5, 6, 0}), (V{0, 1}));
  EXPECT_EQ(ids(Op::OpLoopMerge, {5, 6, DependencyLength, 4}), (V{0, 1}));
  EXPECT_EQ(ids(Op::OpLoopMerge, {5, 6, Unroll | DependencyLength, 4}), (V{0, 1}));
  // MinIterations and MaxIterations: two literals, in bit order.
  const uint32_t MinMax = uint32_t(spv::LoopControlMask::MinIterations) |
                          uint32_t(spv::LoopControlMask::MaxIterations);
  EXPECT_EQ(ids(Op::OpLoopMerge, {5, 6, MinMax, 2, 8}), (V{0, 1}));
}

TEST(Grammar, ImageOperandsWithIds) {
  const uint32_t Lod = uint32_t(spv::ImageOperandsMask::Lod);
  const uint32_t Grad = uint32_t(spv::ImageOperandsMask::Grad);
  const uint32_t ConstOffset = uint32_t(spv::ImageOperandsMask::ConstOffset);
  EXPECT_EQ(ids(Op::OpImageSampleExplicitLod, {10, 11, Lod, 12}), (V{0, 1, 3}));
  // Grad takes two ids, ConstOffset one, in bit order.
  EXPECT_EQ(ids(Op::OpImageSampleExplicitLod, {10, 11, Grad | ConstOffset, 12, 13, 14}),
            (V{0, 1, 3, 4, 5}));
  // MakeTexelVisible takes a scope id; NonPrivateTexel none.
  const uint32_t Visible = uint32_t(spv::ImageOperandsMask::MakeTexelVisible) |
                           uint32_t(spv::ImageOperandsMask::NonPrivateTexel);
  EXPECT_EQ(ids(Op::OpImageRead, {10, 11, Visible, 12}), (V{0, 1, 3}));
  // Memory access: Aligned takes a literal, MakePointerAvailable an id.
  const uint32_t Access = uint32_t(spv::MemoryAccessMask::Aligned) |
                          uint32_t(spv::MemoryAccessMask::MakePointerAvailable) |
                          uint32_t(spv::MemoryAccessMask::NonPrivatePointer);
  EXPECT_EQ(ids(Op::OpStore, {20, 21, Access, 4, 22}), (V{0, 1, 4}));
}

TEST(Grammar, EnumerantParameters) {
  // MemoryAccess: Volatile none, Aligned a literal, MakePointerAvailable
  // and MakePointerVisible a scope id each.
  EXPECT_EQ(grammar::enumerantParameters("MemoryAccess", 0x1), 0u);
  EXPECT_EQ(grammar::enumerantParameters("MemoryAccess", 0x2), 1u);
  EXPECT_EQ(grammar::enumerantParameters("MemoryAccess", 0x8), 1u);
  EXPECT_EQ(grammar::enumerantParameters("MemoryAccess", 0x10), 1u);
  EXPECT_EQ(grammar::enumerantParameters("MemoryAccess", 0x20), 0u);
  // LoopControl: DependencyLength a literal.
  EXPECT_EQ(grammar::enumerantParameters("LoopControl", 0x8), 1u);
  EXPECT_EQ(grammar::enumerantParameters("NoSuchKind", 0x2), 0u);
}

TEST(Grammar, EnumerantName) {
  EXPECT_STREQ(grammar::enumerantName("StorageClass", 5402),
               "TaskPayloadWorkgroupEXT");
  EXPECT_STREQ(grammar::enumerantName("StorageClass", 12), "StorageBuffer");
  // An alias keeps the grammar's first name.
  EXPECT_STREQ(grammar::enumerantName("StorageClass", 5349),
               "PhysicalStorageBuffer");
  EXPECT_STREQ(
      grammar::enumerantName(
          "Capability", uint32_t(spv::Capability::AtomicFloat16MinMaxEXT)),
      "AtomicFloat16MinMaxEXT");
  EXPECT_STREQ(grammar::enumerantName("StorageClass", 77777), "");
  EXPECT_STREQ(grammar::enumerantName("NoSuchKind", 12), "");
  // Bit enums are not value enums.
  EXPECT_STREQ(grammar::enumerantName("MemoryAccess", 0x2), "");
}

TEST(Grammar, Switch) {
  EXPECT_EQ(ids(Op::OpSwitch, {3, 4}), (V{0, 1}));
  EXPECT_EQ(ids(Op::OpSwitch, {3, 4, 1, 5, 2, 6}), (V{0, 1, 3, 5}));
  grammar::OperandContext Wide;
  Wide.SwitchLiteralWords = 2;
  EXPECT_EQ(ids(Op::OpSwitch, {3, 4, 1, 0, 5, 2, 0, 6}, Wide), (V{0, 1, 4, 7}));
}

TEST(Grammar, ExtInst) {
  grammar::OperandContext Glsl;
  Glsl.ExtSet = grammar::extInstSet("GLSL.std.450");
  ASSERT_GE(Glsl.ExtSet, 0);
  EXPECT_EQ(ids(Op::OpExtInst, {1, 40 /* FMax */, 7, 8}, Glsl), (V{0, 2, 3}));
  // OpenCL.DebugInfo.100 DebugTypeBasic: name and size ids, an encoding.
  grammar::OperandContext Debug;
  Debug.ExtSet = grammar::extInstSet("OpenCL.DebugInfo.100");
  ASSERT_GE(Debug.ExtSet, 0);
  EXPECT_EQ(ids(Op::OpExtInst, {1, 2, 7, 8, 3}, Debug), (V{0, 2, 3}));
  // A versioned set name.
  EXPECT_GE(grammar::extInstSet("NonSemantic.ClspvReflection.5"), 0);
  // An unknown set: every operand after the instruction number is an id.
  EXPECT_EQ(grammar::extInstSet("NonSemantic.Unknown"), grammar::OperandContext::UnknownSet);
  EXPECT_EQ(ids(Op::OpExtInst, {1, 9, 7, 8}), (V{0, 2, 3}));
}

TEST(Grammar, SpecConstantOpAndStrings) {
  EXPECT_EQ(ids(Op::OpSpecConstantOp, {uint32_t(Op::OpIAdd), 5, 6}), (V{1, 2}));
  EXPECT_EQ(ids(Op::OpSpecConstantOp, {uint32_t(Op::OpCompositeExtract), 5, 0, 1}), V{1});
  // OpEntryPoint: the function, the name ("main": two words), interface ids.
  EXPECT_EQ(ids(Op::OpEntryPoint, {5, 4, 0x6e69616d, 0, 10, 11}), (V{1, 4, 5}));
  EXPECT_EQ(ids(Op::OpConstant, {1, 2}), V{});
}

TEST(Grammar, TypeFunctionWithSeventyParameters) {
  std::vector<uint32_t> Ops(71);
  for (uint32_t I = 0; I < Ops.size(); ++I)
    Ops[I] = 100 + I;
  std::vector<uint32_t> All(71);
  for (uint32_t I = 0; I < All.size(); ++I)
    All[I] = I;
  EXPECT_EQ(ids(Op::OpTypeFunction, Ops), All);
}

TEST(Grammar, OpcodeFacts) {
  EXPECT_TRUE(grammar::isTypeDeclaration(Op::OpTypeInt));
  EXPECT_TRUE(grammar::isTypeDeclaration(Op::OpTypeForwardPointer));
  EXPECT_TRUE(grammar::isTypeDeclaration(Op::OpTypeRayQueryKHR));
  EXPECT_FALSE(grammar::isTypeDeclaration(Op::OpConstant));
  EXPECT_FALSE(grammar::isTypeDeclaration(Op::OpVariable));
  EXPECT_TRUE(grammar::isBlockTerminator(Op::OpBranch));
  EXPECT_TRUE(grammar::isBlockTerminator(Op::OpSwitch));
  EXPECT_TRUE(grammar::isBlockTerminator(Op::OpTerminateInvocation));
  EXPECT_TRUE(grammar::isBlockTerminator(Op::OpEmitMeshTasksEXT));
  EXPECT_FALSE(grammar::isBlockTerminator(Op::OpLoopMerge));
  EXPECT_FALSE(grammar::isBlockTerminator(Op::OpDemoteToHelperInvocation));
  EXPECT_EQ(grammar::section(Op::OpCapability), Section::Capability);
  EXPECT_EQ(grammar::section(Op::OpExtension), Section::Extension);
  EXPECT_EQ(grammar::section(Op::OpExtInstImport), Section::ExtInstImport);
  EXPECT_EQ(grammar::section(Op::OpMemoryModel), Section::MemoryModel);
  EXPECT_EQ(grammar::section(Op::OpEntryPoint), Section::EntryPoint);
  EXPECT_EQ(grammar::section(Op::OpExecutionModeId), Section::ExecutionMode);
  EXPECT_EQ(grammar::section(Op::OpName), Section::Debug);
  EXPECT_EQ(grammar::section(Op::OpModuleProcessed), Section::Debug);
  EXPECT_EQ(grammar::section(Op::OpLine), Section::Global);
  EXPECT_EQ(grammar::section(Op::OpDecorateId), Section::Annotation);
  EXPECT_EQ(grammar::section(Op::OpDecorationGroup), Section::Annotation);
  EXPECT_EQ(grammar::section(Op::OpTypeInt), Section::Global);
  EXPECT_TRUE(grammar::hasResultType(Op::OpIAdd));
  EXPECT_FALSE(grammar::hasResultType(Op::OpTypeInt));
  EXPECT_TRUE(grammar::hasResult(Op::OpTypeInt));
  EXPECT_STREQ(grammar::name(Op::OpAtomicFMaxEXT), "OpAtomicFMaxEXT");
}

// ---- the whole corpus ------------------------------------------------------

void collect(const std::string &Dir, const std::string &Ext, std::vector<std::string> &Out) {
  DIR *Dp = opendir(Dir.c_str());
  if (!Dp)
    return;
  while (dirent *E = readdir(Dp)) {
    const std::string Name = E->d_name;
    if (Name == "." || Name == "..")
      continue;
    const std::string Path = Dir + "/" + Name;
    struct stat St;
    if (stat(Path.c_str(), &St) == 0 && S_ISDIR(St.st_mode))
      collect(Path, Ext, Out);
    else if (Name.size() > Ext.size() &&
             Name.compare(Name.size() - Ext.size(), Ext.size(), Ext) == 0)
      Out.push_back(Path);
  }
  closedir(Dp);
}

bool readBinary(const std::string &Path, std::vector<uint32_t> &Words) {
  std::ifstream In(Path, std::ios::binary);
  const std::string Bytes((std::istreambuf_iterator<char>(In)), std::istreambuf_iterator<char>());
  if (Bytes.size() % 4)
    return false;
  Words.resize(Bytes.size() / 4);
  std::memcpy(Words.data(), Bytes.data(), Bytes.size());
  return true;
}

/// Assembles \p Text under the first environment that takes it.
bool assemble(const std::string &Text, std::vector<uint32_t> &Words) {
  for (spv_target_env Env : {SPV_ENV_UNIVERSAL_1_6, SPV_ENV_VULKAN_1_3, SPV_ENV_OPENCL_2_2})
    if (fatomic::test::assembleText(Text, Words, Env))
      return true;
  return false;
}

/// Every placed instruction: the parser's id words (spvBinaryParse) equal
/// the grammar's.  Returns the number of instructions checked.
size_t checkModule(const std::string &Path, const Module &M) {
  size_t N = 0;
  M.forEachPlaced([&](InstRef R) {
    const Inst &I = M.inst(R);
    const grammar::IdWords G = M.grammarIdWords(I.Opcode, M.operands(R), I.Count);
    for (uint32_t W = 0; W < I.Count; ++W)
      EXPECT_EQ(M.isIdWord(R, W), G.test(W))
          << Path << ": " << M.describe(R) << " operand word " << W;
    ++N;
  });
  return N;
}

struct CorpusCount {
  size_t Files = 0, Modules = 0, Insts = 0;
};

void checkWords(const std::string &Path, const std::vector<uint32_t> &Words, CorpusCount &C) {
  Module M;
  std::string Error;
  if (!M.parse(Words.data(), Words.size(), Error))
    return; // inputs of the bad-input tests
  C.Insts += checkModule(Path, M);
  ++C.Modules;
}

// The assembly modules of the test suite (test/**/*.spvasm), the binaries
// it carries (test/**/*.spv) and, where the build made them (ctest
// fuzz-seeds), the fuzz seeds: the compute shaders of the suite compiled
// under several option sets.
TEST(Grammar, CorpusIdWordsMatchTheParser) {
  std::vector<std::string> Asm, Bin;
  collect(FATOMIC_TEST_SOURCE_DIR, ".spvasm", Asm);
  collect(FATOMIC_TEST_SOURCE_DIR, ".spv", Bin);
  collect(FATOMIC_TEST_SEED_DIR, ".spv", Bin);
  CorpusCount C;
  std::vector<uint32_t> Words;
  for (const std::string &Path : Asm) {
    std::ifstream In(Path);
    std::stringstream Text;
    Text << In.rdbuf();
    if (assemble(Text.str(), Words))
      checkWords(Path, Words, C);
  }
  const size_t AsmModules = C.Modules;
  for (const std::string &Path : Bin)
    if (readBinary(Path, Words))
      checkWords(Path, Words, C);
  EXPECT_GE(AsmModules, 30u) << "of " << Asm.size() << " assembly files";
  EXPECT_GT(C.Insts, 1000u);
  std::printf("checked %zu instructions of %zu modules (%zu assembly files, %zu "
              "binaries)\n",
              C.Insts, C.Modules, Asm.size(), Bin.size());
}

// ---- Module: grammar masks, guarded facts ----------------------------------

const char *const Small = R"(
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %1 "main"
               OpExecutionMode %1 LocalSize 1 1 1
          %2 = OpTypeVoid
          %3 = OpTypeFunction %2
          %4 = OpTypeFloat 32
          %5 = OpTypeInt 32 0
          %6 = OpConstant %4 1
          %1 = OpFunction %2 None %3
          %7 = OpLabel
          %8 = OpFAdd %4 %6 %6
               OpReturn
               OpFunctionEnd
)";

void parseSmall(Module &M) { ASSERT_TRUE(fatomic::test::assembleAndParse(M, Small)); }

TEST(ModuleGrammar, CreateTakesTheGrammarsIdWords) {
  Module M;
  parseSmall(M);
  const uint32_t Id = M.newId();
  const InstRef R = M.create(Op::OpBitcast, 5, Id, {8});
  EXPECT_TRUE(M.isIdWord(R, 0));
  EXPECT_FALSE(M.isIdWord(R, 1));
  // OpLoopMerge: merge and continue targets are ids, the loop control is not.
  const InstRef Merge = M.create(Op::OpLoopMerge, 0, 0, {7, 7, 0});
  EXPECT_TRUE(M.isIdWord(Merge, 0));
  EXPECT_TRUE(M.isIdWord(Merge, 1));
  EXPECT_FALSE(M.isIdWord(Merge, 2));
}

TEST(ModuleGrammar, TypeFunctionMarksEveryParameter) {
  Module M;
  parseSmall(M);
  std::vector<uint32_t> Params(70, 4);
  Params.back() = 5; // the 70th parameter is the only use of %5 there
  const uint32_t Fn = M.typeFunction(2, Params);
  M.buildUses();
  bool Found = false;
  for (const Use &U : M.uses(5))
    if (M.inst(U.User).ResultId == Fn) {
      EXPECT_EQ(U.Word, 70u);
      Found = true;
    }
  EXPECT_TRUE(Found);
  size_t FloatUses = 0;
  for (const Use &U : M.uses(4))
    FloatUses += M.inst(U.User).ResultId == Fn;
  EXPECT_EQ(FloatUses, 69u);
}

TEST(Grammar, ImpliedCapabilities) {
  using spv::Capability;
  const auto Implied = [](Capability C) { return grammar::impliedCapabilities(C); };
  EXPECT_EQ(Implied(Capability::WorkgroupMemoryExplicitLayout8BitAccessKHR),
            std::vector<Capability>{Capability::WorkgroupMemoryExplicitLayoutKHR});
  EXPECT_EQ(Implied(Capability::Shader), std::vector<Capability>{Capability::Matrix});
  EXPECT_TRUE(Implied(Capability::Matrix).empty());
}

TEST(ModuleGrammar, DeclaresCapabilityFollowsImplications) {
  Module M;
  ASSERT_TRUE(fatomic::test::assembleAndParse(M, R"(
               OpCapability Geometry
               OpCapability WorkgroupMemoryExplicitLayout8BitAccessKHR
               OpExtension "SPV_KHR_workgroup_memory_explicit_layout"
               OpMemoryModel Logical GLSL450
)"));
  // Geometry -> Shader -> Matrix, each implicitly.
  EXPECT_FALSE(M.hasCapability(spv::Capability::Shader));
  EXPECT_TRUE(M.declaresCapability(spv::Capability::Shader));
  EXPECT_TRUE(M.declaresCapability(spv::Capability::Matrix));
  EXPECT_TRUE(M.declaresCapability(spv::Capability::WorkgroupMemoryExplicitLayoutKHR));
  EXPECT_FALSE(M.declaresCapability(spv::Capability::Kernel));
}

TEST(ModuleGrammar, ReferencesSurviveCreate) {
  Module M;
  parseSmall(M);
  const InstRef R = M.def(8);
  const Inst *Before = &M.inst(R);
  const uint32_t *Ops = M.operands(R);
  for (int I = 0; I < 200000; ++I)
    M.create(Op::OpFAdd, 4, 0, {6, 6});
  EXPECT_EQ(&M.inst(R), Before);
  EXPECT_EQ(M.operands(R), Ops);
  EXPECT_EQ(Ops[0], 6u);
}

TEST(ModuleGrammar, EpochCountsEditsThatInvalidateUses) {
  Module M;
  parseSmall(M);
  M.buildUses();
  EXPECT_TRUE(M.usesCurrent());
  M.addCapability(spv::Capability::Int64); // names no id
  EXPECT_TRUE(M.usesCurrent());
  M.create(Op::OpFNegate, 4, M.newId(), {6});
  EXPECT_FALSE(M.usesCurrent());
  M.buildUses();
  M.setOperand(M.def(8), 0, 6);
  EXPECT_FALSE(M.usesCurrent());
  M.buildUses();
  M.setType(M.def(8), 5);
  EXPECT_FALSE(M.usesCurrent());
  M.buildUses();
  const uint32_t Fresh = M.newId();
  M.setResult(M.def(8), Fresh);
  EXPECT_FALSE(M.usesCurrent());
  EXPECT_EQ(M.inst(M.def(Fresh)).ResultId, Fresh);
  M.buildUses();
  M.place(Section::Global, M.create(Op::OpTypeInt, 0, M.newId(), {16, 0}));
  EXPECT_FALSE(M.usesCurrent());
  M.buildUses();
  M.place(M.functions()[0].Blocks[0], 0, M.create(Op::OpNop, 0, 0, {}));
  EXPECT_FALSE(M.usesCurrent());
}

#ifndef NDEBUG
TEST(ModuleGrammarDeathTest, StaleUsesAssert) {
  Module M;
  parseSmall(M);
  M.buildUses();
  M.setOperand(M.def(8), 1, 6);
  EXPECT_DEATH(M.uses(6), "use lists are stale");
}

TEST(ModuleGrammarDeathTest, UsesOfANewIdAssert) {
  Module M;
  parseSmall(M);
  M.buildUses();
  const uint32_t Id = M.newId();
  EXPECT_DEATH(M.uses(Id), "created after buildUses");
}

#endif

} // namespace
