//===- NanPolicy.cpp - Parse and print NaN policies -----------------------===//

#include "fatomic/NanPolicy.h"

namespace fatomic {

std::optional<NanPolicy> parseNanPolicy(std::string_view Text) {
  if (Text == "number")
    return NanPolicy::Number;
  if (Text == "propagate")
    return NanPolicy::Propagate;
  if (Text == "fast")
    return NanPolicy::Fast;
  return std::nullopt;
}

const char *toString(NanPolicy Policy) {
  switch (Policy) {
  case NanPolicy::Number:
    return "number";
  case NanPolicy::Propagate:
    return "propagate";
  case NanPolicy::Fast:
    return "fast";
  }
  return "?";
}

} // namespace fatomic
