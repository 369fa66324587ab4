// The GL misuse program (issue 13): every entry point that takes a size, offset, count or index is called with
// values that break a GL 4.6 rule — negative, past the end, and pairs whose sum overflows 64 bits — one
// table-driven TEST_CASE per family. Each scenario names the rule and the error it gives; after each error the
// test checks that the call changed nothing (buffer bytes, mapping state, bindings, caller memory), and that no
// map call returned a pointer, let alone one outside a mapping.
#include <climits>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "translator/gl/gl_fixture.hpp"

using namespace bismuth::gltest;

namespace {

constexpr GLsizeiptr kSize = 64;
constexpr GLintptr kMax = INT64_MAX;
constexpr GLintptr kHalf = GLintptr(1) << 62;  // kHalf + kHalf overflows GLintptr

struct Scenario {
  std::string what;  // the call and its bad values
  GLenum expected;   // the error the rule gives
  std::function<void()> call;
};

// A 64-byte buffer holding bytes 0..63, bound to GL_COPY_WRITE_BUFFER.
struct PatternBuffer {
  GlContext gl;
  GLuint name = 0;
  std::vector<uint8_t> pattern = std::vector<uint8_t>(kSize);

  explicit PatternBuffer(GLbitfield storage_flags = 0) {
    for (size_t i = 0; i < pattern.size(); ++i) pattern[i] = static_cast<uint8_t>(i);
    glCreateBuffers(1, &name);
    if (storage_flags != 0) {
      glNamedBufferStorage(name, kSize, pattern.data(), storage_flags);
    } else {
      glNamedBufferData(name, kSize, pattern.data(), GL_DYNAMIC_DRAW);
    }
    glBindBuffer(GL_COPY_WRITE_BUFFER, name);
    REQUIRE_GL_ERROR(GL_NO_ERROR);
  }
  std::vector<uint8_t> bytes() const {
    std::vector<uint8_t> out(kSize, 0xEE);
    glGetNamedBufferSubData(name, 0, kSize, out.data());
    return out;
  }
  GLint parameter(GLenum pname) const {
    GLint v = -1;
    glGetNamedBufferParameteriv(name, pname, &v);
    return v;
  }
  // The state an erroneous call must leave alone: the size, the bytes, and no mapping.
  void check_unchanged() const {
    CHECK(parameter(GL_BUFFER_MAPPED) == GL_FALSE);
    CHECK(parameter(GL_BUFFER_SIZE) == kSize);
    CHECK(bytes() == pattern);
    REQUIRE_GL_ERROR(GL_NO_ERROR);
  }
};

// Runs each scenario, checks its error, then `after` (the state the error must have left alone).
void run(const std::vector<Scenario>& table, const std::function<void()>& after) {
  for (const Scenario& s : table) {
    INFO(s.what);
    s.call();
    CHECK(glGetError() == s.expected);
    REQUIRE_GL_ERROR(GL_NO_ERROR);  // one error per call
    after();
  }
}

const char* kStore = R"(#version 450
layout(local_size_x = 4) in;
layout(std430, binding = 0) buffer B { uint v[]; };
void main() { v[gl_GlobalInvocationID.x] = gl_GlobalInvocationID.x + 1u; }
)";

}  // namespace

TEST_CASE("Misuse: glBufferData and glBufferStorage sizes", "[misuse]") {
  // GL 4.6 §6.2: "An INVALID_VALUE error is generated if size is negative" (BufferData); "An INVALID_VALUE error
  // is generated if size is less than or equal to zero" (BufferStorage); "An OUT_OF_MEMORY error is generated if
  // the GL is unable to create a data store with the specified size." Bismuth keeps the old store on every
  // error, OUT_OF_MEMORY included (GL leaves the state undefined there; losing data is never needed).
  PatternBuffer b;
  GLuint fresh = 0;
  glCreateBuffers(1, &fresh);
  const std::vector<Scenario> table = {
      {"glNamedBufferData size -1", GL_INVALID_VALUE, [&] { glNamedBufferData(b.name, -1, nullptr, GL_STATIC_DRAW); }},
      {"glBufferData size INT64_MIN", GL_INVALID_VALUE,
       [&] { glBufferData(GL_COPY_WRITE_BUFFER, INT64_MIN, nullptr, GL_STATIC_DRAW); }},
      {"glNamedBufferData size INT64_MAX (no data store that large)", GL_OUT_OF_MEMORY,
       [&] { glNamedBufferData(b.name, kMax, nullptr, GL_STATIC_DRAW); }},
      {"glBufferData size 2^62 with a data pointer (never read)", GL_OUT_OF_MEMORY,
       [&] { glBufferData(GL_COPY_WRITE_BUFFER, kHalf, b.pattern.data(), GL_STATIC_DRAW); }},
      {"glNamedBufferStorage size 0", GL_INVALID_VALUE,
       [&] { glNamedBufferStorage(fresh, 0, nullptr, GL_DYNAMIC_STORAGE_BIT); }},
      {"glNamedBufferStorage size -1", GL_INVALID_VALUE,
       [&] { glNamedBufferStorage(fresh, -1, nullptr, GL_DYNAMIC_STORAGE_BIT); }},
      {"glNamedBufferStorage size INT64_MAX", GL_OUT_OF_MEMORY,
       [&] { glNamedBufferStorage(fresh, kMax, nullptr, GL_DYNAMIC_STORAGE_BIT); }},
      {"glNamedBufferStorage size INT64_MAX, persistent", GL_OUT_OF_MEMORY,
       [&] { glNamedBufferStorage(fresh, kMax, nullptr, GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT); }},
  };
  run(table, [&] {
    b.check_unchanged();
    // A failed glBufferStorage leaves the buffer mutable (BUFFER_IMMUTABLE_STORAGE stays FALSE).
    GLint immutable = -1;
    glGetNamedBufferParameteriv(fresh, GL_BUFFER_IMMUTABLE_STORAGE, &immutable);
    CHECK(immutable == GL_FALSE);
  });
  REQUIRE_NO_GL_VALIDATION_MESSAGES(b.gl);
}

