//===- fatomic/NanPolicy.h - What a lowered float min/max does with NaN ---===//
//
//   number     IEEE minimumNumber-like, the table of
//              SPV_EXT_shader_atomic_float_min_max, GLSL_EXT_shader_atomic_float2
//              and cl_ext_float_atomics: a NaN operand leaves memory unchanged,
//              a NaN in memory is replaced by the operand, both NaN -> the NaN
//              in memory stays.  Default for OpAtomicF{Min,Max}EXT,
//              `atomicrmw fmin/fmax` and the DXIL float overloads.
//   propagate  IEEE 754-2019 minimum/maximum: any NaN makes the stored result
//              NaN and it stays NaN.  A NaN operand is stored as the sticky
//              pattern (OrderMap.h).  Default for `atomicrmw fminimum/fmaximum`.
//   fast       no NaN handling code: NaNs follow the integer order of the
//              sign-dispatched atomic (docs/semantics.md has the table).
//
// Signed zero is deterministic under every policy: -0 < +0.
//
//===----------------------------------------------------------------------===//
#ifndef FATOMIC_NANPOLICY_H
#define FATOMIC_NANPOLICY_H

#include <optional>
#include <string_view>

namespace fatomic {

enum class NanPolicy : unsigned char { Number, Propagate, Fast };

/// "number" | "propagate" | "fast"; std::nullopt for anything else.
std::optional<NanPolicy> parseNanPolicy(std::string_view Text);

/// The spelling parseNanPolicy accepts.
const char *toString(NanPolicy Policy);

} // namespace fatomic

#endif // FATOMIC_NANPOLICY_H
