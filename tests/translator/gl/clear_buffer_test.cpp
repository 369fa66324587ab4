// glClearBuffer(Sub)Data converts the clear value from format/type to the internal format (GL 4.6 §6.2.2, the
// pixel-transfer conversions of §8.4.4) and reports the spec's errors.
#include <cstring>
#include <vector>

#include "translator/gl/gl_fixture.hpp"

using namespace bismuth::gltest;

namespace {

std::vector<uint8_t> read_bytes(GLuint buffer, size_t n) {
  std::vector<uint8_t> out(n);
  glBindBuffer(GL_COPY_READ_BUFFER, buffer);
  glGetBufferSubData(GL_COPY_READ_BUFFER, 0, static_cast<GLsizeiptr>(n), out.data());
  return out;
}

template <class T>
std::vector<T> read_as(GLuint buffer, size_t count) {
  const auto bytes = read_bytes(buffer, count * sizeof(T));
  std::vector<T> out(count);
  std::memcpy(out.data(), bytes.data(), bytes.size());
  return out;
}

// Clears the whole 48-byte buffer and returns its first `count` values of T.
template <class T>
std::vector<T> clear(GLuint buffer, GLenum internalformat, GLenum format, GLenum type, const void* data, size_t count) {
  glBindBuffer(GL_COPY_WRITE_BUFFER, buffer);
  glClearBufferData(GL_COPY_WRITE_BUFFER, internalformat, format, type, data);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  return read_as<T>(buffer, count);
}

uint16_t half(float f) {
  // Exact for the values the tests use.
  if (f == 1.0f) return 0x3C00;
  if (f == -2.5f) return 0xC100;
  if (f == 0.5f) return 0x3800;
  return 0xFFFF;
}

}  // namespace

