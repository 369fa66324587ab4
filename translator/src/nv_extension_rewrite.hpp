// NVIDIA-only GLSL extensions that glslang lacks: rewritten to their EXT equivalent where one exists with the same
// GLSL surface, otherwise reported as a clear compile error (never a silent miscompile).
//   GL_NV_shader_atomic_float   -> GL_EXT_shader_atomic_float (same atomicAdd/atomicExchange on float)
//   GL_NV_shader_thread_group, GL_NV_shader_thread_shuffle -> error: 32-lane warp semantics, see docs/gl_shim.md
// Directive lines are rewritten in place, so line numbers do not move.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "diagnostics.hpp"

namespace bismuth::translator {

struct NvExtensionRewrite {
  std::string source;
  std::vector<Diagnostic> diagnostics;
};

NvExtensionRewrite rewrite_nv_extensions(std::string_view source, std::string_view source_name);

}  // namespace bismuth::translator
