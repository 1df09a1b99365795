//===- FuzzSupport.h - Shared pieces of the fuzz targets ------------------===//
//
// The checks every pass fuzz target makes, the lowering options a module's
// header selects, and the abort that turns a broken invariant into a finding.
//
// A SPIR-V input selects its own lowering options through the low nine bits
// of the header's generator word (word 2), so that a corpus entry is a plain
// SPIR-V file that reproduces on its own:
//
//   bits 0-1  nan: 0 the op's default, 1 number, 2 propagate, 3 fast
//   bit 2     strategy=cas
//   bit 3     early-out=off
//   bit 4     native=shaderBufferFloat32AtomicMinMax
//   bit 5     native=shaderSharedFloat32AtomicMinMax
//   bit 6     the target lacks 64-bit integer atomics (buffer and shared)
//   bit 7     images=retype
//   bit 8     aggregate=subgroup
//
//===----------------------------------------------------------------------===//
#ifndef FATOMIC_FUZZ_SUPPORT_H
#define FATOMIC_FUZZ_SUPPORT_H

#include "fatomic/LowerFloatAtomicMinMax.h"
#include "fatomic/Options.h"
#include "fatomic/Target.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace fatomic::fuzz {

/// Prints "fuzz invariant broken: <What>" and aborts (a libFuzzer finding).
[[noreturn]] void fail(const std::string &What);

/// The input bytes as words; a trailing partial word is dropped.
std::vector<uint32_t> toWords(const uint8_t *Data, size_t Size);

/// The options and target that header word 2 selects (see the file comment).
struct PassConfig {
  LoweringOptions Options;
  TargetModel Target;
};
PassConfig configFor(const std::vector<uint32_t> &Words);

/// Runs the SPIR-V pass on \p Words and checks what holds for any input:
/// on failure the words are unchanged and at least one error was reported;
/// on success no error was reported, the output parses and holds no OpBitcast
/// of a Logical pointer.  The same input always gives the same output.
///
/// With \p InputValid (the caller validated the input with validates()) the
/// output must validate for that environment too and be left alone by a
/// second run; a failure must not call the input malformed.
/// Returns the pass's status.
PassStatus checkPass(const std::vector<uint32_t> &Words, bool InputValid);

/// spirv-val for the environment the module is meant for (Vulkan 1.2 or 1.3
/// for shaders, universal 1.6 for kernels), and no OpBitcast of a Logical
/// pointer (which spirv-val 2023.1 does not catch).
bool validates(const std::vector<uint32_t> &Words);

} // namespace fatomic::fuzz

#endif // FATOMIC_FUZZ_SUPPORT_H
