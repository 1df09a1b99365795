//===- fatomic-layer-probe.cpp - Drives the Vulkan layer for its tests ----===//
//
//   fatomic-layer-probe [--device N] [--api 1.0|1.1|1.2] [--read-only] [--threads N]
//                       [--unknown-struct] [--pipeline | --shader-object |
//                       --ray-tracing | --ray-tracing-nv] [MODULE.spv...]
//
// Creates an instance with VK_EXT_debug_utils and a messenger that prints
// every message as "debug-utils: MESSAGE", prints the device's float atomic
// min/max features and whether the two float atomic extensions are listed,
// creates a device with every float min/max feature reported and the
// extensions listed, then creates a shader module from each MODULE and
// prints "MODULE: VK_SUCCESS" or the error.  --pipeline also creates a
// compute pipeline from each MODULE with no VkShaderModule: its
// VkShaderModuleCreateInfo chained into the stage (VK_EXT_graphics_pipeline_
// library, enabled where listed; the pipeline layout has storage buffers at
// bindings 0-7 of set 0) and prints "MODULE: pipeline: RESULT".
// --shader-object instead creates compute shader objects from all MODULEs in
// one vkCreateShadersEXT call (VK_EXT_shader_object and dynamic rendering
// enabled; exit 2 where the device lacks them) and prints
// "vkCreateShadersEXT: RESULT", then "MODULE: shader object: created" or
// "null" for each.  --ray-tracing instead creates one ray tracing pipeline
// per MODULE (its ray generation shader "main", chained into the stage) in
// one vkCreateRayTracingPipelinesKHR call with a deferred operation
// (VK_KHR_ray_tracing_pipeline and graphics pipeline libraries enabled; exit
// 2 where the device lacks them), joins the operation where the call defers,
// and prints "vkCreateRayTracingPipelinesKHR: RESULT" (", then RESULT" after
// a join), then "MODULE: ray tracing pipeline: created" or "null" for each.
// --ray-tracing-nv does the same through VK_NV_ray_tracing's
// vkCreateRayTracingPipelinesNV (no deferred operation; exit 2 where the
// device lacks the extension) and prints "vkCreateRayTracingPipelinesNV:
// RESULT" and each module's line.  Every mode prints whether the device
// gives vkCreateRayTracingPipelinesKHR and vkCreateRayTracingPipelinesNV.
// --api sets the instance's Vulkan version (default 1.2); with 1.0 the
// instance enables VK_KHR_get_physical_device_properties2 and the probe asks
// for the features through vkGetPhysicalDeviceFeatures2KHR.
// --read-only puts the device create info with its feature chain, and each
// pipeline's create info with its stage chain, in memory made read-only
// (Vulkan declares them const).  With either of --read-only and --threads
// the stage's chain holds a VkDebugUtilsObjectNameInfoEXT before the
// module.  --threads N creates
// each --pipeline from one create info on N threads at once, 8 times each,
// and prints "MODULE: pipeline: N threads: K created" and whether the
// application's chain is as it was.  --unknown-struct puts a struct of a
// type no Vulkan header has before the module in the stage's chain.
// Run it with
// the layer enabled (VK_ADD_LAYER_PATH, VK_INSTANCE_LAYERS) to see what an
// application sees.
//
// Exit status: 0 every module created, 1 a module failed or bad usage,
// 2 no Vulkan instance or device.
//
//===----------------------------------------------------------------------===//

#include "ShaderObjectApi.h"
#include "VulkanContext.h"

#include <vulkan/vulkan.h>

#include <sys/mman.h>

#include <atomic>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

namespace {
/// VkPipelineCreateFlags2CreateInfoKHR (maintenance5), which the 1.3.239
/// headers lack.
struct PipelineCreateFlags2 {
  VkStructureType sType;
  const void *pNext;
  uint64_t flags;
};
constexpr auto PipelineCreateFlags2Type = VkStructureType(1000470005);
/// VkPhysicalDeviceMaintenance5FeaturesKHR, likewise.
struct Maintenance5Features {
  VkStructureType sType;
  void *pNext;
  VkBool32 maintenance5;
};
constexpr auto Maintenance5FeaturesType = VkStructureType(1000470000);
} // namespace

