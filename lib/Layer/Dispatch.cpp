//===- Dispatch.cpp - The loader interface and the dispatch tables --------===//
//
// vkNegotiateLoaderLayerInterfaceVersion (interface version 2), the
// instance and device chains (the loader's VkLayer*CreateInfo link info),
// one InstanceData per instance and one DeviceData per device keyed by the
// handle's dispatch key, and vkGetInstanceProcAddr / vkGetDeviceProcAddr,
// which hand out the layer's functions for what it intercepts and the next
// layer's for everything else.  An instance or device that the next layer
// created but the layer cannot record (its table fails to grow) is
// destroyed again before the call fails.
//
//===----------------------------------------------------------------------===//

#include "Layer.h"

#include <cstring>
#include <memory>
#include <unordered_map>

#define FATOMIC_LAYER_EXPORT extern "C" __attribute__((visibility("default")))

namespace fatomic::layer {

namespace {
std::mutex TablesLock;
std::unordered_map<void *, std::unique_ptr<InstanceData>> Instances;
std::unordered_map<void *, std::unique_ptr<DeviceData>> Devices;

/// Records \p State, the layer's state of \p Created, an instance or device
/// the next layer has just made, in \p Table.  Where the table cannot grow,
/// the object is destroyed with \p Destroy, \p Created nulled and the
/// exception passed on: the command hands nothing back (guarded()).
template <typename Handle, typename Data, typename DestroyFn>
void record(std::unordered_map<void *, std::unique_ptr<Data>> &Table, Handle &Created,
            std::unique_ptr<Data> State, DestroyFn Destroy,
            const VkAllocationCallbacks *Alloc) {
  try {
    std::lock_guard<std::mutex> G(TablesLock);
    Table[dispatchKey(Created)] = std::move(State);
  } catch (...) {
    if (Destroy)
      Destroy(Created, Alloc);
    Created = VK_NULL_HANDLE;
    throw;
  }
}

template <typename Info, typename Link>
Link *linkInfo(const Info *CreateInfo, VkStructureType Type) {
  auto *P = static_cast<const VkBaseInStructure *>(CreateInfo->pNext);
  for (; P; P = P->pNext) {
    auto *L = reinterpret_cast<Link *>(const_cast<VkBaseInStructure *>(P));
    if (P->sType == Type && L->function == VK_LAYER_LINK_INFO)
      return L;
  }
  return nullptr;
}

template <typename Fn> Fn gipa(InstanceData &I, const char *Name) {
  return reinterpret_cast<Fn>(I.NextGipa(I.Instance, Name));
}

bool enablesExtension(const VkInstanceCreateInfo *Info, const char *Name) {
  for (uint32_t K = 0; K < Info->enabledExtensionCount; ++K)
    if (std::strcmp(Info->ppEnabledExtensionNames[K], Name) == 0)
      return true;
  return false;
}

void fillInstance(InstanceData &I, const VkInstanceCreateInfo *Info) {
  I.DestroyInstance = gipa<PFN_vkDestroyInstance>(I, "vkDestroyInstance");
  const VkApplicationInfo *App = Info->pApplicationInfo;
  if (App && App->apiVersion)
    I.ApiVersion = App->apiVersion;
  // A Vulkan 1.0 instance has the two queries only through the extension,
  // under their KHR names (the core ones are 1.1 commands there).
  if (I.ApiVersion >= VK_API_VERSION_1_1) {
    I.GetFeatures2 = gipa<PFN_vkGetPhysicalDeviceFeatures2>(
        I, "vkGetPhysicalDeviceFeatures2");
    I.GetProperties2 = gipa<PFN_vkGetPhysicalDeviceProperties2>(
        I, "vkGetPhysicalDeviceProperties2");
  } else if (enablesExtension(
                 Info, VK_KHR_GET_PHYSICAL_DEVICE_PROPERTIES_2_EXTENSION_NAME)) {
    I.GetFeatures2 = gipa<PFN_vkGetPhysicalDeviceFeatures2>(
        I, "vkGetPhysicalDeviceFeatures2KHR");
    I.GetProperties2 = gipa<PFN_vkGetPhysicalDeviceProperties2>(
        I, "vkGetPhysicalDeviceProperties2KHR");
  }
  I.EnumerateDeviceExtensions = gipa<PFN_vkEnumerateDeviceExtensionProperties>(
      I, "vkEnumerateDeviceExtensionProperties");
  I.CreateDevice = gipa<PFN_vkCreateDevice>(I, "vkCreateDevice");
  if (enablesExtension(Info, VK_EXT_DEBUG_UTILS_EXTENSION_NAME))
    I.SubmitDebugMessage = gipa<PFN_vkSubmitDebugUtilsMessageEXT>(
        I, "vkSubmitDebugUtilsMessageEXT");
}

template <typename Fn> Fn gdpa(DeviceData &D, const char *Name) {
  return reinterpret_cast<Fn>(D.NextGdpa(D.Device, Name));
}

void fillDevice(DeviceData &D) {
  D.DestroyDevice = gdpa<PFN_vkDestroyDevice>(D, "vkDestroyDevice");
  D.CreateShaderModule = gdpa<PFN_vkCreateShaderModule>(D, "vkCreateShaderModule");
  D.CreateComputePipelines =
      gdpa<PFN_vkCreateComputePipelines>(D, "vkCreateComputePipelines");
  D.CreateGraphicsPipelines =
      gdpa<PFN_vkCreateGraphicsPipelines>(D, "vkCreateGraphicsPipelines");
  D.CreateShadersEXT = gdpa<PFN_vkCreateShadersEXT>(D, "vkCreateShadersEXT");
  D.CreateRayTracingPipelinesKHR = gdpa<PFN_vkCreateRayTracingPipelinesKHR>(
      D, "vkCreateRayTracingPipelinesKHR");
  D.CreateRayTracingPipelinesNV = gdpa<PFN_vkCreateRayTracingPipelinesNV>(
      D, "vkCreateRayTracingPipelinesNV");
  D.GetShaderModuleCreateInfoIdentifierEXT =
      gdpa<PFN_vkGetShaderModuleCreateInfoIdentifierEXT>(
          D, "vkGetShaderModuleCreateInfoIdentifierEXT");
}
} // namespace

InstanceData *findInstance(void *Key) {
  std::lock_guard<std::mutex> G(TablesLock);
  auto It = Instances.find(Key);
  return It == Instances.end() ? nullptr : It->second.get();
}

DeviceData *findDevice(void *Key) {
  std::lock_guard<std::mutex> G(TablesLock);
  auto It = Devices.find(Key);
  return It == Devices.end() ? nullptr : It->second.get();
}

const PhysicalInfo &physicalInfo(InstanceData &I, VkPhysicalDevice Phys) {
  {
    std::lock_guard<std::mutex> G(I.Lock);
    auto It = I.Physical.find(Phys);
    if (It != I.Physical.end())
      return It->second;
  }
  PhysicalInfo Info;
  queryPhysicalInfo(I, Phys, Info);
  std::lock_guard<std::mutex> G(I.Lock);
  return I.Physical.emplace(Phys, Info).first->second;
}

namespace {
VkResult createInstance(const VkInstanceCreateInfo *Info, const VkAllocationCallbacks *Alloc,
                        VkInstance *Instance) {
  auto *Link = linkInfo<VkInstanceCreateInfo, VkLayerInstanceCreateInfo>(
      Info, VK_STRUCTURE_TYPE_LOADER_INSTANCE_CREATE_INFO);
  if (!Link || !Link->u.pLayerInfo)
    return VK_ERROR_INITIALIZATION_FAILED;
  if (!settings().Error.empty()) {
    reportError(nullptr, settings().Error);
    return VK_ERROR_INITIALIZATION_FAILED;
  }
  PFN_vkGetInstanceProcAddr NextGipa = Link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
  auto Next = reinterpret_cast<PFN_vkCreateInstance>(
      NextGipa(VK_NULL_HANDLE, "vkCreateInstance"));
  if (!Next)
    return VK_ERROR_INITIALIZATION_FAILED;
  auto I = std::make_unique<InstanceData>(); // before there is an instance to lose
  Link->u.pLayerInfo = Link->u.pLayerInfo->pNext;
  VkResult R = Next(Info, Alloc, Instance);
  if (R != VK_SUCCESS)
    return R;
  I->Instance = *Instance;
  I->NextGipa = NextGipa;
  fillInstance(*I, Info);
  const PFN_vkDestroyInstance Destroy = I->DestroyInstance;
  record(Instances, *Instance, std::move(I), Destroy, Alloc);
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL CreateInstance(const VkInstanceCreateInfo *Info,
                                              const VkAllocationCallbacks *Alloc,
                                              VkInstance *Instance) {
  return guarded(
      "vkCreateInstance", nullptr, [&] { return createInstance(Info, Alloc, Instance); },
      [](Thrown T) { return failedWith(T, VK_ERROR_INITIALIZATION_FAILED); });
}

VKAPI_ATTR void VKAPI_CALL DestroyInstance(VkInstance Instance,
                                           const VkAllocationCallbacks *Alloc) {
  if (!Instance)
    return;
  std::unique_ptr<InstanceData> I;
  {
    std::lock_guard<std::mutex> G(TablesLock);
    auto It = Instances.find(dispatchKey(Instance));
    if (It == Instances.end())
      return;
    I = std::move(It->second);
    Instances.erase(It);
  }
  I->DestroyInstance(Instance, Alloc);
}

VkResult createDevice(InstanceData &I, VkPhysicalDevice Phys, const VkDeviceCreateInfo *Info,
                      const VkAllocationCallbacks *Alloc, VkDevice *Device) {
  auto *Link = linkInfo<VkDeviceCreateInfo, VkLayerDeviceCreateInfo>(
      Info, VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO);
  if (!Link || !Link->u.pLayerInfo)
    return VK_ERROR_INITIALIZATION_FAILED;
  PFN_vkGetInstanceProcAddr NextGipa = Link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
  PFN_vkGetDeviceProcAddr NextGdpa = Link->u.pLayerInfo->pfnNextGetDeviceProcAddr;
  auto Next = reinterpret_cast<PFN_vkCreateDevice>(
      NextGipa(I.Instance, "vkCreateDevice"));
  if (!Next)
    return VK_ERROR_INITIALIZATION_FAILED;
  // What allocates comes before there is a device to lose.
  auto D = std::make_unique<DeviceData>();
  D->Target = physicalInfo(I, Phys).Target;
  Link->u.pLayerInfo = Link->u.pLayerInfo->pNext;
  bool ExtendedTypes = false;
  VkResult R = createDeviceBelow(I, Phys, Info, Alloc, Device, Next, ExtendedTypes);
  if (R != VK_SUCCESS)
    return R;
  D->Device = *Device;
  D->Instance = &I;
  D->NextGdpa = NextGdpa;
  D->Target.Subgroups.ExtendedTypes = ExtendedTypes;
  fillDevice(*D);
  const PFN_vkDestroyDevice Destroy = D->DestroyDevice;
  record(Devices, *Device, std::move(D), Destroy, Alloc);
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL CreateDevice(VkPhysicalDevice Phys,
                                            const VkDeviceCreateInfo *Info,
                                            const VkAllocationCallbacks *Alloc,
                                            VkDevice *Device) {
  InstanceData *I = findInstance(dispatchKey(Phys));
  if (!I)
    return VK_ERROR_INITIALIZATION_FAILED;
  return guarded(
      "vkCreateDevice", nullptr, [&] { return createDevice(*I, Phys, Info, Alloc, Device); },
      [](Thrown T) { return failedWith(T, VK_ERROR_INITIALIZATION_FAILED); });
}

VKAPI_ATTR void VKAPI_CALL DestroyDevice(VkDevice Device,
                                         const VkAllocationCallbacks *Alloc) {
  if (!Device)
    return;
  std::unique_ptr<DeviceData> D;
  {
    std::lock_guard<std::mutex> G(TablesLock);
    auto It = Devices.find(dispatchKey(Device));
    if (It == Devices.end())
      return;
    D = std::move(It->second);
    Devices.erase(It);
  }
  D->DestroyDevice(Device, Alloc);
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetDeviceProcAddr(VkDevice Device,
                                                          const char *Name);

/// The layer's own function for \p Name among the device-level ones.
PFN_vkVoidFunction deviceFunction(const char *Name) {
#define FATOMIC_FN(F)                                                          \
  if (std::strcmp(Name, "vk" #F) == 0)                                         \
    return reinterpret_cast<PFN_vkVoidFunction>(&F);
  FATOMIC_FN(GetDeviceProcAddr)
  FATOMIC_FN(DestroyDevice)
  FATOMIC_FN(CreateShaderModule)
  FATOMIC_FN(CreateComputePipelines)
  FATOMIC_FN(CreateGraphicsPipelines)
  FATOMIC_FN(CreateShadersEXT)
  FATOMIC_FN(CreateRayTracingPipelinesKHR)
  FATOMIC_FN(CreateRayTracingPipelinesNV)
  FATOMIC_FN(GetShaderModuleCreateInfoIdentifierEXT)
  return nullptr;
}

/// The device-level functions the layer intercepts that belong to an
/// extension the device below may lack (VK_EXT_shader_object,
/// VK_KHR_ray_tracing_pipeline, VK_NV_ray_tracing,
/// VK_EXT_shader_module_identifier): handed out only where it has them.
bool isExtensionFunction(const char *Name) {
  return std::strcmp(Name, "vkCreateShadersEXT") == 0 ||
         std::strcmp(Name, "vkCreateRayTracingPipelinesKHR") == 0 ||
         std::strcmp(Name, "vkCreateRayTracingPipelinesNV") == 0 ||
         std::strcmp(Name, "vkGetShaderModuleCreateInfoIdentifierEXT") == 0;
}

PFN_vkVoidFunction instanceFunction(const char *Name) {
  FATOMIC_FN(CreateInstance)
  FATOMIC_FN(DestroyInstance)
  FATOMIC_FN(CreateDevice)
  FATOMIC_FN(GetPhysicalDeviceFeatures2)
  FATOMIC_FN(EnumerateDeviceExtensionProperties)
  if (std::strcmp(Name, "vkGetPhysicalDeviceFeatures2KHR") == 0)
    return reinterpret_cast<PFN_vkVoidFunction>(&GetPhysicalDeviceFeatures2);
  return nullptr;
#undef FATOMIC_FN
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetDeviceProcAddr(VkDevice Device,
                                                          const char *Name) {
  DeviceData *D = Device ? findDevice(dispatchKey(Device)) : nullptr;
  if (!D)
    return nullptr;
  PFN_vkVoidFunction Own = deviceFunction(Name);
  // An extension's function only where the device below has it.
  if (Own && isExtensionFunction(Name) && !D->NextGdpa(Device, Name))
    return nullptr;
  return Own ? Own : D->NextGdpa(Device, Name);
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetInstanceProcAddr(VkInstance Instance,
                                                            const char *Name);
} // namespace
} // namespace fatomic::layer

using namespace fatomic::layer;

namespace fatomic::layer {
namespace {
VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetInstanceProcAddr(VkInstance Instance,
                                                            const char *Name) {
  if (std::strcmp(Name, "vkGetInstanceProcAddr") == 0)
    return reinterpret_cast<PFN_vkVoidFunction>(&GetInstanceProcAddr);
  if (PFN_vkVoidFunction Own = instanceFunction(Name))
    return Own;
  if (!Instance)
    return nullptr;
  InstanceData *I = findInstance(dispatchKey(Instance));
  if (!I)
    return nullptr;
  if (!isExtensionFunction(Name))
    if (PFN_vkVoidFunction Own = deviceFunction(Name))
      return Own;
  return I->NextGipa(Instance, Name);
}
} // namespace
} // namespace fatomic::layer

FATOMIC_LAYER_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL
vkGetInstanceProcAddr(VkInstance Instance, const char *Name) {
  return GetInstanceProcAddr(Instance, Name);
}

FATOMIC_LAYER_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL
vkGetDeviceProcAddr(VkDevice Device, const char *Name) {
  return GetDeviceProcAddr(Device, Name);
}

FATOMIC_LAYER_EXPORT VKAPI_ATTR VkResult VKAPI_CALL
vkNegotiateLoaderLayerInterfaceVersion(VkNegotiateLayerInterface *Version) {
  if (!Version || Version->sType != LAYER_NEGOTIATE_INTERFACE_STRUCT)
    return VK_ERROR_INITIALIZATION_FAILED;
  if (Version->loaderLayerInterfaceVersion < 2)
    return VK_ERROR_INITIALIZATION_FAILED;
  Version->loaderLayerInterfaceVersion = 2;
  Version->pfnGetInstanceProcAddr = &GetInstanceProcAddr;
  Version->pfnGetDeviceProcAddr = &GetDeviceProcAddr;
  Version->pfnGetPhysicalDeviceProcAddr = nullptr;
  return VK_SUCCESS;
}
