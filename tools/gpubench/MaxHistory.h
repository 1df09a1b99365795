//===- MaxHistory.h - Are a dispatch's returned values linearizable? ------===//
//
// The GPU benchmark's check of the values its atomics returned: whether the
// float atomic max operations of one dispatch, with the value each one
// returned, can be put in one order per address that is consistent with
// every invocation's program order and in which each operation returned the
// memory just before it (per-location coherence, what relaxed atomics
// guarantee; the operations of different addresses are independent).
//
// The benchmark's operands are numbers (no NaN), so memory only ever rises
// in the order of fatomic::toOrdered (-0 < +0).  Per address, the operations
// whose operand exceeds what they returned are the writers; such an order
// exists iff
//   1. sorted by operand, the writers form a chain: the first returned the
//      initial value, each later one returned the operand of the one before
//      it (so no two writers have equal operands), and the last operand is
//      the final memory (the initial value where there are no writers);
//   2. every other operation returned a value of that chain;
//   3. an invocation's later operation on the address returned at least the
//      larger of the earlier one's returned value and operand.
// Sufficiency: order the operations by the chain value they returned, each
// value's non-writers first in program order, then its writer.
//
//===----------------------------------------------------------------------===//
#ifndef FATOMIC_GPUBENCH_MAXHISTORY_H
#define FATOMIC_GPUBENCH_MAXHISTORY_H

#include <cstdint>
#include <string>
#include <vector>

namespace gpubench {

/// One float atomic max of a dispatch: raw bits of the operand and of the
/// returned value, in the width of the check.
struct MaxOp {
  uint32_t Addr;
  uint64_t Operand;
  uint64_t Returned;
};

struct HistoryVerdict {
  uint64_t Ops = 0;       ///< operations checked
  uint64_t BadAddrs = 0;  ///< addresses whose history is not linearizable
  std::string First;      ///< what is wrong at the first such address
};

/// Checks a dispatch of \p Ops.size() / \p Iters invocations: Ops[i * Iters
/// + k] is invocation i's operation k.  \p Init is every address's initial
/// memory and \p Final[a] address a's memory after the dispatch, raw bits of
/// \p Width (32 or 64); operands must be numbers.  Runs on up to \p Threads
/// threads.
/// \p Bits as the messages show them: hexadecimal, \p Width / 4 digits.
std::string hexBits(uint64_t Bits, unsigned Width);

HistoryVerdict checkMaxHistory(unsigned Width, uint64_t Init,
                               const std::vector<uint64_t> &Final,
                               const std::vector<MaxOp> &Ops, uint32_t Iters,
                               unsigned Threads);

} // namespace gpubench

#endif
