//===- BarrierOrder.cpp - Workgroup barriers order a write before atomics -===//
//
// See BarrierOrder.h.
//
//===----------------------------------------------------------------------===//

#include "BarrierOrder.h"

#include "BlockSplit.h"
#include "Semantics.h"

#include <algorithm>
#include <unordered_set>

namespace fatomic::spirv {

namespace {

/// Stages whose invocations form workgroups that share Workgroup memory.
bool hasWorkgroups(spv::ExecutionModel Model) {
  switch (Model) {
  case spv::ExecutionModel::GLCompute:
  case spv::ExecutionModel::Kernel:
  case spv::ExecutionModel::TaskNV:
  case spv::ExecutionModel::MeshNV:
  case spv::ExecutionModel::TaskEXT:
  case spv::ExecutionModel::MeshEXT:
    return true;
  default:
    return false;
  }
}

/// Workgroup or a wider scope; \p Memory admits QueueFamily too.
bool atLeastWorkgroup(uint32_t Scope, bool Memory) {
  switch (spv::Scope(Scope)) {
  case spv::Scope::CrossDevice:
  case spv::Scope::Device:
  case spv::Scope::Workgroup:
    return true;
  case spv::Scope::QueueFamily:
    return Memory;
  default:
    return false;
  }
}

} // namespace

BarrierOrder::BarrierOrder(const Module &M) : M(M) {
  std::unordered_set<uint32_t> Called, Entries;
  for (const Function &F : M.functions())
    for (const Block &B : F.Blocks)
      for (InstRef R : B.Body)
        if (M.inst(R).Opcode == Op::OpFunctionCall)
          Called.insert(M.operand(R, 0));
  for (InstRef R : M.section(Section::EntryPoint))
    if (hasWorkgroups(spv::ExecutionModel(M.operand(R, 0))))
      Entries.insert(M.operand(R, 1));
  const std::vector<Function> &Fns = M.functions();
  for (unsigned K = 0; K < Fns.size(); ++K) {
    const uint32_t Id = M.inst(Fns[K].Def).ResultId;
    if (Entries.count(Id) && !Called.count(Id) && !Fns[K].Blocks.empty())
      addFunction(K);
  }
}

bool BarrierOrder::isWorkgroupBarrier(InstRef R) const {
  if (M.inst(R).Opcode != Op::OpControlBarrier)
    return false;
  uint32_t Words[3];
  for (uint32_t K = 0; K < 3; ++K) {
    const InstRef D = M.def(M.operand(R, K));
    if (D == Module::NoInst || M.inst(D).Opcode != Op::OpConstant)
      return false; // a spec constant may be anything
    Words[K] = M.operand(D, 0);
  }
  const uint32_t Workgroup = uint32_t(spv::MemorySemanticsMask::WorkgroupMemory);
  return atLeastWorkgroup(Words[0], /*Memory=*/false) &&
         atLeastWorkgroup(Words[1], /*Memory=*/true) &&
         (Words[2] & (SemAcqRel | SemSeqCst)) && (Words[2] & Workgroup);
}

void BarrierOrder::addFunction(unsigned Fn) {
  const Function &F = M.functions()[Fn];
  std::unordered_map<uint32_t, unsigned> BlockOf;
  for (unsigned B = 0; B < F.Blocks.size(); ++B)
    BlockOf[F.Blocks[B].Label] = B;
  std::vector<std::vector<unsigned>> &S = Succs[Fn];
  S.resize(F.Blocks.size());
  // Segments start at the entry and just after each workgroup barrier.
  std::vector<Place> Starts{{Fn, 0, 0}};
  for (unsigned B = 0; B < F.Blocks.size(); ++B) {
    const std::vector<InstRef> &Body = F.Blocks[B].Body;
    for (unsigned I = 0; I < Body.size(); ++I) {
      PlaceOf[Body[I]] = {Fn, B, I};
      if (isWorkgroupBarrier(Body[I]))
        Starts.push_back({Fn, B, I + 1});
    }
    if (!Body.empty())
      for (uint32_t Label : successors(M, Body.back()))
        if (auto It = BlockOf.find(Label); It != BlockOf.end())
          S[B].push_back(It->second);
  }
  // Each segment runs from its start to the barriers it meets (not into
  // them), through every block it enters from the top.
  for (unsigned Seg = 0; Seg < Starts.size(); ++Seg) {
    std::vector<bool> Entered(F.Blocks.size(), false);
    Entered[0] = Starts[Seg].Block == 0 && Starts[Seg].Index == 0;
    std::vector<Place> Work{Starts[Seg]};
    while (!Work.empty()) {
      const Place P = Work.back();
      Work.pop_back();
      const std::vector<InstRef> &Body = F.Blocks[P.Block].Body;
      unsigned I = P.Index;
      for (; I < Body.size() && !isWorkgroupBarrier(Body[I]); ++I)
        SegmentsOf[Body[I]].push_back(Seg);
      if (I < Body.size())
        continue; // stopped at a barrier
      for (unsigned Next : S[P.Block])
        if (!Entered[Next]) {
          Entered[Next] = true;
          Work.push_back({Fn, Next, 0});
        }
    }
  }
}

std::vector<bool> BarrierOrder::reachableFrom(unsigned Fn, unsigned From) const {
  const std::vector<std::vector<unsigned>> &S = Succs.at(Fn);
  std::vector<bool> Seen(S.size(), false);
  std::vector<unsigned> Work(S[From].begin(), S[From].end());
  while (!Work.empty()) {
    const unsigned B = Work.back();
    Work.pop_back();
    if (Seen[B])
      continue;
    Seen[B] = true;
    Work.insert(Work.end(), S[B].begin(), S[B].end());
  }
  return Seen;
}

bool BarrierOrder::reaches(Place From, Place To) const {
  if (From.Block == To.Block && From.Index < To.Index)
    return true;
  return reachableFrom(From.Fn, From.Block)[To.Block];
}

bool BarrierOrder::before(InstRef W, InstRef A) const {
  const auto PW = PlaceOf.find(W), PA = PlaceOf.find(A);
  if (PW == PlaceOf.end() || PA == PlaceOf.end() || PW->second.Fn != PA->second.Fn)
    return false;
  const auto SW = SegmentsOf.find(W), SA = SegmentsOf.find(A);
  if (SW == SegmentsOf.end() || SA == SegmentsOf.end())
    return false; // unreachable code, or a barrier itself: not reasoned about
  for (unsigned Seg : SW->second)
    if (std::find(SA->second.begin(), SA->second.end(), Seg) != SA->second.end())
      return false; // one stretch of code holds both: they may run at once
  return !reaches(PA->second, PW->second);
}

} // namespace fatomic::spirv
