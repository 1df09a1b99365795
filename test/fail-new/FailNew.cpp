//===- FailNew.cpp - An operator new that throws on demand (tests only) ---===//
//
// Replaces the global operator new and new[] of a process, by LD_PRELOAD
// or by linking, so that a test sees how code copes with std::bad_alloc
// without exhausting memory.  An allocation throws std::bad_alloc where
//
//   FATOMIC_FAIL_NEW_ABOVE=N   it asks for more than N bytes, and
//   FATOMIC_FAIL_NEW_IN=TEXT   (optional) the code that called operator new
//                              lies in a loaded object whose path contains
//                              TEXT (dladdr of the return address), so
//                              that only, say, the Vulkan layer's own
//                              allocations fail, not the application's or
//                              the driver's.
//
// A program that links the library sets the same with fatomic_fail_new().
// Every other allocation is malloc's; nothing depends on timing.
//
//===----------------------------------------------------------------------===//

#include <dlfcn.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>

namespace {
std::atomic<std::size_t> Above{SIZE_MAX};
std::atomic<const char *> In{nullptr};

__attribute__((constructor)) void readEnvironment() {
  if (const char *A = std::getenv("FATOMIC_FAIL_NEW_ABOVE"); A && *A)
    Above = std::strtoull(A, nullptr, 10);
  if (const char *T = std::getenv("FATOMIC_FAIL_NEW_IN"); T && *T)
    In = T;
}

bool calledFrom(const void *Caller, const char *Text) {
  Dl_info Info;
  return dladdr(Caller, &Info) && Info.dli_fname && std::strstr(Info.dli_fname, Text);
}

void *allocate(std::size_t Size, const void *Caller) {
  if (Size > Above.load(std::memory_order_relaxed)) {
    const char *Text = In.load(std::memory_order_relaxed);
    if (!Text || calledFrom(Caller, Text))
      throw std::bad_alloc();
  }
  if (void *P = std::malloc(Size ? Size : 1))
    return P;
  throw std::bad_alloc();
}
} // namespace

/// Allocations of more than \p AboveBytes fail from now on, those called
/// from an object whose path contains \p InObject only where it is not
/// null; SIZE_MAX lets every allocation through again.
extern "C" __attribute__((visibility("default"))) void
fatomic_fail_new(std::size_t AboveBytes, const char *InObject) {
  In = InObject;
  Above = AboveBytes;
}

void *operator new(std::size_t Size) { return allocate(Size, __builtin_return_address(0)); }
void *operator new[](std::size_t Size) { return allocate(Size, __builtin_return_address(0)); }
void operator delete(void *P) noexcept { std::free(P); }
void operator delete[](void *P) noexcept { std::free(P); }
void operator delete(void *P, std::size_t) noexcept { std::free(P); }
void operator delete[](void *P, std::size_t) noexcept { std::free(P); }
