/*
 * Device extensions provided by the VK_LAYER_BISMUTH_compute layer:
 *   VK_BISMUTH_variable_group_size  docs/VK_BISMUTH_variable_group_size.adoc  extension number 1000
 *   VK_BISMUTH_num_waves            docs/VK_BISMUTH_num_waves.adoc            extension number 1001
 *
 * Enumerant numbers. The extension is not registered with Khronos; it takes extension number 1000, outside the
 * registered range, so its VkStructureType values are 1000000000 + (1000 - 1) * 1000 + offset (the registry's
 * formula, vk.xml "extension enums"): 1000999000 .. 1000999002. Registered extensions are far below number 1000,
 * so these values cannot collide with a core or registered enumerant. VK_BISMUTH_num_waves, number 1001, takes
 * 1000000000 + (1001 - 1) * 1000 + offset: 1001000000 .. 1001000002.
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

#define VK_BISMUTH_num_waves 1
#define VK_BISMUTH_NUM_WAVES_SPEC_VERSION 1
#define VK_BISMUTH_NUM_WAVES_EXTENSION_NAME "VK_BISMUTH_num_waves"
#define VK_BISMUTH_NUM_WAVES_EXTENSION_NUMBER 1001

#define VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_NUM_WAVES_FEATURES_BISMUTH ((VkStructureType)1001000000)
#define VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_NUM_WAVES_CREATE_INFO_BISMUTH ((VkStructureType)1001000001)
#define VK_STRUCTURE_TYPE_PIPELINE_NUM_WAVES_PROPERTIES_BISMUTH ((VkStructureType)1001000002)

typedef enum VkNumWavesCreateFlagBitsBISMUTH {
  VK_NUM_WAVES_CREATE_REPORT_WAVE_SIZE_BIT_BISMUTH = 0x00000001,
  VK_NUM_WAVES_CREATE_PREFER_SMALL_WAVE_SIZE_BIT_BISMUTH = 0x00000002,
  VK_NUM_WAVES_CREATE_PREFER_LARGE_WAVE_SIZE_BIT_BISMUTH = 0x00000004,
  VK_NUM_WAVES_CREATE_FLAG_BITS_MAX_ENUM_BISMUTH = 0x7FFFFFFF
} VkNumWavesCreateFlagBitsBISMUTH;
typedef VkFlags VkNumWavesCreateFlagsBISMUTH;

typedef struct VkPhysicalDeviceNumWavesFeaturesBISMUTH {
  VkStructureType sType;
  void* pNext;
  VkBool32 numWaves;
} VkPhysicalDeviceNumWavesFeaturesBISMUTH;

typedef struct VkPipelineShaderStageNumWavesCreateInfoBISMUTH {
  VkStructureType sType;
  const void* pNext;
  uint32_t numWaves;
  uint32_t minWaveSize;       /* 0: no lower bound */
  uint32_t maxWaveSize;       /* 0: no upper bound */
  uint32_t preferredWaveSize; /* 0: none */
  VkNumWavesCreateFlagsBISMUTH flags;
} VkPipelineShaderStageNumWavesCreateInfoBISMUTH;

typedef struct VkPipelineNumWavesPropertiesBISMUTH {
  VkStructureType sType;
  void* pNext;
  uint32_t waveSize;
  uint32_t numWaves;
  uint32_t groupSize[3];
  VkBool32 requiredSubgroupSize; /* created with VkPipelineShaderStageRequiredSubgroupSizeCreateInfo */
  VkBool32 fullSubgroups;        /* created with VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT */
} VkPipelineNumWavesPropertiesBISMUTH;

typedef VkResult(VKAPI_PTR* PFN_vkGetPipelineNumWavesPropertiesBISMUTH)(
    VkDevice device, VkPipeline pipeline, VkPipelineNumWavesPropertiesBISMUTH* pProperties);

#ifndef VK_NO_PROTOTYPES
/* Provided by the layer: obtain it with vkGetDeviceProcAddr; the loader does not export it. */
VKAPI_ATTR VkResult VKAPI_CALL vkGetPipelineNumWavesPropertiesBISMUTH(VkDevice device, VkPipeline pipeline,
                                                                     VkPipelineNumWavesPropertiesBISMUTH* pProperties);
#endif

#ifdef __cplusplus
}
#endif

#endif /* VULKAN_BISMUTH_H_ */
