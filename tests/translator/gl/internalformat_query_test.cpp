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
  // "TEXTURE_VIEW: The support for using the resource with the TextureView command" (ARB_internalformat_query2):
  // textures of table 8.21's targets are view originals, renderbuffers and buffer textures are not.
  CHECK(query(GL_TEXTURE_2D, GL_RGBA8, GL_TEXTURE_VIEW) == GL_FULL_SUPPORT);
  CHECK(query(GL_TEXTURE_2D_ARRAY, GL_R32F, GL_TEXTURE_VIEW) == GL_FULL_SUPPORT);
  CHECK(query(GL_RENDERBUFFER, GL_RGBA8, GL_TEXTURE_VIEW) == GL_NONE);
  CHECK(query(GL_TEXTURE_BUFFER, GL_RGBA8, GL_TEXTURE_VIEW) == GL_NONE);
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

// ARB_internalformat_query2 (GL 4.6 §22.3.2): "COLOR_RENDERABLE: If <internalformat> is color-renderable (as defined
// in section 4.4.4), TRUE is returned in <params>. If the internal format is unsupported, or the internal format is
// not color-renderable, FALSE is returned"; DEPTH_RENDERABLE and STENCIL_RENDERABLE likewise for §9.4's depth- and
// stencil-renderable formats; "READ_PIXELS: The support for reading pixels from the resource when it is attached to
// a framebuffer", READ_PIXELS_FORMAT / TYPE the pair to pass to ReadPixels, "or NONE if <internalformat> is not
// supported or can never be a valid source for ReadPixels".
TEST_CASE("glGetInternalformativ renderable and read-pixels rows (GL 4.6 §22.3.2, §9.4)", "[textures][framebuffer]") {
  GlContext gl;
  struct Row {
    GLenum format;
    GLint color, depth, stencil;  // GL_TRUE / GL_FALSE
  };
  // Table 8.12's "CR" column: RGBA8, R32UI, RGBA16F, R11F_G11F_B10F, SRGB8_ALPHA8 are color-renderable; the snorm
  // formats, RGB9_E5 and SRGB8 are not; no compressed format is; table 8.13's depth / stencil formats are depth-
  // and / or stencil-renderable only.
  const Row rows[] = {
      {GL_RGBA8, 1, 0, 0},
      {GL_R32UI, 1, 0, 0},
      {GL_RGBA16F, 1, 0, 0},
      {GL_R11F_G11F_B10F, 1, 0, 0},
      {GL_SRGB8_ALPHA8, 1, 0, 0},
      {GL_RGBA8_SNORM, 0, 0, 0},
      {GL_RGB9_E5, 0, 0, 0},
      {GL_SRGB8, 0, 0, 0},
      {GL_COMPRESSED_RGBA_BPTC_UNORM, 0, 0, 0},
      {GL_COMPRESSED_RGB8_ETC2, 0, 0, 0},
      {GL_DEPTH_COMPONENT24, 0, 1, 0},
      {GL_DEPTH32F_STENCIL8, 0, 1, 1},
      {GL_STENCIL_INDEX8, 0, 0, 1},
  };
  for (const Row& r : rows) {
    INFO("format " << std::hex << r.format);
    CHECK(query(GL_TEXTURE_2D, r.format, GL_COLOR_RENDERABLE) == r.color);
    CHECK(query(GL_TEXTURE_2D, r.format, GL_DEPTH_RENDERABLE) == r.depth);
    CHECK(query(GL_TEXTURE_2D, r.format, GL_STENCIL_RENDERABLE) == r.stencil);
    // Renderbuffers take exactly the renderable formats (§9.2.4).
    const bool renderable = r.color || r.depth || r.stencil;
    CHECK(query(GL_RENDERBUFFER, r.format, GL_INTERNALFORMAT_SUPPORTED) == (renderable ? GL_TRUE : GL_FALSE));
    CHECK(query(GL_RENDERBUFFER, r.format, GL_COLOR_RENDERABLE) == r.color);
    CHECK(query(GL_RENDERBUFFER, r.format, GL_DEPTH_RENDERABLE) == r.depth);
    CHECK(query(GL_RENDERBUFFER, r.format, GL_STENCIL_RENDERABLE) == r.stencil);
    // glReadPixels reads every renderable single-sampled attachment; never a multisample one (§18.2.1).
    CHECK(query(GL_TEXTURE_2D, r.format, GL_READ_PIXELS) == (renderable ? GL_FULL_SUPPORT : GL_NONE));
    CHECK(query(GL_TEXTURE_2D_MULTISAMPLE, r.format, GL_READ_PIXELS) == GL_NONE);
    // Rendering (draws, blending) does not exist here: "If the resource is unsupported, NONE is returned" is not
    // the case, but the operation is not supported at all ("NONE: the requested capability is not supported").
    CHECK(query(GL_TEXTURE_2D, r.format, GL_FRAMEBUFFER_RENDERABLE) == GL_NONE);
    CHECK(query(GL_TEXTURE_2D, r.format, GL_FRAMEBUFFER_BLEND) == GL_NONE);
  }
  // The pair ReadPixels prefers: the texture's own transfer pair (depth: DEPTH_COMPONENT, depth-stencil: the packed
  // DEPTH_STENCIL group, stencil: STENCIL_INDEX).
  CHECK(query(GL_TEXTURE_2D, GL_RGBA8, GL_READ_PIXELS_FORMAT) == GL_RGBA);
  CHECK(query(GL_TEXTURE_2D, GL_RGBA8, GL_READ_PIXELS_TYPE) == GL_UNSIGNED_BYTE);
  CHECK(query(GL_TEXTURE_2D, GL_R32UI, GL_READ_PIXELS_FORMAT) == GL_RED_INTEGER);
  CHECK(query(GL_TEXTURE_2D, GL_DEPTH_COMPONENT24, GL_READ_PIXELS_FORMAT) == GL_DEPTH_COMPONENT);
  CHECK(query(GL_TEXTURE_2D, GL_DEPTH_COMPONENT24, GL_READ_PIXELS_TYPE) == GL_UNSIGNED_INT);
  CHECK(query(GL_TEXTURE_2D, GL_DEPTH32F_STENCIL8, GL_READ_PIXELS_FORMAT) == GL_DEPTH_STENCIL);
  CHECK(query(GL_TEXTURE_2D, GL_DEPTH32F_STENCIL8, GL_READ_PIXELS_TYPE) == GL_FLOAT_32_UNSIGNED_INT_24_8_REV);
  CHECK(query(GL_TEXTURE_2D, GL_STENCIL_INDEX8, GL_READ_PIXELS_FORMAT) == GL_STENCIL_INDEX);
  CHECK(query(GL_TEXTURE_2D, GL_RGB9_E5, GL_READ_PIXELS_FORMAT) == GL_NONE);
  // A renderbuffer is no texture: "NONE if the resource is not supported for this operation" for the texture
  // transfer rows.
  CHECK(query(GL_RENDERBUFFER, GL_RGBA8, GL_TEXTURE_IMAGE_FORMAT) == GL_NONE);
  CHECK(query(GL_RENDERBUFFER, GL_RGBA8, GL_GET_TEXTURE_IMAGE_FORMAT) == GL_NONE);
  CHECK(query(GL_RENDERBUFFER, GL_RGBA8, GL_MIPMAP) == GL_FALSE);
  CHECK(query(GL_RENDERBUFFER, GL_RGBA8, GL_COMPUTE_TEXTURE) == GL_NONE);
  CHECK(query(GL_RENDERBUFFER, GL_RGBA8, GL_READ_PIXELS) == GL_FULL_SUPPORT);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}
