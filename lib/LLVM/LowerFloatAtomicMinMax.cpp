//===- LowerFloatAtomicMinMax.cpp - Float atomic min/max to integer atomics ===//
//
// The LLVM IR emitter of the algorithm in fatomic/LoweringModel.h; see
// fatomic/LLVM/LowerFloatAtomicMinMax.h for what is rewritten and how.
// Under `number` with the dispatch strategy the emitted control flow is
// shorter than the model's, with the same values: a NaN seen by the
// early-out load goes to the dispatched atomic (which replaces it or
// returns it), and the fix-up for a NaN the atomic returned is one
// compare-exchange, after which a failed exchange runs the atomic again
// (see emitDispatchWithFixUp).  The execution tests (test/llvm/exec) check
// the values against the reference model, sequentially and from threads.
//
// Comparisons are written per sign, as the integer atomic that the operand
// dispatches to would make them; for every pair of bit patterns that is the
// same relation as the model's comparison in the order-preserving map U.
// Values and the combination of the compare-exchange loops are integers
// throughout: a NaN never reaches a float compare, so no loop can spin on it.
// New values are left unnamed (naming them took about a third of the pass's
// time in opt); blocks are named fatomic.*.
//
// The pass first collects every float min/max atomic of the function and
// reports the DXIL calls it cannot lower, then rewrites the collected atomics
// in reverse order, so that each block split moves only the instructions that
// follow the atomic up to the previous split.
//
// Shape of the output for one atomic (dispatch strategy, early-out allowed,
// `number` policy; the other variants drop blocks from it):
//
//   entry:   b = bitcast v; op = isnan(b) ? identity : b; neg = op <s 0
//            cur = load atomic (monotonic | acquire)
//            br (neg ? op >u cur : op <s cur) | isnan(cur), rmw, done
//   rmw:     br neg, neg-block, pos-block
//   pos/neg: old = atomicrmw min|max / umax|umin (the only RMW)
//            br <old is a NaN this atomic cannot displace>, fixup, done
//   fixup:   cmpxchg old -> (isnan(b) ? old : b)          ; unlikely path
//            br stored, done, rmw
//   done:    result = phi(...); bitcast to the FP type
//
//===----------------------------------------------------------------------===//

#include "fatomic/LLVM/LowerFloatAtomicMinMax.h"

#include "fatomic/LoweringModel.h"
#include "fatomic/OrderMap.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

#if __has_include("llvm/Plugins/PassPlugin.h")
#include "llvm/Plugins/PassPlugin.h"
#else
#include "llvm/Passes/PassPlugin.h"
#endif

using namespace llvm;

