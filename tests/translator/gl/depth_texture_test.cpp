// Depth textures (issue 18): storage of the depth formats of GL 4.6 table 8.13, pixel transfers of depth values
// (§8.4.4.2, §8.5, §8.11, §18.2), glClearTexImage (§8.21), the level and internal-format queries (§8.11.3,
// §22.3), and sampling from a compute shader with shadow and plain samplers (§8.22.1, table 15.1).
#include <cmath>
#include <cstring>
#include <vector>

#include "translator/gl/gl_fixture.hpp"

using namespace bismuth::gltest;

namespace {

// §2.3.5.1 (equation 2.1 and its inverse): an unsigned normalized b-bit value and the nearest one for a float.
double unorm(uint64_t c, int bits) {
  return double(c) / double((uint64_t(1) << bits) - 1);
}
uint64_t to_unorm(double f, int bits) {
  return static_cast<uint64_t>(std::llround(std::min(std::max(f, 0.0), 1.0) * double((uint64_t(1) << bits) - 1)));
}

// Depth textures need a Vulkan queue with graphics for their depth-aspect copies and clears; where Bismuth's queue is
// compute-only (NVIDIA's) glTexStorage* of a depth format is GL_INVALID_OPERATION with a message
// (texture_storage.cpp) and these tests report that and skip.
bool depth_textures_here() {
  GLuint t = 0;
  glGenTextures(1, &t);
  glBindTexture(GL_TEXTURE_2D, t);
  glTexStorage2D(GL_TEXTURE_2D, 1, GL_DEPTH_COMPONENT32F, 1, 1);
  const GLenum error = glGetError();
  glDeleteTextures(1, &t);
  if (error == GL_INVALID_OPERATION) {
    WARN("depth textures are not supported on this device's compute-only queue: skipped");
    return false;
  }
  return true;
}

// Depth textures stored in a colour format (BISMUTH_DEPTH_TEXTURES=color, or a compute-only queue) compare in hardware
// where the device can compare that colour format (SAMPLED_IMAGE_DEPTH_COMPARISON), else in the shader
// (shadow_lowering.cpp). This message, the dispatch skipped, remains only where a program cannot be lowered
// (docs/gl_shim.md "Depth textures").
bool shadow_skipped(const GlContext& gl) {
  if (!gl.saw_message_containing("shadow samplers are not supported on it")) return false;
  WARN("depth textures are stored in a colour format this device cannot compare: shadow lookups skipped");
  return true;
}

GLint level_parameter(GLuint texture, GLenum pname) {
  GLint v = -1;
  glGetTextureLevelParameteriv(texture, 0, pname, &v);
  return v;
}

}  // namespace