TEST_CASE("Misuse: glBufferSubData and glGetBufferSubData ranges", "[misuse]") {
  // GL 4.6 §6.2.1 (BufferSubData) and §6.3.2 (GetBufferSubData): "An INVALID_VALUE error is generated if offset
  // or size is negative, or if offset + size is greater than the value of BUFFER_SIZE for the buffer object."
  // offset + size is the mathematical sum: a pair whose 64-bit sum wraps is past the end too.
  PatternBuffer b;
  std::vector<uint8_t> source(64, 0xAB);
  std::vector<uint8_t> sink(64, 0xCD);
  const std::vector<std::pair<GLintptr, GLsizeiptr>> ranges = {
      {-1, 4}, {0, -1}, {60, 8}, {64, 1}, {kMax - 8, 16}, {kHalf, kHalf}, {8, kMax}, {kMax, kMax}, {INT64_MIN, 4}};
  std::vector<Scenario> table;
  for (auto [offset, size] : ranges) {
    const std::string range = "(" + std::to_string(offset) + ", " + std::to_string(size) + ")";
    table.push_back({"glBufferSubData" + range, GL_INVALID_VALUE,
                     [&, offset, size] { glBufferSubData(GL_COPY_WRITE_BUFFER, offset, size, source.data()); }});
    table.push_back({"glNamedBufferSubData" + range, GL_INVALID_VALUE,
                     [&, offset, size] { glNamedBufferSubData(b.name, offset, size, source.data()); }});
    table.push_back({"glGetBufferSubData" + range, GL_INVALID_VALUE,
                     [&, offset, size] { glGetBufferSubData(GL_COPY_WRITE_BUFFER, offset, size, sink.data()); }});
    table.push_back({"glGetNamedBufferSubData" + range, GL_INVALID_VALUE,
                     [&, offset, size] { glGetNamedBufferSubData(b.name, offset, size, sink.data()); }});
  }
  run(table, [&] {
    b.check_unchanged();
    CHECK(sink == std::vector<uint8_t>(64, 0xCD));  // nothing was read into the caller's memory
  });
  REQUIRE_NO_GL_VALIDATION_MESSAGES(b.gl);
}

TEST_CASE("Misuse: glCopyBufferSubData ranges and overlap", "[misuse]") {
  // GL 4.6 §6.6: "An INVALID_VALUE error is generated if any of readOffset, writeOffset, or size are negative, if
  // readOffset + size exceeds the size of the source buffer object, or if writeOffset + size exceeds the size of
  // the destination buffer object." "An INVALID_VALUE error is generated if the source and destination are the
  // same buffer object, and the ranges [readOffset, readOffset + size) and [writeOffset, writeOffset + size)
  // overlap."
  PatternBuffer b;
  GLuint other = 0;
  glCreateBuffers(1, &other);
  glNamedBufferData(other, kSize, b.pattern.data(), GL_DYNAMIC_DRAW);
  glBindBuffer(GL_COPY_READ_BUFFER, other);
  struct Copy {
    const char* what;
    GLintptr read, write;
    GLsizeiptr size;
    bool same;
  };
  const std::vector<Copy> copies = {
      {"negative readOffset", -4, 0, 4, false},
      {"negative writeOffset", 0, -4, 4, false},
      {"negative size", 0, 0, -4, false},
      {"readOffset + size past the source", 56, 0, 16, false},
      {"writeOffset + size past the destination", 0, 56, 16, false},
      {"readOffset INT64_MAX-8, size 16 (the sum wraps)", kMax - 8, 0, 16, false},
      {"writeOffset INT64_MAX-8, size 16 (the sum wraps)", 0, kMax - 8, 16, false},
      {"writeOffset 2^62, size 2^62 (the sum wraps)", 0, kHalf, kHalf, false},
      {"readOffset 8, size INT64_MAX", 8, 0, kMax, false},
      {"same buffer, overlapping ranges", 0, 8, 16, true},
      {"same buffer, identical ranges", 16, 16, 16, true},
      {"same buffer, write range wraps onto the read range", 0, kMax - 8, 16, true},
  };
  std::vector<Scenario> table;
  for (const Copy& c : copies) {
    table.push_back({std::string("glCopyBufferSubData: ") + c.what, GL_INVALID_VALUE, [c] {
                       glCopyBufferSubData(c.same ? GL_COPY_WRITE_BUFFER : GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER,
                                           c.read, c.write, c.size);
                     }});
    table.push_back({std::string("glCopyNamedBufferSubData: ") + c.what, GL_INVALID_VALUE, [&b, c, other] {
                       glCopyNamedBufferSubData(c.same ? b.name : other, b.name, c.read, c.write, c.size);
                     }});
  }
  run(table, [&] { b.check_unchanged(); });
  // Adjacent ranges of one buffer do not overlap: no error, and the bytes move.
  glCopyBufferSubData(GL_COPY_WRITE_BUFFER, GL_COPY_WRITE_BUFFER, 0, 16, 16);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  std::vector<uint8_t> expected = b.pattern;
  std::memcpy(expected.data() + 16, b.pattern.data(), 16);
  CHECK(b.bytes() == expected);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(b.gl);
}

