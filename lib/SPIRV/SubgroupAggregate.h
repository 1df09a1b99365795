//===- SubgroupAggregate.h - One atomic per subgroup ----------------------===//
//
// `aggregate=`: where the invocations of a subgroup hit one address, they
// combine their operands first and one of them does the lowered atomic.
// auto (the default) does it where the target model knows the subgroup
// operations are there, subgroup also where nothing is known of them
// (LoweringOptions::aggregates); auto leaves to the driver the 32-bit
// unused-result atomics on buffer memory behind the bound cache where the
// driver combines those itself (SubgroupSupport::DriverCombinesUnused32).
//
//   key  = U(v), the order map (NaN operands: the identity under `number`,
//          the absorbing end under `propagate`; raw under `fast`)
//   if every index of the address is equal across the subgroup
//          (its OpGroupNonUniformUMin equals its UMax; no test where every
//          index is a constant):
//     r = OpGroupNonUniformUMax/UMin Reduce key (64-bit keys: the high
//         halves, then the low halves where the high half is r's)
//     the elected invocation (OpGroupNonUniformElect) runs the lowered
//     atomic (AtomicEmitter) on U^-1(r)
//     used result: old = OpGroupNonUniformBroadcastFirst of its result,
//     and each invocation's value is the policy's fold of old with the
//     exclusive scan of the keys below it (old itself, with no scan, where
//     r could not change memory)
//   else: the per-invocation lowered atomic.
// With the result unused and the bound cache on (BoundCache.h), each
// invocation tests its cache after the uniformity test, and only those it
// cannot decide take part in the rest; the atomics that follow make no
// second test.
//
// Linearizable: the subgroup's operations take effect, in invocation order,
// at the elected invocation's atomic, and each returned value is what that
// order gives (docs/semantics.md, "Subgroup aggregation").
//
// Applied only where that is sound and legal: buffer and Workgroup memory,
// constant Scope, Relaxed semantics (another invocation's release or
// acquire would not be performed), not volatile, no denormal flushing of
// the width, SPIR-V 1.3 or later, a Shader module whose every entry point is
// GLCompute (a fragment shader's helper invocations take part in subgroup
// operations but their atomics have no effect).  Adds GroupNonUniform,
// GroupNonUniformArithmetic and, for used results, GroupNonUniformBallot.
//
//===----------------------------------------------------------------------===//
#ifndef FATOMIC_SPIRV_SUBGROUPAGGREGATE_H
#define FATOMIC_SPIRV_SUBGROUPAGGREGATE_H

#include "AtomicEmitter.h"
#include "BoundCache.h"
#include "LoweringState.h"

#include <set>
#include <vector>

namespace fatomic::spirv {

/// Appends the lowering of \p S on \p X to \p Blocks: aggregated where
/// aggregate=subgroup asks for it and it applies, otherwise AtomicEmitter's.
void emitLoweredAtomic(LoweringContext &C, const std::set<unsigned> &FlushWidths,
                       std::vector<Block> &Blocks, const Site &S, const Operands &X);

class SubgroupAggregator : CodeWriter {
public:
  SubgroupAggregator(LoweringContext &C, const std::set<unsigned> &FlushWidths,
                     std::vector<Block> &Blocks, const Site &S, const Operands &X)
      : CodeWriter(C, Blocks), FlushWidths(FlushWidths), S(S), X(X) {}

  /// Whether the aggregated form is sound and legal for \p S here.
  bool applies() const;
  void emit();

private:
  uint32_t subgroup() { return C.constantInt(M.typeInt(32, false), uint32_t(spv::Scope::Subgroup)); }

  bool moduleAllows() const;
  bool siteAllows() const;
  /// Whether the target has the subgroup operations this site needs.
  bool targetAllows() const;
  /// Whether aggregate=auto leaves this site to the driver, which combines
  /// it across the subgroup itself.
  bool leftToDriver() const;
  uint32_t unordered(uint32_t Key);
  uint32_t key(uint32_t Bits);
  uint32_t uniformAddress();
  /// The reduction of \p Key over the active invocations (64 bits: two
  /// 32-bit reductions).
  uint32_t reduce(uint32_t Key);
  /// The lowered atomic by AtomicEmitter on float \p Value, after the
  /// test of \p Cache where there is one; returns the id of its float
  /// result.
  uint32_t lowered(uint32_t Value, const BoundCache *Cache);
  /// The uniformity test and both paths, defining \p ResultId (see the
  /// definition).
  void aggregated(uint32_t ResultId, uint32_t Uniform, uint32_t Key, BoundCache *Cache);
  /// Each invocation's result: the fold of \p Old with the keys below it.
  uint32_t scannedResult(uint32_t Old, uint32_t Key);
  /// Each invocation's result: Old where the reduction \p Reduced could not
  /// change memory, else scannedResult.
  uint32_t usedResult(uint32_t Old, uint32_t Reduced, uint32_t Key);
  void addCapabilities();

  const std::set<unsigned> &FlushWidths;
  const Site &S;
  const Operands &X;

  NanPolicy Policy = NanPolicy::Number;
  uint32_t FloatType = 0;
  /// The U-order identity of the reduction (nothing to combine) and its
  /// absorbing end.
  uint64_t Identity = 0, Absorbing = 0;
  /// An OpUndef of the float type: the result where an invocation has none
  /// of its own (one per site).
  uint32_t Undef = 0;
};

} // namespace fatomic::spirv

#endif // FATOMIC_SPIRV_SUBGROUPAGGREGATE_H
