/* Multisample textures in compute as GL 4.5+ programs use them (GL 4.6 §8.8 "Multisample Textures", §8.19; GLSL 4.60
 * §8.9.2 texelFetch / textureSamples, §8.12 imageStore / imageSamples): glTexStorage2DMultisample storage, per-sample
 * stores through an image unit, per-sample fetches through a texture unit, glClearTexImage, and the errors §8.8
 * words. Skipped (77) where the implementation reports no multisample RGBA32F or R32UI texture counts. */
#include "conformance.h"

/* GL 4.6 §22.3.2: the largest of SAMPLES (descending order), 0 when NUM_SAMPLE_COUNTS is 0. */
static GLint largest_count(GLenum target, GLenum format) {
  GLint n = 0;
  glGetInternalformativ(target, format, GL_NUM_SAMPLE_COUNTS, 1, &n);
  if (n <= 0) return 0;
  GLint counts[16] = {0};
  glGetInternalformativ(target, format, GL_SAMPLES, n < 16 ? n : 16, counts);
  return counts[0];
}

static GLuint output_buffer(GLsizeiptr bytes) {
  GLuint b = 0;
  glGenBuffers(1, &b);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, b);
  glBufferData(GL_SHADER_STORAGE_BUFFER, bytes, NULL, GL_DYNAMIC_READ);
  return b;
}

/* imageStore(image2DMS, p, s, v) writes sample s (GLSL 4.60 §8.12); texelFetch(sampler2DMS, p, s) reads it back
 * (§8.9.2). Each sample of a 4x4 RGBA32F texture gets (x, y, s, imageSamples). */
static void store_and_fetch(GLint samples) {
  const char* store_src =
      "#version 450\n"
      "layout(local_size_x = 4, local_size_y = 4) in;\n"
      "layout(rgba32f, binding = 1) writeonly uniform image2DMS target;\n"
      "void main() {\n"
      "  ivec2 p = ivec2(gl_GlobalInvocationID.xy);\n"
      "  int n = imageSamples(target);\n"
      "  for (int s = 0; s < n; ++s) imageStore(target, p, s, vec4(p.x, p.y, s, n));\n"
      "}\n";
  const char* fetch_src =
      "#version 450\n"
      "layout(local_size_x = 4, local_size_y = 4) in;\n"
      "layout(binding = 2) uniform sampler2DMS source;\n"
      "layout(std430, binding = 0) writeonly buffer Out { vec4 texels[]; };\n"
      "void main() {\n"
      "  ivec2 p = ivec2(gl_GlobalInvocationID.xy);\n"
      "  int n = textureSamples(source);\n"
      "  for (int s = 0; s < n; ++s) texels[(p.y * 4 + p.x) * n + s] = texelFetch(source, p, s);\n"
      "}\n";
  GLuint store = conformance_compute_program(store_src);
  GLuint fetch = conformance_compute_program(fetch_src);
  CHECK(store != 0 && fetch != 0, "image2DMS store and sampler2DMS fetch programs link");
  if (!store || !fetch) return;
  GLuint t = 0;
  glGenTextures(1, &t);
  glBindTexture(GL_TEXTURE_2D_MULTISAMPLE, t);
  glTexStorage2DMultisample(GL_TEXTURE_2D_MULTISAMPLE, samples, GL_RGBA32F, 4, 4, GL_TRUE);
  CHECK_GL_ERROR(GL_NO_ERROR, "glTexStorage2DMultisample(RGBA32F, %d samples)", samples);
  GLint actual = 0;
  glGetTexLevelParameteriv(GL_TEXTURE_2D_MULTISAMPLE, 0, GL_TEXTURE_SAMPLES, &actual);
  CHECK(actual >= samples, "TEXTURE_SAMPLES %d is at least the %d asked for (§8.8)", actual, samples);
  if (actual < 1 || actual > 64) return;
  glBindImageTexture(1, t, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA32F);
  glUseProgram(store);
  glDispatchCompute(1, 1, 1);
  glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT);
  glActiveTexture(GL_TEXTURE2);
  glBindTexture(GL_TEXTURE_2D_MULTISAMPLE, t);
  glActiveTexture(GL_TEXTURE0);
  const GLsizeiptr bytes = (GLsizeiptr)(16 * actual * 4 * sizeof(float));
  GLuint out = output_buffer(bytes);
  glUseProgram(fetch);
  glDispatchCompute(1, 1, 1);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  static float texels[16 * 64 * 4];
  glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, bytes, texels);
  CHECK_GL_ERROR(GL_NO_ERROR, "store, fetch and read back");
  int wrong = 0;
  for (int y = 0; y < 4; ++y) {
    for (int x = 0; x < 4; ++x) {
      for (int s = 0; s < actual; ++s) {
        const float* v = texels + ((y * 4 + x) * actual + s) * 4;
        wrong += v[0] != (float)x || v[1] != (float)y || v[2] != (float)s || v[3] != (float)actual;
      }
    }
  }
  CHECK(wrong == 0, "every sample holds what imageStore wrote to it (%d wrong)", wrong);
  /* GL 4.6 §8.21: ClearTexImage sets every texel of the level (every sample) to the value. */
  const float clear[4] = {0.25f, 0.5f, 0.75f, 1.0f};
  glClearTexImage(t, 0, GL_RGBA, GL_FLOAT, clear);
  glDispatchCompute(1, 1, 1);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, bytes, texels);
  CHECK_GL_ERROR(GL_NO_ERROR, "glClearTexImage of a multisample texture");
  wrong = 0;
  for (int i = 0; i < 16 * actual * 4; ++i) wrong += texels[i] != clear[i % 4];
  CHECK(wrong == 0, "glClearTexImage set every sample (%d components wrong)", wrong);
  glDeleteBuffers(1, &out);
  glDeleteTextures(1, &t);
  glDeleteProgram(store);
  glDeleteProgram(fetch);
}

