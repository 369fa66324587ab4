// GL misuse (misuse_support.hpp): buffer data store sizes and the ranges of sub-data reads, writes, copies and
// clears.
#include <cstring>
#include <string>
#include <vector>

#include "translator/gl/misuse_support.hpp"

using namespace bismuth::gltest;
using namespace bismuth::gltest::misuse;

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
