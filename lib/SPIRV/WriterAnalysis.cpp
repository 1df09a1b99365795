//===- WriterAnalysis.cpp - Who may write a variable's memory -------------===//
//
// Owns the whole-module writer analysis of WriterAnalysis.h: which variables
// may alias a lowered atomic's variable, and which instructions may write
// them.  Everything it cannot follow makes the answer "not known".
//
//===----------------------------------------------------------------------===//

#include "WriterAnalysis.h"

#include <algorithm>
#include <cstring>

namespace fatomic::spirv {

using spv::StorageClass;

namespace {

bool isAtomicWrite(Op O) {
  switch (O) {
  case Op::OpAtomicStore:
  case Op::OpAtomicExchange:
  case Op::OpAtomicCompareExchange:
  case Op::OpAtomicCompareExchangeWeak:
  case Op::OpAtomicIIncrement:
  case Op::OpAtomicIDecrement:
  case Op::OpAtomicIAdd:
  case Op::OpAtomicISub:
  case Op::OpAtomicSMin:
  case Op::OpAtomicUMin:
  case Op::OpAtomicSMax:
  case Op::OpAtomicUMax:
  case Op::OpAtomicAnd:
  case Op::OpAtomicOr:
  case Op::OpAtomicXor:
  case Op::OpAtomicFlagTestAndSet:
  case Op::OpAtomicFlagClear:
  case Op::OpAtomicFAddEXT:
  case Op::OpAtomicFMinEXT:
  case Op::OpAtomicFMaxEXT:
    return true;
  default:
    return false;
  }
}

bool isBufferClass(StorageClass SC) {
  return SC == StorageClass::StorageBuffer || SC == StorageClass::Uniform;
}

// Malformed input (the pass reads modules that were never validated) may
// name undefined ids or make types contain themselves: type walks check
// each id's definition and stop after this many steps.
constexpr unsigned MaxTypeSteps = 256;

/// The pointee of pointer type \p Type; 0 when it is not one.
uint32_t pointeeOf(const Module &M, uint32_t Type) {
  return M.opOf(Type) == Op::OpTypePointer ? M.operand(M.def(Type), 1) : 0;
}

/// Whether \p Type is an array, sized or not.
bool isArrayType(const Module &M, uint32_t Type) {
  const Op O = M.opOf(Type);
  return O == Op::OpTypeArray || O == Op::OpTypeRuntimeArray;
}

/// The element (or column, or component) type of an array, vector or
/// matrix type; 0 for anything else.
uint32_t elementOf(const Module &M, uint32_t Type) {
  switch (M.opOf(Type)) {
  case Op::OpTypeArray:
  case Op::OpTypeRuntimeArray:
  case Op::OpTypeVector:
  case Op::OpTypeMatrix:
    return M.operand(M.def(Type), 0);
  default:
    return 0;
  }
}

} // namespace

WriterAnalysis::UseKind WriterAnalysis::classify(const Use &U) const {
  const Op O = M.inst(U.User).Opcode;
  switch (O) {
  case Op::OpName:
  case Op::OpDecorate:
  case Op::OpDecorateId:
  case Op::OpDecorateString:
  case Op::OpEntryPoint:
  case Op::OpPtrEqual:
  case Op::OpPtrNotEqual:
  case Op::OpPtrDiff:
    return UseKind::Read;
  case Op::OpLoad:
  case Op::OpAtomicLoad:
  case Op::OpArrayLength:
    return U.Word == 0 ? UseKind::Read : UseKind::Unknown;
  case Op::OpAccessChain:
  case Op::OpInBoundsAccessChain:
  case Op::OpCopyObject:
    return U.Word == 0 ? UseKind::Derive : UseKind::Unknown;
  case Op::OpStore:
    // As the stored object, the pointer itself escapes.
    return U.Word == 0 ? UseKind::Write : UseKind::Unknown;
  case Op::OpCopyMemory:
  case Op::OpCopyMemorySized:
    return U.Word == 0 ? UseKind::Write : U.Word == 1 ? UseKind::Read : UseKind::Unknown;
  case Op::OpExtInst:
    // Debug information only names the variable.
    return M.isNonSemanticSet(M.operand(U.User, 0)) ? UseKind::Read : UseKind::Unknown;
  default:
    return isAtomicWrite(O) && U.Word == 0 ? UseKind::Write : UseKind::Unknown;
  }
}

void WriterAnalysis::collectFrom(uint32_t Var, Writers &W) const {
  // Pointers with their index paths from Var.
  std::vector<std::pair<uint32_t, std::vector<uint32_t>>> Work{{Var, {}}};
  std::vector<bool> Seen(M.bound(), false);
  while (!Work.empty() && W.Known) {
    const auto [Ptr, Path] = std::move(Work.back());
    Work.pop_back();
    if (Ptr >= Seen.size() || Seen[Ptr])
      continue;
    Seen[Ptr] = true;
    for (const Use &U : M.uses(Ptr)) {
      switch (classify(U)) {
      case UseKind::Read:
        break;
      case UseKind::Write:
        W.Writes.push_back({U.User, Var, Path});
        break;
      case UseKind::Derive: {
        std::vector<uint32_t> Longer = Path;
        if (M.inst(U.User).Opcode != Op::OpCopyObject)
          for (uint32_t K = 1; K < M.numOperands(U.User); ++K)
            Longer.push_back(M.operand(U.User, K));
        Work.emplace_back(M.inst(U.User).ResultId, std::move(Longer));
        break;
      }
      case UseKind::Unknown:
        W.Known = false;
        break;
      }
    }
  }
}

bool WriterAnalysis::bindingOf(uint32_t Var, uint32_t &Set, uint32_t &Binding) const {
  bool HasSet = false, HasBinding = false;
  for (InstRef R : M.decorationsOf(Var)) {
    if (M.inst(R).Opcode != Op::OpDecorate || M.numOperands(R) < 3)
      continue;
    const auto D = spv::Decoration(M.operand(R, 1));
    if (D == spv::Decoration::DescriptorSet) {
      Set = M.operand(R, 2);
      HasSet = true;
    } else if (D == spv::Decoration::Binding) {
      Binding = M.operand(R, 2);
      HasBinding = true;
    }
  }
  return HasSet && HasBinding;
}

bool WriterAnalysis::mayAlias(uint32_t Root, std::vector<uint32_t> &Vars) const {
  const InstRef D = M.def(Root);
  if (D == Module::NoInst || M.inst(D).Opcode != Op::OpVariable)
    return false;
  const auto SC = StorageClass(M.operand(D, 0));
  // Decorations through groups are not read here; device addresses may
  // reach any buffer; explicit Workgroup layouts make blocks alias (the
  // 8-bit access capability declares it implicitly; spirv-val 2023.1 takes
  // Block Workgroup variables under the 16-bit one alone).
  for (InstRef R : M.section(Section::Annotation))
    if (M.inst(R).Opcode == Op::OpGroupDecorate ||
        M.inst(R).Opcode == Op::OpGroupMemberDecorate)
      return false;
  if (!M.isLogical() ||
      M.declaresCapability(spv::Capability::PhysicalStorageBufferAddresses) ||
      M.declaresCapability(spv::Capability::VariablePointers) ||
      M.declaresCapability(spv::Capability::VariablePointersStorageBuffer))
    return false;
  if (SC == StorageClass::Workgroup) {
    if (M.declaresCapability(spv::Capability::WorkgroupMemoryExplicitLayoutKHR) ||
        blockInWorkgroup())
      return false;
    Vars.push_back(Root);
    return true;
  }
  if (!isBufferClass(SC))
    return false;
  uint32_t Set = 0, Binding = 0;
  const bool Unsure = !bindingOf(Root, Set, Binding) ||
                      M.hasDecoration(Root, spv::Decoration::Aliased);
  for (InstRef R : M.section(Section::Global)) {
    const Inst &I = M.inst(R);
    if (I.Opcode != Op::OpVariable)
      continue;
    uint32_t S = 0, B = 0;
    const bool Apart = !Unsure && bindingOf(I.ResultId, S, B) &&
                       !(S == Set && B == Binding) &&
                       !M.hasDecoration(I.ResultId, spv::Decoration::Aliased);
    if (isBufferClass(StorageClass(M.operand(R, 0)))) {
      if (I.ResultId == Root || !Apart)
        Vars.push_back(I.ResultId);
    } else if (!Apart && writableStorageImage(I.ResultId)) {
      // A storage texel buffer may view the same buffer, and a linear
      // storage image may be bound to the same memory; their writes go
      // through loaded image objects, which the analysis does not follow.
      return false;
    }
  }
  return true;
}

bool WriterAnalysis::blockInWorkgroup() const {
  for (InstRef R : M.section(Section::Global)) {
    const Inst &I = M.inst(R);
    if (I.Opcode != Op::OpVariable || StorageClass(M.operand(R, 0)) != StorageClass::Workgroup)
      continue;
    const uint32_t Pointee = pointeeOf(M, I.TypeId);
    if (Pointee && M.hasDecoration(Pointee, spv::Decoration::Block))
      return true;
  }
  return false;
}

bool WriterAnalysis::writableStorageImage(uint32_t Var) const {
  const InstRef D = M.def(Var);
  if (StorageClass(M.operand(D, 0)) != StorageClass::UniformConstant ||
      M.hasDecoration(Var, spv::Decoration::NonWritable))
    return false;
  uint32_t T = pointeeOf(M, M.inst(D).TypeId);
  for (unsigned Step = 0; Step < MaxTypeSteps && (M.opOf(T) == Op::OpTypeArray ||
                                                 M.opOf(T) == Op::OpTypeRuntimeArray);
       ++Step)
    T = elementOf(M, T);
  if (M.opOf(T) != Op::OpTypeImage)
    return false;
  // OpTypeImage: sampled type, Dim, Depth, Arrayed, MS, Sampled (2:
  // storage; 0: known at run time).  Any Dim: a texel buffer, or an image
  // whose memory a buffer may share.
  return M.operand(M.def(T), 5) != 1;
}

const Writers &WriterAnalysis::writersOf(uint32_t Root) {
  auto [It, New] = Memo.try_emplace(Root);
  if (!New)
    return It->second;
  Writers &W = It->second;
  std::vector<uint32_t> Vars;
  W.Known = mayAlias(Root, Vars);
  for (uint32_t V : Vars) {
    if (!W.Known)
      break;
    const Writers &From = fromVariable(V);
    W.Known = From.Known;
    W.Writes.insert(W.Writes.end(), From.Writes.begin(), From.Writes.end());
  }
  return W;
}

const Writers &WriterAnalysis::fromVariable(uint32_t Var) {
  auto [It, New] = PerVariable.try_emplace(Var);
  if (New)
    collectFrom(Var, It->second);
  return It->second;
}

bool WriterAnalysis::constantOf(uint32_t Id, uint64_t &V) const {
  const InstRef D = M.def(Id);
  if (D == Module::NoInst || M.inst(D).Opcode != Op::OpConstant || M.numOperands(D) == 0)
    return false;
  V = M.operand(D, 0);
  if (M.numOperands(D) > 1)
    V |= uint64_t(M.operand(D, 1)) << 32;
  return true;
}

bool WriterAnalysis::disjoint(const Write &A, const Write &B) const {
  if (A.Var != B.Var)
    return false;
  uint32_t Type = pointeeOf(M, M.inst(M.def(A.Var)).TypeId);
  const size_t N = std::min({A.Path.size(), B.Path.size(), size_t{MaxTypeSteps}});
  size_t K = 0;
  // An index that is not a constant proves nothing about sameness, even
  // where both paths use the same id: its value differs from one
  // invocation to the next, and the write races with the atomic of
  // another invocation.
  if (descriptorArray(A.Var)) {
    // Two descriptors of an array may name the same buffer, or overlapping
    // ranges of one: only the same descriptor (the same constant index at
    // every array level above the block, an array of arrays in OpenGL
    // having several) lets deeper indices count.
    for (; Type && isArrayType(M, Type); ++K) {
      uint64_t X = 0, Y = 0;
      if (K == N || !(constantOf(A.Path[K], X) && constantOf(B.Path[K], Y) && X == Y))
        return false;
      Type = elementOf(M, Type);
    }
  }
  for (; K < N && Type; ++K) {
    uint64_t X = 0, Y = 0;
    const bool Constants = constantOf(A.Path[K], X) && constantOf(B.Path[K], Y);
    if (Constants && X != Y)
      return Layout.apart(Type, X, Y);
    // Another, dynamic element of an array whose elements overlap (an
    // ArrayStride below the element's size) may share bytes with any
    // deeper part of this one.
    if (!(Constants && X == Y) && !Layout.elementsApart(Type))
      return false;
    if (M.opOf(Type) != Op::OpTypeStruct)
      Type = elementOf(M, Type);
    else if (Constants && X < M.numOperands(M.def(Type)))
      Type = M.operand(M.def(Type), uint32_t(X));
    else
      return false;
  }
  return false;
}

bool WriterAnalysis::descriptorArray(uint32_t Var) const {
  const InstRef D = M.def(Var);
  if (!isBufferClass(StorageClass(M.operand(D, 0))))
    return false;
  const Op Pointee = M.opOf(pointeeOf(M, M.inst(D).TypeId));
  return Pointee == Op::OpTypeArray || Pointee == Op::OpTypeRuntimeArray;
}

bool ExplicitLayout::literal(uint32_t Id, spv::Decoration D, uint64_t &V,
                             int64_t Member) const {
  for (InstRef R : M.decorationsOf(Id)) {
    const bool IsMember = M.inst(R).Opcode == Op::OpMemberDecorate;
    if (!IsMember && M.inst(R).Opcode != Op::OpDecorate)
      continue;
    const uint32_t At = IsMember ? 2 : 1;
    if ((Member >= 0) != IsMember || (IsMember && M.operand(R, 1) != uint64_t(Member)) ||
        M.numOperands(R) <= At + 1 || spv::Decoration(M.operand(R, At)) != D)
      continue;
    V = M.operand(R, At + 1);
    return true;
  }
  return false;
}

uint64_t ExplicitLayout::size(uint32_t Type, unsigned Depth) const {
  const Op O = M.opOf(Type);
  if (Depth > MaxTypeSteps || O == Op::OpNop)
    return 0;
  const InstRef D = M.def(Type);
  uint64_t V = 0, Stride = 0;
  switch (O) {
  case Op::OpTypeInt:
  case Op::OpTypeFloat:
    return M.operand(D, 0) / 8;
  case Op::OpTypeVector:
    return M.operand(D, 1) * size(M.operand(D, 0), Depth + 1);
  case Op::OpTypeArray: {
    const InstRef L = M.def(M.operand(D, 1));
    if (!literal(Type, spv::Decoration::ArrayStride, Stride) || L == Module::NoInst ||
        M.inst(L).Opcode != Op::OpConstant || size(M.operand(D, 0), Depth + 1) == 0)
      return 0;
    return uint64_t(M.operand(L, 0)) * Stride;
  }
  case Op::OpTypeStruct: {
    uint64_t End = 0;
    for (uint32_t K = 0; K < M.numOperands(D); ++K) {
      const uint64_t Size = size(M.operand(D, K), Depth + 1);
      if (Size == 0 || !literal(Type, spv::Decoration::Offset, V, K))
        return 0;
      End = std::max(End, V + Size);
    }
    return End;
  }
  default:
    return 0;
  }
}

bool ExplicitLayout::elementsApart(uint32_t Type) const {
  uint64_t Stride = 0;
  switch (M.opOf(Type)) {
  case Op::OpTypeVector:
    return true;
  case Op::OpTypeArray:
  case Op::OpTypeRuntimeArray: {
    if (!literal(Type, spv::Decoration::ArrayStride, Stride))
      return true;
    const uint64_t Size = size(M.operand(M.def(Type), 0));
    return Size != 0 && Stride >= Size;
  }
  default:
    return false; // a matrix's stride is on the member that holds it
  }
}

bool ExplicitLayout::apart(uint32_t Type, uint64_t X, uint64_t Y) const {
  if (M.opOf(Type) != Op::OpTypeStruct)
    return elementsApart(Type);
  const InstRef D = M.def(Type);
  if (X >= M.numOperands(D) || Y >= M.numOperands(D))
    return false;
  uint64_t OffX = 0, OffY = 0;
  const bool HasX = literal(Type, spv::Decoration::Offset, OffX, int64_t(X));
  const bool HasY = literal(Type, spv::Decoration::Offset, OffY, int64_t(Y));
  if (!HasX && !HasY)
    return true;
  if (!HasX || !HasY)
    return false;
  // [Off, Off + size): a size of 0 (unknown) reaches to the end.
  const uint64_t SizeX = size(M.operand(D, uint32_t(X)));
  const uint64_t SizeY = size(M.operand(D, uint32_t(Y)));
  if (OffX < OffY)
    return SizeX != 0 && OffX + SizeX <= OffY;
  return SizeY != 0 && OffY + SizeY <= OffX;
}

} // namespace fatomic::spirv
