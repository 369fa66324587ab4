// EGL 1.5's surface functions for a display whose one config has EGL_SURFACE_TYPE 0. libEGL has already checked
// that the display is one of Bismuth's and made Bismuth the thread's last vendor, so each function first lets
// libbismuth-gl check the display and config (their errors are then Bismuth's eglGetError), then reports its own
// error through libEGL (setEGLError).
#include "surfaceless_functions.hpp"

#include <cstring>
#include <utility>

#include "vendor_abi.hpp"

namespace bismuth::glvnd {
namespace {

template <class T>
T fail(EGLint error, T value) {
  egl_exports().setEGLError(error);
  return value;
}

// EGL 1.5 §3.2/§3.3: EGL_BAD_DISPLAY or EGL_NOT_INITIALIZED first; libbismuth-gl's eglQueryString checks both and
// records the error.
bool display_ready(EGLDisplay dpy) {
  static const auto query_string = bismuth_function<PFNEGLQUERYSTRINGPROC>("eglQueryString");
  return query_string(dpy, EGL_VENDOR) != nullptr;
}

// EGL_BAD_CONFIG for a config that is not the display's (libbismuth-gl's eglGetConfigAttrib records it).
bool config_valid(EGLDisplay dpy, EGLConfig config) {
  static const auto get_config_attrib = bismuth_function<PFNEGLGETCONFIGATTRIBPROC>("eglGetConfigAttrib");
  EGLint id = 0;
  return get_config_attrib(dpy, config, EGL_CONFIG_ID, &id) == EGL_TRUE;
}

// EGL 1.5 §3.5.1-§3.5.4: "If config does not support rendering to windows (the EGL_SURFACE_TYPE attribute does not
// contain EGL_WINDOW_BIT), an EGL_BAD_MATCH error is generated" (likewise pixmaps and pbuffers): Bismuth's config
// supports none.
EGLSurface no_surface_for(EGLDisplay dpy, EGLConfig config) {
  if (!display_ready(dpy) || !config_valid(dpy, config)) return EGL_NO_SURFACE;
  return fail(EGL_BAD_MATCH, EGL_NO_SURFACE);
}

EGLSurface EGLAPIENTRY create_window_surface(EGLDisplay dpy, EGLConfig config, EGLNativeWindowType, const EGLint*) {
  return no_surface_for(dpy, config);
}
EGLSurface EGLAPIENTRY create_platform_window_surface(EGLDisplay dpy, EGLConfig config, void*, const EGLAttrib*) {
  return no_surface_for(dpy, config);
}
EGLSurface EGLAPIENTRY create_pixmap_surface(EGLDisplay dpy, EGLConfig config, EGLNativePixmapType, const EGLint*) {
  return no_surface_for(dpy, config);
}
EGLSurface EGLAPIENTRY create_platform_pixmap_surface(EGLDisplay dpy, EGLConfig config, void*, const EGLAttrib*) {
  return no_surface_for(dpy, config);
}
EGLSurface EGLAPIENTRY create_pbuffer_surface(EGLDisplay dpy, EGLConfig config, const EGLint*) {
  return no_surface_for(dpy, config);
}

// EGL 1.5 §3.5.3: "If buftype is not a recognized client API resource type (e.g. is not EGL_OPENVG_IMAGE), an
// EGL_BAD_PARAMETER error is generated"; Bismuth has no OpenVG, so it recognizes none.
EGLSurface EGLAPIENTRY create_pbuffer_from_client_buffer(EGLDisplay dpy, EGLenum, EGLClientBuffer, EGLConfig config,
                                                         const EGLint*) {
  if (!display_ready(dpy) || !config_valid(dpy, config)) return EGL_NO_SURFACE;
  return fail(EGL_BAD_PARAMETER, EGL_NO_SURFACE);
}

// The functions that take a surface: no surface exists, so any handle is EGL_BAD_SURFACE (EGL 1.5 §3.1: "EGL_BAD_-
// SURFACE ... An EGLSurface argument does not name a valid surface").
EGLBoolean bad_surface(EGLDisplay dpy) {
  if (!display_ready(dpy)) return EGL_FALSE;
  return fail(EGL_BAD_SURFACE, EGL_FALSE);
}
EGLBoolean EGLAPIENTRY destroy_surface(EGLDisplay dpy, EGLSurface) {
  return bad_surface(dpy);
}
EGLBoolean EGLAPIENTRY query_surface(EGLDisplay dpy, EGLSurface, EGLint, EGLint*) {
  return bad_surface(dpy);
}
EGLBoolean EGLAPIENTRY surface_attrib(EGLDisplay dpy, EGLSurface, EGLint, EGLint) {
  return bad_surface(dpy);
}
EGLBoolean EGLAPIENTRY bind_tex_image(EGLDisplay dpy, EGLSurface, EGLint) {
  return bad_surface(dpy);
}
EGLBoolean EGLAPIENTRY release_tex_image(EGLDisplay dpy, EGLSurface, EGLint) {
  return bad_surface(dpy);
}
EGLBoolean EGLAPIENTRY swap_buffers(EGLDisplay dpy, EGLSurface) {
  return bad_surface(dpy);
}
EGLBoolean EGLAPIENTRY copy_buffers(EGLDisplay dpy, EGLSurface, EGLNativePixmapType) {
  return bad_surface(dpy);
}

// EGL 1.5 §3.8: eglWaitClient makes the client API's rendering complete before later native rendering to the
// current surfaces; "if there is no current context for the current rendering API, the function has no effect
// but still returns EGL_TRUE". With a current context, rendering is completed as glFinish does.
EGLBoolean EGLAPIENTRY wait_client() {
  static const auto get_current_context = bismuth_function<PFNEGLGETCURRENTCONTEXTPROC>("eglGetCurrentContext");
  static const auto finish = bismuth_function<PFNGLFINISHPROC>("glFinish");
  if (get_current_context() != EGL_NO_CONTEXT) finish();
  return EGL_TRUE;
}

// EGL 1.5 §3.8: "If engine does not denote a recognized marking engine, EGL_FALSE is returned and an
// EGL_BAD_PARAMETER error is generated"; there is no native rendering to wait for.
EGLBoolean EGLAPIENTRY wait_native(EGLint engine) {
  if (engine != EGL_CORE_NATIVE_ENGINE) return fail(EGL_BAD_PARAMETER, EGL_FALSE);
  return EGL_TRUE;
}

template <class F>
Proc as_proc(F f) {
  return reinterpret_cast<Proc>(f);
}

}  // namespace

Proc surfaceless_function(const char* name) {
  static const std::pair<const char*, Proc> functions[] = {
      {"eglCreateWindowSurface", as_proc(create_window_surface)},
      {"eglCreatePlatformWindowSurface", as_proc(create_platform_window_surface)},
      {"eglCreatePixmapSurface", as_proc(create_pixmap_surface)},
      {"eglCreatePlatformPixmapSurface", as_proc(create_platform_pixmap_surface)},
      {"eglCreatePbufferSurface", as_proc(create_pbuffer_surface)},
      {"eglCreatePbufferFromClientBuffer", as_proc(create_pbuffer_from_client_buffer)},
      {"eglDestroySurface", as_proc(destroy_surface)},
      {"eglQuerySurface", as_proc(query_surface)},
      {"eglSurfaceAttrib", as_proc(surface_attrib)},
      {"eglBindTexImage", as_proc(bind_tex_image)},
      {"eglReleaseTexImage", as_proc(release_tex_image)},
      {"eglSwapBuffers", as_proc(swap_buffers)},
      {"eglCopyBuffers", as_proc(copy_buffers)},
      {"eglWaitClient", as_proc(wait_client)},
      {"eglWaitGL", as_proc(wait_client)},  // EGL 1.5 §3.8: eglWaitGL is eglWaitClient for the OpenGL ES API
      {"eglWaitNative", as_proc(wait_native)},
  };
  for (const auto& [n, f] : functions) {
    if (std::strcmp(n, name) == 0) return f;
  }
  return nullptr;
}

}  // namespace bismuth::glvnd
