// A compute dispatcher for tests that need several resources: storage buffers at given bindings, uniform buffers
// (program.local / program.env of NV assembly programs), specialization constants and a required subgroup size.
// The device enables shaderInt64 and shaderFloat64 when present, and subgroup size control and maintenance4 on
// Vulkan 1.3.
// Validation is on through ValidatedVulkan; every run creates and destroys its own objects.
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

struct BufferBinding {
  uint32_t binding = 0;
  bool uniform = false;          // VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER instead of STORAGE_BUFFER
  std::vector<uint32_t> words;   // contents in; for storage buffers, read back after the dispatch
};

// Word `word` (and word + 1) of buffers[buffer] gets the device address of buffers[target] plus `offset`, little-endian
// (a GPU address for NV_shader_buffer_load programs); needs BufferDevice::buffer_device_address().
struct AddressWords {
  size_t buffer = 0;
  size_t word = 0;
  size_t target = 0;
  uint64_t offset = 0;
};

struct MultiBufferDispatch {
  std::span<const uint32_t> spirv;
  std::string entry_point = "main";
  std::vector<BufferBinding> buffers;
  std::vector<std::pair<uint32_t, uint32_t>> specialization;  // (SpecId, uint value)
  std::array<uint32_t, 3> group_count{1, 1, 1};
  std::optional<uint32_t> required_subgroup_size;  // with full subgroups
  std::vector<uint32_t> push_words;                // push constants from offset 0; none when empty
  std::vector<AddressWords> addresses;             // written after the buffers are filled
};

class BufferDevice {
 public:
  static Expected<std::unique_ptr<BufferDevice>> create(ValidatedVulkan& vk);
  ~BufferDevice();
  BufferDevice(const BufferDevice&) = delete;
  BufferDevice& operator=(const BufferDevice&) = delete;

  bool float64() const { return float64_; }
  bool maintenance4() const { return maintenance4_; }
  bool subgroup_size_control() const { return size_control_; }
  bool int64() const { return int64_; }
  // shaderBufferInt64Atomics / shaderSharedInt64Atomics (Vulkan 1.2 or VK_KHR_shader_atomic_int64), enabled when
  // present.
  bool int64_buffer_atomics() const { return int64_buffer_atomics_; }
  bool int64_shared_atomics() const { return int64_shared_atomics_; }
  // bufferDeviceAddress (Vulkan 1.2), enabled when present: every buffer then has a device address.
  bool buffer_device_address() const { return buffer_device_address_; }
  // shaderBufferFloat32AtomicAdd / shaderBufferFloat64AtomicAdd (VK_EXT_shader_atomic_float), enabled when present.
  bool float32_buffer_atomic_add() const { return float32_buffer_atomic_add_; }
  bool float64_buffer_atomic_add() const { return float64_buffer_atomic_add_; }
  // True when compute pipelines can run with 32-lane subgroups (the device's size, or pinned by size control).
  bool can_run_subgroup_size(uint32_t size) const;

  void reset();
  // Runs one dispatch; on success every storage buffer's words hold the contents after it.
  Status run(MultiBufferDispatch& dispatch);

 private:
  BufferDevice() = default;
  VkPhysicalDevice physical_ = VK_NULL_HANDLE;
  VkDevice device_ = VK_NULL_HANDLE;
  VolkDeviceTable vk_{};
  VkQueue queue_ = VK_NULL_HANDLE;
  uint32_t queue_family_ = 0;
  bool float64_ = false;
  bool int64_ = false;
  bool int64_buffer_atomics_ = false, int64_shared_atomics_ = false;
  bool buffer_device_address_ = false;
  bool float32_buffer_atomic_add_ = false, float64_buffer_atomic_add_ = false;
  bool size_control_ = false;
  bool maintenance4_ = false;
  uint32_t subgroup_size_ = 0, min_subgroup_ = 0, max_subgroup_ = 0;
  bool compute_required_size_ = false;
};

}  // namespace bismuth::test
