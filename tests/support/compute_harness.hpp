// The one-buffer view of tests/support/buffer_dispatch.hpp for tests that need a single storage buffer at set 0
// binding 0: specialization constants, an optional required subgroup size, the buffer's words in and out.
// Every call creates and destroys its own objects so each test stands alone.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "bismuth/common/expected.hpp"
#include "support/buffer_dispatch.hpp"
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
  // A BufferDevice on vk.selected_device() (shaderInt64, and on Vulkan 1.3 subgroup size control and maintenance4
  // when the device has them).
  static Expected<std::unique_ptr<ComputeDevice>> create(ValidatedVulkan& vk);

  bool maintenance4() const { return device_->maintenance4(); }
  bool subgroup_size_control() const { return device_->subgroup_size_control(); }

  // Destroys the device now (before the test checks for validation messages about leaks).
  void reset() { device_->reset(); }

  // Runs one dispatch and returns the buffer's contents afterwards.
  Expected<std::vector<uint32_t>> run(const ComputeDispatch& dispatch);

 private:
  explicit ComputeDevice(std::unique_ptr<BufferDevice> device) : device_(std::move(device)) {}
  std::unique_ptr<BufferDevice> device_;
};

}  // namespace bismuth::test
