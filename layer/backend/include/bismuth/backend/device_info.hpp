// What Bismuth needs to know about a physical device, gathered once through vkGetPhysicalDeviceProperties2.
#pragma once

#include <volk.h>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "bismuth/backend/instance.hpp"
#include "bismuth/backend/vk_functions.hpp"
#include "bismuth/common/expected.hpp"

namespace bismuth::backend {

struct DeviceInfo {
  uint32_t index = 0;  // position in vkEnumeratePhysicalDevices order: what BISMUTH_DEVICE=<n> names
  VkPhysicalDevice handle = VK_NULL_HANDLE;
  std::string name;
  VkPhysicalDeviceType type = VK_PHYSICAL_DEVICE_TYPE_OTHER;
  uint32_t vendor_id = 0;
  uint32_t device_id = 0;
  uint32_t api_version = 0;
  uint32_t driver_version = 0;
  std::array<uint8_t, VK_UUID_SIZE> pipeline_cache_uuid{};
  // VkPhysicalDeviceDriverProperties (Vulkan 1.2 / VK_KHR_driver_properties); empty when unavailable.
  std::string driver_name;
  std::string driver_info;
  // VkPhysicalDeviceIDProperties (Vulkan 1.1): what EGL_EXT_device_persistent_id and other APIs' device UUIDs are
  // compared with. has_id_properties is false on a 1.0 instance, where both stay zero.
  bool has_id_properties = false;
  std::array<uint8_t, VK_UUID_SIZE> device_uuid{};
  std::array<uint8_t, VK_UUID_SIZE> driver_uuid{};

  // Vulkan 1.1 subgroup properties.
  uint32_t subgroup_size = 0;
  VkShaderStageFlags subgroup_supported_stages = 0;
  VkSubgroupFeatureFlags subgroup_supported_operations = 0;
  bool quad_operations_in_all_stages = false;
  // Subgroup size control (Vulkan 1.3 core or VK_EXT_subgroup_size_control): min == max == subgroup_size without.
  bool subgroup_size_control = false;
  uint32_t min_subgroup_size = 0;
  uint32_t max_subgroup_size = 0;
  VkShaderStageFlags required_subgroup_size_stages = 0;

  // Device extensions Bismuth cares about.
  bool has_shader_subgroup_ballot = false;           // VK_EXT_shader_subgroup_ballot
  bool has_shader_subgroup_vote = false;             // VK_EXT_shader_subgroup_vote
  bool has_subgroup_size_control = false;            // VK_EXT_subgroup_size_control (or core in 1.3)
  bool has_maintenance4 = false;                     // VK_KHR_maintenance4 (or core in 1.3)
  bool has_push_descriptor = false;                  // VK_KHR_push_descriptor
  bool has_timeline_semaphore = false;               // VK_KHR_timeline_semaphore (or core in 1.2)
  bool has_host_query_reset = false;                 // VK_EXT_host_query_reset (or core in 1.2)
  bool has_pipeline_creation_cache_control = false;  // VK_EXT_pipeline_creation_cache_control (or core in 1.3)
  bool has_pipeline_creation_feedback = false;       // VK_EXT_pipeline_creation_feedback (or core in 1.3)
  std::vector<std::string> extensions;               // every device extension, sorted

  // Shader features behind GL extensions (GL_ARB_shader_clock, GL_NV_shader_atomic_float, ...).
  bool has_shader_clock = false;          // VK_KHR_shader_clock
  bool has_shader_atomic_float = false;   // VK_EXT_shader_atomic_float
  bool has_shader_atomic_float2 = false;  // VK_EXT_shader_atomic_float2
  // VK_NV_compute_shader_derivatives. glslang 12 emits SPV_NV_compute_shader_derivatives, which Vulkan allows only
  // with the NV extension (a device with only VK_KHR_compute_shader_derivatives needs the KHR SPIR-V extension).
  bool has_compute_shader_derivatives_nv = false;

  // Compute limits.
  std::array<uint32_t, 3> max_compute_work_group_size{};
  uint32_t max_compute_work_group_invocations = 0;
  std::array<uint32_t, 3> max_compute_work_group_count{};
  uint32_t max_compute_shared_memory_size = 0;
  uint32_t max_compute_workgroup_subgroups = 0;  // subgroup size control; 0 when unknown
  VkDeviceSize min_storage_buffer_offset_alignment = 1;
  VkDeviceSize min_uniform_buffer_offset_alignment = 1;
  VkDeviceSize non_coherent_atom_size = 1;
  uint32_t max_push_constants_size = 128;
  uint32_t max_uniform_buffer_range = 16384;  // maxUniformBufferRange (16384 is Vulkan's minimum)
  uint32_t max_storage_buffer_range = 1u << 27;  // maxStorageBufferRange (2^27 is Vulkan's minimum)
  uint32_t max_push_descriptors = 0;  // VK_KHR_push_descriptor; 0 without
  // Images, samplers and texel buffers (image.hpp, sampler.hpp, CommandStream's image bindings).
  VkDeviceSize min_texel_buffer_offset_alignment = 1;
  uint32_t max_texel_buffer_elements = 0;
  uint32_t max_sampler_allocation_count = 4000;
  float max_sampler_anisotropy = 1;
  float max_sampler_lod_bias = 0;
  bool has_custom_border_color = false;  // VK_EXT_custom_border_color
  float timestamp_period_ns = 0;         // nanoseconds per timestamp tick
  bool timestamp_compute_and_graphics = false;

  bool is_gpu() const {
    return type == VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU || type == VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU;
  }
  bool has_extension(const char* name) const;
  // Subgroup operations (VK_SUBGROUP_FEATURE_*) usable in compute shaders; 0 when compute is not a supported stage.
  VkSubgroupFeatureFlags compute_subgroup_operations() const {
    return (subgroup_supported_stages & VK_SHADER_STAGE_COMPUTE_BIT) ? subgroup_supported_operations : 0;
  }
};

// Describes one physical device through an instance function table (the loader's, or the next layer's).
// `instance_version` caps which Properties2 structures may be queried.
DeviceInfo describe_physical_device(const InstanceFunctions& vki, VkPhysicalDevice device, uint32_t instance_version,
                                    uint32_t index = 0);

// Every physical device the loader reports, in enumeration order. No device at all is an error whose message
// names the package that provides a Vulkan driver (code VK_ERROR_INCOMPATIBLE_DRIVER).
Expected<std::vector<DeviceInfo>> enumerate_devices(const Instance& instance);

}  // namespace bismuth::backend
