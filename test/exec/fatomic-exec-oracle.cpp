//===- fatomic-exec-oracle.cpp - Checks one execution test's buffers ------===//
//
//   fatomic-exec-oracle --op min|max --width 32|64
//                       --policy number|propagate|fast|native
//                       --naddr N [--parts P] --init F --vals F --addr F
//                       --final F [--returned F]
//
// Operation i applies vals[i] to address addr[i].  The operations are split
// into P equal consecutive parts; each part acts on its own copy of memory,
// initialised from init[0..N) (P = number of workgroups for workgroup-shared
// memory, 1 otherwise); final holds P*N values, part-major.  Values are raw
// little-endian 32- or 64-bit patterns.
//
// Lowered code (policy number/propagate/fast):
//   * final memory must equal fatomic::referenceReduce bit for bit;
//   * returned values (if given) must be linearizable: each operation's
//     returned value r_i is the memory before it, so the operations of one
//     address form the edges r_i -> referenceApply(r_i, v_i) of a multigraph,
//     and some execution order exists iff those edges form one trail from the
//     initial to the final value (every edge used once).  Checked exactly with
//     the Euler-trail conditions: out-degree minus in-degree is +1 at the
//     initial value, -1 at the final value (0 everywhere if they are equal),
//     0 elsewhere, and every edge is reachable from the initial value.
//
// A native driver (policy native) may choose where the specs allow it:
//   * one operation on an address: the final value must satisfy
//     fatomic::allowedBySpec and the returned value must be the initial one;
//   * several: the closure of that table.  Numbers among the initial value and
//     the operands present: the result is their min/max (-0 < +0), either zero
//     if that is a zero and both zeros occur; no numbers: any NaN; a
//     signalling NaN among them additionally allows any NaN.  Addresses whose
//     set has one element are counted as "exact";
//   * returned values: the Euler-trail check with the number policy where no
//     step can have a choice (no NaN involved, not both zeros); elsewhere each
//     returned value must be the initial value or an operand (or a NaN where
//     a NaN may be in memory).
//
// Prints one line "oracle: ..." with counts; exit 0 when every check passes,
// 1 on a mismatch (the first few are described), 2 on usage errors.
//
//===----------------------------------------------------------------------===//

#include "fatomic/NanPolicy.h"
#include "fatomic/OrderMap.h"
#include "fatomic/Reference.h"

#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <string>
#include <vector>

using namespace fatomic;

namespace {

[[noreturn]] void usage(const std::string &Msg) {
  std::fprintf(stderr, "fatomic-exec-oracle: %s\n", Msg.c_str());
  std::exit(2);
}

std::vector<uint64_t> readValues(const std::string &Path, unsigned Bytes) {
  std::ifstream In(Path, std::ios::binary);
  if (!In)
    usage("cannot open '" + Path + "'");
  std::vector<char> Data((std::istreambuf_iterator<char>(In)),
                         std::istreambuf_iterator<char>());
  if (Data.size() % Bytes)
    usage("'" + Path + "' size is not a multiple of " + std::to_string(Bytes));
  std::vector<uint64_t> V(Data.size() / Bytes);
  for (size_t I = 0; I < V.size(); ++I) {
    uint64_t X = 0;
    std::memcpy(&X, &Data[I * Bytes], Bytes);
    V[I] = X;
  }
  return V;
}

struct Op {
  uint64_t V;
  uint64_t Returned;
  bool HasReturned;
};

/// The Euler-trail condition for one address (see the file comment).
bool linearizable(const std::vector<Op> &Ops, uint64_t Init, uint64_t Final,
                  FloatOp FOp, unsigned Width, NanPolicy Policy,
                  std::string &Why) {
  std::map<uint64_t, long> Balance; // out - in
  std::map<uint64_t, std::vector<uint64_t>> Adj;
  for (const Op &O : Ops) {
    const uint64_t To = referenceApply(FOp, Width, Policy, O.Returned, O.V).Memory;
    ++Balance[O.Returned];
    --Balance[To];
    Adj[O.Returned].push_back(To);
  }
  ++Balance[Final]; // closing edge final -> init makes every node balanced
  --Balance[Init];
  for (const auto &[Node, B] : Balance)
    if (B != 0) {
      char Buf[160];
      std::snprintf(Buf, sizeof Buf,
                    "value 0x%" PRIx64 " is %s %ld more time(s) than it is %s",
                    Node, B > 0 ? "returned" : "produced", B > 0 ? B : -B,
                    B > 0 ? "produced" : "returned");
      Why = Buf;
      return false;
    }
  std::set<uint64_t> Seen{Init};
  std::vector<uint64_t> Work{Init};
  while (!Work.empty()) {
    uint64_t N = Work.back();
    Work.pop_back();
    for (uint64_t M : Adj[N])
      if (Seen.insert(M).second)
        Work.push_back(M);
  }
  for (const auto &[Node, Out] : Adj)
    if (!Seen.count(Node)) {
      char Buf[120];
      std::snprintf(Buf, sizeof Buf,
                    "returned value 0x%" PRIx64
                    " is never reached from the initial value",
                    Node);
      Why = Buf;
      return false;
    }
  return true;
}

bool isZeroBits(uint64_t B, unsigned W) {
  return (B & ~signBit(W) & widthMask(W)) == 0;
}

/// IEEE order on non-NaN values with -0 < +0, via the order map.
bool lessNum(uint64_t A, uint64_t B, unsigned W) {
  return toOrdered(A, W) < toOrdered(B, W);
}

} // namespace

