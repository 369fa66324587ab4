// Matrix uniforms (glUniformMatrix*, glProgramUniformMatrix*: every shape, float and double, transpose, arrays)
// and GL_ARB_gpu_shader_int64 uniforms, read back by a shader and through glGetUniform*, with the GL errors of
// GL 4.6 §7.6.1.
#include <cstring>
#include <string>
#include <vector>

#include "translator/gl/gl_fixture.hpp"

using namespace bismuth::gltest;

namespace {

struct Shape {
  const char* glsl;
  int columns, rows;
};
constexpr Shape kShapes[] = {{"mat2", 2, 2},   {"mat3", 3, 3},   {"mat4", 4, 4},   {"mat2x3", 2, 3}, {"mat3x2", 3, 2},
                             {"mat2x4", 2, 4}, {"mat4x2", 4, 2}, {"mat3x4", 3, 4}, {"mat4x3", 4, 3}};


// Sets a matrix uniform of `shape` through the matching entry point (program != 0: glProgramUniformMatrix*).
template <class T>
void set_matrix(const Shape& s, GLuint program, GLint location, GLsizei count, GLboolean transpose, const T* v) {
  const std::string name = s.glsl + 3;  // "2", "2x3", ...
#define SHAPE_CASE(SHAPE)                                                                                  \
  if (name == #SHAPE) {                                                                                    \
    if constexpr (std::is_same_v<T, GLfloat>) {                                                            \
      if (program) glProgramUniformMatrix##SHAPE##fv(program, location, count, transpose, v);             \
      else glUniformMatrix##SHAPE##fv(location, count, transpose, v);                                      \
    } else {                                                                                               \
      if (program) glProgramUniformMatrix##SHAPE##dv(program, location, count, transpose, v);             \
      else glUniformMatrix##SHAPE##dv(location, count, transpose, v);                                      \
    }                                                                                                      \
    return;                                                                                                \
  }
  SHAPE_CASE(2) SHAPE_CASE(3) SHAPE_CASE(4) SHAPE_CASE(2x3) SHAPE_CASE(3x2) SHAPE_CASE(2x4) SHAPE_CASE(4x2)
  SHAPE_CASE(3x4) SHAPE_CASE(4x3)
#undef SHAPE_CASE
  FAIL("shape " << name);
}

}  // namespace

