// The test harness itself must be able to fail: the validation layer is really on and its messages really
// reach the recorder.
#include <catch2/catch.hpp>

#include "support/validated_vulkan.hpp"

TEST_CASE("The validation layer is enabled for tests", "[vulkan]") {
  bismuth::test::ValidatedVulkan vk;
  CHECK(vk.instance().validation_enabled());
  CHECK(vk.instance().api_version() >= VK_API_VERSION_1_1);
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("Invalid API use is recorded as a validation message", "[vulkan]") {
  bismuth::test::ValidatedVulkan vk;
  const auto& device_info = vk.selected_device();
  const float priority = 1.0f;
  VkDeviceQueueCreateInfo queue{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queue.queueFamilyIndex = 0;
  queue.queueCount = 1;
  queue.pQueuePriorities = &priority;
  VkDeviceCreateInfo info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  info.queueCreateInfoCount = 1;
  info.pQueueCreateInfos = &queue;
  VkDevice device = VK_NULL_HANDLE;
  REQUIRE(vkCreateDevice(device_info.handle, &info, nullptr, &device) == VK_SUCCESS);
  volkLoadDevice(device);

  // VUID-VkBufferCreateInfo-size-00912: size must be greater than 0. The layer reports it and skips the call.
  VkBufferCreateInfo buffer_info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  buffer_info.size = 0;
  buffer_info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  VkBuffer buffer = VK_NULL_HANDLE;
  vkCreateBuffer(device, &buffer_info, nullptr, &buffer);
  if (buffer != VK_NULL_HANDLE) vkDestroyBuffer(device, buffer, nullptr);
  vkDestroyDevice(device, nullptr);

  const auto messages = vk.messages();
  REQUIRE(messages.size() >= 1);
  CHECK_THAT(messages.front(), Catch::Contains("VUID-VkBufferCreateInfo-size-00912"));
}