namespace fatomic {

namespace {

//===----------------------------------------------------------------------===//
// DXIL constants (DXC include/dxc/DXIL/DxilConstants.h)
//===----------------------------------------------------------------------===//

constexpr unsigned DxilOpAtomicBinOp = 78;
constexpr unsigned DxilOpAtomicCompareExchange = 79;

// dx.op.atomicBinOp argument positions.
enum DxilBinOpArg : unsigned {
  DxilArgOpcode,
  DxilArgHandle,
  DxilArgAtomicOp,
  DxilArgCoord0,
  DxilArgCoord1,
  DxilArgCoord2,
  DxilArgValue,
  DxilBinOpNumArgs
};

// DXIL::AtomicBinOpCode values for the integer min/max.
constexpr unsigned DxilIMin = 4, DxilIMax = 5, DxilUMin = 6, DxilUMax = 7;

unsigned dxilAtomicCode(IntOp Op) {
  switch (Op) {
  case IntOp::SMin:
    return DxilIMin;
  case IntOp::SMax:
    return DxilIMax;
  case IntOp::UMin:
    return DxilUMin;
  case IntOp::UMax:
    return DxilUMax;
  }
  llvm_unreachable("covered switch");
}

AtomicRMWInst::BinOp llvmAtomicOp(IntOp Op) {
  switch (Op) {
  case IntOp::SMin:
    return AtomicRMWInst::Min;
  case IntOp::SMax:
    return AtomicRMWInst::Max;
  case IntOp::UMin:
    return AtomicRMWInst::UMin;
  case IntOp::UMax:
    return AtomicRMWInst::UMax;
  }
  llvm_unreachable("covered switch");
}

//===----------------------------------------------------------------------===//
// Collection
//===----------------------------------------------------------------------===//

/// A float min/max atomic that the pass rewrites.
struct FloatAtomic {
  Instruction *Inst; ///< an AtomicRMWInst or a dx.op.atomicBinOp call
  FloatOp Op;
  NanPolicy DefaultPolicy;
};

/// Scalar FP types whose bits the integer atomics order correctly: IEEE-like
/// sign-magnitude formats of an integer-atomic width.
bool isLowerableScalar(const Type *Ty) {
  return Ty->isHalfTy() || Ty->isBFloatTy() || Ty->isFloatTy() ||
         Ty->isDoubleTy();
}

/// Scalars, and fixed vectors of them that fit a 64-bit word.
bool isLowerableType(Type *Ty) {
  if (auto *VTy = dyn_cast<FixedVectorType>(Ty))
    return isLowerableScalar(VTy->getElementType()) &&
           isSupportedWidth(VTy->getPrimitiveSizeInBits().getFixedValue());
  return isLowerableScalar(Ty);
}

std::optional<FloatAtomic> classifyAtomicRMW(AtomicRMWInst &RMW) {
  FloatOp Op;
  NanPolicy Policy;
  switch (RMW.getOperation()) {
  case AtomicRMWInst::FMin:
    Op = FloatOp::Min;
    Policy = NanPolicy::Number;
    break;
  case AtomicRMWInst::FMax:
    Op = FloatOp::Max;
    Policy = NanPolicy::Number;
    break;
  case AtomicRMWInst::FMinimum:
    Op = FloatOp::Min;
    Policy = NanPolicy::Propagate;
    break;
  case AtomicRMWInst::FMaximum:
    Op = FloatOp::Max;
    Policy = NanPolicy::Propagate;
    break;
  default:
    return std::nullopt;
  }
  if (!isLowerableType(RMW.getType()))
    return std::nullopt;
  return FloatAtomic{&RMW, Op, Policy};
}

/// Whether \p CI calls a float overload of dx.op.atomicBinOp.
bool isDxilFloatAtomicBinOp(const CallInst &CI) {
  const Function *Callee = CI.getCalledFunction();
  return Callee && Callee->isDeclaration() &&
         Callee->getName().starts_with("dx.op.atomicBinOp.") &&
         CI.getType()->isFloatingPointTy();
}

/// Classifies a float dx.op.atomicBinOp call: the atomic to lower, nothing
/// (an op code other than min/max), or an error message.
std::optional<FloatAtomic> classifyDxilCall(CallInst &CI, std::string &Error) {
  if (CI.arg_size() != DxilBinOpNumArgs) {
    Error = "expected 7 arguments (i32 78, handle, i32 op, 3 x i32 "
            "coordinate, value)";
    return std::nullopt;
  }
  auto *Opcode = dyn_cast<ConstantInt>(CI.getArgOperand(DxilArgOpcode));
  if (!Opcode || Opcode->getZExtValue() != DxilOpAtomicBinOp) {
    Error = "the first argument must be the DXIL opcode i32 78";
    return std::nullopt;
  }
  auto *Code = dyn_cast<ConstantInt>(CI.getArgOperand(DxilArgAtomicOp));
  if (!Code) {
    Error = "the atomic op code (third argument) must be a constant";
    return std::nullopt;
  }
  FloatOp Op;
  switch (Code->getZExtValue()) {
  case DxilIMin:
  case DxilUMin:
    Op = FloatOp::Min;
    break;
  case DxilIMax:
  case DxilUMax:
    Op = FloatOp::Max;
    break;
  default:
    return std::nullopt; // not a min/max: not ours
  }
  Type *Ty = CI.getType();
  if (!Ty->isFloatTy() && !Ty->isDoubleTy()) {
    Error = "DXIL has integer atomics of 32 and 64 bits only; a float "
            "atomicBinOp must be f32 or f64";
    return std::nullopt;
  }
  for (unsigned I = DxilArgCoord0; I <= DxilArgCoord2; ++I)
    if (!CI.getArgOperand(I)->getType()->isIntegerTy(32)) {
      Error = "the coordinates must be i32";
      return std::nullopt;
    }
  if (CI.getArgOperand(DxilArgValue)->getType() != Ty) {
    Error = "the value must have the result type";
    return std::nullopt;
  }
  return FloatAtomic{&CI, Op, NanPolicy::Number};
}

//===----------------------------------------------------------------------===//
// The memory the atomic works on
//===----------------------------------------------------------------------===//

/// The integer atomics of one form (LLVM instructions or DXIL calls) on the
/// word that holds the float.
class AtomicWord {
public:
  virtual ~AtomicWord() = default;

  /// The ordering of the early-out's atomic load, or std::nullopt where an
  /// early-out is not allowed.
  virtual std::optional<AtomicOrdering> earlyOutOrdering() const = 0;

  /// An atomic load of the word with \p Ordering, or nullptr when the form
  /// has no atomic load.
  virtual Value *emitLoad(IRBuilderBase &B, AtomicOrdering Ordering) = 0;

  /// One integer min/max; returns the old word.
  virtual Value *emitMinMax(IRBuilderBase &B, IntOp Op, Value *Operand) = 0;

