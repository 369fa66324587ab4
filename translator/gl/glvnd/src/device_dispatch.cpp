// eglQueryDeviceStringEXT through libEGL: the device's vendor from libEGL's device map (filled by its
// eglQueryDevicesEXT), that vendor's function from libEGL's dynamic dispatch table at the index libEGL assigned.
#include "device_dispatch.hpp"

#include <atomic>
#include <cstring>

#include "vendor_abi.hpp"

namespace bismuth::glvnd {
namespace {

std::atomic<int> g_query_device_string_index{-1};

const char* EGLAPIENTRY dispatch_query_device_string(EGLDeviceEXT device, EGLint name) {
  const __EGLapiExports& exports = egl_exports();
  exports.threadInit();
  __EGLvendorInfo* vendor = exports.getVendorFromDevice(device);
  const int index = g_query_device_string_index.load(std::memory_order_acquire);
  // EGL_EXT_device_query: "On failure, NULL is returned. An EGL_BAD_DEVICE_EXT error is generated if <device> is
  // not a valid EGLDeviceEXT"; a handle no vendor listed is not one.
  if (vendor == nullptr || index < 0) {
    exports.setEGLError(EGL_BAD_DEVICE_EXT);
    return nullptr;
  }
  auto function = reinterpret_cast<PFNEGLQUERYDEVICESTRINGEXTPROC>(exports.fetchDispatchEntry(vendor, index));
  if (function == nullptr) {
    exports.setEGLError(EGL_BAD_DEVICE_EXT);
    return nullptr;
  }
  exports.setLastVendor(vendor);  // the vendor's eglGetError then reports its error
  return function(device, name);
}

}  // namespace

Proc device_dispatch_function(const char* name) {
  if (std::strcmp(name, "eglQueryDeviceStringEXT") == 0) return reinterpret_cast<Proc>(dispatch_query_device_string);
  return nullptr;
}

void set_device_dispatch_index(const char* name, int index) {
  if (std::strcmp(name, "eglQueryDeviceStringEXT") == 0) {
    g_query_device_string_index.store(index, std::memory_order_release);
  }
}

}  // namespace bismuth::glvnd
