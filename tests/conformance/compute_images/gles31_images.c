/* Images and textures in an OpenGL ES 3.1 context, as ES ports use them (OpenGL ES 3.1 §8.22 "Texture Image Loads
 * and Stores", §16.1 and §9 for the read-back, GLSL ES 3.10 §4.9 / §8.14): ES has no glGetTexImage, so results are
 * read through a framebuffer with glReadPixels. */
#include "conformance.h"

static GLuint make_fbo(GLuint texture) {
  GLuint fbo = 0;
  glGenFramebuffers(1, &fbo);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, texture, 0);
  return fbo;
}

/* imageStore into an immutable RGBA8 texture, read back with glReadPixels (ES 3.1 §16.1.2: RGBA / UNSIGNED_BYTE is
 * always accepted for normalized fixed-point framebuffers). */
static void store_and_read_pixels(void) {
  const char* src =
      "#version 310 es\n"
      "layout(local_size_x = 4, local_size_y = 4) in;\n"
      "layout(rgba8, binding = 0) writeonly uniform highp image2D img;\n"
      "void main() {\n"
      "  ivec2 p = ivec2(gl_GlobalInvocationID.xy);\n"
      "  imageStore(img, p, vec4(float(p.x) / 15.0, float(p.y) / 15.0, 0.5, 1.0));\n"
      "}\n";
  GLuint program = conformance_compute_program(src);
  CHECK(program != 0, "an ES image store program links");
  if (!program) return;
  GLuint t = 0;
  glGenTextures(1, &t);
  glBindTexture(GL_TEXTURE_2D, t);
  glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, 16, 16);
  glBindImageTexture(0, t, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA8);
  CHECK_GL_ERROR(GL_NO_ERROR, "glBindImageTexture of an immutable texture");
  glUseProgram(program);
  glDispatchCompute(4, 4, 1);
  glMemoryBarrier(GL_FRAMEBUFFER_BARRIER_BIT);
  GLuint fbo = make_fbo(t);
  CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE,
        "a framebuffer with an RGBA8 texture as its color attachment is complete (ES 3.1 §9.4.2)");
  unsigned char pixels[16 * 16 * 4];
  memset(pixels, 0, sizeof pixels);
  glReadPixels(0, 0, 16, 16, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
  CHECK_GL_ERROR(GL_NO_ERROR, "glReadPixels");
  int wrong = 0;
  for (int y = 0; y < 16; ++y) {
    for (int x = 0; x < 16; ++x) {
      const unsigned char* p = pixels + (y * 16 + x) * 4;
      wrong += p[0] != x * 17 || p[1] != y * 17 || (p[2] != 127 && p[2] != 128) || p[3] != 255;
    }
  }
  CHECK(wrong == 0, "glReadPixels returns what imageStore wrote (%d wrong)", wrong);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glDeleteFramebuffers(1, &fbo);
  glDeleteTextures(1, &t);
  glDeleteProgram(program);
}

/* ES 3.1 §8.22: "An INVALID_OPERATION error is generated if texture is not the name of an immutable texture
 * object." */
static void mutable_texture_refused(void) {
  GLuint t = 0;
  glGenTextures(1, &t);
  glBindTexture(GL_TEXTURE_2D, t);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
  glBindImageTexture(0, t, 0, GL_FALSE, 0, GL_READ_ONLY, GL_RGBA8);
  CHECK_GL_ERROR(GL_INVALID_OPERATION, "glBindImageTexture of a mutable texture in OpenGL ES");
  glDeleteTextures(1, &t);
}

/* A sampler uniform whose unit comes from glUniform1i, read with texelFetch (GLSL ES 3.10 §8.9.2), the result
 * written to an SSBO; R32UI texels uploaded with glTexSubImage2D (ES 3.1 Table 8.2: RED_INTEGER / UNSIGNED_INT). */
static void texel_fetch(void) {
  const char* src =
      "#version 310 es\n"
      "layout(local_size_x = 8) in;\n"
      "uniform highp usampler2D words;\n"
      "layout(std430, binding = 0) writeonly buffer Out { highp uint r[]; };\n"
      "void main() {\n"
      "  int i = int(gl_GlobalInvocationID.x);\n"
      "  r[i] = texelFetch(words, ivec2(7 - i, 1), 0).x;\n"
      "}\n";
  GLuint program = conformance_compute_program(src);
  CHECK(program != 0, "an ES usampler2D program links");
  if (!program) return;
  GLuint t = 0;
  glGenTextures(1, &t);
  glActiveTexture(GL_TEXTURE5);
  glBindTexture(GL_TEXTURE_2D, t);
  glTexStorage2D(GL_TEXTURE_2D, 1, GL_R32UI, 8, 2);
  GLuint words[16];
  for (int i = 0; i < 16; ++i) words[i] = 1000u + (GLuint)i;
  glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 8, 2, GL_RED_INTEGER, GL_UNSIGNED_INT, words);
  /* ES 3.1 §8.16: an integer texture whose filters are not NEAREST (/ NEAREST_MIPMAP_NEAREST) is not complete. */
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glActiveTexture(GL_TEXTURE0);
  GLuint buffer = 0;
  glGenBuffers(1, &buffer);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, buffer);
  glBufferData(GL_SHADER_STORAGE_BUFFER, 8 * sizeof(GLuint), NULL, GL_DYNAMIC_READ);
  glUseProgram(program);
  glUniform1i(glGetUniformLocation(program, "words"), 5);
  glDispatchCompute(1, 1, 1);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  const GLuint* r = glMapBufferRange(GL_SHADER_STORAGE_BUFFER, 0, 8 * sizeof(GLuint), GL_MAP_READ_BIT);
  CHECK(r != NULL, "the results map");
  if (r) {
    int wrong = 0;
    for (int i = 0; i < 8; ++i) wrong += r[i] != 1000u + 8u + (GLuint)(7 - i);
    CHECK(wrong == 0, "texelFetch reads row 1 of the R32UI texture (%d wrong)", wrong);
    glUnmapBuffer(GL_SHADER_STORAGE_BUFFER);
  }
  CHECK_GL_ERROR(GL_NO_ERROR, "texel fetch program");
  glDeleteBuffers(1, &buffer);
  glDeleteTextures(1, &t);
  glDeleteProgram(program);
}

/* OpenGL ES 3.1 Table 20.47 / 20.48 minimum values. */
static void limits(void) {
  GLint v = 0;
  glGetIntegerv(GL_MAX_COMPUTE_IMAGE_UNIFORMS, &v);
  CHECK(v >= 4, "MAX_COMPUTE_IMAGE_UNIFORMS %d >= 4", v);
  glGetIntegerv(GL_MAX_IMAGE_UNITS, &v);
  CHECK(v >= 4, "MAX_IMAGE_UNITS %d >= 4", v);
  glGetIntegerv(GL_MAX_COMPUTE_TEXTURE_IMAGE_UNITS, &v);
  CHECK(v >= 16, "MAX_COMPUTE_TEXTURE_IMAGE_UNITS %d >= 16", v);
  glGetIntegerv(GL_MAX_TEXTURE_SIZE, &v);
  CHECK(v >= 2048, "MAX_TEXTURE_SIZE %d >= 2048", v);
  CHECK_GL_ERROR(GL_NO_ERROR, "limits");
}

int main(void) {
  conformance_make_context(EGL_OPENGL_ES_API, 3, 1);
  limits();
  store_and_read_pixels();
  mutable_texture_refused();
  texel_fetch();
  return conformance_result();
}
