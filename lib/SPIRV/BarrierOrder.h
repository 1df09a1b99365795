//===- BarrierOrder.h - Workgroup barriers order a write before atomics ---===//
//
// Owns one question of the writer proof (SitePlan.cpp, markExclusiveSites):
// does a plain write to Workgroup memory happen before every execution of a
// lowered atomic, in every invocation of the workgroup?  The usual shape of a
// workgroup reduction:
//
//     if (gl_LocalInvocationIndex == 0) m = -1.0 / 0.0;
//     barrier();
//     atomicMax(m, v);
//
// A write W and an atomic A of one function F are so ordered when
//   - F is an entry point's function of a stage with workgroups, and no
//     OpFunctionCall calls it (its barriers are the whole story);
//   - W and A share no segment: no stretch of code that starts at F's entry
//     or just after a workgroup barrier, and runs up to the next one,
//     reaches both (function calls count as barrier-free, which only makes
//     segments longer); and
//   - no path of F's control flow leads from A to W, barriers or not.
// A workgroup barrier is an OpControlBarrier with execution and memory
// scopes of Workgroup or wider and AcquireRelease or SequentiallyConsistent
// semantics on WorkgroupMemory, all constants.  Every invocation of the
// workgroup executes the same dynamic instances of such a barrier (SPIR-V
// leaves it undefined otherwise), so if A ran in an invocation before or in
// the same dynamic segment as W in another, a path from A through the same
// barriers to W (or a segment holding both) would exist.  Conservative: any
// other shape is "not ordered".
//
//===----------------------------------------------------------------------===//
#ifndef FATOMIC_SPIRV_BARRIERORDER_H
#define FATOMIC_SPIRV_BARRIERORDER_H

#include "Module.h"

#include <unordered_map>
#include <vector>

namespace fatomic::spirv {

class BarrierOrder {
public:
  /// Reads \p M's entry points and functions (no use lists needed).
  explicit BarrierOrder(const Module &M);

  /// Whether write \p W happens before every execution of atomic \p A in
  /// every invocation of a workgroup (the conditions above).
  bool before(InstRef W, InstRef A) const;

private:
  /// Where an instruction of a qualifying function is.
  struct Place {
    unsigned Fn, Block, Index;
  };
  void addFunction(unsigned FnIndex);
  bool isWorkgroupBarrier(InstRef R) const;
  /// Blocks reachable from block \p From (itself only where a path returns
  /// to it) in function \p Fn.
  std::vector<bool> reachableFrom(unsigned Fn, unsigned From) const;
  /// Whether \p From reaches \p To along F's control flow (any path).
  bool reaches(Place From, Place To) const;

  const Module &M;
  std::unordered_map<InstRef, Place> PlaceOf;
  /// Per instruction of a qualifying function: the segments that reach it.
  std::unordered_map<InstRef, std::vector<unsigned>> SegmentsOf;
  /// Per qualifying function index: block successors, by block index.
  std::unordered_map<unsigned, std::vector<std::vector<unsigned>>> Succs;
};

} // namespace fatomic::spirv

#endif // FATOMIC_SPIRV_BARRIERORDER_H
