#include "bismuth/backend/device.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include "bismuth/backend/atomic_max.hpp"
#include "bismuth/backend/vk_strings.hpp"
#include "bismuth/backend/vulkan_loader.hpp"
#include "pipeline_layout_cache.hpp"
#include "sampler_cache.hpp"

namespace bismuth::backend {

namespace {

// A compute-capable family with timestamps; a compute-only family (no graphics) is preferred because on
// discrete GPUs it is the asynchronous compute engine that nothing else is queued on.
Expected<std::pair<uint32_t, uint32_t>> pick_queue_family(const InstanceFunctions& vki, VkPhysicalDevice physical) {
  uint32_t count = 0;
  vki.vkGetPhysicalDeviceQueueFamilyProperties(physical, &count, nullptr);
  std::vector<VkQueueFamilyProperties> families(count);
  vki.vkGetPhysicalDeviceQueueFamilyProperties(physical, &count, families.data());
  int best = -1;
  int best_score = -1;
  for (uint32_t i = 0; i < count; ++i) {
    if (!(families[i].queueFlags & VK_QUEUE_COMPUTE_BIT) || families[i].queueCount == 0) continue;
    int score = 1;
    if (!(families[i].queueFlags & VK_QUEUE_GRAPHICS_BIT)) score += 2;
    if (families[i].timestampValidBits != 0) score += 4;
    if (score > best_score) {
      best = static_cast<int>(i);
      best_score = score;
    }
  }
  if (best < 0) return fail("the device has no compute queue family");
  return std::pair<uint32_t, uint32_t>{static_cast<uint32_t>(best), families[best].timestampValidBits};
}

uint32_t timestamp_bits_of(const InstanceFunctions& vki, VkPhysicalDevice physical, uint32_t family) {
  uint32_t count = 0;
  vki.vkGetPhysicalDeviceQueueFamilyProperties(physical, &count, nullptr);
  std::vector<VkQueueFamilyProperties> families(count);
  vki.vkGetPhysicalDeviceQueueFamilyProperties(physical, &count, families.data());
  return family < count ? families[family].timestampValidBits : 0;
}

// Whether the queue family does graphics: Vulkan allows depth/stencil buffer-image copies and clears and
// vkCmdBlitImage only on such queues.
bool family_has_graphics(const InstanceFunctions& vki, VkPhysicalDevice physical, uint32_t family) {
  uint32_t count = 0;
  vki.vkGetPhysicalDeviceQueueFamilyProperties(physical, &count, nullptr);
  std::vector<VkQueueFamilyProperties> families(count);
  vki.vkGetPhysicalDeviceQueueFamilyProperties(physical, &count, families.data());
  return family < count && (families[family].queueFlags & VK_QUEUE_GRAPHICS_BIT) != 0;
}

std::string result_message(const char* call, VkResult result) {
  std::string message = std::string(call) + " failed: " + std::string(vk_result_string(result));
  if (result == VK_ERROR_OUT_OF_HOST_MEMORY || result == VK_ERROR_OUT_OF_DEVICE_MEMORY) {
    message += " (out of memory)";
  } else if (result == VK_ERROR_DEVICE_LOST) {
    message += " (the device is lost; every later call on this context fails)";
  }
  return message;
}

}  // namespace

// Long on purpose: the feature structs queried and the ones enabled are locals chained through pNext into
// vkCreateDevice, so they live in one scope; each optional feature is a few lines of the same query-then-enable
// pattern, read best side by side.
Expected<std::unique_ptr<Device>> Device::create(const Instance& instance, const DeviceInfo& info,
                                                 const DeviceOptions& options) {
  if (Status loaded = load_vulkan(); !loaded) return loaded.error();
  auto vki = InstanceFunctions::load_from_loader(instance.handle());
  if (!vki) return vki.error();
  std::unique_ptr<Device> self(new Device());
  self->vki_ = *vki;
  // Re-describe through the table so that DeviceInfo and the enabled features agree.
  self->info_ = describe_physical_device(self->vki_, info.handle, instance.api_version(), info.index);
  const DeviceInfo& d = self->info_;
  if (!d.has_timeline_semaphore) return fail(d.name + ": Bismuth needs timeline semaphores (Vulkan 1.2)");

  auto family = pick_queue_family(self->vki_, d.handle);
  if (!family) return family.error();
  self->queue_family_ = family->first;
  self->timestamp_valid_bits_ = family->second;
  self->graphics_queue_ = family_has_graphics(self->vki_, d.handle, self->queue_family_);

  const uint32_t version = std::min(instance.api_version(), d.api_version);
  std::vector<const char*> extensions;
  auto want_extension = [&](bool wanted, uint32_t core_version, const char* name) {
    if (wanted && version < core_version && d.has_extension(name)) extensions.push_back(name);
  };

  // Query the optional features, then enable exactly those the device has.
  VkPhysicalDeviceFeatures2 features2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  VkPhysicalDeviceTimelineSemaphoreFeatures timeline{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES};
  VkPhysicalDeviceSubgroupSizeControlFeatures size_control{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES};
  VkPhysicalDeviceMaintenance4Features maintenance4{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_4_FEATURES};
  VkPhysicalDeviceHostQueryResetFeatures host_query_reset{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_HOST_QUERY_RESET_FEATURES};
  VkPhysicalDevicePipelineCreationCacheControlFeatures cache_control{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_CREATION_CACHE_CONTROL_FEATURES};
  VkPhysicalDeviceShaderAtomicFloatFeaturesEXT atomic_float{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT};
  VkPhysicalDeviceShaderSubgroupExtendedTypesFeatures extended_types{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SUBGROUP_EXTENDED_TYPES_FEATURES};
  VkPhysicalDeviceShaderAtomicInt64Features atomic_int64{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_INT64_FEATURES};
  VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT atomic_float2{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_2_FEATURES_EXT};
  VkPhysicalDeviceShaderClockFeaturesKHR clock{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CLOCK_FEATURES_KHR};
  VkPhysicalDeviceComputeShaderDerivativesFeaturesNV derivatives{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COMPUTE_SHADER_DERIVATIVES_FEATURES_NV};
  const bool has_atomic_float = d.has_shader_atomic_float;
  VkPhysicalDeviceCustomBorderColorFeaturesEXT custom_border{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_CUSTOM_BORDER_COLOR_FEATURES_EXT};
  VkPhysicalDeviceBorderColorSwizzleFeaturesEXT border_swizzle{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BORDER_COLOR_SWIZZLE_FEATURES_EXT};
  // BISMUTH_BORDER_COLOR_SWIZZLE=off: as if the device lacked VK_EXT_border_color_swizzle (tests of the GL shim's
  // emulation on a device that has it: docs/gl_shim.md, "Textures and images at dispatch").
  const char* border_swizzle_env = std::getenv("BISMUTH_BORDER_COLOR_SWIZZLE");
  const bool border_swizzle_off = border_swizzle_env != nullptr && std::string_view(border_swizzle_env) == "off";
  const bool has_border_swizzle =
      !border_swizzle_off && d.has_custom_border_color && d.has_extension(VK_EXT_BORDER_COLOR_SWIZZLE_EXTENSION_NAME);
  VkPhysicalDeviceNonSeamlessCubeMapFeaturesEXT non_seamless{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_NON_SEAMLESS_CUBE_MAP_FEATURES_EXT};
  const bool has_non_seamless = d.has_extension(VK_EXT_NON_SEAMLESS_CUBE_MAP_EXTENSION_NAME);
  VkPhysicalDevice8BitStorageFeatures storage8{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_8BIT_STORAGE_FEATURES};
  VkPhysicalDevice16BitStorageFeatures storage16{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES};
  const bool has_storage8 = version >= VK_API_VERSION_1_2 || d.has_extension(VK_KHR_8BIT_STORAGE_EXTENSION_NAME);
  VkPhysicalDeviceBufferDeviceAddressFeatures device_address{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES};
  const bool has_device_address =
      version >= VK_API_VERSION_1_2 || d.has_extension(VK_KHR_BUFFER_DEVICE_ADDRESS_EXTENSION_NAME);
  const bool has_atomic_int64 =
      version >= VK_API_VERSION_1_2 || d.has_extension(VK_KHR_SHADER_ATOMIC_INT64_EXTENSION_NAME);
  const bool has_extended_types =
      version >= VK_API_VERSION_1_2 || d.has_extension(VK_KHR_SHADER_SUBGROUP_EXTENDED_TYPES_EXTENSION_NAME);
  void** next = &features2.pNext;
  auto chain = [&](auto& s) {
    *next = &s;
    next = &s.pNext;
  };
  chain(timeline);
  if (d.has_subgroup_size_control) chain(size_control);
  if (d.has_maintenance4) chain(maintenance4);
  if (d.has_host_query_reset) chain(host_query_reset);
  if (d.has_pipeline_creation_cache_control) chain(cache_control);
  if (has_atomic_float) chain(atomic_float);
  if (d.has_shader_atomic_float2) chain(atomic_float2);
  if (d.has_shader_clock) chain(clock);
  if (d.has_compute_shader_derivatives_nv) chain(derivatives);
  if (has_extended_types) chain(extended_types);
  if (has_atomic_int64) chain(atomic_int64);
  if (has_storage8) chain(storage8);
  if (has_device_address) chain(device_address);
  chain(storage16);  // Vulkan 1.1
  if (d.has_custom_border_color) chain(custom_border);
  if (has_border_swizzle) chain(border_swizzle);
  if (has_non_seamless) chain(non_seamless);
  self->vki_.vkGetPhysicalDeviceFeatures2(d.handle, &features2);
  if (!timeline.timelineSemaphore) return fail(d.name + ": the timelineSemaphore feature is not supported");

  DeviceFeatures& f = self->features_;
  f.timeline_semaphore = true;
  f.subgroup_size_control = d.has_subgroup_size_control && size_control.subgroupSizeControl;
  f.compute_full_subgroups = d.has_subgroup_size_control && size_control.computeFullSubgroups;
  f.maintenance4 = d.has_maintenance4 && maintenance4.maintenance4;
  f.host_query_reset = d.has_host_query_reset && host_query_reset.hostQueryReset;
  f.pipeline_creation_cache_control =
      d.has_pipeline_creation_cache_control && cache_control.pipelineCreationCacheControl;
  f.pipeline_creation_feedback = d.has_pipeline_creation_feedback;
  f.push_descriptor = d.has_push_descriptor;
  f.shader_int64 = features2.features.shaderInt64;
  f.shader_float64 = features2.features.shaderFloat64;
  f.shader_int16 = features2.features.shaderInt16;
  f.float32_buffer_atomics = has_atomic_float && atomic_float.shaderBufferFloat32Atomics;
  f.float32_buffer_atomic_add = has_atomic_float && atomic_float.shaderBufferFloat32AtomicAdd;
  f.float32_shared_atomics = has_atomic_float && atomic_float.shaderSharedFloat32Atomics;
  f.float32_shared_atomic_add = has_atomic_float && atomic_float.shaderSharedFloat32AtomicAdd;
  f.float32_image_atomics = has_atomic_float && atomic_float.shaderImageFloat32Atomics;
  f.float32_image_atomic_add = has_atomic_float && atomic_float.shaderImageFloat32AtomicAdd;
  f.float64_buffer_atomic_add = has_atomic_float && atomic_float.shaderBufferFloat64AtomicAdd;
  f.float32_buffer_atomic_min_max =
      has_atomic_float && d.has_shader_atomic_float2 && atomic_float2.shaderBufferFloat32AtomicMinMax;
  f.float32_shared_atomic_min_max =
      has_atomic_float && d.has_shader_atomic_float2 && atomic_float2.shaderSharedFloat32AtomicMinMax;
  f.shader_subgroup_clock = d.has_shader_clock && clock.shaderSubgroupClock;
  f.shader_device_clock = d.has_shader_clock && clock.shaderDeviceClock;
  f.compute_derivative_group_quads = d.has_compute_shader_derivatives_nv && derivatives.computeDerivativeGroupQuads;
  f.compute_derivative_group_linear = d.has_compute_shader_derivatives_nv && derivatives.computeDerivativeGroupLinear;
  f.subgroup_extended_types = has_extended_types && extended_types.shaderSubgroupExtendedTypes;
  f.int64_buffer_atomics = has_atomic_int64 && atomic_int64.shaderBufferInt64Atomics;
  f.int64_shared_atomics = has_atomic_int64 && atomic_int64.shaderSharedInt64Atomics;
  f.storage_buffer_8bit = has_storage8 && storage8.storageBuffer8BitAccess;
  f.storage_buffer_16bit = storage16.storageBuffer16BitAccess;
  // The addresses are 64-bit integers in shaders: without shaderInt64 there is nothing to hold them.
  f.buffer_device_address =
      has_device_address && device_address.bufferDeviceAddress && features2.features.shaderInt64;
  f.sampler_anisotropy = features2.features.samplerAnisotropy;
  f.storage_image_extended_formats = features2.features.shaderStorageImageExtendedFormats;
  f.storage_image_read_without_format = features2.features.shaderStorageImageReadWithoutFormat;
  f.storage_image_write_without_format = features2.features.shaderStorageImageWriteWithoutFormat;
  f.image_gather_extended = features2.features.shaderImageGatherExtended;
  f.image_cube_array = features2.features.imageCubeArray;
  f.storage_image_multisample = features2.features.shaderStorageImageMultisample;
  f.resource_min_lod = features2.features.shaderResourceMinLod;
  f.texture_compression_bc = features2.features.textureCompressionBC;
  f.texture_compression_etc2 = features2.features.textureCompressionETC2;
  f.custom_border_color =
      d.has_custom_border_color && custom_border.customBorderColors && custom_border.customBorderColorWithoutFormat;
  f.border_color_swizzle = f.custom_border_color && has_border_swizzle && border_swizzle.borderColorSwizzle;
  f.border_color_swizzle_from_image = f.border_color_swizzle && border_swizzle.borderColorSwizzleFromImage;
  f.non_seamless_cube_map = has_non_seamless && non_seamless.nonSeamlessCubeMap;
  f.sampler_mirror_clamp_to_edge = d.has_extension(VK_KHR_SAMPLER_MIRROR_CLAMP_TO_EDGE_EXTENSION_NAME);

  // Only the wanted bits stay set in what is passed to vkCreateDevice.
  VkPhysicalDeviceFeatures2 enable2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  enable2.features.shaderInt64 = f.shader_int64;
  enable2.features.shaderFloat64 = f.shader_float64;
  enable2.features.shaderInt16 = f.shader_int16;
  enable2.features.samplerAnisotropy = f.sampler_anisotropy;
  enable2.features.shaderStorageImageExtendedFormats = f.storage_image_extended_formats;
  enable2.features.shaderStorageImageReadWithoutFormat = f.storage_image_read_without_format;
  enable2.features.shaderStorageImageWriteWithoutFormat = f.storage_image_write_without_format;
  enable2.features.shaderImageGatherExtended = f.image_gather_extended;
  enable2.features.imageCubeArray = f.image_cube_array;
  enable2.features.shaderStorageImageMultisample = f.storage_image_multisample;
  enable2.features.shaderResourceMinLod = f.resource_min_lod;
  enable2.features.textureCompressionBC = f.texture_compression_bc;
  enable2.features.textureCompressionETC2 = f.texture_compression_etc2;
  VkPhysicalDeviceCustomBorderColorFeaturesEXT enable_custom_border{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_CUSTOM_BORDER_COLOR_FEATURES_EXT};
  enable_custom_border.customBorderColors = VK_TRUE;
  enable_custom_border.customBorderColorWithoutFormat = VK_TRUE;
  VkPhysicalDeviceBorderColorSwizzleFeaturesEXT enable_border_swizzle{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BORDER_COLOR_SWIZZLE_FEATURES_EXT};
  enable_border_swizzle.borderColorSwizzle = VK_TRUE;
  enable_border_swizzle.borderColorSwizzleFromImage = f.border_color_swizzle_from_image ? VK_TRUE : VK_FALSE;
  VkPhysicalDeviceNonSeamlessCubeMapFeaturesEXT enable_non_seamless{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_NON_SEAMLESS_CUBE_MAP_FEATURES_EXT};
  enable_non_seamless.nonSeamlessCubeMap = VK_TRUE;
  VkPhysicalDeviceShaderAtomicFloatFeaturesEXT enable_atomic_float{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT};
  enable_atomic_float.shaderBufferFloat32Atomics = f.float32_buffer_atomics;
  enable_atomic_float.shaderBufferFloat32AtomicAdd = f.float32_buffer_atomic_add;
  enable_atomic_float.shaderSharedFloat32Atomics = f.float32_shared_atomics;
  enable_atomic_float.shaderSharedFloat32AtomicAdd = f.float32_shared_atomic_add;
  enable_atomic_float.shaderImageFloat32Atomics = f.float32_image_atomics;
  enable_atomic_float.shaderImageFloat32AtomicAdd = f.float32_image_atomic_add;
  enable_atomic_float.shaderBufferFloat64AtomicAdd = f.float64_buffer_atomic_add;
  VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT enable_atomic_float2{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_2_FEATURES_EXT};
  enable_atomic_float2.shaderBufferFloat32AtomicMinMax = f.float32_buffer_atomic_min_max;
  enable_atomic_float2.shaderSharedFloat32AtomicMinMax = f.float32_shared_atomic_min_max;
  VkPhysicalDeviceShaderClockFeaturesKHR enable_clock{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CLOCK_FEATURES_KHR};
  enable_clock.shaderSubgroupClock = f.shader_subgroup_clock;
  enable_clock.shaderDeviceClock = f.shader_device_clock;
  VkPhysicalDeviceComputeShaderDerivativesFeaturesNV enable_derivatives{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COMPUTE_SHADER_DERIVATIVES_FEATURES_NV};
  enable_derivatives.computeDerivativeGroupQuads = f.compute_derivative_group_quads;
  enable_derivatives.computeDerivativeGroupLinear = f.compute_derivative_group_linear;
  VkPhysicalDeviceShaderSubgroupExtendedTypesFeatures enable_extended_types{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SUBGROUP_EXTENDED_TYPES_FEATURES};
  enable_extended_types.shaderSubgroupExtendedTypes = VK_TRUE;
  VkPhysicalDeviceShaderAtomicInt64Features enable_atomic_int64{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_INT64_FEATURES};
  enable_atomic_int64.shaderBufferInt64Atomics = f.int64_buffer_atomics;
  enable_atomic_int64.shaderSharedInt64Atomics = f.int64_shared_atomics;
  VkPhysicalDevice8BitStorageFeatures enable_storage8{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_8BIT_STORAGE_FEATURES};
  enable_storage8.storageBuffer8BitAccess = VK_TRUE;
  VkPhysicalDevice16BitStorageFeatures enable_storage16{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES};
  enable_storage16.storageBuffer16BitAccess = VK_TRUE;
  VkPhysicalDeviceBufferDeviceAddressFeatures enable_device_address{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES};
  enable_device_address.bufferDeviceAddress = VK_TRUE;
  VkPhysicalDeviceTimelineSemaphoreFeatures enable_timeline{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES};
  enable_timeline.timelineSemaphore = VK_TRUE;
  VkPhysicalDeviceSubgroupSizeControlFeatures enable_size_control{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES};
  enable_size_control.subgroupSizeControl = f.subgroup_size_control;
  enable_size_control.computeFullSubgroups = f.compute_full_subgroups;
  VkPhysicalDeviceMaintenance4Features enable_maintenance4{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_4_FEATURES};
  enable_maintenance4.maintenance4 = VK_TRUE;
  VkPhysicalDeviceHostQueryResetFeatures enable_query_reset{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_HOST_QUERY_RESET_FEATURES};
  enable_query_reset.hostQueryReset = VK_TRUE;
  VkPhysicalDevicePipelineCreationCacheControlFeatures enable_cache_control{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_CREATION_CACHE_CONTROL_FEATURES};
  enable_cache_control.pipelineCreationCacheControl = VK_TRUE;
  next = &enable2.pNext;
  chain(enable_timeline);
  want_extension(true, VK_API_VERSION_1_2, VK_KHR_TIMELINE_SEMAPHORE_EXTENSION_NAME);
  if (f.subgroup_size_control) {
    chain(enable_size_control);
    want_extension(true, VK_API_VERSION_1_3, VK_EXT_SUBGROUP_SIZE_CONTROL_EXTENSION_NAME);
  }
  if (f.maintenance4) {
    chain(enable_maintenance4);
    want_extension(true, VK_API_VERSION_1_3, VK_KHR_MAINTENANCE_4_EXTENSION_NAME);
  }
  if (f.host_query_reset) {
    chain(enable_query_reset);
    want_extension(true, VK_API_VERSION_1_2, VK_EXT_HOST_QUERY_RESET_EXTENSION_NAME);
  }
  if (f.pipeline_creation_cache_control) {
    chain(enable_cache_control);
    want_extension(true, VK_API_VERSION_1_3, VK_EXT_PIPELINE_CREATION_CACHE_CONTROL_EXTENSION_NAME);
  }
  want_extension(f.pipeline_creation_feedback, VK_API_VERSION_1_3, VK_EXT_PIPELINE_CREATION_FEEDBACK_EXTENSION_NAME);
  const bool float2_used = f.float32_buffer_atomic_min_max || f.float32_shared_atomic_min_max;
  if (f.float32_buffer_atomics || f.float32_buffer_atomic_add || f.float32_shared_atomics ||
      f.float32_shared_atomic_add || f.float32_image_atomics || f.float32_image_atomic_add ||
      f.float64_buffer_atomic_add || float2_used) {
    chain(enable_atomic_float);
    // VK_EXT_shader_atomic_float2 requires VK_EXT_shader_atomic_float, whose features may then all be off.
    extensions.push_back(VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME);
  }
  if (float2_used) {
    chain(enable_atomic_float2);
    extensions.push_back(VK_EXT_SHADER_ATOMIC_FLOAT_2_EXTENSION_NAME);
  }
  if (f.shader_subgroup_clock || f.shader_device_clock) {
    chain(enable_clock);
    extensions.push_back(VK_KHR_SHADER_CLOCK_EXTENSION_NAME);
  }
  if (f.compute_derivative_group_quads || f.compute_derivative_group_linear) {
    chain(enable_derivatives);
    extensions.push_back(VK_NV_COMPUTE_SHADER_DERIVATIVES_EXTENSION_NAME);
  }
  if (f.subgroup_extended_types) {
    chain(enable_extended_types);
    want_extension(true, VK_API_VERSION_1_2, VK_KHR_SHADER_SUBGROUP_EXTENDED_TYPES_EXTENSION_NAME);
  }
  if (f.int64_buffer_atomics || f.int64_shared_atomics) {
    chain(enable_atomic_int64);
    want_extension(true, VK_API_VERSION_1_2, VK_KHR_SHADER_ATOMIC_INT64_EXTENSION_NAME);
  }
  if (f.storage_buffer_8bit) {
    chain(enable_storage8);
    want_extension(true, VK_API_VERSION_1_2, VK_KHR_8BIT_STORAGE_EXTENSION_NAME);
  }
  if (f.storage_buffer_16bit) chain(enable_storage16);
  if (f.buffer_device_address) {
    chain(enable_device_address);
    want_extension(true, VK_API_VERSION_1_2, VK_KHR_BUFFER_DEVICE_ADDRESS_EXTENSION_NAME);
  }
  if (f.custom_border_color) {
    chain(enable_custom_border);
    extensions.push_back(VK_EXT_CUSTOM_BORDER_COLOR_EXTENSION_NAME);
  }
  if (f.border_color_swizzle) {
    chain(enable_border_swizzle);
    extensions.push_back(VK_EXT_BORDER_COLOR_SWIZZLE_EXTENSION_NAME);
  }
  // Also on Vulkan 1.2+ devices: the feature is in VkPhysicalDeviceVulkan12Features, which cannot be chained with the
  // single-feature structs above; the extension enables it (VUID-VkSamplerCreateInfo-addressModeU-01079).
  if (f.sampler_mirror_clamp_to_edge) extensions.push_back(VK_KHR_SAMPLER_MIRROR_CLAMP_TO_EDGE_EXTENSION_NAME);
  if (f.non_seamless_cube_map) {
    chain(enable_non_seamless);
    extensions.push_back(VK_EXT_NON_SEAMLESS_CUBE_MAP_EXTENSION_NAME);
  }
  if (f.push_descriptor) extensions.push_back(VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME);
  if (d.has_shader_subgroup_ballot) extensions.push_back(VK_EXT_SHADER_SUBGROUP_BALLOT_EXTENSION_NAME);
  if (d.has_shader_subgroup_vote) extensions.push_back(VK_EXT_SHADER_SUBGROUP_VOTE_EXTENSION_NAME);

  const float priority = 1.0f;
  VkDeviceQueueCreateInfo queue_info{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queue_info.queueFamilyIndex = self->queue_family_;
  queue_info.queueCount = 1;
  queue_info.pQueuePriorities = &priority;
  VkDeviceCreateInfo create{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  create.pNext = &enable2;
  create.queueCreateInfoCount = 1;
  create.pQueueCreateInfos = &queue_info;
  create.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
  create.ppEnabledExtensionNames = extensions.data();
  VkResult result = self->vki_.vkCreateDevice(d.handle, &create, nullptr, &self->device_);
  if (result != VK_SUCCESS) return fail(result_message("vkCreateDevice", result), result);
  self->owns_device_ = true;

  auto vk = DeviceFunctions::load(self->vki_.vkGetDeviceProcAddr, self->device_);
  if (!vk) {
    auto destroy =
        reinterpret_cast<PFN_vkDestroyDevice>(self->vki_.vkGetDeviceProcAddr(self->device_, "vkDestroyDevice"));
    if (destroy != nullptr) destroy(self->device_, nullptr);
    self->device_ = VK_NULL_HANDLE;
    return vk.error();
  }
  self->vk_ = *vk;
  self->vk_.vkGetDeviceQueue(self->device_, self->queue_family_, 0, &self->queue_);
  self->uses_staging_ = options.memory == MemoryStrategy::DeviceLocalWithStaging;
  self->uses_push_descriptors_ = options.use_push_descriptors && f.push_descriptor;
  if (Status ok = self->finish_setup(); !ok) return ok.error();
  if (options.memory == MemoryStrategy::Automatic) {
    // Dedicated memory: some device-local heap has no host-visible type (discrete GPUs); UMA otherwise.
    const auto& m = self->memory_properties_;
    bool dedicated = false;
    for (uint32_t i = 0; i < m.memoryTypeCount; ++i) {
      const VkMemoryPropertyFlags flags = m.memoryTypes[i].propertyFlags;
      if ((flags & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT) && !(flags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT)) {
        dedicated = true;
      }
    }
    self->uses_staging_ = dedicated;
  }
  return self;
}

Expected<std::unique_ptr<Device>> Device::adopt(const ExternalDevice& external, const DeviceOptions& options) {
  if (!external.enabled.timeline_semaphore && !external.no_submissions) {
    return fail("Device::adopt: the device must be created with the timelineSemaphore feature enabled");
  }
  if (external.device == VK_NULL_HANDLE || (external.queue == VK_NULL_HANDLE && !external.no_submissions) ||
      external.physical_device == VK_NULL_HANDLE || external.get_instance_proc_addr == nullptr ||
      external.get_device_proc_addr == nullptr) {
    return fail("Device::adopt: instance, physical device, device, queue and both GetProcAddr are required");
  }
  std::unique_ptr<Device> self(new Device());
  auto vki = InstanceFunctions::load(external.get_instance_proc_addr, external.instance);
  if (!vki) return vki.error();
  self->vki_ = *vki;
  self->info_ = describe_physical_device(self->vki_, external.physical_device, external.instance_api_version);
  auto vk = DeviceFunctions::load(external.get_device_proc_addr, external.device);
  if (!vk) return vk.error();
  self->vk_ = *vk;
  self->device_ = external.device;
  self->queue_ = external.queue;
  self->queue_family_ = external.queue_family;
  self->owns_device_ = false;
  self->external_queue_mutex_ = external.queue_mutex;
  self->features_ = external.enabled;
  self->no_submissions_ = external.no_submissions;
  if (self->features_.push_descriptor && self->vk_.vkCmdPushDescriptorSetKHR == nullptr) {
    self->features_.push_descriptor = false;
  }
  self->timestamp_valid_bits_ = timestamp_bits_of(self->vki_, external.physical_device, external.queue_family);
  self->graphics_queue_ = family_has_graphics(self->vki_, external.physical_device, external.queue_family);
  self->uses_push_descriptors_ = options.use_push_descriptors && self->features_.push_descriptor;
  if (Status ok = self->finish_setup(); !ok) return ok.error();
  const auto& m = self->memory_properties_;
  bool dedicated = false;
  for (uint32_t i = 0; i < m.memoryTypeCount; ++i) {
    const VkMemoryPropertyFlags flags = m.memoryTypes[i].propertyFlags;
    if ((flags & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT) && !(flags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT))
      dedicated = true;
  }
  self->uses_staging_ = options.memory == MemoryStrategy::DeviceLocalWithStaging ||
                        (options.memory == MemoryStrategy::Automatic && dedicated);
  return self;
}

namespace {

// How long Device::wait reads the timeline counter before it sleeps in vkWaitSemaphores: BISMUTH_WAIT_SPIN_US
// (microseconds, at most 10000), else 100 µs on a GPU and none on a CPU device, where the spinning thread would take
// a core from the driver's threads that execute the work it waits for.
uint64_t wait_spin_ns(const DeviceInfo& info) {
  if (const char* value = std::getenv("BISMUTH_WAIT_SPIN_US"); value != nullptr && *value != '\0') {
    const std::string_view digits(value);
    if (digits.size() <= 5 && digits.find_first_not_of("0123456789") == std::string_view::npos) {
      return std::min<uint64_t>(std::stoul(std::string(digits)), 10'000) * 1000;
    }
  }
  return info.is_gpu() ? 100'000 : 0;
}

}  // namespace

Status Device::finish_setup() {
  wait_spin_ns_ = wait_spin_ns(info_);
  samplers_ = std::make_shared<SamplerCache>();
  pipeline_layouts_ = std::make_shared<PipelineLayoutCache>();
  vki_.vkGetPhysicalDeviceMemoryProperties(info_.handle, &memory_properties_);
  if (no_submissions_) return {};  // no timeline: see ExternalDevice::no_submissions
  if (vk_.vkWaitSemaphores == nullptr || vk_.vkGetSemaphoreCounterValue == nullptr) {
    return fail("vkGetDeviceProcAddr returned no vkWaitSemaphores/vkGetSemaphoreCounterValue",
                VK_ERROR_INITIALIZATION_FAILED);
  }
  VkSemaphoreTypeCreateInfo type{VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO};
  type.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
  type.initialValue = 0;
  VkSemaphoreCreateInfo info{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
  info.pNext = &type;
  if (Status ok = call("vkCreateSemaphore", vk_.vkCreateSemaphore, device_, &info, nullptr, &timeline_); !ok) {
    return ok;
  }
  // Idled at process exit (Devices phase), after the callers and threads that submit were stopped.
  (void)exit_register(*this, ExitPhase::Devices);
  return {};
}

void Device::wait_signalled(uint64_t timeout_ns) {
  // Only what reached the queue: values reserved but never submitted (a recording thread stopped before their
  // submission) will not signal.
  const uint64_t last = signalled_.load(std::memory_order_acquire);
  if (last == 0) return;
  VkSemaphoreWaitInfo wait_info{VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO};
  wait_info.semaphoreCount = 1;
  wait_info.pSemaphores = &timeline_;
  wait_info.pValues = &last;
  (void)vk_.vkWaitSemaphores(device_, &wait_info, timeout_ns);
}

void Device::stop_for_exit() noexcept {
  if (timeline_ == VK_NULL_HANDLE || lost()) return;
  wait_signalled(10'000'000'000);  // bounded, so that a hung GPU cannot hang the exit
}

Device::~Device() {
  exit_unregister(*this);
  if (device_ == VK_NULL_HANDLE) return;
  if (timeline_ != VK_NULL_HANDLE) {
    if (owns_device_) {
      vk_.vkDeviceWaitIdle(device_);
    } else {
      wait_signalled(UINT64_MAX);  // only Bismuth's own work: the owner may still be using its device
    }
  }
  // Everything deferred runs now: the device is idle (or lost, where nothing is executing any more).
  std::vector<std::pair<uint64_t, std::function<void()>>> due;
  {
    std::lock_guard lock(deferred_mutex_);
    due.swap(deferred_);
  }
  for (auto& entry : due) entry.second();
  if (samplers_) samplers_->destroy_all(vk_, device_);
  if (pipeline_layouts_) pipeline_layouts_->destroy_all(vk_, device_);
  if (timeline_ != VK_NULL_HANDLE) vk_.vkDestroySemaphore(device_, timeline_, nullptr);
  if (owns_device_) vk_.vkDestroyDevice(device_, nullptr);
}

Error Device::lost_error() const {
  return Error{"the Vulkan device is lost (VK_ERROR_DEVICE_LOST); this context can no longer be used",
               VK_ERROR_DEVICE_LOST};
}

Status Device::alive() const {
  if (lost()) return lost_error();
  return {};
}

Status Device::check(VkResult result, const char* call) {
  if (result >= VK_SUCCESS) return {};
  if (result == VK_ERROR_DEVICE_LOST) lost_.store(true, std::memory_order_release);
  return fail(result_message(call, result), result);
}

void Device::inject_fault(VkResult result, std::string call_name) {
  std::lock_guard lock(fault_mutex_);
  fault_result_ = result;
  fault_call_ = std::move(call_name);
  fault_armed_.store(true, std::memory_order_release);
}

bool Device::take_fault(const char* name, VkResult* result) {
  std::lock_guard lock(fault_mutex_);
  if (!fault_armed_.load(std::memory_order_relaxed)) return false;
  if (!fault_call_.empty() && fault_call_ != name) return false;
  *result = fault_result_;
  fault_armed_.store(false, std::memory_order_relaxed);
  return true;
}

Expected<uint64_t> Device::reserve() {
  if (lost()) return lost_error();
  if (no_submissions_) return fail("Device: adopted with no_submissions; Bismuth does not submit on this device");
  return reserved_.fetch_add(1, std::memory_order_acq_rel) + 1;
}

template <class Submit>
Status Device::submit_in_turn(uint64_t value, const char* call_name, const Submit& submit,
                              const std::function<void(const Error&)>& on_failure) {
  if (queued_.load(std::memory_order_acquire) != value - 1) {
    std::unique_lock lock(turn_mutex_);
    turn_cv_.wait(lock, [&] { return queued_.load(std::memory_order_relaxed) == value - 1; });
  }
  // value's turn: no other thread of Bismuth's submits until queued_ moves on.
  Status status;
  bool signalled = true;
  {
    std::unique_lock<std::mutex> external;
    if (external_queue_mutex_ != nullptr) external = std::unique_lock(*external_queue_mutex_);
    status = call(call_name, [&] { return submit(); });
    // Drivers may start submission threads (and their exit-time teardown) at the first submission: the exit
    // stop must run before that teardown (process_exit.hpp).
    ensure_exit_handler_after(DriverMilestone::FirstSubmission);
    if (!status) {
      // Waiters may already wait for `value`: signal it anyway, with an empty submission queued after value - 1's
      // (a host vkSignalSemaphore could not be: value - 1 may still be pending). Directly, not through call(): an
      // injected fault is for the real submission. A failed submission changed nothing (Vulkan spec,
      // vkQueueSubmit), so `value` is not signalled yet.
      VkTimelineSemaphoreSubmitInfo timeline_info{VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO};
      timeline_info.signalSemaphoreValueCount = 1;
      timeline_info.pSignalSemaphoreValues = &value;
      VkSubmitInfo empty{VK_STRUCTURE_TYPE_SUBMIT_INFO};
      empty.pNext = &timeline_info;
      empty.signalSemaphoreCount = 1;
      empty.pSignalSemaphores = &timeline_;
      signalled = vk_.vkQueueSubmit(queue_, 1, &empty, VK_NULL_HANDLE) == VK_SUCCESS;
    }
  }
  if (!status && on_failure) on_failure(status.error());
  // Nothing will signal `value`: mark the device lost, so that every wait on it ends (Device::wait checks lost()).
  if (!signalled) lost_.store(true, std::memory_order_release);
  {
    std::lock_guard lock(turn_mutex_);
    if (signalled) signalled_.store(value, std::memory_order_release);
    queued_.store(value, std::memory_order_release);
  }
  turn_cv_.notify_all();
  return status;
}

Status Device::submit_reserved(uint64_t value, std::span<const VkCommandBuffer> command_buffers,
                               const std::function<void(const Error&)>& on_failure) {
  return submit_in_turn(
      value, "vkQueueSubmit",
      [&] {
        VkTimelineSemaphoreSubmitInfo timeline_info{VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO};
        timeline_info.signalSemaphoreValueCount = 1;
        timeline_info.pSignalSemaphoreValues = &value;
        VkSubmitInfo submit_info{VK_STRUCTURE_TYPE_SUBMIT_INFO};
        submit_info.pNext = &timeline_info;
        submit_info.commandBufferCount = static_cast<uint32_t>(command_buffers.size());
        submit_info.pCommandBuffers = command_buffers.data();
        submit_info.signalSemaphoreCount = 1;
        submit_info.pSignalSemaphores = &timeline_;
        return vk_.vkQueueSubmit(queue_, 1, &submit_info, VK_NULL_HANDLE);
      },
      on_failure);
}

Expected<uint64_t> Device::submit_with(const std::function<VkResult(VkSemaphore, uint64_t)>& submit,
                                       const char* call_name) {
  auto value = reserve();
  if (!value) return value.error();
  const uint64_t v = *value;
  Status ok = submit_in_turn(
      v, call_name, [&] { return submit(timeline_, v); }, nullptr);
  if (!ok) return ok.error();
  return v;
}

Expected<uint64_t> Device::submit(std::span<const VkCommandBuffer> command_buffers) {
  auto value = reserve();
  if (!value) return value.error();
  if (Status ok = submit_reserved(*value, command_buffers); !ok) return ok.error();
  return *value;
}

uint64_t Device::completed() {
  uint64_t value = 0;
  if (timeline_ == VK_NULL_HANDLE || lost() ||
      vk_.vkGetSemaphoreCounterValue(device_, timeline_, &value) != VK_SUCCESS) {
    return completed_.load(std::memory_order_acquire);
  }
  const uint64_t done = raise_to(completed_, value);
  uint64_t pending = first_execution_pending_.load(std::memory_order_acquire);
  // Whatever the driver's threads registered while executing `pending` happened before its signal, which this
  // thread has now seen: a registration from here comes after theirs, so the exit stop runs before them.
  if (pending != 0 && pending <= done &&
      first_execution_pending_.compare_exchange_strong(pending, 0, std::memory_order_acq_rel)) {
    register_exit_handler_again();
  }
  return done;
}

void Device::note_first_execution(uint64_t value) {
  raise_to(first_execution_pending_, value);
  // Another thread may have seen `value` complete already (between its submission and this note): then nothing
  // may poll again, so check here.
  if (value <= completed_.load(std::memory_order_acquire)) (void)completed();
}

Status Device::wait_queued(uint64_t value, uint64_t timeout_ns) {
  if (lost()) return lost_error();
  if (value > last_submitted())
    return fail("Device::wait: timeline value " + std::to_string(value) + " was never submitted");
  if (value > queued_.load(std::memory_order_acquire)) {
    // Reserved, not submitted yet (a recording thread submits it). It always settles (reserve()), and marks the
    // device lost when nothing can signal the value.
    std::unique_lock lock(turn_mutex_);
    auto queued = [&] { return queued_.load(std::memory_order_relaxed) >= value || lost(); };
    if (timeout_ns == UINT64_MAX) {
      turn_cv_.wait(lock, queued);
    } else if (!turn_cv_.wait_for(lock, std::chrono::nanoseconds(std::min<uint64_t>(timeout_ns, 1ull << 60)), queued)) {
      return {};  // timed out: not an error, like VK_TIMEOUT in wait()
    }
  }
  if (lost()) return lost_error();
  return {};
}

Status Device::wait(uint64_t value, uint64_t timeout_ns) {
  // A value not yet queued (or never reserved: it is above every queued one), or a lost device: wait_queued decides.
  if (value > queued_.load(std::memory_order_acquire) || lost()) {
    // The submission first (a recording thread makes it), then the GPU with what is left of the timeout.
    const auto start = std::chrono::steady_clock::now();
    if (Status ok = wait_queued(value, timeout_ns); !ok) return ok;
    if (value > queued_.load(std::memory_order_acquire)) return {};  // timed out (callers check is_complete)
    if (timeout_ns != UINT64_MAX) {
      const auto spent = uint64_t(
          std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start).count());
      timeout_ns = spent >= timeout_ns ? 0 : timeout_ns - spent;
    }
  }
  if (value <= completed_.load(std::memory_order_acquire)) {
    collect();
    return {};
  }
  // A readback right after a small dispatch waits tens of microseconds. Sleeping in vkWaitSemaphores adds the
  // interrupt and the scheduler's wake-up to that, at every glMapBufferRange of a program loop; reading the
  // counter for a bounded time first returns as soon as the GPU signals (wait_spin_ns: GPUs only, see there).
  // Not while a fault is injected (tests): a spin that saw the work complete would never reach the call it names.
  if (wait_spin_ns_ > 0 && timeout_ns > 0 && !fault_armed_.load(std::memory_order_relaxed)) {
    const auto start = std::chrono::steady_clock::now();
    const auto limit = std::chrono::nanoseconds(std::min(wait_spin_ns_, timeout_ns));
    while (true) {
      if (value <= completed()) {
        collect();
        return {};
      }
      if (lost()) return lost_error();
      const auto spent = std::chrono::steady_clock::now() - start;
      if (spent >= limit) {
        if (timeout_ns != UINT64_MAX) {
          timeout_ns -=
              std::min<uint64_t>(timeout_ns, std::chrono::duration_cast<std::chrono::nanoseconds>(spent).count());
        }
        break;
      }
    }
  }
  VkSemaphoreWaitInfo wait_info{VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO};
  wait_info.semaphoreCount = 1;
  wait_info.pSemaphores = &timeline_;
  wait_info.pValues = &value;
  if (Status ok = call("vkWaitSemaphores", vk_.vkWaitSemaphores, device_, &wait_info, timeout_ns); !ok) return ok;
  completed();
  collect();
  return {};
}

void Device::defer(uint64_t value, std::function<void()> destroy) {
  if (value == 0 || value <= completed_.load(std::memory_order_acquire)) {
    destroy();
    return;
  }
  std::lock_guard lock(deferred_mutex_);
  deferred_.emplace_back(value, std::move(destroy));
  if (value < earliest_deferred_.load(std::memory_order_relaxed)) {
    earliest_deferred_.store(value, std::memory_order_relaxed);
  }
}

std::shared_ptr<Shader> Device::shared_variant(std::pair<uint64_t, uint64_t> key) {
  std::lock_guard lock(shared_variants_mutex_);
  auto it = shared_variants_.find(key);
  return it == shared_variants_.end() ? nullptr : it->second.lock();
}

std::shared_ptr<Shader> Device::share_variant(std::pair<uint64_t, uint64_t> key, std::shared_ptr<Shader> variant) {
  std::lock_guard lock(shared_variants_mutex_);
  std::weak_ptr<Shader>& slot = shared_variants_[key];
  if (std::shared_ptr<Shader> existing = slot.lock()) return existing;
  slot = variant;
  // Entries of variants that are gone: swept whenever the map has doubled since the last sweep.
  if (shared_variants_.size() > 2 * std::max<size_t>(shared_variants_pruned_at_, 64)) {
    std::erase_if(shared_variants_, [](const auto& entry) { return entry.second.expired(); });
    shared_variants_pruned_at_ = shared_variants_.size();
  }
  return variant;
}

void Device::collect() {
  if (earliest_deferred_.load(std::memory_order_relaxed) > completed_.load(std::memory_order_acquire)) return;
  const uint64_t done = completed();
  std::vector<std::function<void()>> due;
  {
    std::lock_guard lock(deferred_mutex_);
    uint64_t earliest = UINT64_MAX;
    auto keep = std::partition(deferred_.begin(), deferred_.end(), [&](const auto& e) { return e.first > done; });
    for (auto it = deferred_.begin(); it != keep; ++it) earliest = std::min(earliest, it->first);
    for (auto it = keep; it != deferred_.end(); ++it) due.push_back(std::move(it->second));
    deferred_.erase(keep, deferred_.end());
    earliest_deferred_.store(earliest, std::memory_order_relaxed);
  }
  for (auto& destroy : due) destroy();
}

void Device::drain_after_loss() {
  wait_signalled(2'000'000'000);
}

size_t Device::deferred_count() const {
  std::lock_guard lock(deferred_mutex_);
  return deferred_.size();
}

}  // namespace bismuth::backend
