//===- FuzzProfile.cpp - Fuzz target: the Vulkan profile reader -----------===//
//
// Arbitrary text into fatomic::loadProfile (`vulkaninfo --json` documents).
// It must return a model or an error message, never throw or crash.
//
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"

#include "fatomic/Target.h"

#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  const std::string_view Text(reinterpret_cast<const char *>(Data), Size);
  std::string Error;
  auto Model = fatomic::loadProfile(Text, Error);
  if (!Model && Error.empty())
    fatomic::fuzz::fail("profile rejected without a message");
  if (Model) {
    // Every float min/max feature is known after a successful load.
    for (unsigned I = 0; I < unsigned(fatomic::Feature::ShaderBufferInt64Atomics); ++I)
      if (!Model->isKnown(fatomic::Feature(I)))
        fatomic::fuzz::fail(std::string("feature left unknown: ") +
                            fatomic::featureName(fatomic::Feature(I)));
  }
  return 0;
}
