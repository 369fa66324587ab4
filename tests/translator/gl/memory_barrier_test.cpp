// glMemoryBarrier and the order of dispatches and buffer commands (GL 4.6 §7.13.2, "Shader Memory Access
// Synchronization"). The shim records no barrier between dispatches unless glMemoryBarrier asks (docs/gl_shim.md,
// "Memory barriers"), so each dependent dispatch here is preceded by the barrier GL requires; on a GPU that runs
// dispatches concurrently a missing or too narrow barrier makes these results wrong (lavapipe runs them in order).
#include <cstring>

#include "translator/gl/gl_fixture.hpp"

using namespace bismuth::gltest;

namespace {

// dst[i] = src[i] + add, for i < 256 (four groups of 64).
const char* kAddOne = R"(#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer Src { uint src[]; };
layout(std430, binding = 1) writeonly buffer Dst { uint dst[]; };
uniform uint add;
void main() { dst[gl_GlobalInvocationID.x] = src[gl_GlobalInvocationID.x] + add; }
)";

// out[i] = the uniform block's words summed with i, read through GL_UNIFORM_BUFFER binding 0.
const char* kFromUniform = R"(#version 450
layout(local_size_x = 64) in;
layout(std140, binding = 0) uniform Params { uvec4 p; };
layout(std430, binding = 1) writeonly buffer Dst { uint dst[]; };
void main() { dst[gl_GlobalInvocationID.x] = p.x + p.y + p.z + p.w + gl_GlobalInvocationID.x; }
)";

constexpr uint32_t kWords = 256;

GLuint zero_buffer() {
  const std::vector<uint32_t> zeros(kWords, 0);
  return make_buffer(kWords * 4, zeros.data());
}

void bind(GLuint src, GLuint dst) {
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, src);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, dst);
}

}  // namespace

