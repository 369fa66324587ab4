// The 16-bit packed internal formats GL 4.6 §8.5.1 requires as texture formats: RGB565, RGBA4 and RGB5_A1
// (table 8.12: R5 G6 B5, R4 G4 B4 A4, R5 G5 B5 A1). Stored in Vulkan's R5G6B5 / B4G4R4A4 / A1R5G5B5 (every Vulkan
// device samples them); uploads and reads convert (docs/gl_shim.md, "Pixel transfer").
#include <cmath>
#include <cstdint>

#include "translator/gl/gl_fixture.hpp"

using namespace bismuth::gltest;

namespace {

GLint level_parameter(GLuint texture, GLenum pname) {
  GLint v = -1;
  glGetTextureLevelParameteriv(texture, 0, pname, &v);
  return v;
}

// §2.3.5.1 equation 2.1: an unsigned normalized b-bit value c is c / (2^b - 1); the nearest b-bit value of f.
double unorm(uint32_t c, int bits) {
  return double(c) / double((1u << bits) - 1);
}
uint32_t to_unorm(double f, int bits) {
  return static_cast<uint32_t>(std::lround(f * double((1u << bits) - 1)));
}

}  // namespace

TEST_CASE("RGB565, RGBA4 and RGB5_A1 textures keep exactly their component sizes (GL 4.6 §8.5.1, table 8.12)",
          "[formats]") {
  GlContext gl;
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  struct Row {
    GLenum internalformat, format, type;
    int bits[4];
  };
  // Table 8.8: UNSIGNED_SHORT_5_6_5 holds R in bits 11-15, G in 5-10, B in 0-4; 4_4_4_4 R in 12-15 … A in 0-3;
  // 5_5_5_1 R in 11-15, G in 6-10, B in 1-5, A in bit 0 (the first component in the most significant bits).
  const Row rows[] = {{GL_RGB565, GL_RGB, GL_UNSIGNED_SHORT_5_6_5, {5, 6, 5, 0}},
                      {GL_RGBA4, GL_RGBA, GL_UNSIGNED_SHORT_4_4_4_4, {4, 4, 4, 4}},
                      {GL_RGB5_A1, GL_RGBA, GL_UNSIGNED_SHORT_5_5_5_1, {5, 5, 5, 1}}};
  const GLuint program = make_program(
      "#version 430\n"
      "layout(local_size_x = 4) in;\n"
      "layout(binding = 0) uniform sampler2D tex;\n"
      "layout(std430, binding = 0) buffer Out { vec4 v[4]; };\n"
      "void main() { v[gl_LocalInvocationID.x] = texelFetch(tex, ivec2(gl_LocalInvocationID.x, 0), 0); }\n");
  const GLuint out = make_buffer(64);
  for (const Row& row : rows) {
    CAPTURE(row.internalformat);
    GLuint t = 0;
    glCreateTextures(GL_TEXTURE_2D, 1, &t);
    glTextureStorage2D(t, 1, row.internalformat, 4, 1);
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    // §8.11.3: TEXTURE_*_SIZE are the component sizes of the internal format's table 8.12 row.
    CHECK(level_parameter(t, GL_TEXTURE_RED_SIZE) == row.bits[0]);
    CHECK(level_parameter(t, GL_TEXTURE_GREEN_SIZE) == row.bits[1]);
    CHECK(level_parameter(t, GL_TEXTURE_BLUE_SIZE) == row.bits[2]);
    CHECK(level_parameter(t, GL_TEXTURE_ALPHA_SIZE) == row.bits[3]);
    CHECK(level_parameter(t, GL_TEXTURE_RED_TYPE) == GL_UNSIGNED_NORMALIZED);
    // Every bit pattern of the packed type is a texel of the format: uploaded and read back unchanged.
    const uint16_t packed[4] = {0x0000, 0xFFFF, 0x1234, 0xA5C3};
    glTextureSubImage2D(t, 0, 0, 0, 4, 1, row.format, row.type, packed);
    uint16_t back[4] = {};
    glGetTextureImage(t, 0, row.format, row.type, sizeof back, back);
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    for (int i = 0; i < 4; ++i) CHECK(back[i] == packed[i]);
    // The fields of the packed type, as a texture lookup returns them (§8.4.4.2's conversion to [0, 1], equation
    // 2.1; table 15.1: an RGB format's alpha reads 1).
    glBindTextureUnit(0, t);
    glUseProgram(program);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, out);
    glDispatchCompute(1, 1, 1);
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    float v[16] = {};
    glGetNamedBufferSubData(out, 0, sizeof v, v);
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    const int components = row.bits[3] ? 4 : 3;
    for (int i = 0; i < 4; ++i) {
      int shift = 16;
      for (int c = 0; c < 4; ++c) {
        if (c >= components) {
          CHECK(v[i * 4 + c] == 1.0f);
          continue;
        }
        shift -= row.bits[c];
        const uint32_t field = (packed[i] >> shift) & ((1u << row.bits[c]) - 1);
        // The device may widen the texel to 8 bits before the conversion: NVIDIA's driver (580, H200) expands a
        // 5-bit 3 by bit replication to 24 and returns 24/255 = 0.0941 for 3/31 = 0.0968. Within one 8-bit step.
        CHECK(v[i * 4 + c] == Approx(unorm(field, row.bits[c])).margin(1.0 / 255));
      }
    }
    // Unsigned bytes are rounded to the format's component sizes (§8.5: "the GL ... converts to the internal
    // format's component sizes"): read back as bytes, each is the nearest b-bit value scaled back.
    const uint8_t bytes[16] = {0, 100, 200, 255, 17, 128, 250, 3, 64, 192, 33, 77, 255, 255, 0, 1};
    glTextureSubImage2D(t, 0, 0, 0, 4, 1, GL_RGBA, GL_UNSIGNED_BYTE, bytes);
    uint8_t bytes_back[16] = {};
    glGetTextureImage(t, 0, GL_RGBA, GL_UNSIGNED_BYTE, sizeof bytes_back, bytes_back);
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    for (int i = 0; i < 16; ++i) {
      const int c = i % 4;
      const uint8_t expected =
          c >= components
              ? 255
              : static_cast<uint8_t>(to_unorm(unorm(to_unorm(unorm(bytes[i], 8), row.bits[c]), row.bits[c]), 8));
      CHECK(int(bytes_back[i]) == int(expected));
    }
    glDeleteTextures(1, &t);
  }
  glDeleteBuffers(1, &out);
  glDeleteProgram(program);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("glTexImage2D takes the packed formats and generates their mipmaps (GL 4.6 §8.5, §8.14.4)", "[formats]") {
  GlContext gl;
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  GLuint t = 0;
  glGenTextures(1, &t);
  glBindTexture(GL_TEXTURE_2D, t);
  // A constant 2×2 level: 5-bit red 31, 6-bit green 0, 5-bit blue 16.
  const uint16_t texel = uint16_t((31u << 11) | (0u << 5) | 16u);
  const uint16_t level0[4] = {texel, texel, texel, texel};
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGB565, 2, 2, 0, GL_RGB, GL_UNSIGNED_SHORT_5_6_5, level0);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  CHECK(level_parameter(t, GL_TEXTURE_INTERNAL_FORMAT) == GL_RGB565);
  glGenerateMipmap(GL_TEXTURE_2D);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  uint16_t top = 0;
  glGetTexImage(GL_TEXTURE_2D, 1, GL_RGB, GL_UNSIGNED_SHORT_5_6_5, &top);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  CHECK(top == texel);  // a constant level reduces to itself
  glDeleteTextures(1, &t);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}
