//===- fatomic/LLVM/LowerFloatAtomicMinMax.h - The LLVM pass ----*- C++ -*-===//
//
// Pass `lower-float-atomic-minmax` for LLVM IR (LLVM 22, new pass manager).
//
// Rewrites float atomic min/max into integer atomics on the same memory, so
// that the memory keeps plain IEEE bits and every other access to it is
// untouched (docs/design.md, "Why integer atomics work" and "Lowering"):
//
//   atomicrmw fmin|fmax|fminimum|fmaximum  on half, bfloat, float, double,
//        in any address space (addrspace(3) groupshared included) and
//        syncscope.  With b = bitcast of the operand to iN, exactly one of
//          fmin: atomicrmw min  (sign of b clear) | atomicrmw umax (set)
//          fmax: atomicrmw max  (sign of b clear) | atomicrmw umin (set)
//        executes, selected by a branch on the sign bit.  The ordering,
//        syncscope, volatility and alignment carry over to every integer
//        atomic.  Before it, for monotonic and acquire non-volatile atomics,
//        an atomic load of the same ordering (on NVPTX before sm_70, which
//        has no acquire load, a monotonic load and a `fence acquire` where
//        the early-out leaves) reads memory and skips the
//        read-modify-write when the operand cannot change it (the integer
//        compare of the dispatched atomic, which orders values exactly as the
//        map U of OrderMap.h does).  A vector of FP lanes
//        (<2 x half> and the like) becomes a cmpxchg loop on its integer word.
//
//   call @dx.op.atomicBinOp.f32/.f64(i32 78, %dx.types.Handle, i32 op,
//                                    i32 c0, i32 c1, i32 c2, float|double v)
//        with op 4 or 6 (min) and 5 or 7 (max), the DXIL analogue of the
//        above, becomes the same algorithm on @dx.op.atomicBinOp.i32/.i64
//        (IMin 4 / UMax 7 for min, IMax 5 / UMin 6 for max) and, where a
//        compare-exchange is needed, @dx.op.atomicCompareExchange.i32/.i64
//        (opcode 79); the declarations are added to the module, and a float
//        overload's declaration that no call uses any more is removed (one
//        that had no calls to begin with is left alone).  DXIL has no
//        atomic load, and reading through an atomicBinOp Or 0 would itself be
//        a read-modify-write, so the DXIL form never uses the early-out: under
//        `number` a NaN found in the result is replaced by a compare-exchange
//        fix-up, `propagate` uses the compare-exchange loop, whose first
//        exchange (expecting +0.0) doubles as the read.
//
// NaN policy (docs/design.md, "NaN policies"): `number` (minimumNumber-like)
// is the default for fmin/fmax and the DXIL form, `propagate` (IEEE
// minimum/maximum, the stored NaN is the sticky pattern) for
// fminimum/fmaximum; `nan=` overrides both.  Signed zero is ordered -0 < +0;
// subnormals are preserved.  The result of every lowered atomic is the memory
// value its first atomic access saw.  An operand that may be undef or poison
// is frozen once, after its definition, so that every test of it and the
// integer atomic read one value; helpers take it frozen (noundef).
//
// Concurrency (docs/semantics.md, "The LLVM pass"): every lowered atomic is
// linearizable against every other write to its memory (stores, exchanges,
// compare-exchanges, integer atomics, float atomics of the other kind).
// Under `propagate` that takes the compare-exchange loop (with its
// early-out): the early-out load followed by one integer atomic would
// displace a NaN stored after the load, and no NaN pattern is sticky for
// both min and max.  That cheaper form is used only where the module pass
// proves that every write to the memory is a lowered float atomic of the
// same kind (operation, type, policy): memory in a global variable of local
// linkage whose every use is a load or such an atomic; those atomics' helpers
// are named `.exclusive`.  `writers=any` (other modules may write the
// memory) and the function form of the pass prove nothing.  `number` and
// `fast` are linearizable in every form (the fix-up is decided from the
// integer atomic's own result, never from the early-out load).
//
// Warp aggregation (`aggregate=auto`, the default; lib/LLVM/WarpAggregate.h,
// docs/semantics.md "Warp aggregation on NVPTX"): in NVPTX functions for
// sm_80 or later, a monotonic float/double atomicrmw on global, shared or
// generic memory first tests whether the warp's active lanes share the
// address (match.all.sync); if so their order-mapped operands are reduced
// (redux.sync) and one lane runs the lowering below for all of them, each
// lane's result rebuilt from its value.  `aggregate=subgroup` also
// aggregates NVPTX functions that name no target-cpu, and is an error on
// other targets; `aggregate=off` never aggregates.
//
// Bound cache (`cache=on`, the default; lib/LLVM/BoundCache.h,
// docs/semantics.md "The bound cache in the LLVM pass"): in a function with a
// kernel calling convention that may run its float atomics more than once,
// whose float atomics are all monotonic atomicrmw of one kind and whose
// other instructions before the last of them touch memory only through
// plain loads, stores into private allocas and memory-free intrinsics (no
// fence, barrier, call or other atomic), each thread keeps the address of
// its last atomic and a bound memory reached there (and, where a result is
// used, the word memory held), and skips an atomic whose operand cannot
// pass it, returning that word.  With warp aggregation the test comes
// first.  `cache=off` never caches.
//
// Outlining (`outline=on`, the default of the module pass): every atomicrmw
// of one kind (operation, type, ordering, syncscope, address space,
// volatility, alignment, and the caller's target-cpu, target-features,
// tune-cpu and use-soft-float, which the helper takes on) becomes a call of
// one helper function,
//   define internal T @fatomic.<op>.<type>.<ordering>[...](ptr %p, T %v)
//       alwaysinline nounwind
// that holds the lowering above and is made once per module, so that the
// pass adds about nothing per atomic.  The inliner of any -O level, or
// `always-inline`, writes the helper back at each call; where no inliner runs
// afterwards (opt's output straight into llc), the calls stay.  Written out
// at each atomic instead (as with `outline=off`): DXIL calls, every atomic of
// a module whose triple is dxil (DXIL has no calls to defined functions),
// atomics that carry metadata other than a debug location, an atomic in a
// block that several EH funclets share (a call in one funclet carries its
// pad in a "funclet" bundle), and everything
// the function form of the pass (`function(lower-float-atomic-minmax)`)
// lowers, since a function pass may not add functions.
//
// Left alone: every other atomic, FP types other than the four above, vectors
// wider than 64 bits, DXIL atomicBinOp calls with other op codes.  A DXIL float
// atomicBinOp that cannot be lowered is reported as an error, never left in
// the output: an overload other than f32/f64 (f16, <2 x half>), an invoke, a
// call whose type is not its declaration's, a malformed call, an opcode or op
// code that is not an i32 constant, a handle whose origin shows a typed
// resource of a non-integer format (dx.op.annotateHandle's properties, or the
// !dx.resources record of dx.op.createHandle's or dx.op.createHandleForLib's
// UAV; the resource is kept, and DXIL runs integer atomics on typed resources
// of integer formats only), a float overload that a dxil module defines, or
// a module that already has something else under the name of an integer
// overload the lowering calls (a global variable, a function of another
// type, a definition).  A declaration of exactly the type called is used as
// it is, attributes untouched; the pass declares the others itself,
// nounwind.  In a module whose triple is dxil a float min/max atomicrmw the
// pass does not lower (half, bfloat, fp128, a vector wider than 64 bits) is
// reported too: DXIL has integer atomics of 32 and 64 bits only.
//
// Usage (plugin):
//   opt-22 -load-pass-plugin=libFatomicLLVMPlugin.so -S in.ll
//          -passes='lower-float-atomic-minmax<nan=propagate;strategy=cas>'
// Parameters are the fatomic option string (Options.h), items separated by
// ';' (',' is also accepted by the option parser but ends a pass in a
// pipeline string): nan=number|propagate|fast, strategy=dispatch|cas,
// early-out=on|off, outline=on|off, writers=module|any,
// aggregate=auto|subgroup|off, cache=on|off.  native= and images=
// apply to SPIR-V only and are rejected here.  At the top level of a pipeline the name is the
// module pass; inside function(...) it is the function pass, which rejects
// outline=on.
//
// Static linking: link fatomic_llvm and call
// fatomic::llvmir::registerLowerFloatAtomicMinMax on a PassBuilder, or use
// fatomic::llvmir::getFatomicPluginInfo() where a PassPluginLibraryInfo is
// expected.  The pass class, fatomic::llvmir::LowerFloatAtomicMinMaxPass (the
// SPIR-V pass is fatomic::LowerFloatAtomicMinMaxPass), runs on a Module
// (outlining as its options say) and on a Function (in place).
//
//===----------------------------------------------------------------------===//
#ifndef FATOMIC_LLVM_LOWERFLOATATOMICMINMAX_H
#define FATOMIC_LLVM_LOWERFLOATATOMICMINMAX_H

