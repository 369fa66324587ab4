/* arrays_of_arrays.c: GL_ARB_arrays_of_arrays in compute shaders below GLSL 4.30 (#version 150 .. 420 with
 * GL_ARB_compute_shader), through the GL API:
 *  - GL_EXTENSIONS lists it, and "#extension GL_ARB_arrays_of_arrays : require" then compiles at every such version
 *    (GLSL 4.60 §3.3); without the #extension an array of arrays is a compile error there (GLSL 4.20 §4.1.9: "Only
 *    one-dimensional arrays may be declared");
 *  - the arrays index as declared ("float a[2][3]" is "an array of size 2 of arrays of size 3"; a.length() is 2 and
 *    a[x].length() is 3, ARB_arrays_of_arrays "Modify Section 4.1.9");
 *  - the program interface names the buffer variable as GL 4.6 §7.3.1.1 says for a storage block member that is an
 *    array of an aggregate type (here, of arrays): "an entry will be generated only for the first array element"
 *    of the top-level array, "grid[0][0]", with TOP_LEVEL_ARRAY_SIZE 2, TOP_LEVEL_ARRAY_STRIDE the bytes of one
 *    uint[3] (12 in std430), ARRAY_SIZE 3 and ARRAY_STRIDE 4. */
#include "conformance.h"

static void check_version(int version) {
  char source[2048];
  const char* body =
      "layout(local_size_x = 3, local_size_y = 2) in;\n"
      "layout(std430, binding = 0) buffer Out { uint grid[2][3]; int lengths[2]; };\n"
      "shared uint cells[2][3];\n"
      "void main() {\n"
      "  uvec2 id = gl_LocalInvocationID.xy;\n"
      "  uint local_copy[2][3];\n"
      "  local_copy[id.y][id.x] = id.y * 10u + id.x;\n"
      "  cells[id.y][id.x] = local_copy[id.y][id.x] + 1u;\n"
      "  barrier();\n"
      "  grid[id.y][id.x] = cells[1u - id.y][2u - id.x];\n"
      "  if (id == uvec2(0u)) { lengths[0] = grid.length(); lengths[1] = grid[0].length(); }\n"
      "}\n";
  snprintf(source, sizeof source,
           "#version %d\n#extension GL_ARB_compute_shader : require\n"
           "#extension GL_ARB_shader_storage_buffer_object : require\n%s",
           version, body);
  CHECK(!conformance_compiles(source), "#version %d without GL_ARB_arrays_of_arrays: an array of arrays is an error",
        version);
  snprintf(source, sizeof source,
           "#version %d\n#extension GL_ARB_compute_shader : require\n"
           "#extension GL_ARB_shader_storage_buffer_object : require\n"
           "#extension GL_ARB_arrays_of_arrays : require\n%s",
           version, body);
  GLuint program = conformance_compute_program(source);
  CHECK(program != 0, "#version %d with GL_ARB_arrays_of_arrays compiles and links", version);
  if (program == 0) return;

  GLuint buffer = 0;
  glCreateBuffers(1, &buffer);
  glNamedBufferData(buffer, 32, NULL, GL_DYNAMIC_COPY);
  glClearNamedBufferData(buffer, GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, NULL);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, buffer);
  glUseProgram(program);
  glDispatchCompute(1, 1, 1);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  GLint out[8];
  glGetNamedBufferSubData(buffer, 0, sizeof out, out);
  const GLint expected[8] = {13, 12, 11, 3, 2, 1, 2, 3};
  CHECK(memcmp(out, expected, sizeof out) == 0,
        "#version %d: grid[y][x] = cells[1-y][2-x], lengths 2 and 3 (got %d %d %d %d %d %d, %d %d)", version, out[0],
        out[1], out[2], out[3], out[4], out[5], out[6], out[7]);

  const GLuint index = glGetProgramResourceIndex(program, GL_BUFFER_VARIABLE, "grid[0][0]");
  CHECK(index != GL_INVALID_INDEX, "#version %d: the buffer variable \"grid[0][0]\" is a resource", version);
  CHECK(glGetProgramResourceIndex(program, GL_BUFFER_VARIABLE, "grid[1][0]") == GL_INVALID_INDEX,
        "#version %d: only the first element of the top-level array has an entry", version);
  if (index != GL_INVALID_INDEX) {
    const GLenum props[4] = {GL_TOP_LEVEL_ARRAY_SIZE, GL_TOP_LEVEL_ARRAY_STRIDE, GL_ARRAY_SIZE, GL_ARRAY_STRIDE};
    GLint values[4] = {0, 0, 0, 0};
    glGetProgramResourceiv(program, GL_BUFFER_VARIABLE, index, 4, props, 4, NULL, values);
    CHECK(values[0] == 2 && values[1] == 12 && values[2] == 3 && values[3] == 4,
          "#version %d: TOP_LEVEL_ARRAY_SIZE 2, TOP_LEVEL_ARRAY_STRIDE 12, ARRAY_SIZE 3, ARRAY_STRIDE 4 (got %d %d %d "
          "%d)",
          version, values[0], values[1], values[2], values[3]);
  }
  glUseProgram(0);
  glDeleteBuffers(1, &buffer);
  glDeleteProgram(program);
}

int main(void) {
  setenv("BISMUTH_VALIDATION", "1", 0);
  conformance_make_context(EGL_OPENGL_API, 4, 6);
  CHECK(conformance_has_extension("GL_ARB_arrays_of_arrays"), "GL_EXTENSIONS lists GL_ARB_arrays_of_arrays");
  const int versions[] = {150, 330, 400, 410, 420};
  for (size_t i = 0; i < sizeof versions / sizeof versions[0]; ++i) check_version(versions[i]);
  CHECK_GL_ERROR(GL_NO_ERROR, "at the end");
  return conformance_result();
}
