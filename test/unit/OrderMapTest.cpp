//===- OrderMapTest.cpp - Exhaustive checks of the order-preserving map ---===//
//
// binary32: all 2^32 patterns.  binary16: all 2^16.  binary64: the special
// classes plus 10^8 random pairs.  The "true" order comes from the host's
// float/double comparison (or _Float16 converted to float), not from the map.
//
//===----------------------------------------------------------------------===//

#include "fatomic/OrderMap.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

using namespace fatomic;

namespace {

float asFloat(uint32_t B) {
  float F;
  std::memcpy(&F, &B, sizeof F);
  return F;
}
double asDouble(uint64_t B) {
  double D;
  std::memcpy(&D, &B, sizeof D);
  return D;
}
float halfToFloat(uint16_t H) {
  _Float16 F;
  std::memcpy(&F, &H, sizeof F);
  return static_cast<float>(F);
}

/// True IEEE order with -0 < +0, for non-NaN values held as T.
template <typename T> bool trueLess(T A, T B) {
  if (A == B)
    return std::signbit(A) && !std::signbit(B);
  return A < B;
}

/// Walks the non-NaN patterns of one width in ascending IEEE order
/// (-inf ... -0, +0 ... +inf) and calls F(prev, cur) for each neighbour pair.
template <typename Fn> void walkAscending(unsigned W, Fn &&F) {
  const uint64_t S = signBit(W), Inf = exponentMask(W);
  bool Have = false;
  uint64_t Prev = 0;
  auto Visit = [&](uint64_t B) {
    if (Have)
      F(Prev, B);
    Prev = B;
    Have = true;
  };
  for (uint64_t M = Inf;; --M) { // negative: magnitude falls as value rises
    Visit(S | M);
    if (M == 0)
      break;
  }
  for (uint64_t M = 0; M <= Inf; ++M)
    Visit(M);
}

} // namespace

TEST(OrderMap, Float32IsBijection) {
  uint64_t Bad = 0;
  for (uint64_t B = 0; B <= 0xFFFFFFFFull; ++B)
    Bad += fromOrdered(toOrdered(B, 32), 32) != B || toOrdered(B, 32) > 0xFFFFFFFFull;
  EXPECT_EQ(Bad, 0u);
}

TEST(OrderMap, Float32PreservesOrderExhaustively) {
  // Ascending IEEE walk over all 2^32 - 2^24 + 2 non-NaN patterns: the walk
  // is checked against the hardware comparison, and U must rise strictly.
  // Strictly rising along a sorted walk gives a < b <=> U(a) < U(b) for
  // every pair, by transitivity.
  uint64_t Steps = 0, NotSorted = 0, NotRising = 0;
  walkAscending(32, [&](uint64_t A, uint64_t B) {
    ++Steps;
    NotSorted += !trueLess(asFloat(uint32_t(A)), asFloat(uint32_t(B)));
    NotRising += !(toOrdered(A, 32) < toOrdered(B, 32));
  });
  EXPECT_EQ(Steps, 0xFFFFFFFFull - 0xFFFFFEull); // 2^32 - (2^24 - 2) - 1 pairs
  EXPECT_EQ(NotSorted, 0u);
  EXPECT_EQ(NotRising, 0u);
}

TEST(OrderMap, Float32NaNPlacement) {
  const uint64_t UPosInf = toOrdered(0x7F800000, 32);
  const uint64_t UNegInf = toOrdered(0xFF800000, 32);
  uint64_t Bad = 0, NaNs = 0;
  for (uint64_t B = 0; B <= 0xFFFFFFFFull; ++B) {
    if (!std::isnan(asFloat(uint32_t(B)))) {
      Bad += isNaN(B, 32);
      continue;
    }
    ++NaNs;
    Bad += !isNaN(B, 32);
    Bad += isSignSet(B, 32) ? !(toOrdered(B, 32) < UNegInf)
                            : !(toOrdered(B, 32) > UPosInf);
  }
  EXPECT_EQ(NaNs, 2 * (0x800000ull - 1));
  EXPECT_EQ(Bad, 0u);
}

