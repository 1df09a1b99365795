//===- ResultUse.h - Whether anything reads an instruction's value --------===//
//
// A whole-module, conservative analysis for the SPIR-V pass: whether the
// value of a float min/max atomic is read by anything, following it through
// what only forwards it:
//
//  - OpCopyObject, OpPhi and OpSelect (as one of the two objects);
//  - OpStore into a Function variable that nothing loads (a dead store:
//    every use of the variable and of the access chains into it is a store
//    through it, a name or a decoration);
//  - OpReturnValue of a function whose every use is an OpFunctionCall (or a
//    name), followed on into the result of each call.
//
// Any other use, decorations and names aside, is a read.  The pass takes the
// atomic's "result unused" forms only when nothing reads the result
// (docs/semantics.md, Concurrency, "When is a result used").
//
//===----------------------------------------------------------------------===//
#ifndef FATOMIC_SPIRV_RESULTUSE_H
#define FATOMIC_SPIRV_RESULTUSE_H

#include "Module.h"

#include <unordered_map>
#include <vector>

namespace fatomic::spirv {

class ResultUse {
public:
  /// \p M's use lists must be current (Module::buildUses).
  explicit ResultUse(const Module &M);

  /// Whether anything may read the value of result id \p Id.
  bool isRead(uint32_t Id);

private:
  /// The ids whose value is \p U's value when \p U only forwards it; false
  /// when \p U may read it.
  bool forwards(const Use &U, std::vector<uint32_t> &Next);
  /// OpReturnValue \p Ret: the results of every call of its function; false
  /// when the function is used otherwise.
  bool forwardReturn(InstRef Ret, std::vector<uint32_t> &Next) const;
  /// Whether \p Ptr points into a Function variable that nothing loads.
  bool deadFunctionPointer(uint32_t Ptr);
  /// Whether every use of \p Ptr and the pointers derived from it writes
  /// through it (or names it).
  bool onlyStoredThrough(uint32_t Ptr);

  const Module &M;
  /// OpReturnValue -> the result id of its function.
  std::unordered_map<InstRef, uint32_t> FunctionOf;
  /// Function variable -> nothing loads it (memoized).
  std::unordered_map<uint32_t, bool> Dead;
  /// Ids seen by the current walk: Stamp[id] == Epoch.  One table per kind
  /// of walk (a value walk starts pointer walks), sized once.
  struct Walk {
    std::vector<uint32_t> Stamp;
    uint32_t Epoch;
  };
  Walk ValueWalks, PointerWalks;
};

} // namespace fatomic::spirv

#endif
