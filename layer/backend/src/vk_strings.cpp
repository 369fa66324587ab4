#include "bismuth/backend/vk_strings.hpp"

namespace bismuth::backend {

std::string_view vk_result_string(VkResult result) {
  switch (result) {
#define BISMUTH_CASE(name) \
  case name: return #name;
    BISMUTH_CASE(VK_SUCCESS)
    BISMUTH_CASE(VK_NOT_READY)
    BISMUTH_CASE(VK_TIMEOUT)
    BISMUTH_CASE(VK_EVENT_SET)
    BISMUTH_CASE(VK_EVENT_RESET)
    BISMUTH_CASE(VK_INCOMPLETE)
    BISMUTH_CASE(VK_ERROR_OUT_OF_HOST_MEMORY)
    BISMUTH_CASE(VK_ERROR_OUT_OF_DEVICE_MEMORY)
    BISMUTH_CASE(VK_ERROR_INITIALIZATION_FAILED)
    BISMUTH_CASE(VK_ERROR_DEVICE_LOST)
    BISMUTH_CASE(VK_ERROR_MEMORY_MAP_FAILED)
    BISMUTH_CASE(VK_ERROR_LAYER_NOT_PRESENT)
    BISMUTH_CASE(VK_ERROR_EXTENSION_NOT_PRESENT)
    BISMUTH_CASE(VK_ERROR_FEATURE_NOT_PRESENT)
    BISMUTH_CASE(VK_ERROR_INCOMPATIBLE_DRIVER)
    BISMUTH_CASE(VK_ERROR_TOO_MANY_OBJECTS)
    BISMUTH_CASE(VK_ERROR_FORMAT_NOT_SUPPORTED)
    BISMUTH_CASE(VK_ERROR_FRAGMENTED_POOL)
    BISMUTH_CASE(VK_ERROR_UNKNOWN)
    BISMUTH_CASE(VK_ERROR_OUT_OF_POOL_MEMORY)
    BISMUTH_CASE(VK_ERROR_INVALID_EXTERNAL_HANDLE)
    BISMUTH_CASE(VK_ERROR_FRAGMENTATION)
    BISMUTH_CASE(VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS)
    BISMUTH_CASE(VK_PIPELINE_COMPILE_REQUIRED)
    BISMUTH_CASE(VK_ERROR_INVALID_SHADER_NV)
#undef BISMUTH_CASE
    default: return "VkResult(unknown)";
  }
}

std::string vk_version_string(uint32_t version) {
  return std::to_string(VK_API_VERSION_MAJOR(version)) + '.' + std::to_string(VK_API_VERSION_MINOR(version)) + '.' +
         std::to_string(VK_API_VERSION_PATCH(version));
}

std::string_view device_type_string(VkPhysicalDeviceType type) {
  switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return "integrated-gpu";
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return "discrete-gpu";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return "virtual-gpu";
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return "cpu";
    default: return "other";
  }
}

std::vector<std::string> subgroup_operation_names(VkSubgroupFeatureFlags flags) {
  static constexpr std::pair<VkSubgroupFeatureFlagBits, const char*> kNames[] = {
      {VK_SUBGROUP_FEATURE_BASIC_BIT, "basic"},
      {VK_SUBGROUP_FEATURE_VOTE_BIT, "vote"},
      {VK_SUBGROUP_FEATURE_ARITHMETIC_BIT, "arithmetic"},
      {VK_SUBGROUP_FEATURE_BALLOT_BIT, "ballot"},
      {VK_SUBGROUP_FEATURE_SHUFFLE_BIT, "shuffle"},
      {VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT, "shuffle-relative"},
      {VK_SUBGROUP_FEATURE_CLUSTERED_BIT, "clustered"},
      {VK_SUBGROUP_FEATURE_QUAD_BIT, "quad"},
      {VK_SUBGROUP_FEATURE_PARTITIONED_BIT_NV, "partitioned-nv"},
  };
  std::vector<std::string> names;
  for (const auto& [bit, name] : kNames) {
    if (flags & bit) names.emplace_back(name);
  }
  return names;
}

}  // namespace bismuth::backend
