// The EGL device functions through libEGL (eglQueryDeviceStringEXT, eglQueryDeviceAttribEXT,
// eglQueryDeviceBinaryEXT): the device's vendor from libEGL's device map (filled by its eglQueryDevicesEXT), that
// vendor's function from libEGL's dynamic dispatch table at the index libEGL assigned.
#include "device_dispatch.hpp"

#include <atomic>
#include <cstring>

#include "vendor_abi.hpp"

namespace bismuth::glvnd {
namespace {

enum DeviceFunction { kQueryDeviceString, kQueryDeviceAttrib, kQueryDeviceBinary, kDeviceFunctionCount };

constexpr const char* kDeviceFunctionNames[kDeviceFunctionCount] = {
    "eglQueryDeviceStringEXT", "eglQueryDeviceAttribEXT", "eglQueryDeviceBinaryEXT"};

std::atomic<int> g_dispatch_index[kDeviceFunctionCount] = {-1, -1, -1};

int device_function(const char* name) {
  for (int i = 0; i < kDeviceFunctionCount; ++i) {
    if (std::strcmp(name, kDeviceFunctionNames[i]) == 0) return i;
  }
  return -1;
}

// The device's vendor's implementation of `function`, with that vendor made the last one (its eglGetError then
// reports the call's error); nullptr with EGL_BAD_DEVICE_EXT set for a handle no vendor listed. Every device
// function of EGL_EXT_device_query and its extensions says: "An EGL_BAD_DEVICE_EXT error is generated if <device>
// is not a valid EGLDeviceEXT".
template <class Function>
Function vendor_function(EGLDeviceEXT device, DeviceFunction function) {
  const __EGLapiExports& exports = egl_exports();
  exports.threadInit();
  __EGLvendorInfo* vendor = exports.getVendorFromDevice(device);
  const int index = g_dispatch_index[function].load(std::memory_order_acquire);
  auto entry = vendor != nullptr && index >= 0 ? exports.fetchDispatchEntry(vendor, index) : nullptr;
  if (entry == nullptr) {
    // A vendor that lists the device but lacks the function: the device is valid, the query is not one it knows.
    exports.setEGLError(vendor == nullptr                ? EGL_BAD_DEVICE_EXT
                        : function == kQueryDeviceString ? EGL_BAD_PARAMETER
                                                         : EGL_BAD_ATTRIBUTE);
    return nullptr;
  }
  exports.setLastVendor(vendor);
  return reinterpret_cast<Function>(entry);
}

const char* EGLAPIENTRY dispatch_query_device_string(EGLDeviceEXT device, EGLint name) {
  auto function = vendor_function<PFNEGLQUERYDEVICESTRINGEXTPROC>(device, kQueryDeviceString);
  return function ? function(device, name) : nullptr;
}

EGLBoolean EGLAPIENTRY dispatch_query_device_attrib(EGLDeviceEXT device, EGLint attribute, EGLAttrib* value) {
  auto function = vendor_function<PFNEGLQUERYDEVICEATTRIBEXTPROC>(device, kQueryDeviceAttrib);
  return function ? function(device, attribute, value) : EGL_FALSE;
}

EGLBoolean EGLAPIENTRY dispatch_query_device_binary(EGLDeviceEXT device, EGLint name, EGLint max_size, void* value,
                                                    EGLint* size) {
  auto function = vendor_function<PFNEGLQUERYDEVICEBINARYEXTPROC>(device, kQueryDeviceBinary);
  return function ? function(device, name, max_size, value, size) : EGL_FALSE;
}

}  // namespace

Proc device_dispatch_function(const char* name) {
  switch (device_function(name)) {
    case kQueryDeviceString: return reinterpret_cast<Proc>(dispatch_query_device_string);
    case kQueryDeviceAttrib: return reinterpret_cast<Proc>(dispatch_query_device_attrib);
    case kQueryDeviceBinary: return reinterpret_cast<Proc>(dispatch_query_device_binary);
    default: return nullptr;
  }
}

void set_device_dispatch_index(const char* name, int index) {
  const int function = device_function(name);
  if (function >= 0) g_dispatch_index[function].store(index, std::memory_order_release);
}

}  // namespace bismuth::glvnd
