// Per-instance and per-device Vulkan function tables.
//
// Every Vulkan call the backend makes goes through one of these tables, never through volk's global pointers.
// Inside the Vulkan layer (layer/vk_layer) the tables are filled from the NEXT layer's vkGetInstanceProcAddr /
// vkGetDeviceProcAddr, so the backend's own calls skip the layer it lives in; when Bismuth owns the instance
// (GL shim, CLI) they are filled from the loader's entry points that volk bootstrapped.
#pragma once

#include <volk.h>

#include "bismuth/common/expected.hpp"

namespace bismuth::backend {

// Instance-level entry points: physical-device queries and device creation.
#define BISMUTH_INSTANCE_FUNCTIONS(X)         \
  X(vkEnumeratePhysicalDevices)               \
  X(vkEnumerateDeviceExtensionProperties)     \
  X(vkGetPhysicalDeviceProperties)            \
  X(vkGetPhysicalDeviceProperties2)           \
  X(vkGetPhysicalDeviceFeatures2)             \
  X(vkGetPhysicalDeviceMemoryProperties)      \
  X(vkGetPhysicalDeviceQueueFamilyProperties) \
  X(vkGetPhysicalDeviceFormatProperties)      \
  X(vkGetPhysicalDeviceImageFormatProperties) \
  X(vkCreateDevice)

// Device-level entry points that every supported device has (Vulkan 1.0/1.1 core).
#define BISMUTH_DEVICE_FUNCTIONS(X) \
  X(vkDestroyDevice)                \
  X(vkGetDeviceQueue)               \
  X(vkDeviceWaitIdle)               \
  X(vkQueueSubmit)                  \
  X(vkCreateBuffer)                 \
  X(vkDestroyBuffer)                \
  X(vkGetBufferMemoryRequirements)  \
  X(vkAllocateMemory)               \
  X(vkFreeMemory)                   \
  X(vkBindBufferMemory)             \
  X(vkCreateImage)                  \
  X(vkDestroyImage)                 \
  X(vkGetImageMemoryRequirements)   \
  X(vkBindImageMemory)              \
  X(vkCreateImageView)              \
  X(vkDestroyImageView)             \
  X(vkCreateBufferView)             \
  X(vkDestroyBufferView)            \
  X(vkCreateSampler)                \
  X(vkDestroySampler)               \
  X(vkMapMemory)                    \
  X(vkUnmapMemory)                  \
  X(vkCreateShaderModule)           \
  X(vkDestroyShaderModule)          \
  X(vkCreateDescriptorSetLayout)    \
  X(vkDestroyDescriptorSetLayout)   \
  X(vkCreatePipelineLayout)         \
  X(vkDestroyPipelineLayout)        \
  X(vkCreateComputePipelines)       \
  X(vkDestroyPipeline)              \
  X(vkCreatePipelineCache)          \
  X(vkDestroyPipelineCache)         \
  X(vkGetPipelineCacheData)         \
  X(vkCreateDescriptorPool)         \
  X(vkDestroyDescriptorPool)        \
  X(vkResetDescriptorPool)          \
  X(vkAllocateDescriptorSets)       \
  X(vkUpdateDescriptorSets)         \
  X(vkCreateCommandPool)            \
  X(vkDestroyCommandPool)           \
  X(vkResetCommandPool)             \
  X(vkAllocateCommandBuffers)       \
  X(vkFreeCommandBuffers)           \
  X(vkResetCommandBuffer)           \
  X(vkBeginCommandBuffer)           \
  X(vkEndCommandBuffer)             \
  X(vkCmdBindPipeline)              \
  X(vkCmdBindDescriptorSets)        \
  X(vkCmdPushConstants)             \
  X(vkCmdDispatch)                  \
  X(vkCmdDispatchIndirect)          \
  X(vkCmdPipelineBarrier)           \
  X(vkCmdCopyBuffer)                \
  X(vkCmdFillBuffer)                \
  X(vkCmdCopyBufferToImage)         \
  X(vkCmdCopyImageToBuffer)         \
  X(vkCmdCopyImage)                 \
  X(vkCmdClearColorImage)           \
  X(vkCmdBlitImage)                 \
  X(vkCmdClearDepthStencilImage)    \
  X(vkCmdWriteTimestamp)            \
  X(vkCmdResetQueryPool)            \
  X(vkCreateQueryPool)              \
  X(vkDestroyQueryPool)             \
  X(vkGetQueryPoolResults)          \
  X(vkCreateSemaphore)              \
  X(vkDestroySemaphore)

struct InstanceFunctions {
#define BISMUTH_DECLARE(name) PFN_##name name = nullptr;
  BISMUTH_INSTANCE_FUNCTIONS(BISMUTH_DECLARE)
#undef BISMUTH_DECLARE
  // Only from the loader (load_from_loader): devices Bismuth creates itself need it. Inside a layer the next
  // layer's vkGetDeviceProcAddr comes with the device (ExternalDevice), and asking the next vkGetInstanceProcAddr
  // for it must not happen: when the next is the loader's terminator (the layer directly above the driver), Debian
  // 12's loader (1.3.239) calls a null pointer there.
  PFN_vkGetDeviceProcAddr vkGetDeviceProcAddr = nullptr;
  // Optional (Vulkan 1.1 or the KHR alias; null without): format features beyond VkFormatProperties, e.g.
  // VkFormatProperties3's SAMPLED_IMAGE_DEPTH_COMPARISON (image views).
  PFN_vkGetPhysicalDeviceFormatProperties2 vkGetPhysicalDeviceFormatProperties2 = nullptr;

  // Fills the table through `get_instance_proc_addr` (the loader's, or the next layer's inside a layer).
  // vkGetPhysicalDeviceProperties2/Features2 fall back to their KHR names. Error: a required entry is missing.
  static Expected<InstanceFunctions> load(PFN_vkGetInstanceProcAddr get_instance_proc_addr, VkInstance instance);
  // The table for an instance created through the loader that volk bootstrapped (load_vulkan()).
  static Expected<InstanceFunctions> load_from_loader(VkInstance instance);
};

struct DeviceFunctions {
#define BISMUTH_DECLARE(name) PFN_##name name = nullptr;
  BISMUTH_DEVICE_FUNCTIONS(BISMUTH_DECLARE)
#undef BISMUTH_DECLARE
  // Timeline semaphores: Vulkan 1.2 core names, or the VK_KHR_timeline_semaphore aliases.
  PFN_vkWaitSemaphores vkWaitSemaphores = nullptr;
  PFN_vkGetSemaphoreCounterValue vkGetSemaphoreCounterValue = nullptr;
  // VK_KHR_push_descriptor; null when the extension is not enabled.
  PFN_vkCmdPushDescriptorSetKHR vkCmdPushDescriptorSetKHR = nullptr;
  // Buffer device addresses: the Vulkan 1.2 core name or the VK_KHR_buffer_device_address alias; null without.
  PFN_vkGetBufferDeviceAddress vkGetBufferDeviceAddress = nullptr;

  // Fills the table through `get_device_proc_addr` for `device`. Error: a required entry is missing.
  static Expected<DeviceFunctions> load(PFN_vkGetDeviceProcAddr get_device_proc_addr, VkDevice device);
};

}  // namespace bismuth::backend