TEST_CASE("Misuse: glClearBufferSubData ranges", "[misuse]") {
  // GL 4.6 §6.2.2: "An INVALID_VALUE error is generated if offset or size is negative, or if offset + size is
  // greater than the value of BUFFER_SIZE for the buffer object." "An INVALID_VALUE error is generated if offset
  // or size is not an integer multiple of the element size indicated by internalformat."
  PatternBuffer b;
  const uint32_t value = 0xFFFFFFFFu;
  const std::vector<std::pair<GLintptr, GLsizeiptr>> ranges = {{-4, 4},        {0, -4},       {60, 8}, {kMax - 7, 16},
                                                               {kHalf, kHalf}, {4, kMax - 3}, {2, 4},  {0, 6}};
  std::vector<Scenario> table;
  for (auto [offset, size] : ranges) {
    const std::string what =
        "glClearBufferSubData(R32UI, " + std::to_string(offset) + ", " + std::to_string(size) + ")";
    table.push_back({what, GL_INVALID_VALUE, [&, offset, size] {
                       glClearBufferSubData(GL_COPY_WRITE_BUFFER, GL_R32UI, offset, size, GL_RED_INTEGER,
                                            GL_UNSIGNED_INT, &value);
                     }});
    table.push_back({what + " (named)", GL_INVALID_VALUE, [&, offset, size] {
                       glClearNamedBufferSubData(b.name, GL_R32UI, offset, size, GL_RED_INTEGER, GL_UNSIGNED_INT,
                                                 &value);
                     }});
  }
  // RGB32UI elements are 12 bytes: 64 is not a multiple of 12, so the whole-buffer clear is INVALID_VALUE too.
  table.push_back({"glClearBufferData(RGB32UI) over 64 bytes", GL_INVALID_VALUE, [&] {
                     const uint32_t rgb[3] = {1, 2, 3};
                     glClearBufferData(GL_COPY_WRITE_BUFFER, GL_RGB32UI, GL_RGB_INTEGER, GL_UNSIGNED_INT, rgb);
                   }});
  run(table, [&] { b.check_unchanged(); });
  REQUIRE_NO_GL_VALIDATION_MESSAGES(b.gl);
}

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
  // Issue 13's sequence: a write|invalidate map of a range whose end wraps 64 bits used to pass the range check;
  // the invalidate bits skip the read-back that would have failed on the bad offset, so the map "succeeded" and
  // the failure surfaced at glUnmapBuffer, whose write-back at that offset failed (INVALID_OPERATION), dropping
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

TEST_CASE("Misuse: glBindBufferRange offsets, sizes and indices", "[misuse]") {
  // GL 4.6 §6.1.1: "An INVALID_VALUE error is generated if index is greater than or equal to the number of
  // target-specific indexed binding points", "An INVALID_VALUE error is generated by BindBufferRange if buffer is
  // non-zero and size is less than or equal to zero", "... if buffer is non-zero and offset or size do not
  // respectively satisfy the constraints described for those parameters for the specified target" (§6.7.1:
  // offsets are multiples of the target's alignment; atomic counter buffer offsets multiples of four).
  PatternBuffer b;
  GLint ssbo_alignment = 0, bindings = 0;
  glGetIntegerv(GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT, &ssbo_alignment);
  glGetIntegerv(GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS, &bindings);
  REQUIRE(ssbo_alignment > 0);
  glBindBufferRange(GL_SHADER_STORAGE_BUFFER, 1, b.name, 0, 32);  // the state each error must keep
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  std::vector<Scenario> table = {
      {"size 0", GL_INVALID_VALUE, [&] { glBindBufferRange(GL_SHADER_STORAGE_BUFFER, 1, b.name, 0, 0); }},
      {"size -1", GL_INVALID_VALUE, [&] { glBindBufferRange(GL_SHADER_STORAGE_BUFFER, 1, b.name, 0, -1); }},
      {"offset -alignment", GL_INVALID_VALUE,
       [&] { glBindBufferRange(GL_SHADER_STORAGE_BUFFER, 1, b.name, -ssbo_alignment, 16); }},
      {"offset INT64_MIN", GL_INVALID_VALUE,
       [&] { glBindBufferRange(GL_SHADER_STORAGE_BUFFER, 1, b.name, INT64_MIN, 16); }},
      {"atomic counter offset 2", GL_INVALID_VALUE,
       [&] { glBindBufferRange(GL_ATOMIC_COUNTER_BUFFER, 0, b.name, 2, 4); }},
      {"index = MAX_SHADER_STORAGE_BUFFER_BINDINGS", GL_INVALID_VALUE,
       [&] { glBindBufferRange(GL_SHADER_STORAGE_BUFFER, static_cast<GLuint>(bindings), b.name, 0, 16); }},
      {"index 0xFFFFFFFF", GL_INVALID_VALUE,
       [&] { glBindBufferRange(GL_SHADER_STORAGE_BUFFER, 0xFFFFFFFFu, b.name, 0, 16); }},
  };
  if (ssbo_alignment > 1) {
    table.push_back({"offset not a multiple of SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT", GL_INVALID_VALUE,
                     [&] { glBindBufferRange(GL_SHADER_STORAGE_BUFFER, 1, b.name, ssbo_alignment + 1, 16); }});
  }
  run(table, [&] {
    GLint bound = -1;
    GLint64 start = -1, size = -1;
    glGetIntegeri_v(GL_SHADER_STORAGE_BUFFER_BINDING, 1, &bound);
    glGetInteger64i_v(GL_SHADER_STORAGE_BUFFER_START, 1, &start);
    glGetInteger64i_v(GL_SHADER_STORAGE_BUFFER_SIZE, 1, &size);
    CHECK(bound == static_cast<GLint>(b.name));
    CHECK(start == 0);
    CHECK(size == 32);
    b.check_unchanged();
  });
  REQUIRE_NO_GL_VALIDATION_MESSAGES(b.gl);
}

