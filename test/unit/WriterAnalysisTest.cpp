//===- WriterAnalysisTest.cpp - The SPIR-V pass's writer analysis ---------===//
//
// lib/SPIRV/WriterAnalysis on small assembled modules: which writes it
// finds for a buffer or Workgroup variable (aliases by binding and Aliased
// included), and that everything it cannot follow (physical addresses,
// variable pointers, explicit Workgroup layouts, decoration groups, a
// pointer stored to memory or passed to a call, storage texel buffers that
// may view the buffer) makes the answer unknown.
//
//===----------------------------------------------------------------------===//

#include "Module.h"
#include "SpirvTestSupport.h"
#include "WriterAnalysis.h"

#include <spirv-tools/libspirv.hpp>

#include <gtest/gtest.h>

#include <ostream>
#include <string>
#include <vector>

using namespace fatomic::spirv;
using namespace fatomic::test;

namespace {

// %10: the float buffer variable (set 0, binding 0) the atomic writes;
// %11: a uint view at DECO11 (binding 0 unless replaced); %12 a Workgroup
// float.  CAPS, DECOS, GLOBALS and BODY are replaced per test.
const char *const Template = R"(
               OpCapability Shader
               OpCapability AtomicFloat32MinMaxEXT
               CAPS
               OpExtension "SPV_EXT_shader_atomic_float_min_max"
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %1 "main" %10 %11 %12
               OpExecutionMode %1 LocalSize 64 1 1
               OpDecorate %20 Block
               OpMemberDecorate %20 0 Offset 0
               OpMemberDecorate %20 1 Offset 4
               OpDecorate %21 Block
               OpMemberDecorate %21 0 Offset 0
               OpDecorate %10 DescriptorSet 0
               OpDecorate %10 Binding 0
               DECOS
          %2 = OpTypeVoid
          %3 = OpTypeFunction %2
          %4 = OpTypeFloat 32
          %5 = OpTypeInt 32 0
         %20 = OpTypeStruct %4 %4
         %21 = OpTypeStruct %5
         %22 = OpTypePointer StorageBuffer %20
         %23 = OpTypePointer StorageBuffer %21
         %24 = OpTypePointer StorageBuffer %4
         %25 = OpTypePointer StorageBuffer %5
         %26 = OpTypePointer Workgroup %4
         %10 = OpVariable %22 StorageBuffer
         %11 = OpVariable %23 StorageBuffer
         %12 = OpVariable %26 Workgroup
         %30 = OpConstant %5 0
         %31 = OpConstant %5 1
         %32 = OpConstant %4 2
               GLOBALS
          %1 = OpFunction %2 None %3
         %40 = OpLabel
         %41 = OpAccessChain %24 %10 %30
         %42 = OpAtomicFMaxEXT %4 %41 %31 %30 %32
               BODY
               OpReturn
               OpFunctionEnd
)";

std::string replace(std::string S, const std::string &Key, const std::string &Value) {
  const size_t At = S.find(Key);
  if (At != std::string::npos)
    S.replace(At, Key.size(), Value);
  return S;
}

/// The uint view %11 at the float buffer's binding, or at another one.
const char *const SameBinding = "OpDecorate %11 DescriptorSet 0\nOpDecorate %11 Binding 0";
const char *const OtherBinding = "OpDecorate %11 DescriptorSet 0\nOpDecorate %11 Binding 1";

struct Analyzed {
  Module M;
  std::vector<uint32_t> Words;
};

/// Assembles the template; Decos11 decorates the uint view (%11).
void analyze(Analyzed &A, const std::string &Body, const std::string &Decos11 = SameBinding,
             const std::string &Caps = "", const std::string &Globals = "") {
  std::string Text = replace(Template, "CAPS", Caps);
  Text = replace(Text, "DECOS", Decos11);
  Text = replace(Text, "GLOBALS", Globals);
  Text = replace(Text, "BODY", Body);
  ASSERT_TRUE(assembleText(Text, A.Words, SPV_ENV_UNIVERSAL_1_5));
  ASSERT_TRUE(parseWords(A.M, A.Words));
  A.M.buildUses();
}

std::vector<Op> opcodes(const Module &M, const Writers &W) {
  std::vector<Op> Ops;
  for (const Write &Wr : W.Writes)
    Ops.push_back(M.inst(Wr.Inst).Opcode);
  return Ops;
}

