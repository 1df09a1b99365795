//===- CApiOutOfMemoryTest.cpp - fatomic.h when allocations fail ----------===//
//
// No exception crosses the C interface: with every allocation failing
// (test/fail-new, linked into this test), each call returns an error,
// leaves no output behind and reports through the message callback, the
// argument checks' messages included.
//
//===----------------------------------------------------------------------===//

#include "SpirvTestSupport.h"

#include "fatomic/fatomic.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

extern "C" void fatomic_fail_new(size_t AboveBytes, const char *InObject);

namespace {

/// Every allocation fails while one exists (through unwinding too).
struct FailingNew {
  FailingNew() { fatomic_fail_new(0, nullptr); }
  ~FailingNew() { fatomic_fail_new(SIZE_MAX, nullptr); }
  FailingNew(const FailingNew &) = delete;
  FailingNew &operator=(const FailingNew &) = delete;
};

/// The last message, kept without allocating.
struct Messages {
  char Last[256] = "";
  unsigned Count = 0;
  static void receive(void *User, fatomic_message_level, const char *Text) {
    auto *M = static_cast<Messages *>(User);
    std::strncpy(M->Last, Text, sizeof M->Last - 1);
    ++M->Count;
  }
};


// The size check's message is built in a std::string: where that fails,
// the call still returns (out of memory) instead of throwing.
TEST(CApiOutOfMemory, ProfileSizeCheck) {
  fatomic_target *Target = reinterpret_cast<fatomic_target *>(&Target);
  Messages M;
  fatomic_result R;
  {
    FailingNew F;
    R = fatomic_target_load_profile("{}", SIZE_MAX, &Target, &Messages::receive, &M);
  }
  EXPECT_EQ(R, FATOMIC_ERROR_OUT_OF_MEMORY);
  EXPECT_EQ(Target, nullptr);
  EXPECT_STREQ(M.Last, "out of memory");
  // With memory, the same call is the argument error it is.
  R = fatomic_target_load_profile("{}", SIZE_MAX, &Target, &Messages::receive, &M);
  EXPECT_EQ(R, FATOMIC_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::strstr(M.Last, "json_size 18446744073709551615 is too large"), nullptr);
}

TEST(CApiOutOfMemory, LowerSizeCheck) {
  uint32_t Word = 0;
  uint32_t *Out = &Word;
  size_t OutCount = 1;
  Messages M;
  fatomic_result R;
  {
    FailingNew F;
    R = fatomic_lower(nullptr, nullptr, &Word, SIZE_MAX, &Out, &OutCount, nullptr,
                      &Messages::receive, &M);
  }
  EXPECT_EQ(R, FATOMIC_ERROR_OUT_OF_MEMORY);
  EXPECT_EQ(Out, nullptr);
  EXPECT_EQ(OutCount, 0u);
}

TEST(CApiOutOfMemory, Lower) {
  const std::vector<uint32_t> Words = fatomic::test::assemble(fatomic::test::BufferMaxModule);
  ASSERT_FALSE(Words.empty());
  uint32_t *Out = nullptr;
  size_t OutCount = 0;
  unsigned Lowered = 7;
  Messages M;
  fatomic_result R;
  {
    FailingNew F;
    R = fatomic_lower(nullptr, nullptr, Words.data(), Words.size(), &Out, &OutCount,
                      &Lowered, &Messages::receive, &M);
  }
  EXPECT_EQ(R, FATOMIC_ERROR_OUT_OF_MEMORY);
  EXPECT_EQ(Out, nullptr);
  EXPECT_EQ(OutCount, 0u);
  EXPECT_EQ(Lowered, 0u);
  EXPECT_STREQ(M.Last, "out of memory");
  // And once memory is back, the same call lowers.
  R = fatomic_lower(nullptr, nullptr, Words.data(), Words.size(), &Out, &OutCount, &Lowered,
                    &Messages::receive, &M);
  EXPECT_EQ(R, FATOMIC_SUCCESS);
  EXPECT_EQ(Lowered, 1u);
  fatomic_free(Out);
}

} // namespace
