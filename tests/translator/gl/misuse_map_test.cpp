// GL misuse (misuse_support.hpp): mapping — glMapBufferRange, glFlushMappedBufferRange, a write-only invalidating
// map — and glInvalidateBuffer*.
#include <cstring>
#include <string>
#include <vector>

#include "translator/gl/misuse_support.hpp"

using namespace bismuth::gltest;
using namespace bismuth::gltest::misuse;

TEST_CASE("Misuse: glMapBufferRange returns NULL for every bad range and access", "[misuse]") {
  // GL 4.6 §6.3: "An INVALID_VALUE error is generated if offset or length is negative, if offset + length is
  // greater than the value of BUFFER_SIZE for the buffer object, or if access has any bits set other than those
  // defined above." "An INVALID_OPERATION error is generated for any of the following conditions: length is
  // zero; the buffer object is already in a mapped state; neither MAP_READ_BIT nor MAP_WRITE_BIT is set;
  // MAP_READ_BIT is set and any of MAP_INVALIDATE_RANGE_BIT, MAP_INVALIDATE_BUFFER_BIT or
  // MAP_UNSYNCHRONIZED_BIT is set; MAP_FLUSH_EXPLICIT_BIT is set and MAP_WRITE_BIT is not set; any of
  // MAP_READ_BIT, MAP_WRITE_BIT, MAP_PERSISTENT_BIT, or MAP_COHERENT_BIT are set, but the same bit is not
  // included in the buffer's storage flags." On error MapBufferRange returns NULL.
  for (const GLbitfield storage : {GLbitfield(0), GLbitfield(GL_MAP_READ_BIT | GL_MAP_WRITE_BIT |
                                                             GL_MAP_PERSISTENT_BIT | GL_DYNAMIC_STORAGE_BIT)}) {
    INFO("storage flags " << storage << " (0: glBufferData)");
    PatternBuffer b(storage);
    // Persistent storage is mapped persistently: that mapping is the buffer's own memory, where a wrapped range
    // would have become a pointer far outside it.
    const GLbitfield rw = GL_MAP_READ_BIT | GL_MAP_WRITE_BIT | (storage != 0 ? GL_MAP_PERSISTENT_BIT : 0);
    const GLbitfield write_invalidate = GL_MAP_WRITE_BIT | GL_MAP_INVALIDATE_RANGE_BIT;
    struct Map {
      const char* what;
      GLintptr offset;
      GLsizeiptr length;
      GLbitfield access;
      GLenum expected;
    };
    std::vector<Map> maps = {
        {"offset -1", -1, 4, rw, GL_INVALID_VALUE},
        {"length -1", 0, -1, rw, GL_INVALID_VALUE},
        {"offset + length past the end", 48, 32, rw, GL_INVALID_VALUE},
        {"offset INT64_MAX-8, length 16 (the sum wraps)", kMax - 8, 16, rw, GL_INVALID_VALUE},
        {"offset 2^62, length 2^62 (the sum wraps)", kHalf, kHalf, rw, GL_INVALID_VALUE},
        {"offset 8, length INT64_MAX", 8, kMax, rw, GL_INVALID_VALUE},
        {"offset INT64_MAX, length INT64_MAX", kMax, kMax, GL_MAP_WRITE_BIT, GL_INVALID_VALUE},
        {"write|invalidate-range, offset INT64_MAX-8, length 16", kMax - 8, 16, write_invalidate, GL_INVALID_VALUE},
        {"write|invalidate-buffer, offset 2^62, length 2^62", kHalf, kHalf,
         GL_MAP_WRITE_BIT | GL_MAP_INVALIDATE_BUFFER_BIT, GL_INVALID_VALUE},
        {"unknown access bit", 0, 4, GL_MAP_READ_BIT | 0x100000u, GL_INVALID_VALUE},
        {"length zero", 0, 0, rw, GL_INVALID_OPERATION},
        {"neither read nor write", 0, 4, GL_MAP_INVALIDATE_RANGE_BIT, GL_INVALID_OPERATION},
        {"read with invalidate-range", 0, 4, GL_MAP_READ_BIT | GL_MAP_INVALIDATE_RANGE_BIT, GL_INVALID_OPERATION},
        {"read with invalidate-buffer", 0, 4, GL_MAP_READ_BIT | GL_MAP_INVALIDATE_BUFFER_BIT, GL_INVALID_OPERATION},
        {"read with unsynchronized", 0, 4, GL_MAP_READ_BIT | GL_MAP_UNSYNCHRONIZED_BIT, GL_INVALID_OPERATION},
        {"flush-explicit without write", 0, 4, GL_MAP_READ_BIT | GL_MAP_FLUSH_EXPLICIT_BIT, GL_INVALID_OPERATION},
        {"coherent bit the storage lacks", 0, 4, GL_MAP_READ_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT,
         GL_INVALID_OPERATION},
    };
    if (storage == 0) {
      maps.push_back(
          {"persistent bit on mutable storage", 0, 4, GL_MAP_READ_BIT | GL_MAP_PERSISTENT_BIT, GL_INVALID_OPERATION});
    }
    std::vector<Scenario> table;
    void* result = nullptr;
    for (const Map& m : maps) {
      table.push_back({std::string("glMapNamedBufferRange: ") + m.what, m.expected,
                       [&result, &b, m] { result = glMapNamedBufferRange(b.name, m.offset, m.length, m.access); }});
      table.push_back({std::string("glMapBufferRange: ") + m.what, m.expected, [&result, m] {
                         result = glMapBufferRange(GL_COPY_WRITE_BUFFER, m.offset, m.length, m.access);
                       }});
    }
    run(table, [&] {
      CHECK(result == nullptr);
      b.check_unchanged();
    });
    // "The buffer object is already in a mapped state": the second map fails and the first one stays intact.
    auto* first = static_cast<uint8_t*>(glMapNamedBufferRange(b.name, 16, 16, GL_MAP_READ_BIT));
    REQUIRE(first != nullptr);
    CHECK(glMapNamedBufferRange(b.name, 0, 4, GL_MAP_READ_BIT) == nullptr);
    REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
    CHECK(glMapBuffer(GL_COPY_WRITE_BUFFER, GL_READ_ONLY) == nullptr);
    REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
    CHECK(b.parameter(GL_BUFFER_MAP_OFFSET) == 16);
    CHECK(b.parameter(GL_BUFFER_MAP_LENGTH) == 16);
    CHECK(std::memcmp(first, b.pattern.data() + 16, 16) == 0);
    CHECK(glUnmapNamedBuffer(b.name) == GL_TRUE);
    // GL 4.6 §6.3.3: "An INVALID_OPERATION error is generated if the buffer object is not in a mapped state."
    CHECK(glUnmapNamedBuffer(b.name) == GL_FALSE);
    REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
    b.check_unchanged();
    REQUIRE_NO_GL_VALIDATION_MESSAGES(b.gl);
  }
}

