// Multisample textures (GL 4.6 §8.8, §8.19; docs/gl_shim.md "Targets"): storage and its errors, the sample-count
// queries, per-sample stores and fetches from compute shaders (image2DMS(Array) and sampler2DMS(Array), GLSL 4.50's
// imageSamples / textureSamples), clears, copies and framebuffer completeness. Expected values are computed here
// from what the shaders were told to store; every context runs under the validation layer.
#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "translator/gl/asm_program_support.hpp"  // gl_fixture.hpp and glext.h (NV_compute_program5)

using namespace bismuth::gltest;

namespace {

GLint integer(GLenum pname) {
  GLint v = -1;
  glGetIntegerv(pname, &v);
  return v;
}

// GL 4.6 §22.3.2: SAMPLES of (target, internalformat), "in descending order".
std::vector<GLint> sample_counts(GLenum target, GLenum internalformat) {
  GLint n = -1;
  glGetInternalformativ(target, internalformat, GL_NUM_SAMPLE_COUNTS, 1, &n);
  std::vector<GLint> counts(static_cast<size_t>(std::max(n, 0)));
  if (n > 0) glGetInternalformativ(target, internalformat, GL_SAMPLES, n, counts.data());
  return counts;
}

GLint level_parameter(GLuint texture, GLenum pname) {
  GLint v = -1;
  glGetTextureLevelParameteriv(texture, 0, pname, &v);
  return v;
}

uint32_t stored(uint32_t x, uint32_t y, uint32_t layer, uint32_t sample) {
  return x * 100000u + y * 1000u + layer * 100u + sample * 7u + 1u;
}

// imageStore of stored(x, y, layer, sample) into every sample (imageSamples) of an r32ui image2DMSArray.
constexpr const char* kStoreProgram =
    "#version 450\n"
    "layout(local_size_x = 4, local_size_y = 4) in;\n"
    "layout(binding = 0, r32ui) uniform writeonly uimage2DMSArray img;\n"
    "void main() {\n"
    "  ivec3 p = ivec3(gl_GlobalInvocationID);\n"
    "  if (any(greaterThanEqual(p, imageSize(img)))) return;\n"
    "  for (int s = 0; s < imageSamples(img); ++s) {\n"
    "    imageStore(img, p, s, uvec4(uint(p.x) * 100000u + uint(p.y) * 1000u + uint(p.z) * 100u + uint(s) * 7u + "
    "1u));\n"
    "  }\n"
    "}\n";

// texelFetch of every sample of a usampler2DMSArray, then textureSamples and textureSize after them.
constexpr const char* kFetchProgram =
    "#version 450\n"
    "layout(local_size_x = 4, local_size_y = 4) in;\n"
    "layout(binding = 0) uniform usampler2DMSArray tex;\n"
    "layout(std430, binding = 0) writeonly buffer Out { uint texels[]; };\n"
    "void main() {\n"
    "  ivec3 size = textureSize(tex);\n"
    "  int n = textureSamples(tex);\n"
    "  ivec3 p = ivec3(gl_GlobalInvocationID);\n"
    "  if (p == ivec3(0)) {\n"
    "    uint count = uint(size.x * size.y * size.z * n);\n"
    "    texels[count] = uint(n);\n"
    "    texels[count + 1u] = uint(size.x);\n"
    "    texels[count + 2u] = uint(size.y);\n"
    "    texels[count + 3u] = uint(size.z);\n"
    "  }\n"
    "  if (any(greaterThanEqual(p, size))) return;\n"
    "  for (int s = 0; s < n; ++s) texels[((p.z * size.y + p.y) * size.x + p.x) * n + s] = texelFetch(tex, p, s).r;\n"
    "}\n";

// Every sample of an R32UI multisample array texture, laid out as kFetchProgram writes them, then the four values
// after them.
std::vector<uint32_t> fetch_all(GLuint fetch, GLuint texture, uint32_t w, uint32_t h, uint32_t layers,
                                uint32_t samples) {
  const size_t count = size_t(w) * h * layers * samples;
  const GLuint out = make_buffer(static_cast<GLsizeiptr>((count + 4) * 4));
  glUseProgram(fetch);
  glBindTextureUnit(0, texture);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, out);
  glDispatchCompute((w + 3) / 4, (h + 3) / 4, layers);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  std::vector<uint32_t> words = read_words(out, count + 4);
  glDeleteBuffers(1, &out);
  return words;
}

}  // namespace