/// A body (and the uint view's decorations) whose writes of the float
/// buffer %10 are known and are these, in order.
struct KnownWriters {
  const char *Name, *Body, *Decos11;
  std::vector<Op> Want;
};

void PrintTo(const KnownWriters &C, std::ostream *OS) { *OS << C.Name; }

class WriterAnalysisKnown : public ::testing::TestWithParam<KnownWriters> {};

TEST_P(WriterAnalysisKnown, WritesOfTheBuffer) {
  const KnownWriters &C = GetParam();
  Analyzed A;
  analyze(A, C.Body, C.Decos11);
  ASSERT_FALSE(HasFatalFailure());
  WriterAnalysis WA(A.M);
  const Writers &W = WA.writersOf(10);
  EXPECT_TRUE(W.Known);
  EXPECT_EQ(opcodes(A.M, W), C.Want);
}

INSTANTIATE_TEST_SUITE_P(
    WriterAnalysis, WriterAnalysisKnown,
    ::testing::Values(
        KnownWriters{"OnlyTheAtomic", "", SameBinding, {Op::OpAtomicFMaxEXT}},
        KnownWriters{"IntegerViewAtTheSameBinding",
                     "%50 = OpAccessChain %25 %11 %30\n"
                     "%51 = OpAtomicCompareExchange %5 %50 %31 %30 %30 %31 %30",
                     SameBinding,
                     {Op::OpAtomicFMaxEXT, Op::OpAtomicCompareExchange}},
        KnownWriters{"AnotherBindingIsOtherMemory",
                     "%50 = OpAccessChain %25 %11 %30\nOpAtomicStore %50 %31 %30 %31",
                     OtherBinding,
                     {Op::OpAtomicFMaxEXT}},
        // An Aliased view, or one without a descriptor set, may alias.
        KnownWriters{"AliasedMayAlias",
                     "%50 = OpAccessChain %25 %11 %30\n%51 = OpAtomicIAdd %5 %50 %31 %30 %31",
                     "OpDecorate %11 DescriptorSet 0\nOpDecorate %11 Binding 1\n"
                     "OpDecorate %11 Aliased",
                     {Op::OpAtomicFMaxEXT, Op::OpAtomicIAdd}},
        KnownWriters{"UnboundMayAlias",
                     "%50 = OpAccessChain %25 %11 %30\n%51 = OpAtomicIAdd %5 %50 %31 %30 %31",
                     "OpDecorate %11 Binding 1",
                     {Op::OpAtomicFMaxEXT, Op::OpAtomicIAdd}},
        KnownWriters{"ReadsAndCopiesFollowed",
                     "%50 = OpCopyObject %24 %41\n%51 = OpLoad %4 %50\n"
                     "%52 = OpAtomicLoad %4 %41 %31 %30\nOpStore %50 %51",
                     SameBinding,
                     {Op::OpAtomicFMaxEXT, Op::OpStore}}),
    [](const ::testing::TestParamInfo<KnownWriters> &I) { return std::string(I.param.Name); });

TEST(WriterAnalysis, ExchangeAndStoreOnTheVariable) {
  Analyzed A;
  analyze(A, "%50 = OpAtomicExchange %4 %41 %31 %30 %32\n"
             "%51 = OpAccessChain %24 %10 %31\nOpStore %51 %32");
  WriterAnalysis WA(A.M);
  const Writers &W = WA.writersOf(10);
  EXPECT_TRUE(W.Known);
  EXPECT_EQ(W.Writes.size(), 3u);
  // The store goes to member 1, the atomic to member 0: disjoint.
  const Write *Atomic = nullptr, *Store = nullptr, *Xchg = nullptr;
  for (const Write &Wr : W.Writes) {
    const Op O = A.M.inst(Wr.Inst).Opcode;
    (O == Op::OpStore ? Store : O == Op::OpAtomicExchange ? Xchg : Atomic) = &Wr;
  }
  ASSERT_TRUE(Atomic && Store && Xchg);
  EXPECT_TRUE(WA.disjoint(*Atomic, *Store));
  EXPECT_FALSE(WA.disjoint(*Atomic, *Xchg));
}

