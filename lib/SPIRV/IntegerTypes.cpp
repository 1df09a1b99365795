//===- IntegerTypes.cpp - Integer counterparts of float types and values --===//
//
// The pieces the integer views share (IntegerTypes.h).
//
//===----------------------------------------------------------------------===//

#include "IntegerTypes.h"

#include <algorithm>

namespace fatomic::spirv {

bool isRestrict(const Module &M, InstRef R) {
  const Inst &I = M.inst(R);
  const uint32_t Restrict = uint32_t(spv::Decoration::Restrict);
  return (I.Opcode == Op::OpDecorate && I.Count >= 2 && M.operand(R, 1) == Restrict) ||
         (I.Opcode == Op::OpMemberDecorate && I.Count >= 3 && M.operand(R, 2) == Restrict);
}

void IntegerTypes::copyDecorations(uint32_t From, uint32_t To) {
  for (InstRef R : M.decorationsOf(From)) {
    if (isRestrict(M, R))
      continue; // a clone is an alias of the original: never restrict
    const Inst &I = M.inst(R);
    std::vector<uint32_t> Ops(M.operands(R), M.operands(R) + I.Count);
    Ops[0] = To;
    M.section(Section::Annotation)
        .push_back(M.create(I.Opcode, 0, 0, Ops));
  }
}

uint32_t IntegerTypes::cloneAggregate(
    uint32_t T, const std::function<uint32_t(uint32_t)> &Elem,
    const std::function<bool(uint32_t, uint32_t)> &Convert) {
  const InstRef D = M.def(T);
  const Inst &I = M.inst(D);
  uint32_t New = T;
  switch (I.Opcode) {
  case Op::OpTypeFloat:
    return M.typeInt(M.operand(D, 0), /*Signed=*/false);
  case Op::OpTypeVector:
    return M.typeVector(Elem(M.operand(D, 0)), M.operand(D, 1));
  case Op::OpTypeArray:
    New = M.addType(Op::OpTypeArray, {Elem(M.operand(D, 0)), M.operand(D, 1)});
    break;
  case Op::OpTypeRuntimeArray:
    New = M.addType(Op::OpTypeRuntimeArray, {Elem(M.operand(D, 0))});
    break;
  case Op::OpTypeStruct: {
    std::vector<uint32_t> Members(M.operands(D), M.operands(D) + I.Count);
    for (uint32_t K = 0; K < Members.size(); ++K)
      if (Convert(T, K))
        Members[K] = Elem(Members[K]);
    New = M.addType(Op::OpTypeStruct, Members);
    break;
  }
  default:
    return T;
  }
  copyDecorations(T, New);
  return New;
}

uint32_t IntegerTypes::cloneFloats(uint32_t T, unsigned Widths) {
  const uint64_t Key = uint64_t(T) << 2 | Widths;
  if (auto It = Clones.find(Key); It != Clones.end())
    return It->second;
  uint32_t New = T;
  if (C.hasFloatIn(T, Widths))
    New = cloneAggregate(
        T, [this, Widths](uint32_t E) { return cloneFloats(E, Widths); },
        [this, Widths](uint32_t S, uint32_t K) {
          return C.hasFloatIn(M.operand(M.def(S), K), Widths);
        });
  Clones[Key] = New;
  return New;
}

bool walkTypePath(LoweringContext &C, uint32_t T, const Site &S, InstRef Where,
                  TypePath *Record) {
  const Module &M = C.M;
  uint32_t Depth = 0;
  // The composites passed so far: one met again contains itself (only an
  // invalid module has such a type), and cloning it would never end.
  std::vector<uint32_t> Seen;
  for (InstRef AC : S.Chain) {
    const uint32_t N = M.numOperands(AC);
    for (uint32_t K = 1; K < N; ++K) {
      const uint32_t Idx = M.operand(AC, K);
      const InstRef TD = M.def(T);
      if (TD == Module::NoInst || ++Depth > LoweringContext::MaxTypeDepth) {
        C.error(FailureKind::InvalidModule,
                M.describe(AC) + ": an index goes into %" + std::to_string(T) +
                    ", which is not a type (or the path is deeper than " +
                    std::to_string(LoweringContext::MaxTypeDepth) + " levels)");
        return false;
      }
      if (std::find(Seen.begin(), Seen.end(), T) != Seen.end()) {
        C.error(FailureKind::InvalidModule,
                M.describe(AC) + ": the access chain goes through type %" +
                    std::to_string(T) + " twice (a type that contains itself)");
        return false;
      }
      Seen.push_back(T);
      const Inst &TI = M.inst(TD);
      switch (TI.Opcode) {
      case Op::OpTypeStruct: {
        uint64_t Member;
        if (!C.constantValue(Idx, Member) || Member >= TI.Count) {
          C.error(FailureKind::InvalidModule,
                  M.describe(AC) + ": struct index is not a valid constant");
          return false;
        }
        if (Record)
          Record->Members.insert({T, uint32_t(Member)});
        T = M.operand(TD, uint32_t(Member));
        break;
      }
      case Op::OpTypeArray:
      case Op::OpTypeRuntimeArray:
      case Op::OpTypeVector:
        if (Record)
          Record->Types.insert(T);
        T = M.operand(TD, 0);
        break;
      default:
        C.error(FailureKind::Unsupported,
                M.describe(Where) + ": the atomic's path goes through " + M.describe(TD) +
                    ", which has no integer counterpart in SPIR-V");
        return false;
      }
    }
  }
  if (T != M.inst(S.Atomic).TypeId) {
    C.error(FailureKind::InvalidModule,
            M.describe(Where) + ": the access chains do not lead to the "
                                "atomic's float type");
    return false;
  }
  if (Record)
    Record->Types.insert(T);
  return true;
}

uint32_t convertValue(Module &M, std::vector<InstRef> &Out, uint32_t Value,
                      uint32_t From, uint32_t To, uint32_t ResultId) {
  auto Emit = [&](Op O, uint32_t Type, const std::vector<uint32_t> &Ops) {
    const uint32_t Id = ResultId ? ResultId : M.newId();
    Out.push_back(M.create(O, Type, Id, Ops));
    return Id;
  };
  if (From == To) {
    if (!ResultId)
      return Value;
    return Emit(Op::OpCopyObject, To, {Value});
  }
  const InstRef D = M.def(From);
  const Inst I = M.inst(D); // a copy: the instructions below may move it
  if (I.Opcode == Op::OpTypeFloat || I.Opcode == Op::OpTypeInt ||
      I.Opcode == Op::OpTypeVector)
    return Emit(Op::OpBitcast, To, {Value});
  // Arrays and structs: element-wise.
  const InstRef ToD = M.def(To);
  uint32_t N = 0;
  if (I.Opcode == Op::OpTypeStruct) {
    N = I.Count;
  } else {
    uint64_t Len = 0;
    const InstRef LD = M.def(M.operand(D, 1));
    Len = M.operand(LD, 0);
    N = uint32_t(Len);
  }
  std::vector<uint32_t> Parts;
  Parts.reserve(N);
  for (uint32_t K = 0; K < N; ++K) {
    const uint32_t FE = I.Opcode == Op::OpTypeStruct ? M.operand(D, K) : M.operand(D, 0);
    const uint32_t TE = I.Opcode == Op::OpTypeStruct ? M.operand(ToD, K) : M.operand(ToD, 0);
    const uint32_t X = M.newId();
    Out.push_back(M.create(Op::OpCompositeExtract, FE, X, {Value, K}));
    Parts.push_back(convertValue(M, Out, X, FE, TE, 0));
  }
  return Emit(Op::OpCompositeConstruct, To, Parts);
}

bool isDebugOnlyUse(const Module &M, InstRef User, uint32_t Word) {
  const Inst &I = M.inst(User);
  if (I.Opcode != Op::OpExtInst || Word < 2)
    return false;
  const uint32_t Set = M.operand(User, 0);
  // Non-semantic sets may be dropped without changing the module's meaning;
  // OpenCL.DebugInfo.100 is debug information only.  Their instructions keep
  // naming the variable, whose memory still holds the float bits that their
  // debug types describe.
  if (M.isNonSemanticSet(Set))
    return true;
  const InstRef D = M.def(Set);
  return D != Module::NoInst && M.inst(D).Opcode == Op::OpExtInstImport &&
         M.stringOperand(D, 0) == "OpenCL.DebugInfo.100";
}

void moveGlobalToEnd(Module &M, InstRef VarDef) {
  // Module-level OpExtInsts (debug information) may name the variable; the
  // ones after it move with it, in order.  No type, constant or variable
  // names an OpExtInst, so what stays behind loses no definition.
  auto &Globals = M.section(Section::Global);
  const auto Pos = std::find(Globals.begin(), Globals.end(), VarDef);
  std::vector<InstRef> Stay, Follow;
  for (auto It = std::next(Pos); It != Globals.end(); ++It)
    (M.inst(*It).Opcode == Op::OpExtInst ? Follow : Stay).push_back(*It);
  Globals.erase(Pos, Globals.end());
  Globals.insert(Globals.end(), Stay.begin(), Stay.end());
  Globals.push_back(VarDef);
  Globals.insert(Globals.end(), Follow.begin(), Follow.end());
}

} // namespace fatomic::spirv
