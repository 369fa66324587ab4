// Framebuffer objects, glReadPixels / glReadnPixels and framebuffer clears through the GL API (GL 4.6 chapter 9,
// §17.4.3, §18.2; OpenGL ES 3.2 §9, §15.2.3, §16.1), under the validation layer. Each case quotes the rule it
// checks.
#include <array>
#include <cstring>
#include <string>
#include <vector>

#include "translator/gl/gl_fixture.hpp"

using namespace bismuth::gltest;

namespace {

// A framebuffer object bound to GL_FRAMEBUFFER with `texture`'s level 0 at COLOR_ATTACHMENT0.
GLuint framebuffer_with(GLuint texture) {
  GLuint fb = 0;
  glGenFramebuffers(1, &fb);
  glBindFramebuffer(GL_FRAMEBUFFER, fb);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, texture, 0);
  return fb;
}

GLuint texture_2d(GLenum internalformat, GLsizei w, GLsizei h) {
  GLuint t = 0;
  glGenTextures(1, &t);
  glBindTexture(GL_TEXTURE_2D, t);
  glTexStorage2D(GL_TEXTURE_2D, 1, internalformat, w, h);
  return t;
}

}  // namespace

TEST_CASE("The surfaceless default framebuffer is undefined (GL 4.6 §9.4.2, §17.4.1, §18.2)", "[framebuffer]") {
  GlContext gl;
  // §9.4.2: "FRAMEBUFFER_UNDEFINED is returned if target is the default framebuffer, but the default framebuffer
  // does not exist" — an EGL_KHR_surfaceless_context context has none.
  CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_UNDEFINED);
  CHECK(glCheckFramebufferStatus(GL_READ_FRAMEBUFFER) == GL_FRAMEBUFFER_UNDEFINED);
  // §17.4.1 / §18.2.1: DRAW_BUFFER and READ_BUFFER are "NONE if no default framebuffer is associated with the
  // context".
  GLint v = -1;
  glGetIntegerv(GL_READ_BUFFER, &v);
  CHECK(v == GL_NONE);
  glGetIntegerv(GL_DRAW_BUFFER0, &v);
  CHECK(v == GL_NONE);
  glGetIntegerv(GL_FRAMEBUFFER_BINDING, &v);
  CHECK(v == 0);
  // §18.2: "An INVALID_FRAMEBUFFER_OPERATION error is generated if the object bound to READ_FRAMEBUFFER_BINDING is
  // not framebuffer complete"; §9.4.4: Clear on an incomplete draw framebuffer likewise.
  uint8_t pixel[4] = {};
  glReadPixels(0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, pixel);
  REQUIRE_GL_ERROR(GL_INVALID_FRAMEBUFFER_OPERATION);
  glClear(GL_COLOR_BUFFER_BIT);
  REQUIRE_GL_ERROR(GL_INVALID_FRAMEBUFFER_OPERATION);
  // §9.2.8: "An INVALID_OPERATION error is generated if zero is bound to target."
  const GLuint t = texture_2d(GL_RGBA8, 2, 2);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, t, 0);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  // §17.4.1: a buffer of the default framebuffer that does not exist: INVALID_OPERATION.
  glDrawBuffer(GL_BACK);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glReadBuffer(GL_NONE);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  glDeleteTextures(1, &t);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("Framebuffer completeness follows GL 4.6 §9.4.2", "[framebuffer]") {
  GlContext gl;
  GLuint fb = 0;
  glGenFramebuffers(1, &fb);
  CHECK(glIsFramebuffer(fb) == GL_FALSE);  // §9.2.1: a name from GenFramebuffers is an object once bound
  glBindFramebuffer(GL_FRAMEBUFFER, fb);
  CHECK(glIsFramebuffer(fb) == GL_TRUE);
  // "There is at least one image attached to the framebuffer, or ... FRAMEBUFFER_DEFAULT_WIDTH and
  // FRAMEBUFFER_DEFAULT_HEIGHT are both not zero" — FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT. (The default read
  // buffer COLOR_ATTACHMENT0 has nothing attached then, so READ_BUFFER is set to NONE first: §9.4.2's read-buffer
  // rule.)
  glReadBuffer(GL_NONE);
  glDrawBuffer(GL_NONE);
  CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT);
  glFramebufferParameteri(GL_FRAMEBUFFER, GL_FRAMEBUFFER_DEFAULT_WIDTH, 16);
  glFramebufferParameteri(GL_FRAMEBUFFER, GL_FRAMEBUFFER_DEFAULT_HEIGHT, 16);
  CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);
  GLint v = 0;
  glGetFramebufferParameteriv(GL_FRAMEBUFFER, GL_FRAMEBUFFER_DEFAULT_WIDTH, &v);
  CHECK(v == 16);
  // "An INVALID_VALUE error is generated if pname is FRAMEBUFFER_DEFAULT_WIDTH and param is less than zero".
  glFramebufferParameteri(GL_FRAMEBUFFER, GL_FRAMEBUFFER_DEFAULT_WIDTH, -1);
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  glFramebufferParameteri(GL_FRAMEBUFFER, GL_FRAMEBUFFER_DEFAULT_WIDTH, 0);

  // §9.4.1: an attached image must exist — a level that was never defined is attachment-incomplete.
  GLuint mutable_tex = 0;
  glGenTextures(1, &mutable_tex);
  glBindTexture(GL_TEXTURE_2D, mutable_tex);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, mutable_tex, 1);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT);
  // A color attachment must be color-renderable: RGB9_E5 is not (GL 4.6 table 8.12).
  const GLuint shared_exp = texture_2d(GL_RGB9_E5, 4, 4);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, shared_exp, 0);
  CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, mutable_tex, 0);
  CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);
  // "The value of FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE must not be NONE for any color attachment point(s) named by
  // DRAW_BUFFERi" (FRAMEBUFFER_INCOMPLETE_DRAW_BUFFER), and likewise READ_BUFFER (..._READ_BUFFER).
  const GLenum bufs[2] = {GL_COLOR_ATTACHMENT0, GL_COLOR_ATTACHMENT1};
  glDrawBuffers(2, bufs);
  CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_INCOMPLETE_DRAW_BUFFER);
  glDrawBuffers(1, bufs);
  glReadBuffer(GL_COLOR_ATTACHMENT1);
  CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_INCOMPLETE_READ_BUFFER);
  glReadBuffer(GL_COLOR_ATTACHMENT0);
  // "If any framebuffer attachment is layered, all populated attachments must be layered"
  // (FRAMEBUFFER_INCOMPLETE_LAYER_TARGETS).
  GLuint array = 0;
  glCreateTextures(GL_TEXTURE_2D_ARRAY, 1, &array);
  glTextureStorage3D(array, 1, GL_RGBA8, 4, 4, 3);
  glFramebufferTexture(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT1, array, 0);
  CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_INCOMPLETE_LAYER_TARGETS);
  glGetFramebufferAttachmentParameteriv(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT1, GL_FRAMEBUFFER_ATTACHMENT_LAYERED, &v);
  CHECK(v == GL_TRUE);
  glFramebufferTextureLayer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT1, array, 0, 2);
  CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);
  glGetFramebufferAttachmentParameteriv(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT1, GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_LAYER,
                                        &v);
  CHECK(v == 2);
  // §9.4.1: "the value of FRAMEBUFFER_ATTACHMENT_TEXTURE_LAYER must be smaller than the depth of the texture".
  glFramebufferTextureLayer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT1, array, 0, 3);
  CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT);
  glFramebufferTextureLayer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT1, 0, 0, 0);
  REQUIRE_GL_ERROR(GL_NO_ERROR);

  // Errors. §9.4.2: "An INVALID_ENUM error is generated if target is not DRAW_FRAMEBUFFER, READ_FRAMEBUFFER or
  // FRAMEBUFFER" (and zero is returned).
  CHECK(glCheckFramebufferStatus(GL_TEXTURE_2D) == 0);
  REQUIRE_GL_ERROR(GL_INVALID_ENUM);
  // §9.2.8: "An INVALID_OPERATION error is generated if attachment is COLOR_ATTACHMENTm where m is greater than or
  // equal to the value of MAX_COLOR_ATTACHMENTS".
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT8, GL_TEXTURE_2D, mutable_tex, 0);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  // "... if texture is not zero or the name of an existing texture object".
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, 12345, 0);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  // "... if textarget is not compatible with texture's target" (a 2D array is not TEXTURE_2D).
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, array, 0);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  // "An INVALID_VALUE error is generated if ... level is ... negative".
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, mutable_tex, -1);
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  // §9.2.1: "An INVALID_OPERATION error is generated if framebuffer is not zero or a name returned from a previous
  // call to GenFramebuffers".
  glBindFramebuffer(GL_FRAMEBUFFER, 4242);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  // §17.4.1: "An INVALID_OPERATION error is generated if a buffer other than NONE is specified more than once".
  const GLenum twice[2] = {GL_COLOR_ATTACHMENT0, GL_COLOR_ATTACHMENT0};
  glDrawBuffers(2, twice);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);

  // §9.2.8: deleting a texture attached to the bound framebuffer detaches it.
  glDeleteTextures(1, &mutable_tex);
  glGetFramebufferAttachmentParameteriv(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE,
                                        &v);
  CHECK(v == GL_NONE);
  // §9.2.1: deleting the bound framebuffer binds zero.
  glDeleteFramebuffers(1, &fb);
  glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &v);
  CHECK(v == 0);
  GLint max = 0;
  glGetIntegerv(GL_MAX_COLOR_ATTACHMENTS, &max);
  CHECK(max >= 8);  // GL 4.6 table 23.82 minimum
  glGetIntegerv(GL_MAX_DRAW_BUFFERS, &max);
  CHECK(max >= 8);
  const GLuint textures[2] = {shared_exp, array};
  glDeleteTextures(2, textures);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("glReadPixels reads a normalized buffer with conversions and pack state (GL 4.6 §18.2)", "[framebuffer]") {
  GlContext gl;
  constexpr int W = 5, H = 3;
  std::vector<uint8_t> texels(W * H * 4);
  for (size_t i = 0; i < texels.size(); ++i) texels[i] = static_cast<uint8_t>(i * 7 + 1);
  const GLuint t = texture_2d(GL_RGBA8, W, H);
  glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, texels.data());
  const GLuint fb = framebuffer_with(t);
  REQUIRE(glCheckFramebufferStatus(GL_READ_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);
  auto texel = [&](int x, int y, int c) { return texels[static_cast<size_t>((y * W + x) * 4 + c)]; };

  std::vector<uint8_t> got(W * H * 4);
  glReadPixels(0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, got.data());
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  CHECK(got == texels);
  // RGBA/FLOAT: §18.2.8 converts the normalized value to float (c / 255).
  std::vector<float> f(W * H * 4);
  glReadPixels(0, 0, W, H, GL_RGBA, GL_FLOAT, f.data());
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  CHECK(f[7] == Approx(texel(1, 0, 3) / 255.0f));
  // A sub-rectangle with PACK_ALIGNMENT 8, PACK_ROW_LENGTH 4, PACK_SKIP_PIXELS 1, PACK_SKIP_ROWS 1, format RG
  // (§8.4.4.1): the group of pixel (i, j) starts at (skip_rows + j) * stride + (skip_pixels + i) * 2, stride =
  // 8 * ceil(2 * 4 / 8) = 8.
  glPixelStorei(GL_PACK_ALIGNMENT, 8);
  glPixelStorei(GL_PACK_ROW_LENGTH, 4);
  glPixelStorei(GL_PACK_SKIP_PIXELS, 1);
  glPixelStorei(GL_PACK_SKIP_ROWS, 1);
  std::vector<uint8_t> packed(64, 0xEE);
  glReadPixels(2, 1, 2, 2, GL_RG, GL_UNSIGNED_BYTE, packed.data());
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  for (int j = 0; j < 2; ++j) {
    for (int i = 0; i < 2; ++i) {
      const size_t at = static_cast<size_t>((1 + j) * 8 + (1 + i) * 2);
      CHECK(packed[at] == texel(2 + i, 1 + j, 0));
      CHECK(packed[at + 1] == texel(2 + i, 1 + j, 1));
    }
  }
  CHECK(packed[0] == 0xEE);  // skipped rows are left unwritten
  CHECK(packed[8] == 0xEE);  // skipped pixels too
  glPixelStorei(GL_PACK_ALIGNMENT, 4);
  glPixelStorei(GL_PACK_ROW_LENGTH, 0);
  glPixelStorei(GL_PACK_SKIP_PIXELS, 0);
  glPixelStorei(GL_PACK_SKIP_ROWS, 0);
  // A rectangle reaching outside the attachment: §18.2.8 leaves those pixels' values undefined; the inside ones
  // are the attachment's.
  std::vector<uint8_t> edge(3 * 2 * 4, 0xEE);
  glReadPixels(W - 2, H - 1, 3, 2, GL_RGBA, GL_UNSIGNED_BYTE, edge.data());
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  CHECK(edge[0] == texel(W - 2, H - 1, 0));
  CHECK(edge[4] == texel(W - 1, H - 1, 0));
  // Errors: "An INVALID_VALUE error is generated if either width or height is negative"; an integer format for a
  // normalized buffer is INVALID_OPERATION (§18.2.4 / §8.4.4); glReadnPixels: "An INVALID_OPERATION error is
  // generated if the buffer size required to store the requested data is greater than bufSize".
  glReadPixels(0, 0, -1, 1, GL_RGBA, GL_UNSIGNED_BYTE, got.data());
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  glReadPixels(0, 0, 1, 1, GL_RGBA_INTEGER, GL_UNSIGNED_BYTE, got.data());
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glReadnPixels(0, 0, 2, 2, GL_RGBA, GL_UNSIGNED_BYTE, 15, got.data());
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glReadnPixels(0, 0, 2, 2, GL_RGBA, GL_UNSIGNED_BYTE, 16, got.data());
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  // §18.2.1: "An INVALID_OPERATION error is generated if ... the read buffer is NONE".
  glReadBuffer(GL_NONE);
  glReadPixels(0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, got.data());
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  // GL 4.6 §18.2.2: IMPLEMENTATION_COLOR_READ_FORMAT needs a read buffer: INVALID_OPERATION without one.
  GLint v = 0;
  glGetIntegerv(GL_IMPLEMENTATION_COLOR_READ_FORMAT, &v);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glReadBuffer(GL_COLOR_ATTACHMENT0);
  glGetIntegerv(GL_IMPLEMENTATION_COLOR_READ_FORMAT, &v);
  CHECK(v == GL_RGBA);
  glGetIntegerv(GL_IMPLEMENTATION_COLOR_READ_TYPE, &v);
  CHECK(v == GL_UNSIGNED_BYTE);
  glDeleteFramebuffers(1, &fb);
  glDeleteTextures(1, &t);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("glReadPixels reads float, signed and unsigned integer buffers (GL 4.6 §18.2.8)", "[framebuffer]") {
  GlContext gl;
  // Float: RGBA32F read as RGBA/FLOAT and as RED/FLOAT (one component of each group).
  const float fdata[8] = {1.5f, -2.0f, 3.25f, 0.5f, 100.0f, 0.0f, -0.125f, 1.0f};
  const GLuint tf = texture_2d(GL_RGBA32F, 2, 1);
  glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 2, 1, GL_RGBA, GL_FLOAT, fdata);
  GLuint fb = framebuffer_with(tf);
  float f[8] = {};
  glReadPixels(0, 0, 2, 1, GL_RGBA, GL_FLOAT, f);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  for (int i = 0; i < 8; ++i) CHECK(f[i] == fdata[i]);
  float red[2] = {};
  glReadPixels(0, 0, 2, 1, GL_RED, GL_FLOAT, red);
  CHECK(red[0] == 1.5f);
  CHECK(red[1] == 100.0f);
  // Signed integer R32I read as RGBA_INTEGER/INT: §18.2.8 fills the missing G, B with 0 and A with 1.
  const GLint idata[2] = {-7, 123456};
  const GLuint ti = texture_2d(GL_R32I, 2, 1);
  glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 2, 1, GL_RED_INTEGER, GL_INT, idata);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, ti, 0);
  GLint i4[8] = {};
  glReadPixels(0, 0, 2, 1, GL_RGBA_INTEGER, GL_INT, i4);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  CHECK(i4[0] == -7);
  CHECK(i4[1] == 0);
  CHECK(i4[3] == 1);
  CHECK(i4[4] == 123456);
  // "An INVALID_OPERATION error is generated if ... the read buffer is an integer format and format is not an
  // integer format" (and the other way round).
  glReadPixels(0, 0, 1, 1, GL_RGBA, GL_FLOAT, f);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  // Unsigned integer RGBA16UI read as RGBA_INTEGER/UNSIGNED_INT.
  const GLushort udata[4] = {1, 65535, 300, 7};
  const GLuint tu = texture_2d(GL_RGBA16UI, 1, 1);
  glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 1, 1, GL_RGBA_INTEGER, GL_UNSIGNED_SHORT, udata);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tu, 0);
  GLuint u4[4] = {};
  glReadPixels(0, 0, 1, 1, GL_RGBA_INTEGER, GL_UNSIGNED_INT, u4);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  CHECK(u4[0] == 1);
  CHECK(u4[1] == 65535);
  CHECK(u4[2] == 300);
  CHECK(u4[3] == 7);
  glDeleteFramebuffers(1, &fb);
  const GLuint textures[3] = {tf, ti, tu};
  glDeleteTextures(3, textures);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("glReadPixels into a pixel pack buffer (GL 4.6 §18.2, §6.3)", "[framebuffer]") {
  GlContext gl;
  const uint8_t data[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
  const GLuint t = texture_2d(GL_RGBA8, 2, 2);
  glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 2, 2, GL_RGBA, GL_UNSIGNED_BYTE, data);
  const GLuint fb = framebuffer_with(t);
  GLuint pbo = 0;
  glGenBuffers(1, &pbo);
  glBindBuffer(GL_PIXEL_PACK_BUFFER, pbo);
  std::vector<uint8_t> fill(40, 0xAB);
  glBufferData(GL_PIXEL_PACK_BUFFER, 40, fill.data(), GL_STREAM_READ);
  // With a pack buffer bound, pixels is an offset into it.
  glReadPixels(0, 0, 2, 2, GL_RGBA, GL_UNSIGNED_BYTE, reinterpret_cast<void*>(uintptr_t{20}));
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  uint8_t got[40] = {};
  glGetBufferSubData(GL_PIXEL_PACK_BUFFER, 0, 40, got);
  CHECK(got[19] == 0xAB);
  CHECK(std::memcmp(got + 20, data, 16) == 0);
  CHECK(got[36] == 0xAB);
  // §18.2.8: "An INVALID_OPERATION error is generated if a pixel pack buffer object is bound and ... the memory
  // writes required would exceed the data store size", "... and data is not evenly divisible into the number of
  // basic machine units needed to store in memory the corresponding GL data type".
  glReadPixels(0, 0, 2, 2, GL_RGBA, GL_UNSIGNED_BYTE, reinterpret_cast<void*>(uintptr_t{28}));
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glReadPixels(0, 0, 1, 1, GL_RGBA, GL_FLOAT, reinterpret_cast<void*>(uintptr_t{2}));
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
  glDeleteBuffers(1, &pbo);
  glDeleteFramebuffers(1, &fb);
  glDeleteTextures(1, &t);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("glClear and glClearBuffer* clear the draw buffers (GL 4.6 §17.4.3)", "[framebuffer]") {
  GlContext gl;
  const GLuint unorm = texture_2d(GL_RGBA8, 2, 2);
  const GLuint sint = texture_2d(GL_R32I, 2, 2);
  const GLuint uns = texture_2d(GL_RGBA8UI, 2, 2);
  const GLuint flt = texture_2d(GL_RG32F, 2, 2);
  GLuint fb = 0;
  glCreateFramebuffers(1, &fb);
  glNamedFramebufferTexture(fb, GL_COLOR_ATTACHMENT0, unorm, 0);
  glNamedFramebufferTexture(fb, GL_COLOR_ATTACHMENT1, sint, 0);
  glNamedFramebufferTexture(fb, GL_COLOR_ATTACHMENT2, uns, 0);
  glNamedFramebufferTexture(fb, GL_COLOR_ATTACHMENT3, flt, 0);
  const GLenum bufs[4] = {GL_COLOR_ATTACHMENT0, GL_COLOR_ATTACHMENT1, GL_COLOR_ATTACHMENT2, GL_COLOR_ATTACHMENT3};
  glNamedFramebufferDrawBuffers(fb, 4, bufs);
  glBindFramebuffer(GL_FRAMEBUFFER, fb);
  REQUIRE(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);
  GLint v = 0;
  glGetIntegerv(GL_DRAW_BUFFER3, &v);
  CHECK(v == GL_COLOR_ATTACHMENT3);
  // "Unsigned normalized fixed-point RGBA color buffers are cleared to color values derived by clamping each
  // component of the clear color to the range [0, 1]".
  const GLfloat color[4] = {1.5f, -1.0f, 0.5f, 0.0f};
  glClearBufferfv(GL_COLOR, 0, color);
  const GLint ivalue[4] = {-9, 0, 0, 0};
  glClearBufferiv(GL_COLOR, 1, ivalue);
  const GLuint uvalue[4] = {1, 2, 250, 255};
  glClearBufferuiv(GL_COLOR, 2, uvalue);
  const GLfloat fvalue[4] = {-3.5f, 1e6f, 0, 0};
  glClearBufferfv(GL_COLOR, 3, fvalue);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  uint8_t px[16] = {};
  glReadBuffer(GL_COLOR_ATTACHMENT0);
  glReadPixels(0, 0, 2, 2, GL_RGBA, GL_UNSIGNED_BYTE, px);
  CHECK(px[12] == 255);
  CHECK(px[13] == 0);
  CHECK(px[14] == 128);  // §2.3.5.1: round(0.5 × 255)
  CHECK(px[15] == 0);
  GLint i4[4] = {};
  glReadBuffer(GL_COLOR_ATTACHMENT1);
  glReadPixels(1, 1, 1, 1, GL_RGBA_INTEGER, GL_INT, i4);
  CHECK(i4[0] == -9);
  GLuint u4[4] = {};
  glReadBuffer(GL_COLOR_ATTACHMENT2);
  glReadPixels(0, 1, 1, 1, GL_RGBA_INTEGER, GL_UNSIGNED_INT, u4);
  CHECK(u4[0] == 1);
  CHECK(u4[2] == 250);
  CHECK(u4[3] == 255);
  float f4[4] = {};
  glReadBuffer(GL_COLOR_ATTACHMENT3);
  glReadPixels(1, 0, 1, 1, GL_RGBA, GL_FLOAT, f4);
  CHECK(f4[0] == -3.5f);  // floating-point buffers are not clamped
  CHECK(f4[1] == 1e6f);
  CHECK(f4[3] == 1.0f);  // §18.2.8: a missing alpha reads as 1
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  // glClear with the clear color writes every fixed- and floating-point draw buffer (integer ones: undefined).
  glClearColor(0.25f, 0.75f, 1.0f, 1.0f);
  // GL 4.6 table 23.22: COLOR_CLEAR_VALUE holds ClearColor's values; §2.2.2 converts a color component returned as
  // an integer by table 18.2's INT entry, ((2^32 - 1) c - 1) / 2: 1.0 → 2^31 - 1.
  GLfloat clear_value[4] = {};
  glGetFloatv(GL_COLOR_CLEAR_VALUE, clear_value);
  CHECK(clear_value[1] == 0.75f);
  GLint clear_int[4] = {};
  glGetIntegerv(GL_COLOR_CLEAR_VALUE, clear_int);
  CHECK(clear_int[2] == 2147483647);
  glClear(GL_COLOR_BUFFER_BIT);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  glReadBuffer(GL_COLOR_ATTACHMENT0);
  glReadPixels(0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
  CHECK(px[0] == 64);
  CHECK(px[1] == 191);
  CHECK(px[2] == 255);
  glReadBuffer(GL_COLOR_ATTACHMENT3);
  glReadPixels(0, 0, 1, 1, GL_RGBA, GL_FLOAT, f4);
  CHECK(f4[0] == 0.25f);
  CHECK(f4[1] == 0.75f);
  // Errors (§17.4.3.1): "An INVALID_ENUM error is generated by ClearBufferuiv ... if buffer is not COLOR";
  // "... ClearBufferfi ... if buffer is not DEPTH_STENCIL"; "An INVALID_VALUE error is generated if buffer is COLOR
  // and drawbuffer is negative, or greater than the value of MAX_DRAW_BUFFERS minus one"; §17.4.3: "An
  // INVALID_VALUE error is generated if any bits other than COLOR_BUFFER_BIT, DEPTH_BUFFER_BIT, or
  // STENCIL_BUFFER_BIT are set in mask".
  glClearBufferuiv(GL_DEPTH, 0, uvalue);
  REQUIRE_GL_ERROR(GL_INVALID_ENUM);
  glClearBufferfi(GL_COLOR, 0, 1.0f, 0);
  REQUIRE_GL_ERROR(GL_INVALID_ENUM);
  glClearBufferfv(GL_COLOR, 8, color);
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  glClear(0x1);
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  glClearNamedFramebufferfv(777, GL_COLOR, 0, color);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glDeleteFramebuffers(1, &fb);
  const GLuint textures[4] = {unorm, sint, uns, flt};
  glDeleteTextures(4, textures);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("Clears of layered and 3D-slice attachments (GL 4.6 §9.8, §17.4.3)", "[framebuffer]") {
  GlContext gl;
  GLuint array = 0, volume = 0;
  glCreateTextures(GL_TEXTURE_2D_ARRAY, 1, &array);
  glTextureStorage3D(array, 1, GL_RGBA8, 2, 2, 3);
  glCreateTextures(GL_TEXTURE_3D, 1, &volume);
  glTextureStorage3D(volume, 1, GL_RGBA8, 2, 2, 3);
  glClearTexImage(array, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  glClearTexImage(volume, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  GLuint fb = 0;
  glCreateFramebuffers(1, &fb);
  glBindFramebuffer(GL_FRAMEBUFFER, fb);
  // "When the Clear or ClearBuffer* commands are used to clear a layered framebuffer attachment, all layers of the
  // attachment are cleared."
  glFramebufferTexture(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, array, 0);
  REQUIRE(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);
  const GLfloat one[4] = {1, 1, 1, 1};
  glClearBufferfv(GL_COLOR, 0, one);
  std::vector<uint8_t> all(2 * 2 * 3 * 4);
  glGetTextureImage(array, 0, GL_RGBA, GL_UNSIGNED_BYTE, static_cast<GLsizei>(all.size()), all.data());
  for (uint8_t b : all) CHECK(b == 255);
  // One slice of a 3D texture (FramebufferTexture3D's zoffset): only that slice.
  glFramebufferTexture3D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_3D, volume, 0, 1);
  REQUIRE(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);
  glClearBufferfv(GL_COLOR, 0, one);
  glGetTextureImage(volume, 0, GL_RGBA, GL_UNSIGNED_BYTE, static_cast<GLsizei>(all.size()), all.data());
  for (size_t i = 0; i < all.size(); ++i) CHECK(all[i] == (i / 16 == 1 ? 255 : 0));
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  glDeleteFramebuffers(1, &fb);
  const GLuint textures[2] = {array, volume};
  glDeleteTextures(2, textures);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

namespace {

// An OpenGL ES 3.x context (surfaceless) with a callback that records validation messages.
class EsContext {
 public:
  explicit EsContext(EGLint minor) {
    setenv("BISMUTH_VALIDATION", "1", 0);
    display = eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, nullptr, nullptr);
    REQUIRE(eglInitialize(display, nullptr, nullptr) == EGL_TRUE);
    REQUIRE(eglBindAPI(EGL_OPENGL_ES_API) == EGL_TRUE);
    const EGLint attribs[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, minor, EGL_NONE};
    context = eglCreateContext(display, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, attribs);
    REQUIRE(context != EGL_NO_CONTEXT);
    REQUIRE(eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context) == EGL_TRUE);
    glDebugMessageCallback(&EsContext::on_message, this);
  }
  ~EsContext() {
    eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(display, context);
    eglBindAPI(EGL_OPENGL_API);
  }
  EsContext(const EsContext&) = delete;
  EsContext& operator=(const EsContext&) = delete;
  std::vector<std::string> validation_messages;
  EGLDisplay display = EGL_NO_DISPLAY;
  EGLContext context = EGL_NO_CONTEXT;

 private:
  static void APIENTRY on_message(GLenum, GLenum, GLuint id, GLenum, GLsizei length, const GLchar* message,
                                  const void* user) {
    auto* self = static_cast<EsContext*>(const_cast<void*>(user));
    if (id == kValidationMessageId) self->validation_messages.emplace_back(message, static_cast<size_t>(length));
  }
};

}  // namespace

TEST_CASE("An OpenGL ES 3.1 program reads an RGBA8 texture through a framebuffer (ES 3.2 §16.1.2)", "[framebuffer]") {
  EsContext es(1);
  const uint8_t data[8] = {10, 20, 30, 40, 50, 60, 70, 80};
  GLuint t = 0;
  glGenTextures(1, &t);
  glBindTexture(GL_TEXTURE_2D, t);
  glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, 2, 1);
  glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 2, 1, GL_RGBA, GL_UNSIGNED_BYTE, data);
  GLuint fb = 0;
  glGenFramebuffers(1, &fb);
  glBindFramebuffer(GL_FRAMEBUFFER, fb);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, t, 0);
  REQUIRE(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);
  uint8_t got[8] = {};
  glReadPixels(0, 0, 2, 1, GL_RGBA, GL_UNSIGNED_BYTE, got);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  CHECK(std::memcmp(got, data, 8) == 0);
  // "Only two combinations of format and type are accepted in most cases. The first varies depending on the format
  // of the currently bound rendering surface. For normalized fixed-point rendering surfaces, the combination
  // format RGBA and type UNSIGNED_BYTE is accepted. ... The second is an implementation-chosen format"
  // (IMPLEMENTATION_COLOR_READ_FORMAT/TYPE); "An INVALID_OPERATION error is generated if the combination of format
  // and type is unsupported".
  GLint format = 0, type = 0;
  glGetIntegerv(GL_IMPLEMENTATION_COLOR_READ_FORMAT, &format);
  glGetIntegerv(GL_IMPLEMENTATION_COLOR_READ_TYPE, &type);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  if (!(format == GL_RGB && type == GL_UNSIGNED_BYTE)) {
    glReadPixels(0, 0, 1, 1, GL_RGB, GL_UNSIGNED_BYTE, got);
    REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  }
  glReadPixels(0, 0, 1, 1, GL_RGBA, GL_FLOAT, got);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  // EXT_color_buffer_float (exposed): "R16F, RG16F, RGBA16F, R32F, RG32F, RGBA32F, R11F_G11F_B10F ... are
  // color-renderable" in ES 3.0/3.1, and ReadPixels takes RGBA/FLOAT for them (ES 3.2 §16.1.2).
  bool has_float = false;
  GLint n = 0;
  glGetIntegerv(GL_NUM_EXTENSIONS, &n);
  for (GLint i = 0; i < n; ++i) {
    if (std::string(reinterpret_cast<const char*>(glGetStringi(GL_EXTENSIONS, static_cast<GLuint>(i)))) ==
        "GL_EXT_color_buffer_float") {
      has_float = true;
    }
  }
  GLuint ft = 0;
  glGenTextures(1, &ft);
  glBindTexture(GL_TEXTURE_2D, ft);
  glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA32F, 1, 1);
  const float fdata[4] = {-1.5f, 2.0f, 0.25f, 1.0f};
  glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 1, 1, GL_RGBA, GL_FLOAT, fdata);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, ft, 0);
  const GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
  if (has_float) {
    REQUIRE(status == GL_FRAMEBUFFER_COMPLETE);
    float fgot[4] = {};
    glReadPixels(0, 0, 1, 1, GL_RGBA, GL_FLOAT, fgot);
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    CHECK(std::memcmp(fgot, fdata, sizeof fgot) == 0);
  } else {
    // ES 3.1 without the extension: a float format is not color-renderable (FRAMEBUFFER_INCOMPLETE_ATTACHMENT).
    CHECK(status == GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT);
  }
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, t, 0);
  glDeleteTextures(1, &ft);
  // ES 3.2 §15.2.1: "the ith buffer listed in bufs must be COLOR_ATTACHMENTi or NONE" (INVALID_OPERATION).
  const GLenum bufs[2] = {GL_NONE, GL_COLOR_ATTACHMENT0};
  glDrawBuffers(2, bufs);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glDeleteFramebuffers(1, &fb);
  glDeleteTextures(1, &t);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  CHECK(es.validation_messages.empty());
}

