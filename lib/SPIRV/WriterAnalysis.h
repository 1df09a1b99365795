//===- WriterAnalysis.h - Who may write a variable's memory ---------------===//
//
// A whole-module, conservative analysis for the SPIR-V pass: every
// instruction that may write the memory of a buffer or Workgroup variable,
// including the memory of every other variable that may alias it.  The pass
// uses it to prove that a lowered atomic's memory is written only by lowered
// float atomics of the same kind, the one case where it may emit its cheaper,
// proof-dependent forms (docs/semantics.md, "Concurrency").
//
// Conservative: a pointer that leaves the module's plain pointer arithmetic
// (a function call, OpPhi, OpSelect, OpPtrAccessChain, a conversion, a
// pointer stored to memory...), physical or device addresses, and decorations
// the analysis does not read all end in "not known".
//
//===----------------------------------------------------------------------===//
#ifndef FATOMIC_SPIRV_WRITERANALYSIS_H
#define FATOMIC_SPIRV_WRITERANALYSIS_H

#include "Module.h"

#include <map>
#include <vector>

namespace fatomic::spirv {

/// One instruction that may write the memory, and where.
struct Write {
  InstRef Inst;
  uint32_t Var;               ///< the variable it writes through
  std::vector<uint32_t> Path; ///< access-chain indices from Var (ids)
};

/// The writers of one variable's memory.
struct Writers {
  bool Known = true;          ///< false: some write may be missing
  std::vector<Write> Writes;  ///< instructions that may write it
};

class WriterAnalysis {
public:
  /// \p M's use lists must be current (Module::buildUses).
  explicit WriterAnalysis(const Module &M) : M(M) {}

  /// Every instruction that may write the memory of module-scope variable
  /// \p Root (StorageBuffer, Uniform or Workgroup) or of a variable that
  /// may alias it.  Memoized per root.
  const Writers &writersOf(uint32_t Root);

private:
  /// The variables whose memory may overlap \p Root's; empty when the
  /// analysis cannot tell (then Known is false).
  bool mayAlias(uint32_t Root, std::vector<uint32_t> &Vars) const;
  /// Adds the writers reached from variable \p Var through its uses.
  void collectFrom(uint32_t Var, Writers &W) const;

public:
  /// Whether \p A and \p B write disjoint memory: the same variable, and
  /// their paths differ in a constant index at the same depth (not the
  /// index that picks a descriptor of an array).
  bool disjoint(const Write &A, const Write &B) const;

private:
  /// Whether \p U (a use of a pointer) is a read only, a write, a new
  /// pointer to follow, or unknown.
  enum class UseKind { Read, Write, Derive, Unknown };
  UseKind classify(const Use &U) const;
  bool nonSemanticSet(uint32_t Set) const;
  bool bindingOf(uint32_t Var, uint32_t &Set, uint32_t &Binding) const;
  /// Whether a Workgroup variable holds a Block (an explicit layout, whose
  /// blocks all alias).
  bool blockInWorkgroup() const;
  /// A UniformConstant variable of storage texel buffers (or an array of
  /// them) that is not NonWritable.
  bool writableTexelBuffer(uint32_t Var) const;
  /// A buffer variable that is an array of blocks (one descriptor each).
  bool descriptorArray(uint32_t Var) const;

  /// The writes reached from one variable (memoized: a variable may alias
  /// many roots).
  const Writers &fromVariable(uint32_t Var);

  const Module &M;
  std::map<uint32_t, Writers> Memo, PerVariable;
};

} // namespace fatomic::spirv

#endif
