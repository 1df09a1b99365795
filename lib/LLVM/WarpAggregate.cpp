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
  WarpAggregate(AtomicRMWInst &RMW, FloatOp Op, NanPolicy Policy)
      : RMW(RMW), Op(Op), Policy(Policy), B(&RMW),
        Bits(RMW.getType()->getPrimitiveSizeInBits().getFixedValue()),
        WordTy(B.getIntNTy(Bits)) {}

  AtomicRMWInst &run();

private:
  Value *call(Intrinsic::ID ID, ArrayRef<Value *> Args) {
    return B.CreateIntrinsic(ID, {}, Args);
  }
  Constant *word(uint64_t V) { return ConstantInt::get(WordTy, V); }
  Value *emitIsNaN(Value *W);
  Value *emitJoin(Value *High, Value *Low);
  Value *emitUniform();
  Value *emitKey();
  Value *emitReduce(Value *Key);
  Value *emitToOrdered(Value *W);
  Value *emitFromOrdered(Value *K);
  Value *emitBroadcast(Value *W, Value *Lane);
  Value *emitMemoryAfter(Value *Old, Value *Reduced);
  Value *emitResult(Value *Elected, Value *Key, Value *Reduced);

  AtomicRMWInst &RMW;
  const FloatOp Op;
  const NanPolicy Policy;
  IRBuilder<> B;
  const unsigned Bits;
  IntegerType *const WordTy;
  Value *Mask = nullptr;   ///< the active lanes
  Value *LaneId = nullptr; ///< this lane's index in the warp
  Value *Leader = nullptr; ///< the lowest active lane, which does the atomic
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

/// Whether the word \p W is a NaN.
Value *WarpAggregate::emitIsNaN(Value *W) {
  Value *Magnitude = B.CreateAnd(W, word(widthMask(Bits) >> 1));
  return B.CreateICmpUGT(Magnitude, word(exponentMask(Bits)));
}

/// The 64-bit word of two 32-bit halves.
Value *WarpAggregate::emitJoin(Value *High, Value *Low) {
  Value *LowWord = B.CreateZExt(Low, WordTy);
  Value *HighWord = B.CreateShl(B.CreateZExt(High, WordTy), 32);
  return B.CreateOr(HighWord, LowWord);
}

/// U of a word.
Value *WarpAggregate::emitToOrdered(Value *W) {
  Value *Negative = B.CreateICmpSLT(W, word(0));
  Value *FromPositive = B.CreateOr(W, word(signBit(Bits)));
  Value *FromNegative = B.CreateNot(W);
  return B.CreateSelect(Negative, FromNegative, FromPositive);
}

/// U^-1 of a key.
Value *WarpAggregate::emitFromOrdered(Value *K) {
  Value *OfPositive = B.CreateICmpSLT(K, word(0));
  Value *ToNegative = B.CreateNot(K);
  Value *ToPositive = B.CreateXor(K, word(signBit(Bits)));
  return B.CreateSelect(OfPositive, ToPositive, ToNegative);
}

