//===- Chain.h - The pNext chains the layer hands the driver --------------===//
//
// The layer hands the driver the application's structures with a few
// changes.  Input structures are const in Vulkan: they may lie in read-only
// memory, and another thread may hand the same ones to a call at the same
// time.  So an input chain is copied up to the last structure the layer
// changes (ChainCopy), and the copies take the changes.  Output chains (a
// query's, which the application hands over to be written) are edited in
// place for the one call down and restored (ScopedEdits).
//
//===----------------------------------------------------------------------===//
#ifndef FATOMIC_LAYER_CHAIN_H
#define FATOMIC_LAYER_CHAIN_H

#include <vulkan/vulkan.h>

#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <utility>
#include <vector>

namespace fatomic::layer {

/// Edits of memory that last for one call down the chain, undone in
/// reverse order when the object goes.
class ScopedEdits {
public:
  ScopedEdits() = default;
  ScopedEdits(const ScopedEdits &) = delete;
  ScopedEdits &operator=(const ScopedEdits &) = delete;
  ~ScopedEdits() {
    for (auto It = Undo.rbegin(); It != Undo.rend(); ++It)
      (*It)();
  }
  template <typename T> void set(const T *Where, T Value) {
    T *W = const_cast<T *>(Where);
    T Old = *W;
    Undo.push_back([W, Old] { *W = Old; });
    *W = Value;
  }
  /// Takes the struct after \p Prev out of the chain.
  void unlinkAfter(VkBaseOutStructure *Prev) {
    set<VkBaseOutStructure *>(&Prev->pNext, Prev->pNext->pNext);
  }

private:
  std::vector<std::function<void()>> Undo;
};

/// The struct of type \p T in the chain after \p Head, and its predecessor.
inline std::pair<VkBaseOutStructure *, VkBaseOutStructure *>
findInChain(const void *Head, VkStructureType T) {
  auto *Prev = static_cast<VkBaseOutStructure *>(const_cast<void *>(Head));
  for (VkBaseOutStructure *P = Prev->pNext; P; Prev = P, P = P->pNext)
    if (P->sType == T)
      return {Prev, P};
  return {nullptr, nullptr};
}

using StructTypes = std::vector<VkStructureType>;

/// The size of the Vulkan structure of type \p T, from the registry the
/// layer was built with; 0 for a type it does not know.
size_t structSize(VkStructureType T);

/// Whether a structure of a type the layer does not know (its size is
/// unknown) stands in the chain \p First before the last structure of a
/// type in \p Changed: then ChainCopy changes the application's own.
bool needsInPlace(const void *First, const StructTypes &Changed);

/// Held over a call down that reads application chains: shared where the
/// call's changes go to copies, exclusive where they fall back to the
/// application's own structures, so that no other call reads a chain while
/// one is changed (another thread may hand down the same create info).
class ChainGuard {
public:
  /// Asks \p InPlace (needsInPlace of the call's chains) under the shared
  /// lock, as any read of an application chain must be made (another
  /// call's in-place changes hold the exclusive one), and where it says so
  /// trades the shared lock for the exclusive one.  A guard taken on a
  /// thread that holds one already (a call down that comes back into the
  /// layer) takes nothing: the outer one covers it.
  explicit ChainGuard(const std::function<bool()> &InPlace);
  ~ChainGuard();
  ChainGuard(const ChainGuard &) = delete;
  ChainGuard &operator=(const ChainGuard &) = delete;

private:
  std::shared_lock<std::shared_mutex> Shared;
  std::unique_lock<std::shared_mutex> Exclusive;
};

/// The layer's copy of an application's input chain, for one call down.
/// The structures up to the last one of the types the layer may change are
/// copied (shallow: what they point to stays the application's), and the
/// rest of the chain is the application's own.  Every change goes to the
/// copies.  A structure of a type that the layer's headers do not know
/// cannot be copied (its size is unknown); where one stands before a
/// structure the layer changes, the chain is the application's and the
/// changes are made to it for the call and undone after (docs/layer.md,
/// Limits; a ChainGuard taken with needsInPlace() keeps other calls out).
class ChainCopy {
public:
  /// Prepares the chain \p First (a pNext value) so that structures of the
  /// types \p Changed can be changed.
  ChainCopy(const void *First, const StructTypes &Changed);
  ChainCopy(const ChainCopy &) = delete;
  ChainCopy &operator=(const ChainCopy &) = delete;

  /// The chain to hand down (a pNext value).
  void *first() const { return Anchor.pNext; }
  /// The first structure of type \p T, to change through set(); null when
  /// the chain has none.
  template <typename S> S *find(VkStructureType T) {
    auto [Prev, Node] = findInChain(&Anchor, T);
    return reinterpret_cast<S *>(Node);
  }
  /// Sets a field of a structure that find() gave.
  template <typename T> void set(const T *Where, T Value) { Edits.set(Where, Value); }
  /// Takes the first structure of type \p T out of the chain.
  void drop(VkStructureType T);
  /// Puts \p Node in place of the first structure of type \p T (\p Node's
  /// own pNext is the caller's).
  void replace(VkStructureType T, const void *Node);
  /// Puts \p Node, whose pNext this sets, at the front of the chain.
  void prepend(VkBaseOutStructure *Node);

private:
  VkBaseOutStructure Anchor{};
  std::vector<std::unique_ptr<std::max_align_t[]>> Copies;
  ScopedEdits Edits; // after Copies: undone while the copies still exist
};

} // namespace fatomic::layer

#endif // FATOMIC_LAYER_CHAIN_H
