//===- SpirvInfo.cpp - What a SPIR-V module needs from a Vulkan device ----===//

#include "SpirvInfo.h"

#include "Grammar.h"
#include "Module.h"

namespace vkrun {

namespace {

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

/// The (set, binding) of every variable that an instruction in a function
/// uses (decorations, names and entry point lists are not uses).
void readDescriptors(fatomic::spirv::Module &M, SpirvInfo &Info) {
  using fatomic::spirv::Section;
  std::map<uint32_t, std::pair<uint32_t, uint32_t>> Decorated; // id -> (set, binding)
  for (auto R : M.section(Section::Annotation)) {
    if (M.inst(R).Opcode != spv::Op::OpDecorate || M.numOperands(R) < 3)
      continue;
    const auto D = static_cast<spv::Decoration>(M.operand(R, 1));
    if (D == spv::Decoration::DescriptorSet) {
      Decorated[M.operand(R, 0)].first = M.operand(R, 2);
    } else if (D == spv::Decoration::Binding) {
      Decorated[M.operand(R, 0)].second = M.operand(R, 2);
    }
  }
  if (Decorated.empty())
    return;
  M.buildUses();
  for (const auto &[Id, SetBinding] : Decorated)
    for (const auto &U : M.uses(Id)) {
      const Section S = fatomic::spirv::grammar::section(M.inst(U.User).Opcode);
      if (S == Section::Debug || S == Section::Annotation || S == Section::EntryPoint)
        continue;
      const std::string Name = M.nameOf(Id);
      Info.Descriptors.emplace(SetBinding, Name.empty() ? "%" + std::to_string(Id) : Name);
      break;
    }
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
  // The project's module reader: bounds-checked, words in the host's byte
  // order (as Vulkan drivers take them).
  fatomic::spirv::Module M;
  if (!M.parse(W.data(), W.size(), Error))
    return false;
  Info.Version = M.version();
  using fatomic::spirv::Section;
  for (auto R : M.section(Section::Capability))
    Info.Capabilities.insert(M.operand(R, 0));
  for (auto R : M.section(Section::Extension))
    Info.Extensions.insert(M.stringOperand(R, 0));
  for (auto R : M.section(Section::EntryPoint)) {
    const auto Model = static_cast<spv::ExecutionModel>(M.operand(R, 0));
    if (Model == spv::ExecutionModel::GLCompute)
      Info.ComputeEntryPoints.push_back(M.stringOperand(R, 2));
    else if (Model == spv::ExecutionModel::RayGenerationKHR)
      Info.RayGenerationEntryPoints.push_back(M.stringOperand(R, 2));
  }

  for (const auto &F : M.functions())
    for (const auto &B : F.Blocks)
      for (auto R : B.Body) {
        const auto &I = M.inst(R);
        uint32_t Pointer = 0;
        switch (I.Opcode) {
        case spv::Op::OpAtomicStore:
        case spv::Op::OpAtomicFlagClear:
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
          Pointer = M.operand(R, 0);
          break;
        default:
          continue;
        }
        if (I.Opcode == spv::Op::OpAtomicFMinEXT || I.Opcode == spv::Op::OpAtomicFMaxEXT)
          ++Info.FloatMinMaxCount;
        const auto PtrDef = M.def(Pointer);
        const uint32_t PtrType =
            PtrDef == fatomic::spirv::Module::NoInst ? 0 : M.inst(PtrDef).TypeId;
        if (M.opOf(PtrType) != spv::Op::OpTypePointer) {
          Error = "malformed SPIR-V: atomic pointer %" + std::to_string(Pointer) +
                  " has no pointer type";
          return false;
        }
        const auto PT = M.def(PtrType);
        // The value type: the result type, or the pointee for stores.
        const uint32_t ValueType = I.TypeId ? I.TypeId : M.operand(PT, 1);
        AtomicUse U{AtomicKind::IntAny, memoryOf(M.operand(PT, 0)), 32};
        if (const unsigned Width = M.scalarWidth(ValueType))
          U.Width = Width;
        if (M.opOf(ValueType) == spv::Op::OpTypeFloat) {
          switch (I.Opcode) {
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
        }
        Info.Atomics.insert(U);
      }
  readDescriptors(M, Info);
  return true;
}

} // namespace vkrun
