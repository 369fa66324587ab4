#include "bismuth/backend/instance.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

#include "bismuth/backend/vulkan_loader.hpp"
#include "bismuth/backend/vk_strings.hpp"

namespace bismuth::backend {

namespace {

constexpr const char* kValidationLayer = "VK_LAYER_KHRONOS_validation";

bool has_instance_layer(const char* name) {
  uint32_t count = 0;
  if (vkEnumerateInstanceLayerProperties(&count, nullptr) != VK_SUCCESS) return false;
  std::vector<VkLayerProperties> layers(count);
  if (vkEnumerateInstanceLayerProperties(&count, layers.data()) < VK_SUCCESS) return false;
  return std::any_of(layers.begin(), layers.begin() + count,
                     [&](const VkLayerProperties& p) { return std::strcmp(p.layerName, name) == 0; });
}

bool has_instance_extension(const char* name, const char* layer = nullptr) {
  uint32_t count = 0;
  if (vkEnumerateInstanceExtensionProperties(layer, &count, nullptr) != VK_SUCCESS) return false;
  std::vector<VkExtensionProperties> extensions(count);
  if (vkEnumerateInstanceExtensionProperties(layer, &count, extensions.data()) < VK_SUCCESS) return false;
  return std::any_of(extensions.begin(), extensions.begin() + count,
                     [&](const VkExtensionProperties& p) { return std::strcmp(p.extensionName, name) == 0; });
}

}  // namespace

Expected<std::unique_ptr<Instance>> Instance::create(const InstanceOptions& options) {
  if (Status loaded = load_vulkan(); !loaded) return loaded.error();

  uint32_t loader_version = VK_API_VERSION_1_0;
  if (vkEnumerateInstanceVersion != nullptr) vkEnumerateInstanceVersion(&loader_version);
  if (loader_version < VK_API_VERSION_1_1) {
    return fail("the Vulkan loader supports only Vulkan " + vk_version_string(loader_version) +
                "; Bismuth needs 1.1 or later");
  }

  std::unique_ptr<Instance> self(new Instance());
  self->api_version_ = std::min<uint32_t>(loader_version, VK_API_VERSION_1_3);
  self->on_debug_message_ = options.on_debug_message;

  std::vector<const char*> layers;
  std::vector<const char*> extensions;
  if (options.enable_validation) {
    if (!has_instance_layer(kValidationLayer)) {
      return fail(std::string(kValidationLayer) +
                  " is not installed (install the Debian package vulkan-validationlayers)");
    }
    layers.push_back(kValidationLayer);
    self->validation_enabled_ = true;
  }
  const bool want_messenger = static_cast<bool>(options.on_debug_message);
  const bool has_debug_utils = has_instance_extension(VK_EXT_DEBUG_UTILS_EXTENSION_NAME) ||
                               (options.enable_validation &&
                                has_instance_extension(VK_EXT_DEBUG_UTILS_EXTENSION_NAME, kValidationLayer));
  if (want_messenger && has_debug_utils) extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);

  VkApplicationInfo app{};
  app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
  app.pApplicationName = options.application_name.c_str();
  app.pEngineName = "Bismuth";
  app.apiVersion = self->api_version_;

  // Chaining the messenger into the create info also reports problems in vkCreateInstance/vkDestroyInstance.
  VkDebugUtilsMessengerCreateInfoEXT messenger_info{};
  messenger_info.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT;
  messenger_info.messageSeverity =
      VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
  messenger_info.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                               VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                               VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
  messenger_info.pfnUserCallback = &Instance::debug_callback;
  messenger_info.pUserData = self.get();

  VkInstanceCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
  info.pApplicationInfo = &app;
  info.enabledLayerCount = static_cast<uint32_t>(layers.size());
  info.ppEnabledLayerNames = layers.data();
  info.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
  info.ppEnabledExtensionNames = extensions.data();
  if (want_messenger && has_debug_utils) info.pNext = &messenger_info;

  VkResult result = vkCreateInstance(&info, nullptr, &self->instance_);
  if (result == VK_ERROR_INCOMPATIBLE_DRIVER) {
    // The loader found no installable client driver at all.
    return fail(
        "no Vulkan driver found: vkCreateInstance returned VK_ERROR_INCOMPATIBLE_DRIVER (install the Debian "
        "package mesa-vulkan-drivers for lavapipe, or your GPU's Vulkan driver)",
        result);
  }
  if (result != VK_SUCCESS) {
    return fail("vkCreateInstance failed: " + std::string(vk_result_string(result)), result);
  }
  volkLoadInstanceOnly(self->instance_);

  if (want_messenger && has_debug_utils) {
    result = vkCreateDebugUtilsMessengerEXT(self->instance_, &messenger_info, nullptr, &self->messenger_);
    if (result != VK_SUCCESS) {
      return fail("vkCreateDebugUtilsMessengerEXT failed: " + std::string(vk_result_string(result)), result);
    }
  }
  return self;
}

Instance::~Instance() {
  if (instance_ == VK_NULL_HANDLE) return;
  if (messenger_ != VK_NULL_HANDLE) vkDestroyDebugUtilsMessengerEXT(instance_, messenger_, nullptr);
  vkDestroyInstance(instance_, nullptr);
}

VKAPI_ATTR VkBool32 VKAPI_CALL Instance::debug_callback(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                       VkDebugUtilsMessageTypeFlagsEXT types,
                                                       const VkDebugUtilsMessengerCallbackDataEXT* data,
                                                       void* user) {
  auto* self = static_cast<Instance*>(user);
  if (self != nullptr && self->on_debug_message_) {
    DebugMessage message{severity, types, data && data->pMessageIdName ? data->pMessageIdName : "",
                         data && data->pMessage ? data->pMessage : ""};
    self->on_debug_message_(message);
  }
  return VK_FALSE;  // never abort the call that triggered the message
}

}  // namespace bismuth::backend