TEST_CASE("depth formats have storage and report their depth size and type (GL 4.6 §8.5, §8.11.3)",
          "[textures][depth]") {
  GlContext gl;
  if (!depth_textures_here()) return;
  struct Row {
    GLenum format;
    GLint depth_bits;
    GLenum depth_type;
    GLint stencil_bits;
  };
  // Table 8.13: the depth and stencil bits of the sized depth formats; TEXTURE_DEPTH_TYPE is FLOAT for the 32F
  // formats, UNSIGNED_NORMALIZED for the fixed-point ones (§8.11.3).
  const Row rows[] = {{GL_DEPTH_COMPONENT16, 16, GL_UNSIGNED_NORMALIZED, 0},
                      {GL_DEPTH_COMPONENT24, 24, GL_UNSIGNED_NORMALIZED, 0},
                      {GL_DEPTH_COMPONENT32F, 32, GL_FLOAT, 0},
                      {GL_DEPTH24_STENCIL8, 24, GL_UNSIGNED_NORMALIZED, 8},
                      {GL_DEPTH32F_STENCIL8, 32, GL_FLOAT, 8}};
  for (const Row& row : rows) {
    CAPTURE(row.format);
    GLuint t = 0;
    glCreateTextures(GL_TEXTURE_2D, 1, &t);
    glTextureStorage2D(t, 2, row.format, 4, 4);
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    CHECK(level_parameter(t, GL_TEXTURE_INTERNAL_FORMAT) == static_cast<GLint>(row.format));
    CHECK(level_parameter(t, GL_TEXTURE_DEPTH_SIZE) == row.depth_bits);
    CHECK(level_parameter(t, GL_TEXTURE_DEPTH_TYPE) == static_cast<GLint>(row.depth_type));
    CHECK(level_parameter(t, GL_TEXTURE_STENCIL_SIZE) == row.stencil_bits);
    CHECK(level_parameter(t, GL_TEXTURE_RED_SIZE) == 0);
    CHECK(level_parameter(t, GL_TEXTURE_RED_TYPE) == GL_NONE);
    // §22.3: the internal-format query describes the same format.
    GLint v = -1;
    glGetInternalformativ(GL_TEXTURE_2D, row.format, GL_INTERNALFORMAT_SUPPORTED, 1, &v);
    CHECK(v == GL_TRUE);
    glGetInternalformativ(GL_TEXTURE_2D, row.format, GL_INTERNALFORMAT_DEPTH_SIZE, 1, &v);
    CHECK(v == row.depth_bits);
    glGetInternalformativ(GL_TEXTURE_2D, row.format, GL_INTERNALFORMAT_DEPTH_TYPE, 1, &v);
    CHECK(v == static_cast<GLint>(row.depth_type));
    glGetInternalformativ(GL_TEXTURE_2D, row.format, GL_INTERNALFORMAT_STENCIL_SIZE, 1, &v);
    CHECK(v == row.stencil_bits);
    glGetInternalformativ(GL_TEXTURE_2D, row.format, GL_INTERNALFORMAT_RED_SIZE, 1, &v);
    CHECK(v == 0);
    glGetInternalformativ(GL_TEXTURE_2D, row.format, GL_DEPTH_COMPONENTS, 1, &v);
    CHECK(v == GL_TRUE);
    glGetInternalformativ(GL_TEXTURE_2D, row.format, GL_COLOR_COMPONENTS, 1, &v);
    CHECK(v == GL_FALSE);
    glDeleteTextures(1, &t);
  }
  // §8.5: "Textures with a base internal format of DEPTH_COMPONENT or DEPTH_STENCIL are supported by texture image
  // specification commands only if target is TEXTURE_1D, TEXTURE_2D, ... TEXTURE_CUBE_MAP_ARRAY ... Using these
  // formats in conjunction with any other target will result in an INVALID_OPERATION error."
  GLuint volume = 0;
  glCreateTextures(GL_TEXTURE_3D, 1, &volume);
  glTextureStorage3D(volume, 1, GL_DEPTH_COMPONENT24, 2, 2, 2);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glBindTexture(GL_TEXTURE_3D, volume);
  glTexImage3D(GL_TEXTURE_3D, 0, GL_DEPTH_COMPONENT, 2, 2, 2, 0, GL_DEPTH_COMPONENT, GL_FLOAT, nullptr);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glDeleteTextures(1, &volume);
  // Cube maps and 2D arrays take depth formats.
  GLuint cube = 0;
  glCreateTextures(GL_TEXTURE_CUBE_MAP, 1, &cube);
  glTextureStorage2D(cube, 1, GL_DEPTH_COMPONENT32F, 4, 4);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  glDeleteTextures(1, &cube);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("depth values unpack and pack with the spec's conversions (GL 4.6 §8.4.4.2, §8.5, §18.2)",
          "[textures][depth]") {
  GlContext gl;
  if (!depth_textures_here()) return;
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);

  SECTION("DEPTH_COMPONENT16 from UNSIGNED_SHORT and FLOAT") {
    GLuint t = 0;
    glCreateTextures(GL_TEXTURE_2D, 1, &t);
    glTextureStorage2D(t, 1, GL_DEPTH_COMPONENT16, 4, 1);
    const uint16_t in[4] = {0, 1, 0x8000, 0xFFFF};
    glTextureSubImage2D(t, 0, 0, 0, 4, 1, GL_DEPTH_COMPONENT, GL_UNSIGNED_SHORT, in);
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    // The 16-bit values are the texture's own precision: they read back unchanged, and as FLOAT c / (2^16 - 1).
    uint16_t back[4] = {};
    glGetTextureImage(t, 0, GL_DEPTH_COMPONENT, GL_UNSIGNED_SHORT, sizeof back, back);
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    for (int i = 0; i < 4; ++i) CHECK(back[i] == in[i]);
    float f[4] = {};
    glGetTextureImage(t, 0, GL_DEPTH_COMPONENT, GL_FLOAT, sizeof f, f);
    for (int i = 0; i < 4; ++i) CHECK(f[i] == Approx(unorm(in[i], 16)).margin(1e-7));
    // Float depth into a fixed-point format is clamped to [0, 1] and becomes the nearest 16-bit value.
    const float values[4] = {-1.0f, 0.25f, 0.5f, 2.0f};
    glTextureSubImage2D(t, 0, 0, 0, 4, 1, GL_DEPTH_COMPONENT, GL_FLOAT, values);
    glGetTextureImage(t, 0, GL_DEPTH_COMPONENT, GL_UNSIGNED_SHORT, sizeof back, back);
    for (int i = 0; i < 4; ++i) CHECK(back[i] == to_unorm(values[i], 16));
    glDeleteTextures(1, &t);
  }

  SECTION("DEPTH_COMPONENT24 from UNSIGNED_INT, read as UNSIGNED_INT and FLOAT") {
    GLuint t = 0;
    glCreateTextures(GL_TEXTURE_2D, 1, &t);
    glTextureStorage2D(t, 1, GL_DEPTH_COMPONENT24, 3, 1);
    const uint32_t in[3] = {0, 0x80000000u, 0xFFFFFFFFu};
    glTextureSubImage2D(t, 0, 0, 0, 3, 1, GL_DEPTH_COMPONENT, GL_UNSIGNED_INT, in);
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    float f[3] = {};
    glGetTextureImage(t, 0, GL_DEPTH_COMPONENT, GL_FLOAT, sizeof f, f);
    uint32_t back[3] = {};
    glGetTextureImage(t, 0, GL_DEPTH_COMPONENT, GL_UNSIGNED_INT, sizeof back, back);
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    for (int i = 0; i < 3; ++i) {
      // Equation 2.1 to [0, 1], stored with 24 bits, then back by the inverse with 32 bits (§18.2.8).
      const double stored = unorm(to_unorm(unorm(in[i], 32), 24), 24);
      CHECK(f[i] == Approx(stored).margin(1e-7));
      CHECK(back[i] == to_unorm(stored, 32));
    }
    glDeleteTextures(1, &t);
  }

  SECTION("DEPTH_COMPONENT32F keeps float depth") {
    GLuint t = 0;
    glCreateTextures(GL_TEXTURE_2D, 1, &t);
    glTextureStorage2D(t, 1, GL_DEPTH_COMPONENT32F, 3, 1);
    const float in[3] = {0.0f, 0.3f, 1.0f};
    glTextureSubImage2D(t, 0, 0, 0, 3, 1, GL_DEPTH_COMPONENT, GL_FLOAT, in);
    float back[3] = {};
    glGetTextureImage(t, 0, GL_DEPTH_COMPONENT, GL_FLOAT, sizeof back, back);
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    for (int i = 0; i < 3; ++i) CHECK(back[i] == in[i]);
    // Unsigned types convert by equation 2.1: 0xFFFF of UNSIGNED_SHORT is 1.0.
    const uint16_t shorts[3] = {0xFFFF, 0, 0x8000};
    glTextureSubImage2D(t, 0, 0, 0, 3, 1, GL_DEPTH_COMPONENT, GL_UNSIGNED_SHORT, shorts);
    glGetTextureImage(t, 0, GL_DEPTH_COMPONENT, GL_FLOAT, sizeof back, back);
    for (int i = 0; i < 3; ++i) CHECK(back[i] == Approx(unorm(shorts[i], 16)).margin(1e-7));
    glDeleteTextures(1, &t);
  }

  SECTION("DEPTH24_STENCIL8 from UNSIGNED_INT_24_8 and DEPTH32F_STENCIL8 from FLOAT_32_UNSIGNED_INT_24_8_REV") {
    GLuint t[2] = {};
    glCreateTextures(GL_TEXTURE_2D, 2, t);
    glTextureStorage2D(t[0], 1, GL_DEPTH24_STENCIL8, 2, 1);
    glTextureStorage2D(t[1], 1, GL_DEPTH32F_STENCIL8, 2, 1);
    // Table 8.8: UNSIGNED_INT_24_8 holds the depth in the 24 most significant bits, the stencil index in the 8
    // least; FLOAT_32_UNSIGNED_INT_24_8_REV is a 32-bit float depth, then a word with the stencil index in its 8
    // least significant bits.
    const uint32_t packed[2] = {(0x400000u << 8) | 7u, (0xFFFFFFu << 8) | 200u};
    glTextureSubImage2D(t[0], 0, 0, 0, 2, 1, GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8, packed);
    uint32_t floats[4] = {};
    const float d0 = 0.75f, d1 = 0.125f;
    std::memcpy(&floats[0], &d0, 4);
    floats[1] = 9;
    std::memcpy(&floats[2], &d1, 4);
    floats[3] = 255;
    glTextureSubImage2D(t[1], 0, 0, 0, 2, 1, GL_DEPTH_STENCIL, GL_FLOAT_32_UNSIGNED_INT_24_8_REV, floats);
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    float back[2] = {};
    glGetTextureImage(t[0], 0, GL_DEPTH_COMPONENT, GL_FLOAT, sizeof back, back);
    CHECK(back[0] == Approx(unorm(0x400000u, 24)).margin(1e-7));
    CHECK(back[1] == 1.0f);
    glGetTextureImage(t[1], 0, GL_DEPTH_COMPONENT, GL_FLOAT, sizeof back, back);
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    CHECK(back[0] == d0);
    CHECK(back[1] == d1);
    // §8.4.4.2 / table 8.8: the depth-stencil types need format DEPTH_STENCIL; §8.5: a color format with a depth
    // internal format, or DEPTH_COMPONENT with a color internal format, is INVALID_OPERATION.
    glTextureSubImage2D(t[0], 0, 0, 0, 2, 1, GL_DEPTH_COMPONENT, GL_UNSIGNED_INT_24_8, packed);
    REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
    glTextureSubImage2D(t[0], 0, 0, 0, 2, 1, GL_RED, GL_FLOAT, floats);
    REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
    glDeleteTextures(2, t);
  }

  SECTION("unsized DEPTH_COMPONENT with glTexImage2D") {
    GLuint t = 0;
    glGenTextures(1, &t);
    glBindTexture(GL_TEXTURE_2D, t);
    const float in[2] = {0.5f, 0.0625f};
    glTexImage2D(GL_TEXTURE_2D, 0, GL_DEPTH_COMPONENT, 2, 1, 0, GL_DEPTH_COMPONENT, GL_FLOAT, in);
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    // §8.11.3: TEXTURE_INTERNAL_FORMAT is the internalformat as specified; the GL chooses the resolution (§8.5),
    // a depth one.
    CHECK(level_parameter(t, GL_TEXTURE_INTERNAL_FORMAT) == GL_DEPTH_COMPONENT);
    CHECK(level_parameter(t, GL_TEXTURE_DEPTH_SIZE) > 0);
    float back[2] = {};
    glGetTexImage(GL_TEXTURE_2D, 0, GL_DEPTH_COMPONENT, GL_FLOAT, back);
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    // 0.5 and 1/16 are within 2^-16 of a 16-bit (or finer) value.
    CHECK(back[0] == Approx(0.5).margin(1.0 / 65535));
    CHECK(back[1] == Approx(0.0625).margin(1.0 / 65535));
    glDeleteTextures(1, &t);
  }
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("glClearTexImage and glClearTexSubImage write depth values (GL 4.6 §8.21)", "[textures][depth]") {
  GlContext gl;
  if (!depth_textures_here()) return;
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  GLuint t[2] = {};
  glCreateTextures(GL_TEXTURE_2D_ARRAY, 2, t);
  glTextureStorage3D(t[0], 1, GL_DEPTH_COMPONENT32F, 2, 2, 2);
  glTextureStorage3D(t[1], 1, GL_DEPTH_COMPONENT16, 2, 2, 2);
  // §8.21: data is one element of format/type converted as TexSubImage* would; a null data clears to zero.
  const float whole = 0.625f;
  glClearTexImage(t[0], 0, GL_DEPTH_COMPONENT, GL_FLOAT, &whole);
  glClearTexImage(t[1], 0, GL_DEPTH_COMPONENT, GL_FLOAT, nullptr);
  const uint16_t part = 0x4000;
  glClearTexSubImage(t[1], 0, 1, 0, 1, 1, 2, 1, GL_DEPTH_COMPONENT, GL_UNSIGNED_SHORT, &part);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  float f[8] = {};
  glGetTextureImage(t[0], 0, GL_DEPTH_COMPONENT, GL_FLOAT, sizeof f, f);
  for (float v : f) CHECK(v == whole);
  uint16_t s[8] = {};
  glGetTextureImage(t[1], 0, GL_DEPTH_COMPONENT, GL_UNSIGNED_SHORT, sizeof s, s);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  for (int layer = 0; layer < 2; ++layer)
    for (int y = 0; y < 2; ++y)
      for (int x = 0; x < 2; ++x) CHECK(s[(layer * 2 + y) * 2 + x] == (layer == 1 && x == 1 ? part : 0));
  // A color format for a depth texture: INVALID_OPERATION (§8.21 follows §8.4.4's format/internal format rules).
  glClearTexImage(t[0], 0, GL_RED, GL_FLOAT, &whole);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glDeleteTextures(2, t);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("compute shaders sample depth textures with shadow and plain samplers (GL 4.6 §8.22.1)",
          "[textures][depth]") {
  GlContext gl;
  if (!depth_textures_here()) return;
  const GLuint program = make_program(
      "#version 430\n"
      "layout(local_size_x = 1) in;\n"
      "layout(binding = 0) uniform sampler2DShadow shadow;\n"
      "layout(binding = 1) uniform sampler2D plain;\n"
      "uniform float ref;\n"
      "layout(std430, binding = 0) buffer Out { vec4 depth[2]; float compared[2]; };\n"
      "void main() {\n"
      "  compared[0] = texture(shadow, vec3(0.25, 0.5, ref));\n"
      "  compared[1] = texture(shadow, vec3(0.75, 0.5, ref));\n"
      "  depth[0] = texture(plain, vec2(0.25, 0.5));\n"
      "  depth[1] = texelFetch(plain, ivec2(1, 0), 0);\n"
      "}\n");
  const GLuint out = make_buffer(48);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, out);
  const GLenum formats[] = {GL_DEPTH_COMPONENT16, GL_DEPTH_COMPONENT24, GL_DEPTH_COMPONENT32F, GL_DEPTH24_STENCIL8,
                            GL_DEPTH32F_STENCIL8};
  for (GLenum format : formats) {
    CAPTURE(format);
    GLuint t[2] = {};
    glCreateTextures(GL_TEXTURE_2D, 2, t);
    const float texels[2] = {0.25f, 0.75f};
    for (GLuint texture : t) {
      glTextureStorage2D(texture, 1, format, 2, 1);
      glTextureSubImage2D(texture, 0, 0, 0, 2, 1, GL_DEPTH_COMPONENT, GL_FLOAT, texels);
      glTextureParameteri(texture, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
      glTextureParameteri(texture, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    }
    glTextureParameteri(t[0], GL_TEXTURE_COMPARE_MODE, GL_COMPARE_REF_TO_TEXTURE);
    glBindTextureUnit(0, t[0]);
    glBindTextureUnit(1, t[1]);
    glUseProgram(program);
    glUniform1f(glGetUniformLocation(program, "ref"), 0.5f);
    // §8.22.1: with COMPARE_REF_TO_TEXTURE the result is 1.0 when "D_ref OP D_t" holds, else 0.0 (OP the compare
    // function; D_t the texel's depth, 0.25 and 0.75 here; D_ref 0.5).
    struct Case {
      GLenum func;
      float left, right;
    };
    const Case cases[] = {{GL_LEQUAL, 0.0f, 1.0f},  {GL_GEQUAL, 1.0f, 0.0f}, {GL_LESS, 0.0f, 1.0f},
                          {GL_GREATER, 1.0f, 0.0f}, {GL_EQUAL, 0.0f, 0.0f},  {GL_NOTEQUAL, 1.0f, 1.0f},
                          {GL_ALWAYS, 1.0f, 1.0f},  {GL_NEVER, 0.0f, 0.0f}};
    for (const Case& c : cases) {
      CAPTURE(c.func);
      glTextureParameteri(t[0], GL_TEXTURE_COMPARE_FUNC, static_cast<GLint>(c.func));
      glDispatchCompute(1, 1, 1);
      glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
      float r[10] = {};
      glGetNamedBufferSubData(out, 0, sizeof r, r);
      REQUIRE_GL_ERROR(GL_NO_ERROR);
      if (shadow_skipped(gl)) break;
      CHECK(r[8] == c.left);
      CHECK(r[9] == c.right);
      // Table 15.1: a DEPTH_COMPONENT (or DEPTH_STENCIL read as depth) texture returns (D, 0, 0, 1) with
      // COMPARE_MODE NONE.
      CHECK(r[0] == Approx(texels[0]).margin(1e-4));
      CHECK(r[1] == 0.0f);
      CHECK(r[2] == 0.0f);
      CHECK(r[3] == 1.0f);
      CHECK(r[4] == Approx(texels[1]).margin(1e-4));
    }
    glDeleteTextures(2, t);
  }
  glDeleteBuffers(1, &out);
  glDeleteProgram(program);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("mutable depth levels, copies and views keep depth texels (GL 4.6 §8.5, §8.18, §18.3.3)",
          "[textures][depth]") {
  GlContext gl;
  if (!depth_textures_here()) return;
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  // Two levels given one at a time (glTexImage2D), then sampled: the levels become one image at dispatch.
  GLuint t = 0;
  glGenTextures(1, &t);
  glBindTexture(GL_TEXTURE_2D, t);
  const float level0[4] = {0.1f, 0.2f, 0.3f, 0.4f};
  const float level1 = 0.875f;
  glTexImage2D(GL_TEXTURE_2D, 0, GL_DEPTH_COMPONENT32F, 2, 2, 0, GL_DEPTH_COMPONENT, GL_FLOAT, level0);
  glTexImage2D(GL_TEXTURE_2D, 1, GL_DEPTH_COMPONENT32F, 1, 1, 0, GL_DEPTH_COMPONENT, GL_FLOAT, &level1);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST_MIPMAP_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  const GLuint program = make_program(
      "#version 430\n"
      "layout(local_size_x = 1) in;\n"
      "layout(binding = 0) uniform sampler2D depth;\n"
      "layout(binding = 1) uniform samplerCubeShadow cube;\n"
      "layout(std430, binding = 0) buffer Out { float r[4]; };\n"
      "void main() {\n"
      "  r[0] = textureLod(depth, vec2(0.75, 0.75), 1.0).r;\n"
      "  r[1] = texelFetch(depth, ivec2(1, 1), 0).r;\n"
      "  r[2] = texture(cube, vec4(1.0, 0.0, 0.0, 0.5));\n"   // +X face
      "  r[3] = texture(cube, vec4(-1.0, 0.0, 0.0, 0.5));\n"  // -X face
      "}\n");
  // A depth cube map: +X holds 0.25, -X 0.75; LESS compares D_ref 0.5 < D_t.
  GLuint cube = 0;
  glCreateTextures(GL_TEXTURE_CUBE_MAP, 1, &cube);
  glTextureStorage2D(cube, 1, GL_DEPTH_COMPONENT24, 1, 1);
  const float faces[6] = {0.25f, 0.75f, 0.0f, 0.0f, 0.0f, 0.0f};
  glTextureSubImage3D(cube, 0, 0, 0, 0, 1, 1, 6, GL_DEPTH_COMPONENT, GL_FLOAT, faces);
  glTextureParameteri(cube, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTextureParameteri(cube, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glTextureParameteri(cube, GL_TEXTURE_COMPARE_MODE, GL_COMPARE_REF_TO_TEXTURE);
  glTextureParameteri(cube, GL_TEXTURE_COMPARE_FUNC, GL_LESS);
  const GLuint out = make_buffer(16);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, out);
  glBindTextureUnit(0, t);
  glBindTextureUnit(1, cube);
  glUseProgram(program);
  glDispatchCompute(1, 1, 1);
  float r[4] = {};
  glGetNamedBufferSubData(out, 0, sizeof r, r);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  if (!shadow_skipped(gl)) {
    CHECK(r[0] == level1);
    CHECK(r[1] == level0[3]);
    CHECK(r[2] == 0.0f);  // +X: 0.5 < 0.25 is false
    CHECK(r[3] == 1.0f);  // -X: 0.5 < 0.75 holds
  }
  // glCopyImageSubData between textures of one depth format (§18.3.3: the formats must match), and a view of the
  // same format (§8.18, table 8.22: a depth format is its own view class).
  GLuint copy = 0, view = 0;
  glCreateTextures(GL_TEXTURE_2D, 1, &copy);
  glTextureStorage2D(copy, 1, GL_DEPTH_COMPONENT32F, 2, 2);
  glCopyImageSubData(t, GL_TEXTURE_2D, 0, 0, 0, 0, copy, GL_TEXTURE_2D, 0, 0, 0, 0, 2, 2, 1);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  float back[4] = {};
  glGetTextureImage(copy, 0, GL_DEPTH_COMPONENT, GL_FLOAT, sizeof back, back);
  for (int i = 0; i < 4; ++i) CHECK(back[i] == level0[i]);
  glGenTextures(1, &view);
  glTextureView(view, GL_TEXTURE_2D, copy, GL_DEPTH_COMPONENT32F, 0, 1, 0, 1);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  glGetTextureImage(view, 0, GL_DEPTH_COMPONENT, GL_FLOAT, sizeof back, back);
  for (int i = 0; i < 4; ++i) CHECK(back[i] == level0[i]);
  // A depth texture and a color texture of the same size are not compatible.
  GLuint color = 0;
  glCreateTextures(GL_TEXTURE_2D, 1, &color);
  glTextureStorage2D(color, 1, GL_R32F, 2, 2);
  glCopyImageSubData(copy, GL_TEXTURE_2D, 0, 0, 0, 0, color, GL_TEXTURE_2D, 0, 0, 0, 0, 2, 2, 1);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  GLuint textures[5] = {t, cube, copy, view, color};
  glDeleteTextures(5, textures);
  glDeleteBuffers(1, &out);
  glDeleteProgram(program);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("plain samplers read depth textures as (D, 0, 0, 1) in either storage (GL 4.6 table 15.1)",
          "[textures][depth]") {
  GlContext gl;
  if (!depth_textures_here()) return;
  // Depth textures are depth images where the queue has graphics and colour images (R16_UNORM / R32_SFLOAT) on a
  // compute-only queue or with BISMUTH_DEPTH_TEXTURES=color (docs/gl_shim.md, "Textures"): a plain sampler sees the
  // same values. Table 15.1: "DEPTH_COMPONENT: (D, 0, 0, 1)" with TEXTURE_COMPARE_MODE NONE.
  const GLuint program = make_program(
      "#version 430\n"
      "layout(local_size_x = 1) in;\n"
      "layout(binding = 0) uniform sampler2D depth;\n"
      "layout(std430, binding = 0) buffer Out { vec4 sampled; vec4 fetched; };\n"
      "void main() {\n"
      "  sampled = texture(depth, vec2(0.25, 0.5));\n"
      "  fetched = texelFetch(depth, ivec2(1, 0), 0);\n"
      "}\n");
  const GLuint out = make_buffer(32);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, out);
  glUseProgram(program);
  const GLenum formats[] = {GL_DEPTH_COMPONENT16, GL_DEPTH_COMPONENT24, GL_DEPTH_COMPONENT32F, GL_DEPTH24_STENCIL8,
                            GL_DEPTH32F_STENCIL8};
  for (GLenum format : formats) {
    CAPTURE(format);
    GLuint t = 0;
    glCreateTextures(GL_TEXTURE_2D, 1, &t);
    glTextureStorage2D(t, 1, format, 2, 1);
    const float texels[2] = {0.125f, 0.6875f};
    glTextureSubImage2D(t, 0, 0, 0, 2, 1, GL_DEPTH_COMPONENT, GL_FLOAT, texels);
    glTextureParameteri(t, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTextureParameteri(t, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glBindTextureUnit(0, t);
    glDispatchCompute(1, 1, 1);
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    float r[8] = {};
    glGetNamedBufferSubData(out, 0, sizeof r, r);
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    // Within half a step of the 16-bit format (the texels are rounded to the format's precision, §8.5).
    const float expected[8] = {texels[0], 0, 0, 1, texels[1], 0, 0, 1};
    for (int i = 0; i < 8; ++i) CHECK(r[i] == Approx(expected[i]).margin(0.5 / 65535));
    glDeleteTextures(1, &t);
  }
  glDeleteBuffers(1, &out);
  glDeleteProgram(program);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}
