//===- IntegerTypes.h - Integer counterparts of float types and values ----===//
//
// What the three integer views (BufferAlias, SharedRetype, ImageRetype)
// share: a type with its float leaves turned into same-width unsigned
// integers (with the original's decorations, Restrict dropped), the walk of
// an atomic's access chains through its variable's type (TypePath), a value
// converted between a type and its integer counterpart, and the module-level
// moves and debug-only uses that a retype meets.
//
//===----------------------------------------------------------------------===//
#ifndef FATOMIC_SPIRV_INTEGERTYPES_H
#define FATOMIC_SPIRV_INTEGERTYPES_H

#include "LoweringState.h"

#include <functional>

namespace fatomic::spirv {

/// Types made on demand and remembered, shared by the integer views (a
/// type cloned twice would get its decorations twice).
class IntegerTypes {
public:
  explicit IntegerTypes(LoweringContext &C) : C(C), M(C.M) {}

  /// \p Type with every 32- and 64-bit float leaf an unsigned integer.
  uint32_t cloneAllFloats(uint32_t Type) { return cloneFloats(Type, AllFloatWidths); }
  /// \p Type with every float leaf of a width in \p Widths (floatWidthBit)
  /// an unsigned integer.
  uint32_t cloneFloats(uint32_t Type, unsigned Widths);
  /// A clone of aggregate \p Type whose elements (struct members for which
  /// \p Convert holds) are \p Elem of the original's; a float becomes an
  /// unsigned integer, any other type stays.
  uint32_t cloneAggregate(uint32_t Type, const std::function<uint32_t(uint32_t)> &Elem,
                          const std::function<bool(uint32_t, uint32_t)> &Convert);
  /// The decorations of \p From, but Restrict, given to \p To too.
  void copyDecorations(uint32_t From, uint32_t To);

private:
  LoweringContext &C;
  Module &M;
  std::unordered_map<uint64_t, uint32_t> Clones; ///< (type, widths) -> clone
};

/// Whether annotation \p R is a Restrict decoration (of an id or a member).
bool isRestrict(const Module &M, InstRef R);

/// The types and struct members an atomic's access chains pass through.
struct TypePath {
  std::set<uint32_t> Types;                        ///< arrays/vectors/scalars
  std::set<std::pair<uint32_t, uint32_t>> Members; ///< (struct, member)
};

/// Checks that \p S's access chains lead from \p RootPointee to its float
/// type, through types that have integer counterparts (errors at \p Where);
/// notes the way in \p Record when given.
bool walkTypePath(LoweringContext &C, uint32_t RootPointee, const Site &S, InstRef Where,
                  TypePath *Record);

/// Emits a conversion of \p Value from type \p From to type \p To, where one
/// is the other with float leaves turned into same-width integers.  The last
/// instruction gets \p ResultId when non-zero.
uint32_t convertValue(Module &M, std::vector<InstRef> &Out, uint32_t Value,
                      uint32_t From, uint32_t To, uint32_t ResultId);

/// \p User only describes a variable for a debugger: an argument (word
/// \p Word) of a debug-info or other non-semantic extended instruction.
bool isDebugOnlyUse(const Module &M, InstRef User, uint32_t Word);

/// Moves a retyped global after its new types, and the module-level
/// non-semantic instructions that followed it after it.
void moveGlobalToEnd(Module &M, InstRef VarDef);

} // namespace fatomic::spirv

#endif // FATOMIC_SPIRV_INTEGERTYPES_H
