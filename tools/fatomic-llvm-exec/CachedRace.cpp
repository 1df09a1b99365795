//===- CachedRace.cpp - The bound cache's kernels racing other writers ----===//
//
// Scenario `cached` of fatomic-llvm-race.  The bound cache skips an atomic
// whose operand cannot change what memory held after the thread's previous
// access (docs/semantics.md, "The bound cache in the LLVM pass"); it is
// exact whatever other threads write because the kernel's thread
// synchronizes with nothing, so its relaxed atomics need only be coherent:
// there must be one order of all accesses to the word, consistent with each
// thread's program order, in which every operation returns what the word
// held before it and the word ends as it did.  This scenario checks exactly
// that, round after round.
//
// Kernels (one per operation and scalar type; all spir_kernel, so that the
// cache applies, and monotonic):
//   race.cached.seq.<op>.<type>(ptr %p, ptr %vals, ptr %out)
//       eight atomics on %p with operands %vals[0..7], written out; their
//       results stored to %out[0..7] after the last one
//   race.cached.unused.<op>.<type>(ptr %p, ptr %vals)
//       the same with the results unused
//   race.cached.loop.<op>.<type>(ptr %p, ptr %vals, ptr %out, i32 %n)
//       a loop of %n atomics, each result folded into a hash
//       (h = h * 1000003 ^ zext(bits)) stored to %out after the loop
//
// Each round sets the word to a value of a small pool (numbers from -2 to
// 10, both zeros, NaNs of both signs), thread A runs the kernel on eight
// operands of the pool (mostly numbers from 1 to 8, so that many are no-ops
// the cache skips), and thread B makes three writes to the word, each an
// exchange, a compare-exchange (expecting a value the word may hold), a
// store, or a call of the lowered atomic of the opposite or the same
// direction (race.<op>.<type>.monotonic), with a few pauses between them.
// The round is explained when some interleaving of A's eight and B's three
// operations, each applied with fatomic::referenceApply under the kernel's
// NaN policy, gives every returned value that was observed (A's, or their
// hash, and B's) and the final word.
//
//===----------------------------------------------------------------------===//

#include "CachedRace.h"

#include "KernelTables.h"
#include "RaceHarness.h"

#include "fatomic/Reference.h"

#include <dlfcn.h>

#include <cinttypes>
#include <cstring>
#include <memory>
#include <cstdio>
#include <set>
#include <utility>
#include <vector>