TEST_CASE("Misuse: a bound range that leaves the buffer skips the dispatch at any size", "[misuse]") {
  // GL checks BindBufferRange's range against the buffer only when it is used (GL 4.6 §6.7.1 leaves accesses
  // past the end undefined). Bismuth skips such a dispatch with a KHR_debug message — including ranges whose
  // offset + size wraps 64 bits, which must never reach Vulkan as a descriptor past the buffer.
  GlContext gl;
  GLint alignment = 0;
  glGetIntegerv(GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT, &alignment);
  const std::vector<uint32_t> zeros(256, 0);
  const GLuint buffer = make_buffer(static_cast<GLsizeiptr>(zeros.size() * 4), zeros.data());
  glUseProgram(make_program(kStore));
  const GLintptr aligned_max = kMax / alignment * alignment;
  const std::vector<std::pair<GLintptr, GLsizeiptr>> ranges = {
      {0, 2048}, {alignment, 1024}, {alignment, kMax}, {aligned_max, 16}, {aligned_max, kMax}, {1024, 4}};
  for (auto [offset, size] : ranges) {
    INFO("glBindBufferRange(" << offset << ", " << size << ") of a 1024-byte buffer");
    gl.clear_messages();
    glBindBufferRange(GL_SHADER_STORAGE_BUFFER, 0, buffer, offset, size);
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    glDispatchCompute(1, 1, 1);
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    CHECK(gl.saw_message_containing("the dispatch was skipped"));
    CHECK(read_words(buffer, zeros.size()) == zeros);
    REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
  }
}

