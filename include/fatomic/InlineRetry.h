//===- fatomic/InlineRetry.h - The retry after an untraceable pointer -*- C++ -*-===//
//
// The second attempt that every caller of the pass makes when Process()
// fails with FailureKind::UntraceablePointer (fatomic-opt, the Vulkan
// layer, tools/fatomic-engine-example; fatomic/LowerFloatAtomicMinMax.h): a
// pointer that reaches an atomic through a function parameter is traced
// once the function is inlined into the entry points.  spirv-opt's inliner
// skips DontInline functions (Slang's [noinline]) and functions that return
// early from a loop, so the bit is cleared and returns are merged first.
//
// Header-only: it runs spvtools::Optimizer, so a program that uses it links
// SPIRV-Tools-opt, which libfatomic itself does not need.
//
//===----------------------------------------------------------------------===//
#ifndef FATOMIC_INLINERETRY_H
#define FATOMIC_INLINERETRY_H

#include <spirv-tools/libspirv.hpp>
#include <spirv-tools/optimizer.hpp>
#include <spirv/unified1/spirv.hpp11>

#include <cstdint>
#include <string>
#include <vector>

namespace fatomic {

/// Clears DontInline in the function control of every OpFunction, which
/// spirv-opt's inliner would otherwise leave alone.
inline void clearDontInline(std::vector<uint32_t> &Words) {
  const uint32_t DontInline = uint32_t(spv::FunctionControlMask::DontInline);
  for (size_t I = 5; I < Words.size();) {
    const uint32_t Count = Words[I] >> spv::WordCountShift;
    if (Count == 0 || I + Count > Words.size())
      return; // not a module; left for the optimizer to refuse
    // OpFunction: result type, result id, function control, function type.
    if (spv::Op(Words[I] & spv::OpCodeMask) == spv::Op::OpFunction && Count >= 5)
      Words[I + 3] &= ~DontInline;
    I += Count;
  }
}

/// The optimizer flags of the retry, run after clearDontInline (for a
/// caller that runs them through an optimizer of its own, as fatomic-opt
/// does to time and print them).
inline const std::vector<std::string> &retryInlineFlags() {
  static const std::vector<std::string> Flags{
      "--merge-return", "--inline-entry-points-exhaustive", "--eliminate-dead-functions"};
  return Flags;
}

/// A message of the pass's second attempt, after the retry: every
/// UntraceablePointer error ends with the advice to inline the entry
/// points first, which the retry has just done, so the advice gives way to
/// ", even with the entry points inlined".  Other messages stay as they
/// are.
inline std::string afterInlineRetry(const std::string &Message) {
  const size_t At = Message.find("; inline the entry points first (");
  return At == std::string::npos ? Message
                                 : Message.substr(0, At) + ", even with the entry points inlined";
}

/// The validator's relaxations a module was accepted under (spirv-opt's
/// --relax-struct-store, --before-hlsl-legalization), which retryCanTake
/// grants as well.
struct RetryRelaxations {
  bool RelaxStructStore = false;
  bool BeforeHlslLegalization = false;
};

/// Whether the retry's optimizer can take \p Words: SPIR-V whose structure
/// is valid (ids, types, functions, control flow), checked by the
/// validator under the universal SPIR-V 1.6 rules with block layout
/// skipped, logical pointers relaxed, \p Relaxed and the module's own id
/// bound allowed, so that no module a Vulkan or OpenCL environment accepts
/// is refused.  spirv-opt's passes assume a valid module and may crash on
/// another; a caller that has not validated its input (the Vulkan layer
/// gets the application's module as it is) must not hand them one.  The
/// validator's messages go to \p Consumer.
inline bool retryCanTake(const std::vector<uint32_t> &Words,
                         const spvtools::MessageConsumer &Consumer = nullptr,
                         RetryRelaxations Relaxed = {}) {
  spvtools::SpirvTools Tools(SPV_ENV_UNIVERSAL_1_6);
  Tools.SetMessageConsumer(Consumer ? Consumer
                                    : [](spv_message_level_t, const char *,
                                         const spv_position_t &, const char *) {});
  spvtools::ValidatorOptions Options;
  Options.SetSkipBlockLayout(true);
  Options.SetRelaxLogicalPointer(true);
  Options.SetRelaxStructStore(Relaxed.RelaxStructStore);
  Options.SetBeforeHlslLegalization(Relaxed.BeforeHlslLegalization);
  if (Words.size() > 3 && Words[3] > 0x3FFFFF)
    Options.SetUniversalLimit(spv_validator_limit_max_id_bound, Words[3]);
  return Tools.Validate(Words.data(), Words.size(), Options);
}

/// The whole retry for environment \p Env: retryCanTake, clearDontInline,
/// then retryInlineFlags(); Process() the result again.  False where the
/// module is not valid SPIR-V or the optimizer fails (the messages go to
/// \p Consumer); \p Words is then untouched.
inline bool inlineForRetry(std::vector<uint32_t> &Words, spv_target_env Env,
                           const spvtools::MessageConsumer &Consumer = nullptr) {
  if (!retryCanTake(Words, Consumer))
    return false;
  std::vector<uint32_t> In = Words;
  clearDontInline(In);
  spvtools::Optimizer Inliner(Env);
  if (Consumer)
    Inliner.SetMessageConsumer(Consumer);
  // retryCanTake checked the module's structure; the optimizer's own
  // validation would apply default limits and layouts the caller may not
  // use (scalar block layout, a raised id bound), as fatomic-opt's does not.
  spvtools::OptimizerOptions Options;
  Options.set_run_validator(false);
  std::vector<uint32_t> Out;
  if (!Inliner.RegisterPassesFromFlags(retryInlineFlags()) ||
      !Inliner.Run(In.data(), In.size(), &Out, Options))
    return false;
  Words.swap(Out);
  return true;
}

} // namespace fatomic

#endif // FATOMIC_INLINERETRY_H
