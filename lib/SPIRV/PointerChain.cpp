//===- PointerChain.cpp - From a pointer back to its variable -------------===//
//
// The pointer-chain walk, the flat index path of a chain, and the pointer
// selects between two paths into one variable (PointerChain.h).
//
//===----------------------------------------------------------------------===//

#include "PointerChain.h"

#include <algorithm>
#include <unordered_set>

namespace fatomic::spirv {

using spv::StorageClass;

// ---------------------------------------------------------------------------
// The pointer-chain walk
// ---------------------------------------------------------------------------

ChainWalk walkPointerChain(const LoweringContext &C, uint32_t Ptr,
                           std::optional<StorageClass> SC) {
  const Module &M = C.M;
  ChainWalk W;
  uint32_t Cur = Ptr;
  // Each step moves to an earlier definition in a valid module; a chain
  // longer than the id bound goes round in a circle.
  for (uint32_t Steps = 0;; ++Steps) {
    W.Id = Cur;
    if (!SC && Steps > M.bound()) {
      W.Def = Module::NoInst;
      return W;
    }
    const InstRef D = W.Def = M.def(Cur);
    if (D == Module::NoInst) {
      W.Stop = ChainWalk::End::NoDefinition;
      return W;
    }
    if (SC) {
      const InstRef PT = C.pointerTypeOf(Cur);
      if (PT == Module::NoInst || StorageClass(M.operand(PT, 0)) != *SC ||
          Steps > M.bound()) {
        W.Stop = ChainWalk::End::NotSamePointer;
        return W;
      }
    }
    const Inst &I = M.inst(D);
    switch (I.Opcode) {
    case Op::OpAccessChain:
    case Op::OpInBoundsAccessChain:
      W.Chain.push_back(D);
      if (SC) {
        // A NonUniform index makes the rebuilt chain NonUniform too (in a
        // helper the index is a parameter, which carries no decoration).
        W.NonUniform |= M.hasDecoration(I.ResultId, spv::Decoration::NonUniform);
        for (uint32_t K = 1; K < I.Count; ++K)
          W.NonUniform |= M.hasDecoration(M.operand(D, K), spv::Decoration::NonUniform);
      }
      Cur = M.operand(D, 0);
      continue;
    case Op::OpCopyObject:
      if (SC)
        W.NonUniform |= M.hasDecoration(I.ResultId, spv::Decoration::NonUniform);
      Cur = M.operand(D, 0);
      continue;
    case Op::OpVariable:
      W.Stop = ChainWalk::End::Variable;
      std::reverse(W.Chain.begin(), W.Chain.end());
      return W;
    default:
      return W;
    }
  }
}

uint32_t chainRoot(const LoweringContext &C, uint32_t Ptr, std::vector<InstRef> &Chain) {
  ChainWalk W = walkPointerChain(C, Ptr, std::nullopt);
  // On failure the chain holds the access chains met so far, pointer side
  // first (selectError checks their indices).
  Chain = std::move(W.Chain);
  return W.Stop == ChainWalk::End::Variable ? W.Id : 0;
}

bool flatIndices(const LoweringContext &C, const std::vector<InstRef> &Chain,
                 std::vector<uint32_t> &Ids, std::vector<uint64_t> &Members) {
  const Module &M = C.M;
  if (Chain.empty())
    return true;
  const InstRef BaseType = C.pointerTypeOf(M.operand(Chain.front(), 0));
  if (BaseType == Module::NoInst)
    return false;
  uint32_t T = M.operand(BaseType, 1);
  for (InstRef AC : Chain)
    for (uint32_t K = 1; K < M.numOperands(AC); ++K) {
      const uint32_t Idx = M.operand(AC, K);
      const InstRef TD = M.def(T);
      if (TD == Module::NoInst || Ids.size() > LoweringContext::MaxTypeDepth)
        return false;
      uint64_t Member = ~uint64_t{0};
      switch (M.inst(TD).Opcode) {
      case Op::OpTypeStruct:
        if (!C.constantValue(Idx, Member) || Member >= M.numOperands(TD))
          return false;
        T = M.operand(TD, uint32_t(Member));
        break;
      case Op::OpTypeArray:
      case Op::OpTypeRuntimeArray:
      case Op::OpTypeVector:
      case Op::OpTypeMatrix:
        T = M.operand(TD, 0);
        break;
      default:
        return false;
      }
      Ids.push_back(Idx);
      Members.push_back(Member);
    }
  return true;
}

// ---------------------------------------------------------------------------
// Pointer selects
// ---------------------------------------------------------------------------

/// Whether the array indices where two paths differ can be selected: integer
/// values of one width (either signedness; B's is bitcast to A's type).
static bool selectableIndices(const LoweringContext &C, const std::vector<uint32_t> &IA,
                              const std::vector<uint32_t> &IB,
                              const std::vector<uint64_t> &MA) {
  const Module &M = C.M;
  for (size_t K = 0; K < IA.size(); ++K)
    if (MA[K] == ~uint64_t{0} && IA[K] != IB[K] &&
        (!C.isIntegerValue(IA[K]) || !C.isIntegerValue(IB[K]) ||
         (C.typeOf(IA[K]) != C.typeOf(IB[K]) &&
          M.scalarWidth(C.typeOf(IA[K])) != M.scalarWidth(C.typeOf(IB[K])))))
      return false;
  return true;
}

// A pointer chosen by OpSelect between &v.a[i] and &v.a[j] is &v.a[c ? i :
// j]: the integer view then needs no variable pointer.  The select is
// replaced in place (its result id names the new access chain), before
// collection, in this pass's own copy of the module.
static bool resolveSelect(LoweringContext &C, std::vector<InstRef> &Out, InstRef Sel) {
  Module &M = C.M;
  const Inst I = M.inst(Sel);
  const InstRef PT = C.pointerTypeOf(I.ResultId);
  if (PT == Module::NoInst || I.Count != 3)
    return false;
  std::vector<InstRef> CA, CB;
  const uint32_t RootA = chainRoot(C, M.operand(Sel, 1), CA);
  if (RootA == 0 || RootA != chainRoot(C, M.operand(Sel, 2), CB))
    return false;
  std::vector<uint32_t> IA, IB;
  std::vector<uint64_t> MA, MB;
  if (!flatIndices(C, CA, IA, MA) || !flatIndices(C, CB, IB, MB) || MA != MB ||
      !selectableIndices(C, IA, IB, MA))
    return false;
  bool NonUniform = M.hasDecoration(I.ResultId, spv::Decoration::NonUniform);
  for (InstRef AC : CA)
    NonUniform |= M.hasDecoration(M.inst(AC).ResultId, spv::Decoration::NonUniform);
  for (InstRef AC : CB)
    NonUniform |= M.hasDecoration(M.inst(AC).ResultId, spv::Decoration::NonUniform);
  std::vector<uint32_t> Ops{RootA};
  for (size_t K = 0; K < IA.size(); ++K) {
    if (IA[K] == IB[K] || MA[K] != ~uint64_t{0}) {
      Ops.push_back(IA[K]);
      continue;
    }
    uint32_t B = IB[K];
    if (C.typeOf(B) != C.typeOf(IA[K])) {
      B = M.newId();
      Out.push_back(M.create(Op::OpBitcast, C.typeOf(IA[K]), B, {IB[K]}));
    }
    const uint32_t Id = M.newId();
    Out.push_back(M.create(Op::OpSelect, C.typeOf(IA[K]), Id,
                           {M.operand(Sel, 0), IA[K], B}));
    if (M.hasDecoration(IA[K], spv::Decoration::NonUniform) ||
        M.hasDecoration(IB[K], spv::Decoration::NonUniform))
      M.addDecoration(Id, spv::Decoration::NonUniform);
    Ops.push_back(Id);
  }
  Out.push_back(M.create(Op::OpAccessChain, I.TypeId, I.ResultId, Ops));
  if (NonUniform && !M.hasDecoration(I.ResultId, spv::Decoration::NonUniform))
    M.addDecoration(I.ResultId, spv::Decoration::NonUniform);
  return true;
}

void resolvePointerSelects(LoweringContext &C) {
  Module &M = C.M;
  // The selects on the way from a float min/max atomic to its variable.
  std::set<InstRef> Wanted;
  for (Function &F : M.functions())
    for (Block &B : F.Blocks)
      for (InstRef R : B.Body) {
        const Op O = M.inst(R).Opcode;
        if (O != Op::OpAtomicFMinEXT && O != Op::OpAtomicFMaxEXT)
          continue;
        const ChainWalk W = walkPointerChain(C, M.operand(R, 0), std::nullopt);
        if (W.Def != Module::NoInst && M.inst(W.Def).Opcode == Op::OpSelect)
          Wanted.insert(W.Def);
      }
  if (Wanted.empty() || !M.isLogical())
    return;
  for (Function &F : M.functions())
    for (Block &B : F.Blocks) {
      if (std::none_of(B.Body.begin(), B.Body.end(),
                       [&](InstRef R) { return Wanted.count(R) != 0; }))
        continue;
      std::vector<InstRef> Body;
      for (InstRef R : B.Body)
        if (!Wanted.count(R) || !resolveSelect(C, Body, R))
          Body.push_back(R);
      B.Body = std::move(Body);
    }
}

void reportPointerSelect(LoweringContext &C, InstRef Atomic, InstRef Sel) {
  const Module &M = C.M;
  std::vector<InstRef> CA, CB;
  const uint32_t RootA = chainRoot(C, M.operand(Sel, 1), CA);
  const uint32_t RootB = chainRoot(C, M.operand(Sel, 2), CB);
  for (const std::vector<InstRef> *Chain : {&CA, &CB})
    for (InstRef AC : *Chain)
      for (uint32_t K = 1; K < M.numOperands(AC); ++K)
        if (!C.isIntegerValue(M.operand(AC, K))) {
          C.error(FailureKind::InvalidModule,
                  M.describe(AC) + ": index %" + std::to_string(M.operand(AC, K)) +
                      " is not an integer value");
          return;
        }
  const std::string From =
      "the pointer of " + M.describe(Atomic) + " comes from " + M.describe(Sel);
  if (RootA == 0 || RootB == 0) {
    C.error(FailureKind::UntraceablePointer,
            From + ", which chooses a pointer that does not come from a variable "
                   "through access chains, so its variable is not known");
  } else if (RootA != RootB) {
    C.error(FailureKind::Unsupported,
            From + ", which chooses between two variables, " + C.idName(RootA) +
                " and " + C.idName(RootB) + ", each with its own integer view; write "
                "one atomic per variable (for example one atomic in each branch)");
  } else {
    C.error(FailureKind::Unsupported,
            From + ", which chooses between two paths into variable " + C.idName(RootA) +
                " that differ in a struct member, in their depth or in the "
                "width of an index; fatomic lowers a choice between paths that "
                "differ in array indices only; write one atomic per path (for "
                "example one atomic in each branch)");
  }
}

bool derivesFromVolatile(const Module &M, uint32_t Ptr) {
  std::vector<uint32_t> Work{Ptr};
  std::unordered_set<uint32_t> Seen;
  while (!Work.empty()) {
    const uint32_t P = Work.back();
    Work.pop_back();
    if (!Seen.insert(P).second)
      continue;
    if (M.hasDecoration(P, spv::Decoration::Volatile))
      return true;
    const InstRef D = M.def(P);
    if (D == Module::NoInst)
      continue;
    switch (M.inst(D).Opcode) {
    case Op::OpAccessChain:
    case Op::OpInBoundsAccessChain:
    case Op::OpPtrAccessChain:
    case Op::OpInBoundsPtrAccessChain:
    case Op::OpCopyObject:
    case Op::OpBitcast:
    case Op::OpPtrCastToGeneric:
    case Op::OpGenericCastToPtr:
    case Op::OpGenericCastToPtrExplicit:
      Work.push_back(M.operand(D, 0)); // the base pointer
      break;
    case Op::OpSelect:
      Work.push_back(M.operand(D, 1));
      Work.push_back(M.operand(D, 2));
      break;
    case Op::OpPhi: // values at even words, parent labels at odd ones
      for (uint32_t K = 0; K + 1 < M.numOperands(D); K += 2)
        Work.push_back(M.operand(D, K));
      break;
    default: // a variable, a parameter, a converted integer: the end
      break;
    }
  }
  return false;
}

} // namespace fatomic::spirv