TEST_CASE("Misuse: glFlushMappedBufferRange ranges outside the mapping", "[misuse]") {
  // GL 4.6 §6.3.1: "An INVALID_VALUE error is generated if offset or length is negative, or if offset + length
  // exceeds the size of the mapping." "An INVALID_OPERATION error is generated if the buffer is not mapped, or
  // is mapped without the MAP_FLUSH_EXPLICIT_BIT flag."
  PatternBuffer b;
  const std::vector<std::pair<GLintptr, GLsizeiptr>> ranges = {{-1, 4},        {0, -1},        {8, 17},   {24, 1},
                                                               {kMax - 8, 16}, {kHalf, kHalf}, {8, kMax}, {kMax, 1}};
  auto* p = static_cast<uint8_t*>(glMapNamedBufferRange(b.name, 16, 24, GL_MAP_WRITE_BIT | GL_MAP_FLUSH_EXPLICIT_BIT));
  REQUIRE(p != nullptr);
  std::memset(p, 0x5A, 24);
  std::vector<Scenario> table;
  for (auto [offset, length] : ranges) {
    const std::string what = "(" + std::to_string(offset) + ", " + std::to_string(length) + ") of a 24-byte mapping";
    table.push_back({"glFlushMappedNamedBufferRange" + what, GL_INVALID_VALUE,
                     [&, offset, length] { glFlushMappedNamedBufferRange(b.name, offset, length); }});
    table.push_back({"glFlushMappedBufferRange" + what, GL_INVALID_VALUE,
                     [&, offset, length] { glFlushMappedBufferRange(GL_COPY_WRITE_BUFFER, offset, length); }});
  }
  run(table, [&] {
    // The mapping stays, at its range.
    CHECK(b.parameter(GL_BUFFER_MAPPED) == GL_TRUE);
    CHECK(b.parameter(GL_BUFFER_MAP_OFFSET) == 16);
    CHECK(b.parameter(GL_BUFFER_MAP_LENGTH) == 24);
  });
  glFlushMappedNamedBufferRange(b.name, 4, 8);  // a valid flush: bytes [20, 28)
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  CHECK(glUnmapNamedBuffer(b.name) == GL_TRUE);
  std::vector<uint8_t> expected = b.pattern;
  std::memset(expected.data() + 20, 0x5A, 8);  // only the flushed range reached the buffer
  CHECK(b.bytes() == expected);
  glFlushMappedNamedBufferRange(b.name, 0, 4);  // not mapped
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  REQUIRE(glMapNamedBufferRange(b.name, 0, 16, GL_MAP_WRITE_BIT) != nullptr);
  glFlushMappedNamedBufferRange(b.name, 0, 4);  // mapped without MAP_FLUSH_EXPLICIT_BIT
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  CHECK(glUnmapNamedBuffer(b.name) == GL_TRUE);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(b.gl);
}

