/* Transform feedback at link: the limits, the GL_TRANSFORM_FEEDBACK_BUFFER interface, structure members, and the
 * layout a shader declares with xfb_* qualifiers. Nothing is captured (Bismuth does not draw); what the link
 * decides and the queries report are the spec's.
 *
 * GL 4.6 §11.1.2.1: the link fails if "the total number of components to capture in any output in varyings is
 * greater than the value of MAX_TRANSFORM_FEEDBACK_SEPARATE_COMPONENTS and the buffer mode is SEPARATE_ATTRIBS",
 * or "the total number of components to capture in any transform feedback buffer is greater than the value of
 * MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS and the buffer mode is INTERLEAVED_ATTRIBS"; gl_NextBuffer makes
 * the following outputs go to the next binding point, of which there are MAX_TRANSFORM_FEEDBACK_BUFFERS;
 * gl_SkipComponentsN skips N components ("each counts against the number of components"). "If the shader used to
 * record output variables for transform feedback varyings uses the xfb_buffer, xfb_offset, or xfb_stride layout
 * qualifiers, the values specified by TransformFeedbackVaryings are ignored, and the set of variables captured for
 * transform feedback is instead derived from the specified layout qualifiers."
 * GL 4.6 §7.3.1 / Table 7.2: TRANSFORM_FEEDBACK_BUFFER resources have BUFFER_BINDING ("the index of the binding
 * point"), NUM_ACTIVE_VARIABLES, ACTIVE_VARIABLES ("the indices of the active variables associated with" it) and
 * TRANSFORM_FEEDBACK_BUFFER_STRIDE; TRANSFORM_FEEDBACK_VARYING resources OFFSET and TRANSFORM_FEEDBACK_BUFFER_INDEX.
 * §7.3.1.1: a structure member is named "s.member", an array of basic type "a[0]" with ARRAY_SIZE its size.
 * GLSL 4.60 §4.4.2.1: "xfb_offset ... must be a multiple of the size of the first component of the first qualified
 * variable or block member, or a compile-time error results"; "No aliasing in output buffers is allowed: It is a
 * compile-time or link-time error to specify variables with overlapping transform feedback offsets"; "It is a
 * compile-time or link-time error to have any xfb_offset that overflows xfb_stride"; "The resulting stride
 * (implicit or explicit), when divided by 4, must be less than or equal to the implementation-dependent constant
 * gl_MaxTransformFeedbackInterleavedComponents"; "It is a compile-time error to specify an xfb_buffer that is
 * greater than or equal to the implementation-dependent constant gl_MaxTransformFeedbackBuffers"; when a block or
 * structure is captured its members are "assigned consecutive offsets". GLSL 4.60 §4.3.6: "Output variables can
 * only be floating-point scalars, floating-point vectors, matrices, signed or unsigned integers or integer vectors,
 * or arrays or structures of any these" (no bool). */
#include <string.h>

#include "conformance.h"

static char g_log[8192];

static GLuint vertex_program(const char* source) {
  GLuint program = glCreateProgram();
  GLuint s = glCreateShader(GL_VERTEX_SHADER);
  glShaderSource(s, 1, &source, NULL);
  glCompileShader(s);
  GLint ok = 0;
  glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
  g_log[0] = 0;
  if (!ok) glGetShaderInfoLog(s, sizeof g_log, NULL, g_log);
  glAttachShader(program, s);
  glDeleteShader(s);
  return program;
}

static GLint link_with(GLuint program, GLsizei count, const char* const* names, GLenum mode) {
  if (count >= 0) glTransformFeedbackVaryings(program, count, names, mode);
  glLinkProgram(program);
  GLint linked = 0;
  glGetProgramiv(program, GL_LINK_STATUS, &linked);
  if (!linked && g_log[0] == 0) glGetProgramInfoLog(program, sizeof g_log, NULL, g_log);
  return linked;
}

static GLint varying_prop(GLuint program, const char* name, GLenum property) {
  GLuint index = glGetProgramResourceIndex(program, GL_TRANSFORM_FEEDBACK_VARYING, name);
  if (index == GL_INVALID_INDEX) return -12345;
  GLint value = -12345;
  glGetProgramResourceiv(program, GL_TRANSFORM_FEEDBACK_VARYING, index, 1, &property, 1, NULL, &value);
  return value;
}

static GLint buffer_prop(GLuint program, GLuint index, GLenum property) {
  GLint value = -12345;
  glGetProgramResourceiv(program, GL_TRANSFORM_FEEDBACK_BUFFER, index, 1, &property, 1, NULL, &value);
  return value;
}

