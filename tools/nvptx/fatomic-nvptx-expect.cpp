//===- fatomic-nvptx-expect.cpp - Special-value cases for the NVPTX run ---===//
//
// Writes the special-value correctness cases of the NVPTX benchmark
// (tools/nvptx/nvptx-bench.py) as JSON: for binary32 and binary64, float min
// and max under the `number` policy (the default of atomicrmw fmin/fmax) and
// the `propagate` policy (that of atomicrmw fminimum/fmaximum), the
// initial memory of every address, the operand and address of every GPU
// thread, and what fatomic's reference model (Reference.h) says must come
// out:
//
//   "final":     the memory of each address after all its operands, from
//                referenceReduce (it does not depend on the order in which
//                the threads' atomics land);
//   "reachable": each address's values that memory can hold at any point
//                (the initial value, and whatever referenceApply makes of a
//                reachable value and one of the address's operands).  The
//                value an atomic returns is the memory before it, so it must
//                be one of these.
//
// The grid has both zeros, subnormals, normals, the largest finite value,
// infinities, quiet and signalling NaNs of both signs and NaN payloads.
// Addresses come in two parts: one per (memory, operand) pair of the grid,
// each hit by one thread; then, for each grid value as initial memory,
// several addresses hit by one thread per grid value, consecutive threads on
// the same address so that they contend.  Numbers are written as decimal
// integers (bit patterns).
//
// usage: fatomic-nvptx-expect -o FILE
//
//===----------------------------------------------------------------------===//

#include "fatomic/OrderMap.h"
#include "fatomic/Reference.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <set>
#include <string>
#include <vector>

using namespace fatomic;

namespace {

constexpr unsigned Repeats = 8; ///< contended addresses per initial value

struct Case {
  unsigned Width;
  FloatOp Op;
  NanPolicy Policy;
  std::vector<uint64_t> Init;     ///< per address
  std::vector<uint64_t> Operand;  ///< per thread
  std::vector<uint32_t> Address;  ///< per thread
};

Case makeCase(unsigned W, FloatOp Op, NanPolicy Policy) {
  const std::vector<uint64_t> Grid = specialValues(W);
  const size_t G = Grid.size();
  Case C{W, Op, Policy, {}, {}, {}};
  for (size_t A = 0; A < G; ++A)
    for (size_t B = 0; B < G; ++B) {
      C.Address.push_back(uint32_t(C.Init.size()));
      C.Operand.push_back(Grid[B]);
      C.Init.push_back(Grid[A]);
    }
  for (size_t A = 0; A < G; ++A)
    for (unsigned R = 0; R < Repeats; ++R) {
      const uint32_t Addr = uint32_t(C.Init.size());
      C.Init.push_back(Grid[A]);
      for (size_t B = 0; B < G; ++B) { // every operand, in a rotated order
        C.Address.push_back(Addr);
        C.Operand.push_back(Grid[(B + 5 * R + A) % G]);
      }
    }
  return C;
}

void writeArray(FILE *Out, const char *Key, const std::vector<uint64_t> &V) {
  std::fprintf(Out, "\"%s\": [", Key);
  for (size_t I = 0; I < V.size(); ++I)
    std::fprintf(Out, "%s%llu", I ? ", " : "", (unsigned long long)V[I]);
  std::fprintf(Out, "]");
}

void writeCase(FILE *Out, const Case &C) {
  const NanPolicy Policy = C.Policy;
  const size_t NumAddr = C.Init.size();
  std::vector<std::vector<uint64_t>> PerAddr(NumAddr);
  for (size_t T = 0; T < C.Operand.size(); ++T)
    PerAddr[C.Address[T]].push_back(C.Operand[T]);

  std::vector<uint64_t> Final(NumAddr);
  std::vector<std::set<uint64_t>> Reachable(NumAddr);
  for (size_t A = 0; A < NumAddr; ++A) {
    const std::vector<uint64_t> &Ops = PerAddr[A];
    Final[A] = referenceReduce(C.Op, C.Width, Policy, C.Init[A], Ops.data(),
                               Ops.size());
    std::set<uint64_t> &S = Reachable[A];
    S.insert(C.Init[A]);
    for (bool Grew = true; Grew;) {
      Grew = false;
      for (uint64_t M : std::vector<uint64_t>(S.begin(), S.end()))
        for (uint64_t V : Ops)
          Grew |= S.insert(referenceApply(C.Op, C.Width, Policy, M, V).Memory)
                      .second;
    }
  }

  std::fprintf(Out, "    {\"width\": %u, \"op\": \"%s\", \"policy\": \"%s\",\n",
               C.Width, toString(C.Op), toString(Policy));
  std::fprintf(Out, "     ");
  writeArray(Out, "init", C.Init);
  std::fprintf(Out, ",\n     ");
  writeArray(Out, "operand", C.Operand);
  std::fprintf(Out, ",\n     ");
  writeArray(Out, "address",
             std::vector<uint64_t>(C.Address.begin(), C.Address.end()));
  std::fprintf(Out, ",\n     ");
  writeArray(Out, "final", Final);
  std::fprintf(Out, ",\n     \"reachable\": [");
  for (size_t A = 0; A < NumAddr; ++A) {
    std::fprintf(Out, "%s[", A ? ", " : "");
    size_t I = 0;
    for (uint64_t V : Reachable[A])
      std::fprintf(Out, "%s%llu", I++ ? ", " : "", (unsigned long long)V);
    std::fprintf(Out, "]");
  }
  std::fprintf(Out, "]}");
}

int usage(FILE *To) {
  std::fprintf(To,
               "usage: fatomic-nvptx-expect -o FILE\n"
               "Writes the special-value cases of the NVPTX benchmark "
               "(binary32/binary64, min/max,\nnan=number and nan=propagate) with "
               "the reference "
               "model's final memory and reachable values, as JSON.\n");
  return To == stdout ? 0 : 1;
}

} // namespace

