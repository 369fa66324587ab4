/* es31_readpixels.c: an OpenGL ES 3.1 program reads a texture the only way ES offers — a framebuffer object and
 * glReadPixels (OpenGL ES 3.2 §16.1; ES has no glGetTexImage) — into client memory and into a pixel pack buffer,
 * and clears it with glClearBufferfv (§15.2.3). Each check quotes its rule. */
#include "conformance.h"

int main(void) {
  conformance_make_context(EGL_OPENGL_ES_API, 3, 1);
  const unsigned char texels[4 * 4 * 4] = {
      0,   10,  20,  30,  40,  50,  60,  70,  80,  90,  100, 110, 120, 130, 140, 150, 1,   11,  21,  31,  41,  51,
      61,  71,  81,  91,  101, 111, 121, 131, 141, 151, 2,   12,  22,  32,  42,  52,  62,  72,  82,  92,  102, 112,
      122, 132, 142, 152, 3,   13,  23,  33,  43,  53,  63,  73,  83,  93,  103, 113, 123, 133, 143, 153,
  };
  GLuint texture = 0;
  glGenTextures(1, &texture);
  glBindTexture(GL_TEXTURE_2D, texture);
  glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, 4, 4);
  glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 4, 4, GL_RGBA, GL_UNSIGNED_BYTE, texels);

  /* ES 3.2 §9.4.2: "FRAMEBUFFER_UNDEFINED is returned if target is the default framebuffer, but the default
   * framebuffer does not exist" (a context made current without surfaces). */
  CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_UNDEFINED, "no default framebuffer");

  GLuint fb = 0;
  glGenFramebuffers(1, &fb);
  glBindFramebuffer(GL_FRAMEBUFFER, fb);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, texture, 0);
  CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE, "an RGBA8 level-0 attachment");

  /* §16.1.2: "For normalized fixed-point rendering surfaces, the combination format RGBA and type UNSIGNED_BYTE
   * is accepted." */
  unsigned char got[4 * 4 * 4];
  memset(got, 0, sizeof got);
  glReadPixels(0, 0, 4, 4, GL_RGBA, GL_UNSIGNED_BYTE, got);
  CHECK_GL_ERROR(GL_NO_ERROR, "glReadPixels RGBA/UNSIGNED_BYTE");
  CHECK(memcmp(got, texels, sizeof got) == 0, "the texels read back as uploaded");

  /* §16.1.3 / table 16.1: PACK_ROW_LENGTH and PACK_SKIP_PIXELS place the 2 × 2 rectangle at (1, 1) in a 4-wide
   * layout, one pixel in. */
  unsigned char sub[4 * 2 * 4];
  memset(sub, 0xEE, sizeof sub);
  glPixelStorei(GL_PACK_ROW_LENGTH, 4);
  glPixelStorei(GL_PACK_SKIP_PIXELS, 1);
  glReadPixels(1, 1, 2, 2, GL_RGBA, GL_UNSIGNED_BYTE, sub);
  CHECK_GL_ERROR(GL_NO_ERROR, "glReadPixels with pack state");
  CHECK(sub[0] == 0xEE, "skipped pixels are not written");
  CHECK(memcmp(sub + 4, texels + (1 * 4 + 1) * 4, 8) == 0, "row 1 of the rectangle");
  CHECK(memcmp(sub + 16 + 4, texels + (2 * 4 + 1) * 4, 8) == 0, "row 2 of the rectangle");
  glPixelStorei(GL_PACK_ROW_LENGTH, 0);
  glPixelStorei(GL_PACK_SKIP_PIXELS, 0);

  /* §16.1: "If a pixel pack buffer is bound ..., data is an offset into the pixel pack buffer". */
  GLuint pbo = 0;
  glGenBuffers(1, &pbo);
  glBindBuffer(GL_PIXEL_PACK_BUFFER, pbo);
  glBufferData(GL_PIXEL_PACK_BUFFER, sizeof texels, NULL, GL_STREAM_READ);
  glReadPixels(0, 0, 4, 4, GL_RGBA, GL_UNSIGNED_BYTE, (void*)0);
  CHECK_GL_ERROR(GL_NO_ERROR, "glReadPixels into a pack buffer");
  const unsigned char* mapped =
      (const unsigned char*)glMapBufferRange(GL_PIXEL_PACK_BUFFER, 0, sizeof texels, GL_MAP_READ_BIT);
  CHECK(mapped != NULL && memcmp(mapped, texels, sizeof texels) == 0, "the pack buffer holds the texels");
  glUnmapBuffer(GL_PIXEL_PACK_BUFFER);
  glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);

  /* §15.2.3.1: ClearBufferfv clears DRAW_BUFFER0; unsigned normalized values are clamped to [0, 1]. */
  const GLfloat color[4] = {1.0f, 0.0f, 2.0f, -1.0f};
  glClearBufferfv(GL_COLOR, 0, color);
  CHECK_GL_ERROR(GL_NO_ERROR, "glClearBufferfv");
  glReadPixels(3, 3, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, got);
  CHECK(got[0] == 255 && got[1] == 0 && got[2] == 255 && got[3] == 0,
        "cleared to (255, 0, 255, 0), got (%u, %u, %u, %u)", got[0], got[1], got[2], got[3]);

  /* §16.1.2: "An INVALID_OPERATION error is generated if the combination of format and type is unsupported"
   * (RGBA/FLOAT is for floating-point buffers). */
  glReadPixels(0, 0, 1, 1, GL_RGBA, GL_FLOAT, got);
  CHECK_GL_ERROR(GL_INVALID_OPERATION, "RGBA/FLOAT from an RGBA8 buffer");

  glDeleteBuffers(1, &pbo);
  glDeleteFramebuffers(1, &fb);
  glDeleteTextures(1, &texture);
  return conformance_result();
}