TEST_CASE("Float matrix uniforms of every shape reach the shader column by column", "[uniform]") {
  GlContext gl;
  // Each shape once, plus an array of two of the same shape; the shader writes every component in column order.
  for (const Shape& s : kShapes) {
    for (bool transpose : {false, true}) {
      for (bool program_form : {false, true}) {
        INFO(s.glsl << " transpose " << transpose << " glProgramUniform " << program_form);
        const int n = s.columns * s.rows;
        std::string src = "#version 430\nlayout(local_size_x = 1) in;\nlayout(std430, binding = 0) buffer Out { float v[]; };\n"
                          "uniform float before;\nuniform " + std::string(s.glsl) + " m;\nuniform " + s.glsl +
                          " a[2];\nuniform float after;\nvoid main() {\n  int k = 0;\n  v[k++] = before;\n";
        for (const char* var : {"m", "a[0]", "a[1]"}) {
          src += "  for (int c = 0; c < " + std::to_string(s.columns) + "; ++c) for (int r = 0; r < " +
                 std::to_string(s.rows) + "; ++r) v[k++] = " + var + "[c][r];\n";
        }
        src += "  v[k++] = after;\n}\n";
        const GLuint program = make_program(src);
        glUseProgram(program);
        const GLint m = glGetUniformLocation(program, "m");
        const GLint a = glGetUniformLocation(program, "a");
        const GLint a1 = glGetUniformLocation(program, "a[1]");
        REQUIRE(m >= 0);
        REQUIRE(a >= 0);
        REQUIRE(a1 >= 0);
        glUniform1f(glGetUniformLocation(program, "before"), -1.0f);
        glUniform1f(glGetUniformLocation(program, "after"), -2.0f);
        // Column-major values 100 + k (m), 200 + k / 300 + k (a[0], a[1]); transposed input is row-major.
        auto values = [&](float base, int count) {
          std::vector<float> out(static_cast<size_t>(n * count));
          for (int e = 0; e < count; ++e) {
            for (int c = 0; c < s.columns; ++c) {
              for (int r = 0; r < s.rows; ++r) {
                const int k = c * s.rows + r;
                const int at = transpose ? r * s.columns + c : k;
                out[static_cast<size_t>(e * n + at)] = base + 100.0f * float(e) + float(k);
              }
            }
          }
          return out;
        };
        const auto mv = values(100, 1);
        const auto av = values(200, 2);
        set_matrix(s, program_form ? program : 0, m, 1, transpose ? GL_TRUE : GL_FALSE, mv.data());
        set_matrix(s, program_form ? program : 0, a, 2, transpose ? GL_TRUE : GL_FALSE, av.data());
        REQUIRE_GL_ERROR(GL_NO_ERROR);
        const size_t words = static_cast<size_t>(2 + 3 * n);
        std::vector<float> init(words, 0.0f);
        const GLuint out = make_buffer(static_cast<GLsizeiptr>(words * 4), init.data());
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, out);
        glDispatchCompute(1, 1, 1);
        const auto got = read_words(out, words);
        std::vector<float> f(words);
        std::memcpy(f.data(), got.data(), words * 4);
        CHECK(f[0] == -1.0f);
        CHECK(f[words - 1] == -2.0f);
        for (int k = 0; k < n; ++k) {
          CHECK(f[static_cast<size_t>(1 + k)] == 100.0f + float(k));
          CHECK(f[static_cast<size_t>(1 + n + k)] == 200.0f + float(k));
          CHECK(f[static_cast<size_t>(1 + 2 * n + k)] == 300.0f + float(k));
        }
        // glGetUniformfv: column-major, one element.
        std::vector<float> back(static_cast<size_t>(n), 0.0f);
        glGetUniformfv(program, a1, back.data());
        for (int k = 0; k < n; ++k) CHECK(back[static_cast<size_t>(k)] == 300.0f + float(k));
        REQUIRE_GL_ERROR(GL_NO_ERROR);
        glUseProgram(0);
        glDeleteProgram(program);
        glDeleteBuffers(1, &out);
      }
    }
  }
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("Double matrix uniforms reach the shader", "[uniform]") {
  GlContext gl;
  for (const Shape& s : kShapes) {
    INFO(s.glsl);
    const int n = s.columns * s.rows;
    std::string src = "#version 430\nlayout(local_size_x = 1) in;\nlayout(std430, binding = 0) buffer Out { double v[]; };\n"
                      "uniform d" + std::string(s.glsl) + " m;\nuniform double after;\nvoid main() {\n  int k = 0;\n";
    src += "  for (int c = 0; c < " + std::to_string(s.columns) + "; ++c) for (int r = 0; r < " +
           std::to_string(s.rows) + "; ++r) v[k++] = m[c][r];\n  v[k++] = after;\n}\n";
    const GLuint program = make_program(src);
    const GLint m = glGetUniformLocation(program, "m");
    REQUIRE(m >= 0);
    std::vector<double> rows_major(static_cast<size_t>(n));
    for (int c = 0; c < s.columns; ++c) {
      for (int r = 0; r < s.rows; ++r) rows_major[static_cast<size_t>(r * s.columns + c)] = 0.5 + c * s.rows + r;
    }
    set_matrix(s, program, m, 1, GL_TRUE, rows_major.data());
    glProgramUniform1d(program, glGetUniformLocation(program, "after"), 1e300);
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    glUseProgram(program);
    const size_t words = static_cast<size_t>(2 * (n + 1));
    const GLuint out = make_buffer(static_cast<GLsizeiptr>(words * 4));
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, out);
    glDispatchCompute(1, 1, 1);
    const auto got = read_words(out, words);
    std::vector<double> d(static_cast<size_t>(n + 1));
    std::memcpy(d.data(), got.data(), words * 4);
    for (int k = 0; k < n; ++k) CHECK(d[static_cast<size_t>(k)] == 0.5 + k);
    CHECK(d[static_cast<size_t>(n)] == 1e300);
    std::vector<double> back(static_cast<size_t>(n));
    glGetUniformdv(program, m, back.data());
    for (int k = 0; k < n; ++k) CHECK(back[static_cast<size_t>(k)] == 0.5 + k);
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    glUseProgram(0);
    glDeleteProgram(program);
    glDeleteBuffers(1, &out);
  }
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("glUniformMatrix errors follow GL 4.6 section 7.6.1", "[uniform]") {
  GlContext gl;
  const GLuint program = make_program(R"(#version 430
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer Out { float v[]; };
uniform mat3 m;
uniform vec4 x;
uniform mat2 arr[3];
void main() { v[0] = m[0][0] + x.x + arr[2][1][1]; }
)");
  const GLint mat = glGetUniformLocation(program, "m");
  const GLint x = glGetUniformLocation(program, "x");
  const GLint arr2 = glGetUniformLocation(program, "arr[2]");
  REQUIRE(mat >= 0);
  REQUIRE(x >= 0);
  REQUIRE(arr2 >= 0);
  const float v[36] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
  const double d[16] = {};
  // No current program.
  glUniformMatrix3fv(mat, 1, GL_FALSE, v);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glUseProgram(program);
  glUniformMatrix3fv(mat, -1, GL_FALSE, v);
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  glUniformMatrix4fv(mat, 1, GL_FALSE, v);  // wrong shape
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glUniformMatrix3x2fv(mat, 1, GL_FALSE, v);  // wrong shape, same column count
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glUniformMatrix3dv(mat, 1, GL_FALSE, d);  // wrong type
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glUniformMatrix2fv(x, 1, GL_FALSE, v);  // vec4 is not a mat2
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glUniform4fv(glGetUniformLocation(program, "arr[0]"), 1, v);  // mat2 is not a vec4
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glUniformMatrix3fv(mat, 2, GL_FALSE, v);  // count > 1 on a non-array
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glUniformMatrix3fv(12345, 1, GL_FALSE, v);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glUniformMatrix3fv(-1, 1, GL_FALSE, v);  // ignored
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  // Past the end of an array: only the elements that exist are written.
  glUniformMatrix2fv(arr2, 5, GL_FALSE, v);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  float back[4] = {};
  glGetUniformfv(program, arr2, back);
  CHECK(back[3] == 4.0f);
  glProgramUniformMatrix3fv(program + 1000, mat, 1, GL_FALSE, v);
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("64-bit integer uniforms work where GL_ARB_gpu_shader_int64 is advertised", "[uniform]") {
  GlContext gl;
  if (!has_extension("GL_ARB_gpu_shader_int64")) {
    WARN("GL_ARB_gpu_shader_int64 is not advertised on this device");
    return;
  }
  const GLuint program = make_program(R"(#version 450
#extension GL_ARB_gpu_shader_int64 : require
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer Out { uint64_t v[]; };
uniform int64_t a;
uniform i64vec3 b;
uniform uint64_t c;
uniform u64vec4 d[2];
uniform bool e;
void main() {
  v[0] = uint64_t(a); v[1] = uint64_t(b.x); v[2] = uint64_t(b.y); v[3] = uint64_t(b.z); v[4] = c;
  v[5] = d[0].x; v[6] = d[0].w; v[7] = d[1].y; v[8] = e ? 1ul : 0ul;
}
)");
  glUseProgram(program);
  glUniform1i64ARB(glGetUniformLocation(program, "a"), -5);
  const GLint64 b[3] = {INT64_MIN, 1ll << 40, -1};
  glUniform3i64vARB(glGetUniformLocation(program, "b"), 1, b);
  glProgramUniform1ui64ARB(program, glGetUniformLocation(program, "c"), 0xFEDCBA9876543210ull);
  const GLuint64 d[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  glUniform4ui64vARB(glGetUniformLocation(program, "d"), 2, d);
  glUniform1i64ARB(glGetUniformLocation(program, "e"), 7);  // bool takes i64 too
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  const GLuint out = make_buffer(9 * 8);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, out);
  glDispatchCompute(1, 1, 1);
  const auto words = read_words(out, 18);
  std::vector<uint64_t> got(9);
  std::memcpy(got.data(), words.data(), 72);
  CHECK(got == std::vector<uint64_t>{static_cast<uint64_t>(-5), static_cast<uint64_t>(INT64_MIN), 1ull << 40,
                                     ~0ull, 0xFEDCBA9876543210ull, 1, 4, 6, 1});
  GLint64 back[3] = {};
  glGetUniformi64vARB(program, glGetUniformLocation(program, "b"), back);
  CHECK(back[0] == INT64_MIN);
  GLuint64 c = 0;
  glGetnUniformui64vARB(program, glGetUniformLocation(program, "c"), 8, &c);
  CHECK(c == 0xFEDCBA9876543210ull);
  glGetnUniformui64vARB(program, glGetUniformLocation(program, "c"), 4, &c);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  // Type mismatches.
  glUniform1i(glGetUniformLocation(program, "a"), 1);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glUniform1ui64ARB(glGetUniformLocation(program, "a"), 1);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glUniform2i64ARB(glGetUniformLocation(program, "b"), 1, 2);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}
