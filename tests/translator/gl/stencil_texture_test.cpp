// Stencil textures (issue 18): STENCIL_INDEX8 (GL 4.4 / ARB_texture_stencil8; GL 4.6 table 8.13), its pixel
// transfers with format STENCIL_INDEX (§8.4.4, §8.5, §8.11.4, §18.2.8), queries (§8.11.3, §22.3) and sampling the
// stencil index through an unsigned integer sampler (table 15.1). Tagged [depth] too, so gl:depth_textures_color
// runs them with depth textures in colour formats (STENCIL_INDEX8 is R8_UINT in both storages: the answers must
// not change).
#include <cstdint>
#include <cstring>
#include <vector>

#include "translator/gl/gl_fixture.hpp"

using namespace bismuth::gltest;

namespace {

GLint level_parameter(GLuint texture, GLenum pname) {
  GLint v = -1;
  glGetTextureLevelParameteriv(texture, 0, pname, &v);
  return v;
}

GLint internalformat(GLenum target, GLenum format, GLenum pname) {
  GLint v = -1;
  glGetInternalformativ(target, format, pname, 1, &v);
  return v;
}

}  // namespace

TEST_CASE("STENCIL_INDEX8 textures have storage and report 8 stencil bits (GL 4.6 §8.5, §8.11.3, §22.3)",
          "[textures][stencil][depth]") {
  GlContext gl;
  GLuint t = 0;
  glCreateTextures(GL_TEXTURE_2D, 1, &t);
  glTextureStorage2D(t, 2, GL_STENCIL_INDEX8, 4, 4);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  // Table 8.13: STENCIL_INDEX8 has base format STENCIL_INDEX, 8 stencil bits and no depth or colour bits.
  CHECK(level_parameter(t, GL_TEXTURE_INTERNAL_FORMAT) == GL_STENCIL_INDEX8);
  CHECK(level_parameter(t, GL_TEXTURE_STENCIL_SIZE) == 8);
  CHECK(level_parameter(t, GL_TEXTURE_DEPTH_SIZE) == 0);
  CHECK(level_parameter(t, GL_TEXTURE_RED_SIZE) == 0);
  CHECK(level_parameter(t, GL_TEXTURE_RED_TYPE) == GL_NONE);
  CHECK(internalformat(GL_TEXTURE_2D, GL_STENCIL_INDEX8, GL_INTERNALFORMAT_SUPPORTED) == GL_TRUE);
  CHECK(internalformat(GL_TEXTURE_2D, GL_STENCIL_INDEX8, GL_INTERNALFORMAT_STENCIL_SIZE) == 8);
  CHECK(internalformat(GL_TEXTURE_2D, GL_STENCIL_INDEX8, GL_STENCIL_COMPONENTS) == GL_TRUE);
  CHECK(internalformat(GL_TEXTURE_2D, GL_STENCIL_INDEX8, GL_COLOR_COMPONENTS) == GL_FALSE);
  CHECK(internalformat(GL_TEXTURE_2D, GL_STENCIL_INDEX8, GL_INTERNALFORMAT_RED_SIZE) == 0);
  CHECK(internalformat(GL_TEXTURE_2D, GL_STENCIL_INDEX8, GL_GET_TEXTURE_IMAGE_FORMAT) == GL_STENCIL_INDEX);
  // Not an image unit format (table 8.27 has no stencil format).
  CHECK(internalformat(GL_TEXTURE_2D, GL_STENCIL_INDEX8, GL_SHADER_IMAGE_LOAD) == GL_NONE);
  glDeleteTextures(1, &t);
  // §8.5: "Textures with a base internal format of DEPTH_COMPONENT, DEPTH_STENCIL, or STENCIL_INDEX are supported
  // by texture image specification commands only if target is TEXTURE_1D, TEXTURE_2D, ... Using these formats in
  // conjunction with any other target will result in an INVALID_OPERATION error."
  GLuint volume = 0;
  glCreateTextures(GL_TEXTURE_3D, 1, &volume);
  glTextureStorage3D(volume, 1, GL_STENCIL_INDEX8, 2, 2, 2);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glDeleteTextures(1, &volume);
  CHECK(internalformat(GL_TEXTURE_3D, GL_STENCIL_INDEX8, GL_INTERNALFORMAT_SUPPORTED) == GL_FALSE);
  GLuint cube = 0;
  glCreateTextures(GL_TEXTURE_CUBE_MAP, 1, &cube);
  glTextureStorage2D(cube, 1, GL_STENCIL_INDEX8, 2, 2);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  glDeleteTextures(1, &cube);
  // The unsized base format STENCIL_INDEX (table 8.11) of glTexImage* gets a sized stencil format.
  GLuint mutable_texture = 0;
  glGenTextures(1, &mutable_texture);
  glBindTexture(GL_TEXTURE_2D, mutable_texture);
  const uint8_t one[1] = {7};
  glTexImage2D(GL_TEXTURE_2D, 0, GL_STENCIL_INDEX, 1, 1, 0, GL_STENCIL_INDEX, GL_UNSIGNED_BYTE, one);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  CHECK(level_parameter(mutable_texture, GL_TEXTURE_STENCIL_SIZE) == 8);
  glDeleteTextures(1, &mutable_texture);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("stencil indices unpack and pack with format STENCIL_INDEX (GL 4.6 §8.4.4, §8.5, §18.2.8)",
          "[textures][stencil][depth]") {
  GlContext gl;
  GLuint t = 0;
  glCreateTextures(GL_TEXTURE_2D, 1, &t);
  glTextureStorage2D(t, 1, GL_STENCIL_INDEX8, 4, 1);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);

  // Indices are not normalized (§8.4.4.2's conversion to floating point "is not performed on indices"): the
  // 8-bit stencil holds the index's low 8 bits.
  const uint8_t bytes[4] = {0, 1, 128, 255};
  glTextureSubImage2D(t, 0, 0, 0, 4, 1, GL_STENCIL_INDEX, GL_UNSIGNED_BYTE, bytes);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  uint8_t back[4] = {};
  glGetTextureImage(t, 0, GL_STENCIL_INDEX, GL_UNSIGNED_BYTE, sizeof back, back);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  CHECK(std::memcmp(back, bytes, sizeof back) == 0);

  // §18.2.8: "For an index, if the type is not FLOAT or HALF_FLOAT, final conversion consists of masking the index
  // with the value given in table 18.4" — 2^7 - 1 for BYTE, 2^16 - 1 for UNSIGNED_SHORT; FLOAT takes the index.
  int8_t signed_back[4] = {};
  glGetTextureImage(t, 0, GL_STENCIL_INDEX, GL_BYTE, sizeof signed_back, signed_back);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  for (int i = 0; i < 4; ++i) CHECK(signed_back[i] == static_cast<int8_t>(bytes[i] & 0x7F));
  uint16_t short_back[4] = {};
  glGetTextureImage(t, 0, GL_STENCIL_INDEX, GL_UNSIGNED_SHORT, sizeof short_back, short_back);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  for (int i = 0; i < 4; ++i) CHECK(short_back[i] == bytes[i]);
  float float_back[4] = {};
  glGetTextureImage(t, 0, GL_STENCIL_INDEX, GL_FLOAT, sizeof float_back, float_back);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  for (int i = 0; i < 4; ++i) CHECK(float_back[i] == static_cast<float>(bytes[i]));

  // Wider client indices keep their 8 least significant bits (-1 is all ones), float indices their integer part.
  const int32_t ints[4] = {-1, 0x1234, 300, 9};
  glTextureSubImage2D(t, 0, 0, 0, 4, 1, GL_STENCIL_INDEX, GL_INT, ints);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  glGetTextureImage(t, 0, GL_STENCIL_INDEX, GL_UNSIGNED_BYTE, sizeof back, back);
  for (int i = 0; i < 4; ++i) CHECK(back[i] == static_cast<uint8_t>(ints[i] & 0xFF));
  const float floats[2] = {3.75f, 200.0f};
  glTextureSubImage2D(t, 0, 1, 0, 2, 1, GL_STENCIL_INDEX, GL_FLOAT, floats);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  glGetTextureImage(t, 0, GL_STENCIL_INDEX, GL_UNSIGNED_BYTE, sizeof back, back);
  CHECK(back[1] == 3);
  CHECK(back[2] == 200);

  // §8.5: "An INVALID_OPERATION error is generated if ... format is STENCIL_INDEX and the base internal format is
  // not STENCIL_INDEX", and a colour or depth format does not name a stencil texture's components (§8.11.4).
  glTextureSubImage2D(t, 0, 0, 0, 1, 1, GL_RED_INTEGER, GL_UNSIGNED_BYTE, bytes);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glTextureSubImage2D(t, 0, 0, 0, 1, 1, GL_DEPTH_COMPONENT, GL_FLOAT, floats);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glGetTextureImage(t, 0, GL_RED_INTEGER, GL_UNSIGNED_BYTE, sizeof back, back);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  GLuint color = 0;
  glCreateTextures(GL_TEXTURE_2D, 1, &color);
  glTextureStorage2D(color, 1, GL_R8UI, 1, 1);
  glTextureSubImage2D(color, 0, 0, 0, 1, 1, GL_STENCIL_INDEX, GL_UNSIGNED_BYTE, bytes);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glDeleteTextures(1, &color);

  // §8.21: glClearTexImage converts its one pixel as an upload would.
  const uint8_t clear_value = 0xA5;
  glClearTexImage(t, 0, GL_STENCIL_INDEX, GL_UNSIGNED_BYTE, &clear_value);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  glGetTextureImage(t, 0, GL_STENCIL_INDEX, GL_UNSIGNED_BYTE, sizeof back, back);
  for (uint8_t b : back) CHECK(b == clear_value);
  glDeleteTextures(1, &t);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("an unsigned integer sampler reads a stencil texture as (S, 0, 0, 1) (GL 4.6 table 15.1, §8.17)",
          "[textures][stencil][depth]") {
  GlContext gl;
  const GLuint program = make_program(
      "#version 430\n"
      "layout(local_size_x = 1) in;\n"
      "layout(binding = 0) uniform usampler2D stencil;\n"
      "layout(std430, binding = 0) buffer Out { uvec4 fetched; uvec4 sampled; };\n"
      "void main() {\n"
      "  fetched = texelFetch(stencil, ivec2(2, 0), 0);\n"
      "  sampled = texture(stencil, vec2(0.375, 0.5));\n"
      "}\n");
  const GLuint out = make_buffer(32);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, out);
  glUseProgram(program);
  GLuint t = 0;
  glCreateTextures(GL_TEXTURE_2D, 1, &t);
  glTextureStorage2D(t, 1, GL_STENCIL_INDEX8, 4, 1);
  const uint8_t texels[4] = {3, 77, 200, 255};
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glTextureSubImage2D(t, 0, 0, 0, 4, 1, GL_STENCIL_INDEX, GL_UNSIGNED_BYTE, texels);
  glTextureParameteri(t, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTextureParameteri(t, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glBindTextureUnit(0, t);
  glDispatchCompute(1, 1, 1);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  uint32_t r[8] = {};
  glGetNamedBufferSubData(out, 0, sizeof r, r);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  // Table 15.1: "STENCIL_INDEX: (S, 0, 0, 1)"; texel 2 at x = 0.375 * 4 = 1.5 → texel 1 with NEAREST.
  const uint32_t expected[8] = {texels[2], 0, 0, 1, texels[1], 0, 0, 1};
  for (int i = 0; i < 8; ++i) CHECK(r[i] == expected[i]);

  // §8.17: a texture is incomplete if "the internal format of the texture is integer or stencil index, and either
  // the magnification filter is not NEAREST, or the minification filter is neither NEAREST nor
  // NEAREST_MIPMAP_NEAREST"; an incomplete texture reads (0, 0, 0, 1) (§11.1.3.5).
  glTextureParameteri(t, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glDispatchCompute(1, 1, 1);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  glGetNamedBufferSubData(out, 0, sizeof r, r);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  for (int i = 0; i < 8; ++i) CHECK(r[i] == (i % 4 == 3 ? 1u : 0u));
  glDeleteTextures(1, &t);
  glDeleteBuffers(1, &out);
  glDeleteProgram(program);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("a STENCIL_INDEX8 stencil attachment is cleared and read (GL 4.6 §9.4, §17.4.3, §18.2)",
          "[framebuffer][stencil][depth]") {
  GlContext gl;
  GLuint color = 0, stencil = 0, fb = 0;
  glCreateTextures(GL_TEXTURE_2D, 1, &color);
  glTextureStorage2D(color, 1, GL_RGBA8, 4, 2);
  glClearTexImage(color, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  glCreateTextures(GL_TEXTURE_2D, 1, &stencil);
  glTextureStorage2D(stencil, 1, GL_STENCIL_INDEX8, 4, 2);
  glGenFramebuffers(1, &fb);
  glBindFramebuffer(GL_FRAMEBUFFER, fb);
  glFramebufferTexture(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, color, 0);
  glFramebufferTexture(GL_FRAMEBUFFER, GL_STENCIL_ATTACHMENT, stencil, 0);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  // §9.4.1: "If attachment is STENCIL_ATTACHMENT, then image must have a stencil-renderable internal format"
  // (STENCIL_INDEX8 is, §9.4).
  CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);
  GLint v = -1;
  glGetFramebufferAttachmentParameteriv(GL_FRAMEBUFFER, GL_STENCIL_ATTACHMENT, GL_FRAMEBUFFER_ATTACHMENT_STENCIL_SIZE,
                                        &v);
  CHECK(v == 8);
  glGetFramebufferAttachmentParameteriv(GL_FRAMEBUFFER, GL_STENCIL_ATTACHMENT, GL_FRAMEBUFFER_ATTACHMENT_RED_SIZE, &v);
  CHECK(v == 0);

  // §17.4.3: "ClearStencil takes a single integer argument that is the value to which to clear the stencil buffer.
  // s is masked to the number of bitplanes in the stencil buffer." STENCIL_CLEAR_VALUE holds s as given.
  glClearStencil(0x1A5);
  glGetIntegerv(GL_STENCIL_CLEAR_VALUE, &v);
  CHECK(v == 0x1A5);
  glClear(GL_STENCIL_BUFFER_BIT);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  // §18.2.1: "If the format is STENCIL_INDEX, the stencil buffer is used".
  uint8_t s[8] = {};
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, 4, 2, GL_STENCIL_INDEX, GL_UNSIGNED_BYTE, s);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  for (uint8_t b : s) CHECK(b == 0xA5);
  // The stencil clear leaves the color buffer alone (COLOR_BUFFER_BIT was not in the mask).
  uint8_t px[4] = {1, 1, 1, 1};
  glReadPixels(0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
  CHECK((px[0] == 0 && px[1] == 0 && px[2] == 0 && px[3] == 0));

  // §17.4.3.1: "If buffer is STENCIL, drawbuffer must be zero, and value is a pointer to a single stencil value to
  // clear the stencil buffer to"; ClearBufferfi's result "is the same as clearing the depth and stencil buffers
  // separately" (no depth buffer here).
  const GLint index = 0x234;
  glClearBufferiv(GL_STENCIL, 0, &index);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  glReadPixels(0, 0, 4, 2, GL_STENCIL_INDEX, GL_UNSIGNED_BYTE, s);
  for (uint8_t b : s) CHECK(b == 0x34);
  glClearBufferfi(GL_DEPTH_STENCIL, 0, 1.0f, 7);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  float f[8] = {};
  glReadPixels(0, 0, 4, 2, GL_STENCIL_INDEX, GL_FLOAT, f);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  for (float x : f) CHECK(x == 7.0f);
  glClearBufferiv(GL_STENCIL, 1, &index);
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);  // "... if buffer is DEPTH, STENCIL, or DEPTH_STENCIL and drawbuffer is not zero"
  // The attachment is the texture: its image holds what the clears wrote.
  glGetTextureImage(stencil, 0, GL_STENCIL_INDEX, GL_UNSIGNED_BYTE, sizeof s, s);
  for (uint8_t b : s) CHECK(b == 7);
  // "An INVALID_OPERATION error is generated if format is DEPTH_COMPONENT and there is no depth buffer".
  glReadPixels(0, 0, 1, 1, GL_DEPTH_COMPONENT, GL_FLOAT, f);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);

  // A stencil buffer alone (no color attachment, draw and read buffers NONE) is a complete framebuffer.
  glFramebufferTexture(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, 0, 0);
  glDrawBuffer(GL_NONE);
  glReadBuffer(GL_NONE);
  CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);
  glClearStencil(3);
  glClear(GL_COLOR_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  glReadPixels(0, 0, 4, 2, GL_STENCIL_INDEX, GL_UNSIGNED_BYTE, s);
  for (uint8_t b : s) CHECK(b == 3);
  glReadPixels(0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);  // "... if format is a color format and the read buffer is NONE"

  // "An INVALID_OPERATION error is generated if format is STENCIL_INDEX and there is no stencil buffer".
  glFramebufferTexture(GL_FRAMEBUFFER, GL_STENCIL_ATTACHMENT, 0, 0);
  glFramebufferTexture(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, color, 0);
  glReadBuffer(GL_COLOR_ATTACHMENT0);
  glDrawBuffer(GL_COLOR_ATTACHMENT0);
  REQUIRE(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);
  glReadPixels(0, 0, 1, 1, GL_STENCIL_INDEX, GL_UNSIGNED_BYTE, s);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  // Without a stencil buffer a stencil clear has no effect and no error.
  glClear(GL_STENCIL_BUFFER_BIT);
  REQUIRE_GL_ERROR(GL_NO_ERROR);

  // §9.4.1: a stencil index image at the depth attachment (DEPTH_STENCIL_ATTACHMENT attaches it to both points)
  // is not depth-renderable, a colour image at the stencil attachment not stencil-renderable, and a stencil image
  // at a color attachment not color-renderable: FRAMEBUFFER_INCOMPLETE_ATTACHMENT.
  glFramebufferTexture(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, stencil, 0);
  CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT);
  glFramebufferTexture(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, 0, 0);
  GLuint other = 0;
  glCreateTextures(GL_TEXTURE_2D, 1, &other);
  glTextureStorage2D(other, 1, GL_R8UI, 4, 2);
  glFramebufferTexture(GL_FRAMEBUFFER, GL_STENCIL_ATTACHMENT, other, 0);
  CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT);
  glFramebufferTexture(GL_FRAMEBUFFER, GL_STENCIL_ATTACHMENT, 0, 0);
  glFramebufferTexture(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, stencil, 0);
  CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glDeleteFramebuffers(1, &fb);
  const GLuint textures[3] = {color, stencil, other};
  glDeleteTextures(3, textures);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("STENCIL_INDEX8 renderbuffers are stencil attachments (GL 4.6 §9.2.4)", "[framebuffer][stencil][depth]") {
  GlContext gl;
  GLuint rb = 0, fb = 0;
  glCreateRenderbuffers(1, &rb);
  // §9.2.4: internalformat must be "color-renderable, depth-renderable, or stencil-renderable".
  glNamedRenderbufferStorage(rb, GL_STENCIL_INDEX8, 3, 2);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  GLint v = -1;
  glGetNamedRenderbufferParameteriv(rb, GL_RENDERBUFFER_STENCIL_SIZE, &v);
  CHECK(v == 8);
  glGetNamedRenderbufferParameteriv(rb, GL_RENDERBUFFER_RED_SIZE, &v);
  CHECK(v == 0);
  glCreateFramebuffers(1, &fb);
  glNamedFramebufferRenderbuffer(fb, GL_STENCIL_ATTACHMENT, GL_RENDERBUFFER, rb);
  glNamedFramebufferDrawBuffer(fb, GL_NONE);
  glNamedFramebufferReadBuffer(fb, GL_NONE);
  CHECK(glCheckNamedFramebufferStatus(fb, GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);
  const GLint index = 200;
  glClearNamedFramebufferiv(fb, GL_STENCIL, 0, &index);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, fb);
  uint16_t s[6] = {};
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, 3, 2, GL_STENCIL_INDEX, GL_UNSIGNED_SHORT, s);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  for (uint16_t x : s) CHECK(x == 200);
  // Multisample stencil renderbuffers take the counts glGetInternalformativ reports (§9.2.4: "An INVALID_OPERATION
  // error is generated if samples is greater than the maximum number of samples supported for internalformat").
  GLint counts = 0;
  glGetInternalformativ(GL_RENDERBUFFER, GL_STENCIL_INDEX8, GL_NUM_SAMPLE_COUNTS, 1, &counts);
  if (counts > 0) {
    std::vector<GLint> samples(static_cast<size_t>(counts));
    glGetInternalformativ(GL_RENDERBUFFER, GL_STENCIL_INDEX8, GL_SAMPLES, counts, samples.data());
    GLuint ms = 0;
    glCreateRenderbuffers(1, &ms);
    glNamedRenderbufferStorageMultisample(ms, samples.back(), GL_STENCIL_INDEX8, 3, 2);
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    glGetNamedRenderbufferParameteriv(ms, GL_RENDERBUFFER_SAMPLES, &v);
    CHECK(v == samples.back());
    glNamedRenderbufferStorageMultisample(ms, samples.front() + 1, GL_STENCIL_INDEX8, 3, 2);
    REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
    glDeleteRenderbuffers(1, &ms);
  }
  glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
  glDeleteFramebuffers(1, &fb);
  glDeleteRenderbuffers(1, &rb);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}