TEST_CASE("Misuse: glDispatchComputeIndirect offsets", "[misuse]") {
  // GL 4.6 §19: "An INVALID_VALUE error is generated if indirect is negative or is not a multiple of the size, in
  // basic machine units, of uint." "An INVALID_OPERATION error is generated if no buffer is bound to the
  // DISPATCH_INDIRECT_BUFFER binding, or if the command would source data beyond the end of the buffer object's
  // data store." The command is three uints: indirect + 12 must not pass the end, computed without wrapping.
  GlContext gl;
  const std::vector<uint32_t> zeros(64, 0);
  const GLuint out = make_buffer(static_cast<GLsizeiptr>(zeros.size() * 4), zeros.data());
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, out);
  glUseProgram(make_program(kStore));
  const uint32_t command[4] = {1, 1, 1, 1};
  GLuint indirect = 0;
  glCreateBuffers(1, &indirect);
  glNamedBufferData(indirect, sizeof command, command, GL_STATIC_DRAW);
  glBindBuffer(GL_DISPATCH_INDIRECT_BUFFER, indirect);
  // Past the end is the rule's own error, decided before anything is recorded — not a failure deeper down (the
  // backend refusing a binding past the buffer) that happens to have the same code.
  const auto past_the_end = [&gl](GLintptr offset) {
    gl.clear_messages();
    glDispatchComputeIndirect(offset);
    CHECK(gl.saw_message_containing("reads past the end of the GL_DISPATCH_INDIRECT_BUFFER"));
  };
  const std::vector<Scenario> table = {
      {"indirect -4", GL_INVALID_VALUE, [] { glDispatchComputeIndirect(-4); }},
      {"indirect 2", GL_INVALID_VALUE, [] { glDispatchComputeIndirect(2); }},
      {"indirect INT64_MIN", GL_INVALID_VALUE, [] { glDispatchComputeIndirect(INT64_MIN); }},
      {"indirect 8 of 16 bytes", GL_INVALID_OPERATION, [&] { past_the_end(8); }},
      {"indirect 16 of 16 bytes", GL_INVALID_OPERATION, [&] { past_the_end(16); }},
      {"indirect INT64_MAX-3 (indirect + 12 wraps)", GL_INVALID_OPERATION, [&] { past_the_end(kMax - 3); }},
      {"indirect 2^62", GL_INVALID_OPERATION, [&] { past_the_end(kHalf); }},
      {"no DISPATCH_INDIRECT_BUFFER", GL_INVALID_OPERATION,
       [] {
         glBindBuffer(GL_DISPATCH_INDIRECT_BUFFER, 0);
         glDispatchComputeIndirect(0);
       }},
  };
  run(table, [&] {
    glBindBuffer(GL_DISPATCH_INDIRECT_BUFFER, indirect);
    CHECK(read_words(out, zeros.size()) == zeros);  // nothing ran
  });
  glDispatchComputeIndirect(4);  // the last valid offset
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  CHECK(read_words(out, 4) == std::vector<uint32_t>{1, 2, 3, 4});
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("Misuse: glDispatchCompute and glDispatchComputeGroupSizeARB counts and sizes", "[misuse]") {
  // GL 4.6 §19: "An INVALID_VALUE error is generated if any of num_groups_x, num_groups_y and num_groups_z are
  // greater than the value of MAX_COMPUTE_WORK_GROUP_COUNT for the corresponding dimension."
  // ARB_compute_variable_group_size: "An
  // INVALID_VALUE error is generated if any of group_size_x, group_size_y, or group_size_z is less than or equal
  // to zero or greater than the maximum local work group size for compute shaders with variable group size
  // (MAX_COMPUTE_VARIABLE_GROUP_SIZE_ARB) in the corresponding dimension." "An INVALID_VALUE error is generated if
  // the product of group_size_x, group_size_y, and group_size_z exceeds the implementation-dependent maximum
  // local work group invocation count for compute shaders with variable group size
  // (MAX_COMPUTE_VARIABLE_GROUP_INVOCATIONS_ARB)."
  GlContext gl;
  const std::vector<uint32_t> zeros(64, 0);
  const GLuint out = make_buffer(static_cast<GLsizeiptr>(zeros.size() * 4), zeros.data());
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, out);
  const GLuint fixed = make_program(kStore);
  const GLuint variable = make_program(R"(#version 450
#extension GL_ARB_compute_variable_group_size : require
layout(local_size_variable) in;
layout(std430, binding = 0) buffer B { uint v[]; };
void main() { v[gl_GlobalInvocationID.x] = 7u; }
)");
  GLint max_count[3] = {}, max_size[3] = {}, max_invocations = 0;
  for (GLuint i = 0; i < 3; ++i) {
    glGetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_COUNT, i, &max_count[i]);
    glGetIntegeri_v(GL_MAX_COMPUTE_VARIABLE_GROUP_SIZE_ARB, i, &max_size[i]);
  }
  glGetIntegerv(GL_MAX_COMPUTE_VARIABLE_GROUP_INVOCATIONS_ARB, &max_invocations);
  const GLuint over = static_cast<GLuint>(max_count[0]) + 1;
  const GLuint big = static_cast<GLuint>(max_size[0]);
  const std::vector<Scenario> table = {
      {"num_groups_x = max + 1", GL_INVALID_VALUE, [&] { glUseProgram(fixed), glDispatchCompute(over, 1, 1); }},
      {"num_groups_z = 0xFFFFFFFF", GL_INVALID_VALUE, [&] { glUseProgram(fixed), glDispatchCompute(1, 1, ~0u); }},
      {"all counts 0xFFFFFFFF (their product wraps)", GL_INVALID_VALUE,
       [&] { glUseProgram(fixed), glDispatchCompute(~0u, ~0u, ~0u); }},
      {"variable: num_groups_y = 0xFFFFFFFF", GL_INVALID_VALUE,
       [&] { glUseProgram(variable), glDispatchComputeGroupSizeARB(1, ~0u, 1, 4, 1, 1); }},
      {"variable: group_size_x = 0", GL_INVALID_VALUE,
       [&] { glUseProgram(variable), glDispatchComputeGroupSizeARB(1, 1, 1, 0, 1, 1); }},
      {"variable: group sizes 0xFFFFFFFF (their product wraps 64 bits)", GL_INVALID_VALUE,
       [&] { glUseProgram(variable), glDispatchComputeGroupSizeARB(1, 1, 1, ~0u, ~0u, ~0u); }},
      {"variable: group size = max in x and y (product above the invocation limit)", GL_INVALID_VALUE,
       [&] {
         glUseProgram(variable);
         glDispatchComputeGroupSizeARB(1, 1, 1, big, static_cast<GLuint>(max_size[1]), 1);
       }},
  };
  REQUIRE(int64_t(max_size[0]) * max_size[1] > max_invocations);
  run(table, [&] { CHECK(read_words(out, zeros.size()) == zeros); });
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("Misuse: uniform array counts and glGetnUniform buffer sizes", "[misuse]") {
  // GL 4.6 §7.6.1: "An INVALID_VALUE error is generated if count is negative." "An INVALID_OPERATION error is
  // generated if count is greater than one, and the uniform declared in the shader is not an array variable."
  // "When loading N elements starting at an arbitrary position k in a uniform declared as an array, elements k
  // through k + N - 1 in the array will be replaced with the new values. Values for any array element that
  // exceeds the highest array element index used, as reported by GetActiveUniform, will be ignored by the GL."
  // §7.13: "An INVALID_OPERATION error is generated by GetnUniform* if the buffer size required to store the
  // requested data is greater than bufSize." A negative bufSize is smaller than any size.
  GlContext gl;
  const GLuint program = make_program(R"(#version 450
layout(local_size_x = 1) in;
uniform float arr[4];
uniform vec4 v;
layout(std430, binding = 0) buffer B { float o[]; };
void main() { for (int i = 0; i < 4; ++i) o[i] = arr[i]; o[4] = v.w; }
)");
  glUseProgram(program);
  const GLint arr2 = glGetUniformLocation(program, "arr[2]");
  const GLint v = glGetUniformLocation(program, "v");
  REQUIRE(arr2 >= 0);
  REQUIRE(v >= 0);
  const float init[4] = {1, 2, 3, 4};
  glUniform1fv(glGetUniformLocation(program, "arr"), 4, init);
  glUniform4f(v, 5, 6, 7, 8);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  const float values[2] = {30, 40};
  float sink[8];
  std::fill(std::begin(sink), std::end(sink), -1.0f);
  const std::vector<Scenario> table = {
      {"glUniform1fv count -1", GL_INVALID_VALUE, [&] { glUniform1fv(arr2, -1, values); }},
      {"glUniform1fv count INT_MIN", GL_INVALID_VALUE, [&] { glUniform1fv(arr2, INT_MIN, values); }},
      {"glUniform4fv count 2 for a non-array", GL_INVALID_OPERATION, [&] { glUniform4fv(v, 2, values); }},
      {"glProgramUniform4fv count INT_MAX for a non-array", GL_INVALID_OPERATION,
       [&] { glProgramUniform4fv(program, v, INT_MAX, values); }},
      {"glGetnUniformfv bufSize -1", GL_INVALID_OPERATION, [&] { glGetnUniformfv(program, v, -1, sink); }},
      {"glGetnUniformfv bufSize INT_MIN", GL_INVALID_OPERATION, [&] { glGetnUniformfv(program, v, INT_MIN, sink); }},
      {"glGetnUniformfv bufSize 15 for a vec4", GL_INVALID_OPERATION, [&] { glGetnUniformfv(program, v, 15, sink); }},
      {"glGetnUniformiv bufSize 0 for a float", GL_INVALID_OPERATION,
       [&] {
         GLint i = -1;
         glGetnUniformiv(program, arr2, 0, &i);
         CHECK(i == -1);
       }},
  };
  run(table, [&] {
    for (float f : sink) CHECK(f == -1.0f);
    float now[4] = {};
    glGetUniformfv(program, v, now);
    CHECK(now[3] == 8.0f);
    glGetUniformfv(program, arr2, now);
    CHECK(now[0] == 3.0f);
  });
  // count INT_MAX from element 2 of a 4-element array: elements 2 and 3 change, nothing else is read.
  glUniform1fv(arr2, INT_MAX, values);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  const std::vector<float> zeros(5, 0.0f);
  const GLuint out = make_buffer(static_cast<GLsizeiptr>(zeros.size() * 4), zeros.data());
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, out);
  glDispatchCompute(1, 1, 1);
  const auto words = read_words(out, 5);
  float result[5];
  std::memcpy(result, words.data(), sizeof result);
  CHECK(result[0] == 1.0f);
  CHECK(result[1] == 2.0f);
  CHECK(result[2] == 30.0f);
  CHECK(result[3] == 40.0f);
  CHECK(result[4] == 8.0f);
  glGetnUniformfv(program, v, 16, sink);  // exactly the size of a vec4
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  CHECK(sink[3] == 8.0f);
  CHECK(sink[4] == -1.0f);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("Misuse: indexed queries out of range", "[misuse]") {
  // GL 4.6 §22.2: "An INVALID_VALUE error is generated if index is outside the valid range for the indexed state
  // name" (GetStringi: "index ... greater than or equal to NUM_EXTENSIONS"); §22.1 for Get*i_v the same.
  GlContext gl;
  GLint extensions = 0, bindings = 0;
  glGetIntegerv(GL_NUM_EXTENSIONS, &extensions);
  glGetIntegerv(GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS, &bindings);
  GLint value = -7;
  GLint64 value64 = -7;
  const std::vector<Scenario> table = {
      {"glGetStringi(GL_EXTENSIONS, NUM_EXTENSIONS)", GL_INVALID_VALUE,
       [&] { CHECK(glGetStringi(GL_EXTENSIONS, static_cast<GLuint>(extensions)) == nullptr); }},
      {"glGetStringi(GL_EXTENSIONS, 0xFFFFFFFF)", GL_INVALID_VALUE,
       [] { CHECK(glGetStringi(GL_EXTENSIONS, 0xFFFFFFFFu) == nullptr); }},
      {"glGetStringi(GL_SHADING_LANGUAGE_VERSION, 0x80000000)", GL_INVALID_VALUE,
       [] { CHECK(glGetStringi(GL_SHADING_LANGUAGE_VERSION, 0x80000000u) == nullptr); }},
      {"glGetIntegeri_v(SHADER_STORAGE_BUFFER_BINDING, MAX_SHADER_STORAGE_BUFFER_BINDINGS)", GL_INVALID_VALUE,
       [&] { glGetIntegeri_v(GL_SHADER_STORAGE_BUFFER_BINDING, static_cast<GLuint>(bindings), &value); }},
      {"glGetInteger64i_v(UNIFORM_BUFFER_SIZE, 0xFFFFFFFF)", GL_INVALID_VALUE,
       [&] { glGetInteger64i_v(GL_UNIFORM_BUFFER_SIZE, 0xFFFFFFFFu, &value64); }},
      {"glGetIntegeri_v(MAX_COMPUTE_WORK_GROUP_COUNT, 3)", GL_INVALID_VALUE,
       [&] { glGetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_COUNT, 3, &value); }},
      {"glGetIntegeri_v(MAX_COMPUTE_WORK_GROUP_SIZE, 0xFFFFFFFF)", GL_INVALID_VALUE,
       [&] { glGetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_SIZE, 0xFFFFFFFFu, &value); }},
  };
  run(table, [&] {
    CHECK(value == -7);
    CHECK(value64 == -7);
  });
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("Misuse: shader and program string counts and buffer sizes", "[misuse]") {
  // GL 4.6 §7.1: ShaderSource "An INVALID_VALUE error is generated if count is negative." §7.13 (GetShaderInfoLog,
  // GetShaderSource, GetProgramInfoLog) and §7.3.1.1 (GetProgramResourceName): "An INVALID_VALUE error is
  // generated if bufSize is negative." GetProgramResourceiv: "An INVALID_VALUE error is generated if propCount is
  // less than or equal to zero, or if bufSize is negative." GetAttachedShaders: "An INVALID_VALUE error is
  // generated if maxCount is negative."
  GlContext gl;
  const GLuint program = make_program(kStore);
  const GLuint shader = glCreateShader(GL_COMPUTE_SHADER);
  const char* source = "// kept\n";
  glShaderSource(shader, 1, &source, nullptr);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  char text[16];
  std::memset(text, 'x', sizeof text);
  GLsizei length = -7;
  GLint params[2] = {-7, -7};
  GLuint shaders[2] = {7, 7};
  const GLenum props[2] = {GL_BUFFER_BINDING, GL_NUM_ACTIVE_VARIABLES};
  const std::vector<Scenario> table = {
      {"glShaderSource count -1", GL_INVALID_VALUE, [&] { glShaderSource(shader, -1, &source, nullptr); }},
      {"glShaderSource count INT_MIN", GL_INVALID_VALUE, [&] { glShaderSource(shader, INT_MIN, &source, nullptr); }},
      {"glGetShaderInfoLog bufSize -1", GL_INVALID_VALUE, [&] { glGetShaderInfoLog(shader, -1, &length, text); }},
      {"glGetShaderSource bufSize -1", GL_INVALID_VALUE, [&] { glGetShaderSource(shader, -1, &length, text); }},
      {"glGetProgramInfoLog bufSize INT_MIN", GL_INVALID_VALUE,
       [&] { glGetProgramInfoLog(program, INT_MIN, &length, text); }},
      {"glGetProgramResourceName bufSize -1", GL_INVALID_VALUE,
       [&] { glGetProgramResourceName(program, GL_SHADER_STORAGE_BLOCK, 0, -1, &length, text); }},
      {"glGetProgramResourceiv propCount 0", GL_INVALID_VALUE,
       [&] { glGetProgramResourceiv(program, GL_SHADER_STORAGE_BLOCK, 0, 0, props, 2, &length, params); }},
      {"glGetProgramResourceiv propCount -1", GL_INVALID_VALUE,
       [&] { glGetProgramResourceiv(program, GL_SHADER_STORAGE_BLOCK, 0, -1, props, 2, &length, params); }},
      {"glGetProgramResourceiv bufSize -1", GL_INVALID_VALUE,
       [&] { glGetProgramResourceiv(program, GL_SHADER_STORAGE_BLOCK, 0, 2, props, -1, &length, params); }},
      {"glGetAttachedShaders maxCount -1", GL_INVALID_VALUE,
       [&] {
         GLsizei count = -7;
         glGetAttachedShaders(program, -1, &count, shaders);
         CHECK(count == -7);
       }},
  };
  run(table, [&] {
    GLint source_length = 0;
    glGetShaderiv(shader, GL_SHADER_SOURCE_LENGTH, &source_length);
    CHECK(source_length == 9);  // "// kept\n" and its terminator
    for (char c : text) CHECK(c == 'x');
    CHECK(length == -7);
    CHECK(params[0] == -7);
    CHECK(shaders[0] == 7u);
  });
  // Small buffers get what fits: bufSize 1 is the terminator only, bufSize 1 of two properties one value.
  glGetShaderSource(shader, 1, &length, text);
  CHECK(length == 0);
  CHECK(text[0] == '\0');
  CHECK(text[1] == 'x');
  glGetProgramResourceiv(program, GL_SHADER_STORAGE_BLOCK, 0, 2, props, 1, &length, params);
  CHECK(length == 1);
  CHECK(params[0] == 0);
  CHECK(params[1] == -7);
  // Negative lengths mean NUL-terminated strings, non-negative ones are byte counts (no terminator read).
  const char parts[2][8] = {{'/', '/', 'a', 'b', 'c', 'X', 'X', 'X'}, "\n"};
  const char* strings[2] = {parts[0], parts[1]};
  const GLint lengths[2] = {5, -1};
  glShaderSource(shader, 2, strings, lengths);
  glGetShaderSource(shader, sizeof text, &length, text);
  CHECK(std::string(text) == "//abc\n");
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  glDeleteShader(shader);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("Misuse: debug message lengths and log buffer sizes", "[misuse]") {
  // GL 4.6 §20.5 (DebugMessageInsert): "An INVALID_VALUE error is generated if the number of characters in buf,
  // excluding the null terminator when length is negative, is not less than the value of
  // MAX_DEBUG_MESSAGE_LENGTH." §20.9 (GetDebugMessageLog): "An INVALID_VALUE error is generated if bufSize is
  // negative and messageLog is not NULL." Messages that do not fit bufSize stay in the log.
  GlContext gl;
  glDebugMessageCallback(nullptr, nullptr);  // messages go to the log
  GLint max_length = 0;
  glGetIntegerv(GL_MAX_DEBUG_MESSAGE_LENGTH, &max_length);
  REQUIRE(max_length > 1);
  const std::string too_long(static_cast<size_t>(max_length), 'm');
  glDebugMessageInsert(GL_DEBUG_SOURCE_APPLICATION, GL_DEBUG_TYPE_MARKER, 1, GL_DEBUG_SEVERITY_HIGH, -1, "kept");
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  char log[8];
  std::memset(log, 'x', sizeof log);
  const std::vector<Scenario> table = {
      {"glDebugMessageInsert length = MAX_DEBUG_MESSAGE_LENGTH", GL_INVALID_VALUE,
       [&] {
         glDebugMessageInsert(GL_DEBUG_SOURCE_APPLICATION, GL_DEBUG_TYPE_MARKER, 2, GL_DEBUG_SEVERITY_HIGH, max_length,
                              too_long.c_str());
       }},
      {"glDebugMessageInsert length -1 of MAX_DEBUG_MESSAGE_LENGTH characters", GL_INVALID_VALUE,
       [&] {
         glDebugMessageInsert(GL_DEBUG_SOURCE_APPLICATION, GL_DEBUG_TYPE_MARKER, 2, GL_DEBUG_SEVERITY_HIGH, -1,
                              too_long.c_str());
       }},
      {"glDebugMessageInsert length INT_MAX", GL_INVALID_VALUE,
       [&] {
         glDebugMessageInsert(GL_DEBUG_SOURCE_APPLICATION, GL_DEBUG_TYPE_MARKER, 2, GL_DEBUG_SEVERITY_HIGH, INT_MAX,
                              too_long.c_str());
       }},
      {"glGetDebugMessageLog bufSize -1", GL_INVALID_VALUE,
       [&] { CHECK(glGetDebugMessageLog(1, -1, nullptr, nullptr, nullptr, nullptr, nullptr, log) == 0u); }},
      {"glGetDebugMessageLog bufSize INT_MIN", GL_INVALID_VALUE,
       [&] { CHECK(glGetDebugMessageLog(4, INT_MIN, nullptr, nullptr, nullptr, nullptr, nullptr, log) == 0u); }},
  };
  // Each error adds its own API message to the log; the application's "kept" stays first.
  run(table, [&] {
    for (char c : log) CHECK(c == 'x');
  });
  // bufSize smaller than the first message: nothing is returned and the message stays.
  GLint next_length = 0;
  glGetIntegerv(GL_DEBUG_NEXT_LOGGED_MESSAGE_LENGTH, &next_length);
  CHECK(next_length == 5);
  CHECK(glGetDebugMessageLog(1, 4, nullptr, nullptr, nullptr, nullptr, nullptr, log) == 0u);
  for (char c : log) CHECK(c == 'x');
  CHECK(glGetDebugMessageLog(1, 5, nullptr, nullptr, nullptr, nullptr, nullptr, log) == 1u);
  CHECK(std::string(log) == "kept");
  REQUIRE_GL_ERROR(GL_NO_ERROR);
}

TEST_CASE("Misuse: glGetSynciv count", "[misuse]") {
  // GL 4.6 §4.1.3: "An INVALID_VALUE error is generated if count is negative."
  GlContext gl;
  GLsync sync = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
  GLint value = -7;
  GLsizei length = -7;
  glGetSynciv(sync, GL_OBJECT_TYPE, -1, &length, &value);
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  CHECK(value == -7);
  CHECK(length == -7);
  glGetSynciv(sync, GL_OBJECT_TYPE, 0, &length, &value);  // room for nothing
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  CHECK(value == -7);
  CHECK(length == 0);
  glDeleteSync(sync);
}
