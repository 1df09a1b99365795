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
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;

namespace fatomic::llvmir {

namespace {

/// The first architecture with redux.sync (PTX ISA 7.0, sm_80).
constexpr unsigned FirstReduxArch = 80;

/// The NN of a "target-cpu" of the form sm_NN[suffix], or nothing.
std::optional<unsigned> smArch(StringRef CPU) {
  if (!CPU.consume_front("sm_"))
    return std::nullopt;
  size_t Digits = CPU.find_first_not_of("0123456789");
  unsigned Arch = 0;
  if (CPU.substr(0, Digits).getAsInteger(10, Arch))
    return std::nullopt;
  return Arch;
}

/// Address spaces in which one address names one memory for every lane of
/// a warp: generic (checked at run time for local memory), global, shared.
bool isWarpSharedAddressSpace(unsigned AS) {
  return AS == 0 || AS == 1 || AS == 3;
}

/// Emits the aggregated form of one atomic (WarpAggregate.h).
class WarpAggregate {
public:
  WarpAggregate(AtomicRMWInst &RMW, FloatOp Op, NanPolicy Policy,
                BoundCache *Cache)
      : RMW(RMW), Op(Op), Cache(Cache), B(&RMW),
        Bits(RMW.getType()->getPrimitiveSizeInBits().getFixedValue()),
        WordTy(B.getIntNTy(Bits)), Keys(B, Bits, Op, Policy) {}

  AtomicRMWInst &run();

private:
  Value *call(Intrinsic::ID ID, ArrayRef<Value *> Args) {
    return B.CreateIntrinsic(ID, {}, Args);
  }
  Constant *word(uint64_t V) { return ConstantInt::get(WordTy, V); }
  Value *emitJoin(Value *High, Value *Low);
  Value *emitUniform();
  Value *emitKey();
  Value *emitReduce(Value *Key);
  Value *emitBroadcast(Value *W, Value *Lane);
  Value *emitResult(Value *Elected, Value *Key, Value *Reduced);
  Value *emitHead(BasicBlock *Reduce, BasicBlock *Single, BasicBlock *Done,
                  bool Used);
  void emitDoneResult(BasicBlock *Done, BasicBlock *Head, BasicBlock *Join,
                      Value *Result, BasicBlock *Single);
  Value *emitGroupResult(BasicBlock *Elected, Value *ElectedWord,
                         BasicBlock *Reduce, Value *Key, Value *Reduced);

