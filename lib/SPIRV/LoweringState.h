//===- LoweringState.h - What the rooms of the SPIR-V pass share ----------===//
//
// The SPIR-V pass (LowerFloatAtomicMinMax.cpp) runs in rooms: SitePlan
// collects the atomics, BufferAlias, SharedRetype and ImageRetype give their
// memory an integer view, BlockSplit, AtomicEmitter and Outline write the
// lowered code.  This header owns what they all see: a Site (one atomic to
// lower), its MemKind, the Operands an emission works on, and the
// LoweringContext (the module, options, target and diagnostics, with the
// helpers over the module every room uses: types of values, constants,
// the facts of a type).
//
//===----------------------------------------------------------------------===//
#ifndef FATOMIC_SPIRV_LOWERINGSTATE_H
#define FATOMIC_SPIRV_LOWERINGSTATE_H

#include "Module.h"
#include "fatomic/LowerFloatAtomicMinMax.h"
#include "fatomic/OrderMap.h"

#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace fatomic::spirv {

enum class MemKind {
  BufferAlias,   ///< StorageBuffer / Uniform+BufferBlock: alias variable
  SharedRetype,  ///< Workgroup: retype the variable
  PointerCast,   ///< PhysicalStorageBuffer, physical addressing: OpBitcast
  ImageRetype,   ///< OpImageTexelPointer on an r32f image (opt-in)
  Private,       ///< Function / Private: plain load, combine, store
};

/// What every UntraceablePointer error advises: the steps of fatomic-opt's
/// own retry (fatomic::retryInlineFlags(), fatomic/InlineRetry.h), so that a
/// caller can take them before the pass and need no retry.
inline constexpr const char *InlineFirstAdvice =
    "inline the entry points first (DontInline cleared, then spirv-opt "
    "--merge-return --inline-entry-points-exhaustive "
    "--eliminate-dead-functions; fatomic-opt tries that once by itself)";

/// One float min/max atomic to lower.
struct Site {
  InstRef Atomic;
  FloatOp Op;
  unsigned Width;
  MemKind Kind;
  uint32_t Root = 0;            ///< root OpVariable (alias/retype kinds)
  std::vector<InstRef> Chain;   ///< access chains, outermost (root side) first
  bool NonUniform = false;
  bool EarlyOutLegal = false;
  bool Volatile = false;        ///< a Volatile decoration on the memory
  bool ResultUnused = false;    ///< nothing reads the atomic's result (ResultUse)
  /// An OpAtomicFAddEXT on a float that a retype turns into an integer:
  /// lowered as a compare-exchange loop of float adds (Op is unused).
  bool Add = false;
  /// Every write to the memory is a lowered float atomic of the same kind
  /// (WriterAnalysis): the cheaper, proof-dependent forms are allowed.
  bool Exclusive = false;
};

/// What the lowered code of one site works on: at the atomic itself
/// (inline) or in a helper function, where they are its parameters.
struct Operands {
  uint32_t Ptr = 0;              ///< the float pointer (inline; pointer casts)
  uint32_t Value = 0;            ///< the float operand
  uint32_t ResultId = 0;         ///< id of the float result
  std::vector<uint32_t> Indices; ///< access-chain indices from the root
  bool Rebuild = false;          ///< make the chain on S.Root from Indices
  uint32_t Scope = 0;            ///< helper parameter for a run-time scope
  uint32_t Semantics = 0;        ///< helper parameter for run-time semantics
};

/// The Private variables of one bound cache (BoundCache.h, cache=on): the
/// non-constant indices of the address it last saw, and the bound that
/// address's memory is known to have reached (in the order map).
struct CacheVariables {
  std::vector<uint32_t> Keys;
  uint32_t Bound = 0;
};

/// The bit of float width \p Width in TypeFacts::FloatWidths (0 for 16).
constexpr unsigned floatWidthBit(unsigned Width) {
  return Width == 32 ? 1u : Width == 64 ? 2u : 0u;
}
constexpr unsigned AllFloatWidths = floatWidthBit(32) | floatWidthBit(64);

