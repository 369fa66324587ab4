#include "support/compute_harness.hpp"

namespace bismuth::test {

Expected<std::unique_ptr<ComputeDevice>> ComputeDevice::create(ValidatedVulkan& vk) {
  auto device = BufferDevice::create(vk);
  if (!device) return device.error();
  return std::unique_ptr<ComputeDevice>(new ComputeDevice(std::move(*device)));
}

Expected<std::vector<uint32_t>> ComputeDevice::run(const ComputeDispatch& dispatch) {
  MultiBufferDispatch multi;
  multi.spirv = dispatch.spirv;
  multi.entry_point = dispatch.entry_point;
  multi.specialization = dispatch.specialization;
  multi.group_count = dispatch.group_count;
  multi.required_subgroup_size = dispatch.required_subgroup_size;
  multi.buffers.push_back({0, false, dispatch.buffer});
  if (Status ran = device_->run(multi); !ran) return ran.error();
  return std::move(multi.buffers[0].words);
}

}  // namespace bismuth::test
