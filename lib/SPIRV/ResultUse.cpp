//===- ResultUse.cpp - Whether anything reads an instruction's value ------===//
//
// Owns the result-use analysis of ResultUse.h: a walk over the values that
// only forward an atomic's result (copies, phis, selects, dead stores into
// Function variables, returns from functions whose calls drop the value).
// Everything it does not know is a read.
//
//===----------------------------------------------------------------------===//

#include "ResultUse.h"

#include "IntegerTypes.h"

namespace fatomic::spirv {

namespace {

bool isNameOrDecoration(Op O) {
  return O == Op::OpName || O == Op::OpDecorate || O == Op::OpDecorateId ||
         O == Op::OpDecorateString;
}

constexpr uint32_t MemoryAccessVolatile = 0x1;

} // namespace

ResultUse::ResultUse(const Module &M)
    : M(M), ValueWalks{std::vector<uint32_t>(M.bound(), 0), 0},
      PointerWalks{std::vector<uint32_t>(M.bound(), 0), 0} {
  for (const Function &F : M.functions())
    for (const Block &B : F.Blocks)
      if (!B.Body.empty() && M.inst(B.Body.back()).Opcode == Op::OpReturnValue)
        FunctionOf[B.Body.back()] = M.inst(F.Def).ResultId;
}

bool ResultUse::isRead(uint32_t Id) {
  // Reachability over the ids that carry the value: read as soon as one of
  // them has a use that is not forwarding.  Cycles (phis in loops) end at
  // ids already seen.
  // (Each walk stamps the ids it sees: one table for all the atomics.)
  const uint32_t Epoch = ++ValueWalks.Epoch;
  std::vector<uint32_t> Work{Id};
  while (!Work.empty()) {
    const uint32_t V = Work.back();
    Work.pop_back();
    if (V >= ValueWalks.Stamp.size())
      return true;
    if (ValueWalks.Stamp[V] == Epoch)
      continue;
    ValueWalks.Stamp[V] = Epoch;
    for (const Use &U : M.uses(V))
      if (!forwards(U, Work))
        return true;
  }
  return false;
}

bool ResultUse::forwards(const Use &U, std::vector<uint32_t> &Next) {
  const Op O = M.inst(U.User).Opcode;
  if (isNameOrDecoration(O))
    return true;
  switch (O) {
  case Op::OpCopyObject:
  case Op::OpPhi: // values at even words, parent labels at odd ones
    Next.push_back(M.inst(U.User).ResultId);
    return true;
  case Op::OpSelect: // the condition (word 0) is a bool, never the value
    if (U.Word == 0)
      return false;
    Next.push_back(M.inst(U.User).ResultId);
    return true;
  case Op::OpStore: {
    // As the stored object, into memory nothing loads.
    if (U.Word != 1)
      return false;
    if (M.numOperands(U.User) > 2 && (M.operand(U.User, 2) & MemoryAccessVolatile))
      return false;
    return deadFunctionPointer(M.operand(U.User, 0));
  }
  case Op::OpReturnValue:
    return forwardReturn(U.User, Next);
  default:
    return false;
  }
}

bool ResultUse::forwardReturn(InstRef Ret, std::vector<uint32_t> &Next) const {
  const auto It = FunctionOf.find(Ret);
  if (It == FunctionOf.end())
    return false;
  // Entry points return void; an exported or otherwise referenced function
  // may be called from where this module cannot see.  Debug information
  // that names the function (DebugFunctionDefinition, DebugFunction) reads
  // no value.
  for (const Use &U : M.uses(It->second)) {
    const Op O = M.inst(U.User).Opcode;
    if (O == Op::OpName || isDebugOnlyUse(M, U.User, U.Word))
      continue;
    if (O != Op::OpFunctionCall || U.Word != 0)
      return false;
    Next.push_back(M.inst(U.User).ResultId);
  }
  return true;
}

bool ResultUse::deadFunctionPointer(uint32_t Ptr) {
  // The variable under the access chains and copies.
  uint32_t Var = Ptr;
  for (uint32_t Steps = 0; Steps <= M.bound(); ++Steps) {
    const Op O = M.opOf(Var);
    if (O != Op::OpAccessChain && O != Op::OpInBoundsAccessChain && O != Op::OpCopyObject)
      break;
    Var = M.operand(M.def(Var), 0);
  }
  const InstRef D = M.def(Var);
  if (D == Module::NoInst || M.inst(D).Opcode != Op::OpVariable ||
      spv::StorageClass(M.operand(D, 0)) != spv::StorageClass::Function)
    return false;
  const auto [It, New] = Dead.try_emplace(Var, false);
  if (New)
    It->second = onlyStoredThrough(Var);
  return It->second;
}

bool ResultUse::onlyStoredThrough(uint32_t Var) {
  const uint32_t Epoch = ++PointerWalks.Epoch;
  std::vector<uint32_t> Work{Var};
  while (!Work.empty()) {
    const uint32_t Ptr = Work.back();
    Work.pop_back();
    if (Ptr >= PointerWalks.Stamp.size())
      return false;
    if (PointerWalks.Stamp[Ptr] == Epoch)
      continue;
    PointerWalks.Stamp[Ptr] = Epoch;
    for (const Use &U : M.uses(Ptr)) {
      const Op O = M.inst(U.User).Opcode;
      if (isNameOrDecoration(O) || (O == Op::OpStore && U.Word == 0))
        continue;
      if ((O == Op::OpAccessChain || O == Op::OpInBoundsAccessChain ||
           O == Op::OpCopyObject) &&
          U.Word == 0) {
        Work.push_back(M.inst(U.User).ResultId);
        continue;
      }
      return false; // a load, a copy of the memory, a call, debug info...
    }
  }
  return true;
}

} // namespace fatomic::spirv