static GLint resources(GLuint program, GLenum interface) {
  GLint n = -1;
  glGetProgramInterfaceiv(program, interface, GL_ACTIVE_RESOURCES, &n);
  return n;
}

static const char* kVertex =
    "#version 430\n"
    "struct S { vec3 p; float w; };\n"
    "out S s;\n"
    "out S pair[2];\n"
    "out vec4 a[2];\n"
    "out vec4 x, y, z, w, q;\n"
    "out vec3 position3;\n"
    "out Extra { vec2 uv; } extra;\n"
    "void main() {\n"
    "  s = S(vec3(1.0), 2.0);\n"
    "  pair[0] = s; pair[1] = s;\n"
    "  a[0] = vec4(0.0); a[1] = vec4(1.0);\n"
    "  x = y = z = w = q = vec4(2.0);\n"
    "  position3 = vec3(3.0);\n"
    "  extra.uv = vec2(0.5);\n"
    "  gl_Position = vec4(1.0);\n"
    "}\n";

static void named_limits(void) {
  GLint sep = -1, inter = -1, bufs = -1, attribs = -1;
  glGetIntegerv(GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_COMPONENTS, &sep);
  glGetIntegerv(GL_MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS, &inter);
  glGetIntegerv(GL_MAX_TRANSFORM_FEEDBACK_BUFFERS, &bufs);
  glGetIntegerv(GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS, &attribs);
  CHECK_GL_ERROR(GL_NO_ERROR, "the transform feedback limits are state");
  CHECK(sep >= 4 && inter >= 64 && bufs >= 4 && attribs >= 4,
        "GL 4.6 Table 23.73 minimums: SEPARATE_COMPONENTS 4 (%d), INTERLEAVED_COMPONENTS 64 (%d), BUFFERS 4 (%d), "
        "SEPARATE_ATTRIBS 4 (%d)",
        sep, inter, bufs, attribs);
  GLuint program = vertex_program(kVertex);

  /* SEPARATE_ATTRIBS: one vec4 element fits MAX_TRANSFORM_FEEDBACK_SEPARATE_COMPONENTS; the whole vec4[2] does
   * not (when the limit is below 8). */
  const char* element[] = {"a[1]"};
  CHECK(link_with(program, 1, element, GL_SEPARATE_ATTRIBS), "a[1] (4 components) captured separately: %s", g_log);
  if (sep < 8) {
    const char* whole[] = {"a"};
    g_log[0] = 0;
    CHECK(!link_with(program, 1, whole, GL_SEPARATE_ATTRIBS), "a (8 components) separately fails to link");
    CHECK(strstr(g_log, "MAX_TRANSFORM_FEEDBACK_SEPARATE_COMPONENTS") != NULL, "the log names the limit: %s", g_log);
  }

  /* INTERLEAVED_ATTRIBS: x and skips up to the limit link, one skipped component more does not. */
  const char* names[80];
  GLsizei n = 0;
  names[n++] = "x";
  for (GLint c = 4; c + 4 <= inter && n < 70; c += 4) names[n++] = "gl_SkipComponents4";
  const GLint at_limit = 4 + 4 * (n - 1);
  if (at_limit == inter) {
    CHECK(link_with(program, n, names, GL_INTERLEAVED_ATTRIBS),
          "exactly MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS components in one buffer link: %s", g_log);
    names[n++] = "gl_SkipComponents1";
    g_log[0] = 0;
    CHECK(!link_with(program, n, names, GL_INTERLEAVED_ATTRIBS),
          "one component more than MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS fails to link");
    CHECK(strstr(g_log, "MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS") != NULL, "the log names the limit: %s", g_log);
  }

  /* gl_NextBuffer: MAX_TRANSFORM_FEEDBACK_BUFFERS buffers link, one more does not. */
  const char* outputs[] = {"x", "y", "z", "w", "q"};
  if (bufs < 5) {
    const char* list[16];
    GLsizei k = 0;
    for (GLint b = 0; b < bufs + 1; ++b) {
      if (b > 0) list[k++] = "gl_NextBuffer";
      list[k++] = outputs[b];
    }
    CHECK(link_with(program, k - 2, list, GL_INTERLEAVED_ATTRIBS), "MAX_TRANSFORM_FEEDBACK_BUFFERS buffers link: %s",
          g_log);
    g_log[0] = 0;
    CHECK(!link_with(program, k, list, GL_INTERLEAVED_ATTRIBS),
          "gl_NextBuffer past MAX_TRANSFORM_FEEDBACK_BUFFERS fails to link");
    CHECK(strstr(g_log, "MAX_TRANSFORM_FEEDBACK_BUFFERS") != NULL, "the log names the limit: %s", g_log);
  }

  /* One array element twice: "any two entries in the varyings array specify the same output variable". */
  const char* twice[] = {"a[1]", "position3", "a[1]"};
  CHECK(!link_with(program, 3, twice, GL_INTERLEAVED_ATTRIBS), "\"a[1]\" twice specifies the same output");
  glDeleteProgram(program);
}

