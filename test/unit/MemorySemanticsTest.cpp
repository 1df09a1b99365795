//===- MemorySemanticsTest.cpp - Semantics of the lowered SPIR-V atomics --===//
//
// lib/SPIRV/Semantics: the storage-class bit of each class, when the
// early-out is legal, and the semantics and barriers of a compare-exchange
// loop for each kind of ordering (constant, unknown, SequentiallyConsistent
// in a Kernel module), with Volatile, MakeAvailable and MakeVisible.
//
//===----------------------------------------------------------------------===//

#include "Semantics.h"

#include <gtest/gtest.h>

using namespace fatomic::spirv;
using spv::StorageClass;

namespace {

constexpr uint64_t Uniform = 0x40, Workgroup = 0x100, CrossWorkgroup = 0x200;

TEST(MemorySemantics, StorageClassBits) {
  EXPECT_EQ(storageClassSemantics(StorageClass::StorageBuffer), Uniform);
  EXPECT_EQ(storageClassSemantics(StorageClass::Uniform), Uniform);
  EXPECT_EQ(storageClassSemantics(StorageClass::PhysicalStorageBuffer), Uniform);
  EXPECT_EQ(storageClassSemantics(StorageClass::Workgroup), Workgroup);
  EXPECT_EQ(storageClassSemantics(StorageClass::CrossWorkgroup), CrossWorkgroup);
  EXPECT_EQ(storageClassSemantics(StorageClass::Generic), Workgroup | CrossWorkgroup);
  EXPECT_EQ(storageClassSemantics(StorageClass::Image), 0x800u);
  EXPECT_EQ(storageClassSemantics(StorageClass::Function), 0u);
  EXPECT_EQ(storageClassSemantics(StorageClass::Private), 0u);
}

TEST(MemorySemantics, EarlyOutOnlyForRelaxedAndAcquire) {
  EXPECT_TRUE(earlyOutAllowed(0));
  EXPECT_TRUE(earlyOutAllowed(Uniform));
  EXPECT_TRUE(earlyOutAllowed(SemAcquire | Uniform | SemMakeVisible));
  EXPECT_FALSE(earlyOutAllowed(SemRelease | Uniform));
  EXPECT_FALSE(earlyOutAllowed(SemAcqRel | Uniform));
  EXPECT_FALSE(earlyOutAllowed(SemSeqCst | Uniform));
  EXPECT_FALSE(earlyOutAllowed(SemVolatile));
  EXPECT_FALSE(earlyOutAllowed(SemAcquire | SemVolatile));
}

TEST(MemorySemantics, UnknownSemanticsLoadRelaxed) {
  const LoopSemantics L = casLoopSemantics(std::nullopt, StorageClass::StorageBuffer, false);
  ASSERT_TRUE(L.Load);
  EXPECT_EQ(*L.Load, 0u);
  EXPECT_FALSE(L.Equal); // the atomic's own
  EXPECT_FALSE(L.Before);
  EXPECT_FALSE(L.After);
  EXPECT_TRUE(L.OwnAfter); // a barrier with the atomic's own semantics
}

TEST(MemorySemantics, RelaxedKeepsItsOwnEverywhere) {
  const LoopSemantics L = casLoopSemantics(Uniform, StorageClass::StorageBuffer, false);
  EXPECT_FALSE(L.Load);
  EXPECT_FALSE(L.Equal);
  EXPECT_FALSE(L.Before);
  EXPECT_FALSE(L.After);
}

TEST(MemorySemantics, AcquireReleaseMovesToBarriers) {
  const LoopSemantics L =
      casLoopSemantics(SemAcqRel | Uniform, StorageClass::StorageBuffer, false);
  ASSERT_TRUE(L.Load && L.Equal && L.Before && L.After);
  EXPECT_EQ(*L.Load, 0u);
  EXPECT_EQ(*L.Equal, 0u);
  EXPECT_EQ(*L.Before, SemRelease | Uniform);
  EXPECT_EQ(*L.After, SemAcquire | Uniform);
}

TEST(MemorySemantics, BarriersCoverTheAtomicsOwnClass) {
  // Acquire naming no storage class, on Workgroup memory: the acquire
  // barrier still covers Workgroup memory; no release barrier.
  const LoopSemantics L = casLoopSemantics(SemAcquire, StorageClass::Workgroup, false);
  ASSERT_TRUE(L.After);
  EXPECT_EQ(*L.After, SemAcquire | Workgroup);
  EXPECT_FALSE(L.Before);
  // Release naming Uniform on Workgroup memory: both classes.
  const LoopSemantics R = casLoopSemantics(SemRelease | Uniform, StorageClass::Workgroup, false);
  ASSERT_TRUE(R.Before);
  EXPECT_EQ(*R.Before, SemRelease | Uniform | Workgroup);
  EXPECT_FALSE(R.After);
}

TEST(MemorySemantics, AvailabilityAndVisibilityGoWithTheirBarrier) {
  const uint64_t Sem = SemAcqRel | Uniform | SemMakeAvailable | SemMakeVisible | SemVolatile;
  const LoopSemantics L = casLoopSemantics(Sem, StorageClass::StorageBuffer, false);
  ASSERT_TRUE(L.Load && L.Before && L.After);
  EXPECT_EQ(*L.Load, uint64_t(SemVolatile)); // the loop's atomics stay Volatile
  EXPECT_EQ(*L.Equal, uint64_t(SemVolatile));
  EXPECT_EQ(*L.Before, SemRelease | Uniform | SemMakeAvailable);
  EXPECT_EQ(*L.After, SemAcquire | Uniform | SemMakeVisible);
}

TEST(MemorySemantics, SequentiallyConsistentUsesBothBarriers) {
  const LoopSemantics L = casLoopSemantics(SemSeqCst | Uniform, StorageClass::StorageBuffer,
                                           /*SeqCstStays=*/false);
  ASSERT_TRUE(L.Before && L.After);
  EXPECT_EQ(*L.Before, SemRelease | Uniform);
  EXPECT_EQ(*L.After, SemAcquire | Uniform);
}

TEST(MemorySemantics, KernelSequentiallyConsistentStaysOnTheLoop) {
  // Its total order has no barrier form: the Equal case keeps the atomic's
  // own; loads and the Unequal case drop the release part (and
  // MakeAvailable), keeping acquire and MakeVisible.
  const uint64_t Sem = SemSeqCst | CrossWorkgroup | SemMakeAvailable | SemMakeVisible;
  const LoopSemantics L = casLoopSemantics(Sem, StorageClass::CrossWorkgroup, true);
  ASSERT_TRUE(L.Load);
  EXPECT_EQ(*L.Load, SemAcquire | CrossWorkgroup | SemMakeVisible);
  EXPECT_FALSE(L.Equal);
  EXPECT_FALSE(L.Before);
  EXPECT_FALSE(L.After);
  // Acquire-release in a Kernel module still moves to barriers.
  const LoopSemantics A = casLoopSemantics(SemAcqRel | CrossWorkgroup,
                                           StorageClass::CrossWorkgroup, true);
  EXPECT_TRUE(A.Before && A.After);
}

} // namespace
