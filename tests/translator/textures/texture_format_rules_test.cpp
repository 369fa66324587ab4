// Format rules of copies and buffer textures (GL 4.6 §18.3.3 with table 8.22's view classes, §8.9 table 8.18):
// texture_formats.hpp.
#include <catch2/catch.hpp>

#include "texture_formats.hpp"

using namespace bismuth::gl;

namespace {
const SizedFormat& fmt(GLenum f) {
  const SizedFormat* s = find_sized_format(f);
  REQUIRE(s != nullptr);
  return *s;
}
}  // namespace

TEST_CASE("copy compatibility is table 8.22's view class: the GL texel size", "[formats]") {
  CHECK(gl_texel_bits(fmt(GL_RGBA8)) == 32);
  CHECK(gl_texel_bits(fmt(GL_RGB8)) == 24);  // stored in four bytes, a 24-bit format to GL
  CHECK(gl_texel_bits(fmt(GL_RGB9_E5)) == 32);
  CHECK(gl_texel_bits(fmt(GL_RGB10_A2)) == 32);
  CHECK(gl_texel_bits(fmt(GL_RGB32F)) == 96);
  // VIEW_CLASS_32_BITS: RGBA8, R32F, RG16, R11F_G11F_B10F, RGB10_A2, RGB9_E5, SRGB8_ALPHA8 ...
  CHECK(copy_compatible(fmt(GL_RGBA8), fmt(GL_R32F)));
  CHECK(copy_compatible(fmt(GL_R11F_G11F_B10F), fmt(GL_RGB9_E5)));
  CHECK(copy_compatible(fmt(GL_SRGB8_ALPHA8), fmt(GL_RG16I)));
  CHECK_FALSE(copy_compatible(fmt(GL_RGB8), fmt(GL_RGBA8)));
  CHECK_FALSE(copy_compatible(fmt(GL_RGBA16F), fmt(GL_RGB16F)));  // 64 vs 48 bits
  CHECK(copy_compatible(fmt(GL_RGBA16F), fmt(GL_RG32UI)));
}

TEST_CASE("buffer texture formats are table 8.18's", "[formats]") {
  for (GLenum f : {GL_R8, GL_R16F, GL_RG32UI, GL_RGB32F, GL_RGB32I, GL_RGBA8, GL_RGBA16, GL_RGBA32F}) {
    CHECK(buffer_texture_format(f));
  }
  for (GLenum f : {GL_RGB8, GL_RGBA8_SNORM, GL_SRGB8_ALPHA8, GL_RGB10_A2, GL_R11F_G11F_B10F, GL_RGB16F}) {
    CHECK_FALSE(buffer_texture_format(f));
  }
}
