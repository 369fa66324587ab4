/* OpenGL ES program rules for programs without a compute shader (issue 15, point 7), in an OpenGL ES 3.2 context.
 *
 * OpenGL ES 3.2 §7.3 (LinkProgram): linking fails when "program is not separable and does not contain objects to
 * form both a vertex shader and a fragment shader" — unlike desktop GL, where a vertex-only or fragment-only
 * program links. A separable program (§7.4, glCreateShaderProgramv or PROGRAM_SEPARABLE) may hold one stage.
 * "If LinkProgram failed, ... the info log ... will contain information about why" (§7.12: the log says why).
 * §7.3.1: the program interfaces of ES are UNIFORM, UNIFORM_BLOCK, ATOMIC_COUNTER_BUFFER, PROGRAM_INPUT,
 * PROGRAM_OUTPUT, TRANSFORM_FEEDBACK_VARYING, BUFFER_VARIABLE and SHADER_STORAGE_BLOCK; "An INVALID_ENUM error is
 * generated if programInterface is not one of" them (no subroutine interfaces in ES). Table 7.2 of ES 3.2 has no
 * LOCATION_INDEX, LOCATION_COMPONENT or subroutine properties: "An INVALID_ENUM error is generated if any value in
 * props is not one of the properties described above". */
#include "conformance.h"

static const char* kVertex =
    "#version 320 es\n"
    "in vec4 position;\n"
    "out vec4 color;\n"
    "void main() { gl_Position = position; color = position; }\n";
static const char* kFragment =
    "#version 320 es\n"
    "precision mediump float;\n"
    "in vec4 color;\n"
    "layout(location = 0) out vec4 frag;\n"
    "void main() { frag = color; }\n";

static GLuint compiled(GLenum type, const char* source) {
  GLuint shader = glCreateShader(type);
  glShaderSource(shader, 1, &source, NULL);
  glCompileShader(shader);
  GLint ok = 0;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  CHECK(ok, "the %s shader compiles", type == GL_VERTEX_SHADER ? "vertex" : "fragment");
  return shader;
}

static GLuint link(GLuint a, GLuint b, GLboolean separable) {
  GLuint program = glCreateProgram();
  if (a) glAttachShader(program, a);
  if (b) glAttachShader(program, b);
  if (separable) glProgramParameteri(program, GL_PROGRAM_SEPARABLE, GL_TRUE);
  glLinkProgram(program);
  return program;
}

static GLint link_status(GLuint program) {
  GLint v = -1;
  glGetProgramiv(program, GL_LINK_STATUS, &v);
  return v;
}

static GLint log_length(GLuint program) {
  GLint v = 0;
  glGetProgramiv(program, GL_INFO_LOG_LENGTH, &v);
  return v;
}

int main(void) {
  conformance_make_context(EGL_OPENGL_ES_API, 3, 2);
  const GLuint vs = compiled(GL_VERTEX_SHADER, kVertex);
  const GLuint fs = compiled(GL_FRAGMENT_SHADER, kFragment);

  const GLuint both = link(vs, fs, GL_FALSE);
  CHECK(link_status(both) == GL_TRUE, "vertex + fragment links in ES");
  const GLuint vertex_only = link(vs, 0, GL_FALSE);
  CHECK(link_status(vertex_only) == GL_FALSE, "ES 3.2 §7.3: a vertex-only program that is not separable fails");
  CHECK(log_length(vertex_only) > 1, "the failed link has an info log saying why");
  const GLuint fragment_only = link(0, fs, GL_FALSE);
  CHECK(link_status(fragment_only) == GL_FALSE, "ES 3.2 §7.3: a fragment-only program that is not separable fails");
  CHECK(log_length(fragment_only) > 1, "the failed link has an info log saying why");
  const GLuint separable = link(vs, 0, GL_TRUE);
  CHECK(link_status(separable) == GL_TRUE, "a separable vertex-only program links");
  const GLuint shader_program = glCreateShaderProgramv(GL_FRAGMENT_SHADER, 1, &kFragment);
  CHECK(link_status(shader_program) == GL_TRUE, "glCreateShaderProgramv: a separable fragment-only program links");
  CHECK_GL_ERROR(GL_NO_ERROR, "linking (a failed link is no GL error)");

  /* ES program interfaces and properties. */
  GLint n = -1;
  glGetProgramInterfaceiv(both, GL_VERTEX_SUBROUTINE_UNIFORM, GL_ACTIVE_RESOURCES, &n);
  CHECK_GL_ERROR(GL_INVALID_ENUM, "ES 3.2 §7.3.1: GL_VERTEX_SUBROUTINE_UNIFORM is not an ES program interface");
  glGetProgramResourceIndex(both, GL_FRAGMENT_SUBROUTINE, "f");
  CHECK_GL_ERROR(GL_INVALID_ENUM, "ES 3.2 §7.3.1: GL_FRAGMENT_SUBROUTINE is not an ES program interface");
  glGetProgramResourceLocation(both, GL_VERTEX_SUBROUTINE_UNIFORM, "u");
  CHECK_GL_ERROR(GL_INVALID_ENUM, "ES 3.2 §7.3.1: glGetProgramResourceLocation of a subroutine uniform interface");
  glGetProgramInterfaceiv(both, GL_PROGRAM_OUTPUT, GL_ACTIVE_RESOURCES, &n);
  CHECK(n == 1, "PROGRAM_OUTPUT (an ES interface): the fragment stage's one output, got %d", n);
  CHECK_GL_ERROR(GL_NO_ERROR, "PROGRAM_OUTPUT is an ES interface");
  const GLenum location_index = GL_LOCATION_INDEX;
  GLint value = -12345;
  glGetProgramResourceiv(both, GL_PROGRAM_OUTPUT, 0, 1, &location_index, 1, NULL, &value);
  CHECK_GL_ERROR(GL_INVALID_ENUM, "ES 3.2 Table 7.2: LOCATION_INDEX is not an ES property");
  const GLenum location = GL_LOCATION;
  glGetProgramResourceiv(both, GL_PROGRAM_OUTPUT, 0, 1, &location, 1, NULL, &value);
  CHECK(value == 0, "frag: LOCATION 0, got %d", value);
  CHECK_GL_ERROR(GL_NO_ERROR, "the whole run");
  return conformance_result();
}
