#include "bismuth/backend/device_info.hpp"

#include <algorithm>
#include <cstring>

#include "bismuth/backend/vk_strings.hpp"

namespace bismuth::backend {

namespace {

std::vector<std::string> device_extensions(const InstanceFunctions& vki, VkPhysicalDevice device) {
  uint32_t count = 0;
  std::vector<std::string> names;
  if (vki.vkEnumerateDeviceExtensionProperties(device, nullptr, &count, nullptr) != VK_SUCCESS) return names;
  std::vector<VkExtensionProperties> properties(count);
  if (vki.vkEnumerateDeviceExtensionProperties(device, nullptr, &count, properties.data()) < VK_SUCCESS) {
    return names;
  }
  for (uint32_t i = 0; i < count; ++i) names.emplace_back(properties[i].extensionName);
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace

DeviceInfo describe_physical_device(const InstanceFunctions& vki, VkPhysicalDevice device, uint32_t instance_version,
                                    uint32_t index) {
  DeviceInfo info;
  info.index = index;
  info.handle = device;
  info.extensions = device_extensions(vki, device);

  VkPhysicalDeviceProperties basic{};
  vki.vkGetPhysicalDeviceProperties(device, &basic);
  // Properties2 structures beyond the instance's or the device's version are off limits.
  const uint32_t version = std::min(instance_version, basic.apiVersion);

  info.has_shader_subgroup_ballot = info.has_extension(VK_EXT_SHADER_SUBGROUP_BALLOT_EXTENSION_NAME);
  info.has_shader_subgroup_vote = info.has_extension(VK_EXT_SHADER_SUBGROUP_VOTE_EXTENSION_NAME);
  info.has_subgroup_size_control =
      version >= VK_API_VERSION_1_3 || info.has_extension(VK_EXT_SUBGROUP_SIZE_CONTROL_EXTENSION_NAME);
  info.has_maintenance4 = version >= VK_API_VERSION_1_3 || info.has_extension(VK_KHR_MAINTENANCE_4_EXTENSION_NAME);
  info.has_push_descriptor = info.has_extension(VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME);
  info.has_timeline_semaphore =
      version >= VK_API_VERSION_1_2 || info.has_extension(VK_KHR_TIMELINE_SEMAPHORE_EXTENSION_NAME);
  info.has_host_query_reset =
      version >= VK_API_VERSION_1_2 || info.has_extension(VK_EXT_HOST_QUERY_RESET_EXTENSION_NAME);
  info.has_pipeline_creation_cache_control =
      version >= VK_API_VERSION_1_3 || info.has_extension(VK_EXT_PIPELINE_CREATION_CACHE_CONTROL_EXTENSION_NAME);
  info.has_pipeline_creation_feedback =
      version >= VK_API_VERSION_1_3 || info.has_extension(VK_EXT_PIPELINE_CREATION_FEEDBACK_EXTENSION_NAME);
  info.has_shader_clock = info.has_extension(VK_KHR_SHADER_CLOCK_EXTENSION_NAME);
  info.has_custom_border_color = info.has_extension(VK_EXT_CUSTOM_BORDER_COLOR_EXTENSION_NAME);
  info.has_shader_atomic_float = info.has_extension(VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME);
  info.has_shader_atomic_float2 = info.has_extension(VK_EXT_SHADER_ATOMIC_FLOAT_2_EXTENSION_NAME);
  info.has_compute_shader_derivatives_nv = info.has_extension(VK_NV_COMPUTE_SHADER_DERIVATIVES_EXTENSION_NAME);
  const bool has_driver_properties =
      version >= VK_API_VERSION_1_2 || info.has_extension(VK_KHR_DRIVER_PROPERTIES_EXTENSION_NAME);

  VkPhysicalDeviceProperties2 properties{};
  properties.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
  VkPhysicalDeviceSubgroupProperties subgroup{};
  subgroup.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES;
  VkPhysicalDeviceSubgroupSizeControlPropertiesEXT size_control{};
  size_control.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_PROPERTIES_EXT;
  VkPhysicalDevicePushDescriptorPropertiesKHR push_descriptor{};
  push_descriptor.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PUSH_DESCRIPTOR_PROPERTIES_KHR;
  VkPhysicalDeviceDriverPropertiesKHR driver{};
  driver.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES_KHR;
  VkPhysicalDeviceIDProperties ids{};
  ids.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES;

  void** next = &properties.pNext;
  if (version >= VK_API_VERSION_1_1) {
    *next = &subgroup;
    next = &subgroup.pNext;
    *next = &ids;
    next = &ids.pNext;
  }
  if (info.has_subgroup_size_control) {
    *next = &size_control;
    next = &size_control.pNext;
  }
  if (has_driver_properties) {
    *next = &driver;
    next = &driver.pNext;
  }
  if (info.has_push_descriptor) {
    *next = &push_descriptor;
    next = &push_descriptor.pNext;
  }
  if (version >= VK_API_VERSION_1_1) {
    vki.vkGetPhysicalDeviceProperties2(device, &properties);
  } else {
    // A Vulkan 1.0 instance (the layer adopting a 1.0 application's device) has no vkGetPhysicalDeviceProperties2:
    // the core properties only; the extended ones stay zero.
    properties.properties = basic;
  }

  const VkPhysicalDeviceProperties& p = properties.properties;
  info.name = p.deviceName;
  info.type = p.deviceType;
  info.vendor_id = p.vendorID;
  info.device_id = p.deviceID;
  info.api_version = p.apiVersion;
  info.driver_version = p.driverVersion;
  std::copy(std::begin(p.pipelineCacheUUID), std::end(p.pipelineCacheUUID), info.pipeline_cache_uuid.begin());
  if (version >= VK_API_VERSION_1_1) {
    info.has_id_properties = true;
    std::copy(std::begin(ids.deviceUUID), std::end(ids.deviceUUID), info.device_uuid.begin());
    std::copy(std::begin(ids.driverUUID), std::end(ids.driverUUID), info.driver_uuid.begin());
  }
  if (has_driver_properties) {
    info.driver_name = driver.driverName;
    info.driver_info = driver.driverInfo;
  }

  info.subgroup_size = subgroup.subgroupSize;
  info.subgroup_supported_stages = subgroup.supportedStages;
  info.subgroup_supported_operations = subgroup.supportedOperations;
  info.quad_operations_in_all_stages = subgroup.quadOperationsInAllStages == VK_TRUE;
  if (info.has_subgroup_size_control && size_control.minSubgroupSize != 0) {
    info.subgroup_size_control = true;
    info.min_subgroup_size = size_control.minSubgroupSize;
    info.max_subgroup_size = size_control.maxSubgroupSize;
    info.required_subgroup_size_stages = size_control.requiredSubgroupSizeStages;
    info.max_compute_workgroup_subgroups = size_control.maxComputeWorkgroupSubgroups;
  } else {
    info.min_subgroup_size = info.max_subgroup_size = subgroup.subgroupSize;
  }

  for (int i = 0; i < 3; ++i) {
    info.max_compute_work_group_size[i] = p.limits.maxComputeWorkGroupSize[i];
    info.max_compute_work_group_count[i] = p.limits.maxComputeWorkGroupCount[i];
  }
  info.max_compute_work_group_invocations = p.limits.maxComputeWorkGroupInvocations;
  info.max_compute_shared_memory_size = p.limits.maxComputeSharedMemorySize;
  info.min_storage_buffer_offset_alignment = std::max<VkDeviceSize>(1, p.limits.minStorageBufferOffsetAlignment);
  info.min_uniform_buffer_offset_alignment = std::max<VkDeviceSize>(1, p.limits.minUniformBufferOffsetAlignment);
  info.non_coherent_atom_size = std::max<VkDeviceSize>(1, p.limits.nonCoherentAtomSize);
  info.max_push_constants_size = p.limits.maxPushConstantsSize;
  info.max_uniform_buffer_range = p.limits.maxUniformBufferRange;
  info.max_storage_buffer_range = p.limits.maxStorageBufferRange;
  info.min_texel_buffer_offset_alignment = std::max<VkDeviceSize>(1, p.limits.minTexelBufferOffsetAlignment);
  info.max_texel_buffer_elements = p.limits.maxTexelBufferElements;
  info.max_sampler_allocation_count = p.limits.maxSamplerAllocationCount;
  info.max_sampler_anisotropy = p.limits.maxSamplerAnisotropy;
  info.max_sampler_lod_bias = p.limits.maxSamplerLodBias;
  info.max_push_descriptors = info.has_push_descriptor ? push_descriptor.maxPushDescriptors : 0;
  info.timestamp_period_ns = p.limits.timestampPeriod;
  info.timestamp_compute_and_graphics = p.limits.timestampComputeAndGraphics == VK_TRUE;
  return info;
}

bool DeviceInfo::has_extension(const char* extension) const {
  return std::binary_search(extensions.begin(), extensions.end(), std::string(extension));
}

Expected<std::vector<DeviceInfo>> enumerate_devices(const Instance& instance) {
  auto vki = InstanceFunctions::load_from_loader(instance.handle());
  if (!vki) return vki.error();
  uint32_t count = 0;
  VkResult result = vki->vkEnumeratePhysicalDevices(instance.handle(), &count, nullptr);
  if (result != VK_SUCCESS) {
    return fail("vkEnumeratePhysicalDevices failed: " + std::string(vk_result_string(result)), result);
  }
  std::vector<VkPhysicalDevice> devices(count);
  result = vki->vkEnumeratePhysicalDevices(instance.handle(), &count, devices.data());
  if (result < VK_SUCCESS) {
    return fail("vkEnumeratePhysicalDevices failed: " + std::string(vk_result_string(result)), result);
  }
  devices.resize(count);
  if (devices.empty()) {
    return fail(
        "no Vulkan driver found: the loader reports no physical device (install the Debian package "
        "mesa-vulkan-drivers for lavapipe, or your GPU's Vulkan driver)",
        VK_ERROR_INCOMPATIBLE_DRIVER);
  }
  std::vector<DeviceInfo> infos;
  infos.reserve(devices.size());
  for (uint32_t i = 0; i < devices.size(); ++i) {
    infos.push_back(describe_physical_device(*vki, devices[i], instance.api_version(), i));
  }
  return infos;
}

}  // namespace bismuth::backend
