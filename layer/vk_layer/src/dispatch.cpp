// Loader interface and chaining: the three exported entry points, vkCreateInstance/vkCreateDevice through the
// layer link info, per-object state, the name -> intercept tables. Everything not intercepted goes to the next
// layer untouched. No exception leaves this library: every intercept that allocates catches std::bad_alloc.
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>

#include "hooks.hpp"
#include "num_waves_device.hpp"

namespace bismuth::vk_layer {

ChainUnlinker::ChainUnlinker(const void** head, VkStructureType type) {
  const void** link = head;
  while (*link != nullptr) {
    auto* s = static_cast<const VkBaseInStructure*>(*link);
    if (s->sType == type) {
      removed_.push_back({link, s});
      *link = s->pNext;  // skip it; `link` now points at the next one
    } else {
      link = const_cast<const void**>(reinterpret_cast<const void* const*>(&s->pNext));
    }
  }
}

ChainUnlinker::~ChainUnlinker() {
  for (auto it = removed_.rbegin(); it != removed_.rend(); ++it) *it->link = it->structure;
}

namespace {

template <class T>
T* find_link_info(const void* chain, VkStructureType type) {
  for (auto* s = static_cast<const VkBaseInStructure*>(chain); s != nullptr; s = s->pNext) {
    if (s->sType != type) continue;
    auto* info = reinterpret_cast<T*>(const_cast<VkBaseInStructure*>(s));
    if (info->function == VK_LAYER_LINK_INFO) return info;
  }
  return nullptr;
}

template <class T>
T* find_loader_data_callback(const void* chain, VkStructureType type) {
  for (auto* s = static_cast<const VkBaseInStructure*>(chain); s != nullptr; s = s->pNext) {
    if (s->sType != type) continue;
    auto* info = reinterpret_cast<T*>(const_cast<VkBaseInStructure*>(s));
    if (info->function == VK_LOADER_DATA_CALLBACK) return info;
  }
  return nullptr;
}

template <class PFN>
PFN load(PFN_vkGetInstanceProcAddr gipa, VkInstance instance, const char* name) {
  return reinterpret_cast<PFN>(gipa(instance, name));
}
template <class PFN>
PFN load(PFN_vkGetDeviceProcAddr gdpa, VkDevice device, const char* name) {
  return reinterpret_cast<PFN>(gdpa(device, name));
}

VKAPI_ATTR VkResult VKAPI_CALL CreateInstance(const VkInstanceCreateInfo* pCreateInfo,
                                              const VkAllocationCallbacks* pAllocator, VkInstance* pInstance) {
  auto* link = find_link_info<VkLayerInstanceCreateInfo>(pCreateInfo->pNext,
                                                         VK_STRUCTURE_TYPE_LOADER_INSTANCE_CREATE_INFO);
  if (link == nullptr || link->u.pLayerInfo == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  const PFN_vkGetInstanceProcAddr next_gipa = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
  auto next_create = load<PFN_vkCreateInstance>(next_gipa, VK_NULL_HANDLE, "vkCreateInstance");
  if (next_create == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  link->u.pLayerInfo = link->u.pLayerInfo->pNext;  // the next layer finds its own link
  const VkResult result = next_create(pCreateInfo, pAllocator, pInstance);
  if (result != VK_SUCCESS) return result;

  try {
    auto data = std::make_shared<InstanceData>();
    data->instance = *pInstance;
    data->settings = Settings::from_environment();
    if (pCreateInfo->pApplicationInfo && pCreateInfo->pApplicationInfo->apiVersion != 0)
      data->api_version = pCreateInfo->pApplicationInfo->apiVersion;
    data->next_gipa = next_gipa;
    data->DestroyInstance = load<PFN_vkDestroyInstance>(next_gipa, *pInstance, "vkDestroyInstance");
    data->EnumerateDeviceExtensionProperties = load<PFN_vkEnumerateDeviceExtensionProperties>(
        next_gipa, *pInstance, "vkEnumerateDeviceExtensionProperties");
    data->GetPhysicalDeviceProperties =
        load<PFN_vkGetPhysicalDeviceProperties>(next_gipa, *pInstance, "vkGetPhysicalDeviceProperties");
    data->GetPhysicalDeviceProperties2 =
        load<PFN_vkGetPhysicalDeviceProperties2>(next_gipa, *pInstance, "vkGetPhysicalDeviceProperties2");
    if (data->GetPhysicalDeviceProperties2 == nullptr)
      data->GetPhysicalDeviceProperties2 =
          load<PFN_vkGetPhysicalDeviceProperties2>(next_gipa, *pInstance, "vkGetPhysicalDeviceProperties2KHR");
    data->GetPhysicalDeviceFeatures2 =
        load<PFN_vkGetPhysicalDeviceFeatures2>(next_gipa, *pInstance, "vkGetPhysicalDeviceFeatures2");
    if (data->GetPhysicalDeviceFeatures2 == nullptr)
      data->GetPhysicalDeviceFeatures2 =
          load<PFN_vkGetPhysicalDeviceFeatures2>(next_gipa, *pInstance, "vkGetPhysicalDeviceFeatures2KHR");
    data->CreateDevice = load<PFN_vkCreateDevice>(next_gipa, *pInstance, "vkCreateDevice");
    data->CreateDebugUtilsMessengerEXT =
        load<PFN_vkCreateDebugUtilsMessengerEXT>(next_gipa, *pInstance, "vkCreateDebugUtilsMessengerEXT");
    data->DestroyDebugUtilsMessengerEXT =
        load<PFN_vkDestroyDebugUtilsMessengerEXT>(next_gipa, *pInstance, "vkDestroyDebugUtilsMessengerEXT");
    data->CreateDebugReportCallbackEXT =
        load<PFN_vkCreateDebugReportCallbackEXT>(next_gipa, *pInstance, "vkCreateDebugReportCallbackEXT");
    data->DestroyDebugReportCallbackEXT =
        load<PFN_vkDestroyDebugReportCallbackEXT>(next_gipa, *pInstance, "vkDestroyDebugReportCallbackEXT");
    for (auto* s = static_cast<const VkBaseInStructure*>(pCreateInfo->pNext); s != nullptr; s = s->pNext) {
      if (s->sType == VK_STRUCTURE_TYPE_DEBUG_REPORT_CALLBACK_CREATE_INFO_EXT) {
        auto* c = reinterpret_cast<const VkDebugReportCallbackCreateInfoEXT*>(s);
        data->instance_report_callbacks.push_back({c->flags, c->pfnCallback, c->pUserData});
      }
      if (s->sType != VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT) continue;
      auto* m = reinterpret_cast<const VkDebugUtilsMessengerCreateInfoEXT*>(s);
      data->instance_messengers.push_back({m->messageSeverity, m->messageType, m->pfnUserCallback, m->pUserData});
    }
    store_instance_data(*pInstance, std::move(data));
  } catch (...) {
    auto destroy = load<PFN_vkDestroyInstance>(next_gipa, *pInstance, "vkDestroyInstance");
    if (destroy) destroy(*pInstance, pAllocator);
    *pInstance = VK_NULL_HANDLE;
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  }
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroyInstance(VkInstance instance, const VkAllocationCallbacks* pAllocator) {
  if (instance == VK_NULL_HANDLE) return;
  auto data = instance_data(instance);
  if (!data) return;
  erase_instance_data(instance);
  data->DestroyInstance(instance, pAllocator);
}

VKAPI_ATTR VkResult VKAPI_CALL CreateDebugUtilsMessengerEXT(VkInstance instance,
                                                            const VkDebugUtilsMessengerCreateInfoEXT* pCreateInfo,
                                                            const VkAllocationCallbacks* pAllocator,
                                                            VkDebugUtilsMessengerEXT* pMessenger) {
  auto data = instance_data(instance);
  if (!data || data->CreateDebugUtilsMessengerEXT == nullptr) return VK_ERROR_EXTENSION_NOT_PRESENT;
  const VkResult result = data->CreateDebugUtilsMessengerEXT(instance, pCreateInfo, pAllocator, pMessenger);
  if (result != VK_SUCCESS) return result;
  try {
    std::lock_guard lock(data->messengers_mutex);
    data->messengers[*pMessenger] = {pCreateInfo->messageSeverity, pCreateInfo->messageType,
                                     pCreateInfo->pfnUserCallback, pCreateInfo->pUserData};
  } catch (...) {
    data->DestroyDebugUtilsMessengerEXT(instance, *pMessenger, pAllocator);
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  }
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroyDebugUtilsMessengerEXT(VkInstance instance, VkDebugUtilsMessengerEXT messenger,
                                                         const VkAllocationCallbacks* pAllocator) {
  auto data = instance_data(instance);
  if (!data || data->DestroyDebugUtilsMessengerEXT == nullptr) return;
  {
    std::lock_guard lock(data->messengers_mutex);
    data->messengers.erase(messenger);
  }
  data->DestroyDebugUtilsMessengerEXT(instance, messenger, pAllocator);
}

VKAPI_ATTR VkResult VKAPI_CALL CreateDebugReportCallbackEXT(VkInstance instance,
                                                            const VkDebugReportCallbackCreateInfoEXT* pCreateInfo,
                                                            const VkAllocationCallbacks* pAllocator,
                                                            VkDebugReportCallbackEXT* pCallback) {
  auto data = instance_data(instance);
  if (!data || data->CreateDebugReportCallbackEXT == nullptr) return VK_ERROR_EXTENSION_NOT_PRESENT;
  const VkResult result = data->CreateDebugReportCallbackEXT(instance, pCreateInfo, pAllocator, pCallback);
  if (result != VK_SUCCESS) return result;
  try {
    std::lock_guard lock(data->messengers_mutex);
    data->report_callbacks[*pCallback] = {pCreateInfo->flags, pCreateInfo->pfnCallback, pCreateInfo->pUserData};
  } catch (...) {
    data->DestroyDebugReportCallbackEXT(instance, *pCallback, pAllocator);
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  }
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroyDebugReportCallbackEXT(VkInstance instance, VkDebugReportCallbackEXT callback,
                                                         const VkAllocationCallbacks* pAllocator) {
  auto data = instance_data(instance);
  if (!data || data->DestroyDebugReportCallbackEXT == nullptr) return;
  {
    std::lock_guard lock(data->messengers_mutex);
    data->report_callbacks.erase(callback);
  }
  data->DestroyDebugReportCallbackEXT(instance, callback, pAllocator);
}

bool enabled(const VkDeviceCreateInfo* info, const char* name) {
  for (uint32_t i = 0; i < info->enabledExtensionCount; ++i)
    if (std::strcmp(info->ppEnabledExtensionNames[i], name) == 0) return true;
  return false;
}

VKAPI_ATTR VkResult VKAPI_CALL CreateDevice(VkPhysicalDevice physicalDevice, const VkDeviceCreateInfo* pCreateInfo,
                                            const VkAllocationCallbacks* pAllocator, VkDevice* pDevice) {
  auto instance = instance_data(physicalDevice);
  auto* link = find_link_info<VkLayerDeviceCreateInfo>(pCreateInfo->pNext, VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO);
  if (!instance || link == nullptr || link->u.pLayerInfo == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  const PFN_vkGetInstanceProcAddr next_gipa = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
  const PFN_vkGetDeviceProcAddr next_gdpa = link->u.pLayerInfo->pfnNextGetDeviceProcAddr;
  auto next_create = load<PFN_vkCreateDevice>(next_gipa, instance->instance, "vkCreateDevice");
  if (next_create == nullptr) return VK_ERROR_INITIALIZATION_FAILED;

  try {
    auto data = std::make_shared<DeviceData>();
    data->instance = instance;
    data->physical_device = physicalDevice;
    data->support = query_support(*instance, physicalDevice);
    data->lower_ballot = data->support.emulate_ballot && enabled(pCreateInfo, kBallotName);
    data->lower_vote = data->support.emulate_vote && enabled(pCreateInfo, kVoteName);
    const bool vgs_extension = data->support.variable_group_size &&
                               enabled(pCreateInfo, VK_BISMUTH_VARIABLE_GROUP_SIZE_EXTENSION_NAME);
    auto* features = find_in_chain<VkPhysicalDeviceVariableGroupSizeFeaturesBISMUTH>(
        pCreateInfo->pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VARIABLE_GROUP_SIZE_FEATURES_BISMUTH);
    data->variable_group_size_extension = vgs_extension;
    // Without the feature structure, enabling the extension enables the feature: layers above this one (the
    // validation layer deep-copies VkDeviceCreateInfo) may drop a structure whose sType they do not know.
    data->variable_group_size = vgs_extension && (features == nullptr || features->variableGroupSize == VK_TRUE);
    if (vgs_extension && !data->variable_group_size)
      report(*instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT,
             "BISMUTH-VkDeviceCreateInfo-variableGroupSize-feature",
             "vkCreateDevice: VK_BISMUTH_variable_group_size is enabled but "
             "VkPhysicalDeviceVariableGroupSizeFeaturesBISMUTH::variableGroupSize is VK_FALSE; "
             "vkCmdDispatchGroupSizeBISMUTH will not be available");
    const bool num_waves_extension =
        data->support.num_waves && enabled(pCreateInfo, VK_BISMUTH_NUM_WAVES_EXTENSION_NAME);
    auto* num_waves_features = find_in_chain<VkPhysicalDeviceNumWavesFeaturesBISMUTH>(
        pCreateInfo->pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_NUM_WAVES_FEATURES_BISMUTH);
    data->num_waves_extension = num_waves_extension;
    // As for variableGroupSize: the extension without the structure enables the feature.
    data->num_waves = num_waves_extension && (num_waves_features == nullptr || num_waves_features->numWaves == VK_TRUE);
    data->maintenance4 = enabled(pCreateInfo, VK_KHR_MAINTENANCE_4_EXTENSION_NAME);
    if (auto* f13 = find_in_chain<VkPhysicalDeviceVulkan13Features>(
            pCreateInfo->pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES))
      data->maintenance4 = data->maintenance4 || f13->maintenance4;
    if (auto* f4 = find_in_chain<VkPhysicalDeviceMaintenance4Features>(
            pCreateInfo->pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_4_FEATURES))
      data->maintenance4 = data->maintenance4 || f4->maintenance4;
    // What the backend's size pipeline compiles may use: required subgroup sizes, creation feedback.
    data->subgroup_size_control = enabled(pCreateInfo, VK_EXT_SUBGROUP_SIZE_CONTROL_EXTENSION_NAME);
    if (auto* f13 = find_in_chain<VkPhysicalDeviceVulkan13Features>(
            pCreateInfo->pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES))
      data->subgroup_size_control = data->subgroup_size_control || f13->subgroupSizeControl;
    if (auto* fs = find_in_chain<VkPhysicalDeviceSubgroupSizeControlFeatures>(
            pCreateInfo->pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES))
      data->subgroup_size_control = data->subgroup_size_control || fs->subgroupSizeControl;
    if (auto* f13 = find_in_chain<VkPhysicalDeviceVulkan13Features>(
            pCreateInfo->pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES))
      data->compute_full_subgroups = f13->computeFullSubgroups;
    if (auto* fs = find_in_chain<VkPhysicalDeviceSubgroupSizeControlFeatures>(
            pCreateInfo->pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES))
      data->compute_full_subgroups = data->compute_full_subgroups || fs->computeFullSubgroups;
    {
      VkPhysicalDeviceProperties properties{};
      instance->GetPhysicalDeviceProperties(physicalDevice, &properties);
      data->pipeline_creation_feedback =
          enabled(pCreateInfo, VK_EXT_PIPELINE_CREATION_FEEDBACK_EXTENSION_NAME) ||
          (instance->api_version >= VK_API_VERSION_1_3 && properties.apiVersion >= VK_API_VERSION_1_3);
    }

    // The driver must not see the extensions the layer provides, nor the layer's feature structure.
    std::vector<const char*> extensions;
    for (uint32_t i = 0; i < pCreateInfo->enabledExtensionCount; ++i) {
      const char* name = pCreateInfo->ppEnabledExtensionNames[i];
      if (std::strcmp(name, VK_BISMUTH_VARIABLE_GROUP_SIZE_EXTENSION_NAME) == 0) continue;
      if (std::strcmp(name, VK_BISMUTH_NUM_WAVES_EXTENSION_NAME) == 0) continue;
      if (data->lower_ballot && std::strcmp(name, kBallotName) == 0) continue;
      if (data->lower_vote && std::strcmp(name, kVoteName) == 0) continue;
      extensions.push_back(name);
    }
    VkDeviceCreateInfo create_info = *pCreateInfo;
    create_info.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
    create_info.ppEnabledExtensionNames = extensions.empty() ? nullptr : extensions.data();
    if (auto* loader_data = find_loader_data_callback<VkLayerDeviceCreateInfo>(
            pCreateInfo->pNext, VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO))
      data->set_device_loader_data = loader_data->u.pfnSetDeviceLoaderData;

    link->u.pLayerInfo = link->u.pLayerInfo->pNext;
    VkResult result;
    {
      ChainUnlinker unlink(&create_info.pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VARIABLE_GROUP_SIZE_FEATURES_BISMUTH);
      ChainUnlinker unlink_num_waves(&create_info.pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_NUM_WAVES_FEATURES_BISMUTH);
      // numWaves commits wave sizes with subgroup size control: the layer enables what the application did not.
      std::optional<SubgroupSizeFeatures> subgroup_features;
      if (data->num_waves) {
        subgroup_features.emplace(*instance, physicalDevice, create_info, extensions);
        data->subgroup_size_control = subgroup_features->size_control();
        data->compute_full_subgroups = subgroup_features->full_subgroups();
      }
      result = next_create(physicalDevice, &create_info, pAllocator, pDevice);
    }
    if (result != VK_SUCCESS) return result;

    data->device = *pDevice;
    data->next_gdpa = next_gdpa;
    const VkDevice d = *pDevice;
    data->DestroyDevice = load<PFN_vkDestroyDevice>(next_gdpa, d, "vkDestroyDevice");
    data->CreateShaderModule = load<PFN_vkCreateShaderModule>(next_gdpa, d, "vkCreateShaderModule");
    data->DestroyShaderModule = load<PFN_vkDestroyShaderModule>(next_gdpa, d, "vkDestroyShaderModule");
    data->CreateComputePipelines = load<PFN_vkCreateComputePipelines>(next_gdpa, d, "vkCreateComputePipelines");
    data->CreateGraphicsPipelines = load<PFN_vkCreateGraphicsPipelines>(next_gdpa, d, "vkCreateGraphicsPipelines");
    data->DestroyPipeline = load<PFN_vkDestroyPipeline>(next_gdpa, d, "vkDestroyPipeline");
    data->DestroyPipelineLayout = load<PFN_vkDestroyPipelineLayout>(next_gdpa, d, "vkDestroyPipelineLayout");
    data->BeginCommandBuffer = load<PFN_vkBeginCommandBuffer>(next_gdpa, d, "vkBeginCommandBuffer");
    data->CmdBindPipeline = load<PFN_vkCmdBindPipeline>(next_gdpa, d, "vkCmdBindPipeline");
    data->CmdDispatch = load<PFN_vkCmdDispatch>(next_gdpa, d, "vkCmdDispatch");
    data->CmdDispatchIndirect = load<PFN_vkCmdDispatchIndirect>(next_gdpa, d, "vkCmdDispatchIndirect");
    data->CmdDispatchBase = load<PFN_vkCmdDispatchBase>(next_gdpa, d, "vkCmdDispatchBase");
    if (data->CmdDispatchBase == nullptr)
      data->CmdDispatchBase = load<PFN_vkCmdDispatchBase>(next_gdpa, d, "vkCmdDispatchBaseKHR");
    data->FreeCommandBuffers = load<PFN_vkFreeCommandBuffers>(next_gdpa, d, "vkFreeCommandBuffers");
    if (data->num_waves) {
      auto caps = num_waves_caps(*instance, physicalDevice, data->subgroup_size_control, data->compute_full_subgroups);
      if (!caps) {
        report(*instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, "BISMUTH-num-waves-device",
               "vkCreateDevice: VK_BISMUTH_num_waves cannot work on this device: " + caps.error().message);
        if (data->DestroyDevice != nullptr) data->DestroyDevice(d, pAllocator);
        *pDevice = VK_NULL_HANDLE;
        return VK_ERROR_INITIALIZATION_FAILED;
      }
      data->wave_size_caps = std::move(*caps);
    }
    if (data->variable_group_size) {
      // The application gets no device that cannot do what it enabled: without the backend's cache the
      // extension cannot work, so the device is destroyed again and the error returned (the message says why).
      const VkResult opened = open_size_pipeline_cache(*data);
      if (opened != VK_SUCCESS) {
        data->size_pipelines.reset();
        if (data->DestroyDevice != nullptr) data->DestroyDevice(d, pAllocator);
        *pDevice = VK_NULL_HANDLE;
        return opened;
      }
    }
    report(*instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT, "BISMUTH-device-created",
           std::string("vkCreateDevice: ballot lowering ") + (data->lower_ballot ? "on" : "off") +
               ", vote lowering " + (data->lower_vote ? "on" : "off") + ", variable group size " +
               (data->variable_group_size ? "on" : "off") + ", numWaves " + (data->num_waves ? "on" : "off"));
    store_device_data(*pDevice, std::move(data));
  } catch (...) {
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  }
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroyDevice(VkDevice device, const VkAllocationCallbacks* pAllocator) {
  if (device == VK_NULL_HANDLE) return;
  auto data = device_data(device);
  if (!data) return;
  destroy_variable_pipelines(*data);
  if (data->instance->settings.stats)
    std::fprintf(stderr,
                 "Bismuth layer stats: modules passed through %llu, rewritten %llu; invalid commands skipped %llu\n",
                 static_cast<unsigned long long>(data->stats.modules_passed_through.load()),
                 static_cast<unsigned long long>(data->stats.modules_rewritten.load()),
                 static_cast<unsigned long long>(data->stats.invalid_commands_skipped.load()));
  // Size pipelines: the backend's cache saves its file and prints its statistics (BISMUTH_STATS) as it goes.
  close_size_pipeline_cache(*data);
  erase_device_data(device);
  data->DestroyDevice(device, pAllocator);
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetDeviceProcAddr(VkDevice device, const char* pName);
VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetInstanceProcAddr(VkInstance instance, const char* pName);

struct Intercept {
  const char* name;
  PFN_vkVoidFunction function;
};
#define BISMUTH_HOOK(name, fn) {name, reinterpret_cast<PFN_vkVoidFunction>(&fn)}

// Device-level intercepts, with the condition under which the layer needs them on a given device.
enum class Need { Always, Lowering, VariableGroupSize, VariableOrLowering, ModuleWords, NumWaves };
struct DeviceIntercept {
  const char* name;
  PFN_vkVoidFunction function;
  Need need;
};

const DeviceIntercept kDeviceIntercepts[] = {
    {"vkGetDeviceProcAddr", reinterpret_cast<PFN_vkVoidFunction>(&GetDeviceProcAddr), Need::Always},
    {"vkDestroyDevice", reinterpret_cast<PFN_vkVoidFunction>(&DestroyDevice), Need::Always},
    {"vkCreateShaderModule", reinterpret_cast<PFN_vkVoidFunction>(&CreateShaderModule), Need::VariableOrLowering},
    {"vkDestroyShaderModule", reinterpret_cast<PFN_vkVoidFunction>(&DestroyShaderModule), Need::ModuleWords},
    {"vkCreateComputePipelines", reinterpret_cast<PFN_vkVoidFunction>(&CreateComputePipelines),
     Need::VariableOrLowering},
    {"vkCreateGraphicsPipelines", reinterpret_cast<PFN_vkVoidFunction>(&CreateGraphicsPipelines), Need::Lowering},
    {"vkDestroyPipeline", reinterpret_cast<PFN_vkVoidFunction>(&DestroyPipeline), Need::ModuleWords},
    {"vkDestroyPipelineLayout", reinterpret_cast<PFN_vkVoidFunction>(&DestroyPipelineLayout), Need::VariableGroupSize},
    {"vkBeginCommandBuffer", reinterpret_cast<PFN_vkVoidFunction>(&BeginCommandBuffer), Need::VariableGroupSize},
    {"vkFreeCommandBuffers", reinterpret_cast<PFN_vkVoidFunction>(&FreeCommandBuffers), Need::VariableGroupSize},
    {"vkCmdBindPipeline", reinterpret_cast<PFN_vkVoidFunction>(&CmdBindPipeline), Need::VariableGroupSize},
    {"vkCmdDispatch", reinterpret_cast<PFN_vkVoidFunction>(&CmdDispatch), Need::VariableGroupSize},
    {"vkCmdDispatchIndirect", reinterpret_cast<PFN_vkVoidFunction>(&CmdDispatchIndirect), Need::VariableGroupSize},
    {"vkCmdDispatchBase", reinterpret_cast<PFN_vkVoidFunction>(&CmdDispatchBase), Need::VariableGroupSize},
    {"vkCmdDispatchBaseKHR", reinterpret_cast<PFN_vkVoidFunction>(&CmdDispatchBase), Need::VariableGroupSize},
    {"vkCmdDispatchGroupSizeBISMUTH", reinterpret_cast<PFN_vkVoidFunction>(&CmdDispatchGroupSizeBISMUTH),
     Need::VariableGroupSize},
    {"vkGetPipelineNumWavesPropertiesBISMUTH",
     reinterpret_cast<PFN_vkVoidFunction>(&GetPipelineNumWavesPropertiesBISMUTH), Need::NumWaves},
};

const Intercept kInstanceIntercepts[] = {
    BISMUTH_HOOK("vkGetInstanceProcAddr", GetInstanceProcAddr),
    BISMUTH_HOOK("vkCreateInstance", CreateInstance),
    BISMUTH_HOOK("vkDestroyInstance", DestroyInstance),
    BISMUTH_HOOK("vkCreateDevice", CreateDevice),
    BISMUTH_HOOK("vkEnumerateDeviceExtensionProperties", EnumerateDeviceExtensionProperties),
    BISMUTH_HOOK("vkGetPhysicalDeviceFeatures2", GetPhysicalDeviceFeatures2),
    BISMUTH_HOOK("vkGetPhysicalDeviceFeatures2KHR", GetPhysicalDeviceFeatures2),
    BISMUTH_HOOK("vkGetPhysicalDeviceProperties2", GetPhysicalDeviceProperties2),
    BISMUTH_HOOK("vkGetPhysicalDeviceProperties2KHR", GetPhysicalDeviceProperties2),
    BISMUTH_HOOK("vkCreateDebugUtilsMessengerEXT", CreateDebugUtilsMessengerEXT),
    BISMUTH_HOOK("vkDestroyDebugUtilsMessengerEXT", DestroyDebugUtilsMessengerEXT),
    BISMUTH_HOOK("vkCreateDebugReportCallbackEXT", CreateDebugReportCallbackEXT),
    BISMUTH_HOOK("vkDestroyDebugReportCallbackEXT", DestroyDebugReportCallbackEXT),
};

bool needed(const DeviceData& d, Need need) {
  const bool lowering = d.lower_ballot || d.lower_vote;
  switch (need) {
    case Need::Always: return true;
    case Need::Lowering: return lowering;
    case Need::VariableGroupSize: return d.variable_group_size;
    case Need::VariableOrLowering: return lowering || d.variable_group_size_extension || d.num_waves_extension;
    // The module's words and the pipelines the layer made: variable-size and numWaves pipelines.
    case Need::ModuleWords: return d.variable_group_size || d.num_waves;
    case Need::NumWaves: return d.num_waves;
  }
  return false;
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetDeviceProcAddr(VkDevice device, const char* pName) {
  if (device == VK_NULL_HANDLE || pName == nullptr) return nullptr;
  auto data = device_data(device);
  if (!data) return nullptr;
  const std::string_view name(pName);
  for (const auto& hook : kDeviceIntercepts) {
    if (name != hook.name) continue;
    // Where the device needs no hook, the application gets the next layer's function: zero overhead.
    if (needed(*data, hook.need)) return hook.function;
    break;
  }
  // The layer's commands of an extension not enabled on this device.
  if (name == "vkCmdDispatchGroupSizeBISMUTH" || name == "vkGetPipelineNumWavesPropertiesBISMUTH") return nullptr;
  return data->next_gdpa(device, pName);
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetInstanceProcAddr(VkInstance instance, const char* pName) {
  if (pName == nullptr) return nullptr;
  const std::string_view name(pName);
  for (const auto& hook : kInstanceIntercepts)
    if (name == hook.name) return hook.function;
  if (instance == VK_NULL_HANDLE) return nullptr;
  auto data = instance_data(instance);
  if (!data) return nullptr;
  // Device functions through vkGetInstanceProcAddr: the hooks check per device whether they have work to do.
  if (!data->settings.disabled)
    for (const auto& hook : kDeviceIntercepts)
      if (name == hook.name) return hook.function;
  return data->next_gipa(instance, pName);
}

}  // namespace
}  // namespace bismuth::vk_layer

// The loader-facing exports (version script: only these three are visible). The build renames volk's global
// vkGetInstanceProcAddr / vkGetDeviceProcAddr by macro for everything compiled against volk, this library included
// (cmake/BismuthDependencies.cmake), so that nothing else in the library carries these names; the exports must.
#undef vkGetInstanceProcAddr
#undef vkGetDeviceProcAddr
#define BISMUTH_LAYER_EXPORT __attribute__((visibility("default")))
extern "C" {

BISMUTH_LAYER_EXPORT VKAPI_ATTR VkResult VKAPI_CALL vkNegotiateLoaderLayerInterfaceVersion(VkNegotiateLayerInterface* pVersionStruct) {
  if (pVersionStruct == nullptr || pVersionStruct->sType != LAYER_NEGOTIATE_INTERFACE_STRUCT)
    return VK_ERROR_INITIALIZATION_FAILED;
  if (pVersionStruct->loaderLayerInterfaceVersion < 2) return VK_ERROR_INITIALIZATION_FAILED;
  pVersionStruct->loaderLayerInterfaceVersion = 2;
  pVersionStruct->pfnGetInstanceProcAddr = &bismuth::vk_layer::GetInstanceProcAddr;
  pVersionStruct->pfnGetDeviceProcAddr = &bismuth::vk_layer::GetDeviceProcAddr;
  pVersionStruct->pfnGetPhysicalDeviceProcAddr = nullptr;
  return VK_SUCCESS;
}

BISMUTH_LAYER_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vkGetInstanceProcAddr(VkInstance instance, const char* pName) {
  return bismuth::vk_layer::GetInstanceProcAddr(instance, pName);
}

BISMUTH_LAYER_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vkGetDeviceProcAddr(VkDevice device, const char* pName) {
  return bismuth::vk_layer::GetDeviceProcAddr(device, pName);
}

}  // extern "C"
