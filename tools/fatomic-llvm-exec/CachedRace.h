//===- CachedRace.h - The bound cache's kernels racing other writers ------===//
//
// Scenario `cached` of fatomic-llvm-race (CachedRace.cpp): a kernel that
// the bound cache applies to (lib/LLVM/BoundCache.h) runs eight float
// min/max atomics on one word while another thread writes the same word
// with exchanges, compare-exchanges, stores and lowered atomics of both
// directions.
//
//===----------------------------------------------------------------------===//

#ifndef FATOMIC_TOOLS_LLVM_EXEC_CACHEDRACE_H
#define FATOMIC_TOOLS_LLVM_EXEC_CACHEDRACE_H

#include "fatomic/Options.h"

#include <cstdint>
#include <string>

namespace fatomic {
namespace hosttools {

/// Prints the kernels of scenario `cached`, race.cached.<shape>.<op>.<type>
/// (CachedRace.cpp's header), as LLVM IR.
void emitCachedRaceKernels();

/// Races kernel race.\p Name of \p Lib (lowered under \p Options) on CPU
/// \p CpuA against thread B on \p CpuB, for up to \p MaxRounds rounds or
/// \p Seconds.  Returns false, after a message, where \p Lib lacks a
/// kernel; otherwise sets \p Rounds and \p Violations.
bool raceCached(void *Lib, const LoweringOptions &Options,
                const std::string &Name, int CpuA, int CpuB,
                uint64_t MaxRounds, double Seconds, uint64_t &Rounds,
                uint64_t &Violations);

} // namespace hosttools
} // namespace fatomic

#endif // FATOMIC_TOOLS_LLVM_EXEC_CACHEDRACE_H