  /// One strong compare-exchange; returns the old word (null unless
  /// \p WantOld) and whether it stored.
  virtual std::pair<Value *, Value *>
  emitCmpXchg(IRBuilderBase &B, Value *Expected, Value *Desired,
              bool WantOld) = 0;
};

/// `atomicrmw` and friends, with the original ordering, syncscope,
/// volatility, alignment and metadata.
class LLVMAtomicWord final : public AtomicWord {
public:
  LLVMAtomicWord(AtomicRMWInst &RMW, IntegerType *WordTy)
      : RMW(RMW), WordTy(WordTy) {}

  std::optional<AtomicOrdering> earlyOutOrdering() const override {
    if (RMW.isVolatile())
      return std::nullopt;
    AtomicOrdering Ordering = RMW.getOrdering();
    if (Ordering == AtomicOrdering::Monotonic ||
        Ordering == AtomicOrdering::Acquire)
      return Ordering;
    return std::nullopt;
  }

  Value *emitLoad(IRBuilderBase &B, AtomicOrdering Ordering) override {
    LoadInst *Load = B.CreateAlignedLoad(WordTy, RMW.getPointerOperand(),
                                         RMW.getAlign(), RMW.isVolatile());
    Load->setAtomic(Ordering, RMW.getSyncScopeID());
    copyMetadata(*Load);
    return Load;
  }

  Value *emitMinMax(IRBuilderBase &B, IntOp Op, Value *Operand) override {
    AtomicRMWInst *New =
        B.CreateAtomicRMW(llvmAtomicOp(Op), RMW.getPointerOperand(), Operand,
                          RMW.getAlign(), RMW.getOrdering(),
                          RMW.getSyncScopeID());
    New->setVolatile(RMW.isVolatile());
    copyMetadata(*New);
    return New;
  }

  std::pair<Value *, Value *> emitCmpXchg(IRBuilderBase &B, Value *Expected,
                                          Value *Desired,
                                          bool WantOld) override {
    AtomicOrdering Success = RMW.getOrdering();
    AtomicCmpXchgInst *Pair = B.CreateAtomicCmpXchg(
        RMW.getPointerOperand(), Expected, Desired, RMW.getAlign(), Success,
        AtomicCmpXchgInst::getStrongestFailureOrdering(Success),
        RMW.getSyncScopeID());
    Pair->setVolatile(RMW.isVolatile());
    copyMetadata(*Pair);
    Value *Old = WantOld ? B.CreateExtractValue(Pair, 0) : nullptr;
    return {Old, B.CreateExtractValue(Pair, 1)};
  }

private:
  /// Carries the memory-describing metadata (TBAA, alias scopes, target
  /// hints such as !amdgpu.no.fine.grained.memory) over to \p To.  The debug
  /// location comes from the builder; !fpmath does not apply to integers.
  void copyMetadata(Instruction &To) const {
    SmallVector<std::pair<unsigned, MDNode *>, 4> MDs;
    RMW.getAllMetadataOtherThanDebugLoc(MDs);
    for (const auto &[Kind, MD] : MDs)
      if (Kind != LLVMContext::MD_fpmath)
        To.setMetadata(Kind, MD);
  }

  AtomicRMWInst &RMW;
  IntegerType *WordTy;
};

/// dx.op.atomicBinOp / dx.op.atomicCompareExchange on the call's resource
/// and coordinates.
class DxilAtomicWord final : public AtomicWord {
public:
  DxilAtomicWord(CallInst &Call, IntegerType *WordTy)
      : Call(Call), WordTy(WordTy) {}

  std::optional<AtomicOrdering> earlyOutOrdering() const override {
    return std::nullopt;
  }

  Value *emitLoad(IRBuilderBase &, AtomicOrdering) override { return nullptr; }

  Value *emitMinMax(IRBuilderBase &B, IntOp Op, Value *Operand) override {
    Value *Args[] = {B.getInt32(DxilOpAtomicBinOp),
                     Call.getArgOperand(DxilArgHandle),
                     B.getInt32(dxilAtomicCode(Op)),
                     Call.getArgOperand(DxilArgCoord0),
                     Call.getArgOperand(DxilArgCoord1),
                     Call.getArgOperand(DxilArgCoord2),
                     Operand};
    return B.CreateCall(declare("dx.op.atomicBinOp", Args), Args);
  }

  std::pair<Value *, Value *> emitCmpXchg(IRBuilderBase &B, Value *Expected,
                                          Value *Desired, bool) override {
    Value *Args[] = {B.getInt32(DxilOpAtomicCompareExchange),
                     Call.getArgOperand(DxilArgHandle),
                     Call.getArgOperand(DxilArgCoord0),
                     Call.getArgOperand(DxilArgCoord1),
                     Call.getArgOperand(DxilArgCoord2),
                     Expected,
                     Desired};
    Value *Old = B.CreateCall(declare("dx.op.atomicCompareExchange", Args),
                              Args);
    return {Old, B.CreateICmpEQ(Old, Expected)};
  }

private:
  /// Declares (or finds) `<Base>.i32` / `<Base>.i64` returning the word and
  /// taking arguments of the types of \p Args.
  FunctionCallee declare(StringRef Base, ArrayRef<Value *> Args) {
    SmallVector<Type *, 8> Params;
    for (Value *Arg : Args)
      Params.push_back(Arg->getType());
    Module &M = *Call.getModule();
    FunctionCallee Callee = M.getOrInsertFunction(
        (Base + ".i" + Twine(WordTy->getBitWidth())).str(),
        FunctionType::get(WordTy, Params, /*isVarArg=*/false));
    if (auto *F = dyn_cast<Function>(Callee.getCallee()))
      F->setDoesNotThrow();
    return Callee;
  }

