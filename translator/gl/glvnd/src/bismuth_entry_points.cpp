// libbismuth-gl's entry points for the vendor library. The vendor links libbismuth-gl (one implementation for
// programs that link it and for programs that reach it through glvnd). bismuthGetProcAddress has a name only
// libbismuth-gl defines, so the vendor's reference binds to it even with glvnd loaded first; libbismuth-gl is linked
// with -Bsymbolic, so the addresses it returns are its own functions, never glvnd's stubs of the same name.
#include "bismuth_entry_points.hpp"

#include <dlfcn.h>

#include <cstring>

#include "bismuth/gl/bismuth_gl.h"

namespace bismuth::glvnd {
namespace {

// libbismuth-gl itself, found from one of its functions: dlsym on this handle searches libbismuth-gl (and its own
// dependencies, none of which define gl* names) rather than the process's global scope, where glvnd comes first.
void* bismuth_gl_handle() {
  static void* const handle = [] {
    Dl_info info{};
    if (dladdr(reinterpret_cast<void*>(&bismuthGetProcAddress), &info) == 0 || info.dli_fname == nullptr) {
      return static_cast<void*>(nullptr);
    }
    return dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
  }();
  return handle;
}

}  // namespace

Proc bismuth_entry_point(const char* name) {
  if (name == nullptr) return nullptr;
  if (Proc p = bismuthGetProcAddress(name)) return p;
  // The unsupported GL functions: libbismuth-gl exports a stub for each that records GL_INVALID_OPERATION and says
  // so through KHR_debug. Given to libGLdispatch, a call reaches that report instead of glvnd's silent no-op.
  if (std::strncmp(name, "gl", 2) != 0) return nullptr;
  void* handle = bismuth_gl_handle();
  if (handle == nullptr) return nullptr;
  return reinterpret_cast<Proc>(dlsym(handle, name));
}

}  // namespace bismuth::glvnd
