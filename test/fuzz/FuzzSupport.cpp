//===- FuzzSupport.cpp - Shared pieces of the fuzz targets ----------------===//

#include "FuzzSupport.h"

#include "Module.h"
#include "fatomic/LowerFloatAtomicMinMax.h"

#include <spirv-tools/libspirv.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace fatomic::fuzz {

using spirv::InstRef;
using spirv::Module;
using spirv::Op;
using spirv::Section;

void fail(const std::string &What) {
  std::fprintf(stderr, "fuzz invariant broken: %s\n", What.c_str());
  std::abort();
}

std::vector<uint32_t> toWords(const uint8_t *Data, size_t Size) {
  std::vector<uint32_t> Words(Size / 4);
  if (!Words.empty())
    std::memcpy(Words.data(), Data, Words.size() * 4);
  return Words;
}

PassConfig configFor(const std::vector<uint32_t> &Words) {
  const uint32_t Bits = Words.size() > 2 ? Words[2] & 0xFF : 0;
  PassConfig C;
  switch (Bits & 3) {
  case 1:
    C.Options.Nan = NanPolicy::Number;
    break;
  case 2:
    C.Options.Nan = NanPolicy::Propagate;
    break;
  case 3:
    C.Options.Nan = NanPolicy::Fast;
    break;
  default:
    break;
  }
  if (Bits & 4)
    C.Options.Strat = Strategy::Cas;
  if (Bits & 8)
    C.Options.EarlyOut = false;
  if (Bits & 16)
    C.Options.Native.push_back(Feature::ShaderBufferFloat32AtomicMinMax);
  if (Bits & 32)
    C.Options.Native.push_back(Feature::ShaderSharedFloat32AtomicMinMax);
  if (Bits & 64) {
    C.Target.set(Feature::ShaderBufferInt64Atomics, false);
    C.Target.set(Feature::ShaderSharedInt64Atomics, false);
  }
  if (Bits & 128)
    C.Options.RetypeImages = true;
  // The generator word's ninth bit: subgroup aggregation.
  if (Words.size() > 2 && (Words[2] & 0x100))
    C.Options.Aggregate = Aggregation::Subgroup;
  return C;
}

namespace {

bool hasCapability(const std::vector<uint32_t> &Words, spv::Capability Cap) {
  for (size_t I = 5; I < Words.size();) {
    const uint32_t N = Words[I] >> 16;
    if (N == 0 || I + N > Words.size())
      return false;
    if ((Words[I] & 0xFFFF) == uint32_t(Op::OpCapability) && N == 2 &&
        Words[I + 1] == uint32_t(Cap))
      return true;
    I += N;
  }
  return false;
}

spv_target_env envFor(const std::vector<uint32_t> &Words) {
  if (hasCapability(Words, spv::Capability::Kernel) ||
      !hasCapability(Words, spv::Capability::Shader))
    return SPV_ENV_UNIVERSAL_1_6;
  return Words.size() > 1 && Words[1] >= 0x00010600 ? SPV_ENV_VULKAN_1_3
                                                     : SPV_ENV_VULKAN_1_2;
}

bool validatesIn(spv_target_env Env, const std::vector<uint32_t> &Words,
                 std::string *Why) {
  spvtools::SpirvTools Tools(Env);
  Tools.SetMessageConsumer([Why](spv_message_level_t, const char *,
                                 const spv_position_t &, const char *M) {
    if (Why && Why->empty())
      *Why = M;
  });
  return Tools.Validate(Words);
}

/// An OpBitcast that produces or takes a pointer that is not a
/// PhysicalStorageBuffer pointer, in a Logical-addressing module.
std::string logicalPointerBitcast(const Module &M) {
  if (!M.isLogical())
    return {};
  auto IsLogicalPtrType = [&](uint32_t T) {
    const InstRef D = M.def(T);
    return D != Module::NoInst && M.inst(D).Opcode == Op::OpTypePointer &&
           M.operand(D, 0) != uint32_t(spv::StorageClass::PhysicalStorageBuffer);
  };
  std::string Found;
  for (const spirv::Function &F : M.functions())
    for (const spirv::Block &B : F.Blocks)
      for (InstRef R : B.Body) {
        const spirv::Inst &I = M.inst(R);
        if (I.Opcode != Op::OpBitcast || I.Count < 1)
          continue;
        const InstRef Src = M.def(M.operand(R, 0));
        if (IsLogicalPtrType(I.TypeId) ||
            (Src != Module::NoInst && IsLogicalPtrType(M.inst(Src).TypeId)))
          Found = M.describe(R);
      }
  return Found;
}

struct Outcome {
  PassStatus Status;
  FailureKind Kind;
  std::vector<uint32_t> Words;
  unsigned Errors = 0;
  std::string FirstError;
};

Outcome runPass(const PassConfig &C, std::vector<uint32_t> Words) {
  LowerFloatAtomicMinMaxPass Pass(C.Options, C.Target);
  Outcome O;
  Pass.SetMessageConsumer([&O](spv_message_level_t Level, const char *,
                               const spv_position_t &, const char *Text) {
    if (Level <= SPV_MSG_ERROR) {
      if (!O.Errors++)
        O.FirstError = Text ? Text : "";
      if (!Text || !*Text)
        fail("an error with an empty message");
    }
  });
  O.Status = Pass.Process(Words);
  O.Kind = Pass.lastFailure();
  O.Words = std::move(Words);
  return O;
}

} // namespace

