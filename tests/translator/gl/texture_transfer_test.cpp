// Texture uploads and reads through the GL API (GL 4.6 §8.4.4, §8.5, §8.6, §8.11.4, §8.19): every sized colour
// format round-trips through glTexSubImage*/glGetTexImage in its natural format and type, conversions follow
// §8.4.4 / §18.2.8, the pixel-store state and pixel buffer objects place the client bytes, and the errors of
// §8.5/§8.6/§8.11/§8.19 are reported.
#include <cmath>
#include <cstring>
#include <vector>

#include "translator/gl/gl_fixture.hpp"

using namespace bismuth::gltest;

namespace {

// A format of GL 4.6 table 8.12 with the client format and type that hold its texels exactly.
struct RoundTrip {
  GLenum internalformat, format, type;
  int components;  // client components per pixel (packed types: 1 element)
  int bytes;       // client bytes per pixel
  const char* name;
};

constexpr GLenum UB = GL_UNSIGNED_BYTE, B = GL_BYTE, US = GL_UNSIGNED_SHORT, S = GL_SHORT, UI = GL_UNSIGNED_INT,
                 I = GL_INT, HF = GL_HALF_FLOAT, F = GL_FLOAT;

const RoundTrip kFormats[] = {
    {GL_R8, GL_RED, UB, 1, 1, "R8"},
    {GL_R8_SNORM, GL_RED, B, 1, 1, "R8_SNORM"},
    {GL_R16, GL_RED, US, 1, 2, "R16"},
    {GL_R16_SNORM, GL_RED, S, 1, 2, "R16_SNORM"},
    {GL_RG8, GL_RG, UB, 2, 2, "RG8"},
    {GL_RG8_SNORM, GL_RG, B, 2, 2, "RG8_SNORM"},
    {GL_RG16, GL_RG, US, 2, 4, "RG16"},
    {GL_RG16_SNORM, GL_RG, S, 2, 4, "RG16_SNORM"},
    {GL_RGB8, GL_RGB, UB, 3, 3, "RGB8"},
    {GL_RGB8_SNORM, GL_RGB, B, 3, 3, "RGB8_SNORM"},
    {GL_RGB16, GL_RGB, US, 3, 6, "RGB16"},
    {GL_RGB16_SNORM, GL_RGB, S, 3, 6, "RGB16_SNORM"},
    {GL_RGBA8, GL_RGBA, UB, 4, 4, "RGBA8"},
    {GL_RGBA8_SNORM, GL_RGBA, B, 4, 4, "RGBA8_SNORM"},
    {GL_RGB10_A2, GL_RGBA, GL_UNSIGNED_INT_2_10_10_10_REV, 1, 4, "RGB10_A2"},
    {GL_RGB10_A2UI, GL_RGBA_INTEGER, GL_UNSIGNED_INT_2_10_10_10_REV, 1, 4, "RGB10_A2UI"},
    {GL_RGBA16, GL_RGBA, US, 4, 8, "RGBA16"},
    {GL_RGBA16_SNORM, GL_RGBA, S, 4, 8, "RGBA16_SNORM"},
    {GL_SRGB8, GL_RGB, UB, 3, 3, "SRGB8"},
    {GL_SRGB8_ALPHA8, GL_RGBA, UB, 4, 4, "SRGB8_ALPHA8"},
    {GL_R16F, GL_RED, HF, 1, 2, "R16F"},
    {GL_RG16F, GL_RG, HF, 2, 4, "RG16F"},
    {GL_RGB16F, GL_RGB, HF, 3, 6, "RGB16F"},
    {GL_RGBA16F, GL_RGBA, HF, 4, 8, "RGBA16F"},
    {GL_R32F, GL_RED, F, 1, 4, "R32F"},
    {GL_RG32F, GL_RG, F, 2, 8, "RG32F"},
    {GL_RGB32F, GL_RGB, F, 3, 12, "RGB32F"},
    {GL_RGBA32F, GL_RGBA, F, 4, 16, "RGBA32F"},
    {GL_R11F_G11F_B10F, GL_RGB, GL_UNSIGNED_INT_10F_11F_11F_REV, 1, 4, "R11F_G11F_B10F"},
    {GL_RGB9_E5, GL_RGB, GL_UNSIGNED_INT_5_9_9_9_REV, 1, 4, "RGB9_E5"},
    {GL_R8I, GL_RED_INTEGER, B, 1, 1, "R8I"},
    {GL_R8UI, GL_RED_INTEGER, UB, 1, 1, "R8UI"},
    {GL_R16I, GL_RED_INTEGER, S, 1, 2, "R16I"},
    {GL_R16UI, GL_RED_INTEGER, US, 1, 2, "R16UI"},
    {GL_R32I, GL_RED_INTEGER, I, 1, 4, "R32I"},
    {GL_R32UI, GL_RED_INTEGER, UI, 1, 4, "R32UI"},
    {GL_RG8I, GL_RG_INTEGER, B, 2, 2, "RG8I"},
    {GL_RG8UI, GL_RG_INTEGER, UB, 2, 2, "RG8UI"},
    {GL_RG16I, GL_RG_INTEGER, S, 2, 4, "RG16I"},
    {GL_RG16UI, GL_RG_INTEGER, US, 2, 4, "RG16UI"},
    {GL_RG32I, GL_RG_INTEGER, I, 2, 8, "RG32I"},
    {GL_RG32UI, GL_RG_INTEGER, UI, 2, 8, "RG32UI"},
    {GL_RGB8I, GL_RGB_INTEGER, B, 3, 3, "RGB8I"},
    {GL_RGB8UI, GL_RGB_INTEGER, UB, 3, 3, "RGB8UI"},
    {GL_RGB16I, GL_RGB_INTEGER, S, 3, 6, "RGB16I"},
    {GL_RGB16UI, GL_RGB_INTEGER, US, 3, 6, "RGB16UI"},
    {GL_RGB32I, GL_RGB_INTEGER, I, 3, 12, "RGB32I"},
    {GL_RGB32UI, GL_RGB_INTEGER, UI, 3, 12, "RGB32UI"},
    {GL_RGBA8I, GL_RGBA_INTEGER, B, 4, 4, "RGBA8I"},
    {GL_RGBA8UI, GL_RGBA_INTEGER, UB, 4, 4, "RGBA8UI"},
    {GL_RGBA16I, GL_RGBA_INTEGER, S, 4, 8, "RGBA16I"},
    {GL_RGBA16UI, GL_RGBA_INTEGER, US, 4, 8, "RGBA16UI"},
    {GL_RGBA32I, GL_RGBA_INTEGER, I, 4, 16, "RGBA32I"},
    {GL_RGBA32UI, GL_RGBA_INTEGER, UI, 4, 16, "RGBA32UI"},
};

uint32_t next(uint32_t& state) {
  state = state * 1664525u + 1013904223u;
  return state >> 8;
}

// A half-float encoding of the small integer n (exact).
uint16_t half_of_int(int n) {
  if (n == 0) return 0;
  const uint16_t sign = n < 0 ? 0x8000 : 0;
  const unsigned a = static_cast<unsigned>(n < 0 ? -n : n);
  int e = 0;
  while ((a >> (e + 1)) != 0) ++e;
  const unsigned mantissa = (a << (10 - e)) & 0x3FF;
  return static_cast<uint16_t>(sign | ((e + 15) << 10) | mantissa);
}

// Client pixels whose every value the format holds exactly (so the round trip is the identity, GL 4.6 §8.4.4.2 /
// §18.2.8): no -128 / -32768 for signed normalized types (both read as -1.0, which packs back as -127 / -32767),
// finite 11/10-bit floats, RGB9_E5 values whose largest mantissa has its top bit (the encoding §8.5.2 picks).
std::vector<uint8_t> pixels_for(const RoundTrip& f, size_t count, uint32_t seed) {
  std::vector<uint8_t> out(count * static_cast<size_t>(f.bytes));
  const bool snorm = f.format != GL_RED_INTEGER && f.format != GL_RG_INTEGER && f.format != GL_RGB_INTEGER &&
                     f.format != GL_RGBA_INTEGER && (f.type == B || f.type == S);
  uint32_t state = seed;
  size_t elements = out.size() / (f.type == B || f.type == UB                   ? 1
                                  : f.type == S || f.type == US || f.type == HF ? 2
                                                                                : 4);
  for (size_t i = 0; i < elements; ++i) {
    const uint32_t r = next(state);
    switch (f.type) {
      case GL_UNSIGNED_BYTE:
      case GL_BYTE: {
        uint8_t v = static_cast<uint8_t>(r);
        if (snorm && v == 0x80) v = 0x81;
        out[i] = v;
        break;
      }
      case GL_UNSIGNED_SHORT:
      case GL_SHORT: {
        uint16_t v = static_cast<uint16_t>(r);
        if (snorm && v == 0x8000) v = 0x8001;
        std::memcpy(&out[i * 2], &v, 2);
        break;
      }
      case GL_HALF_FLOAT: {
        const uint16_t v = half_of_int(static_cast<int>(r % 41) - 20);
        std::memcpy(&out[i * 2], &v, 2);
        break;
      }
      case GL_FLOAT: {
        const float v = static_cast<float>(static_cast<int>(r % 1001) - 500) * 0.125f;
        std::memcpy(&out[i * 4], &v, 4);
        break;
      }
      case GL_UNSIGNED_INT_10F_11F_11F_REV: {
        // Exponents below 31 (no Inf/NaN): clear the top exponent bit of each component.
        const uint32_t v = (r | (next(state) << 24)) & ~((1u << 10) | (1u << 21) | (1u << 31));
        std::memcpy(&out[i * 4], &v, 4);
        break;
      }
      case GL_UNSIGNED_INT_5_9_9_9_REV: {
        const uint32_t v = (r | (next(state) << 24)) | (1u << 8);
        std::memcpy(&out[i * 4], &v, 4);
        break;
      }
      default: {
        const uint32_t v = r | (next(state) << 24);
        std::memcpy(&out[i * 4], &v, 4);
        break;
      }
    }
  }
  return out;
}

void set_alignment(GLint a) {
  glPixelStorei(GL_PACK_ALIGNMENT, a);
  glPixelStorei(GL_UNPACK_ALIGNMENT, a);
}

}  // namespace

