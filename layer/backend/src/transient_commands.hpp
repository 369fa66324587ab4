// A command pool of its own with one primary command buffer: what one batch at a time records into, the stream's
// own (CommandStream) or a recording thread's (CommandRecorder::target_own). Transient: each is reset after its
// submission completed and filled again.
#pragma once

#include "bismuth/backend/device.hpp"

namespace bismuth::backend {

// Creates the pool and allocates its command buffer; on failure nothing is left created and both stay null.
inline Status create_transient_commands(Device& device, VkCommandPool& pool, VkCommandBuffer& commands) {
  const auto& vk = device.vk();
  VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pool_info.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
  pool_info.queueFamilyIndex = device.queue_family();
  if (Status ok =
          device.call("vkCreateCommandPool", vk.vkCreateCommandPool, device.handle(), &pool_info, nullptr, &pool);
      !ok) {
    pool = VK_NULL_HANDLE;
    return ok;
  }
  VkCommandBufferAllocateInfo allocate{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  allocate.commandPool = pool;
  allocate.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  allocate.commandBufferCount = 1;
  if (Status ok =
          device.call("vkAllocateCommandBuffers", vk.vkAllocateCommandBuffers, device.handle(), &allocate, &commands);
      !ok) {
    vk.vkDestroyCommandPool(device.handle(), pool, nullptr);
    pool = VK_NULL_HANDLE;
    commands = VK_NULL_HANDLE;
    return ok;
  }
  return {};
}

// Resets the pool (its command buffer too) once the buffer's submission completed; its memory stays for the next fill.
inline Status reset_transient_commands(Device& device, VkCommandPool pool) {
  return device.call("vkResetCommandPool", device.vk().vkResetCommandPool, device.handle(), pool,
                     VkCommandPoolResetFlags{0});
}

// Begins `commands` for one submission.
inline Status begin_one_submission(Device& device, VkCommandBuffer commands) {
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  return device.call("vkBeginCommandBuffer", device.vk().vkBeginCommandBuffer, commands, &begin);
}

}  // namespace bismuth::backend