int main(int Argc, char **Argv) {
  std::string Path;
  for (int I = 1; I < Argc; ++I) {
    if (!std::strcmp(Argv[I], "--help") || !std::strcmp(Argv[I], "-h"))
      return usage(stdout);
    if (!std::strcmp(Argv[I], "-o") && I + 1 < Argc) {
      Path = Argv[++I];
      continue;
    }
    std::fprintf(stderr, "fatomic-nvptx-expect: unexpected argument '%s'\n",
                 Argv[I]);
    return usage(stderr);
  }
  if (Path.empty())
    return usage(stderr);

  std::vector<Case> Cases;
  for (NanPolicy Policy : {NanPolicy::Number, NanPolicy::Propagate})
    for (unsigned W : {32u, 64u})
      for (FloatOp Op : {FloatOp::Min, FloatOp::Max})
        Cases.push_back(makeCase(W, Op, Policy));

  // Written to a temporary name first: no partial file on failure.
  const std::string Tmp = Path + ".tmp";
  FILE *Out = std::fopen(Tmp.c_str(), "w");
  if (!Out) {
    std::fprintf(stderr, "fatomic-nvptx-expect: cannot write '%s': %s\n",
                 Tmp.c_str(), std::strerror(errno));
    return 1;
  }
  std::fprintf(Out, "{\"repeats\": %u, \"cases\": [\n", Repeats);
  for (size_t I = 0; I < Cases.size(); ++I) {
    writeCase(Out, Cases[I]);
    std::fprintf(Out, I + 1 < Cases.size() ? ",\n" : "\n");
  }
  std::fprintf(Out, "]}\n");
  const bool WriteFailed = std::ferror(Out) != 0;
  if (std::fclose(Out) != 0 || WriteFailed ||
      std::rename(Tmp.c_str(), Path.c_str()) != 0) {
    std::fprintf(stderr, "fatomic-nvptx-expect: cannot write '%s'\n",
                 Path.c_str());
    std::remove(Tmp.c_str());
    return 1;
  }
  return 0;
}
