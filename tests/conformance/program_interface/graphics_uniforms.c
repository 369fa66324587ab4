/* Atomic counters and structure uniforms of a program without a compute shader (issue 15, points 6 and 8): GL 4.6
 * §7.3.1 and §7.6 apply to every program, whatever its stages.
 *
 * GL 4.6 §7.3.1.1: "For an active variable declared as a structure, a separate entry will be generated for each
 * active structure member. The name of each entry is formed by concatenating the name of the structure, the "."
 * character, and the name of the structure member"; "For an active variable declared as an array of an aggregate
 * data type (structures or arrays), a separate entry will be generated for each active array element"; "For an
 * active variable declared as an array of basic types, a single entry will be generated, with its name string
 * formed by concatenating the name of the array and the string "[0]"".
 * §7.3.1 GL_ATOMIC_COUNTER_BUFFER: "The set of active atomic counter buffer binding points used by program";
 * Table 7.2 BUFFER_BINDING, BUFFER_DATA_SIZE, NUM_ACTIVE_VARIABLES, ACTIVE_VARIABLES, REFERENCED_BY_*.
 * §7.6.1 ("Loading Uniform Variables"): a structure member's location is queried by its full name ("s.f").
 * GLSL 4.60 §4.4.6.2: an atomic counter without `offset` takes the next offset after the previous declaration of
 * its binding ("the offset is ... the next available offset after the previous atomic counter declaration with the
 * same binding"). */
#include "conformance.h"

static const char* kVertex =
    "#version 430\n"
    "struct Light { vec3 color; float power; };\n"
    "uniform Light light;\n"
    "layout(binding = 1, offset = 4) uniform atomic_uint vertices;\n"
    "layout(binding = 1) uniform atomic_uint extra[2];\n"
    "out vec4 shade;\n"
    "void main() {\n"
    "  atomicCounterIncrement(vertices);\n"
    "  atomicCounterIncrement(extra[1]);\n"
    "  shade = vec4(light.color * light.power, 1.0);\n"
    "  gl_Position = vec4(0.0);\n"
    "}\n";

static const char* kFragment =
    "#version 430\n"
    "struct Item { float weight; vec2 uv[2]; };\n"
    "uniform Item items[2];\n"
    "layout(binding = 3) uniform atomic_uint fragments;\n"
    "in vec4 shade;\n"
    "layout(location = 0) out vec4 color;\n"
    "void main() {\n"
    "  atomicCounterIncrement(fragments);\n"
    "  color = shade * (items[0].weight + items[1].weight + items[0].uv[1].x + items[1].uv[0].y);\n"
    "}\n";

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

/* The GL_ATOMIC_COUNTER_BUFFER resource whose BUFFER_BINDING is `binding`; -1 when none is. */
static GLint buffer_of_binding(GLuint program, GLint binding) {
  GLint buffers = 0;
  glGetProgramInterfaceiv(program, GL_ATOMIC_COUNTER_BUFFER, GL_ACTIVE_RESOURCES, &buffers);
  for (GLint b = 0; b < buffers; ++b) {
    GLenum property = GL_BUFFER_BINDING;
    GLint value = -1;
    glGetProgramResourceiv(program, GL_ATOMIC_COUNTER_BUFFER, (GLuint)b, 1, &property, 1, NULL, &value);
    if (value == binding) return b;
  }
  return -1;
}

static GLint buffer_prop(GLuint program, GLint buffer, GLenum property) {
  GLint value = -12345;
  glGetProgramResourceiv(program, GL_ATOMIC_COUNTER_BUFFER, (GLuint)buffer, 1, &property, 1, NULL, &value);
  return value;
}

