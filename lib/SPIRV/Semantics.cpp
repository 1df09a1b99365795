//===- Semantics.cpp - Memory semantics of the lowered atomics ------------===//
//
// The semantics and barriers of the lowered code, computed from the
// atomic's semantics value alone (see Semantics.h).
//
// Why barriers: with constant semantics that order (Acquire, Release,
// AcquireRelease), the loop's atomics are Relaxed and the ordering moves to
// barriers of the same scope: a release barrier before the loop and an
// acquire barrier after it.  Lavapipe (Mesa 22.3.6) returns values that no
// interleaving gives from a compare-exchange that carries either ordering
// inside a loop, and runs this form exactly.
//
// It is the same ordering under the Vulkan memory model (appendix "Memory
// Model", Synchronizes-With).  A release barrier A synchronizes-with an
// acquire B when A is program-ordered before an atomic write X of any
// semantics and B reads X's value (or one of the release sequence X heads),
// X and B being mutually-ordered: X is the loop's successful CAS.  An
// atomic release A synchronizes-with an acquire barrier B when an atomic
// read X of any semantics, program-ordered before B, reads A's value (or
// one of A's release sequence): X is the loop's last load or CAS.  The
// barrier-to-barrier rule pairs the two the same way.  Each rule also asks
// that the two sides be in the instance of each other's scope (the
// barrier has the atomic's scope) and that X's storage class be in the
// barrier's semantics (the barrier has the atomic's storage-class bits,
// plus the class of the atomic's own memory).  MakeAvailable goes with the
// release barrier, MakeVisible with the acquire one.  No memory access of
// the invocation lies between a barrier and the loop.  C11 and OpenCL 2.0
// have the same fence rules.
//
// Otherwise the loop's loads and the compare-exchange's Unequal case take
// the semantics without their release part, and its Equal case the
// atomic's own: for Relaxed ones, for SequentiallyConsistent in a Kernel
// module (its total order has no barrier form; Vulkan does not allow it),
// and for semantics given by a spec constant (unknown: loads Relaxed).
//
//===----------------------------------------------------------------------===//

#include "Semantics.h"

namespace fatomic::spirv {

using spv::StorageClass;

uint32_t storageClassSemantics(StorageClass SC) {
  switch (SC) {
  case StorageClass::StorageBuffer:
  case StorageClass::Uniform:
  case StorageClass::PhysicalStorageBuffer:
    return 0x40; // UniformMemory
  case StorageClass::Workgroup:
    return 0x100; // WorkgroupMemory
  case StorageClass::CrossWorkgroup:
    return 0x200; // CrossWorkgroupMemory
  case StorageClass::Generic:
    return 0x300; // WorkgroupMemory | CrossWorkgroupMemory
  case StorageClass::Image:
    return 0x800; // ImageMemory
  default:
    return 0;
  }
}

bool earlyOutAllowed(uint64_t Sem) {
  return (Sem & (SemRelease | SemAcqRel | SemSeqCst | SemVolatile)) == 0;
}

LoopSemantics casLoopSemantics(std::optional<uint64_t> Known, StorageClass SC,
                               bool SeqCstStays) {
  LoopSemantics L;
  if (!Known) {
    // Unknown: Relaxed loads, the atomic's own Equal, and its own
    // semantics in a barrier after the loop (an Acquire among them then
    // orders what follows an exit through a load or a failed exchange; a
    // Release part makes the barrier a release fence as well, which is
    // stronger, never wrong).
    L.Load = 0;
    L.OwnAfter = true;
    return L;
  }
  const uint64_t Sem = *Known;
  const uint64_t Ordering = SemAcquire | SemRelease | SemAcqRel | SemSeqCst;
  const uint64_t Releasing = SemRelease | SemAcqRel | SemSeqCst;
  if ((Sem & Ordering) && !((Sem & SemSeqCst) && SeqCstStays)) {
    const uint64_t Classes = (Sem & SemStorageClasses) | storageClassSemantics(SC);
    L.Load = L.Equal = Sem & SemVolatile;
    if (Sem & Releasing)
      L.Before = SemRelease | Classes | (Sem & SemMakeAvailable);
    if (Sem & (SemAcquire | SemAcqRel | SemSeqCst))
      L.After = SemAcquire | Classes | (Sem & SemMakeVisible);
    return L;
  }
  if (!(Sem & Releasing))
    return L; // Relaxed: the atomic's own everywhere
  // MakeAvailable needs a release; MakeVisible needs an acquire.
  uint64_t R = Sem & ~uint64_t(Releasing | SemMakeAvailable);
  if (Sem & (SemAcqRel | SemSeqCst))
    R |= SemAcquire;
  if (!(R & SemAcquire))
    R &= ~uint64_t(SemMakeVisible);
  L.Load = R;
  return L;
}

} // namespace fatomic::spirv
