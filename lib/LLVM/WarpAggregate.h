//===- WarpAggregate.h - One float atomic per NVPTX warp --------*- C++ -*-===//
//
// Warp aggregation for the LLVM pass (aggregate=auto|subgroup on NVPTX):
// where the lanes of a warp run one float min/max atomic on the same
// address, their operands are reduced first and one lane does the atomic
// (docs/semantics.md, "Warp aggregation on NVPTX").
//
//   atomicrmw fmax ptr %p, float %v monotonic          ; result unused
//
// becomes (f32; f64 reduces the high and then the low half of its key)
//
//   mask = activemask; uniform = match.all.sync(mask, p) [& !isspacep.local p]
//   br uniform, reduce, single
//   reduce:  k = U(v')   (v' = v with a NaN rewritten to the policy's
//                         identity (number) or sticky (propagate) pattern)
//            r = redux.sync.umax(k, mask)      (umin for fmin)
//            br laneid == cttz(mask), elected, join
//   elected: atomicrmw fmax ptr %p, float U^-1(r) monotonic
//   join:    (the bound cache's record, where the function has one)
//   single:  atomicrmw fmax ptr %p, float %v monotonic  (the original)
//
// The lanes' atomics take effect at the elected atomic, one after another,
// each changing memory only where its operand is the reduced one; that
// atomic is linearizable against every other writer like any lowered
// atomic.  The two float atomics left behind are lowered by the pass as
// usual.  Nothing crosses lanes after the elected lane's branch.
//
// A used result aggregates only in a full warp:
//
//   br activemask == -1, full, single
//   full:    (with the bound cache: br vote.any.sync(-1, !hit), check, done,
//             a lane's result on the way to done being its cached word)
//   check:   br match.all.sync(-1, p) [& !isspacep.local p], reduce, single
//   reduce:  k, r = redux.sync.umax(k, -1); br laneid == 0, elected, join
//   elected: o = atomicrmw fmax ptr %p, float U^-1(r) monotonic
//   join:    bar.warp.sync(-1); old = shfl.sync.idx(-1, o, 0)
//            owner = cttz(ballot.sync(-1, k == r))
//            result = laneid == owner ? old : combine(old, r)
//   single:  the original atomic, behind the bound cache's own test
//
// Lanes that part inside either form (a cache hit, the early-out, a
// per-lane atomic and its NaN fix-up loop) are not made to wait for each
// other where the paths join: PTX promises no reconvergence there, and a
// barrier that forces it costs more than it gains (docs/semantics.md,
// "Warp aggregation on NVPTX"), so it is a testing knob only
// (setReconvergeForTesting).
//
// The owner (the lowest lane that offered the reduced key) goes first and
// returns what the elected atomic found; the others follow it and return
// the memory it left, on which their operands change nothing.  Only the
// whole warp, because the exchanges after the elected lane's branch carry
// a value between lanes, and on sm_90 (H200) lanes read them wrong when
// two groups of one warp, formed apart after a divergence, met at one
// atomic (docs/data/nvptx-h200-aggregation-used-probe.txt): a full warp is
// the one group its warp has there.
//
// Aggregated: atomicrmw fmin/fmax/fminimum/fmaximum on float or double,
// monotonic, not volatile, wider than singlethread scope, on global (1),
// shared (3) or generic (0) pointers (a generic pointer into local memory,
// where equal addresses name different memory, takes the per-lane path),
// in a function whose module targets NVPTX and whose "target-cpu" is sm_80
// or later (redux.sync); with aggregate=subgroup also where the function
// names no target-cpu.  Everything else is left to the per-lane lowering.
//
// In a function that uses convergence control tokens
// (llvm.experimental.convergence.*), where controlled and uncontrolled
// convergent operations may not mix, each form starts with
//
//   a = llvm.experimental.convergence.anchor()
//
// at the atomic's place, and every convergent call of the form carries
// [ "convergencectrl"(token a) ].  An anchor's lanes are those that reach
// it together, which is all the form assumes (it names them with
// activemask, or checks for the full warp); an outer token (the entry's, a
// loop heart's) would promise convergence that the form does not need and
// that the per-lane path does not keep.  The function's own tokens are left
// as they are.
//
//===----------------------------------------------------------------------===//
#ifndef FATOMIC_LIB_LLVM_WARPAGGREGATE_H
#define FATOMIC_LIB_LLVM_WARPAGGREGATE_H

#include "fatomic/NanPolicy.h"
#include "fatomic/Options.h"
#include "fatomic/OrderMap.h"

#include "llvm/ADT/StringRef.h"

#include <optional>

namespace llvm {
class AtomicRMWInst;
class Function;
} // namespace llvm

namespace fatomic::llvmir {

class BoundCache;

/// The NN of an NVPTX "target-cpu" of the form sm_NN[suffix], or nothing.
std::optional<unsigned> smArch(llvm::StringRef CPU);

/// Whether the target of \p F has the warp operations aggregation needs,
/// as far as \p Aggregate lets the pass assume.
bool targetAggregates(const llvm::Function &F, Aggregation Aggregate);

/// Whether \p RMW, a float min/max atomic in a function for which
/// targetAggregates holds, has a shape that aggregates.
bool isWarpAggregable(const llvm::AtomicRMWInst &RMW);

/// Testing only (the plugin's hidden -fatomic-warp-reconverge-for-testing):
/// end each aggregated form with bar.warp.sync on the lanes that reached it
/// together, so that a warp that parted inside meets the next atomic
/// whole, and tools/nvptx's checks reach the full-warp path more often.
void setReconvergeForTesting(bool On);

/// Whether \p F uses convergence control: a convergence control intrinsic
/// or a "convergencectrl" operand bundle.
bool usesConvergenceControl(const llvm::Function &F);

/// Rewrites \p RMW (an aggregable fmin/fmax-like atomic of operation \p Op
/// under \p Policy) into the aggregated form above for an unused or a
/// used result, with \p Cache's tests where the function has a bound
/// cache (BoundCache.h), and with an anchor's token on its convergent calls
/// where \p Controlled (usesConvergenceControl of the function).  \p RMW
/// stays, as the per-lane atomic; the elected lane's atomic is returned.
llvm::AtomicRMWInst &aggregateOverWarp(llvm::AtomicRMWInst &RMW, FloatOp Op,
                                       NanPolicy Policy,
                                       BoundCache *Cache = nullptr,
                                       bool Controlled = false);

} // namespace fatomic::llvmir

#endif // FATOMIC_LIB_LLVM_WARPAGGREGATE_H
