//===- fatomic/LowerFloatAtomicMinMax.h - The SPIR-V pass -----------------===//
//
// Pass `lower-float-atomic-minmax` for SPIR-V modules.
//
// Rewrites every OpAtomicFMinEXT / OpAtomicFMaxEXT (f32 and f64 scalars) that
// the target does not run natively into integer atomics on the same memory,
// following docs/design.md ("Why integer atomics work", "Lowering", "NaN
// policies"): an atomic load for the early-out test where the
// semantics allow it, then exactly one sign-dispatched OpAtomicSMin/UMax
// (FMin) or OpAtomicSMax/UMin (FMax) under structured control flow, or an
// OpAtomicCompareExchange loop (strategy=cas), with the NaN policy's operand
// rewriting and fix-ups.  The atomic's Scope and Semantics ids are kept on
// the integer atomics; a CAS loop (strategy=cas, the NaN fix-ups) whose
// constant semantics order runs Relaxed between a release barrier before it
// and an acquire barrier after it, of the same scope (the same ordering under
// the Vulkan memory model; see the pass source).
//
// Concurrency: every lowered atomic is linearizable against every writer of
// its memory in the module.  The two forms that are not (nan=number with an
// unused result: the NaN fix-up decided from the early-out's load;
// nan=propagate: the single sticky-pattern integer atomic) are emitted only
// where a whole-module writer analysis (lib/SPIRV/WriterAnalysis.h) proves
// every write to that memory a lowered float atomic of the same kind, and
// never under writers=any (docs/semantics.md, "Concurrency").  A Volatile
// variable, access chain or member gets no early-out.
//
// Subgroup aggregation (aggregate=auto, the default: where the target is
// known to have the subgroup operations it needs, Options.h;
// aggregate=subgroup also where nothing is known of them; aggregate=off
// never): in a compute shader (SPIR-V 1.3+), a buffer or Workgroup atomic
// with Relaxed semantics and a constant scope tests whether its address is
// the same across the subgroup; where it is, the operands are reduced in the
// order map, the elected invocation does the lowered atomic, and used
// results are rebuilt from its result and an exclusive scan
// (lib/SPIRV/SubgroupAggregate.h).
// Adds GroupNonUniform, GroupNonUniformArithmetic and
// GroupNonUniformBallot (used results).
//
// Outlining (outline=on, the default): the lowered code of buffer,
// Workgroup and pointer-cast atomics is written once per kind of atomic, in
// a helper function (FunctionControl Inline) that takes the access chain's
// array indices (or the pointer) and the operand and returns the result;
// each atomic becomes an OpFunctionCall with its result id.  outline=off
// writes the lowering out at every atomic, splitting its block.
//
// Integer view of the memory, per storage class:
//   StorageBuffer, Uniform+BufferBlock  a second OpVariable on the same
//        DescriptorSet/Binding whose block type has integer leaves on the
//        atomic's path; both variables are decorated Aliased.
//   Workgroup  the variable's float leaves are retyped to integers and every
//        access to it is rewritten with value bitcasts.
//   PhysicalStorageBuffer, and every storage class under Physical32/64
//        addressing  pointer OpBitcast.
//   Image (OpImageTexelPointer)  only with images=retype: the R32f storage
//        image variable (or descriptor array of them) gets a new uint/R32ui
//        image type of its own; its loads, OpImageRead/OpImageSparseRead
//        results, OpImageWrite texels and float atomic load/store/exchange
//        values are bitcast; its texel pointers become Image uint pointers.
//        A sampled use, another float atomic (add) on it, or a 64-bit float
//        image is an error.
//   Function, Private  a plain load, min/max and store.
//
// Denormals: operands keep their subnormals, except that an entry point
// declaring DenormFlushToZero for a width makes the pass flush operands of
// that width (module-wide: reachability from entry points is not tracked).
//
// Left alone: atomics the target runs natively, f16 ones when native (f16
// otherwise is an error: Vulkan has no 16-bit integer atomics), every other
// instruction.  A module with no float min/max atomic comes back
// bit-identical, and running the pass twice changes nothing the second time.
//
// Capabilities: AtomicFloat{32,64}MinMaxEXT are removed when no remaining
// atomic needs them, and SPV_EXT_shader_atomic_float_min_max when no
// capability needs it; Int64Atomics is added for f64 (an error when the
// target says 64-bit integer atomics are unsupported).
//
// Errors (reported through the consumer; Process returns Failure and leaves
// the words untouched): not SPIR-V, truncated or malformed words; an f16
// atomic without native support; an image atomic without images=retype; a
// pointer that reaches an atomic through OpFunctionParameter, OpPhi or
// OpSelect in a Logical module (message names the instruction; fatomic-opt
// inlines entry points and retries); a Workgroup variable that cannot be
// retyped; an image that images=retype cannot retype; a lowering whose id
// bound would pass SetMaxIdBound's limit, or that would make an
// instruction longer than 65535 words (FailureKind::Unsupported).
//
//===----------------------------------------------------------------------===//
#ifndef FATOMIC_LOWERFLOATATOMICMINMAX_H
#define FATOMIC_LOWERFLOATATOMICMINMAX_H

