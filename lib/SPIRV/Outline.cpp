//===- Outline.cpp - Helper functions for outlined atomics ----------------===//
//
// See Outline.h.  The helper's code is what the atomic would have inline
// (AtomicEmitter); drivers inline such functions (it is marked Inline), so
// the dispatched code is the same.
//
//===----------------------------------------------------------------------===//

#include "Outline.h"

#include "SubgroupAggregate.h"

namespace fatomic::spirv {

using spv::StorageClass;

void Outline::describeCall(const Site &S, bool RunTime[2]) {
  const Inst &A = M.inst(S.Atomic);
  const uint32_t Ptr = M.operand(S.Atomic, 0), Value = M.operand(S.Atomic, 3);
  const uint32_t ResultType = A.TypeId;
  // The kind: everything the helper's code depends on.
  Key.assign({uint32_t(S.Kind), uint32_t(S.Op), ResultType, M.operand(S.Atomic, 1),
              M.operand(S.Atomic, 2), S.EarlyOutLegal, S.NonUniform, S.ResultUnused,
              S.Root, S.Exclusive});
  Args.assign(1, 0); // the callee, filled in by callHelper
  ParamTypes.clear();
  Pattern.clear();
  if (S.Kind == MemKind::PointerCast) {
    Key.push_back(C.typeOf(Ptr));
    Args.push_back(Ptr);
    ParamTypes.push_back(C.typeOf(Ptr));
  } else {
    uint32_t T = C.pointee(C.typeOf(S.Root));
    for (InstRef AC : S.Chain)
      for (uint32_t K = 1; K < M.numOperands(AC); ++K) {
        const uint32_t Idx = M.operand(AC, K);
        const InstRef TD = M.def(T);
        if (M.inst(TD).Opcode == Op::OpTypeStruct) {
          uint64_t Member = 0;
          C.constantValue(Idx, Member);
          Key.push_back(Idx);
          Pattern.push_back(Idx);
          T = M.operand(TD, uint32_t(Member));
        } else {
          Key.push_back(0);
          Key.push_back(C.typeOf(Idx));
          Pattern.push_back(0);
          Args.push_back(Idx);
          ParamTypes.push_back(C.typeOf(Idx));
          T = M.operand(TD, 0);
        }
      }
  }
  // A scope or semantics given by a run-time value (Kernel modules may do
  // this) is a parameter too: the helper cannot use the caller's ids.
  for (uint32_t K = 0; K < 2; ++K) {
    const uint32_t Id = M.operand(S.Atomic, 1 + K);
    RunTime[K] = false;
    if (M.isConstant(Id))
      continue;
    RunTime[K] = true;
    Key[3 + K] = 0;
    Key.push_back(C.typeOf(Id));
    Args.push_back(Id);
    ParamTypes.push_back(C.typeOf(Id));
  }
  Args.push_back(Value);
  ParamTypes.push_back(ResultType);
}

uint32_t Outline::makeHelper(const Site &S, const bool RunTime[2]) {
  const uint32_t ResultType = M.inst(S.Atomic).TypeId;
  const uint32_t FnId = M.newId();
  Function F;
  F.Def = M.create(Op::OpFunction, ResultType, FnId,
                   {uint32_t(spv::FunctionControlMask::Inline),
                    M.typeFunction(ResultType, ParamTypes)});
  std::vector<uint32_t> Params;
  for (uint32_t T : ParamTypes) {
    Params.push_back(M.newId());
    F.Header.push_back(M.create(Op::OpFunctionParameter, T, Params.back(), {}));
  }
  // A PhysicalStorageBuffer pointer parameter must say whether it aliases.
  if (S.Kind == MemKind::PointerCast && M.opOf(ParamTypes[0]) == Op::OpTypePointer &&
      C.pointerClass(ParamTypes[0]) == StorageClass::PhysicalStorageBuffer)
    M.addDecoration(Params[0], spv::Decoration::Aliased);
  Operands X;
  X.Value = Params.back();
  X.ResultId = M.newId();
  X.Rebuild = true;
  size_t P = 0;
  if (S.Kind == MemKind::PointerCast) {
    X.Ptr = Params[P++];
  } else {
    for (uint32_t Cst : Pattern)
      X.Indices.push_back(Cst ? Cst : Params[P++]);
  }
  X.Scope = RunTime[0] ? Params[P++] : 0;
  X.Semantics = RunTime[1] ? Params[P++] : 0;
  Block Entry;
  Entry.Label = M.newId();
  Entry.LabelInst = M.create(Op::OpLabel, 0, Entry.Label, {});
  F.Blocks.push_back(std::move(Entry));
  emitLoweredAtomic(C, Plan.FlushWidths, F.Blocks, S, X);
  F.Blocks.back().Body.push_back(M.create(Op::OpReturnValue, 0, 0, {X.ResultId}));
  F.End = M.create(Op::OpFunctionEnd, 0, 0, {});
  Helpers.push_back(std::move(F));
  return FnId;
}

InstRef Outline::callHelper(const Site &S) {
  bool RunTime[2] = {false, false};
  describeCall(S, RunTime);
  auto It = HelperOf.find(Key);
  if (It == HelperOf.end()) {
    It = HelperOf.emplace(Key, 0).first;
    It->second = makeHelper(S, RunTime);
  }
  Args[0] = It->second;
  const Inst &A = M.inst(S.Atomic);
  const uint32_t Type = A.TypeId, Result = A.ResultId;
  return M.create(Op::OpFunctionCall, Type, Result, Args);
}

void Outline::appendHelpers() {
  for (Function &F : Helpers)
    M.functions().push_back(std::move(F));
  Helpers.clear();
}

} // namespace fatomic::spirv
