//===- Parallel.h - One range split over the host's threads ---------------===//
//
// The benchmark's host-side work (the reference memory, the recorded values,
// their check) splits a range of invocations or addresses into equal
// consecutive parts, one per thread.
//
//===----------------------------------------------------------------------===//
#ifndef FATOMIC_GPUBENCH_PARALLEL_H
#define FATOMIC_GPUBENCH_PARALLEL_H

#include <algorithm>
#include <cstdint>
#include <thread>
#include <vector>

namespace gpubench {

/// The threads the host-side work uses: the host's, at most 16.
inline unsigned hostThreads() {
  return std::max(1u, std::min(16u, std::thread::hardware_concurrency()));
}

/// Runs Work(T, Begin, End) for T = 0 .. Threads-1 at once, the parts
/// [Begin, End) splitting [0, N) in order; the calling thread runs part 0.
template <typename Fn> void parallelParts(unsigned Threads, uint64_t N, Fn Work) {
  std::vector<std::thread> Pool;
  auto Part = [&](unsigned T) { Work(T, N * T / Threads, N * (T + 1) / Threads); };
  for (unsigned T = 1; T < Threads; ++T)
    Pool.emplace_back(Part, T);
  Part(0);
  for (std::thread &Th : Pool)
    Th.join();
}

} // namespace gpubench

#endif