TEST_CASE("every sized colour format round-trips through glTextureSubImage2D and glGetTextureImage", "[textures]") {
  GlContext gl;
  set_alignment(1);
  constexpr GLsizei w = 5, h = 3;
  for (const RoundTrip& f : kFormats) {
    INFO(f.name);
    GLuint t = 0;
    glCreateTextures(GL_TEXTURE_2D, 1, &t);
    glTextureStorage2D(t, 2, f.internalformat, w, h);
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    const auto level0 = pixels_for(f, w * h, f.internalformat);
    const auto level1 = pixels_for(f, 2 * 1, f.internalformat + 7);
    glTextureSubImage2D(t, 0, 0, 0, w, h, f.format, f.type, level0.data());
    glTextureSubImage2D(t, 1, 0, 0, 2, 1, f.format, f.type, level1.data());
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    std::vector<uint8_t> got0(level0.size(), 0xCD), got1(level1.size(), 0xCD);
    glGetTextureImage(t, 0, f.format, f.type, static_cast<GLsizei>(got0.size()), got0.data());
    glGetTextureImage(t, 1, f.format, f.type, static_cast<GLsizei>(got1.size()), got1.data());
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    CHECK(got0 == level0);
    CHECK(got1 == level1);
    glDeleteTextures(1, &t);
  }
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("uploads and reads convert between client types and the internal format (GL 4.6 §8.4.4, §18.2.8)",
          "[textures]") {
  GlContext gl;
  set_alignment(1);
  GLuint t = 0;
  glGenTextures(1, &t);
  glBindTexture(GL_TEXTURE_2D, t);
  glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, 2, 1);
  // Floats to unsigned normalized: clamped to [0, 1], c * 255 rounded (§2.3.5.1, §8.4.4.2).
  const float in[8] = {0.0f, 1.0f, 0.5f, -3.0f, 2.0f, 0.2f, 1.0f / 255.0f, 0.998f};
  glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 2, 1, GL_RGBA, GL_FLOAT, in);
  uint8_t bytes[8] = {};
  glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, bytes);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  for (int i = 0; i < 8; ++i) {
    const float clamped = std::fmin(std::fmax(in[i], 0.0f), 1.0f);
    CHECK(bytes[i] == static_cast<uint8_t>(std::lround(clamped * 255.0f)));
  }
  // Unsigned normalized to float: c / 255 (§2.3.5.1).
  float out[8] = {};
  glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_FLOAT, out);
  for (int i = 0; i < 8; ++i) CHECK(out[i] == Approx(bytes[i] / 255.0f));
  // BGRA swaps R and B (§8.4.4.1, table 8.8).
  uint8_t bgra[8] = {};
  glGetTexImage(GL_TEXTURE_2D, 0, GL_BGRA, GL_UNSIGNED_BYTE, bgra);
  CHECK(bgra[0] == bytes[2]);
  CHECK(bgra[2] == bytes[0]);
  // RED of an RGBA texture returns only R.
  uint8_t red[2] = {};
  glGetTexImage(GL_TEXTURE_2D, 0, GL_RED, GL_UNSIGNED_BYTE, red);
  CHECK(red[1] == bytes[4]);
  glDeleteTextures(1, &t);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("unpack and pack state place the client pixels (GL 4.6 §8.4.4.1, §18.2.8)", "[textures]") {
  GlContext gl;
  constexpr int w = 3, h = 2;
  GLuint t = 0;
  glCreateTextures(GL_TEXTURE_2D, 1, &t);
  glTextureStorage2D(t, 1, GL_R8, 5, 4);
  // UNPACK: row length 7, skip 2 pixels and 1 row, alignment 8: row stride ceil(7 / 8) * 8 = 8 bytes.
  glPixelStorei(GL_UNPACK_ROW_LENGTH, 7);
  glPixelStorei(GL_UNPACK_SKIP_PIXELS, 2);
  glPixelStorei(GL_UNPACK_SKIP_ROWS, 1);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 8);
  std::vector<uint8_t> client(8 * 3);
  for (size_t i = 0; i < client.size(); ++i) client[i] = static_cast<uint8_t>(i * 3 + 1);
  glTextureSubImage2D(t, 0, 1, 1, w, h, GL_RED, GL_UNSIGNED_BYTE, client.data());
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  GLint v = 0;
  glGetIntegerv(GL_UNPACK_ROW_LENGTH, &v);
  CHECK(v == 7);
  glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
  glPixelStorei(GL_UNPACK_SKIP_PIXELS, 0);
  glPixelStorei(GL_UNPACK_SKIP_ROWS, 0);
  // PACK: read the 3 × 2 region back with alignment 4 (row stride 4) and skip 1 pixel: padding stays untouched.
  glPixelStorei(GL_PACK_ALIGNMENT, 4);
  glPixelStorei(GL_PACK_SKIP_PIXELS, 1);
  std::vector<uint8_t> packed(8, 0xEE);
  glGetTextureSubImage(t, 0, 1, 1, 0, w, h, 1, GL_RED, GL_UNSIGNED_BYTE, static_cast<GLsizei>(packed.size()),
                       packed.data());
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  for (int y = 0; y < h; ++y) {
    CHECK(packed[static_cast<size_t>(y * 4)] == 0xEE);  // the skipped pixel
    for (int x = 0; x < w; ++x) {
      const uint8_t expected = client[static_cast<size_t>((1 + y) * 8 + 2 + x)];
      CHECK(packed[static_cast<size_t>(y * 4 + 1 + x)] == expected);
    }
  }
  // glGetnTexImage / glGetTextureSubImage: "An INVALID_OPERATION error is generated if ... the buffer size
  // required to store the requested data is greater than bufSize" (here 4 + 4 bytes are needed).
  glGetTextureSubImage(t, 0, 1, 1, 0, w, h, 1, GL_RED, GL_UNSIGNED_BYTE, 7, packed.data());
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glDeleteTextures(1, &t);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE(
    "pixel buffer objects: offsets into PIXEL_UNPACK_BUFFER and PIXEL_PACK_BUFFER (GL 4.6 §8.4.4.1, "
    "§18.2.8)",
    "[textures]") {
  GlContext gl;
  set_alignment(4);
  std::vector<uint32_t> texels(16);
  for (size_t i = 0; i < texels.size(); ++i) texels[i] = 0x01020304u * static_cast<uint32_t>(i + 1);
  std::vector<uint8_t> source(8 + texels.size() * 4, 0);
  std::memcpy(source.data() + 8, texels.data(), texels.size() * 4);
  const GLuint unpack = make_buffer(static_cast<GLsizeiptr>(source.size()), source.data());
  const GLuint pack = make_buffer(100);
  GLuint t = 0;
  glCreateTextures(GL_TEXTURE_2D, 1, &t);
  glTextureStorage2D(t, 1, GL_RGBA8, 4, 4);
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, unpack);
  glTextureSubImage2D(t, 0, 0, 0, 4, 4, GL_RGBA, GL_UNSIGNED_BYTE, reinterpret_cast<const void*>(8));
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  // "An INVALID_OPERATION error is generated if ... data would be unpacked from the buffer object such that the
  // memory reads required would exceed the data store size", and for an offset that is not a multiple of the
  // type's size.
  glTextureSubImage2D(t, 0, 0, 0, 4, 4, GL_RGBA, GL_UNSIGNED_BYTE, reinterpret_cast<const void*>(12));
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glTextureSubImage2D(t, 0, 0, 0, 1, 1, GL_RGBA, GL_FLOAT, reinterpret_cast<const void*>(2));
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
  glBindBuffer(GL_PIXEL_PACK_BUFFER, pack);
  glGetTextureImage(t, 0, GL_RGBA, GL_UNSIGNED_BYTE, 0, reinterpret_cast<void*>(16));
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  glGetTextureImage(t, 0, GL_RGBA, GL_UNSIGNED_BYTE, 0, reinterpret_cast<void*>(40));
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
  std::vector<uint32_t> got(texels.size());
  glGetNamedBufferSubData(pack, 16, static_cast<GLsizeiptr>(got.size() * 4), got.data());
  CHECK(got == texels);
  glDeleteTextures(1, &t);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("array, 3D, 1D-array and cube map textures address layers, slices and faces (GL 4.6 §8.6, §8.11.4)",
          "[textures]") {
  GlContext gl;
  set_alignment(1);
  SECTION("2D array: glTexSubImage3D's zoffset and depth select layers") {
    GLuint t = 0;
    glCreateTextures(GL_TEXTURE_2D_ARRAY, 1, &t);
    glTextureStorage3D(t, 1, GL_R32UI, 2, 2, 4);
    std::vector<uint32_t> all(16);
    for (uint32_t i = 0; i < 16; ++i) all[i] = 100 + i;
    glTextureSubImage3D(t, 0, 0, 0, 0, 2, 2, 4, GL_RED_INTEGER, GL_UNSIGNED_INT, all.data());
    const uint32_t layer2[4] = {7, 8, 9, 10};
    glTextureSubImage3D(t, 0, 0, 0, 2, 2, 2, 1, GL_RED_INTEGER, GL_UNSIGNED_INT, layer2);
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    std::vector<uint32_t> got(16);
    glGetTextureImage(t, 0, GL_RED_INTEGER, GL_UNSIGNED_INT, 64, got.data());
    std::memcpy(&all[8], layer2, sizeof layer2);
    CHECK(got == all);
    // One texel of layer 3 through glGetTextureSubImage.
    uint32_t one = 0;
    glGetTextureSubImage(t, 0, 1, 1, 3, 1, 1, 1, GL_RED_INTEGER, GL_UNSIGNED_INT, 4, &one);
    CHECK(one == all[15]);
    // Outside the layers: INVALID_VALUE (§8.6: "zoffset + depth > d").
    glTextureSubImage3D(t, 0, 0, 0, 3, 2, 2, 2, GL_RED_INTEGER, GL_UNSIGNED_INT, all.data());
    REQUIRE_GL_ERROR(GL_INVALID_VALUE);
    glDeleteTextures(1, &t);
  }
  SECTION("3D: slices of a level") {
    GLuint t = 0;
    glCreateTextures(GL_TEXTURE_3D, 1, &t);
    glTextureStorage3D(t, 2, GL_RG8, 4, 2, 2);
    std::vector<uint8_t> level1(2 * 1 * 1 * 2);
    for (size_t i = 0; i < level1.size(); ++i) level1[i] = static_cast<uint8_t>(200 + i);
    glTextureSubImage3D(t, 1, 0, 0, 0, 2, 1, 1, GL_RG, GL_UNSIGNED_BYTE, level1.data());
    std::vector<uint8_t> got(level1.size());
    glGetTextureImage(t, 1, GL_RG, GL_UNSIGNED_BYTE, static_cast<GLsizei>(got.size()), got.data());
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    CHECK(got == level1);
    glDeleteTextures(1, &t);
  }
  SECTION("1D array: glTexSubImage2D's yoffset and height select layers") {
    GLuint t = 0;
    glCreateTextures(GL_TEXTURE_1D_ARRAY, 1, &t);
    glTextureStorage2D(t, 1, GL_R16F, 3, 5);
    const uint16_t row[3] = {0x3C00, 0x4000, 0xC000};  // 1, 2, -2
    glTextureSubImage2D(t, 0, 0, 4, 3, 1, GL_RED, GL_HALF_FLOAT, row);
    float got[3] = {};
    glGetTextureSubImage(t, 0, 0, 4, 0, 3, 1, 1, GL_RED, GL_FLOAT, sizeof got, got);
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    CHECK(got[0] == 1.0f);
    CHECK(got[2] == -2.0f);
    glDeleteTextures(1, &t);
  }
  SECTION("cube map: each face is a 2D target; glGetTextureImage returns the six faces in order") {
    GLuint t = 0;
    glGenTextures(1, &t);
    glBindTexture(GL_TEXTURE_CUBE_MAP, t);
    glTexStorage2D(GL_TEXTURE_CUBE_MAP, 1, GL_RGBA8, 2, 2);
    std::vector<uint32_t> faces(24);
    for (uint32_t face = 0; face < 6; ++face) {
      for (uint32_t i = 0; i < 4; ++i) faces[face * 4 + i] = 0x10000u * (face + 1) + i;
      glTexSubImage2D(GL_TEXTURE_CUBE_MAP_POSITIVE_X + face, 0, 0, 0, 2, 2, GL_RGBA, GL_UNSIGNED_BYTE,
                      &faces[face * 4]);
    }
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    std::vector<uint32_t> one(4);
    glGetTexImage(GL_TEXTURE_CUBE_MAP_NEGATIVE_Y, 0, GL_RGBA, GL_UNSIGNED_BYTE, one.data());
    CHECK(std::vector<uint32_t>(faces.begin() + 12, faces.begin() + 16) == one);
    std::vector<uint32_t> all(24);
    glGetTextureImage(t, 0, GL_RGBA, GL_UNSIGNED_BYTE, 96, all.data());
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    CHECK(all == faces);
    // glGetTexImage takes the faces, not TEXTURE_CUBE_MAP (§8.11.4: INVALID_ENUM).
    glGetTexImage(GL_TEXTURE_CUBE_MAP, 0, GL_RGBA, GL_UNSIGNED_BYTE, all.data());
    REQUIRE_GL_ERROR(GL_INVALID_ENUM);
    glDeleteTextures(1, &t);
  }
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("mutable levels: glTexImage* defines each level, and redefinition keeps the other levels", "[textures]") {
  GlContext gl;
  set_alignment(1);
  GLuint t = 0;
  glGenTextures(1, &t);
  glBindTexture(GL_TEXTURE_2D, t);
  const uint8_t l0[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
  const uint8_t l1[4] = {21, 22, 23, 24};
  glTexImage2D(GL_TEXTURE_2D, 0, GL_R8, 4, 4, 0, GL_RED, GL_UNSIGNED_BYTE, l0);
  glTexImage2D(GL_TEXTURE_2D, 1, GL_R8, 2, 2, 0, GL_RED, GL_UNSIGNED_BYTE, l1);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  uint8_t got[16] = {};
  glGetTexImage(GL_TEXTURE_2D, 1, GL_RED, GL_UNSIGNED_BYTE, got);
  CHECK(std::memcmp(got, l1, 4) == 0);
  // Redefine level 0 with another size and an unsized internal format (§8.5: RGBA with UNSIGNED_BYTE → an
  // 8-bit RGBA format); level 1 keeps its image.
  const uint8_t rgba[4] = {9, 8, 7, 6};
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, 1, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  GLint v = 0;
  glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_WIDTH, &v);
  CHECK(v == 1);
  glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_INTERNAL_FORMAT, &v);
  CHECK(v == GL_RGBA);
  glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, got);
  CHECK(std::memcmp(got, rgba, 4) == 0);
  glGetTexImage(GL_TEXTURE_2D, 1, GL_RED, GL_UNSIGNED_BYTE, got);
  CHECK(std::memcmp(got, l1, 4) == 0);
  // A null pointer defines the level without contents; glTexSubImage2D fills it.
  glTexImage2D(GL_TEXTURE_2D, 2, GL_RG32F, 3, 1, 0, GL_RG, GL_FLOAT, nullptr);
  const float rg[6] = {1, 2, 3, 4, 5, 6};
  glTexSubImage2D(GL_TEXTURE_2D, 2, 0, 0, 3, 1, GL_RG, GL_FLOAT, rg);
  float back[6] = {};
  glGetTexImage(GL_TEXTURE_2D, 2, GL_RG, GL_FLOAT, back);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  CHECK(std::memcmp(back, rg, sizeof rg) == 0);
  // The default texture (name zero) has levels of its own (§8.1).
  glBindTexture(GL_TEXTURE_2D, 0);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_R8, 4, 4, 0, GL_RED, GL_UNSIGNED_BYTE, l0);
  glGetTexImage(GL_TEXTURE_2D, 0, GL_RED, GL_UNSIGNED_BYTE, got);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  CHECK(std::memcmp(got, l0, 16) == 0);
  glDeleteTextures(1, &t);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("texture storage and image errors (GL 4.6 §8.5, §8.6, §8.19)", "[textures]") {
  GlContext gl;
  GLuint t = 0;
  glGenTextures(1, &t);
  glBindTexture(GL_TEXTURE_2D, t);
  // §8.19: "An INVALID_ENUM error is generated if internalformat is one of the unsized base internal formats".
  glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA, 4, 4);
  REQUIRE_GL_ERROR(GL_INVALID_ENUM);
  // "An INVALID_VALUE error is generated if width, height, depth or levels are less than 1".
  glTexStorage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 4, 4);
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  // "An INVALID_OPERATION error is generated if levels is greater than floor(log2(max(width, height))) + 1".
  glTexStorage2D(GL_TEXTURE_2D, 4, GL_RGBA8, 4, 4);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  // TexStorage1D takes TEXTURE_1D only: INVALID_ENUM.
  glTexStorage1D(GL_TEXTURE_2D, 1, GL_RGBA8, 4);
  REQUIRE_GL_ERROR(GL_INVALID_ENUM);
  glTexStorage2D(GL_TEXTURE_2D, 3, GL_RGBA8, 4, 4);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  // Immutable: a second TexStorage and any TexImage are INVALID_OPERATION.
  glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, 4, 4);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  // TexStorage on the default texture: INVALID_OPERATION.
  glBindTexture(GL_TEXTURE_2D, 0);
  glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, 4, 4);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glBindTexture(GL_TEXTURE_2D, t);
  const uint8_t data[64] = {};
  // §8.6: a region outside the level, a negative offset, a level without an image.
  glTexSubImage2D(GL_TEXTURE_2D, 0, 2, 0, 3, 1, GL_RGBA, GL_UNSIGNED_BYTE, data);
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  glTexSubImage2D(GL_TEXTURE_2D, 0, -1, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, data);
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  glTexSubImage2D(GL_TEXTURE_2D, 3, 0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, data);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  // §8.4.4: integer client formats with a normalized internal format (and the reverse) are INVALID_OPERATION;
  // unknown format or type enums are INVALID_ENUM.
  glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 1, 1, GL_RGBA_INTEGER, GL_UNSIGNED_BYTE, data);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 1, 1, GL_RGBA, GL_RGBA, data);
  REQUIRE_GL_ERROR(GL_INVALID_ENUM);
  // §8.5: TexImage's internalformat must be a valid one (INVALID_VALUE), border zero (INVALID_VALUE).
  GLuint mutable_texture = 0;
  glGenTextures(1, &mutable_texture);
  glBindTexture(GL_TEXTURE_2D, mutable_texture);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 4, 4, 1, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  glTexImage2D(GL_TEXTURE_2D, 0, 0x1234, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  glTexImage2D(GL_TEXTURE_2D, -1, GL_RGBA8, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  // glTextureStorage* on a texture of another dimension count: INVALID_OPERATION.
  GLuint volume = 0;
  glCreateTextures(GL_TEXTURE_3D, 1, &volume);
  glTextureStorage2D(volume, 1, GL_RGBA8, 4, 4);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glTextureStorage2D(9876, 1, GL_RGBA8, 4, 4);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  // A cube map's faces are square (INVALID_VALUE).
  GLuint cube = 0;
  glCreateTextures(GL_TEXTURE_CUBE_MAP, 1, &cube);
  glTextureStorage2D(cube, 1, GL_RGBA8, 4, 2);
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  const GLuint all[4] = {t, mutable_texture, volume, cube};
  glDeleteTextures(4, all);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}
