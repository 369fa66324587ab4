// VK_LAYER_BISMUTH_test_spy: a test-only layer placed just above the driver. It writes the SPIR-V of every
// vkCreateShaderModule it sees to $BISMUTH_SPY_DIR/module-<n>.spv, so tests can check what Bismuth's layer sends
// down: byte-identical modules when there is nothing to do, valid lowered modules when it emulates. It also appends
// one line per compute pipeline created or destroyed to $BISMUTH_SPY_DIR/pipelines.log ("create <handle> <id>=<value>
// ..." with the 4-byte specialization constants; "destroy <handle>"), so tests see which size pipelines reach the
// driver, from which thread they were compiled (prewarm included), and when they are destroyed.
#include <vulkan/vk_layer.h>
#include <vulkan/vulkan.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <string>
#include <unordered_map>

namespace {

void* key(const void* handle) { return *static_cast<void* const*>(handle); }

std::mutex g_mutex;
std::unordered_map<void*, PFN_vkGetInstanceProcAddr> g_instances;
std::unordered_map<void*, PFN_vkGetDeviceProcAddr> g_devices;
std::atomic<unsigned> g_counter{0};

template <class T>
T* link_info(const void* chain, VkStructureType type) {
  for (auto* s = static_cast<const VkBaseInStructure*>(chain); s; s = s->pNext)
    if (s->sType == type && reinterpret_cast<const T*>(s)->function == VK_LAYER_LINK_INFO)
      return reinterpret_cast<T*>(const_cast<VkBaseInStructure*>(s));
  return nullptr;
}

VKAPI_ATTR VkResult VKAPI_CALL CreateInstance(const VkInstanceCreateInfo* info, const VkAllocationCallbacks* alloc,
                                              VkInstance* instance) {
  auto* link = link_info<VkLayerInstanceCreateInfo>(info->pNext, VK_STRUCTURE_TYPE_LOADER_INSTANCE_CREATE_INFO);
  if (!link) return VK_ERROR_INITIALIZATION_FAILED;
  auto gipa = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
  link->u.pLayerInfo = link->u.pLayerInfo->pNext;
  auto create = reinterpret_cast<PFN_vkCreateInstance>(gipa(VK_NULL_HANDLE, "vkCreateInstance"));
  const VkResult r = create(info, alloc, instance);
  if (r == VK_SUCCESS) {
    std::lock_guard lock(g_mutex);
    g_instances[key(*instance)] = gipa;
  }
  return r;
}

VKAPI_ATTR VkResult VKAPI_CALL CreateDevice(VkPhysicalDevice pd, const VkDeviceCreateInfo* info,
                                            const VkAllocationCallbacks* alloc, VkDevice* device) {
  auto* link = link_info<VkLayerDeviceCreateInfo>(info->pNext, VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO);
  if (!link) return VK_ERROR_INITIALIZATION_FAILED;
  auto gipa = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
  auto gdpa = link->u.pLayerInfo->pfnNextGetDeviceProcAddr;
  link->u.pLayerInfo = link->u.pLayerInfo->pNext;
  auto create = reinterpret_cast<PFN_vkCreateDevice>(gipa(VK_NULL_HANDLE, "vkCreateDevice"));
  const VkResult r = create(pd, info, alloc, device);
  if (r == VK_SUCCESS) {
    std::lock_guard lock(g_mutex);
    g_devices[key(*device)] = gdpa;
  }
  return r;
}

PFN_vkGetDeviceProcAddr next_gdpa(const void* h) {
  std::lock_guard lock(g_mutex);
  auto it = g_devices.find(key(h));
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
  if (instance == VK_NULL_HANDLE) return nullptr;
  PFN_vkGetInstanceProcAddr next = nullptr;
  {
    std::lock_guard lock(g_mutex);
    auto it = g_instances.find(key(instance));
    if (it != g_instances.end()) next = it->second;
  }
  return next ? next(instance, name) : nullptr;
}

}  // namespace

extern "C" {
__attribute__((visibility("default"))) VKAPI_ATTR VkResult VKAPI_CALL
vkNegotiateLoaderLayerInterfaceVersion(VkNegotiateLayerInterface* v) {
  if (v->loaderLayerInterfaceVersion < 2) return VK_ERROR_INITIALIZATION_FAILED;
  v->loaderLayerInterfaceVersion = 2;
  v->pfnGetInstanceProcAddr = &GetInstanceProcAddr;
  v->pfnGetDeviceProcAddr = &GetDeviceProcAddr;
  v->pfnGetPhysicalDeviceProcAddr = nullptr;
  return VK_SUCCESS;
}
__attribute__((visibility("default"))) VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL
vkGetInstanceProcAddr(VkInstance instance, const char* name) {
  return GetInstanceProcAddr(instance, name);
}
__attribute__((visibility("default"))) VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL
vkGetDeviceProcAddr(VkDevice device, const char* name) {
  return GetDeviceProcAddr(device, name);
}
}
