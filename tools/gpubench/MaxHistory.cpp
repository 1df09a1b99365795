//===- MaxHistory.cpp - Are a dispatch's returned values linearizable? ----===//
//
// The three conditions of MaxHistory.h, each one parallel walk: the writers
// bucketed by address (counted per thread, then placed), each bucket sorted
// and walked as a chain, and then every operation against its bucket and
// its invocation's earlier operations.
//
//===----------------------------------------------------------------------===//

#include "MaxHistory.h"
#include "Parallel.h"

#include "fatomic/OrderMap.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>

namespace gpubench {
namespace {

/// A writer in its address's bucket: the keys of its operand and of what
/// it returned.
struct Writer {
  uint64_t Operand;
  uint64_t Returned;
};

/// The first problem a thread found and the addresses it found wrong.
struct Findings {
  std::vector<bool> Bad; ///< per address; sized when the first is found
  uint32_t FirstAddr = UINT32_MAX;
  std::string First;

  /// \p Why() describes the problem; it is called only for a new first
  /// address, so that a history wrong everywhere is reported quickly.
  template <typename Describe> void add(uint32_t Addr, size_t Addrs, Describe Why) {
    if (Bad.empty())
      Bad.resize(Addrs);
    Bad[Addr] = true;
    if (Addr < FirstAddr) {
      FirstAddr = Addr;
      First = Why();
    }
  }
};

class HistoryCheck {
public:
  HistoryCheck(unsigned Width, uint64_t Init, const std::vector<uint64_t> &Final,
               const std::vector<MaxOp> &Ops, uint32_t Iters, unsigned Threads)
      : Width(Width), InitKey(key(Init, Width)), Final(Final), Ops(Ops),
        Iters(Iters), Threads(Threads), Found(Threads) {}

  HistoryVerdict run() {
    bucketWriters();
    parallelParts(Threads, Final.size(), [&](unsigned T, uint64_t B, uint64_t E) {
      for (uint64_t A = B; A < E; ++A)
        walkChain(static_cast<uint32_t>(A), Found[T]);
    });
    parallelParts(Threads, Ops.size() / Iters, [&](unsigned T, uint64_t B, uint64_t E) {
      std::vector<uint32_t> Order(Iters);
      for (uint64_t I = B; I < E; ++I)
        checkInvocation(I, Order, Found[T]);
    });
    return verdict();
  }

private:
  static uint64_t key(uint64_t Bits, unsigned Width) {
    return fatomic::toOrdered(Bits, Width);
  }
  bool isWriter(const MaxOp &Op) const {
    return key(Op.Operand, Width) > key(Op.Returned, Width);
  }

  /// Every writer into its address's bucket, in invocation order: counted
  /// per thread and address, then placed at the thread's own offsets.
  void bucketWriters() {
    const uint64_t Addrs = Final.size();
    const uint64_t Invocations = Ops.size() / Iters;
    std::vector<std::vector<uint64_t>> Count(Threads, std::vector<uint64_t>(Addrs));
    parallelParts(Threads, Invocations, [&](unsigned T, uint64_t B, uint64_t E) {
      for (uint64_t I = B * Iters; I < E * Iters; ++I)
        if (isWriter(Ops[I]))
          ++Count[T][Ops[I].Addr];
    });
    Start.assign(Addrs + 1, 0);
    for (uint64_t A = 0; A < Addrs; ++A) {
      uint64_t Next = Start[A];
      for (unsigned T = 0; T < Threads; ++T) {
        const uint64_t N = Count[T][A];
        Count[T][A] = Next; // now the thread's first slot in the bucket
        Next += N;
      }
      Start[A + 1] = Next;
    }
    Writers.resize(Start[Addrs]);
    parallelParts(Threads, Invocations, [&](unsigned T, uint64_t B, uint64_t E) {
      for (uint64_t I = B * Iters; I < E * Iters; ++I)
        if (isWriter(Ops[I]))
          Writers[Count[T][Ops[I].Addr]++] = {key(Ops[I].Operand, Width),
                                              key(Ops[I].Returned, Width)};
    });
  }

  /// Condition 1 at address \p A: its writers, sorted by operand, form a
  /// chain from the initial to the final memory.
  void walkChain(uint32_t A, Findings &F) {
    auto Begin = Writers.begin() + static_cast<std::ptrdiff_t>(Start[A]);
    auto End = Writers.begin() + static_cast<std::ptrdiff_t>(Start[A + 1]);
    std::sort(Begin, End, [](const Writer &X, const Writer &Y) {
      return X.Operand < Y.Operand;
    });
    uint64_t Prev = InitKey;
    for (auto It = Begin; It != End; ++It) {
      if (It->Returned != Prev) {
        F.add(A, Final.size(), [&] {
          return "address " + std::to_string(A) + ": an operation that wrote " +
                 shown(It->Operand) + " returned " + shown(It->Returned) +
                 ", but the value before " + shown(It->Operand) +
                 " can only have been " + shown(Prev);
        });
        return;
      }
      Prev = It->Operand;
    }
    if (Prev != key(Final[A], Width))
      F.add(A, Final.size(), [&] {
        return "address " + std::to_string(A) + ": the writers end at " +
               shown(Prev) + " but memory holds " + hexBits(Final[A], Width);
      });
  }