// GL 4.6 §22.3.2: NUM_SAMPLE_COUNTS and SAMPLES of the multisample targets; §8.8: "the values of TEXTURE_WIDTH,
// TEXTURE_HEIGHT, TEXTURE_SAMPLES, TEXTURE_INTERNAL_FORMAT and TEXTURE_FIXED_SAMPLE_LOCATIONS are set to width,
// height, the actual number of samples allocated, internalformat, and fixedsamplelocations respectively", the actual
// number being at least the one asked for.
TEST_CASE("Multisample storage takes the counts GetInternalformativ reports (GL 4.6 §8.8, §22.3.2)",
          "[textures][multisample]") {
  GlContext gl;
  const std::vector<GLint> counts = sample_counts(GL_TEXTURE_2D_MULTISAMPLE, GL_RGBA8);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  if (counts.empty()) {
    WARN("no multisample RGBA8 textures on this device: skipped");
    return;
  }
  CHECK(std::is_sorted(counts.rbegin(), counts.rend()));
  CHECK(counts == sample_counts(GL_TEXTURE_2D_MULTISAMPLE_ARRAY, GL_RGBA8));
  // GL 4.6 table 23.64: at least 1; a format's counts never exceed the limit of its kind.
  CHECK(integer(GL_MAX_COLOR_TEXTURE_SAMPLES) >= counts.front());
  CHECK(integer(GL_MAX_DEPTH_TEXTURE_SAMPLES) >= 1);
  CHECK(integer(GL_MAX_INTEGER_SAMPLES) >= 1);
  CHECK(integer(GL_MAX_SAMPLE_MASK_WORDS) >= 1);
  const std::vector<GLint> integer_counts = sample_counts(GL_TEXTURE_2D_MULTISAMPLE, GL_R32UI);
  if (!integer_counts.empty()) CHECK(integer(GL_MAX_INTEGER_SAMPLES) >= integer_counts.front());
  // Not color-, depth- or stencil-renderable (table 8.12: RGB9_E5): no counts.
  CHECK(sample_counts(GL_TEXTURE_2D_MULTISAMPLE, GL_RGB9_E5).empty());
  REQUIRE_GL_ERROR(GL_NO_ERROR);

  for (GLint asked : {GLint(1), counts.back(), counts.front()}) {
    CAPTURE(asked);
    GLuint t = 0;
    glGenTextures(1, &t);
    glBindTexture(GL_TEXTURE_2D_MULTISAMPLE, t);
    glTexStorage2DMultisample(GL_TEXTURE_2D_MULTISAMPLE, asked, GL_RGBA8, 7, 5, GL_FALSE);
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    const GLint actual = level_parameter(t, GL_TEXTURE_SAMPLES);
    CHECK(actual >= asked);
    CHECK(std::find(counts.begin(), counts.end(), actual) != counts.end());
    CHECK(level_parameter(t, GL_TEXTURE_FIXED_SAMPLE_LOCATIONS) == GL_FALSE);
    CHECK(level_parameter(t, GL_TEXTURE_WIDTH) == 7);
    CHECK(level_parameter(t, GL_TEXTURE_HEIGHT) == 5);
    CHECK(level_parameter(t, GL_TEXTURE_INTERNAL_FORMAT) == GL_RGBA8);
    GLint immutable = 0;
    glGetTexParameteriv(GL_TEXTURE_2D_MULTISAMPLE, GL_TEXTURE_IMMUTABLE_FORMAT, &immutable);
    CHECK(immutable == GL_TRUE);
    glDeleteTextures(1, &t);
  }
  // Mutable storage (§8.8 TexImage3DMultisample) on an array target, fixed locations TRUE.
  GLuint a = 0;
  glCreateTextures(GL_TEXTURE_2D_MULTISAMPLE_ARRAY, 1, &a);
  glBindTexture(GL_TEXTURE_2D_MULTISAMPLE_ARRAY, a);
  glTexImage3DMultisample(GL_TEXTURE_2D_MULTISAMPLE_ARRAY, counts.front(), GL_RGBA8, 4, 4, 3, GL_TRUE);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  CHECK(level_parameter(a, GL_TEXTURE_SAMPLES) == counts.front());
  CHECK(level_parameter(a, GL_TEXTURE_DEPTH) == 3);
  CHECK(level_parameter(a, GL_TEXTURE_FIXED_SAMPLE_LOCATIONS) == GL_TRUE);
  // Respecified (mutable): a new size.
  glTexImage3DMultisample(GL_TEXTURE_2D_MULTISAMPLE_ARRAY, counts.back(), GL_RGBA8, 2, 2, 2, GL_TRUE);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  CHECK(level_parameter(a, GL_TEXTURE_WIDTH) == 2);
  CHECK(level_parameter(a, GL_TEXTURE_DEPTH) == 2);
  // Single-sample textures: TEXTURE_SAMPLES 0, fixed locations TRUE (table 23.17's initial values).
  GLuint plain = 0;
  glCreateTextures(GL_TEXTURE_2D, 1, &plain);
  glTextureStorage2D(plain, 1, GL_RGBA8, 2, 2);
  CHECK(level_parameter(plain, GL_TEXTURE_SAMPLES) == 0);
  CHECK(level_parameter(plain, GL_TEXTURE_FIXED_SAMPLE_LOCATIONS) == GL_TRUE);
  glDeleteTextures(1, &plain);
  glDeleteTextures(1, &a);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

// GL 4.6 §8.8 and §8.19's errors for the multisample storage commands, and §8.11.4's for GetTexImage.
TEST_CASE("Multisample storage errors (GL 4.6 §8.8, §8.19, §8.11.4)", "[textures][multisample]") {
  GlContext gl;
  const std::vector<GLint> counts = sample_counts(GL_TEXTURE_2D_MULTISAMPLE, GL_RGBA8);
  if (counts.empty()) {
    WARN("no multisample RGBA8 textures on this device: skipped");
    return;
  }
  GLuint t = 0;
  glGenTextures(1, &t);
  glBindTexture(GL_TEXTURE_2D_MULTISAMPLE, t);
  // "An INVALID_ENUM error is generated if target is not TEXTURE_2D_MULTISAMPLE" (the 2D command).
  glTexStorage2DMultisample(GL_TEXTURE_2D, counts.front(), GL_RGBA8, 4, 4, GL_TRUE);
  REQUIRE_GL_ERROR(GL_INVALID_ENUM);
  // "An INVALID_VALUE error is generated if samples is zero."
  glTexStorage2DMultisample(GL_TEXTURE_2D_MULTISAMPLE, 0, GL_RGBA8, 4, 4, GL_TRUE);
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  // "An INVALID_OPERATION error is generated if samples is greater than the maximum number of samples supported
  // for this target and internalformat" (GetInternalformativ SAMPLES).
  glTexStorage2DMultisample(GL_TEXTURE_2D_MULTISAMPLE, counts.front() + 1, GL_RGBA8, 4, 4, GL_TRUE);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  // "An INVALID_ENUM error is generated if internalformat is not color-renderable, depth-renderable, or
  // stencil-renderable": RGB9_E5 is none (table 8.12).
  glTexStorage2DMultisample(GL_TEXTURE_2D_MULTISAMPLE, counts.front(), GL_RGB9_E5, 4, 4, GL_TRUE);
  REQUIRE_GL_ERROR(GL_INVALID_ENUM);
  // §8.19: "An INVALID_VALUE error is generated if width, height, depth or levels are less than 1".
  glTexStorage2DMultisample(GL_TEXTURE_2D_MULTISAMPLE, counts.front(), GL_RGBA8, 0, 4, GL_TRUE);
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  // "An INVALID_VALUE error is generated if width or height is greater than MAX_TEXTURE_SIZE".
  glTexStorage2DMultisample(GL_TEXTURE_2D_MULTISAMPLE, counts.front(), GL_RGBA8, integer(GL_MAX_TEXTURE_SIZE) + 1, 4,
                            GL_TRUE);
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  // No error above changed the texture: it is still mutable.
  glTexStorage2DMultisample(GL_TEXTURE_2D_MULTISAMPLE, counts.front(), GL_RGBA8, 4, 4, GL_TRUE);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  // §8.19: "If the value of TEXTURE_IMMUTABLE_FORMAT for the texture is already TRUE, an INVALID_OPERATION error is
  // generated" — for the storage commands and TexImage*Multisample alike.
  glTexStorage2DMultisample(GL_TEXTURE_2D_MULTISAMPLE, counts.front(), GL_RGBA8, 4, 4, GL_TRUE);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glTexImage2DMultisample(GL_TEXTURE_2D_MULTISAMPLE, counts.front(), GL_RGBA8, 4, 4, GL_TRUE);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  // §8.19: "An INVALID_OPERATION error is generated by TextureStorage* if the effective target is not one of those
  // listed above."
  GLuint flat = 0;
  glCreateTextures(GL_TEXTURE_2D, 1, &flat);
  glTextureStorage2DMultisample(flat, counts.front(), GL_RGBA8, 4, 4, GL_TRUE);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  // §8.19: the default texture (zero) bound: INVALID_OPERATION.
  glBindTexture(GL_TEXTURE_2D_MULTISAMPLE, 0);
  glTexStorage2DMultisample(GL_TEXTURE_2D_MULTISAMPLE, counts.front(), GL_RGBA8, 4, 4, GL_TRUE);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  // §8.11.4: "An INVALID_OPERATION error is generated if ... the effective target is TEXTURE_2D_MULTISAMPLE or
  // TEXTURE_2D_MULTISAMPLE_ARRAY" (GetTextureImage).
  std::vector<uint8_t> pixels(4 * 4 * 4);
  glGetTextureImage(t, 0, GL_RGBA, GL_UNSIGNED_BYTE, static_cast<GLsizei>(pixels.size()), pixels.data());
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  // §18.3.3 (CopyImageSubData): "the number of samples do not match": INVALID_OPERATION.
  glTextureStorage2D(flat, 1, GL_RGBA8, 4, 4);
  glCopyImageSubData(t, GL_TEXTURE_2D_MULTISAMPLE, 0, 0, 0, 0, flat, GL_TEXTURE_2D, 0, 0, 0, 0, 1, 1, 1);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glDeleteTextures(1, &flat);
  glDeleteTextures(1, &t);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

// GLSL 4.50 §8.12: imageStore(image2DMSArray, coord, sample, data) writes that sample, imageSamples returns the
// samples; §8.9.2/§8.9.3: texelFetch(sampler2DMSArray, coord, sample) reads it, textureSamples / textureSize
// return the texture's samples and size. Multisample textures are complete whatever their (ignored) filters say
// (GL 4.6 §8.10): the default MAG_FILTER LINEAR on an integer format does not make them fetch (0, 0, 0, 1).
TEST_CASE("imageStore writes each sample and texelFetch reads each back (GLSL 4.50 §8.9, §8.12)",
          "[images][multisample]") {
  GlContext gl;
  const std::vector<GLint> counts = sample_counts(GL_TEXTURE_2D_MULTISAMPLE_ARRAY, GL_R32UI);
  if (counts.empty() || integer(GL_MAX_IMAGE_SAMPLES) < 2) {
    WARN("no multisample R32UI image units on this device (MAX_IMAGE_SAMPLES " << integer(GL_MAX_IMAGE_SAMPLES)
                                                                               << "): skipped");
    return;
  }
  const auto samples = static_cast<uint32_t>(std::min(counts.front(), integer(GL_MAX_IMAGE_SAMPLES)));
  constexpr uint32_t w = 6, h = 5, layers = 2;
  GLuint t = 0;
  glCreateTextures(GL_TEXTURE_2D_MULTISAMPLE_ARRAY, 1, &t);
  glTextureStorage3DMultisample(t, static_cast<GLsizei>(samples), GL_R32UI, w, h, layers, GL_TRUE);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  const auto actual = static_cast<uint32_t>(level_parameter(t, GL_TEXTURE_SAMPLES));
  const GLuint store = make_program(kStoreProgram);
  const GLuint fetch = make_program(kFetchProgram);
  glUseProgram(store);
  glBindImageTexture(0, t, 0, GL_TRUE, 0, GL_WRITE_ONLY, GL_R32UI);
  glDispatchCompute((w + 3) / 4, (h + 3) / 4, layers);
  glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  const std::vector<uint32_t> texels = fetch_all(fetch, t, w, h, layers, actual);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  const size_t count = size_t(w) * h * layers * actual;
  CHECK(texels[count] == actual);
  CHECK(texels[count + 1] == w);
  CHECK(texels[count + 2] == h);
  CHECK(texels[count + 3] == layers);
  for (uint32_t layer = 0; layer < layers; ++layer) {
    for (uint32_t y = 0; y < h; ++y) {
      for (uint32_t x = 0; x < w; ++x) {
        for (uint32_t s = 0; s < actual; ++s) {
          CAPTURE(x, y, layer, s);
          REQUIRE(texels[((layer * h + y) * w + x) * actual + s] == stored(x, y, layer, s));
        }
      }
    }
  }
  glDeleteProgram(store);
  glDeleteProgram(fetch);
  glDeleteTextures(1, &t);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

// GLSL 4.50 §8.12: imageAtomicAdd on a sample of an image2DMS "computes a new value by adding the value of data to
// the contents of the selected texel" — the sample given — and returns the old value; 64 invocations spread over
// the samples of texel (1, 0) leave each sample at 64 / samples. A single-layer binding (layered FALSE) of an array
// texture is an image2DMS (GL 4.6 §8.26).
TEST_CASE("imageAtomicAdd counts per sample of one layer of a multisample array (GLSL 4.50 §8.12)",
          "[images][multisample]") {
  GlContext gl;
  const std::vector<GLint> counts = sample_counts(GL_TEXTURE_2D_MULTISAMPLE_ARRAY, GL_R32UI);
  if (counts.empty() || integer(GL_MAX_IMAGE_SAMPLES) < 2) {
    WARN("no multisample R32UI image units on this device: skipped");
    return;
  }
  const auto samples = static_cast<uint32_t>(std::min(counts.front(), integer(GL_MAX_IMAGE_SAMPLES)));
  GLuint t = 0;
  glCreateTextures(GL_TEXTURE_2D_MULTISAMPLE_ARRAY, 1, &t);
  glTextureStorage3DMultisample(t, static_cast<GLsizei>(samples), GL_R32UI, 2, 1, 2, GL_TRUE);
  const auto actual = static_cast<uint32_t>(level_parameter(t, GL_TEXTURE_SAMPLES));
  // GL 4.6 §8.21: ClearTexImage with a null data sets every texel (every sample) to zero.
  glClearTexImage(t, 0, GL_RED_INTEGER, GL_UNSIGNED_INT, nullptr);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  const GLuint add = make_program(
      "#version 450\n"
      "layout(local_size_x = 64) in;\n"
      "layout(binding = 0, r32ui) uniform coherent uimage2DMS img;\n"
      "void main() {\n"
      "  int s = int(gl_LocalInvocationIndex) % imageSamples(img);\n"
      "  imageAtomicAdd(img, ivec2(1, 0), s, 1u);\n"
      "}\n");
  const GLuint fetch = make_program(kFetchProgram);
  glUseProgram(add);
  glBindImageTexture(0, t, 0, GL_FALSE, 1, GL_READ_WRITE, GL_R32UI);
  glDispatchCompute(1, 1, 1);
  glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  const std::vector<uint32_t> texels = fetch_all(fetch, t, 2, 1, 2, actual);
  for (uint32_t layer = 0; layer < 2; ++layer) {
    for (uint32_t x = 0; x < 2; ++x) {
      for (uint32_t s = 0; s < actual; ++s) {
        CAPTURE(x, layer, s);
        const bool counted = layer == 1 && x == 1;
        CHECK(texels[(layer * 2 + x) * actual + s] == (counted ? 64 / actual : 0u));
      }
    }
  }
  glDeleteProgram(add);
  glDeleteProgram(fetch);
  glDeleteTextures(1, &t);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

// GL 4.6 §8.21: ClearTex(Sub)Image fills the region "with the value of data" — every sample of a multisample
// texture's texels, in whole layers and in a smaller box; §18.3.3: CopyImageSubData copies texels between textures of
// equal sample counts, all samples.
TEST_CASE("Multisample textures clear and copy every sample (GL 4.6 §8.21, §18.3.3)", "[textures][multisample]") {
  GlContext gl;
  const std::vector<GLint> counts = sample_counts(GL_TEXTURE_2D_MULTISAMPLE_ARRAY, GL_R32UI);
  if (counts.empty()) {
    WARN("no multisample R32UI textures on this device: skipped");
    return;
  }
  constexpr uint32_t w = 4, h = 4, layers = 3;
  GLuint a = 0, b = 0;
  glCreateTextures(GL_TEXTURE_2D_MULTISAMPLE_ARRAY, 1, &a);
  glCreateTextures(GL_TEXTURE_2D_MULTISAMPLE_ARRAY, 1, &b);
  glTextureStorage3DMultisample(a, counts.front(), GL_R32UI, w, h, layers, GL_TRUE);
  glTextureStorage3DMultisample(b, counts.front(), GL_R32UI, w, h, layers, GL_TRUE);
  const auto samples = static_cast<uint32_t>(level_parameter(a, GL_TEXTURE_SAMPLES));
  // a: layer l holds 10 + l (ClearTexSubImage of one whole layer each); b: 99 everywhere.
  for (uint32_t layer = 0; layer < layers; ++layer) {
    const uint32_t value = 10 + layer;
    glClearTexSubImage(a, 0, 0, 0, static_cast<GLint>(layer), w, h, 1, GL_RED_INTEGER, GL_UNSIGNED_INT, &value);
  }
  const uint32_t ninety_nine = 99;
  glClearTexImage(b, 0, GL_RED_INTEGER, GL_UNSIGNED_INT, &ninety_nine);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  // a's layers 0..1, box (1, 1) 2x2, into b's layers 1..2 at (2, 0).
  glCopyImageSubData(a, GL_TEXTURE_2D_MULTISAMPLE_ARRAY, 0, 1, 1, 0, b, GL_TEXTURE_2D_MULTISAMPLE_ARRAY, 0, 2, 0, 1, 2,
                     2, 2);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  // Then a box of a's layer 2 smaller than the layer: (1, 2) 2x1 to 55 (after the copy, which read layers 0..1).
  const uint32_t fifty_five = 55;
  glClearTexSubImage(a, 0, 1, 2, 2, 2, 1, 1, GL_RED_INTEGER, GL_UNSIGNED_INT, &fifty_five);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  const GLuint fetch = make_program(kFetchProgram);
  const std::vector<uint32_t> ta = fetch_all(fetch, a, w, h, layers, samples);
  const std::vector<uint32_t> tb = fetch_all(fetch, b, w, h, layers, samples);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  for (uint32_t layer = 0; layer < layers; ++layer) {
    for (uint32_t y = 0; y < h; ++y) {
      for (uint32_t x = 0; x < w; ++x) {
        const bool copied = layer >= 1 && x >= 2 && y < 2;
        for (uint32_t s = 0; s < samples; ++s) {
          CAPTURE(x, y, layer, s);
          const size_t i = ((layer * h + y) * w + x) * samples + s;
          const bool boxed = layer == 2 && y == 2 && (x == 1 || x == 2);
          REQUIRE(ta[i] == (boxed ? 55u : 10 + layer));
          REQUIRE(tb[i] == (copied ? 10 + (layer - 1) : 99u));
        }
      }
    }
  }
  glDeleteProgram(fetch);
  glDeleteTextures(1, &a);
  glDeleteTextures(1, &b);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

// GL 4.6 §9.4.2: "The value of TEXTURE_SAMPLES is the same for all attached textures" and "The value of
// TEXTURE_FIXED_SAMPLE_LOCATIONS is the same for all attached textures" (else FRAMEBUFFER_INCOMPLETE_MULTISAMPLE);
// SAMPLES of a complete framebuffer is its images' (§9.2.3, table 23.73); §14.3.1 GetMultisamplefv: SAMPLE_POSITION
// of each sample, in [0, 1], "An INVALID_VALUE error is generated if index is greater than or equal to the value of
// SAMPLES"; §18.2.1 ReadPixels of a multisample read framebuffer is INVALID_OPERATION.
TEST_CASE("Framebuffers of multisample textures (GL 4.6 §9.4.2, §14.3.1, §18.2.1)", "[textures][multisample]") {
  GlContext gl;
  const std::vector<GLint> counts = sample_counts(GL_TEXTURE_2D_MULTISAMPLE, GL_RGBA8);
  if (counts.empty()) {
    WARN("no multisample RGBA8 textures on this device: skipped");
    return;
  }
  GLuint ms = 0, ms_free = 0, single = 0;
  glCreateTextures(GL_TEXTURE_2D_MULTISAMPLE, 1, &ms);
  glCreateTextures(GL_TEXTURE_2D_MULTISAMPLE, 1, &ms_free);
  glCreateTextures(GL_TEXTURE_2D, 1, &single);
  glTextureStorage2DMultisample(ms, counts.front(), GL_RGBA8, 8, 8, GL_TRUE);
  glTextureStorage2DMultisample(ms_free, counts.front(), GL_RGBA8, 8, 8, GL_FALSE);
  glTextureStorage2D(single, 1, GL_RGBA8, 8, 8);
  const GLint samples = level_parameter(ms, GL_TEXTURE_SAMPLES);
  GLuint fb = 0;
  glCreateFramebuffers(1, &fb);
  glNamedFramebufferTexture(fb, GL_COLOR_ATTACHMENT0, ms, 0);
  CHECK(glCheckNamedFramebufferStatus(fb, GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);
  glNamedFramebufferTexture(fb, GL_COLOR_ATTACHMENT1, single, 0);
  CHECK(glCheckNamedFramebufferStatus(fb, GL_FRAMEBUFFER) == GL_FRAMEBUFFER_INCOMPLETE_MULTISAMPLE);
  glNamedFramebufferTexture(fb, GL_COLOR_ATTACHMENT1, ms_free, 0);
  CHECK(glCheckNamedFramebufferStatus(fb, GL_FRAMEBUFFER) == GL_FRAMEBUFFER_INCOMPLETE_MULTISAMPLE);
  glNamedFramebufferTexture(fb, GL_COLOR_ATTACHMENT1, 0, 0);
  REQUIRE(glCheckNamedFramebufferStatus(fb, GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);
  glBindFramebuffer(GL_FRAMEBUFFER, fb);
  CHECK(integer(GL_SAMPLES) == samples);
  CHECK(integer(GL_SAMPLE_BUFFERS) == 1);
  std::set<std::pair<float, float>> positions;
  for (GLint i = 0; i < samples; ++i) {
    GLfloat p[2] = {-1, -1};
    glGetMultisamplefv(GL_SAMPLE_POSITION, static_cast<GLuint>(i), p);
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    CHECK(p[0] >= 0.0f);
    CHECK(p[0] <= 1.0f);
    CHECK(p[1] >= 0.0f);
    CHECK(p[1] <= 1.0f);
    positions.insert({p[0], p[1]});
  }
  GLfloat p[2];
  glGetMultisamplefv(GL_SAMPLE_POSITION, static_cast<GLuint>(samples), p);
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  glGetMultisamplefv(GL_SAMPLES, 0, p);
  REQUIRE_GL_ERROR(GL_INVALID_ENUM);
  uint8_t pixel[4];
  glReadPixels(0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, pixel);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  // §17.4.3.1: ClearBufferfv of a multisample attachment (every sample), read back through texelFetch.
  const GLfloat green[4] = {0.0f, 1.0f, 0.0f, 1.0f};
  glClearBufferfv(GL_COLOR, 0, green);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  const GLuint fetch = make_program(
      "#version 450\n"
      "layout(local_size_x = 1) in;\n"
      "layout(binding = 0) uniform sampler2DMS tex;\n"
      "layout(std430, binding = 0) writeonly buffer Out { vec4 texels[]; };\n"
      "void main() { for (int s = 0; s < textureSamples(tex); ++s) texels[s] = texelFetch(tex, ivec2(3, 5), s); }\n");
  const GLuint out = make_buffer(static_cast<GLsizeiptr>(16 * samples));
  glUseProgram(fetch);
  glBindTextureUnit(0, ms);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, out);
  glDispatchCompute(1, 1, 1);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  std::vector<float> texels(static_cast<size_t>(4 * samples));
  glGetNamedBufferSubData(out, 0, static_cast<GLsizeiptr>(texels.size() * 4), texels.data());
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  for (size_t i = 0; i < texels.size(); ++i) {
    CAPTURE(i);
    CHECK(texels[i] == green[i % 4]);
  }
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glDeleteProgram(fetch);
  glDeleteBuffers(1, &out);
  glDeleteFramebuffers(1, &fb);
  glDeleteTextures(1, &ms);
  glDeleteTextures(1, &ms_free);
  glDeleteTextures(1, &single);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

// NV_texture_multisample (assembly): TXFMS fetches sample .w of the texel at integer coordinates (x, y, layer) of an
// ARRAY2DMS target, through the same texture units as GLSL's texelFetch; the unit's texture is a multisample array.
TEST_CASE("NV assembly TXFMS and STOREIM reach each sample of multisample textures (NV_texture_multisample)",
          "[textures][multisample][asm]") {
  GlContext gl;
  const std::vector<GLint> counts = sample_counts(GL_TEXTURE_2D_MULTISAMPLE_ARRAY, GL_R32UI);
  if (counts.empty() || integer(GL_MAX_IMAGE_SAMPLES) < 2 || !has_extension("GL_NV_compute_program5")) {
    WARN("no multisample R32UI image units or no NV_compute_program5 here: skipped");
    return;
  }
  constexpr uint32_t w = 5, h = 3, layers = 2;
  GLuint t = 0;
  glCreateTextures(GL_TEXTURE_2D_MULTISAMPLE_ARRAY, 1, &t);
  glTextureStorage3DMultisample(t, std::min(counts.front(), integer(GL_MAX_IMAGE_SAMPLES)), GL_R32UI, w, h, layers,
                                GL_TRUE);
  const auto samples = static_cast<uint32_t>(level_parameter(t, GL_TEXTURE_SAMPLES));
  const GLuint store = make_program(kStoreProgram);
  glUseProgram(store);
  glBindImageTexture(0, t, 0, GL_TRUE, 0, GL_WRITE_ONLY, GL_R32UI);
  glDispatchCompute((w + 3) / 4, (h + 3) / 4, layers);
  glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT);
  glUseProgram(0);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  glBindTextureUnit(0, t);
  GLuint program = 0;
  glGenProgramsARB(1, &program);
  glBindProgramARB(GL_COMPUTE_PROGRAM_NV, program);
  glEnable(GL_COMPUTE_PROGRAM_NV);
  const std::vector<uint32_t> poison(4, 0xDEADBEEFu);
  const GLuint out = make_buffer(16, poison.data());
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, out);
  for (uint32_t s = 0; s < samples; ++s) {
    const std::string source =
        "!!NVcp5.0\nOPTION NV_shader_storage_buffer;\nOPTION NV_texture_multisample;\nGROUP_SIZE 1;\n"
        "STORAGE out[] = { program.storage[0] };\nTEMP R0, R1;\nMOV.S R1, {3, 2, 1, " +
        std::to_string(s) + "};\nTXFMS.U R0, R1, texture[0], ARRAY2DMS;\nSTB.U32X4 R0, out[0];\nEND\n";
    glProgramStringARB(GL_COMPUTE_PROGRAM_NV, GL_PROGRAM_FORMAT_ASCII_ARB, static_cast<GLsizei>(source.size()),
                       source.data());
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    glDispatchCompute(1, 1, 1);
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    CAPTURE(s);
    // An R32UI texel reads (r, 0, 0, 1) (GL 4.6 table 15.1).
    CHECK(read_words(out, 4) == std::vector<uint32_t>{stored(3, 2, 1, s), 0, 0, 1});
  }
  // EXT_shader_image_load_store's STOREIM on a 2DMS image (the sample in .w): layer 0 of the array bound
  // non-layered (GL 4.6 §8.26: one layer of a 2D multisample array is a 2D multisample image), sample s of texel
  // (4, 0) set to 4242 + s, then fetched back with TXFMS.
  glBindImageTexture(0, t, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_R32UI);
  auto run = [](const std::string& body) {
    const std::string source =
        "!!NVcp5.0\nOPTION NV_shader_storage_buffer;\nOPTION NV_texture_multisample;\nGROUP_SIZE 1;\n"
        "STORAGE out[] = { program.storage[0] };\nTEMP R0, R1;\n" +
        body + "END\n";
    glProgramStringARB(GL_COMPUTE_PROGRAM_NV, GL_PROGRAM_FORMAT_ASCII_ARB, static_cast<GLsizei>(source.size()),
                       source.data());
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    glDispatchCompute(1, 1, 1);
    glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
  };
  for (uint32_t s = 0; s < samples; ++s) {
    CAPTURE(s);
    const std::string sample = std::to_string(s);
    run("MOV.S R1, {4, 0, 0, " + sample + "};\nMOV.U R0, {" + std::to_string(4242 + s) +
        ", 0, 0, 0};\nSTOREIM.U32.R32UI image[0], R0, R1, 2DMS;\n");
    run("MOV.S R1, {4, 0, 0, " + sample + "};\nTXFMS.U R0, R1, texture[0], ARRAY2DMS;\nSTB.U32X4 R0, out[0];\n");
    CHECK(read_words(out, 4) == std::vector<uint32_t>{4242 + s, 0, 0, 1});
  }
  glDisable(GL_COMPUTE_PROGRAM_NV);
  glDeleteProgramsARB(1, &program);
  glDeleteBuffers(1, &out);
  glDeleteProgram(store);
  glDeleteTextures(1, &t);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

// GL 4.6 §8.8: depth-renderable formats take multisample storage too (DEPTH_COMPONENT32F), bounded by
// MAX_DEPTH_TEXTURE_SAMPLES; §8.21's ClearTexImage sets every sample's depth, which texelFetch of a sampler2DMS
// returns in r (table 15.1: a depth texture reads (d, 0, 0, 1) without comparison).
TEST_CASE("Depth multisample textures clear every sample (GL 4.6 §8.8, §8.21)", "[textures][multisample][depth]") {
  GlContext gl;
  const std::vector<GLint> counts = sample_counts(GL_TEXTURE_2D_MULTISAMPLE, GL_DEPTH_COMPONENT32F);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  if (counts.empty()) {
    WARN("no multisample DEPTH_COMPONENT32F textures on this device: skipped");
    return;
  }
  CHECK(integer(GL_MAX_DEPTH_TEXTURE_SAMPLES) >= counts.front());
  GLuint t = 0;
  glCreateTextures(GL_TEXTURE_2D_MULTISAMPLE, 1, &t);
  glTextureStorage2DMultisample(t, counts.front(), GL_DEPTH_COMPONENT32F, 4, 4, GL_TRUE);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  const auto samples = static_cast<uint32_t>(level_parameter(t, GL_TEXTURE_SAMPLES));
  const float depth = 0.375f;
  glClearTexImage(t, 0, GL_DEPTH_COMPONENT, GL_FLOAT, &depth);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  const GLuint fetch = make_program(
      "#version 450\n"
      "layout(local_size_x = 1) in;\n"
      "layout(binding = 0) uniform sampler2DMS tex;\n"
      "layout(std430, binding = 0) writeonly buffer Out { vec4 texels[]; };\n"
      "void main() { for (int s = 0; s < textureSamples(tex); ++s) texels[s] = texelFetch(tex, ivec2(2, 1), s); }\n");
  const GLuint out = make_buffer(static_cast<GLsizeiptr>(16 * samples));
  glUseProgram(fetch);
  glBindTextureUnit(0, t);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, out);
  glDispatchCompute(1, 1, 1);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  std::vector<float> texels(4 * samples);
  glGetNamedBufferSubData(out, 0, static_cast<GLsizeiptr>(texels.size() * 4), texels.data());
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  for (uint32_t s = 0; s < samples; ++s) {
    CAPTURE(s);
    CHECK(texels[s * 4] == depth);
  }
  glDeleteProgram(fetch);
  glDeleteBuffers(1, &out);
  glDeleteTextures(1, &t);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

// GL 4.6 §11.1.3.5: a texel fetch from a texture that is not complete returns (0, 0, 0, 1) — a sampler2DMS unit with
// no multisample texture bound; §8.26.1: imageLoad from an image unit with no texture bound returns zero — an
// image2DMS uniform. Both read multisample placeholders (Vulkan: a multisample view for the MS image operand), with
// no validation message.
TEST_CASE("Multisample uniforms with nothing bound read (0, 0, 0, 1) and zero (GL 4.6 §11.1.3.5, §8.26.1)",
          "[textures][images][multisample]") {
  GlContext gl;
  const bool images = integer(GL_MAX_IMAGE_SAMPLES) >= 2;
  const std::string source = std::string("#version 450\n") + "layout(local_size_x = 1) in;\n" +
                             "layout(binding = 3) uniform sampler2DMS tex;\n" +
                             (images ? "layout(binding = 2, rgba32f) uniform readonly image2DMS img;\n" : "") +
                             "layout(std430, binding = 0) writeonly buffer Out { vec4 fetched; vec4 loaded; };\n"
                             "void main() {\n"
                             "  fetched = texelFetch(tex, ivec2(1, 1), 1);\n" +
                             (images ? "  loaded = imageLoad(img, ivec2(1, 1), 1);\n" : "  loaded = vec4(0.0);\n") +
                             "}\n";
  const GLuint program = make_program(source);
  const std::vector<float> poison(8, -7.0f);
  const GLuint out = make_buffer(32, poison.data());
  glUseProgram(program);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, out);
  glDispatchCompute(1, 1, 1);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  std::vector<float> values(8);
  glGetNamedBufferSubData(out, 0, 32, values.data());
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  CHECK(values == std::vector<float>{0, 0, 0, 1, 0, 0, 0, 0});
  glDeleteBuffers(1, &out);
  glDeleteProgram(program);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

// GL 4.6 §8.21: ClearTexImage converts `data` as TexImage would, so an SRGB8_ALPHA8 multisample texture holds the
// client's (encoded) bytes in every sample: each sample's lookup (§8.24's sRGB decoding) equals the lookup of a
// single-sample SRGB8_ALPHA8 texture given the same bytes by TexSubImage (one decoder on both sides, so equal), and
// §8.24's formula within the device's decoding precision.
TEST_CASE("An sRGB multisample texture clears to the client's encoded bytes (GL 4.6 §8.21, §8.24)",
          "[textures][multisample]") {
  GlContext gl;
  const std::vector<GLint> counts = sample_counts(GL_TEXTURE_2D_MULTISAMPLE, GL_SRGB8_ALPHA8);
  if (counts.empty()) {
    WARN("no multisample SRGB8_ALPHA8 textures on this device: skipped");
    return;
  }
  GLuint t = 0, reference = 0;
  glCreateTextures(GL_TEXTURE_2D_MULTISAMPLE, 1, &t);
  glTextureStorage2DMultisample(t, counts.front(), GL_SRGB8_ALPHA8, 2, 2, GL_TRUE);
  const auto samples = static_cast<uint32_t>(level_parameter(t, GL_TEXTURE_SAMPLES));
  const uint8_t bytes[4] = {10, 100, 200, 77};
  glClearTexImage(t, 0, GL_RGBA, GL_UNSIGNED_BYTE, bytes);
  glCreateTextures(GL_TEXTURE_2D, 1, &reference);
  glTextureStorage2D(reference, 1, GL_SRGB8_ALPHA8, 1, 1);
  glTextureSubImage2D(reference, 0, 0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, bytes);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  const GLuint fetch = make_program(
      "#version 450\n"
      "layout(local_size_x = 1) in;\n"
      "layout(binding = 0) uniform sampler2DMS tex;\n"
      "layout(binding = 1) uniform sampler2D ref;\n"
      "layout(std430, binding = 0) writeonly buffer Out { vec4 expected; vec4 texels[]; };\n"
      "void main() {\n"
      "  expected = texelFetch(ref, ivec2(0), 0);\n"
      "  for (int s = 0; s < textureSamples(tex); ++s) texels[s] = texelFetch(tex, ivec2(1, 1), s);\n"
      "}\n");
  const GLuint out = make_buffer(static_cast<GLsizeiptr>(16 * (samples + 1)));
  glUseProgram(fetch);
  glBindTextureUnit(0, t);
  glBindTextureUnit(1, reference);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, out);
  glDispatchCompute(1, 1, 1);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  std::vector<float> texels(4 * (samples + 1));
  glGetNamedBufferSubData(out, 0, static_cast<GLsizeiptr>(texels.size() * 4), texels.data());
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  auto linear = [](uint8_t byte) {
    const double c = byte / 255.0;
    return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
  };
  for (int c = 0; c < 3; ++c) CHECK(texels[c] == Approx(linear(bytes[c])).margin(2e-3));
  CHECK(texels[3] == Approx(77 / 255.0).margin(1e-6));
  for (uint32_t s = 0; s < samples; ++s) {
    CAPTURE(s);
    for (int c = 0; c < 4; ++c) CHECK(texels[(s + 1) * 4 + c] == texels[c]);
  }
  glDeleteProgram(fetch);
  glDeleteBuffers(1, &out);
  glDeleteTextures(1, &t);
  glDeleteTextures(1, &reference);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

// GL 4.6 §9.2.4: RenderbufferStorageMultisample's samples is "a request for a desired minimum number of samples";
// RENDERBUFFER_SAMPLES is at least that; more than GetInternalformativ(RENDERBUFFER, SAMPLES) allows is
// INVALID_OPERATION. §9.4.2: "if the attached images are a mix of renderbuffers and textures, the value of
// RENDERBUFFER_SAMPLES matches the value of TEXTURE_SAMPLES" and TEXTURE_FIXED_SAMPLE_LOCATIONS is TRUE, else
// FRAMEBUFFER_INCOMPLETE_MULTISAMPLE; §18.2.1: ReadPixels of a multisample read buffer is INVALID_OPERATION.
TEST_CASE("Multisample renderbuffers beside multisample textures (GL 4.6 §9.2.4, §9.4.2)", "[textures][multisample]") {
  GlContext gl;
  const std::vector<GLint> counts = sample_counts(GL_RENDERBUFFER, GL_RGBA8);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  if (counts.empty()) {
    WARN("no multisample RGBA8 renderbuffers on this device: skipped");
    return;
  }
  CHECK(counts == sample_counts(GL_TEXTURE_2D_MULTISAMPLE, GL_RGBA8));
  GLuint rb = 0;
  glCreateRenderbuffers(1, &rb);
  glNamedRenderbufferStorageMultisample(rb, counts.front() + 1, GL_RGBA8, 8, 8);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glNamedRenderbufferStorageMultisample(rb, 1, GL_RGBA8, 8, 8);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  GLint samples = 0;
  glGetNamedRenderbufferParameteriv(rb, GL_RENDERBUFFER_SAMPLES, &samples);
  CHECK(samples >= 1);
  CHECK(std::find(counts.begin(), counts.end(), samples) != counts.end());
  GLuint fixed = 0, free_locations = 0, single = 0;
  glCreateTextures(GL_TEXTURE_2D_MULTISAMPLE, 1, &fixed);
  glCreateTextures(GL_TEXTURE_2D_MULTISAMPLE, 1, &free_locations);
  glCreateTextures(GL_TEXTURE_2D, 1, &single);
  glTextureStorage2DMultisample(fixed, samples, GL_RGBA8, 8, 8, GL_TRUE);
  glTextureStorage2DMultisample(free_locations, samples, GL_RGBA8, 8, 8, GL_FALSE);
  glTextureStorage2D(single, 1, GL_RGBA8, 8, 8);
  REQUIRE(level_parameter(fixed, GL_TEXTURE_SAMPLES) == samples);
  GLuint fb = 0;
  glCreateFramebuffers(1, &fb);
  glNamedFramebufferRenderbuffer(fb, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
  CHECK(glCheckNamedFramebufferStatus(fb, GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);
  glNamedFramebufferTexture(fb, GL_COLOR_ATTACHMENT1, fixed, 0);
  CHECK(glCheckNamedFramebufferStatus(fb, GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);
  glNamedFramebufferTexture(fb, GL_COLOR_ATTACHMENT1, free_locations, 0);
  CHECK(glCheckNamedFramebufferStatus(fb, GL_FRAMEBUFFER) == GL_FRAMEBUFFER_INCOMPLETE_MULTISAMPLE);
  glNamedFramebufferTexture(fb, GL_COLOR_ATTACHMENT1, single, 0);
  CHECK(glCheckNamedFramebufferStatus(fb, GL_FRAMEBUFFER) == GL_FRAMEBUFFER_INCOMPLETE_MULTISAMPLE);
  glNamedFramebufferTexture(fb, GL_COLOR_ATTACHMENT1, 0, 0);
  glBindFramebuffer(GL_FRAMEBUFFER, fb);
  CHECK(integer(GL_SAMPLES) == samples);
  // §17.4.3.1: ClearBuffer of the multisample renderbuffer (vkCmdClearColorImage sets every sample).
  const GLfloat red[4] = {1.0f, 0.0f, 0.0f, 1.0f};
  glClearBufferfv(GL_COLOR, 0, red);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  uint8_t pixel[4];
  glReadPixels(0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, pixel);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glDeleteFramebuffers(1, &fb);
  glDeleteTextures(1, &fixed);
  glDeleteTextures(1, &free_locations);
  glDeleteTextures(1, &single);
  glDeleteRenderbuffers(1, &rb);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

// GL 4.6 §8.18, table 8.21: a TEXTURE_2D_MULTISAMPLE(_ARRAY) texture has views of those two targets only; a view
// shares the original's texels (every sample) from TEXTURE_VIEW_MIN_LAYER on, and its TEXTURE_SAMPLES.
TEST_CASE("Views of multisample textures share their samples (GL 4.6 §8.18, table 8.21)", "[textures][multisample]") {
  GlContext gl;
  const std::vector<GLint> counts = sample_counts(GL_TEXTURE_2D_MULTISAMPLE_ARRAY, GL_R32UI);
  if (counts.empty() || integer(GL_MAX_IMAGE_SAMPLES) < 2) {
    WARN("no multisample R32UI image units on this device: skipped");
    return;
  }
  constexpr uint32_t w = 4, h = 3, layers = 3;
  GLuint t = 0;
  glCreateTextures(GL_TEXTURE_2D_MULTISAMPLE_ARRAY, 1, &t);
  glTextureStorage3DMultisample(t, std::min(counts.front(), integer(GL_MAX_IMAGE_SAMPLES)), GL_R32UI, w, h, layers,
                                GL_TRUE);
  const auto samples = static_cast<uint32_t>(level_parameter(t, GL_TEXTURE_SAMPLES));
  const GLuint store = make_program(kStoreProgram);
  glUseProgram(store);
  glBindImageTexture(0, t, 0, GL_TRUE, 0, GL_WRITE_ONLY, GL_R32UI);
  glDispatchCompute(1, 1, layers);
  glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT);
  GLuint views[3] = {};
  glGenTextures(3, views);
  glTextureView(views[0], GL_TEXTURE_2D_MULTISAMPLE_ARRAY, t, GL_R32UI, 0, 1, 1, 2);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  glTextureView(views[1], GL_TEXTURE_2D, t, GL_R32UI, 0, 1, 0, 1);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glTextureView(views[2], GL_TEXTURE_2D_MULTISAMPLE, t, GL_R32UI, 0, 1, 2, 1);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  CHECK(level_parameter(views[0], GL_TEXTURE_SAMPLES) == static_cast<GLint>(samples));
  CHECK(level_parameter(views[0], GL_TEXTURE_DEPTH) == 2);
  CHECK(level_parameter(views[2], GL_TEXTURE_SAMPLES) == static_cast<GLint>(samples));
  // The array view: layers 1 and 2 of the original as its 0 and 1.
  const GLuint fetch = make_program(kFetchProgram);
  const std::vector<uint32_t> texels = fetch_all(fetch, views[0], w, h, 2, samples);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  for (uint32_t layer = 0; layer < 2; ++layer) {
    for (uint32_t y = 0; y < h; ++y) {
      for (uint32_t x = 0; x < w; ++x) {
        for (uint32_t s = 0; s < samples; ++s) {
          CAPTURE(x, y, layer, s);
          REQUIRE(texels[((layer * h + y) * w + x) * samples + s] == stored(x, y, layer + 1, s));
        }
      }
    }
  }
  // The 2D multisample view of layer 2: texelFetch of a usampler2DMS.
  const GLuint fetch2d = make_program(
      "#version 450\n"
      "layout(local_size_x = 1) in;\n"
      "layout(binding = 0) uniform usampler2DMS tex;\n"
      "layout(std430, binding = 0) writeonly buffer Out { uint texels[]; };\n"
      "void main() { for (int s = 0; s < textureSamples(tex); ++s) texels[s] = texelFetch(tex, ivec2(3, 2), s).r; }\n");
  const GLuint out = make_buffer(static_cast<GLsizeiptr>(4 * samples));
  glUseProgram(fetch2d);
  glBindTextureUnit(0, views[2]);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, out);
  glDispatchCompute(1, 1, 1);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  const std::vector<uint32_t> one = read_words(out, samples);
  for (uint32_t s = 0; s < samples; ++s) CHECK(one[s] == stored(3, 2, 2, s));
  glDeleteProgram(store);
  glDeleteProgram(fetch);
  glDeleteProgram(fetch2d);
  glDeleteBuffers(1, &out);
  glDeleteTextures(3, views);
  glDeleteTextures(1, &t);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}
