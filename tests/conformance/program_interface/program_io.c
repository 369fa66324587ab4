/* Program inputs and outputs (issue 15, points 6 and 8): GL 4.6 §7.3.1 for a program without a compute shader.
 *
 * "PROGRAM_INPUT: the set of active input variables used by the first shader stage of program"; "PROGRAM_OUTPUT:
 * ... produced by the last shader stage". LOCATION (§7.3.1.1): "For input, output, or uniform variables with
 * locations specified by a layout qualifier, the specified location is used. For vertex shader input, fragment
 * shader output, or uniform variables without a layout qualifier, the location assigned when a program is linked
 * is written"; assigned locations never overlap declared ones, and an array of N takes N consecutive locations
 * (which locations the linker picks is the implementation's choice).
 * REFERENCED_BY_<stage>: inputs are referenced by the first stage, outputs by the last. A compute program has no
 * inputs or outputs. */
#include "conformance.h"

static const char* kVertex =
    "#version 430\n"
    "in vec4 position;\n"
    "layout(location = 3) in vec2 uv;\n"
    "in float weights[2];\n"
    "out vec2 v_uv;\n"
    "void main() { v_uv = uv * (weights[0] + weights[1]); gl_Position = position; }\n";

static const char* kFragment =
    "#version 430\n"
    "in vec2 v_uv;\n"
    "layout(location = 0) out vec4 color;\n"
    "out vec4 extra;\n"
    "uniform vec4 tint;\n"
    "layout(location = 7) uniform float gain[2];\n"
    "layout(std140, binding = 1) uniform Light { vec3 direction; float power; };\n"
    "void main() { color = vec4(v_uv, 0.0, 1.0) * tint * gain[1]; extra = vec4(direction, power); }\n";

static GLuint shader(GLenum type, const char* source) {
  GLuint s = glCreateShader(type);
  glShaderSource(s, 1, &source, NULL);
  glCompileShader(s);
  GLint ok = 0;
  glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    char log[2048];
    glGetShaderInfoLog(s, sizeof log, NULL, log);
    fprintf(stderr, "compile failed:\n%s\n", log);
  }
  return s;
}

static GLint prop(GLuint program, GLenum interface, const char* name, GLenum property) {
  GLuint index = glGetProgramResourceIndex(program, interface, name);
  if (index == GL_INVALID_INDEX) return -12345;
  GLint value = -12345;
  glGetProgramResourceiv(program, interface, index, 1, &property, 1, NULL, &value);
  return value;
}

