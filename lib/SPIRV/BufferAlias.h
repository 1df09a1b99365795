//===- BufferAlias.h - The integer view of a buffer: an alias variable ----===//
//
// StorageBuffer and Uniform (BufferBlock) memory keeps its float variable;
// an Aliased variable on the same descriptor binding, whose type is the
// block with the atomics' paths turned into integers, is the integer view.
// plan() walks each site's access chains through the block once, checking
// them and recording the types and members on the way; apply() makes the
// alias from that record: the path's integer clones, the variable, its
// decorations and interface entries, and drops the Restrict that the alias
// makes false.  Each site then rebuilds its chain on the alias.
//
//===----------------------------------------------------------------------===//
#ifndef FATOMIC_SPIRV_BUFFERALIAS_H
#define FATOMIC_SPIRV_BUFFERALIAS_H

#include "IntegerTypes.h"
#include "SitePlan.h"

namespace fatomic::spirv {

class BufferAlias {
public:
  BufferAlias(LoweringContext &C, SitePlan &Plan, IntegerTypes &Types)
      : C(C), M(C.M), Plan(Plan), Types(Types) {}

  /// Checks and records the path of every site into its buffer block;
  /// false on error (every site's reported).
  bool plan();
  /// Makes the alias variables and points each site's Root at its alias.
  void apply();

private:
  uint32_t cloneOnPath(uint32_t Type);
  void dropFalseRestrict();
  void copyVariableDecorations(uint32_t Root, uint32_t Alias);

  LoweringContext &C;
  Module &M;
  SitePlan &Plan;
  IntegerTypes &Types;
  TypePath OnPath;
  std::unordered_map<uint32_t, uint32_t> PathClones;
};

} // namespace fatomic::spirv

#endif // FATOMIC_SPIRV_BUFFERALIAS_H
