//===- BoundCache.cpp - Skipping float atomics a kernel knows are no-ops --===//
//
// Owns the bound cache of the LLVM pass: which functions it applies to (one
// walk over the function that checks every instruction), its slot, and the
// IR of its test and record.  BoundCache.h states the shape and why a
// skipped atomic is exact.
//
//===----------------------------------------------------------------------===//

#include "BoundCache.h"
#include "OrderKeys.h"

#include "llvm/IR/BasicBlock.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"

using namespace llvm;

namespace fatomic::llvmir {

namespace {

/// Whether \p F starts its thread: nothing of the thread runs before it.
bool isKernel(const Function &F) {
  switch (F.getCallingConv()) {
  case CallingConv::PTX_Kernel:
  case CallingConv::AMDGPU_KERNEL:
  case CallingConv::SPIR_KERNEL:
    return true;
  default:
    return false;
  }
}

/// Whether \p Ptr is an alloca that only loads and stores use, as their
/// address: memory no atomic of the function can reach.
bool isPrivateSlot(const Value *Ptr) {
  const auto *Alloca = dyn_cast<AllocaInst>(Ptr);
  if (!Alloca)
    return false;
  for (const User *U : Alloca->users()) {
    if (const auto *Load = dyn_cast<LoadInst>(U);
        Load && Load->getPointerOperand() == Alloca)
      continue;
    if (const auto *Store = dyn_cast<StoreInst>(U);
        Store && Store->getPointerOperand() == Alloca)
      continue;
    if (const auto *II = dyn_cast<IntrinsicInst>(U); II && II->isLifetimeStartOrEnd())
      continue;
    return false;
  }
  return true;
}

/// Whether \p Site can use the cache, with \p First the function's first
/// site: a monotonic non-volatile atomicrmw of a scalar, of the same
/// operation, type, syncscope and address space as \p First.
bool isCachedSite(const Instruction &Site, const AtomicRMWInst &First) {
  const auto *RMW = dyn_cast<AtomicRMWInst>(&Site);
  return RMW && !RMW->isVolatile() &&
         RMW->getOrdering() == AtomicOrdering::Monotonic &&
         !RMW->getType()->isVectorTy() &&
         RMW->getOperation() == First.getOperation() &&
         RMW->getType() == First.getType() &&
         RMW->getSyncScopeID() == First.getSyncScopeID() &&
         RMW->getPointerAddressSpace() == First.getPointerAddressSpace();
}

/// Whether \p I, which is not a site, leaves the thread without any other
/// access to the sites' memory and without synchronization.
bool isQuiet(const Instruction &I) {
  if (const auto *Load = dyn_cast<LoadInst>(&I))
    return Load->isSimple();
  if (const auto *Store = dyn_cast<StoreInst>(&I))
    return Store->isSimple() && isPrivateSlot(Store->getPointerOperand());
  if (const auto *II = dyn_cast<IntrinsicInst>(&I))
    return !II->mayReadOrWriteMemory() || II->isLifetimeStartOrEnd() ||
           II->getIntrinsicID() == Intrinsic::assume;
  // Calls, fences, other atomics, volatile or atomic loads and stores.
  return !I.mayReadOrWriteMemory();
}

/// Whether \p BB lies on a cycle of its function's CFG.
bool isOnCycle(const BasicBlock &BB) {
  SmallVector<const BasicBlock *, 16> Work(succ_begin(&BB), succ_end(&BB));
  SmallPtrSet<const BasicBlock *, 16> Seen;
  while (!Work.empty()) {
    const BasicBlock *Next = Work.pop_back_val();
    if (Next == &BB)
      return true;
    if (Seen.insert(Next).second)
      Work.append(succ_begin(Next), succ_end(Next));
  }
  return false;
}

/// The blocks from which a path of at least one edge reaches a block of
/// \p Sites.
SmallPtrSet<const BasicBlock *, 16>
blocksBeforeSites(ArrayRef<Instruction *> Sites) {
  SmallVector<const BasicBlock *, 16> Work;
  for (const Instruction *Site : Sites)
    Work.append(pred_begin(Site->getParent()), pred_end(Site->getParent()));
  SmallPtrSet<const BasicBlock *, 16> Before;
  while (!Work.empty()) {
    const BasicBlock *BB = Work.pop_back_val();
    if (Before.insert(BB).second)
      Work.append(pred_begin(BB), pred_end(BB));
  }
  return Before;
}

/// Whether every instruction of \p F that a site may follow, other than
/// the sites, is quiet (isQuiet).  One that no site follows is harmless:
/// the thread has run its last cached atomic by then.
bool isQuietBeforeSites(const Function &F, ArrayRef<Instruction *> Sites) {
  const SmallPtrSet<const Instruction *, 8> IsSite(Sites.begin(), Sites.end());
  const SmallPtrSet<const BasicBlock *, 16> Before = blocksBeforeSites(Sites);
  for (const BasicBlock &BB : F) {
    // Walked backwards: whether a site follows in the block, or after it.
    bool SiteFollows = Before.contains(&BB);
    for (const Instruction &I : reverse(BB)) {
      if (IsSite.contains(&I))
        SiteFollows = true;
      else if (SiteFollows && !isQuiet(I))
        return false;
    }
  }
  return true;
}

/// Whether a thread may run the sites more than once: without that, the
/// test never finds a bound and only costs.
bool mayRepeat(ArrayRef<Instruction *> Sites) {
  return Sites.size() > 1 || isOnCycle(*Sites.front()->getParent());
}

} // namespace

std::optional<BoundCache> BoundCache::make(Function &F,
                                           ArrayRef<Instruction *> Sites,
                                           FloatOp Op, NanPolicy Policy) {
  if (Sites.empty() || !isKernel(F) || !mayRepeat(Sites))
    return std::nullopt;
  auto *First = dyn_cast<AtomicRMWInst>(Sites.front());
  if (!First)
    return std::nullopt;
  bool Used = false;
  for (const Instruction *Site : Sites) {
    if (!isCachedSite(*Site, *First))
      return std::nullopt;
    Used |= !Site->use_empty();
  }
  if (!isQuietBeforeSites(F, Sites))
    return std::nullopt;
  return BoundCache(F, First->getPointerOperand(), First->getType(), Op,
                    Policy, Used);
}

BoundCache::BoundCache(Function &F, Value *SamplePtr, Type *FPTy, FloatOp Op,
                       NanPolicy Policy, bool Exact)
    : F(F), FPTy(FPTy),
      WordTy(IntegerType::get(F.getContext(),
                              FPTy->getPrimitiveSizeInBits().getFixedValue())),
      Op(Op), Policy(Policy) {
  BasicBlock &Entry = F.getEntryBlock();
  IRBuilder<> B(&Entry, Entry.getFirstInsertionPt());
  const unsigned AS = F.getParent()->getDataLayout().getAllocaAddrSpace();
  auto *PtrTy = cast<PointerType>(SamplePtr->getType());
  auto Slot = [&](Type *Ty, const Twine &Name, Value *Init) {
    AllocaInst *A = B.CreateAlloca(Ty, AS, nullptr, "fatomic.cache." + Name);
    B.CreateStore(Init, A);
    return A;
  };
  PtrSlot = Slot(PtrTy, "ptr", ConstantPointerNull::get(PtrTy));
  BoundSlot = Slot(WordTy, "bound", keys(B).bottom());
  if (Exact) {
    WordSlot = Slot(WordTy, "word", ConstantInt::get(WordTy, 0));
    ValidSlot = Slot(B.getInt1Ty(), "valid", B.getFalse());
  }
}

OrderKeys BoundCache::keys(IRBuilderBase &B) const {
  return OrderKeys(B, FPTy, Op, Policy);
}

Value *BoundCache::emitHit(IRBuilderBase &B, Value *Ptr, Value *Key,
                           bool NeedWord) {
  Value *LastPtr = B.CreateLoad(PtrSlot->getAllocatedType(), PtrSlot);
  Value *Bound = B.CreateLoad(WordTy, BoundSlot);
  Value *Same = B.CreateICmpEQ(Ptr, LastPtr);
  // Named, so that a reader of the output (and the NVPTX bundle's check)
  // can find each site the cache guards.
  Value *NoOp = keys(B).notBeyond(Key, Bound);
  if (!NeedWord)
    return B.CreateAnd(Same, NoOp, "fatomic.cache.hit");
  return B.CreateAnd(B.CreateLoad(B.getInt1Ty(), ValidSlot),
                     B.CreateAnd(Same, NoOp), "fatomic.cache.hit");
}

Value *BoundCache::emitCachedWord(IRBuilderBase &B) {
  return B.CreateLoad(WordTy, WordSlot);
}

void BoundCache::emitRecordBound(IRBuilderBase &B, Value *Ptr, Value *Bound) {
  B.CreateStore(Ptr, PtrSlot);
  B.CreateStore(Bound, BoundSlot);
  if (exact()) // a bound, but not the word
    B.CreateStore(B.getFalse(), ValidSlot);
}

void BoundCache::emitRecordWord(IRBuilderBase &B, Value *Ptr, Value *Word) {
  B.CreateStore(Ptr, PtrSlot);
  B.CreateStore(keys(B).key(Word), BoundSlot);
  B.CreateStore(Word, WordSlot);
  B.CreateStore(B.getTrue(), ValidSlot);
}

void BoundCache::emitRecordAfter(IRBuilderBase &B, Value *Ptr, Value *Old,
                                 Value *OperandKey) {
  OrderKeys Keys = keys(B);
  if (exact())
    emitRecordWord(B, Ptr, Keys.combine(Old, OperandKey));
  else // memory after the atomic is at least what it found, and the operand
    emitRecordBound(B, Ptr, Keys.best(Keys.key(Old), OperandKey));
}

void BoundCache::guard(AtomicRMWInst &RMW) {
  LLVMContext &Ctx = RMW.getContext();
  BasicBlock *Head = RMW.getParent();
  BasicBlock *Done = Head->splitBasicBlock(&RMW, "fatomic.cache.done");
  auto *Miss = BasicBlock::Create(Ctx, "fatomic.cache.miss", &F, Done);
  Head->getTerminator()->eraseFromParent();
  IRBuilder<> B(Head);
  B.SetCurrentDebugLocation(RMW.getDebugLoc());
  Value *Key = keys(B).key(B.CreateBitCast(RMW.getValOperand(), WordTy));
  Value *Ptr = RMW.getPointerOperand();
  const bool Used = !RMW.use_empty();
  Value *Cached =
      Used ? B.CreateBitCast(emitCachedWord(B), RMW.getType()) : nullptr;
  B.CreateCondBr(emitHit(B, Ptr, Key, Used), Done, Miss);

  RMW.moveBefore(*Miss, Miss->end());
  B.SetInsertPoint(Miss);
  Value *Old = B.CreateBitCast(&RMW, WordTy);
  emitRecordAfter(B, Ptr, Old, Key);
  B.CreateBr(Done);
  if (Used) {
    B.SetInsertPoint(Done, Done->begin());
    PHINode *Result = B.CreatePHI(RMW.getType(), 2);
    RMW.replaceUsesWithIf(Result, [&](Use &U) { return U.getUser() != Old; });
    Result->addIncoming(Cached, Head);
    Result->addIncoming(&RMW, Miss);
  }
}

void BoundCache::promote() {
  SmallVector<AllocaInst *, 4> Slots = {PtrSlot, BoundSlot};
  if (exact())
    Slots.append({WordSlot, ValidSlot});
  DominatorTree DT(F);
  PromoteMemToReg(Slots, DT);
}

} // namespace fatomic::llvmir
