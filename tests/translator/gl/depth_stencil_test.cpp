// The stencil indices of depth-stencil textures (DEPTH24_STENCIL8, DEPTH32F_STENCIL8; issue 18): pixel transfers with
// format DEPTH_STENCIL and STENCIL_INDEX (GL 4.6 §8.4.4.2, §8.5, §8.6, §8.11.4, §18.2.8), clears and copies (§8.21,
// §18.3.3), views (§8.18), stencil sampling through DEPTH_STENCIL_TEXTURE_MODE (§8.10, §8.17, table 15.1) and the
// queries (§8.11.3, §22.3). Tagged [depth]: gl:depth_textures_color runs them with the depth in colour storage too
// (BISMUTH_DEPTH_TEXTURES=color). Every expected value comes from the spec's packing rules on the CPU.
#include <cmath>
#include <cstring>
#include <vector>

#include "translator/gl/gl_fixture.hpp"

using namespace bismuth::gltest;

namespace {

// §2.3.5.1, equation 2.1's inverse: the b-bit unsigned normalized value nearest to f in [0, 1].
uint32_t to_unorm(double f, int bits) {
  return static_cast<uint32_t>(std::llround(std::min(std::max(f, 0.0), 1.0) * double((uint64_t(1) << bits) - 1)));
}

// Table 8.8: UNSIGNED_INT_24_8 is one 32-bit word, the depth in bits 31..8 and the stencil index in bits 7..0.
uint32_t pack_24_8(uint32_t depth24, uint8_t stencil) {
  return (depth24 << 8) | stencil;
}

// FLOAT_32_UNSIGNED_INT_24_8_REV (table 8.8): a 32-bit float depth (first word), then a word whose bits 7..0 are the
// stencil index (bits 31..8 unused).
struct Float24_8 {
  float depth;
  uint32_t stencil;
};
static_assert(sizeof(Float24_8) == 8);

GLint level_parameter(GLuint texture, GLint level, GLenum pname) {
  GLint v = -1;
  glGetTextureLevelParameteriv(texture, level, pname, &v);
  return v;
}

}  // namespace

