// Programs generated from one template share one run-time variant (docs/gl_shim.md, "Variable group sizes"; issue 17
// item 3): their integer literals and fixed sizes become push constants. Whatever pipeline runs a dispatch — the
// shared variant at a larger size, the shared variant at the exact size, or the program's own module once it has
// been dispatched often enough — every program must compute with its own literals and size, as GL 4.6 §19 defines
// the built-ins (gl_WorkGroupSize is the declared size; gl_LocalInvocationIndex = x + y·X + z·X·Y).
#include <algorithm>
#include <array>
#include <string>

#include "translator/gl/gl_fixture.hpp"

using namespace bismuth::gltest;

namespace {

struct Setup {
  GlContext gl;
  GLuint buffer = 0;
  Setup() {
    std::vector<uint32_t> zeros(8192, 0);
    buffer = make_buffer(static_cast<GLsizeiptr>(zeros.size() * 4), zeros.data());
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, buffer);
  }
  void clear() {
    std::vector<uint32_t> zeros(8192, 0);
    glBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, static_cast<GLsizeiptr>(zeros.size() * 4), zeros.data());
  }
  std::vector<uint32_t> words(size_t n) { return read_words(buffer, n); }
};

// One template, as a generator writes it: the size, a multiplier, a signed bias and a shift baked into the source.
// `variable` programs take their size at dispatch instead.
std::string templated(bool variable, std::array<uint32_t, 3> size, uint32_t scale, int32_t bias, uint32_t shift) {
  const std::string layout =
      variable ? "#extension GL_ARB_compute_variable_group_size : require\nlayout(local_size_variable) in;\n"
               : "layout(local_size_x = " + std::to_string(size[0]) + ", local_size_y = " + std::to_string(size[1]) +
                     ", local_size_z = " + std::to_string(size[2]) + ") in;\n";
  const std::string group = variable ? "gl_LocalGroupSizeARB" : "gl_WorkGroupSize";
  return "#version 450\n" + layout + R"(layout(std430, binding = 0) buffer B { uint v[]; };
void main() {
  uvec3 n = gl_NumWorkGroups * )" +
         group + R"(;
  uint g = gl_GlobalInvocationID.x + n.x * (gl_GlobalInvocationID.y + n.y * gl_GlobalInvocationID.z);
  int signed_value = int(gl_LocalInvocationIndex) + )" +
         std::to_string(bias) + R"(;
  v[2u * g] = gl_LocalInvocationIndex * )" +
         std::to_string(scale) + "u + (" + group + ".x << " + std::to_string(shift) + R"(u);
  v[2u * g + 1u] = uint(signed_value / 3) ^ uint(max(signed_value, )" +
         std::to_string(bias / 2) + R"());
}
)";
}

// What the template computes, from the GLSL definitions, for 2x1x1 groups.
std::vector<uint32_t> expected(std::array<uint32_t, 3> size, uint32_t scale, int32_t bias, uint32_t shift) {
  const uint32_t total = size[0] * size[1] * size[2];
  std::vector<uint32_t> out(4 * total);
  for (uint32_t group = 0; group < 2; ++group) {
    for (uint32_t z = 0; z < size[2]; ++z) {
      for (uint32_t y = 0; y < size[1]; ++y) {
        for (uint32_t x = 0; x < size[0]; ++x) {
          const uint32_t g = group * size[0] + x + 2 * size[0] * (y + size[1] * z);
          const uint32_t index = x + size[0] * (y + size[1] * z);
          // GLSL's int addition wraps (GLSL 4.60 section 4.1.3: overflow is not an error, the low 32 bits are kept).
          const int32_t signed_value = int32_t(index + uint32_t(bias));
          out[2 * g] = index * scale + (size[0] << shift);
          out[2 * g + 1] = uint32_t(signed_value / 3) ^ uint32_t(std::max(signed_value, bias / 2));
        }
      }
    }
  }
  return out;
}

