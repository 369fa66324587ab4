// Sample-count limits from the device (issue 18): MAX_SAMPLES, MAX_COLOR_TEXTURE_SAMPLES, MAX_DEPTH_TEXTURE_SAMPLES,
// MAX_INTEGER_SAMPLES (GL 4.6 tables 23.64, 23.73), glGetInternalformativ(SAMPLES / NUM_SAMPLE_COUNTS) of
// renderbuffers (§22.3.2) and multisample depth renderbuffers (§9.2.4). Tagged [depth]: gl:depth_textures_color
// runs them with depth stored in colour formats, whose counts are the colour ones.
#include <algorithm>
#include <vector>

#include "translator/gl/gl_fixture.hpp"

using namespace bismuth::gltest;

namespace {

GLint get(GLenum pname) {
  GLint v = -1;
  glGetIntegerv(pname, &v);
  return v;
}

std::vector<GLint> renderbuffer_counts(GLenum format) {
  GLint n = -1;
  glGetInternalformativ(GL_RENDERBUFFER, format, GL_NUM_SAMPLE_COUNTS, 1, &n);
  std::vector<GLint> counts(static_cast<size_t>(n > 0 ? n : 0));
  if (n > 0) glGetInternalformativ(GL_RENDERBUFFER, format, GL_SAMPLES, n, counts.data());
  return counts;
}

const GLenum kDepthFormats[] = {GL_DEPTH_COMPONENT16, GL_DEPTH_COMPONENT24, GL_DEPTH_COMPONENT32F, GL_DEPTH24_STENCIL8,
                                GL_DEPTH32F_STENCIL8};

}  // namespace