  CallInst &Call;
  IntegerType *WordTy;
};

//===----------------------------------------------------------------------===//
// Lowering of one atomic
//===----------------------------------------------------------------------===//

/// The constants of one lane type (iN or <K x iN>), made once per function
/// rather than looked up in the context for every atomic.
struct LaneConstants {
  explicit LaneConstants(Type *FPTy)
      : FPTy(FPTy), LaneTy(FPTy->getWithNewType(Type::getIntNTy(
                        FPTy->getContext(), FPTy->getScalarSizeInBits()))),
        LaneBits(FPTy->getScalarSizeInBits()) {
    // The exponent mask is the bit pattern of +inf.
    const APInt Inf =
        APFloat::getInf(FPTy->getScalarType()->getFltSemantics())
            .bitcastToAPInt();
    MagnitudeMask =
        ConstantInt::get(LaneTy, APInt::getSignedMaxValue(LaneBits));
    PosInf = ConstantInt::get(LaneTy, Inf);
    NegInf = ConstantInt::get(LaneTy, Inf | APInt::getSignMask(LaneBits));
    Zero = Constant::getNullValue(LaneTy);
    for (FloatOp Op : {FloatOp::Min, FloatOp::Max}) {
      Identity[unsigned(Op)] =
          ConstantInt::get(LaneTy, identityPattern(Op, LaneBits));
      Sticky[unsigned(Op)] = ConstantInt::get(LaneTy, stickyPattern(Op, LaneBits));
    }
  }

  Type *FPTy;
  Type *LaneTy;
  unsigned LaneBits;
  Constant *MagnitudeMask; ///< every bit but the sign
  Constant *PosInf, *NegInf;
  Constant *Zero;
  Constant *Identity[2], *Sticky[2]; ///< by FloatOp
};

/// Emits LoweringModel.h's algorithm for one atomic.  Values are integer
/// "lanes": iN for a scalar, <K x iN> for a vector, whose storage is the
/// integer "word" the atomics work on.
class AtomicLowering {
public:
  AtomicLowering(const FloatAtomic &A, AtomicWord &Word, IntegerType *WordTy,
                 const LaneConstants &K, NanPolicy Policy, Strategy Strat,
                 bool EarlyOutWanted, MDNode *UnlikelyWeights)
      : Inst(*A.Inst), Op(A.Op), Policy(Policy), Word(Word), WordTy(WordTy),
        K(K), UnlikelyWeights(UnlikelyWeights), LaneTy(K.LaneTy),
        LaneBits(K.LaneBits), Builder(Inst.getContext()) {
    if (auto Ordering = Word.earlyOutOrdering(); Ordering && EarlyOutWanted)
      EarlyOutOrdering = Ordering;
    UseCasLoop = usesCasLoop(Strat, Policy, EarlyOutOrdering.has_value()) ||
                 LaneTy->isVectorTy();
  }

