//===- AtomicEmitter.cpp - The lowered code of one atomic -----------------===//
//
// See AtomicEmitter.h.  Constants are made on first use (through the
// context's cache), so that a policy without NaN tests adds no NaN
// constants and an atomic without a loop adds no loop semantics.
//
//===----------------------------------------------------------------------===//

#include "AtomicEmitter.h"

#include "BoundCache.h"

#include "Semantics.h"
#include "fatomic/LoweringModel.h"

namespace fatomic::spirv {

using spv::StorageClass;

void CodeWriter::newBlock(uint32_t Label) {
  Block B;
  B.Label = Label;
  B.LabelInst = M.create(Op::OpLabel, 0, Label, {});
  B.Body.reserve(8); // most blocks of a lowering hold a few instructions
  Blocks.push_back(std::move(B));
}

uint32_t CodeWriter::op(Op O, uint32_t T, std::initializer_list<uint32_t> Ops) {
  const uint32_t Id = M.newId();
  cur().push_back(M.create(O, T, Id, Ops));
  return Id;
}

void CodeWriter::stmt(Op O, std::initializer_list<uint32_t> Ops) {
  cur().push_back(M.create(O, 0, 0, Ops));
}

// Semantics of a CAS loop's atomics, and the barriers around it
// (Semantics.cpp says why): made on the first CAS loop, so that an atomic
// without one adds no constants.
const AtomicEmitter::LoopOrder &AtomicEmitter::loopOrdering() {
  if (Order)
    return *Order;
  uint64_t Sem = 0;
  std::optional<uint64_t> Known;
  if (C.constantValue(SemId, Sem))
    Known = Sem;
  const LoopSemantics L = casLoopSemantics(
      Known, C.pointerClass(C.typeOf(M.operand(S.Atomic, 0))),
      /*SeqCstStays=*/M.declaresCapability(spv::Capability::Kernel));
  LoopOrder O;
  O.Load = L.Load ? C.constantInt(U32, *L.Load) : SemId;
  O.Equal = L.Equal ? C.constantInt(U32, *L.Equal) : SemId;
  O.Before = L.Before ? C.constantInt(U32, *L.Before) : 0;
  O.After = L.After ? C.constantInt(U32, *L.After) : 0;
  O.OwnAfter = !L.After && L.OwnAfter;
  Order = O;
  return *Order;
}

uint32_t AtomicEmitter::ownBarrierSemantics(StorageClass SC) {
  const uint32_t Bits = storageClassSemantics(SC);
  if (!Bits)
    return SemId;
  const uint32_t BitsId = C.constantInt(U32, Bits);
  if (M.isConstant(SemId))
    return M.addGlobal(Op::OpSpecConstantOp, U32,
                       {uint32_t(Op::OpBitwiseOr), SemId, BitsId});
  return op(Op::OpBitwiseOr, U32, {SemId, BitsId});
}

void AtomicEmitter::integerPointer() {
  IntPtr = X.Ptr;
  const StorageClass SC = C.pointerClass(C.typeOf(M.operand(S.Atomic, 0)));
  switch (S.Kind) {
  case MemKind::PointerCast:
    IntPtr = op(Op::OpBitcast, M.typePointer(SC, UT), {X.Ptr});
    break;
  case MemKind::BufferAlias:
  case MemKind::SharedRetype: {
    if (S.Kind == MemKind::SharedRetype && !X.Rebuild)
      break; // the pointer is an integer pointer now
    std::vector<uint32_t> Ops{S.Root};
    Ops.insert(Ops.end(), X.Indices.begin(), X.Indices.end());
    IntPtr = M.newId();
    cur().push_back(M.create(Op::OpAccessChain, M.typePointer(SC, UT), IntPtr, Ops));
    if (S.NonUniform)
      M.addDecoration(IntPtr, spv::Decoration::NonUniform);
    break;
  }
  case MemKind::Private:
  case MemKind::ImageRetype:
    break;
  }
}

void AtomicEmitter::operandBits() {
  VB = op(Op::OpBitcast, UT, {X.Value});
  if (FlushWidths.count(W)) {
    const uint32_t Mag = op(Op::OpBitwiseAnd, UT, {VB, constant(widthMask(W) >> 1)});
    const uint32_t M1 = op(Op::OpISub, UT, {Mag, constant(1)});
    const uint32_t IsSub =
        op(Op::OpULessThan, BT, {M1, constant(widthMask(mantissaBits(W)))});
    const uint32_t Sgn = op(Op::OpBitwiseAnd, UT, {VB, constant(signBit(W))});
    VB = op(Op::OpSelect, UT, {IsSub, Sgn, VB});
  }
}

uint32_t CodeWriter::isNaN(uint32_t Bits) {
  return op(Op::OpUGreaterThan, BT,
            {op(Op::OpBitwiseAnd, UT, {Bits, constant(widthMask(W) >> 1)}),
             constant(exponentMask(W))});
}

uint32_t CodeWriter::ordered(uint32_t Bits) {
  const uint32_t Sh = op(Op::OpShiftRightArithmetic, UT, {Bits, constant(W - 1)});
  return op(Op::OpBitwiseXor, UT, {Bits, op(Op::OpBitwiseOr, UT, {Sh, constant(signBit(W))})});
}

uint32_t AtomicEmitter::wins(uint32_t Cur) {
  return op(S.Op == FloatOp::Min ? Op::OpULessThan : Op::OpUGreaterThan, BT,
            {UVB, ordered(Cur)});
}

// LoweringModel.cpp's policyCombine.
uint32_t AtomicEmitter::combine(uint32_t Cur, bool NumberOperand) {
  const uint32_t Wn = wins(Cur);
  switch (Policy) {
  case NanPolicy::Number: {
    uint32_t Take = op(Op::OpLogicalOr, BT, {isNaN(Cur), Wn});
    if (!NumberOperand)
      Take = op(Op::OpLogicalAnd, BT, {op(Op::OpLogicalNot, BT, {VNaN}), Take});
    return op(Op::OpSelect, UT, {Take, VB, Cur});
  }
  case NanPolicy::Propagate: {
    const uint32_t T1 = op(Op::OpSelect, UT, {Wn, VB, Cur});
    const uint32_t T2 = op(Op::OpSelect, UT, {VNaN, constant(stickyPattern(S.Op, W)), T1});
    return op(Op::OpSelect, UT, {isNaN(Cur), Cur, T2});
  }
  case NanPolicy::Fast:
    return op(Op::OpSelect, UT, {Wn, VB, Cur});
  }
  return Cur;
}

// From the current block.  SkipSame: leave without writing when nothing
// would change.
uint32_t AtomicEmitter::casLoop(bool SkipSame, bool NumberOperand) {
  const LoopOrder &Ord = loopOrdering();
  if (Ord.Before)
    stmt(Op::OpMemoryBarrier, {Scope, Ord.Before});
  const uint32_t C0 = op(Op::OpAtomicLoad, UT, {IntPtr, Scope, Ord.Load});
  const uint32_t Pre = curLabel();
  const uint32_t Hdr = M.newId(), Body = M.newId(), Try = M.newId(), Cont = M.newId(),
                 Merge = M.newId();
  stmt(Op::OpBranch, {Hdr});
  newBlock(Hdr);
  const uint32_t Cx = M.newId();
  const uint32_t Cc = M.newId();
  cur().push_back(M.create(Op::OpPhi, UT, Cc, {C0, Pre, Cx, Cont}));
  stmt(Op::OpLoopMerge, {Merge, Cont, 0});
  stmt(Op::OpBranch, {Body});
  newBlock(Body);
  const uint32_t New = combine(Cc, NumberOperand);
  if (SkipSame) {
    const uint32_t Same = op(Op::OpIEqual, BT, {New, Cc});
    stmt(Op::OpBranchConditional, {Same, Merge, Try});
  } else {
    stmt(Op::OpBranch, {Try});
  }
  newBlock(Try);
  cur().push_back(M.create(Op::OpAtomicCompareExchange, UT, Cx,
                           {IntPtr, Scope, Ord.Equal, Ord.Load, New, Cc}));
  const uint32_t Done = op(Op::OpIEqual, BT, {Cx, Cc});
  stmt(Op::OpBranchConditional, {Done, Merge, Cont});
  newBlock(Cont);
  stmt(Op::OpBranch, {Hdr});
  newBlock(Merge);
  if (Ord.OwnAfter)
    stmt(Op::OpMemoryBarrier,
         {Scope, ownBarrierSemantics(C.pointerClass(C.typeOf(M.operand(S.Atomic, 0))))});
  else if (Ord.After)
    stmt(Op::OpMemoryBarrier, {Scope, Ord.After});
  return Cc; // defined in the header, which dominates the merge
}

// Returns the atomic's result (0 when \p WantResult is false: no phi joins
// the two results).
// The operand bits, a NaN replaced by \p Pattern; chosen now where the
// operand is a constant.
uint32_t AtomicEmitter::nanReplaced(uint64_t Pattern) {
  uint64_t Bits;
  if (C.constantValue(X.Value, Bits))
    return fatomic::isNaN(Bits, W) ? constant(Pattern) : VB;
  return op(Op::OpSelect, UT, {VNaN, constant(Pattern), VB});
}

std::optional<bool> AtomicEmitter::constantSign(uint32_t Operand) const {
  uint64_t Bits;
  if (C.constantValue(Operand, Bits) ||
      (Operand == VB && C.constantValue(X.Value, Bits))) // flushing keeps the sign
    return fatomic::isSignSet(Bits, W);
  return std::nullopt;
}

uint32_t AtomicEmitter::dispatch(uint32_t Operand, bool WantResult) {
  // An operand known now (a constant's bits, or the pattern that replaced
  // a constant NaN) dispatches on its known sign: one integer atomic, no
  // branch.  (A branch on a constant is also what SPIRV-Tools 2023.1's -O
  // crashes on in Kernel modules.)
  if (const std::optional<bool> Negative = constantSign(Operand)) {
    const bool Min = S.Op == FloatOp::Min;
    const Op O = *Negative ? (Min ? Op::OpAtomicUMax : Op::OpAtomicUMin)
                           : (Min ? Op::OpAtomicSMin : Op::OpAtomicSMax);
    const uint32_t R = op(O, UT, {IntPtr, Scope, SemId, Operand});
    return WantResult ? R : 0u;
  }
  const uint32_t Neg = op(Op::OpINotEqual, BT,
                          {op(Op::OpBitwiseAnd, UT, {Operand, constant(signBit(W))}), constant(0)});
  const uint32_t PosL = M.newId(), NegL = M.newId(), Join = M.newId();
  stmt(Op::OpSelectionMerge, {Join, 0});
  stmt(Op::OpBranchConditional, {Neg, NegL, PosL});
  newBlock(PosL);
  const uint32_t R1 = op(S.Op == FloatOp::Min ? Op::OpAtomicSMin : Op::OpAtomicSMax, UT,
                         {IntPtr, Scope, SemId, Operand});
  stmt(Op::OpBranch, {Join});
  newBlock(NegL);
  const uint32_t R2 = op(S.Op == FloatOp::Min ? Op::OpAtomicUMax : Op::OpAtomicUMin, UT,
                         {IntPtr, Scope, SemId, Operand});
  stmt(Op::OpBranch, {Join});
  newBlock(Join);
  return WantResult ? op(Op::OpPhi, UT, {R1, PosL, R2, NegL}) : 0u;
}

uint32_t AtomicEmitter::stickyNaN(uint32_t Bits) {
  const uint32_t XSign = op(Op::OpBitwiseAnd, UT, {Bits, constant(signBit(W))});
  const uint32_t Stays = op(S.Op == FloatOp::Min ? Op::OpINotEqual : Op::OpIEqual, BT,
                            {XSign, constant(0)});
  return op(Op::OpLogicalAnd, BT, {isNaN(Bits), Stays});
}

// The dispatched atomic displaces a NaN of one sign (positive for min,
// negative for max) by itself; a NaN of the other sign stays, and then the
// operation takes effect at a CAS fix-up, whose observed value is the
// operation's result (so that results stay linearizable).  Returns the
// result bits.
uint32_t AtomicEmitter::fixUp(uint32_t Old) {
  if (Policy != NanPolicy::Number)
    return Old;
  const uint32_t Need =
      op(Op::OpLogicalAnd, BT, {stickyNaN(Old), op(Op::OpLogicalNot, BT, {VNaN})});
  const uint32_t From = curLabel();
  const uint32_t Fix = M.newId(), Join = M.newId();
  stmt(Op::OpSelectionMerge, {Join, 0});
  stmt(Op::OpBranchConditional, {Need, Fix, Join});
  newBlock(Fix);
  const uint32_t Seen = casLoop(/*SkipSame=*/true, /*NumberOperand=*/true);
  const uint32_t FixLast = curLabel();
  stmt(Op::OpBranch, {Join});
  newBlock(Join);
  return op(Op::OpPhi, UT, {Seen, FixLast, Old, From});
}

// The fix-up decided from the early-out's load: a sticky NaN seen by the
// load goes straight to the CAS loop, anything else to the dispatch.
void AtomicEmitter::fixOrDispatch(uint32_t Loaded, uint32_t Operand) {
  const uint32_t Need = stickyNaN(Loaded);
  const uint32_t Fix = M.newId(), Plain = M.newId(), Join = M.newId();
  stmt(Op::OpSelectionMerge, {Join, 0});
  stmt(Op::OpBranchConditional, {Need, Fix, Plain});
  newBlock(Fix);
  casLoop(/*SkipSame=*/true, /*NumberOperand=*/true);
  stmt(Op::OpBranch, {Join});
  newBlock(Plain);
  dispatch(Operand, /*WantResult=*/false);
  stmt(Op::OpBranch, {Join});
  newBlock(Join);
}

// No other invocation sees it: load, combine, store.
void AtomicEmitter::emitPrivate() {
  cur().push_back(M.create(Op::OpLoad, FloatType, X.ResultId, {X.Ptr}));
  const uint32_t CurBits = op(Op::OpBitcast, UT, {X.ResultId});
  const uint32_t New = combine(CurBits, /*NumberOperand=*/false);
  stmt(Op::OpStore, {X.Ptr, op(Op::OpBitcast, FloatType, {New})});
}

// An atomic load that skips the read-modify-write when the value cannot
// change memory; returns the result bits.
//
// number, result unused, early-out, and every writer of the memory a
// lowered atomic of the same kind (Site::Exclusive): the fix-up is decided
// from the early-out's atomic load instead of from the integer atomic's
// result, which then stays unused (drivers emit a reduction: on an H200 up
// to 1.6x faster in docs/gpu-performance.md).  A sticky NaN seen by the load
// goes straight to the CAS loop.  A NaN written by a non-min/max store after
// the load and left in place by the integer atomic is equivalent to this
// operation taking effect just before that store: the final memory is the
// same and no value of this operation is observed.  Without early-out the
// same scheme would need a load of its own, which costs more than it saves
// except on a single hot address (measured: docs/gpu-performance.md,
// "early-out=off"), so there the fix-up reads the atomic's result.  Not so
// against other writers: a value-returning one (an exchange, a
// compare-exchange or an integer atomic on an integer view) that puts a NaN
// between the load and the integer atomic returns the value it replaced,
// and no order of the two leaves that NaN in place; there the fix-up reads
// the atomic's result.
uint32_t AtomicEmitter::earlyOut(uint32_t Operand) {
  const bool LoadDecides = Policy == NanPolicy::Number && S.ResultUnused && S.Exclusive;
  Loaded = op(Op::OpAtomicLoad, UT, {IntPtr, Scope, SemId});
  const uint32_t UL = ordered(Loaded);
  // Under number, U(v) serves for the operand: the two differ only for a
  // NaN v, which skips anyway.
  const uint32_t UV =
      UVB && (Operand == VB || Policy == NanPolicy::Number) ? UVB : ordered(Operand);
  uint32_t Skip =
      op(S.Op == FloatOp::Min ? Op::OpUGreaterThanEqual : Op::OpULessThanEqual, BT, {UV, UL});
  if (Policy == NanPolicy::Number) {
    // NaN operand: no-op.  NaN in memory: take the RMW path (fix-up).
    const uint32_t LNaN = isNaN(Loaded);
    Skip = op(Op::OpLogicalOr, BT,
              {VNaN, op(Op::OpLogicalAnd, BT, {op(Op::OpLogicalNot, BT, {LNaN}), Skip})});
  } else if (Policy == NanPolicy::Propagate) {
    Skip = op(Op::OpLogicalOr, BT, {isNaN(Loaded), Skip});
  }
  const uint32_t From = curLabel();
  const uint32_t Rmw = M.newId(), Join = M.newId();
  stmt(Op::OpSelectionMerge, {Join, 0});
  stmt(Op::OpBranchConditional, {Skip, Join, Rmw});
  newBlock(Rmw);
  if (LoadDecides) {
    // The operand is not a NaN here (that case was skipped).
    fixOrDispatch(Loaded, Operand);
    stmt(Op::OpBranch, {Join});
    newBlock(Join);
    return Loaded; // the result has no uses; any defined value
  }
  const uint32_t Old = fixUp(dispatch(Operand));
  const uint32_t Last = curLabel();
  stmt(Op::OpBranch, {Join});
  newBlock(Join);
  return op(Op::OpPhi, UT, {Loaded, From, Old, Last});
}

// One integer atomic on the operand, NaNs replaced per policy.
void AtomicEmitter::emitSingleRmw() {
  uint32_t Operand = VB;
  if (Policy == NanPolicy::Number)
    Operand = nanReplaced(identityPattern(S.Op, W));
  else if (Policy == NanPolicy::Propagate)
    Operand = nanReplaced(stickyPattern(S.Op, W));
  if (!S.EarlyOutLegal)
    ResultBits = fixUp(dispatch(Operand));
  else
    ResultBits = BoundCache::applies(C, S, X, SemId) ? cachedEarlyOut(Operand) : earlyOut(Operand);
}

// The early-out behind the bound cache's test (BoundCache.h), or, where
// the caller made the test (SubgroupAggregator), only the early-out; either
// way the load's bound is recorded.
uint32_t AtomicEmitter::cachedEarlyOut(uint32_t Operand) {
  BoundCache Cache(C, Blocks, S, X);
  if (CacheTested) {
    const uint32_t Result = earlyOut(Operand);
    Cache.record(Cache.boundOfLoad(Loaded));
    return Result;
  }
  const uint32_t UOp = ordered(Operand);
  const uint32_t Hit = Cache.hit(UOp);
  const uint32_t From = curLabel(), Miss = M.newId(), Join = M.newId();
  stmt(Op::OpSelectionMerge, {Join, 0});
  stmt(Op::OpBranchConditional, {Hit, Join, Miss});
  newBlock(Miss);
  const uint32_t Result = earlyOut(Operand);
  Cache.record(Cache.boundOfLoad(Loaded));
  const uint32_t MissEnd = curLabel();
  stmt(Op::OpBranch, {Join});
  newBlock(Join);
  return op(Op::OpPhi, UT, {UOp, From, Result, MissEnd});
}

void AtomicEmitter::emit() {
  if (S.Add)
    return emitAdd();
  const Inst A = M.inst(S.Atomic);
  W = S.Width;
  FloatType = A.TypeId;
  Scope = X.Scope ? X.Scope : M.operand(S.Atomic, 1);
  SemId = X.Semantics ? X.Semantics : M.operand(S.Atomic, 2);
  Policy = C.Opts.policyFor(NanPolicy::Number);
  UT = M.typeInt(W, false);
  BT = M.typeBool();
  U32 = M.typeInt(32, false);
  integerPointer();
  operandBits();
  VNaN = Policy != NanPolicy::Fast ? isNaN(VB) : 0;
  // U(v), computed once here (dominating every use) when a combine will
  // need it: the CAS loop, the number fix-up, or the Function/Private path.
  // propagate: the single-RMW form (sticky NaN pattern after the early-out)
  // is linearizable only when every writer is a lowered atomic of the same
  // kind (a NaN that another writer stores is not sticky; min's sticky
  // pattern is not sticky for max); elsewhere the CAS loop, which skips its
  // exchange when nothing changes (the early-out), combines under every
  // interleaving.
  CasPath = usesCasLoop(C.Opts.Strat, Policy,
                        S.EarlyOutLegal && (Policy != NanPolicy::Propagate || S.Exclusive));
  UVB = (CasPath || Policy == NanPolicy::Number || S.Kind == MemKind::Private) ? ordered(VB)
                                                                               : 0;
  if (S.Kind == MemKind::Private)
    emitPrivate();
  else if (CasPath)
    ResultBits = casLoop(S.EarlyOutLegal, /*NumberOperand=*/false);
  else
    emitSingleRmw();
  if (ResultBits)
    cur().push_back(M.create(Op::OpBitcast, FloatType, X.ResultId, {ResultBits}));
}

// A compare-exchange loop of float adds on the integer view, returning the
// value it replaced, like the native add.  Semantics as in a min/max's loop
// (the Workgroup class; no Kernel exception).
void AtomicEmitter::emitAdd() {
  const Inst A = M.inst(S.Atomic);
  UT = M.typeInt(S.Width, false);
  BT = M.typeBool();
  U32 = M.typeInt(32, false);
  Scope = M.operand(S.Atomic, 1);
  SemId = M.operand(S.Atomic, 2);
  uint64_t Sem = 0;
  std::optional<uint64_t> Known;
  if (C.constantValue(SemId, Sem))
    Known = Sem;
  const LoopSemantics L = casLoopSemantics(Known, StorageClass::Workgroup, false);
  const uint32_t LoadSem = L.Load ? C.constantInt(U32, *L.Load) : SemId;
  const uint32_t EqualSem = L.Equal ? C.constantInt(U32, *L.Equal) : SemId;
  const uint32_t Before = L.Before ? C.constantInt(U32, *L.Before) : 0;
  const uint32_t After = L.After ? C.constantInt(U32, *L.After) : 0;
  if (Before)
    stmt(Op::OpMemoryBarrier, {Scope, Before});
  const uint32_t First = op(Op::OpAtomicLoad, UT, {X.Ptr, Scope, LoadSem});
  const uint32_t Pre = curLabel(), Header = M.newId(), Loop = M.newId(),
                 Continue = M.newId(), Merge = M.newId();
  const uint32_t Cur = M.newId(), Got = M.newId();
  stmt(Op::OpBranch, {Header});
  newBlock(Header);
  cur().push_back(M.create(Op::OpPhi, UT, Cur, {First, Pre, Got, Continue}));
  stmt(Op::OpLoopMerge, {Merge, Continue, 0});
  stmt(Op::OpBranch, {Loop});
  newBlock(Loop);
  const uint32_t Sum = op(Op::OpFAdd, A.TypeId, {op(Op::OpBitcast, A.TypeId, {Cur}), X.Value});
  cur().push_back(M.create(Op::OpAtomicCompareExchange, UT, Got,
                           {X.Ptr, Scope, EqualSem, LoadSem, op(Op::OpBitcast, UT, {Sum}), Cur}));
  const uint32_t Done = op(Op::OpIEqual, BT, {Got, Cur});
  stmt(Op::OpBranchConditional, {Done, Merge, Continue});
  newBlock(Continue);
  stmt(Op::OpBranch, {Header});
  newBlock(Merge);
  if (After)
    stmt(Op::OpMemoryBarrier, {Scope, After});
  else if (L.OwnAfter)
    stmt(Op::OpMemoryBarrier, {Scope, ownBarrierSemantics(StorageClass::Workgroup)});
  cur().push_back(M.create(Op::OpBitcast, A.TypeId, X.ResultId, {Cur}));
}

} // namespace fatomic::spirv
