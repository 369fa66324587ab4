// Where the vendor library finds Bismuth's EGL and GL functions: in libbismuth-gl, through names no other library
// in the process defines (glvnd's libEGL.so.1 and libOpenGL.so.0 export the same egl*/gl* names).
#pragma once

namespace bismuth::glvnd {

using Proc = void (*)(void);

// libbismuth-gl's implementation of an EGL or GL function (bismuthGetProcAddress), or, for a GL function Bismuth
// does not support, its generated stub (GL_INVALID_OPERATION + a KHR_debug message naming it); nullptr otherwise.
Proc bismuth_entry_point(const char* name);

// The same, cast to the function's type; nullptr when absent.
template <class F>
F bismuth_function(const char* name) {
  return reinterpret_cast<F>(bismuth_entry_point(name));
}

}  // namespace bismuth::glvnd
