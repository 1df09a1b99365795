//===- BoundCache.h - Skipping float atomics a kernel knows are no-ops -*- C++ -*-===//
//
// The bound cache of the LLVM pass (cache=on, the default; docs/semantics.md,
// "The bound cache in the LLVM pass"): in a kernel that, while it may still
// run a float min/max atomic, does nothing to memory but plain loads and
// float min/max atomics of one kind, each thread keeps, in registers, the
// address of its last atomic that went to memory and a key its memory is
// known to have reached there.  An atomic on that address whose operand's
// key is not beyond the bound is a no-op and is skipped without touching
// memory:
//
//   atomicrmw fmax ptr %p, float %v monotonic          ; result unused
//
// becomes
//
//   k = key(v)                   (OrderKeys.h: U after the NaN rewrite)
//   br (p == slot.p & k <=u slot.bound), done, miss    (>=u for min)
//   miss:  o = atomicrmw fmax ptr %p, float %v monotonic
//          slot = (p, max(key(o), k))
//   done:
//
// Where some atomic's result is used, the slot is exact: it also holds the
// word w memory held after the thread's last access and whether w is
// known; a miss records w = the policy's combination of o and v (and the
// bound key(w)), and a hit of a used atomic needs w known and returns w.
//
// Where the atomic is aggregated over the warp (WarpAggregate.h) with its
// result unused, the test comes before the warp's address test and only
// the lanes that miss take part; the elected lane records the better of
// its atomic's key and the reduced key, the other lanes of the group the
// reduced key (w unknown).  With its result used, a full warp tests first
// and skips the atomic only where every lane hits; otherwise every lane of
// the group records the word the group left (w known), and the per-lane
// path has the per-lane form.  The slot starts as
// (null, the key no number is behind, w unknown), so only operands that can
// change nothing (a NaN under `number`) hit before the first miss, and only
// where the result is unused.  The slot is allocas, promoted to registers
// once the function is lowered.
//
// Why a skipped atomic is exact without knowing the other writers: the
// kernel's thread synchronizes with nothing (no fence, barrier, call, or
// ordering above monotonic before its last float atomic), so its relaxed
// atomics are constrained only by coherence, and the skipped atomic can
// take its place in the address's coherence order right after the thread's
// previous access to it, where memory held w, on which it changes nothing.
//
// Applies to a function with a kernel calling convention (ptx_kernel,
// amdgpu_kernel, spir_kernel) that may run its float min/max atomics more
// than once (two of them, or one in a loop), whose float min/max atomics
// are all atomicrmw of one operation and scalar type, monotonic, not
// volatile, of one syncscope and address space, and whose other
// instructions that some such atomic may follow touch memory only through
// non-atomic non-volatile loads, stores into allocas used by nothing but
// loads and stores, and intrinsics that access no memory (lifetime markers
// and assume included).  What comes after the last atomic is free.  The
// scalar type is half, bfloat, float or double; the keys (OrderKeys.h) read
// its NaNs from its format, so bfloat and half, both 16 bits, differ.
//
//===----------------------------------------------------------------------===//
#ifndef FATOMIC_LIB_LLVM_BOUNDCACHE_H
#define FATOMIC_LIB_LLVM_BOUNDCACHE_H

#include "fatomic/NanPolicy.h"
#include "fatomic/OrderMap.h"

#include "llvm/ADT/ArrayRef.h"

#include <optional>

namespace llvm {
class AllocaInst;
class AtomicRMWInst;
class Function;
class IRBuilderBase;
class Instruction;
class IntegerType;
class Type;
class Value;
} // namespace llvm

namespace fatomic::llvmir {

class OrderKeys;

class BoundCache {
public:
  /// The cache of \p F, whose float min/max atomics (every one the pass
  /// collected in it) are \p Sites, lowered under \p Policy; nothing where
  /// the header's conditions do not hold.  Adds the slot to \p F.
  static std::optional<BoundCache> make(llvm::Function &F,
                                        llvm::ArrayRef<llvm::Instruction *> Sites,
                                        FloatOp Op, NanPolicy Policy);

  /// Whether the slot holds the word itself (some site's result is used),
  /// not only its key.
  bool exact() const { return WordSlot != nullptr; }

  /// Puts the test before \p RMW (one of the sites) and the record after
  /// it: the per-lane form of the header.
  void guard(llvm::AtomicRMWInst &RMW);

  /// Whether the operand of key \p Key at \p Ptr is a known no-op, and
  /// with \p NeedWord (a used result) whether the slot holds the word.
  llvm::Value *emitHit(llvm::IRBuilderBase &B, llvm::Value *Ptr,
                       llvm::Value *Key, bool NeedWord);
  /// Records that memory at \p Ptr has reached key \p Bound, and (exact())
  /// that the word is not known.
  void emitRecordBound(llvm::IRBuilderBase &B, llvm::Value *Ptr,
                       llvm::Value *Bound);
  /// The word a hit returns (exact() only).
  llvm::Value *emitCachedWord(llvm::IRBuilderBase &B);
  /// Records that memory at \p Ptr holds \p Word (exact()).
  void emitRecordWord(llvm::IRBuilderBase &B, llvm::Value *Ptr,
                      llvm::Value *Word);
  /// Records an atomic at \p Ptr that found the word \p Old and applied an
  /// operand of key \p OperandKey: the word memory then held (exact()), or
  /// a bound.
  void emitRecordAfter(llvm::IRBuilderBase &B, llvm::Value *Ptr,
                       llvm::Value *Old, llvm::Value *OperandKey);

  /// Promotes the slot to registers; once, after the function is lowered.
  void promote();

private:
  BoundCache(llvm::Function &F, llvm::Value *SamplePtr, llvm::Type *FPTy,
             FloatOp Op, NanPolicy Policy, bool Exact);
  OrderKeys keys(llvm::IRBuilderBase &B) const;

  llvm::Function &F;
  llvm::Type *FPTy; ///< the sites' float type, whose format keys() reads
  llvm::IntegerType *WordTy;
  FloatOp Op;
  NanPolicy Policy;
  llvm::AllocaInst *PtrSlot = nullptr;   ///< the address last gone to memory
  llvm::AllocaInst *BoundSlot = nullptr; ///< the key memory reached there
  llvm::AllocaInst *WordSlot = nullptr;  ///< exact(): the word memory held
  llvm::AllocaInst *ValidSlot = nullptr; ///< exact(): whether Word is set
};

} // namespace fatomic::llvmir

#endif // FATOMIC_LIB_LLVM_BOUNDCACHE_H
