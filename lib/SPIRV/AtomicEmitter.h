//===- AtomicEmitter.h - The lowered code of one atomic -------------------===//
//
// Writes one lowered float atomic out as SPIR-V: the integer pointer, the
// operand's bits (denormals flushed where the module flushes them), then,
// per NaN policy and strategy, the sign-dispatched integer atomic with its
// early-out and NaN fix-up (behind the bound cache's test where it
// applies), or the compare-exchange loop, or, for memory no
// other invocation sees, a load, a combine and a store; the result bitcast
// back.  A float add on a retyped Workgroup float becomes a compare-exchange
// loop of float adds.  The algorithm is fatomic::emulateLowered
// (LoweringModel.h); docs/design.md explains each step.
//
// One emitter per atomic: its methods are the steps, its members what the
// steps share (the types, the operand's bits, the loop's semantics).
//
//===----------------------------------------------------------------------===//
#ifndef FATOMIC_SPIRV_ATOMICEMITTER_H
#define FATOMIC_SPIRV_ATOMICEMITTER_H

#include "LoweringState.h"

#include <initializer_list>
#include <optional>

namespace fatomic::spirv {

/// What every writer of lowered code builds on: appending instructions and
/// blocks, constants of the width's unsigned type, and the two bit steps of
/// the order map.  AtomicEmitter and SubgroupAggregator derive from it;
/// the derived class sets W, UT and BT before it writes.
class CodeWriter {
protected:
  CodeWriter(LoweringContext &C, std::vector<Block> &Blocks) : C(C), M(C.M), Blocks(Blocks) {}

  void newBlock(uint32_t Label);
  std::vector<InstRef> &cur() { return Blocks.back().Body; }
  uint32_t curLabel() const { return Blocks.back().Label; }
  /// A new instruction with a result, appended to the current block; the
  /// grammar says which operands are ids.
  uint32_t op(Op O, uint32_t T, std::initializer_list<uint32_t> Ops);
  /// A new instruction without a result, appended to the current block.
  void stmt(Op O, std::initializer_list<uint32_t> Ops);
  uint32_t constant(uint64_t V) { return C.constantInt(UT, V); }
  /// Whether float bits \p Bits (of type UT) are a NaN.
  uint32_t isNaN(uint32_t Bits);
  /// U(x) = x ^ ((x >>s (W-1)) | sign): the order-preserving map.
  uint32_t ordered(uint32_t Bits);

  LoweringContext &C;
  Module &M;
  std::vector<Block> &Blocks;
  uint32_t W = 0;       ///< the float width
  uint32_t UT = 0;      ///< the unsigned integer type of that width
  uint32_t BT = 0;      ///< bool
};

class AtomicEmitter : CodeWriter {
public:
  /// Appends the lowering of \p S, working on \p X, to \p Blocks.back() and
  /// the blocks it needs after it.
  AtomicEmitter(LoweringContext &C, const std::set<unsigned> &FlushWidths,
                std::vector<Block> &Blocks, const Site &S, const Operands &X)
      : CodeWriter(C, Blocks), FlushWidths(FlushWidths), S(S), X(X) {}

  void emit();
  /// The caller has made the bound cache's test, and this code runs only
  /// where it missed: no second test, but the early-out's load is still
  /// recorded as the bound.
  void cacheTested() { CacheTested = true; }

private:
  /// The semantics ids of a compare-exchange loop and its barriers (0: none).
  struct LoopOrder {
    uint32_t Load = 0, Equal = 0, Before = 0, After = 0;
    bool OwnAfter = false; ///< no After: a barrier of the atomic's own semantics
  };
  /// The semantics of a barrier with the atomic's own non-constant
  /// semantics after a loop on memory of class \p SC: its id with the
  /// class's bit OR'd in (a barrier orders only the memory its semantics
  /// name, and OpenCL C passes ordering-only values), through
  /// OpSpecConstantOp for a spec constant, OpBitwiseOr in the current
  /// block for a run-time value.
  uint32_t ownBarrierSemantics(spv::StorageClass SC);

  // ---- the steps ----
  const LoopOrder &loopOrdering();
  void integerPointer();
  void operandBits();
  /// U-order "v wins against cur".
  uint32_t wins(uint32_t Cur);
  /// combine(cur, v) per policy; \p NumberOperand: v is not a NaN.
  uint32_t combine(uint32_t Cur, bool NumberOperand);
  /// A compare-exchange loop; returns the value memory held before it.
  uint32_t casLoop(bool SkipSame, bool NumberOperand);
  /// One sign-dispatched integer atomic on \p Operand.
  uint32_t dispatch(uint32_t Operand, bool WantResult = true);
  /// The sign of \p Operand where it is known now (true: negative).
  std::optional<bool> constantSign(uint32_t Operand) const;
  /// The operand bits with a NaN replaced by \p Pattern.
  uint32_t nanReplaced(uint64_t Pattern);
  /// A NaN in \p Bits that the dispatched atomic would leave in place.
  uint32_t stickyNaN(uint32_t Bits);
  /// number: a NaN in memory gives way to the operand at a CAS fix-up.
  uint32_t fixUp(uint32_t Old);
  void fixOrDispatch(uint32_t Loaded, uint32_t Operand);
  void emitPrivate();
  void emitSingleRmw();
  uint32_t earlyOut(uint32_t Operand);
  /// The early-out behind the bound cache's test (BoundCache.h); returns
  /// the result bits.
  uint32_t cachedEarlyOut(uint32_t Operand);
  void emitAdd();

  const std::set<unsigned> &FlushWidths;
  const Site &S;
  const Operands &X;

  NanPolicy Policy = NanPolicy::Number;
  uint32_t FloatType = 0, Scope = 0, SemId = 0;
  uint32_t U32 = 0;
  uint32_t IntPtr = 0;
  uint32_t VB = 0, VNaN = 0, UVB = 0;
  bool CasPath = false;
  uint32_t ResultBits = 0;
  uint32_t Loaded = 0; ///< the early-out's load
  bool CacheTested = false;
  std::optional<LoopOrder> Order;
};

} // namespace fatomic::spirv

#endif // FATOMIC_SPIRV_ATOMICEMITTER_H
