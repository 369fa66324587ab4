// Extensions whose own spec names the lowest GLSL version they apply to, above the version compute shaders start
// at: GL_NV_compute_shader_derivatives "can be applied to OpenGL GLSL versions 4.50 (#version 450) and higher"
// and "to OpenGL ES ESSL versions 3.20 (#version 320) and higher" (its Dependencies). Below that version the
// extension is not supported for the shader, so GLSL 4.60 §3.3 applies: `require` is a compile error, `enable` and
// `warn` warn, and the message names the extension's rule; the directive is blanked (spaces, so lines and columns
// stay) so that glslang leaves the extension off and a use of its layouts or built-ins fails as without it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "diagnostics.hpp"

namespace bismuth::translator {

struct ExtensionVersionCheck {
  std::string source;
  std::vector<Diagnostic> diagnostics;
};

// `user_version` is the version the shader declared (0: none, nothing to check), `es` whether it is GLSL ES.
ExtensionVersionCheck check_extension_versions(std::string_view source, int user_version, bool es,
                                               std::string_view source_name);

}  // namespace bismuth::translator
