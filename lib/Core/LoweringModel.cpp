//===- LoweringModel.cpp - The emitted algorithm, on plain bits -----------===//

#include "fatomic/LoweringModel.h"

namespace fatomic {

namespace {

/// U-order "V wins" test: V < Cur for Min, V > Cur for Max.
bool wins(FloatOp Op, uint64_t Cur, uint64_t V, unsigned Width) {
  const uint64_t UC = toOrdered(Cur, Width), UV = toOrdered(V, Width);
  return Op == FloatOp::Min ? UV < UC : UV > UC;
}

} // namespace

uint64_t policyCombine(FloatOp Op, unsigned Width, NanPolicy Policy,
                       uint64_t Cur, uint64_t V) {
  const bool CurNaN = isNaN(Cur, Width), VNaN = isNaN(V, Width);
  switch (Policy) {
  case NanPolicy::Number:
    if (VNaN)
      return Cur;
    return (CurNaN || wins(Op, Cur, V, Width)) ? V : Cur;
  case NanPolicy::Propagate:
    if (CurNaN)
      return Cur;
    if (VNaN)
      return stickyPattern(Op, Width);
    return wins(Op, Cur, V, Width) ? V : Cur;
  case NanPolicy::Fast:
    return wins(Op, Cur, V, Width) ? V : Cur;
  }
  return Cur;
}

bool usesCasLoop(Strategy Asked, NanPolicy Policy, bool EarlyOut) {
  return Asked == Strategy::Cas || (Policy == NanPolicy::Propagate && !EarlyOut);
}

RefOutcome emulateLowered(FloatOp Op, unsigned Width, NanPolicy Policy,
                          Strategy Strat, bool EarlyOut, uint64_t Mem,
                          uint64_t V, bool FlushDenormals) {
  Mem &= widthMask(Width);
  V &= widthMask(Width);
  if (FlushDenormals)
    V = flushSubnormal(V, Width);

  if (usesCasLoop(Strat, Policy, EarlyOut)) {
    // load; combine; skip the exchange when nothing changes (early-out) or
    // exchange and retry while the bits differ.  Sequentially: one round.
    const uint64_t Cur = Mem;
    const uint64_t New = policyCombine(Op, Width, Policy, Cur, V);
    return {New, Cur};
  }

  // Operand rewriting for the dispatch path.
  uint64_t Operand = V;
  const bool VNaN = isNaN(V, Width);
  if (VNaN && Policy == NanPolicy::Number) {
    if (EarlyOut)
      return {Mem, Mem}; // the atomic load's value; no RMW
    Operand = identityPattern(Op, Width);
  } else if (VNaN && Policy == NanPolicy::Propagate) {
    Operand = stickyPattern(Op, Width);
  }

  if (EarlyOut) {
    const uint64_t Cur = Mem; // OpAtomicLoad
    if (Policy != NanPolicy::Fast && isNaN(Cur, Width)) {
      if (Policy == NanPolicy::Propagate)
        return {Mem, Cur};
      // number: rare path, CAS loop storing the combined value.
      return {policyCombine(Op, Width, Policy, Cur, V), Cur};
    }
    if (cannotChange(Op, Cur, Operand, Width))
      return {Mem, Cur};
  }

  const uint64_t Old = Mem; // the integer atomic's result
  Mem = dispatchApply(Op, Mem, Operand, Width);
  // Fix-up: a NaN of the sign the dispatched op cannot displace (negative
  // for min, positive for max) is replaced by a CAS; the operation's result
  // is then what the CAS saw (sequentially: the same NaN).
  const bool Stays = isSignSet(Old, Width) == (Op == FloatOp::Min);
  if (Policy == NanPolicy::Number && isNaN(Old, Width) && Stays && !VNaN) {
    const uint64_t Seen = Mem;
    Mem = policyCombine(Op, Width, Policy, Mem, V);
    return {Mem, Seen};
  }
  return {Mem, Old};
}

} // namespace fatomic
