/* Program interface queries (issue 15, point 8): GL 4.6 §7.3.1 and Table 7.2, and the older glGetActiveUniform*
 * family GL 4.6 defines through them. The expected offsets and strides follow the std140 / std430 rules of GL 4.6
 * §7.6.2.2, worked out by hand in the comments.
 *
 * Naming (§7.3.1.1): members of a block with an instance name are named "BlockName.member"; "an active variable
 * declared as an array of basic types" gets "[0]" appended; for a top-level array of structures in a shader storage
 * block only element 0 is enumerated ("B.s[0].f"), its size and stride being TOP_LEVEL_ARRAY_SIZE/STRIDE ("If the
 * top-level block member is not declared as an array of an aggregate type, the value one is written"; stride
 * zero). OFFSET, ARRAY_STRIDE and MATRIX_STRIDE are -1 "for active variables not backed by a buffer object"
 * (default-block uniforms); BLOCK_INDEX is -1 for variables outside blocks; LOCATION is -1 "for uniforms in uniform
 * blocks". */
#include "conformance.h"

static const char* kShader =
    "#version 430\n"
    "layout(local_size_x = 1) in;\n"
    "struct S { float f; vec3 v[2]; };\n"
    /* std430: a@0; S {f@0, v@16 stride 16} size 48, s@16 stride 48; m@160 (columns 16); rm@208 (rows vec2: 8);
       tail@232 stride 4 */
    "layout(std430, binding = 1) buffer B { uint a; S s[3]; mat3 m; layout(row_major) mat2x3 rm; uint tail[]; } bb;\n"
    /* std140: u@0, ua@16 stride 16, um@64 matrix stride 16; size 128 */
    "layout(std140, binding = 2) uniform U { vec4 u; float ua[3]; mat4 um; };\n"
    "uniform float loose[2];\n"
    "layout(binding = 0, offset = 4) uniform atomic_uint ac;\n"
    "void main() {\n"
    "  bb.a = uint(u.x + ua[1] + um[0][0] + loose[1] + bb.s[2].v[1].x + bb.m[0][0] + bb.rm[0][0]) + "
    "uint(bb.tail.length());\n"
    "  atomicCounterIncrement(ac);\n"
    "}\n";

static GLint prop(GLuint program, GLenum interface, GLuint index, GLenum property) {
  GLint value = -12345;
  glGetProgramResourceiv(program, interface, index, 1, &property, 1, NULL, &value);
  return value;
}

static void check_variable(GLuint program, GLenum interface, const char* name, GLenum type, GLint array_size,
                           GLint offset, GLint array_stride, GLint matrix_stride, GLint row_major) {
  GLuint i = glGetProgramResourceIndex(program, interface, name);
  CHECK(i != GL_INVALID_INDEX, "%s is an active resource", name);
  if (i == GL_INVALID_INDEX) return;
  char got_name[64] = {0};
  GLsizei length = 0;
  glGetProgramResourceName(program, interface, i, sizeof got_name, &length, got_name);
  CHECK(strcmp(got_name, name) == 0 && length == (GLsizei)strlen(name), "name of %s: got \"%s\"", name, got_name);
  CHECK(prop(program, interface, i, GL_NAME_LENGTH) == (GLint)strlen(name) + 1, "%s: NAME_LENGTH", name);
  CHECK(prop(program, interface, i, GL_TYPE) == (GLint)type, "%s: TYPE 0x%x", name,
        prop(program, interface, i, GL_TYPE));
  CHECK(prop(program, interface, i, GL_ARRAY_SIZE) == array_size, "%s: ARRAY_SIZE %d", name,
        prop(program, interface, i, GL_ARRAY_SIZE));
  CHECK(prop(program, interface, i, GL_OFFSET) == offset, "%s: OFFSET %d, expected %d", name,
        prop(program, interface, i, GL_OFFSET), offset);
  CHECK(prop(program, interface, i, GL_ARRAY_STRIDE) == array_stride, "%s: ARRAY_STRIDE %d, expected %d", name,
        prop(program, interface, i, GL_ARRAY_STRIDE), array_stride);
  CHECK(prop(program, interface, i, GL_MATRIX_STRIDE) == matrix_stride, "%s: MATRIX_STRIDE %d, expected %d", name,
        prop(program, interface, i, GL_MATRIX_STRIDE), matrix_stride);
  CHECK(prop(program, interface, i, GL_IS_ROW_MAJOR) == row_major, "%s: IS_ROW_MAJOR", name);
  CHECK(prop(program, interface, i, GL_REFERENCED_BY_COMPUTE_SHADER) == 1, "%s: REFERENCED_BY_COMPUTE_SHADER", name);
}

