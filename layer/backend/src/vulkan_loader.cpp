#include "bismuth/backend/vulkan_loader.hpp"

#include <volk.h>

#include <mutex>

namespace bismuth::backend {

Status load_vulkan() {
  static std::once_flag once;
  static Status result;
  std::call_once(once, [] {
    if (volkInitialize() != VK_SUCCESS) {
      result = fail(
          "no Vulkan loader: libvulkan.so.1 could not be loaded (install the Debian package libvulkan1, "
          "or run scripts/install-deps.sh)",
          VK_ERROR_INITIALIZATION_FAILED);
    }
  });
  return result;
}

}  // namespace bismuth::backend
