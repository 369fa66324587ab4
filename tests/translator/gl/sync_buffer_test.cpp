// Fences, timer queries, buffer objects and their error rules.
#include <chrono>
#include <cstring>

#include "translator/gl/gl_fixture.hpp"

using namespace bismuth::gltest;

namespace {
const char* kBusy = R"(#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { uint v[]; };
void main() {
  uint x = gl_GlobalInvocationID.x;
  for (int i = 0; i < 64; ++i) x = x * 1664525u + 1013904223u;
  v[gl_GlobalInvocationID.x] = x;
}
)";
}  // namespace

TEST_CASE("A fence signals after the commands before it, and glClientWaitSync waits for it") {
  GlContext gl;
  std::vector<uint32_t> zeros(64 * 64, 0);
  const GLuint b = make_buffer(static_cast<GLsizeiptr>(zeros.size() * 4), zeros.data());
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, b);
  glUseProgram(make_program(kBusy));
  glDispatchCompute(64, 1, 1);
  GLsync sync = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
  REQUIRE(sync != nullptr);
  CHECK(glIsSync(sync) == GL_TRUE);
  const GLenum result = glClientWaitSync(sync, GL_SYNC_FLUSH_COMMANDS_BIT, 10'000'000'000ull);
  CHECK((result == GL_CONDITION_SATISFIED || result == GL_ALREADY_SIGNALED));
  GLint status = 0, type = 0;
  glGetSynciv(sync, GL_SYNC_STATUS, 1, nullptr, &status);
  glGetSynciv(sync, GL_OBJECT_TYPE, 1, nullptr, &type);
  CHECK(status == GL_SIGNALED);
  CHECK(type == GL_SYNC_FENCE);
  CHECK(glClientWaitSync(sync, 0, 0) == GL_ALREADY_SIGNALED);
  glWaitSync(sync, 0, GL_TIMEOUT_IGNORED);
  glDeleteSync(sync);
  CHECK(glIsSync(sync) == GL_FALSE);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("glFenceSync with a bad condition is INVALID_ENUM, with flags INVALID_VALUE") {
  // GL 4.6 §4.1: "An INVALID_ENUM error is generated if condition is not SYNC_GPU_COMMANDS_COMPLETE. An
  // INVALID_VALUE error is generated if flags is not zero."
  GlContext gl;
  CHECK(glFenceSync(0x1234, 0) == nullptr);
  REQUIRE_GL_ERROR(GL_INVALID_ENUM);
  CHECK(glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 1) == nullptr);
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
}

TEST_CASE("Sync calls on something that is not a sync object are INVALID_VALUE") {
  // GL 4.6 §4.1.1: "An INVALID_VALUE error is generated if sync is not the name of a sync object."
  GlContext gl;
  int not_a_sync = 0;
  GLsync bogus = reinterpret_cast<GLsync>(&not_a_sync);
  CHECK(glClientWaitSync(bogus, 0, 0) == GL_WAIT_FAILED);
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  glWaitSync(bogus, 0, GL_TIMEOUT_IGNORED);
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  glDeleteSync(bogus);
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  glDeleteSync(nullptr);  // zero is silently ignored
  REQUIRE_GL_ERROR(GL_NO_ERROR);
}

TEST_CASE("glClientWaitSync with unknown flags and glWaitSync with a timeout are INVALID_VALUE") {
  GlContext gl;
  GLsync sync = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
  glClientWaitSync(sync, 0x10, 0);
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  glWaitSync(sync, 0, 5);
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  glDeleteSync(sync);
}

