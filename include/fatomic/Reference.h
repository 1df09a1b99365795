//===- fatomic/Reference.h - Sequential reference semantics ---------------===//
//
// The oracle for every test of both back ends: one float atomic min/max
// applied to memory, sequentially, on raw bit patterns of 16, 32 or 64 bits.
//
// `apply` gives the exact bits fatomic's lowering produces (every strategy
// produces the same bits; that is part of the contract):
//
//   - non-NaN operands: the smaller (Min) / larger (Max) in IEEE order with
//     -0 < +0, subnormals compared exactly (unless FlushDenormals: then a
//     subnormal operand is flushed to a zero of its sign first);
//   - number:    NaN operand -> memory unchanged; NaN in memory and a number
//                operand -> the operand; both NaN -> memory unchanged;
//   - propagate: NaN in memory -> unchanged; else NaN operand -> the sticky
//                pattern of OrderMap.h;
//   - fast:      one sign-dispatched integer op on the raw bits.
//
// The returned (old) value is always the memory before the op.
//
// `allowedBySpec` says whether a memory result is one that the
// SPV_EXT_shader_atomic_float_min_max / GLSL / OpenCL table permits for a
// native implementation: min(-0, +0) may be either zero, min(x, NaN) = x,
// both NaN -> any NaN, a signalling NaN operand -> any NaN or the other
// operand.  Tests compare native drivers against this, and fatomic against
// `apply`.
//
//===----------------------------------------------------------------------===//
#ifndef FATOMIC_REFERENCE_H
#define FATOMIC_REFERENCE_H

#include "fatomic/NanPolicy.h"
#include "fatomic/OrderMap.h"

#include <cstdint>
#include <vector>

namespace fatomic {

struct RefOutcome {
  uint64_t Memory;   ///< memory after the op
  uint64_t Returned; ///< the op's result: memory before it
};

RefOutcome referenceApply(FloatOp Op, unsigned Width, NanPolicy Policy,
                          uint64_t Mem, uint64_t V,
                          bool FlushDenormals = false);

/// Whether a native implementation may leave \p Result in memory for the op
/// `Mem = Op(Mem, V)` under the specs' table (number semantics, either zero
/// for a ±0 tie).
bool allowedBySpec(FloatOp Op, unsigned Width, uint64_t Mem, uint64_t V,
                   uint64_t Result);

/// Whether \p Result is an acceptable memory value under \p Policy, accepting
/// the alternatives that fatomic documents as equivalent: none for number and
/// fast (bit-exact), any NaN where propagate produces a NaN.
bool acceptableUnderPolicy(FloatOp Op, unsigned Width, NanPolicy Policy,
                           uint64_t Mem, uint64_t V, uint64_t Result);

/// Reduction of a whole sequence: the final memory after applying every
/// operand in order.  Under every policy the result does not depend on the
/// order (the U order is total), which is what makes lowered shaders
/// deterministic; tests use this as the expected final value.
uint64_t referenceReduce(FloatOp Op, unsigned Width, NanPolicy Policy,
                         uint64_t Initial, const uint64_t *Values,
                         unsigned long long Count, bool FlushDenormals = false);

/// The special bit patterns the execution tests use for one width (16, 32
/// or 64), each positive pattern followed by its negative: zeros, smallest
/// and largest subnormal, smallest normal, 1.0, 1.5, 2.0, largest finite,
/// infinity, quiet NaNs (canonical and with a payload), signalling NaNs
/// (two payloads) and the all-ones NaN: 28 values.
std::vector<uint64_t> specialValues(unsigned Width);

} // namespace fatomic

#endif // FATOMIC_REFERENCE_H
