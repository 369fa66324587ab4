// glGetInternalformativ for textures and images (GL 4.6 §22.3).
#include "translator/gl/gl_fixture.hpp"

using namespace bismuth::gltest;

namespace {

GLint query(GLenum target, GLenum format, GLenum pname) {
  GLint v = -7;
  glGetInternalformativ(target, format, pname, 1, &v);
  return v;
}

}  // namespace

TEST_CASE("glGetInternalformativ answers texture and image support (GL 4.6 §22.3)", "[textures]") {
  GlContext gl;
  CHECK(query(GL_TEXTURE_2D, GL_RGBA8, GL_INTERNALFORMAT_SUPPORTED) == GL_TRUE);
  // An enum that is no internal format is not an error: "If the internalformat is not supported ... FALSE".
  CHECK(query(GL_TEXTURE_2D, 0x1234, GL_INTERNALFORMAT_SUPPORTED) == GL_FALSE);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  CHECK(query(GL_TEXTURE_2D, GL_RGB10_A2, GL_INTERNALFORMAT_RED_SIZE) == 10);
  CHECK(query(GL_TEXTURE_2D, GL_RGBA16I, GL_INTERNALFORMAT_RED_TYPE) == GL_INT);
  CHECK(query(GL_TEXTURE_2D, GL_RGBA16F, GL_TEXTURE_IMAGE_FORMAT) == GL_RGBA);
  CHECK(query(GL_TEXTURE_2D, GL_RGBA16F, GL_TEXTURE_IMAGE_TYPE) == GL_HALF_FLOAT);
  // GL 4.6 §8.26: the formats of table 8.26 are image formats every implementation supports (and Vulkan requires
  // storage-image support for R8G8B8A8_UNORM, R32_UINT and R32G32B32A32_SFLOAT, atomics for R32_UINT).
  for (GLenum f : {GL_RGBA8, GL_R32UI, GL_RGBA32F}) {
    CHECK(query(GL_TEXTURE_2D, f, GL_SHADER_IMAGE_LOAD) == GL_FULL_SUPPORT);
    CHECK(query(GL_TEXTURE_2D, f, GL_SHADER_IMAGE_STORE) == GL_FULL_SUPPORT);
    CHECK(query(GL_TEXTURE_2D, f, GL_IMAGE_FORMAT_COMPATIBILITY_TYPE) == GL_IMAGE_FORMAT_COMPATIBILITY_BY_SIZE);
  }
  CHECK(query(GL_TEXTURE_2D, GL_R32UI, GL_SHADER_IMAGE_ATOMIC) == GL_TRUE);
  CHECK(query(GL_TEXTURE_2D, GL_RGBA32F, GL_IMAGE_TEXEL_SIZE) == 128);
  CHECK(query(GL_TEXTURE_2D, GL_R32F, GL_IMAGE_COMPATIBILITY_CLASS) == GL_IMAGE_CLASS_1_X_32);
  CHECK(query(GL_TEXTURE_2D, GL_R11F_G11F_B10F, GL_IMAGE_COMPATIBILITY_CLASS) == GL_IMAGE_CLASS_11_11_10);
  // Not an image format (table 8.26 has no RGB8): no image load/store.
  CHECK(query(GL_TEXTURE_2D, GL_RGB8, GL_SHADER_IMAGE_LOAD) == GL_NONE);
  CHECK(query(GL_TEXTURE_2D, GL_RGB8, GL_VIEW_COMPATIBILITY_CLASS) == GL_VIEW_CLASS_24_BITS);
  GLint max = 0;
  glGetIntegerv(GL_MAX_3D_TEXTURE_SIZE, &max);
  CHECK(query(GL_TEXTURE_3D, GL_RGBA8, GL_MAX_DEPTH) == max);
  // "An INVALID_ENUM error is generated if target is not one of the targets listed in table 22.2"; "... if pname
  // is not one of the values listed in table 22.3"; "An INVALID_VALUE error is generated if bufSize is negative."
  query(GL_TEXTURE_CUBE_MAP_POSITIVE_X, GL_RGBA8, GL_INTERNALFORMAT_SUPPORTED);
  REQUIRE_GL_ERROR(GL_INVALID_ENUM);
  query(GL_TEXTURE_2D, GL_RGBA8, GL_TEXTURE_2D);
  REQUIRE_GL_ERROR(GL_INVALID_ENUM);
  GLint v = 0;
  glGetInternalformativ(GL_TEXTURE_2D, GL_RGBA8, GL_INTERNALFORMAT_SUPPORTED, -1, &v);
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}