TEST_CASE("A GL_TIME_ELAPSED query measures the dispatches inside it") {
  GlContext gl;
  std::vector<uint32_t> zeros(64 * 256, 0);
  const GLuint b = make_buffer(static_cast<GLsizeiptr>(zeros.size() * 4), zeros.data());
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, b);
  glUseProgram(make_program(kBusy));
  GLuint query = 0;
  glGenQueries(1, &query);
  glBeginQuery(GL_TIME_ELAPSED, query);
  glDispatchCompute(256, 1, 1);
  glDispatchCompute(256, 1, 1);
  glEndQuery(GL_TIME_ELAPSED);
  GLuint64 ns = 0;
  glGetQueryObjectui64v(query, GL_QUERY_RESULT, &ns);
  GLint available = 0;
  glGetQueryObjectiv(query, GL_QUERY_RESULT_AVAILABLE, &available);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  CHECK(available == GL_TRUE);
  CHECK(ns > 0);
  CHECK(ns < 60'000'000'000ull);
  glDeleteQueries(1, &query);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("A GL_TIME_ELAPSED query is the GPU time between Begin and End, not only dispatches") {
  GlContext gl;
  // Work without any dispatch: copies and clears of a large buffer. The time between Begin and End includes them.
  constexpr GLsizeiptr kBytes = 64 << 20;
  GLuint buffers[2] = {};
  glGenBuffers(2, buffers);
  for (GLuint b : buffers) {
    glBindBuffer(GL_COPY_WRITE_BUFFER, b);
    glBufferData(GL_COPY_WRITE_BUFFER, kBytes, nullptr, GL_DYNAMIC_COPY);
  }
  glFinish();
  GLuint query = 0;
  glGenQueries(1, &query);
  const auto host_begin = std::chrono::steady_clock::now();
  glBeginQuery(GL_TIME_ELAPSED, query);
  const uint32_t seven = 7;
  glBindBuffer(GL_COPY_WRITE_BUFFER, buffers[0]);
  glClearBufferData(GL_COPY_WRITE_BUFFER, GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, &seven);
  for (int i = 0; i < 4; ++i) glCopyNamedBufferSubData(buffers[i % 2], buffers[1 - i % 2], 0, 0, kBytes);
  glEndQuery(GL_TIME_ELAPSED);
  GLint available = GL_TRUE;
  glGetQueryObjectiv(query, GL_QUERY_RESULT_AVAILABLE, &available);  // may or may not be done yet
  glFinish();
  const auto host_ns = static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - host_begin).count());
  glGetQueryObjectiv(query, GL_QUERY_RESULT_AVAILABLE, &available);
  CHECK(available == GL_TRUE);
  GLuint64 ns = 0;
  glGetQueryObjectui64v(query, GL_QUERY_RESULT, &ns);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  CHECK(ns > 0);  // the copies took GPU time although nothing was dispatched
  CHECK(ns <= host_ns + 1'000'000);  // and no more than the host saw pass around them (1 ms clock slack)
  // An empty query is (nearly) nothing.
  glBeginQuery(GL_TIME_ELAPSED, query);
  glEndQuery(GL_TIME_ELAPSED);
  GLuint64 empty = ~0ull;
  glGetQueryObjectui64v(query, GL_QUERY_RESULT, &empty);
  CHECK(empty < ns);
  glDeleteQueries(1, &query);
  glDeleteBuffers(2, buffers);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("Persistent coherent mappings are coherent both ways without unmapping") {
  GlContext gl;
  const GLuint program = make_program(R"(#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { uint v[]; };
uniform uint add;
void main() { v[gl_GlobalInvocationID.x] = v[gl_GlobalInvocationID.x] * 2u + add; }
)");
  glUseProgram(program);
  constexpr GLsizeiptr kWords = 256;
  GLuint b = 0;
  glCreateBuffers(1, &b);
  const GLbitfield flags = GL_MAP_READ_BIT | GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT;
  glNamedBufferStorage(b, kWords * 4, nullptr, flags);
  auto* p = static_cast<uint32_t*>(glMapNamedBufferRange(b, 0, kWords * 4, flags));
  REQUIRE(p != nullptr);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, b);
  const GLint add = glGetUniformLocation(program, "add");
  for (uint32_t round = 0; round < 3; ++round) {
    INFO("round " << round);
    // CPU writes reach the next dispatch without unmap or flush.
    for (uint32_t i = 0; i < kWords; ++i) p[i] = i + round * 1000;
    glUniform1ui(add, round);
    glDispatchCompute(kWords / 64, 1, 1);
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    // GPU writes are visible through the same pointer once the commands completed.
    if (round == 1) {
      GLsync sync = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
      const GLenum waited = glClientWaitSync(sync, GL_SYNC_FLUSH_COMMANDS_BIT, 10'000'000'000ull);
      CHECK((waited == GL_ALREADY_SIGNALED || waited == GL_CONDITION_SATISFIED));
      glDeleteSync(sync);
    } else {
      glFinish();
    }
    size_t wrong = 0;
    for (uint32_t i = 0; i < kWords; ++i) wrong += p[i] != (i + round * 1000) * 2 + round;
    CHECK(wrong == 0);
  }
  // The mapping is still the buffer: glGetBufferSubData sees the same data.
  CHECK(read_words(b, 4) == std::vector<uint32_t>{4002, 4004, 4006, 4008});
  GLint mapped = 0;
  glGetNamedBufferParameteriv(b, GL_BUFFER_MAPPED, &mapped);
  CHECK(mapped == GL_TRUE);
  CHECK(glUnmapNamedBuffer(b) == GL_TRUE);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("Persistent non-coherent mappings with explicit flushes and client-mapped barriers") {
  GlContext gl;
  const GLuint program = make_program(R"(#version 450
layout(local_size_x = 16) in;
layout(std430, binding = 0) buffer B { uint v[]; };
void main() { v[gl_GlobalInvocationID.x] += 1u; }
)");
  glUseProgram(program);
  GLuint b = 0;
  glCreateBuffers(1, &b);
  const GLbitfield flags = GL_MAP_READ_BIT | GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT;
  glNamedBufferStorage(b, 64, nullptr, flags);
  auto* p = static_cast<uint32_t*>(glMapNamedBufferRange(b, 0, 64, flags | GL_MAP_FLUSH_EXPLICIT_BIT));
  REQUIRE(p != nullptr);
  for (uint32_t i = 0; i < 16; ++i) p[i] = 10 * i;
  glFlushMappedNamedBufferRange(b, 0, 64);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, b);
  glDispatchCompute(1, 1, 1);
  glMemoryBarrier(GL_CLIENT_MAPPED_BUFFER_BARRIER_BIT);
  glFinish();
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  for (uint32_t i = 0; i < 16; ++i) CHECK(p[i] == 10 * i + 1);
  // Errors of the explicit flush still apply.
  glFlushMappedNamedBufferRange(b, 60, 8);
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  CHECK(glUnmapNamedBuffer(b) == GL_TRUE);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("Timer query errors follow GL 4.6 §4.2") {
  GlContext gl;
  GLuint q[2] = {};
  glGenQueries(2, q);
  glBeginQuery(GL_TIME_ELAPSED, 0);  // "INVALID_OPERATION if id is zero"
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glBeginQuery(GL_TIME_ELAPSED, q[0]);
  glBeginQuery(GL_TIME_ELAPSED, q[1]);  // "... if the query object for target is already active"
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glEndQuery(GL_TIME_ELAPSED);
  glEndQuery(GL_TIME_ELAPSED);  // "... if the query object for target is not active"
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glQueryCounter(q[1], GL_TIME_ELAPSED);  // "INVALID_ENUM if target is not TIMESTAMP"
  REQUIRE_GL_ERROR(GL_INVALID_ENUM);
  glQueryCounter(q[0], GL_TIMESTAMP);  // q[0] is a TIME_ELAPSED query
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
}

TEST_CASE("glQueryCounter(GL_TIMESTAMP) records increasing times") {
  GlContext gl;
  GLuint q[2] = {};
  glGenQueries(2, q);
  glQueryCounter(q[0], GL_TIMESTAMP);
  glFinish();
  glQueryCounter(q[1], GL_TIMESTAMP);
  GLuint64 t0 = 0, t1 = 0;
  glGetQueryObjectui64v(q[0], GL_QUERY_RESULT, &t0);
  glGetQueryObjectui64v(q[1], GL_QUERY_RESULT, &t1);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  CHECK(t0 > 0);
  CHECK(t1 >= t0);
}

TEST_CASE("Buffer data, sub-data, copies, clears and maps move the bytes they name") {
  GlContext gl;
  const uint32_t data[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  GLuint a = 0, b = 0;
  glCreateBuffers(1, &a);
  glNamedBufferStorage(a, sizeof data, data, GL_DYNAMIC_STORAGE_BIT | GL_MAP_READ_BIT | GL_MAP_WRITE_BIT);
  glGenBuffers(1, &b);
  glBindBuffer(GL_COPY_WRITE_BUFFER, b);
  glBufferData(GL_COPY_WRITE_BUFFER, sizeof data, nullptr, GL_STATIC_DRAW);
  glBindBuffer(GL_COPY_READ_BUFFER, a);
  glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 8, 0, 16);
  const uint32_t nine = 9;
  glClearBufferSubData(GL_COPY_WRITE_BUFFER, GL_R32UI, 16, 16, GL_RED_INTEGER, GL_UNSIGNED_INT, &nine);
  CHECK(read_words(b, 8) == std::vector<uint32_t>{3, 4, 5, 6, 9, 9, 9, 9});
  const uint32_t patch = 77;
  glNamedBufferSubData(a, 4, 4, &patch);
  auto* mapped = static_cast<uint32_t*>(glMapNamedBufferRange(a, 0, 16, GL_MAP_READ_BIT | GL_MAP_WRITE_BIT));
  REQUIRE(mapped != nullptr);
  CHECK(mapped[1] == 77u);
  mapped[2] = 123;
  CHECK(glUnmapNamedBuffer(a) == GL_TRUE);
  CHECK(read_words(a, 4) == std::vector<uint32_t>{1, 77, 123, 4});
  GLint size = 0, immutable = 0;
  glGetNamedBufferParameteriv(a, GL_BUFFER_SIZE, &size);
  glGetNamedBufferParameteriv(a, GL_BUFFER_IMMUTABLE_STORAGE, &immutable);
  CHECK(size == 32);
  CHECK(immutable == GL_TRUE);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("Buffer calls with no buffer bound are INVALID_OPERATION, with a bad target INVALID_ENUM") {
  // GL 4.6 §6.2: "An INVALID_ENUM error is generated by BufferData if target is not one of the targets listed in
  // table 6.1. An INVALID_OPERATION error is generated by BufferData if zero is bound to target."
  GlContext gl;
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
  glBufferData(GL_SHADER_STORAGE_BUFFER, 16, nullptr, GL_STATIC_DRAW);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glBufferData(0x1234, 16, nullptr, GL_STATIC_DRAW);
  REQUIRE_GL_ERROR(GL_INVALID_ENUM);
  glNamedBufferData(424242, 16, nullptr, GL_STATIC_DRAW);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
}

TEST_CASE("glBindBuffer with a name glGenBuffers never returned is INVALID_VALUE") {
  GlContext gl;
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, 31337);
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
}

TEST_CASE("A negative size, or a range outside the buffer, is INVALID_VALUE") {
  // GL 4.6 §6.2: "An INVALID_VALUE error is generated if size is negative"; §6.2.1 (BufferSubData): "... if
  // offset or size is negative, or if offset + size is greater than the value of BUFFER_SIZE".
  GlContext gl;
  const GLuint b = make_buffer(16);
  glBufferData(GL_SHADER_STORAGE_BUFFER, -1, nullptr, GL_STATIC_DRAW);
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  uint32_t word = 0;
  glBufferSubData(GL_SHADER_STORAGE_BUFFER, 12, 8, &word);
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, -4, 4, &word);
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  (void)b;
}