namespace {
/// The driver's allocations during instance and device set-up are exempt
/// from LeakSanitizer, as in the project's other Vulkan tools.
using fatomic::vk::DriverAllocations;

VKAPI_ATTR VkBool32 VKAPI_CALL onMessage(
    VkDebugUtilsMessageSeverityFlagBitsEXT, VkDebugUtilsMessageTypeFlagsEXT,
    const VkDebugUtilsMessengerCallbackDataEXT *Data, void *) {
  std::printf("debug-utils: %s\n", Data->pMessage ? Data->pMessage : "");
  std::fflush(stdout);
  return VK_FALSE;
}

const char *resultName(VkResult R) {
  switch (R) {
  case VK_SUCCESS: return "VK_SUCCESS";
  case VK_ERROR_INVALID_SHADER_NV: return "VK_ERROR_INVALID_SHADER_NV";
  case VK_ERROR_INITIALIZATION_FAILED: return "VK_ERROR_INITIALIZATION_FAILED";
  case VK_ERROR_OUT_OF_HOST_MEMORY: return "VK_ERROR_OUT_OF_HOST_MEMORY";
  case VK_ERROR_FEATURE_NOT_PRESENT: return "VK_ERROR_FEATURE_NOT_PRESENT";
  case VK_ERROR_EXTENSION_NOT_PRESENT: return "VK_ERROR_EXTENSION_NOT_PRESENT";
  case VK_ERROR_LAYER_NOT_PRESENT: return "VK_ERROR_LAYER_NOT_PRESENT";
  case VK_ERROR_UNKNOWN: return "VK_ERROR_UNKNOWN";
  case VK_OPERATION_DEFERRED_KHR: return "VK_OPERATION_DEFERRED_KHR";
  case VK_OPERATION_NOT_DEFERRED_KHR: return "VK_OPERATION_NOT_DEFERRED_KHR";
  default: return "VkResult (other)";
  }
}

/// Memory for structures that is made read-only once they are in it.
class ReadOnlyArena {
public:
  ReadOnlyArena() {
    void *P = mmap(nullptr, Size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    Base = P == MAP_FAILED ? nullptr : static_cast<char *>(P);
  }
  ~ReadOnlyArena() {
    if (Base)
      munmap(Base, Size);
  }
  ReadOnlyArena(const ReadOnlyArena &) = delete;
  ReadOnlyArena &operator=(const ReadOnlyArena &) = delete;
  /// A copy of \p V in the arena (null when it is full or failed).
  template <typename T> T *put(const T &V) {
    Used = (Used + alignof(std::max_align_t) - 1) & ~(alignof(std::max_align_t) - 1);
    if (!Base || Used + sizeof(T) > Size)
      return nullptr;
    T *P = reinterpret_cast<T *>(Base + Used);
    std::memcpy(static_cast<void *>(P), &V, sizeof(T));
    Used += sizeof(T);
    return P;
  }
  bool seal() { return Base && mprotect(Base, Size, PROT_READ) == 0; }

private:
  static constexpr size_t Size = 1 << 16;
  char *Base = nullptr;
  size_t Used = 0;
};

/// A struct of a type that no Vulkan header has (--unknown-struct).
struct UnknownStruct {
  VkStructureType sType = static_cast<VkStructureType>(0x7ffe0001);
  const void *pNext = nullptr;
  uint64_t Payload[3] = {1, 2, 3};
};

struct Probe {
  VkInstance Instance = VK_NULL_HANDLE;
  VkDebugUtilsMessengerEXT Messenger = VK_NULL_HANDLE;
  VkPhysicalDevice Phys = VK_NULL_HANDLE;
  VkDevice Device = VK_NULL_HANDLE;
  VkPhysicalDeviceFeatures Core{}; ///< the core features enabled
  /// Enabled for --early-return (the flag needs it).
  /// --flags2 on a device with VK_KHR_maintenance5: enabled, so that the
  /// driver reads the chained flags as the layer does.
  Maintenance5Features Maintenance5{Maintenance5FeaturesType, nullptr, VK_FALSE};
  VkPhysicalDevicePipelineCreationCacheControlFeaturesEXT CacheControl{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_CREATION_CACHE_CONTROL_FEATURES_EXT};
  VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT F2{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_2_FEATURES_EXT};
  VkPhysicalDeviceShaderAtomicFloatFeaturesEXT F1{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT};
  std::vector<const char *> DeviceExtensions;
  bool HasGpl = false;
  VkPhysicalDeviceGraphicsPipelineLibraryFeaturesEXT Gpl{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GRAPHICS_PIPELINE_LIBRARY_FEATURES_EXT};
  uint32_t ApiVersion = VK_API_VERSION_1_2; ///< --api
  bool ReadOnly = false;      ///< --read-only
  unsigned Threads = 0;       ///< --threads
  bool Unknown = false;       ///< --unknown-struct
  uint32_t BatchFlags = 0;    ///< --early-return: the batch's pipelines' flags
  bool Flags2Struct = false;  ///< --flags2: the batch's flags in a chained struct
  bool WantShaderObject = false; ///< --shader-object
  VkPhysicalDeviceShaderObjectFeaturesEXT ShaderObject{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_OBJECT_FEATURES_EXT};
  bool WantIdentifier = false; ///< --identifier
  VkPhysicalDeviceShaderModuleIdentifierFeaturesEXT Identifier{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_MODULE_IDENTIFIER_FEATURES_EXT};
  bool WantRayTracingNV = false; ///< --ray-tracing-nv
  bool HasRayTracingNV = false;  ///< VK_NV_ray_tracing listed and enabled
  bool WantRayTracing = false; ///< --ray-tracing
  VkPhysicalDeviceRayTracingPipelineFeaturesKHR RayTracing{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RAY_TRACING_PIPELINE_FEATURES_KHR};

  ~Probe() {
    if (Device)
      vkDestroyDevice(Device, nullptr);
    if (Messenger) {
      auto Destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
          vkGetInstanceProcAddr(Instance, "vkDestroyDebugUtilsMessengerEXT"));
      Destroy(Instance, Messenger, nullptr);
    }
    if (Instance)
      vkDestroyInstance(Instance, nullptr);
  }

