#include "recorded_commands.hpp"

#include <array>
#include <vector>

namespace bismuth::backend {

void CmdPushDescriptorSet::record(const DeviceFunctions& vk, VkCommandBuffer commands) const {
  // On the stack: no allocation per bind (maxPushDescriptors is at least 32, so more is rare).
  std::array<VkWriteDescriptorSet, 32> small_writes;
  std::vector<VkWriteDescriptorSet> big_writes;
  VkWriteDescriptorSet* writes = small_writes.data();
  if (infos.size() > small_writes.size()) {
    big_writes.resize(infos.size());
    writes = big_writes.data();
  }
  for (size_t i = 0; i < infos.size(); ++i) {
    writes[i] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    writes[i].dstBinding = static_cast<uint32_t>(i);
    writes[i].descriptorCount = 1;
    writes[i].descriptorType = types[i];
    writes[i].pBufferInfo = &infos[i];
  }
  vk.vkCmdPushDescriptorSetKHR(commands, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, static_cast<uint32_t>(infos.size()),
                               writes);
}

}  // namespace bismuth::backend