  AtomicRMWInst &RMW;
  const FloatOp Op;
  BoundCache *const Cache; ///< the function's bound cache, if it has one
  IRBuilder<> B;
  const unsigned Bits;
  IntegerType *const WordTy;
  OrderKeys Keys;
  Value *Mask = nullptr;   ///< the active lanes
  Value *LaneId = nullptr; ///< this lane's index in the warp
  Value *Leader = nullptr; ///< the lowest active lane, which does the atomic
  Value *GroupAfter = nullptr; ///< used: the memory the group's atomic left
  Value *HitResult = nullptr;  ///< used, with the cache: a hit's result
};

/// Whether every active lane has the same address, and it is not in local
/// memory (where one address is different memory in each lane).
Value *WarpAggregate::emitUniform() {
  Mask = call(Intrinsic::nvvm_activemask, {});
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

/// \p W of lane \p Lane, in every active lane.
Value *WarpAggregate::emitBroadcast(Value *W, Value *Lane) {
  auto Shuffle = [&](Value *Half) {
    return call(Intrinsic::nvvm_shfl_sync_idx_i32,
                {Mask, Half, Lane, B.getInt32(31)});
  };
  if (Bits == 32)
    return Shuffle(W);
  Type *I32 = B.getInt32Ty();
  Value *Low = Shuffle(B.CreateTrunc(W, I32));
  Value *High = Shuffle(B.CreateTrunc(B.CreateLShr(W, 32), I32));
  return emitJoin(High, Low);
}

/// Each lane's result: the owner of the reduced key (the lowest lane that
/// offered it) goes first and gets what the elected atomic found; the
/// others come after it and get the memory it left.
Value *WarpAggregate::emitResult(Value *Elected, Value *Key, Value *Reduced) {
  Value *Old = emitBroadcast(Elected, Leader);
  // Masked again: on sm_90 the ballot also holds the votes of lanes outside
  // the mask that run the same instruction at the same time (another loop
  // iteration's group), which would name a foreign lane as the owner.
  Value *Offered = B.CreateAnd(call(Intrinsic::nvvm_vote_ballot_sync,
                                    {Mask, B.CreateICmpEQ(Key, Reduced)}),
                               Mask);
  Value *Owner = B.CreateBinaryIntrinsic(Intrinsic::cttz, Offered, B.getTrue());
  Value *After = Keys.combine(Old, Reduced);
  GroupAfter = After;
  Value *IsOwner = B.CreateICmpEQ(LaneId, Owner);
  return B.CreateSelect(IsOwner, Old, After);
}

/// Branches from the atomic's block (where B is) to \p Reduce when the
/// active lanes share the address, else to \p Single; with the bound
/// cache, a lane that hits it goes to \p Done first (with the cached word
/// as its result, HitResult, where the result is used), and only the
/// others take part.  Returns the operand's key when the cache made it.
Value *WarpAggregate::emitHead(BasicBlock *Reduce, BasicBlock *Single,
                               BasicBlock *Done, bool Used) {
  Value *Key = nullptr;
  if (Cache) {
    Key = emitKey();
    if (Used)
      HitResult = B.CreateBitCast(Cache->emitCachedWord(B), RMW.getType());
    auto *Check = BasicBlock::Create(RMW.getContext(), "fatomic.warp.check",
                                     Reduce->getParent(), Reduce);
    B.CreateCondBr(Cache->emitHit(B, RMW.getPointerOperand(), Key, Used),
                   Done, Check);
    B.SetInsertPoint(Check);
  }
  B.CreateCondBr(emitUniform(), Reduce, Single);
  return Key;
}

AtomicRMWInst &WarpAggregate::run() {
  LLVMContext &Ctx = RMW.getContext();
  BasicBlock *Head = RMW.getParent();
  Function *F = Head->getParent();
  const bool Used = !RMW.use_empty();
  BasicBlock *Done = Head->splitBasicBlock(&RMW, "fatomic.warp.done");
  auto *Reduce = BasicBlock::Create(Ctx, "fatomic.warp.reduce", F, Done);
  auto *Elected = BasicBlock::Create(Ctx, "fatomic.warp.elected", F, Done);
  auto *Join = BasicBlock::Create(Ctx, "fatomic.warp.join", F, Done);
  auto *Single = BasicBlock::Create(Ctx, "fatomic.warp.single", F, Done);
  B.SetCurrentDebugLocation(RMW.getDebugLoc());

  Head->getTerminator()->eraseFromParent();
  B.SetInsertPoint(Head);
  Value *Key = emitHead(Reduce, Single, Done, Used);

  B.SetInsertPoint(Reduce);
  if (!Key)
    Key = emitKey();
  Value *Reduced = emitReduce(Key);
  LaneId = call(Intrinsic::nvvm_read_ptx_sreg_laneid, {});
  Leader = B.CreateBinaryIntrinsic(Intrinsic::cttz, Mask, B.getTrue());
  B.CreateCondBr(B.CreateICmpEQ(LaneId, Leader), Elected, Join);

  B.SetInsertPoint(Elected);
  auto *One = cast<AtomicRMWInst>(RMW.clone());
  // The value operand: U^-1 of the reduced key.
  One->setOperand(1, B.CreateBitCast(Keys.fromOrdered(Reduced), RMW.getType()));
  B.Insert(One);
  Value *ElectedWord = Used || Cache ? B.CreateBitCast(One, WordTy) : nullptr;
  // Unused: memory after the elected atomic is at least what it found, and
  // the reduced key; the group's other lanes know the reduced key.
  Value *ElectedBound =
      Cache && !Used ? Keys.best(Keys.key(ElectedWord), Reduced) : nullptr;
  B.CreateBr(Join);

  B.SetInsertPoint(Join);
  if (ElectedBound) {
    PHINode *Bound = B.CreatePHI(WordTy, 2);
    Bound->addIncoming(ElectedBound, Elected);
    Bound->addIncoming(Reduced, Reduce);
    Cache->emitRecordBound(B, RMW.getPointerOperand(), Bound);
  }
  Value *Result = Used ? emitGroupResult(Elected, ElectedWord, Reduce, Key,
                                         Reduced)
                       : nullptr;
  // Used: every lane of the group knows the memory the group left.
  if (Cache && Used)
    Cache->emitRecordWord(B, RMW.getPointerOperand(), GroupAfter);
  B.CreateBr(Done);

  RMW.moveBefore(*Single, Single->end());
  B.SetInsertPoint(Single);
  if (Cache)
    Cache->emitRecordAfter(B, RMW.getPointerOperand(),
                           B.CreateBitCast(&RMW, WordTy), Key);
  B.CreateBr(Done);
  if (Result)
    emitDoneResult(Done, Head, Join, Result, Single);
  return *One;
}

/// The result phi at \p Done: the group's \p Result from \p Join, the
/// per-lane atomic's from \p Single, and with the cache the cached word
/// from \p Head.
void WarpAggregate::emitDoneResult(BasicBlock *Done, BasicBlock *Head,
                                   BasicBlock *Join, Value *Result,
                                   BasicBlock *Single) {
  B.SetInsertPoint(Done, Done->begin());
  PHINode *Old = B.CreatePHI(RMW.getType(), 3);
  RMW.replaceUsesWithIf(
      Old, [&](Use &U) { return cast<Instruction>(U.getUser())->getParent() != Single; });
  Old->addIncoming(Result, Join);
  Old->addIncoming(&RMW, Single);
  if (HitResult)
    Old->addIncoming(HitResult, Head);
}

/// In Join, the result of every lane of the group (used results only):
/// the elected atomic's word, \p ElectedWord from \p Elected, shuffled to
/// the lanes that come from \p Reduce.
Value *WarpAggregate::emitGroupResult(BasicBlock *Elected, Value *ElectedWord,
                                      BasicBlock *Reduce, Value *Key,
                                      Value *Reduced) {
  PHINode *Found = B.CreatePHI(WordTy, 2);
  Found->addIncoming(ElectedWord, Elected);
  // Lanes other than the leader take the leader's value from the shuffle.
  Found->addIncoming(PoisonValue::get(WordTy), Reduce);
  // The group waits for its leader here, before any exchange: on sm_90,
  // with the leader's fix-up loop between, the shuffles alone hung a
  // divergent warp (tools/nvptx/nvptx-race.py, f64 cases).
  call(Intrinsic::nvvm_bar_warp_sync, {Mask});
  return B.CreateBitCast(emitResult(Found, Key, Reduced), RMW.getType());
}

} // namespace

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

AtomicRMWInst &aggregateOverWarp(AtomicRMWInst &RMW, FloatOp Op,
                                 NanPolicy Policy, BoundCache *Cache) {
  return WarpAggregate(RMW, Op, Policy, Cache).run();
}

} // namespace fatomic::llvmir
