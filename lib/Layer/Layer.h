//===- Layer.h - VK_LAYER_FATOMIC_float_atomic_minmax: shared state -------===//
//
// The state that the layer's files share: per-instance and per-device
// dispatch (the next layer's entry points), what each physical device
// really supports, what a device must have lowered, the settings read from
// the environment, and the functions each file exports to the others.
//
//   Dispatch.cpp  loader interface, instance and device creation and
//                 destruction, vkGet*ProcAddr
//   Features.cpp  reported features and extensions, the device create
//                 info handed to the driver
//   Shaders.cpp   every path a SPIR-V module reaches the driver by
//   Settings.cpp  FATOMIC_LAYER_* variables and messages to the application
//
// Every entry point that allocates or lowers runs its body through
// guarded(): a C++ exception (std::bad_alloc first of all) never crosses
// into the application, which called a C function.
//
//===----------------------------------------------------------------------===//
#ifndef FATOMIC_LAYER_LAYER_H
#define FATOMIC_LAYER_LAYER_H

#include "fatomic/Options.h"
#include "fatomic/Target.h"

#include <vulkan/vk_layer.h>
#include <vulkan/vulkan.h>

#include "ShaderObjectApi.h"

#include <cstdint>
#include <exception>
#include <map>
#include <mutex>
#include <new>
#include <string>
#include <vector>

#define FATOMIC_LAYER_NAME "VK_LAYER_FATOMIC_float_atomic_minmax"