TEST_CASE("Misuse: a write-only invalidating map keeps its writes at unmap", "[misuse]") {
  // The sequence that lost data: a write|invalidate map of a range whose end wraps 64 bits used to pass the range
  // check; the invalidate bits skip the read-back that would have failed on the bad offset, so the map "succeeded"
  // and the failure surfaced at glUnmapBuffer, whose write-back at that offset failed (INVALID_OPERATION), dropping
  // the data. The map is INVALID_VALUE (GL 4.6 §6.3), and a valid write|invalidate map works as below.
  {
    PatternBuffer b;
    CHECK(glMapBufferRange(GL_COPY_WRITE_BUFFER, kMax - 8, 16, GL_MAP_WRITE_BIT | GL_MAP_INVALIDATE_RANGE_BIT) ==
          nullptr);
    REQUIRE_GL_ERROR(GL_INVALID_VALUE);
    CHECK(glUnmapBuffer(GL_COPY_WRITE_BUFFER) == GL_FALSE);  // nothing is mapped
    REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
    b.check_unchanged();
  }
  // GL 4.6 §6.3: MAP_INVALIDATE_RANGE_BIT "indicates that the previous contents of the specified range may be
  // discarded", MAP_INVALIDATE_BUFFER_BIT "that the previous contents of the entire buffer may be discarded";
  // what the application writes through the pointer is the new contents, and §6.3.3: "UnmapBuffer returns TRUE
  // unless data values in the buffer's data store have become corrupted during the period that the buffer was
  // mapped". Bismuth keeps the bytes outside the written range (allowed: they become undefined).
  for (const GLbitfield storage :
       {GLbitfield(0), GLbitfield(GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT | GL_DYNAMIC_STORAGE_BIT)}) {
    for (const GLbitfield invalidate :
         {GLbitfield(GL_MAP_INVALIDATE_RANGE_BIT), GLbitfield(GL_MAP_INVALIDATE_BUFFER_BIT)}) {
      for (const GLbitfield extra : {GLbitfield(0), GLbitfield(GL_MAP_UNSYNCHRONIZED_BIT)}) {
        INFO("storage " << storage << ", invalidate " << invalidate << ", extra " << extra);
        PatternBuffer b(storage);
        auto* p = static_cast<uint8_t*>(
            glMapBufferRange(GL_COPY_WRITE_BUFFER, 16, 32, GL_MAP_WRITE_BIT | invalidate | extra));
        REQUIRE_GL_ERROR(GL_NO_ERROR);
        REQUIRE(p != nullptr);
        for (int i = 0; i < 32; ++i) p[i] = static_cast<uint8_t>(200 + i);
        CHECK(glUnmapBuffer(GL_COPY_WRITE_BUFFER) == GL_TRUE);
        REQUIRE_GL_ERROR(GL_NO_ERROR);
        const auto now = b.bytes();
        for (int i = 0; i < 32; ++i) CHECK(now[16 + static_cast<size_t>(i)] == 200 + i);
        CHECK(b.parameter(GL_BUFFER_MAPPED) == GL_FALSE);
        REQUIRE_NO_GL_VALIDATION_MESSAGES(b.gl);
      }
    }
  }
}

