// `bismuth compile`'s GLSL path: the GL shim's own front (GlShader::compile + link_gl_program), so a .comp file
// compiles exactly as glCompileShader/glLinkProgram would take it — local_size_variable, default-block
// uniforms, atomic counters and GL's separate binding namespaces included.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "bismuth/common/expected.hpp"
#include "bismuth/spirv_patch/target_env.hpp"

namespace bismuth::tools {

struct GlGlslResult {
  std::vector<uint32_t> spirv;
  bool variable_group_size = false;  // the size is already specialization constants (SpecIds below)
  std::array<uint32_t, 3> size_spec_ids{};
  // What each Vulkan binding of set 0 holds, e.g. "binding 0: shader storage buffer 1" — the link renumbers
  // GL's binding namespaces into one compact range.
  std::vector<std::string> bindings;
  std::string warnings;  // info-log warnings, "file:line:column: warning: ..."
};

// Errors are the GL info log rewritten to "file:line:column: error: ..." lines.
Expected<GlGlslResult> compile_gl_glsl(const std::string& source, const std::string& file, spirv_patch::TargetEnv target);

}  // namespace bismuth::tools