TEST(WriterAnalysis, WorkgroupVariable) {
  Analyzed A;
  analyze(A, "OpStore %12 %32\n%50 = OpAtomicFMaxEXT %4 %12 %31 %30 %32");
  WriterAnalysis WA(A.M);
  const Writers &W = WA.writersOf(12);
  EXPECT_TRUE(W.Known);
  EXPECT_EQ(W.Writes.size(), 2u);
}

TEST(WriterAnalysis, NotKnown) {
  struct Case {
    const char *What, *Caps, *Decos;
  } Cases[] = {
      {"physical storage buffer addresses",
       "OpCapability PhysicalStorageBufferAddresses\n"
       "OpExtension \"SPV_KHR_physical_storage_buffer\"",
       ""},
      {"variable pointers",
       "OpCapability VariablePointersStorageBuffer\n"
       "OpExtension \"SPV_KHR_variable_pointers\"",
       ""},
      {"decoration groups", "", "%60 = OpDecorationGroup\nOpGroupDecorate %60 %11"},
  };
  for (const Case &C : Cases) {
    Analyzed A;
    const std::string Decos = std::string(OtherBinding) + "\n" + C.Decos;
    analyze(A, "", Decos, C.Caps);
    WriterAnalysis WA(A.M);
    EXPECT_FALSE(WA.writersOf(10).Known) << C.What;
  }
}

TEST(WriterAnalysis, PointerPassedToACallIsNotKnown) {
  Analyzed A;
  // A call of main itself keeps the module small; only the use matters.
  analyze(A, "%50 = OpFunctionCall %2 %1 %41");
  WriterAnalysis WA(A.M);
  EXPECT_FALSE(WA.writersOf(10).Known);
}

TEST(WriterAnalysis, ExplicitWorkgroupLayoutIsNotKnown) {
  Analyzed A;
  analyze(A, "", OtherBinding,
          "OpCapability WorkgroupMemoryExplicitLayoutKHR\n"
          "OpExtension \"SPV_KHR_workgroup_memory_explicit_layout\"");
  WriterAnalysis WA(A.M);
  EXPECT_FALSE(WA.writersOf(12).Known);
  EXPECT_TRUE(WA.writersOf(10).Known);
}

TEST(WriterAnalysis, ImpliedExplicitWorkgroupLayoutIsNotKnown) {
  // WorkgroupMemoryExplicitLayout8BitAccessKHR declares
  // WorkgroupMemoryExplicitLayoutKHR implicitly (the grammar says so); the
  // 16-bit one does not, but spirv-val takes Block Workgroup variables
  // (%78) under it, and those alias each other.
  const std::string Ext = "\nOpExtension \"SPV_KHR_workgroup_memory_explicit_layout\"";
  const std::string Block = "%77 = OpTypePointer Workgroup %21\n%78 = OpVariable %77 Workgroup";
  struct Case {
    const char *Cap;
    std::string Globals;
    bool Known;
  } Cases[] = {
      {"WorkgroupMemoryExplicitLayout8BitAccessKHR", "", false},
      {"WorkgroupMemoryExplicitLayout16BitAccessKHR", Block, false},
      {"WorkgroupMemoryExplicitLayout16BitAccessKHR", "", true},
  };
  for (const Case &C : Cases) {
    Analyzed A;
    analyze(A, "", OtherBinding, std::string("OpCapability ") + C.Cap + Ext, C.Globals);
    ASSERT_FALSE(HasFatalFailure());
    WriterAnalysis WA(A.M);
    EXPECT_EQ(WA.writersOf(12).Known, C.Known) << C.Cap << " " << C.Globals;
  }
}

// %70: a storage texel buffer variable (binding 1), %71 a 2D storage image
// (binding 2); their decorations come with the case.
const char *const Images = "%72 = OpTypeImage %4 Buffer 0 0 0 2 R32f\n"
                           "%73 = OpTypePointer UniformConstant %72\n"
                           "%70 = OpVariable %73 UniformConstant\n"
                           "%74 = OpTypeImage %4 2D 0 0 0 2 R32f\n"
                           "%75 = OpTypePointer UniformConstant %74\n"
                           "%71 = OpVariable %75 UniformConstant";
const char *const ImageBindings = "OpDecorate %70 DescriptorSet 0\nOpDecorate %70 Binding 1\n"
                                  "OpDecorate %71 DescriptorSet 0\nOpDecorate %71 Binding 2\n";