bool validates(const std::vector<uint32_t> &Words) {
  if (!validatesIn(envFor(Words), Words, nullptr))
    return false;
  // spirv-val 2023.1 accepts an OpBitcast of a Logical pointer, which newer
  // validators (logical pointer restrictions, 2025) reject: such an input
  // counts as invalid, and the pass may call it malformed.
  Module M;
  std::string Error;
  if (!M.parse(Words.data(), Words.size(), Error))
    return true;
  if (!logicalPointerBitcast(M).empty())
    return false;
  // Nor does a decoration group hide what spirv-val 2023.1 checks only on
  // plain decorations: a group that puts BufferBlock on a member passes, the
  // same decoration written as OpMemberDecorate does not; a group that
  // carries Offset 256 and Offset 16 gives its target Offset twice, which
  // passes through the group only.  Such an input counts as invalid too (the
  // pass writes groups out; identical duplicates it writes once).
  const std::vector<InstRef> &Notes = M.section(Section::Annotation);
  if (std::none_of(Notes.begin(), Notes.end(), [&](InstRef R) {
        return M.inst(R).Opcode == Op::OpGroupMemberDecorate ||
               M.inst(R).Opcode == Op::OpGroupDecorate;
      }))
    return true;
  M.flattenDecorationGroups();
  std::string Why;
  return validatesIn(envFor(Words), M.emit(), &Why) ||
         (Why.find("cannot be applied to structure members") == std::string::npos &&
          Why.find("multiple times is not allowed") == std::string::npos);
}

PassStatus checkPass(const std::vector<uint32_t> &Words, bool InputValid) {
  const PassConfig C = configFor(Words);
  const Outcome O = runPass(C, Words);
  if (O.Status == PassStatus::Failure) {
    if (O.Words != Words)
      fail("the pass failed but changed the words");
    if (O.Errors == 0)
      fail("the pass failed without reporting an error");
    if (O.Kind == FailureKind::None)
      fail("the pass failed with FailureKind::None");
    if (InputValid && O.Kind == FailureKind::InvalidModule)
      fail("a module that spirv-val accepts was called malformed: " +
           O.FirstError);
    return O.Status;
  }
  if (O.Errors)
    fail("the pass succeeded but reported an error: " + O.FirstError);
  if (O.Status == PassStatus::SuccessWithoutChange && O.Words != Words)
    fail("SuccessWithoutChange, but the words changed");

  const Outcome Again = runPass(C, Words);
  if (Again.Status != O.Status || Again.Words != O.Words)
    fail("two runs on the same input gave different results");
  if (O.Status == PassStatus::SuccessWithoutChange)
    return O.Status;

  Module M;
  std::string Error;
  if (!M.parse(O.Words.data(), O.Words.size(), Error))
    fail("the output does not parse: " + Error);
  // The pass never makes an OpBitcast of a Logical pointer and refuses an
  // input that has one, whatever else is wrong with it.
  const std::string Cast = logicalPointerBitcast(M);
  if (!Cast.empty())
    fail("OpBitcast of a Logical pointer in the output: " + Cast);
  // What an invalid input turns into is not specified beyond this point.
  if (!InputValid)
    return O.Status;
  const Outcome Second = runPass(C, O.Words);
  if (Second.Status != PassStatus::SuccessWithoutChange)
    fail("a second run over the output did not leave it alone" +
         (Second.Errors ? ": " + Second.FirstError : std::string()));
  std::string Why;
  if (!validatesIn(envFor(Words), O.Words, &Why))
    fail("valid input, invalid output: " + Why);
  return O.Status;
}

} // namespace fatomic::fuzz
