//===- fatomic-selfcheck.cpp - Quick check of the Core semantics ----------===//
//
// Sweeps the special-value grid for every width, op and policy, comparing the
// sign-dispatched integer form with the reference model, and prints a table
// of the interesting rows.  Exit status 0 when every row agrees.
//
//===----------------------------------------------------------------------===//

#include "fatomic/OrderMap.h"
#include "fatomic/Reference.h"

#include <cinttypes>
#include <cstdio>
#include <vector>

using namespace fatomic;

int main() {
  unsigned Checked = 0, Failed = 0;
  for (unsigned W : {16u, 32u, 64u}) {
    const uint64_t S = signBit(W), E = exponentMask(W), M = widthMask(mantissaBits(W));
    const std::vector<uint64_t> Grid = {
        0, S, 1, S | 1, M, S | M, M + 1, S | (M + 1), E - 1, S | (E - 1), E, S | E,
        E | ((M >> 1) + 1), S | E | ((M >> 1) + 1), E | 1, S | E | 1,
        identityPattern(FloatOp::Min, W), stickyPattern(FloatOp::Min, W)};
    for (FloatOp Op : {FloatOp::Min, FloatOp::Max})
      for (uint64_t Mem : Grid)
        for (uint64_t V : Grid) {
          if (isNaN(Mem, W) || isNaN(V, W))
            continue;
          ++Checked;
          const uint64_t Int = dispatchApply(Op, Mem, V, W);
          const uint64_t Ref =
              referenceApply(Op, W, NanPolicy::Number, Mem, V).Memory;
          if (Int != Ref) {
            ++Failed;
            std::printf("MISMATCH f%u %s mem=%#" PRIx64 " v=%#" PRIx64
                        " int=%#" PRIx64 " ref=%#" PRIx64 "\n",
                        W, toString(Op), Mem, V, Int, Ref);
          }
        }
  }
  std::printf("fatomic-selfcheck: %u non-NaN grid pairs, %u mismatches\n",
              Checked, Failed);
  return Failed ? 1 : 0;
}