  void run();

private:
  //--- Bit-level helpers (lanes) ------------------------------------------
  Value *emitIsNaN(Value *Lanes) {
    return Builder.CreateICmpUGT(Builder.CreateAnd(Lanes, K.MagnitudeMask),
                                 K.PosInf);
  }
  /// Whether \p Word is a NaN that the dispatched atomic never displaces:
  /// for min a negative NaN (above -inf as unsigned), for max a positive one
  /// (above +inf as signed).  Scalars only.
  Value *emitIsUndisplaceableNaN(Value *Word) {
    return Op == FloatOp::Min ? Builder.CreateICmpUGT(Word, K.NegInf)
                              : Builder.CreateICmpSGT(Word, K.PosInf);
  }
  /// Whether an operand \p X, whose sign test is \p XNegative, wins over
  /// \p Cur: whether the integer atomic that X dispatches to would change
  /// Cur (min: X <s Cur, or X >u Cur for a set sign bit; max: X >s Cur, or
  /// X <u Cur).  This is the relation "U(X) beats U(Cur)" of the model
  /// (OrderMap.h), NaN patterns included (checked over every pair of
  /// binary16 patterns), written with one compare per sign instead of
  /// mapping both values.
  Value *emitWins(Value *Cur, Value *X, Value *XNegative) {
    const bool Min = Op == FloatOp::Min;
    auto Positive = [&] {
      return Min ? Builder.CreateICmpSLT(X, Cur) : Builder.CreateICmpSGT(X, Cur);
    };
    auto Negative = [&] {
      return Min ? Builder.CreateICmpUGT(X, Cur) : Builder.CreateICmpULT(X, Cur);
    };
    if (auto *C = dyn_cast<ConstantInt>(XNegative))
      return C->isOne() ? Negative() : Positive();
    Value *IfPositive = Positive();
    return Builder.CreateSelect(XNegative, Negative(), IfPositive);
  }
  Value *emitIsNegative(Value *X) {
    return Builder.CreateICmpSLT(X, K.Zero);
  }
  /// A & B, folding the constant cases (IRBuilder folds only two constants).
  Value *emitAnd(Value *A, Value *B) {
    for (auto [X, Y] : {std::pair(A, B), std::pair(B, A)})
      if (auto *C = dyn_cast<ConstantInt>(X))
        return C->isOne() ? Y : X;
    return Builder.CreateAnd(A, B);
  }
  Value *toLanes(Value *W) {
    return LaneTy == WordTy ? W : Builder.CreateBitCast(W, LaneTy);
  }
  Value *toWord(Value *L) {
    return LaneTy == WordTy ? L : Builder.CreateBitCast(L, WordTy);
  }
  //--- Pieces of the algorithm --------------------------------------------
  void emitOperands();
  void emitCombineInvariants();
  Value *emitCombine(Value *CurWord);
  void emitCasLoop(Value *Init, bool SkipUnchanged);
  void emitDispatch(function_ref<void(Value *Old)> Finish);
  void emitDispatchWithFixUp();
  BasicBlock *newBlock(const Twine &Name) {
    return BasicBlock::Create(Inst.getContext(), Name, Done->getParent(),
                              Done);
  }
  /// Records that the builder's block reaches Done with \p Old as the
  /// atomic's result.
  void addResult(Value *Old) {
    if (WantResult)
      Results.emplace_back(Old, Builder.GetInsertBlock());
  }
  void branchToDone(Value *Old) {
    addResult(Old);
    Builder.CreateBr(Done);
  }
  void condBr(Value *Cond, BasicBlock *True, BasicBlock *False,
              bool TrueIsRare) {
    BranchInst *Br = Builder.CreateCondBr(Cond, True, False);
    if (TrueIsRare)
      Br->setMetadata(LLVMContext::MD_prof, UnlikelyWeights);
  }

  Instruction &Inst;
  FloatOp Op;
  NanPolicy Policy;
  AtomicWord &Word;
  IntegerType *WordTy;
  const LaneConstants &K;
  MDNode *UnlikelyWeights;
  Type *LaneTy;
  unsigned LaneBits;
  std::optional<AtomicOrdering> EarlyOutOrdering;
  bool UseCasLoop;
  IRBuilder<> Builder;

  Value *Bits = nullptr;           ///< the operand's bits
  Value *BitsIsNaN = nullptr;      ///< number and propagate
  Value *Operand = nullptr;        ///< after the NaN pattern rewrite
  Value *OperandIsNegative = nullptr; ///< picks the dispatched atomic
  // Loop invariants of emitCombine.
  Value *BitsAreNegative = nullptr; ///< number and fast
  Value *BitsIsNumber = nullptr;    ///< !BitsIsNaN, number