namespace fatomic::layer {

/// What the layer reads from the environment once per process.
struct Settings {
  LoweringOptions Options;     ///< writers=any, then FATOMIC_LAYER_OPTIONS
  bool Force = false;          ///< FATOMIC_LAYER_FORCE=1
  std::string DumpDir;         ///< FATOMIC_LAYER_DUMP_DIR (tests)
  std::string Error;           ///< why the settings are unusable, or empty
};
const Settings &settings();

/// What the driver below really has, per physical device.
struct PhysicalInfo {
  bool HasFloat1 = false; ///< VK_EXT_shader_atomic_float
  bool HasFloat2 = false; ///< VK_EXT_shader_atomic_float2
  bool HasInt64Atomics = false; ///< VK_KHR_shader_atomic_int64 listed
  VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT Float2{};
  bool BufferInt64Atomics = false, SharedInt64Atomics = false;
  bool ShaderInt64 = false;
  /// The target model of this device: native = what the driver has, less
  /// what FATOMIC_LAYER_FORCE hides.
  TargetModel Target;
};

struct InstanceData {
  VkInstance Instance = VK_NULL_HANDLE;
  PFN_vkGetInstanceProcAddr NextGipa = nullptr;
  PFN_vkDestroyInstance DestroyInstance = nullptr;
  /// The instance's Vulkan version (VkApplicationInfo::apiVersion, 1.0
  /// where not given): a device's effective version is the lower of this
  /// and its own.
  uint32_t ApiVersion = VK_API_VERSION_1_0;
  /// vkGetPhysicalDeviceFeatures2 / Properties2, or their KHR names on a
  /// Vulkan 1.0 instance that enables VK_KHR_get_physical_device_properties2;
  /// null on a 1.0 instance without it.
  PFN_vkGetPhysicalDeviceFeatures2 GetFeatures2 = nullptr;
  PFN_vkGetPhysicalDeviceProperties2 GetProperties2 = nullptr;
  PFN_vkEnumerateDeviceExtensionProperties EnumerateDeviceExtensions = nullptr;
  PFN_vkCreateDevice CreateDevice = nullptr;
  PFN_vkSubmitDebugUtilsMessageEXT SubmitDebugMessage = nullptr;
  std::mutex Lock; ///< guards Physical
  std::map<VkPhysicalDevice, PhysicalInfo> Physical;
};

/// What one device must have lowered, and the next layer's entry points.
struct DeviceData {
  VkDevice Device = VK_NULL_HANDLE;
  InstanceData *Instance = nullptr;
  PFN_vkGetDeviceProcAddr NextGdpa = nullptr;
  PFN_vkDestroyDevice DestroyDevice = nullptr;
  PFN_vkCreateShaderModule CreateShaderModule = nullptr;
  PFN_vkCreateComputePipelines CreateComputePipelines = nullptr;
  PFN_vkCreateGraphicsPipelines CreateGraphicsPipelines = nullptr;
  PFN_vkCreateShadersEXT CreateShadersEXT = nullptr;
  PFN_vkCreateRayTracingPipelinesKHR CreateRayTracingPipelinesKHR = nullptr;
  PFN_vkCreateRayTracingPipelinesNV CreateRayTracingPipelinesNV = nullptr;
  PFN_vkGetShaderModuleCreateInfoIdentifierEXT GetShaderModuleCreateInfoIdentifierEXT =
      nullptr;
  TargetModel Target;
};

/// The dispatch key of a dispatchable handle (what the loader shares
/// between an instance and its physical devices, a device and its queues).
template <typename T> void *dispatchKey(T Handle) {
  return *reinterpret_cast<void **>(Handle);
}

InstanceData *findInstance(void *Key);
DeviceData *findDevice(void *Key);
/// The driver's features and extensions for \p Phys, queried once.
const PhysicalInfo &physicalInfo(InstanceData &I, VkPhysicalDevice Phys);

// Features.cpp
VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceFeatures2(
    VkPhysicalDevice Phys, VkPhysicalDeviceFeatures2 *Features);
VKAPI_ATTR VkResult VKAPI_CALL EnumerateDeviceExtensionProperties(
    VkPhysicalDevice Phys, const char *LayerName, uint32_t *Count,
    VkExtensionProperties *Props);
/// Calls \p Next with the create info edited for the driver (see the file);
/// \p ExtendedTypes: whether the application enables
/// shaderSubgroupExtendedTypes, read under the same chain guard.
VkResult createDeviceBelow(InstanceData &I, VkPhysicalDevice Phys,
                           const VkDeviceCreateInfo *Info,
                           const VkAllocationCallbacks *Alloc, VkDevice *Device,
                           PFN_vkCreateDevice Next, bool &ExtendedTypes);
/// Reads the real features of \p Phys into \p Info.
void queryPhysicalInfo(InstanceData &I, VkPhysicalDevice Phys,
                       PhysicalInfo &Info);

// Shaders.cpp
VKAPI_ATTR VkResult VKAPI_CALL CreateShaderModule(
    VkDevice Device, const VkShaderModuleCreateInfo *Info,
    const VkAllocationCallbacks *Alloc, VkShaderModule *Module);
VKAPI_ATTR VkResult VKAPI_CALL CreateComputePipelines(
    VkDevice Device, VkPipelineCache Cache, uint32_t Count,
    const VkComputePipelineCreateInfo *Infos,
    const VkAllocationCallbacks *Alloc, VkPipeline *Pipelines);
VKAPI_ATTR VkResult VKAPI_CALL CreateGraphicsPipelines(
    VkDevice Device, VkPipelineCache Cache, uint32_t Count,
    const VkGraphicsPipelineCreateInfo *Infos,
    const VkAllocationCallbacks *Alloc, VkPipeline *Pipelines);
VKAPI_ATTR VkResult VKAPI_CALL CreateRayTracingPipelinesKHR(
    VkDevice Device, VkDeferredOperationKHR Deferred, VkPipelineCache Cache,
    uint32_t Count, const VkRayTracingPipelineCreateInfoKHR *Infos,
    const VkAllocationCallbacks *Alloc, VkPipeline *Pipelines);
VKAPI_ATTR VkResult VKAPI_CALL CreateRayTracingPipelinesNV(
    VkDevice Device, VkPipelineCache Cache, uint32_t Count,
    const VkRayTracingPipelineCreateInfoNV *Infos,
    const VkAllocationCallbacks *Alloc, VkPipeline *Pipelines);
VKAPI_ATTR VkResult VKAPI_CALL CreateShadersEXT(
    VkDevice Device, uint32_t Count, const VkShaderCreateInfoEXT *Infos,
    const VkAllocationCallbacks *Alloc, VkShaderEXT *Shaders);
VKAPI_ATTR void VKAPI_CALL GetShaderModuleCreateInfoIdentifierEXT(
    VkDevice Device, const VkShaderModuleCreateInfo *Info,
    VkShaderModuleIdentifierEXT *Identifier);

// Settings.cpp
/// One error: on stderr, and through VK_EXT_debug_utils when the
/// application enabled it on \p I (may be null).
void reportError(InstanceData *I, const std::string &Message);
/// The same without allocating, for a message built in place.
void reportError(InstanceData *I, const char *Message) noexcept;

/// What the body of an entry point threw (guarded()).
enum class Thrown { OutOfMemory, Other };

/// Reports, without allocating, that the body of entry point \p What threw:
/// \p Detail is the exception's what(), null for std::bad_alloc.
void reportThrown(InstanceData *I, const char *What, const char *Detail) noexcept;

/// The result of an entry point whose body threw \p T:
/// VK_ERROR_OUT_OF_HOST_MEMORY for std::bad_alloc, else \p Other (the
/// command's VK_ERROR_INITIALIZATION_FAILED where it has that code,
/// VK_ERROR_UNKNOWN, which any command may return, elsewhere).
inline VkResult failedWith(Thrown T, VkResult Other) {
  return T == Thrown::OutOfMemory ? VK_ERROR_OUT_OF_HOST_MEMORY : Other;
}

/// Runs \p Body, the body of the Vulkan command \p What, so that no C++
/// exception leaves the layer.  Where it throws, the error is reported
/// (reportThrown, through debug utils where \p I is given) and the
/// command answers \p Fallback(Thrown) instead: its VkResult, after
/// nulling the handles it hands back, or for a void command the next
/// layer's answer.  A fallback neither allocates nor throws.  A body must
/// not throw once it has created an object below (Dispatch.cpp's record()
/// destroys an instance or device it cannot record).  The instance-level
/// commands (vkCreateDevice, the physical-device queries) give no \p I: the
/// loader may call them with its lock held
/// (vkCreateDevice; other layers' queries inside vkEnumeratePhysicalDevices),
/// and its vkSubmitDebugUtilsMessageEXT waits for that lock.
template <typename BodyFn, typename FallbackFn>
auto guarded(const char *What, InstanceData *I, BodyFn &&Body,
             FallbackFn &&Fallback) noexcept -> decltype(Body()) {
  try {
    return Body();
  } catch (const std::bad_alloc &) {
    reportThrown(I, What, nullptr);
    return Fallback(Thrown::OutOfMemory);
  } catch (const std::exception &E) {
    reportThrown(I, What, E.what());
    return Fallback(Thrown::Other);
  } catch (...) {
    reportThrown(I, What, "an exception of unknown type");
    return Fallback(Thrown::Other);
  }
}

} // namespace fatomic::layer

#endif // FATOMIC_LAYER_LAYER_H
