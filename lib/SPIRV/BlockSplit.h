//===- BlockSplit.h - Splitting blocks at the atomics that are lowered ----===//
//
// A lowered atomic written out in place needs blocks of its own (loops,
// selections), so its block is split at it: the code before it stays under
// the block's label, the code after it follows the last block the lowering
// left.  What that asks of the rest of the function is done here too:
//   - a loop header keeps only its phis, its merge and a branch, so that the
//     back edge still reaches the header;
//   - a loop that was one block gets a new continue target that holds the
//     back-edge branch (the header no longer post-dominates the back edge);
//   - the phis of the successors name the last piece instead of the block;
//   - OpLine/OpNoLine before the phis stay among them.
// What is lowered and how comes in through the Hooks, so that splitting can
// be tested with any lowering.
//
//===----------------------------------------------------------------------===//
#ifndef FATOMIC_SPIRV_BLOCKSPLIT_H
#define FATOMIC_SPIRV_BLOCKSPLIT_H

#include "Module.h"

#include <functional>

namespace fatomic::spirv {

class BlockSplit {
public:
  struct Hooks {
    /// Whether \p R is an atomic to lower.
    std::function<bool(InstRef)> IsSite;
    /// The call that replaces atomic \p R, or NoInst when it is lowered in
    /// place.
    std::function<InstRef(InstRef)> Outline;
    /// Appends the lowered code of atomic \p R to the last block and the
    /// blocks it needs after it; the last block it leaves continues.
    std::function<void(std::vector<Block> &, InstRef)> Lower;
  };

  BlockSplit(Module &M, Hooks H) : M(M), H(std::move(H)) {}

  /// Lowers every atomic of \p F, splitting its blocks.
  void run(Function &F);

private:
  /// An original block whose terminator now leaves from another block.
  struct Renamed {
    uint32_t OrigLabel, Tail;
    InstRef Terminator;
  };
  /// Replaces the outlined atomics of \p B by calls; whether one is left
  /// to lower in place.
  bool outlineCalls(Block &B);
  void splitBlock(Block &B, std::vector<Block> &Out, std::vector<Renamed> &Moved);
  /// The first pieces of a block split at \p Pos: the header and the rest
  /// of a loop header when \p Merge is its OpLoopMerge, else one block.
  void startPieces(const Block &B, const std::vector<InstRef> &Body, size_t Pos,
                   InstRef Merge, std::vector<Block> &Out);
  void splitOffContinue(std::vector<Block> &Out, InstRef Merge);
  void repairPhis(Function &F, const std::vector<Renamed> &Moved);

  Module &M;
  Hooks H;
};

/// Successor labels of a terminator.
std::vector<uint32_t> successors(const Module &M, InstRef Terminator);

/// How many of the first \p Limit instructions of \p Body are the block's
/// phis, with the OpLine/OpNoLine that may stand among them: up to and
/// including the last phi of that leading run.
size_t leadingPhis(const Module &M, const std::vector<InstRef> &Body, size_t Limit);

} // namespace fatomic::spirv

#endif // FATOMIC_SPIRV_BLOCKSPLIT_H
