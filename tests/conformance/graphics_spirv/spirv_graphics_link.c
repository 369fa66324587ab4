/* ARB_gl_spirv's link rules for programs of graphics stages (GL 4.6 §7.3 as ARB_gl_spirv amends it): a program is
 * linked from SPIR-V shader objects or from GLSL ones — a SPIR-V vertex shader with a GLSL fragment shader fails to
 * link with a log; "one or more of the shader objects attached to program are not compiled or specialized
 * successfully" fails the link too. A linked SPIR-V vertex program reports its inputs by location (GL 4.6 §7.3.1.1:
 * LOCATION, TYPE) and takes its default-block uniforms by location (GL 4.6 §7.6.1: "Uniform*" with the location;
 * GetUniform* returns what was set).
 * The module is glslangValidator -G --target-env opengl of:
 *   #version 450
 *   layout(location = 0) in vec4 position;
 *   layout(location = 3) in vec2 uv;
 *   layout(location = 1) out vec2 v_uv;
 *   layout(location = 2) out float v_fade;
 *   layout(location = 5) uniform mat4 transform;
 *   void main() { v_uv = uv; v_fade = 0.5; gl_Position = transform * position; } */
#include <stdint.h>
#include <string.h>

#include "conformance.h"

static const uint32_t kVertexSpirv[] = {
    0x07230203, 0x00010000, 0x0008000b, 0x00000026, 0x00000000, 0x00020011, 0x00000001, 0x0006000b, 0x00000001,
    0x4c534c47, 0x6474732e, 0x3035342e, 0x00000000, 0x0003000e, 0x00000000, 0x00000001, 0x000c000f, 0x00000000,
    0x00000004, 0x6e69616d, 0x00000000, 0x00000009, 0x0000000b, 0x0000000e, 0x00000016, 0x0000001e, 0x00000024,
    0x00000025, 0x00030003, 0x00000002, 0x000001c2, 0x00040005, 0x00000004, 0x6e69616d, 0x00000000, 0x00040005,
    0x00000009, 0x76755f76, 0x00000000, 0x00030005, 0x0000000b, 0x00007675, 0x00040005, 0x0000000e, 0x61665f76,
    0x00006564, 0x00060005, 0x00000014, 0x505f6c67, 0x65567265, 0x78657472, 0x00000000, 0x00060006, 0x00000014,
    0x00000000, 0x505f6c67, 0x7469736f, 0x006e6f69, 0x00070006, 0x00000014, 0x00000001, 0x505f6c67, 0x746e696f,
    0x657a6953, 0x00000000, 0x00070006, 0x00000014, 0x00000002, 0x435f6c67, 0x4470696c, 0x61747369, 0x0065636e,
    0x00070006, 0x00000014, 0x00000003, 0x435f6c67, 0x446c6c75, 0x61747369, 0x0065636e, 0x00030005, 0x00000016,
    0x00000000, 0x00050005, 0x0000001b, 0x6e617274, 0x726f6673, 0x0000006d, 0x00050005, 0x0000001e, 0x69736f70,
    0x6e6f6974, 0x00000000, 0x00050005, 0x00000024, 0x565f6c67, 0x65747265, 0x00444978, 0x00060005, 0x00000025,
    0x495f6c67, 0x6174736e, 0x4965636e, 0x00000044, 0x00040047, 0x00000009, 0x0000001e, 0x00000001, 0x00040047,
    0x0000000b, 0x0000001e, 0x00000003, 0x00040047, 0x0000000e, 0x0000001e, 0x00000002, 0x00050048, 0x00000014,
    0x00000000, 0x0000000b, 0x00000000, 0x00050048, 0x00000014, 0x00000001, 0x0000000b, 0x00000001, 0x00050048,
    0x00000014, 0x00000002, 0x0000000b, 0x00000003, 0x00050048, 0x00000014, 0x00000003, 0x0000000b, 0x00000004,
    0x00030047, 0x00000014, 0x00000002, 0x00040047, 0x0000001b, 0x0000001e, 0x00000005, 0x00040047, 0x0000001e,
    0x0000001e, 0x00000000, 0x00040047, 0x00000024, 0x0000000b, 0x00000005, 0x00040047, 0x00000025, 0x0000000b,
    0x00000006, 0x00020013, 0x00000002, 0x00030021, 0x00000003, 0x00000002, 0x00030016, 0x00000006, 0x00000020,
    0x00040017, 0x00000007, 0x00000006, 0x00000002, 0x00040020, 0x00000008, 0x00000003, 0x00000007, 0x0004003b,
    0x00000008, 0x00000009, 0x00000003, 0x00040020, 0x0000000a, 0x00000001, 0x00000007, 0x0004003b, 0x0000000a,
    0x0000000b, 0x00000001, 0x00040020, 0x0000000d, 0x00000003, 0x00000006, 0x0004003b, 0x0000000d, 0x0000000e,
    0x00000003, 0x0004002b, 0x00000006, 0x0000000f, 0x3f000000, 0x00040017, 0x00000010, 0x00000006, 0x00000004,
    0x00040015, 0x00000011, 0x00000020, 0x00000000, 0x0004002b, 0x00000011, 0x00000012, 0x00000001, 0x0004001c,
    0x00000013, 0x00000006, 0x00000012, 0x0006001e, 0x00000014, 0x00000010, 0x00000006, 0x00000013, 0x00000013,
    0x00040020, 0x00000015, 0x00000003, 0x00000014, 0x0004003b, 0x00000015, 0x00000016, 0x00000003, 0x00040015,
    0x00000017, 0x00000020, 0x00000001, 0x0004002b, 0x00000017, 0x00000018, 0x00000000, 0x00040018, 0x00000019,
    0x00000010, 0x00000004, 0x00040020, 0x0000001a, 0x00000000, 0x00000019, 0x0004003b, 0x0000001a, 0x0000001b,
    0x00000000, 0x00040020, 0x0000001d, 0x00000001, 0x00000010, 0x0004003b, 0x0000001d, 0x0000001e, 0x00000001,
    0x00040020, 0x00000021, 0x00000003, 0x00000010, 0x00040020, 0x00000023, 0x00000001, 0x00000017, 0x0004003b,
    0x00000023, 0x00000024, 0x00000001, 0x0004003b, 0x00000023, 0x00000025, 0x00000001, 0x00050036, 0x00000002,
    0x00000004, 0x00000000, 0x00000003, 0x000200f8, 0x00000005, 0x0004003d, 0x00000007, 0x0000000c, 0x0000000b,
    0x0003003e, 0x00000009, 0x0000000c, 0x0003003e, 0x0000000e, 0x0000000f, 0x0004003d, 0x00000019, 0x0000001c,
    0x0000001b, 0x0004003d, 0x00000010, 0x0000001f, 0x0000001e, 0x00050091, 0x00000010, 0x00000020, 0x0000001c,
    0x0000001f, 0x00050041, 0x00000021, 0x00000022, 0x00000016, 0x00000018, 0x0003003e, 0x00000022, 0x00000020,
    0x000100fd, 0x00010038};