static void named_buffers_and_structures(void) {
  GLuint program = vertex_program(kVertex);
  /* Interleaved: buffer 0 holds gl_Position (16 bytes), 2 skipped components (8), position3 (12) and s.w (4);
   * gl_NextBuffer; buffer 1 holds Extra.uv (8) and pair[1].p (12). */
  const char* names[] = {"gl_Position",   "gl_SkipComponents2", "position3", "s.w",
                         "gl_NextBuffer", "Extra.uv",           "pair[1].p"};
  CHECK(link_with(program, 7, names, GL_INTERLEAVED_ATTRIBS), "structure members and a block member link: %s", g_log);
  CHECK(resources(program, GL_TRANSFORM_FEEDBACK_BUFFER) == 2, "two transform feedback buffers, got %d",
        resources(program, GL_TRANSFORM_FEEDBACK_BUFFER));
  CHECK(buffer_prop(program, 0, GL_BUFFER_BINDING) == 0, "buffer 0: binding 0");
  CHECK(buffer_prop(program, 0, GL_TRANSFORM_FEEDBACK_BUFFER_STRIDE) == 40, "buffer 0: stride 16 + 8 + 12 + 4, got %d",
        buffer_prop(program, 0, GL_TRANSFORM_FEEDBACK_BUFFER_STRIDE));
  CHECK(buffer_prop(program, 0, GL_NUM_ACTIVE_VARIABLES) == 4, "buffer 0: four variables (the skip included), got %d",
        buffer_prop(program, 0, GL_NUM_ACTIVE_VARIABLES));
  CHECK(buffer_prop(program, 1, GL_BUFFER_BINDING) == 1, "buffer 1: binding 1");
  CHECK(buffer_prop(program, 1, GL_TRANSFORM_FEEDBACK_BUFFER_STRIDE) == 20, "buffer 1: stride 8 + 12, got %d",
        buffer_prop(program, 1, GL_TRANSFORM_FEEDBACK_BUFFER_STRIDE));
  GLint active[4] = {-1, -1, -1, -1};
  GLsizei length = 0;
  const GLenum prop = GL_ACTIVE_VARIABLES;
  glGetProgramResourceiv(program, GL_TRANSFORM_FEEDBACK_BUFFER, 1, 1, &prop, 4, &length, active);
  const GLuint uv = glGetProgramResourceIndex(program, GL_TRANSFORM_FEEDBACK_VARYING, "Extra.uv");
  const GLuint pair = glGetProgramResourceIndex(program, GL_TRANSFORM_FEEDBACK_VARYING, "pair[1].p");
  CHECK(length == 2 && (GLuint)active[0] == uv && (GLuint)active[1] == pair,
        "buffer 1's ACTIVE_VARIABLES are Extra.uv and pair[1].p (%d: %d %d)", length, active[0], active[1]);
  CHECK(varying_prop(program, "s.w", GL_OFFSET) == 36 && varying_prop(program, "s.w", GL_TYPE) == GL_FLOAT,
        "s.w: a float at 16 + 8 + 12 = 36");
  CHECK(varying_prop(program, "pair[1].p", GL_OFFSET) == 8 &&
            varying_prop(program, "pair[1].p", GL_TRANSFORM_FEEDBACK_BUFFER_INDEX) == 1 &&
            varying_prop(program, "pair[1].p", GL_TYPE) == GL_FLOAT_VEC3,
        "pair[1].p: a vec3 at offset 8 of buffer 1");
  char name[32] = {0};
  GLsizei size = 0;
  GLenum type = 0;
  glGetTransformFeedbackVarying(program, 6, sizeof name, NULL, &size, &type, name);
  CHECK(strcmp(name, "pair[1].p") == 0 && size == 1 && type == GL_FLOAT_VEC3,
        "glGetTransformFeedbackVarying(6): pair[1].p, 1 x FLOAT_VEC3 (got %s, %d, 0x%x)", name, size, type);
  GLint index_prop = -1;
  const GLenum bad = GL_NAME_LENGTH;
  glGetProgramResourceiv(program, GL_TRANSFORM_FEEDBACK_BUFFER, 0, 1, &bad, 1, NULL, &index_prop);
  CHECK_GL_ERROR(GL_INVALID_OPERATION, "TRANSFORM_FEEDBACK_BUFFER resources have no NAME_LENGTH (Table 7.2)");

  /* Separate: each varying in a buffer of its own, at offset 0, the stride its size. */
  const char* separate[] = {"s.p", "a[0]"};
  CHECK(link_with(program, 2, separate, GL_SEPARATE_ATTRIBS), "two separate varyings link: %s", g_log);
  CHECK(resources(program, GL_TRANSFORM_FEEDBACK_BUFFER) == 2, "two buffers");
  CHECK(buffer_prop(program, 1, GL_BUFFER_BINDING) == 1 &&
            buffer_prop(program, 1, GL_TRANSFORM_FEEDBACK_BUFFER_STRIDE) == 16,
        "a[0] goes to binding 1, 16 bytes a vertex");
  CHECK(buffer_prop(program, 0, GL_TRANSFORM_FEEDBACK_BUFFER_STRIDE) == 12, "s.p: 12 bytes a vertex");
  CHECK(varying_prop(program, "a[0]", GL_OFFSET) == 0, "a[0] at offset 0 of its buffer");
  CHECK_GL_ERROR(GL_NO_ERROR, "the queries of a linked program");
  glDeleteProgram(program);

  /* No output can be bool. */
  GLuint bool_program =
      vertex_program("#version 430\nout bool b;\nvoid main() { b = true; gl_Position = vec4(0.0); }\n");
  const char* b[] = {"b"};
  CHECK(!link_with(bool_program, 1, b, GL_INTERLEAVED_ATTRIBS), "a bool output does not compile");
  glDeleteProgram(bool_program);
}

