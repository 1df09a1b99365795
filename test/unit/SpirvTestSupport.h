//===- SpirvTestSupport.h - Assembling, parsing, validating in gtests -----===//
//
// The steps the SPIR-V gtests share: a message consumer that collects
// SPIRV-Tools' messages, assembling text with its numeric ids kept,
// parsing the words into the pass's Module, and spirv-val's verdict.  Each
// step returns a ::testing::AssertionResult that carries the tools' message,
// so a test writes ASSERT_TRUE(assembleText(...)) or uses it as a bool.
// Header only and free of lib/SPIRV's private headers: the Module is a
// template parameter, so the public-interface tests include it too.
//
//===----------------------------------------------------------------------===//

#ifndef FATOMIC_TEST_UNIT_SPIRVTESTSUPPORT_H
#define FATOMIC_TEST_UNIT_SPIRVTESTSUPPORT_H

#include <spirv-tools/libspirv.hpp>

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace fatomic {
namespace test {

/// A message consumer that appends every message to \p Out.
inline spvtools::MessageConsumer appendMessagesTo(std::string &Out) {
  return [&Out](spv_message_level_t, const char *, const spv_position_t &,
                const char *Msg) { Out += Msg; };
}

/// Assembles \p Text under \p Env, keeping its numeric ids, into \p Words;
/// the failure carries the assembler's message.
inline ::testing::AssertionResult
assembleText(const std::string &Text, std::vector<uint32_t> &Words,
             spv_target_env Env = SPV_ENV_VULKAN_1_2) {
  spvtools::SpirvTools Tools(Env);
  std::string Error;
  Tools.SetMessageConsumer(appendMessagesTo(Error));
  Words.clear();
  if (Tools.Assemble(Text, &Words,
                     SPV_TEXT_TO_BINARY_OPTION_PRESERVE_NUMERIC_IDS))
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "the text does not assemble: "
                                       << Error;
}

/// The words of \p Text (Vulkan 1.2); a non-fatal failure when it does not
/// assemble.
inline std::vector<uint32_t> assemble(const std::string &Text) {
  std::vector<uint32_t> Words;
  EXPECT_TRUE(assembleText(Text, Words));
  return Words;
}

/// spirv-val's complaint about \p Words under \p Env; empty when they are
/// valid ("invalid" when the validator gives no message).
inline std::string validationError(const std::vector<uint32_t> &Words,
                                   spv_target_env Env = SPV_ENV_VULKAN_1_2) {
  spvtools::SpirvTools Tools(Env);
  std::string Msg;
  Tools.SetMessageConsumer(appendMessagesTo(Msg));
  if (Tools.Validate(Words))
    return "";
  return Msg.empty() ? "invalid" : Msg;
}

/// Parses \p Words into \p M (a fatomic::spirv::Module); the failure carries
/// the parser's message.
template <class ModuleT>
::testing::AssertionResult parseWords(ModuleT &M,
                                      const std::vector<uint32_t> &Words) {
  std::string Error;
  if (M.parse(Words.data(), Words.size(), Error))
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "the words do not parse: " << Error;
}

/// Assembles \p Text under \p Env and parses it into \p M.
template <class ModuleT>
::testing::AssertionResult
assembleAndParse(ModuleT &M, const std::string &Text,
                 spv_target_env Env = SPV_ENV_VULKAN_1_2) {
  std::vector<uint32_t> Words;
  ::testing::AssertionResult Assembled = assembleText(Text, Words, Env);
  if (!Assembled)
    return Assembled;
  return parseWords(M, Words);
}

/// The opcodes of the instructions \p Refs of \p M, in order.
template <class ModuleT, class RefsT>
auto opcodesOf(const ModuleT &M, const RefsT &Refs)
    -> std::vector<decltype(M.inst(*std::begin(Refs)).Opcode)> {
  std::vector<decltype(M.inst(*std::begin(Refs)).Opcode)> Ops;
  for (const auto &R : Refs)
    Ops.push_back(M.inst(R).Opcode);
  return Ops;
}

/// One f32 atomic max through an access chain into a storage buffer
/// block: the smallest module the pass lowers.
inline const char *const BufferMaxModule = R"(
               OpCapability Shader
               OpCapability AtomicFloat32MinMaxEXT
               OpExtension "SPV_EXT_shader_atomic_float_min_max"
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main" %buf
               OpExecutionMode %main LocalSize 64 1 1
               OpDecorate %Buf Block
               OpMemberDecorate %Buf 0 Offset 0
               OpDecorate %buf DescriptorSet 0
               OpDecorate %buf Binding 0
       %void = OpTypeVoid
    %fn_void = OpTypeFunction %void
      %float = OpTypeFloat 32
       %uint = OpTypeInt 32 0
        %Buf = OpTypeStruct %float
    %ptr_Buf = OpTypePointer StorageBuffer %Buf
  %ptr_float = OpTypePointer StorageBuffer %float
        %buf = OpVariable %ptr_Buf StorageBuffer
     %uint_0 = OpConstant %uint 0
     %device = OpConstant %uint 1
    %float_2 = OpConstant %float 2
       %main = OpFunction %void None %fn_void
      %entry = OpLabel
         %pf = OpAccessChain %ptr_float %buf %uint_0
          %r = OpAtomicFMaxEXT %float %pf %device %uint_0 %float_2
               OpReturn
               OpFunctionEnd
)";

} // namespace test
} // namespace fatomic

#endif // FATOMIC_TEST_UNIT_SPIRVTESTSUPPORT_H
