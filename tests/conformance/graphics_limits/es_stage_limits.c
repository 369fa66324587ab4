/* The per-stage limits in an OpenGL ES 3.2 context: each one is state (OpenGL ES 3.2 Tables 21.42-21.48 list them
 * with their minimums: MAX_VERTEX_ATTRIBS 16, MAX_VERTEX_UNIFORM_VECTORS 256, MAX_VERTEX_OUTPUT_COMPONENTS 64,
 * MAX_FRAGMENT_UNIFORM_VECTORS 224 in ES 3.0 (ES 3.2 raises it), MAX_FRAGMENT_INPUT_COMPONENTS 60,
 * MAX_VARYING_COMPONENTS 60 / MAX_VARYING_VECTORS 15, the geometry and tessellation stages' 64), and, as in desktop
 * GL, "The implementation-dependent constants MAX_VERTEX_UNIFORM_VECTORS and MAX_FRAGMENT_UNIFORM_VECTORS have
 * values respectively equal to the values of MAX_VERTEX_UNIFORM_COMPONENTS and MAX_FRAGMENT_UNIFORM_COMPONENTS
 * divided by four" (§7.6). A #version 320 es vertex shader writing more than MAX_VERTEX_OUTPUT_COMPONENTS
 * components fails to link with a log naming the limit (§11.1.2.1: it "may fail to link"). */
#include <string.h>

#include "conformance.h"

static GLint get(GLenum pname) {
  GLint v = -1;
  glGetIntegerv(pname, &v);
  return v;
}

int main(void) {
  conformance_make_context(EGL_OPENGL_ES_API, 3, 2);
  static const struct {
    GLenum pname;
    const char* name;
    GLint minimum;
  } kLimits[] = {
      {GL_MAX_VERTEX_ATTRIBS, "MAX_VERTEX_ATTRIBS", 16},
      {GL_MAX_VERTEX_UNIFORM_VECTORS, "MAX_VERTEX_UNIFORM_VECTORS", 256},
      {GL_MAX_VERTEX_UNIFORM_COMPONENTS, "MAX_VERTEX_UNIFORM_COMPONENTS", 1024},
      {GL_MAX_VERTEX_OUTPUT_COMPONENTS, "MAX_VERTEX_OUTPUT_COMPONENTS", 64},
      {GL_MAX_FRAGMENT_UNIFORM_VECTORS, "MAX_FRAGMENT_UNIFORM_VECTORS", 224},
      {GL_MAX_FRAGMENT_INPUT_COMPONENTS, "MAX_FRAGMENT_INPUT_COMPONENTS", 60},
      {GL_MAX_VARYING_COMPONENTS, "MAX_VARYING_COMPONENTS", 60},
      {GL_MAX_VARYING_VECTORS, "MAX_VARYING_VECTORS", 15},
      {GL_MAX_GEOMETRY_INPUT_COMPONENTS, "MAX_GEOMETRY_INPUT_COMPONENTS", 64},
      {GL_MAX_GEOMETRY_OUTPUT_COMPONENTS, "MAX_GEOMETRY_OUTPUT_COMPONENTS", 64},
      {GL_MAX_TESS_CONTROL_INPUT_COMPONENTS, "MAX_TESS_CONTROL_INPUT_COMPONENTS", 64},
      {GL_MAX_TESS_EVALUATION_OUTPUT_COMPONENTS, "MAX_TESS_EVALUATION_OUTPUT_COMPONENTS", 64},
      {GL_MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS, "MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS", 64},
      {GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_COMPONENTS, "MAX_TRANSFORM_FEEDBACK_SEPARATE_COMPONENTS", 4},
  };
  for (size_t i = 0; i < sizeof kLimits / sizeof kLimits[0]; ++i) {
    const GLint v = get(kLimits[i].pname);
    CHECK(v >= kLimits[i].minimum, "%s >= %d, got %d", kLimits[i].name, kLimits[i].minimum, v);
  }
  CHECK_GL_ERROR(GL_NO_ERROR, "each limit is OpenGL ES 3.2 state");
  CHECK(get(GL_MAX_VERTEX_UNIFORM_VECTORS) * 4 == get(GL_MAX_VERTEX_UNIFORM_COMPONENTS),
        "MAX_VERTEX_UNIFORM_VECTORS is MAX_VERTEX_UNIFORM_COMPONENTS / 4");
  CHECK(get(GL_MAX_FRAGMENT_UNIFORM_VECTORS) * 4 == get(GL_MAX_FRAGMENT_UNIFORM_COMPONENTS),
        "MAX_FRAGMENT_UNIFORM_VECTORS is MAX_FRAGMENT_UNIFORM_COMPONENTS / 4");
  get(GL_MAX_TRANSFORM_FEEDBACK_BUFFERS);
  CHECK_GL_ERROR(GL_INVALID_ENUM, "MAX_TRANSFORM_FEEDBACK_BUFFERS is not OpenGL ES state");

  /* One component more than MAX_VERTEX_OUTPUT_COMPONENTS. */
  const GLint outputs = get(GL_MAX_VERTEX_OUTPUT_COMPONENTS);
  char source[1024];
  snprintf(source, sizeof source,
           "#version 320 es\nout float v[%d];\nvoid main() {\n  for (int k = 0; k < %d; ++k) v[k] = 1.0;\n"
           "  gl_Position = vec4(0.0);\n}\n",
           outputs + 1, outputs + 1);
  const char* text = source;
  GLuint shader = glCreateShader(GL_VERTEX_SHADER);
  glShaderSource(shader, 1, &text, NULL);
  glCompileShader(shader);
  GLuint program = glCreateProgram();
  glAttachShader(program, shader);
  glProgramParameteri(program, GL_PROGRAM_SEPARABLE, GL_TRUE);  // ES: a vertex-only program must be separable
  glLinkProgram(program);
  GLint linked = 1;
  glGetProgramiv(program, GL_LINK_STATUS, &linked);
  char log[1024] = {0};
  glGetProgramInfoLog(program, sizeof log, NULL, log);
  CHECK(!linked, "a vertex shader writing MAX_VERTEX_OUTPUT_COMPONENTS + 1 components fails to link");
  CHECK(strstr(log, "MAX_VERTEX_OUTPUT_COMPONENTS") != NULL, "the log names the limit: %s", log);
  CHECK_GL_ERROR(GL_NO_ERROR, "a failed link is no GL error");
  glDeleteProgram(program);
  glDeleteShader(shader);
  return conformance_result();
}
