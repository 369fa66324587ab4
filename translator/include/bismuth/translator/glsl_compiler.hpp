// GLSL compute shader -> SPIR-V through glslang's C++ API.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "bismuth/common/expected.hpp"
#include "bismuth/spirv_patch/target_env.hpp"

namespace bismuth::translator {

struct GlslCompileOptions {
  // Name used in diagnostics ("name:line:column: error: ...").
  std::string source_name = "shader.comp";
  spirv_patch::TargetEnv target = spirv_patch::TargetEnv::Vulkan1_1;
};

// Compiles one GLSL compute shader with Vulkan rules. On failure the error message lists every glslang
// diagnostic as "name:line:column: error: text", one per line.
Expected<std::vector<uint32_t>> compile_glsl_compute(std::string_view source, const GlslCompileOptions& options = {});

}  // namespace bismuth::translator
