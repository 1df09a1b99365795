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
/// site: an unused monotonic non-volatile atomicrmw of a scalar, of the
/// same operation, type, syncscope and address space as \p First.
bool isCachedSite(const Instruction &Site, const AtomicRMWInst &First) {
  const auto *RMW = dyn_cast<AtomicRMWInst>(&Site);
  return RMW && RMW->use_empty() && !RMW->isVolatile() &&
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
  SmallPtrSet<const Instruction *, 8> IsSite;
  for (const Instruction *Site : Sites) {
    if (!isCachedSite(*Site, *First))
      return std::nullopt;
    IsSite.insert(Site);
  }
  for (const Instruction &I : instructions(F))
    if (!IsSite.contains(&I) && !isQuiet(I))
      return std::nullopt;
  const unsigned Bits =
      First->getType()->getPrimitiveSizeInBits().getFixedValue();
  return BoundCache(F, First->getPointerOperand(), Bits, Op, Policy);
}

BoundCache::BoundCache(Function &F, Value *SamplePtr, unsigned Bits,
                       FloatOp Op, NanPolicy Policy)
    : F(F), WordTy(IntegerType::get(F.getContext(), Bits)), Op(Op),
      Policy(Policy) {
  BasicBlock &Entry = F.getEntryBlock();
  IRBuilder<> B(&Entry, Entry.getFirstInsertionPt());
  const DataLayout &DL = F.getParent()->getDataLayout();
  auto *PtrTy = cast<PointerType>(SamplePtr->getType());
  PtrSlot = B.CreateAlloca(PtrTy, DL.getAllocaAddrSpace(), nullptr,
                           "fatomic.cache.ptr");
  BoundSlot = B.CreateAlloca(WordTy, DL.getAllocaAddrSpace(), nullptr,
                             "fatomic.cache.bound");
  B.CreateStore(ConstantPointerNull::get(PtrTy), PtrSlot);
  B.CreateStore(OrderKeys(B, Bits, Op, Policy).bottom(), BoundSlot);
}

Value *BoundCache::emitHit(IRBuilderBase &B, Value *Ptr, Value *Key) {
  Value *LastPtr = B.CreateLoad(PtrSlot->getAllocatedType(), PtrSlot);
  Value *Bound = B.CreateLoad(WordTy, BoundSlot);
  Value *Same = B.CreateICmpEQ(Ptr, LastPtr);
  Value *Behind =
      OrderKeys(B, WordTy->getBitWidth(), Op, Policy).notBeyond(Key, Bound);
  return B.CreateAnd(Same, Behind);
}

void BoundCache::emitRecord(IRBuilderBase &B, Value *Ptr, Value *Bound) {
  B.CreateStore(Ptr, PtrSlot);
  B.CreateStore(Bound, BoundSlot);
}

void BoundCache::guard(AtomicRMWInst &RMW) {
  LLVMContext &Ctx = RMW.getContext();
  BasicBlock *Head = RMW.getParent();
  BasicBlock *Done = Head->splitBasicBlock(&RMW, "fatomic.cache.done");
  auto *Miss = BasicBlock::Create(Ctx, "fatomic.cache.miss", &F, Done);
  Head->getTerminator()->eraseFromParent();
  IRBuilder<> B(Head);
  B.SetCurrentDebugLocation(RMW.getDebugLoc());
  OrderKeys Keys(B, WordTy->getBitWidth(), Op, Policy);
  Value *Key = Keys.key(B.CreateBitCast(RMW.getValOperand(), WordTy));
  Value *Ptr = RMW.getPointerOperand();
  B.CreateCondBr(emitHit(B, Ptr, Key), Done, Miss);

  RMW.moveBefore(*Miss, Miss->end());
  B.SetInsertPoint(Miss);
  // Memory after the atomic is at least what it found, and the operand.
  Value *Found = Keys.key(B.CreateBitCast(&RMW, WordTy));
  emitRecord(B, Ptr, Keys.best(Found, Key));
  B.CreateBr(Done);
}

void BoundCache::promote() {
  DominatorTree DT(F);
  AllocaInst *Slots[] = {PtrSlot, BoundSlot};
  PromoteMemToReg(Slots, DT);
}

} // namespace fatomic::llvmir
