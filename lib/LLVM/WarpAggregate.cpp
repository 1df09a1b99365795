//===- WarpAggregate.cpp - One float atomic per NVPTX warp ----------------===//
//
// Owns the NVPTX warp aggregation of the LLVM pass: which atomics and
// targets it applies to, and the IR around the two float atomics it leaves
// for the lowering.  WarpAggregate.h states the shape and why it is
// linearizable.  Keys are the order map U of OrderMap.h on the operand's
// bits after the policy's NaN rewrite, so an unsigned reduction is the
// float min/max of the policy, -0 < +0 included.
//
//===----------------------------------------------------------------------===//

#include "WarpAggregate.h"
#include "BoundCache.h"
#include "OrderKeys.h"

#include "llvm/IR/BasicBlock.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;

namespace fatomic::llvmir {

namespace {

/// The first architecture with redux.sync (PTX ISA 7.0, sm_80).
constexpr unsigned FirstReduxArch = 80;

/// Whether each aggregated form ends with a warp barrier (setReconvergeForTesting).
bool ReconvergeForTesting = false;

/// Address spaces in which one address names one memory for every lane of
/// a warp: generic (checked at run time for local memory), global, shared.
bool isWarpSharedAddressSpace(unsigned AS) {
  return AS == 0 || AS == 1 || AS == 3;
}

/// Emits the aggregated form of one atomic (WarpAggregate.h).
class WarpAggregate {
public:
  WarpAggregate(AtomicRMWInst &RMW, FloatOp Op, NanPolicy Policy,
                BoundCache *Cache, bool Controlled)
      : RMW(RMW), Op(Op), Cache(Cache), Controlled(Controlled), B(&RMW),
        Bits(RMW.getType()->getPrimitiveSizeInBits().getFixedValue()),
        WordTy(B.getIntNTy(Bits)), Keys(B, RMW.getType(), Op, Policy) {}

  AtomicRMWInst &run();

private:
  /// A call of the intrinsic \p ID; a convergent one is controlled by the
  /// form's anchor, where the function uses convergence control.
  Value *call(Intrinsic::ID ID, ArrayRef<Value *> Args) {
    if (!Anchor)
      return B.CreateIntrinsic(ID, {}, Args);
    Function *Callee =
        Intrinsic::getOrInsertDeclaration(RMW.getModule(), ID, {});
    if (!Callee->isConvergent())
      return B.CreateCall(Callee, Args);
    return B.CreateCall(Callee, Args,
                        {OperandBundleDef("convergencectrl", Anchor)});
  }
  Value *emitJoin(Value *High, Value *Low);
  Value *emitSameAddress();
  Value *emitKey();
  Value *emitReduce(Value *Key);
  Value *emitHead(BasicBlock *Reduce, BasicBlock *Single, BasicBlock *Done);
  /// The blocks of the aggregated form (WarpAggregate.h).
  struct Shape {
    BasicBlock *Head, *Done, *Reduce, *Elected, *Join, *Single;
  };
  Shape split();
  AtomicRMWInst *emitElected(const Shape &S, Value *&Key, Value *&Reduced);
  AtomicRMWInst &runUnused();
  AtomicRMWInst &runUsed();
  Value *emitFullWarpHead(BasicBlock *Reduce, BasicBlock *Single,
                          BasicBlock *Done);
  Value *emitBroadcast(Value *W);
  Value *emitGroupResult(BasicBlock *Elected, Value *ElectedWord,
                         BasicBlock *Reduce, Value *Key, Value *Reduced);
  void emitReconverge(BasicBlock *Done);

