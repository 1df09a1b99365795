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

/// Byte ranges in an explicit layout (Offset, ArrayStride): whether two
/// members or elements of a type may share bytes.  Without those
/// decorations (Workgroup memory without an explicit layout) members and
/// elements are distinct objects.
class ExplicitLayout {
public:
  explicit ExplicitLayout(const Module &M) : M(M) {}
  /// Members or elements \p X and \p Y (X != Y) of \p Type share no byte.
  bool apart(uint32_t Type, uint64_t X, uint64_t Y) const;
  /// Any two elements of array or vector \p Type share no byte.
  bool elementsApart(uint32_t Type) const;

private:
  /// The size in bytes; 0 where unknown (runtime arrays, matrices, no
  /// stride, malformed types), which counts as reaching to the end of
  /// memory.
  uint64_t size(uint32_t Type, unsigned Depth = 0) const;
  /// The literal of decoration \p D on \p Id (or on member \p Member of
  /// it when given).
  bool literal(uint32_t Id, spv::Decoration D, uint64_t &V, int64_t Member = -1) const;

  const Module &M;
};

class WriterAnalysis {
public:
  /// \p M's use lists must be current (Module::buildUses).
  explicit WriterAnalysis(const Module &M) : M(M), Layout(M) {}

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
  /// Whether \p A and \p B write disjoint memory: the same variable (and
  /// descriptor), and their paths differ in a constant index at the same
  /// depth whose members or elements share no byte (ExplicitLayout), with
  /// no overlapping array elements on the way.
  bool disjoint(const Write &A, const Write &B) const;

private:
  /// Whether \p U (a use of a pointer) is a read only, a write, a new
  /// pointer to follow, or unknown.
  enum class UseKind { Read, Write, Derive, Unknown };
  UseKind classify(const Use &U) const;
  bool bindingOf(uint32_t Var, uint32_t &Set, uint32_t &Binding) const;
  /// Whether a Workgroup variable holds a Block (an explicit layout, whose
  /// blocks all alias).
  bool blockInWorkgroup() const;
  /// A UniformConstant variable of storage images or storage texel buffers
  /// (or an array of them) that is not NonWritable.
  bool writableStorageImage(uint32_t Var) const;
  /// A buffer variable that is an array of blocks (one descriptor each).
  bool descriptorArray(uint32_t Var) const;
  bool constantOf(uint32_t Id, uint64_t &V) const;

  /// The writes reached from one variable (memoized: a variable may alias
  /// many roots).
  const Writers &fromVariable(uint32_t Var);

  const Module &M;
  ExplicitLayout Layout;
  std::map<uint32_t, Writers> Memo, PerVariable;
};

} // namespace fatomic::spirv

#endif
