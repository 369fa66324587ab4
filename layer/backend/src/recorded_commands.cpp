#include "recorded_commands.hpp"

#include <array>
#include <vector>

namespace bismuth::backend {

void CmdPushDescriptorSet::record(const DeviceFunctions& vk, VkCommandBuffer commands) const {
  // On the stack: no allocation per bind (maxPushDescriptors is at least 32, so more is rare).
  std::array<VkWriteDescriptorSet, 32> small_writes;
  std::vector<VkWriteDescriptorSet> big_writes;
  VkWriteDescriptorSet* writes = small_writes.data();
  if (types.size() > small_writes.size()) {
    big_writes.resize(types.size());
    writes = big_writes.data();
  }
  size_t first = 0;
  for (size_t i = 0; i < types.size(); ++i) {
    const uint32_t count = i < counts.size() && counts[i] != 0 ? counts[i] : 1;
    writes[i] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    writes[i].dstBinding = static_cast<uint32_t>(i);
    writes[i].descriptorCount = count;
    writes[i].descriptorType = types[i];
    writes[i].pBufferInfo = &infos[first];
    first += count;
  }
  vk.vkCmdPushDescriptorSetKHR(commands, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, static_cast<uint32_t>(types.size()),
                               writes);
}

}  // namespace bismuth::backend