static const char* kDeclared =
    "#version 440\n"
    "struct S { vec2 m; float n; };\n"
    "layout(xfb_buffer = 0, xfb_offset = 0) out vec4 a;\n"
    "layout(xfb_buffer = 0, xfb_offset = 16) out float b[2];\n"
    "layout(xfb_buffer = 1, xfb_stride = 32) out;\n"
    "layout(xfb_buffer = 1, xfb_offset = 4) out vec3 c;\n"
    "layout(xfb_buffer = 2, xfb_offset = 0) out Blk { vec2 u; float f; } blk;\n"
    "layout(xfb_buffer = 3, xfb_offset = 0) out S s;\n"
    "out vec4 not_captured;\n"
    "void main() {\n"
    "  a = vec4(1.0); b[0] = b[1] = 2.0; c = vec3(3.0); blk.u = vec2(4.0); blk.f = 5.0;\n"
    "  s = S(vec2(6.0), 7.0); not_captured = vec4(8.0); gl_Position = vec4(0.0);\n"
    "}\n";

static void declared_layout(void) {
  GLuint program = vertex_program(kDeclared);
  /* The names given are ignored: "bogus" is no output, yet the link succeeds. */
  const char* ignored[] = {"bogus"};
  CHECK(link_with(program, 1, ignored, GL_SEPARATE_ATTRIBS), "xfb qualifiers override the varyings given: %s", g_log);
  CHECK(resources(program, GL_TRANSFORM_FEEDBACK_VARYING) == 7, "a, b[0], c, Blk.u, Blk.f, s.m, s.n: got %d",
        resources(program, GL_TRANSFORM_FEEDBACK_VARYING));
  GLint count = -1;
  glGetProgramiv(program, GL_TRANSFORM_FEEDBACK_VARYINGS, &count);
  CHECK(count == 7, "TRANSFORM_FEEDBACK_VARYINGS is 7, got %d", count);
  CHECK(varying_prop(program, "bogus", GL_OFFSET) == -12345, "bogus is not captured");
  CHECK(varying_prop(program, "not_captured", GL_OFFSET) == -12345, "an output without xfb_offset is not captured");
  CHECK(varying_prop(program, "a", GL_OFFSET) == 0 && varying_prop(program, "a", GL_TYPE) == GL_FLOAT_VEC4, "a");
  CHECK(varying_prop(program, "b[0]", GL_OFFSET) == 16 && varying_prop(program, "b[0]", GL_ARRAY_SIZE) == 2 &&
            varying_prop(program, "b[0]", GL_TYPE) == GL_FLOAT,
        "b[0]: float[2] at 16");
  CHECK(
      varying_prop(program, "c", GL_TRANSFORM_FEEDBACK_BUFFER_INDEX) == 1 && varying_prop(program, "c", GL_OFFSET) == 4,
      "c: buffer 1, offset 4");
  CHECK(varying_prop(program, "Blk.f", GL_TRANSFORM_FEEDBACK_BUFFER_INDEX) == 2 &&
            varying_prop(program, "Blk.f", GL_OFFSET) == 8,
        "Blk.f: buffer 2, offset 8 (after Blk.u), got %d", varying_prop(program, "Blk.f", GL_OFFSET));
  CHECK(varying_prop(program, "s.n", GL_TRANSFORM_FEEDBACK_BUFFER_INDEX) == 3 &&
            varying_prop(program, "s.n", GL_OFFSET) == 8 && varying_prop(program, "s.m", GL_TYPE) == GL_FLOAT_VEC2,
        "s.m, s.n: buffer 3, offsets 0 and 8");
  CHECK(resources(program, GL_TRANSFORM_FEEDBACK_BUFFER) == 4, "four buffers, got %d",
        resources(program, GL_TRANSFORM_FEEDBACK_BUFFER));
  CHECK(buffer_prop(program, 0, GL_TRANSFORM_FEEDBACK_BUFFER_STRIDE) == 24, "buffer 0: implicit stride 24, got %d",
        buffer_prop(program, 0, GL_TRANSFORM_FEEDBACK_BUFFER_STRIDE));
  CHECK(buffer_prop(program, 1, GL_BUFFER_BINDING) == 1 &&
            buffer_prop(program, 1, GL_TRANSFORM_FEEDBACK_BUFFER_STRIDE) == 32,
        "buffer 1: the declared stride 32, got %d", buffer_prop(program, 1, GL_TRANSFORM_FEEDBACK_BUFFER_STRIDE));
  CHECK(buffer_prop(program, 2, GL_NUM_ACTIVE_VARIABLES) == 2, "buffer 2: Blk.u and Blk.f");
  CHECK(buffer_prop(program, 3, GL_BUFFER_BINDING) == 3 &&
            buffer_prop(program, 3, GL_TRANSFORM_FEEDBACK_BUFFER_STRIDE) == 12,
        "buffer 3: s, 12 bytes");
  CHECK_GL_ERROR(GL_NO_ERROR, "the queries of a program with a declared layout");
  glDeleteProgram(program);

  /* The qualifiers' own errors: each fails to compile or to link. */
  static const struct {
    const char* source;
    const char* rule;
  } kBad[] = {
      {"#version 440\nlayout(xfb_offset = 0) out vec4 a;\nlayout(xfb_offset = 8) out vec4 b;\n"
       "void main() { a = b = vec4(0.0); gl_Position = a; }\n",
       "overlapping offsets"},
      {"#version 440\nlayout(xfb_offset = 2) out float a;\nvoid main() { a = 0.0; gl_Position = vec4(a); }\n",
       "an offset that is no multiple of 4"},
      {"#version 440\nlayout(xfb_buffer = 0, xfb_stride = 8, xfb_offset = 0) out vec4 a;\n"
       "void main() { a = vec4(0.0); gl_Position = a; }\n",
       "an offset that overflows the stride"},
      {"#version 440\nlayout(xfb_buffer = 0, xfb_stride = 1024) out;\nlayout(xfb_offset = 0) out vec4 a;\n"
       "void main() { a = vec4(0.0); gl_Position = a; }\n",
       "a stride above 4 x MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS (when that is below 256)"},
      {"#version 440\nlayout(xfb_buffer = 4, xfb_offset = 0) out vec4 a;\nvoid main() { a = vec4(0.0); gl_Position = "
       "a; }\n",
       "xfb_buffer = 4 (when MAX_TRANSFORM_FEEDBACK_BUFFERS is 4)"},
  };
  GLint inter = 0, bufs = 0;
  glGetIntegerv(GL_MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS, &inter);
  glGetIntegerv(GL_MAX_TRANSFORM_FEEDBACK_BUFFERS, &bufs);
  for (size_t i = 0; i < sizeof kBad / sizeof kBad[0]; ++i) {
    if (i == 3 && inter >= 256) continue;
    if (i == 4 && bufs > 4) continue;
    GLuint bad = vertex_program(kBad[i].source);
    CHECK(!link_with(bad, -1, NULL, GL_INTERLEAVED_ATTRIBS), "%s fails to compile or link", kBad[i].rule);
    glDeleteProgram(bad);
  }
}

int main(void) {
  conformance_make_context(EGL_OPENGL_API, 4, 6);
  named_limits();
  named_buffers_and_structures();
  declared_layout();
  CHECK_GL_ERROR(GL_NO_ERROR, "failed links are no GL errors");
  return conformance_result();
}
