// The GLVND EGL vendor ABI (libglvnd-core-dev's glvnd/libeglabi.h) and what the vendor keeps of libEGL's handshake.
#pragma once

#define EGL_EGLEXT_PROTOTYPES 1
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/glcorearb.h>  // GLboolean, which glvnd/GLdispatchABI.h uses without including a GL header
#include <glvnd/libeglabi.h>

namespace bismuth::glvnd {

// libEGL's exports, given to __egl_Main; valid as long as the vendor is loaded (libeglabi.h).
const __EGLapiExports& egl_exports();

// EGL_EXT_device_query_name is a device extension, and EGL_MESA_platform_surfaceless a platform libglvnd does not
// know: both reach the application's client extension string through getVendorString.
const char* vendor_string(int name);

}  // namespace bismuth::glvnd
