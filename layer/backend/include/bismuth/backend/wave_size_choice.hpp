// numWaves (HLSL proposal 0054; GL_BISMUTH_num_waves, VK_BISMUTH_num_waves): the one wave size a pipeline commits
// to, chosen from what the device can guarantee and what the shader and the application ask for. A pure function,
// so the GL shim, the Vulkan layer and `bismuth run` choose the same size on the same device.
#pragma once

#include <cstdint>
#include <string>

#include "bismuth/common/expected.hpp"

namespace bismuth::backend {

class Device;
struct DeviceInfo;

enum class WaveSizePreference { None, Small, Large };

struct WaveSizeRequest {
  uint32_t num_waves = 0;  // X > 0
  uint32_t min = 0;        // wave-size range ([WaveSize(min, max)], layout(wave_size_min/max)); 0: no bound
  uint32_t max = 0;
  uint32_t preferred = 0;                              // SM 6.8 [WaveSize(min, max, preferred)]; 0: none
  WaveSizePreference hint = WaveSizePreference::None;  // the application's prefer-small / prefer-large
};

// What the device guarantees, from DeviceInfo and the features enabled on the VkDevice.
struct WaveSizeCaps {
  std::string device_name;
  uint32_t subgroup_size = 0;  // VkPhysicalDeviceSubgroupProperties::subgroupSize
  uint32_t min_subgroup_size = 0;
  uint32_t max_subgroup_size = 0;
  // subgroupSizeControl enabled and compute in requiredSubgroupSizeStages: requiredSubgroupSize can be used.
  bool size_control_in_compute = false;
  bool full_subgroups = false;               // computeFullSubgroups enabled
  uint32_t max_invocations = 0;              // maxComputeWorkGroupInvocations
  uint32_t max_size_x = 0;                   // maxComputeWorkGroupSize[0]
  uint32_t max_subgroups_per_workgroup = 0;  // maxComputeWorkgroupSubgroups; 0: unknown (no size control)
};

struct WaveSizeChoice {
  uint32_t wave_size = 0;
  // Create the stage with VkPipelineShaderStageRequiredSubgroupSizeCreateInfo{wave_size}.
  bool require_size = false;
  // Create the stage with VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT.
  bool require_full_subgroups = false;
};

// Candidates: with size control, the powers of two in [min_subgroup_size, max_subgroup_size] (Vulkan 1.3
// VUID-VkPipelineShaderStageRequiredSubgroupSizeCreateInfo-requiredSubgroupSize-02760/02761/02762); without it,
// only subgroupSize, which Vulkan guarantees as the SubgroupSize of a compute pipeline created without
// ALLOW_VARYING_SUBGROUP_SIZE from SPIR-V <= 1.5; without computeFullSubgroups whether the waves are then full rests
// on the implementation (docs/VK_BISMUTH_num_waves.adoc, issue 3).
// Kept: sizes in the request's range with X * w <= maxComputeWorkGroupInvocations and maxComputeWorkGroupSize[0],
// and, with a required size, X <= maxComputeWorkgroupSubgroups (VUID-VkPipelineShaderStageCreateInfo-pNext-02756:
// the group is at most requiredSubgroupSize * maxComputeWorkgroupSubgroups). Hint Small: the smallest; Large: the
// largest; None: `preferred` if kept, else the device's subgroupSize if kept, else the largest. An empty set, an empty
// range, X == 0 or a preferred size outside the range are errors whose message names the device's numbers.
Expected<WaveSizeChoice> choose_wave_size(const WaveSizeRequest& request, const WaveSizeCaps& caps);

WaveSizeCaps wave_size_caps(const DeviceInfo& info, bool subgroup_size_control_enabled,
                            bool compute_full_subgroups_enabled);
WaveSizeCaps wave_size_caps(const Device& device);

}  // namespace bismuth::backend
