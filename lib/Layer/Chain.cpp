//===- Chain.cpp - Copies of the application's input chains ---------------===//
//
// See Chain.h.  The sizes come from the Vulkan registry (vk.xml) through
// gen_struct_sizes.py.
//
//===----------------------------------------------------------------------===//

#include "Chain.h"

#include "ShaderObjectApi.h"

#include <vulkan/vk_layer.h>

#include <algorithm>
#include <cstring>
#include <unordered_map>

namespace fatomic::layer {

size_t structSize(VkStructureType T) {
  static const std::unordered_map<int64_t, size_t> Sizes = [] {
    const std::pair<VkStructureType, size_t> Rows[] = {
#include "StructSizes.inc"
    };
    std::unordered_map<int64_t, size_t> M;
    // The loader's links at the front of a device create info's chain
    // (vk_layer.h, not the registry): copied like the rest.
    M.emplace(int64_t(VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO),
              sizeof(VkLayerDeviceCreateInfo));
#ifdef FATOMIC_DECLARE_SHADER_OBJECT
    // VK_EXT_shader_object, which the layer serves, declared by the layer
    // where the headers predate it (ShaderObjectApi.h).
    M.emplace(int64_t(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_OBJECT_FEATURES_EXT),
              sizeof(VkPhysicalDeviceShaderObjectFeaturesEXT));
#endif
    for (const auto &[Type, Size] : Rows)
      M.emplace(int64_t(Type), Size);
    return M;
  }();
  auto It = Sizes.find(int64_t(T));
  return It == Sizes.end() ? 0 : It->second;
}

namespace {
/// The structures of chain \p First up to the last one of a type in
/// \p Changed.
std::vector<const VkBaseInStructure *> prefixTo(const void *First, const StructTypes &Changed) {
  std::vector<const VkBaseInStructure *> Prefix, Nodes;
  for (auto *P = static_cast<const VkBaseInStructure *>(First); P; P = P->pNext) {
    Nodes.push_back(P);
    if (std::find(Changed.begin(), Changed.end(), P->sType) != Changed.end())
      Prefix = Nodes;
  }
  return Prefix;
}

bool anyUnknown(const std::vector<const VkBaseInStructure *> &Nodes) {
  return std::any_of(Nodes.begin(), Nodes.end(),
                     [](const VkBaseInStructure *P) { return !structSize(P->sType); });
}

std::shared_mutex &chainLock() {
  static std::shared_mutex Lock;
  return Lock;
}
} // namespace

bool needsInPlace(const void *First, const StructTypes &Changed) {
  return anyUnknown(prefixTo(First, Changed));
}

namespace {
/// The guards the thread holds (0 or 1 lock, however deep).
thread_local unsigned GuardDepth = 0;
} // namespace

ChainGuard::~ChainGuard() { --GuardDepth; }

ChainGuard::ChainGuard(const std::function<bool()> &InPlace) {
  if (GuardDepth > 0) {
    ++GuardDepth;
    return;
  }
  Shared = std::shared_lock<std::shared_mutex>(chainLock());
  if (InPlace()) {
    // The application's chain is as it gave it whenever no exclusive guard
    // is held, so the answer still holds once the exclusive lock is ours.
    Shared.unlock();
    Exclusive = std::unique_lock<std::shared_mutex>(chainLock());
  }
  // Counted once held: where InPlace() throws (it allocates), no guard
  // exists and the thread's later guards still lock.
  ++GuardDepth;
}

ChainCopy::ChainCopy(const void *First, const StructTypes &Changed) {
  Anchor.pNext = static_cast<VkBaseOutStructure *>(const_cast<void *>(First));
  const std::vector<const VkBaseInStructure *> Prefix = prefixTo(First, Changed);
  if (anyUnknown(Prefix))
    return; // the application's structures, edited and restored
  VkBaseOutStructure *Tail = &Anchor;
  for (const VkBaseInStructure *P : Prefix) {
    const size_t Size = structSize(P->sType);
    // Owned before the list grows, which may throw.
    std::unique_ptr<std::max_align_t[]> Block(
        new std::max_align_t[(Size + sizeof(std::max_align_t) - 1) / sizeof(std::max_align_t)]);
    Copies.push_back(std::move(Block));
    auto *Copy = reinterpret_cast<VkBaseOutStructure *>(Copies.back().get());
    std::memcpy(Copy, P, Size);
    Tail->pNext = Copy;
    Tail = Copy;
  }
  // Copy->pNext of the last copy still names the application's next one.
}

void ChainCopy::drop(VkStructureType T) {
  if (auto [Prev, Node] = findInChain(&Anchor, T); Node)
    Edits.unlinkAfter(Prev);
}

void ChainCopy::replace(VkStructureType T, const void *Node) {
  if (auto [Prev, Old] = findInChain(&Anchor, T); Old)
    Edits.set<VkBaseOutStructure *>(
        &Prev->pNext, static_cast<VkBaseOutStructure *>(const_cast<void *>(Node)));
}

void ChainCopy::prepend(VkBaseOutStructure *Node) {
  Node->pNext = Anchor.pNext;
  Anchor.pNext = Node;
}

} // namespace fatomic::layer
