//===- LoweringState.cpp - What the rooms of the SPIR-V pass share --------===//
//
// The LoweringContext's questions about the module (constants, pointer
// types, the facts of a type) and its diagnostics; BodyEdits' one walk
// over the function bodies.
//
//===----------------------------------------------------------------------===//

#include "LoweringState.h"

namespace fatomic::spirv {

using spv::StorageClass;

void LoweringContext::error(FailureKind K, const std::string &Msg) {
  if (Failure == FailureKind::None)
    Failure = K;
  if (Consumer)
    Consumer(SPV_MSG_ERROR, nullptr, {0, 0, 0}, Msg.c_str());
}

bool LoweringContext::constantValue(uint32_t Id, uint64_t &Value) const {
  const InstRef D = M.def(Id);
  if (D == Module::NoInst)
    return false;
  const Inst &I = M.inst(D);
  if (I.Opcode == Op::OpConstantNull) {
    Value = 0;
    return true;
  }
  if (I.Opcode != Op::OpConstant || I.Count == 0)
    return false;
  Value = M.operand(D, 0);
  if (I.Count > 1)
    Value |= uint64_t(M.operand(D, 1)) << 32;
  return true;
}

uint32_t LoweringContext::constantInt(uint32_t IntType, uint64_t Value) {
  auto [It, New] = Constants.try_emplace({IntType, Value}, 0);
  if (New)
    It->second = M.constantInt(IntType, Value);
  return It->second;
}

InstRef LoweringContext::pointerTypeOf(uint32_t Id) const {
  const InstRef T = M.def(typeOf(Id));
  return T != Module::NoInst && M.inst(T).Opcode == Op::OpTypePointer
             ? T
             : Module::NoInst;
}

/// Any pointer but a PhysicalStorageBuffer one, in a module that is not
/// Physical32/Physical64.
bool LoweringContext::isLogicalPointer(uint32_t Id) const {
  const InstRef T = pointerTypeOf(Id);
  return M.isLogical() && T != Module::NoInst && M.inst(T).Count >= 1 &&
         pointerClass(M.inst(T).ResultId) != StorageClass::PhysicalStorageBuffer;
}

std::string LoweringContext::idName(uint32_t Id) const {
  return "%" + std::to_string(Id) +
         (M.nameOf(Id).empty() ? "" : " (\"" + M.nameOf(Id) + "\")");
}

MemoryClass LoweringContext::memoryClass(MemKind K, StorageClass SC) const {
  if (K == MemKind::ImageRetype)
    return MemoryClass::Image;
  if (SC == StorageClass::Workgroup)
    return MemoryClass::Shared;
  return MemoryClass::Buffer;
}

TypeFacts LoweringContext::facts(uint32_t T, unsigned Depth) {
  if (auto It = Facts.find(T); It != Facts.end())
    return It->second;
  TypeFacts F;
  if (Depth > MaxTypeDepth || !FactsInProgress.insert(T).second)
    return F; // too deep, or a type that contains itself
  auto Mul = [](uint64_t A, uint64_t B) {
    return A && B > ~uint64_t{0} / A ? ~uint64_t{0} : A * B;
  };
  const InstRef D = M.def(T);
  const Op O = D == Module::NoInst ? Op::OpNop : M.inst(D).Opcode;
  switch (O) {
  case Op::OpNop:
    break;
  case Op::OpTypeFloat:
    F = {true, floatWidthBit(M.operand(D, 0)), 0, 1};
    break;
  case Op::OpTypeVector:
  case Op::OpTypeMatrix:
  case Op::OpTypeArray:
  case Op::OpTypeRuntimeArray: {
    const TypeFacts E = facts(M.operand(D, 0), Depth + 1);
    F.Ok = E.Ok;
    F.FloatWidths = E.FloatWidths;
    F.MatrixWidths = O == Op::OpTypeMatrix ? E.FloatWidths : E.MatrixWidths;
    uint64_t N = ~uint64_t{0};
    if (O == Op::OpTypeVector || O == Op::OpTypeMatrix) {
      N = M.operand(D, 1);
    } else if (O == Op::OpTypeArray) {
      // Element-wise copies need the length as a literal: OpConstant only.
      const InstRef L = M.def(M.operand(D, 1));
      F.Ok &= L != Module::NoInst;
      uint64_t Len;
      if (L != Module::NoInst && M.inst(L).Opcode == Op::OpConstant &&
          constantValue(M.operand(D, 1), Len))
        N = Len;
    }
    F.Leaves = Mul(E.Leaves, N);
    break;
  }
  case Op::OpTypeStruct:
    F.Ok = true;
    for (uint32_t K = 0; K < M.numOperands(D); ++K) {
      const TypeFacts E = facts(M.operand(D, K), Depth + 1);
      F.Ok &= E.Ok;
      F.FloatWidths |= E.FloatWidths;
      F.MatrixWidths |= E.MatrixWidths;
      F.Leaves = F.Leaves + E.Leaves < F.Leaves ? ~uint64_t{0} : F.Leaves + E.Leaves;
    }
    break;
  default:
    // Any other type is a leaf (pointers are not followed); anything that
    // is not a type is malformed here.
    F.Ok = grammar::isTypeDeclaration(O);
    F.Leaves = 1;
    break;
  }
  FactsInProgress.erase(T);
  Facts[T] = F;
  return F;
}

void BodyEdits::apply(Module &M) {
  if (InsertBefore.empty() && InsertAfter.empty())
    return;
  for (Function &F : M.functions())
    for (Block &B : F.Blocks) {
      std::vector<InstRef> Body;
      Body.reserve(B.Body.size());
      for (InstRef R : B.Body) {
        if (auto It = InsertBefore.find(R); It != InsertBefore.end())
          Body.insert(Body.end(), It->second.begin(), It->second.end());
        if (!Dropped.count(R))
          Body.push_back(R);
        if (auto It = InsertAfter.find(R); It != InsertAfter.end())
          Body.insert(Body.end(), It->second.begin(), It->second.end());
      }
      B.Body = std::move(Body);
    }
}

} // namespace fatomic::spirv
