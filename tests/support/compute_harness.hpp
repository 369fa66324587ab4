// A minimal compute dispatcher for tests: one device on the selected physical device (validation on, through
// ValidatedVulkan), one storage buffer at set 0 binding 0, specialization constants, an optional required subgroup
// size. Every call creates and destroys its own objects so each test stands alone.
#pragma once

#include <volk.h>

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "bismuth/common/expected.hpp"
#include "support/validated_vulkan.hpp"

namespace bismuth::test {

struct ComputeDispatch {
  std::span<const uint32_t> spirv;
  std::string entry_point = "main";
  std::vector<std::pair<uint32_t, uint32_t>> specialization;  // (SpecId, uint value)
  std::array<uint32_t, 3> group_count{1, 1, 1};
  std::vector<uint32_t> buffer;                               // binding 0 contents in, read back after
  std::optional<uint32_t> required_subgroup_size;            // VkPipelineShaderStageRequiredSubgroupSizeCreateInfo
};

class ComputeDevice {
 public:
  // Creates a device on vk.selected_device() with shaderInt64, and (Vulkan 1.3) subgroupSizeControl and
  // maintenance4 when the device has them.
  static Expected<std::unique_ptr<ComputeDevice>> create(ValidatedVulkan& vk);
  ~ComputeDevice();
  ComputeDevice(const ComputeDevice&) = delete;
  ComputeDevice& operator=(const ComputeDevice&) = delete;

  bool maintenance4() const { return maintenance4_; }
  bool subgroup_size_control() const { return subgroup_size_control_; }

  // Destroys the device now (before the test checks for validation messages about leaks).
  void reset();

  // Runs one dispatch and returns the buffer's contents afterwards.
  Expected<std::vector<uint32_t>> run(const ComputeDispatch& dispatch);

 private:
  ComputeDevice() = default;
  VkPhysicalDevice physical_ = VK_NULL_HANDLE;
  VkDevice device_ = VK_NULL_HANDLE;
  VolkDeviceTable vk_{};
  VkQueue queue_ = VK_NULL_HANDLE;
  uint32_t queue_family_ = 0;
  bool maintenance4_ = false;
  bool subgroup_size_control_ = false;
};

}  // namespace bismuth::test
