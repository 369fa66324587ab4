// VK_LAYER_BISMUTH_test_spy: a test-only layer placed just above the driver. It writes the SPIR-V of every
// vkCreateShaderModule it sees to $BISMUTH_SPY_DIR/module-<n>.spv, so tests can check what Bismuth's layer sends
// down: byte-identical modules when there is nothing to do, valid lowered modules when it emulates. It also appends
// one line per compute pipeline created or destroyed to $BISMUTH_SPY_DIR/pipelines.log ("create <handle> <id>=<value>
// ..." with the 4-byte specialization constants; "destroy <handle>"), so tests see which size pipelines reach the
// driver, from which thread they were compiled (prewarm included), and when they are destroyed.
#include "support/test_layer_chaining.hpp"

#include <vulkan/vk_layer.h>
#include <vulkan/vulkan.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <unordered_map>

namespace {

using bismuth::testlayer::dispatch_key;
using bismuth::testlayer::InstanceChain;

std::mutex g_mutex;
InstanceChain g_instances;
std::unordered_map<void*, PFN_vkGetDeviceProcAddr> g_devices;
std::atomic<unsigned> g_counter{0};

VKAPI_ATTR VkResult VKAPI_CALL CreateInstance(const VkInstanceCreateInfo* info, const VkAllocationCallbacks* alloc,
                                              VkInstance* instance) {
  return g_instances.create(info, alloc, instance);
}

VKAPI_ATTR VkResult VKAPI_CALL CreateDevice(VkPhysicalDevice pd, const VkDeviceCreateInfo* info,
                                            const VkAllocationCallbacks* alloc, VkDevice* device) {
  PFN_vkGetDeviceProcAddr gdpa = nullptr;
  const VkResult r = bismuth::testlayer::create_device_through_chain(pd, info, alloc, device, &gdpa);
  if (r == VK_SUCCESS) {
    std::lock_guard lock(g_mutex);
    g_devices[dispatch_key(*device)] = gdpa;
  }
  return r;
}

PFN_vkGetDeviceProcAddr next_gdpa(const void* h) {
  std::lock_guard lock(g_mutex);
  auto it = g_devices.find(dispatch_key(h));
  return it == g_devices.end() ? nullptr : it->second;
}

VKAPI_ATTR VkResult VKAPI_CALL CreateShaderModule(VkDevice device, const VkShaderModuleCreateInfo* info,
                                                  const VkAllocationCallbacks* alloc, VkShaderModule* module) {
  if (const char* dir = std::getenv("BISMUTH_SPY_DIR")) {
    const std::string path = std::string(dir) + "/module-" + std::to_string(g_counter++) + ".spv";
    if (FILE* f = std::fopen(path.c_str(), "wb")) {
      std::fwrite(info->pCode, 1, info->codeSize, f);
      std::fclose(f);
    }
  }
  auto next = reinterpret_cast<PFN_vkCreateShaderModule>(next_gdpa(device)(device, "vkCreateShaderModule"));
  return next(device, info, alloc, module);
}

std::mutex g_log_mutex;

void log_line(const std::string& line) {
  const char* dir = std::getenv("BISMUTH_SPY_DIR");
  if (dir == nullptr) return;
  std::lock_guard lock(g_log_mutex);
  if (FILE* f = std::fopen((std::string(dir) + "/pipelines.log").c_str(), "a")) {
    std::fputs((line + "\n").c_str(), f);
    std::fclose(f);
  }
}

std::string handle_text(uint64_t handle) {
  char text[32];
  std::snprintf(text, sizeof text, "%llx", static_cast<unsigned long long>(handle));
  return text;
}

VKAPI_ATTR VkResult VKAPI_CALL CreateComputePipelines(VkDevice device, VkPipelineCache cache, uint32_t count,
                                                      const VkComputePipelineCreateInfo* infos,
                                                      const VkAllocationCallbacks* alloc, VkPipeline* pipelines) {
  auto next = reinterpret_cast<PFN_vkCreateComputePipelines>(next_gdpa(device)(device, "vkCreateComputePipelines"));
  const VkResult r = next(device, cache, count, infos, alloc, pipelines);
  for (uint32_t i = 0; i < count; ++i) {
    if (pipelines[i] == VK_NULL_HANDLE) continue;
    std::string line = "create " + handle_text(reinterpret_cast<uint64_t>(pipelines[i]));
    if (const VkSpecializationInfo* spec = infos[i].stage.pSpecializationInfo) {
      for (uint32_t e = 0; e < spec->mapEntryCount; ++e) {
        const VkSpecializationMapEntry& m = spec->pMapEntries[e];
        if (m.size != 4) continue;
        uint32_t value = 0;
        std::memcpy(&value, static_cast<const char*>(spec->pData) + m.offset, 4);
        line += " " + std::to_string(m.constantID) + "=" + std::to_string(value);
      }
    }
    log_line(line);
  }
  return r;
}

VKAPI_ATTR void VKAPI_CALL DestroyPipeline(VkDevice device, VkPipeline pipeline, const VkAllocationCallbacks* alloc) {
  if (pipeline != VK_NULL_HANDLE) log_line("destroy " + handle_text(reinterpret_cast<uint64_t>(pipeline)));
  auto next = reinterpret_cast<PFN_vkDestroyPipeline>(next_gdpa(device)(device, "vkDestroyPipeline"));
  next(device, pipeline, alloc);
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetDeviceProcAddr(VkDevice device, const char* name) {
  if (std::strcmp(name, "vkCreateShaderModule") == 0) return reinterpret_cast<PFN_vkVoidFunction>(&CreateShaderModule);
  if (std::strcmp(name, "vkCreateComputePipelines") == 0)
    return reinterpret_cast<PFN_vkVoidFunction>(&CreateComputePipelines);
  if (std::strcmp(name, "vkDestroyPipeline") == 0) return reinterpret_cast<PFN_vkVoidFunction>(&DestroyPipeline);
  if (std::strcmp(name, "vkGetDeviceProcAddr") == 0) return reinterpret_cast<PFN_vkVoidFunction>(&GetDeviceProcAddr);
  auto next = next_gdpa(device);
  return next ? next(device, name) : nullptr;
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetInstanceProcAddr(VkInstance instance, const char* name) {
  if (std::strcmp(name, "vkCreateInstance") == 0) return reinterpret_cast<PFN_vkVoidFunction>(&CreateInstance);
  if (std::strcmp(name, "vkCreateDevice") == 0) return reinterpret_cast<PFN_vkVoidFunction>(&CreateDevice);
  if (std::strcmp(name, "vkGetInstanceProcAddr") == 0)
    return reinterpret_cast<PFN_vkVoidFunction>(&GetInstanceProcAddr);
  if (std::strcmp(name, "vkGetDeviceProcAddr") == 0) return reinterpret_cast<PFN_vkVoidFunction>(&GetDeviceProcAddr);
  if (std::strcmp(name, "vkCreateShaderModule") == 0) return reinterpret_cast<PFN_vkVoidFunction>(&CreateShaderModule);
  if (std::strcmp(name, "vkCreateComputePipelines") == 0)
    return reinterpret_cast<PFN_vkVoidFunction>(&CreateComputePipelines);
  if (std::strcmp(name, "vkDestroyPipeline") == 0) return reinterpret_cast<PFN_vkVoidFunction>(&DestroyPipeline);
  return g_instances.next(instance, name);
}

}  // namespace

BISMUTH_TEST_LAYER_EXPORTS(GetInstanceProcAddr, GetDeviceProcAddr)