static const char* kFragment =
    "#version 450\n"
    "layout(location = 1) in vec2 v_uv;\n"
    "layout(location = 2) in float v_fade;\n"
    "layout(location = 0) out vec4 color;\n"
    "void main() { color = vec4(v_uv, v_fade, 1.0); }\n";

static GLuint spirv_vertex(int specialize) {
  GLuint s = glCreateShader(GL_VERTEX_SHADER);
  glShaderBinary(1, &s, GL_SHADER_BINARY_FORMAT_SPIR_V, kVertexSpirv, (GLsizei)sizeof kVertexSpirv);
  if (specialize) glSpecializeShader(s, "main", 0, NULL, NULL);
  return s;
}

static GLint link(GLuint program) {
  glLinkProgram(program);
  GLint linked = 0;
  glGetProgramiv(program, GL_LINK_STATUS, &linked);
  return linked;
}

static GLint info_log_length(GLuint program) {
  GLint n = 0;
  glGetProgramiv(program, GL_INFO_LOG_LENGTH, &n);
  return n;
}

int main(void) {
  conformance_make_context(EGL_OPENGL_API, 4, 6);
  if (!conformance_has_extension("GL_ARB_gl_spirv")) conformance_skip("GL_ARB_gl_spirv is not exposed");

  GLuint vertex = spirv_vertex(1);
  GLint spirv = 0, compiled = 0;
  glGetShaderiv(vertex, GL_SPIR_V_BINARY, &spirv);
  glGetShaderiv(vertex, GL_COMPILE_STATUS, &compiled);
  CHECK(spirv == GL_TRUE && compiled == GL_TRUE, "a specialized SPIR-V vertex shader: SPIR_V_BINARY, COMPILE_STATUS");
  CHECK_GL_ERROR(GL_NO_ERROR, "glShaderBinary + glSpecializeShader of a vertex module");

  /* SPIR-V and GLSL in one program. */
  GLuint fragment = glCreateShader(GL_FRAGMENT_SHADER);
  glShaderSource(fragment, 1, &kFragment, NULL);
  glCompileShader(fragment);
  glGetShaderiv(fragment, GL_COMPILE_STATUS, &compiled);
  CHECK(compiled, "the GLSL fragment shader compiles");
  GLuint mixed = glCreateProgram();
  glAttachShader(mixed, vertex);
  glAttachShader(mixed, fragment);
  CHECK(!link(mixed), "a SPIR-V vertex shader and a GLSL fragment shader do not link together");
  CHECK(info_log_length(mixed) > 1, "the failed link has a log");
  CHECK_GL_ERROR(GL_NO_ERROR, "a failed link is no GL error");

  /* A SPIR-V shader not specialized. */
  GLuint unspecialized = glCreateProgram();
  GLuint raw = spirv_vertex(0);
  glAttachShader(unspecialized, raw);
  CHECK(!link(unspecialized), "a SPIR-V shader that was not specialized does not link");
  CHECK(info_log_length(unspecialized) > 1, "the failed link has a log");

  /* The SPIR-V vertex shader alone: inputs and uniforms by location. */
  GLuint program = glCreateProgram();
  glAttachShader(program, vertex);
  CHECK(link(program), "a specialized SPIR-V vertex shader links");
  GLint inputs = -1;
  glGetProgramInterfaceiv(program, GL_PROGRAM_INPUT, GL_ACTIVE_RESOURCES, &inputs);
  CHECK(inputs == 2, "two active inputs (position, uv), got %d", inputs);
  int found_uv = 0;
  for (GLint i = 0; i < inputs; ++i) {
    const GLenum props[] = {GL_LOCATION, GL_TYPE};
    GLint values[2] = {-1, -1};
    glGetProgramResourceiv(program, GL_PROGRAM_INPUT, (GLuint)i, 2, props, 2, NULL, values);
    if (values[0] == 3) found_uv = values[1] == GL_FLOAT_VEC2;
  }
  CHECK(found_uv, "the input at location 3 is a FLOAT_VEC2");
  const GLfloat m[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
  GLfloat back[16] = {0};
  glProgramUniformMatrix4fv(program, 5, 1, GL_FALSE, m);
  glGetUniformfv(program, 5, back);
  CHECK(memcmp(m, back, sizeof m) == 0, "the mat4 at location 5 reads back what was set (got %g ... %g)", back[0],
        back[15]);
  CHECK_GL_ERROR(GL_NO_ERROR, "uniforms by location of a SPIR-V vertex program");

  glDeleteProgram(program);
  glDeleteProgram(mixed);
  glDeleteProgram(unspecialized);
  glDeleteShader(vertex);
  glDeleteShader(fragment);
  glDeleteShader(raw);
  return conformance_result();
}
