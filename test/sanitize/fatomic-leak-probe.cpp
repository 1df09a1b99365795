//===- fatomic-leak-probe.cpp - LeakSanitizer still sees fatomic's leaks --===//
//
// Owns the check behind the sanitizer stage's leak exemption for the Vulkan
// driver (tools/vkcommon): the probe creates a Vulkan instance and lists the
// devices exactly as fatomic-vkrun does, so a driver that leaks there (Mesa's
// lavapipe does) must not fail the run; with --leak it then loses a block of
// its own, which LeakSanitizer must still report.
//
//   fatomic-leak-probe          exit 0 under ASan: the driver's leak is exempt
//   fatomic-leak-probe --leak   a leak report naming leakOwnBlock
//
//===----------------------------------------------------------------------===//
#include "VulkanContext.h"

#include <cstdio>
#include <cstring>

namespace {
// Kept out of line so that the report's stack names it.
__attribute__((noinline)) void leakOwnBlock() {
  volatile char *Lost = new char[48];
  Lost[0] = 1;
  Lost = nullptr;
}
} // namespace

int main(int Argc, char **Argv) {
  bool Leak = Argc > 1 && std::strcmp(Argv[1], "--leak") == 0;
  try {
    fatomic::vk::Context C;
    C.createInstance("fatomic-leak-probe");
    std::printf("devices: %zu\n", C.devices().size());
  } catch (const fatomic::vk::Failure &F) {
    std::fprintf(stderr, "fatomic-leak-probe: %s\n", F.what());
    return F.Code;
  }
  if (Leak)
    leakOwnBlock();
  return 0;
}
