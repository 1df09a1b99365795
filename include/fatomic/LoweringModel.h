//===- fatomic/LoweringModel.h - The emitted algorithm, on plain bits -----===//
//
// What the SPIR-V and LLVM back ends emit, written once as sequential C++ over
// bit patterns with plain integer min/max: operand rewriting (identity and
// sticky NaN patterns), the early-out test in the U order, the one
// sign-dispatched integer atomic, the NaN fix-up, and the CAS loop.  Tests
// check it against the independent reference model (Reference.h) over the
// special-value grid; the back ends then only have to emit it faithfully.
//
// Summary per policy (dispatch strategy):
//   number     NaN operand: no-op (early-out) or the identity pattern.
//              NaN found in memory (early-out load, or the atomic's result):
//              CAS fix-up that stores the operand.
//   propagate  NaN operand: the sticky pattern.  NaN found by the early-out
//              load: return it, memory stays NaN.  Without early-out a
//              foreign NaN could be displaced, so the CAS strategy is used.
//   fast       the dispatched atomic alone, NaNs in the integer order.
//
//===----------------------------------------------------------------------===//
#ifndef FATOMIC_LOWERINGMODEL_H
#define FATOMIC_LOWERINGMODEL_H

#include "fatomic/Options.h"
#include "fatomic/Reference.h"

namespace fatomic {

/// The value a CAS loop (or NaN fix-up) computes from the current memory bits
/// \p Cur and the operand \p V, using only U-order compares and NaN tests.
uint64_t policyCombine(FloatOp Op, unsigned Width, NanPolicy Policy,
                       uint64_t Cur, uint64_t V);

/// True when the effective strategy for (policy, early-out allowed) is a CAS
/// loop: either asked for, or forced (propagate without early-out).
bool usesCasLoop(Strategy Asked, NanPolicy Policy, bool EarlyOut);

/// Runs the lowered algorithm once on memory \p Mem, sequentially.
RefOutcome emulateLowered(FloatOp Op, unsigned Width, NanPolicy Policy,
                          Strategy Strat, bool EarlyOut, uint64_t Mem,
                          uint64_t V, bool FlushDenormals = false);

} // namespace fatomic

#endif // FATOMIC_LOWERINGMODEL_H
