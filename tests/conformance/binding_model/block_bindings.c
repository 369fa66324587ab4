/* The GL binding model of blocks (issue 15, point 1), as GL 4.6 states it:
 *
 * GLSL 4.60 §4.4.5: "If no binding qualifier is used [on a uniform or shader storage block], the block's binding
 *   is initially 0" — "the application may then change it".
 * GL 4.6 §7.6.2 (uniform blocks) and §7.8 (shader storage blocks): glUniformBlockBinding /
 *   glShaderStorageBlockBinding assign the binding point of an active block; "When a program object is linked or
 *   re-linked, the uniform buffer object binding point assigned to each of its active uniform blocks is reset to
 *   zero" (or the binding qualifier's value), and likewise for shader storage blocks; the binding is reported by
 *   glGetProgramResourceiv(GL_BUFFER_BINDING) and glGetActiveUniformBlockiv(GL_UNIFORM_BLOCK_BINDING).
 *   Errors: INVALID_VALUE if the index is not an active block of the program or the binding is not below
 *   MAX_UNIFORM_BUFFER_BINDINGS / MAX_SHADER_STORAGE_BUFFER_BINDINGS; INVALID_VALUE for a name that is not a
 *   shader or program object, INVALID_OPERATION for a shader object (§7.2).
 *
 * Rebinding changes which buffer the next dispatch reads, without relinking. */
#include "conformance.h"

static const char* kShader =
    "#version 430\n"
    "layout(local_size_x = 4) in;\n"
    "layout(std430) readonly buffer Input { uint values[4]; };\n"      /* no binding: 0 */
    "layout(std430, binding = 3) buffer Output { uint result[4]; };\n" /* binding 3 */
    "uniform Scale { uint scale; };\n"                                  /* no binding: 0 */
    "void main() {\n"
    "  uint i = gl_LocalInvocationIndex;\n"
    "  result[i] = values[i] * scale;\n"
    "}\n";

static GLuint make_buffer(GLenum target, const GLuint* words, int count) {
  GLuint b = 0;
  glGenBuffers(1, &b);
  glBindBuffer(target, b);
  glBufferData(target, count * 4, words, GL_DYNAMIC_COPY);
  return b;
}

static GLint buffer_binding(GLuint program, GLenum interface, const char* name) {
  GLuint index = glGetProgramResourceIndex(program, interface, name);
  GLenum prop = GL_BUFFER_BINDING;
  GLint value = -1;
  glGetProgramResourceiv(program, interface, index, 1, &prop, 1, NULL, &value);
  return value;
}

/* Dispatches once and checks result[i] == values[i] * scale for the buffers given. */
static void check_dispatch(GLuint output, const GLuint* values, GLuint scale, const char* what) {
  glDispatchCompute(1, 1, 1);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  GLuint got[4] = {0};
  glGetNamedBufferSubData(output, 0, sizeof got, got);
  for (int i = 0; i < 4; ++i) {
    CHECK(got[i] == values[i] * scale, "%s: result[%d] = %u, expected %u", what, i, got[i], values[i] * scale);
  }
}