TEST_CASE("glClearBufferData converts normalized, float and integer clear values", "[clear]") {
  GlContext gl;
  const GLuint b = make_buffer(48);

  SECTION("unsigned byte to float") {
    const uint8_t v[1] = {51};
    CHECK(clear<float>(b, GL_R32F, GL_RED, GL_UNSIGNED_BYTE, v, 12) == std::vector<float>(12, 51.0f / 255.0f));
  }
  SECTION("float to unsigned normalized bytes, clamped and rounded") {
    const float v[4] = {0.5f, 1.5f, -1.0f, 0.25f};
    const auto got = clear<uint8_t>(b, GL_RGBA8, GL_RGBA, GL_FLOAT, v, 48);
    for (size_t i = 0; i < 48; i += 4) {
      CHECK(got[i] == 128);
      CHECK(got[i + 1] == 255);
      CHECK(got[i + 2] == 0);
      CHECK(got[i + 3] == 64);
    }
  }
  SECTION("BGRA with a reversed packed type is reordered") {
    const uint32_t v = 0x80FF4010u;  // A=0x80 R=0xFF G=0x40 B=0x10
    const auto got = clear<uint8_t>(b, GL_RGBA8, GL_BGRA, GL_UNSIGNED_INT_8_8_8_8_REV, &v, 8);
    CHECK(got == std::vector<uint8_t>{0xFF, 0x40, 0x10, 0x80, 0xFF, 0x40, 0x10, 0x80});
  }
  SECTION("float to half float") {
    const float v[2] = {1.0f, -2.5f};
    CHECK(clear<uint16_t>(b, GL_RG16F, GL_RG, GL_FLOAT, v, 4) == std::vector<uint16_t>{half(1), half(-2.5f), half(1), half(-2.5f)});
    const uint16_t h[4] = {half(0.5f), half(1), 0, 0};
    CHECK(clear<float>(b, GL_RGBA32F, GL_RGBA, GL_HALF_FLOAT, h, 4) == std::vector<float>{0.5f, 1.0f, 0.0f, 0.0f});
  }
  SECTION("signed normalized to unsigned normalized") {
    const int8_t lo = -128, hi = 127;
    CHECK(clear<uint16_t>(b, GL_R16, GL_RED, GL_BYTE, &lo, 2) == std::vector<uint16_t>{0, 0});
    CHECK(clear<uint16_t>(b, GL_R16, GL_RED, GL_BYTE, &hi, 2) == std::vector<uint16_t>{65535, 65535});
  }
  SECTION("missing components are 0, alpha 1") {
    const uint16_t v[3] = {1, 2, 3};
    CHECK(clear<uint32_t>(b, GL_RGBA32UI, GL_RGB_INTEGER, GL_UNSIGNED_SHORT, v, 8) ==
          std::vector<uint32_t>{1, 2, 3, 1, 1, 2, 3, 1});
    const float g = 0.75f;
    CHECK(clear<float>(b, GL_RGBA32F, GL_GREEN, GL_FLOAT, &g, 4) == std::vector<float>{0, 0.75f, 0, 1});
  }
  SECTION("integers are clamped to the internal type") {
    const int32_t big = 1000, small = -1000;
    CHECK(clear<int8_t>(b, GL_R8I, GL_RED_INTEGER, GL_INT, &big, 3) == std::vector<int8_t>{127, 127, 127});
    CHECK(clear<int8_t>(b, GL_R8I, GL_RED_INTEGER, GL_INT, &small, 3) == std::vector<int8_t>{-128, -128, -128});
    const int8_t negative = -5;
    CHECK(clear<uint8_t>(b, GL_R8UI, GL_RED_INTEGER, GL_BYTE, &negative, 2) == std::vector<uint8_t>{0, 0});
    const uint32_t packed = (3u << 30) | (100u << 20) | (200u << 10) | 300u;  // 2_10_10_10_REV: A B G R
    CHECK(clear<uint16_t>(b, GL_RGBA16UI, GL_RGBA_INTEGER, GL_UNSIGNED_INT_2_10_10_10_REV, &packed, 4) ==
          std::vector<uint16_t>{300, 200, 100, 3});
  }
  SECTION("packed normalized and packed float types") {
    const uint16_t v = 0xF840;  // 4_4_4_4: R=15 G=8 B=4 A=0
    CHECK(clear<uint16_t>(b, GL_RGBA16, GL_RGBA, GL_UNSIGNED_SHORT_4_4_4_4, &v, 4) ==
          std::vector<uint16_t>{65535, 34952, 17476, 0});
    // 10F_11F_11F_REV: R (11 bits) = 1.0, G (11 bits) = 2.0, B (10 bits) = 0.5.
    const uint32_t f = 0x3C0u | (0x400u << 11) | (0x1C0u << 22);
    CHECK(clear<float>(b, GL_RGB32F, GL_RGB, GL_UNSIGNED_INT_10F_11F_11F_REV, &f, 6) ==
          std::vector<float>{1.0f, 2.0f, 0.5f, 1.0f, 2.0f, 0.5f});
    // 5_9_9_9_REV: exponent 16 (2^(16-15-9) = 1/256), mantissas 256, 128, 64 -> 1, 0.5, 0.25.
    const uint32_t e = (16u << 27) | (64u << 18) | (128u << 9) | 256u;
    CHECK(clear<float>(b, GL_RGB32F, GL_RGB, GL_UNSIGNED_INT_5_9_9_9_REV, &e, 3) == std::vector<float>{1.0f, 0.5f, 0.25f});
  }
  SECTION("sub-ranges of 12-byte elements, NULL clears to zero") {
    const float v[3] = {1, 2, 3};
    clear<float>(b, GL_RGB32F, GL_RGB, GL_FLOAT, v, 1);
    glClearBufferSubData(GL_COPY_WRITE_BUFFER, GL_RGB32F, 12, 24, GL_RGB, GL_FLOAT, nullptr);
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    CHECK(read_as<float>(b, 12) == std::vector<float>{1, 2, 3, 0, 0, 0, 0, 0, 0, 1, 2, 3});
    const uint8_t u[4] = {255, 0, 255, 0};
    glClearNamedBufferSubData(b, GL_RGBA8, 4, 4, GL_RGBA, GL_UNSIGNED_BYTE, u);
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    CHECK(read_bytes(b, 12) == std::vector<uint8_t>{0, 0, 0x80, 0x3F, 255, 0, 255, 0, 0, 0, 0x40, 0x40});
  }
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("glClearBufferData reports the errors of GL 4.6 section 6.2.2", "[clear]") {
  GlContext gl;
  const std::vector<uint32_t> zeros(12, 0);
  const GLuint b = make_buffer(48, zeros.data());
  glBindBuffer(GL_COPY_WRITE_BUFFER, b);
  const uint32_t v[4] = {1, 2, 3, 4};
  struct Case {
    GLenum internalformat, format, type, error;
  };
  const Case cases[] = {
      {GL_RGB8, GL_RGB, GL_UNSIGNED_BYTE, GL_INVALID_ENUM},               // not a buffer format
      {GL_RGBA8, 0x1909 /* GL_LUMINANCE */, GL_UNSIGNED_BYTE, GL_INVALID_ENUM},
      {GL_RGBA8, GL_RGBA, GL_UNSIGNED_INT64_ARB, GL_INVALID_ENUM},
      {GL_RGBA32UI, GL_RGBA, GL_UNSIGNED_INT, GL_INVALID_OPERATION},       // integer internal, normalized format
      {GL_RGBA8, GL_RGBA_INTEGER, GL_UNSIGNED_BYTE, GL_INVALID_OPERATION}, // the reverse
      {GL_RGBA32I, GL_RGBA_INTEGER, GL_FLOAT, GL_INVALID_OPERATION},       // float type, integer format
      {GL_RGBA8, GL_RGB, GL_UNSIGNED_SHORT_4_4_4_4, GL_INVALID_OPERATION}, // packed type of 4 for 3 components
      {GL_RGBA8, GL_RGBA, GL_UNSIGNED_INT_24_8, GL_INVALID_OPERATION},     // depth/stencil type
      {GL_R32F, GL_DEPTH_COMPONENT, GL_FLOAT, GL_INVALID_OPERATION},
  };
  for (const Case& c : cases) {
    INFO(std::hex << c.internalformat << " " << c.format << " " << c.type);
    glClearBufferData(GL_COPY_WRITE_BUFFER, c.internalformat, c.format, c.type, v);
    CHECK(glGetError() == c.error);
  }
  // Element alignment and ranges.
  glClearBufferSubData(GL_COPY_WRITE_BUFFER, GL_RGBA32F, 8, 16, GL_RGBA, GL_FLOAT, v);
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  glClearBufferSubData(GL_COPY_WRITE_BUFFER, GL_R32UI, 0, 52, GL_RED_INTEGER, GL_UNSIGNED_INT, v);
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  glClearBufferSubData(GL_COPY_WRITE_BUFFER, GL_R32UI, -4, 4, GL_RED_INTEGER, GL_UNSIGNED_INT, v);
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  // Nothing was written by the failed calls.
  CHECK(read_as<uint32_t>(b, 12) == std::vector<uint32_t>(12, 0));
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}
