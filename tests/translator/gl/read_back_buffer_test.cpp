// Buffers the application says it reads back (a *_READ usage hint, or glBufferStorage's GL_MAP_READ_BIT): small
// ones live where the host can read them in place (docs/gl_shim.md, "Buffer placement"), which must change nothing
// GL promises about the order of updates, dispatches and reads. On lavapipe every store is host-visible anyway; on a
// discrete GPU (the H100 in scripts/gpu-check.sh) the small stores are device-local memory the host maps, the larger
// ones device-local with staging copies, so these tests cover both placements there.
#include <cstring>
#include <string>
#include <vector>

#include "translator/gl/gl_fixture.hpp"

using namespace bismuth::gltest;

namespace {

// v[i] += i + 1 for each invocation i.
const char* kAddIndex = R"(#version 450
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer B { uint v[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  v[i] += i + 1u;
}
)";

const char* kCounter = R"(#version 450
layout(local_size_x = 32) in;
layout(binding = 0, offset = 0) uniform atomic_uint hits;
void main() { atomicCounterIncrement(hits); }
)";

struct Store {
  const char* what;
  GLenum usage;  // 0: glBufferStorage(GL_MAP_READ_BIT | GL_DYNAMIC_STORAGE_BIT)
};

constexpr Store kStores[] = {{"GL_STREAM_READ", GL_STREAM_READ},
                             {"GL_STATIC_READ", GL_STATIC_READ},
                             {"GL_DYNAMIC_READ", GL_DYNAMIC_READ},
                             {"glBufferStorage(GL_MAP_READ_BIT)", 0}};

GLuint make_store(const Store& store, GLsizeiptr bytes) {
  GLuint b = 0;
  glGenBuffers(1, &b);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, b);
  if (store.usage != 0) {
    glBufferData(GL_SHADER_STORAGE_BUFFER, bytes, nullptr, store.usage);
  } else {
    glBufferStorage(GL_SHADER_STORAGE_BUFFER, bytes, nullptr, GL_MAP_READ_BIT | GL_DYNAMIC_STORAGE_BIT);
  }
  return b;
}

}  // namespace

TEST_CASE("Read-back buffers order sub-data updates, dispatches, maps and copies as GL requires") {
  GlContext gl;
  const GLuint program = make_program(kAddIndex);
  glUseProgram(program);
  // 16 words; 64 words = 256 bytes, the largest store read in place by default; 65 words, one past it.
  for (const uint32_t words : {16u, 64u, 65u}) {
    for (const Store& store : kStores) {
      INFO(store.what << ", " << words << " words");
      const auto bytes = static_cast<GLsizeiptr>(words * 4);
      const GLuint b = make_store(store, bytes);
      glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, b);
      const GLuint copy = make_buffer(bytes);
      for (uint32_t round = 1; round <= 3; ++round) {
        const std::vector<uint32_t> start(words, round * 100);
        glBindBuffer(GL_SHADER_STORAGE_BUFFER, b);
        glBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, bytes, start.data());
        glDispatchCompute(words, 1, 1);
        // GL 4.6 §7.13.2: "BUFFER_UPDATE_BARRIER_BIT: Reads or writes via BufferSubData, CopyBufferSubData, or
        // GetBufferSubData, or to buffer object memory mapped by MapBuffer or MapBufferRange will reflect data
        // written by shaders prior to the barrier." The update below lands after the dispatch, not under it.
        glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
        const uint32_t marker = 0xC0FFEEu + round;
        glBufferSubData(GL_SHADER_STORAGE_BUFFER, 4, 4, &marker);

        std::vector<uint32_t> expected(words);
        for (uint32_t i = 0; i < words; ++i) expected[i] = round * 100 + i + 1;
        expected[1] = marker;

        const auto* mapped =
            static_cast<const uint32_t*>(glMapBufferRange(GL_SHADER_STORAGE_BUFFER, 0, bytes, GL_MAP_READ_BIT));
        REQUIRE(mapped != nullptr);
        const std::vector<uint32_t> seen(mapped, mapped + words);
        REQUIRE(glUnmapBuffer(GL_SHADER_STORAGE_BUFFER) == GL_TRUE);
        CHECK(seen == expected);
        CHECK(read_words(b, words) == expected);

        glBindBuffer(GL_COPY_READ_BUFFER, b);
        glBindBuffer(GL_COPY_WRITE_BUFFER, copy);
        glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 0, 0, bytes);
        CHECK(read_words(copy, words) == expected);
      }
      glDeleteBuffers(1, &copy);
      glDeleteBuffers(1, &b);
      REQUIRE_GL_ERROR(GL_NO_ERROR);
    }
  }
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("An atomic counter hinted GL_DYNAMIC_READ is reset, counted and read back again and again") {
  // The program loop's pattern (examples/program_loop.c): glBufferSubData resets the counter, a dispatch counts,
  // glMapBufferRange(GL_MAP_READ_BIT) reads it after glMemoryBarrier.
  GlContext gl;
  glUseProgram(make_program(kCounter));
  GLuint counter = 0;
  glGenBuffers(1, &counter);
  glBindBuffer(GL_ATOMIC_COUNTER_BUFFER, counter);
  glBufferData(GL_ATOMIC_COUNTER_BUFFER, 4, nullptr, GL_DYNAMIC_READ);
  glBindBufferBase(GL_ATOMIC_COUNTER_BUFFER, 0, counter);
  for (uint32_t groups = 1; groups <= 40; ++groups) {
    const uint32_t zero = 0;
    glBufferSubData(GL_ATOMIC_COUNTER_BUFFER, 0, 4, &zero);
    glDispatchCompute(groups, 1, 1);
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    const auto* value = static_cast<const uint32_t*>(glMapBufferRange(GL_ATOMIC_COUNTER_BUFFER, 0, 4, GL_MAP_READ_BIT));
    REQUIRE(value != nullptr);
    const uint32_t got = *value;
    REQUIRE(glUnmapBuffer(GL_ATOMIC_COUNTER_BUFFER) == GL_TRUE);
    if (got != groups * 32) FAIL("after " << groups << " groups the counter is " << got);
  }
  glDeleteBuffers(1, &counter);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}