  BasicBlock *Done = nullptr;
  bool WantResult = false; ///< whether the atomic's result is used
  /// The old word with which each predecessor of Done arrives; one phi
  /// merges them (none when there is only one).
  SmallVector<std::pair<Value *, BasicBlock *>, 6> Results;
};

void AtomicLowering::emitOperands() {
  Value *V = isa<AtomicRMWInst>(Inst)
                 ? cast<AtomicRMWInst>(Inst).getValOperand()
                 : cast<CallInst>(Inst).getArgOperand(DxilArgValue);
  Bits = Builder.CreateBitCast(V, LaneTy);
  Operand = Bits;
  if (Policy == NanPolicy::Fast)
    return;
  BitsIsNaN = emitIsNaN(Bits);
  // number's compare-exchange combines the raw bits; everything else works
  // on the rewritten operand.
  if (UseCasLoop && Policy == NanPolicy::Number)
    return;
  // number: a NaN operand becomes the pattern that leaves memory as it is;
  // propagate: the NaN that no later op displaces.
  Constant *Pattern = Policy == NanPolicy::Number ? K.Identity[unsigned(Op)]
                                                  : K.Sticky[unsigned(Op)];
  Operand = Builder.CreateSelect(BitsIsNaN, Pattern, Bits);
}

/// The loop-invariant inputs of emitCombine, emitted before the loop.
void AtomicLowering::emitCombineInvariants() {
  if (Policy == NanPolicy::Propagate) {
    OperandIsNegative = emitIsNegative(Operand);
    return;
  }
  BitsAreNegative = emitIsNegative(Bits);
  if (Policy == NanPolicy::Number)
    BitsIsNumber = Builder.CreateNot(BitsIsNaN);
}

/// The new word a compare-exchange stores over \p CurWord: policyCombine of
/// LoweringModel.h, lane by lane.
Value *AtomicLowering::emitCombine(Value *CurWord) {
  Value *Cur = toLanes(CurWord);
  Value *New = nullptr;
  switch (Policy) {
  case NanPolicy::Number: {
    // NaN operand: keep; NaN in memory or a better operand: take the operand.
    Value *Take = Builder.CreateOr(emitIsNaN(Cur),
                                   emitWins(Cur, Bits, BitsAreNegative));
    New = Builder.CreateSelect(emitAnd(Take, BitsIsNumber), Bits, Cur);
    break;
  }
  case NanPolicy::Propagate: {
    // NaN in memory: keep; otherwise the operand (a NaN already being the
    // sticky pattern, which beats every number) if it wins.
    Value *Better = Builder.CreateSelect(
        emitWins(Cur, Operand, OperandIsNegative), Operand, Cur);
    New = Builder.CreateSelect(emitIsNaN(Cur), Cur, Better);
    break;
  }
  case NanPolicy::Fast:
    New = Builder.CreateSelect(emitWins(Cur, Bits, BitsAreNegative), Bits, Cur);
    break;
  }
  return toWord(New);
}

/// load/combine/cmpxchg loop starting from \p Init, which must be the word's
/// value or a guess.  With \p SkipUnchanged a combination equal to the
/// current word leaves without an exchange (only legal when the current word
/// was read under the early-out rules).  Reaches Done with the word the loop
/// last saw.
void AtomicLowering::emitCasLoop(Value *Init, bool SkipUnchanged) {
  emitCombineInvariants();
  BasicBlock *Preheader = Builder.GetInsertBlock();
  BasicBlock *Loop = newBlock("fatomic.cas.loop");
  Builder.CreateBr(Loop);

  Builder.SetInsertPoint(Loop);
  PHINode *Cur = Builder.CreatePHI(WordTy, 2);
  Cur->addIncoming(Init, Preheader);
  Value *New = emitCombine(Cur);
  if (SkipUnchanged) {
    BasicBlock *Exchange = newBlock("fatomic.cas");
    addResult(Cur);
    Builder.CreateCondBr(Builder.CreateICmpEQ(New, Cur), Done, Exchange);
    Builder.SetInsertPoint(Exchange);
  }
  auto [Seen, Stored] = Word.emitCmpXchg(Builder, Cur, New, /*WantOld=*/true);
  Cur->addIncoming(Seen, Builder.GetInsertBlock());
  addResult(Cur);
  Builder.CreateCondBr(Stored, Done, Loop);
}

/// The sign-dispatched integer atomic: exactly one executes.  \p Finish is
/// called in each atomic's block with its old word and must end the block.
void AtomicLowering::emitDispatch(function_ref<void(Value *Old)> Finish) {
  // A constant operand needs no branch.
  if (auto *C = dyn_cast<ConstantInt>(OperandIsNegative)) {
    Finish(Word.emitMinMax(Builder, dispatchOp(Op, C->isOne()), Operand));
    return;
  }
  const IntOp PosOp = dispatchOp(Op, false), NegOp = dispatchOp(Op, true);
  BasicBlock *Pos = newBlock(Twine("fatomic.") + toString(PosOp));
  BasicBlock *Neg = newBlock(Twine("fatomic.") + toString(NegOp));
  Builder.CreateCondBr(OperandIsNegative, Neg, Pos);
  Builder.SetInsertPoint(Pos);
  Finish(Word.emitMinMax(Builder, PosOp, Operand));
  Builder.SetInsertPoint(Neg);
  Finish(Word.emitMinMax(Builder, NegOp, Operand));
}

/// The dispatch strategy: the early-out where allowed, then the dispatched
/// atomic, and under `number` the fix-up for a NaN in memory.
///
/// number's fix-up: a NaN found in memory must be replaced by the operand.
/// With the early-out, a NaN seen by the load goes to the dispatched atomic,
/// which replaces it when its integer order lets it (a positive NaN for min,
/// a negative one for max) and otherwise returns it unchanged.  Only that
/// undisplaceable NaN (min: a negative NaN, `old >u -inf`; max: a positive
/// one, `old >s +inf`) takes the fix-up: a compare-exchange from it to the
/// operand, whose result is the NaN it replaced.  Should that exchange fail,
/// memory has changed and the atomic runs again.  A NaN operand leaves a
/// NaN in memory as it is: its identity pattern never changes memory, and
/// its fix-up exchanges the NaN for itself.
void AtomicLowering::emitDispatchWithFixUp() {
  const bool FixUps = Policy == NanPolicy::Number;
  Value *Go = nullptr; // the early-out's decision to run the atomic
  if (EarlyOutOrdering) {
    Value *Cur = Word.emitLoad(Builder, *EarlyOutOrdering);
    // Would the atomic the operand dispatches to change memory?
    Value *Wins = emitWins(Cur, Operand, OperandIsNegative);
    switch (Policy) {
    case NanPolicy::Number:
      // A NaN in memory that the operand's atomic would displace wins
      // already; the other kind goes to the atomic too, which returns it to
      // the fix-up.
      Go = Builder.CreateOr(Wins, emitIsUndisplaceableNaN(Cur));
      break;
    case NanPolicy::Propagate: // a NaN in memory stays, and is the result
      Go = Builder.CreateSelect(emitIsNaN(Cur), Builder.getFalse(), Wins);
      break;
    case NanPolicy::Fast:
      Go = Wins;
      break;
    }
    addResult(Cur);
  }
  // The atomic gets a block of its own when something branches to it: the
  // early-out, or the fix-up's retry.
  BasicBlock *Rmw = nullptr;
  if (Go || FixUps) {
    Rmw = newBlock("fatomic.rmw");
    if (Go)
      Builder.CreateCondBr(Go, Rmw, Done);
    else
      Builder.CreateBr(Rmw);
    Builder.SetInsertPoint(Rmw);
  }
  if (!FixUps) {
    emitDispatch([&](Value *Old) { branchToDone(Old); });
    return;
  }

  BasicBlock *FixUp = newBlock("fatomic.fixup");
  SmallVector<std::pair<Value *, BasicBlock *>, 2> StuckFrom;
  emitDispatch([&](Value *Old) {
    Value *Undisplaced = emitIsUndisplaceableNaN(Old);
    StuckFrom.emplace_back(Old, Builder.GetInsertBlock());
    addResult(Old);
    condBr(Undisplaced, FixUp, Done, /*TrueIsRare=*/true);
  });
  FixUp->moveBefore(Done); // after the atomics

  Builder.SetInsertPoint(FixUp);
  Value *Stuck = StuckFrom.front().first; // the NaN the atomic returned
  if (StuckFrom.size() > 1) {
    PHINode *Phi = Builder.CreatePHI(WordTy, StuckFrom.size());
    for (auto [V, From] : StuckFrom)
      Phi->addIncoming(V, From);
    Stuck = Phi;
  }
  // A NaN operand exchanges the NaN for itself: memory stays as it is.
  Value *Desired = Builder.CreateSelect(BitsIsNaN, Stuck, toWord(Bits));
  Value *Stored =
      Word.emitCmpXchg(Builder, Stuck, Desired, /*WantOld=*/false).second;
  addResult(Stuck);
  Builder.CreateCondBr(Stored, Done, Rmw);
}

void AtomicLowering::run() {
  // splitBasicBlock without the branch it would add: the code emitted here
  // ends the block.
  BasicBlock *Entry = Inst.getParent();
  Done = BasicBlock::Create(Inst.getContext(), "fatomic.done",
                            Entry->getParent(), Entry->getNextNode());
  Done->splice(Done->end(), Entry, Inst.getIterator(), Entry->end());
  Done->replaceSuccessorsPhiUsesWith(Entry, Done);
  Builder.SetInsertPoint(Entry);
  Builder.SetCurrentDebugLocation(Inst.getDebugLoc());
  WantResult = !Inst.use_empty();

  emitOperands();

  if (UseCasLoop) {
    Value *Init = Word.emitLoad(
        Builder, EarlyOutOrdering.value_or(AtomicOrdering::Monotonic));
    if (!Init) // no atomic load: the first exchange reads
      Init = ConstantInt::get(WordTy, 0);
    emitCasLoop(Init, /*SkipUnchanged=*/EarlyOutOrdering.has_value());
  } else {
    OperandIsNegative = emitIsNegative(Operand);
    emitDispatchWithFixUp();
  }

  if (WantResult) {
    Value *Old = Results.front().first;
    if (Results.size() > 1) {
      PHINode *Phi = PHINode::Create(WordTy, Results.size());
      Phi->insertBefore(Done->begin());
      for (auto [V, From] : Results)
        Phi->addIncoming(V, From);
      Old = Phi;
    }
    Builder.SetInsertPoint(Done, Done->getFirstNonPHIIt());
    Inst.replaceAllUsesWith(Builder.CreateBitCast(Old, Inst.getType()));
  }
  Inst.eraseFromParent();
}

/// The integer word that holds \p Ty.
IntegerType *wordType(Type *Ty) {
  return IntegerType::get(Ty->getContext(),
                          Ty->getPrimitiveSizeInBits().getFixedValue());
}

} // namespace

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

PreservedAnalyses LowerFloatAtomicMinMaxPass::run(Function &F,
                                                  FunctionAnalysisManager &AM) {
  SmallVector<FloatAtomic, 8> Atomics;
  // The float dx.op.atomicBinOp declarations whose calls are rewritten here.
  SmallSetVector<Function *, 2> DxilCallees;
  for (Instruction &I : instructions(F)) {
    if (auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
      if (auto A = classifyAtomicRMW(*RMW))
        Atomics.push_back(*A);
      continue;
    }
    auto *CI = dyn_cast<CallInst>(&I);
    if (!CI || !isDxilFloatAtomicBinOp(*CI))
      continue;
    std::string Error;
    if (auto A = classifyDxilCall(*CI, Error)) {
      Atomics.push_back(*A);
      DxilCallees.insert(CI->getCalledFunction());
    } else if (!Error.empty())
      F.getContext().diagnose(DiagnosticInfoUnsupported(
          F, "lower-float-atomic-minmax: cannot lower " +
                 CI->getCalledFunction()->getName() + ": " + Error,
          CI->getDebugLoc()));
  }
  if (Atomics.empty())
    return PreservedAnalyses::all();

  MDNode *Unlikely = MDBuilder(F.getContext()).createUnlikelyBranchWeights();
  SmallVector<LaneConstants, 3> Constants; // by FP type
  auto ConstantsFor = [&](Type *FPTy) -> const LaneConstants & {
    for (const LaneConstants &K : Constants)
      if (K.FPTy == FPTy)
        return K;
    return Constants.emplace_back(FPTy);
  };
  // Reverse order: each split then moves only the tail up to the next atomic.
  for (const FloatAtomic &A : reverse(Atomics)) {
    IntegerType *WordTy = wordType(A.Inst->getType());
    const NanPolicy Policy = Options.policyFor(A.DefaultPolicy);
    auto Lower = [&](AtomicWord &Word) {
      AtomicLowering(A, Word, WordTy, ConstantsFor(A.Inst->getType()), Policy,
                     Options.Strat, Options.EarlyOut, Unlikely)
          .run();
    };
    if (auto *RMW = dyn_cast<AtomicRMWInst>(A.Inst)) {
      LLVMAtomicWord Word(*RMW, WordTy);
      Lower(Word);
    } else {
      DxilAtomicWord Word(*cast<CallInst>(A.Inst), WordTy);
      Lower(Word);
    }
  }
  // A float overload is not DXIL: drop the declarations this made unused.
  // Only declarations are erased, never the function being visited, and
  // their cached analyses go first.
  for (Function *Callee : DxilCallees) {
    if (!Callee->use_empty())
      continue;
    AM.clear(*Callee, Callee->getName());
    Callee->eraseFromParent();
  }
  return PreservedAnalyses::none();
}

void LowerFloatAtomicMinMaxPass::printPipeline(
    raw_ostream &OS, function_ref<StringRef(StringRef)>) {
  // Pipeline strings end a pass at ',', so print ';' between the items.
  std::string Params = Options.str();
  std::replace(Params.begin(), Params.end(), ',', ';');
  OS << PipelineName << '<' << Params << '>';
}

Expected<LoweringOptions> parseLLVMPassOptions(StringRef Params) {
  auto Fail = [](const Twine &Message) {
    return make_error<StringError>(
        Twine(LowerFloatAtomicMinMaxPass::PipelineName) + ": " + Message,
        inconvertibleErrorCode());
  };
  std::string Error;
  std::optional<LoweringOptions> Options = parseOptions(Params, Error);
  if (!Options)
    return Fail(Error);
  if (!Options->Native.empty())
    return Fail("option 'native' applies to the SPIR-V pass only");
  if (Options->RetypeImages)
    return Fail("option 'images' applies to the SPIR-V pass only");
  if (Options->OutlineGiven)
    return Fail("option 'outline' applies to the SPIR-V pass only");
  return std::move(*Options);
}

void registerLowerFloatAtomicMinMax(PassBuilder &PB) {
  PB.registerPipelineParsingCallback(
      [](StringRef Name, FunctionPassManager &FPM,
         ArrayRef<PassBuilder::PipelineElement>) {
        StringRef PassName = LowerFloatAtomicMinMaxPass::PipelineName;
        if (!PassBuilder::checkParametrizedPassName(Name, PassName))
          return false;
        Expected<LoweringOptions> Options = PassBuilder::parsePassParameters(
            parseLLVMPassOptions, Name, PassName);
        if (!Options) {
          // The callback can only decline; say why, and the pipeline parser
          // then rejects the pass name.
          errs() << "error: " << toString(Options.takeError()) << '\n';
          return false;
        }
        FPM.addPass(LowerFloatAtomicMinMaxPass(std::move(*Options)));
        return true;
      });
}

PassPluginLibraryInfo getFatomicPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "FatomicLLVMPlugin", "0.1",
          registerLowerFloatAtomicMinMax};
}

} // namespace fatomic