/// What the retyping and element-wise conversions need to know of a type.
struct TypeFacts {
  bool Ok = false;     ///< defined, a type, acyclic, not too deep
  /// The widths of its 32- and 64-bit float leaves (floatWidthBit), which
  /// retyping turns into integers.  16-bit floats stay: none of their
  /// atomics is lowered, and a native one on a retyped variable keeps
  /// working on them.
  unsigned FloatWidths = 0;
  /// The float widths of its matrices (floatWidthBit; 0: none, or only
  /// f16 ones).
  unsigned MatrixWidths = 0;
  uint64_t Leaves = 0; ///< scalars in a whole value; ~0 when unbounded
};

/// The module being lowered, the options, the target and the diagnostics,
/// with the questions about the module that every room asks.
class LoweringContext {
public:
  LoweringContext(Module &M, const LoweringOptions &Opts, const TargetModel &Target,
                  const spvtools::MessageConsumer &Consumer)
      : M(M), Opts(Opts), Target(Target), Consumer(Consumer) {}

  Module &M;
  const LoweringOptions &Opts;
  const TargetModel &Target;
  /// The first error's kind; None while there is none.
  FailureKind Failure = FailureKind::None;

  static constexpr unsigned MaxTypeDepth = 256;
  /// An element-wise copy of a composite converts at most this many scalars.
  static constexpr uint64_t MaxConvertedLeaves = 1 << 16;

  /// Reports \p Msg; the first error sets Failure.
  void error(FailureKind K, const std::string &Msg);

  uint32_t typeOf(uint32_t Id) const {
    InstRef D = M.def(Id);
    return D == Module::NoInst ? 0 : M.inst(D).TypeId;
  }
  /// Whether \p Id is defined with an OpTypeInt type (malformed input may
  /// use an undefined id, or a value of another type, as an index).
  bool isIntegerValue(uint32_t Id) const { return M.opOf(typeOf(Id)) == Op::OpTypeInt; }
  spv::StorageClass pointerClass(uint32_t PtrType) const {
    return spv::StorageClass(M.operand(M.def(PtrType), 0));
  }
  uint32_t pointee(uint32_t PtrType) const { return M.operand(M.def(PtrType), 1); }
  /// The value of OpConstant (one or two words) or OpConstantNull \p Id.
  bool constantValue(uint32_t Id, uint64_t &Value) const;
  /// M.constantInt, remembered: each lowered atomic asks for the same few.
  uint32_t constantInt(uint32_t IntType, uint64_t Value);
  /// The OpTypePointer that \p Id's type is, or NoInst.
  InstRef pointerTypeOf(uint32_t Id) const;
  /// A value whose type is a pointer that Logical addressing governs.
  bool isLogicalPointer(uint32_t Id) const;
  /// "%12" or "%12 ("name")" for messages.
  std::string idName(uint32_t Id) const;

  /// Facts of \p Type, memoized; not Ok for an id that is no type, a cycle
  /// of types (malformed input), or nesting deeper than MaxTypeDepth.
  TypeFacts facts(uint32_t Type, unsigned Depth = 0);
  bool hasFloat(uint32_t Type) { return facts(Type).FloatWidths != 0; }
  /// Whether \p Type has a float leaf of a width in \p Widths.
  bool hasFloatIn(uint32_t Type, unsigned Widths) { return facts(Type).FloatWidths & Widths; }
  /// The target's class of memory for an atomic of kind \p K in class \p SC.
  MemoryClass memoryClass(MemKind K, spv::StorageClass SC) const;

  /// The bound caches made so far, by root, operation and index ids: one
  /// address expression has one cache, whichever emission reaches it.
  std::map<std::vector<uint32_t>, CacheVariables> Caches;

private:
  const spvtools::MessageConsumer &Consumer;
  std::map<std::pair<uint32_t, uint64_t>, uint32_t> Constants;
  std::unordered_map<uint32_t, TypeFacts> Facts;
  std::set<uint32_t> FactsInProgress;
};

/// Instructions to put before or after an instruction of a function body
/// and instructions to drop, applied in one walk over the bodies.
struct BodyEdits {
  std::unordered_map<InstRef, std::vector<InstRef>> InsertBefore, InsertAfter;
  std::set<InstRef> Dropped;
  void apply(Module &M);
};

} // namespace fatomic::spirv

#endif // FATOMIC_SPIRV_LOWERINGSTATE_H
