//===- BoundCache.h - The bound cache of an unused-result atomic ----------===//
//
// `cache=on` (the default).  Where every writer of the memory is a lowered
// atomic of the same kind (Site::Exclusive), memory only moves up the order
// map (max; down for min), except that a NaN may sit there from before the
// dispatch: under `number` it gives way to the first number, and no writer
// puts one back; under `propagate` it stays, absorbing every operation;
// `fast` orders NaNs as integers.  So a value an invocation once saw there
// (an early-out's load, NaNs left out under `number`), or an operand that
// an atomic it took part in has completed, is a bound that memory keeps: an
// operation whose operand is not past it cannot change memory, and it is
// skipped without a load, as the early-out would have skipped it.  With its
// result unused, nothing of it is observed; it takes effect where it is
// skipped.
//
// Applies where the result is unused, the semantics are a constant without
// ordering bits, the atomic is not volatile, its memory is a buffer or a
// Workgroup variable, the module is a Shader, and the lowering is the
// single integer atomic after an early-out (AtomicEmitter; not the CAS
// loop).  The cache is the invocation's: Private variables holding the
// non-constant indices of the address last seen and the bound, in U order
// (initially the identity: nothing is skipped but what changes nothing
// anyway), one set per address expression (LoweringContext::Caches),
// listed in the entry points' interfaces from SPIR-V 1.4.
//
// AtomicEmitter tests the cache before its early-out and records the load;
// SubgroupAggregator tests it before the subgroup combines, so that only
// the invocations the cache cannot decide take part, and records the
// reduced operand in the invocations that did not run the atomic.
//
//===----------------------------------------------------------------------===//
#ifndef FATOMIC_SPIRV_BOUNDCACHE_H
#define FATOMIC_SPIRV_BOUNDCACHE_H

#include "AtomicEmitter.h"

namespace fatomic::spirv {

class BoundCache : CodeWriter {
public:
  /// The cache of \p S's address \p X, for code appended to \p Blocks.
  BoundCache(LoweringContext &C, std::vector<Block> &Blocks, const Site &S, const Operands &X);

  /// Whether the cache applies to \p S on \p X, whose semantics are the id
  /// \p SemId.
  static bool applies(LoweringContext &C, const Site &S, const Operands &X, uint32_t SemId);

  /// True where the address is the one last recorded and the key \p UKey
  /// (the operand in U order, NaNs replaced per policy) is not past the
  /// bound: the operation changes nothing.
  uint32_t hit(uint32_t UKey);
  /// Records the address and \p UBound as its new bound.
  void record(uint32_t UBound);
  /// The bound an early-out's load \p Loaded gives: U(Loaded), or the
  /// identity for a NaN under `number` (which the first number replaces).
  uint32_t boundOfLoad(uint32_t Loaded);

private:
  const CacheVariables &variables();

  const Site &S;
  const Operands &X;
  /// The non-constant indices of the address.
  std::vector<uint32_t> Keys;
};

} // namespace fatomic::spirv

#endif // FATOMIC_SPIRV_BOUNDCACHE_H
