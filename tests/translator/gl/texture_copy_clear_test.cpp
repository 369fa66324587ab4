// glClearTexImage / glClearTexSubImage (GL 4.6 §8.21), glCopyImageSubData between textures (§18.3.3) and buffer
// texture attachment (§8.9) through the GL API.
#include <cstring>
#include <vector>

#include "translator/gl/gl_fixture.hpp"

using namespace bismuth::gltest;

TEST_CASE("glClearTexSubImage converts one pixel and fills the region (GL 4.6 §8.21)", "[textures]") {
  GlContext gl;
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  GLuint t = 0;
  glCreateTextures(GL_TEXTURE_2D_ARRAY, 1, &t);
  glTextureStorage3D(t, 1, GL_RGBA8, 3, 2, 2);
  glClearTexImage(t, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);  // null data: zero
  const float value[4] = {1.0f, 0.5f, 0.0f, 0.25f};
  glClearTexSubImage(t, 0, 1, 0, 1, 2, 2, 1, GL_RGBA, GL_FLOAT, value);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  std::vector<uint8_t> got(3 * 2 * 2 * 4);
  glGetTextureImage(t, 0, GL_RGBA, GL_UNSIGNED_BYTE, static_cast<GLsizei>(got.size()), got.data());
  for (int layer = 0; layer < 2; ++layer) {
    for (int y = 0; y < 2; ++y) {
      for (int x = 0; x < 3; ++x) {
        const uint8_t* p = &got[static_cast<size_t>(((layer * 2 + y) * 3 + x) * 4)];
        const bool inside = layer == 1 && x >= 1;
        // §2.3.5.1: 0.5 → round(0.5 × 255) = 128, 0.25 → 64.
        CHECK(p[0] == (inside ? 255 : 0));
        CHECK(p[1] == (inside ? 128 : 0));
        CHECK(p[3] == (inside ? 64 : 0));
      }
    }
  }
  // "An INVALID_OPERATION error is generated if texture is zero or not the name of a texture object"; a region
  // outside the image is INVALID_VALUE; an integer format with a normalized internal format INVALID_OPERATION.
  glClearTexImage(0, 0, GL_RGBA, GL_FLOAT, value);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glClearTexSubImage(t, 0, 2, 0, 0, 2, 1, 1, GL_RGBA, GL_FLOAT, value);
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  glClearTexImage(t, 0, GL_RGBA_INTEGER, GL_UNSIGNED_BYTE, value);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glClearTexImage(t, 1, GL_RGBA, GL_FLOAT, value);  // no level 1
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glDeleteTextures(1, &t);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("glCopyImageSubData copies texels between compatible textures (GL 4.6 §18.3.3)", "[textures]") {
  GlContext gl;
  GLuint a = 0, b = 0, c = 0, v = 0;
  glCreateTextures(GL_TEXTURE_2D, 1, &a);
  glCreateTextures(GL_TEXTURE_2D, 1, &b);
  glCreateTextures(GL_TEXTURE_2D, 1, &c);
  glCreateTextures(GL_TEXTURE_3D, 1, &v);
  glTextureStorage2D(a, 1, GL_RGBA8, 4, 4);
  glTextureStorage2D(b, 1, GL_R32UI, 4, 4);    // same 32-bit class: raw texels, no conversion
  glTextureStorage2D(c, 1, GL_RGBA16F, 4, 4);  // 64-bit class
  glTextureStorage3D(v, 1, GL_RGBA8UI, 2, 2, 2);
  std::vector<uint32_t> texels(16);
  for (uint32_t i = 0; i < 16; ++i) texels[i] = 0x11223344u + i * 0x01010101u;
  glTextureSubImage2D(a, 0, 0, 0, 4, 4, GL_RGBA, GL_UNSIGNED_BYTE, texels.data());
  glCopyImageSubData(a, GL_TEXTURE_2D, 0, 1, 1, 0, b, GL_TEXTURE_2D, 0, 0, 0, 0, 2, 2, 1);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  uint32_t got[16] = {};
  glGetTextureImage(b, 0, GL_RED_INTEGER, GL_UNSIGNED_INT, sizeof got, got);
  CHECK(got[0] == texels[5]);
  CHECK(got[1] == texels[6]);
  CHECK(got[4] == texels[9]);
  CHECK(got[5] == texels[10]);
  // A 2D texture's region into a slice of a 3D texture (different image types: through the host).
  glCopyImageSubData(a, GL_TEXTURE_2D, 0, 2, 2, 0, v, GL_TEXTURE_3D, 0, 0, 0, 1, 2, 2, 1);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  uint32_t slices[8] = {};
  glGetTextureImage(v, 0, GL_RGBA_INTEGER, GL_UNSIGNED_BYTE, sizeof slices, slices);
  CHECK(slices[4] == texels[10]);
  CHECK(slices[7] == texels[15]);
  // "An INVALID_OPERATION error is generated if the formats are not compatible"; regions outside: INVALID_VALUE;
  // a name that is not a texture of the target: INVALID_VALUE; a buffer target: INVALID_ENUM.
  glCopyImageSubData(a, GL_TEXTURE_2D, 0, 0, 0, 0, c, GL_TEXTURE_2D, 0, 0, 0, 0, 1, 1, 1);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glCopyImageSubData(a, GL_TEXTURE_2D, 0, 3, 0, 0, b, GL_TEXTURE_2D, 0, 0, 0, 0, 2, 1, 1);
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  glCopyImageSubData(a, GL_TEXTURE_3D, 0, 0, 0, 0, b, GL_TEXTURE_2D, 0, 0, 0, 0, 1, 1, 1);
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  glCopyImageSubData(a, GL_TEXTURE_BUFFER, 0, 0, 0, 0, b, GL_TEXTURE_2D, 0, 0, 0, 0, 1, 1, 1);
  REQUIRE_GL_ERROR(GL_INVALID_ENUM);
  const GLuint all[4] = {a, b, c, v};
  glDeleteTextures(4, all);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("glTexBuffer and glTexBufferRange attach a buffer range to a buffer texture (GL 4.6 §8.9)", "[textures]") {
  GlContext gl;
  const GLuint buffer = make_buffer(1024);
  GLuint t = 0;
  glGenTextures(1, &t);
  glBindTexture(GL_TEXTURE_BUFFER, t);
  glTexBuffer(GL_TEXTURE_BUFFER, GL_RGBA32F, buffer);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  GLint v = 0;
  glGetTexLevelParameteriv(GL_TEXTURE_BUFFER, 0, GL_TEXTURE_BUFFER_DATA_STORE_BINDING, &v);
  CHECK(v == static_cast<GLint>(buffer));
  glGetTexLevelParameteriv(GL_TEXTURE_BUFFER, 0, GL_TEXTURE_WIDTH, &v);
  CHECK(v == 1024 / 16);
  glGetTexLevelParameteriv(GL_TEXTURE_BUFFER, 0, GL_TEXTURE_INTERNAL_FORMAT, &v);
  CHECK(v == GL_RGBA32F);
  GLint alignment = 0;
  glGetIntegerv(GL_TEXTURE_BUFFER_OFFSET_ALIGNMENT, &alignment);
  REQUIRE(alignment > 0);
  REQUIRE(alignment <= 256);
  glTexBufferRange(GL_TEXTURE_BUFFER, GL_R32UI, buffer, alignment, 256);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  glGetTexLevelParameteriv(GL_TEXTURE_BUFFER, 0, GL_TEXTURE_BUFFER_OFFSET, &v);
  CHECK(v == alignment);
  glGetTexLevelParameteriv(GL_TEXTURE_BUFFER, 0, GL_TEXTURE_BUFFER_SIZE, &v);
  CHECK(v == 256);
  // "An INVALID_VALUE error is generated if offset is negative, if size is less than or equal to zero, or if
  // offset + size is greater than the value of BUFFER_SIZE", or offset not a multiple of the alignment.
  glTexBufferRange(GL_TEXTURE_BUFFER, GL_R32UI, buffer, 0, 0);
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  glTexBufferRange(GL_TEXTURE_BUFFER, GL_R32UI, buffer, 768, 512);
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  if (alignment > 1) {
    glTexBufferRange(GL_TEXTURE_BUFFER, GL_R32UI, buffer, 1, 4);
    REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  }
  // Table 8.18 has no RGB8, no sRGB and no snorm formats: INVALID_ENUM. A non-buffer target: INVALID_ENUM.
  glTexBuffer(GL_TEXTURE_BUFFER, GL_RGB8, buffer);
  REQUIRE_GL_ERROR(GL_INVALID_ENUM);
  glTexBuffer(GL_TEXTURE_2D, GL_R32F, buffer);
  REQUIRE_GL_ERROR(GL_INVALID_ENUM);
  glTexBuffer(GL_TEXTURE_BUFFER, GL_R32F, 4242);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  GLuint t2 = 0;
  glCreateTextures(GL_TEXTURE_2D, 1, &t2);
  glTextureBuffer(t2, GL_R32F, buffer);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glDeleteTextures(1, &t);
  glDeleteTextures(1, &t2);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("glTextureView shares the original's texels from its first level and layer (GL 4.6 §8.18)", "[textures]") {
  GlContext gl;
  GLuint array = 0;
  glCreateTextures(GL_TEXTURE_2D_ARRAY, 1, &array);
  glTextureStorage3D(array, 2, GL_RGBA8, 2, 2, 3);
  std::vector<uint32_t> level1(3);  // level 1: 1 × 1 × 3 layers
  for (uint32_t i = 0; i < 3; ++i) level1[i] = 0xA0B0C0D0u + i;
  glTextureSubImage3D(array, 1, 0, 0, 0, 1, 1, 3, GL_RGBA, GL_UNSIGNED_BYTE, level1.data());
  GLint v = 0;
  // §8.19: storage sets TEXTURE_VIEW_NUM_LEVELS to levels and TEXTURE_VIEW_NUM_LAYERS to the layers.
  glGetTextureParameteriv(array, GL_TEXTURE_VIEW_NUM_LEVELS, &v);
  CHECK(v == 2);
  glGetTextureParameteriv(array, GL_TEXTURE_VIEW_NUM_LAYERS, &v);
  CHECK(v == 3);
  // A 2D view of layer 2 of level 1, as R32UI (same 32-bit view class).
  GLuint view = 0;
  glGenTextures(1, &view);
  glTextureView(view, GL_TEXTURE_2D, array, GL_R32UI, 1, 1, 2, 1);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  glGetTextureParameteriv(view, GL_TEXTURE_VIEW_MIN_LEVEL, &v);
  CHECK(v == 1);
  glGetTextureParameteriv(view, GL_TEXTURE_VIEW_MIN_LAYER, &v);
  CHECK(v == 2);
  glGetTextureParameteriv(view, GL_TEXTURE_IMMUTABLE_FORMAT, &v);
  CHECK(v == GL_TRUE);
  glGetTextureLevelParameteriv(view, 0, GL_TEXTURE_WIDTH, &v);
  CHECK(v == 1);
  uint32_t got = 0;
  glGetTextureImage(view, 0, GL_RED_INTEGER, GL_UNSIGNED_INT, 4, &got);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  CHECK(got == level1[2]);
  // Writes through the view are the original's texels.
  const uint32_t written = 0x01020304u;
  glTextureSubImage2D(view, 0, 0, 0, 1, 1, GL_RED_INTEGER, GL_UNSIGNED_INT, &written);
  std::vector<uint32_t> back(3);
  glGetTextureImage(array, 1, GL_RGBA, GL_UNSIGNED_BYTE, 12, back.data());
  CHECK(back[2] == written);
  CHECK(back[1] == level1[1]);
  // Errors: a mutable original, an incompatible class, a target outside table 8.21, a name that has an object,
  // layers on a target without layers.
  GLuint mutable_texture = 0, other = 0;
  glGenTextures(1, &mutable_texture);
  glBindTexture(GL_TEXTURE_2D, mutable_texture);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 1, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  glGenTextures(1, &other);
  glTextureView(other, GL_TEXTURE_2D, mutable_texture, GL_RGBA8, 0, 1, 0, 1);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glTextureView(other, GL_TEXTURE_2D, array, GL_RGBA16F, 0, 1, 0, 1);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glTextureView(other, GL_TEXTURE_3D, array, GL_RGBA8, 0, 1, 0, 1);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glTextureView(array, GL_TEXTURE_2D, array, GL_RGBA8, 0, 1, 0, 1);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glTextureView(other, GL_TEXTURE_2D, array, GL_RGBA8, 0, 1, 0, 2);
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  glTextureView(other, GL_TEXTURE_2D, array, GL_RGBA8, 5, 1, 0, 1);
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  const GLuint all[4] = {array, view, mutable_texture, other};
  glDeleteTextures(4, all);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}
