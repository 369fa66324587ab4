// The layer's intercepts, one group per responsibility (the .cpp named in each comment).
#pragma once

#include "layer_state.hpp"

namespace bismuth::vk_layer {

inline constexpr const char* kLayerName = "VK_LAYER_BISMUTH_compute";
inline constexpr const char* kBallotName = VK_EXT_SHADER_SUBGROUP_BALLOT_EXTENSION_NAME;
inline constexpr const char* kVoteName = VK_EXT_SHADER_SUBGROUP_VOTE_EXTENSION_NAME;

// Finds the first structure of `type` in a pNext chain.
template <class T>
T* find_in_chain(const void* chain, VkStructureType type) {
  for (auto* s = static_cast<const VkBaseInStructure*>(chain); s != nullptr; s = s->pNext)
    if (s->sType == type) return reinterpret_cast<T*>(const_cast<VkBaseInStructure*>(s));
  return nullptr;
}

// Removes every structure of `type` from a pNext chain for the duration of a call down, and puts them back
// (the Khronos ExtensionLayer's unlink/relink): the next layer or the driver never sees an sType it does not know.
class ChainUnlinker {
 public:
  ChainUnlinker(const void** head, VkStructureType type);
  ~ChainUnlinker();
  ChainUnlinker(const ChainUnlinker&) = delete;
  ChainUnlinker& operator=(const ChainUnlinker&) = delete;

 private:
  struct Removed {
    const void** link;      // where it was linked from
    const void* structure;  // the removed structure
  };
  std::vector<Removed> removed_;
};

// extension_advertisement.cpp
PhysicalDeviceSupport query_support(const InstanceData& instance, VkPhysicalDevice physical_device);
VKAPI_ATTR VkResult VKAPI_CALL EnumerateDeviceExtensionProperties(VkPhysicalDevice physicalDevice,
                                                                  const char* pLayerName, uint32_t* pPropertyCount,
                                                                  VkExtensionProperties* pProperties);
VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceFeatures2(VkPhysicalDevice physicalDevice,
                                                      VkPhysicalDeviceFeatures2* pFeatures);
VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceProperties2(VkPhysicalDevice physicalDevice,
                                                        VkPhysicalDeviceProperties2* pProperties);

// shader_module_rewrite.cpp
VKAPI_ATTR VkResult VKAPI_CALL CreateShaderModule(VkDevice device, const VkShaderModuleCreateInfo* pCreateInfo,
                                                  const VkAllocationCallbacks* pAllocator,
                                                  VkShaderModule* pShaderModule);
VKAPI_ATTR void VKAPI_CALL DestroyShaderModule(VkDevice device, VkShaderModule shaderModule,
                                               const VkAllocationCallbacks* pAllocator);
VKAPI_ATTR VkResult VKAPI_CALL CreateGraphicsPipelines(VkDevice device, VkPipelineCache pipelineCache,
                                                       uint32_t createInfoCount,
                                                       const VkGraphicsPipelineCreateInfo* pCreateInfos,
                                                       const VkAllocationCallbacks* pAllocator,
                                                       VkPipeline* pPipelines);
// Rewrites `words` when the device lowers ballot/vote and the module declares the KHR extensions. Returns false
// (and leaves `out` empty) when the module passes through untouched.
bool rewrite_module(DeviceData& device, const uint32_t* code, size_t code_size, std::vector<uint32_t>& out);
// Rewrites VkShaderModuleCreateInfo structures chained into pipeline stages (module == VK_NULL_HANDLE) in place
// for the duration of a call down; the destructor restores the application's pointers.
class InlineModuleRewrites {
 public:
  InlineModuleRewrites() = default;
  InlineModuleRewrites(const InlineModuleRewrites&) = delete;
  InlineModuleRewrites& operator=(const InlineModuleRewrites&) = delete;
  ~InlineModuleRewrites();
  void apply(DeviceData& device, const VkPipelineShaderStageCreateInfo& stage);

