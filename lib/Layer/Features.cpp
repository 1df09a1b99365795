//===- Features.cpp - What the layer reports, and what the driver gets ----===//
//
// Reported (vkGetPhysicalDeviceFeatures2 and its KHR alias): the buffer and
// shared f32 min/max bits of VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT
// always, the f64 ones where the driver has 64-bit integer atomics (and
// shaderInt64) for that memory; every other bit (f16, images) as the driver
// reports it.  A driver without VK_EXT_shader_atomic_float2 never sees the
// struct: it is taken out of the chain for the call and filled in by the
// layer (VK_EXT_shader_atomic_float's struct likewise, all zero), and both
// extensions are added to vkEnumerateDeviceExtensionProperties.
//
// vkCreateDevice: the driver gets a copy of the create info without the
// extension names it lacks, without the float structs it does not know,
// with the emulated min/max bits cleared, and with 64-bit integer atomics
// (and shaderInt64, and VK_KHR_shader_atomic_int64 unless the application
// is on Vulkan 1.2) enabled where an emulated f64 bit was asked for.  The
// application's own structures in the pNext chain are edited in place for
// the call and restored before it returns.
//
//===----------------------------------------------------------------------===//

#include "Chain.h"
#include "Layer.h"

#include <algorithm>
#include <cstring>

