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
  Value *emitJoin(Value *High, Value *Low);
  Value *emitUniform();
  Value *emitKey();
  Value *emitReduce(Value *Key);
  Value *emitHead(BasicBlock *Reduce, BasicBlock *Single, BasicBlock *Done);

  AtomicRMWInst &RMW;
  const FloatOp Op;
  BoundCache *const Cache; ///< the function's bound cache, if it has one
  IRBuilder<> B;
  const unsigned Bits;
  IntegerType *const WordTy;
  OrderKeys Keys;
  Value *Mask = nullptr;   ///< the active lanes
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

/// Branches from the atomic's block (where B is) to \p Reduce when the
/// active lanes share the address, else to \p Single; with the bound
/// cache, a lane that hits it goes to \p Done first, and only the others
/// take part.  Returns the operand's key when the cache made it.
Value *WarpAggregate::emitHead(BasicBlock *Reduce, BasicBlock *Single,
                               BasicBlock *Done) {
  Value *Key = nullptr;
  if (Cache) {
    Key = emitKey();
    auto *Check = BasicBlock::Create(RMW.getContext(), "fatomic.warp.check",
                                     Reduce->getParent(), Reduce);
    B.CreateCondBr(Cache->emitHit(B, RMW.getPointerOperand(), Key,
                                  /*NeedWord=*/false),
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
  BasicBlock *Done = Head->splitBasicBlock(&RMW, "fatomic.warp.done");
  auto *Reduce = BasicBlock::Create(Ctx, "fatomic.warp.reduce", F, Done);
  auto *Elected = BasicBlock::Create(Ctx, "fatomic.warp.elected", F, Done);
  auto *Join = BasicBlock::Create(Ctx, "fatomic.warp.join", F, Done);
  auto *Single = BasicBlock::Create(Ctx, "fatomic.warp.single", F, Done);
  B.SetCurrentDebugLocation(RMW.getDebugLoc());

  Head->getTerminator()->eraseFromParent();
  B.SetInsertPoint(Head);
  Value *Key = emitHead(Reduce, Single, Done);

  B.SetInsertPoint(Reduce);
  if (!Key)
    Key = emitKey();
  Value *Reduced = emitReduce(Key);
  Value *LaneId = call(Intrinsic::nvvm_read_ptx_sreg_laneid, {});
  Value *Leader = B.CreateBinaryIntrinsic(Intrinsic::cttz, Mask, B.getTrue());
  B.CreateCondBr(B.CreateICmpEQ(LaneId, Leader), Elected, Join);

  B.SetInsertPoint(Elected);
  auto *One = cast<AtomicRMWInst>(RMW.clone());
  // The value operand: U^-1 of the reduced key.
  One->setOperand(1, B.CreateBitCast(Keys.fromOrdered(Reduced), RMW.getType()));
  B.Insert(One);
  // Memory after the elected atomic is at least what it found, and the
  // reduced key; the group's other lanes know the reduced key.
  Value *ElectedBound =
      Cache ? Keys.best(Keys.key(B.CreateBitCast(One, WordTy)), Reduced)
            : nullptr;
  B.CreateBr(Join);

  B.SetInsertPoint(Join);
  if (ElectedBound) {
    PHINode *Bound = B.CreatePHI(WordTy, 2);
    Bound->addIncoming(ElectedBound, Elected);
    Bound->addIncoming(Reduced, Reduce);
    Cache->emitRecordBound(B, RMW.getPointerOperand(), Bound);
  }
  B.CreateBr(Done);

  RMW.moveBefore(*Single, Single->end());
  B.SetInsertPoint(Single);
  if (Cache)
    Cache->emitRecordAfter(B, RMW.getPointerOperand(),
                           B.CreateBitCast(&RMW, WordTy), Key);
  B.CreateBr(Done);
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
  // A used result keeps the per-lane path (WarpAggregate.h).
  return RMW.use_empty() && (Ty->isFloatTy() || Ty->isDoubleTy()) &&
         RMW.getOrdering() == AtomicOrdering::Monotonic && !RMW.isVolatile() &&
         RMW.getSyncScopeID() != SyncScope::SingleThread &&
         isWarpSharedAddressSpace(RMW.getPointerAddressSpace());
}

AtomicRMWInst &aggregateOverWarp(AtomicRMWInst &RMW, FloatOp Op,
                                 NanPolicy Policy, BoundCache *Cache) {
  return WarpAggregate(RMW, Op, Policy, Cache).run();
}

} // namespace fatomic::llvmir