TEST(WriterAnalysis, StorageTexelBuffers) {
  // A storage texel buffer may view the buffer when either is Aliased or
  // it has no binding, and so may a storage image (a linear image in the
  // GENERAL layout may be bound to the buffer's memory, which both then
  // read consistently); the writes through their image objects are not
  // followed, so the answer is "not known" then.  A NonWritable one writes
  // nothing.
  struct Case {
    const char *What, *Decos;
    bool Known;
  } Cases[] = {
      {"apart", "", true},
      {"texel buffer Aliased", "OpDecorate %70 Aliased", false},
      {"buffer Aliased", "OpDecorate %10 Aliased", false},
      {"texel buffer Aliased and NonWritable",
       "OpDecorate %70 Aliased\nOpDecorate %70 NonWritable", true},
      {"2D image Aliased", "OpDecorate %71 Aliased", false},
      {"2D image Aliased and NonWritable", "OpDecorate %71 Aliased\nOpDecorate %71 NonWritable",
       true},
  };
  for (const Case &C : Cases) {
    Analyzed A;
    analyze(A, "%76 = OpLoad %72 %70\nOpImageWrite %76 %30 %32",
            std::string(OtherBinding) + "\n" + ImageBindings + C.Decos, "", Images);
    ASSERT_FALSE(HasFatalFailure());
    WriterAnalysis WA(A.M);
    EXPECT_EQ(WA.writersOf(10).Known, C.Known) << C.What;
  }
  Analyzed A;
  analyze(A, "", std::string(OtherBinding) + "\nOpDecorate %71 Binding 2", "", Images);
  WriterAnalysis WA(A.M);
  EXPECT_FALSE(WA.writersOf(10).Known) << "texel buffer without a descriptor set";
}

/// The writers of variable \p Var are known and two, disjoint or not.
void expectTwoWrites(const Analyzed &A, uint32_t Var, bool Disjoint, const char *What) {
  WriterAnalysis WA(A.M);
  const Writers &W = WA.writersOf(Var);
  ASSERT_TRUE(W.Known) << What;
  ASSERT_EQ(W.Writes.size(), 2u) << What;
  EXPECT_EQ(WA.disjoint(W.Writes[0], W.Writes[1]), Disjoint) << What;
}

TEST(WriterAnalysis, DescriptorIndexIsNotApart) {
  // %63: an array of two blocks (one descriptor each).  bufs[0] and
  // bufs[1] may be the same buffer; two members of one are apart.
  const char *const Array = "%33 = OpConstant %5 2\n%61 = OpTypeArray %20 %33\n"
                            "%62 = OpTypePointer StorageBuffer %61\n"
                            "%63 = OpVariable %62 StorageBuffer";
  const std::string Decos = std::string(OtherBinding) +
                            "\nOpDecorate %63 DescriptorSet 0\nOpDecorate %63 Binding 5";
  // %90: a run-time index, the same id on both paths in the last case:
  // another invocation's descriptor, which may overlap this one's member 0
  // with its member 1.
  struct Case {
    const char *What, *AtomicIndex, *Store;
    bool Disjoint;
  } Cases[] = {
      {"another descriptor", "%30", "%66 = OpAccessChain %24 %63 %31 %30", false},
      {"another member", "%30", "%66 = OpAccessChain %24 %63 %30 %31", true},
      {"another member, one run-time descriptor index", "%90",
       "%66 = OpAccessChain %24 %63 %90 %31", false},
  };
  for (const Case &C : Cases) {
    Analyzed A;
    analyze(A,
            std::string("%90 = OpUndef %5\n%64 = OpAccessChain %24 %63 ") + C.AtomicIndex +
                " %30\n%65 = OpAtomicFMaxEXT %4 %64 %31 %30 %32\n" + C.Store +
                "\nOpStore %66 %32",
            Decos, "", Array);
    ASSERT_FALSE(HasFatalFailure()) << C.What;
    expectTwoWrites(A, 63, C.Disjoint, C.What);
  }
}

