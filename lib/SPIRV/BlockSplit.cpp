//===- BlockSplit.cpp - Splitting blocks at the atomics that are lowered --===//
//
// See BlockSplit.h.  A function's blocks are rebuilt in one pass; the phis
// of the successors are repaired after it.
//
//===----------------------------------------------------------------------===//

#include "BlockSplit.h"

#include <algorithm>
#include <unordered_map>

namespace fatomic::spirv {

namespace {

bool isLineInst(const Module &M, InstRef R) {
  const Op O = M.inst(R).Opcode;
  return O == Op::OpLine || O == Op::OpNoLine;
}

} // namespace

std::vector<uint32_t> successors(const Module &M, InstRef T) {
  const Inst &I = M.inst(T);
  switch (I.Opcode) {
  case Op::OpBranch:
    return {M.operand(T, 0)};
  case Op::OpBranchConditional:
    return {M.operand(T, 1), M.operand(T, 2)};
  case Op::OpSwitch: {
    std::vector<uint32_t> Out{M.operand(T, 1)};
    // Literal width follows the selector's type.
    const InstRef Sel = M.def(M.operand(T, 0));
    const uint32_t SelType = Sel == Module::NoInst ? 0 : M.inst(Sel).TypeId;
    const uint32_t LitWords = M.scalarWidth(SelType) == 64 ? 2 : 1;
    for (uint32_t K = 2 + LitWords; K < I.Count; K += LitWords + 1)
      Out.push_back(M.operand(T, K));
    return Out;
  }
  default:
    return {};
  }
}

size_t leadingPhis(const Module &M, const std::vector<InstRef> &Body, size_t Limit) {
  size_t N = 0;
  for (size_t K = 0; K < Limit; ++K) {
    if (M.inst(Body[K]).Opcode == Op::OpPhi)
      N = K + 1;
    else if (!isLineInst(M, Body[K]))
      break;
  }
  return N;
}

// The function's blocks are rebuilt into Out in one pass: a block with
// atomics is split at each of them, the code between two atomics going to
// the last block that the previous lowering left.
void BlockSplit::run(Function &F) {
  std::vector<Block> Out;
  Out.reserve(F.Blocks.size());
  std::vector<Renamed> Moved;
  for (Block &B : F.Blocks) {
    if (!outlineCalls(B)) {
      Out.push_back(std::move(B));
      continue;
    }
    splitBlock(B, Out, Moved);
  }
  F.Blocks = std::move(Out);
  if (!Moved.empty())
    repairPhis(F, Moved);
}

// Outlined atomics become calls in place; the others split the block.
bool BlockSplit::outlineCalls(Block &B) {
  bool Inline = false;
  for (InstRef &R : B.Body)
    if (H.IsSite(R)) {
      const InstRef Call = H.Outline(R);
      if (Call != Module::NoInst)
        R = Call;
      else
        Inline = true;
    }
  return Inline;
}

void BlockSplit::splitBlock(Block &B, std::vector<Block> &Out, std::vector<Renamed> &Moved) {
  const auto First = std::find_if(B.Body.begin(), B.Body.end(), H.IsSite);
  if (First == B.Body.end()) {
    Out.push_back(std::move(B));
    return;
  }
  const uint32_t OrigLabel = B.Label;
  std::vector<InstRef> Body = std::move(B.Body);
  const size_t Pos = size_t(First - Body.begin());
  const auto LM = std::find_if(Body.begin() + Pos + 1, Body.end(), [&](InstRef R) {
    return M.inst(R).Opcode == Op::OpLoopMerge;
  });
  const InstRef MovedMerge = LM != Body.end() ? *LM : Module::NoInst;
  startPieces(B, Body, Pos, MovedMerge, Out);
  for (size_t Next = Pos; Next < Body.size(); ++Next) {
    const InstRef R = Body[Next];
    if (R == MovedMerge)
      continue;
    if (H.IsSite(R))
      H.Lower(Out, R);
    else
      Out.back().Body.push_back(R);
  }
  if (MovedMerge != Module::NoInst && M.operand(MovedMerge, 1) == OrigLabel)
    splitOffContinue(Out, MovedMerge);
  if (Out.back().Label != OrigLabel && !Out.back().Body.empty())
    Moved.push_back({OrigLabel, Out.back().Label, Out.back().Body.back()});
}

// A loop header keeps only its phis, merge and a branch: the code after the
// phis moves to a new block so that the back edge still reaches the header.
void BlockSplit::startPieces(const Block &B, const std::vector<InstRef> &Body, size_t Pos,
                             InstRef Merge, std::vector<Block> &Out) {
  if (Merge == Module::NoInst) {
    Block Start;
    Start.Lead = B.Lead;
    Start.Label = B.Label;
    Start.LabelInst = B.LabelInst;
    Start.Body.assign(Body.begin(), Body.begin() + Pos);
    Out.push_back(std::move(Start));
    return;
  }
  Block Header;
  Header.Lead = B.Lead;
  Header.Label = B.Label;
  Header.LabelInst = B.LabelInst;
  const size_t NPhi = leadingPhis(M, Body, Pos);
  Header.Body.assign(Body.begin(), Body.begin() + NPhi);
  Header.Body.push_back(Merge);
  const uint32_t NextLabel = M.newId();
  Header.Body.push_back(M.create(Op::OpBranch, 0, 0, {NextLabel}));
  Out.push_back(std::move(Header));
  Block Rest;
  Rest.Label = NextLabel;
  Rest.LabelInst = M.create(Op::OpLabel, 0, NextLabel, {});
  Rest.Body.assign(Body.begin() + NPhi, Body.begin() + Pos);
  Out.push_back(std::move(Rest));
}

// A loop that was one block (header, continue target and back-edge block)
// and is now split: the header's OpLoopMerge named the header as continue
// target, which the back edge, now leaving from the last piece, no longer
// post-dominates.  The back-edge branch moves to a new block that becomes
// the continue target; the last piece branches to it.
void BlockSplit::splitOffContinue(std::vector<Block> &Out, InstRef Merge) {
  Block Cont;
  Cont.Label = M.newId();
  Cont.LabelInst = M.create(Op::OpLabel, 0, Cont.Label, {});
  std::vector<InstRef> &Last = Out.back().Body;
  Cont.Body.push_back(Last.back());
  Last.back() = M.create(Op::OpBranch, 0, 0, {Cont.Label});
  M.setOperand(Merge, 1, Cont.Label);
  Out.push_back(std::move(Cont));
}

// Phis of the successors: the edge from the original block now leaves from
// its last piece.  A successor's phis stay in its first piece, which keeps
// the original label.
void BlockSplit::repairPhis(Function &F, const std::vector<Renamed> &Moved) {
  std::unordered_map<uint32_t, size_t> BlockOf;
  BlockOf.reserve(F.Blocks.size());
  for (size_t I = 0; I < F.Blocks.size(); ++I)
    BlockOf.emplace(F.Blocks[I].Label, I);
  for (const Renamed &Mv : Moved)
    for (uint32_t Succ : successors(M, Mv.Terminator)) {
      const auto It = BlockOf.find(Succ);
      if (It == BlockOf.end())
        continue;
      for (InstRef R : F.Blocks[It->second].Body) {
        if (isLineInst(M, R))
          continue; // OpLine/OpNoLine may come before a block's phis
        if (M.inst(R).Opcode != Op::OpPhi)
          break;
        for (uint32_t K = 1; K < M.numOperands(R); K += 2)
          if (M.operand(R, K) == Mv.OrigLabel)
            M.setOperand(R, K, Mv.Tail);
      }
    }
}

} // namespace fatomic::spirv
