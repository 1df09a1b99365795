//===- RaceHarness.h - Two pinned threads racing round after round --------===//
//
// The machinery of fatomic-llvm-race that does not depend on what races:
// pinning two threads to two CPUs, starting thread B's part of each round
// after thread A has prepared it, varying the interleavings with a few
// pause instructions, and the round loop that runs until a number of rounds
// or a deadline and counts the rounds whose outcome is not explained.  Also
// the host side of the race: exchanges, compare-exchanges, stores and loads
// of 16-, 32- and 64-bit words, and a lowered kernel called on a word.
//
// A scenario is a class with
//   Handshake H;
//   void prepare(uint64_t Round);  // thread A, before B may start
//   void runA(uint64_t Round);     // thread A's part
//   void runB(uint64_t Round);     // thread B's part
//   bool check(uint64_t Round, bool Print);  // after both; true: explained
//
//===----------------------------------------------------------------------===//

#ifndef FATOMIC_TOOLS_LLVM_EXEC_RACEHARNESS_H
#define FATOMIC_TOOLS_LLVM_EXEC_RACEHARNESS_H

#include "fatomic/OrderMap.h"

#include <pthread.h>
#include <sched.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>

namespace fatomic {
namespace hosttools {

//===----------------------------------------------------------------------===//
// Values
//===----------------------------------------------------------------------===//

/// The bits of the float \p V at \p Width (values exact in binary16).
inline uint64_t bitsOf(double V, unsigned Width) {
  if (Width == 64) {
    uint64_t B;
    std::memcpy(&B, &V, 8);
    return B;
  }
  float F = float(V);
  uint32_t B;
  std::memcpy(&B, &F, 4);
  if (Width == 32)
    return B;
  if ((B & 0x7fffffff) == 0) // a zero keeps its sign
    return (B >> 16) & 0x8000;
  // binary16 of a normal float: rebias the exponent, keep 10 mantissa bits.
  const uint32_t Sign = (B >> 16) & 0x8000;
  const int Exp = int((B >> 23) & 0xff) - 127 + 15;
  return Sign | uint32_t(Exp) << 10 | ((B >> 13) & 0x3ff);
}

/// A quiet NaN of \p Width, negative when \p Negative.
inline uint64_t quietNaN(unsigned Width, bool Negative) {
  const uint64_t Sign = uint64_t(1) << (Width - 1);
  const unsigned Mant = Width == 16 ? 10 : Width == 32 ? 23 : 52;
  const uint64_t Bits =
      (widthMask(Width) >> 1) & ~((uint64_t(1) << (Mant - 1)) - 1);
  return Negative ? Bits | Sign : Bits;
}

/// A 64-bit mix of \p X (splitmix64's finalizer).
inline uint64_t mix64(uint64_t X) {
  X += 0x9e3779b97f4a7c15ULL;
  X = (X ^ (X >> 30)) * 0xbf58476d1ce4e5b9ULL;
  X = (X ^ (X >> 27)) * 0x94d049bb133111ebULL;
  return X ^ (X >> 31);
}

//===----------------------------------------------------------------------===//
// The host's accesses to a word of 16, 32 or 64 bits
//===----------------------------------------------------------------------===//

template <typename T> T *as(void *P) { return static_cast<T *>(P); }

inline uint64_t hostLoad(void *P, unsigned W) {
  if (W == 16)
    return __atomic_load_n(as<uint16_t>(P), __ATOMIC_SEQ_CST);
  if (W == 32)
    return __atomic_load_n(as<uint32_t>(P), __ATOMIC_SEQ_CST);
  return __atomic_load_n(as<uint64_t>(P), __ATOMIC_SEQ_CST);
}

inline void hostStore(void *P, unsigned W, uint64_t V) {
  if (W == 16)
    __atomic_store_n(as<uint16_t>(P), uint16_t(V), __ATOMIC_SEQ_CST);
  else if (W == 32)
    __atomic_store_n(as<uint32_t>(P), uint32_t(V), __ATOMIC_SEQ_CST);
  else
    __atomic_store_n(as<uint64_t>(P), V, __ATOMIC_SEQ_CST);
}

/// Exchanges \p V into the word; returns what it held.
inline uint64_t hostExchange(void *P, unsigned W, uint64_t V) {
  if (W == 16)
    return __atomic_exchange_n(as<uint16_t>(P), uint16_t(V), __ATOMIC_SEQ_CST);
  if (W == 32)
    return __atomic_exchange_n(as<uint32_t>(P), uint32_t(V), __ATOMIC_SEQ_CST);
  return __atomic_exchange_n(as<uint64_t>(P), V, __ATOMIC_SEQ_CST);
}

/// Replaces the word by \p V where it holds \p Expected (bit for bit);
/// returns what it held.
inline uint64_t hostCompareExchange(void *P, unsigned W, uint64_t Expected,
                                    uint64_t V) {
  if (W == 16) {
    uint16_t E = uint16_t(Expected);
    __atomic_compare_exchange_n(as<uint16_t>(P), &E, uint16_t(V), false,
                                __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
    return E;
  }
  if (W == 32) {
    uint32_t E = uint32_t(Expected);
    __atomic_compare_exchange_n(as<uint32_t>(P), &E, uint32_t(V), false,
                                __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
    return E;
  }
  __atomic_compare_exchange_n(as<uint64_t>(P), &Expected, V, false,
                              __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
  return Expected;
}

/// Calls the kernel \p Fn, `iN (ptr, iN)` or `void (ptr, iN)` where
/// \p Unused, on \p P; returns the old bits (0 where \p Unused).
inline uint64_t callRmwKernel(void *Fn, unsigned W, bool Unused, void *P,
                              uint64_t Bits) {
  if (Unused) {
    if (W == 16)
      reinterpret_cast<void (*)(void *, uint16_t)>(Fn)(P, Bits);
    else if (W == 32)
      reinterpret_cast<void (*)(void *, uint32_t)>(Fn)(P, Bits);
    else
      reinterpret_cast<void (*)(void *, uint64_t)>(Fn)(P, Bits);
    return 0;
  }
  if (W == 16)
    return reinterpret_cast<uint16_t (*)(void *, uint16_t)>(Fn)(P, Bits);
  if (W == 32)
    return reinterpret_cast<uint32_t (*)(void *, uint32_t)>(Fn)(P, Bits);
  return reinterpret_cast<uint64_t (*)(void *, uint64_t)>(Fn)(P, Bits);
}

//===----------------------------------------------------------------------===//
// Threads and rounds
//===----------------------------------------------------------------------===//

/// Thread A's signals to thread B, each in a cache line of its own.
struct Handshake {
  alignas(64) std::atomic<uint64_t> Start{0};
  alignas(64) std::atomic<uint64_t> Done{0};
  alignas(64) std::atomic<bool> Stop{false};
  int CpuB = 1;
};

/// Pins the calling thread to \p Cpu.
inline bool pinTo(int Cpu) {
  cpu_set_t Set;
  CPU_ZERO(&Set);
  CPU_SET(Cpu, &Set);
  return pthread_setaffinity_np(pthread_self(), sizeof(Set), &Set) == 0;
}

/// Spins until \p Flag holds \p Value or \p Stop is set; yields now and
/// then, as the machine may have fewer free CPUs than threads.  Returns
/// false when stopped.
inline bool waitFor(const std::atomic<uint64_t> &Flag, uint64_t Value,
                    const std::atomic<bool> *Stop = nullptr) {
  for (unsigned Spins = 0; Flag.load(std::memory_order_acquire) != Value;) {
    if (Stop && Stop->load(std::memory_order_relaxed))
      return false;
    if (++Spins % 4096 == 0)
      sched_yield();
    else
      __builtin_ia32_pause();
  }
  return true;
}

/// Up to \p Max - 1 pause instructions, varied with \p Seed so that
/// interleavings vary.
inline void jitter(uint64_t Seed, unsigned Max = 48) {
  for (unsigned I = mix64(Seed) % Max; I; --I)
    __builtin_ia32_pause();
}

/// The first two CPUs this process may run on, or false.
inline bool twoCpus(int &First, int &Second) {
  cpu_set_t Set;
  if (sched_getaffinity(0, sizeof(Set), &Set) != 0)
    return false;
  First = Second = -1;
  for (int I = 0; I < CPU_SETSIZE; ++I)
    if (CPU_ISSET(I, &Set)) {
      if (First < 0)
        First = I;
      else {
        Second = I;
        return true;
      }
    }
  return false;
}

template <typename ScenarioT> void *raceThreadB(void *Arg) {
  auto &S = *static_cast<ScenarioT *>(Arg);
  pinTo(S.H.CpuB);
  for (uint64_t Round = 1;; ++Round) {
    if (!waitFor(S.H.Start, Round, &S.H.Stop))
      return nullptr;
    jitter(Round * 2 + 1);
    S.runB(Round);
    S.H.Done.store(Round, std::memory_order_release);
  }
}

/// Runs rounds of \p S on this thread (A, pinned to \p CpuA) and a thread B
/// pinned to S.H.CpuB, up to \p MaxRounds or \p Seconds; returns the
/// number of rounds S.check does not explain (the first three printed) and
/// sets \p Rounds to the rounds run.
template <typename ScenarioT>
uint64_t raceRounds(ScenarioT &S, int CpuA, uint64_t MaxRounds,
                    double Seconds, uint64_t &Rounds) {
  pinTo(CpuA);
  pthread_t B;
  pthread_create(&B, nullptr, raceThreadB<ScenarioT>, &S);
  const auto Deadline = std::chrono::steady_clock::now() +
                        std::chrono::duration<double>(Seconds);
  uint64_t Violations = 0;
  for (Rounds = 0; Rounds < MaxRounds;) {
    const uint64_t Round = ++Rounds;
    S.prepare(Round);
    S.H.Start.store(Round, std::memory_order_release);
    jitter(Round * 2);
    S.runA(Round);
    waitFor(S.H.Done, Round);
    if (!S.check(Round, Violations < 3))
      ++Violations;
    if (Round % 256 == 0 && std::chrono::steady_clock::now() > Deadline)
      break;
  }
  S.H.Stop.store(true);
  pthread_join(B, nullptr);
  return Violations;
}

} // namespace hosttools
} // namespace fatomic

#endif // FATOMIC_TOOLS_LLVM_EXEC_RACEHARNESS_H
