// A VkInstance owned by Bismuth, optionally with the Khronos validation layer and a debug-utils messenger.
#pragma once

#include <volk.h>

#include <functional>
#include <memory>
#include <string>

#include "bismuth/common/expected.hpp"

namespace bismuth::backend {

struct DebugMessage {
  VkDebugUtilsMessageSeverityFlagBitsEXT severity;
  VkDebugUtilsMessageTypeFlagsEXT types;
  std::string id_name;
  std::string text;
};

struct InstanceOptions {
  std::string application_name = "bismuth";
  // Enables VK_LAYER_KHRONOS_validation; creation fails with a message naming the package when it is missing.
  bool enable_validation = false;
  // Receives every warning and error the debug-utils messenger reports (validation, performance, general).
  // Called from whichever thread made the Vulkan call; must be thread-safe.
  std::function<void(const DebugMessage&)> on_debug_message;
};

class Instance {
 public:
  static Expected<std::unique_ptr<Instance>> create(const InstanceOptions& options = {});
  ~Instance();
  Instance(const Instance&) = delete;
  Instance& operator=(const Instance&) = delete;

  VkInstance handle() const { return instance_; }
  // The API version the instance was created with (the loader's, capped at 1.3).
  uint32_t api_version() const { return api_version_; }
  bool validation_enabled() const { return validation_enabled_; }

 private:
  Instance() = default;
  static VKAPI_ATTR VkBool32 VKAPI_CALL debug_callback(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                      VkDebugUtilsMessageTypeFlagsEXT types,
                                                      const VkDebugUtilsMessengerCallbackDataEXT* data,
                                                      void* user);

  VkInstance instance_ = VK_NULL_HANDLE;
  VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
  uint32_t api_version_ = 0;
  bool validation_enabled_ = false;
  std::function<void(const DebugMessage&)> on_debug_message_;
};

}  // namespace bismuth::backend