TEST(WriterAnalysis, OverlappingLayoutIsNotApart) {
  // %81 (binding 6) holds struct %80; the atomic writes one part of it and
  // a store another.  Parts apart in the explicit layout are disjoint;
  // overlapping Offsets or an ArrayStride below the element's size (which
  // the universal environment's validator takes) are not.
  struct Case {
    const char *What, *Types, *Decos, *AtomicPath, *StorePath;
    bool Disjoint;
  } Cases[] = {
      {"members apart", "%80 = OpTypeStruct %4 %4",
       "OpMemberDecorate %80 0 Offset 0\nOpMemberDecorate %80 1 Offset 4", "%30", "%31", true},
      {"members at one offset", "%80 = OpTypeStruct %4 %4",
       "OpMemberDecorate %80 0 Offset 0\nOpMemberDecorate %80 1 Offset 0", "%30", "%31", false},
      {"vector over the next member", "%82 = OpTypeVector %4 2\n%80 = OpTypeStruct %82 %4",
       "OpMemberDecorate %80 0 Offset 0\nOpMemberDecorate %80 1 Offset 4", "%30 %30", "%31",
       false},
      {"vector before the next member", "%82 = OpTypeVector %4 2\n%80 = OpTypeStruct %82 %4",
       "OpMemberDecorate %80 0 Offset 0\nOpMemberDecorate %80 1 Offset 8", "%30 %30", "%31",
       true},
      {"elements apart", "%82 = OpTypeRuntimeArray %4\n%80 = OpTypeStruct %82",
       "OpMemberDecorate %80 0 Offset 0\nOpDecorate %82 ArrayStride 4", "%30 %30", "%30 %31",
       true},
      {"overlapping elements", "%82 = OpTypeRuntimeArray %4\n%80 = OpTypeStruct %82",
       "OpMemberDecorate %80 0 Offset 0\nOpDecorate %82 ArrayStride 2", "%30 %30", "%30 %31",
       false},
      // Dynamic elements of overlapping pairs: element i's member 0 may be
      // element j's member 1.
      {"dynamic overlapping elements", "%83 = OpTypeRuntimeArray %20\n%80 = OpTypeStruct %83",
       "OpMemberDecorate %80 0 Offset 0\nOpDecorate %83 ArrayStride 4", "%30 %90 %30",
       "%30 %91 %31", false},
      {"dynamic elements apart", "%83 = OpTypeRuntimeArray %20\n%80 = OpTypeStruct %83",
       "OpMemberDecorate %80 0 Offset 0\nOpDecorate %83 ArrayStride 8", "%30 %90 %30",
       "%30 %91 %31", true},
      // One index id on both paths: other invocations index other,
      // overlapping elements.
      {"one run-time index, overlapping elements",
       "%83 = OpTypeRuntimeArray %20\n%80 = OpTypeStruct %83",
       "OpMemberDecorate %80 0 Offset 0\nOpDecorate %83 ArrayStride 4", "%30 %90 %30",
       "%30 %90 %31", false},
      {"one run-time index, elements apart",
       "%83 = OpTypeRuntimeArray %20\n%80 = OpTypeStruct %83",
       "OpMemberDecorate %80 0 Offset 0\nOpDecorate %83 ArrayStride 8", "%30 %90 %30",
       "%30 %90 %31", true},
  };
  for (const Case &C : Cases) {
    Analyzed A;
    const std::string Globals = std::string(C.Types) +
                                "\n%84 = OpTypePointer StorageBuffer %80\n"
                                "%81 = OpVariable %84 StorageBuffer";
    const std::string Decos = std::string(OtherBinding) + "\n" + C.Decos +
                              "\nOpDecorate %80 Block\nOpDecorate %81 DescriptorSet 0\n"
                              "OpDecorate %81 Binding 6";
    // %90 and %91: run-time indices.
    const std::string Body = std::string("%90 = OpUndef %5\n%91 = OpUndef %5\n") +
                             "%92 = OpAccessChain %24 %81 " + C.AtomicPath + "\n" +
                             "%93 = OpAtomicFMaxEXT %4 %92 %31 %30 %32\n" +
                             "%94 = OpAccessChain %24 %81 " + C.StorePath + "\nOpStore %94 %32";
    analyze(A, Body, Decos, "", Globals);
    ASSERT_FALSE(HasFatalFailure()) << C.What;
    expectTwoWrites(A, 81, C.Disjoint, C.What);
  }
}

} // namespace
