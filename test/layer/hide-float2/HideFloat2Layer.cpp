//===- HideFloat2Layer.cpp - A driver without VK_EXT_shader_atomic_float2
//--===//
//
// Test-only layer VK_LAYER_FATOMIC_test_hide_float2.  Enabled below the
// fatomic layer, it makes lavapipe look like NVIDIA's driver for float
// atomics: vkEnumerateDeviceExtensionProperties does not list
// VK_EXT_shader_atomic_float2, vkGetPhysicalDeviceFeatures2 leaves its
// features struct alone (taken out of the chain for the call, as a driver
// that does not know it ignores it) and says so on stderr, and vkCreateDevice
// fails (VK_ERROR_EXTENSION_NOT_PRESENT / VK_ERROR_FEATURE_NOT_PRESENT, a
// message on stderr) when the extension is enabled or its struct is in the
// chain.  It also checks, as a strict driver would, that a device of an
// instance below Vulkan 1.2 gets the int64 atomics features struct only
// with VK_KHR_shader_atomic_int64 enabled (VK_ERROR_FEATURE_NOT_PRESENT
// otherwise).  Function pointers of the next layer are taken when the
// instance is created.  Messages start with "hide-float2:".
//
//===----------------------------------------------------------------------===//
#include <cstdio>
#include <cstring>
#include <mutex>
#include <unordered_map>
#include <vector>
#include <vulkan/vk_layer.h>
#include <vulkan/vulkan.h>
#define EXPORT extern "C" __attribute__((visibility("default")))
namespace {
struct Next {
  PFN_vkGetInstanceProcAddr Gipa = nullptr;
  PFN_vkGetDeviceProcAddr Gdpa = nullptr;
  VkInstance Instance = VK_NULL_HANDLE;
  PFN_vkEnumerateDeviceExtensionProperties Enum = nullptr;
  PFN_vkGetPhysicalDeviceFeatures2 Feat = nullptr;
  uint32_t ApiVersion = VK_API_VERSION_1_0; ///< the instance's
};
std::mutex Lock;
std::unordered_map<void *, Next> Instances, Devices;
const char *Float2 = VK_EXT_SHADER_ATOMIC_FLOAT_2_EXTENSION_NAME;
template <typename T> void *key(T H) { return *reinterpret_cast<void **>(H); }
Next instanceOf(void *K) {
  std::lock_guard<std::mutex> G(Lock);
  auto It = Instances.find(K);
  return It == Instances.end() ? Next{} : It->second;
}
bool inChain(const void *C, VkStructureType T) {
  for (auto *P = static_cast<const VkBaseInStructure *>(C); P; P = P->pNext)
    if (P->sType == T)
      return true;
  return false;
}
bool hasF2(const void *C) {
  return inChain(C, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_2_FEATURES_EXT);
}
bool enables(const VkDeviceCreateInfo *I, const char *Name) {
  for (uint32_t K = 0; K < I->enabledExtensionCount; ++K)
    if (!std::strcmp(I->ppEnabledExtensionNames[K], Name))
      return true;
  return false;
}
template <typename Link, typename Info>
Link *linkOf(const Info *I, VkStructureType T) {
  for (auto *P = static_cast<const VkBaseInStructure *>(I->pNext); P;
       P = P->pNext) {
    auto *L = reinterpret_cast<Link *>(const_cast<VkBaseInStructure *>(P));
    if (P->sType == T && L->function == VK_LAYER_LINK_INFO)
      return L;
  }
  return nullptr;
}
VKAPI_ATTR VkResult VKAPI_CALL CreateInstance(const VkInstanceCreateInfo *I,
                                              const VkAllocationCallbacks *A,
                                              VkInstance *Out) {
  auto *L = linkOf<VkLayerInstanceCreateInfo>(
      I, VK_STRUCTURE_TYPE_LOADER_INSTANCE_CREATE_INFO);
  PFN_vkGetInstanceProcAddr Gipa = L->u.pLayerInfo->pfnNextGetInstanceProcAddr;
  L->u.pLayerInfo = L->u.pLayerInfo->pNext;
  VkResult R = reinterpret_cast<PFN_vkCreateInstance>(
      Gipa(nullptr, "vkCreateInstance"))(I, A, Out);
  if (R == VK_SUCCESS) {
    Next N{Gipa, nullptr, *Out};
    if (I->pApplicationInfo && I->pApplicationInfo->apiVersion)
      N.ApiVersion = I->pApplicationInfo->apiVersion;
    N.Enum = reinterpret_cast<PFN_vkEnumerateDeviceExtensionProperties>(
        Gipa(*Out, "vkEnumerateDeviceExtensionProperties"));
    N.Feat = reinterpret_cast<PFN_vkGetPhysicalDeviceFeatures2>(
        Gipa(*Out, "vkGetPhysicalDeviceFeatures2"));
    std::lock_guard<std::mutex> G(Lock);
    Instances[key(*Out)] = N;
  }
  return R;
}
VKAPI_ATTR VkResult VKAPI_CALL EnumerateDeviceExtensionProperties(
    VkPhysicalDevice P, const char *Layer, uint32_t *Count,
    VkExtensionProperties *Props) {
  Next N = instanceOf(key(P));
  if (Layer)
    return N.Enum(P, Layer, Count, Props);
  uint32_t All = 0;
  N.Enum(P, nullptr, &All, nullptr);
  std::vector<VkExtensionProperties> E(All);
  N.Enum(P, nullptr, &All, E.data());
  E.resize(All);
  std::vector<VkExtensionProperties> K;
  for (auto &X : E)
    if (std::strcmp(X.extensionName, Float2))
      K.push_back(X);
  if (!Props) {
    *Count = K.size();
    return VK_SUCCESS;
  }
  uint32_t C = *Count < K.size() ? *Count : K.size();
  std::memcpy(Props, K.data(), C * sizeof(VkExtensionProperties));
  *Count = C;
  return C < K.size() ? VK_INCOMPLETE : VK_SUCCESS;
}
VKAPI_ATTR void VKAPI_CALL
GetPhysicalDeviceFeatures2(VkPhysicalDevice P, VkPhysicalDeviceFeatures2 *F) {
  if (hasF2(F->pNext))
    std::fprintf(stderr, "hide-float2: the float2 features struct reached "
                         "vkGetPhysicalDeviceFeatures2\n");
  std::vector<std::pair<VkBaseOutStructure *, VkBaseOutStructure *>> Cut;
  for (auto *Q = reinterpret_cast<VkBaseOutStructure *>(F); Q->pNext;)
    if (Q->pNext->sType ==
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_2_FEATURES_EXT) {
      Cut.push_back({Q, Q->pNext});
      Q->pNext = Q->pNext->pNext;
    } else
      Q = Q->pNext;
  instanceOf(key(P)).Feat(P, F);
  for (auto It = Cut.rbegin(); It != Cut.rend(); ++It)
    It->first->pNext = It->second;
}
VKAPI_ATTR VkResult VKAPI_CALL CreateDevice(VkPhysicalDevice P,
                                            const VkDeviceCreateInfo *I,
                                            const VkAllocationCallbacks *A,
                                            VkDevice *Out) {
  for (uint32_t K = 0; K < I->enabledExtensionCount; ++K)
    if (!std::strcmp(I->ppEnabledExtensionNames[K], Float2)) {
      std::fprintf(stderr, "hide-float2: vkCreateDevice enables %s\n", Float2);
      return VK_ERROR_EXTENSION_NOT_PRESENT;
    }
  if (hasF2(I->pNext)) {
    std::fprintf(
        stderr,
        "hide-float2: the float2 features struct reached vkCreateDevice\n");
    return VK_ERROR_FEATURE_NOT_PRESENT;
  }
  if (instanceOf(key(P)).ApiVersion < VK_API_VERSION_1_2 &&
      inChain(I->pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_INT64_FEATURES) &&
      !enables(I, VK_KHR_SHADER_ATOMIC_INT64_EXTENSION_NAME)) {
    std::fprintf(stderr, "hide-float2: the int64 atomics features struct reached "
                         "vkCreateDevice of a Vulkan 1.0/1.1 instance without %s\n",
                 VK_KHR_SHADER_ATOMIC_INT64_EXTENSION_NAME);
    return VK_ERROR_FEATURE_NOT_PRESENT;
  }
  auto *L = linkOf<VkLayerDeviceCreateInfo>(
      I, VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO);
  PFN_vkGetInstanceProcAddr Gipa = L->u.pLayerInfo->pfnNextGetInstanceProcAddr;
  PFN_vkGetDeviceProcAddr Gdpa = L->u.pLayerInfo->pfnNextGetDeviceProcAddr;
  L->u.pLayerInfo = L->u.pLayerInfo->pNext;
  Next N = instanceOf(key(P));
  VkResult R = reinterpret_cast<PFN_vkCreateDevice>(
      Gipa(N.Instance, "vkCreateDevice"))(P, I, A, Out);
  if (R == VK_SUCCESS) {
    std::lock_guard<std::mutex> G(Lock);
    Devices[key(*Out)] = {Gipa, Gdpa, N.Instance};
  }
  return R;
}
VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetDeviceProcAddr(VkDevice D,
                                                           const char *Name) {
  std::lock_guard<std::mutex> G(Lock);
  auto It = Devices.find(key(D));
  return It == Devices.end() ? nullptr : It->second.Gdpa(D, Name);
}
VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetInstanceProcAddr(VkInstance I,
                                                             const char *Name) {
#define OWN(F)                                                                 \
  if (!std::strcmp(Name, "vk" #F))                                             \
    return reinterpret_cast<PFN_vkVoidFunction>(&F);
  OWN(GetInstanceProcAddr)
  OWN(GetDeviceProcAddr) OWN(CreateInstance) OWN(CreateDevice) OWN(
      EnumerateDeviceExtensionProperties)
      OWN(GetPhysicalDeviceFeatures2) if (!std::strcmp(Name, "vkGetPhysicalDevi"
                                                             "ceFeatures2KH"
                                                             "R")) return reinterpret_cast<
          PFN_vkVoidFunction>(&GetPhysicalDeviceFeatures2);
  if (!I)
    return nullptr;
  Next N = instanceOf(key(I));
  return N.Gipa ? N.Gipa(I, Name) : nullptr;
}
} // namespace
EXPORT VKAPI_ATTR VkResult VKAPI_CALL
vkNegotiateLoaderLayerInterfaceVersion(VkNegotiateLayerInterface *V) {
  V->loaderLayerInterfaceVersion = 2;
  V->pfnGetInstanceProcAddr = &GetInstanceProcAddr;
  V->pfnGetDeviceProcAddr = &GetDeviceProcAddr;
  V->pfnGetPhysicalDeviceProcAddr = nullptr;
  return VK_SUCCESS;
}
