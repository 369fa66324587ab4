/* Transform feedback varyings (GL 4.6 §11.1.2.1): named before the link, checked by it, reported after it. Nothing
 * is captured here (Bismuth does not draw); the names, types, sizes, offsets and link errors are the spec's.
 *
 * "The variables ... are specified with void TransformFeedbackVaryings(uint program, sizei count, const char *
 * const *varyings, enum bufferMode)"; "The state set by TransformFeedbackVaryings has no effect on the execution
 * of the program until program is subsequently linked." The link fails if "any variable name specified in the
 * varyings array is not declared as an output in the last vertex processing stage", "any two entries in the
 * varyings array specify the same output variable", "the count specified by TransformFeedbackVaryings is non-zero,
 * but the program object has no vertex, tessellation evaluation, or geometry shader", or gl_NextBuffer /
 * gl_SkipComponents are used with SEPARATE_ATTRIBS ("may be specified only in INTERLEAVED_ATTRIBS mode").
 * "An INVALID_VALUE error is generated if count is negative"; "An INVALID_ENUM error is generated if bufferMode is
 * not SEPARATE_ATTRIBS or INTERLEAVED_ATTRIBS"; "An INVALID_VALUE error is generated if bufferMode is
 * SEPARATE_ATTRIBS and count is greater than the value of the implementation-dependent limit
 * MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS". GetTransformFeedbackVarying: "An INVALID_VALUE error is generated if
 * index is greater than or equal to the value of TRANSFORM_FEEDBACK_VARYINGS".
 * §7.3.1.1 / Table 7.2: TRANSFORM_FEEDBACK_VARYING resources have TYPE, ARRAY_SIZE, OFFSET ("the offset of the
 * variable in the transform feedback buffer") and TRANSFORM_FEEDBACK_BUFFER_INDEX; gl_SkipComponentsN "are
 * considered to have a TYPE of NONE and an ARRAY_SIZE of ... N". */
#include <string.h>

#include "conformance.h"

static const char* kVertex =
    "#version 430\n"
    "out vec3 position3;\n"
    "out float weights[3];\n"
    "out Extra { vec2 uv; } extra;\n"
    "void main() {\n"
    "  gl_Position = vec4(1.0);\n"
    "  position3 = vec3(1.0);\n"
    "  weights[0] = 1.0; weights[1] = 2.0; weights[2] = 3.0;\n"
    "  extra.uv = vec2(0.5);\n"
    "}\n";

static GLuint vertex_shader(void) {
  GLuint s = glCreateShader(GL_VERTEX_SHADER);
  glShaderSource(s, 1, &kVertex, NULL);
  glCompileShader(s);
  return s;
}

static GLint link_with(GLuint program, GLsizei count, const char* const* names, GLenum mode) {
  glTransformFeedbackVaryings(program, count, names, mode);
  glLinkProgram(program);
  GLint linked = 0;
  glGetProgramiv(program, GL_LINK_STATUS, &linked);
  return linked;
}

static GLint tf_prop(GLuint program, const char* name, GLenum property) {
  GLuint index = glGetProgramResourceIndex(program, GL_TRANSFORM_FEEDBACK_VARYING, name);
  if (index == GL_INVALID_INDEX) return -12345;
  GLint value = -12345;
  glGetProgramResourceiv(program, GL_TRANSFORM_FEEDBACK_VARYING, index, 1, &property, 1, NULL, &value);
  return value;
}