TEST_CASE("DEPTH24_STENCIL8 keeps depth and stencil through UNSIGNED_INT_24_8 transfers (GL 4.6 §8.5, §8.11.4)",
          "[textures][depth][stencil]") {
  GlContext gl;
  GLuint t = 0;
  glCreateTextures(GL_TEXTURE_2D, 1, &t);
  glTextureStorage2D(t, 1, GL_DEPTH24_STENCIL8, 4, 2);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  const uint32_t depths[8] = {0, 0xFFFFFF, 0x400000, 0x123456, 0xABCDEF, 1, 0x800000, 0x7FFFFF};
  const uint8_t stencils[8] = {0, 255, 7, 128, 200, 1, 99, 42};
  uint32_t in[8];
  for (int i = 0; i < 8; ++i) in[i] = pack_24_8(depths[i], stencils[i]);
  glTextureSubImage2D(t, 0, 0, 0, 4, 2, GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8, in);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  // §8.11.4 / §18.2.8: GetTexImage with DEPTH_STENCIL packs the depth (converted to 24-bit fixed point) above the
  // stencil index: the words come back as they went in.
  uint32_t back[8] = {};
  glGetTextureImage(t, 0, GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8, sizeof back, back);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  for (int i = 0; i < 8; ++i) CHECK(back[i] == in[i]);
  // "If format is STENCIL_INDEX, the stencil index of each texel is returned" (GL 4.4+: the stencil of a
  // depth-stencil texture; §8.11.4's error is only for a base internal format that is neither STENCIL_INDEX nor
  // DEPTH_STENCIL).
  uint8_t s[8] = {};
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glGetTextureImage(t, 0, GL_STENCIL_INDEX, GL_UNSIGNED_BYTE, sizeof s, s);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  for (int i = 0; i < 8; ++i) CHECK(s[i] == stencils[i]);
  // DEPTH_COMPONENT reads the depth alone (equation 2.1: c / (2^24 - 1)).
  float d[8] = {};
  glGetTextureImage(t, 0, GL_DEPTH_COMPONENT, GL_FLOAT, sizeof d, d);
  for (int i = 0; i < 8; ++i) CHECK(d[i] == Approx(double(depths[i]) / 16777215.0).margin(1e-7));

  // §8.6 TexSubImage with DEPTH_COMPONENT replaces the depth of the region only: the stencil indices stay.
  const float half[2] = {0.5f, 0.5f};
  glTextureSubImage2D(t, 0, 1, 1, 2, 1, GL_DEPTH_COMPONENT, GL_FLOAT, half);
  glGetTextureImage(t, 0, GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8, sizeof back, back);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  for (int i = 0; i < 8; ++i) {
    const bool replaced = i == 5 || i == 6;
    CHECK(back[i] == pack_24_8(replaced ? to_unorm(0.5, 24) : depths[i], stencils[i]));
  }
  // A DEPTH_STENCIL sub-image replaces both inside its box and nothing outside.
  const uint32_t box[2] = {pack_24_8(0x000010, 17), pack_24_8(0xFFFF00, 250)};
  glTextureSubImage2D(t, 0, 2, 0, 1, 2, GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8, box);
  glGetTextureImage(t, 0, GL_STENCIL_INDEX, GL_UNSIGNED_BYTE, sizeof s, s);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  for (int i = 0; i < 8; ++i) CHECK(s[i] == (i == 2 ? 17 : i == 6 ? 250 : stencils[i]));
  // glGetTextureSubImage: the same box back.
  uint32_t sub[2] = {};
  glGetTextureSubImage(t, 0, 2, 0, 0, 1, 2, 1, GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8, sizeof sub, sub);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  CHECK(sub[0] == box[0]);
  CHECK(sub[1] == box[1]);
  // §18.2.8 table 18.4: a stencil index read as BYTE is masked with 2^7 - 1; FLOAT gives the index as a number.
  int8_t sb[8] = {};
  glGetTextureImage(t, 0, GL_STENCIL_INDEX, GL_BYTE, sizeof sb, sb);
  CHECK(sb[6] == (250 & 0x7F));
  float sf[8] = {};
  glGetTextureImage(t, 0, GL_STENCIL_INDEX, GL_FLOAT, sizeof sf, sf);
  CHECK(sf[6] == 250.0f);
  REQUIRE_GL_ERROR(GL_NO_ERROR);

  // Pixel buffer objects (§8.4.4.1, §18.2.8): DEPTH_STENCIL groups from PIXEL_UNPACK_BUFFER and into
  // PIXEL_PACK_BUFFER at an offset; the pack buffer's bytes before the offset keep their value.
  const uint32_t from_buffer[2] = {pack_24_8(0x654321, 0x11), pack_24_8(0x0000FF, 0x22)};
  const GLuint unpack = make_buffer(sizeof from_buffer, from_buffer);
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, unpack);
  glTextureSubImage2D(t, 0, 0, 0, 2, 1, GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8, nullptr);
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
  const uint32_t marker[9] = {0xA5A5A5A5u, 0, 0, 0, 0, 0, 0, 0, 0};
  const GLuint pack = make_buffer(sizeof marker, marker);
  glBindBuffer(GL_PIXEL_PACK_BUFFER, pack);
  glGetTextureImage(t, 0, GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8, sizeof(uint32_t) * 8,
                    reinterpret_cast<void*>(sizeof(uint32_t)));
  glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  uint32_t packed[9] = {};
  glGetNamedBufferSubData(pack, 0, sizeof packed, packed);
  CHECK(packed[0] == 0xA5A5A5A5u);
  CHECK(packed[1] == from_buffer[0]);
  CHECK(packed[2] == from_buffer[1]);
  CHECK(packed[3] == box[0]);
  glDeleteBuffers(1, &unpack);
  glDeleteBuffers(1, &pack);
  glDeleteTextures(1, &t);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("DEPTH32F_STENCIL8 transfers FLOAT_32_UNSIGNED_INT_24_8_REV groups (GL 4.6 table 8.8, §18.2.8)",
          "[textures][depth][stencil]") {
  GlContext gl;
  GLuint t = 0;
  glCreateTextures(GL_TEXTURE_2D, 1, &t);
  glTextureStorage2D(t, 1, GL_DEPTH32F_STENCIL8, 3, 1);
  // The upper 24 bits of the second word are unused: garbage there must not reach the index.
  const Float24_8 in[3] = {{0.75f, 9u}, {0.125f, 0xABCDE0FFu}, {1.0f, 0u}};
  glTextureSubImage2D(t, 0, 0, 0, 3, 1, GL_DEPTH_STENCIL, GL_FLOAT_32_UNSIGNED_INT_24_8_REV, in);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  Float24_8 back[3] = {};
  std::memset(back, 0xCD, sizeof back);
  glGetTextureImage(t, 0, GL_DEPTH_STENCIL, GL_FLOAT_32_UNSIGNED_INT_24_8_REV, sizeof back, back);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  for (int i = 0; i < 3; ++i) {
    CHECK(back[i].depth == in[i].depth);
    CHECK((back[i].stencil & 0xFFu) == (in[i].stencil & 0xFFu));
  }
  // The depth-stencil types with DEPTH_STENCIL only, and the other way round (§8.4.4.2, table 8.8; INVALID_OPERATION).
  glTextureSubImage2D(t, 0, 0, 0, 3, 1, GL_DEPTH_STENCIL, GL_FLOAT, in);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glGetTextureImage(t, 0, GL_DEPTH_COMPONENT, GL_FLOAT_32_UNSIGNED_INT_24_8_REV, sizeof back, back);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  // Mixing the two packed types is fine: the depth converts (24-bit fixed point of the float).
  uint32_t words[3] = {};
  glGetTextureImage(t, 0, GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8, sizeof words, words);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  for (int i = 0; i < 3; ++i) CHECK(words[i] == pack_24_8(to_unorm(in[i].depth, 24), in[i].stencil & 0xFFu));
  glDeleteTextures(1, &t);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("format errors of depth-stencil transfers (GL 4.6 §8.5, §8.11.4)", "[textures][depth][stencil]") {
  GlContext gl;
  GLuint t[2] = {};
  glCreateTextures(GL_TEXTURE_2D, 2, t);
  glTextureStorage2D(t[0], 1, GL_DEPTH24_STENCIL8, 2, 2);
  glTextureStorage2D(t[1], 1, GL_DEPTH_COMPONENT24, 2, 2);
  uint32_t px[4] = {};
  // GL 4.4+ (ARB_texture_stencil8's Errors): "An INVALID_OPERATION error is generated by TexImage3D, TexImage2D,
  // TexImage1D, TexSubImage3D, TexSubImage2D, or TexSubImage1D if <format> is STENCIL_INDEX and the base internal
  // format is not <STENCIL_INDEX>" (§8.5): the stencil of a depth-stencil texture is uploaded with its depth, as
  // DEPTH_STENCIL, while reads take STENCIL_INDEX (below). Mesa's texture_formats_agree refuses it as well.
  glTextureSubImage2D(t[0], 0, 0, 0, 2, 2, GL_STENCIL_INDEX, GL_UNSIGNED_BYTE, px);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  GLuint f32s8 = 0;
  glCreateTextures(GL_TEXTURE_2D, 1, &f32s8);
  glTextureStorage2D(f32s8, 1, GL_DEPTH32F_STENCIL8, 2, 2);
  glTextureSubImage2D(f32s8, 0, 0, 0, 2, 2, GL_STENCIL_INDEX, GL_UNSIGNED_BYTE, px);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glGetTextureImage(f32s8, 0, GL_STENCIL_INDEX, GL_UNSIGNED_BYTE, sizeof px, px);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  glDeleteTextures(1, &f32s8);
  GLuint mutable_ds = 0;
  glGenTextures(1, &mutable_ds);
  glBindTexture(GL_TEXTURE_2D, mutable_ds);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_DEPTH24_STENCIL8, 2, 2, 0, GL_STENCIL_INDEX, GL_UNSIGNED_BYTE, px);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glDeleteTextures(1, &mutable_ds);
  // §8.5: a color format with a depth internal format (and the reverse) is INVALID_OPERATION.
  glTextureSubImage2D(t[0], 0, 0, 0, 2, 2, GL_RED, GL_UNSIGNED_INT, px);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  // §8.11.4: "An INVALID_OPERATION error is generated if ... format is DEPTH_STENCIL and the base internal format
  // is not DEPTH_STENCIL", and (ARB_texture_stencil8, GL 4.4) "An INVALID_OPERATION error is generated by
  // GetTexImage if <format> is STENCIL_INDEX and the base internal format is not STENCIL_INDEX or DEPTH_STENCIL".
  glGetTextureImage(t[1], 0, GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8, sizeof px, px);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glGetTextureImage(t[1], 0, GL_STENCIL_INDEX, GL_UNSIGNED_BYTE, sizeof px, px);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  // ... while a depth-stencil texture takes DEPTH_COMPONENT, STENCIL_INDEX and DEPTH_STENCIL.
  glGetTextureImage(t[0], 0, GL_DEPTH_COMPONENT, GL_UNSIGNED_INT, sizeof px, px);
  glGetTextureImage(t[0], 0, GL_STENCIL_INDEX, GL_UNSIGNED_INT, sizeof px, px);
  glGetTextureImage(t[0], 0, GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8, sizeof px, px);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  // glGetnTexImage's bufSize: STENCIL_INDEX/UNSIGNED_INT needs 16 bytes here.
  glGetTextureImage(t[0], 0, GL_STENCIL_INDEX, GL_UNSIGNED_INT, 15, px);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glDeleteTextures(2, t);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("mutable, array and cube depth-stencil levels keep their stencil (GL 4.6 §8.5, §8.6)",
          "[textures][depth][stencil]") {
  GlContext gl;
  SECTION("glTexImage2D levels with DEPTH_STENCIL data, then used as one image") {
    GLuint t = 0;
    glGenTextures(1, &t);
    glBindTexture(GL_TEXTURE_2D, t);
    const uint32_t l0[4] = {pack_24_8(1, 1), pack_24_8(2, 2), pack_24_8(3, 3), pack_24_8(4, 4)};
    const uint32_t l1[1] = {pack_24_8(0xFFFFFF, 77)};
    // The unsized DEPTH_STENCIL internal format with UNSIGNED_INT_24_8: a depth-stencil format (§8.5 table 8.11).
    glTexImage2D(GL_TEXTURE_2D, 0, GL_DEPTH_STENCIL, 2, 2, 0, GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8, l0);
    glTexImage2D(GL_TEXTURE_2D, 1, GL_DEPTH24_STENCIL8, 1, 1, 0, GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8, l1);
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    CHECK(level_parameter(t, 0, GL_TEXTURE_STENCIL_SIZE) == 8);
    uint32_t back[4] = {};
    glGetTexImage(GL_TEXTURE_2D, 0, GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8, back);
    for (int i = 0; i < 4; ++i) CHECK(back[i] == l0[i]);
    glGetTexImage(GL_TEXTURE_2D, 1, GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8, back);
    CHECK(back[0] == l1[0]);
    // Redefining level 1 with DEPTH_COMPONENT data: §8.5 "If the base internal format is DEPTH_STENCIL and format
    // is not DEPTH_STENCIL, then the values of the stencil index texture components are undefined" — only the
    // depth is checked; level 0 keeps both.
    const float one = 0.25f;
    glTexImage2D(GL_TEXTURE_2D, 1, GL_DEPTH24_STENCIL8, 1, 1, 0, GL_DEPTH_COMPONENT, GL_FLOAT, &one);
    float d = 0;
    glGetTexImage(GL_TEXTURE_2D, 1, GL_DEPTH_COMPONENT, GL_FLOAT, &d);
    CHECK(d == Approx(to_unorm(0.25, 24) / 16777215.0).margin(1e-7));
    glGetTexImage(GL_TEXTURE_2D, 0, GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8, back);
    for (int i = 0; i < 4; ++i) CHECK(back[i] == l0[i]);
    // A level redefined as a depth-only format has no stencil: STENCIL_INDEX reads are INVALID_OPERATION there.
    glTexImage2D(GL_TEXTURE_2D, 1, GL_DEPTH_COMPONENT16, 1, 1, 0, GL_DEPTH_COMPONENT, GL_FLOAT, &one);
    uint8_t s = 0;
    glGetTexImage(GL_TEXTURE_2D, 1, GL_STENCIL_INDEX, GL_UNSIGNED_BYTE, &s);
    REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
    glDeleteTextures(1, &t);
  }
  SECTION("a 2D array's layers and a cube map's faces") {
    GLuint a = 0, c = 0;
    glCreateTextures(GL_TEXTURE_2D_ARRAY, 1, &a);
    glTextureStorage3D(a, 1, GL_DEPTH24_STENCIL8, 2, 1, 3);
    glCreateTextures(GL_TEXTURE_CUBE_MAP, 1, &c);
    glTextureStorage2D(c, 1, GL_DEPTH32F_STENCIL8, 1, 1);
    // New storage holds undefined texels (§8.19): zeros first, through ClearTexImage (§8.21: null data is zero).
    glClearTexImage(a, 0, GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8, nullptr);
    glClearTexImage(c, 0, GL_DEPTH_STENCIL, GL_FLOAT_32_UNSIGNED_INT_24_8_REV, nullptr);
    const uint32_t layer[2] = {pack_24_8(0x100, 31), pack_24_8(0x200, 32)};
    glTextureSubImage3D(a, 0, 0, 0, 1, 2, 1, 1, GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8, layer);
    const Float24_8 face{0.5f, 66};
    glTextureSubImage3D(c, 0, 0, 0, 4, 1, 1, 1, GL_DEPTH_STENCIL, GL_FLOAT_32_UNSIGNED_INT_24_8_REV, &face);
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    uint8_t s[6] = {};
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glGetTextureImage(a, 0, GL_STENCIL_INDEX, GL_UNSIGNED_BYTE, sizeof s, s);
    const uint8_t expected_a[6] = {0, 0, 31, 32, 0, 0};
    for (int i = 0; i < 6; ++i) CHECK(s[i] == expected_a[i]);
    glGetTextureImage(c, 0, GL_STENCIL_INDEX, GL_UNSIGNED_BYTE, sizeof s, s);
    for (int i = 0; i < 6; ++i) CHECK(s[i] == (i == 4 ? 66 : 0));
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    glDeleteTextures(1, &a);
    glDeleteTextures(1, &c);
  }
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("clears, copies and views of depth-stencil textures carry the stencil (GL 4.6 §8.18, §8.21, §18.3.3)",
          "[textures][depth][stencil]") {
  GlContext gl;
  GLuint t[2] = {};
  glCreateTextures(GL_TEXTURE_2D, 2, t);
  glTextureStorage2D(t[0], 1, GL_DEPTH24_STENCIL8, 2, 2);
  glTextureStorage2D(t[1], 1, GL_DEPTH24_STENCIL8, 2, 2);
  // §8.21: ClearTexImage's data is one element of (format, type): DEPTH_STENCIL sets depth and stencil.
  const uint32_t value = pack_24_8(0x333333, 0x5A);
  glClearTexImage(t[0], 0, GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8, &value);
  glClearTexImage(t[1], 0, GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8, nullptr);  // "data is NULL": zeros
  const uint32_t corner = pack_24_8(0xFFFFFF, 3);
  glClearTexSubImage(t[0], 0, 1, 1, 0, 1, 1, 1, GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8, &corner);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  uint32_t back[4] = {};
  glGetTextureImage(t[0], 0, GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8, sizeof back, back);
  for (int i = 0; i < 4; ++i) CHECK(back[i] == (i == 3 ? corner : value));
  glGetTextureImage(t[1], 0, GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8, sizeof back, back);
  for (uint32_t b : back) CHECK(b == 0);
  // §18.3.3: CopyImageSubData copies texels "without conversion": depth and stencil of a box.
  glCopyImageSubData(t[0], GL_TEXTURE_2D, 0, 1, 0, 0, t[1], GL_TEXTURE_2D, 0, 0, 0, 0, 1, 2, 1);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  glGetTextureImage(t[1], 0, GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8, sizeof back, back);
  const uint32_t copied[4] = {value, 0, corner, 0};
  for (int i = 0; i < 4; ++i) CHECK(back[i] == copied[i]);
  // §8.18: a view shares the original's texels, the stencil included, both ways.
  GLuint view = 0;
  glGenTextures(1, &view);
  glTextureView(view, GL_TEXTURE_2D, t[0], GL_DEPTH24_STENCIL8, 0, 1, 0, 1);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  uint8_t s[4] = {};
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glGetTextureImage(view, 0, GL_STENCIL_INDEX, GL_UNSIGNED_BYTE, sizeof s, s);
  for (int i = 0; i < 4; ++i) CHECK(s[i] == (i == 3 ? 3 : 0x5A));
  const uint32_t through_view = pack_24_8(0x10, 0xEE);
  glTextureSubImage2D(view, 0, 0, 0, 1, 1, GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8, &through_view);
  glGetTextureImage(t[0], 0, GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8, sizeof back, back);
  CHECK(back[0] == through_view);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  glDeleteTextures(1, &view);
  glDeleteTextures(2, t);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("DEPTH_STENCIL_TEXTURE_MODE STENCIL_INDEX samples the stencil as (S, 0, 0, 1) (GL 4.6 §8.10, table 15.1)",
          "[textures][depth][stencil]") {
  GlContext gl;
  const GLuint program = make_program(
      "#version 430\n"
      "layout(local_size_x = 1) in;\n"
      "layout(binding = 0) uniform usampler2D stencil;\n"
      "layout(binding = 1) uniform usampler2DArray layers;\n"
      "layout(std430, binding = 0) buffer Out { uvec4 fetched; uvec4 sampled; uvec4 layer; };\n"
      "void main() {\n"
      "  fetched = texelFetch(stencil, ivec2(2, 1), 0);\n"
      "  sampled = texture(stencil, vec2(0.375, 0.25));\n"
      "  layer = texelFetch(layers, ivec3(1, 0, 1), 0);\n"
      "}\n");
  const GLuint out = make_buffer(48);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, out);
  glUseProgram(program);
  GLuint t = 0, a = 0;
  glCreateTextures(GL_TEXTURE_2D, 1, &t);
  glTextureStorage2D(t, 1, GL_DEPTH24_STENCIL8, 4, 2);
  uint32_t in[8];
  for (uint32_t i = 0; i < 8; ++i) in[i] = pack_24_8(0x100000 * i, static_cast<uint8_t>(10 + 30 * i));
  glTextureSubImage2D(t, 0, 0, 0, 4, 2, GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8, in);
  glCreateTextures(GL_TEXTURE_2D_ARRAY, 1, &a);
  glTextureStorage3D(a, 1, GL_DEPTH32F_STENCIL8, 2, 1, 2);
  const Float24_8 layer_in[4] = {{0.1f, 1}, {0.2f, 2}, {0.3f, 3}, {0.4f, 4}};
  glTextureSubImage3D(a, 0, 0, 0, 0, 2, 1, 2, GL_DEPTH_STENCIL, GL_FLOAT_32_UNSIGNED_INT_24_8_REV, layer_in);
  // §8.10: "If the texture's base internal format is DEPTH_STENCIL and DEPTH_STENCIL_TEXTURE_MODE is STENCIL_INDEX,
  // the stencil index is returned"; table 15.1: STENCIL_INDEX gives (S, 0, 0, 1).
  for (GLuint tex : {t, a}) {
    glTextureParameteri(tex, GL_DEPTH_STENCIL_TEXTURE_MODE, GL_STENCIL_INDEX);
    glTextureParameteri(tex, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTextureParameteri(tex, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  }
  glBindTextureUnit(0, t);
  glBindTextureUnit(1, a);
  glDispatchCompute(1, 1, 1);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  uint32_t r[12] = {};
  glGetNamedBufferSubData(out, 0, sizeof r, r);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  // texelFetch (2, 1) is texel 6; (0.375, 0.25) of a 4x2 image is texel (1, 0) with NEAREST; the array's (1, 0)
  // of layer 1 is its fourth group.
  const uint32_t expected[12] = {in[6] & 0xFF, 0, 0, 1, in[1] & 0xFF, 0, 0, 1, 4, 0, 0, 1};
  for (int i = 0; i < 12; ++i) CHECK(r[i] == expected[i]);

  // §8.17: a texture is incomplete if "The texture is not multisample; either the magnification filter is not
  // NEAREST, or the minification filter is neither NEAREST nor NEAREST_MIPMAP_NEAREST; and any of ... The internal
  // format is DEPTH_STENCIL, and the value of DEPTH_STENCIL_TEXTURE_MODE for the texture is STENCIL_INDEX";
  // an incomplete texture reads (0, 0, 0, 1) (§11.1.3.5).
  glTextureParameteri(t, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glDispatchCompute(1, 1, 1);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  glGetNamedBufferSubData(out, 0, sizeof r, r);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  for (int i = 0; i < 8; ++i) CHECK(r[i] == (i % 4 == 3 ? 1u : 0u));
  CHECK(r[8] == 4u);  // the array texture is still complete
  glDeleteTextures(1, &t);
  glDeleteTextures(1, &a);
  glDeleteBuffers(1, &out);
  glDeleteProgram(program);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("depth mode of a depth-stencil texture still reads (D, 0, 0, 1) beside its stencil (GL 4.6 table 15.1)",
          "[textures][depth][stencil]") {
  GlContext gl;
  const GLuint program = make_program(
      "#version 430\n"
      "layout(local_size_x = 1) in;\n"
      "layout(binding = 0) uniform sampler2D depth;\n"
      "layout(std430, binding = 0) buffer Out { vec4 fetched; };\n"
      "void main() { fetched = texelFetch(depth, ivec2(1, 0), 0); }\n");
  const GLuint out = make_buffer(16);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, out);
  glUseProgram(program);
  GLuint t = 0;
  glCreateTextures(GL_TEXTURE_2D, 1, &t);
  glTextureStorage2D(t, 1, GL_DEPTH24_STENCIL8, 2, 1);
  const uint32_t in[2] = {pack_24_8(0, 255), pack_24_8(0x800000, 255)};
  glTextureSubImage2D(t, 0, 0, 0, 2, 1, GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8, in);
  glTextureParameteri(t, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  // Table 23.15: DEPTH_STENCIL_TEXTURE_MODE is DEPTH_COMPONENT initially.
  GLint mode = 0;
  glGetTextureParameteriv(t, GL_DEPTH_STENCIL_TEXTURE_MODE, &mode);
  CHECK(mode == GL_DEPTH_COMPONENT);
  glBindTextureUnit(0, t);
  glDispatchCompute(1, 1, 1);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  float r[4] = {};
  glGetNamedBufferSubData(out, 0, sizeof r, r);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  CHECK(r[0] == Approx(double(0x800000) / 16777215.0).margin(1e-6));
  CHECK(r[1] == 0.0f);
  CHECK(r[2] == 0.0f);
  CHECK(r[3] == 1.0f);
  glDeleteTextures(1, &t);
  glDeleteBuffers(1, &out);
  glDeleteProgram(program);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("queries of the depth-stencil formats' stencil (GL 4.6 §8.11.3, §22.3)", "[textures][depth][stencil]") {
  GlContext gl;
  for (GLenum format : {GL_DEPTH24_STENCIL8, GL_DEPTH32F_STENCIL8}) {
    GLuint t = 0;
    glCreateTextures(GL_TEXTURE_2D, 1, &t);
    glTextureStorage2D(t, 1, format, 1, 1);
    // Table 23.16: TEXTURE_STENCIL_SIZE, "the actual resolution" of the stencil component: 8.
    CHECK(level_parameter(t, 0, GL_TEXTURE_STENCIL_SIZE) == 8);
    CHECK(level_parameter(t, 0, GL_TEXTURE_DEPTH_SIZE) == (format == GL_DEPTH24_STENCIL8 ? 24 : 32));
    glDeleteTextures(1, &t);
    GLint v = 0;
    glGetInternalformativ(GL_TEXTURE_2D, format, GL_INTERNALFORMAT_STENCIL_SIZE, 1, &v);
    CHECK(v == 8);
    glGetInternalformativ(GL_TEXTURE_2D, format, GL_STENCIL_COMPONENTS, 1, &v);
    CHECK(v == GL_TRUE);
    glGetInternalformativ(GL_TEXTURE_2D, format, GL_STENCIL_RENDERABLE, 1, &v);
    CHECK(v == GL_TRUE);
    // §22.3.2: GET_TEXTURE_IMAGE_FORMAT / TYPE, "the preferred format/type" for GetTexImage: one group with both.
    glGetInternalformativ(GL_TEXTURE_2D, format, GL_GET_TEXTURE_IMAGE_FORMAT, 1, &v);
    CHECK(v == GL_DEPTH_STENCIL);
    glGetInternalformativ(GL_TEXTURE_2D, format, GL_GET_TEXTURE_IMAGE_TYPE, 1, &v);
    CHECK(v == (format == GL_DEPTH24_STENCIL8 ? GL_UNSIGNED_INT_24_8 : GL_FLOAT_32_UNSIGNED_INT_24_8_REV));
  }
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("stencil sampling reads each level and sample of the stencil (GL 4.6 §8.10, §8.14.3, table 15.1)",
          "[textures][depth][stencil][multisample]") {
  GlContext gl;
  const GLuint program = make_program(
      "#version 450\n"  // textureSamples: GLSL 4.50
      "layout(local_size_x = 1) in;\n"
      "layout(binding = 0) uniform usampler2D levels;\n"
      "layout(binding = 1) uniform usampler2DMS samples;\n"
      "layout(std430, binding = 0) buffer Out { uvec4 level0; uvec4 level1; uvec4 sample_last; uint count; };\n"
      "void main() {\n"
      "  level0 = textureLod(levels, vec2(0.75, 0.25), 0.0);\n"
      "  level1 = textureLod(levels, vec2(0.5), 1.0);\n"
      "  sample_last = texelFetch(samples, ivec2(1, 1), textureSamples(samples) - 1);\n"
      "  count = uint(textureSamples(samples));\n"
      "}\n");
  const GLuint out = make_buffer(64);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, out);
  glUseProgram(program);
  // A mutable texture whose two levels are specified one by one (glTexImage2D): the dispatch puts them, and their
  // stencil planes, in one image each (make_texture_image).
  GLuint t = 0;
  glGenTextures(1, &t);
  glBindTexture(GL_TEXTURE_2D, t);
  const uint32_t level0[4] = {pack_24_8(0, 11), pack_24_8(0, 22), pack_24_8(0, 33), pack_24_8(0, 44)};
  const uint32_t level1 = pack_24_8(0xFFFFFF, 99);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_DEPTH24_STENCIL8, 2, 2, 0, GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8, level0);
  glTexImage2D(GL_TEXTURE_2D, 1, GL_DEPTH24_STENCIL8, 1, 1, 0, GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8, &level1);
  glTexParameteri(GL_TEXTURE_2D, GL_DEPTH_STENCIL_TEXTURE_MODE, GL_STENCIL_INDEX);
  // §8.17: NEAREST_MIPMAP_NEAREST is allowed for stencil sampling.
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST_MIPMAP_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glBindTextureUnit(0, t);
  // A multisample depth-stencil texture of the smallest count it has, cleared with a DEPTH_STENCIL value (§8.21):
  // every sample holds the index.
  GLint counts = 0;
  glGetInternalformativ(GL_TEXTURE_2D_MULTISAMPLE, GL_DEPTH24_STENCIL8, GL_NUM_SAMPLE_COUNTS, 1, &counts);
  REQUIRE(counts > 0);
  std::vector<GLint> sample_counts(static_cast<size_t>(counts));
  glGetInternalformativ(GL_TEXTURE_2D_MULTISAMPLE, GL_DEPTH24_STENCIL8, GL_SAMPLES, counts, sample_counts.data());
  GLuint ms = 0;
  glCreateTextures(GL_TEXTURE_2D_MULTISAMPLE, 1, &ms);
  glTextureStorage2DMultisample(ms, sample_counts.back(), GL_DEPTH24_STENCIL8, 2, 2, GL_TRUE);
  const uint32_t clear = pack_24_8(0x800000, 0x7E);
  glClearTexImage(ms, 0, GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8, &clear);
  glTextureParameteri(ms, GL_DEPTH_STENCIL_TEXTURE_MODE, GL_STENCIL_INDEX);
  glBindTextureUnit(1, ms);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  glDispatchCompute(1, 1, 1);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  uint32_t r[13] = {};
  glGetNamedBufferSubData(out, 0, sizeof r, r);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  // (0.75, 0.25) of the 2x2 level 0 is texel (1, 0); level 1 has one texel; table 15.1: (S, 0, 0, 1).
  const uint32_t expected[12] = {22, 0, 0, 1, 99, 0, 0, 1, 0x7E, 0, 0, 1};
  for (int i = 0; i < 12; ++i) CHECK(r[i] == expected[i]);
  CHECK(r[12] == static_cast<uint32_t>(sample_counts.back()));
  // §17.4.3 / §9.8: a framebuffer clear of the multisample texture's stencil writes every sample.
  GLuint fb = 0;
  glCreateFramebuffers(1, &fb);
  glNamedFramebufferTexture(fb, GL_DEPTH_STENCIL_ATTACHMENT, ms, 0);
  glNamedFramebufferDrawBuffer(fb, GL_NONE);
  glNamedFramebufferReadBuffer(fb, GL_NONE);
  REQUIRE(glCheckNamedFramebufferStatus(fb, GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);
  glClearNamedFramebufferfi(fb, GL_DEPTH_STENCIL, 0, 0.25f, 0x12);
  glDispatchCompute(1, 1, 1);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  glGetNamedBufferSubData(out, 0, sizeof r, r);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  CHECK(r[8] == 0x12u);
  glDeleteFramebuffers(1, &fb);
  glDeleteTextures(1, &t);
  glDeleteTextures(1, &ms);
  glDeleteBuffers(1, &out);
  glDeleteProgram(program);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}
