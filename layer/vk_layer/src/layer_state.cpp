#include "layer_state.hpp"

#include <cstdio>
#include <functional>

namespace bismuth::vk_layer {
namespace {

template <class T>
struct KeyedMap {
  std::shared_mutex mutex;
  std::unordered_map<void*, std::shared_ptr<T>> map;

  std::shared_ptr<T> find(const void* handle) {
    if (handle == nullptr) return nullptr;
    std::shared_lock lock(mutex);
    auto it = map.find(dispatch_key(handle));
    return it == map.end() ? nullptr : it->second;
  }
  void store(const void* handle, std::shared_ptr<T> data) {
    std::unique_lock lock(mutex);
    map[dispatch_key(handle)] = std::move(data);
  }
  void erase(const void* handle) {
    std::unique_lock lock(mutex);
    map.erase(dispatch_key(handle));
  }
};

// Function-local statics: no initialisation-order issue when the loader calls in during another library's init.
KeyedMap<InstanceData>& instances() {
  static KeyedMap<InstanceData> map;
  return map;
}
KeyedMap<DeviceData>& devices() {
  static KeyedMap<DeviceData> map;
  return map;
}

LogLevel level_of(VkDebugUtilsMessageSeverityFlagBitsEXT severity) {
  switch (severity) {
    case VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT: return LogLevel::Error;
    case VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT: return LogLevel::Warning;
    case VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT: return LogLevel::Info;
    default: return LogLevel::Debug;
  }
}

void deliver(const InstanceData& instance, VkDebugUtilsMessageSeverityFlagBitsEXT severity, const char* vuid,
             const std::string& message);

}  // namespace

std::shared_ptr<InstanceData> instance_data(const void* h) { return instances().find(h); }
void store_instance_data(const void* h, std::shared_ptr<InstanceData> d) { instances().store(h, std::move(d)); }
void erase_instance_data(const void* h) { instances().erase(h); }
std::shared_ptr<DeviceData> device_data(const void* h) { return devices().find(h); }
void store_device_data(const void* h, std::shared_ptr<DeviceData> d) { devices().store(h, std::move(d)); }
void erase_device_data(const void* h) { devices().erase(h); }

void report(const InstanceData& instance, VkDebugUtilsMessageSeverityFlagBitsEXT severity, const char* vuid,
            const std::string& message) noexcept {
  try {
    deliver(instance, severity, vuid, message);
  } catch (...) {
    // Reporting must never take the application down; a message without memory to build it is lost.
  }
}

namespace {
void deliver(const InstanceData& instance, VkDebugUtilsMessageSeverityFlagBitsEXT severity, const char* vuid,
             const std::string& message) {
  if (instance.settings.log_level == LogLevel::Off || level_of(severity) > instance.settings.log_level) return;
  const std::string text = std::string("Bismuth: ") + message;
  VkDebugUtilsMessengerCallbackDataEXT data{};
  data.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CALLBACK_DATA_EXT;
  data.pMessageIdName = vuid;
  data.messageIdNumber = static_cast<int32_t>(std::hash<std::string_view>{}(vuid));
  data.pMessage = text.c_str();
  const VkDebugUtilsMessageTypeFlagsEXT type = VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT;
  std::vector<DebugMessenger> targets;
  std::vector<DebugReportCallback> callbacks;
  {
    std::lock_guard lock(instance.messengers_mutex);
    targets = instance.instance_messengers;
    for (const auto& [handle, messenger] : instance.messengers) targets.push_back(messenger);
    callbacks = instance.instance_report_callbacks;
    for (const auto& [handle, callback] : instance.report_callbacks) callbacks.push_back(callback);
  }
  bool delivered = false;
  for (const DebugMessenger& m : targets) {
    if ((m.severities & severity) == 0 || (m.types & type) == 0 || m.callback == nullptr) continue;
    m.callback(severity, type, &data, m.user_data);
    delivered = true;
  }
  VkDebugReportFlagsEXT flag = VK_DEBUG_REPORT_DEBUG_BIT_EXT;
  if (severity == VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) flag = VK_DEBUG_REPORT_ERROR_BIT_EXT;
  else if (severity == VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT) flag = VK_DEBUG_REPORT_WARNING_BIT_EXT;
  else if (severity == VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT) flag = VK_DEBUG_REPORT_INFORMATION_BIT_EXT;
  for (const DebugReportCallback& c : callbacks) {
    if ((c.flags & flag) == 0 || c.callback == nullptr) continue;
    c.callback(flag, VK_DEBUG_REPORT_OBJECT_TYPE_UNKNOWN_EXT, 0, 0, data.messageIdNumber, vuid, text.c_str(),
               c.user_data);
    delivered = true;
  }
  if (!delivered) std::fprintf(stderr, "[%s] %s\n", vuid, text.c_str());
}

}  // namespace

}  // namespace bismuth::vk_layer
