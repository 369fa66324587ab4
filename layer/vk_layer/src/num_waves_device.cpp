#include "num_waves_device.hpp"

#include <algorithm>
#include <cstring>

#include "bismuth/backend/device_info.hpp"
#include "bismuth/backend/vk_functions.hpp"
#include "hooks.hpp"

namespace bismuth::vk_layer {

namespace {

bool listed(const std::vector<const char*>& extensions, const char* name) {
  return std::any_of(extensions.begin(), extensions.end(), [&](const char* e) { return std::strcmp(e, name) == 0; });
}

bool device_has_extension(const InstanceData& instance, VkPhysicalDevice physical_device, const char* name) {
  uint32_t count = 0;
  if (instance.EnumerateDeviceExtensionProperties(physical_device, nullptr, &count, nullptr) != VK_SUCCESS)
    return false;
  std::vector<VkExtensionProperties> list(count);
  instance.EnumerateDeviceExtensionProperties(physical_device, nullptr, &count, list.data());
  list.resize(count);
  return std::any_of(list.begin(), list.end(),
                     [&](const VkExtensionProperties& e) { return std::strcmp(e.extensionName, name) == 0; });
}

}  // namespace

SubgroupSizeFeatures::SubgroupSizeFeatures(const InstanceData& instance, VkPhysicalDevice physical_device,
                                           VkDeviceCreateInfo& info, std::vector<const char*>& extensions) {
  VkPhysicalDeviceProperties properties{};
  instance.GetPhysicalDeviceProperties(physical_device, &properties);
  // Core for the application when both it and the device are Vulkan 1.3 (structures and features of a version
  // beyond the application's apiVersion are off limits), else the extension.
  const bool core = instance.api_version >= VK_API_VERSION_1_3 && properties.apiVersion >= VK_API_VERSION_1_3;
  const bool extension_listed = listed(extensions, VK_EXT_SUBGROUP_SIZE_CONTROL_EXTENSION_NAME);
  const bool available = core || extension_listed ||
                         device_has_extension(instance, physical_device, VK_EXT_SUBGROUP_SIZE_CONTROL_EXTENSION_NAME);

  auto* f13 = find_in_chain<VkPhysicalDeviceVulkan13Features>(info.pNext,
                                                              VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES);
  auto* fs = find_in_chain<VkPhysicalDeviceSubgroupSizeControlFeatures>(
      info.pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES);
  const bool app_size_control = (f13 && f13->subgroupSizeControl) || (fs && fs->subgroupSizeControl);
  const bool app_full = (f13 && f13->computeFullSubgroups) || (fs && fs->computeFullSubgroups);
  size_control_ = app_size_control;
  full_subgroups_ = app_full;
  if (!available || instance.GetPhysicalDeviceFeatures2 == nullptr || (app_size_control && app_full)) return;

  VkPhysicalDeviceSubgroupSizeControlFeatures supported{};
  supported.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES;
  VkPhysicalDeviceFeatures2 features2{};
  features2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
  features2.pNext = &supported;
  instance.GetPhysicalDeviceFeatures2(physical_device, &features2);
  const bool want_size_control = !app_size_control && supported.subgroupSizeControl;
  const bool want_full = !app_full && supported.computeFullSubgroups;
  if (!want_size_control && !want_full) return;

  // VUID-VkDeviceCreateInfo-pNext-02830: never both the Vulkan 1.3 structure and the individual one.
  if (f13 || fs) {
    VkBool32* size_control = f13 ? &f13->subgroupSizeControl : &fs->subgroupSizeControl;
    VkBool32* full = f13 ? &f13->computeFullSubgroups : &fs->computeFullSubgroups;
    edited_size_control_ = size_control;
    edited_full_subgroups_ = full;
    saved_size_control_ = *size_control;
    saved_full_subgroups_ = *full;
    if (want_size_control) *size_control = VK_TRUE;
    if (want_full) *full = VK_TRUE;
  } else {
    own_.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES;
    own_.pNext = const_cast<void*>(info.pNext);
    own_.subgroupSizeControl = (app_size_control || want_size_control) ? VK_TRUE : VK_FALSE;
    own_.computeFullSubgroups = want_full ? VK_TRUE : VK_FALSE;
    info.pNext = &own_;
    if (!core && !extension_listed) {
      extensions.push_back(VK_EXT_SUBGROUP_SIZE_CONTROL_EXTENSION_NAME);
      info.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
      info.ppEnabledExtensionNames = extensions.data();
    }
  }
  size_control_ = app_size_control || want_size_control;
  full_subgroups_ = app_full || want_full;
  added_ = true;
}

SubgroupSizeFeatures::~SubgroupSizeFeatures() {
  if (edited_size_control_) *edited_size_control_ = saved_size_control_;
  if (edited_full_subgroups_) *edited_full_subgroups_ = saved_full_subgroups_;
}

Expected<backend::WaveSizeCaps> num_waves_caps(const InstanceData& instance, VkPhysicalDevice physical_device,
                                               bool size_control, bool full_subgroups) {
  auto vki = backend::InstanceFunctions::load(instance.next_gipa, instance.instance);
  if (!vki) return vki.error();
  const backend::DeviceInfo info = backend::describe_physical_device(*vki, physical_device, instance.api_version);
  return backend::wave_size_caps(info, size_control, full_subgroups);
}

}  // namespace bismuth::vk_layer
