//===- VulkanContext.h - Vulkan set-up shared by the project's tools ------===//
//
// What fatomic-vkrun and fatomic-gpubench both need before they run a
// compute shader: the instance, the chosen physical device (its properties,
// driver, memory types and a compute queue, preferring one with timestamps),
// the logical device, and host-visible or device-local buffers.  The tools
// add what differs (the features they query and enable) on top.
//
// Errors are thrown as vk::Failure with the process exit code to use.
//
//===----------------------------------------------------------------------===//
#ifndef FATOMIC_TOOLS_VULKANCONTEXT_H
#define FATOMIC_TOOLS_VULKANCONTEXT_H

#include <vulkan/vulkan.h>

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace fatomic::vk {

/// Exit codes common to the tools (a tool may add its own above these).
enum ExitCode { ExitOk = 0, ExitUsage = 1, ExitVulkan = 2 };

struct Failure : std::runtime_error {
  int Code;
  Failure(int Code, const std::string &Msg)
      : std::runtime_error(Msg), Code(Code) {}
};

[[noreturn]] void fail(int Code, const std::string &Msg);

/// "VK_ERROR_DEVICE_LOST" and so on.
const char *resultName(VkResult R);
/// Throws ExitVulkan naming \p What and the result unless it is VK_SUCCESS.
void check(VkResult R, const char *What);
#define VK_CHECK(Call) ::fatomic::vk::check((Call), #Call)

/// Exempts from LeakSanitizer what the Vulkan loader and driver allocate on
/// this thread while the guard lives (no effect without ASan).  Mesa's
/// lavapipe leaks a block from a pthread_once inside
/// vkEnumeratePhysicalDevices, in a library unloaded by the time
/// LeakSanitizer reports, so no suppression can name it.  Wrap only calls
/// into the loader and driver: fatomic's own allocations stay checked
/// (test/sanitize/fatomic-leak-probe.cpp shows both).
class DriverAllocations {
public:
  DriverAllocations();
  ~DriverAllocations();
  DriverAllocations(const DriverAllocations &) = delete;
  DriverAllocations &operator=(const DriverAllocations &) = delete;
};

const char *deviceTypeName(VkPhysicalDeviceType T);
std::string versionString(uint32_t Version);
/// "; VK_ICD_FILENAMES=..." for the loader variables that are set.
std::string icdHint();

class Context {
public:
  VkInstance Instance = VK_NULL_HANDLE;
  VkPhysicalDevice Phys = VK_NULL_HANDLE;
  VkDevice Device = VK_NULL_HANDLE;
  VkQueue Queue = VK_NULL_HANDLE;
  uint32_t QueueFamily = 0;
  uint32_t TimestampBits = 0;
  VkPhysicalDeviceProperties Props{};
  VkPhysicalDeviceMemoryProperties MemProps{};
  std::string DriverName, DriverInfo;

  Context() = default;
  Context(const Context &) = delete;
  Context &operator=(const Context &) = delete;
  ~Context();

  /// A Vulkan 1.2 (or newer, up to 1.3) instance named \p AppName.
  void createInstance(const char *AppName);
  std::vector<VkPhysicalDevice> devices();
  /// Prints "N: name [type], Vulkan x.y.z" per device.
  void listDevices();
  /// Device \p Index, or else the first Vulkan 1.2 device by type: discrete,
  /// integrated, virtual, CPU.  Fills the properties and the compute queue.
  void pickDevice(std::optional<uint32_t> Index);
  /// Creates the logical device with one queue of QueueFamily, the feature
  /// chain \p Features (a VkPhysicalDeviceFeatures2) and \p Extensions.
  void createDevice(const void *Features, const std::vector<const char *> &Extensions);
  std::string deviceLine() const;
  /// A memory type among \p Bits with all of \p Want, else all of \p Fallback.
  uint32_t memoryType(uint32_t Bits, VkMemoryPropertyFlags Want,
                      VkMemoryPropertyFlags Fallback) const;
  /// A pool for the two timestamps of recordTimedDispatch, or VK_NULL_HANDLE
  /// where the queue has no timestamps.
  VkQueryPool createTimestampPool() const;
  /// Milliseconds between the two timestamps in \p Queries (waits for them).
  double elapsedMs(VkQueryPool Queries) const;
};

/// Records the dispatch that both tools time: a barrier from the transfers
/// that filled the buffers to the shader, the pipeline and descriptor set,
/// the dispatch of \p X x \p Y x \p Z groups between two BOTTOM_OF_PIPE
/// timestamps (where \p Queries is not null: the first is written once the
/// copies before it are done, the second once the dispatch is), and a
/// barrier from the shader's writes to the transfers that read them back.
/// A null \p Pipeline binds none: the caller has bound a compute shader
/// object (VK_EXT_shader_object).
void recordTimedDispatch(VkCommandBuffer Cmd, VkPipeline Pipeline,
                         VkPipelineLayout Layout, VkDescriptorSet Set,
                         VkQueryPool Queries, uint32_t X, uint32_t Y, uint32_t Z);
/// A barrier from the read-back transfers to the host's reads.
void recordHostReadBarrier(VkCommandBuffer Cmd);
/// Whether \p Exts (a device's or an instance's) lists \p Name.
bool hasExtension(const std::vector<VkExtensionProperties> &Exts, const char *Name);
/// One global memory barrier: \p Src accesses in \p SrcStage before \p Dst
/// accesses in \p DstStage.
void memoryBarrier(VkCommandBuffer Cmd, VkAccessFlags Src, VkAccessFlags Dst,
                   VkPipelineStageFlags SrcStage, VkPipelineStageFlags DstStage);
/// The ray tracing shader group of one general shader (ray generation,
/// miss or callable) at index \p Stage of the pipeline's stages.
VkRayTracingShaderGroupCreateInfoKHR generalShaderGroup(uint32_t Stage);

/// A buffer with its own memory: host-visible (coherent, cached where
/// possible, and mapped) or device-local.
struct Buffer {
  VkDevice Device = VK_NULL_HANDLE;
  VkBuffer Handle = VK_NULL_HANDLE;
  VkDeviceMemory Memory = VK_NULL_HANDLE;
  VkDeviceSize Size = 0;
  void *Mapped = nullptr;

  Buffer() = default;
  Buffer(const Buffer &) = delete;
  Buffer &operator=(const Buffer &) = delete;
  ~Buffer();

  void create(const Context &C, VkDeviceSize Bytes, VkBufferUsageFlags Usage,
              bool HostVisible, bool DeviceAddress = false);
};

} // namespace fatomic::vk

#endif