int main(int Argc, char **Argv) {
  std::map<std::string, std::string> A;
  for (int I = 1; I < Argc; ++I) {
    std::string K = Argv[I];
    if (K.rfind("--", 0) != 0 || I + 1 >= Argc)
      usage("bad argument '" + K + "'");
    A[K.substr(2)] = Argv[++I];
  }
  for (const char *K : {"op", "width", "policy", "naddr", "init", "vals",
                        "addr", "final"})
    if (!A.count(K))
      usage(std::string("missing --") + K);
  const FloatOp FOp = A["op"] == "min"   ? FloatOp::Min
                      : A["op"] == "max" ? FloatOp::Max
                                         : (usage("--op min|max"), FloatOp::Min);
  const unsigned Width = std::stoul(A["width"]);
  if (Width != 32 && Width != 64)
    usage("--width 32|64");
  const bool Native = A["policy"] == "native";
  NanPolicy Policy = NanPolicy::Number;
  if (!Native) {
    auto P = parseNanPolicy(A["policy"]);
    if (!P)
      usage("--policy number|propagate|fast|native");
    Policy = *P;
  }
  const size_t NAddr = std::stoul(A["naddr"]);
  const size_t Parts = A.count("parts") ? std::stoul(A["parts"]) : 1;
  const unsigned Bytes = Width / 8;
  const auto Init = readValues(A["init"], Bytes);
  const auto Vals = readValues(A["vals"], Bytes);
  const auto Addr = readValues(A["addr"], 4);
  const auto Final = readValues(A["final"], Bytes);
  std::vector<uint64_t> Ret;
  const bool HaveRet = A.count("returned") != 0;
  if (HaveRet)
    Ret = readValues(A["returned"], Bytes);
  if (Init.size() < NAddr || Addr.size() != Vals.size() ||
      Final.size() < Parts * NAddr || (HaveRet && Ret.size() < Vals.size()) ||
      Vals.size() % Parts)
    usage("buffer sizes do not fit --naddr/--parts and the operation count");

  const size_t PerPart = Vals.size() / Parts;
  std::vector<std::vector<Op>> ByAddr(Parts * NAddr);
  for (size_t I = 0; I < Vals.size(); ++I) {
    if (Addr[I] >= NAddr)
      usage("address out of range at operation " + std::to_string(I));
    ByAddr[(I / PerPart) * NAddr + Addr[I]].push_back(
        {Vals[I], HaveRet ? Ret[I] : 0, HaveRet});
  }

  size_t FinalBad = 0, RetBad = 0, RetChecked = 0, RetTrail = 0;
  size_t Exact = 0, Choice = 0, AnyNaN = 0;
  std::vector<std::string> Messages;
  auto Report = [&](const std::string &M) {
    if (Messages.size() < 8)
      Messages.push_back(M);
  };

  for (size_t Slot = 0; Slot < ByAddr.size(); ++Slot) {
    const size_t Part = Slot / NAddr, Address = Slot % NAddr;
    const std::vector<Op> &Ops = ByAddr[Slot];
    const uint64_t I0 = Init[Address] & widthMask(Width);
    const uint64_t Got = Final[Slot] & widthMask(Width);
    char Where[64];
    std::snprintf(Where, sizeof Where, "part %zu address %zu (%zu ops)", Part,
                  Address, Ops.size());

    if (!Native) {
      std::vector<uint64_t> Vs;
      for (const Op &O : Ops)
        Vs.push_back(O.V);
      const uint64_t Want =
          referenceReduce(FOp, Width, Policy, I0, Vs.data(), Vs.size());
      if (Got != Want) {
        ++FinalBad;
        char Buf[160];
        std::snprintf(Buf, sizeof Buf,
                      "%s: final 0x%" PRIx64 ", reference 0x%" PRIx64
                      " (initial 0x%" PRIx64 ")",
                      Where, Got, Want, I0);
        Report(Buf);
      }
      if (HaveRet && !Ops.empty()) {
        ++RetChecked;
        ++RetTrail;
        std::string Why;
        if (!linearizable(Ops, I0, Got, FOp, Width, Policy, Why)) {
          ++RetBad;
          Report(std::string(Where) + ": returned values not linearizable: " +
                 Why);
        }
      }
      continue;
    }

    // Native: the specs' table.
    bool FinalOk;
    if (Ops.size() == 1) {
      FinalOk = allowedBySpec(FOp, Width, I0, Ops[0].V, Got);
      const RefOutcome R = referenceApply(FOp, Width, NanPolicy::Number, I0,
                                          Ops[0].V);
      // Exact when only one result is allowed: the reference one, and no
      // other candidate (the other zero, a NaN) passes.
      const bool OnlyOne =
          !allowedBySpec(FOp, Width, I0, Ops[0].V, R.Memory ^ signBit(Width)) &&
          !isNaN(R.Memory, Width) &&
          !allowedBySpec(FOp, Width, I0, Ops[0].V,
                         exponentMask(Width) | (uint64_t{1} << (mantissaBits(Width) - 1)));
      (OnlyOne ? Exact : Choice) += 1;
    } else {
      bool HaveNum = false, SNaN = false, PosZ = false, NegZ = false;
      uint64_t Best = 0;
      auto Consider = [&](uint64_t B) {
        if (isNaN(B, Width)) {
          SNaN |= !isQuietNaN(B, Width);
          return;
        }
        if (isZeroBits(B, Width))
          (isSignSet(B, Width) ? NegZ : PosZ) = true;
        if (!HaveNum || (FOp == FloatOp::Min ? lessNum(B, Best, Width)
                                             : lessNum(Best, B, Width)))
          Best = B;
        HaveNum = true;
      };
      Consider(I0);
      for (const Op &O : Ops)
        Consider(O.V);
      if (!HaveNum) {
        FinalOk = isNaN(Got, Width);
        ++AnyNaN;
      } else {
        const bool ZeroTie = isZeroBits(Best, Width) && PosZ && NegZ;
        FinalOk = Got == Best || (ZeroTie && isZeroBits(Got, Width)) ||
                  (SNaN && isNaN(Got, Width));
        (ZeroTie || SNaN ? Choice : Exact) += 1;
      }
    }
    if (!FinalOk) {
      ++FinalBad;
      char Buf[160];
      std::snprintf(Buf, sizeof Buf,
                    "%s: final 0x%" PRIx64 " not allowed by the spec table "
                    "(initial 0x%" PRIx64 ")",
                    Where, Got, I0);
      Report(Buf);
    }
    if (HaveRet && !Ops.empty()) {
      ++RetChecked;
      bool AnyNaNIn = isNaN(I0, Width), PosZ = false, NegZ = false;
      std::set<uint64_t> Known{I0};
      for (const Op &O : Ops) {
        AnyNaNIn |= isNaN(O.V, Width);
        Known.insert(O.V);
      }
      for (uint64_t B : Known)
        if (isZeroBits(B, Width))
          (isSignSet(B, Width) ? NegZ : PosZ) = true;
      std::string Why;
      bool Ok = true;
      if (Ops.size() == 1) {
        // Nothing else touched this address: the memory before the op was
        // the initial value, bit for bit.
        if (Ops[0].Returned != I0) {
          char Buf[96];
          std::snprintf(Buf, sizeof Buf,
                        "returned 0x%" PRIx64 ", the initial value is 0x%" PRIx64,
                        Ops[0].Returned, I0);
          Why = Buf;
          Ok = false;
        }
      } else if (!AnyNaNIn && !(PosZ && NegZ)) {
        ++RetTrail;
        Ok = linearizable(Ops, I0, Got, FOp, Width, NanPolicy::Number, Why);
      } else {
        for (const Op &O : Ops)
          if (!Known.count(O.Returned) &&
              !(AnyNaNIn && isNaN(O.Returned, Width))) {
            char Buf[96];
            std::snprintf(Buf, sizeof Buf,
                          "returned 0x%" PRIx64
                          " is neither the initial value nor an operand",
                          O.Returned);
            Why = Buf;
            Ok = false;
            break;
          }
      }
      if (!Ok) {
        ++RetBad;
        Report(std::string(Where) + ": " + Why);
      }
    }
  }

  std::printf("oracle: %zu addresses, final mismatches %zu", ByAddr.size(),
              FinalBad);
  if (Native)
    std::printf(" (spec leaves no choice: %zu, a choice of zero or NaN: %zu, "
                "any NaN: %zu)",
                Exact, Choice, AnyNaN);
  if (HaveRet)
    std::printf("; returned values checked at %zu addresses (%zu by "
                "linearizability), bad %zu",
                RetChecked, RetTrail, RetBad);
  std::printf("\n");
  for (const std::string &M : Messages)
    std::printf("  %s\n", M.c_str());
  return FinalBad || RetBad ? 1 : 0;
}
