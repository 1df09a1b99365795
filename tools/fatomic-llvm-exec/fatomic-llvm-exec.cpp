//===- fatomic-llvm-exec.cpp - Run lowered float atomics on the host ------===//
//
// Execution test of the LLVM pass on x86-64 (any host with pthreads and
// dlopen, in fact).  Two modes:
//
//   fatomic-llvm-exec --emit-ir
//       prints an LLVM IR module with one kernel per tested form:
//         iN @k.<op>.<type>.<ordering>[.volatile](ptr %p, iN %bits)
//             atomicrmw <op> on half/float/double, five orderings, volatile
//         i32 @k.<op>.v2f16.<ordering>(ptr %p, i32 %bits)
//             atomicrmw <op> on <2 x half>
//         iN @k.dxil.<op>.<code>.<type>(i32 %index, iN %bits)
//             dx.op.atomicBinOp.f32/.f64 on UAV 0, element %index
//         iN @k.shared-a.<op>... and @k.shared-b.<op>... (every atomicrmw
//             kernel again, between the opposite op and the same op on the
//             same operand, in both orders; those two go to a global of
//             their own: the lowering shares the operand's values)
//         spir_kernel void @k.run.<op>.<type>(ptr %base, ptr %idx,
//                                             ptr %vals, i32 %n)
//             a loop of %n monotonic atomics with unused results, the i-th
//             on slot %idx[i] of %base with operand %vals[i]: a kernel, so
//             that the bound cache applies (BoundCache.h); the host calls
//             it as a plain function, once per thread
//         spir_kernel void @k.run-used.<op>.<type>(ptr %base, ptr %idx,
//                                                  ptr %vals, ptr %out, i32 %n)
//             the same loop with each result folded into a hash
//             (h = h * 1000003 ^ zext(bits)), stored to %out after it
//       Values travel as integer bits so that no NaN goes through FP
//       registers on the way.
//
//   fatomic-llvm-exec --run KERNELS.so [--options=OPTIONS]
//       KERNELS.so is that module after `lower-float-atomic-minmax<OPTIONS>`,
//       compiled together with the DXIL shim (test/llvm/exec/Inputs).  Every
//       kernel is checked
//         - sequentially, on every pair of a grid of special values (both
//           zeros, subnormals, infinities, quiet and signalling NaNs of both
//           signs, payloads): the returned and the stored bits must equal
//           fatomic::referenceApply exactly;
//         - concurrently, from several std::threads hammering a few slots
//           whose initial values include NaNs: each slot must end as
//           fatomic::referenceReduce of everything applied to it, which does
//           not depend on the interleaving.
//       The run kernels instead apply runs of operands (special values and
//       random patterns, mostly repeating the previous slot so that the
//       cache has something to hit): 300 runs of 64 on four slots from one
//       thread, each slot (and, for run-used, the hash of the returned
//       values) compared with the reference applied in program order, and
//       runs of 3000 from four threads at once on six slots.
//       For the DXIL kernels the shim also counts the atomicBinOp calls: the
//       dispatch lowering must make exactly one per invocation.
//
// Exit status 0 when every check passes; the last line is a summary.
//
//===----------------------------------------------------------------------===//

#include "KernelTables.h"

#include "fatomic/Options.h"
#include "fatomic/OrderMap.h"
#include "fatomic/Reference.h"

#include <dlfcn.h>

#include <atomic>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

using namespace fatomic;
using namespace fatomic::hosttools;

