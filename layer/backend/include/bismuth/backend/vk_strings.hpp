// Human-readable names for Vulkan enums and versions, for messages and `bismuth devices`.
#pragma once

#include <volk.h>

#include <string>
#include <string_view>
#include <vector>

namespace bismuth::backend {

std::string_view vk_result_string(VkResult result);
std::string vk_version_string(uint32_t version);  // "1.3.230"
std::string_view device_type_string(VkPhysicalDeviceType type);  // "discrete-gpu", "cpu", ...
// Names of the set bits of VkSubgroupFeatureFlags ("basic", "vote", "ballot", ...), lowest bit first.
std::vector<std::string> subgroup_operation_names(VkSubgroupFeatureFlags flags);

}  // namespace bismuth::backend
