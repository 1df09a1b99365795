//===- ShaderObjectApi.h - VK_EXT_shader_object for older headers ---------===//
//
// Owns the declarations of VK_EXT_shader_object that the layer and
// fatomic-vkrun use.  The extension arrived in Vulkan headers 1.3.246;
// Debian 12 has 1.3.239, whose vulkan_core.h lacks it.  With newer headers
// this file declares nothing.  Values are the registry's (extension 483).
//
//===----------------------------------------------------------------------===//
#ifndef FATOMIC_LAYER_SHADEROBJECTAPI_H
#define FATOMIC_LAYER_SHADEROBJECTAPI_H

#include <vulkan/vulkan.h>

#ifndef VK_EXT_shader_object
#define FATOMIC_DECLARE_SHADER_OBJECT 1
#define VK_EXT_SHADER_OBJECT_EXTENSION_NAME "VK_EXT_shader_object"

VK_DEFINE_NON_DISPATCHABLE_HANDLE(VkShaderEXT)
typedef VkFlags VkShaderCreateFlagsEXT;
typedef enum VkShaderCodeTypeEXT {
  VK_SHADER_CODE_TYPE_BINARY_EXT = 0,
  VK_SHADER_CODE_TYPE_SPIRV_EXT = 1,
  VK_SHADER_CODE_TYPE_MAX_ENUM_EXT = 0x7FFFFFFF
} VkShaderCodeTypeEXT;

constexpr VkStructureType VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_OBJECT_FEATURES_EXT =
    static_cast<VkStructureType>(1000482000);
constexpr VkStructureType VK_STRUCTURE_TYPE_SHADER_CREATE_INFO_EXT =
    static_cast<VkStructureType>(1000482002);

typedef struct VkPhysicalDeviceShaderObjectFeaturesEXT {
  VkStructureType sType;
  void *pNext;
  VkBool32 shaderObject;
} VkPhysicalDeviceShaderObjectFeaturesEXT;

typedef struct VkShaderCreateInfoEXT {
  VkStructureType sType;
  const void *pNext;
  VkShaderCreateFlagsEXT flags;
  VkShaderStageFlagBits stage;
  VkShaderStageFlags nextStage;
  VkShaderCodeTypeEXT codeType;
  size_t codeSize;
  const void *pCode;
  const char *pName;
  uint32_t setLayoutCount;
  const VkDescriptorSetLayout *pSetLayouts;
  uint32_t pushConstantRangeCount;
  const VkPushConstantRange *pPushConstantRanges;
  const VkSpecializationInfo *pSpecializationInfo;
} VkShaderCreateInfoEXT;

typedef VkResult(VKAPI_PTR *PFN_vkCreateShadersEXT)(
    VkDevice device, uint32_t createInfoCount,
    const VkShaderCreateInfoEXT *pCreateInfos,
    const VkAllocationCallbacks *pAllocator, VkShaderEXT *pShaders);
typedef void(VKAPI_PTR *PFN_vkDestroyShaderEXT)(VkDevice device, VkShaderEXT shader,
                                                 const VkAllocationCallbacks *pAllocator);
typedef void(VKAPI_PTR *PFN_vkCmdBindShadersEXT)(VkCommandBuffer commandBuffer,
                                                  uint32_t stageCount,
                                                  const VkShaderStageFlagBits *pStages,
                                                  const VkShaderEXT *pShaders);
#endif

#endif