TEST_CASE("A dispatch sees an earlier dispatch's storage writes after glMemoryBarrier(SHADER_STORAGE)", "[barrier]") {
  // GL 4.6 §7.13.2, SHADER_STORAGE_BARRIER_BIT: "Memory accesses using shader buffer variables issued after the
  // barrier will reflect data written by shaders prior to the barrier. Additionally, assignments to and atomic
  // operations performed on shader buffer variables after the barrier will not execute until all memory accesses
  // ... initiated prior to the barrier complete." A ping-pong chain x → y → x … adding one per step: one step that
  // read stale data, or wrote before the previous one finished reading, changes the sum.
  GlContext gl;
  const GLuint program = make_program(kAddOne);
  glUseProgram(program);
  glUniform1ui(glGetUniformLocation(program, "add"), 1);
  const GLuint x = zero_buffer(), y = zero_buffer();
  const GLbitfield bits = GENERATE(GLbitfield(GL_SHADER_STORAGE_BARRIER_BIT), GLbitfield(GL_ALL_BARRIER_BITS));
  const bool by_region = GENERATE(false, true);
  constexpr uint32_t steps = 64;
  for (uint32_t k = 0; k < steps; ++k) {
    if (k % 2 == 0)
      bind(x, y);
    else
      bind(y, x);
    glDispatchCompute(kWords / 64, 1, 1);
    if (by_region)
      glMemoryBarrierByRegion(bits);
    else
      glMemoryBarrier(bits);
  }
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  for (uint32_t w : read_words(steps % 2 == 0 ? x : y, kWords)) REQUIRE(w == steps);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("A uniform block reads an earlier dispatch's writes after glMemoryBarrier(UNIFORM)", "[barrier]") {
  // GL 4.6 §7.13.2, UNIFORM_BARRIER_BIT: "Shader uniforms sourced from buffer objects after the barrier will
  // reflect data written by shaders prior to the barrier."
  GlContext gl;
  const GLuint writer = make_program(kAddOne);
  const GLuint reader = make_program(kFromUniform);
  const std::vector<uint32_t> ones(kWords, 1);
  const GLuint src = make_buffer(kWords * 4, ones.data());
  const GLuint params = zero_buffer(), out = zero_buffer();
  glUseProgram(writer);
  glUniform1ui(glGetUniformLocation(writer, "add"), 9);
  bind(src, params);  // params = 10, 10, 10, 10, ...
  glDispatchCompute(kWords / 64, 1, 1);
  glMemoryBarrier(GL_UNIFORM_BARRIER_BIT);
  glUseProgram(reader);
  glBindBufferBase(GL_UNIFORM_BUFFER, 0, params);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, out);
  glDispatchCompute(kWords / 64, 1, 1);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  const auto got = read_words(out, kWords);
  for (uint32_t i = 0; i < kWords; ++i) REQUIRE(got[i] == 40 + i);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("Reads of a buffer after a dispatch see its writes, with BUFFER_UPDATE or after glFinish", "[barrier]") {
  // GL 4.6 §7.13.2, BUFFER_UPDATE_BARRIER_BIT: "Reads or writes via BufferSubData, CopyBufferSubData,
  // ClearBufferSubData, or GetBufferSubData, or to buffer object memory mapped by MapBuffer or MapBufferRange after
  // the barrier will reflect data written by shaders prior to the barrier." Without the bit GL does not promise
  // it; Bismuth orders every buffer command after the dispatches before it whatever the bits (docs/gl_shim.md), so
  // a read after glFinish — which waits until "the effects of all previously called GL commands are complete"
  // (§4.1.2) — never returns stale data. Both are checked: the spec's form and Bismuth's stronger contract.
  GlContext gl;
  const GLuint program = make_program(kAddOne);
  glUseProgram(program);
  const std::vector<uint32_t> ones(kWords, 1);
  const GLuint src = make_buffer(kWords * 4, ones.data());
  const GLuint dst = zero_buffer();
  bind(src, dst);
  const GLint add = glGetUniformLocation(program, "add");

  glUniform1ui(add, 1);
  glDispatchCompute(kWords / 64, 1, 1);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  for (uint32_t w : read_words(dst, kWords)) REQUIRE(w == 2);  // glGetBufferSubData

  glUniform1ui(add, 2);
  glDispatchCompute(kWords / 64, 1, 1);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  glBindBuffer(GL_COPY_READ_BUFFER, dst);
  const auto* mapped =
      static_cast<const uint32_t*>(glMapBufferRange(GL_COPY_READ_BUFFER, 0, kWords * 4, GL_MAP_READ_BIT));
  REQUIRE(mapped != nullptr);
  for (uint32_t i = 0; i < kWords; ++i) REQUIRE(mapped[i] == 3);
  glUnmapBuffer(GL_COPY_READ_BUFFER);

  // No barrier bit, but glFinish: Bismuth's contract.
  glUniform1ui(add, 3);
  glDispatchCompute(kWords / 64, 1, 1);
  glFinish();
  mapped = static_cast<const uint32_t*>(glMapBufferRange(GL_COPY_READ_BUFFER, 0, kWords * 4, GL_MAP_READ_BIT));
  REQUIRE(mapped != nullptr);
  for (uint32_t i = 0; i < kWords; ++i) REQUIRE(mapped[i] == 4);
  glUnmapBuffer(GL_COPY_READ_BUFFER);
  glUniform1ui(add, 4);
  glDispatchCompute(kWords / 64, 1, 1);
  glFinish();
  for (uint32_t w : read_words(dst, kWords)) REQUIRE(w == 5);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("Buffer updates and copies keep their place between dispatches", "[barrier]") {
  // GL 4.6 §2.1: commands are processed in the order received, so a dispatch reads a buffer as it was when the
  // dispatch was issued: glBufferSubData after it must not change what it read, and a dispatch after it sees the
  // new data; glCopyBufferSubData after a dispatch (with BUFFER_UPDATE_BARRIER_BIT, §7.13.2) copies what it wrote.
  GlContext gl;
  const GLuint program = make_program(kAddOne);
  glUseProgram(program);
  glUniform1ui(glGetUniformLocation(program, "add"), 100);
  const std::vector<uint32_t> ones(kWords, 1), sevens(kWords, 7);
  const GLuint src = make_buffer(kWords * 4, ones.data());
  const GLuint first = zero_buffer(), second = zero_buffer(), copy = zero_buffer();
  bind(src, first);
  glDispatchCompute(kWords / 64, 1, 1);  // first = 101
  glBindBuffer(GL_COPY_WRITE_BUFFER, src);
  glBufferSubData(GL_COPY_WRITE_BUFFER, 0, kWords * 4, sevens.data());
  bind(src, second);
  glDispatchCompute(kWords / 64, 1, 1);  // second = 107
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  glBindBuffer(GL_COPY_READ_BUFFER, second);
  glBindBuffer(GL_COPY_WRITE_BUFFER, copy);
  glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 0, 0, kWords * 4);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  for (uint32_t w : read_words(first, kWords)) REQUIRE(w == 101);
  for (uint32_t w : read_words(second, kWords)) REQUIRE(w == 107);
  for (uint32_t w : read_words(copy, kWords)) REQUIRE(w == 107);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}
