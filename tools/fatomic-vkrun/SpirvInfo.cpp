//===- SpirvInfo.cpp - What a SPIR-V module needs from a Vulkan device ----===//

#include "SpirvInfo.h"

#define SPV_ENABLE_UTILITY_CODE
#include <spirv/unified1/spirv.hpp11>

#include <map>

namespace vkrun {

namespace {

struct TypeInfo {
  enum { Other, Int, Float, Pointer } Kind = Other;
  unsigned Width = 0;
  uint32_t StorageClass = 0;
  uint32_t Pointee = 0;
};

AtomicMemory memoryOf(uint32_t SC) {
  switch (static_cast<spv::StorageClass>(SC)) {
  case spv::StorageClass::Uniform:
  case spv::StorageClass::StorageBuffer:
  case spv::StorageClass::PhysicalStorageBuffer:
    return AtomicMemory::Buffer;
  case spv::StorageClass::Workgroup:
    return AtomicMemory::Shared;
  case spv::StorageClass::Image:
    return AtomicMemory::Image;
  default:
    return AtomicMemory::Other;
  }
}

std::string literalString(const std::vector<uint32_t> &W, size_t Begin,
                          size_t End) {
  std::string S;
  for (size_t I = Begin; I < End; ++I)
    for (int B = 0; B < 4; ++B) {
      char C = static_cast<char>((W[I] >> (8 * B)) & 0xFF);
      if (C == 0)
        return S;
      S.push_back(C);
    }
  return S;
}

} // namespace

const char *toString(AtomicMemory M) {
  switch (M) {
  case AtomicMemory::Buffer:
    return "buffer";
  case AtomicMemory::Shared:
    return "shared";
  case AtomicMemory::Image:
    return "image";
  case AtomicMemory::Other:
    return "other";
  }
  return "?";
}

const char *toString(AtomicKind K) {
  switch (K) {
  case AtomicKind::IntAny:
    return "integer";
  case AtomicKind::FloatLSX:
    return "float load/store/exchange";
  case AtomicKind::FloatAdd:
    return "float add";
  case AtomicKind::FloatMinMax:
    return "float min/max";
  case AtomicKind::FloatOther:
    return "float (other)";
  }
  return "?";
}

bool analyzeSpirv(const std::vector<uint32_t> &W, SpirvInfo &Info,
                  std::string &Error) {
  if (W.size() < 5) {
    Error = "not a SPIR-V module: shorter than its 5-word header";
    return false;
  }
  if (W[0] != spv::MagicNumber) {
    Error = "not a SPIR-V module: bad magic number";
    return false;
  }
  Info.Version = W[1];

  std::map<uint32_t, TypeInfo> Types;
  std::map<uint32_t, uint32_t> TypeOf; // result id -> result type id
  struct Pending {
    spv::Op Op;
    uint32_t ResultType;
    uint32_t Pointer;
  };
  std::vector<Pending> Atomics;

  size_t I = 5;
  while (I < W.size()) {
    const uint32_t WordCount = W[I] >> 16;
    const auto Op = static_cast<spv::Op>(W[I] & 0xFFFF);
    if (WordCount == 0 || I + WordCount > W.size()) {
      Error = "malformed SPIR-V: instruction at word " + std::to_string(I) +
              " runs past the end of the module";
      return false;
    }
    const size_t End = I + WordCount;
    auto Arg = [&](size_t K) -> uint32_t {
      return I + 1 + K < End ? W[I + 1 + K] : 0;
    };
    switch (Op) {
    case spv::Op::OpCapability:
      Info.Capabilities.insert(Arg(0));
      break;
    case spv::Op::OpExtension:
      Info.Extensions.insert(literalString(W, I + 1, End));
      break;
    case spv::Op::OpEntryPoint:
      if (Arg(0) == static_cast<uint32_t>(spv::ExecutionModel::GLCompute))
        Info.ComputeEntryPoints.push_back(literalString(W, I + 3, End));
      break;
    case spv::Op::OpTypeInt:
      Types[Arg(0)] = {TypeInfo::Int, Arg(1), 0, 0};
      break;
    case spv::Op::OpTypeFloat:
      Types[Arg(0)] = {TypeInfo::Float, Arg(1), 0, 0};
      break;
    case spv::Op::OpTypePointer:
      Types[Arg(0)] = {TypeInfo::Pointer, 0, Arg(1), Arg(2)};
      break;
    default:
      break;
    }
    bool HasResult = false, HasResultType = false;
    spv::HasResultAndType(Op, &HasResult, &HasResultType);
    if (HasResult && HasResultType)
      TypeOf[Arg(1)] = Arg(0);

    switch (Op) {
    case spv::Op::OpAtomicStore:
    case spv::Op::OpAtomicFlagClear:
      Atomics.push_back({Op, 0, Arg(0)});
      break;
    case spv::Op::OpAtomicLoad:
    case spv::Op::OpAtomicExchange:
    case spv::Op::OpAtomicCompareExchange:
    case spv::Op::OpAtomicCompareExchangeWeak:
    case spv::Op::OpAtomicIIncrement:
    case spv::Op::OpAtomicIDecrement:
    case spv::Op::OpAtomicIAdd:
    case spv::Op::OpAtomicISub:
    case spv::Op::OpAtomicSMin:
    case spv::Op::OpAtomicUMin:
    case spv::Op::OpAtomicSMax:
    case spv::Op::OpAtomicUMax:
    case spv::Op::OpAtomicAnd:
    case spv::Op::OpAtomicOr:
    case spv::Op::OpAtomicXor:
    case spv::Op::OpAtomicFlagTestAndSet:
    case spv::Op::OpAtomicFMinEXT:
    case spv::Op::OpAtomicFMaxEXT:
    case spv::Op::OpAtomicFAddEXT:
      Atomics.push_back({Op, Arg(0), Arg(2)});
      if (Op == spv::Op::OpAtomicFMinEXT || Op == spv::Op::OpAtomicFMaxEXT)
        ++Info.FloatMinMaxCount;
      break;
    default:
      break;
    }
    I = End;
  }

  for (const Pending &P : Atomics) {
    auto PtrType = Types.find(TypeOf[P.Pointer]);
    if (PtrType == Types.end() || PtrType->second.Kind != TypeInfo::Pointer) {
      Error = "malformed SPIR-V: atomic pointer %" + std::to_string(P.Pointer) +
              " has no pointer type";
      return false;
    }
    const uint32_t ValueTypeId = P.ResultType ? P.ResultType
                                              : PtrType->second.Pointee;
    auto VT = Types.find(ValueTypeId);
    AtomicUse U{AtomicKind::IntAny, memoryOf(PtrType->second.StorageClass), 32};
    if (VT != Types.end() && VT->second.Kind == TypeInfo::Float) {
      U.Width = VT->second.Width;
      switch (P.Op) {
      case spv::Op::OpAtomicLoad:
      case spv::Op::OpAtomicStore:
      case spv::Op::OpAtomicExchange:
        U.Kind = AtomicKind::FloatLSX;
        break;
      case spv::Op::OpAtomicFAddEXT:
        U.Kind = AtomicKind::FloatAdd;
        break;
      case spv::Op::OpAtomicFMinEXT:
      case spv::Op::OpAtomicFMaxEXT:
        U.Kind = AtomicKind::FloatMinMax;
        break;
      default:
        U.Kind = AtomicKind::FloatOther;
        break;
      }
    } else if (VT != Types.end() && VT->second.Kind == TypeInfo::Int) {
      U.Width = VT->second.Width;
    }
    Info.Atomics.insert(U);
  }
  return true;
}

} // namespace vkrun