  VkResult createInstance() {
    [[maybe_unused]] DriverAllocations G;
    VkApplicationInfo App{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    App.pApplicationName = "fatomic-layer-probe";
    App.apiVersion = ApiVersion;
    VkDebugUtilsMessengerCreateInfoEXT M{
        VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
    M.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT |
                        VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT;
    M.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                    VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT;
    M.pfnUserCallback = onMessage;
    const char *Exts[] = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME,
                          VK_KHR_GET_PHYSICAL_DEVICE_PROPERTIES_2_EXTENSION_NAME};
    VkInstanceCreateInfo CI{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    CI.pApplicationInfo = &App;
    CI.enabledExtensionCount = ApiVersion < VK_API_VERSION_1_1 ? 2 : 1;
    CI.ppEnabledExtensionNames = Exts;
    VkResult R = vkCreateInstance(&CI, nullptr, &Instance);
    if (R != VK_SUCCESS)
      return R;
    auto Create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(Instance, "vkCreateDebugUtilsMessengerEXT"));
    return Create(Instance, &M, nullptr, &Messenger);
  }

  bool pickDevice(uint32_t Index) {
    [[maybe_unused]] DriverAllocations G;
    uint32_t N = 0;
    vkEnumeratePhysicalDevices(Instance, &N, nullptr);
    std::vector<VkPhysicalDevice> All(N);
    vkEnumeratePhysicalDevices(Instance, &N, All.data());
    if (Index >= N)
      return false;
    Phys = All[Index];
    return true;
  }

  /// Prints whether the device lists extension \p Name, and enables it
  /// where it does.
  bool enableListed(const std::vector<VkExtensionProperties> &Exts, const char *Name) {
    bool Listed = false;
    for (const auto &E : Exts)
      Listed |= std::strcmp(E.extensionName, Name) == 0;
    std::printf("%s: %s\n", Name, Listed ? "listed" : "not listed");
    if (Listed)
      DeviceExtensions.push_back(Name);
    return Listed;
  }

  void printFeatures() {
    VkPhysicalDeviceProperties P;
    vkGetPhysicalDeviceProperties(Phys, &P);
    std::printf("device: %s\n", P.deviceName);
    uint32_t N = 0;
    vkEnumerateDeviceExtensionProperties(Phys, nullptr, &N, nullptr);
    std::vector<VkExtensionProperties> Exts(N);
    vkEnumerateDeviceExtensionProperties(Phys, nullptr, &N, Exts.data());
    for (const char *Name : {VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME,
                             VK_EXT_SHADER_ATOMIC_FLOAT_2_EXTENSION_NAME})
      enableListed(Exts, Name);
    for (const auto &E : Exts)
      HasGpl |= !std::strcmp(E.extensionName,
                             VK_EXT_GRAPHICS_PIPELINE_LIBRARY_EXTENSION_NAME);
    if (HasGpl) {
      DeviceExtensions.push_back(VK_KHR_PIPELINE_LIBRARY_EXTENSION_NAME);
      DeviceExtensions.push_back(VK_EXT_GRAPHICS_PIPELINE_LIBRARY_EXTENSION_NAME);
    }
    if (BatchFlags)
      CacheControl.pipelineCreationCacheControl =
          enableListed(Exts, VK_EXT_PIPELINE_CREATION_CACHE_CONTROL_EXTENSION_NAME);
    // maintenance5 needs dynamic rendering, core only from Vulkan 1.3.
    if (Flags2Struct && enableListed(Exts, "VK_KHR_maintenance5")) {
      Maintenance5.maintenance5 = VK_TRUE;
      enableListed(Exts, VK_KHR_DYNAMIC_RENDERING_EXTENSION_NAME);
    }
    bool HasShaderObject = false;
    if (WantShaderObject) {
      const bool Objects = enableListed(Exts, VK_EXT_SHADER_OBJECT_EXTENSION_NAME);
      const bool Rendering = enableListed(Exts, VK_KHR_DYNAMIC_RENDERING_EXTENSION_NAME);
      HasShaderObject = Objects && Rendering;
    }
    bool HasRayTracing = false;
    if (WantRayTracing) {
      HasRayTracing = true;
      for (const char *Name : {VK_KHR_RAY_TRACING_PIPELINE_EXTENSION_NAME,
                               VK_KHR_ACCELERATION_STRUCTURE_EXTENSION_NAME,
                               VK_KHR_DEFERRED_HOST_OPERATIONS_EXTENSION_NAME})
        HasRayTracing &= enableListed(Exts, Name);
    }
    if (WantRayTracingNV)
      HasRayTracingNV = enableListed(Exts, VK_NV_RAY_TRACING_EXTENSION_NAME);
    const bool HasIdentifier =
        WantIdentifier && enableListed(Exts, VK_EXT_SHADER_MODULE_IDENTIFIER_EXTENSION_NAME);
    F1.pNext = &F2;
    F2.pNext = HasShaderObject ? &ShaderObject : nullptr;
    if (HasRayTracing) {
      RayTracing.pNext = F2.pNext;
      F2.pNext = &RayTracing;
    }
    if (HasIdentifier) {
      Identifier.pNext = F2.pNext;
      F2.pNext = &Identifier;
    }
    VkPhysicalDeviceFeatures2 F{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &F1};
    auto GetFeatures2 = reinterpret_cast<PFN_vkGetPhysicalDeviceFeatures2>(
        vkGetInstanceProcAddr(Instance, ApiVersion < VK_API_VERSION_1_1
                                            ? "vkGetPhysicalDeviceFeatures2KHR"
                                            : "vkGetPhysicalDeviceFeatures2"));
    GetFeatures2(Phys, &F);
    // The modules' 64-bit types (f64 atomics, and the lowering's int64).
    Core.shaderFloat64 = F.features.shaderFloat64;
    Core.shaderInt64 = F.features.shaderInt64;
    ShaderObject.pNext = nullptr;
    RayTracing.pNext = nullptr;
    Identifier.pNext = nullptr;
#define P(X) std::printf("  " #X " = %u\n", F2.X)
    P(shaderBufferFloat16AtomicMinMax);
    P(shaderBufferFloat32AtomicMinMax);
    P(shaderBufferFloat64AtomicMinMax);
    P(shaderSharedFloat16AtomicMinMax);
    P(shaderSharedFloat32AtomicMinMax);
    P(shaderSharedFloat64AtomicMinMax);
    P(shaderImageFloat32AtomicMinMax);
#undef P
  }

  VkResult createDevice() {
    [[maybe_unused]] DriverAllocations G;
    float Priority = 1.0f;
    VkDeviceQueueCreateInfo Q{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    Q.queueCount = 1;
    Q.pQueuePriorities = &Priority;
    F1.pNext = &F2;
    F2.pNext = HasGpl ? &Gpl : nullptr;
    Gpl.graphicsPipelineLibrary = HasGpl;
    if (WantShaderObject) {
      ShaderObject.pNext = F2.pNext;
      F2.pNext = &ShaderObject;
    }
    if (WantRayTracing) {
      RayTracing.pNext = F2.pNext;
      F2.pNext = &RayTracing;
    }
    if (Identifier.shaderModuleIdentifier) {
      Identifier.pNext = F2.pNext;
      F2.pNext = &Identifier;
    }
    if (CacheControl.pipelineCreationCacheControl) {
      CacheControl.pNext = F2.pNext;
      F2.pNext = &CacheControl;
    }
    if (Maintenance5.maintenance5) {
      Maintenance5.pNext = F2.pNext;
      F2.pNext = &Maintenance5;
    }
    VkDeviceCreateInfo CI{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &F1};
    CI.pEnabledFeatures = &Core;
    CI.queueCreateInfoCount = 1;
    CI.pQueueCreateInfos = &Q;
    CI.enabledExtensionCount = static_cast<uint32_t>(DeviceExtensions.size());
    CI.ppEnabledExtensionNames = DeviceExtensions.data();
    if (!ReadOnly)
      return vkCreateDevice(Phys, &CI, nullptr, &Device);
    ReadOnlyArena A;
    const VkDeviceCreateInfo *Sealed = sealDeviceChain(A, CI);
    if (!Sealed || !A.seal())
      return VK_ERROR_OUT_OF_HOST_MEMORY;
    return vkCreateDevice(Phys, Sealed, nullptr, &Device);
  }

  /// A copy of \p CI and of the feature structs in its chain in \p A.
  const VkDeviceCreateInfo *sealDeviceChain(ReadOnlyArena &A, const VkDeviceCreateInfo &CI) {
    VkDeviceCreateInfo Copy = CI;
    auto *Prev = reinterpret_cast<VkBaseOutStructure *>(&Copy);
    for (auto *P = static_cast<const VkBaseInStructure *>(CI.pNext); P; P = P->pNext) {
      const void *Node = nullptr;
      if (P->sType == F1.sType)
        Node = A.put(F1);
      else if (P->sType == F2.sType)
        Node = A.put(F2);
      else if (P->sType == Gpl.sType)
        Node = A.put(Gpl);
      else if (P->sType == ShaderObject.sType)
        Node = A.put(ShaderObject);
      else if (P->sType == RayTracing.sType)
        Node = A.put(RayTracing);
      if (!Node)
        return nullptr;
      Prev->pNext = static_cast<VkBaseOutStructure *>(const_cast<void *>(Node));
      Prev = Prev->pNext;
    }
    Prev->pNext = nullptr;
    return A.put(Copy);
  }

  static bool read(const char *Path, std::vector<uint32_t> &Words,
                   size_t &Size) {
    std::ifstream In(Path, std::ios::binary);
    std::string Bytes((std::istreambuf_iterator<char>(In)), {});
    if (!In.good() && !In.eof()) {
      std::printf("%s: cannot read\n", Path);
      return false;
    }
    Words.assign((Bytes.size() + 3) / 4, 0);
    std::memcpy(Words.data(), Bytes.data(), Bytes.size());
    Size = Bytes.size();
    return true;
  }

  /// The module at \p Path in \p Words, and a create info of it in \p CI.
  static bool readModule(const char *Path, std::vector<uint32_t> &Words,
                         VkShaderModuleCreateInfo &CI) {
    size_t Size;
    if (!read(Path, Words, Size))
      return false;
    CI = {VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    CI.codeSize = Size;
    CI.pCode = Words.data();
    return true;
  }

  /// Storage buffers at bindings 0-7 of set 0 for \p Stages.
  struct Layouts {
    VkDevice Device;
    VkDescriptorSetLayout Set = VK_NULL_HANDLE;
    VkPipelineLayout Layout = VK_NULL_HANDLE;
    Layouts(VkDevice Device, VkShaderStageFlags Stages) : Device(Device) {
      VkDescriptorSetLayoutBinding B[8];
      for (uint32_t K = 0; K < 8; ++K)
        B[K] = {K, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, Stages, nullptr};
      VkDescriptorSetLayoutCreateInfo SL{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
      SL.bindingCount = 8;
      SL.pBindings = B;
      vkCreateDescriptorSetLayout(Device, &SL, nullptr, &Set);
      VkPipelineLayoutCreateInfo PL{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
      PL.setLayoutCount = 1;
      PL.pSetLayouts = &Set;
      vkCreatePipelineLayout(Device, &PL, nullptr, &Layout);
    }
    ~Layouts() {
      vkDestroyPipelineLayout(Device, Layout, nullptr);
      vkDestroyDescriptorSetLayout(Device, Set, nullptr);
    }
  };

  bool createPipeline(const char *Path) {
    std::vector<uint32_t> Words;
    VkShaderModuleCreateInfo M;
    if (!readModule(Path, Words, M))
      return false;
    const Layouts L(Device, VK_SHADER_STAGE_COMPUTE_BIT);
    ReadOnlyArena A;
    const void *Chain = ReadOnly ? A.put(M) : &M;
    VkDebugUtilsObjectNameInfoEXT Name{VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT,
                                       Chain, VK_OBJECT_TYPE_SHADER_MODULE, 0, "probe"};
    if (ReadOnly || Threads)
      Chain = ReadOnly ? static_cast<const void *>(A.put(Name)) : &Name;
    UnknownStruct U;
    if (Unknown) {
      U.pNext = Chain;
      Chain = ReadOnly ? static_cast<const void *>(A.put(U)) : &U;
    }
    VkComputePipelineCreateInfo CI{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    CI.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, Chain, 0,
                VK_SHADER_STAGE_COMPUTE_BIT, VK_NULL_HANDLE, "main", nullptr};
    CI.layout = L.Layout;
    const VkComputePipelineCreateInfo *Info = ReadOnly ? A.put(CI) : &CI;
    if (!Info || (ReadOnly && !A.seal()))
      return false;
    if (Threads)
      return createPipelineOnThreads(Path, Info);
    VkPipeline P = VK_NULL_HANDLE;
    VkResult R = vkCreateComputePipelines(Device, VK_NULL_HANDLE, 1, Info, nullptr, &P);
    std::printf("%s: pipeline: %s%s\n", Path, resultName(R),
                R != VK_SUCCESS && P == VK_NULL_HANDLE ? " (no pipeline)" : "");
    if (P)
      vkDestroyPipeline(Device, P, nullptr);
    return R == VK_SUCCESS;
  }

  /// One vkCreateComputePipelines call for a pipeline per module, each
  /// module chained into its stage.  With \p Base >= 0, pipeline Base
  /// allows derivatives and those after it derive from it by
  /// basePipelineIndex.  The handles start non-null, so that the output
  /// shows which ones come back null.
  bool createPipelineBatch(const std::vector<const char *> &Paths, int Base) {
    const size_t N = Paths.size();
    if (!N)
      return true;
    const Layouts L(Device, VK_SHADER_STAGE_COMPUTE_BIT);
    std::vector<std::vector<uint32_t>> Words(N);
    std::vector<VkShaderModuleCreateInfo> Modules(N);
    std::vector<VkComputePipelineCreateInfo> Infos(N, {VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO});
    std::vector<PipelineCreateFlags2> Flags2(N);
    for (size_t K = 0; K < N; ++K) {
      if (!readModule(Paths[K], Words[K], Modules[K]))
        return false;
      Infos[K].stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, &Modules[K], 0,
                        VK_SHADER_STAGE_COMPUTE_BIT, VK_NULL_HANDLE, "main", nullptr};
      Infos[K].layout = L.Layout;
      const bool Derived = Base >= 0 && K > size_t(Base);
      Infos[K].flags = BatchFlags |
                       (K == size_t(Base) ? VK_PIPELINE_CREATE_ALLOW_DERIVATIVES_BIT : 0) |
                       (Derived ? VK_PIPELINE_CREATE_DERIVATIVE_BIT : 0);
      Infos[K].basePipelineIndex = Derived ? Base : -1;
      if (Flags2Struct) {
        // maintenance5: the chained flags are used instead of flags.
        Flags2[K] = {PipelineCreateFlags2Type, nullptr, Infos[K].flags};
        Infos[K].pNext = &Flags2[K];
        Infos[K].flags = 0;
      }
    }
    std::vector<VkPipeline> Pipelines(N);
    for (VkPipeline &P : Pipelines)
      std::memset(&P, 0xff, sizeof P);
    const VkResult R = vkCreateComputePipelines(Device, VK_NULL_HANDLE, uint32_t(N),
                                                Infos.data(), nullptr, Pipelines.data());
    std::printf("pipeline batch: %s\n", resultName(R));
    bool Created = true;
    for (size_t K = 0; K < N; ++K) {
      const bool Null = Pipelines[K] == VK_NULL_HANDLE;
      std::printf("%s: batch pipeline %zu: %s\n", Paths[K], K, Null ? "null" : "created");
      if (!Null)
        vkDestroyPipeline(Device, Pipelines[K], nullptr);
      Created &= !Null;
    }
    return R == VK_SUCCESS && Created;
  }

  /// Creates the pipeline of \p Info on Threads threads at once, 8 times
  /// on each; the create info and its chain are shared, as Vulkan allows.
  bool createPipelineOnThreads(const char *Path, const VkComputePipelineCreateInfo *Info) {
    std::vector<const void *> Before;
    for (auto *P = static_cast<const VkBaseInStructure *>(Info->stage.pNext); P; P = P->pNext)
      Before.push_back(P);
    constexpr unsigned Rounds = 8;
    std::atomic<unsigned> Created{0};
    std::vector<std::thread> Pool;
    for (unsigned T = 0; T < Threads; ++T)
      Pool.emplace_back([&] {
        for (unsigned K = 0; K < Rounds; ++K) {
          VkPipeline P = VK_NULL_HANDLE;
          if (vkCreateComputePipelines(Device, VK_NULL_HANDLE, 1, Info, nullptr, &P) ==
                  VK_SUCCESS &&
              P) {
            ++Created;
            vkDestroyPipeline(Device, P, nullptr);
          }
        }
      });
    for (std::thread &T : Pool)
      T.join();
    std::vector<const void *> After;
    for (auto *P = static_cast<const VkBaseInStructure *>(Info->stage.pNext); P; P = P->pNext)
      After.push_back(P);
    std::printf("%s: pipeline: %u threads: %u of %u created; chain %s\n", Path, Threads,
                Created.load(), Threads * Rounds, Before == After ? "as it was" : "changed");
    return Created == Threads * Rounds && Before == After;
  }

  /// Whether the device gives the two commands that create ray tracing
  /// pipelines.
  void printRayTracingEntry() {
    for (const char *Name : {"vkCreateRayTracingPipelinesKHR", "vkCreateRayTracingPipelinesNV"})
      std::printf("%s: %s\n", Name,
                  vkGetDeviceProcAddr(Device, Name) ? "given" : "not given by the device");
  }

  /// Prints each module's pipeline, destroying those created (a failed
  /// call sets the handles of the pipelines it did not create to null).
  void reportRayTracingPipelines(const std::vector<const char *> &Paths,
                                 const std::vector<VkPipeline> &Pipelines) {
    for (size_t K = 0; K < Paths.size(); ++K) {
      const bool Null = Pipelines[K] == VK_NULL_HANDLE;
      std::printf("%s: ray tracing pipeline: %s\n", Paths[K], Null ? "null" : "created");
      if (!Null)
        vkDestroyPipeline(Device, Pipelines[K], nullptr);
    }
  }

  /// The create infos of one ray generation pipeline per module (KHR or
  /// NV), each module chained into its stage, with one general group; the
  /// handles start non-null, so that the output shows the layer nulling
  /// them.
  template <typename Info> struct RayGenBatch {
    std::vector<std::vector<uint32_t>> Words;
    std::vector<VkShaderModuleCreateInfo> Modules;
    std::vector<VkPipelineShaderStageCreateInfo> Stages;
    std::vector<Info> Infos;
    std::vector<VkPipeline> Pipelines;
  };
  template <typename Info, typename Group>
  static bool makeRayGenBatch(const std::vector<const char *> &Paths, VkStructureType InfoType,
                              const Group &G, VkPipelineLayout Layout, RayGenBatch<Info> &B) {
    const size_t N = Paths.size();
    B.Words.resize(N);
    B.Modules.assign(N, {VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO});
    B.Stages.resize(N);
    B.Infos.assign(N, Info{InfoType});
    for (size_t K = 0; K < N; ++K) {
      size_t Size;
      if (!read(Paths[K], B.Words[K], Size))
        return false;
      B.Modules[K].codeSize = Size;
      B.Modules[K].pCode = B.Words[K].data();
      // VK_SHADER_STAGE_RAYGEN_BIT_NV is the same bit.
      B.Stages[K] = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, &B.Modules[K], 0,
                     VK_SHADER_STAGE_RAYGEN_BIT_KHR, VK_NULL_HANDLE, "main", nullptr};
      B.Infos[K].stageCount = 1;
      B.Infos[K].pStages = &B.Stages[K];
      B.Infos[K].groupCount = 1;
      B.Infos[K].pGroups = &G;
      B.Infos[K].layout = Layout;
    }
    B.Pipelines.resize(N);
    for (VkPipeline &P : B.Pipelines)
      std::memset(&P, 0xff, sizeof P);
    return true;
  }

  /// One vkCreateRayTracingPipelinesNV call for a pipeline per module, each
  /// module chained into its ray generation stage.
  bool createRayTracingPipelinesNV(const std::vector<const char *> &Paths) {
    if (Paths.empty())
      return true; // the device's support alone (a count of 0 is invalid)
    auto Create = reinterpret_cast<PFN_vkCreateRayTracingPipelinesNV>(
        vkGetDeviceProcAddr(Device, "vkCreateRayTracingPipelinesNV"));
    if (!Create)
      return false;
    const Layouts L(Device, VK_SHADER_STAGE_RAYGEN_BIT_NV);
    const VkRayTracingShaderGroupCreateInfoNV Group{
        VK_STRUCTURE_TYPE_RAY_TRACING_SHADER_GROUP_CREATE_INFO_NV, nullptr,
        VK_RAY_TRACING_SHADER_GROUP_TYPE_GENERAL_NV, 0, VK_SHADER_UNUSED_NV,
        VK_SHADER_UNUSED_NV, VK_SHADER_UNUSED_NV};
    RayGenBatch<VkRayTracingPipelineCreateInfoNV> B;
    if (!makeRayGenBatch(Paths, VK_STRUCTURE_TYPE_RAY_TRACING_PIPELINE_CREATE_INFO_NV, Group,
                         L.Layout, B))
      return false;
    for (VkRayTracingPipelineCreateInfoNV &I : B.Infos)
      I.maxRecursionDepth = 1;
    const VkResult R = Create(Device, VK_NULL_HANDLE, static_cast<uint32_t>(Paths.size()),
                              B.Infos.data(), nullptr, B.Pipelines.data());
    std::printf("vkCreateRayTracingPipelinesNV: %s\n", resultName(R));
    reportRayTracingPipelines(Paths, B.Pipelines);
    return R == VK_SUCCESS;
  }

  /// One vkCreateRayTracingPipelinesKHR call, with a deferred operation, for
  /// a pipeline per module: all are created, or none (each handle null).
  bool createRayTracingPipelines(const std::vector<const char *> &Paths) {
    auto Get = [&](const char *Name) { return vkGetDeviceProcAddr(Device, Name); };
    auto Create = reinterpret_cast<PFN_vkCreateRayTracingPipelinesKHR>(
        Get("vkCreateRayTracingPipelinesKHR"));
    auto CreateOp = reinterpret_cast<PFN_vkCreateDeferredOperationKHR>(
        Get("vkCreateDeferredOperationKHR"));
    auto DestroyOp = reinterpret_cast<PFN_vkDestroyDeferredOperationKHR>(
        Get("vkDestroyDeferredOperationKHR"));
    auto Join = reinterpret_cast<PFN_vkDeferredOperationJoinKHR>(
        Get("vkDeferredOperationJoinKHR"));
    auto Result = reinterpret_cast<PFN_vkGetDeferredOperationResultKHR>(
        Get("vkGetDeferredOperationResultKHR"));
    if (!Create || !CreateOp || !DestroyOp || !Join || !Result)
      return false;
    const Layouts L(Device, VK_SHADER_STAGE_RAYGEN_BIT_KHR);
    const VkRayTracingShaderGroupCreateInfoKHR Group = fatomic::vk::generalShaderGroup(0);
    RayGenBatch<VkRayTracingPipelineCreateInfoKHR> B;
    if (!makeRayGenBatch(Paths, VK_STRUCTURE_TYPE_RAY_TRACING_PIPELINE_CREATE_INFO_KHR, Group,
                         L.Layout, B))
      return false;
    for (VkRayTracingPipelineCreateInfoKHR &I : B.Infos)
      I.maxPipelineRayRecursionDepth = 1;
    VkDeferredOperationKHR Op;
    if (CreateOp(Device, nullptr, &Op) != VK_SUCCESS)
      return false;
    VkResult R = Create(Device, Op, VK_NULL_HANDLE, static_cast<uint32_t>(Paths.size()),
                        B.Infos.data(), nullptr, B.Pipelines.data());
    std::printf("vkCreateRayTracingPipelinesKHR: %s", resultName(R));
    if (R == VK_OPERATION_DEFERRED_KHR) {
      while (Join(Device, Op) == VK_THREAD_IDLE_KHR) {
      }
      while ((R = Result(Device, Op)) == VK_NOT_READY) {
      }
      std::printf(", then %s", resultName(R));
    }
    std::printf("\n");
    DestroyOp(Device, Op, nullptr);
    const bool Created = R == VK_SUCCESS || R == VK_OPERATION_NOT_DEFERRED_KHR;
    reportRayTracingPipelines(Paths, B.Pipelines);
    return Created;
  }

  /// One vkCreateShadersEXT call for every module; every handle comes back
  /// null or valid, and those created are destroyed.
  bool createShaderObjects(const std::vector<const char *> &Paths) {
    auto Create = reinterpret_cast<PFN_vkCreateShadersEXT>(
        vkGetDeviceProcAddr(Device, "vkCreateShadersEXT"));
    auto Destroy = reinterpret_cast<PFN_vkDestroyShaderEXT>(
        vkGetDeviceProcAddr(Device, "vkDestroyShaderEXT"));
    if (!Create || !Destroy) {
      std::printf("vkCreateShadersEXT: not given by the device\n");
      return false;
    }
    std::vector<std::vector<uint32_t>> Words(Paths.size());
    std::vector<VkShaderCreateInfoEXT> Infos(Paths.size(),
                                             {VK_STRUCTURE_TYPE_SHADER_CREATE_INFO_EXT});
    for (size_t K = 0; K < Paths.size(); ++K) {
      size_t Size;
      if (!read(Paths[K], Words[K], Size))
        return false;
      Infos[K].stage = VK_SHADER_STAGE_COMPUTE_BIT;
      Infos[K].codeType = VK_SHADER_CODE_TYPE_SPIRV_EXT;
      Infos[K].codeSize = Size;
      Infos[K].pCode = Words[K].data();
      Infos[K].pName = "main";
    }
    // Non-null, so that the output shows the layer nulling them.
    std::vector<VkShaderEXT> Shaders(Paths.size());
    for (VkShaderEXT &S : Shaders)
      std::memset(&S, 0xff, sizeof S);
    const VkResult R = Create(Device, static_cast<uint32_t>(Infos.size()), Infos.data(),
                              nullptr, Shaders.data());
    std::printf("vkCreateShadersEXT: %s\n", resultName(R));
    for (size_t K = 0; K < Paths.size(); ++K) {
      const bool Null = Shaders[K] == VK_NULL_HANDLE;
      std::printf("%s: shader object: %s\n", Paths[K], Null ? "null" : "created");
      if (!Null)
        Destroy(Device, Shaders[K], nullptr);
    }
    return R == VK_SUCCESS;
  }

  /// For each module: the identifier of its create info
  /// (vkGetShaderModuleCreateInfoIdentifierEXT) against that of the module
  /// created from it (vkGetShaderModuleIdentifierEXT).
  bool compareIdentifiers(const std::vector<const char *> &Paths) {
    auto OfInfo = reinterpret_cast<PFN_vkGetShaderModuleCreateInfoIdentifierEXT>(
        vkGetDeviceProcAddr(Device, "vkGetShaderModuleCreateInfoIdentifierEXT"));
    auto OfModule = reinterpret_cast<PFN_vkGetShaderModuleIdentifierEXT>(
        vkGetDeviceProcAddr(Device, "vkGetShaderModuleIdentifierEXT"));
    if (!OfInfo || !OfModule)
      return false;
    bool Equal = true;
    for (const char *Path : Paths) {
      std::vector<uint32_t> Words;
      VkShaderModuleCreateInfo CI;
      if (!readModule(Path, Words, CI))
        return false;
      VkShaderModuleIdentifierEXT A{VK_STRUCTURE_TYPE_SHADER_MODULE_IDENTIFIER_EXT};
      VkShaderModuleIdentifierEXT B{VK_STRUCTURE_TYPE_SHADER_MODULE_IDENTIFIER_EXT};
      OfInfo(Device, &CI, &A);
      VkShaderModule M = VK_NULL_HANDLE;
      if (vkCreateShaderModule(Device, &CI, nullptr, &M) != VK_SUCCESS)
        return false;
      OfModule(Device, M, &B);
      vkDestroyShaderModule(Device, M, nullptr);
      const bool Same = A.identifierSize && A.identifierSize == B.identifierSize &&
                        !std::memcmp(A.identifier, B.identifier, A.identifierSize);
      std::printf("%s: identifiers of the create info and the module: %s (%u bytes)\n",
                  Path, Same ? "equal" : "different", A.identifierSize);
      Equal &= Same;
    }
    return Equal;
  }

  bool createModule(const char *Path) {
    std::vector<uint32_t> Words;
    VkShaderModuleCreateInfo CI;
    if (!readModule(Path, Words, CI))
      return false;
    VkShaderModule M = VK_NULL_HANDLE;
    VkResult R = vkCreateShaderModule(Device, &CI, nullptr, &M);
    std::printf("%s: %s%s\n", Path, resultName(R),
                R != VK_SUCCESS && M == VK_NULL_HANDLE ? " (no module)" : "");
    if (M)
      vkDestroyShaderModule(Device, M, nullptr);
    return R == VK_SUCCESS;
  }
};
} // namespace

int main(int Argc, char **Argv) {
  uint32_t Index = 0;
  bool Pipelines = false, ShaderObjects = false, RayTracing = false, RayTracingNV = false;
  bool Batch = false, Identifiers = false;
  int Base = -1;
  std::string Api = "1.2";
  std::vector<const char *> Modules;
  Probe P;
  for (int K = 1; K < Argc; ++K) {
    if (!std::strcmp(Argv[K], "--device") && K + 1 < Argc)
      Index = static_cast<uint32_t>(std::atoi(Argv[++K]));
    else if (!std::strcmp(Argv[K], "--pipeline"))
      Pipelines = true;
    else if (!std::strcmp(Argv[K], "--pipeline-batch"))
      Batch = true;
    else if (!std::strcmp(Argv[K], "--identifier"))
      Identifiers = true;
    else if (!std::strcmp(Argv[K], "--derive-from") && K + 1 < Argc)
      Base = std::atoi(Argv[++K]);
    else if (!std::strcmp(Argv[K], "--early-return"))
      P.BatchFlags = VK_PIPELINE_CREATE_EARLY_RETURN_ON_FAILURE_BIT;
    else if (!std::strcmp(Argv[K], "--flags2"))
      P.Flags2Struct = true;
    else if (!std::strcmp(Argv[K], "--shader-object"))
      ShaderObjects = true;
    else if (!std::strcmp(Argv[K], "--ray-tracing"))
      RayTracing = true;
    else if (!std::strcmp(Argv[K], "--ray-tracing-nv"))
      RayTracingNV = true;
    else if (!std::strcmp(Argv[K], "--api") && K + 1 < Argc)
      Api = Argv[++K];
    else if (!std::strcmp(Argv[K], "--read-only"))
      P.ReadOnly = true;
    else if (!std::strcmp(Argv[K], "--unknown-struct"))
      P.Unknown = true;
    else if (!std::strcmp(Argv[K], "--threads") && K + 1 < Argc)
      P.Threads = static_cast<unsigned>(std::atoi(Argv[++K]));
    else if (Argv[K][0] == '-' ||
             Pipelines + Batch + Identifiers + ShaderObjects + RayTracing + RayTracingNV >
                 1) {
      std::fprintf(stderr, "usage: fatomic-layer-probe [--device N] [--api 1.0|1.1|1.2] "
                           "[--read-only] [--threads N] [--unknown-struct] "
                           "[--pipeline | --pipeline-batch [--derive-from K] [--early-return] [--flags2] | "
                           "--identifier | --shader-object | --ray-tracing | --ray-tracing-nv] "
                           "[MODULE.spv...]\n");
      return 1;
    } else
      Modules.push_back(Argv[K]);
  }
  if (Api != "1.0" && Api != "1.1" && Api != "1.2") {
    std::fprintf(stderr, "fatomic-layer-probe: --api takes 1.0, 1.1 or 1.2\n");
    return 1;
  }
  P.ApiVersion = Api == "1.0"   ? VK_API_VERSION_1_0
                 : Api == "1.1" ? VK_API_VERSION_1_1
                                : VK_API_VERSION_1_2;
  if (VkResult R = P.createInstance(); R != VK_SUCCESS) {
    std::printf("vkCreateInstance: %s\n", resultName(R));
    return 2;
  }
  if (!P.pickDevice(Index)) {
    std::printf("no Vulkan device %u\n", Index);
    return 2;
  }
  P.WantShaderObject = ShaderObjects;
  P.WantRayTracing = RayTracing;
  P.WantRayTracingNV = RayTracingNV;
  P.WantIdentifier = Identifiers;
  P.printFeatures();
  if (Identifiers && !P.Identifier.shaderModuleIdentifier) {
    std::printf("shader module identifiers: not supported by the device\n");
    return 2;
  }
  if (ShaderObjects && !P.ShaderObject.shaderObject) {
    std::printf("shader objects: not supported by the device\n");
    return 2;
  }
  if (RayTracing && !P.RayTracing.rayTracingPipeline) {
    std::printf("ray tracing pipelines: not supported by the device\n");
    return 2;
  }
  if (RayTracingNV && !P.HasRayTracingNV) {
    std::printf("NV ray tracing pipelines: not supported by the device\n");
    return 2;
  }
  if (VkResult R = P.createDevice(); R != VK_SUCCESS) {
    std::printf("vkCreateDevice: %s\n", resultName(R));
    return 2;
  }
  P.printRayTracingEntry();
  if (ShaderObjects)
    return P.createShaderObjects(Modules) ? 0 : 1;
  if (RayTracing)
    return P.createRayTracingPipelines(Modules) ? 0 : 1;
  if (RayTracingNV)
    return P.createRayTracingPipelinesNV(Modules) ? 0 : 1;
  if (Batch)
    return P.createPipelineBatch(Modules, Base) ? 0 : 1;
  if (Identifiers)
    return P.compareIdentifiers(Modules) ? 0 : 1;
  bool Ok = true;
  for (const char *M : Modules) {
    Ok &= P.createModule(M);
    if (Pipelines)
      Ok &= P.createPipeline(M);
  }
  return Ok ? 0 : 1;
}