  /// Whether \p Key is a value address \p A held: the initial one or a
  /// writer's operand.
  bool held(uint32_t A, uint64_t Key) const {
    if (Key == InitKey)
      return true;
    auto Begin = Writers.begin() + static_cast<std::ptrdiff_t>(Start[A]);
    auto End = Writers.begin() + static_cast<std::ptrdiff_t>(Start[A + 1]);
    auto It = std::lower_bound(Begin, End, Key, [](const Writer &W, uint64_t K) {
      return W.Operand < K;
    });
    return It != End && It->Operand == Key;
  }

  /// Conditions 2 and 3 for invocation \p I's operations.
  void checkInvocation(uint64_t I, std::vector<uint32_t> &Order, Findings &F) {
    const MaxOp *Mine = &Ops[I * Iters];
    for (uint32_t K = 0; K < Iters; ++K) {
      Order[K] = K;
      if (!isWriter(Mine[K]) && !held(Mine[K].Addr, key(Mine[K].Returned, Width)))
        F.add(Mine[K].Addr, Final.size(), [&] {
          return "address " + std::to_string(Mine[K].Addr) + ": invocation " +
                 std::to_string(I) + " operation " + std::to_string(K) +
                 " returned " + hexBits(Mine[K].Returned, Width) +
                 ", which the address never held";
        });
    }
    // Same address in program order: each one returns at least what the
    // one before it left.
    std::sort(Order.begin(), Order.end(), [&](uint32_t X, uint32_t Y) {
      return Mine[X].Addr != Mine[Y].Addr ? Mine[X].Addr < Mine[Y].Addr : X < Y;
    });
    for (uint32_t J = 1; J < Iters; ++J) {
      const MaxOp &Before = Mine[Order[J - 1]], &After = Mine[Order[J]];
      if (Before.Addr != After.Addr)
        continue;
      const uint64_t Left = std::max(key(Before.Returned, Width), key(Before.Operand, Width));
      if (key(After.Returned, Width) < Left)
        F.add(After.Addr, Final.size(), [&] {
          return "address " + std::to_string(After.Addr) + ": invocation " +
                 std::to_string(I) + " operation " + std::to_string(Order[J]) +
                 " returned " + hexBits(After.Returned, Width) +
                 ", below what its operation " + std::to_string(Order[J - 1]) +
                 " left there";
        });
    }
  }

  std::string shown(uint64_t Key) const {
    return hexBits(fatomic::fromOrdered(Key, Width), Width);
  }

  HistoryVerdict verdict() {
    HistoryVerdict V;
    V.Ops = Ops.size();
    uint32_t FirstAddr = UINT32_MAX;
    for (Findings &F : Found)
      if (F.FirstAddr < FirstAddr) {
        FirstAddr = F.FirstAddr;
        V.First = F.First;
      }
    for (size_t A = 0; A < Final.size(); ++A)
      V.BadAddrs += std::any_of(Found.begin(), Found.end(), [&](const Findings &F) {
        return !F.Bad.empty() && F.Bad[A];
      });
    return V;
  }

  const unsigned Width;
  const uint64_t InitKey;
  const std::vector<uint64_t> &Final;
  const std::vector<MaxOp> &Ops;
  const uint32_t Iters;
  const unsigned Threads;
  std::vector<uint64_t> Start; ///< bucket of address a: [Start[a], Start[a+1])
  std::vector<Writer> Writers;
  std::vector<Findings> Found; ///< per thread
};

} // namespace

std::string hexBits(uint64_t Bits, unsigned Width) {
  char Buf[24];
  std::snprintf(Buf, sizeof Buf, "0x%0*" PRIx64, static_cast<int>(Width / 4),
                Bits);
  return Buf;
}

HistoryVerdict checkMaxHistory(unsigned Width, uint64_t Init,
                               const std::vector<uint64_t> &Final,
                               const std::vector<MaxOp> &Ops, uint32_t Iters,
                               unsigned Threads) {
  if (Iters == 0 || Ops.empty() || Ops.size() % Iters != 0 || Final.empty())
    return {Ops.size(), 1, "the history has no whole invocations or no memory"};
  for (const MaxOp &Op : Ops) {
    if (Op.Addr >= Final.size())
      return {Ops.size(), 1, "an operation's address " + std::to_string(Op.Addr) +
                                 " is outside the memory"};
    // A NaN operand would take the NaN policy's rules, which this check
    // does not model.
    if (fatomic::isNaN(Op.Operand, Width))
      return {Ops.size(), 1, "an operand is a NaN; the check covers numbers only"};
  }
  const uint64_t Invocations = Ops.size() / Iters;
  Threads = static_cast<unsigned>(std::clamp<uint64_t>(Threads, 1, Invocations));
  return HistoryCheck(Width, Init, Final, Ops, Iters, Threads).run();
}

} // namespace gpubench
