// Transform feedback varyings (GL 4.6 §11.1.2.1): glTransformFeedbackVaryings names outputs of the last vertex
// processing stage for the next link, which checks them (translator::link_gl_graphics_program);
// glGetTransformFeedbackVarying reads what the last link resolved. Nothing is captured: Bismuth does not draw.
#include "gl_objects.hpp"

using namespace bismuth;
using namespace bismuth::gl;

extern "C" {

GLAPI void APIENTRY glTransformFeedbackVaryings(GLuint program, GLsizei count, const GLchar* const* varyings,
                                                GLenum bufferMode) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  auto p = program_object(ctx, program, "glTransformFeedbackVaryings");
  if (!p) return;
  // GL 4.6 §11.1.2.1: "An INVALID_VALUE error is generated if count is negative"; "An INVALID_ENUM error is
  // generated if bufferMode is not SEPARATE_ATTRIBS or INTERLEAVED_ATTRIBS"; "An INVALID_VALUE error is generated
  // if bufferMode is SEPARATE_ATTRIBS and count is greater than the value of ... MAX_TRANSFORM_FEEDBACK_SEPARATE_
  // ATTRIBS" (4, GL 4.6's minimum, which glGet* reports).
  if (count < 0) {
    ctx->set_error(GL_INVALID_VALUE, "glTransformFeedbackVaryings: count is negative");
    return;
  }
  if (bufferMode != GL_INTERLEAVED_ATTRIBS && bufferMode != GL_SEPARATE_ATTRIBS) {
    ctx->set_error(GL_INVALID_ENUM,
                   "glTransformFeedbackVaryings: bufferMode must be GL_INTERLEAVED_ATTRIBS or "
                   "GL_SEPARATE_ATTRIBS");
    return;
  }
  if (bufferMode == GL_SEPARATE_ATTRIBS && count > kMaxTransformFeedbackSeparateAttribs) {
    ctx->set_error(GL_INVALID_VALUE,
                   "glTransformFeedbackVaryings: more than GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS"
                   " (" +
                       std::to_string(kMaxTransformFeedbackSeparateAttribs) + ") separate varyings");
    return;
  }
  if (count > 0 && varyings == nullptr) {
    ctx->set_error(GL_INVALID_VALUE, "glTransformFeedbackVaryings: varyings is NULL");
    return;
  }
  std::vector<std::string> names;
  for (GLsizei i = 0; i < count; ++i) {
    if (varyings[i] == nullptr) {
      ctx->set_error(GL_INVALID_VALUE, "glTransformFeedbackVaryings: varyings[" + std::to_string(i) + "] is NULL");
      return;
    }
    names.emplace_back(varyings[i]);
  }
  p->transform_feedback_varyings = std::move(names);
  p->transform_feedback_interleaved = bufferMode == GL_INTERLEAVED_ATTRIBS;
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glGetTransformFeedbackVarying(GLuint program, GLuint index, GLsizei bufSize, GLsizei* length,
                                                  GLsizei* size, GLenum* type, GLchar* name) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  auto p = program_object(ctx, program, "glGetTransformFeedbackVarying");
  if (!p) return;
  // GL 4.6 §11.1.2.1: "An INVALID_VALUE error is generated if index is greater than or equal to the value of
  // TRANSFORM_FEEDBACK_VARYINGS" (0 for a program not linked), "... if bufSize is negative".
  const Executable* exe = p->link_status ? p->executable.get() : nullptr;
  const auto* list = exe && exe->graphics ? &exe->graphics->transform_feedback : nullptr;
  if (list == nullptr || index >= list->size()) {
    ctx->set_error(GL_INVALID_VALUE,
                   "glGetTransformFeedbackVarying: index is not below GL_TRANSFORM_FEEDBACK_VARYINGS");
    return;
  }
  if (bufSize < 0) {
    ctx->set_error(GL_INVALID_VALUE, "glGetTransformFeedbackVarying: bufSize is negative");
    return;
  }
  const translator::GlTransformFeedbackVarying& v = (*list)[index];
  if (size) *size = static_cast<GLsizei>(v.array_size);
  if (type) *type = v.gl_type;  // GL_NONE (0) for gl_NextBuffer and gl_SkipComponents*
  copy_string(v.name, bufSize, length, name);
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

}  // extern "C"
