// What the GL misuse tests (misuse_*_test.cpp) share. Every entry point that takes a size, offset, count or index
// is called with values that break a GL 4.6 rule — negative, past the end, and pairs whose sum overflows 64 bits —
// one table-driven TEST_CASE per family. Each scenario names the rule and the error it gives; after each error the
// test checks that the call changed nothing (buffer bytes, mapping state, bindings, caller memory), and that no
// map call returned a pointer, let alone one outside a mapping.
#pragma once

#include <climits>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "translator/gl/gl_fixture.hpp"

namespace bismuth::gltest::misuse {

inline constexpr GLsizeiptr kSize = 64;
inline constexpr GLintptr kMax = INT64_MAX;
inline constexpr GLintptr kHalf = GLintptr(1) << 62;  // kHalf + kHalf overflows GLintptr

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
inline void run(const std::vector<Scenario>& table, const std::function<void()>& after) {
  for (const Scenario& s : table) {
    INFO(s.what);
    s.call();
    CHECK(glGetError() == s.expected);
    REQUIRE_GL_ERROR(GL_NO_ERROR);  // one error per call
    after();
  }
}

inline constexpr const char* kStore = R"(#version 450
layout(local_size_x = 4) in;
layout(std430, binding = 0) buffer B { uint v[]; };
void main() { v[gl_GlobalInvocationID.x] = gl_GlobalInvocationID.x + 1u; }
)";

}  // namespace bismuth::gltest::misuse
