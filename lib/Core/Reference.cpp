//===- Reference.cpp - Sequential reference semantics ---------------------===//
//
// Deliberately written without the order map or the dispatch table: it
// compares floats by sign and magnitude, the way IEEE 754 defines the order,
// so that the tests that check the map against it check two independent
// derivations.
//
//===----------------------------------------------------------------------===//

#include "fatomic/Reference.h"

namespace fatomic {

namespace {

/// IEEE total order restricted to non-NaN values, with -0 < +0.
bool lessNonNaN(uint64_t A, uint64_t B, unsigned Width) {
  const bool SA = isSignSet(A, Width), SB = isSignSet(B, Width);
  const uint64_t MagA = A & ~signBit(Width) & widthMask(Width);
  const uint64_t MagB = B & ~signBit(Width) & widthMask(Width);
  if (SA != SB)
    return SA; // negative (including -0) below positive (including +0)
  return SA ? MagA > MagB : MagA < MagB;
}

uint64_t pick(FloatOp Op, uint64_t Mem, uint64_t V, unsigned Width) {
  if (Op == FloatOp::Min)
    return lessNonNaN(V, Mem, Width) ? V : Mem;
  return lessNonNaN(Mem, V, Width) ? V : Mem;
}

bool isZero(uint64_t Bits, unsigned Width) {
  return (Bits & ~signBit(Width) & widthMask(Width)) == 0;
}

} // namespace

RefOutcome referenceApply(FloatOp Op, unsigned Width, NanPolicy Policy,
                          uint64_t Mem, uint64_t V, bool FlushDenormals) {
  Mem &= widthMask(Width);
  V &= widthMask(Width);
  if (FlushDenormals)
    V = flushSubnormal(V, Width);
  const bool MemNaN = isNaN(Mem, Width), VNaN = isNaN(V, Width);
  uint64_t New = Mem;
  switch (Policy) {
  case NanPolicy::Number:
    if (VNaN)
      New = Mem;
    else if (MemNaN)
      New = V;
    else
      New = pick(Op, Mem, V, Width);
    break;
  case NanPolicy::Propagate:
    if (MemNaN)
      New = Mem;
    else if (VNaN)
      New = stickyPattern(Op, Width);
    else
      New = pick(Op, Mem, V, Width);
    break;
  case NanPolicy::Fast:
    // Documented table: NaNs take their place in the integer order of the
    // sign-dispatched op, i.e. positive NaNs above +inf, negative NaNs below
    // -inf, ordered among themselves by payload.
    if (!MemNaN && !VNaN) {
      New = pick(Op, Mem, V, Width);
    } else {
      // Rank: negative NaNs < every number < positive NaNs; within negative
      // NaNs a larger magnitude is smaller, within positive a larger is larger.
      auto Rank = [Width](uint64_t B) -> int {
        if (!isNaN(B, Width))
          return 0;
        return isSignSet(B, Width) ? -1 : 1;
      };
      const int RM = Rank(Mem), RV = Rank(V);
      bool VLess;
      if (RM != RV)
        VLess = RV < RM;
      else // both NaN of one sign: magnitude order, reversed when negative
        VLess = isSignSet(V, Width) ? V > Mem : V < Mem;
      const bool MemLess = RM != RV ? RM < RV
                                    : (isSignSet(V, Width) ? Mem > V : Mem < V);
      New = Op == FloatOp::Min ? (VLess ? V : Mem) : (MemLess ? V : Mem);
    }
    break;
  }
  return {New, Mem};
}

bool allowedBySpec(FloatOp Op, unsigned Width, uint64_t Mem, uint64_t V,
                   uint64_t Result) {
  Mem &= widthMask(Width);
  V &= widthMask(Width);
  Result &= widthMask(Width);
  const bool MemNaN = isNaN(Mem, Width), VNaN = isNaN(V, Width);
  const bool ResNaN = isNaN(Result, Width);
  if (MemNaN && VNaN)
    return ResNaN;
  // A signalling NaN operand: any NaN, or the other operand.
  if (VNaN && !isQuietNaN(V, Width))
    return ResNaN || Result == Mem;
  if (MemNaN && !isQuietNaN(Mem, Width))
    return ResNaN || Result == V;
  if (VNaN)
    return Result == Mem;
  if (MemNaN)
    return Result == V;
  if (isZero(Mem, Width) && isZero(V, Width))
    return Result == Mem || Result == V;
  return Result == pick(Op, Mem, V, Width);
}

bool acceptableUnderPolicy(FloatOp Op, unsigned Width, NanPolicy Policy,
                           uint64_t Mem, uint64_t V, uint64_t Result) {
  const RefOutcome R = referenceApply(Op, Width, Policy, Mem, V);
  Result &= widthMask(Width);
  if (Policy == NanPolicy::Propagate && isNaN(R.Memory, Width))
    return isNaN(Result, Width);
  return Result == R.Memory;
}

uint64_t referenceReduce(FloatOp Op, unsigned Width, NanPolicy Policy,
                         uint64_t Initial, const uint64_t *Values,
                         unsigned long long Count, bool FlushDenormals) {
  uint64_t Mem = Initial & widthMask(Width);
  for (unsigned long long I = 0; I < Count; ++I)
    Mem = referenceApply(Op, Width, Policy, Mem, Values[I], FlushDenormals)
              .Memory;
  return Mem;
}

std::vector<uint64_t> specialValues(unsigned W) {
  const unsigned M = mantissaBits(W);
  const uint64_t Exp = exponentMask(W), Quiet = uint64_t{1} << (M - 1);
  const uint64_t One = (Exp >> (M + 1)) << M;
  const uint64_t Positive[] = {
      0,                         // +0
      1,                         // smallest subnormal
      widthMask(M),              // largest subnormal
      uint64_t{1} << M,          // smallest normal
      One,                       // 1.0
      One | Quiet,               // 1.5
      One + (uint64_t{1} << M),  // 2.0
      Exp - 1,                   // largest finite
      Exp,                       // infinity
      Exp | Quiet,               // quiet NaN
      Exp | Quiet | 3,           // quiet NaN with a payload
      Exp | 1,                   // signalling NaN
      Exp | (Quiet >> 1),        // signalling NaN, another payload
      widthMask(W) >> 1,         // all-ones NaN
  };
  std::vector<uint64_t> Values;
  for (uint64_t P : Positive) {
    Values.push_back(P);
    Values.push_back(P | signBit(W));
  }
  return Values;
}

} // namespace fatomic