#include "fatomic/Options.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Support/Error.h"

namespace llvm {
class PassBuilder;
class raw_ostream;
struct PassPluginLibraryInfo;
} // namespace llvm

/// The LLVM back end.  Its own namespace, since the SPIR-V pass
/// (fatomic/LowerFloatAtomicMinMax.h) is fatomic::LowerFloatAtomicMinMaxPass:
/// a program may include both headers and link both libraries.
namespace fatomic::llvmir {

class LowerFloatAtomicMinMaxPass
    : public llvm::PassInfoMixin<LowerFloatAtomicMinMaxPass> {
public:
  /// The name used in pipeline strings.
  static constexpr const char *PipelineName = "lower-float-atomic-minmax";

  explicit LowerFloatAtomicMinMaxPass(LoweringOptions Options = {})
      : Options(std::move(Options)) {}

  /// Lowers every function of \p M, through helper functions unless the
  /// options say outline=off or the module is DXIL.
  llvm::PreservedAnalyses run(llvm::Module &M,
                              llvm::ModuleAnalysisManager &MAM);

  /// Lowers \p F in place, whatever the outline option says.
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &FAM);

  /// Prints `lower-float-atomic-minmax<OPTIONS>` so that
  /// -print-pipeline-passes round-trips.
  void printPipeline(llvm::raw_ostream &OS,
                     llvm::function_ref<llvm::StringRef(llvm::StringRef)>
                         MapClassName2PassName);

  /// The lowering is what makes the atomics run on targets without float
  /// min/max, so it also runs on optnone functions.
  static bool isRequired() { return true; }

private:
  LoweringOptions Options;
};

/// Parses the parameters of `lower-float-atomic-minmax<PARAMS>`.  Errors name
/// the pass and the offending item.
llvm::Expected<LoweringOptions> parseLLVMPassOptions(llvm::StringRef Params);

/// Registers the pass name with \p PB's pipeline parser.
void registerLowerFloatAtomicMinMax(llvm::PassBuilder &PB);

/// Plugin description for hosts that take a PassPluginLibraryInfo.
llvm::PassPluginLibraryInfo getFatomicPluginInfo();

} // namespace fatomic::llvmir

#endif // FATOMIC_LLVM_LOWERFLOATATOMICMINMAX_H
