//===- RayTracing.h - A job's module as a ray generation shader -----------===//
//
// fatomic-vkrun --ray-tracing runs the job's module as the one ray
// generation shader of a ray tracing pipeline (VK_KHR_ray_tracing_pipeline)
// and launches it over the job's "groups", read as the launch size in
// invocations: the path a Vulkan layer sees in vkCreateRayTracingPipelinesKHR.
// The module goes into the stage as a chained VkShaderModuleCreateInfo where
// the device allows it (graphicsPipelineLibrary), else as a VkShaderModule,
// and the pipeline is created with a deferred operation, joined where the
// driver defers.  No acceleration structure is built: the shader traces no
// rays.
//
//===----------------------------------------------------------------------===//
#ifndef FATOMIC_TOOLS_VKRUN_RAYTRACING_H
#define FATOMIC_TOOLS_VKRUN_RAYTRACING_H

#include "VulkanContext.h"

#include <vulkan/vulkan.h>

#include <cstdint>
#include <string>
#include <vector>

namespace vkrun {

/// What a device has for --ray-tracing, and the features it then enables.
class RayTracingSupport {
public:
  /// The extensions a ray tracing pipeline needs are listed.
  bool Extensions = false;
  /// The rayTracingPipeline feature.
  bool Pipeline = false;
  /// The graphicsPipelineLibrary feature: a stage may carry its module as a
  /// chained VkShaderModuleCreateInfo.
  bool ChainedModules = false;

  void query(VkPhysicalDevice Phys, const std::vector<VkExtensionProperties> &Exts);
  /// Adds the extensions to \p Exts and the features to the chain after
  /// \p Features (a VkPhysicalDeviceFeatures2); exit 3 where the device
  /// lacks them.  Buffer device addresses must be enabled too (the shader
  /// binding table needs them).
  void enable(std::vector<const char *> &Exts, VkPhysicalDeviceFeatures2 &Features);

private:
  bool Gpl = false; ///< VK_EXT_graphics_pipeline_library listed
  VkPhysicalDeviceRayTracingPipelineFeaturesKHR EnabledPipeline{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RAY_TRACING_PIPELINE_FEATURES_KHR};
  VkPhysicalDeviceGraphicsPipelineLibraryFeaturesEXT EnabledGpl{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GRAPHICS_PIPELINE_LIBRARY_FEATURES_EXT};
};

/// The pipeline of one ray generation shader and its shader binding table.
class RayTracingPipeline {
public:
  /// Creates the pipeline from \p Words (entry point \p Entry) with
  /// \p Layout; \p Chained puts the module into the stage's chain.
  RayTracingPipeline(const fatomic::vk::Context &C, VkPipelineLayout Layout,
                     const std::vector<uint32_t> &Words, const std::string &Entry,
                     bool Chained);
  RayTracingPipeline(const RayTracingPipeline &) = delete;
  RayTracingPipeline &operator=(const RayTracingPipeline &) = delete;
  ~RayTracingPipeline();

  /// How the pipeline was made: where its module came from and what the
  /// creation returned ("...; VK_OPERATION_NOT_DEFERRED_KHR").
  std::string How;

  /// Records the launch of \p X x \p Y x \p Z invocations as
  /// recordTimedDispatch does a dispatch: barriers from the uploads and to
  /// the downloads, the timestamps around it where \p Queries is not null.
  void recordTimedTrace(VkCommandBuffer Cmd, VkPipelineLayout Layout, VkDescriptorSet Set,
                        VkQueryPool Queries, uint32_t X, uint32_t Y, uint32_t Z) const;

private:
  void create(const std::vector<uint32_t> &Words, const std::string &Entry, bool Chained);
  void createBindingTable(const fatomic::vk::Context &C);

  VkDevice Dev;
  VkPipelineLayout Layout;
  VkPipeline Pipeline = VK_NULL_HANDLE;
  VkShaderModule Module = VK_NULL_HANDLE;
  fatomic::vk::Buffer Table;
  VkStridedDeviceAddressRegionKHR RayGen{};
  PFN_vkCmdTraceRaysKHR TraceRays = nullptr;
};

} // namespace vkrun

#endif