TEST_CASE("Misuse: glInvalidateBufferSubData and glInvalidateBufferData", "[misuse]") {
  // GL 4.6 §6.5: "An INVALID_VALUE error is generated if buffer is zero or is not the name of an existing buffer
  // object." "An INVALID_VALUE error is generated if offset or length is negative, or if offset + length is
  // greater than the value of BUFFER_SIZE for buffer." "An INVALID_OPERATION error is generated if buffer is
  // currently mapped by MapBuffer or if the invalidate range intersects the range currently mapped by
  // MapBufferRange, unless it was mapped with MAP_PERSISTENT_BIT set in the MapBufferRange access flags."
  PatternBuffer b;
  const std::vector<Scenario> table = {
      {"glInvalidateBufferSubData of buffer 0", GL_INVALID_VALUE, [] { glInvalidateBufferSubData(0, 0, 4); }},
      {"glInvalidateBufferData of a name that is no buffer", GL_INVALID_VALUE, [] { glInvalidateBufferData(987654); }},
      {"offset -1", GL_INVALID_VALUE, [&] { glInvalidateBufferSubData(b.name, -1, 4); }},
      {"length -1", GL_INVALID_VALUE, [&] { glInvalidateBufferSubData(b.name, 0, -1); }},
      {"offset + length past the end", GL_INVALID_VALUE, [&] { glInvalidateBufferSubData(b.name, 32, 64); }},
      {"offset INT64_MAX-8, length 16", GL_INVALID_VALUE, [&] { glInvalidateBufferSubData(b.name, kMax - 8, 16); }},
      {"offset 2^62, length 2^62", GL_INVALID_VALUE, [&] { glInvalidateBufferSubData(b.name, kHalf, kHalf); }},
  };
  run(table, [&] { b.check_unchanged(); });
  // A valid invalidation is a hint: no error (the contents become undefined; Bismuth keeps them).
  glInvalidateBufferSubData(b.name, 8, 8);
  glInvalidateBufferData(b.name);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  REQUIRE(glMapNamedBufferRange(b.name, 16, 16, GL_MAP_READ_BIT) != nullptr);
  glInvalidateBufferSubData(b.name, 24, 4);  // intersects the mapped range
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glInvalidateBufferSubData(b.name, 0, 16);  // next to it: no error
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  glInvalidateBufferData(b.name);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  CHECK(b.parameter(GL_BUFFER_MAPPED) == GL_TRUE);
  CHECK(glUnmapNamedBuffer(b.name) == GL_TRUE);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(b.gl);
}
