#include "bismuth/backend/wave_size_choice.hpp"

#include <algorithm>
#include <vector>

#include "bismuth/backend/device.hpp"
#include "bismuth/backend/device_info.hpp"

namespace bismuth::backend {

namespace {

bool is_power_of_two(uint32_t value) {
  return value != 0 && (value & (value - 1)) == 0;
}

// The sizes the device can commit to, ascending.
std::vector<uint32_t> device_sizes(const WaveSizeCaps& caps) {
  if (!caps.size_control_in_compute) {
    if (caps.subgroup_size == 0) return {};
    return {caps.subgroup_size};
  }
  std::vector<uint32_t> sizes;
  for (uint64_t size = 1; size <= caps.max_subgroup_size; size *= 2) {
    if (size >= caps.min_subgroup_size) sizes.push_back(static_cast<uint32_t>(size));
  }
  return sizes;
}

std::string join(const std::vector<uint32_t>& values) {
  std::string text;
  for (uint32_t value : values) text += (text.empty() ? "" : ", ") + std::to_string(value);
  return text.empty() ? "none" : text;
}

std::string range_text(const WaveSizeRequest& request) {
  if (request.min == 0 && request.max == 0) return "of any size";
  if (request.max == 0) return "of size at least " + std::to_string(request.min);
  if (request.min == 0) return "of size at most " + std::to_string(request.max);
  return "of size in [" + std::to_string(request.min) + "," + std::to_string(request.max) + "]";
}

std::string refusal(const WaveSizeRequest& request, const WaveSizeCaps& caps, const std::vector<uint32_t>& sizes) {
  std::string text = "cannot honour " + std::to_string(request.num_waves) + " waves " + range_text(request) + " on " +
                     caps.device_name + ": supported sizes " + join(sizes) + ", max invocations " +
                     std::to_string(caps.max_invocations);
  if (caps.max_size_x < caps.max_invocations) text += ", max group size x " + std::to_string(caps.max_size_x);
  if (caps.size_control_in_compute && caps.max_subgroups_per_workgroup != 0 &&
      request.num_waves > caps.max_subgroups_per_workgroup) {
    text += ", max waves per group " + std::to_string(caps.max_subgroups_per_workgroup);
  }
  return text;
}

bool fits(const WaveSizeRequest& request, const WaveSizeCaps& caps, uint32_t size) {
  if (request.min != 0 && size < request.min) return false;
  if (request.max != 0 && size > request.max) return false;
  const uint64_t invocations = uint64_t{request.num_waves} * size;
  if (invocations > caps.max_invocations || invocations > caps.max_size_x) return false;
  return !caps.size_control_in_compute || caps.max_subgroups_per_workgroup == 0 ||
         request.num_waves <= caps.max_subgroups_per_workgroup;
}

}  // namespace

Expected<WaveSizeChoice> choose_wave_size(const WaveSizeRequest& request, const WaveSizeCaps& caps) {
  if (request.num_waves == 0) return fail("numWaves: the wave count must be greater than 0");
  if (request.min != 0 && request.max != 0 && request.min > request.max) {
    return fail("numWaves: the wave-size range [" + std::to_string(request.min) + "," + std::to_string(request.max) +
                "] is empty");
  }
  if (request.preferred != 0 &&
      ((request.min != 0 && request.preferred < request.min) || (request.max != 0 && request.preferred > request.max) ||
       !is_power_of_two(request.preferred))) {
    return fail("numWaves: the preferred wave size " + std::to_string(request.preferred) + " is not a power of two " +
                range_text(request));
  }
  const std::vector<uint32_t> sizes = device_sizes(caps);
  std::vector<uint32_t> kept;
  std::copy_if(sizes.begin(), sizes.end(), std::back_inserter(kept),
               [&](uint32_t size) { return fits(request, caps, size); });
  if (kept.empty()) return fail(refusal(request, caps, sizes));

  auto has = [&](uint32_t size) { return std::find(kept.begin(), kept.end(), size) != kept.end(); };
  uint32_t chosen = kept.back();
  if (request.hint == WaveSizePreference::Small) {
    chosen = kept.front();
  } else if (request.hint == WaveSizePreference::None) {
    if (request.preferred != 0 && has(request.preferred)) {
      chosen = request.preferred;
    } else if (has(caps.subgroup_size)) {
      chosen = caps.subgroup_size;
    }
  }

  WaveSizeChoice choice;
  choice.wave_size = chosen;
  choice.require_size = caps.size_control_in_compute;
  // REQUIRE_FULL_SUBGROUPS needs the group's x to be a multiple of requiredSubgroupSize, or of subgroupSize without
  // one (VUID-VkPipelineShaderStageCreateInfo-pNext-02757, -flags-02759): X * w always is, w being that size.
  choice.require_full_subgroups = caps.full_subgroups;
  return choice;
}

WaveSizeCaps wave_size_caps(const DeviceInfo& info, bool subgroup_size_control_enabled,
                            bool compute_full_subgroups_enabled) {
  WaveSizeCaps caps;
  caps.device_name = info.name;
  caps.subgroup_size = info.subgroup_size;
  caps.min_subgroup_size = info.min_subgroup_size != 0 ? info.min_subgroup_size : info.subgroup_size;
  caps.max_subgroup_size = info.max_subgroup_size != 0 ? info.max_subgroup_size : info.subgroup_size;
  caps.size_control_in_compute = subgroup_size_control_enabled && info.subgroup_size_control &&
                                 (info.required_subgroup_size_stages & VK_SHADER_STAGE_COMPUTE_BIT) != 0;
  caps.full_subgroups = compute_full_subgroups_enabled;
  caps.max_invocations = info.max_compute_work_group_invocations;
  caps.max_size_x = info.max_compute_work_group_size[0];
  caps.max_subgroups_per_workgroup = info.max_compute_workgroup_subgroups;
  return caps;
}

WaveSizeCaps wave_size_caps(const Device& device) {
  return wave_size_caps(device.info(), device.features().subgroup_size_control,
                        device.features().compute_full_subgroups);
}

}  // namespace bismuth::backend
