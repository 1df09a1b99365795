//===- PointerChain.h - From a pointer back to its variable ---------------===//
//
// The pointer-chain walk (walkPointerChain) is the one way back from a
// pointer to its variable, through access chains and copies: the sites, the
// pointer selects, the native atomics and the float adds all take it.
// A pointer chosen by OpSelect between two paths into one variable that
// differ in array indices only becomes one access chain with selected
// indices (resolvePointerSelects), before collection.  The same way back,
// through every pointer a value is made from, tells whether one is Volatile
// (derivesFromVolatile).
//
//===----------------------------------------------------------------------===//
#ifndef FATOMIC_SPIRV_POINTERCHAIN_H
#define FATOMIC_SPIRV_POINTERCHAIN_H

#include "LoweringState.h"

#include <optional>

namespace fatomic::spirv {

/// Where a walk from a pointer back through access chains and copies ended.
struct ChainWalk {
  enum class End { Variable, NoDefinition, NotSamePointer, Other };
  End Stop = End::Other;
  uint32_t Id = 0;              ///< the id it stopped at (the variable)
  InstRef Def = Module::NoInst; ///< its definition
  std::vector<InstRef> Chain;   ///< access chains, root side first
  bool NonUniform = false;      ///< a NonUniform chain, copy or index (checked)
};

/// Walks from \p Ptr back to its variable.  With \p SC, every pointer on the
/// way must be one of that class (else NotSamePointer) and NonUniform is
/// noted; without, the walk only follows the chain.
ChainWalk walkPointerChain(const LoweringContext &C, uint32_t Ptr,
                           std::optional<spv::StorageClass> SC);

/// The variable \p Ptr points into and the access chains on the way (root
/// side first); 0 when something else is on the way (then \p Chain holds
/// the access chains met before it, pointer side first).
uint32_t chainRoot(const LoweringContext &C, uint32_t Ptr, std::vector<InstRef> &Chain);

/// Array indices of \p Chain, with the struct member indices as values
/// (~0u marks them in \p Members' positions); false for a malformed path.
bool flatIndices(const LoweringContext &C, const std::vector<InstRef> &Chain,
                 std::vector<uint32_t> &Ids, std::vector<uint64_t> &Members);

/// OpSelects between two access chains of the same shape into one variable
/// that lead to a float min/max atomic become one access chain with
/// selected indices (in place: the select's result id names the chain).
void resolvePointerSelects(LoweringContext &C);

/// Reports why the pointer that OpSelect \p Sel chooses for \p Atomic
/// cannot be lowered.
void reportPointerSelect(LoweringContext &C, InstRef Atomic, InstRef Sel);

/// Whether \p Ptr or a pointer it is made from (through access chains,
/// copies, casts, and each pointer of a select or phi) is decorated
/// Volatile: a volatile kernel argument indexed by OpInBoundsPtrAccessChain.
bool derivesFromVolatile(const Module &M, uint32_t Ptr);

} // namespace fatomic::spirv

#endif // FATOMIC_SPIRV_POINTERCHAIN_H
