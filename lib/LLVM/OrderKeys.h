//===- OrderKeys.h - Order-mapped keys of float words in LLVM IR -*- C++ -*-===//
//
// Owns the IR for the keys that warp aggregation (WarpAggregate.h) and the
// bound cache (BoundCache.h) compare and reduce: U of OrderMap.h applied to
// a float's bits after the policy's NaN rewrite, so that one unsigned
// compare or reduction is the float min/max of the policy, -0 < +0
// included.  The same rewrite applies to operands and to memory words: a
// NaN becomes the identity pattern under `number` (the key no number is
// behind) and the sticky pattern under `propagate` (the key every operand
// is behind); `fast` keys the raw bits.  Which words are NaNs is read from
// the float type's format (its fltSemantics), never from the width alone:
// half and bfloat are both 16 bits wide, with different exponent fields.
//
//===----------------------------------------------------------------------===//
#ifndef FATOMIC_LIB_LLVM_ORDERKEYS_H
#define FATOMIC_LIB_LLVM_ORDERKEYS_H

#include "fatomic/NanPolicy.h"
#include "fatomic/OrderMap.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Intrinsics.h"

namespace fatomic::llvmir {

/// Emits key arithmetic on the iN words (N = 16, 32 or 64) of a scalar
/// float type through a builder that the caller positions.  Each value is
/// made in its own statement, so the order of the instructions does not
/// depend on the order in which the compiler evaluates arguments.
class OrderKeys {
public:
  /// Keys of the words of \p FPTy (half, bfloat, float or double).
  OrderKeys(llvm::IRBuilderBase &B, llvm::Type *FPTy, FloatOp Op,
            NanPolicy Policy)
      : B(B), Bits(FPTy->getPrimitiveSizeInBits().getFixedValue()),
        WordTy(B.getIntNTy(Bits)), ExponentMask(exponentMaskOf(FPTy)), Op(Op),
        Policy(Policy) {}

  /// The exponent field of \p FPTy's format, which is the bit pattern of
  /// +inf: a word above it, sign cleared, is a NaN.
  static uint64_t exponentMaskOf(llvm::Type *FPTy) {
    return llvm::APFloat::getInf(FPTy->getFltSemantics())
        .bitcastToAPInt()
        .getZExtValue();
  }

  unsigned bits() const { return Bits; }
  llvm::IntegerType *wordType() const { return WordTy; }
  llvm::Constant *word(uint64_t V) const {
    return llvm::ConstantInt::get(WordTy, V);
  }

  /// Whether the word \p W is a NaN.
  llvm::Value *isNaN(llvm::Value *W) {
    llvm::Value *Magnitude = B.CreateAnd(W, word(widthMask(Bits) >> 1));
    return B.CreateICmpUGT(Magnitude, word(ExponentMask));
  }

  /// U of a word.
  llvm::Value *toOrdered(llvm::Value *W) {
    llvm::Value *Negative = B.CreateICmpSLT(W, word(0));
    llvm::Value *FromPositive = B.CreateOr(W, word(signBit(Bits)));
    llvm::Value *FromNegative = B.CreateNot(W);
    return B.CreateSelect(Negative, FromNegative, FromPositive);
  }

  /// U^-1 of a key.
  llvm::Value *fromOrdered(llvm::Value *K) {
    llvm::Value *OfPositive = B.CreateICmpSLT(K, word(0));
    llvm::Value *ToNegative = B.CreateNot(K);
    llvm::Value *ToPositive = B.CreateXor(K, word(signBit(Bits)));
    return B.CreateSelect(OfPositive, ToPositive, ToNegative);
  }

  /// The key of the word \p W: its bits with a NaN rewritten as the
  /// lowering rewrites an operand (number: the identity; propagate: the
  /// sticky NaN), mapped by U.
  llvm::Value *key(llvm::Value *W) {
    if (Policy != NanPolicy::Fast) {
      llvm::Value *NaN = isNaN(W);
      uint64_t Pattern = Policy == NanPolicy::Number
                             ? identityPattern(Op, Bits)
                             : stickyPattern(Op, Bits);
      W = B.CreateSelect(NaN, word(Pattern), W);
    }
    return toOrdered(W);
  }

  /// The key of a number operand that no key is behind: 0 for max, all
  /// ones for min.
  llvm::Constant *bottom() const {
    return word(Op == FloatOp::Max ? 0 : widthMask(Bits));
  }

  /// The better of two keys in the operation's direction.
  llvm::Value *best(llvm::Value *A, llvm::Value *C) {
    return B.CreateBinaryIntrinsic(Op == FloatOp::Max ? llvm::Intrinsic::umax
                                                      : llvm::Intrinsic::umin,
                                   A, C);
  }

  /// Whether key \p K is not beyond key \p Bound in the operation's
  /// direction (max: K <= Bound; min: K >= Bound).
  llvm::Value *notBeyond(llvm::Value *K, llvm::Value *Bound) {
    return Op == FloatOp::Max ? B.CreateICmpULE(K, Bound)
                              : B.CreateICmpUGE(K, Bound);
  }

  /// The word memory holds after an atomic that found the word \p Old and
  /// applied an operand of key \p OperandKey (a group's reduced key, or one
  /// operand's): the policy's combination, in the U order.
  llvm::Value *combine(llvm::Value *Old, llvm::Value *OperandKey) {
    llvm::Value *OldKey = toOrdered(Old);
    llvm::Value *After = fromOrdered(best(OldKey, OperandKey));
    if (Policy == NanPolicy::Fast)
      return After;
    llvm::Value *OldIsNaN = isNaN(Old);
    if (Policy == NanPolicy::Propagate) // a NaN in memory stays
      return B.CreateSelect(OldIsNaN, Old, After);
    // number: any number replaces a NaN in memory; only NaN operands (the
    // identity key) leave it.
    llvm::Value *NoNumber = B.CreateICmpEQ(
        OperandKey, word(fatomic::toOrdered(identityPattern(Op, Bits), Bits)));
    llvm::Value *IfNaN = B.CreateSelect(NoNumber, Old, fromOrdered(OperandKey));
    return B.CreateSelect(OldIsNaN, IfNaN, After);
  }

private:
  llvm::IRBuilderBase &B;
  const unsigned Bits;
  llvm::IntegerType *const WordTy;
  const uint64_t ExponentMask; ///< of the format, not of the width
  const FloatOp Op;
  const NanPolicy Policy;
};

} // namespace fatomic::llvmir

#endif // FATOMIC_LIB_LLVM_ORDERKEYS_H
