// Per-instance and per-device state, keyed by the dispatch key (the loader's dispatch table pointer stored in the
// first word of every dispatchable handle). A device shares its key with its queues and command buffers, an
// instance with its physical devices, so `device_data(commandBuffer)` is one map lookup.
#pragma once

#include <vulkan/vk_layer.h>
#include <vulkan/vulkan.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "bismuth/backend/wave_size_choice.hpp"
#include "settings.hpp"
#include "vulkan/vulkan_bismuth.h"

namespace bismuth::vk_layer {

inline void* dispatch_key(const void* handle) { return *static_cast<void* const*>(handle); }

struct DebugMessenger {
  VkDebugUtilsMessageSeverityFlagsEXT severities = 0;
  VkDebugUtilsMessageTypeFlagsEXT types = 0;
  PFN_vkDebugUtilsMessengerCallbackEXT callback = nullptr;
  void* user_data = nullptr;
};

struct DebugReportCallback {
  VkDebugReportFlagsEXT flags = 0;
  PFN_vkDebugReportCallbackEXT callback = nullptr;
  void* user_data = nullptr;
};

struct InstanceData {
  VkInstance instance = VK_NULL_HANDLE;
  uint32_t api_version = VK_API_VERSION_1_0;  // VkApplicationInfo::apiVersion (1.0 when absent)
  Settings settings;
  PFN_vkGetInstanceProcAddr next_gipa = nullptr;
  PFN_vkDestroyInstance DestroyInstance = nullptr;
  PFN_vkEnumerateDeviceExtensionProperties EnumerateDeviceExtensionProperties = nullptr;
  PFN_vkGetPhysicalDeviceProperties GetPhysicalDeviceProperties = nullptr;
  PFN_vkGetPhysicalDeviceProperties2 GetPhysicalDeviceProperties2 = nullptr;
  PFN_vkGetPhysicalDeviceFeatures2 GetPhysicalDeviceFeatures2 = nullptr;
  PFN_vkCreateDevice CreateDevice = nullptr;
  PFN_vkCreateDebugUtilsMessengerEXT CreateDebugUtilsMessengerEXT = nullptr;
  PFN_vkDestroyDebugUtilsMessengerEXT DestroyDebugUtilsMessengerEXT = nullptr;
  PFN_vkCreateDebugReportCallbackEXT CreateDebugReportCallbackEXT = nullptr;
  PFN_vkDestroyDebugReportCallbackEXT DestroyDebugReportCallbackEXT = nullptr;

  // Messengers chained into VkInstanceCreateInfo (live for the instance) and created later, by handle.
  mutable std::mutex messengers_mutex;
  std::vector<DebugMessenger> instance_messengers;
  std::map<VkDebugUtilsMessengerEXT, DebugMessenger> messengers;
  // VK_EXT_debug_report, for applications that use it instead.
  std::vector<DebugReportCallback> instance_report_callbacks;
  std::map<VkDebugReportCallbackEXT, DebugReportCallback> report_callbacks;
};

// What the layer emulates or provides on one physical device (extension_advertisement.cpp).
struct PhysicalDeviceSupport {
  bool emulate_ballot = false;  // advertise VK_EXT_shader_subgroup_ballot, lower SPV_KHR_shader_ballot
  bool emulate_vote = false;    // advertise VK_EXT_shader_subgroup_vote, lower SPV_KHR_subgroup_vote
  bool variable_group_size = false;
  bool num_waves = false;  // VK_BISMUTH_num_waves: Vulkan 1.1 with basic subgroup operations in compute
  VkPhysicalDeviceLimits limits{};
};

struct VariablePipeline;  // variable_group_size.cpp

// What a numWaves pipeline committed to (num_waves.cpp), for vkGetPipelineNumWavesPropertiesBISMUTH.
struct NumWavesPipeline {
  uint32_t wave_size = 0;
  uint32_t num_waves = 0;
  std::array<uint32_t, 3> group_size{};
  bool required_subgroup_size = false;
  bool full_subgroups = false;
  bool report_wave_size = false;  // created with VK_NUM_WAVES_CREATE_REPORT_WAVE_SIZE_BIT_BISMUTH
};
struct SizePipelineCache;  // size_pipeline_cache.hpp

struct DeviceData {
  VkDevice device = VK_NULL_HANDLE;
  VkPhysicalDevice physical_device = VK_NULL_HANDLE;
  std::shared_ptr<InstanceData> instance;
  PFN_vkGetDeviceProcAddr next_gdpa = nullptr;
  PFN_vkSetDeviceLoaderData set_device_loader_data = nullptr;  // for dispatchable objects the layer creates
  PhysicalDeviceSupport support;
  bool lower_ballot = false;         // the app enabled the emulated VK_EXT_shader_subgroup_ballot
  bool lower_vote = false;           // the app enabled the emulated VK_EXT_shader_subgroup_vote
  bool variable_group_size = false;  // VK_BISMUTH_variable_group_size enabled (and its feature)
  bool variable_group_size_extension = false;  // the extension enabled, with or without the feature
  bool maintenance4 = false;         // LocalSizeId usable (SPIR-V 1.6 modules)
  bool subgroup_size_control = false;        // subgroupSizeControl enabled (by the app, or the layer for numWaves)
  bool compute_full_subgroups = false;       // computeFullSubgroups enabled (likewise)
  bool num_waves = false;                    // VK_BISMUTH_num_waves enabled (and its feature)
  bool num_waves_extension = false;          // the extension enabled, with or without the feature
  backend::WaveSizeCaps wave_size_caps;      // what numWaves pipelines choose against (num_waves_device.cpp)
  bool pipeline_creation_feedback = false;   // VK_EXT_pipeline_creation_feedback or Vulkan 1.3 core

