// __egl_Main: the handshake with glvnd's libEGL, and the vendor callbacks it asks for (libeglabi.h,
// __EGLapiImports). Displays, contexts and GL are libbismuth-gl's; what the vendor adds is the platform mapping,
// the entry-point lookup (EGL for libEGL's static dispatch, GL for libGLdispatch's per-vendor table, which libEGL
// makes current with eglMakeCurrent), and the functions of surfaces Bismuth does not have.
#include <cstring>

#include "bismuth_entry_points.hpp"
#include "device_dispatch.hpp"
#include "surfaceless_functions.hpp"
#include "vendor_abi.hpp"

namespace bismuth::glvnd {
namespace {

const __EGLapiExports* g_exports = nullptr;

// libEGL calls this for eglGetDisplay(EGL_DEFAULT_DISPLAY) with platform EGL_NONE, for eglGetPlatformDisplay of a
// device with that device's vendor only, and for other platforms with each vendor in turn until one answers.
EGLDisplay EGLAPIENTRY get_platform_display(EGLenum platform, void* native_display, const EGLAttrib* attrib_list) {
  if (platform == EGL_NONE) {
    static const auto get_display = bismuth_function<PFNEGLGETDISPLAYPROC>("eglGetDisplay");
    return get_display(static_cast<EGLNativeDisplayType>(native_display));
  }
  static const auto get_platform = bismuth_function<PFNEGLGETPLATFORMDISPLAYPROC>("eglGetPlatformDisplay");
  return get_platform(platform, native_display, attrib_list);
}

EGLBoolean EGLAPIENTRY supports_api(EGLenum api) {
  return api == EGL_OPENGL_API || api == EGL_OPENGL_ES_API;
}

// libEGL keeps the thread's API (eglBindAPI, eglQueryAPI) and forwards eglBindAPI to the vendors; the context gets
// libEGL's current API in any case (libeglabi.h: "a vendor library can query the current API from libEGL").
EGLContext EGLAPIENTRY create_context(EGLDisplay dpy, EGLConfig config, EGLContext share, const EGLint* attribs) {
  static const auto bind_api = bismuth_function<PFNEGLBINDAPIPROC>("eglBindAPI");
  static const auto create = bismuth_function<PFNEGLCREATECONTEXTPROC>("eglCreateContext");
  bind_api(g_exports->getCurrentApi());
  return create(dpy, config, share, attribs);
}

void* EGLAPIENTRY get_proc_address(const char* name) {
  if (name == nullptr) return nullptr;
  if (std::strcmp(name, "eglCreateContext") == 0) return reinterpret_cast<void*>(create_context);
  if (Proc p = surfaceless_function(name)) return reinterpret_cast<void*>(p);
  return reinterpret_cast<void*>(bismuth_entry_point(name));
}

void* EGLAPIENTRY get_dispatch_address(const char* name) {
  return name ? reinterpret_cast<void*>(device_dispatch_function(name)) : nullptr;
}

void EGLAPIENTRY set_dispatch_index(const char* name, int index) {
  if (name != nullptr) set_device_dispatch_index(name, index);
}

}  // namespace

const __EGLapiExports& egl_exports() {
  return *g_exports;
}

const char* vendor_string(int name) {
  if (name == __EGL_VENDOR_STRING_PLATFORM_EXTENSIONS) return "EGL_EXT_platform_device EGL_MESA_platform_surfaceless";
  return nullptr;
}

}  // namespace bismuth::glvnd

extern "C" EGLBoolean __egl_Main(uint32_t version, const __EGLapiExports* exports, __EGLvendorInfo*,
                                 __EGLapiImports* imports) {
  using namespace bismuth::glvnd;
  // libeglabi.h: a change of the major version breaks existing vendor libraries; minor versions only add.
  if (EGL_VENDOR_ABI_GET_MAJOR_VERSION(version) != EGL_VENDOR_ABI_MAJOR_VERSION || exports == nullptr ||
      imports == nullptr) {
    return EGL_FALSE;
  }
  g_exports = exports;
  std::memset(imports, 0, sizeof *imports);  // the optional callbacks (entry-point patching, native displays): none
  imports->getPlatformDisplay = get_platform_display;
  imports->getSupportsAPI = supports_api;
  imports->getVendorString = vendor_string;
  imports->getProcAddress = get_proc_address;
  imports->getDispatchAddress = get_dispatch_address;
  imports->setDispatchIndex = set_dispatch_index;
  return EGL_TRUE;
}
