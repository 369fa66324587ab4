// Depth and depth-stencil images as framebuffer attachments (issue 18): completeness (GL 4.6 §9.4.1, §9.4.2), the
// depth and stencil clears (§17.4.3: glClear, glClearDepth, glClearStencil, glClearBuffer{fv,iv,fi}) and
// glReadPixels of DEPTH_COMPONENT, STENCIL_INDEX and DEPTH_STENCIL (§18.2.1, §18.2.8), against values worked out
// on the CPU. Tagged [depth]: gl:depth_textures_color runs them with the depth in colour storage too.
#include <cmath>
#include <cstring>
#include <vector>

#include "translator/gl/gl_fixture.hpp"

using namespace bismuth::gltest;

namespace {

uint32_t to_unorm(double f, int bits) {
  return static_cast<uint32_t>(std::llround(std::min(std::max(f, 0.0), 1.0) * double((uint64_t(1) << bits) - 1)));
}

uint32_t pack_24_8(uint32_t depth24, uint8_t stencil) {
  return (depth24 << 8) | stencil;
}

// A depth value as a fixed-point buffer of `bits` holds it (§17.4.3: clamped to [0, 1], converted to fixed point),
// read back as a float (equation 2.1).
double fixed_depth(double d, int bits) {
  return double(to_unorm(d, bits)) / double((uint64_t(1) << bits) - 1);
}

}  // namespace

