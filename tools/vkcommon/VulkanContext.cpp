//===- VulkanContext.cpp - Vulkan set-up shared by the project's tools ----===//

#include "VulkanContext.h"

#include <cstring>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FATOMIC_HAVE_LSAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define FATOMIC_HAVE_LSAN 1
#endif
#ifdef FATOMIC_HAVE_LSAN
#include <sanitizer/lsan_interface.h>
#endif

namespace fatomic::vk {

DriverAllocations::DriverAllocations() {
#ifdef FATOMIC_HAVE_LSAN
  __lsan_disable();
#endif
}

DriverAllocations::~DriverAllocations() {
#ifdef FATOMIC_HAVE_LSAN
  __lsan_enable();
#endif
}

void fail(int Code, const std::string &Msg) { throw Failure(Code, Msg); }

const char *resultName(VkResult R) {
  switch (R) {
#define CASE(X)                                                                \
  case X:                                                                      \
    return #X;
    CASE(VK_SUCCESS)
    CASE(VK_NOT_READY)
    CASE(VK_TIMEOUT)
    CASE(VK_EVENT_SET)
    CASE(VK_EVENT_RESET)
    CASE(VK_INCOMPLETE)
    CASE(VK_ERROR_OUT_OF_HOST_MEMORY)
    CASE(VK_ERROR_OUT_OF_DEVICE_MEMORY)
    CASE(VK_ERROR_INITIALIZATION_FAILED)
    CASE(VK_ERROR_DEVICE_LOST)
    CASE(VK_ERROR_MEMORY_MAP_FAILED)
    CASE(VK_ERROR_LAYER_NOT_PRESENT)
    CASE(VK_ERROR_EXTENSION_NOT_PRESENT)
    CASE(VK_ERROR_FEATURE_NOT_PRESENT)
    CASE(VK_ERROR_INCOMPATIBLE_DRIVER)
    CASE(VK_ERROR_TOO_MANY_OBJECTS)
    CASE(VK_ERROR_FORMAT_NOT_SUPPORTED)
    CASE(VK_ERROR_FRAGMENTED_POOL)
    CASE(VK_ERROR_UNKNOWN)
    CASE(VK_ERROR_OUT_OF_POOL_MEMORY)
    CASE(VK_ERROR_INVALID_EXTERNAL_HANDLE)
    CASE(VK_ERROR_FRAGMENTATION)
    CASE(VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS)
    CASE(VK_ERROR_INVALID_SHADER_NV)
    CASE(VK_PIPELINE_COMPILE_REQUIRED)
    CASE(VK_THREAD_IDLE_KHR)
    CASE(VK_THREAD_DONE_KHR)
    CASE(VK_OPERATION_DEFERRED_KHR)
    CASE(VK_OPERATION_NOT_DEFERRED_KHR)
#undef CASE
  default:
    return "VkResult(unknown)";
  }
}

void check(VkResult R, const char *What) {
  if (R != VK_SUCCESS)
    fail(ExitVulkan, std::string(What) + " failed: " + resultName(R) + " (" +
                         std::to_string(static_cast<int>(R)) + ")");
}

const char *deviceTypeName(VkPhysicalDeviceType T) {
  switch (T) {
  case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
    return "discrete GPU";
  case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
    return "integrated GPU";
  case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
    return "virtual GPU";
  case VK_PHYSICAL_DEVICE_TYPE_CPU:
    return "CPU";
  default:
    return "other";
  }
}

std::string versionString(uint32_t V) {
  return std::to_string(VK_API_VERSION_MAJOR(V)) + "." +
         std::to_string(VK_API_VERSION_MINOR(V)) + "." +
         std::to_string(VK_API_VERSION_PATCH(V));
}

std::string icdHint() {
  std::string H;
  for (const char *Var : {"VK_ICD_FILENAMES", "VK_DRIVER_FILES"})
    if (const char *V = std::getenv(Var))
      H += std::string("; ") + Var + "=" + V;
  return H;
}

Context::~Context() {
  if (Device)
    vkDestroyDevice(Device, nullptr);
  if (Instance)
    vkDestroyInstance(Instance, nullptr);
}

void Context::createInstance(const char *AppName) {
  uint32_t LoaderVersion = VK_API_VERSION_1_0;
  auto EnumVersion = reinterpret_cast<PFN_vkEnumerateInstanceVersion>(
      vkGetInstanceProcAddr(nullptr, "vkEnumerateInstanceVersion"));
  if (EnumVersion)
    VK_CHECK(EnumVersion(&LoaderVersion));
  if (LoaderVersion < VK_API_VERSION_1_2)
    fail(ExitVulkan, "the Vulkan loader supports only " +
                         versionString(LoaderVersion) + "; 1.2 is needed");
  VkApplicationInfo App{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  App.pApplicationName = AppName;
  App.apiVersion = std::min<uint32_t>(LoaderVersion, VK_API_VERSION_1_3);
  VkInstanceCreateInfo CI{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  CI.pApplicationInfo = &App;
  VkResult R;
  {
    DriverAllocations Exempt;
    R = vkCreateInstance(&CI, nullptr, &Instance);
  }
  if (R == VK_ERROR_INCOMPATIBLE_DRIVER || R == VK_ERROR_INITIALIZATION_FAILED)
    fail(ExitVulkan, std::string("no Vulkan driver could be loaded (") +
                         resultName(R) + ")" + icdHint());
  check(R, "vkCreateInstance");
}

std::vector<VkPhysicalDevice> Context::devices() {
  uint32_t N = 0;
  std::vector<VkPhysicalDevice> D;
  {
    DriverAllocations Exempt;
    VK_CHECK(vkEnumeratePhysicalDevices(Instance, &N, nullptr));
    D.resize(N);
    if (N)
      VK_CHECK(vkEnumeratePhysicalDevices(Instance, &N, D.data()));
  }
  D.resize(N);
  return D;
}

void Context::listDevices() {
  auto Ds = devices();
  for (size_t I = 0; I < Ds.size(); ++I) {
    VkPhysicalDeviceProperties P;
    vkGetPhysicalDeviceProperties(Ds[I], &P);
    std::printf("%zu: %s [%s], Vulkan %s\n", I, P.deviceName,
                deviceTypeName(P.deviceType), versionString(P.apiVersion).c_str());
  }
  if (Ds.empty())
    std::printf("no Vulkan devices%s\n", icdHint().c_str());
}

void Context::pickDevice(std::optional<uint32_t> Index) {
  auto Ds = devices();
  if (Ds.empty())
    fail(ExitVulkan, "no Vulkan physical device found" + icdHint());
  if (Index) {
    if (*Index >= Ds.size())
      fail(ExitUsage, "--device " + std::to_string(*Index) + ": only " +
                          std::to_string(Ds.size()) + " device(s)");
    Phys = Ds[*Index];
  } else {
    auto Rank = [](VkPhysicalDeviceType T) {
      switch (T) {
      case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
        return 0;
      case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
        return 1;
      case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
        return 2;
      case VK_PHYSICAL_DEVICE_TYPE_CPU:
        return 3;
      default:
        return 4;
      }
    };
    int Best = 99;
    for (VkPhysicalDevice D : Ds) {
      VkPhysicalDeviceProperties P;
      vkGetPhysicalDeviceProperties(D, &P);
      if (P.apiVersion >= VK_API_VERSION_1_2 && Rank(P.deviceType) < Best) {
        Best = Rank(P.deviceType);
        Phys = D;
      }
    }
    if (!Phys)
      fail(ExitVulkan, "no Vulkan 1.2 device found" + icdHint());
  }
  vkGetPhysicalDeviceProperties(Phys, &Props);
  if (Props.apiVersion < VK_API_VERSION_1_2)
    fail(ExitVulkan, std::string("device '") + Props.deviceName +
                         "' supports only Vulkan " +
                         versionString(Props.apiVersion) + "; 1.2 is needed");
  vkGetPhysicalDeviceMemoryProperties(Phys, &MemProps);

  VkPhysicalDeviceDriverProperties Drv{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
  VkPhysicalDeviceProperties2 P2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
  P2.pNext = &Drv;
  vkGetPhysicalDeviceProperties2(Phys, &P2);
  DriverName = Drv.driverName;
  DriverInfo = Drv.driverInfo;

  uint32_t NQ = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(Phys, &NQ, nullptr);
  std::vector<VkQueueFamilyProperties> Q(NQ);
  vkGetPhysicalDeviceQueueFamilyProperties(Phys, &NQ, Q.data());
  bool Found = false;
  for (uint32_t I = 0; I < NQ; ++I) {
    if (!(Q[I].queueFlags & VK_QUEUE_COMPUTE_BIT))
      continue;
    // Prefer a family with timestamps; among those the first.
    if (!Found || (TimestampBits == 0 && Q[I].timestampValidBits > 0)) {
      QueueFamily = I;
      TimestampBits = Q[I].timestampValidBits;
      Found = true;
    }
  }
  if (!Found)
    fail(ExitVulkan, std::string("device '") + Props.deviceName +
                         "' has no compute queue");
}

void Context::createDevice(const void *Features,
                           const std::vector<const char *> &Extensions) {
  const float Priority = 1.0f;
  VkDeviceQueueCreateInfo QCI{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  QCI.queueFamilyIndex = QueueFamily;
  QCI.queueCount = 1;
  QCI.pQueuePriorities = &Priority;
  VkDeviceCreateInfo DCI{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  DCI.pNext = Features;
  DCI.queueCreateInfoCount = 1;
  DCI.pQueueCreateInfos = &QCI;
  DCI.enabledExtensionCount = static_cast<uint32_t>(Extensions.size());
  DCI.ppEnabledExtensionNames = Extensions.data();
  VK_CHECK(vkCreateDevice(Phys, &DCI, nullptr, &Device));
  vkGetDeviceQueue(Device, QueueFamily, 0, &Queue);
}

std::string Context::deviceLine() const {
  return std::string(Props.deviceName) + " [" + deviceTypeName(Props.deviceType) +
         "], Vulkan " + versionString(Props.apiVersion) + ", driver " +
         DriverName + " " + DriverInfo;
}

uint32_t Context::memoryType(uint32_t Bits, VkMemoryPropertyFlags Want,
                             VkMemoryPropertyFlags Fallback) const {
  for (VkMemoryPropertyFlags F : {Want, Fallback})
    for (uint32_t I = 0; I < MemProps.memoryTypeCount; ++I)
      if ((Bits & (1u << I)) && (MemProps.memoryTypes[I].propertyFlags & F) == F)
        return I;
  fail(ExitVulkan, "no suitable memory type");
}

Buffer::~Buffer() {
  if (Mapped)
    vkUnmapMemory(Device, Memory);
  if (Handle)
    vkDestroyBuffer(Device, Handle, nullptr);
  if (Memory)
    vkFreeMemory(Device, Memory, nullptr);
}

void Buffer::create(const Context &C, VkDeviceSize Bytes, VkBufferUsageFlags Usage,
                    bool HostVisible, bool DeviceAddress) {
  Device = C.Device;
  Size = Bytes;
  VkBufferCreateInfo BI{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  BI.size = Bytes;
  BI.usage = Usage;
  BI.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  VK_CHECK(vkCreateBuffer(Device, &BI, nullptr, &Handle));
  VkMemoryRequirements Req;
  vkGetBufferMemoryRequirements(Device, Handle, &Req);
  const VkMemoryPropertyFlags Coherent =
      VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  VkMemoryAllocateInfo AI{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  AI.allocationSize = Req.size;
  AI.memoryTypeIndex =
      HostVisible ? C.memoryType(Req.memoryTypeBits,
                                 Coherent | VK_MEMORY_PROPERTY_HOST_CACHED_BIT, Coherent)
                  : C.memoryType(Req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0);
  VkMemoryAllocateFlagsInfo Flags{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO};
  Flags.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT;
  if (DeviceAddress)
    AI.pNext = &Flags;
  VK_CHECK(vkAllocateMemory(Device, &AI, nullptr, &Memory));
  VK_CHECK(vkBindBufferMemory(Device, Handle, Memory, 0));
  if (HostVisible)
    VK_CHECK(vkMapMemory(Device, Memory, 0, VK_WHOLE_SIZE, 0, &Mapped));
}

VkQueryPool Context::createTimestampPool() const {
  if (!TimestampBits)
    return VK_NULL_HANDLE;
  VkQueryPoolCreateInfo QP{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
  QP.queryType = VK_QUERY_TYPE_TIMESTAMP;
  QP.queryCount = 2;
  VkQueryPool Pool;
  VK_CHECK(vkCreateQueryPool(Device, &QP, nullptr, &Pool));
  return Pool;
}

double Context::elapsedMs(VkQueryPool Queries) const {
  const uint64_t Mask =
      TimestampBits >= 64 ? ~uint64_t{0} : (uint64_t{1} << TimestampBits) - 1;
  uint64_t Ts[2];
  VK_CHECK(vkGetQueryPoolResults(Device, Queries, 0, 2, sizeof Ts, Ts,
                                 sizeof(uint64_t),
                                 VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
  return static_cast<double>((Ts[1] - Ts[0]) & Mask) *
         static_cast<double>(Props.limits.timestampPeriod) / 1e6;
}

bool hasExtension(const std::vector<VkExtensionProperties> &Exts, const char *Name) {
  for (const auto &E : Exts)
    if (std::strcmp(E.extensionName, Name) == 0)
      return true;
  return false;
}

void memoryBarrier(VkCommandBuffer Cmd, VkAccessFlags Src, VkAccessFlags Dst,
                   VkPipelineStageFlags SrcStage, VkPipelineStageFlags DstStage) {
  VkMemoryBarrier MB{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  MB.srcAccessMask = Src;
  MB.dstAccessMask = Dst;
  vkCmdPipelineBarrier(Cmd, SrcStage, DstStage, 0, 1, &MB, 0, nullptr, 0, nullptr);
}

VkRayTracingShaderGroupCreateInfoKHR generalShaderGroup(uint32_t Stage) {
  VkRayTracingShaderGroupCreateInfoKHR G{
      VK_STRUCTURE_TYPE_RAY_TRACING_SHADER_GROUP_CREATE_INFO_KHR};
  G.type = VK_RAY_TRACING_SHADER_GROUP_TYPE_GENERAL_KHR;
  G.generalShader = Stage;
  G.closestHitShader = G.anyHitShader = G.intersectionShader = VK_SHADER_UNUSED_KHR;
  return G;
}

void recordTimedDispatch(VkCommandBuffer Cmd, VkPipeline Pipeline,
                         VkPipelineLayout Layout, VkDescriptorSet Set,
                         VkQueryPool Queries, uint32_t X, uint32_t Y, uint32_t Z) {
  memoryBarrier(Cmd, VK_ACCESS_TRANSFER_WRITE_BIT,
                VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT,
                VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT);
  if (Pipeline)
    vkCmdBindPipeline(Cmd, VK_PIPELINE_BIND_POINT_COMPUTE, Pipeline);
  vkCmdBindDescriptorSets(Cmd, VK_PIPELINE_BIND_POINT_COMPUTE, Layout, 0, 1, &Set,
                          0, nullptr);
  if (Queries)
    vkCmdWriteTimestamp(Cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, Queries, 0);
  vkCmdDispatch(Cmd, X, Y, Z);
  if (Queries)
    vkCmdWriteTimestamp(Cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, Queries, 1);
  memoryBarrier(Cmd, VK_ACCESS_SHADER_WRITE_BIT, VK_ACCESS_TRANSFER_READ_BIT,
                VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT);
}

void recordHostReadBarrier(VkCommandBuffer Cmd) {
  memoryBarrier(Cmd, VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_HOST_READ_BIT,
                VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT);
}

} // namespace fatomic::vk
