// What the test-only Vulkan layers (tests/layer/vk_layer/spy_layer.cpp, tests/exit/teardown_layer.cpp) share: the
// dispatch key, the loader's link info, creating the instance down the chain while remembering the next
// vkGetInstanceProcAddr, and the three exported entry points.
#pragma once

#include <vulkan/vk_layer.h>
#include <vulkan/vulkan.h>

#include <mutex>
#include <unordered_map>

namespace bismuth::testlayer {

// Dispatchable handles of one device (its queues and command buffers) or instance share this key.
inline void* dispatch_key(const void* handle) {
  return *static_cast<void* const*>(handle);
}

// The VK_LAYER_LINK_INFO element of a VkLayerInstanceCreateInfo / VkLayerDeviceCreateInfo chain.
template <class T>
T* link_info(const void* chain, VkStructureType type) {
  for (auto* s = static_cast<const VkBaseInStructure*>(chain); s; s = s->pNext)
    if (s->sType == type && reinterpret_cast<const T*>(s)->function == VK_LAYER_LINK_INFO)
      return reinterpret_cast<T*>(const_cast<VkBaseInStructure*>(s));
  return nullptr;
}

// Creates the device down the chain; on success `*next_gdpa` is the next layer's vkGetDeviceProcAddr.
inline VkResult create_device_through_chain(VkPhysicalDevice physical_device, const VkDeviceCreateInfo* info,
                                            const VkAllocationCallbacks* alloc, VkDevice* device,
                                            PFN_vkGetDeviceProcAddr* next_gdpa) {
  auto* link = link_info<VkLayerDeviceCreateInfo>(info->pNext, VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO);
  if (!link) return VK_ERROR_INITIALIZATION_FAILED;
  auto gipa = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
  *next_gdpa = link->u.pLayerInfo->pfnNextGetDeviceProcAddr;
  link->u.pLayerInfo = link->u.pLayerInfo->pNext;
  auto create = reinterpret_cast<PFN_vkCreateDevice>(gipa(VK_NULL_HANDLE, "vkCreateDevice"));
  return create(physical_device, info, alloc, device);
}

// The next layer's vkGetInstanceProcAddr of every instance created through this layer.
class InstanceChain {
 public:
  VkResult create(const VkInstanceCreateInfo* info, const VkAllocationCallbacks* alloc, VkInstance* instance) {
    auto* link = link_info<VkLayerInstanceCreateInfo>(info->pNext, VK_STRUCTURE_TYPE_LOADER_INSTANCE_CREATE_INFO);
    if (!link) return VK_ERROR_INITIALIZATION_FAILED;
    auto gipa = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
    link->u.pLayerInfo = link->u.pLayerInfo->pNext;
    auto create = reinterpret_cast<PFN_vkCreateInstance>(gipa(VK_NULL_HANDLE, "vkCreateInstance"));
    const VkResult r = create(info, alloc, instance);
    if (r == VK_SUCCESS) {
      std::lock_guard lock(mutex_);
      next_[dispatch_key(*instance)] = gipa;
    }
    return r;
  }
  // The next layer's function `name` for `instance`; null for VK_NULL_HANDLE or an unknown instance.
  PFN_vkVoidFunction next(VkInstance instance, const char* name) {
    if (instance == VK_NULL_HANDLE) return nullptr;
    PFN_vkGetInstanceProcAddr gipa = nullptr;
    {
      std::lock_guard lock(mutex_);
      auto it = next_.find(dispatch_key(instance));
      if (it != next_.end()) gipa = it->second;
    }
    return gipa ? gipa(instance, name) : nullptr;
  }

 private:
  std::mutex mutex_;
  std::unordered_map<void*, PFN_vkGetInstanceProcAddr> next_;
};

}  // namespace bismuth::testlayer

// The loader-facing exports of a test layer whose intercepts are `gipa` and `gdpa` (interface version 2).
#define BISMUTH_TEST_LAYER_EXPORTS(gipa, gdpa)                                     \
  extern "C" {                                                                     \
  __attribute__((visibility("default"))) VKAPI_ATTR VkResult VKAPI_CALL            \
  vkNegotiateLoaderLayerInterfaceVersion(VkNegotiateLayerInterface* v) {           \
    if (v->loaderLayerInterfaceVersion < 2) return VK_ERROR_INITIALIZATION_FAILED; \
    v->loaderLayerInterfaceVersion = 2;                                            \
    v->pfnGetInstanceProcAddr = &gipa;                                             \
    v->pfnGetDeviceProcAddr = &gdpa;                                               \
    v->pfnGetPhysicalDeviceProcAddr = nullptr;                                     \
    return VK_SUCCESS;                                                             \
  }                                                                                \
  __attribute__((visibility("default"))) VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL  \
  vkGetInstanceProcAddr(VkInstance instance, const char* name) {                   \
    return gipa(instance, name);                                                   \
  }                                                                                \
  __attribute__((visibility("default"))) VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL  \
  vkGetDeviceProcAddr(VkDevice device, const char* name) {                         \
    return gdpa(device, name);                                                     \
  }                                                                                \
  }