int main(void) {
  conformance_make_context(EGL_OPENGL_API, 4, 3);
  const GLuint vs = vertex_shader();
  GLuint program = glCreateProgram();
  glAttachShader(program, vs);

  /* Interleaved: gl_Position (16 bytes), a skip of 2 components (8), position3 (12), the whole weights array
   * (12), then Extra.uv in the next buffer. */
  const char* names[] = {"gl_Position", "gl_SkipComponents2", "position3", "weights", "gl_NextBuffer", "Extra.uv"};
  CHECK(link_with(program, 6, names, GL_INTERLEAVED_ATTRIBS), "outputs of the vertex stage link as varyings");
  GLint n = -1;
  glGetProgramiv(program, GL_TRANSFORM_FEEDBACK_VARYINGS, &n);
  CHECK(n == 6, "TRANSFORM_FEEDBACK_VARYINGS is 6, got %d", n);
  glGetProgramiv(program, GL_TRANSFORM_FEEDBACK_BUFFER_MODE, &n);
  CHECK(n == GL_INTERLEAVED_ATTRIBS, "TRANSFORM_FEEDBACK_BUFFER_MODE is INTERLEAVED_ATTRIBS");
  glGetProgramiv(program, GL_TRANSFORM_FEEDBACK_VARYING_MAX_LENGTH, &n);
  CHECK(n == (GLint)strlen("gl_SkipComponents2") + 1, "TRANSFORM_FEEDBACK_VARYING_MAX_LENGTH, got %d", n);
  char name[64] = {0};
  GLsizei length = 0, size = 0;
  GLenum type = 0;
  glGetTransformFeedbackVarying(program, 3, sizeof name, &length, &size, &type, name);
  CHECK(strcmp(name, "weights") == 0 && size == 3 && type == GL_FLOAT,
        "glGetTransformFeedbackVarying(3): weights, 3 x FLOAT (got %s, %d, 0x%x)", name, size, type);
  glGetTransformFeedbackVarying(program, 0, sizeof name, &length, &size, &type, name);
  CHECK(strcmp(name, "gl_Position") == 0 && size == 1 && type == GL_FLOAT_VEC4, "varying 0: gl_Position, vec4");
  glGetTransformFeedbackVarying(program, 6, sizeof name, &length, &size, &type, name);
  CHECK_GL_ERROR(GL_INVALID_VALUE, "glGetTransformFeedbackVarying: index 6 >= TRANSFORM_FEEDBACK_VARYINGS");

  CHECK(tf_prop(program, "gl_SkipComponents2", GL_TYPE) == GL_NONE, "gl_SkipComponents2: TYPE NONE");
  CHECK(tf_prop(program, "gl_SkipComponents2", GL_ARRAY_SIZE) == 2, "gl_SkipComponents2: ARRAY_SIZE 2");
  CHECK(tf_prop(program, "position3", GL_OFFSET) == 24, "position3 at 16 + 8 = 24, got %d",
        tf_prop(program, "position3", GL_OFFSET));
  CHECK(tf_prop(program, "weights", GL_OFFSET) == 36, "weights at 24 + 12 = 36");
  CHECK(tf_prop(program, "Extra.uv", GL_TRANSFORM_FEEDBACK_BUFFER_INDEX) == 1,
        "Extra.uv: after gl_NextBuffer, buffer 1");
  CHECK(tf_prop(program, "Extra.uv", GL_OFFSET) == 0, "Extra.uv: offset 0 of buffer 1");
  CHECK(tf_prop(program, "Extra.uv", GL_TYPE) == GL_FLOAT_VEC2, "Extra.uv: TYPE FLOAT_VEC2");
  GLint resources = -1;
  glGetProgramInterfaceiv(program, GL_TRANSFORM_FEEDBACK_VARYING, GL_ACTIVE_RESOURCES, &resources);
  CHECK(resources == 6, "GL_TRANSFORM_FEEDBACK_VARYING: 6 resources, got %d", resources);
  CHECK_GL_ERROR(GL_NO_ERROR, "the queries of a linked program");

  /* Separate: each varying its own buffer; an array element names one element. */
  const char* separate[] = {"weights[2]", "position3"};
  CHECK(link_with(program, 2, separate, GL_SEPARATE_ATTRIBS), "an array element and a variable, separate");
  CHECK(tf_prop(program, "weights[2]", GL_ARRAY_SIZE) == 1, "weights[2]: one element");
  CHECK(tf_prop(program, "position3", GL_TRANSFORM_FEEDBACK_BUFFER_INDEX) == 1, "position3: buffer 1");
  glGetProgramiv(program, GL_TRANSFORM_FEEDBACK_BUFFER_MODE, &n);
  CHECK(n == GL_SEPARATE_ATTRIBS, "TRANSFORM_FEEDBACK_BUFFER_MODE is SEPARATE_ATTRIBS");

  /* Link errors, each with an info log. */
  const char* missing[] = {"not_an_output"};
  CHECK(!link_with(program, 1, missing, GL_INTERLEAVED_ATTRIBS), "a name that is no output fails the link");
  GLint log = 0;
  glGetProgramiv(program, GL_INFO_LOG_LENGTH, &log);
  CHECK(log > 1, "the failed link has a log");
  const char* twice[] = {"position3", "position3"};
  CHECK(!link_with(program, 2, twice, GL_INTERLEAVED_ATTRIBS), "the same output twice fails the link");
  const char* past_end[] = {"weights[3]"};
  CHECK(!link_with(program, 1, past_end, GL_INTERLEAVED_ATTRIBS), "an element past the array fails the link");
  const char* skip_separate[] = {"position3", "gl_SkipComponents1"};
  CHECK(!link_with(program, 2, skip_separate, GL_SEPARATE_ATTRIBS), "gl_SkipComponents1 with SEPARATE_ATTRIBS");
  glGetProgramiv(program, GL_TRANSFORM_FEEDBACK_VARYINGS, &n);
  CHECK(n == 0, "a program whose link failed has no varyings, got %d", n);
  CHECK(link_with(program, 0, NULL, GL_INTERLEAVED_ATTRIBS), "no varyings: the program links again");
  CHECK_GL_ERROR(GL_NO_ERROR, "failed links are no GL errors");

  const char* position[] = {"gl_Position"};
  GLuint compute = glCreateProgram();
  GLuint cs = glCreateShader(GL_COMPUTE_SHADER);
  const char* cs_source = "#version 430\nlayout(local_size_x = 1) in;\nvoid main() {}\n";
  glShaderSource(cs, 1, &cs_source, NULL);
  glCompileShader(cs);
  glAttachShader(compute, cs);
  CHECK(!link_with(compute, 1, position, GL_INTERLEAVED_ATTRIBS), "varyings without a vertex processing stage");

  /* API errors. */
  glTransformFeedbackVaryings(program, -1, position, GL_INTERLEAVED_ATTRIBS);
  CHECK_GL_ERROR(GL_INVALID_VALUE, "count < 0");
  glTransformFeedbackVaryings(program, 1, position, GL_FLOAT);
  CHECK_GL_ERROR(GL_INVALID_ENUM, "bufferMode GL_FLOAT");
  GLint max_separate = 0;
  glGetIntegerv(GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS, &max_separate);
  CHECK(max_separate >= 4, "MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS >= 4 (GL 4.6 Table 23.73)");
  const char* many[64];
  for (int i = 0; i < 64; ++i) many[i] = "position3";
  if (max_separate < 64) {
    glTransformFeedbackVaryings(program, max_separate + 1, many, GL_SEPARATE_ATTRIBS);
    CHECK_GL_ERROR(GL_INVALID_VALUE, "more separate varyings than MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS");
  }
  CHECK_GL_ERROR(GL_NO_ERROR, "the whole run");
  return conformance_result();
}
