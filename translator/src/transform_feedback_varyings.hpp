// glTransformFeedbackVaryings' names checked at link (GL 4.6 §11.1.2.1) against the outputs of a program's last
// vertex processing stage (vertex, tessellation evaluation or geometry shader).
#pragma once

#include <glslang/MachineIndependent/localintermediate.h>

#include <string>
#include <vector>

#include "bismuth/common/expected.hpp"
#include "bismuth/translator/graphics_program.hpp"

namespace bismuth::translator {

// The varyings `names` name in the outputs of `stage` (whose tree is `tree`); on failure the GL link error.
Expected<std::vector<GlTransformFeedbackVarying>> resolve_transform_feedback_varyings(
    const glslang::TIntermediate& tree, ShaderStage stage, const std::vector<std::string>& names, bool interleaved);

}  // namespace bismuth::translator