  PFN_vkDestroyDevice DestroyDevice = nullptr;
  PFN_vkCreateShaderModule CreateShaderModule = nullptr;
  PFN_vkDestroyShaderModule DestroyShaderModule = nullptr;
  PFN_vkCreateComputePipelines CreateComputePipelines = nullptr;
  PFN_vkCreateGraphicsPipelines CreateGraphicsPipelines = nullptr;
  PFN_vkDestroyPipeline DestroyPipeline = nullptr;
  PFN_vkDestroyPipelineLayout DestroyPipelineLayout = nullptr;
  PFN_vkBeginCommandBuffer BeginCommandBuffer = nullptr;
  PFN_vkCmdBindPipeline CmdBindPipeline = nullptr;
  PFN_vkCmdDispatch CmdDispatch = nullptr;
  PFN_vkCmdDispatchIndirect CmdDispatchIndirect = nullptr;
  PFN_vkCmdDispatchBase CmdDispatchBase = nullptr;
  PFN_vkFreeCommandBuffers FreeCommandBuffers = nullptr;

  // Size pipelines come from the backend's PipelineCache on this device (size_pipeline_cache.cpp); null unless
  // VK_BISMUTH_variable_group_size is enabled. shared_ptr: its deleter is bound where it is created, so the
  // translation units that do not include the backend's headers can hold it.
  std::shared_ptr<SizePipelineCache> size_pipelines;

  // Variable group size: the SPIR-V of every module (after lowering), the variable pipelines by handle, and the
  // compute pipeline the application last bound in each command buffer.
  std::mutex mutex;
  std::unordered_map<VkShaderModule, std::shared_ptr<const std::vector<uint32_t>>> module_words;
  std::unordered_map<VkPipeline, std::shared_ptr<VariablePipeline>> variable_pipelines;
  std::unordered_map<VkCommandBuffer, VkPipeline> bound_compute_pipeline;
  std::unordered_map<VkPipeline, NumWavesPipeline> num_waves_pipelines;

  struct Stats {
    std::atomic<uint64_t> modules_passed_through{0};
    std::atomic<uint64_t> modules_rewritten{0};
    std::atomic<uint64_t> invalid_commands_skipped{0};
  } stats;
};

// The maps. Lookups take a shared lock; insertions and removals an exclusive one.
std::shared_ptr<InstanceData> instance_data(const void* dispatchable);
void store_instance_data(const void* dispatchable, std::shared_ptr<InstanceData> data);
void erase_instance_data(const void* dispatchable);
std::shared_ptr<DeviceData> device_data(const void* dispatchable);
void store_device_data(const void* dispatchable, std::shared_ptr<DeviceData> data);
void erase_device_data(const void* dispatchable);

// Reports a message the way a validation layer does: to every debug-utils messenger of the instance whose
// severity and type match (message id name `vuid`) and every debug-report callback whose flags match (layer prefix
// `vuid`), else to stderr when the log level allows it.
void report(const InstanceData& instance, VkDebugUtilsMessageSeverityFlagBitsEXT severity, const char* vuid,
            const std::string& message) noexcept;

}  // namespace bismuth::vk_layer
