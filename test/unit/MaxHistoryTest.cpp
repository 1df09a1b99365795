//===- MaxHistoryTest.cpp - The GPU benchmark's returned-value check -------===//
//
// tools/gpubench/MaxHistory.h on histories made by running operations one
// at a time in a random interleaving (linearizable by construction), and on
// such histories with one defect each of the kinds a broken lowering makes:
// a lost write, a value the address never held, an invocation's operations
// out of order, final memory that the writers do not explain.
//
//===----------------------------------------------------------------------===//

#include "MaxHistory.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>

using gpubench::checkMaxHistory;
using gpubench::MaxOp;

namespace {

uint64_t bits(float F) {
  uint32_t B;
  std::memcpy(&B, &F, sizeof B);
  return B;
}

const uint64_t NegInf = 0xFF800000u;

/// A dispatch of Invocations x Iters operations on Addrs addresses, run in
/// one random interleaving that keeps each invocation's program order.
struct History {
  uint32_t Iters;
  std::vector<MaxOp> Ops;
  std::vector<uint64_t> Final;

  History(uint32_t Invocations, uint32_t Iters, uint32_t Addrs, unsigned Seed)
      : Iters(Iters), Ops(Invocations * Iters), Final(Addrs, NegInf) {
    std::mt19937 Rng(Seed);
    std::uniform_real_distribution<float> Val(-100.0f, 100.0f);
    for (MaxOp &Op : Ops)
      Op = {static_cast<uint32_t>(Rng() % Addrs), bits(Val(Rng)), 0};
    std::vector<uint32_t> Next(Invocations, 0);
    std::vector<float> Mem(Addrs, -INFINITY);
    for (uint64_t Left = Ops.size(); Left; --Left) {
      uint32_t I = Rng() % Invocations;
      while (Next[I] == Iters)
        I = (I + 1) % Invocations;
      MaxOp &Op = Ops[I * Iters + Next[I]++];
      float V;
      uint32_t B = static_cast<uint32_t>(Op.Operand);
      std::memcpy(&V, &B, sizeof V);
      Op.Returned = bits(Mem[Op.Addr]);
      Mem[Op.Addr] = std::max(Mem[Op.Addr], V);
    }
    for (uint32_t A = 0; A < Addrs; ++A)
      Final[A] = bits(Mem[A]);
  }

  gpubench::HistoryVerdict check(unsigned Threads = 4) const {
    return checkMaxHistory(32, NegInf, Final, Ops, Iters, Threads);
  }
};

TEST(MaxHistory, InterleavedRunsPass) {
  for (unsigned Seed = 1; Seed <= 20; ++Seed)
    for (uint32_t Addrs : {1u, 3u, 64u}) {
      const History H(32, 8, Addrs, Seed);
      for (unsigned Threads : {1u, 4u, 64u}) {
        const auto V = H.check(Threads);
        EXPECT_EQ(V.BadAddrs, 0u) << "seed " << Seed << ": " << V.First;
        EXPECT_EQ(V.Ops, 256u);
      }
    }
}

TEST(MaxHistory, LostWriteFails) {
  // Two operations both saw -inf and both "wrote": what a load-compare-store
  // that is not atomic gives.  Memory keeps the larger.
  std::vector<MaxOp> Ops = {{0, bits(1.0f), NegInf}, {0, bits(2.0f), NegInf}};
  const auto V = checkMaxHistory(32, NegInf, {bits(2.0f)}, Ops, 1, 2);
  EXPECT_EQ(V.BadAddrs, 1u);
  EXPECT_NE(V.First.find("can only have been 0x3f800000"), std::string::npos) << V.First;
}

TEST(MaxHistory, ValueNeverHeldFails) {
  History H(16, 4, 2, 7);
  // A non-writer that returned its own operand: never in memory unless some
  // operation wrote it.  Pick one whose operand no writer wrote.
  for (MaxOp &Op : H.Ops)
    if (Op.Operand != Op.Returned && Op.Operand < 0x80000000u && Op.Returned < 0x80000000u &&
        Op.Operand < Op.Returned) { // a positive non-writer
      bool Written = false;
      for (const MaxOp &O : H.Ops)
        Written |= O.Operand == Op.Operand && O.Operand > O.Returned;
      if (Written)
        continue;
      Op.Returned = Op.Operand;
      const auto V = H.check();
      EXPECT_EQ(V.BadAddrs, 1u);
      EXPECT_NE(V.First.find("never held"), std::string::npos) << V.First;
      return;
    }
  FAIL() << "no positive non-writer in the history";
}

TEST(MaxHistory, ProgramOrderFails) {
  // Invocation 0 writes 5, then its max with -inf returns -inf on the same
  // address: the values alone are linearizable (the second first), its
  // program order is not.
  std::vector<MaxOp> Ops = {{0, bits(5.0f), NegInf}, {0, NegInf, NegInf},
                            {0, bits(0.5f), bits(5.0f)}, {0, bits(0.25f), bits(5.0f)}};
  EXPECT_EQ(checkMaxHistory(32, NegInf, {bits(5.0f)}, Ops, 1, 1).BadAddrs, 0u);
  const auto V = checkMaxHistory(32, NegInf, {bits(5.0f)}, Ops, 2, 1);
  EXPECT_EQ(V.BadAddrs, 1u);
  EXPECT_NE(V.First.find("invocation 0 operation 1 returned 0xff800000, below"),
            std::string::npos)
      << V.First;
}

TEST(MaxHistory, UnexplainedFinalMemoryFails) {
  History H(16, 4, 4, 3);
  H.Final[2] = bits(1000.0f);
  const auto V = H.check();
  EXPECT_EQ(V.BadAddrs, 1u);
  EXPECT_NE(V.First.find("address 2: the writers end at"), std::string::npos) << V.First;
}

TEST(MaxHistory, NaNReturnedFails) {
  History H(16, 4, 4, 5);
  H.Ops[9].Returned = 0x7FC00000u;
  const auto V = H.check();
  EXPECT_GE(V.BadAddrs, 1u);
}

TEST(MaxHistory, NaNOperandRefused) {
  std::vector<MaxOp> Ops = {{0, 0x7FC00000u, NegInf}};
  const auto V = checkMaxHistory(32, NegInf, {NegInf}, Ops, 1, 1);
  EXPECT_EQ(V.BadAddrs, 1u);
  EXPECT_NE(V.First.find("NaN"), std::string::npos);
}

TEST(MaxHistory, SixtyFourBit) {
  const uint64_t NegInf64 = 0xFFF0000000000000ull, One = 0x3FF0000000000000ull,
                 Two = 0x4000000000000000ull;
  std::vector<MaxOp> Ops = {{0, One, NegInf64}, {0, Two, One}, {0, One, Two}};
  EXPECT_EQ(checkMaxHistory(64, NegInf64, {Two}, Ops, 1, 2).BadAddrs, 0u);
  Ops[1].Returned = NegInf64;
  EXPECT_EQ(checkMaxHistory(64, NegInf64, {Two}, Ops, 1, 2).BadAddrs, 1u);
}

} // namespace
