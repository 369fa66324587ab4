// The transform feedback varyings of a program (GL 4.6 §11.1.2.1), resolved at link against the outputs of its
// last vertex processing stage (vertex, tessellation evaluation or geometry shader): glTransformFeedbackVaryings'
// names, or, when that stage's shader uses xfb_buffer / xfb_offset / xfb_stride (GLSL 4.60 §4.4.2.1), the outputs
// those qualifiers capture. Either way the result is the GL_TRANSFORM_FEEDBACK_VARYING and
// GL_TRANSFORM_FEEDBACK_BUFFER resources (buffer, offset, stride) and the link errors of §11.1.2.1.
#pragma once

#include <glslang/MachineIndependent/localintermediate.h>

#include <string>
#include <vector>

#include "bismuth/common/expected.hpp"
#include "bismuth/translator/graphics_program.hpp"

namespace bismuth::translator {

struct ResolvedTransformFeedback {
  std::vector<GlTransformFeedbackVarying> varyings;
  std::vector<GlTransformFeedbackBuffer> buffers;
  bool declared = false;  // from the shader's xfb_* qualifiers; glTransformFeedbackVaryings' names were ignored
};

// True when the stage's shader uses an xfb_buffer, xfb_offset or xfb_stride qualifier.
bool declares_transform_feedback(const glslang::TIntermediate& tree);

// The varyings `names` name in the outputs of `stage` (whose linked tree is `tree`), or, when the tree declares
// its own layout, the outputs it declares; on failure the GL link error.
Expected<ResolvedTransformFeedback> resolve_transform_feedback(const glslang::TIntermediate& tree, ShaderStage stage,
                                                               const std::vector<std::string>& names, bool interleaved);

}  // namespace bismuth::translator