TEST_CASE("glBufferData on immutable storage is INVALID_OPERATION") {
  // GL 4.6 §6.2: "An INVALID_OPERATION error is generated if the BUFFER_IMMUTABLE_STORAGE flag of the buffer
  // object is TRUE."
  GlContext gl;
  GLuint b = 0;
  glCreateBuffers(1, &b);
  glNamedBufferStorage(b, 16, nullptr, 0);
  glNamedBufferData(b, 32, nullptr, GL_STATIC_DRAW);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  uint32_t word = 1;
  glNamedBufferSubData(b, 0, 4, &word);  // no DYNAMIC_STORAGE_BIT
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
}

TEST_CASE("Mapping errors follow GL 4.6 §6.3") {
  GlContext gl;
  const GLuint b = make_buffer(16);
  glMapBufferRange(GL_SHADER_STORAGE_BUFFER, 0, 0, GL_MAP_READ_BIT);  // "length is zero"
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glMapBufferRange(GL_SHADER_STORAGE_BUFFER, 0, 4, 0);  // "neither MAP_READ_BIT nor MAP_WRITE_BIT"
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glMapBufferRange(GL_SHADER_STORAGE_BUFFER, 8, 16, GL_MAP_READ_BIT);  // "offset + length > BUFFER_SIZE"
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  glMapBufferRange(GL_SHADER_STORAGE_BUFFER, 0, 4, GL_MAP_READ_BIT | GL_MAP_INVALIDATE_RANGE_BIT);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  REQUIRE(glMapBufferRange(GL_SHADER_STORAGE_BUFFER, 0, 4, GL_MAP_READ_BIT) != nullptr);
  glMapBufferRange(GL_SHADER_STORAGE_BUFFER, 0, 4, GL_MAP_READ_BIT);  // "already in a mapped state"
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  uint32_t word = 0;
  glBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, 4, &word);  // mapped without MAP_PERSISTENT_BIT
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glUnmapBuffer(GL_SHADER_STORAGE_BUFFER);
  glUnmapBuffer(GL_SHADER_STORAGE_BUFFER);  // "INVALID_OPERATION ... if the buffer is not in a mapped state"
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  (void)b;
}