TEST_CASE("a depth-stencil texture at DEPTH_STENCIL_ATTACHMENT is cleared and read (GL 4.6 §17.4.3, §18.2)",
          "[framebuffer][depth][stencil]") {
  GlContext gl;
  GLuint t = 0, fb = 0;
  glCreateTextures(GL_TEXTURE_2D, 1, &t);
  glTextureStorage2D(t, 1, GL_DEPTH24_STENCIL8, 3, 2);
  glGenFramebuffers(1, &fb);
  glBindFramebuffer(GL_FRAMEBUFFER, fb);
  // §9.2.8: DEPTH_STENCIL_ATTACHMENT attaches the image to both the depth and the stencil attachment points.
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_TEXTURE_2D, t, 0);
  glDrawBuffer(GL_NONE);
  glReadBuffer(GL_NONE);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  // §9.4.1: a depth-renderable image at the depth attachment and a stencil-renderable one at the stencil attachment
  // (DEPTH24_STENCIL8 is both, §9.4): complete, with no color attachment.
  REQUIRE(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);
  GLint v = 0;
  glGetFramebufferAttachmentParameteriv(GL_FRAMEBUFFER, GL_STENCIL_ATTACHMENT, GL_FRAMEBUFFER_ATTACHMENT_STENCIL_SIZE,
                                        &v);
  CHECK(v == 8);
  glGetFramebufferAttachmentParameteriv(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_FRAMEBUFFER_ATTACHMENT_DEPTH_SIZE, &v);
  CHECK(v == 24);

  // Table 23.24: DEPTH_CLEAR_VALUE is 1 initially; ClearDepth sets it.
  float cd = 0;
  glGetFloatv(GL_DEPTH_CLEAR_VALUE, &cd);
  CHECK(cd == 1.0f);
  glClearDepth(0.25);
  glGetFloatv(GL_DEPTH_CLEAR_VALUE, &cd);
  CHECK(cd == 0.25f);
  // §17.4.3: "s is masked to the number of bitplanes in the stencil buffer" (8).
  glClearStencil(0x1F3);
  glClear(GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  // §18.2.1: "If the format is DEPTH_STENCIL, then values are taken from both the depth buffer and the stencil
  // buffer"; §18.2.8 packs them as table 8.8 says.
  uint32_t ds[6] = {};
  glReadPixels(0, 0, 3, 2, GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8, ds);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  for (uint32_t w : ds) CHECK(w == pack_24_8(to_unorm(0.25, 24), 0xF3));
  float depth[6] = {};
  glReadPixels(0, 0, 3, 2, GL_DEPTH_COMPONENT, GL_FLOAT, depth);
  for (float d : depth) CHECK(d == Approx(fixed_depth(0.25, 24)).margin(1e-7));
  uint8_t s[6] = {};
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, 3, 2, GL_STENCIL_INDEX, GL_UNSIGNED_BYTE, s);
  for (uint8_t x : s) CHECK(x == 0xF3);
  REQUIRE_GL_ERROR(GL_NO_ERROR);

  // §17.4.3.1: "ClearBufferfi ... buffer must be DEPTH_STENCIL ... depth and stencil are the values to clear the
  // depth and stencil buffers to"; DEPTH with ClearBufferfv, STENCIL with ClearBufferiv.
  glClearBufferfi(GL_DEPTH_STENCIL, 0, 0.75f, 9);
  glReadPixels(0, 0, 3, 2, GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8, ds);
  for (uint32_t w : ds) CHECK(w == pack_24_8(to_unorm(0.75, 24), 9));
  // "When clearing a fixed-point depth buffer, d is clamped to the range [0, 1]".
  const float above = 2.0f;
  glClearBufferfv(GL_DEPTH, 0, &above);
  const GLint index = 300;
  glClearBufferiv(GL_STENCIL, 0, &index);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  glReadPixels(0, 0, 3, 2, GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8, ds);
  for (uint32_t w : ds) CHECK(w == pack_24_8(0xFFFFFF, 300 & 0xFF));
  // glClear with DEPTH_BUFFER_BIT alone leaves the stencil.
  glClearDepth(0.0);
  glClear(GL_DEPTH_BUFFER_BIT);
  glReadPixels(0, 0, 3, 2, GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8, ds);
  for (uint32_t w : ds) CHECK(w == pack_24_8(0, 300 & 0xFF));
  // A sub-rectangle and a rectangle reaching outside: the pixels inside only (§18.2.8: the rest undefined,
  // left as they were here).
  uint32_t part[4] = {0xDEAD, 0xDEAD, 0xDEAD, 0xDEAD};
  glReadPixels(2, 1, 2, 2, GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8, part);
  CHECK(part[0] == pack_24_8(0, 300 & 0xFF));
  CHECK(part[1] == 0xDEAD);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  // The attachment is the texture: its images hold what the clears wrote.
  glGetTextureImage(t, 0, GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8, sizeof ds, ds);
  for (uint32_t w : ds) CHECK(w == pack_24_8(0, 300 & 0xFF));
  // §18.2.1: "An INVALID_OPERATION error is generated if format is a color format and the read buffer is NONE".
  uint8_t px[4] = {};
  glReadPixels(0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glDeleteFramebuffers(1, &fb);
  glDeleteTextures(1, &t);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("separate depth and stencil attachments, and a depth buffer alone (GL 4.6 §9.4.2, §18.2.1)",
          "[framebuffer][depth][stencil]") {
  GlContext gl;
  GLuint color = 0, depth = 0, stencil = 0, fb = 0;
  glCreateTextures(GL_TEXTURE_2D, 1, &color);
  glTextureStorage2D(color, 1, GL_RGBA8, 2, 2);
  glCreateTextures(GL_TEXTURE_2D, 1, &depth);
  glTextureStorage2D(depth, 1, GL_DEPTH_COMPONENT16, 2, 2);
  glCreateTextures(GL_TEXTURE_2D, 1, &stencil);
  glTextureStorage2D(stencil, 1, GL_STENCIL_INDEX8, 2, 2);
  glCreateFramebuffers(1, &fb);
  glNamedFramebufferTexture(fb, GL_COLOR_ATTACHMENT0, color, 0);
  glNamedFramebufferTexture(fb, GL_DEPTH_ATTACHMENT, depth, 0);
  glBindFramebuffer(GL_FRAMEBUFFER, fb);
  REQUIRE(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);
  // §18.2.1: "An INVALID_OPERATION error is generated if format is ... STENCIL_INDEX and there is no stencil
  // buffer, or if format is DEPTH_STENCIL and there is not both a depth buffer and a stencil buffer".
  uint32_t w[4] = {};
  glReadPixels(0, 0, 2, 2, GL_STENCIL_INDEX, GL_UNSIGNED_INT, w);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glReadPixels(0, 0, 2, 2, GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8, w);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  // "If no stencil buffer is present", a stencil clear has no effect (§17.4.3); the depth clear converts to the
  // 16-bit buffer.
  glClearBufferfi(GL_DEPTH_STENCIL, 0, 0.5f, 1);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  uint16_t d16[4] = {};
  glReadPixels(0, 0, 2, 2, GL_DEPTH_COMPONENT, GL_UNSIGNED_SHORT, d16);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  for (uint16_t d : d16) CHECK(d == to_unorm(0.5, 16));
  // The color buffer is not touched by depth clears.
  uint8_t px[4] = {9, 9, 9, 9};
  glClearTexImage(color, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  glClear(GL_DEPTH_BUFFER_BIT);
  glReadPixels(0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
  CHECK((px[0] == 0 && px[3] == 0));

  // GL 4.6 §9.4.2 has no rule that the depth and stencil attachments be one image: a DEPTH_COMPONENT16 depth buffer
  // beside a STENCIL_INDEX8 stencil buffer is complete, and DEPTH_STENCIL reads take each from its own buffer.
  glNamedFramebufferTexture(fb, GL_STENCIL_ATTACHMENT, stencil, 0);
  REQUIRE(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);
  glClearStencil(0x42);
  glClearDepth(1.0);
  glClear(GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
  glReadPixels(0, 0, 2, 2, GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8, w);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  for (uint32_t x : w) CHECK(x == pack_24_8(0xFFFFFF, 0x42));
  // §17.4.3.1: ClearNamedFramebufferfi of a framebuffer not bound.
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glClearNamedFramebufferfi(fb, GL_DEPTH_STENCIL, 0, 0.0f, 0x17);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  uint8_t s[4] = {};
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glGetTextureImage(stencil, 0, GL_STENCIL_INDEX, GL_UNSIGNED_BYTE, sizeof s, s);
  for (uint8_t x : s) CHECK(x == 0x17);
  glGetTextureImage(depth, 0, GL_DEPTH_COMPONENT, GL_UNSIGNED_SHORT, sizeof d16, d16);
  for (uint16_t d : d16) CHECK(d == 0);

  // §9.4.1: a depth-stencil image at the stencil attachment alone is stencil-renderable: its stencil is the
  // stencil buffer.
  GLuint ds = 0;
  glCreateTextures(GL_TEXTURE_2D, 1, &ds);
  glTextureStorage2D(ds, 1, GL_DEPTH32F_STENCIL8, 2, 2);
  const float quarter = 0.25f;
  glClearTexImage(ds, 0, GL_DEPTH_COMPONENT, GL_FLOAT, &quarter);
  glNamedFramebufferTexture(fb, GL_DEPTH_ATTACHMENT, 0, 0);
  glNamedFramebufferTexture(fb, GL_STENCIL_ATTACHMENT, ds, 0);
  CHECK(glCheckNamedFramebufferStatus(fb, GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);
  glClearNamedFramebufferfi(fb, GL_DEPTH_STENCIL, 0, 0.5f, 0x66);
  glGetTextureImage(ds, 0, GL_STENCIL_INDEX, GL_UNSIGNED_BYTE, sizeof s, s);
  for (uint8_t x : s) CHECK(x == 0x66);
  float df[4] = {};
  glGetTextureImage(ds, 0, GL_DEPTH_COMPONENT, GL_FLOAT, sizeof df, df);
  for (float d : df) CHECK(d == 0.25f);  // no depth buffer: the depth is not cleared
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  // A colour image at the depth attachment is not depth-renderable (§9.4.1: INCOMPLETE_ATTACHMENT).
  glNamedFramebufferTexture(fb, GL_DEPTH_ATTACHMENT, color, 0);
  CHECK(glCheckNamedFramebufferStatus(fb, GL_FRAMEBUFFER) == GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT);
  glDeleteFramebuffers(1, &fb);
  const GLuint textures[4] = {color, depth, stencil, ds};
  glDeleteTextures(4, textures);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("depth-stencil renderbuffers and layered depth attachments are cleared (GL 4.6 §9.2.4, §9.8, §17.4.3)",
          "[framebuffer][depth][stencil]") {
  GlContext gl;
  GLuint rb = 0, fb = 0;
  glCreateRenderbuffers(1, &rb);
  glNamedRenderbufferStorage(rb, GL_DEPTH24_STENCIL8, 4, 1);
  glCreateFramebuffers(1, &fb);
  glNamedFramebufferRenderbuffer(fb, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER, rb);
  glNamedFramebufferDrawBuffer(fb, GL_NONE);
  glNamedFramebufferReadBuffer(fb, GL_NONE);
  REQUIRE(glCheckNamedFramebufferStatus(fb, GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);
  GLint v = 0;
  glGetNamedRenderbufferParameteriv(rb, GL_RENDERBUFFER_STENCIL_SIZE, &v);
  CHECK(v == 8);
  glClearNamedFramebufferfi(fb, GL_DEPTH_STENCIL, 0, 0.125f, 0xC3);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, fb);
  uint32_t w[4] = {};
  glReadPixels(0, 0, 4, 1, GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8, w);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  for (uint32_t x : w) CHECK(x == pack_24_8(to_unorm(0.125, 24), 0xC3));
  glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);

  // §9.8: a layered attachment is cleared in every layer.
  GLuint array = 0;
  glCreateTextures(GL_TEXTURE_2D_ARRAY, 1, &array);
  glTextureStorage3D(array, 1, GL_DEPTH32F_STENCIL8, 2, 1, 3);
  glNamedFramebufferTexture(fb, GL_DEPTH_STENCIL_ATTACHMENT, array, 0);
  REQUIRE(glCheckNamedFramebufferStatus(fb, GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);
  glClearNamedFramebufferfi(fb, GL_DEPTH_STENCIL, 0, 0.5f, 0x21);
  uint8_t s[6] = {};
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glGetTextureImage(array, 0, GL_STENCIL_INDEX, GL_UNSIGNED_BYTE, sizeof s, s);
  for (uint8_t x : s) CHECK(x == 0x21);
  float d[6] = {};
  glGetTextureImage(array, 0, GL_DEPTH_COMPONENT, GL_FLOAT, sizeof d, d);
  for (float x : d) CHECK(x == 0.5f);
  // One layer (FramebufferTextureLayer): only that layer.
  glNamedFramebufferTextureLayer(fb, GL_DEPTH_STENCIL_ATTACHMENT, array, 0, 1);
  glClearNamedFramebufferfi(fb, GL_DEPTH_STENCIL, 0, 1.0f, 0x05);
  glGetTextureImage(array, 0, GL_STENCIL_INDEX, GL_UNSIGNED_BYTE, sizeof s, s);
  for (int i = 0; i < 6; ++i) CHECK(s[i] == (i / 2 == 1 ? 0x05 : 0x21));
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  glDeleteFramebuffers(1, &fb);
  glDeleteRenderbuffers(1, &rb);
  glDeleteTextures(1, &array);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("attachment queries of depth-stencil images: sizes and component types (GL 4.6 §9.2.3)",
          "[framebuffer][depth][stencil]") {
  GlContext gl;
  GLuint fb = 0;
  glGenFramebuffers(1, &fb);
  glBindFramebuffer(GL_FRAMEBUFFER, fb);
  auto query = [](GLenum attachment, GLenum pname) {
    GLint v = -1;
    glGetFramebufferAttachmentParameteriv(GL_FRAMEBUFFER, attachment, pname, &v);
    return v;
  };
  struct Case {
    GLenum format;
    GLint depth_bits;
    GLenum component_type;
  };
  // "If pname is FRAMEBUFFER_ATTACHMENT_COMPONENT_TYPE, then params will contain the format of components of the
  // specified attachment, one of FLOAT, INT, UNSIGNED_INT, SIGNED_NORMALIZED, or UNSIGNED_NORMALIZED ... Only color
  // buffers may have integer components. ... This query cannot be performed for a combined depth+stencil
  // attachment, since it does not have a single format": the stencil attachment point of a depth-stencil image
  // answers the image's non-integer component type (as Mesa and ANGLE do: UNSIGNED_NORMALIZED for DEPTH24_STENCIL8,
  // FLOAT for DEPTH32F_STENCIL8), never UNSIGNED_INT.
  for (const Case c :
       {Case{GL_DEPTH24_STENCIL8, 24, GL_UNSIGNED_NORMALIZED}, Case{GL_DEPTH32F_STENCIL8, 32, GL_FLOAT}}) {
    INFO("format " << std::hex << c.format);
    GLuint t = 0;
    glCreateTextures(GL_TEXTURE_2D, 1, &t);
    glTextureStorage2D(t, 1, c.format, 2, 2);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_TEXTURE_2D, t, 0);
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    for (GLenum attachment : {GL_DEPTH_ATTACHMENT, GL_STENCIL_ATTACHMENT, GL_DEPTH_STENCIL_ATTACHMENT}) {
      INFO("attachment " << std::hex << attachment);
      // "... the number of bits in the corresponding red, green, blue, alpha, depth, or stencil component of the
      // specified attachment. If the requested component is not present in the attachment, ... zero": one image
      // at both points, so both answer its depth and stencil bits.
      CHECK(query(attachment, GL_FRAMEBUFFER_ATTACHMENT_DEPTH_SIZE) == c.depth_bits);
      CHECK(query(attachment, GL_FRAMEBUFFER_ATTACHMENT_STENCIL_SIZE) == 8);
      CHECK(query(attachment, GL_FRAMEBUFFER_ATTACHMENT_RED_SIZE) == 0);
      CHECK(query(attachment, GL_FRAMEBUFFER_ATTACHMENT_ALPHA_SIZE) == 0);
      // "Only color buffer components may be sRGB-encoded".
      CHECK(query(attachment, GL_FRAMEBUFFER_ATTACHMENT_COLOR_ENCODING) == GL_LINEAR);
      REQUIRE_GL_ERROR(GL_NO_ERROR);
    }
    CHECK(query(GL_DEPTH_ATTACHMENT, GL_FRAMEBUFFER_ATTACHMENT_COMPONENT_TYPE) == static_cast<GLint>(c.component_type));
    CHECK(query(GL_STENCIL_ATTACHMENT, GL_FRAMEBUFFER_ATTACHMENT_COMPONENT_TYPE) ==
          static_cast<GLint>(c.component_type));
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    query(GL_DEPTH_STENCIL_ATTACHMENT, GL_FRAMEBUFFER_ATTACHMENT_COMPONENT_TYPE);
    REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_TEXTURE_2D, 0, 0);
    glDeleteTextures(1, &t);
  }
  // "If attachment is DEPTH_STENCIL_ATTACHMENT, and different objects are bound to the depth and stencil attachment
  // points of target, the query will fail and generate an INVALID_OPERATION error".
  GLuint depth = 0, stencil = 0;
  glCreateTextures(GL_TEXTURE_2D, 1, &depth);
  glTextureStorage2D(depth, 1, GL_DEPTH_COMPONENT24, 2, 2);
  glCreateTextures(GL_TEXTURE_2D, 1, &stencil);
  glTextureStorage2D(stencil, 1, GL_STENCIL_INDEX8, 2, 2);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, depth, 0);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_STENCIL_ATTACHMENT, GL_TEXTURE_2D, stencil, 0);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  query(GL_DEPTH_STENCIL_ATTACHMENT, GL_FRAMEBUFFER_ATTACHMENT_DEPTH_SIZE);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  CHECK(query(GL_DEPTH_ATTACHMENT, GL_FRAMEBUFFER_ATTACHMENT_DEPTH_SIZE) == 24);
  CHECK(query(GL_DEPTH_ATTACHMENT, GL_FRAMEBUFFER_ATTACHMENT_STENCIL_SIZE) == 0);
  CHECK(query(GL_DEPTH_ATTACHMENT, GL_FRAMEBUFFER_ATTACHMENT_COMPONENT_TYPE) == GL_UNSIGNED_NORMALIZED);
  CHECK(query(GL_STENCIL_ATTACHMENT, GL_FRAMEBUFFER_ATTACHMENT_STENCIL_SIZE) == 8);
  CHECK(query(GL_STENCIL_ATTACHMENT, GL_FRAMEBUFFER_ATTACHMENT_DEPTH_SIZE) == 0);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  // "If no data storage or texture image has been specified for the attachment, then params will contain NONE"
  // (and zero for the sizes): a texture with no image attached.
  GLuint empty = 0;
  glGenTextures(1, &empty);
  glBindTexture(GL_TEXTURE_2D, empty);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, empty, 0);
  CHECK(query(GL_DEPTH_ATTACHMENT, GL_FRAMEBUFFER_ATTACHMENT_COMPONENT_TYPE) == GL_NONE);
  CHECK(query(GL_DEPTH_ATTACHMENT, GL_FRAMEBUFFER_ATTACHMENT_DEPTH_SIZE) == 0);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  GLuint textures[3] = {depth, stencil, empty};
  glDeleteTextures(3, textures);
  glDeleteFramebuffers(1, &fb);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}