TEST_CASE("Renderbuffers as color attachments (GL 4.6 §9.2.4 - §9.2.7)", "[framebuffer]") {
  GlContext gl;
  GLuint rb = 0;
  glGenRenderbuffers(1, &rb);
  CHECK(glIsRenderbuffer(rb) == GL_FALSE);  // §9.2.4: the object is created when the name is first bound
  glBindRenderbuffer(GL_RENDERBUFFER, rb);
  CHECK(glIsRenderbuffer(rb) == GL_TRUE);
  GLint v = 0;
  // Table 23.27: RENDERBUFFER_INTERNAL_FORMAT is initially RGBA, the size 0.
  glGetRenderbufferParameteriv(GL_RENDERBUFFER, GL_RENDERBUFFER_INTERNAL_FORMAT, &v);
  CHECK(v == GL_RGBA);
  glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA16F, 3, 2);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  glGetRenderbufferParameteriv(GL_RENDERBUFFER, GL_RENDERBUFFER_WIDTH, &v);
  CHECK(v == 3);
  glGetRenderbufferParameteriv(GL_RENDERBUFFER, GL_RENDERBUFFER_RED_SIZE, &v);
  CHECK(v == 16);
  GLuint fb = 0;
  glGenFramebuffers(1, &fb);
  glBindFramebuffer(GL_FRAMEBUFFER, fb);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
  REQUIRE(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);
  glGetFramebufferAttachmentParameteriv(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE,
                                        &v);
  CHECK(v == GL_RENDERBUFFER);
  glGetFramebufferAttachmentParameteriv(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_NAME,
                                        &v);
  CHECK(v == static_cast<GLint>(rb));
  const GLfloat value[4] = {-2.0f, 0.5f, 8.0f, 1.0f};
  glClearBufferfv(GL_COLOR, 0, value);
  float got[4] = {};
  glReadPixels(2, 1, 1, 1, GL_RGBA, GL_FLOAT, got);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  CHECK(got[0] == -2.0f);
  CHECK(got[2] == 8.0f);
  // §9.2.4: "An INVALID_ENUM error is generated if internalformat is not one of the color-renderable,
  // depth-renderable, or stencil-renderable formats"; "An INVALID_VALUE error is generated if either of width or
  // height is negative"; §9.2.7: "An INVALID_OPERATION error is generated if renderbuffer is not zero or the name of
  // an existing renderbuffer object"; "An INVALID_ENUM error is generated if renderbuffertarget is not
  // RENDERBUFFER".
  glRenderbufferStorage(GL_RENDERBUFFER, GL_RGB9_E5, 2, 2);
  REQUIRE_GL_ERROR(GL_INVALID_ENUM);
  glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, -1, 2);
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT1, GL_RENDERBUFFER, 999);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT1, GL_TEXTURE_2D, rb);
  REQUIRE_GL_ERROR(GL_INVALID_ENUM);
  // §9.2.7: deleting an attached renderbuffer detaches it from the bound framebuffer; §9.2.4: and unbinds it.
  // KHR_debug (GL 4.6 §20.9): framebuffers and renderbuffers take object labels.
  glObjectLabel(GL_RENDERBUFFER, rb, -1, "color");
  glObjectLabel(GL_FRAMEBUFFER, fb, -1, "target");
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  char label[16] = {};
  glGetObjectLabel(GL_FRAMEBUFFER, fb, sizeof label, nullptr, label);
  CHECK(std::string(label) == "target");
  glDeleteRenderbuffers(1, &rb);
  glGetFramebufferAttachmentParameteriv(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE,
                                        &v);
  CHECK(v == GL_NONE);
  glGetIntegerv(GL_RENDERBUFFER_BINDING, &v);
  CHECK(v == 0);
  glDeleteFramebuffers(1, &fb);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("glReadPixels reads the attached level, face or layer (GL 4.6 §9.2.8, §18.2)", "[framebuffer]") {
  GlContext gl;
  GLuint fb = 0;
  glGenFramebuffers(1, &fb);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, fb);
  uint8_t got[4] = {};
  // A cube map face (FramebufferTexture2D's textarget names it) of a mutable texture: each face its own value.
  GLuint cube = 0;
  glGenTextures(1, &cube);
  glBindTexture(GL_TEXTURE_CUBE_MAP, cube);
  for (GLenum face = 0; face < 6; ++face) {
    const uint8_t texel[4] = {static_cast<uint8_t>(10 + face), 0, 0, 255};
    glTexImage2D(GL_TEXTURE_CUBE_MAP_POSITIVE_X + face, 0, GL_RGBA8, 1, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE, texel);
  }
  glFramebufferTexture2D(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_CUBE_MAP_NEGATIVE_Y, cube, 0);
  REQUIRE(glCheckFramebufferStatus(GL_READ_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);
  GLint v = 0;
  glGetFramebufferAttachmentParameteriv(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0,
                                        GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_CUBE_MAP_FACE, &v);
  CHECK(v == GL_TEXTURE_CUBE_MAP_NEGATIVE_Y);
  glReadPixels(0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, got);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  CHECK(got[0] == 10 + 3);  // NEGATIVE_Y is face 3 (table 8.19)
  // Level 1 of an immutable 2D array, layer 2 (FramebufferTextureLayer).
  GLuint array = 0;
  glCreateTextures(GL_TEXTURE_2D_ARRAY, 1, &array);
  glTextureStorage3D(array, 2, GL_RGBA8, 4, 4, 3);
  std::vector<uint8_t> level1(2 * 2 * 3 * 4);
  for (size_t i = 0; i < level1.size(); ++i) level1[i] = static_cast<uint8_t>(i);
  glTextureSubImage3D(array, 1, 0, 0, 0, 2, 2, 3, GL_RGBA, GL_UNSIGNED_BYTE, level1.data());
  glFramebufferTextureLayer(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, array, 1, 2);
  REQUIRE(glCheckFramebufferStatus(GL_READ_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);
  glReadPixels(1, 1, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, got);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  const size_t at = ((2 * 2 + 1) * 2 + 1) * 4;  // layer 2, row 1, column 1 of level 1
  CHECK(got[0] == level1[at]);
  CHECK(got[3] == level1[at + 3]);
  // A 1D texture: one row, height 1 (§9.4.1: the image's height is 1); rows above it are outside.
  GLuint line = 0;
  glCreateTextures(GL_TEXTURE_1D, 1, &line);
  glTextureStorage1D(line, 1, GL_RGBA8, 4);
  const uint8_t row[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
  glTextureSubImage1D(line, 0, 0, 4, GL_RGBA, GL_UNSIGNED_BYTE, row);
  glFramebufferTexture1D(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_1D, line, 0);
  REQUIRE(glCheckFramebufferStatus(GL_READ_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);
  glReadPixels(2, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, got);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  CHECK(got[0] == 9);
  glDeleteFramebuffers(1, &fb);
  const GLuint textures[3] = {cube, array, line};
  glDeleteTextures(3, textures);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("A layered cube map attachment clears all six faces (GL 4.6 §9.8)", "[framebuffer]") {
  GlContext gl;
  // A mutable cube map: each face specified on its own (glTexImage2D per face).
  GLuint cube = 0;
  glGenTextures(1, &cube);
  glBindTexture(GL_TEXTURE_CUBE_MAP, cube);
  const uint8_t zero[4] = {};
  for (GLenum face = 0; face < 6; ++face) {
    glTexImage2D(GL_TEXTURE_CUBE_MAP_POSITIVE_X + face, 0, GL_RGBA8, 1, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE, zero);
  }
  GLuint fb = 0;
  glGenFramebuffers(1, &fb);
  glBindFramebuffer(GL_FRAMEBUFFER, fb);
  glFramebufferTexture(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, cube, 0);
  REQUIRE(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);
  // "When the Clear or ClearBuffer* commands are used to clear a layered framebuffer attachment, all layers of the
  // attachment are cleared."
  const GLfloat one[4] = {1, 0, 1, 0};
  glClearBufferfv(GL_COLOR, 0, one);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  for (GLenum face = 0; face < 6; ++face) {
    uint8_t got[4] = {};
    glGetTexImage(GL_TEXTURE_CUBE_MAP_POSITIVE_X + face, 0, GL_RGBA, GL_UNSIGNED_BYTE, got);
    CHECK(got[0] == 255);
    CHECK(got[2] == 255);
  }
  glDeleteFramebuffers(1, &fb);
  glDeleteTextures(1, &cube);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}
