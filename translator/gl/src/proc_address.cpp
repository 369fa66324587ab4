// eglGetProcAddress / bismuthGetProcAddress: supported GL functions (the generated table) and the EGL functions.
#define EGL_EGLEXT_PROTOTYPES 1
#include <EGL/egl.h>
#include <EGL/eglext.h>

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <string_view>
#include <utility>

#include "bismuth/gl/bismuth_gl.h"

extern "C" {
struct bismuth_gl_proc {
  const char* name;
  void (*address)(void);
};
extern const struct bismuth_gl_proc bismuth_gl_procs[];
extern const size_t bismuth_gl_proc_count;
}

namespace {
using Proc = void (*)(void);
template <class F>
Proc as_proc(F f) {
  return reinterpret_cast<Proc>(f);
}
Proc lookup_table(const char* name) {
  const bismuth_gl_proc* begin = bismuth_gl_procs;
  const bismuth_gl_proc* end = bismuth_gl_procs + bismuth_gl_proc_count;
  auto it = std::lower_bound(begin, end, name,
                             [](const bismuth_gl_proc& p, const char* n) { return std::strcmp(p.name, n) < 0; });
  if (it != end && std::strcmp(it->name, name) == 0) return it->address;
  return nullptr;
}

// KHR_debug: "In OpenGL ES contexts, all entry points have a KHR suffix" (the extension's OpenGL ES interaction;
// ES 3.2 made them core without it). ES 3.1 ports ask for glDebugMessageCallbackKHR & co; they are the core
// functions under another name.
constexpr const char* kKhrDebugFunctions[] = {
    "glDebugMessageCallback", "glDebugMessageControl", "glDebugMessageInsert", "glGetDebugMessageLog",
    "glGetObjectLabel",       "glGetObjectPtrLabel",   "glGetPointerv",        "glObjectLabel",
    "glObjectPtrLabel",       "glPopDebugGroup",       "glPushDebugGroup",
};

// EXT_buffer_storage (OpenGL ES): glBufferStorageEXT is glBufferStorage.
constexpr const char* kExtBufferStorageFunctions[] = {"glBufferStorage"};

// `name` without `suffix` when it ends with it and the rest is one of `functions`: the core function's address.
template <size_t N>
Proc lookup_suffixed(std::string_view name, std::string_view suffix, const char* const (&functions)[N]) {
  if (!name.ends_with(suffix)) return nullptr;
  const std::string_view core = name.substr(0, name.size() - suffix.size());
  for (const char* f : functions) {
    if (core == f) return lookup_table(f);
  }
  return nullptr;
}

Proc lookup_gl(const char* name) {
  if (Proc p = lookup_table(name)) return p;
  if (Proc p = lookup_suffixed(name, "KHR", kKhrDebugFunctions)) return p;
  return lookup_suffixed(name, "EXT", kExtBufferStorageFunctions);
}
}  // namespace

// GL and EGL names: the GLVND vendor library (glvnd/) finds libbismuth-gl's EGL functions through it, since inside a
// process with glvnd's libEGL loaded an `eglXxx` reference from outside this library resolves to glvnd's.
extern "C" void (*bismuthGetProcAddress(const char* name))(void) {
  if (name == nullptr) return nullptr;
  return eglGetProcAddress(name);
}

extern "C" __eglMustCastToProperFunctionPointerType EGLAPIENTRY eglGetProcAddress(const char* name) {
  if (name == nullptr) return nullptr;
  if (name[0] == 'g' && name[1] == 'l') return lookup_gl(name);
  static const std::pair<const char*, Proc> egl[] = {
      {"eglGetPlatformDisplayEXT", as_proc(eglGetPlatformDisplayEXT)},
      {"eglGetPlatformDisplay", as_proc(eglGetPlatformDisplay)},
      {"eglQueryDevicesEXT", as_proc(eglQueryDevicesEXT)},
      {"eglQueryDeviceStringEXT", as_proc(eglQueryDeviceStringEXT)},
      {"eglQueryDeviceAttribEXT", as_proc(eglQueryDeviceAttribEXT)},
      {"eglQueryDeviceBinaryEXT", as_proc(eglQueryDeviceBinaryEXT)},
      {"eglQueryDisplayAttribEXT", as_proc(eglQueryDisplayAttribEXT)},
      {"eglGetError", as_proc(eglGetError)},
      {"eglGetDisplay", as_proc(eglGetDisplay)},
      {"eglInitialize", as_proc(eglInitialize)},
      {"eglTerminate", as_proc(eglTerminate)},
      {"eglQueryString", as_proc(eglQueryString)},
      {"eglBindAPI", as_proc(eglBindAPI)},
      {"eglQueryAPI", as_proc(eglQueryAPI)},
      {"eglChooseConfig", as_proc(eglChooseConfig)},
      {"eglGetConfigs", as_proc(eglGetConfigs)},
      {"eglGetConfigAttrib", as_proc(eglGetConfigAttrib)},
      {"eglCreateContext", as_proc(eglCreateContext)},
      {"eglDestroyContext", as_proc(eglDestroyContext)},
      {"eglMakeCurrent", as_proc(eglMakeCurrent)},
      {"eglGetCurrentContext", as_proc(eglGetCurrentContext)},
      {"eglGetCurrentDisplay", as_proc(eglGetCurrentDisplay)},
      {"eglGetCurrentSurface", as_proc(eglGetCurrentSurface)},
      {"eglReleaseThread", as_proc(eglReleaseThread)},
      {"eglQueryContext", as_proc(eglQueryContext)},
      {"eglSwapInterval", as_proc(eglSwapInterval)},
      {"eglGetProcAddress", as_proc(eglGetProcAddress)},
  };
  for (const auto& [n, f] : egl) {
    if (std::strcmp(n, name) == 0) return f;
  }
  return nullptr;
}