namespace {

//===----------------------------------------------------------------------===//
// The kernels
//===----------------------------------------------------------------------===//

enum class Form { Scalar, Vector, Dxil, Run };

struct Kernel {
  std::string Name;
  Form Kind;
  FloatOp Op;
  NanPolicy DefaultPolicy;
  unsigned Width; ///< lane width
  std::string IRType;
  std::string Ordering;
  bool Volatile = false;
  unsigned DxilCode = 0;
  /// Form::Run: whether the results are used (folded into a hash).
  bool RunUsed = false;
  /// Whether the tested atomic sits between two other atomics on the same
  /// operand in the same block, both on a global the checks ignore, so that
  /// the lowering shares the operand's values among the three: the
  /// opposite op before it and the same op after it, or (SameFirst) the
  /// other way round.
  bool SharedOperand = false;
  bool SameFirst = false;
};

const char *const Orderings[] = {"monotonic", "acquire", "release", "acq_rel",
                                 "seq_cst"};

std::vector<Kernel> allKernels() {
  std::vector<Kernel> Ks;
  for (const RmwOp &R : RmwOps) {
    for (const ScalarType &T : ScalarTypes) {
      for (const char *O : Orderings)
        Ks.push_back({std::string("k.") + R.Name + "." + T.Short + "." + O,
                      Form::Scalar, R.Op, R.Default, T.Width, T.IR, O});
      Ks.push_back(
          {std::string("k.") + R.Name + "." + T.Short + ".monotonic.volatile",
           Form::Scalar, R.Op, R.Default, T.Width, T.IR, "monotonic", true});
    }
    for (const char *O : {"monotonic", "seq_cst"})
      Ks.push_back({std::string("k.") + R.Name + ".v2f16." + O, Form::Vector,
                    R.Op, R.Default, 16, "<2 x half>", O});
  }
  const size_t Plain = Ks.size();
  for (bool SameFirst : {false, true})
    for (size_t I = 0; I < Plain; ++I) {
      Kernel K = Ks[I];
      K.Name = (SameFirst ? "k.shared-b." : "k.shared-a.") + K.Name.substr(2);
      K.SharedOperand = true;
      K.SameFirst = SameFirst;
      Ks.push_back(K);
    }
  for (bool Used : {false, true})
    for (const RmwOp &R : RmwOps)
      for (const ScalarType &T : ScalarTypes) {
        Kernel &K = Ks.emplace_back();
        K = {std::string(Used ? "k.run-used." : "k.run.") + R.Name + "." +
                 T.Short,
             Form::Run, R.Op, R.Default, T.Width, T.IR, "monotonic"};
        K.RunUsed = Used;
      }
  // DXIL::AtomicBinOpCode: IMin 4, IMax 5, UMin 6, UMax 7.
  for (unsigned Code = 4; Code <= 7; ++Code) {
    const FloatOp Op = (Code == 4 || Code == 6) ? FloatOp::Min : FloatOp::Max;
    for (const ScalarType &T : ScalarTypes) {
      if (T.Width == 16)
        continue;
      Ks.push_back({"k.dxil." + std::string(toString(Op)) + "." +
                        std::to_string(Code) + "." + T.Short,
                    Form::Dxil, Op, NanPolicy::Number, T.Width, T.IR, "",
                    false, Code});
    }
  }
  return Ks;
}

const char *rmwName(const Kernel &K) {
  return hosttools::rmwName(K.Op, K.DefaultPolicy);
}

/// The loop of a Form::Run kernel (the file's header).
void emitRunKernel(const Kernel &K) {
  const unsigned W = K.Width;
  const char *Ty = K.IRType.c_str();
  const bool Used = K.RunUsed;
  std::printf("\ndefine spir_kernel void @\"%s\"(ptr %%base, ptr %%idx, "
              "ptr %%vals,%s i32 %%n) {\n"
              "entry:\n"
              "  %%any = icmp ne i32 %%n, 0\n"
              "  br i1 %%any, label %%loop, label %%exit\n"
              "loop:\n"
              "  %%i = phi i32 [ 0, %%entry ], [ %%i.next, %%loop ]\n",
              K.Name.c_str(), Used ? " ptr %out," : "");
  if (Used)
    std::printf("  %%h = phi i64 [ 0, %%entry ], [ %%h.next, %%loop ]\n");
  std::printf("  %%i64 = zext i32 %%i to i64\n"
              "  %%ip = getelementptr i32, ptr %%idx, i64 %%i64\n"
              "  %%a = load i32, ptr %%ip, align 4\n"
              "  %%a64 = zext i32 %%a to i64\n"
              "  %%p = getelementptr i%u, ptr %%base, i64 %%a64\n"
              "  %%bp = getelementptr i%u, ptr %%vals, i64 %%i64\n"
              "  %%bits = load i%u, ptr %%bp, align %u\n"
              "  %%v = bitcast i%u %%bits to %s\n"
              "  %%r = atomicrmw %s ptr %%p, %s %%v monotonic, align %u\n",
              W, W, W, W / 8, W, Ty, rmwName(K), Ty, W / 8);
  if (Used) {
    std::printf("  %%rb = bitcast %s %%r to i%u\n", Ty, W);
    if (W < 64)
      std::printf("  %%rz = zext i%u %%rb to i64\n", W);
    std::printf("  %%hm = mul i64 %%h, 1000003\n"
                "  %%h.next = xor i64 %%hm, %%r%c\n",
                W < 64 ? 'z' : 'b');
  }
  std::printf("  %%i.next = add i32 %%i, 1\n"
              "  %%more = icmp ult i32 %%i.next, %%n\n"
              "  br i1 %%more, label %%loop, label %%exit\n"
              "exit:\n");
  if (Used)
    std::printf("  %%hf = phi i64 [ 0, %%entry ], [ %%h.next, %%loop ]\n"
                "  store i64 %%hf, ptr %%out, align 8\n");
  std::printf("  ret void\n}\n");
}

void emitIR() {
  std::printf("; Kernels for fatomic-llvm-exec --run (generated by "
              "fatomic-llvm-exec --emit-ir).\n\n"
              "%%dx.types.Handle = type { ptr }\n\n"
              "declare %%dx.types.Handle @dx.op.createHandle(i32, i8, i32, "
              "i32, i1)\n"
              "declare float @dx.op.atomicBinOp.f32(i32, %%dx.types.Handle, "
              "i32, i32, i32, i32, float)\n"
              "declare double @dx.op.atomicBinOp.f64(i32, %%dx.types.Handle, "
              "i32, i32, i32, i32, double)\n");
  for (const Kernel &K : allKernels()) {
    if (K.Kind == Form::Run) {
      emitRunKernel(K);
      continue;
    }
    const unsigned WordBits = K.Kind == Form::Vector ? 2 * K.Width : K.Width;
    const char *Ty = K.IRType.c_str();
    if (K.SharedOperand)
      std::printf("\n@\"sink.%s\" = global %s zeroinitializer, align %u\n",
                  K.Name.c_str(), Ty, WordBits / 8);
    std::printf("\ndefine i%u @\"%s\"(", WordBits, K.Name.c_str());
    if (K.Kind == Form::Dxil) {
      std::printf("i32 %%index, i%u %%bits) {\n", WordBits);
      std::printf("  %%h = call %%dx.types.Handle @dx.op.createHandle(i32 57, "
                  "i8 1, i32 0, i32 0, i1 false)\n"
                  "  %%v = bitcast i%u %%bits to %s\n"
                  "  %%r = call %s @dx.op.atomicBinOp.f%u(i32 78, "
                  "%%dx.types.Handle %%h, i32 %u, i32 %%index, i32 0, i32 0, "
                  "%s %%v)\n",
                  WordBits, Ty, Ty, K.Width, K.DxilCode, Ty);
    } else {
      std::printf("ptr %%p, i%u %%bits) {\n", WordBits);
      std::printf("  %%v = bitcast i%u %%bits to %s\n", WordBits, Ty);
      // The other atomics on the operand work on a global of their own.
      auto Other = [&](FloatOp Op, const char *Tag) {
        std::printf("  %%%s = atomicrmw %s ptr @\"sink.%s\", %s %%v %s, "
                    "align %u\n",
                    Tag, hosttools::rmwName(Op, K.DefaultPolicy),
                    K.Name.c_str(), Ty, K.Ordering.c_str(), WordBits / 8);
      };
      const FloatOp Opposite =
          K.Op == FloatOp::Min ? FloatOp::Max : FloatOp::Min;
      if (K.SharedOperand)
        Other(K.SameFirst ? K.Op : Opposite, "before");
      std::printf("  %%r = atomicrmw %s%s ptr %%p, %s %%v %s, align %u\n",
                  K.Volatile ? "volatile " : "", rmwName(K), Ty,
                  K.Ordering.c_str(), WordBits / 8);
      if (K.SharedOperand)
        Other(K.SameFirst ? Opposite : K.Op, "after");
    }
    std::printf("  %%rb = bitcast %s %%r to i%u\n  ret i%u %%rb\n}\n", Ty,
                WordBits, WordBits);
  }
}

//===----------------------------------------------------------------------===//
// Values
//===----------------------------------------------------------------------===//

std::string hex(uint64_t V, unsigned W) {
  char Buf[32];
  std::snprintf(Buf, sizeof Buf, "0x%0*" PRIx64, int(W / 4), V);
  return Buf;
}

//===----------------------------------------------------------------------===//
// Running
//===----------------------------------------------------------------------===//

/// The shim's entry points (Inputs/dxil-shim.c).
struct Shim {
  void (*Bind)(void *Base) = nullptr;
  unsigned long (*BinOpCalls)() = nullptr;
  unsigned long (*CmpXchgCalls)() = nullptr;
};

/// Memory the kernels work on: a few slots of one width, aligned for the
/// widest type.
struct Slots {
  explicit Slots(unsigned W, unsigned N) : Width(W), Words(N) {}
  uint64_t get(unsigned I) const {
    uint64_t V = 0;
    std::memcpy(&V, ptr(I), Width / 8);
    return V;
  }
  void set(unsigned I, uint64_t V) { std::memcpy(ptr(I), &V, Width / 8); }
  void *ptr(unsigned I) const {
    return reinterpret_cast<char *>(const_cast<uint64_t *>(Words.data())) +
           I * (Width / 8);
  }
  unsigned Width;
  std::vector<uint64_t> Words;
};

class Runner {
public:
  Runner(void *Lib, const LoweringOptions &Opts, const Shim &S)
      : Lib(Lib), Opts(Opts), TheShim(S) {}

