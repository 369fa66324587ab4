// VK_BISMUTH_num_waves at vkCreateDevice: the subgroup-size features the layer turns on for the application, and
// what the device then guarantees (the WaveSizeCaps every numWaves pipeline of the device is chosen against).
#pragma once

#include <vector>

#include "bismuth/backend/wave_size_choice.hpp"
#include "layer_state.hpp"

namespace bismuth::vk_layer {

// Enables subgroupSizeControl and computeFullSubgroups for the call down where the device supports them and the
// application did not enable them: a numWaves pipeline can then require its committed wave size and full waves.
// The application's own feature structure (VkPhysicalDeviceVulkan13Features or
// VkPhysicalDeviceSubgroupSizeControlFeatures) is edited in place and restored by the destructor; without one a
// structure of the layer's is linked at the head of `info` (a copy), with VK_EXT_subgroup_size_control added to
// `extensions` when the features are not core for the application's API version.
class SubgroupSizeFeatures {
 public:
  SubgroupSizeFeatures(const InstanceData& instance, VkPhysicalDevice physical_device, VkDeviceCreateInfo& info,
                       std::vector<const char*>& extensions);
  ~SubgroupSizeFeatures();
  SubgroupSizeFeatures(const SubgroupSizeFeatures&) = delete;
  SubgroupSizeFeatures& operator=(const SubgroupSizeFeatures&) = delete;

  // Enabled on the device once created (by the application or the layer).
  bool size_control() const { return size_control_; }
  bool full_subgroups() const { return full_subgroups_; }
  // The layer enabled something the application did not.
  bool added() const { return added_; }

 private:
  VkBool32* edited_size_control_ = nullptr;
  VkBool32* edited_full_subgroups_ = nullptr;
  VkBool32 saved_size_control_ = VK_FALSE;
  VkBool32 saved_full_subgroups_ = VK_FALSE;
  VkPhysicalDeviceSubgroupSizeControlFeatures own_{};
  bool size_control_ = false;
  bool full_subgroups_ = false;
  bool added_ = false;
};

// The caps of `physical_device` with the features as enabled. Error: the instance functions cannot be loaded.
Expected<backend::WaveSizeCaps> num_waves_caps(const InstanceData& instance, VkPhysicalDevice physical_device,
                                               bool size_control, bool full_subgroups);

}  // namespace bismuth::vk_layer
