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

void point_mixed_writes(std::span<VkWriteDescriptorSet> writes, std::span<const VkDescriptorType> types,
                        std::span<const uint32_t> counts, const VkDescriptorBufferInfo* buffers,
                        const VkDescriptorImageInfo* images, const VkBufferView* texel_views) {
  size_t buffer = 0, image = 0;
  for (size_t i = 0; i < types.size(); ++i) {
    const uint32_t count = i < counts.size() && counts[i] != 0 ? counts[i] : 1;
    VkWriteDescriptorSet& w = writes[i];
    w.dstBinding = static_cast<uint32_t>(i);
    w.descriptorCount = count;
    w.descriptorType = types[i];
    if (is_buffer_descriptor(types[i])) {
      w.pBufferInfo = buffers + buffer;
      buffer += count;
    } else {
      if (is_texel_buffer_descriptor(types[i])) {
        w.pTexelBufferView = texel_views + image;
      } else {
        w.pImageInfo = images + image;
      }
      image += count;
    }
  }
}

void CmdPushDescriptorSetImages::record(const DeviceFunctions& vk, VkCommandBuffer commands) const {
  std::array<VkWriteDescriptorSet, 32> small_writes;
  std::vector<VkWriteDescriptorSet> big_writes;
  std::span<VkWriteDescriptorSet> writes(small_writes.data(), types.size());
  if (types.size() > small_writes.size()) {
    big_writes.resize(types.size());
    writes = big_writes;
  }
  for (VkWriteDescriptorSet& w : writes) w = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
  point_mixed_writes(writes, types, counts, buffers.data(), images.data(), texel_views.data());
  vk.vkCmdPushDescriptorSetKHR(commands, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, static_cast<uint32_t>(types.size()),
                               writes.data());
}

void CmdImageToGeneral::record(const DeviceFunctions& vk, VkCommandBuffer commands) const {
  VkImageMemoryBarrier barrier{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
  barrier.srcAccessMask = 0;
  barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_READ_BIT |
                          VK_ACCESS_TRANSFER_WRITE_BIT;
  barrier.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  barrier.newLayout = VK_IMAGE_LAYOUT_GENERAL;
  barrier.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  barrier.image = image;
  barrier.subresourceRange = {aspects, 0, mip_levels, 0, array_layers};
  vk.vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
                          VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0,
                          nullptr, 1, &barrier);
}

}  // namespace bismuth::backend
