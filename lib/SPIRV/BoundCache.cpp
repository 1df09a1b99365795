//===- BoundCache.cpp - The bound cache of an unused-result atomic --------===//
//
// See BoundCache.h.  The test and the record are written where the caller
// asks; the Private variables are made on the first use of an address
// expression.
//
//===----------------------------------------------------------------------===//

#include "BoundCache.h"

#include "Semantics.h"
#include "fatomic/LoweringModel.h"

namespace fatomic::spirv {

using spv::StorageClass;

BoundCache::BoundCache(LoweringContext &C, std::vector<Block> &Blocks, const Site &S,
                       const Operands &X)
    : CodeWriter(C, Blocks), S(S), X(X) {
  W = S.Width;
  UT = M.typeInt(W, false);
  BT = M.typeBool();
  for (uint32_t Idx : X.Indices)
    if (!M.isConstant(Idx))
      Keys.push_back(Idx);
}

// Relaxed semantics only (an acquire needs the load it would skip), and
// not volatile.  The single integer atomic only: the CAS loop (strategy=cas,
// or no early-out) is left as it is.
bool BoundCache::applies(LoweringContext &C, const Site &S, const Operands &X, uint32_t SemId) {
  const Module &M = C.M;
  if (!C.Opts.Cache || !S.ResultUnused || !S.Exclusive || !S.EarlyOutLegal || S.Volatile ||
      X.Semantics || M.declaresCapability(spv::Capability::Kernel))
    return false;
  if (S.Kind != MemKind::BufferAlias && S.Kind != MemKind::SharedRetype)
    return false;
  if (usesCasLoop(C.Opts.Strat, C.Opts.policyFor(NanPolicy::Number), /*EarlyOut=*/true))
    return false;
  uint64_t Sem = 0;
  const uint64_t Ordered = SemAcquire | SemRelease | SemAcqRel | SemSeqCst | SemMakeAvailable |
                           SemMakeVisible | SemVolatile;
  return C.constantValue(SemId, Sem) && (Sem & Ordered) == 0;
}

const CacheVariables &BoundCache::variables() {
  std::vector<uint32_t> Name{S.Root, uint32_t(S.Op)};
  Name.insert(Name.end(), X.Indices.begin(), X.Indices.end());
  auto [It, Added] = C.Caches.try_emplace(Name);
  if (!Added)
    return It->second;
  const auto Private = [&](uint32_t Type, uint64_t Init) {
    const uint32_t Var = M.addGlobal(Op::OpVariable, M.typePointer(StorageClass::Private, Type),
                                     {uint32_t(StorageClass::Private), C.constantInt(Type, Init)});
    M.listWhereListed(S.Root, Var);
    return Var;
  };
  for (uint32_t K : Keys)
    It->second.Keys.push_back(Private(C.typeOf(K), 0));
  It->second.Bound = Private(UT, S.Op == FloatOp::Max ? 0 : widthMask(W));
  return It->second;
}

uint32_t BoundCache::hit(uint32_t UKey) {
  const CacheVariables &V = variables();
  uint32_t Same = 0;
  for (size_t K = 0; K < Keys.size(); ++K) {
    const uint32_t Eq =
        op(Op::OpIEqual, BT, {op(Op::OpLoad, C.typeOf(Keys[K]), {V.Keys[K]}), Keys[K]});
    Same = Same ? op(Op::OpLogicalAnd, BT, {Same, Eq}) : Eq;
  }
  const uint32_t Bound = op(Op::OpLoad, UT, {V.Bound});
  const Op NotPast = S.Op == FloatOp::Max ? Op::OpULessThanEqual : Op::OpUGreaterThanEqual;
  const uint32_t NotPastBound = op(NotPast, BT, {UKey, Bound});
  return Same ? op(Op::OpLogicalAnd, BT, {Same, NotPastBound}) : NotPastBound;
}

void BoundCache::record(uint32_t UBound) {
  const CacheVariables &V = variables();
  for (size_t K = 0; K < Keys.size(); ++K)
    stmt(Op::OpStore, {V.Keys[K], Keys[K]});
  stmt(Op::OpStore, {V.Bound, UBound});
}

uint32_t BoundCache::boundOfLoad(uint32_t Loaded) {
  const uint32_t New = ordered(Loaded);
  if (C.Opts.policyFor(NanPolicy::Number) != NanPolicy::Number)
    return New;
  const uint32_t Identity = constant(S.Op == FloatOp::Max ? 0 : widthMask(W));
  return op(Op::OpSelect, UT, {isNaN(Loaded), Identity, New});
}

} // namespace fatomic::spirv