namespace fatomic {
namespace hosttools {
namespace {

constexpr unsigned OpsA = 8; ///< thread A's atomics in a round
constexpr unsigned OpsB = 3; ///< thread B's writes in a round

//===----------------------------------------------------------------------===//
// The kernels
//===----------------------------------------------------------------------===//

/// The kernel shapes, by the first part of their names.
enum class Shape { Seq, Unused, Loop };
constexpr const char *ShapeNames[] = {"seq", "unused", "loop"};

void emitStraight(const RmwOp &R, const ScalarType &T, bool Used) {
  const unsigned W = T.Width;
  std::printf("\ndefine spir_kernel void @\"race.cached.%s.%s.%s\"(ptr %%p, "
              "ptr %%vals%s) {\n",
              Used ? "seq" : "unused", R.Name, T.Short,
              Used ? ", ptr %out" : "");
  for (unsigned I = 0; I < OpsA; ++I)
    std::printf("  %%vp%u = getelementptr i%u, ptr %%vals, i64 %u\n"
                "  %%b%u = load i%u, ptr %%vp%u, align %u\n"
                "  %%v%u = bitcast i%u %%b%u to %s\n"
                "  %%r%u = atomicrmw %s ptr %%p, %s %%v%u monotonic, align %u\n",
                I, W, I, I, W, I, W / 8, I, W, I, T.IR, I, R.Name, T.IR, I,
                W / 8);
  for (unsigned I = 0; Used && I < OpsA; ++I)
    std::printf("  %%rb%u = bitcast %s %%r%u to i%u\n"
                "  %%op%u = getelementptr i%u, ptr %%out, i64 %u\n"
                "  store i%u %%rb%u, ptr %%op%u, align %u\n",
                I, T.IR, I, W, I, W, I, W, I, I, W / 8);
  std::printf("  ret void\n}\n");
}

void emitLoop(const RmwOp &R, const ScalarType &T) {
  const unsigned W = T.Width;
  std::printf(
      "\ndefine spir_kernel void @\"race.cached.loop.%s.%s\"(ptr %%p, "
      "ptr %%vals, ptr %%out, i32 %%n) {\n"
      "entry:\n"
      "  %%any = icmp ne i32 %%n, 0\n"
      "  br i1 %%any, label %%loop, label %%exit\n"
      "loop:\n"
      "  %%i = phi i32 [ 0, %%entry ], [ %%i.next, %%loop ]\n"
      "  %%h = phi i64 [ 0, %%entry ], [ %%h.next, %%loop ]\n"
      "  %%i64 = zext i32 %%i to i64\n"
      "  %%vp = getelementptr i%u, ptr %%vals, i64 %%i64\n"
      "  %%b = load i%u, ptr %%vp, align %u\n"
      "  %%v = bitcast i%u %%b to %s\n"
      "  %%r = atomicrmw %s ptr %%p, %s %%v monotonic, align %u\n"
      "  %%rb = bitcast %s %%r to i%u\n",
      R.Name, T.Short, W, W, W / 8, W, T.IR, R.Name, T.IR, W / 8, T.IR, W);
  if (W < 64)
    std::printf("  %%rz = zext i%u %%rb to i64\n", W);
  std::printf("  %%hm = mul i64 %%h, 1000003\n"
              "  %%h.next = xor i64 %%hm, %%r%c\n"
              "  %%i.next = add i32 %%i, 1\n"
              "  %%more = icmp ult i32 %%i.next, %%n\n"
              "  br i1 %%more, label %%loop, label %%exit\n"
              "exit:\n"
              "  %%hf = phi i64 [ 0, %%entry ], [ %%h.next, %%loop ]\n"
              "  store i64 %%hf, ptr %%out, align 8\n"
              "  ret void\n}\n",
              W < 64 ? 'z' : 'b');
}

//===----------------------------------------------------------------------===//
// A round
//===----------------------------------------------------------------------===//

/// Thread B's kinds of write.
enum class Write { Exchange, CompareExchange, Store, Opposite, Same };
constexpr const char *WriteNames[] = {"xchg", "cmpxchg", "store", "opposite",
                                      "same"};

struct WriteB {
  Write Kind;
  uint64_t Value, Expected;
};

/// What the memory model allows to be seen: the word, and the hash of A's
/// returned values so far (loop kernels).
using State = std::pair<uint64_t, uint64_t>;

uint64_t hashStep(uint64_t H, uint64_t Returned) {
  return H * 1000003 ^ Returned;
}

class CachedRace {
public:
  Handshake H;
  uint64_t Interleaved = 0; ///< rounds that no serial order A;B or B;A explains

  /// \p Opposite and \p Same: race.<op>.<type>.monotonic of the other
  /// direction and of this one, lowered under the same \p Policy.
  CachedRace(Shape S, FloatOp Op, unsigned Width, NanPolicy Policy,
             void *FnA, void *Opposite, void *Same)
      : S(S), Op(Op), W(Width), Policy(Policy), FnA(FnA),
        FnOpposite(Opposite), FnSame(Same) {}

  void prepare(uint64_t Round);
  void runA(uint64_t Round);
  void runB(uint64_t Round);
  bool check(uint64_t Round, bool Print);

private:
  const Shape S;
  const FloatOp Op;
  const unsigned W;
  const NanPolicy Policy;
  void *const FnA, *const FnOpposite, *const FnSame;

