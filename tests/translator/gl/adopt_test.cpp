// The C API for GL-on-Vulkan ports: a context on a VkInstance/VkDevice/VkQueue the port created and owns.
#include <volk.h>

#include "bismuth/gl/bismuth_gl.h"
#include "support/validated_vulkan.hpp"
#include "translator/gl/gl_fixture.hpp"

using namespace bismuth::gltest;

TEST_CASE("bismuthCreateContextOnVulkan works on the port's own VkDevice and queue, and leaves them to the port") {
  setenv("BISMUTH_VALIDATION", "1", 0);  // spirv-val on the program's link too (the port's device has the layer)
  bismuth::test::ValidatedVulkan vk;
  const auto& info = vk.selected_device();
  uint32_t count = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(info.handle, &count, nullptr);
  std::vector<VkQueueFamilyProperties> families(count);
  vkGetPhysicalDeviceQueueFamilyProperties(info.handle, &count, families.data());
  uint32_t family = UINT32_MAX;
  for (uint32_t i = 0; i < count && family == UINT32_MAX; ++i) {
    if (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT) family = i;
  }
  REQUIRE(family != UINT32_MAX);
  REQUIRE(vk.instance().api_version() >= VK_API_VERSION_1_2);
  REQUIRE(info.api_version >= VK_API_VERSION_1_2);

  VkPhysicalDeviceTimelineSemaphoreFeatures timeline{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES};
  timeline.timelineSemaphore = VK_TRUE;
  const float priority = 1.0f;
  VkDeviceQueueCreateInfo queue_info{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queue_info.queueFamilyIndex = family;
  queue_info.queueCount = 1;
  queue_info.pQueuePriorities = &priority;
  VkDeviceCreateInfo create{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  create.pNext = &timeline;
  create.queueCreateInfoCount = 1;
  create.pQueueCreateInfos = &queue_info;
  VkDevice device = VK_NULL_HANDLE;
  REQUIRE(vkCreateDevice(info.handle, &create, nullptr, &device) == VK_SUCCESS);
  auto get_queue = reinterpret_cast<PFN_vkGetDeviceQueue>(vkGetDeviceProcAddr(device, "vkGetDeviceQueue"));
  auto destroy = reinterpret_cast<PFN_vkDestroyDevice>(vkGetDeviceProcAddr(device, "vkDestroyDevice"));
  VkQueue queue = VK_NULL_HANDLE;
  get_queue(device, family, 0, &queue);

  BismuthGLVulkanDevice port{};
  port.instance = vk.instance().handle();
  port.instance_api_version = vk.instance().api_version();
  port.get_instance_proc_addr = reinterpret_cast<void*>(vkGetInstanceProcAddr);
  port.physical_device = info.handle;
  port.device = device;
  port.queue = queue;
  port.queue_family = family;
  BismuthGLContext context = bismuthCreateContextOnVulkan(&port, nullptr);
  INFO(bismuthGetLastErrorString());
  REQUIRE(context != nullptr);
  REQUIRE(bismuthMakeCurrent(context) == 1);
  {
    const GLuint program = make_program("#version 450\nlayout(local_size_x = 8) in;\n"
                                        "layout(std430, binding = 0) buffer B { uint v[]; };\n"
                                        "void main() { v[gl_GlobalInvocationID.x] = 3u * gl_GlobalInvocationID.x; }\n");
    std::vector<uint32_t> zeros(16, 0);
    const GLuint buffer = make_buffer(64, zeros.data());
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, buffer);
    glUseProgram(program);
    glDispatchCompute(2, 1, 1);
    const auto words = read_words(buffer, 16);
    for (uint32_t i = 0; i < 16; ++i) CHECK(words[i] == 3 * i);
    CHECK(glGetError() == GL_NO_ERROR);
  }
  REQUIRE(bismuthMakeCurrent(nullptr) == 1);
  bismuthDestroyContext(context);
  // The port still owns the device: it is destroyed here, after every Bismuth object built on it.
  destroy(device, nullptr);
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("bismuthCreateContextOnVulkan without the required handles fails with a reason") {
  BismuthGLVulkanDevice port{};
  CHECK(bismuthCreateContextOnVulkan(&port, nullptr) == nullptr);
  CHECK(std::string(bismuthGetLastErrorString()).find("required") != std::string::npos);
  CHECK(bismuthCreateContextOnVulkan(nullptr, nullptr) == nullptr);
}