int main(void) {
  conformance_make_context(EGL_OPENGL_API, 4, 3);
  GLuint program = conformance_compute_program(kShader);
  CHECK(program != 0, "a compute shader with blocks without binding compiles and links (GLSL 4.60 §4.4.5)");
  if (!program) return conformance_result();
  glUseProgram(program);

  CHECK(buffer_binding(program, GL_SHADER_STORAGE_BLOCK, "Input") == 0, "Input's binding is initially 0");
  CHECK(buffer_binding(program, GL_SHADER_STORAGE_BLOCK, "Output") == 3, "Output's binding is its qualifier, 3");
  CHECK(buffer_binding(program, GL_UNIFORM_BLOCK, "Scale") == 0, "Scale's binding is initially 0");
  GLuint scale_index = glGetUniformBlockIndex(program, "Scale");
  GLint ubinding = -1;
  glGetActiveUniformBlockiv(program, scale_index, GL_UNIFORM_BLOCK_BINDING, &ubinding);
  CHECK(ubinding == 0, "GL_UNIFORM_BLOCK_BINDING of Scale is 0, got %d", ubinding);
  CHECK_GL_ERROR(GL_NO_ERROR, "queries");

  const GLuint values_a[4] = {1, 2, 3, 4}, values_b[4] = {10, 20, 30, 40}, zeros[4] = {0};
  const GLuint scale_a[4] = {3}, scale_b[4] = {7};
  GLuint in_a = make_buffer(GL_SHADER_STORAGE_BUFFER, values_a, 4);
  GLuint in_b = make_buffer(GL_SHADER_STORAGE_BUFFER, values_b, 4);
  GLuint out = make_buffer(GL_SHADER_STORAGE_BUFFER, zeros, 4);
  GLuint ubo_a = make_buffer(GL_UNIFORM_BUFFER, scale_a, 4);
  GLuint ubo_b = make_buffer(GL_UNIFORM_BUFFER, scale_b, 4);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, in_a);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 5, in_b);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 3, out);
  glBindBufferBase(GL_UNIFORM_BUFFER, 0, ubo_a);
  glBindBufferBase(GL_UNIFORM_BUFFER, 2, ubo_b);
  check_dispatch(out, values_a, 3, "Input and Scale at binding 0");

  /* Rebind both blocks: the next dispatch reads the buffers at the new binding points. */
  glShaderStorageBlockBinding(program, glGetProgramResourceIndex(program, GL_SHADER_STORAGE_BLOCK, "Input"), 5);
  glUniformBlockBinding(program, scale_index, 2);
  CHECK_GL_ERROR(GL_NO_ERROR, "glShaderStorageBlockBinding / glUniformBlockBinding");
  CHECK(buffer_binding(program, GL_SHADER_STORAGE_BLOCK, "Input") == 5, "GL_BUFFER_BINDING follows the rebinding");
  glGetActiveUniformBlockiv(program, scale_index, GL_UNIFORM_BLOCK_BINDING, &ubinding);
  CHECK(ubinding == 2, "GL_UNIFORM_BLOCK_BINDING follows glUniformBlockBinding, got %d", ubinding);
  check_dispatch(out, values_b, 7, "Input at 5, Scale at 2");

  /* Rebinding one block leaves a block that shared its binding point alone: Output moves to 0 (where in_a is)
   * while Input stays at 5. */
  glShaderStorageBlockBinding(program, glGetProgramResourceIndex(program, GL_SHADER_STORAGE_BLOCK, "Output"), 0);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, out);
  check_dispatch(out, values_b, 7, "Output at 0, Input at 5");
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, in_a);

  /* Errors (GL 4.6 §7.6.2, §7.8). */
  GLint max_ssbo = 0, max_ubo = 0;
  glGetIntegerv(GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS, &max_ssbo);
  glGetIntegerv(GL_MAX_UNIFORM_BUFFER_BINDINGS, &max_ubo);
  glShaderStorageBlockBinding(program, 2, 0);
  CHECK_GL_ERROR(GL_INVALID_VALUE, "glShaderStorageBlockBinding: index 2 is not an active block");
  glShaderStorageBlockBinding(program, 0, (GLuint)max_ssbo);
  CHECK_GL_ERROR(GL_INVALID_VALUE, "glShaderStorageBlockBinding: binding = MAX_SHADER_STORAGE_BUFFER_BINDINGS");
  glUniformBlockBinding(program, 1, 0);
  CHECK_GL_ERROR(GL_INVALID_VALUE, "glUniformBlockBinding: index 1 is not an active block");
  glUniformBlockBinding(program, scale_index, (GLuint)max_ubo);
  CHECK_GL_ERROR(GL_INVALID_VALUE, "glUniformBlockBinding: binding = MAX_UNIFORM_BUFFER_BINDINGS");
  glUniformBlockBinding(program + 1000, 0, 0);
  CHECK_GL_ERROR(GL_INVALID_VALUE, "glUniformBlockBinding: not a program name");
  GLuint shader = glCreateShader(GL_COMPUTE_SHADER);
  glShaderStorageBlockBinding(shader, 0, 0);
  CHECK_GL_ERROR(GL_INVALID_OPERATION, "glShaderStorageBlockBinding: a shader object");
  glDeleteShader(shader);

  /* A relink resets every block to its declared binding (0 or the qualifier's). */
  glLinkProgram(program);
  CHECK(buffer_binding(program, GL_SHADER_STORAGE_BLOCK, "Input") == 0, "relink resets Input to 0");
  CHECK(buffer_binding(program, GL_SHADER_STORAGE_BLOCK, "Output") == 3, "relink resets Output to 3");
  glGetActiveUniformBlockiv(program, scale_index, GL_UNIFORM_BLOCK_BINDING, &ubinding);
  CHECK(ubinding == 0, "relink resets Scale to 0, got %d", ubinding);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 3, out);
  check_dispatch(out, values_a, 3, "after relink");
  CHECK_GL_ERROR(GL_NO_ERROR, "the whole run");
  return conformance_result();
}
