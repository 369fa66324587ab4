/*
 * VK_BISMUTH_variable_group_size: a device extension provided by the VK_LAYER_BISMUTH_compute layer.
 * Specification: docs/VK_BISMUTH_variable_group_size.adoc.
 *
 * Enumerant numbers. The extension is not registered with Khronos; it takes extension number 1000, outside the
 * registered range, so its VkStructureType values are 1000000000 + (1000 - 1) * 1000 + offset (the registry's
 * formula, vk.xml "extension enums"): 1000999000 .. 1000999002. Registered extensions are far below number 1000,
 * so these values cannot collide with a core or registered enumerant.
 */
#ifndef VULKAN_BISMUTH_H_
#define VULKAN_BISMUTH_H_ 1

#include <vulkan/vulkan_core.h>

#ifdef __cplusplus
extern "C" {
#endif

#define VK_BISMUTH_variable_group_size 1
#define VK_BISMUTH_VARIABLE_GROUP_SIZE_SPEC_VERSION 1
#define VK_BISMUTH_VARIABLE_GROUP_SIZE_EXTENSION_NAME "VK_BISMUTH_variable_group_size"
#define VK_BISMUTH_VARIABLE_GROUP_SIZE_EXTENSION_NUMBER 1000

#define VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VARIABLE_GROUP_SIZE_FEATURES_BISMUTH ((VkStructureType)1000999000)
#define VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VARIABLE_GROUP_SIZE_PROPERTIES_BISMUTH ((VkStructureType)1000999001)
#define VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_VARIABLE_GROUP_SIZE_CREATE_INFO_BISMUTH ((VkStructureType)1000999002)

typedef struct VkPhysicalDeviceVariableGroupSizeFeaturesBISMUTH {
  VkStructureType sType;
  void* pNext;
  VkBool32 variableGroupSize;
} VkPhysicalDeviceVariableGroupSizeFeaturesBISMUTH;

typedef struct VkPhysicalDeviceVariableGroupSizePropertiesBISMUTH {
  VkStructureType sType;
  void* pNext;
  uint32_t maxVariableGroupSize[3];
  uint32_t maxVariableGroupInvocations;
} VkPhysicalDeviceVariableGroupSizePropertiesBISMUTH;

typedef struct VkComputePipelineVariableGroupSizeCreateInfoBISMUTH {
  VkStructureType sType;
  const void* pNext;
  VkBool32 variableGroupSize;
} VkComputePipelineVariableGroupSizeCreateInfoBISMUTH;

typedef void(VKAPI_PTR* PFN_vkCmdDispatchGroupSizeBISMUTH)(VkCommandBuffer commandBuffer, uint32_t groupCountX,
                                                            uint32_t groupCountY, uint32_t groupCountZ,
                                                            uint32_t groupSizeX, uint32_t groupSizeY,
                                                            uint32_t groupSizeZ);

#ifndef VK_NO_PROTOTYPES
/* Provided by the layer: obtain it with vkGetDeviceProcAddr; the loader does not export it. */
VKAPI_ATTR void VKAPI_CALL vkCmdDispatchGroupSizeBISMUTH(VkCommandBuffer commandBuffer, uint32_t groupCountX,
                                                         uint32_t groupCountY, uint32_t groupCountZ,
                                                         uint32_t groupSizeX, uint32_t groupSizeY,
                                                         uint32_t groupSizeZ);
#endif

#ifdef __cplusplus
}
#endif

#endif /* VULKAN_BISMUTH_H_ */
