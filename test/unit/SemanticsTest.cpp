//===- SemanticsTest.cpp - Reference model and the lowered algorithm ------===//

#include "fatomic/LoweringModel.h"
#include "fatomic/Reference.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <vector>

using namespace fatomic;

namespace {

constexpr NanPolicy AllPolicies[] = {NanPolicy::Number, NanPolicy::Propagate,
                                     NanPolicy::Fast};

/// The special-value grid of one width: ±0, ±smallest/largest subnormal,
/// ±smallest normal, ±1, ±largest finite, ±inf, ±quiet NaN, ±signalling NaN,
/// and the identity/sticky patterns.
std::vector<uint64_t> grid(unsigned W) {
  const uint64_t S = signBit(W), E = exponentMask(W);
  const uint64_t M = widthMask(mantissaBits(W));
  const uint64_t One = (E >> 1) & E; // biased exponent 0111..1
  const uint64_t Quiet = E | (uint64_t{1} << (mantissaBits(W) - 1));
  std::vector<uint64_t> G = {0, 1, M, M + 1, One, E - 1, E, Quiet, E | 1};
  const size_t N = G.size();
  for (size_t I = 0; I < N; ++I)
    G.push_back(G[I] | S);
  for (FloatOp Op : {FloatOp::Min, FloatOp::Max}) {
    G.push_back(identityPattern(Op, W));
    G.push_back(stickyPattern(Op, W));
  }
  return G;
}

struct Row {
  double Mem, V, Min, Max;
};

uint64_t bits32(float F) {
  uint32_t B;
  std::memcpy(&B, &F, 4);
  return B;
}

} // namespace

// The NaN/zero table of SPV_EXT_shader_atomic_float_min_max (docs/design.md,
// "NaN policies"), per policy.
TEST(Reference, SpecTableNumber) {
  const uint64_t QNaN = 0x7FC00000, NQNaN = 0xFFC00000, X = bits32(2.5f),
                 Y = bits32(-7.0f);
  for (FloatOp Op : {FloatOp::Min, FloatOp::Max}) {
    // min(x, y) = x if x < y else y; max likewise.
    EXPECT_EQ(referenceApply(Op, 32, NanPolicy::Number, X, Y).Memory,
              Op == FloatOp::Min ? Y : X);
    // min(x, qNaN) = min(qNaN, x) = x, NaNs of either sign.
    for (uint64_t N : {QNaN, NQNaN}) {
      EXPECT_EQ(referenceApply(Op, 32, NanPolicy::Number, X, N).Memory, X);
      EXPECT_EQ(referenceApply(Op, 32, NanPolicy::Number, N, X).Memory, X);
      EXPECT_TRUE(allowedBySpec(Op, 32, X, N, X));
      EXPECT_FALSE(allowedBySpec(Op, 32, X, N, N));
    }
    // min(qNaN, qNaN) = qNaN: memory keeps its NaN.
    EXPECT_EQ(referenceApply(Op, 32, NanPolicy::Number, QNaN, NQNaN).Memory, QNaN);
    EXPECT_TRUE(allowedBySpec(Op, 32, QNaN, NQNaN, NQNaN));
    // ±0: fatomic picks -0 < +0; the spec allows either.
    const uint64_t Expect0 = Op == FloatOp::Min ? 0x80000000 : 0;
    EXPECT_EQ(referenceApply(Op, 32, NanPolicy::Number, 0, 0x80000000).Memory, Expect0);
    EXPECT_EQ(referenceApply(Op, 32, NanPolicy::Number, 0x80000000, 0).Memory, Expect0);
    EXPECT_TRUE(allowedBySpec(Op, 32, 0, 0x80000000, 0));
    EXPECT_TRUE(allowedBySpec(Op, 32, 0, 0x80000000, 0x80000000));
    // signalling NaN operand: any NaN, or the other operand.
    EXPECT_TRUE(allowedBySpec(Op, 32, X, 0x7F800001, X));
    EXPECT_TRUE(allowedBySpec(Op, 32, X, 0x7F800001, QNaN));
    EXPECT_FALSE(allowedBySpec(Op, 32, X, 0x7F800001, Y));
  }
}