static void check_top_level(GLuint program, const char* name, GLint size, GLint stride) {
  GLuint i = glGetProgramResourceIndex(program, GL_BUFFER_VARIABLE, name);
  if (i == GL_INVALID_INDEX) return;
  CHECK(prop(program, GL_BUFFER_VARIABLE, i, GL_TOP_LEVEL_ARRAY_SIZE) == size,
        "%s: TOP_LEVEL_ARRAY_SIZE %d, expected %d", name, prop(program, GL_BUFFER_VARIABLE, i, GL_TOP_LEVEL_ARRAY_SIZE),
        size);
  CHECK(prop(program, GL_BUFFER_VARIABLE, i, GL_TOP_LEVEL_ARRAY_STRIDE) == stride,
        "%s: TOP_LEVEL_ARRAY_STRIDE %d, expected %d", name,
        prop(program, GL_BUFFER_VARIABLE, i, GL_TOP_LEVEL_ARRAY_STRIDE), stride);
}

int main(void) {
  conformance_make_context(EGL_OPENGL_API, 4, 3);
  GLuint program = conformance_compute_program(kShader);
  CHECK(program != 0, "the program links");
  if (!program) return conformance_result();

  /* GL_BUFFER_VARIABLE */
  GLint n = 0;
  glGetProgramInterfaceiv(program, GL_BUFFER_VARIABLE, GL_ACTIVE_RESOURCES, &n);
  CHECK(n == 6, "6 buffer variables (B.a, B.s[0].f, B.s[0].v[0], B.m, B.rm, B.tail[0]), got %d", n);
  glGetProgramInterfaceiv(program, GL_BUFFER_VARIABLE, GL_MAX_NAME_LENGTH, &n);
  CHECK(n == (GLint)sizeof "B.s[0].v[0]", "MAX_NAME_LENGTH of buffer variables %d", n);
  check_variable(program, GL_BUFFER_VARIABLE, "B.a", GL_UNSIGNED_INT, 1, 0, 0, 0, 0);
  check_variable(program, GL_BUFFER_VARIABLE, "B.s[0].f", GL_FLOAT, 1, 16, 0, 0, 0);
  check_variable(program, GL_BUFFER_VARIABLE, "B.s[0].v[0]", GL_FLOAT_VEC3, 2, 32, 16, 0, 0);
  check_variable(program, GL_BUFFER_VARIABLE, "B.m", GL_FLOAT_MAT3, 1, 160, 0, 16, 0);
  check_variable(program, GL_BUFFER_VARIABLE, "B.rm", GL_FLOAT_MAT2x3, 1, 208, 0, 8, 1);
  check_variable(program, GL_BUFFER_VARIABLE, "B.tail[0]", GL_UNSIGNED_INT, 0, 232, 4, 0, 0);
  check_top_level(program, "B.s[0].f", 3, 48);
  check_top_level(program, "B.s[0].v[0]", 3, 48);
  check_top_level(program, "B.a", 1, 0);
  check_top_level(program, "B.tail[0]", 1, 0);
  CHECK(glGetProgramResourceIndex(program, GL_BUFFER_VARIABLE, "B.tail") ==
            glGetProgramResourceIndex(program, GL_BUFFER_VARIABLE, "B.tail[0]"),
        "\"B.tail\" names \"B.tail[0]\"");
  CHECK(glGetProgramResourceIndex(program, GL_BUFFER_VARIABLE, "B.s[1].f") == GL_INVALID_INDEX,
        "only element 0 of a top-level array of structures is a resource");
  CHECK(glGetProgramResourceIndex(program, GL_BUFFER_VARIABLE, "bb.a") == GL_INVALID_INDEX,
        "members are named by the block name, not the instance name");

  /* GL_SHADER_STORAGE_BLOCK */
  GLuint b = glGetProgramResourceIndex(program, GL_SHADER_STORAGE_BLOCK, "B");
  CHECK(b != GL_INVALID_INDEX, "block B is active");
  if (b != GL_INVALID_INDEX) {
    CHECK(prop(program, GL_SHADER_STORAGE_BLOCK, b, GL_BUFFER_BINDING) == 1, "B: BUFFER_BINDING");
    /* "If the final member of an active shader storage block is array with no declared size, the minimum buffer
     * size is computed assuming the array was declared as an array with one element": 232 + 4. */
    CHECK(prop(program, GL_SHADER_STORAGE_BLOCK, b, GL_BUFFER_DATA_SIZE) == 236, "B: BUFFER_DATA_SIZE %d",
          prop(program, GL_SHADER_STORAGE_BLOCK, b, GL_BUFFER_DATA_SIZE));
    CHECK(prop(program, GL_SHADER_STORAGE_BLOCK, b, GL_NUM_ACTIVE_VARIABLES) == 6, "B: NUM_ACTIVE_VARIABLES");
    GLenum p = GL_ACTIVE_VARIABLES;
    GLint vars[8] = {0}, len = 0;
    glGetProgramResourceiv(program, GL_SHADER_STORAGE_BLOCK, b, 1, &p, 8, &len, vars);
    CHECK(len == 6, "B: ACTIVE_VARIABLES has 6 entries, got %d", len);
    for (GLint k = 0; k < len; ++k) {
      CHECK(prop(program, GL_BUFFER_VARIABLE, (GLuint)vars[k], GL_BLOCK_INDEX) == (GLint)b,
            "B's active variable %d has BLOCK_INDEX B", vars[k]);
    }
  }
  glGetProgramInterfaceiv(program, GL_SHADER_STORAGE_BLOCK, GL_MAX_NUM_ACTIVE_VARIABLES, &n);
  CHECK(n == 6, "MAX_NUM_ACTIVE_VARIABLES of storage blocks %d", n);

  /* GL_UNIFORM: block members, default-block uniforms, atomic counters */
  check_variable(program, GL_UNIFORM, "u", GL_FLOAT_VEC4, 1, 0, 0, 0, 0);
  check_variable(program, GL_UNIFORM, "ua[0]", GL_FLOAT, 3, 16, 16, 0, 0);
  check_variable(program, GL_UNIFORM, "um", GL_FLOAT_MAT4, 1, 64, 0, 16, 0);
  check_variable(program, GL_UNIFORM, "loose[0]", GL_FLOAT, 2, -1, -1, -1, 0);
  GLuint u = glGetProgramResourceIndex(program, GL_UNIFORM, "u");
  GLuint loose = glGetProgramResourceIndex(program, GL_UNIFORM, "loose");
  GLuint ublock = glGetUniformBlockIndex(program, "U");
  CHECK(ublock != GL_INVALID_INDEX, "uniform block U is active");
  if (u != GL_INVALID_INDEX) {
    CHECK(prop(program, GL_UNIFORM, u, GL_BLOCK_INDEX) == (GLint)ublock, "u: BLOCK_INDEX is U's index");
    CHECK(prop(program, GL_UNIFORM, u, GL_LOCATION) == -1, "u: LOCATION -1 (in a uniform block)");
  }
  if (loose != GL_INVALID_INDEX) {
    CHECK(prop(program, GL_UNIFORM, loose, GL_BLOCK_INDEX) == -1, "loose: BLOCK_INDEX -1");
    CHECK(prop(program, GL_UNIFORM, loose, GL_LOCATION) == glGetUniformLocation(program, "loose"),
          "loose: LOCATION is glGetUniformLocation's");
    CHECK(glGetProgramResourceLocation(program, GL_UNIFORM, "loose[1]") == glGetUniformLocation(program, "loose") + 1,
          "loose[1] is the next location");
  }
  GLuint ac = glGetProgramResourceIndex(program, GL_UNIFORM, "ac");
  CHECK(ac != GL_INVALID_INDEX, "the atomic counter is a GL_UNIFORM resource");
  if (ac != GL_INVALID_INDEX) {
    CHECK(prop(program, GL_UNIFORM, ac, GL_TYPE) == GL_UNSIGNED_INT_ATOMIC_COUNTER, "ac: TYPE");
    CHECK(prop(program, GL_UNIFORM, ac, GL_OFFSET) == 4, "ac: OFFSET 4");
    CHECK(prop(program, GL_UNIFORM, ac, GL_ATOMIC_COUNTER_BUFFER_INDEX) == 0, "ac: ATOMIC_COUNTER_BUFFER_INDEX");
  }
  GLuint none = 0;
  glGetProgramResourceiv(program, GL_UNIFORM, u, 1, (GLenum[]){GL_TOP_LEVEL_ARRAY_SIZE}, 1, NULL, (GLint*)&none);
  CHECK_GL_ERROR(GL_INVALID_OPERATION, "TOP_LEVEL_ARRAY_SIZE is not a property of GL_UNIFORM");

  /* The older family, defined by the same lists (GL 4.6 §7.3.1.1, §7.6). */
  GLint active = 0;
  glGetProgramiv(program, GL_ACTIVE_UNIFORMS, &active);
  glGetProgramInterfaceiv(program, GL_UNIFORM, GL_ACTIVE_RESOURCES, &n);
  CHECK(active == n && active == 5, "ACTIVE_UNIFORMS (%d) == GL_UNIFORM's ACTIVE_RESOURCES (%d) == 5", active, n);
  if (u != GL_INVALID_INDEX) {
    char name[32];
    GLint size = 0;
    GLenum type = 0;
    glGetActiveUniform(program, u, sizeof name, NULL, &size, &type, name);
    CHECK(strcmp(name, "u") == 0 && size == 1 && type == GL_FLOAT_VEC4, "glGetActiveUniform(u)");
    const GLuint indices[2] = {u, loose};
    GLint offsets[2] = {0, 0}, blocks[2] = {0, 0};
    glGetActiveUniformsiv(program, 2, indices, GL_UNIFORM_OFFSET, offsets);
    glGetActiveUniformsiv(program, 2, indices, GL_UNIFORM_BLOCK_INDEX, blocks);
    CHECK(offsets[0] == 0 && offsets[1] == -1, "GL_UNIFORM_OFFSET: %d %d", offsets[0], offsets[1]);
    CHECK(blocks[0] == (GLint)ublock && blocks[1] == -1, "GL_UNIFORM_BLOCK_INDEX: %d %d", blocks[0], blocks[1]);
    const GLchar* names[3] = {"ua", "um", "nothing"};
    GLuint found[3] = {0, 0, 0};
    glGetUniformIndices(program, 3, names, found);
    CHECK(found[0] == glGetProgramResourceIndex(program, GL_UNIFORM, "ua[0]") && found[2] == GL_INVALID_INDEX,
          "glGetUniformIndices");
    const GLuint bad[1] = {(GLuint)active};
    glGetActiveUniformsiv(program, 1, bad, GL_UNIFORM_TYPE, offsets);
    CHECK_GL_ERROR(GL_INVALID_VALUE, "glGetActiveUniformsiv with an index >= ACTIVE_UNIFORMS");
    glGetActiveUniformsiv(program, 1, indices, GL_UNIFORM_BLOCK_BINDING, offsets);
    CHECK_GL_ERROR(GL_INVALID_ENUM, "glGetActiveUniformsiv with a block pname");
  }
  if (ublock != GL_INVALID_INDEX) {
    GLint v = 0;
    glGetActiveUniformBlockiv(program, ublock, GL_UNIFORM_BLOCK_BINDING, &v);
    CHECK(v == 2, "U: GL_UNIFORM_BLOCK_BINDING %d", v);
    glGetActiveUniformBlockiv(program, ublock, GL_UNIFORM_BLOCK_DATA_SIZE, &v);
    CHECK(v == 128, "U: GL_UNIFORM_BLOCK_DATA_SIZE %d", v);
    glGetActiveUniformBlockiv(program, ublock, GL_UNIFORM_BLOCK_ACTIVE_UNIFORMS, &v);
    CHECK(v == 3, "U: GL_UNIFORM_BLOCK_ACTIVE_UNIFORMS %d", v);
    glGetActiveUniformBlockiv(program, ublock, GL_UNIFORM_BLOCK_REFERENCED_BY_COMPUTE_SHADER, &v);
    CHECK(v == 1, "U: referenced by the compute shader");
    char name[8] = {0};
    glGetActiveUniformBlockName(program, ublock, sizeof name, NULL, name);
    CHECK(strcmp(name, "U") == 0, "glGetActiveUniformBlockName: \"%s\"", name);
    glGetActiveUniformBlockiv(program, ublock + 1, GL_UNIFORM_BLOCK_BINDING, &v);
    CHECK_GL_ERROR(GL_INVALID_VALUE, "glGetActiveUniformBlockiv with an inactive index");
  }
  GLint acb = 0;
  glGetActiveAtomicCounterBufferiv(program, 0, GL_ATOMIC_COUNTER_BUFFER_DATA_SIZE, &acb);
  CHECK(acb == 8, "atomic counter buffer 0: DATA_SIZE %d (offset 4 + 4)", acb);
  glGetActiveAtomicCounterBufferiv(program, 0, GL_ATOMIC_COUNTER_BUFFER_ACTIVE_ATOMIC_COUNTERS, &acb);
  CHECK(acb == 1, "atomic counter buffer 0: one counter");
  glGetActiveAtomicCounterBufferiv(program, 1, GL_ATOMIC_COUNTER_BUFFER_BINDING, &acb);
  CHECK_GL_ERROR(GL_INVALID_VALUE, "glGetActiveAtomicCounterBufferiv with an inactive index");

  /* A compute program has no inputs or outputs; GetProgramResourceLocationIndex takes only PROGRAM_OUTPUT. */
  glGetProgramInterfaceiv(program, GL_PROGRAM_INPUT, GL_ACTIVE_RESOURCES, &n);
  CHECK(n == 0, "no program inputs");
  CHECK(glGetProgramResourceLocationIndex(program, GL_PROGRAM_OUTPUT, "x") == -1, "no output named x");
  glGetProgramResourceLocationIndex(program, GL_UNIFORM, "loose");
  CHECK_GL_ERROR(GL_INVALID_ENUM, "GetProgramResourceLocationIndex with GL_UNIFORM");
  glGetProgramResourceLocation(program, GL_UNIFORM_BLOCK, "U");
  CHECK_GL_ERROR(GL_INVALID_ENUM, "GetProgramResourceLocation with GL_UNIFORM_BLOCK");
  CHECK_GL_ERROR(GL_NO_ERROR, "the whole run");
  return conformance_result();
}