int main(void) {
  conformance_make_context(EGL_OPENGL_API, 4, 3);
  /* Atomic counters in a vertex shader need MAX_VERTEX_ATOMIC_COUNTERS > 0 (GL 4.6 Table 23.57's minimum is 0). */
  GLint vertex_counters = 0, vertex_buffers = 0;
  glGetIntegerv(GL_MAX_VERTEX_ATOMIC_COUNTERS, &vertex_counters);
  glGetIntegerv(GL_MAX_VERTEX_ATOMIC_COUNTER_BUFFERS, &vertex_buffers);
  CHECK_GL_ERROR(GL_NO_ERROR, "GL_MAX_VERTEX_ATOMIC_COUNTERS and _BUFFERS are GL 4.6 state (Table 23.57)");
  if (vertex_counters < 3 || vertex_buffers < 1) {
    conformance_skip("the vertex stage has fewer than 3 atomic counters or no atomic counter buffer");
  }

  GLuint program = glCreateProgram();
  glAttachShader(program, shader(GL_VERTEX_SHADER, kVertex));
  glAttachShader(program, shader(GL_FRAGMENT_SHADER, kFragment));
  glLinkProgram(program);
  GLint linked = 0;
  glGetProgramiv(program, GL_LINK_STATUS, &linked);
  if (!linked) {
    char log[2048];
    glGetProgramInfoLog(program, sizeof log, NULL, log);
    fprintf(stderr, "link failed:\n%s\n", log);
  }
  CHECK(linked, "a vertex + fragment program with atomic counters and structure uniforms links");
  if (!linked) return conformance_result();

  /* Structure members, each its own GL_UNIFORM entry named "s.f" (§7.3.1.1). */
  CHECK(prop(program, GL_UNIFORM, "light.color", GL_TYPE) == GL_FLOAT_VEC3, "light.color: TYPE FLOAT_VEC3");
  CHECK(prop(program, GL_UNIFORM, "light.power", GL_TYPE) == GL_FLOAT, "light.power: TYPE FLOAT");
  CHECK(prop(program, GL_UNIFORM, "light.power", GL_REFERENCED_BY_VERTEX_SHADER) == 1,
        "light.power: referenced by the vertex shader");
  CHECK(prop(program, GL_UNIFORM, "light.power", GL_REFERENCED_BY_FRAGMENT_SHADER) == 0,
        "light.power: not referenced by the fragment shader");
  CHECK(prop(program, GL_UNIFORM, "light.power", GL_REFERENCED_BY_COMPUTE_SHADER) == 0,
        "light.power: the program has no compute shader");
  CHECK(glGetProgramResourceIndex(program, GL_UNIFORM, "light") == GL_INVALID_INDEX,
        "a structure itself is not a GL_UNIFORM entry, only its members");
  /* An array of structures: an entry per active element; arrays of basic types inside end in "[0]". */
  CHECK(prop(program, GL_UNIFORM, "items[1].weight", GL_TYPE) == GL_FLOAT, "items[1].weight: TYPE FLOAT");
  CHECK(prop(program, GL_UNIFORM, "items[0].uv[0]", GL_TYPE) == GL_FLOAT_VEC2, "items[0].uv[0]: TYPE FLOAT_VEC2");
  CHECK(prop(program, GL_UNIFORM, "items[0].uv[0]", GL_ARRAY_SIZE) == 2, "items[0].uv[0]: ARRAY_SIZE 2");
  CHECK(prop(program, GL_UNIFORM, "items[0].uv", GL_ARRAY_SIZE) == 2, "\"items[0].uv\" names items[0].uv[0]");

  /* glGetUniformLocation + glUniform* + glGetUniform* on structure members (§7.6.1). */
  const GLint power = glGetUniformLocation(program, "light.power");
  const GLint color = glGetUniformLocation(program, "light.color");
  const GLint weight1 = glGetUniformLocation(program, "items[1].weight");
  const GLint uv0 = glGetUniformLocation(program, "items[0].uv[0]");
  const GLint uv1 = glGetUniformLocation(program, "items[0].uv[1]");
  CHECK(power >= 0 && color >= 0 && weight1 >= 0 && uv0 >= 0 && uv1 >= 0,
        "structure members have locations (%d %d %d %d %d)", power, color, weight1, uv0, uv1);
  CHECK(power != color && power != weight1 && color != weight1 && uv0 != uv1, "distinct members, distinct locations");
  CHECK(glGetUniformLocation(program, "light") == -1, "a structure has no location of its own");
  glUseProgram(program);
  glUniform1f(power, 2.5f);
  glUniform3f(color, 0.25f, 0.5f, 0.75f);
  glUniform1f(weight1, -4.0f);
  const GLfloat uv[4] = {1.0f, 2.0f, 3.0f, 4.0f};
  glUniform2fv(uv0, 2, uv);
  glUseProgram(0);
  CHECK_GL_ERROR(GL_NO_ERROR, "glUniform* on structure members");
  GLfloat back[3] = {0};
  glGetUniformfv(program, power, back);
  CHECK(back[0] == 2.5f, "light.power reads back 2.5 (%f)", back[0]);
  glGetUniformfv(program, color, back);
  CHECK(back[0] == 0.25f && back[1] == 0.5f && back[2] == 0.75f, "light.color reads back (%f %f %f)", back[0], back[1],
        back[2]);
  glGetUniformfv(program, weight1, back);
  CHECK(back[0] == -4.0f, "items[1].weight reads back -4 (%f)", back[0]);
  glGetUniformfv(program, uv1, back);
  CHECK(back[0] == 3.0f && back[1] == 4.0f, "items[0].uv[1] reads the second vec2 of glUniform2fv (%f %f)", back[0],
        back[1]);
  glUseProgram(program);
  glUniform1i(power, 1);
  glUseProgram(0);
  CHECK_GL_ERROR(GL_INVALID_OPERATION, "GL 4.6 §7.6.1: glUniform1i on a float member is INVALID_OPERATION");

  /* Atomic counters: GL_UNIFORM entries of type UNSIGNED_INT_ATOMIC_COUNTER in GL_ATOMIC_COUNTER_BUFFER buffers. */
  CHECK(prop(program, GL_UNIFORM, "vertices", GL_TYPE) == GL_UNSIGNED_INT_ATOMIC_COUNTER, "vertices: TYPE");
  CHECK(prop(program, GL_UNIFORM, "vertices", GL_OFFSET) == 4, "vertices: the declared offset 4");
  CHECK(prop(program, GL_UNIFORM, "extra[0]", GL_OFFSET) == 8,
        "extra: the next offset after vertices in binding 1 (GLSL 4.60 §4.4.6.2), got %d",
        prop(program, GL_UNIFORM, "extra[0]", GL_OFFSET));
  CHECK(prop(program, GL_UNIFORM, "extra[0]", GL_ARRAY_SIZE) == 2, "extra: ARRAY_SIZE 2");
  CHECK(prop(program, GL_UNIFORM, "extra[0]", GL_ARRAY_STRIDE) == 4, "extra: ARRAY_STRIDE 4");
  CHECK(prop(program, GL_UNIFORM, "fragments", GL_OFFSET) == 0, "fragments: offset 0");
  CHECK(prop(program, GL_UNIFORM, "vertices", GL_LOCATION) == -1, "an atomic counter has no location");
  CHECK(glGetUniformLocation(program, "vertices") == -1, "glGetUniformLocation of an atomic counter is -1");
  CHECK(prop(program, GL_UNIFORM, "fragments", GL_REFERENCED_BY_FRAGMENT_SHADER) == 1 &&
            prop(program, GL_UNIFORM, "fragments", GL_REFERENCED_BY_VERTEX_SHADER) == 0,
        "fragments: referenced by the fragment shader only");

  GLint buffers = 0;
  glGetProgramInterfaceiv(program, GL_ATOMIC_COUNTER_BUFFER, GL_ACTIVE_RESOURCES, &buffers);
  CHECK(buffers == 2, "two active atomic counter buffer binding points (1 and 3), got %d", buffers);
  GLint active = 0;
  glGetProgramiv(program, GL_ACTIVE_ATOMIC_COUNTER_BUFFERS, &active);
  CHECK(active == 2, "GL_ACTIVE_ATOMIC_COUNTER_BUFFERS is 2, got %d", active);
  const GLint b1 = buffer_of_binding(program, 1), b3 = buffer_of_binding(program, 3);
  CHECK(b1 >= 0 && b3 >= 0, "buffers of bindings 1 and 3 (%d, %d)", b1, b3);
  if (b1 >= 0 && b3 >= 0) {
    /* Table 7.2 BUFFER_DATA_SIZE: "the minimum size ... to back the active variables"; binding 1 ends after
     * extra[1] at 8 + 2 * 4. */
    CHECK(buffer_prop(program, b1, GL_BUFFER_DATA_SIZE) >= 16, "binding 1: BUFFER_DATA_SIZE holds offsets 4..15");
    CHECK(buffer_prop(program, b1, GL_NUM_ACTIVE_VARIABLES) == 2, "binding 1: two active counters");
    CHECK(buffer_prop(program, b1, GL_REFERENCED_BY_VERTEX_SHADER) == 1, "binding 1: referenced by vertex");
    CHECK(buffer_prop(program, b1, GL_REFERENCED_BY_FRAGMENT_SHADER) == 0, "binding 1: not by fragment");
    CHECK(buffer_prop(program, b3, GL_REFERENCED_BY_FRAGMENT_SHADER) == 1, "binding 3: referenced by fragment");
    CHECK(buffer_prop(program, b3, GL_REFERENCED_BY_COMPUTE_SHADER) == 0, "binding 3: no compute shader");
    CHECK(buffer_prop(program, b3, GL_NUM_ACTIVE_VARIABLES) == 1, "binding 3: one active counter");
    GLint counter = -1;
    GLenum active_variables = GL_ACTIVE_VARIABLES;
    glGetProgramResourceiv(program, GL_ATOMIC_COUNTER_BUFFER, (GLuint)b3, 1, &active_variables, 1, NULL, &counter);
    CHECK(counter == (GLint)glGetProgramResourceIndex(program, GL_UNIFORM, "fragments"),
          "binding 3: ACTIVE_VARIABLES is the GL_UNIFORM index of fragments");
    CHECK(prop(program, GL_UNIFORM, "fragments", GL_ATOMIC_COUNTER_BUFFER_INDEX) == b3,
          "fragments: ATOMIC_COUNTER_BUFFER_INDEX is binding 3's buffer");

    /* The older query (GL 4.6 §7.6.2): glGetActiveAtomicCounterBufferiv. */
    GLint value = -1;
    glGetActiveAtomicCounterBufferiv(program, (GLuint)b1, GL_ATOMIC_COUNTER_BUFFER_BINDING, &value);
    CHECK(value == 1, "glGetActiveAtomicCounterBufferiv: BINDING 1, got %d", value);
    glGetActiveAtomicCounterBufferiv(program, (GLuint)b1, GL_ATOMIC_COUNTER_BUFFER_ACTIVE_ATOMIC_COUNTERS, &value);
    CHECK(value == 2, "glGetActiveAtomicCounterBufferiv: 2 ACTIVE_ATOMIC_COUNTERS, got %d", value);
    glGetActiveAtomicCounterBufferiv(program, (GLuint)b1, GL_ATOMIC_COUNTER_BUFFER_REFERENCED_BY_VERTEX_SHADER, &value);
    CHECK(value == GL_TRUE, "glGetActiveAtomicCounterBufferiv: binding 1 REFERENCED_BY_VERTEX_SHADER");
    glGetActiveAtomicCounterBufferiv(program, (GLuint)b1, GL_ATOMIC_COUNTER_BUFFER_REFERENCED_BY_FRAGMENT_SHADER,
                                     &value);
    CHECK(value == GL_FALSE, "glGetActiveAtomicCounterBufferiv: binding 1 not REFERENCED_BY_FRAGMENT_SHADER");
  }
  CHECK_GL_ERROR(GL_NO_ERROR, "the atomic counter queries");

  GLint uniforms = 0;
  glGetProgramiv(program, GL_ACTIVE_UNIFORMS, &uniforms);
  /* light.color, light.power, vertices, extra[0], fragments, and the active members of items[]: at least
   * items[0].weight, items[1].weight, items[0].uv[0], items[1].uv[0]. */
  CHECK(uniforms >= 9, "at least 9 active uniforms, got %d", uniforms);
  CHECK_GL_ERROR(GL_NO_ERROR, "the whole run");
  return conformance_result();
}