/* GL 4.6 §8.8 / §8.19 errors and §8.11.4's GetTexImage error. */
static void errors(GLint samples) {
  GLuint t = 0;
  glGenTextures(1, &t);
  glBindTexture(GL_TEXTURE_2D_MULTISAMPLE, t);
  glTexStorage2DMultisample(GL_TEXTURE_2D_MULTISAMPLE, 0, GL_RGBA32F, 4, 4, GL_TRUE);
  CHECK_GL_ERROR(GL_INVALID_VALUE, "\"An INVALID_VALUE error is generated if samples is zero\"");
  glTexStorage2DMultisample(GL_TEXTURE_2D_MULTISAMPLE, samples + 1, GL_RGBA32F, 4, 4, GL_TRUE);
  CHECK_GL_ERROR(GL_INVALID_OPERATION, "samples above GetInternalformativ(SAMPLES)'s largest");
  glTexStorage2DMultisample(GL_TEXTURE_2D_MULTISAMPLE, samples, GL_RGB9_E5, 4, 4, GL_TRUE);
  CHECK_GL_ERROR(GL_INVALID_ENUM, "a format that is not color-, depth- or stencil-renderable");
  glTexStorage2DMultisample(GL_TEXTURE_2D, samples, GL_RGBA32F, 4, 4, GL_TRUE);
  CHECK_GL_ERROR(GL_INVALID_ENUM, "TexStorage2DMultisample of TEXTURE_2D");
  glTexStorage2DMultisample(GL_TEXTURE_2D_MULTISAMPLE, samples, GL_RGBA32F, 4, 4, GL_TRUE);
  CHECK_GL_ERROR(GL_NO_ERROR, "storage after the errors left the texture mutable");
  glTexStorage2DMultisample(GL_TEXTURE_2D_MULTISAMPLE, samples, GL_RGBA32F, 4, 4, GL_TRUE);
  CHECK_GL_ERROR(GL_INVALID_OPERATION, "storage of an immutable texture");
  static float pixels[4 * 4 * 4 * 64];
  /* §8.11.4: GetTexImage's targets do not include the multisample ones (INVALID_ENUM); "An INVALID_OPERATION
   * error is generated by GetTextureImage if the effective target is TEXTURE_2D_MULTISAMPLE ...". */
  glGetTexImage(GL_TEXTURE_2D_MULTISAMPLE, 0, GL_RGBA, GL_FLOAT, pixels);
  CHECK_GL_ERROR(GL_INVALID_ENUM, "GetTexImage of TEXTURE_2D_MULTISAMPLE");
  glGetTextureImage(t, 0, GL_RGBA, GL_FLOAT, (GLsizei)sizeof pixels, pixels);
  CHECK_GL_ERROR(GL_INVALID_OPERATION, "GetTextureImage of a multisample texture");
  glDeleteTextures(1, &t);
}

int main(void) {
  conformance_make_context(EGL_OPENGL_API, 4, 5);
  const GLint samples = largest_count(GL_TEXTURE_2D_MULTISAMPLE, GL_RGBA32F);
  GLint image_samples = 0;
  glGetIntegerv(GL_MAX_IMAGE_SAMPLES, &image_samples);
  CHECK_GL_ERROR(GL_NO_ERROR, "sample count queries");
  if (samples < 2) conformance_skip("no multisample RGBA32F textures");
  errors(samples);
  if (image_samples >= 2) {
    store_and_fetch(samples < image_samples ? samples : image_samples);
  } else {
    printf("multisample_textures: MAX_IMAGE_SAMPLES %d: per-sample stores not run\n", image_samples);
  }
  return conformance_result();
}
