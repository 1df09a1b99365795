//===- FuzzPassMutate.cpp - Fuzz target: the pass on mutated valid modules ===//
//
// Structure-aware: the mutator knows the SPIR-V word layout (header,
// instructions with a word count and an opcode) and changes a valid module
// the way a broken producer would: an operand word becomes another id, a
// small or extreme constant, or a flipped bit; two ids swap; a word count
// shrinks or grows; an opcode changes (often into an atomic, an access
// chain or a pointer-producing one); an instruction is deleted, duplicated
// or moved; the header's bound, version or option byte changes.  One time in
// four only the option byte changes (a valid module stays valid); one time
// in sixteen it falls back to libFuzzer's byte-level mutations.
//
// Each input is validated with spirv-val first.  Every input goes through
// fatomic::fuzz::checkPass (no output holds a Logical pointer bitcast); a
// valid one additionally must give valid output, or a failure that does not
// call the input malformed.
//
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"

#include <spirv/unified1/spirv.hpp11>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <random>

#ifdef FATOMIC_LIBFUZZER
extern "C" size_t LLVMFuzzerMutate(uint8_t *Data, size_t Size, size_t MaxSize);

namespace {

using spv::Op;

constexpr uint32_t Extremes[] = {0,          1,          2,          3,
                                 4,          5,          0x40,       0x102,
                                 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 0x3FFFFF,
                                 0x400000,   0xFFFF};

constexpr Op InterestingOps[] = {
    Op::OpAtomicFMinEXT,   Op::OpAtomicFMaxEXT,     Op::OpAtomicLoad,
    Op::OpAtomicStore,     Op::OpAtomicSMin,        Op::OpAtomicUMax,
    Op::OpAtomicIAdd,      Op::OpAtomicExchange,    Op::OpAtomicCompareExchange,
    Op::OpAccessChain,     Op::OpInBoundsAccessChain, Op::OpPtrAccessChain,
    Op::OpPhi,             Op::OpSelect,            Op::OpCopyObject,
    Op::OpBitcast,         Op::OpFunctionParameter, Op::OpVariable,
    Op::OpImageTexelPointer, Op::OpLoad,            Op::OpStore,
    Op::OpCopyMemory,      Op::OpFunctionCall,      Op::OpTypeFloat,
    Op::OpTypePointer,     Op::OpTypeStruct,        Op::OpTypeArray,
    Op::OpTypeRuntimeArray, Op::OpTypeMatrix,       Op::OpConstant,
    Op::OpConstantNull,    Op::OpLabel,             Op::OpBranch,
    Op::OpLoopMerge,       Op::OpSelectionMerge,    Op::OpReturn,
    Op::OpFunctionEnd,     Op::OpDecorate,          Op::OpMemberDecorate,
    Op::OpEntryPoint,      Op::OpExecutionMode,     Op::OpCapability,
    Op::OpMemoryModel,     Op::OpSpecConstant};

struct Layout {
  std::vector<size_t> Starts; ///< word index of each instruction
  std::vector<uint32_t> Ids;  ///< ids defined or used (type/result words)
};

Layout scan(const std::vector<uint32_t> &W) {
  Layout L;
  const uint32_t Bound = W[3];
  for (size_t I = 5; I < W.size();) {
    const uint32_t N = W[I] >> 16;
    if (N == 0 || I + N > W.size())
      break;
    L.Starts.push_back(I);
    for (size_t K = I + 1; K < I + N && K < I + 3; ++K)
      if (W[K] > 0 && W[K] < Bound)
        L.Ids.push_back(W[K]);
    I += N;
  }
  return L;
}

size_t wordsOf(const std::vector<uint32_t> &W, size_t Start) {
  return std::max<size_t>(1, std::min<size_t>(W[Start] >> 16, W.size() - Start));
}

void mutateOnce(std::vector<uint32_t> &W, std::minstd_rand &Rng) {
  const Layout L = scan(W);
  auto Pick = [&](size_t N) { return size_t(Rng() % N); };
  auto AnyId = [&]() -> uint32_t {
    if (!L.Ids.empty() && Rng() % 8)
      return L.Ids[Pick(L.Ids.size())];
    return 1 + uint32_t(Rng() % std::max<uint32_t>(W[3] + 2, 2));
  };
  const unsigned What = L.Starts.empty() ? 9 : unsigned(Rng() % 12);
  const size_t S = L.Starts.empty() ? 0 : L.Starts[Pick(L.Starts.size())];
  const size_t N = L.Starts.empty() ? 0 : wordsOf(W, S);
  switch (What) {
  case 0:
  case 1:
  case 2: { // one operand word
    if (N < 2)
      return;
    uint32_t &Word = W[S + 1 + Pick(N - 1)];
    switch (Rng() % 5) {
    case 0:
    case 1:
      Word = AnyId();
      break;
    case 2:
      Word = Extremes[Pick(std::size(Extremes))];
      break;
    case 3:
      Word ^= uint32_t{1} << Pick(32);
      break;
    default:
      Word += Rng() % 2 ? 1 : uint32_t(-1);
      break;
    }
    return;
  }
  case 3: { // swap two ids, in one instruction or everywhere
    const uint32_t A = AnyId(), B = AnyId();
    const bool All = Rng() % 4 == 0;
    const size_t From = All ? 5 : S + 1, To = All ? W.size() : S + N;
    for (size_t K = From; K < To; ++K) {
      if (All && std::binary_search(L.Starts.begin(), L.Starts.end(), K))
        continue;
      if (W[K] == A)
        W[K] = B;
      else if (W[K] == B)
        W[K] = A;
    }
    return;
  }
  case 4: { // word count
    uint32_t Count = W[S] >> 16;
    switch (Rng() % 4) {
    case 0:
      Count = Count ? Count - 1 : 0;
      break;
    case 1:
      Count = Count + 1;
      break;
    case 2:
      Count = 0;
      break;
    default:
      Count = uint32_t(Rng() & 0xFFFF);
      break;
    }
    W[S] = (Count << 16) | (W[S] & 0xFFFF);
    return;
  }
  case 5:
  case 6: { // opcode
    uint32_t Opcode;
    const unsigned K = Rng() % 4;
    if (K < 2)
      Opcode = uint32_t(InterestingOps[Pick(std::size(InterestingOps))]);
    else if (K == 2)
      Opcode = W[L.Starts[Pick(L.Starts.size())]] & 0xFFFF;
    else
      Opcode = Rng() & 0xFFFF;
    W[S] = (W[S] & 0xFFFF0000) | Opcode;
    return;
  }
  case 7: // delete an instruction
    W.erase(W.begin() + S, W.begin() + S + N);
    return;
  case 8:
  case 10: { // duplicate or move an instruction
    const std::vector<uint32_t> Copy(W.begin() + S, W.begin() + S + N);
    if (What == 10)
      W.erase(W.begin() + S, W.begin() + S + N);
    const Layout After = What == 10 ? scan(W) : L;
    const size_t At = After.Starts.empty() ? W.size()
                                           : After.Starts[Pick(After.Starts.size())];
    W.insert(W.begin() + At, Copy.begin(), Copy.end());
    return;
  }
  default: { // header
    switch (Rng() % 6) {
    case 0: {
      const uint32_t Bounds[] = {0, 1, W[3] - 1, W[3] + 1, 0x3FFFFF, 0x400000,
                                 0x400001, W[3] * 2};
      W[3] = Bounds[Pick(std::size(Bounds))];
      break;
    }
    case 1:
      W[1] = Rng() % 4 ? 0x00010000 | (uint32_t(Rng() % 7) << 8) : Rng();
      break;
    default: // the option byte
      W[2] = (W[2] & ~0xFFu) | (Rng() & 0xFF);
      break;
    }
    return;
  }
  }
}

} // namespace

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *Data, size_t Size,
                                          size_t MaxSize, unsigned Seed) {
  std::minstd_rand Rng(Seed);
  std::vector<uint32_t> W = fatomic::fuzz::toWords(Data, Size);
  if (W.size() < 6 || W[0] != spv::MagicNumber || Rng() % 16 == 0)
    return LLVMFuzzerMutate(Data, Size, MaxSize);
  if (Rng() % 4 == 0) {
    // Options only: a valid module stays valid and meets another lowering.
    W[2] = (W[2] & ~0xFFu) | (Rng() & 0xFF);
  } else {
    const unsigned Rounds = Rng() % 4 ? 1 : 2;
    for (unsigned I = 0; I < Rounds && W.size() > 5; ++I)
      mutateOnce(W, Rng);
  }
  const size_t Bytes = std::min(W.size() * 4, MaxSize & ~size_t{3});
  std::memcpy(Data, W.data(), Bytes);
  return Bytes;
}
#endif // FATOMIC_LIBFUZZER

namespace {

// How many inputs were valid, and what the pass made of those: printed at
// exit, so that a run shows how much of it exercised the valid-input checks.
struct Counts {
  unsigned long long Inputs = 0, Valid = 0, Lowered = 0, Unchanged = 0, Failed = 0;
  ~Counts() {
    if (Inputs)
      std::fprintf(stderr,
                   "fuzz-pass-mutate: %llu inputs, %llu valid: %llu lowered, "
                   "%llu unchanged, %llu rejected with an error\n",
                   Inputs, Valid, Lowered, Unchanged, Failed);
  }
} TheCounts;

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  const std::vector<uint32_t> Words = fatomic::fuzz::toWords(Data, Size);
  const bool Valid = Words.size() >= 5 && fatomic::fuzz::validates(Words);
  const fatomic::PassStatus S = fatomic::fuzz::checkPass(Words, Valid);
  ++TheCounts.Inputs;
  if (Valid) {
    ++TheCounts.Valid;
    ++(S == fatomic::PassStatus::SuccessWithChange      ? TheCounts.Lowered
       : S == fatomic::PassStatus::SuccessWithoutChange ? TheCounts.Unchanged
                                                        : TheCounts.Failed);
  }
  return 0;
}
