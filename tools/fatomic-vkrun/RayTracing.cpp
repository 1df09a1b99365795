//===- RayTracing.cpp - A job's module as a ray generation shader ---------===//
//
// The ray tracing pipeline of --ray-tracing: the features it enables, its
// creation with a deferred operation, its shader binding table (one ray
// generation record) and the recorded launch.
//
//===----------------------------------------------------------------------===//

#include "RayTracing.h"

#include <cstring>

namespace vkrun {

namespace vk = fatomic::vk;

namespace {
/// fatomic-vkrun's exit code for what the device lacks.
constexpr int ExitUnsupported = 3;

const char *const RequiredExtensions[] = {
    VK_KHR_RAY_TRACING_PIPELINE_EXTENSION_NAME,
    VK_KHR_ACCELERATION_STRUCTURE_EXTENSION_NAME,
    VK_KHR_DEFERRED_HOST_OPERATIONS_EXTENSION_NAME};

template <typename Fn> Fn deviceFn(VkDevice Dev, const char *Name) {
  auto F = reinterpret_cast<Fn>(vkGetDeviceProcAddr(Dev, Name));
  if (!F)
    vk::fail(vk::ExitVulkan, std::string("the device gives no ") + Name);
  return F;
}

VkDeviceSize alignUp(VkDeviceSize N, VkDeviceSize A) { return (N + A - 1) / A * A; }
} // namespace

void RayTracingSupport::query(VkPhysicalDevice Phys,
                              const std::vector<VkExtensionProperties> &Exts) {
  Extensions = true;
  for (const char *Name : RequiredExtensions)
    Extensions &= vk::hasExtension(Exts, Name);
  Gpl = vk::hasExtension(Exts, VK_EXT_GRAPHICS_PIPELINE_LIBRARY_EXTENSION_NAME);
  VkPhysicalDeviceRayTracingPipelineFeaturesKHR Rt{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RAY_TRACING_PIPELINE_FEATURES_KHR};
  VkPhysicalDeviceGraphicsPipelineLibraryFeaturesEXT G{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GRAPHICS_PIPELINE_LIBRARY_FEATURES_EXT};
  VkPhysicalDeviceFeatures2 F2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  if (Extensions) {
    Rt.pNext = F2.pNext;
    F2.pNext = &Rt;
  }
  if (Gpl) {
    G.pNext = F2.pNext;
    F2.pNext = &G;
  }
  vkGetPhysicalDeviceFeatures2(Phys, &F2);
  Pipeline = Extensions && Rt.rayTracingPipeline;
  ChainedModules = Gpl && G.graphicsPipelineLibrary;
}

void RayTracingSupport::enable(std::vector<const char *> &Exts,
                               VkPhysicalDeviceFeatures2 &Features) {
  if (!Pipeline)
    vk::fail(ExitUnsupported,
             std::string("--ray-tracing: the device has no ") +
                 (Extensions ? "rayTracingPipeline feature"
                             : "VK_KHR_ray_tracing_pipeline (with "
                               "VK_KHR_acceleration_structure and "
                               "VK_KHR_deferred_host_operations)"));
  for (const char *Name : RequiredExtensions)
    Exts.push_back(Name);
  EnabledPipeline.rayTracingPipeline = VK_TRUE;
  EnabledPipeline.pNext = Features.pNext;
  Features.pNext = &EnabledPipeline;
  if (ChainedModules) {
    Exts.push_back(VK_EXT_GRAPHICS_PIPELINE_LIBRARY_EXTENSION_NAME);
    EnabledGpl.graphicsPipelineLibrary = VK_TRUE;
    EnabledGpl.pNext = Features.pNext;
    Features.pNext = &EnabledGpl;
  }
}

RayTracingPipeline::RayTracingPipeline(const vk::Context &C, VkPipelineLayout Layout,
                                       const std::vector<uint32_t> &Words,
                                       const std::string &Entry, bool Chained)
    : Dev(C.Device), Layout(Layout) {
  TraceRays = deviceFn<PFN_vkCmdTraceRaysKHR>(Dev, "vkCmdTraceRaysKHR");
  create(Words, Entry, Chained);
  createBindingTable(C);
}

RayTracingPipeline::~RayTracingPipeline() {
  vkDestroyPipeline(Dev, Pipeline, nullptr);
  vkDestroyShaderModule(Dev, Module, nullptr);
}

void RayTracingPipeline::create(const std::vector<uint32_t> &Words,
                                const std::string &Entry, bool Chained) {
  VkShaderModuleCreateInfo SMI{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  SMI.codeSize = Words.size() * 4;
  SMI.pCode = Words.data();
  VkPipelineShaderStageCreateInfo Stage{VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
  Stage.stage = VK_SHADER_STAGE_RAYGEN_BIT_KHR;
  Stage.pName = Entry.c_str();
  if (Chained) {
    Stage.pNext = &SMI;
  } else {
    VK_CHECK(vkCreateShaderModule(Dev, &SMI, nullptr, &Module));
    Stage.module = Module;
  }
  const VkRayTracingShaderGroupCreateInfoKHR Group = vk::generalShaderGroup(0);
  VkRayTracingPipelineCreateInfoKHR PI{VK_STRUCTURE_TYPE_RAY_TRACING_PIPELINE_CREATE_INFO_KHR};
  PI.stageCount = 1;
  PI.pStages = &Stage;
  PI.groupCount = 1;
  PI.pGroups = &Group;
  PI.maxPipelineRayRecursionDepth = 1;
  PI.layout = Layout;

  auto CreateOp = deviceFn<PFN_vkCreateDeferredOperationKHR>(Dev, "vkCreateDeferredOperationKHR");
  auto DestroyOp = deviceFn<PFN_vkDestroyDeferredOperationKHR>(Dev, "vkDestroyDeferredOperationKHR");
  auto Join = deviceFn<PFN_vkDeferredOperationJoinKHR>(Dev, "vkDeferredOperationJoinKHR");
  auto Result = deviceFn<PFN_vkGetDeferredOperationResultKHR>(Dev, "vkGetDeferredOperationResultKHR");
  auto Create = deviceFn<PFN_vkCreateRayTracingPipelinesKHR>(Dev, "vkCreateRayTracingPipelinesKHR");
  VkDeferredOperationKHR Op;
  VK_CHECK(CreateOp(Dev, nullptr, &Op));
  VkResult R = Create(Dev, Op, VK_NULL_HANDLE, 1, &PI, nullptr, &Pipeline);
  How = std::string(Chained ? "module chained into the stage" : "VkShaderModule") +
        "; " + vk::resultName(R);
  if (R == VK_OPERATION_DEFERRED_KHR) {
    // This thread does the work; VK_THREAD_DONE_KHR: others finish it.
    VkResult J;
    while ((J = Join(Dev, Op)) == VK_THREAD_IDLE_KHR) {
    }
    if (J != VK_SUCCESS && J != VK_THREAD_DONE_KHR)
      vk::check(J, "vkDeferredOperationJoinKHR");
    while ((R = Result(Dev, Op)) == VK_NOT_READY) {
    }
    How += std::string(", then ") + vk::resultName(R);
  } else if (R == VK_OPERATION_NOT_DEFERRED_KHR) {
    R = VK_SUCCESS;
  }
  DestroyOp(Dev, Op, nullptr);
  vk::check(R, "vkCreateRayTracingPipelinesKHR");
}

void RayTracingPipeline::createBindingTable(const vk::Context &C) {
  VkPhysicalDeviceRayTracingPipelinePropertiesKHR P{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RAY_TRACING_PIPELINE_PROPERTIES_KHR};
  VkPhysicalDeviceProperties2 P2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &P};
  vkGetPhysicalDeviceProperties2(C.Phys, &P2);
  std::vector<uint8_t> Handle(P.shaderGroupHandleSize);
  auto GetHandles = deviceFn<PFN_vkGetRayTracingShaderGroupHandlesKHR>(
      Dev, "vkGetRayTracingShaderGroupHandlesKHR");
  VK_CHECK(GetHandles(Dev, Pipeline, 0, 1, Handle.size(), Handle.data()));
  const VkDeviceSize Stride = alignUp(P.shaderGroupHandleSize, P.shaderGroupHandleAlignment);
  // Room to move the record up to the base alignment.
  Table.create(C, Stride + P.shaderGroupBaseAlignment,
               VK_BUFFER_USAGE_SHADER_BINDING_TABLE_BIT_KHR |
                   VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT,
               true, true);
  VkBufferDeviceAddressInfo AI{VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO};
  AI.buffer = Table.Handle;
  const VkDeviceAddress Base = vkGetBufferDeviceAddress(Dev, &AI);
  const VkDeviceAddress At = alignUp(Base, P.shaderGroupBaseAlignment);
  std::memcpy(static_cast<uint8_t *>(Table.Mapped) + (At - Base), Handle.data(), Handle.size());
  RayGen = {At, Stride, Stride};
}

void RayTracingPipeline::recordTimedTrace(VkCommandBuffer Cmd, VkPipelineLayout L,
                                          VkDescriptorSet Set, VkQueryPool Queries,
                                          uint32_t X, uint32_t Y, uint32_t Z) const {
  const VkPipelineStageFlags Shader = VK_PIPELINE_STAGE_RAY_TRACING_SHADER_BIT_KHR;
  vk::memoryBarrier(Cmd, VK_ACCESS_TRANSFER_WRITE_BIT,
                    VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT,
                    VK_PIPELINE_STAGE_TRANSFER_BIT, Shader);
  vkCmdBindPipeline(Cmd, VK_PIPELINE_BIND_POINT_RAY_TRACING_KHR, Pipeline);
  vkCmdBindDescriptorSets(Cmd, VK_PIPELINE_BIND_POINT_RAY_TRACING_KHR, L, 0, 1, &Set, 0,
                          nullptr);
  if (Queries)
    vkCmdWriteTimestamp(Cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, Queries, 0);
  const VkStridedDeviceAddressRegionKHR None{};
  TraceRays(Cmd, &RayGen, &None, &None, &None, X, Y, Z);
  if (Queries)
    vkCmdWriteTimestamp(Cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, Queries, 1);
  vk::memoryBarrier(Cmd, VK_ACCESS_SHADER_WRITE_BIT, VK_ACCESS_TRANSFER_READ_BIT, Shader,
                    VK_PIPELINE_STAGE_TRANSFER_BIT);
}

} // namespace vkrun