struct Case {
  std::array<uint32_t, 3> size;
  uint32_t scale;
  int32_t bias;
  uint32_t shift;
};

const Case kCases[] = {{{8, 8, 1}, 3, 1, 0},      {{4, 4, 4}, 7, -5, 2},   {{7, 3, 1}, 1, 0, 1},
                       {{5, 1, 3}, 2, 2, 3},      {{1, 1, 1}, 9, -100, 4}, {{16, 4, 1}, 4294967295u, 2147483647, 31},
                       {{3, 5, 7}, 65536, -7, 5}, {{64, 1, 1}, 0, 3, 2}};

}  // namespace

TEST_CASE("Fixed-size programs of one template each compute with their own size and literals", "[gl][shared_variant]") {
  Setup s;
  for (const Case& c : kCases) {
    INFO("size " << c.size[0] << "x" << c.size[1] << "x" << c.size[2] << ", scale " << c.scale << ", bias " << c.bias);
    const GLuint program = make_program(templated(false, c.size, c.scale, c.bias, c.shift).c_str());
    glUseProgram(program);
    glDispatchCompute(2, 1, 1);
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    const auto want = expected(c.size, c.scale, c.bias, c.shift);
    CHECK(s.words(want.size()) == want);
    glDeleteProgram(program);
  }
  REQUIRE_NO_GL_VALIDATION_MESSAGES(s.gl);
}

TEST_CASE("Variable-size programs of one template each compute with their own literals at every size",
          "[gl][shared_variant]") {
  Setup s;
  std::vector<GLuint> programs;
  for (const Case& c : kCases) programs.push_back(make_program(templated(true, {}, c.scale, c.bias, c.shift).c_str()));
  for (size_t round = 0; round < 2; ++round) {
    for (size_t i = 0; i < programs.size(); ++i) {
      const Case& c = kCases[i];
      const Case& shape = kCases[(i + round) % programs.size()];  // each program at other sizes too
      INFO("program " << i << ", size " << shape.size[0] << "x" << shape.size[1] << "x" << shape.size[2]);
      glUseProgram(programs[i]);
      glDispatchComputeGroupSizeARB(2, 1, 1, shape.size[0], shape.size[1], shape.size[2]);
      REQUIRE_GL_ERROR(GL_NO_ERROR);
      const auto want = expected(shape.size, c.scale, c.bias, c.shift);
      CHECK(s.words(want.size()) == want);
    }
  }
  REQUIRE_NO_GL_VALIDATION_MESSAGES(s.gl);
}

TEST_CASE("A program dispatched again and again keeps its results while it moves to its own pipeline",
          "[gl][shared_variant]") {
  // Past 8 dispatches at one size the program's own pipeline is compiled in the background and replaces the shared
  // variant between two dispatches (docs/backend.md, "Runtime group size"): the results may not change.
  Setup s;
  const Case fixed = kCases[1];
  const Case variable = kCases[5];
  const GLuint a = make_program(templated(false, fixed.size, fixed.scale, fixed.bias, fixed.shift).c_str());
  const GLuint b = make_program(templated(true, {}, variable.scale, variable.bias, variable.shift).c_str());
  const auto want_a = expected(fixed.size, fixed.scale, fixed.bias, fixed.shift);
  const auto want_b = expected(variable.size, variable.scale, variable.bias, variable.shift);
  for (int i = 0; i < 40; ++i) {
    INFO("dispatch " << i);
    s.clear();
    glUseProgram(a);
    glDispatchCompute(2, 1, 1);
    CHECK(s.words(want_a.size()) == want_a);
    s.clear();
    glUseProgram(b);
    glDispatchComputeGroupSizeARB(2, 1, 1, variable.size[0], variable.size[1], variable.size[2]);
    CHECK(s.words(want_b.size()) == want_b);
    if (i == 20) glFinish();
  }
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(s.gl);
}