  bool runKernel(const Kernel &K);

  unsigned long Checks = 0, Failures = 0, Kernels = 0;

private:
  /// Calls the kernel once on slot \p I of \p Mem.
  uint64_t call(const Kernel &K, void *Fn, Slots &Mem, unsigned I,
                uint64_t V) const;

  /// Expected memory after one op on a word (lane by lane for vectors).
  uint64_t expectApply(const Kernel &K, uint64_t Mem, uint64_t V) const;

  bool failed(const Kernel &K, const std::string &What) {
    if (++Failures <= 40)
      std::printf("FAIL %s: %s\n", K.Name.c_str(), What.c_str());
    return false;
  }

  bool sequential(const Kernel &K, void *Fn);
  bool concurrent(const Kernel &K, void *Fn);
  bool runs(const Kernel &K, void *Fn);
  bool concurrentRuns(const Kernel &K, void *Fn);

  NanPolicy policy(const Kernel &K) const {
    return Opts.policyFor(K.DefaultPolicy);
  }
  unsigned wordBits(const Kernel &K) const {
    return K.Kind == Form::Vector ? 2 * K.Width : K.Width;
  }

  void *Lib;
  const LoweringOptions &Opts;
  const Shim &TheShim;
};

uint64_t Runner::call(const Kernel &K, void *Fn, Slots &Mem, unsigned I,
                      uint64_t V) const {
  switch (wordBits(K)) {
  case 16:
    return reinterpret_cast<uint16_t (*)(void *, uint16_t)>(Fn)(Mem.ptr(I),
                                                                uint16_t(V));
  case 32:
    if (K.Kind == Form::Dxil)
      return reinterpret_cast<uint32_t (*)(int32_t, uint32_t)>(Fn)(
          int32_t(I), uint32_t(V));
    return reinterpret_cast<uint32_t (*)(void *, uint32_t)>(Fn)(Mem.ptr(I),
                                                                uint32_t(V));
  default:
    if (K.Kind == Form::Dxil)
      return reinterpret_cast<uint64_t (*)(int32_t, uint64_t)>(Fn)(int32_t(I),
                                                                   V);
    return reinterpret_cast<uint64_t (*)(void *, uint64_t)>(Fn)(Mem.ptr(I), V);
  }
}

uint64_t Runner::expectApply(const Kernel &K, uint64_t Mem, uint64_t V) const {
  const unsigned W = K.Width;
  if (K.Kind != Form::Vector)
    return referenceApply(K.Op, W, policy(K), Mem, V).Memory;
  uint64_t Out = 0;
  for (unsigned Lane = 0; Lane < 2; ++Lane) {
    const uint64_t M = (Mem >> (Lane * W)) & widthMask(W);
    const uint64_t X = (V >> (Lane * W)) & widthMask(W);
    Out |= referenceApply(K.Op, W, policy(K), M, X).Memory << (Lane * W);
  }
  return Out;
}

bool Runner::sequential(const Kernel &K, void *Fn) {
  const std::vector<uint64_t> Grid = specialValues(K.Width);
  const unsigned WB = wordBits(K);
  Slots Mem(WB, 1);
  if (TheShim.Bind && K.Kind == Form::Dxil)
    TheShim.Bind(Mem.ptr(0));
  // Exactly one integer atomicBinOp per invocation on the dispatch path;
  // none where the lowering is a compare-exchange loop.
  const bool OneRmw =
      Opts.Strat == Strategy::Dispatch && policy(K) != NanPolicy::Propagate;
  for (size_t A = 0; A < Grid.size(); ++A) {
    for (size_t B = 0; B < Grid.size(); ++B) {
      uint64_t M = Grid[A], V = Grid[B];
      if (K.Kind == Form::Vector) { // the other lane sees another pair
        M |= Grid[(A + 5) % Grid.size()] << K.Width;
        V |= Grid[(B + 11) % Grid.size()] << K.Width;
      }
      Mem.set(0, M);
      const unsigned long BinOpsBefore =
          TheShim.BinOpCalls ? TheShim.BinOpCalls() : 0;
      const uint64_t Old = call(K, Fn, Mem, 0, V);
      ++Checks;
      const uint64_t Got = Mem.get(0), Want = expectApply(K, M, V);
      if (Old != M || Got != Want)
        return failed(K, "mem " + hex(M, WB) + " op " + hex(V, WB) +
                             ": returned " + hex(Old, WB) + " stored " +
                             hex(Got, WB) + ", expected " + hex(M, WB) +
                             " / " + hex(Want, WB));
      if (K.Kind == Form::Dxil && TheShim.BinOpCalls) {
        const unsigned long N = TheShim.BinOpCalls() - BinOpsBefore;
        if (N != (OneRmw ? 1u : 0u))
          return failed(K, std::to_string(N) +
                               " atomicBinOp calls for one invocation (mem " +
                               hex(M, WB) + " op " + hex(V, WB) + ")");
      }
    }
  }
  return true;
}

/// Runs \p Body(T) for T below \p NumThreads on as many threads, released
/// together once all of them have started, and waits for them.
template <typename BodyT> void runTogether(unsigned NumThreads, BodyT Body) {
  std::atomic<unsigned> Ready{0};
  std::vector<std::thread> Threads;
  for (unsigned T = 0; T < NumThreads; ++T)
    Threads.emplace_back([&, T] {
      Ready.fetch_add(1);
      while (Ready.load() < NumThreads) {
      }
      Body(T);
    });
  for (std::thread &T : Threads)
    T.join();
}

bool Runner::concurrent(const Kernel &K, void *Fn) {
  constexpr unsigned NumThreads = 4, NumSlots = 6, OpsPerThread = 3000;
  const std::vector<uint64_t> Grid = specialValues(K.Width);
  const unsigned WB = wordBits(K);
  Slots Mem(WB, NumSlots);
  if (TheShim.Bind && K.Kind == Form::Dxil)
    TheShim.Bind(Mem.ptr(0));

  // Initial values: a NaN of each sign, both zeros, two numbers.
  const uint64_t Quiet = exponentMask(K.Width) |
                         (uint64_t{1} << (mantissaBits(K.Width) - 1));
  const uint64_t Initial[NumSlots] = {Quiet, Quiet | signBit(K.Width), 0,
                                      signBit(K.Width), Grid[8], Grid[9]};
  std::vector<uint64_t> Init(NumSlots);
  for (unsigned S = 0; S < NumSlots; ++S) {
    Init[S] = Initial[S];
    if (K.Kind == Form::Vector)
      Init[S] |= Initial[(S + 3) % NumSlots] << K.Width;
    Mem.set(S, Init[S]);
  }

  // Per-thread operands: grid values and random patterns.
  std::vector<std::vector<uint64_t>> Values(NumThreads);
  std::mt19937_64 Rng(0xfa70 + K.Name.size());
  for (auto &Vs : Values)
    for (unsigned I = 0; I < OpsPerThread; ++I) {
      uint64_t V = 0;
      for (unsigned Lane = 0; Lane < WB / K.Width; ++Lane) {
        const uint64_t R = Rng();
        const uint64_t X = (R & 1) ? Grid[(R >> 1) % Grid.size()]
                                   : (R >> 8) & widthMask(K.Width);
        V |= X << (Lane * K.Width);
      }
      Vs.push_back(V);
    }

  runTogether(NumThreads, [&](unsigned T) {
    for (unsigned I = 0; I < OpsPerThread; ++I)
      call(K, Fn, Mem, (I + T) % NumSlots, Values[T][I]);
  });

  // The final value does not depend on the interleaving: apply everything
  // sequentially, slot by slot.
  bool Ok = true;
  for (unsigned S = 0; S < NumSlots; ++S) {
    uint64_t Want = Init[S];
    for (unsigned T = 0; T < NumThreads; ++T)
      for (unsigned I = 0; I < OpsPerThread; ++I)
        if ((I + T) % NumSlots == S)
          Want = expectApply(K, Want, Values[T][I]);
    ++Checks;
    if (Mem.get(S) != Want)
      Ok = failed(K, "concurrent slot " + std::to_string(S) + " from " +
                         hex(Init[S], WB) + ": " + hex(Mem.get(S), WB) +
                         ", expected " + hex(Want, WB));
  }
  return Ok;
}

/// A run of operands for a Form::Run kernel: slot indices below \p NumSlots
/// (three in four the previous one) and operands (half special values, half
/// random patterns).
struct Run {
  std::vector<uint32_t> Slot;
  std::vector<uint64_t> Value;
};

Run makeRun(std::mt19937_64 &Rng, const std::vector<uint64_t> &Grid,
            unsigned Width, unsigned NumSlots, unsigned Length) {
  Run R;
  uint32_t Slot = 0;
  for (unsigned I = 0; I < Length; ++I) {
    const uint64_t X = Rng();
    if (I == 0 || (X & 3) == 0)
      Slot = uint32_t((X >> 2) % NumSlots);
    R.Slot.push_back(Slot);
    R.Value.push_back((X & 4) ? Grid[(X >> 8) % Grid.size()]
                              : (X >> 16) & widthMask(Width));
  }
  return R;
}

/// Sets each of \p Mem's slots to a random value of \p Grid, and \p Want
/// to the same values.
void setRandomSlots(std::mt19937_64 &Rng, const std::vector<uint64_t> &Grid,
                    Slots &Mem, std::vector<uint64_t> &Want) {
  for (unsigned S = 0; S < Want.size(); ++S) {
    Want[S] = Grid[Rng() % Grid.size()];
    Mem.set(S, Want[S]);
  }
}

/// Calls a Form::Run kernel on \p Mem with \p R; returns the hash of the
/// returned values (run-used kernels; 0 for the others).
uint64_t callRun(const Kernel &K, void *Fn, Slots &Mem, const Run &R) {
  Slots Vals(Mem.Width, unsigned(R.Value.size()));
  for (unsigned I = 0; I < R.Value.size(); ++I)
    Vals.set(I, R.Value[I]);
  const auto N = uint32_t(R.Value.size());
  if (!K.RunUsed) {
    reinterpret_cast<void (*)(void *, const uint32_t *, void *, uint32_t)>(
        Fn)(Mem.ptr(0), R.Slot.data(), Vals.ptr(0), N);
    return 0;
  }
  uint64_t Hash = 0;
  reinterpret_cast<void (*)(void *, const uint32_t *, void *, uint64_t *,
                            uint32_t)>(Fn)(Mem.ptr(0), R.Slot.data(),
                                           Vals.ptr(0), &Hash, N);
  return Hash;
}

bool Runner::runs(const Kernel &K, void *Fn) {
  constexpr unsigned NumSlots = 4, Length = 64, NumRuns = 300;
  const std::vector<uint64_t> Grid = specialValues(K.Width);
  std::mt19937_64 Rng(0x5eed + K.Name.size());
  for (unsigned N = 0; N < NumRuns; ++N) {
    Slots Mem(K.Width, NumSlots);
    std::vector<uint64_t> Want(NumSlots);
    setRandomSlots(Rng, Grid, Mem, Want);
    const Run R = makeRun(Rng, Grid, K.Width, NumSlots, Length);
    const uint64_t Hash = callRun(K, Fn, Mem, R);
    uint64_t WantHash = 0;
    for (unsigned I = 0; I < Length; ++I) {
      WantHash = WantHash * 1000003 ^ Want[R.Slot[I]];
      Want[R.Slot[I]] = expectApply(K, Want[R.Slot[I]], R.Value[I]);
    }
    Checks += K.RunUsed;
    if (K.RunUsed && Hash != WantHash)
      return failed(K, "run " + std::to_string(N) +
                           ": the returned values differ from the "
                           "reference's (hash " + hex(Hash, 64) +
                           ", expected " + hex(WantHash, 64) + ")");
    for (unsigned S = 0; S < NumSlots; ++S) {
      ++Checks;
      if (Mem.get(S) != Want[S])
        return failed(K, "run " + std::to_string(N) + " slot " +
                             std::to_string(S) + ": " +
                             hex(Mem.get(S), K.Width) + ", expected " +
                             hex(Want[S], K.Width));
    }
  }
  return true;
}

bool Runner::concurrentRuns(const Kernel &K, void *Fn) {
  constexpr unsigned NumThreads = 4, NumSlots = 6, Length = 3000;
  const std::vector<uint64_t> Grid = specialValues(K.Width);
  std::mt19937_64 Rng(0xca5e + K.Name.size());
  Slots Mem(K.Width, NumSlots);
  std::vector<uint64_t> Want(NumSlots);
  setRandomSlots(Rng, Grid, Mem, Want);
  std::vector<Run> Runs;
  for (unsigned T = 0; T < NumThreads; ++T)
    Runs.push_back(makeRun(Rng, Grid, K.Width, NumSlots, Length));
  runTogether(NumThreads,
              [&](unsigned T) { callRun(K, Fn, Mem, Runs[T]); });
  for (const Run &R : Runs)
    for (unsigned I = 0; I < Length; ++I)
      Want[R.Slot[I]] = expectApply(K, Want[R.Slot[I]], R.Value[I]);
  bool Ok = true;
  for (unsigned S = 0; S < NumSlots; ++S) {
    ++Checks;
    if (Mem.get(S) != Want[S])
      Ok = failed(K, "concurrent runs, slot " + std::to_string(S) + ": " +
                         hex(Mem.get(S), K.Width) + ", expected " +
                         hex(Want[S], K.Width));
  }
  return Ok;
}

bool Runner::runKernel(const Kernel &K) {
  ++Kernels;
  void *Fn = dlsym(Lib, K.Name.c_str());
  if (!Fn)
    return failed(K, "kernel not found in the library");
  if (K.Kind == Form::Run) {
    const bool Seq = runs(K, Fn);
    const bool Conc = concurrentRuns(K, Fn);
    return Seq && Conc;
  }
  if (K.Kind == Form::Dxil && !TheShim.Bind)
    return failed(K, "the DXIL shim is not in the library");
  const bool Seq = sequential(K, Fn);
  const bool Conc = concurrent(K, Fn);
  return Seq && Conc;
}

int run(const char *Path, const std::string &OptionText) {
  std::optional<LoweringOptions> Opts =
      loadOptions("fatomic-llvm-exec", OptionText);
  if (!Opts)
    return 2;
  void *Lib = openKernels("fatomic-llvm-exec", Path);
  if (!Lib)
    return 2;
  Shim S;
  S.Bind = reinterpret_cast<void (*)(void *)>(dlsym(Lib, "fatomic_dxil_bind"));
  S.BinOpCalls = reinterpret_cast<unsigned long (*)()>(
      dlsym(Lib, "fatomic_dxil_binop_calls"));
  S.CmpXchgCalls = reinterpret_cast<unsigned long (*)()>(
      dlsym(Lib, "fatomic_dxil_cmpxchg_calls"));

  Runner R(Lib, *Opts, S);
  unsigned long Passed = 0;
  for (const Kernel &K : allKernels())
    if (R.runKernel(K)) {
      ++Passed;
      std::printf("PASS %s\n", K.Name.c_str());
    }
  std::printf("fatomic-llvm-exec: options '%s': %lu kernels, %lu passed, "
              "%lu checks, %lu failures\n",
              Opts->str().c_str(), R.Kernels, Passed, R.Checks, R.Failures);
  return R.Failures ? 1 : 0;
}

} // namespace

int main(int argc, char **argv) {
  if (argc == 2 && std::strcmp(argv[1], "--emit-ir") == 0) {
    emitIR();
    return 0;
  }
  if ((argc == 3 || argc == 4) && std::strcmp(argv[1], "--run") == 0) {
    std::string Options;
    if (argc == 4) {
      if (std::strncmp(argv[3], "--options=", 10) != 0)
        goto usage;
      Options = argv[3] + 10;
    }
    return run(argv[2], Options);
  }
usage:
  std::fprintf(stderr, "usage: fatomic-llvm-exec --emit-ir\n"
                       "       fatomic-llvm-exec --run KERNELS.so "
                       "[--options=OPTIONS]\n");
  return 2;
}
