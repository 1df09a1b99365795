//===- SubgroupAggregate.cpp - One atomic per subgroup --------------------===//
//
// See SubgroupAggregate.h.  The keys are the order map U of the operand
// (fatomic/OrderMap.h), so that an unsigned subgroup max or min is the float
// max or min with -0 < +0; the NaN policy is carried by what a NaN operand's
// key is.  The results are rebuilt in U as well, which the inverse map turns
// back into float bits.
//
//===----------------------------------------------------------------------===//

#include "SubgroupAggregate.h"

#include "Semantics.h"
#include "fatomic/OrderMap.h"

namespace fatomic::spirv {

void emitLoweredAtomic(LoweringContext &C, const std::set<unsigned> &FlushWidths,
                       std::vector<Block> &Blocks, const Site &S, const Operands &X) {
  SubgroupAggregator A(C, FlushWidths, Blocks, S, X);
  if (A.applies())
    A.emit();
  else
    AtomicEmitter(C, FlushWidths, Blocks, S, X).emit();
}

// ---- where it applies -------------------------------------------------------

bool SubgroupAggregator::applies() const {
  return moduleAllows() && siteAllows() && C.Opts.aggregates(C.Target, targetAllows()) &&
         !leftToDriver();
}

// aggregate=auto leaves an atomic to a driver that combines it across the
// subgroup itself (SubgroupSupport::DriverCombinesUnused32): 32-bit, buffer
// memory, result unused, behind the bound cache.  There the per-invocation
// form is as fast or faster in every cell of the GPU benchmark (f32,
// unused: 0.173 against 0.216 ms at one address with random values, 0.382
// against 0.406 with rising ones); without the cache it is not (0.986
// against 0.557 ms, one address, rising), so the rule asks for the cache.
// aggregate=subgroup still aggregates.
bool SubgroupAggregator::leftToDriver() const {
  return C.Opts.Aggregate == Aggregation::Auto && C.Target.Subgroups.DriverCombinesUnused32 &&
         S.Width == 32 && S.ResultUnused && S.Kind == MemKind::BufferAlias &&
         BoundCache::applies(C, S, X, M.operand(S.Atomic, 2));
}

// The subgroup operations this site's form uses: ballot for
// BroadcastFirst (used results only), extended types for 64-bit keys or an
// index that the uniformity test reduces and is not 32-bit.
bool SubgroupAggregator::targetAllows() const {
  bool WideIndex = false;
  for (uint32_t Idx : X.Indices) {
    const InstRef D = M.def(Idx);
    if (!M.isConstant(Idx) && (D == Module::NoInst || M.scalarWidth(M.inst(D).TypeId) != 32))
      WideIndex = true;
  }
  return C.Target.Subgroups.allows(S.Width, !S.ResultUnused, WideIndex);
}

// Group operations need SPIR-V 1.3.  Only compute shaders: a fragment
// shader's helper invocations take part in subgroup operations, and one of
// them could be the elected invocation, whose atomic would then have no
// effect.  A module without entry points (a library) gives no stage.
bool SubgroupAggregator::moduleAllows() const {
  if (M.version() < 0x10300 || !M.declaresCapability(spv::Capability::Shader) ||
      M.declaresCapability(spv::Capability::Kernel))
    return false;
  const std::vector<InstRef> &EntryPoints = M.section(Section::EntryPoint);
  if (EntryPoints.empty())
    return false;
  for (InstRef R : EntryPoints)
    if (spv::ExecutionModel(M.operand(R, 0)) != spv::ExecutionModel::GLCompute)
      return false;
  return true;
}

// Relaxed semantics only: the other invocations do no atomic of their own,
// so an acquire or release of theirs would not be performed.  A constant
// scope wider than the invocation; buffer or Workgroup memory through a
// known variable (whose index ids the uniformity test compares); no
// denormal flushing, which the keys would have to follow.
bool SubgroupAggregator::siteAllows() const {
  if (S.Add || S.Volatile || X.Scope || X.Semantics || FlushWidths.count(S.Width) ||
      (S.Kind != MemKind::BufferAlias && S.Kind != MemKind::SharedRetype))
    return false;
  uint64_t Scope = 0, Sem = 0;
  if (!C.constantValue(M.operand(S.Atomic, 1), Scope) ||
      !C.constantValue(M.operand(S.Atomic, 2), Sem))
    return false;
  return Scope != uint64_t(spv::Scope::Invocation) && (Sem & ~uint64_t(SemStorageClasses)) == 0;
}

// U^-1(k) = k ^ (~(k >>s (W-1)) | sign): keys with the top bit set came
// from non-negative floats (flip the sign back), the others from negative
// ones (flip every bit).
uint32_t SubgroupAggregator::unordered(uint32_t Key) {
  const uint32_t Sh = op(Op::OpShiftRightArithmetic, UT, {Key, constant(W - 1)});
  const uint32_t Mask = op(Op::OpBitwiseOr, UT, {op(Op::OpNot, UT, {Sh}), constant(signBit(W))});
  return op(Op::OpBitwiseXor, UT, {Key, Mask});
}

// number: a NaN operand changes nothing, so its key is the reduction's
// identity (which decodes to a NaN: the elected atomic then changes nothing
// either).  propagate: a NaN wins, so its key is the absorbing end, which
// decodes to the policy's sticky pattern.  fast: NaNs where U puts them.
uint32_t SubgroupAggregator::key(uint32_t Bits) {
  const uint32_t U = ordered(Bits);
  if (Policy == NanPolicy::Fast)
    return U;
  return op(Op::OpSelect, UT,
            {isNaN(Bits), constant(Policy == NanPolicy::Number ? Identity : Absorbing), U});
}

// True where every non-constant index is the same in every active
// invocation: its subgroup minimum equals its maximum; 0 where every index
// is a constant (one address for all).  Two reductions rather than
// OpGroupNonUniformAllEqual: on an H200 they cost less where the
// subgroup's invocations share the address (up to 6 % of a whole
// aggregated operation; docs/gpu-performance.md), and they need no more
// than the arithmetic operations the keys' reduction needs.
uint32_t SubgroupAggregator::uniformAddress() {
  uint32_t All = 0;
  for (uint32_t Idx : X.Indices) {
    if (M.isConstant(Idx))
      continue;
    const uint32_t IT = C.typeOf(Idx), R = uint32_t(spv::GroupOperation::Reduce);
    const uint32_t Equal =
        op(Op::OpIEqual, BT, {op(Op::OpGroupNonUniformUMin, IT, {subgroup(), R, Idx}),
                              op(Op::OpGroupNonUniformUMax, IT, {subgroup(), R, Idx})});
    All = All ? op(Op::OpLogicalAnd, BT, {All, Equal}) : Equal;
  }
  return All;
}

uint32_t SubgroupAggregator::lowered(uint32_t Value, const BoundCache *Cache) {
  Operands Y = X;
  Y.Value = Value;
  Y.ResultId = M.newId();
  AtomicEmitter E(C, FlushWidths, Blocks, S, Y);
  if (Cache)
    E.cacheTested();
  E.emit();
  return Y.ResultId;
}

// Invocation i's result is what the atomic would have returned had the
// subgroup's operations run one after the other in invocation order:
// Old combined with the keys of the invocations below i (an exclusive scan).
uint32_t SubgroupAggregator::scannedResult(uint32_t Old, uint32_t Key) {
  const bool Max = S.Op == FloatOp::Max;
  const uint32_t Below =
      op(Max ? Op::OpGroupNonUniformUMax : Op::OpGroupNonUniformUMin, UT,
         {subgroup(), uint32_t(spv::GroupOperation::ExclusiveScan), Key});
  const uint32_t OldBits = op(Op::OpBitcast, UT, {Old});
  uint32_t Take = op(Max ? Op::OpUGreaterThan : Op::OpULessThan, BT, {Below, ordered(OldBits)});
  if (Policy != NanPolicy::Fast) {
    // Nothing below (the identity): Old.  number: a NaN in memory gives way
    // to the first number; propagate: it stays.
    const uint32_t Prior = op(Op::OpINotEqual, BT, {Below, constant(Identity)});
    const uint32_t OldNaN = isNaN(OldBits);
    const uint32_t Wins = Policy == NanPolicy::Number
                              ? op(Op::OpLogicalOr, BT, {OldNaN, Take})
                              : op(Op::OpLogicalAnd, BT, {op(Op::OpLogicalNot, BT, {OldNaN}), Take});
    Take = op(Op::OpLogicalAnd, BT, {Prior, Wins});
  }
  return op(Op::OpBitcast, FloatType, {op(Op::OpSelect, UT, {Take, unordered(Below), OldBits})});
}

// Where the reduction could not change memory (its key not above Old's, for
// max), no invocation's operand could either: each one's result is Old, and
// the scan is skipped.  Not under `number` with a NaN in memory, which the
// first number replaces.  Old and the reduction are the same in every
// invocation, so the branch does not diverge.  Where the atomic's early-out
// decides most operations (a value that has settled), this saves the scan.
uint32_t SubgroupAggregator::usedResult(uint32_t Old, uint32_t Reduced, uint32_t Key) {
  const bool Max = S.Op == FloatOp::Max;
  const uint32_t OldBits = op(Op::OpBitcast, UT, {Old});
  uint32_t Unchanged =
      op(Max ? Op::OpULessThanEqual : Op::OpUGreaterThanEqual, BT, {Reduced, ordered(OldBits)});
  if (Policy == NanPolicy::Number)
    Unchanged = op(Op::OpLogicalAnd, BT,
                   {Unchanged, op(Op::OpLogicalNot, BT, {isNaN(OldBits)})});
  const uint32_t Header = curLabel(), Scan = M.newId(), Merge = M.newId();
  stmt(Op::OpSelectionMerge, {Merge, 0});
  stmt(Op::OpBranchConditional, {Unchanged, Merge, Scan});
  newBlock(Scan);
  const uint32_t Scanned = scannedResult(Old, Key);
  const uint32_t ScanEnd = curLabel();
  stmt(Op::OpBranch, {Merge});
  newBlock(Merge);
  return op(Op::OpPhi, FloatType, {Old, Header, Scanned, ScanEnd});
}

// The subgroup's reduction of the keys.  A 64-bit key is reduced as two
// 32-bit halves: the high halves first, then the low halves of the
// invocations whose high half is that result (the others give the
// identity), which is the unsigned order of the whole keys.  Drivers have
// one instruction for a 32-bit reduction on GPUs that have one (NVIDIA
// sm_80 and later: REDUX) but a loop of shuffles for a 64-bit one.
uint32_t SubgroupAggregator::reduce(uint32_t Key) {
  const bool Max = S.Op == FloatOp::Max;
  const Op Combine = Max ? Op::OpGroupNonUniformUMax : Op::OpGroupNonUniformUMin;
  const uint32_t Reduce = uint32_t(spv::GroupOperation::Reduce);
  if (W != 64)
    return op(Combine, UT, {subgroup(), Reduce, Key});
  const uint32_t U32 = M.typeInt(32, false);
  const uint32_t Half = constant(32);
  const uint32_t Hi = op(Op::OpUConvert, U32, {op(Op::OpShiftRightLogical, UT, {Key, Half})});
  const uint32_t Lo = op(Op::OpUConvert, U32, {Key});
  const uint32_t TopHi = op(Combine, U32, {subgroup(), Reduce, Hi});
  const uint32_t LoKey = op(Op::OpSelect, U32,
                            {op(Op::OpIEqual, BT, {Hi, TopHi}), Lo,
                             C.constantInt(U32, Max ? 0 : widthMask(32))});
  const uint32_t TopLo = op(Combine, U32, {subgroup(), Reduce, LoKey});
  return op(Op::OpBitwiseOr, UT,
            {op(Op::OpShiftLeftLogical, UT, {op(Op::OpUConvert, UT, {TopHi}), Half}),
             op(Op::OpUConvert, UT, {TopLo})});
}

void SubgroupAggregator::addCapabilities() {
  M.addCapability(spv::Capability::GroupNonUniform);
  M.addCapability(spv::Capability::GroupNonUniformArithmetic);
  if (!S.ResultUnused)
    M.addCapability(spv::Capability::GroupNonUniformBallot);
}

// ---- the aggregated atomic --------------------------------------------------

void SubgroupAggregator::emit() {
  W = S.Width;
  FloatType = M.inst(S.Atomic).TypeId;
  Policy = C.Opts.policyFor(NanPolicy::Number);
  UT = M.typeInt(W, false);
  BT = M.typeBool();
  const bool Max = S.Op == FloatOp::Max;
  Identity = Max ? 0 : widthMask(W);
  Absorbing = Max ? widthMask(W) : 0;
  Undef = M.addGlobal(Op::OpUndef, FloatType, {});
  addCapabilities();
  if (!BoundCache::applies(C, S, X, M.operand(S.Atomic, 2)))
    return aggregated(X.ResultId, uniformAddress(), /*Key=*/0, /*Cache=*/nullptr);

  // The bound cache first, per invocation: those it decides do not take
  // part in the subgroup's operation.  The uniformity test before it,
  // where every invocation still runs (a sufficient test for those that
  // stay).
  const uint32_t Uniform = uniformAddress();
  BoundCache Cache(C, Blocks, S, X);
  const uint32_t Key = key(op(Op::OpBitcast, UT, {X.Value}));
  const uint32_t Hit = Cache.hit(Key);
  const uint32_t Header = curLabel(), Miss = M.newId(), Join = M.newId();
  stmt(Op::OpSelectionMerge, {Join, 0});
  stmt(Op::OpBranchConditional, {Hit, Join, Miss});
  newBlock(Miss);
  const uint32_t Missed = M.newId();
  aggregated(Missed, Uniform, Key, &Cache);
  const uint32_t MissEnd = curLabel();
  stmt(Op::OpBranch, {Join});
  newBlock(Join);
  cur().push_back(
      M.create(Op::OpPhi, FloatType, X.ResultId, {Undef, Header, Missed, MissEnd}));
}

// The uniformity test, the aggregated operation and the per-invocation
// one, defining \p ResultId.  \p Key: the key if made already; \p Cache:
// the bound cache whose test was made (its record follows each path).
void SubgroupAggregator::aggregated(uint32_t ResultId, uint32_t Uniform, uint32_t Key,
                                    BoundCache *Cache) {
  const uint32_t Merge = Uniform ? M.newId() : 0, Single = Uniform ? M.newId() : 0;
  if (Uniform) {
    const uint32_t Agg = M.newId();
    stmt(Op::OpSelectionMerge, {Merge, 0});
    stmt(Op::OpBranchConditional, {Uniform, Agg, Single});
    newBlock(Agg);
  }
  // The key only where it is reduced: the per-invocation path does not
  // pay for it (unless the cache's test needed it).
  if (!Key)
    Key = key(op(Op::OpBitcast, UT, {X.Value}));
  const uint32_t Reduced = reduce(Key);
  const uint32_t Elected = op(Op::OpGroupNonUniformElect, BT, {subgroup()});
  const uint32_t AggMerge = M.newId(), Electing = M.newId();
  const uint32_t Others = Cache ? M.newId() : AggMerge;
  const uint32_t ElectHeader = curLabel();
  stmt(Op::OpSelectionMerge, {AggMerge, 0});
  stmt(Op::OpBranchConditional, {Elected, Electing, Others});
  newBlock(Electing);
  const uint32_t Old = lowered(op(Op::OpBitcast, FloatType, {unordered(Reduced)}), Cache);
  const uint32_t ElectedEnd = curLabel();
  stmt(Op::OpBranch, {AggMerge});
  if (Cache) {
    // The elected invocation's atomic completes the reduced operand: a
    // bound for the others (the elected one records its load).
    newBlock(Others);
    Cache->record(Reduced);
    stmt(Op::OpBranch, {AggMerge});
  }
  const uint32_t OthersEnd = Cache ? Others : ElectHeader;
  newBlock(AggMerge);
  uint32_t Result = Undef;
  if (!S.ResultUnused) {
    const uint32_t Mine = op(Op::OpPhi, FloatType, {Old, ElectedEnd, Undef, OthersEnd});
    Result = usedResult(
        op(Op::OpGroupNonUniformBroadcastFirst, FloatType, {subgroup(), Mine}), Reduced, Key);
  }
  if (!Uniform) {
    cur().push_back(M.create(Op::OpCopyObject, FloatType, ResultId, {Result}));
    return;
  }
  const uint32_t AggEnd = curLabel();
  stmt(Op::OpBranch, {Merge});
  newBlock(Single);
  const uint32_t Own = lowered(X.Value, Cache);
  const uint32_t SingleEnd = curLabel();
  stmt(Op::OpBranch, {Merge});
  newBlock(Merge);
  cur().push_back(M.create(Op::OpPhi, FloatType, ResultId, {Result, AggEnd, Own, SingleEnd}));
}

} // namespace fatomic::spirv
