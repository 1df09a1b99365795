//===- WarpAggregate.h - One float atomic per NVPTX warp --------*- C++ -*-===//
//
// Warp aggregation for the LLVM pass (aggregate=auto|subgroup on NVPTX):
// where every active lane of a warp runs one float min/max atomic on the
// same address, the lanes' operands are reduced first and one lane does the
// atomic (docs/semantics.md, "Subgroup aggregation", "NVPTX").
//
//   %old = atomicrmw fmax ptr %p, float %v monotonic
//
// becomes (f32; f64 reduces the high and then the low half of its key)
//
//   mask = activemask; uniform = match.all.sync(mask, p) [& !isspacep.local p]
//   br uniform, reduce, single
//   reduce:  k = U(v')   (v' = v with a NaN rewritten to the policy's
//                         identity (number) or sticky (propagate) pattern)
//            r = redux.sync.umax(k, mask)      (umin for fmin)
//            br laneid == cttz(mask), elected, join
//   elected: e = atomicrmw fmax ptr %p, float U^-1(r) monotonic
//   join:    [used] bar.warp.sync(mask); o = shfl.sync.idx(mask, e, cttz(mask))
//            owner = cttz(ballot.sync(mask, k == r) & mask)
//            result = laneid == owner ? o : memory after o and U^-1(r)
//   single:  s = atomicrmw fmax ptr %p, float %v monotonic  (the original)
//   done:    old = phi(result, s)
//
// Linearization: the lane that owns the reduced key goes first and returns
// the memory the elected atomic saw; every other lane follows it and
// returns the memory it left, which none of their operands changes.  So no
// scan is needed, and the lanes' atomics take effect at the elected atomic,
// which is linearizable against every other writer like any lowered atomic.
// The two float atomics left behind are lowered by the pass as usual.
//
// Aggregated: atomicrmw fmin/fmax/fminimum/fmaximum on float or double,
// monotonic, not volatile, wider than singlethread scope, on global (1),
// shared (3) or generic (0) pointers (a generic pointer into local memory,
// where equal addresses name different memory, takes the per-lane path),
// in a function whose module targets NVPTX and whose "target-cpu" is sm_80
// or later (redux.sync); with aggregate=subgroup also where the function
// names no target-cpu.  Everything else is left to the per-lane lowering.
//
//===----------------------------------------------------------------------===//
#ifndef FATOMIC_LIB_LLVM_WARPAGGREGATE_H
#define FATOMIC_LIB_LLVM_WARPAGGREGATE_H

#include "fatomic/NanPolicy.h"
#include "fatomic/Options.h"
#include "fatomic/OrderMap.h"

namespace llvm {
class AtomicRMWInst;
class Function;
} // namespace llvm

namespace fatomic::llvmir {

class BoundCache;

/// Whether the target of \p F has the warp operations aggregation needs,
/// as far as \p Aggregate lets the pass assume.
bool targetAggregates(const llvm::Function &F, Aggregation Aggregate);

/// Whether \p RMW, a float min/max atomic in a function for which
/// targetAggregates holds, has a shape that aggregates.
bool isWarpAggregable(const llvm::AtomicRMWInst &RMW);

/// Rewrites \p RMW (an aggregable fmin/fmax-like atomic of operation \p Op
/// under \p Policy) into the aggregated form above, behind \p Cache's test
/// where the function has a bound cache (BoundCache.h) and the result is
/// unused.  \p RMW stays, as the per-lane atomic; the elected lane's atomic
/// is returned.
llvm::AtomicRMWInst &aggregateOverWarp(llvm::AtomicRMWInst &RMW, FloatOp Op,
                                       NanPolicy Policy,
                                       BoundCache *Cache = nullptr);

} // namespace fatomic::llvmir

#endif // FATOMIC_LIB_LLVM_WARPAGGREGATE_H