TEST(OrderMap, Float16Exhaustive) {
  for (uint64_t B = 0; B <= 0xFFFF; ++B) {
    ASSERT_EQ(fromOrdered(toOrdered(B, 16), 16), B);
    ASSERT_LE(toOrdered(B, 16), 0xFFFFu);
    ASSERT_EQ(isNaN(B, 16), std::isnan(halfToFloat(uint16_t(B)))) << B;
  }
  uint64_t Steps = 0;
  walkAscending(16, [&](uint64_t A, uint64_t B) {
    ++Steps;
    ASSERT_TRUE(trueLess(halfToFloat(uint16_t(A)), halfToFloat(uint16_t(B))))
        << std::hex << A << " " << B;
    ASSERT_LT(toOrdered(A, 16), toOrdered(B, 16)) << std::hex << A << " " << B;
  });
  EXPECT_EQ(Steps, 0xFFFFull - 0x7FEull);
  for (uint64_t B = 0; B <= 0xFFFF; ++B) {
    if (isNaN(B, 16)) {
      ASSERT_TRUE(isSignSet(B, 16) ? toOrdered(B, 16) < toOrdered(0xFC00, 16)
                                   : toOrdered(B, 16) > toOrdered(0x7C00, 16));
    }
  }
}

TEST(OrderMap, Float64SpecialClassesAndRandomPairs) {
  const uint64_t S = signBit(64);
  const std::vector<uint64_t> Specials = {
      0, S, 1, S | 1, 0x000FFFFFFFFFFFFFull, S | 0x000FFFFFFFFFFFFFull,
      0x0010000000000000ull, S | 0x0010000000000000ull, 0x3FF0000000000000ull,
      S | 0x3FF0000000000000ull, 0x7FEFFFFFFFFFFFFFull,
      S | 0x7FEFFFFFFFFFFFFFull, 0x7FF0000000000000ull, S | 0x7FF0000000000000ull};
  for (uint64_t A : Specials) {
    ASSERT_EQ(fromOrdered(toOrdered(A, 64), 64), A);
    for (uint64_t B : Specials)
      ASSERT_EQ(trueLess(asDouble(A), asDouble(B)),
                toOrdered(A, 64) < toOrdered(B, 64))
          << std::hex << A << " " << B;
  }
  for (uint64_t N : {0x7FF8000000000000ull, 0x7FF0000000000001ull,
                     0x7FFFFFFFFFFFFFFFull}) {
    EXPECT_GT(toOrdered(N, 64), toOrdered(0x7FF0000000000000ull, 64));
    EXPECT_LT(toOrdered(N | S, 64), toOrdered(S | 0x7FF0000000000000ull, 64));
  }
  std::mt19937_64 Rng(0x5eedf00d);
  uint64_t Bad = 0, Pairs = 0;
  for (uint64_t I = 0; I < 100000000ull; ++I) {
    // Mix raw patterns with values near each other so that close pairs occur.
    const uint64_t A = Rng();
    const uint64_t B = (I & 1) ? Rng() : A + (Rng() & 0xFF) - 0x80;
    if (std::isnan(asDouble(A)) || std::isnan(asDouble(B)))
      continue;
    ++Pairs;
    Bad += fromOrdered(toOrdered(A, 64), 64) != A;
    Bad += trueLess(asDouble(A), asDouble(B)) != (toOrdered(A, 64) < toOrdered(B, 64));
  }
  EXPECT_GT(Pairs, 99000000u);
  EXPECT_EQ(Bad, 0u);
}

TEST(OrderMap, DispatchTable) {
  EXPECT_EQ(dispatchOp(FloatOp::Min, false), IntOp::SMin);
  EXPECT_EQ(dispatchOp(FloatOp::Min, true), IntOp::UMax);
  EXPECT_EQ(dispatchOp(FloatOp::Max, false), IntOp::SMax);
  EXPECT_EQ(dispatchOp(FloatOp::Max, true), IntOp::UMin);
  // -0 has its sign bit set: min(+0, -0) must pick -0 (a `v >= 0` test would
  // send -0 down the signed path and keep +0).
  EXPECT_EQ(dispatchApply(FloatOp::Min, 0x00000000, 0x80000000, 32), 0x80000000u);
  EXPECT_EQ(dispatchApply(FloatOp::Max, 0x80000000, 0x00000000, 32), 0x00000000u);
  EXPECT_EQ(identityPattern(FloatOp::Min, 32), 0x7FFFFFFFu);
  EXPECT_EQ(identityPattern(FloatOp::Max, 32), 0xFFFFFFFFu);
  EXPECT_EQ(stickyPattern(FloatOp::Min, 32), 0xFFFFFFFFu);
  EXPECT_EQ(stickyPattern(FloatOp::Max, 64), 0x7FFFFFFFFFFFFFFFull);
}