  alignas(64) uint64_t Word = 0; ///< in a cache line of its own
  alignas(64) uint64_t Initial = 0;
  uint64_t Vals[OpsA] = {};
  uint64_t OutA[OpsA] = {}; ///< seq: A's results; loop: OutA[0] is the hash
  alignas(8) unsigned char ValsMem[OpsA * 8] = {}; ///< Vals at width W
  alignas(8) unsigned char OutMem[OpsA * 8] = {};  ///< what the kernel wrote
  WriteB Writes[OpsB] = {};
  uint64_t OutB[OpsB] = {};
  uint64_t Final = 0;

  uint64_t pick(uint64_t &Seed, bool ForA) const;
  RefOutcome applyB(const WriteB &Wr, uint64_t Mem) const;
  bool stepB(const WriteB &Wr, uint64_t Observed, uint64_t Mem,
             uint64_t &After) const;
  bool stepA(unsigned I, const State &From, State &To) const;
  bool serial(bool AFirst) const;
  void print(uint64_t Round) const;
};

/// A value of the pool: for A, 13 in 16 are numbers from 1 to 8; for the
/// word and B, 8 in 16.  The rest are -2, both zeros, 0.5 and 10, or (2 in
/// 7 of them) NaNs of both signs.
uint64_t CachedRace::pick(uint64_t &Seed, bool ForA) const {
  static constexpr double Numbers[] = {1, 2, 3, 4, 5, 6, 7, 8};
  static constexpr double Others[] = {-2, -0.0, 0.0, 0.5, 10};
  const uint64_t R = mix64(Seed++);
  if (R % 16 < (ForA ? 13u : 8u))
    return bitsOf(Numbers[(R >> 8) % 8], W);
  if ((R >> 16) % 7 < 5)
    return bitsOf(Others[(R >> 24) % 5], W);
  return quietNaN(W, (R >> 32) & 1);
}

void CachedRace::prepare(uint64_t Round) {
  uint64_t Seed = Round * 0x100;
  Initial = pick(Seed, false);
  hostStore(&Word, W, Initial);
  for (unsigned I = 0; I < OpsA; ++I) {
    Vals[I] = pick(Seed, true);
    std::memcpy(ValsMem + I * (W / 8), &Vals[I], W / 8); // little-endian
  }
  for (WriteB &Wr : Writes) {
    const uint64_t R = mix64(Seed++);
    Wr.Kind = Write(R % 5);
    Wr.Value = pick(Seed, false);
    // A compare-exchange expects the first word, one of A's operands (the
    // word after a winning atomic), or another value of the pool.
    const unsigned From = (R >> 8) % 3;
    Wr.Expected = From == 0   ? Initial
                  : From == 1 ? Vals[(R >> 16) % OpsA]
                              : pick(Seed, false);
  }
}

void CachedRace::runA(uint64_t) {
  switch (S) {
  case Shape::Seq:
    reinterpret_cast<void (*)(void *, const void *, void *)>(FnA)(
        &Word, ValsMem, OutMem);
    for (unsigned I = 0; I < OpsA; ++I) {
      OutA[I] = 0;
      std::memcpy(&OutA[I], OutMem + I * (W / 8), W / 8);
    }
    break;
  case Shape::Unused:
    reinterpret_cast<void (*)(void *, const void *)>(FnA)(&Word, ValsMem);
    break;
  case Shape::Loop:
    reinterpret_cast<void (*)(void *, const void *, void *, uint32_t)>(FnA)(
        &Word, ValsMem, OutMem, OpsA);
    std::memcpy(&OutA[0], OutMem, 8);
    break;
  }
}

void CachedRace::runB(uint64_t Round) {
  for (unsigned J = 0; J < OpsB; ++J) {
    const WriteB &Wr = Writes[J];
    switch (Wr.Kind) {
    case Write::Exchange:
      OutB[J] = hostExchange(&Word, W, Wr.Value);
      break;
    case Write::CompareExchange:
      OutB[J] = hostCompareExchange(&Word, W, Wr.Expected, Wr.Value);
      break;
    case Write::Store:
      hostStore(&Word, W, Wr.Value);
      OutB[J] = 0;
      break;
    case Write::Opposite:
    case Write::Same:
      OutB[J] = callRmwKernel(Wr.Kind == Write::Same ? FnSame : FnOpposite,
                              W, false, &Word, Wr.Value);
      break;
    }
    jitter(Round * 8 + J, 12);
  }
}

/// B's write \p Wr applied to \p Mem; Returned is what it returns (the
/// old word; for a store, nothing: Mem).
RefOutcome CachedRace::applyB(const WriteB &Wr, uint64_t Mem) const {
  switch (Wr.Kind) {
  case Write::Exchange:
    return {Wr.Value, Mem};
  case Write::CompareExchange:
    return {Mem == Wr.Expected ? Wr.Value : Mem, Mem};
  case Write::Store:
    return {Wr.Value, Mem};
  case Write::Opposite:
    return referenceApply(Op == FloatOp::Min ? FloatOp::Max : FloatOp::Min,
                          W, Policy, Mem, Wr.Value);
  case Write::Same:
    return referenceApply(Op, W, Policy, Mem, Wr.Value);
  }
  return {Mem, Mem};
}

/// Whether B's write \p Wr, which returned \p Observed, can come when the
/// word holds \p Mem; sets \p After to the word it leaves.
bool CachedRace::stepB(const WriteB &Wr, uint64_t Observed, uint64_t Mem,
                       uint64_t &After) const {
  const RefOutcome R = applyB(Wr, Mem);
  After = R.Memory;
  return Wr.Kind == Write::Store || Observed == R.Returned;
}

/// Whether A's atomic \p I can come in state \p From; sets \p To.
bool CachedRace::stepA(unsigned I, const State &From, State &To) const {
  const RefOutcome R = referenceApply(Op, W, Policy, From.first, Vals[I]);
  To = {R.Memory, S == Shape::Loop ? hashStep(From.second, R.Returned) : 0};
  return S != Shape::Seq || OutA[I] == R.Returned;
}

/// Whether all of A's operations, then all of B's (or B's first where not
/// \p AFirst) explain the round.
bool CachedRace::serial(bool AFirst) const {
  State At = {Initial, 0};
  auto RunA = [&] {
    for (unsigned I = 0; I < OpsA; ++I)
      if (!stepA(I, At, At))
        return false;
    return true;
  };
  auto RunB = [&] {
    for (unsigned J = 0; J < OpsB; ++J)
      if (!stepB(Writes[J], OutB[J], At.first, At.first))
        return false;
    return true;
  };
  const bool Ok = AFirst ? RunA() && RunB() : RunB() && RunA();
  return Ok && At.first == Final && (S != Shape::Loop || At.second == OutA[0]);
}

/// Whether some interleaving of A's and B's operations, each in program
/// order, explains the round; prints the round where not and \p Print.
bool CachedRace::check(uint64_t Round, bool Print) {
  Final = hostLoad(&Word, W);
  // Reach[I][J]: the states after A's first I and B's first J operations.
  std::vector<std::set<State>> Reach((OpsA + 1) * (OpsB + 1));
  auto At = [&](unsigned I, unsigned J) -> std::set<State> & {
    return Reach[I * (OpsB + 1) + J];
  };
  At(0, 0).insert({Initial, 0});
  for (unsigned I = 0; I <= OpsA; ++I)
    for (unsigned J = 0; J <= OpsB; ++J)
      for (const State &From : At(I, J)) {
        State To;
        if (I < OpsA && stepA(I, From, To))
          At(I + 1, J).insert(To);
        uint64_t After;
        if (J < OpsB && stepB(Writes[J], OutB[J], From.first, After))
          At(I, J + 1).insert({After, From.second});
      }
  for (const State &End : At(OpsA, OpsB))
    if (End.first == Final && (S != Shape::Loop || End.second == OutA[0])) {
      Interleaved += !serial(true) && !serial(false);
      return true;
    }
  if (Print)
    print(Round);
  return false;
}

void CachedRace::print(uint64_t Round) const {
  std::printf("  round %" PRIu64 ": not coherent: word 0x%" PRIx64
              ", A's operands", Round, Initial);
  for (uint64_t V : Vals)
    std::printf(" 0x%" PRIx64, V);
  if (S == Shape::Seq) {
    std::printf(", returned");
    for (uint64_t V : OutA)
      std::printf(" 0x%" PRIx64, V);
  } else if (S == Shape::Loop) {
    std::printf(", hash 0x%" PRIx64, OutA[0]);
  }
  std::printf("; B");
  for (unsigned J = 0; J < OpsB; ++J) {
    std::printf(" %s 0x%" PRIx64, WriteNames[unsigned(Writes[J].Kind)],
                Writes[J].Value);
    if (Writes[J].Kind == Write::CompareExchange)
      std::printf(" if 0x%" PRIx64, Writes[J].Expected);
    if (Writes[J].Kind != Write::Store)
      std::printf(" -> 0x%" PRIx64, OutB[J]);
  }
  std::printf("; final 0x%" PRIx64 "\n", Final);
}

/// Looks up race.\p Name; prints a message and returns null where missing.
void *lookup(void *Lib, const std::string &Name) {
  void *Fn = dlsym(Lib, ("race." + Name).c_str());
  if (!Fn)
    std::fprintf(stderr, "fatomic-llvm-race: no kernel race.%s\n",
                 Name.c_str());
  return Fn;
}

} // namespace

void emitCachedRaceKernels() {
  for (const RmwOp &R : RmwOps)
    for (const ScalarType &T : ScalarTypes) {
      emitStraight(R, T, /*Used=*/true);
      emitStraight(R, T, /*Used=*/false);
      emitLoop(R, T);
    }
}

bool raceCached(void *Lib, const LoweringOptions &Options,
                const std::string &Name, int CpuA, int CpuB,
                uint64_t MaxRounds, double Seconds, uint64_t &Rounds,
                uint64_t &Violations) {
  // Name is cached.<shape>.<op>.<type>.
  const size_t Dot1 = Name.find('.'), Dot2 = Name.find('.', Dot1 + 1),
               Dot3 = Name.find('.', Dot2 + 1);
  if (Name.rfind("cached.", 0) != 0 || Dot3 == std::string::npos) {
    std::fprintf(stderr, "fatomic-llvm-race: scenario cached needs a kernel "
                         "cached.<seq|unused|loop>.<op>.<type>\n");
    return false;
  }
  const std::string ShapeName = Name.substr(Dot1 + 1, Dot2 - Dot1 - 1);
  const std::string OpName = Name.substr(Dot2 + 1, Dot3 - Dot2 - 1);
  const std::string TypeName = Name.substr(Dot3 + 1);
  const RmwOp *R = findRmwOp(OpName);
  const ScalarType *T = findScalarType(TypeName);
  int ShapeIndex = -1;
  for (int I = 0; I < 3; ++I)
    if (ShapeName == ShapeNames[I])
      ShapeIndex = I;
  if (!R || !T || ShapeIndex < 0) {
    std::fprintf(stderr, "fatomic-llvm-race: no kernel race.%s\n",
                 Name.c_str());
    return false;
  }
  const FloatOp Other = R->Op == FloatOp::Min ? FloatOp::Max : FloatOp::Min;
  const std::string Suffix = std::string(".") + T->Short + ".monotonic";
  void *FnA = lookup(Lib, Name);
  void *Opposite = lookup(Lib, rmwName(Other, R->Default) + Suffix);
  void *Same = lookup(Lib, R->Name + Suffix);
  if (!FnA || !Opposite || !Same)
    return false;
  auto Race = std::make_unique<CachedRace>(
      Shape(ShapeIndex), R->Op, T->Width, Options.policyFor(R->Default), FnA,
      Opposite, Same);
  Race->H.CpuB = CpuB;
  Violations = raceRounds(*Race, CpuA, MaxRounds, Seconds, Rounds);
  std::printf("fatomic-llvm-race: %" PRIu64 " of the rounds explained only "
              "by interleaving A's and B's operations\n",
              Race->Interleaved);
  return true;
}

} // namespace hosttools
} // namespace fatomic