/// The operand's key: its bits with a NaN rewritten as the lowering
/// rewrites it (number: the identity, which is the reduction's identity
/// too; propagate: the sticky NaN, which wins), mapped by U.
Value *WarpAggregate::emitKey() {
  Value *W = B.CreateBitCast(RMW.getValOperand(), WordTy);
  if (Policy != NanPolicy::Fast) {
    Value *IsNaN = emitIsNaN(W);
    uint64_t Pattern = Policy == NanPolicy::Number ? identityPattern(Op, Bits)
                                                   : stickyPattern(Op, Bits);
    W = B.CreateSelect(IsNaN, word(Pattern), W);
  }
  return emitToOrdered(W);
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

/// The memory after the elected atomic, which found \p Old and applied the
/// operand of key \p Reduced: the policy's combination in the U order.
Value *WarpAggregate::emitMemoryAfter(Value *Old, Value *Reduced) {
  Value *OldKey = emitToOrdered(Old);
  Value *Best = Op == FloatOp::Max
                    ? B.CreateBinaryIntrinsic(Intrinsic::umax, OldKey, Reduced)
                    : B.CreateBinaryIntrinsic(Intrinsic::umin, OldKey, Reduced);
  Value *After = emitFromOrdered(Best);
  if (Policy == NanPolicy::Fast)
    return After;
  Value *OldIsNaN = emitIsNaN(Old);
  if (Policy == NanPolicy::Propagate) // a NaN in memory stays
    return B.CreateSelect(OldIsNaN, Old, After);
  // number: any number replaces a NaN in memory; only NaN operands (the
  // identity key) leave it.
  Value *NoNumber =
      B.CreateICmpEQ(Reduced, word(toOrdered(identityPattern(Op, Bits), Bits)));
  Value *IfNaN = B.CreateSelect(NoNumber, Old, emitFromOrdered(Reduced));
  return B.CreateSelect(OldIsNaN, IfNaN, After);
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
  Value *After = emitMemoryAfter(Old, Reduced);
  Value *IsOwner = B.CreateICmpEQ(LaneId, Owner);
  return B.CreateSelect(IsOwner, Old, After);
}

AtomicRMWInst &WarpAggregate::run() {
  LLVMContext &Ctx = RMW.getContext();
  BasicBlock *Head = RMW.getParent();
  Function *F = Head->getParent();
  BasicBlock *Done = Head->splitBasicBlock(&RMW, "fatomic.warp.done");
  auto *Reduce = BasicBlock::Create(Ctx, "fatomic.warp.reduce", F, Done);
  auto *Elected = BasicBlock::Create(Ctx, "fatomic.warp.elected", F, Done);
  auto *Join = BasicBlock::Create(Ctx, "fatomic.warp.join", F, Done);
  auto *Single = BasicBlock::Create(Ctx, "fatomic.warp.single", F, Done);
  B.SetCurrentDebugLocation(RMW.getDebugLoc());

  Head->getTerminator()->eraseFromParent();
  B.SetInsertPoint(Head);
  B.CreateCondBr(emitUniform(), Reduce, Single);

  B.SetInsertPoint(Reduce);
  Value *Key = emitKey();
  Value *Reduced = emitReduce(Key);
  LaneId = call(Intrinsic::nvvm_read_ptx_sreg_laneid, {});
  Leader = B.CreateBinaryIntrinsic(Intrinsic::cttz, Mask, B.getTrue());
  B.CreateCondBr(B.CreateICmpEQ(LaneId, Leader), Elected, Join);

  B.SetInsertPoint(Elected);
  auto *One = cast<AtomicRMWInst>(RMW.clone());
  // The value operand: U^-1 of the reduced key.
  One->setOperand(1, B.CreateBitCast(emitFromOrdered(Reduced), RMW.getType()));
  B.Insert(One);
  Value *ElectedWord = RMW.use_empty() ? nullptr : B.CreateBitCast(One, WordTy);
  B.CreateBr(Join);

  B.SetInsertPoint(Join);
  Value *Result = nullptr;
  if (!RMW.use_empty()) {
    PHINode *Found = B.CreatePHI(WordTy, 2);
    Found->addIncoming(ElectedWord, Elected);
    // Lanes other than the leader take the leader's value from the shuffle.
    Found->addIncoming(PoisonValue::get(WordTy), Reduce);
    // The group waits for its leader here, before any exchange: on sm_90,
    // with the leader's fix-up loop between, the shuffles alone hung a
    // divergent warp (tools/nvptx/nvptx-race.py, f64 cases).
    call(Intrinsic::nvvm_bar_warp_sync, {Mask});
    Result = B.CreateBitCast(emitResult(Found, Key, Reduced), RMW.getType());
  }
  B.CreateBr(Done);

  RMW.moveBefore(*Single, Single->end());
  B.SetInsertPoint(Single);
  B.CreateBr(Done);
  if (Result) {
    B.SetInsertPoint(Done, Done->begin());
    PHINode *Old = B.CreatePHI(RMW.getType(), 2);
    RMW.replaceAllUsesWith(Old);
    Old->addIncoming(Result, Join);
    Old->addIncoming(&RMW, Single);
  }
  return *One;
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
                                 NanPolicy Policy) {
  return WarpAggregate(RMW, Op, Policy).run();
}

} // namespace fatomic::llvmir
