//===- OrderMap.cpp - Names for the order-map enums -----------------------===//

#include "fatomic/OrderMap.h"

namespace fatomic {

const char *toString(FloatOp Op) { return Op == FloatOp::Min ? "min" : "max"; }

const char *toString(IntOp Op) {
  switch (Op) {
  case IntOp::SMin:
    return "smin";
  case IntOp::SMax:
    return "smax";
  case IntOp::UMin:
    return "umin";
  case IntOp::UMax:
    return "umax";
  }
  return "?";
}

} // namespace fatomic