int main(void) {
  conformance_make_context(EGL_OPENGL_API, 4, 3);
  GLuint program = glCreateProgram();
  glAttachShader(program, shader(GL_VERTEX_SHADER, kVertex));
  glAttachShader(program, shader(GL_FRAGMENT_SHADER, kFragment));
  glLinkProgram(program);
  GLint linked = 0;
  glGetProgramiv(program, GL_LINK_STATUS, &linked);
  CHECK(linked, "a vertex + fragment program links");
  if (!linked) return conformance_result();

  /* Inputs of the vertex stage. */
  CHECK(prop(program, GL_PROGRAM_INPUT, "position", GL_TYPE) == GL_FLOAT_VEC4, "position: TYPE");
  CHECK(prop(program, GL_PROGRAM_INPUT, "uv", GL_LOCATION) == 3, "uv: the declared location 3");
  /* The linker's choice of locations is the implementation's; the spec fixes only that they are valid, disjoint
   * from the declared ones and from each other, and consecutive for an array. */
  const GLint position = prop(program, GL_PROGRAM_INPUT, "position", GL_LOCATION);
  const GLint weights = prop(program, GL_PROGRAM_INPUT, "weights[0]", GL_LOCATION);
  const GLint max_attribs = 16; /* GL 4.6's minimum MAX_VERTEX_ATTRIBS */
  CHECK(position >= 0 && position < max_attribs && position != 3, "position: an assigned location, got %d", position);
  CHECK(weights >= 0 && weights + 1 < max_attribs && weights != 3 && weights + 1 != 3 && weights != position &&
            weights + 1 != position,
        "weights: two consecutive assigned locations apart from uv's and position's, got %d", weights);
  CHECK(prop(program, GL_PROGRAM_INPUT, "weights[0]", GL_ARRAY_SIZE) == 2, "weights: ARRAY_SIZE 2");
  CHECK(glGetProgramResourceLocation(program, GL_PROGRAM_INPUT, "weights[1]") == weights + 1,
        "weights[1] is the location after weights[0]");
  CHECK(glGetProgramResourceLocation(program, GL_PROGRAM_INPUT, "weights") == weights, "\"weights\" names weights[0]");
  CHECK(prop(program, GL_PROGRAM_INPUT, "uv", GL_REFERENCED_BY_VERTEX_SHADER) == 1, "inputs: referenced by vertex");
  CHECK(prop(program, GL_PROGRAM_INPUT, "uv", GL_REFERENCED_BY_FRAGMENT_SHADER) == 0, "inputs: not by fragment");
  CHECK(glGetProgramResourceIndex(program, GL_PROGRAM_INPUT, "v_uv") == GL_INVALID_INDEX,
        "the fragment stage's inputs are not program inputs");

  /* Outputs of the fragment stage. */
  CHECK(prop(program, GL_PROGRAM_OUTPUT, "color", GL_LOCATION) == 0, "color: declared location 0");
  const GLint extra = prop(program, GL_PROGRAM_OUTPUT, "extra", GL_LOCATION);
  CHECK(extra > 0, "extra: an assigned location apart from color's 0, got %d", extra);
  CHECK(prop(program, GL_PROGRAM_OUTPUT, "color", GL_LOCATION_INDEX) == 0, "color: LOCATION_INDEX 0");
  CHECK(glGetProgramResourceLocationIndex(program, GL_PROGRAM_OUTPUT, "color") == 0, "color: location index 0");
  CHECK(prop(program, GL_PROGRAM_OUTPUT, "color", GL_REFERENCED_BY_FRAGMENT_SHADER) == 1, "outputs: by fragment");
  CHECK(glGetProgramResourceIndex(program, GL_PROGRAM_OUTPUT, "gl_Position") == GL_INVALID_INDEX,
        "the vertex stage's outputs are not program outputs");
  GLuint color = glGetProgramResourceIndex(program, GL_PROGRAM_OUTPUT, "color");
  GLenum location_index = GL_LOCATION_INDEX;
  GLint ignored = 0;
  glGetProgramResourceiv(program, GL_PROGRAM_INPUT, 0, 1, &location_index, 1, NULL, &ignored);
  CHECK_GL_ERROR(GL_INVALID_OPERATION, "LOCATION_INDEX is a property of PROGRAM_OUTPUT only");
  (void)color;

  /* Uniforms of a graphics program (GL 4.6 §7.3.1, §7.6): the same interfaces as a compute program's. */
  const GLint tint = glGetUniformLocation(program, "tint");
  CHECK(tint >= 0 && tint != 7 && tint != 8, "tint: an assigned location apart from gain's 7 and 8, got %d", tint);
  CHECK(glGetUniformLocation(program, "gain[1]") == 8, "gain[1] at 7 + 1");
  const GLfloat value[4] = {0.5f, 1.0f, 1.5f, 2.0f};
  glUseProgram(program); /* GL 4.6 §7.3: a graphics program can be made current (it never draws here) */
  glUniform4fv(tint, 1, value);
  glUseProgram(0);
  GLfloat back[4] = {0};
  glGetUniformfv(program, tint, back);
  CHECK(back[2] == 1.5f, "glGetUniformfv reads what glUniform4fv wrote (%f)", back[2]);
  CHECK(prop(program, GL_UNIFORM, "direction", GL_OFFSET) == 0 && prop(program, GL_UNIFORM, "power", GL_OFFSET) == 12,
        "std140: direction at 0, power at 12");
  CHECK(prop(program, GL_UNIFORM_BLOCK, "Light", GL_BUFFER_BINDING) == 1, "Light: BUFFER_BINDING 1");
  CHECK(prop(program, GL_UNIFORM, "tint", GL_TYPE) == GL_FLOAT_VEC4, "tint: TYPE");
  GLint uniforms = 0;
  glGetProgramiv(program, GL_ACTIVE_UNIFORMS, &uniforms);
  CHECK(uniforms == 4, "4 active uniforms (tint, gain[0], direction, power), got %d", uniforms);
  CHECK_GL_ERROR(GL_NO_ERROR, "uniform queries of a graphics program");

  /* A compute program has neither. */
  GLuint compute = conformance_compute_program("#version 430\nlayout(local_size_x = 1) in;\nvoid main() {}\n");
  GLint n = -1;
  glGetProgramInterfaceiv(compute, GL_PROGRAM_INPUT, GL_ACTIVE_RESOURCES, &n);
  CHECK(n == 0, "a compute program has no program inputs");
  glGetProgramInterfaceiv(compute, GL_PROGRAM_OUTPUT, GL_ACTIVE_RESOURCES, &n);
  CHECK(n == 0, "a compute program has no program outputs");
  CHECK_GL_ERROR(GL_NO_ERROR, "the whole run");
  return conformance_result();
}
