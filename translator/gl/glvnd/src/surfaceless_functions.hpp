// The EGL 1.5 functions that libglvnd requires of every vendor and that a surfaceless implementation answers with
// an error: libbismuth-gl has no surfaces (EGL_KHR_surfaceless_context), so it does not define them.
#pragma once

#include "bismuth_entry_points.hpp"

namespace bismuth::glvnd {

// The vendor's function for `name` (eglCreateWindowSurface, eglSwapBuffers, ...), or nullptr when it is not one
// of them.
Proc surfaceless_function(const char* name);

}  // namespace bismuth::glvnd
