// Devices: creation with the useful features, function tables, adoption of an external device.
#include <atomic>

#include "backend_fixture.hpp"

using namespace bismuth;
using namespace bismuth::backend;
using bismuth::test::ValidatedVulkan;

TEST_CASE("A created device enables timeline semaphores and what the device offers", "[vulkan]") {
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk);
    const DeviceInfo& info = device->info();
    CHECK(device->owns_device());
    CHECK(device->features().timeline_semaphore);
    CHECK(device->features().push_descriptor == info.has_push_descriptor);
    CHECK(device->features().subgroup_size_control == info.subgroup_size_control);
    CHECK(device->queue() != VK_NULL_HANDLE);
    CHECK(device->vk().vkCmdDispatch != nullptr);
    CHECK(device->vk().vkWaitSemaphores != nullptr);
    CHECK(device->timeline() != VK_NULL_HANDLE);
    CHECK(device->last_submitted() == 0);
    CHECK(device->completed() == 0);
  }
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("A created device enables 64-bit integer atomics and 8/16-bit storage exactly where the device has them", "[vulkan]") {
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk);
    const DeviceInfo& info = device->info();
    VkPhysicalDeviceShaderAtomicInt64Features int64{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_INT64_FEATURES};
    VkPhysicalDevice8BitStorageFeatures storage8{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_8BIT_STORAGE_FEATURES};
    VkPhysicalDevice16BitStorageFeatures storage16{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES};
    int64.pNext = &storage8;
    storage8.pNext = &storage16;
    VkPhysicalDeviceFeatures2 features2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
    features2.pNext = &int64;
    device->vki().vkGetPhysicalDeviceFeatures2(info.handle, &features2);
    CHECK(device->features().int64_buffer_atomics == bool(int64.shaderBufferInt64Atomics));
    CHECK(device->features().int64_shared_atomics == bool(int64.shaderSharedInt64Atomics));
    CHECK(device->features().storage_buffer_8bit == bool(storage8.storageBuffer8BitAccess));
    CHECK(device->features().storage_buffer_16bit == bool(storage16.storageBuffer16BitAccess));
    WARN(info.name << ": shaderBufferInt64Atomics " << int64.shaderBufferInt64Atomics << ", shaderSharedInt64Atomics "
                   << int64.shaderSharedInt64Atomics);
  }
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("UMA devices get host-visible buffers, and staging can be forced", "[vulkan]") {
  ValidatedVulkan vk;
  {
    auto automatic = test::make_device(vk);
    auto buffer = test::make_buffer(*automatic, 16);
    if (vk.selected_device().type == VK_PHYSICAL_DEVICE_TYPE_CPU) {
      CHECK_FALSE(automatic->uses_staging());
      CHECK(buffer->host_visible());
    }
    auto staged = test::make_device(vk, {.memory = MemoryStrategy::DeviceLocalWithStaging});
    CHECK(staged->uses_staging());
    auto device_local = test::make_buffer(*staged, 16);
    CHECK_FALSE(device_local->host_visible());
    auto staging = Buffer::create(*staged, 64, BufferKind::Staging);
    REQUIRE(staging);
    CHECK((*staging)->host_visible());
  }
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

namespace {

// A stand-in for "the next layer": hands out the loader's functions but wraps vkCmdDispatch, so the test can
// see that the backend calls through the table it was given and not through volk's globals.
std::atomic<int> g_wrapped_dispatches{0};
PFN_vkCmdDispatch g_real_dispatch = nullptr;
PFN_vkGetDeviceProcAddr g_real_gdpa = nullptr;

VKAPI_ATTR void VKAPI_CALL counting_dispatch(VkCommandBuffer cb, uint32_t x, uint32_t y, uint32_t z) {
  g_wrapped_dispatches.fetch_add(1);
  g_real_dispatch(cb, x, y, z);
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL wrapping_gdpa(VkDevice device, const char* name) {
  if (std::strcmp(name, "vkCmdDispatch") == 0) {
    g_real_dispatch = reinterpret_cast<PFN_vkCmdDispatch>(g_real_gdpa(device, name));
    return reinterpret_cast<PFN_vkVoidFunction>(&counting_dispatch);
  }
  return g_real_gdpa(device, name);
}

}  // namespace

TEST_CASE("An adopted device is used through the given GetProcAddr and is not destroyed", "[vulkan]") {
  ValidatedVulkan vk;
  const DeviceInfo& info = vk.selected_device();
  // The "application" creates its own device with timeline semaphores and push descriptors.
  uint32_t family_count = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(info.handle, &family_count, nullptr);
  std::vector<VkQueueFamilyProperties> families(family_count);
  vkGetPhysicalDeviceQueueFamilyProperties(info.handle, &family_count, families.data());
  uint32_t family = 0;
  while (family < family_count && !(families[family].queueFlags & VK_QUEUE_COMPUTE_BIT)) ++family;
  REQUIRE(family < family_count);
  const float priority = 1.0f;
  VkDeviceQueueCreateInfo queue_info{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queue_info.queueFamilyIndex = family;
  queue_info.queueCount = 1;
  queue_info.pQueuePriorities = &priority;
  VkPhysicalDeviceTimelineSemaphoreFeatures timeline{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES};
  timeline.timelineSemaphore = VK_TRUE;
  std::vector<const char*> extensions;
  if (info.has_push_descriptor) extensions.push_back(VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME);
  VkDeviceCreateInfo create{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  create.pNext = &timeline;
  create.queueCreateInfoCount = 1;
  create.pQueueCreateInfos = &queue_info;
  create.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
  create.ppEnabledExtensionNames = extensions.data();
  VkDevice app_device = VK_NULL_HANDLE;
  REQUIRE(vkCreateDevice(info.handle, &create, nullptr, &app_device) == VK_SUCCESS);
  VolkDeviceTable app{};
  volkLoadDeviceTable(&app, app_device);
  VkQueue app_queue = VK_NULL_HANDLE;
  app.vkGetDeviceQueue(app_device, family, 0, &app_queue);
  std::mutex app_queue_mutex;

  g_real_gdpa = vkGetDeviceProcAddr;
  g_wrapped_dispatches = 0;
  {
    ExternalDevice external;
    external.instance = vk.instance().handle();
    external.instance_api_version = vk.instance().api_version();
    external.get_instance_proc_addr = vkGetInstanceProcAddr;
    external.physical_device = info.handle;
    external.device = app_device;
    external.get_device_proc_addr = &wrapping_gdpa;
    external.queue = app_queue;
    external.queue_family = family;
    external.enabled.timeline_semaphore = true;
    external.enabled.push_descriptor = info.has_push_descriptor;
    external.queue_mutex = &app_queue_mutex;
    auto adopted = Device::adopt(external);
    REQUIRE(adopted);
    Device& device = **adopted;
    CHECK_FALSE(device.owns_device());
    auto cache = test::make_cache(device);
    auto stream = CommandStream::create(device, *cache);
    REQUIRE(stream);
    auto shader = test::make_probe_shader(device);
    auto out = test::make_buffer(device, 4);
    BufferBinding binding{out.get(), 0, VK_WHOLE_SIZE, Access::Write};
    REQUIRE_OK((*stream)->dispatch({.shader = shader.get(), .size = {16, 2, 1}, .groups = {4, 1, 1},
                                    .bindings = {&binding, 1}}));
    std::vector<uint32_t> words(4);
    REQUIRE_OK((*stream)->readback(*out, 0, std::as_writable_bytes(std::span(words))));
    CHECK(words == std::vector<uint32_t>{32, 32, 32, 32});
    CHECK(g_wrapped_dispatches == 1);
  }
  // Bismuth destroyed its own objects and left the device alive: the application can still use it.
  VkBufferCreateInfo buffer_info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  buffer_info.size = 64;
  buffer_info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  VkBuffer buffer = VK_NULL_HANDLE;
  CHECK(app.vkCreateBuffer(app_device, &buffer_info, nullptr, &buffer) == VK_SUCCESS);
  app.vkDestroyBuffer(app_device, buffer, nullptr);
  // The validation layer reports any Bismuth object left behind on this vkDestroyDevice.
  app.vkDestroyDevice(app_device, nullptr);
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("Adoption without timeline semaphores is refused with a reason", "[vulkan]") {
  ExternalDevice external;
  external.enabled.timeline_semaphore = true;
  auto adopted = Device::adopt(external);
  REQUIRE_FALSE(adopted);
  CHECK_THAT(adopted.error().message, Catch::Contains("required"));
  external.enabled.timeline_semaphore = false;
  external.instance = reinterpret_cast<VkInstance>(uintptr_t{1});
  external.physical_device = reinterpret_cast<VkPhysicalDevice>(uintptr_t{1});
  external.device = reinterpret_cast<VkDevice>(uintptr_t{1});
  external.queue = reinterpret_cast<VkQueue>(uintptr_t{1});
  external.get_instance_proc_addr = vkGetInstanceProcAddr;
  external.get_device_proc_addr = vkGetDeviceProcAddr;
  adopted = Device::adopt(external);
  REQUIRE_FALSE(adopted);
  CHECK_THAT(adopted.error().message, Catch::Contains("timelineSemaphore"));
}

TEST_CASE("An external submission can carry the backend's timeline value", "[vulkan]") {
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk);
    auto buffer = test::make_buffer(*device, 16);
    // What the layer does in its vkQueueSubmit hook: the application's submission (here: an empty one) also
    // signals the backend's timeline.
    auto value = device->submit_with([&](VkSemaphore timeline, uint64_t v) {
      VkTimelineSemaphoreSubmitInfo timeline_info{VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO};
      timeline_info.signalSemaphoreValueCount = 1;
      timeline_info.pSignalSemaphoreValues = &v;
      VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
      submit.pNext = &timeline_info;
      submit.signalSemaphoreCount = 1;
      submit.pSignalSemaphores = &timeline;
      return device->vk().vkQueueSubmit(device->queue(), 1, &submit, VK_NULL_HANDLE);
    });
    REQUIRE(value);
    CHECK(*value == device->last_submitted());
    buffer->mark_used(*value);
    buffer.reset();
    REQUIRE_OK(device->wait(*value));
    CHECK(device->deferred_count() == 0);
    device->inject_fault(VK_ERROR_DEVICE_LOST, "vkQueueSubmit");
    auto lost = device->submit_with([](VkSemaphore, uint64_t) { return VK_SUCCESS; });
    REQUIRE_FALSE(lost);
    CHECK(is_device_lost(lost.error()));
  }
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("An adoption with no_submissions needs no timeline or queue and never submits", "[vulkan]") {
  ValidatedVulkan vk;
  {
    auto owner = test::make_device(vk);  // stands for the application's device
    ExternalDevice external;
    external.instance = vk.instance().handle();
    external.instance_api_version = vk.instance().api_version();
    external.get_instance_proc_addr = vkGetInstanceProcAddr;
    external.physical_device = owner->physical_device();
    external.device = owner->handle();
    external.get_device_proc_addr = vkGetDeviceProcAddr;
    external.no_submissions = true;  // no timeline_semaphore, no queue
    auto adopted = Device::adopt(external);
    REQUIRE(adopted);
    Device& device = **adopted;
    CHECK(device.timeline() == VK_NULL_HANDLE);
    CHECK(device.completed() == 0);
    auto submitted = device.submit_with([](VkSemaphore, uint64_t) { return VK_SUCCESS; });
    REQUIRE_FALSE(submitted);
    CHECK_THAT(submitted.error().message, Catch::Contains("no_submissions"));
    CHECK_FALSE(device.wait(1));
    {
      auto cache = test::make_cache(device);
      auto shader = test::make_probe_shader(device);
      REQUIRE(cache->get_or_compile({shader.get(), {8, 1, 1}, 0, {}}));
      CHECK(cache->erase(*shader) == 1);
      CHECK(device.deferred_count() == 0);  // destroyed at once: nothing of Bismuth's can be pending
      REQUIRE(cache->get_or_compile({shader.get(), {16, 1, 1}, 0, {}}));
    }
    CHECK(device.deferred_count() == 0);
  }
  // A pipeline, module, cache or semaphore left behind would be reported at the owner's vkDestroyDevice.
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("A Vulkan 1.0 instance is described without vkGetPhysicalDeviceProperties2", "[vulkan]") {
  ValidatedVulkan vk;
  const DeviceInfo& selected = vk.selected_device();
  // Counts the calls: the function is not part of a Vulkan 1.0 instance (the layer adopts 1.0 applications' devices).
  static std::atomic<int> properties2_calls{0};
  properties2_calls = 0;
  auto vki = InstanceFunctions::load(vkGetInstanceProcAddr, vk.instance().handle());
  REQUIRE(vki);
  vki->vkGetPhysicalDeviceProperties2 = [](VkPhysicalDevice, VkPhysicalDeviceProperties2*) { ++properties2_calls; };
  const DeviceInfo old = describe_physical_device(*vki, selected.handle, VK_API_VERSION_1_0);
  CHECK(properties2_calls == 0);
  CHECK(old.name == selected.name);
  CHECK(old.pipeline_cache_uuid == selected.pipeline_cache_uuid);
  CHECK(old.max_compute_work_group_size == selected.max_compute_work_group_size);
  CHECK(old.max_compute_work_group_invocations == selected.max_compute_work_group_invocations);
  CHECK(old.subgroup_size == 0);  // a Vulkan 1.1 property
  describe_physical_device(*vki, selected.handle, VK_API_VERSION_1_1);
  CHECK(properties2_calls == 1);
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}