TEST_CASE("the sample limits come from the device and bound every format's counts (GL 4.6 §22.3.2, table 23.73)",
          "[multisample][renderbuffer][depth]") {
  GlContext gl;
  const GLint max_samples = get(GL_MAX_SAMPLES);
  const GLint max_color = get(GL_MAX_COLOR_TEXTURE_SAMPLES);
  const GLint max_depth = get(GL_MAX_DEPTH_TEXTURE_SAMPLES);
  const GLint max_integer = get(GL_MAX_INTEGER_SAMPLES);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  INFO("MAX_SAMPLES " << max_samples << ", COLOR " << max_color << ", DEPTH " << max_depth << ", INTEGER "
                      << max_integer);
  // Table 23.73: MAX_SAMPLES "maximum number of samples supported for all non-integer formats", at least 4.
  CHECK(max_samples >= 4);
  CHECK(max_samples <= max_color);
  CHECK(max_samples <= max_depth);
  // §22.3.2, SAMPLES: "The maximum value in SAMPLES is guaranteed to be at least the lowest of the following: The
  // value of GetIntegerv(MAX_INTEGER_SAMPLES) if internalformat is a signed or unsigned integer format; the value of
  // GetIntegerv(MAX_DEPTH_TEXTURE_SAMPLES) if internalformat is a depth- or stencil-renderable format and target is
  // TEXTURE_2D_MULTISAMPLE ...; the value of GetIntegerv(MAX_COLOR_TEXTURE_SAMPLES) if internalformat is a
  // color-renderable format and target is TEXTURE_2D_MULTISAMPLE ...; the value of GetIntegerv(MAX_SAMPLES)".
  // Counts are in descending order.
  struct Row {
    GLenum format;
    bool integer, depth;
  };
  const Row rows[] = {{GL_RGBA8, false, false},
                      {GL_R32F, false, false},
                      {GL_RGBA16F, false, false},
                      {GL_R8UI, true, false},
                      {GL_RGBA32I, true, false},
                      {GL_DEPTH_COMPONENT16, false, true},
                      {GL_DEPTH_COMPONENT24, false, true},
                      {GL_DEPTH_COMPONENT32F, false, true},
                      {GL_DEPTH24_STENCIL8, false, true},
                      {GL_DEPTH32F_STENCIL8, false, true}};
  for (const Row& row : rows) {
    CAPTURE(row.format);
    for (GLenum target : {GLenum(GL_RENDERBUFFER), GLenum(GL_TEXTURE_2D_MULTISAMPLE)}) {
      CAPTURE(target);
      GLint n = -1;
      glGetInternalformativ(target, row.format, GL_NUM_SAMPLE_COUNTS, 1, &n);
      REQUIRE(n > 0);
      std::vector<GLint> counts(static_cast<size_t>(n));
      glGetInternalformativ(target, row.format, GL_SAMPLES, n, counts.data());
      for (size_t i = 1; i < counts.size(); ++i) CHECK(counts[i - 1] > counts[i]);
      GLint bound = max_samples;
      if (row.integer) bound = std::min(bound, max_integer);
      if (target == GL_TEXTURE_2D_MULTISAMPLE) bound = std::min(bound, row.depth ? max_depth : max_color);
      CHECK(counts.front() >= bound);
    }
  }
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("depth renderbuffers take the device's sample counts (GL 4.6 §9.2.4)", "[multisample][renderbuffer][depth]") {
  GlContext gl;
  const GLint max_samples = get(GL_MAX_SAMPLES);
  for (GLenum format : kDepthFormats) {
    CAPTURE(format);
    GLuint rb = 0;
    glCreateRenderbuffers(1, &rb);
    // Single-sampled storage: RENDERBUFFER_DEPTH_SIZE is the format's (table 8.13).
    glNamedRenderbufferStorage(rb, format, 4, 3);
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    GLint v = -1;
    glGetNamedRenderbufferParameteriv(rb, GL_RENDERBUFFER_DEPTH_SIZE, &v);
    CHECK(v == (format == GL_DEPTH_COMPONENT16                                      ? 16
                : format == GL_DEPTH_COMPONENT32F || format == GL_DEPTH32F_STENCIL8 ? 32
                                                                                    : 24));
    glGetNamedRenderbufferParameteriv(rb, GL_RENDERBUFFER_STENCIL_SIZE, &v);
    CHECK(v == (format == GL_DEPTH24_STENCIL8 || format == GL_DEPTH32F_STENCIL8 ? 8 : 0));
    glGetNamedRenderbufferParameteriv(rb, GL_RENDERBUFFER_SAMPLES, &v);
    CHECK(v == 0);
    // §9.2.4: "samples represents a request for a desired minimum number of samples ... the resulting value for
    // RENDERBUFFER_SAMPLES is guaranteed to be greater than or equal to samples and no more than the next larger
    // sample count supported by the implementation".
    const std::vector<GLint> counts = renderbuffer_counts(format);
    REQUIRE(!counts.empty());
    for (GLint asked = 1; asked <= counts.front(); ++asked) {
      CAPTURE(asked);
      glNamedRenderbufferStorageMultisample(rb, asked, format, 4, 3);
      REQUIRE_GL_ERROR(GL_NO_ERROR);
      glGetNamedRenderbufferParameteriv(rb, GL_RENDERBUFFER_SAMPLES, &v);
      GLint next = counts.front();
      for (GLint c : counts) {
        if (c >= asked) next = c;
      }
      CHECK(v == next);
    }
    // MAX_SAMPLES is supported by every non-integer format.
    glNamedRenderbufferStorageMultisample(rb, max_samples, format, 4, 3);
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    // "An INVALID_OPERATION error is generated if samples is greater than the maximum number of samples supported
    // for internalformat"; "An INVALID_VALUE error is generated if ... samples is negative".
    glNamedRenderbufferStorageMultisample(rb, counts.front() + 1, format, 4, 3);
    REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
    glNamedRenderbufferStorageMultisample(rb, -1, format, 4, 3);
    REQUIRE_GL_ERROR(GL_INVALID_VALUE);
    glDeleteRenderbuffers(1, &rb);
  }
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}