TEST_CASE("glBindBufferRange with a bad index, size or offset alignment is INVALID_VALUE") {
  // GL 4.6 §6.1.1: "An INVALID_VALUE error is generated if index is greater than or equal to the number of
  // target-specific indexed binding points", "... if size is less than or equal to zero", "... if offset is not a
  // multiple of the implementation-dependent required alignment".
  GlContext gl;
  const GLuint b = make_buffer(1024);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1000, b);
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  glBindBufferRange(GL_SHADER_STORAGE_BUFFER, 0, b, 0, 0);
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  GLint alignment = 0;
  glGetIntegerv(GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT, &alignment);
  if (alignment > 1) {
    glBindBufferRange(GL_SHADER_STORAGE_BUFFER, 0, b, 1, 4);
    REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  }
  glBindBufferBase(GL_ARRAY_BUFFER, 0, b);
  REQUIRE_GL_ERROR(GL_INVALID_ENUM);
  glBindBufferRange(GL_SHADER_STORAGE_BUFFER, 3, b, 0, 64);
  GLint64 start = -1, size = -1;
  GLint bound = 0;
  glGetInteger64i_v(GL_SHADER_STORAGE_BUFFER_START, 3, &start);
  glGetInteger64i_v(GL_SHADER_STORAGE_BUFFER_SIZE, 3, &size);
  glGetIntegeri_v(GL_SHADER_STORAGE_BUFFER_BINDING, 3, &bound);
  CHECK(start == 0);
  CHECK(size == 64);
  CHECK(bound == static_cast<GLint>(b));
  REQUIRE_GL_ERROR(GL_NO_ERROR);
}

TEST_CASE("glMemoryBarrier with bits that are not barrier bits is INVALID_VALUE") {
  // GL 4.6 §7.13.2: "An INVALID_VALUE error is generated if barriers is not the special value ALL_BARRIER_BITS,
  // and has any bits set other than those described above."
  GlContext gl;
  glMemoryBarrier(GL_ALL_BARRIER_BITS);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  glMemoryBarrier(0x80000000u);
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  glMemoryBarrierByRegion(GL_COMMAND_BARRIER_BIT);
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
}