namespace fatomic::layer {

namespace {
template <typename S> S *as(VkBaseOutStructure *P) {
  return reinterpret_cast<S *>(P);
}

bool hasExtension(const std::vector<VkExtensionProperties> &Exts,
                  const char *Name) {
  return std::any_of(Exts.begin(), Exts.end(), [&](const VkExtensionProperties &E) {
    return std::strcmp(E.extensionName, Name) == 0;
  });
}

std::vector<VkExtensionProperties> driverExtensions(InstanceData &I,
                                                    VkPhysicalDevice Phys) {
  uint32_t N = 0;
  std::vector<VkExtensionProperties> Exts;
  if (I.EnumerateDeviceExtensions(Phys, nullptr, &N, nullptr) != VK_SUCCESS)
    return Exts;
  Exts.resize(N);
  if (I.EnumerateDeviceExtensions(Phys, nullptr, &N, Exts.data()) < 0)
    N = 0;
  Exts.resize(N);
  return Exts;
}

/// The emulated bits of \p F: true where the layer provides the feature.
void setEmulatedBits(VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT &F,
                     const PhysicalInfo &P) {
  F.shaderBufferFloat32AtomicMinMax = VK_TRUE;
  F.shaderSharedFloat32AtomicMinMax = VK_TRUE;
  if (P.BufferInt64Atomics && P.ShaderInt64)
    F.shaderBufferFloat64AtomicMinMax = VK_TRUE;
  if (P.SharedInt64Atomics && P.ShaderInt64)
    F.shaderSharedFloat64AtomicMinMax = VK_TRUE;
}

void fillTarget(PhysicalInfo &P, bool Force) {
  const auto &F = P.Float2;
  auto Set = [&](Feature Ft, VkBool32 Driver, bool Hidden) {
    P.Target.set(Ft, Driver && !Hidden);
  };
  Set(Feature::ShaderBufferFloat16AtomicMinMax, F.shaderBufferFloat16AtomicMinMax, false);
  Set(Feature::ShaderSharedFloat16AtomicMinMax, F.shaderSharedFloat16AtomicMinMax, false);
  Set(Feature::ShaderBufferFloat32AtomicMinMax, F.shaderBufferFloat32AtomicMinMax, Force);
  Set(Feature::ShaderSharedFloat32AtomicMinMax, F.shaderSharedFloat32AtomicMinMax, Force);
  Set(Feature::ShaderBufferFloat64AtomicMinMax, F.shaderBufferFloat64AtomicMinMax, Force);
  Set(Feature::ShaderSharedFloat64AtomicMinMax, F.shaderSharedFloat64AtomicMinMax, Force);
  Set(Feature::ShaderImageFloat32AtomicMinMax, F.shaderImageFloat32AtomicMinMax, false);
  Set(Feature::SparseImageFloat32AtomicMinMax, F.sparseImageFloat32AtomicMinMax, false);
  Set(Feature::ShaderBufferInt64Atomics, P.BufferInt64Atomics, false);
  Set(Feature::ShaderSharedInt64Atomics, P.SharedInt64Atomics, false);
  P.Target.Source = Force ? "the driver (FATOMIC_LAYER_FORCE=1)" : "the driver";
}

/// The subgroup stages and operations of \p Phys (Vulkan 1.1: \p ApiVersion
/// is the device's effective version), and its driver where
/// \p HasDriverProps (Vulkan 1.2 or VK_KHR_driver_properties), for
/// aggregate=auto.  Extended types depend on what the device enables
/// (enablesSubgroupExtendedTypes).
void querySubgroups(InstanceData &I, VkPhysicalDevice Phys, uint32_t ApiVersion,
                    bool HasDriverProps, SubgroupSupport &S) {
  if (ApiVersion < VK_API_VERSION_1_1 || !I.GetProperties2)
    return;
  VkPhysicalDeviceDriverProperties Driver{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
  VkPhysicalDeviceSubgroupProperties Sub{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES,
                                         HasDriverProps ? &Driver : nullptr};
  VkPhysicalDeviceProperties2 Props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &Sub};
  I.GetProperties2(Phys, &Props);
  // SubgroupSupport::DriverCombinesUnused32 names the driver.
  S.DriverCombinesUnused32 = HasDriverProps && Driver.driverID == VK_DRIVER_ID_NVIDIA_PROPRIETARY;
  S.Known = true;
  S.Compute = Sub.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT;
  S.Basic = Sub.supportedOperations & VK_SUBGROUP_FEATURE_BASIC_BIT;
  S.Vote = Sub.supportedOperations & VK_SUBGROUP_FEATURE_VOTE_BIT;
  S.Arithmetic = Sub.supportedOperations & VK_SUBGROUP_FEATURE_ARITHMETIC_BIT;
  S.Ballot = Sub.supportedOperations & VK_SUBGROUP_FEATURE_BALLOT_BIT;
}

/// Whether the application enables shaderSubgroupExtendedTypes.
bool enablesSubgroupExtendedTypes(const VkDeviceCreateInfo *Info) {
  if (auto [Prev, P] = findInChain(Info, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES); P)
    if (as<VkPhysicalDeviceVulkan12Features>(P)->shaderSubgroupExtendedTypes)
      return true;
  auto [Prev, P] = findInChain(
      Info, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SUBGROUP_EXTENDED_TYPES_FEATURES);
  return P && as<VkPhysicalDeviceShaderSubgroupExtendedTypesFeatures>(P)->shaderSubgroupExtendedTypes;
}
} // namespace

void queryPhysicalInfo(InstanceData &I, VkPhysicalDevice Phys,
                       PhysicalInfo &Info) {
  std::vector<VkExtensionProperties> Exts = driverExtensions(I, Phys);
  Info.HasFloat1 = hasExtension(Exts, VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME);
  Info.HasFloat2 = hasExtension(Exts, VK_EXT_SHADER_ATOMIC_FLOAT_2_EXTENSION_NAME);
  Info.HasInt64Atomics = hasExtension(Exts, VK_KHR_SHADER_ATOMIC_INT64_EXTENSION_NAME);
  auto GetProps = reinterpret_cast<PFN_vkGetPhysicalDeviceProperties>(
      I.NextGipa(I.Instance, "vkGetPhysicalDeviceProperties"));
  VkPhysicalDeviceProperties Props{};
  if (GetProps)
    GetProps(Phys, &Props);
  // The device's effective version: the lower of the instance's and its own.
  const uint32_t Effective = std::min(I.ApiVersion, Props.apiVersion);
  bool HasInt64Struct = Effective >= VK_API_VERSION_1_2 ||
                        hasExtension(Exts, VK_KHR_SHADER_ATOMIC_INT64_EXTENSION_NAME);

  VkPhysicalDeviceFeatures2 F{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  VkPhysicalDeviceShaderAtomicInt64Features I64{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_INT64_FEATURES};
  Info.Float2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_2_FEATURES_EXT;
  void **Tail = &F.pNext;
  if (Info.HasFloat2) {
    *Tail = &Info.Float2;
    Tail = &Info.Float2.pNext;
  }
  if (HasInt64Struct)
    *Tail = &I64;
  if (I.GetFeatures2) {
    I.GetFeatures2(Phys, &F);
  } else if (auto GetFeatures = reinterpret_cast<PFN_vkGetPhysicalDeviceFeatures>(
                 I.NextGipa(I.Instance, "vkGetPhysicalDeviceFeatures"))) {
    // Vulkan 1.0 without the extension: no float atomic features can be
    // asked for (or enabled), so none is native.
    GetFeatures(Phys, &F.features);
  }
  Info.Float2.pNext = nullptr;
  Info.ShaderInt64 = F.features.shaderInt64;
  Info.BufferInt64Atomics = I64.shaderBufferInt64Atomics;
  Info.SharedInt64Atomics = I64.shaderSharedInt64Atomics;
  fillTarget(Info, settings().Force);
  querySubgroups(I, Phys, Effective,
                 Effective >= VK_API_VERSION_1_2 ||
                     hasExtension(Exts, VK_KHR_DRIVER_PROPERTIES_EXTENSION_NAME),
                 Info.Target.Subgroups);
}

namespace {
void reportFeatures(InstanceData *I, VkPhysicalDevice Phys,
                    VkPhysicalDeviceFeatures2 *Features) {
  const PhysicalInfo &P = physicalInfo(*I, Phys);
  auto [Prev2, F2] = findInChain(
      Features, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_2_FEATURES_EXT);
  {
    ScopedEdits Edits;
    if (F2 && !P.HasFloat2)
      Edits.unlinkAfter(Prev2);
    auto [Prev1, F1] = findInChain(
        Features, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT);
    if (F1 && !P.HasFloat1) {
      Edits.unlinkAfter(Prev1);
      auto *S = as<VkPhysicalDeviceShaderAtomicFloatFeaturesEXT>(F1);
      void *Keep = S->pNext;
      *S = {};
      S->sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT;
      S->pNext = Keep; // restored below anyway; the link is the edit's
    }
    I->GetFeatures2(Phys, Features);
  }
  if (!F2)
    return;
  auto *S = as<VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT>(F2);
  if (!P.HasFloat2) {
    void *Keep = S->pNext;
    *S = {};
    S->sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_2_FEATURES_EXT;
    S->pNext = Keep;
  }
  setEmulatedBits(*S, P);
}
} // namespace

// Where the layer's part throws (before the call down: nothing after it
// allocates), the application gets the next layer's answer unchanged,
// without the emulated bits.
VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceFeatures2(
    VkPhysicalDevice Phys, VkPhysicalDeviceFeatures2 *Features) {
  InstanceData *I = findInstance(dispatchKey(Phys));
  if (!I || !I->GetFeatures2)
    return;
  guarded(
      "vkGetPhysicalDeviceFeatures2", nullptr, [&] { reportFeatures(I, Phys, Features); },
      [&](Thrown) { I->GetFeatures2(Phys, Features); });
}

namespace {
const VkExtensionProperties LayerExtensions[] = {
    {VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME, VK_EXT_SHADER_ATOMIC_FLOAT_SPEC_VERSION},
    {VK_EXT_SHADER_ATOMIC_FLOAT_2_EXTENSION_NAME,
     VK_EXT_SHADER_ATOMIC_FLOAT_2_SPEC_VERSION},
};

VkResult copyOut(const std::vector<VkExtensionProperties> &Exts, uint32_t *Count,
                 VkExtensionProperties *Props) {
  if (!Props) {
    *Count = static_cast<uint32_t>(Exts.size());
    return VK_SUCCESS;
  }
  uint32_t N = std::min<uint32_t>(*Count, static_cast<uint32_t>(Exts.size()));
  std::copy(Exts.begin(), Exts.begin() + N, Props);
  *Count = N;
  return N < Exts.size() ? VK_INCOMPLETE : VK_SUCCESS;
}

VkResult enumerateExtensions(InstanceData *I, VkPhysicalDevice Phys, const char *LayerName,
                             uint32_t *Count, VkExtensionProperties *Props) {
  if (LayerName && std::strcmp(LayerName, FATOMIC_LAYER_NAME) == 0)
    return copyOut({std::begin(LayerExtensions), std::end(LayerExtensions)},
                   Count, Props);
  if (!I || !I->EnumerateDeviceExtensions)
    return VK_ERROR_INITIALIZATION_FAILED;
  if (LayerName)
    return I->EnumerateDeviceExtensions(Phys, LayerName, Count, Props);
  std::vector<VkExtensionProperties> Exts = driverExtensions(*I, Phys);
  for (const VkExtensionProperties &E : LayerExtensions)
    if (!hasExtension(Exts, E.extensionName))
      Exts.push_back(E);
  return copyOut(Exts, Count, Props);
}
} // namespace

VKAPI_ATTR VkResult VKAPI_CALL EnumerateDeviceExtensionProperties(
    VkPhysicalDevice Phys, const char *LayerName, uint32_t *Count,
    VkExtensionProperties *Props) {
  InstanceData *I = findInstance(dispatchKey(Phys));
  return guarded(
      "vkEnumerateDeviceExtensionProperties", nullptr,
      [&] { return enumerateExtensions(I, Phys, LayerName, Count, Props); },
      [](Thrown T) { return failedWith(T, VK_ERROR_UNKNOWN); });
}

namespace {
/// The copy of VkDeviceCreateInfo handed to the driver, and what it owns.
struct DriverCreateInfo {
  VkDeviceCreateInfo Info{};
  std::vector<const char *> Extensions;
  VkPhysicalDeviceShaderAtomicInt64Features Int64{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_INT64_FEATURES};
  VkPhysicalDeviceFeatures Base{};
};

void dropExtensions(DriverCreateInfo &D, const PhysicalInfo &P) {
  for (uint32_t K = 0; K < D.Info.enabledExtensionCount; ++K) {
    const char *Name = D.Info.ppEnabledExtensionNames[K];
    if ((!P.HasFloat2 && !std::strcmp(Name, VK_EXT_SHADER_ATOMIC_FLOAT_2_EXTENSION_NAME)) ||
        (!P.HasFloat1 && !std::strcmp(Name, VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME)))
      continue;
    D.Extensions.push_back(Name);
  }
  D.Info.enabledExtensionCount = static_cast<uint32_t>(D.Extensions.size());
  D.Info.ppEnabledExtensionNames = D.Extensions.data();
}

/// Clears (or unlinks) the emulated float bits; returns true when an
/// emulated f64 bit was asked for.
bool removeEmulatedBits(ChainCopy &Chain, const PhysicalInfo &P) {
  if (!P.HasFloat1)
    Chain.drop(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT);
  auto *S = Chain.find<VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_2_FEATURES_EXT);
  if (!S)
    return false;
  bool F64 = false;
  auto Clear = [&](const VkBool32 &Bit, Feature Ft, bool Is64) {
    if (!Bit || P.Target.has(Ft))
      return;
    F64 |= Is64;
    if (P.HasFloat2)
      Chain.set(&Bit, VkBool32(VK_FALSE));
  };
  Clear(S->shaderBufferFloat32AtomicMinMax, Feature::ShaderBufferFloat32AtomicMinMax, false);
  Clear(S->shaderSharedFloat32AtomicMinMax, Feature::ShaderSharedFloat32AtomicMinMax, false);
  Clear(S->shaderBufferFloat64AtomicMinMax, Feature::ShaderBufferFloat64AtomicMinMax, true);
  Clear(S->shaderSharedFloat64AtomicMinMax, Feature::ShaderSharedFloat64AtomicMinMax, true);
  if (!P.HasFloat2)
    Chain.drop(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_2_FEATURES_EXT);
  return F64;
}

/// Adds \p Name to the extensions handed to the driver, unless there.
void addExtension(DriverCreateInfo &D, const char *Name) {
  for (const char *E : D.Extensions)
    if (!std::strcmp(E, Name))
      return;
  D.Extensions.push_back(Name);
  D.Info.enabledExtensionCount = static_cast<uint32_t>(D.Extensions.size());
  D.Info.ppEnabledExtensionNames = D.Extensions.data();
}

/// Enables 64-bit integer atomics and shaderInt64 where the driver has them.
/// Through VkPhysicalDeviceVulkan12Features the application is on Vulkan
/// 1.2; otherwise it may be on 1.0 or 1.1, where the int64 atomics struct
/// (and Int64Atomics in the lowered module) needs VK_KHR_shader_atomic_int64
/// enabled, which the layer then enables too (harmless on 1.2, where it is
/// promoted).
void enableInt64(DriverCreateInfo &D, ChainCopy &Chain, const PhysicalInfo &P) {
  const VkBool32 B = P.BufferInt64Atomics, S = P.SharedInt64Atomics;
  if (auto *F = Chain.find<VkPhysicalDeviceVulkan12Features>(
          VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES)) {
    Chain.set(&F->shaderBufferInt64Atomics, VkBool32(F->shaderBufferInt64Atomics | B));
    Chain.set(&F->shaderSharedInt64Atomics, VkBool32(F->shaderSharedInt64Atomics | S));
  } else {
    if (auto *F = Chain.find<VkPhysicalDeviceShaderAtomicInt64Features>(
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_INT64_FEATURES)) {
      Chain.set(&F->shaderBufferInt64Atomics, VkBool32(F->shaderBufferInt64Atomics | B));
      Chain.set(&F->shaderSharedInt64Atomics, VkBool32(F->shaderSharedInt64Atomics | S));
    } else {
      D.Int64.shaderBufferInt64Atomics = B;
      D.Int64.shaderSharedInt64Atomics = S;
      Chain.prepend(reinterpret_cast<VkBaseOutStructure *>(&D.Int64));
    }
    if (P.HasInt64Atomics)
      addExtension(D, VK_KHR_SHADER_ATOMIC_INT64_EXTENSION_NAME);
  }
  if (auto *F = Chain.find<VkPhysicalDeviceFeatures2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2)) {
    Chain.set(&F->features.shaderInt64, VkBool32(F->features.shaderInt64 | P.ShaderInt64));
    return;
  }
  if (D.Info.pEnabledFeatures)
    D.Base = *D.Info.pEnabledFeatures;
  D.Base.shaderInt64 |= P.ShaderInt64;
  D.Info.pEnabledFeatures = &D.Base;
}
} // namespace

VkResult createDeviceBelow(InstanceData &I, VkPhysicalDevice Phys,
                           const VkDeviceCreateInfo *Info,
                           const VkAllocationCallbacks *Alloc, VkDevice *Device,
                           PFN_vkCreateDevice Next, bool &ExtendedTypes) {
  const PhysicalInfo &P = physicalInfo(I, Phys);
  DriverCreateInfo D;
  D.Info = *Info;
  dropExtensions(D, P);
  // The structures the layer may change, copied (Chain.h).
  static const StructTypes Changed{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT,
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_2_FEATURES_EXT,
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_INT64_FEATURES,
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  ChainGuard Guard([&] { return needsInPlace(Info->pNext, Changed); });
  ExtendedTypes = enablesSubgroupExtendedTypes(Info); // before any edit
  ChainCopy Chain(Info->pNext, Changed);
  if (removeEmulatedBits(Chain, P))
    enableInt64(D, Chain, P);
  D.Info.pNext = Chain.first();
  return Next(Phys, &D.Info, Alloc, Device);
}

} // namespace fatomic::layer