TEST(Reference, SpecTablePropagateAndFast) {
  const uint64_t QNaN = 0x7FC00000, NQNaN = 0xFFC00000, X = bits32(2.5f);
  for (FloatOp Op : {FloatOp::Min, FloatOp::Max}) {
    // Propagate: a NaN operand is stored (as the sticky pattern)...
    auto R = referenceApply(Op, 32, NanPolicy::Propagate, X, QNaN);
    EXPECT_EQ(R.Memory, stickyPattern(Op, 32));
    EXPECT_EQ(R.Returned, X);
    // ...and a NaN in memory stays, bit for bit.
    EXPECT_EQ(referenceApply(Op, 32, NanPolicy::Propagate, NQNaN, X).Memory, NQNaN);
    EXPECT_TRUE(acceptableUnderPolicy(Op, 32, NanPolicy::Propagate, X, QNaN, NQNaN));
    EXPECT_FALSE(acceptableUnderPolicy(Op, 32, NanPolicy::Propagate, X, QNaN, X));
  }
  // Fast: positive NaNs above +inf, negative NaNs below -inf.
  EXPECT_EQ(referenceApply(FloatOp::Min, 32, NanPolicy::Fast, X, QNaN).Memory, X);
  EXPECT_EQ(referenceApply(FloatOp::Min, 32, NanPolicy::Fast, X, NQNaN).Memory, NQNaN);
  EXPECT_EQ(referenceApply(FloatOp::Max, 32, NanPolicy::Fast, X, QNaN).Memory, QNaN);
  EXPECT_EQ(referenceApply(FloatOp::Max, 32, NanPolicy::Fast, X, NQNaN).Memory, X);
  EXPECT_EQ(referenceApply(FloatOp::Max, 32, NanPolicy::Fast, 0x7F800000, QNaN).Memory, QNaN);
}

TEST(Reference, DenormalsPreservedUnlessFlushed) {
  const uint64_t Sub = 1, NegSub = 0x80000001;
  EXPECT_EQ(referenceApply(FloatOp::Min, 32, NanPolicy::Number, Sub, NegSub).Memory, NegSub);
  EXPECT_EQ(referenceApply(FloatOp::Max, 32, NanPolicy::Number, 0, Sub).Memory, Sub);
  // Flushed: the operand -denorm becomes -0, which is still below +denorm.
  EXPECT_EQ(referenceApply(FloatOp::Min, 32, NanPolicy::Number, Sub, NegSub, true).Memory,
            0x80000000u);
  EXPECT_EQ(referenceApply(FloatOp::Max, 32, NanPolicy::Number, 0, Sub, true).Memory, 0u);
}

// The lowered algorithm, emulated with plain integer min/max, against the
// reference model: grid x grid, both ops, every width, policy, strategy and
// early-out setting.  Exact bits, returned value included.
TEST(LoweringModel, MatchesReferenceOnGrid) {
  unsigned Cases = 0;
  for (unsigned W : {16u, 32u, 64u}) {
    const auto G = grid(W);
    for (FloatOp Op : {FloatOp::Min, FloatOp::Max})
      for (NanPolicy P : AllPolicies)
        for (Strategy S : {Strategy::Dispatch, Strategy::Cas})
          for (bool EO : {true, false})
            for (bool Flush : {false, true})
              for (uint64_t Mem : G)
                for (uint64_t V : G) {
                  ++Cases;
                  const RefOutcome Want = referenceApply(Op, W, P, Mem, V, Flush);
                  const RefOutcome Got = emulateLowered(Op, W, P, S, EO, Mem, V, Flush);
                  ASSERT_EQ(Got.Memory, Want.Memory)
                      << "f" << W << " " << toString(Op) << " " << toString(P)
                      << " " << toString(S) << " early-out=" << EO
                      << " flush=" << Flush << std::hex << " mem=" << Mem
                      << " v=" << V;
                  ASSERT_EQ(Got.Returned, Want.Returned);
                }
  }
  EXPECT_EQ(Cases, 3u * 2 * 3 * 2 * 2 * 2 * 22 * 22);
}

// Under every policy the final memory of a reduction does not depend on the
// order of the operands (what makes lowered shaders deterministic).
TEST(Reference, ReductionIsOrderIndependent) {
  for (unsigned W : {16u, 32u, 64u}) {
    const auto G = grid(W);
    for (FloatOp Op : {FloatOp::Min, FloatOp::Max})
      for (NanPolicy P : AllPolicies)
        for (uint64_t Init : G) {
          std::vector<uint64_t> Vals = G;
          const uint64_t Fwd = referenceReduce(Op, W, P, Init, Vals.data(), Vals.size());
          std::vector<uint64_t> Rev(Vals.rbegin(), Vals.rend());
          ASSERT_EQ(referenceReduce(Op, W, P, Init, Rev.data(), Rev.size()), Fwd);
          std::rotate(Vals.begin(), Vals.begin() + 7, Vals.end());
          ASSERT_EQ(referenceReduce(Op, W, P, Init, Vals.data(), Vals.size()), Fwd);
        }
  }
}

// The fast policy is exactly one sign-dispatched integer op.
TEST(Reference, FastIsTheDispatchedIntegerOp) {
  for (unsigned W : {16u, 32u, 64u})
    for (uint64_t Mem : grid(W))
      for (uint64_t V : grid(W))
        for (FloatOp Op : {FloatOp::Min, FloatOp::Max})
          ASSERT_EQ(referenceApply(Op, W, NanPolicy::Fast, Mem, V).Memory,
                    dispatchApply(Op, Mem, V, W));
}
