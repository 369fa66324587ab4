// `bismuth compile`'s GLSL path: the GL shim's own front (GlShader::compile + link_gl_program), so a .comp file
// compiles exactly as glCompileShader/glLinkProgram take it — local_size_variable, default-block
// uniforms, atomic counters and GL's separate binding namespaces included.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "bismuth/common/expected.hpp"
#include "bismuth/spirv_patch/target_env.hpp"
#include "bismuth/translator/gl_program.hpp"

namespace bismuth::tools {

struct GlGlslResult {
  translator::GlLinkedProgram program;  // its SPIR-V still goes through the pipeline (gl_program_pipeline.hpp)
  // What each Vulkan binding of set 0 holds, e.g. "binding 0: shader storage buffer 1" — the link renumbers
  // GL's binding namespaces into one compact range.
  std::vector<std::string> bindings;
  std::string warnings;  // info-log warnings, "file:line:column: warning: ..."
};

struct GlslFile {
  std::string source;
  std::string path;
};

// One program from one or more compute shaders, linked together as glLinkProgram links the shaders attached to a
// program. Errors are the GL info log rewritten to "file:line:column: error: ..." lines (link errors name the
// first file).
// `extensions`: the device-gated GLSL extensions the --device has (all without a device).
Expected<GlGlslResult> compile_gl_glsl(std::span<const GlslFile> files, spirv_patch::TargetEnv target,
                                       const ShaderExtensionSupport& extensions);

}  // namespace bismuth::tools
