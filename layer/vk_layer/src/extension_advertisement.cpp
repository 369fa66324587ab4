// Which extensions the layer provides on a physical device, and how it advertises them: the device extension
// list (vkEnumerateDeviceExtensionProperties), the feature and property structures (vkGetPhysicalDevice*2).
#include <algorithm>
#include <cstring>

#include "hooks.hpp"

namespace bismuth::vk_layer {
namespace {

constexpr VkExtensionProperties kBallot{VK_EXT_SHADER_SUBGROUP_BALLOT_EXTENSION_NAME, 1};
constexpr VkExtensionProperties kVote{VK_EXT_SHADER_SUBGROUP_VOTE_EXTENSION_NAME, 1};
constexpr VkExtensionProperties kVariableGroupSize{VK_BISMUTH_VARIABLE_GROUP_SIZE_EXTENSION_NAME,
                                                   VK_BISMUTH_VARIABLE_GROUP_SIZE_SPEC_VERSION};
constexpr VkExtensionProperties kNumWaves{VK_BISMUTH_NUM_WAVES_EXTENSION_NAME, VK_BISMUTH_NUM_WAVES_SPEC_VERSION};

bool has_extension(const std::vector<VkExtensionProperties>& list, const char* name) {
  return std::any_of(list.begin(), list.end(),
                     [&](const VkExtensionProperties& e) { return std::strcmp(e.extensionName, name) == 0; });
}

// The driver's (and lower layers') device extensions.
std::vector<VkExtensionProperties> next_extensions(const InstanceData& instance, VkPhysicalDevice physical_device) {
  std::vector<VkExtensionProperties> list;
  for (int attempt = 0; attempt < 8; ++attempt) {
    uint32_t count = 0;
    if (instance.EnumerateDeviceExtensionProperties(physical_device, nullptr, &count, nullptr) != VK_SUCCESS) break;
    list.resize(count);
    const VkResult result =
        instance.EnumerateDeviceExtensionProperties(physical_device, nullptr, &count, list.data());
    list.resize(count);
    if (result != VK_INCOMPLETE) break;
  }
  return list;
}

std::vector<VkExtensionProperties> provided_extensions(const PhysicalDeviceSupport& support) {
  std::vector<VkExtensionProperties> list;
  if (support.emulate_ballot) list.push_back(kBallot);
  if (support.emulate_vote) list.push_back(kVote);
  if (support.variable_group_size) list.push_back(kVariableGroupSize);
  if (support.num_waves) list.push_back(kNumWaves);
  return list;
}

VkResult write_list(const std::vector<VkExtensionProperties>& list, uint32_t* count, VkExtensionProperties* out) {
  if (out == nullptr) {
    *count = static_cast<uint32_t>(list.size());
    return VK_SUCCESS;
  }
  const uint32_t written = std::min<uint32_t>(*count, static_cast<uint32_t>(list.size()));
  std::copy_n(list.begin(), written, out);
  *count = written;
  return written < list.size() ? VK_INCOMPLETE : VK_SUCCESS;
}

}  // namespace

PhysicalDeviceSupport query_support(const InstanceData& instance, VkPhysicalDevice physical_device) {
  PhysicalDeviceSupport support;
  VkPhysicalDeviceProperties properties{};
  instance.GetPhysicalDeviceProperties(physical_device, &properties);
  support.limits = properties.limits;
  if (instance.settings.disabled) return support;
  support.variable_group_size = true;

  // Lowering emits SPIR-V 1.3 GroupNonUniform instructions: the application's and the device's Vulkan must be 1.1
  // (spec: "SPIR-V Environment"), and the device must support the operations in compute shaders.
  if (instance.api_version < VK_API_VERSION_1_1 || properties.apiVersion < VK_API_VERSION_1_1 ||
      instance.GetPhysicalDeviceProperties2 == nullptr)
    return support;
  VkPhysicalDeviceSubgroupProperties subgroup{};
  subgroup.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES;
  VkPhysicalDeviceProperties2 properties2{};
  properties2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
  properties2.pNext = &subgroup;
  instance.GetPhysicalDeviceProperties2(physical_device, &properties2);
  const bool compute = (subgroup.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT) != 0;
  const auto ops = subgroup.supportedOperations;
  // GL_ARB_shader_ballot's 64-bit ballots lose invocations in subgroups larger than 64 (docs/spirv_patch.md).
  const bool ballot_ok = compute && (ops & VK_SUBGROUP_FEATURE_BALLOT_BIT) && (ops & VK_SUBGROUP_FEATURE_SHUFFLE_BIT) &&
                         subgroup.subgroupSize <= 64;
  const bool vote_ok = compute && (ops & VK_SUBGROUP_FEATURE_VOTE_BIT);
  // numWaves reads SubgroupId, SubgroupLocalInvocationId, SubgroupSize, NumSubgroups: basic operations in compute.
  support.num_waves = compute && (ops & VK_SUBGROUP_FEATURE_BASIC_BIT);

  const auto driver = next_extensions(instance, physical_device);
  support.emulate_ballot =
      ballot_ok && (instance.settings.force_ballot || !has_extension(driver, kBallot.extensionName));
  support.emulate_vote = vote_ok && (instance.settings.force_vote || !has_extension(driver, kVote.extensionName));
  return support;
}

VKAPI_ATTR VkResult VKAPI_CALL EnumerateDeviceExtensionProperties(VkPhysicalDevice physicalDevice,
                                                                  const char* pLayerName, uint32_t* pPropertyCount,
                                                                  VkExtensionProperties* pProperties) {
  auto instance = instance_data(physicalDevice);
  if (!instance) return VK_ERROR_INITIALIZATION_FAILED;
  try {
    const bool ours = pLayerName != nullptr && std::strcmp(pLayerName, kLayerName) == 0;
    // A query naming another layer is that layer's business.
    if (pLayerName != nullptr && !ours)
      return instance->EnumerateDeviceExtensionProperties(physicalDevice, pLayerName, pPropertyCount, pProperties);
    const PhysicalDeviceSupport support = query_support(*instance, physicalDevice);
    if (ours) return write_list(provided_extensions(support), pPropertyCount, pProperties);
    if (instance->settings.disabled)
      return instance->EnumerateDeviceExtensionProperties(physicalDevice, nullptr, pPropertyCount, pProperties);
    auto list = next_extensions(*instance, physicalDevice);
    for (const auto& e : provided_extensions(support))
      if (!has_extension(list, e.extensionName)) list.push_back(e);
    return write_list(list, pPropertyCount, pProperties);
  } catch (...) {
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  }
}

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceFeatures2(VkPhysicalDevice physicalDevice,
                                                      VkPhysicalDeviceFeatures2* pFeatures) {
  auto instance = instance_data(physicalDevice);
  if (!instance || instance->GetPhysicalDeviceFeatures2 == nullptr) return;
  try {
    ChainUnlinker unlink(const_cast<const void**>(&pFeatures->pNext),
                         VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VARIABLE_GROUP_SIZE_FEATURES_BISMUTH);
    ChainUnlinker unlink_num_waves(const_cast<const void**>(&pFeatures->pNext),
                                   VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_NUM_WAVES_FEATURES_BISMUTH);
    instance->GetPhysicalDeviceFeatures2(physicalDevice, pFeatures);
  } catch (...) {
    return;  // out of memory for the unlink record: nothing was queried
  }
  if (auto* ours = find_in_chain<VkPhysicalDeviceVariableGroupSizeFeaturesBISMUTH>(
          pFeatures->pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VARIABLE_GROUP_SIZE_FEATURES_BISMUTH))
    ours->variableGroupSize = instance->settings.disabled ? VK_FALSE : VK_TRUE;
  if (auto* ours = find_in_chain<VkPhysicalDeviceNumWavesFeaturesBISMUTH>(
          pFeatures->pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_NUM_WAVES_FEATURES_BISMUTH))
    ours->numWaves = query_support(*instance, physicalDevice).num_waves ? VK_TRUE : VK_FALSE;
}

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceProperties2(VkPhysicalDevice physicalDevice,
                                                        VkPhysicalDeviceProperties2* pProperties) {
  auto instance = instance_data(physicalDevice);
  if (!instance || instance->GetPhysicalDeviceProperties2 == nullptr) return;
  try {
    ChainUnlinker unlink(const_cast<const void**>(&pProperties->pNext),
                         VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VARIABLE_GROUP_SIZE_PROPERTIES_BISMUTH);
    instance->GetPhysicalDeviceProperties2(physicalDevice, pProperties);
  } catch (...) {
    return;
  }
  if (auto* ours = find_in_chain<VkPhysicalDeviceVariableGroupSizePropertiesBISMUTH>(
          pProperties->pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VARIABLE_GROUP_SIZE_PROPERTIES_BISMUTH)) {
    // GL's MAX_COMPUTE_VARIABLE_GROUP_SIZE/INVOCATIONS map to the device's fixed-size limits: every size is a
    // real pipeline.
    const VkPhysicalDeviceLimits& limits = pProperties->properties.limits;
    for (int i = 0; i < 3; ++i) ours->maxVariableGroupSize[i] = limits.maxComputeWorkGroupSize[i];
    ours->maxVariableGroupInvocations = limits.maxComputeWorkGroupInvocations;
  }
}

}  // namespace bismuth::vk_layer