#include "fatomic/Options.h"
#include "fatomic/Target.h"

#include <spirv-tools/libspirv.hpp>

#include <cstdint>
#include <vector>

namespace fatomic {

/// As spvtools::opt::Pass::Status.
enum class PassStatus { Failure, SuccessWithChange, SuccessWithoutChange };

/// Why the last Process() failed, for callers that can recover.
enum class FailureKind {
  None,
  InvalidModule,       ///< not SPIR-V, truncated, malformed
  UntraceablePointer,  ///< pointer via OpFunctionParameter/OpPhi/OpSelect
  Unsupported,         ///< f16, image without opt-in, other shapes
  TargetLacksFeature,  ///< e.g. f64 where int64 atomics are unsupported
};

/// The pass, for engines that hold SPIR-V words in memory.  The file comment
/// above is its contract; in short:
///
///   Rewrites   OpAtomicFMinEXT / OpAtomicFMaxEXT on f32 and f64 that the
///              target lacks, into integer atomics on the same memory.
///   Leaves     atomics the target has natively, every other instruction;
///   alone      a module without float min/max comes back bit-identical.
///   Changes    removes AtomicFloat{32,64}MinMaxEXT and then the extension
///   capabilities  when nothing needs them; adds Int64Atomics for f64.
///   Errors     one message per problem through the consumer, Failure, the
///              words unchanged (FailureKind says which; docs/diagnostics.md
///              lists every message).
///
/// Typical use, between the front end and spvtools::Optimizer:
///
///   std::string Error;
///   auto Target = fatomic::loadProfileFile("device.json", Error);
///   auto Options = fatomic::parseOptions("nan=number", Error);
///   fatomic::LowerFloatAtomicMinMaxPass Pass(*Options, *Target);
///   Pass.SetMessageConsumer(Consumer);          // as for spvtools
///   if (Pass.Process(Words) == fatomic::PassStatus::Failure &&
///       Pass.lastFailure() == fatomic::FailureKind::UntraceablePointer &&
///       fatomic::inlineForRetry(Words, SPV_ENV_VULKAN_1_2, Consumer))
///     Pass.Process(Words); // fatomic/InlineRetry.h: inline, lower again
///
/// tools/fatomic-engine-example/ is a complete program.  A pass object may
/// be reused for any number of modules; it is not safe to call Process() on
/// one object from two threads at once (use one object per thread).  The C
/// interface (fatomic/fatomic.h) has the same semantics.
class LowerFloatAtomicMinMaxPass {
public:
  /// \p Options as parsed by parseOptions (their native= features are added
  /// to \p Target); \p Target says what the device runs natively: a default
  /// TargetModel has nothing native, so every float min/max is lowered.
  LowerFloatAtomicMinMaxPass(LoweringOptions Options, TargetModel Target);

  /// Diagnostics go here, one call per message, level SPV_MSG_ERROR, no
  /// source and a zero position.  Default: discarded.
  void SetMessageConsumer(spvtools::MessageConsumer Consumer);

  /// The largest id bound the lowered module may have: by default 4194303
  /// (0x3FFFFF, SPIR-V's universal limit), which a consumer may raise, as
  /// spirv-opt's --max-id-bound does.  A lowering that needs more fails; an
  /// input whose bound is above 4194304 is read only under a limit raised
  /// at least that far, and never one above 16777216.
  void SetMaxIdBound(uint32_t Bound) { MaxIdBound = Bound; }

  /// Lowers the module \p Words in place.  SuccessWithChange: at least one
  /// atomic was rewritten; SuccessWithoutChange: \p Words is untouched (none
  /// needed it); Failure: \p Words is untouched and the consumer got the
  /// reason.  The input is not validated (run spvtools::SpirvTools::Validate
  /// first where it may be invalid); the output is valid when the input was.
  /// An exception leaves through Process only from the consumer (which then
  /// interrupts the report) or as std::bad_alloc; in the second case \p Words
  /// may have been emptied, as the input is freed before the output is built.
  PassStatus Process(std::vector<uint32_t> &Words);

  /// Why the last Process() failed (also when the consumer threw at its
  /// message); FailureKind::None after a success.
  FailureKind lastFailure() const { return Failure; }

  /// Number of atomics the last Process() rewrote.
  unsigned loweredCount() const { return Lowered; }

  static const char *name() { return "lower-float-atomic-minmax"; }

private:
  LoweringOptions Options;
  TargetModel Target;
  spvtools::MessageConsumer Consumer;
  FailureKind Failure = FailureKind::None;
  unsigned Lowered = 0;
  uint32_t MaxIdBound = 0x3FFFFF;
};

} // namespace fatomic

#endif // FATOMIC_LOWERFLOATATOMICMINMAX_H