 private:
  struct Rewrite {
    VkShaderModuleCreateInfo* info;
    const uint32_t* code;
    size_t code_size;
    std::vector<uint32_t> words;
  };
  std::vector<Rewrite> rewrites_;
};

// The words of a pipeline stage's module: recorded at vkCreateShaderModule (already lowered; devices with
// VK_BISMUTH_variable_group_size or VK_BISMUTH_num_waves), or the inline VkShaderModuleCreateInfo (lowered here).
// Null when the layer does not know the module.
std::shared_ptr<const std::vector<uint32_t>> stage_module_words(DeviceData& device,
                                                                const VkPipelineShaderStageCreateInfo& stage);

// num_waves.cpp: VK_BISMUTH_num_waves (docs/VK_BISMUTH_num_waves.adoc).
const VkPipelineShaderStageNumWavesCreateInfoBISMUTH* num_waves_info(const VkComputePipelineCreateInfo& info);
// One numWaves pipeline (`info` carries VkPipelineShaderStageNumWavesCreateInfoBISMUTH; derivative indices already
// resolved to handles). Reports the reason of any failure.
VkResult create_num_waves_pipeline(DeviceData& device, VkPipelineCache cache, const VkComputePipelineCreateInfo& info,
                                   const VkAllocationCallbacks* allocator, VkPipeline* out);
void forget_num_waves_pipeline(DeviceData& device, VkPipeline pipeline);
VKAPI_ATTR VkResult VKAPI_CALL GetPipelineNumWavesPropertiesBISMUTH(VkDevice device, VkPipeline pipeline,
                                                                    VkPipelineNumWavesPropertiesBISMUTH* pProperties);

// variable_group_size.cpp
VKAPI_ATTR VkResult VKAPI_CALL CreateComputePipelines(VkDevice device, VkPipelineCache pipelineCache,
                                                      uint32_t createInfoCount,
                                                      const VkComputePipelineCreateInfo* pCreateInfos,
                                                      const VkAllocationCallbacks* pAllocator,
                                                      VkPipeline* pPipelines);
VKAPI_ATTR void VKAPI_CALL DestroyPipeline(VkDevice device, VkPipeline pipeline,
                                           const VkAllocationCallbacks* pAllocator);
VKAPI_ATTR void VKAPI_CALL DestroyPipelineLayout(VkDevice device, VkPipelineLayout pipelineLayout,
                                                 const VkAllocationCallbacks* pAllocator);
VKAPI_ATTR VkResult VKAPI_CALL BeginCommandBuffer(VkCommandBuffer commandBuffer,
                                                  const VkCommandBufferBeginInfo* pBeginInfo);
VKAPI_ATTR void VKAPI_CALL FreeCommandBuffers(VkDevice device, VkCommandPool commandPool,
                                              uint32_t commandBufferCount, const VkCommandBuffer* pCommandBuffers);
VKAPI_ATTR void VKAPI_CALL CmdBindPipeline(VkCommandBuffer commandBuffer, VkPipelineBindPoint pipelineBindPoint,
                                           VkPipeline pipeline);
VKAPI_ATTR void VKAPI_CALL CmdDispatch(VkCommandBuffer commandBuffer, uint32_t groupCountX, uint32_t groupCountY,
                                       uint32_t groupCountZ);
VKAPI_ATTR void VKAPI_CALL CmdDispatchIndirect(VkCommandBuffer commandBuffer, VkBuffer buffer, VkDeviceSize offset);
VKAPI_ATTR void VKAPI_CALL CmdDispatchBase(VkCommandBuffer commandBuffer, uint32_t baseGroupX, uint32_t baseGroupY,
                                           uint32_t baseGroupZ, uint32_t groupCountX, uint32_t groupCountY,
                                           uint32_t groupCountZ);
VKAPI_ATTR void VKAPI_CALL CmdDispatchGroupSizeBISMUTH(VkCommandBuffer commandBuffer, uint32_t groupCountX,
                                                       uint32_t groupCountY, uint32_t groupCountZ,
                                                       uint32_t groupSizeX, uint32_t groupSizeY,
                                                       uint32_t groupSizeZ);
// size_pipeline_cache.cpp: the backend's PipelineCache for size pipelines, created at vkCreateDevice (variable group
// size devices; an error message and a VkResult when the backend cannot adopt the device), and at vkDestroyDevice
// saved (BISMUTH_CACHE_DIR), reported (BISMUTH_STATS) and destroyed.
VkResult open_size_pipeline_cache(DeviceData& device);
void close_size_pipeline_cache(DeviceData& device);

// Destroys every variable pipeline still alive (vkDestroyDevice).
void destroy_variable_pipelines(DeviceData& device);

}  // namespace bismuth::vk_layer