  AtomicRMWInst &RMW;
  const FloatOp Op;
  BoundCache *const Cache; ///< the function's bound cache, if it has one
  const bool Controlled;   ///< the function uses convergence control
  IRBuilder<> B;
  const unsigned Bits;
  IntegerType *const WordTy;
  OrderKeys Keys;
  Value *Anchor = nullptr;       ///< Controlled: the form's convergence token
  Value *Entry = nullptr;        ///< the lanes that reached the atomic together
  Value *Mask = nullptr;         ///< the group's lanes (-1: the full warp)
  Value *HitResult = nullptr;    ///< used, with the cache: a hit's result
  BasicBlock *HitFrom = nullptr; ///< the block from which hits go to Done
};

/// Whether every lane of Mask has the same address, and it is not in local
/// memory (where one address is different memory in each lane).
Value *WarpAggregate::emitSameAddress() {
  Value *Ptr = RMW.getPointerOperand();
  Value *Address = B.CreatePtrToInt(Ptr, B.getInt64Ty());
  Value *Match = call(Intrinsic::nvvm_match_all_sync_i64p, {Mask, Address});
  Value *Uniform = B.CreateExtractValue(Match, 1);
  if (RMW.getPointerAddressSpace() != 0)
    return Uniform;
  Value *Local = call(Intrinsic::nvvm_isspacep_local, {Ptr});
  return B.CreateAnd(Uniform, B.CreateNot(Local));
}

// Each value below is made in its own statement: the order of the
// instructions does not depend on the order in which the compiler
// evaluates arguments.

/// The 64-bit word of two 32-bit halves.
Value *WarpAggregate::emitJoin(Value *High, Value *Low) {
  Value *LowWord = B.CreateZExt(Low, WordTy);
  Value *HighWord = B.CreateShl(B.CreateZExt(High, WordTy), 32);
  return B.CreateOr(HighWord, LowWord);
}

/// The operand's key: its bits with a NaN rewritten as the lowering
/// rewrites it (number: the identity, which is the reduction's identity
/// too; propagate: the sticky NaN, which wins), mapped by U.
Value *WarpAggregate::emitKey() {
  return Keys.key(B.CreateBitCast(RMW.getValOperand(), WordTy));
}

/// The best key of the active lanes: redux.sync on 32 bits; for 64, the
/// best high half, then the best low half among the lanes that have it.
Value *WarpAggregate::emitReduce(Value *Key) {
  const Intrinsic::ID Redux = Op == FloatOp::Max
                                  ? Intrinsic::nvvm_redux_sync_umax
                                  : Intrinsic::nvvm_redux_sync_umin;
  if (Bits == 32)
    return call(Redux, {Key, Mask});
  Type *I32 = B.getInt32Ty();
  Value *High = B.CreateTrunc(B.CreateLShr(Key, 32), I32);
  Value *BestHigh = call(Redux, {High, Mask});
  Value *Low = B.CreateTrunc(Key, I32);
  // A lane without the best high half offers the reduction's identity.
  Value *HasBestHigh = B.CreateICmpEQ(High, BestHigh);
  Value *Offered = B.CreateSelect(HasBestHigh, Low,
                                  B.getInt32(Op == FloatOp::Max ? 0 : ~0u));
  Value *BestLow = call(Redux, {Offered, Mask});
  return emitJoin(BestHigh, BestLow);
}

/// Branches from the atomic's block (where B is) to \p Reduce when all 32
/// lanes of the warp are active and share the address, else to \p Single
/// (WarpAggregate.h says why the whole warp).  With the bound cache, a
/// full warp in which every lane hits it goes to \p Done instead, each
/// lane with its cached word (HitResult), and a lane that hits in a warp
/// where another misses takes part in the group.  Mask is the full warp
/// from here on.  Returns the operand's key when the cache made it.
Value *WarpAggregate::emitFullWarpHead(BasicBlock *Reduce, BasicBlock *Single,
                                       BasicBlock *Done) {
  LLVMContext &Ctx = RMW.getContext();
  Function *F = Reduce->getParent();
  Entry = call(Intrinsic::nvvm_activemask, {});
  auto *Full = BasicBlock::Create(Ctx, "fatomic.warp.full", F, Reduce);
  B.CreateCondBr(B.CreateICmpEQ(Entry, B.getInt32(~0u)), Full, Single);
  B.SetInsertPoint(Full);
  Mask = B.getInt32(~0u);
  Value *Key = nullptr;
  if (Cache) {
    Key = emitKey();
    HitResult = B.CreateBitCast(Cache->emitCachedWord(B), RMW.getType());
    Value *Hit = Cache->emitHit(B, RMW.getPointerOperand(), Key,
                                /*NeedWord=*/true);
    Value *AnyMiss =
        call(Intrinsic::nvvm_vote_any_sync, {Mask, B.CreateNot(Hit)});
    auto *Check = BasicBlock::Create(Ctx, "fatomic.warp.check", F, Reduce);
    HitFrom = B.GetInsertBlock();
    B.CreateCondBr(AnyMiss, Check, Done);
    B.SetInsertPoint(Check);
  }
  B.CreateCondBr(emitSameAddress(), Reduce, Single);
  return Key;
}

/// Lane 0's \p W, in every lane of the warp.
Value *WarpAggregate::emitBroadcast(Value *W) {
  auto Shuffle = [&](Value *Half) {
    return call(Intrinsic::nvvm_shfl_sync_idx_i32,
                {Mask, Half, B.getInt32(0), B.getInt32(31)});
  };
  if (Bits == 32)
    return Shuffle(W);
  Type *I32 = B.getInt32Ty();
  Value *Low = Shuffle(B.CreateTrunc(W, I32));
  Value *High = Shuffle(B.CreateTrunc(B.CreateLShr(W, 32), I32));
  return emitJoin(High, Low);
}

/// In the join block (where B is), each lane's result, from the elected
/// lane's \p ElectedWord (from \p Elected; the other lanes come from
/// \p Reduce): the owner of the reduced key (the lowest lane that offered
/// it) goes first and gets what the elected atomic found; the others come
/// after it and get the memory it left, which the bound cache records.
Value *WarpAggregate::emitGroupResult(BasicBlock *Elected, Value *ElectedWord,
                                      BasicBlock *Reduce, Value *Key,
                                      Value *Reduced) {
  PHINode *Found = B.CreatePHI(WordTy, 2);
  Found->addIncoming(ElectedWord, Elected);
  Found->addIncoming(PoisonValue::get(WordTy), Reduce);
  // The warp waits for lane 0's lowered atomic here, before any exchange.
  call(Intrinsic::nvvm_bar_warp_sync, {Mask});
  Value *Old = emitBroadcast(Found);
  Value *Offered = call(Intrinsic::nvvm_vote_ballot_sync,
                        {Mask, B.CreateICmpEQ(Key, Reduced)});
  Value *Owner = B.CreateBinaryIntrinsic(Intrinsic::cttz, Offered, B.getTrue());
  Value *After = Keys.combine(Old, Reduced);
  if (Cache)
    Cache->emitRecordWord(B, RMW.getPointerOperand(), After);
  Value *LaneId = call(Intrinsic::nvvm_read_ptx_sreg_laneid, {});
  Value *IsOwner = B.CreateICmpEQ(LaneId, Owner);
  return B.CreateBitCast(B.CreateSelect(IsOwner, Old, After), RMW.getType());
}

/// Branches from the atomic's block (where B is) to \p Reduce when the
/// active lanes share the address, else to \p Single; with the bound
/// cache, a lane that hits it goes to \p Done first, and only the others
/// take part.  Returns the operand's key when the cache made it.
Value *WarpAggregate::emitHead(BasicBlock *Reduce, BasicBlock *Single,
                               BasicBlock *Done) {
  Value *Key = nullptr;
  if (Cache) {
    // The lanes that reached the atomic, before the cache's test parts them.
    if (ReconvergeForTesting)
      Entry = call(Intrinsic::nvvm_activemask, {});
    Key = emitKey();
    auto *Check = BasicBlock::Create(RMW.getContext(), "fatomic.warp.check",
                                     Reduce->getParent(), Reduce);
    B.CreateCondBr(Cache->emitHit(B, RMW.getPointerOperand(), Key,
                                  /*NeedWord=*/false),
                   Done, Check);
    B.SetInsertPoint(Check);
  }
  Mask = call(Intrinsic::nvvm_activemask, {});
  if (!Entry)
    Entry = Mask;
  B.CreateCondBr(emitSameAddress(), Reduce, Single);
  return Key;
}

/// With setReconvergeForTesting, at the head of \p Done, which every lane
/// that reached the atomic reaches: bar.warp.sync on the lanes that reached
/// it together (Entry), so that they leave it as one group, whatever paths
/// they took inside (no path leaves the form early).
void WarpAggregate::emitReconverge(BasicBlock *Done) {
  if (!ReconvergeForTesting)
    return;
  B.SetInsertPoint(Done, Done->getFirstInsertionPt());
  call(Intrinsic::nvvm_bar_warp_sync, {Entry});
}

AtomicRMWInst &WarpAggregate::run() {
  return RMW.use_empty() ? runUnused() : runUsed();
}

/// Splits the atomic's block before it into Head (where B is, without its
/// branch) and Done, with the blocks between them.
WarpAggregate::Shape WarpAggregate::split() {
  LLVMContext &Ctx = RMW.getContext();
  Shape S;
  S.Head = RMW.getParent();
  Function *F = S.Head->getParent();
  S.Done = S.Head->splitBasicBlock(&RMW, "fatomic.warp.done");
  S.Reduce = BasicBlock::Create(Ctx, "fatomic.warp.reduce", F, S.Done);
  S.Elected = BasicBlock::Create(Ctx, "fatomic.warp.elected", F, S.Done);
  S.Join = BasicBlock::Create(Ctx, "fatomic.warp.join", F, S.Done);
  S.Single = BasicBlock::Create(Ctx, "fatomic.warp.single", F, S.Done);
  B.SetCurrentDebugLocation(RMW.getDebugLoc());
  S.Head->getTerminator()->eraseFromParent();
  B.SetInsertPoint(S.Head);
  // The form works on whichever lanes reach the atomic together
  // (activemask), which is what an anchor's token promises: no more
  // convergence than the uncontrolled form assumes (WarpAggregate.h).
  if (Controlled)
    Anchor = B.CreateIntrinsic(Intrinsic::experimental_convergence_anchor,
                               ArrayRef<Type *>(), ArrayRef<Value *>());
  return S;
}

/// In Reduce, the operand's key where \p Key is not set yet, its reduction
/// (\p Reduced) and the branch of the lowest lane of Mask to Elected, which
/// runs the atomic on U^-1 of the reduced key (the returned atomic; B is
/// after it).
AtomicRMWInst *WarpAggregate::emitElected(const Shape &S, Value *&Key,
                                          Value *&Reduced) {
  B.SetInsertPoint(S.Reduce);
  if (!Key)
    Key = emitKey();
  Reduced = emitReduce(Key);
  Value *LaneId = call(Intrinsic::nvvm_read_ptx_sreg_laneid, {});
  Value *Leader =
      isa<Constant>(Mask) ? B.getInt32(0) // the full warp
                          : B.CreateBinaryIntrinsic(Intrinsic::cttz, Mask,
                                                    B.getTrue());
  B.CreateCondBr(B.CreateICmpEQ(LaneId, Leader), S.Elected, S.Join);

  B.SetInsertPoint(S.Elected);
  auto *One = cast<AtomicRMWInst>(RMW.clone());
  // The value operand: U^-1 of the reduced key.
  One->setOperand(1, B.CreateBitCast(Keys.fromOrdered(Reduced), RMW.getType()));
  B.Insert(One);
  return One;
}

/// A used result: the whole warp on one address aggregates, every other
/// case runs the per-lane atomic behind the bound cache's test.
AtomicRMWInst &WarpAggregate::runUsed() {
  Shape S = split();
  Value *Key = emitFullWarpHead(S.Reduce, S.Single, S.Done);
  Value *Reduced = nullptr;
  AtomicRMWInst *One = emitElected(S, Key, Reduced);
  Value *ElectedWord = B.CreateBitCast(One, WordTy);
  B.CreateBr(S.Join);

  B.SetInsertPoint(S.Join);
  Value *Result =
      emitGroupResult(S.Elected, ElectedWord, S.Reduce, Key, Reduced);
  B.CreateBr(S.Done);

  RMW.moveBefore(*S.Single, S.Single->end());
  B.SetInsertPoint(S.Single);
  B.CreateBr(S.Done);
  B.SetInsertPoint(S.Done, S.Done->begin());
  PHINode *Old = B.CreatePHI(RMW.getType(), 3);
  RMW.replaceAllUsesWith(Old);
  Old->addIncoming(Result, S.Join);
  Old->addIncoming(&RMW, S.Single);
  if (HitResult)
    Old->addIncoming(HitResult, HitFrom);
  // The cache's test splits Single; the phi follows its tail.
  if (Cache)
    Cache->guard(RMW);
  emitReconverge(S.Done);
  return *One;
}

/// An unused result: the lanes that miss the bound cache and share the
/// address aggregate, whatever the mask.
AtomicRMWInst &WarpAggregate::runUnused() {
  Shape S = split();
  Value *Key = emitHead(S.Reduce, S.Single, S.Done);
  Value *Reduced = nullptr;
  AtomicRMWInst *One = emitElected(S, Key, Reduced);
  // Memory after the elected atomic is at least what it found, and the
  // reduced key; the group's other lanes know the reduced key.
  Value *ElectedBound =
      Cache ? Keys.best(Keys.key(B.CreateBitCast(One, WordTy)), Reduced)
            : nullptr;
  B.CreateBr(S.Join);

  B.SetInsertPoint(S.Join);
  if (ElectedBound) {
    PHINode *Bound = B.CreatePHI(WordTy, 2);
    Bound->addIncoming(ElectedBound, S.Elected);
    Bound->addIncoming(Reduced, S.Reduce);
    Cache->emitRecordBound(B, RMW.getPointerOperand(), Bound);
  }
  B.CreateBr(S.Done);

  RMW.moveBefore(*S.Single, S.Single->end());
  B.SetInsertPoint(S.Single);
  if (Cache)
    Cache->emitRecordAfter(B, RMW.getPointerOperand(),
                           B.CreateBitCast(&RMW, WordTy), Key);
  B.CreateBr(S.Done);
  emitReconverge(S.Done);
  return *One;
}

} // namespace

void setReconvergeForTesting(bool On) { ReconvergeForTesting = On; }

std::optional<unsigned> smArch(StringRef CPU) {
  if (!CPU.consume_front("sm_"))
    return std::nullopt;
  size_t Digits = CPU.find_first_not_of("0123456789");
  unsigned Arch = 0;
  if (CPU.substr(0, Digits).getAsInteger(10, Arch))
    return std::nullopt;
  return Arch;
}

bool targetAggregates(const Function &F, Aggregation Aggregate) {
  if (Aggregate == Aggregation::Off ||
      !F.getParent()->getTargetTriple().isNVPTX())
    return false;
  Attribute CPU = F.getFnAttribute("target-cpu");
  if (!CPU.isValid())
    return Aggregate == Aggregation::Subgroup;
  std::optional<unsigned> Arch = smArch(CPU.getValueAsString());
  return Arch && *Arch >= FirstReduxArch;
}

bool isWarpAggregable(const AtomicRMWInst &RMW) {
  Type *Ty = RMW.getType();
  return (Ty->isFloatTy() || Ty->isDoubleTy()) &&
         RMW.getOrdering() == AtomicOrdering::Monotonic && !RMW.isVolatile() &&
         RMW.getSyncScopeID() != SyncScope::SingleThread &&
         isWarpSharedAddressSpace(RMW.getPointerAddressSpace());
}

bool usesConvergenceControl(const Function &F) {
  for (const Instruction &I : instructions(F))
    if (const auto *CB = dyn_cast<CallBase>(&I);
        CB && (isa<ConvergenceControlInst>(CB) ||
               CB->getOperandBundle(LLVMContext::OB_convergencectrl)))
      return true;
  return false;
}

AtomicRMWInst &aggregateOverWarp(AtomicRMWInst &RMW, FloatOp Op,
                                 NanPolicy Policy, BoundCache *Cache,
                                 bool Controlled) {
  return WarpAggregate(RMW, Op, Policy, Cache, Controlled).run();
}

} // namespace fatomic::llvmir
