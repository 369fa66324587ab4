// The per-stage limits a graphics program's link checks (GlStageLimits): default-block uniform components, vertex
// attributes, and the components of each stage's inputs and outputs. glslang 12 checks none of them.
#pragma once

#include <glslang/Public/ShaderLang.h>

#include <vector>

#include "bismuth/common/expected.hpp"
#include "bismuth/translator/gl_program.hpp"
#include "bismuth/translator/graphics_program.hpp"

namespace bismuth::translator {

// On failure the GL link error, naming the limit. `interface` is the program's reflected uniforms and blocks.
Status check_stage_limits(const glslang::TProgram& program, const std::vector<ShaderStage>& stages,
                          const GlLinkedProgram& interface);

}  // namespace bismuth::translator
