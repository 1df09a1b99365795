//===- fatomic/OrderMap.h - Order-preserving float <-> integer map --------===//
//
// The two facts every fatomic lowering rests on, for IEEE binary16, binary32
// and binary64 bit patterns held in a uint64_t (the high bits are zero):
//
//  1. Sign dispatch on raw memory.  With b = bits(v), a float min/max on raw
//     IEEE memory equals ONE integer atomic chosen by the sign bit of b:
//
//        op    | sign(b) clear | sign(b) set
//        ------+---------------+------------
//        FMin  | SMin          | UMax
//        FMax  | SMax          | UMin
//
//     This is exact for every non-NaN pair, -0 < +0, infinities and
//     subnormals included (integers never flush).  The rule keys on the sign
//     bit, never on `v >= 0`, which would mis-sort -0.0.
//
//  2. The order-preserving map U(b) = b ^ (sign ? ~0 : signbit), a bijection
//     with a < b (IEEE, -0 < +0) <=> U(a) < U(b) (unsigned) for non-NaN a, b.
//     Positive NaNs land above +inf, negative NaNs below -inf.  The lowering
//     uses U wherever two values must be compared consistently with the
//     integer atomics (the early-out test).
//
// Everything here is constexpr and header-only so that tests can sweep all
// 2^32 binary32 patterns at full speed.
//
//===----------------------------------------------------------------------===//
#ifndef FATOMIC_ORDERMAP_H
#define FATOMIC_ORDERMAP_H

#include <cstdint>

namespace fatomic {

/// The float operation being lowered.
enum class FloatOp : uint8_t { Min, Max };

/// The integer atomic that implements a float op for one sign of the operand.
enum class IntOp : uint8_t { SMin, SMax, UMin, UMax };

const char *toString(FloatOp Op);
const char *toString(IntOp Op);

/// True for the widths fatomic models: 16, 32 and 64.
constexpr bool isSupportedWidth(unsigned Width) {
  return Width == 16 || Width == 32 || Width == 64;
}

/// All-ones mask of \p Width bits.
constexpr uint64_t widthMask(unsigned Width) {
  return Width >= 64 ? ~uint64_t{0} : (uint64_t{1} << Width) - 1;
}

/// The sign bit of a \p Width-bit pattern.
constexpr uint64_t signBit(unsigned Width) { return uint64_t{1} << (Width - 1); }

constexpr unsigned mantissaBits(unsigned Width) {
  return Width == 16 ? 10 : Width == 32 ? 23 : 52;
}

constexpr uint64_t exponentMask(unsigned Width) {
  return widthMask(Width) & ~signBit(Width) & ~widthMask(mantissaBits(Width));
}

constexpr bool isSignSet(uint64_t Bits, unsigned Width) {
  return (Bits & signBit(Width)) != 0;
}

constexpr bool isNaN(uint64_t Bits, unsigned Width) {
  const uint64_t E = exponentMask(Width);
  return (Bits & E) == E && (Bits & widthMask(mantissaBits(Width))) != 0;
}

/// Quiet NaN: the top mantissa bit is set.
constexpr bool isQuietNaN(uint64_t Bits, unsigned Width) {
  return isNaN(Bits, Width) &&
         (Bits & (uint64_t{1} << (mantissaBits(Width) - 1))) != 0;
}

/// Subnormal (denormal): exponent field zero, mantissa non-zero.
constexpr bool isSubnormal(uint64_t Bits, unsigned Width) {
  return (Bits & exponentMask(Width)) == 0 &&
         (Bits & widthMask(mantissaBits(Width))) != 0;
}

/// A subnormal becomes a zero of the same sign; anything else is unchanged.
constexpr uint64_t flushSubnormal(uint64_t Bits, unsigned Width) {
  return isSubnormal(Bits, Width) ? (Bits & signBit(Width)) : Bits;
}

/// U: the order-preserving map from float bits to unsigned integers.
constexpr uint64_t toOrdered(uint64_t Bits, unsigned Width) {
  return (Bits ^ (isSignSet(Bits, Width) ? widthMask(Width) : signBit(Width))) &
         widthMask(Width);
}

/// The inverse of toOrdered.
constexpr uint64_t fromOrdered(uint64_t U, unsigned Width) {
  return (U ^ (isSignSet(U, Width) ? signBit(Width) : widthMask(Width))) &
         widthMask(Width);
}

/// The integer op that implements \p Op for an operand whose sign bit is
/// \p SignSet (table in the file comment).
constexpr IntOp dispatchOp(FloatOp Op, bool SignSet) {
  if (Op == FloatOp::Min)
    return SignSet ? IntOp::UMax : IntOp::SMin;
  return SignSet ? IntOp::UMin : IntOp::SMax;
}

/// Sign-extends a \p Width-bit pattern to int64_t.
constexpr int64_t toSigned(uint64_t Bits, unsigned Width) {
  const uint64_t S = signBit(Width);
  return static_cast<int64_t>(((Bits & widthMask(Width)) ^ S) - S);
}

/// Applies an integer min/max to two \p Width-bit patterns, as the integer
/// atomic does to memory: returns the new memory bits.
constexpr uint64_t applyIntOp(IntOp Op, uint64_t Mem, uint64_t V,
                              unsigned Width) {
  switch (Op) {
  case IntOp::SMin:
    return toSigned(V, Width) < toSigned(Mem, Width) ? V : Mem;
  case IntOp::SMax:
    return toSigned(V, Width) > toSigned(Mem, Width) ? V : Mem;
  case IntOp::UMin:
    return V < Mem ? V : Mem;
  case IntOp::UMax:
    return V > Mem ? V : Mem;
  }
  return Mem;
}

/// One sign-dispatched integer atomic on raw bits (no NaN handling): the
/// memory value after the op.  This is the `fast` policy's whole semantics.
constexpr uint64_t dispatchApply(FloatOp Op, uint64_t Mem, uint64_t V,
                                 unsigned Width) {
  return applyIntOp(dispatchOp(Op, isSignSet(V, Width)), Mem, V, Width);
}

/// Operand pattern that leaves memory unchanged on the dispatch path
/// (`number` policy, NaN operand): the signed maximum for Min (takes SMin),
/// all ones for Max (takes UMin).
constexpr uint64_t identityPattern(FloatOp Op, unsigned Width) {
  return Op == FloatOp::Min ? widthMask(Width) >> 1 : widthMask(Width);
}

/// NaN pattern that, once stored, no sign-dispatched op of the same kind
/// displaces (`propagate` policy): all ones (a negative NaN) for Min, the
/// signed maximum (a positive NaN) for Max.  Both are quiet NaNs.
constexpr uint64_t stickyPattern(FloatOp Op, unsigned Width) {
  return Op == FloatOp::Min ? widthMask(Width) : widthMask(Width) >> 1;
}

/// True when \p V cannot change memory holding \p Mem under \p Op, compared
/// in the U order (both non-NaN, or NaNs placed as U places them).
constexpr bool cannotChange(FloatOp Op, uint64_t Mem, uint64_t V,
                            unsigned Width) {
  const uint64_t UM = toOrdered(Mem, Width), UV = toOrdered(V, Width);
  return Op == FloatOp::Min ? UV >= UM : UV <= UM;
}

} // namespace fatomic

#endif // FATOMIC_ORDERMAP_H
