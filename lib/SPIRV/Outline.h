//===- Outline.h - Helper functions for outlined atomics ------------------===//
//
// outline=on: each kind of atomic (keyed by everything its code depends
// on) is lowered once, in a helper function marked Inline, and its atomics
// become calls.  The helper takes the access chain's array indices (struct
// member indices are constants and part of the kind), or the pointer for a
// pointer cast, the run-time scope and semantics if any, and the operand;
// it returns the result.  The helpers are appended to the module after
// the lowering.
//
//===----------------------------------------------------------------------===//
#ifndef FATOMIC_SPIRV_OUTLINE_H
#define FATOMIC_SPIRV_OUTLINE_H

#include "SitePlan.h"

namespace fatomic::spirv {

class Outline {
public:
  Outline(LoweringContext &C, const SitePlan &Plan) : C(C), M(C.M), Plan(Plan) {}

  /// Whether \p S is lowered in a helper.
  bool outlined(const Site &S) const {
    return C.Opts.Outline && !S.Add &&
           (S.Kind == MemKind::BufferAlias || S.Kind == MemKind::SharedRetype ||
            S.Kind == MemKind::PointerCast);
  }
  /// The call of \p S's helper that replaces it (the helper is made on
  /// first use).
  InstRef callHelper(const Site &S);
  /// Appends the helpers made so far to the module.
  void appendHelpers();

private:
  /// The kind's key, the call's arguments and the helper's parameter
  /// types; RunTime: which of scope and semantics are parameters.
  void describeCall(const Site &S, bool RunTime[2]);
  uint32_t makeHelper(const Site &S, const bool RunTime[2]);

  LoweringContext &C;
  Module &M;
  const SitePlan &Plan;
  std::map<std::vector<uint32_t>, uint32_t> HelperOf;
  std::vector<Function> Helpers;
  // Kept across calls: one lowering makes many calls.
  std::vector<uint32_t> Key, Args, ParamTypes;
  std::vector<uint32_t> Pattern; ///< per index: 0 = parameter, else the constant
};

} // namespace fatomic::spirv

#endif // FATOMIC_SPIRV_OUTLINE_H
