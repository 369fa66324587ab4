// NVIDIA's Vulkan driver (libGLX_nvidia.so.0, 580.x) calls eglQueryDevicesEXT from inside
// vk_icdNegotiateLoaderICDInterfaceVersion, through the process's libEGL. Under glvnd that call reaches Bismuth's EGL
// vendor, while the Vulkan loader holds its (non-recursive) lock and, when the loader call is Bismuth's own instance
// creation, while Bismuth holds its driver mutex. Enumerating Vulkan devices from there deadlocks on one or the
// other (seen on the H100/H200 machine: eglInitialize and a program's own vkCreateInstance both hung). Such a nested
// call is recognised by the loader's frames on the stack; the caller then answers from what it already knows.
#include "vulkan_loader_reentry.hpp"

#include <dlfcn.h>
#include <execinfo.h>

#include <cstring>

namespace bismuth::gl {

bool called_from_vulkan_loader() {
  void* frames[128];
  const int count = backtrace(frames, 128);
  for (int i = 1; i < count; ++i) {
    Dl_info info{};
    if (dladdr(frames[i], &info) == 0 || info.dli_fname == nullptr) continue;
    const char* slash = std::strrchr(info.dli_fname, '/');
    const char* base = slash ? slash + 1 : info.dli_fname;
    if (std::strncmp(base, "libvulkan.so", 12) == 0) return true;
  }
  return false;
}

}  // namespace bismuth::gl
