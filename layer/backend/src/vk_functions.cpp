#include "bismuth/backend/vk_functions.hpp"

#include <string>

namespace bismuth::backend {

namespace {

template <class T>
T as(PFN_vkVoidFunction f) {
  return reinterpret_cast<T>(f);
}

}  // namespace

Expected<InstanceFunctions> InstanceFunctions::load(PFN_vkGetInstanceProcAddr gipa, VkInstance instance) {
  if (gipa == nullptr || instance == VK_NULL_HANDLE) return fail("InstanceFunctions::load: no instance");
  InstanceFunctions t;
#define BISMUTH_LOAD(name) t.name = as<PFN_##name>(gipa(instance, #name));
  BISMUTH_INSTANCE_FUNCTIONS(BISMUTH_LOAD)
#undef BISMUTH_LOAD
  if (t.vkGetPhysicalDeviceProperties2 == nullptr) {
    t.vkGetPhysicalDeviceProperties2 =
        as<PFN_vkGetPhysicalDeviceProperties2>(gipa(instance, "vkGetPhysicalDeviceProperties2KHR"));
  }
  if (t.vkGetPhysicalDeviceFeatures2 == nullptr) {
    t.vkGetPhysicalDeviceFeatures2 =
        as<PFN_vkGetPhysicalDeviceFeatures2>(gipa(instance, "vkGetPhysicalDeviceFeatures2KHR"));
  }
  t.vkGetPhysicalDeviceFormatProperties2 =
      as<PFN_vkGetPhysicalDeviceFormatProperties2>(gipa(instance, "vkGetPhysicalDeviceFormatProperties2"));
  if (t.vkGetPhysicalDeviceFormatProperties2 == nullptr) {
    t.vkGetPhysicalDeviceFormatProperties2 =
        as<PFN_vkGetPhysicalDeviceFormatProperties2>(gipa(instance, "vkGetPhysicalDeviceFormatProperties2KHR"));
  }
#define BISMUTH_CHECK(name) \
  if (t.name == nullptr) return fail("vkGetInstanceProcAddr returned no " #name, VK_ERROR_INITIALIZATION_FAILED);
  BISMUTH_INSTANCE_FUNCTIONS(BISMUTH_CHECK)
#undef BISMUTH_CHECK
  return t;
}

Expected<InstanceFunctions> InstanceFunctions::load_from_loader(VkInstance instance) {
  if (vkGetInstanceProcAddr == nullptr) return fail("the Vulkan loader is not loaded (call load_vulkan())");
  auto t = load(vkGetInstanceProcAddr, instance);
  if (!t) return t;
  t->vkGetDeviceProcAddr = as<PFN_vkGetDeviceProcAddr>(vkGetInstanceProcAddr(instance, "vkGetDeviceProcAddr"));
  if (t->vkGetDeviceProcAddr == nullptr) {
    return fail("vkGetInstanceProcAddr returned no vkGetDeviceProcAddr", VK_ERROR_INITIALIZATION_FAILED);
  }
  return t;
}

Expected<DeviceFunctions> DeviceFunctions::load(PFN_vkGetDeviceProcAddr gdpa, VkDevice device) {
  if (gdpa == nullptr || device == VK_NULL_HANDLE) return fail("DeviceFunctions::load: no device");
  DeviceFunctions t;
#define BISMUTH_LOAD(name) t.name = as<PFN_##name>(gdpa(device, #name));
  BISMUTH_DEVICE_FUNCTIONS(BISMUTH_LOAD)
#undef BISMUTH_LOAD
#define BISMUTH_CHECK(name) \
  if (t.name == nullptr) return fail("vkGetDeviceProcAddr returned no " #name, VK_ERROR_INITIALIZATION_FAILED);
  BISMUTH_DEVICE_FUNCTIONS(BISMUTH_CHECK)
#undef BISMUTH_CHECK
  t.vkWaitSemaphores = as<PFN_vkWaitSemaphores>(gdpa(device, "vkWaitSemaphores"));
  if (t.vkWaitSemaphores == nullptr) t.vkWaitSemaphores = as<PFN_vkWaitSemaphores>(gdpa(device, "vkWaitSemaphoresKHR"));
  t.vkGetSemaphoreCounterValue = as<PFN_vkGetSemaphoreCounterValue>(gdpa(device, "vkGetSemaphoreCounterValue"));
  if (t.vkGetSemaphoreCounterValue == nullptr) {
    t.vkGetSemaphoreCounterValue = as<PFN_vkGetSemaphoreCounterValue>(gdpa(device, "vkGetSemaphoreCounterValueKHR"));
  }
  t.vkCmdPushDescriptorSetKHR = as<PFN_vkCmdPushDescriptorSetKHR>(gdpa(device, "vkCmdPushDescriptorSetKHR"));
  t.vkGetBufferDeviceAddress = as<PFN_vkGetBufferDeviceAddress>(gdpa(device, "vkGetBufferDeviceAddress"));
  if (t.vkGetBufferDeviceAddress == nullptr) {
    t.vkGetBufferDeviceAddress = as<PFN_vkGetBufferDeviceAddress>(gdpa(device, "vkGetBufferDeviceAddressKHR"));
  }
  return t;
}

}  // namespace bismuth::backend
