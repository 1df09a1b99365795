//===- Semantics.h - Memory semantics of the lowered atomics --------------===//
//
// Pure functions of the atomic's Memory Semantics (SPIR-V 3.25): which
// storage-class bit covers a storage class, whether the early-out (an atomic
// load that skips the read-modify-write) is legal, and the semantics of a
// compare-exchange loop's atomics with the barriers around it.  The emitter
// (AtomicEmitter.cpp) turns the values into constants.
//
//===----------------------------------------------------------------------===//
#ifndef FATOMIC_SPIRV_SEMANTICS_H
#define FATOMIC_SPIRV_SEMANTICS_H

#include <spirv/unified1/spirv.hpp11>

#include <cstdint>
#include <optional>

namespace fatomic::spirv {

// Memory-semantics bits (SPIR-V 3.25).
constexpr uint32_t SemAcquire = 0x2, SemRelease = 0x4, SemAcqRel = 0x8,
                   SemSeqCst = 0x10, SemMakeAvailable = 0x2000,
                   SemMakeVisible = 0x4000, SemVolatile = 0x8000;
// UniformMemory through OutputMemory.
constexpr uint32_t SemStorageClasses = 0x1FC0;

/// The storage-class semantics bit that covers memory of class \p SC.
uint32_t storageClassSemantics(spv::StorageClass SC);

/// Whether an atomic of constant semantics \p Sem may skip its
/// read-modify-write after a load: Relaxed or Acquire, not Volatile.
bool earlyOutAllowed(uint64_t Sem);

/// The semantics of a compare-exchange loop's atomics and the barriers
/// around it.  Each value is a constant's; an empty Load or Equal is the
/// atomic's own semantics id, an empty Before or After is no barrier.
struct LoopSemantics {
  std::optional<uint64_t> Load, Equal, Before, After;
  /// Semantics that are not a constant: a barrier with the atomic's own
  /// semantics follows the loop, so that an Acquire given at run time (or
  /// by a spec constant) orders what follows a loop that left through its
  /// Relaxed load or a failed exchange.
  bool OwnAfter = false;
};

/// The loop of an atomic with semantics \p Sem (empty when not a constant:
/// a spec constant or, in a Kernel module, a run-time value; then Relaxed
/// loads, the atomic's own semantics on a successful exchange and in a
/// barrier after the loop) on memory of class \p SC.  Ordered constant semantics move to a release barrier
/// before a Relaxed loop and an acquire barrier after it, except
/// SequentiallyConsistent when \p SeqCstStays (a Kernel module: its total
/// order has no barrier form); then the loads and the Unequal case drop the
/// release part.
LoopSemantics casLoopSemantics(std::optional<uint64_t> Sem, spv::StorageClass SC,
                               bool SeqCstStays);

} // namespace fatomic::spirv

#endif // FATOMIC_SPIRV_SEMANTICS_H
