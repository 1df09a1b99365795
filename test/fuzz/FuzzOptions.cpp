//===- FuzzOptions.cpp - Fuzz target: the lowering's option string --------===//
//
// Arbitrary text into fatomic::parseOptions.  A rejected string must come
// with a message; an accepted one must round-trip through its canonical
// spelling (str()).
//
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"

#include "fatomic/Options.h"

#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  const std::string_view Text(reinterpret_cast<const char *>(Data), Size);
  std::string Error;
  auto O = fatomic::parseOptions(Text, Error);
  if (!O) {
    if (Error.empty())
      fatomic::fuzz::fail("option string rejected without a message");
    return 0;
  }
  const std::string Canonical = O->str();
  auto Again = fatomic::parseOptions(Canonical, Error);
  if (!Again)
    fatomic::fuzz::fail("canonical spelling '" + Canonical +
                        "' does not parse: " + Error);
  if (Again->str() != Canonical)
    fatomic::fuzz::fail("canonical spelling does not round-trip: '" +
                        Canonical + "' -> '" + Again->str() + "'");
  return 0;
}
