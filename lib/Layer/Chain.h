//===- Chain.h - Walking and editing Vulkan pNext chains for one call -----===//
//
// The layer hands the driver the application's structures with a few
// changes.  Instead of deep copies of structures it does not know, it edits
// them in place for the duration of one call down the chain and restores
// every edit, in reverse order, before the call returns to the application.
//
//===----------------------------------------------------------------------===//
#ifndef FATOMIC_LAYER_CHAIN_H
#define FATOMIC_LAYER_CHAIN_H

#include <vulkan/vulkan.h>

#include <functional>
#include <utility>
#include <vector>

namespace fatomic::layer {

/// Edits of application memory that last for one call down the chain.
class ScopedEdits {
public:
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

} // namespace fatomic::layer

#endif // FATOMIC_LAYER_CHAIN_H
