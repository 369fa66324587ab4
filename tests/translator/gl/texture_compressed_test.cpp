// Compressed textures through the GL API (GL 4.6 §8.7 "Compressed Texture Images", §8.11.3/§8.11.4 queries and
// reads, §22.3 internal format queries; docs/gl_shim.md "Compressed textures"). Every block is written byte by byte
// from the Khronos Data Format Specification's bit layouts; the expected texels are worked out by hand in the
// comments (tests/translator/pixels/compressed_decode_test.cpp checks the CPU decoder on the same blocks). A compute
// shader texelFetch-es every texel.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "translator/gl/gl_fixture.hpp"

using namespace bismuth::gltest;

#ifndef GL_COMPRESSED_RGB_S3TC_DXT1_EXT
#define GL_COMPRESSED_RGB_S3TC_DXT1_EXT 0x83F0
#define GL_COMPRESSED_RGBA_S3TC_DXT1_EXT 0x83F1
#define GL_COMPRESSED_RGBA_S3TC_DXT3_EXT 0x83F2
#define GL_COMPRESSED_RGBA_S3TC_DXT5_EXT 0x83F3
#endif

namespace {

constexpr const char* kFetch2D =
    "#version 430\n"
    "layout(local_size_x = 1) in;\n"
    "layout(binding = 0) uniform sampler2D tex;\n"
    "layout(std430, binding = 0) buffer Out { vec4 texels[]; };\n"
    "void main() {\n"
    "  ivec2 p = ivec2(gl_GlobalInvocationID.xy);\n"
    "  texels[p.y * int(gl_NumWorkGroups.x) + p.x] = texelFetch(tex, p, 0);\n"
    "}\n";

constexpr const char* kFetch2DArray =
    "#version 430\n"
    "layout(local_size_x = 1) in;\n"
    "layout(binding = 0) uniform sampler2DArray tex;\n"
    "layout(std430, binding = 0) buffer Out { vec4 texels[]; };\n"
    "void main() {\n"
    "  ivec3 p = ivec3(gl_GlobalInvocationID);\n"
    "  texels[(p.z * int(gl_NumWorkGroups.y) + p.y) * int(gl_NumWorkGroups.x) + p.x] = texelFetch(tex, p, 0);\n"
    "}\n";

struct Rgba {
  float c[4];
};

// Every texel of level 0 (w x h x layers) as texelFetch returns it.
std::vector<Rgba> fetch(GLuint program, GLuint texture, int w, int h, int layers = 1) {
  const GLuint out = make_buffer(static_cast<GLsizeiptr>(w * h * layers * 16));
  glUseProgram(program);
  glBindTextureUnit(0, texture);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, out);
  glDispatchCompute(static_cast<GLuint>(w), static_cast<GLuint>(h), static_cast<GLuint>(layers));
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  std::vector<Rgba> r(static_cast<size_t>(w * h * layers));
  glGetNamedBufferSubData(out, 0, static_cast<GLsizeiptr>(r.size() * 16), r.data());
  glDeleteBuffers(1, &out);
  return r;
}

// GL 4.6 §8.24: an sRGB texture's R, G and B are converted to linear when fetched: cs / 12.92 for cs <= 0.04045,
// else ((cs + 0.055) / 1.055)^2.4.
float linear(float cs) {
  return cs <= 0.04045f ? cs / 12.92f : std::pow((cs + 0.055f) / 1.055f, 2.4f);
}

// One texel the spec's text gives for a block, in the format's own values (8-bit ones as n / 255).
struct Expect {
  int x, y;
  float r, g, b, a;
};

struct Case {
  const char* name;
  GLenum format;
  std::vector<uint8_t> block;
  bool srgb;
  float margin;  // the storage format's quantization (RGBA8: half a step; 16-bit: far less)
  std::vector<Expect> texels;
};

constexpr float k8 = 0.6f / 255.0f, k16 = 1e-4f;

// Native storage (docs/gl_shim.md "Compressed textures"): S3TC and RGTC blocks are decoded by the device's texture
// unit. The Khronos Data Format Specification gives their interpolants as exact real values ("(2 × RGB0 + RGB1) / 3",
// "(4 × RED0 + RED1) / 5") and neither it nor Vulkan's appendix C bounds the precision a device decodes them with.
// Devices differ: lavapipe interpolates in 8 bits (BC1's 1/3 reads 84/255, SIGNED_RED_RGTC1's -0.6 reads -78/127);
// the H100 weights in coarser fixed point (RED_RGTC1's (4 RED0 + RED1) / 5 with RED0 = 0, RED1 = 1 reads 0.18677,
// 3.4 steps below 0.2; the signed -0.6 reads -0.62792; BC1's 65/255 reads 63/255), as NVIDIA's own GL returns with
// the same texture unit. Those formats are checked to four 8-bit steps (of the signed range's 127 for the signed
// formats) when stored natively; endpoints, BPTC (BC6H, BC7) and ETC2/EAC keep the storage format's margin, and
// BISMUTH_COMPRESSED_TEXTURES=decode checks the CPU decoder as tightly as before.
bool native_storage() {
  const char* v = std::getenv("BISMUTH_COMPRESSED_TEXTURES");
  return v == nullptr || std::string(v) != "decode";
}
float device_margin(GLenum format, float margin) {
  switch (format) {
    case GL_COMPRESSED_RGB_S3TC_DXT1_EXT:
    case GL_COMPRESSED_RGBA_S3TC_DXT1_EXT:
    case GL_COMPRESSED_RGBA_S3TC_DXT3_EXT:
    case GL_COMPRESSED_RGBA_S3TC_DXT5_EXT:
    case GL_COMPRESSED_RED_RGTC1:
    case GL_COMPRESSED_RG_RGTC2: return native_storage() ? std::max(margin, 4.0f / 255.0f) : margin;
    case GL_COMPRESSED_SIGNED_RED_RGTC1:
    case GL_COMPRESSED_SIGNED_RG_RGTC2: return native_storage() ? std::max(margin, 4.0f / 127.0f) : margin;
    default: return margin;
  }
}
constexpr float n(int v) {
  return static_cast<float>(v) / 255.0f;
}

// Blocks and texels of compressed_decode_test.cpp (the derivations are there).
std::vector<Case> cases() {
  const std::vector<uint8_t> etc_individual{0x80, 0x80, 0x8F, 0x20, 0x10, 0x22, 0x10, 0x30};
  const std::vector<uint8_t> etc_differential{0x81, 0x00, 0xFF, 0x03, 0, 0, 0, 0};
  const std::vector<uint8_t> etc_t{0x07, 0xA5, 0x88, 0x84, 0x11, 0x00, 0x10, 0x10};  // "opaque" bit 33 clear
  const std::vector<uint8_t> eac_alpha{0x80, 0x20, 0x1E, 0x47, 0x24, 0x92, 0x49, 0x24};
  std::vector<uint8_t> etc_eac = eac_alpha;
  etc_eac.insert(etc_eac.end(), etc_differential.begin(), etc_differential.end());
  return {
      {"DXT1 RGB four-colour",
       GL_COMPRESSED_RGB_S3TC_DXT1_EXT,
       {0x00, 0xF8, 0x1F, 0x00, 0xE4, 0xE4, 0xE4, 0xE4},
       false,
       k8,
       {{0, 0, 1, 0, 0, 1}, {1, 2, 0, 0, 1, 1}, {2, 3, 2 / 3.f, 0, 1 / 3.f, 1}, {3, 1, 1 / 3.f, 0, 2 / 3.f, 1}}},
      {"DXT1 RGBA three-colour",
       GL_COMPRESSED_RGBA_S3TC_DXT1_EXT,
       {0x1F, 0x00, 0x00, 0xF8, 0xE4, 0xE4, 0xE4, 0xE4},
       false,
       k8,
       {{0, 0, 0, 0, 1, 1}, {1, 0, 1, 0, 0, 1}, {2, 0, 0.5f, 0, 0.5f, 1}, {3, 3, 0, 0, 0, 0}}},
      {"DXT3",
       GL_COMPRESSED_RGBA_S3TC_DXT3_EXT,
       {0x0F, 0x50, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0},
       false,
       k8,
       {{0, 0, 1, 1, 1, 1}, {1, 0, 1, 1, 1, 0}, {3, 0, 1, 1, 1, 1 / 3.f}}},
      {"DXT5",
       GL_COMPRESSED_RGBA_S3TC_DXT5_EXT,
       {0xFF, 0x00, 0x88, 0x0E, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0},
       false,
       k8,
       {{0, 0, 1, 1, 1, 1}, {1, 0, 1, 1, 1, 0}, {2, 0, 1, 1, 1, 6 / 7.f}, {3, 0, 1, 1, 1, 1 / 7.f}}},
      {"RED_RGTC1",
       GL_COMPRESSED_RED_RGTC1,
       {0x00, 0xFF, 0xF2, 0x01, 0, 0, 0, 0},
       false,
       k16,
       {{0, 0, 0.2f, 0, 0, 1}, {1, 0, 0, 0, 0, 1}, {2, 0, 1, 0, 0, 1}, {0, 3, 0, 0, 0, 1}}},
      {"SIGNED_RED_RGTC1",
       GL_COMPRESSED_SIGNED_RED_RGTC1,
       {0x80, 0x7F, 0xF2, 0x01, 0, 0, 0, 0},
       false,
       k16,
       {{0, 0, -0.6f, 0, 0, 1}, {1, 0, -1, 0, 0, 1}, {2, 0, 1, 0, 0, 1}}},
      {"RG_RGTC2",
       GL_COMPRESSED_RG_RGTC2,
       {0x00, 0xFF, 0xF2, 0x01, 0, 0, 0, 0, 0xFF, 0x00, 0x02, 0, 0, 0, 0, 0},
       false,
       k16,
       {{0, 0, 0.2f, 6 / 7.f, 0, 1}, {1, 0, 0, 1, 0, 1}}},
      // Green: green0 = 127 > green1 = -127, the eight-value mode: code 2 = (6 * 1 + (-1)) / 7 = 5/7.
      {"SIGNED_RG_RGTC2",
       GL_COMPRESSED_SIGNED_RG_RGTC2,
       {0x80, 0x7F, 0xF2, 0x01, 0, 0, 0, 0, 0x7F, 0x81, 0x02, 0, 0, 0, 0, 0},
       false,
       k16,
       {{0, 0, -0.6f, 5 / 7.f, 0, 1}, {1, 0, -1, 1, 0, 1}}},
      {"RGB8_ETC2 individual",
       GL_COMPRESSED_RGB8_ETC2,
       etc_individual,
       false,
       k8,
       {{0, 0, n(141), n(141), n(141), 1},
        {1, 0, n(153), n(153), n(153), 1},
        {0, 1, n(131), n(131), n(131), 1},
        {1, 1, n(119), n(119), n(119), 1},
        {2, 0, n(2), n(2), 1, 1},
        {3, 0, 0, 0, n(247), 1}}},
      {"RGB8_ETC2 H mode",
       GL_COMPRESSED_RGB8_ETC2,
       {0x22, 0x06, 0x11, 0x16, 0x11, 0x00, 0x10, 0x10},
       false,
       k8,
       {{0, 0, n(100), n(100), n(100), 1},
        {1, 0, n(36), n(36), n(36), 1},
        {2, 0, n(66), n(66), n(66), 1},
        {3, 0, n(2), n(2), n(2), 1}}},
      {"RGB8_ETC2 planar",
       GL_COMPRESSED_RGB8_ETC2,
       {0x00, 0x00, 0x04, 0x7F, 0x00, 0x00, 0x1F, 0xC0},
       false,
       k8,
       {{0, 0, 0, 0, 0, 1}, {1, 2, n(64), n(128), 0, 1}, {3, 3, n(191), n(191), 0, 1}, {2, 1, n(128), n(64), 0, 1}}},
      {"SRGB8_ETC2 differential",
       GL_COMPRESSED_SRGB8_ETC2,
       etc_differential,
       true,
       k8,
       {{0, 0, n(134), n(2), 1, 1}, {3, 3, n(142), n(2), n(249), 1}}},
      {"RGB8_PUNCHTHROUGH_ALPHA1_ETC2 T mode",
       GL_COMPRESSED_RGB8_PUNCHTHROUGH_ALPHA1_ETC2,
       etc_t,
       false,
       k8,
       {{0, 0, n(51), n(170), n(85), 1},
        {1, 0, n(147), n(147), n(147), 1},
        {2, 0, 0, 0, 0, 0},
        {3, 0, n(125), n(125), n(125), 1}}},
      {"SRGB8_PUNCHTHROUGH_ALPHA1_ETC2 T mode",
       GL_COMPRESSED_SRGB8_PUNCHTHROUGH_ALPHA1_ETC2,
       etc_t,
       true,
       k8,
       {{0, 0, n(51), n(170), n(85), 1}, {2, 0, 0, 0, 0, 0}}},
      {"RGBA8_ETC2_EAC",
       GL_COMPRESSED_RGBA8_ETC2_EAC,
       etc_eac,
       false,
       k8,
       {{0, 0, n(134), n(2), 1, n(122)},
        {0, 1, n(134), n(2), 1, n(156)},
        {1, 0, n(134), n(2), 1, n(98)},
        {1, 1, n(134), n(2), 1, n(132)}}},
      {"SRGB8_ALPHA8_ETC2_EAC",
       GL_COMPRESSED_SRGB8_ALPHA8_ETC2_EAC,
       etc_eac,
       true,
       k8,
       {{0, 0, n(134), n(2), 1, n(122)}, {0, 1, n(134), n(2), 1, n(156)}}},
      // BPTC (compressed_decode_test.cpp has the derivations): BC7 mode 6 and mode 1 (two subsets), BC6H mode 3.
      // BC6H texel (2, 0), weight 34: G (34 * 32800 + 32) >> 6 = 17425, * 31 >> 6 = 8440 = half 0x20F8 =
      // 1.2421875 * 2^-7; B (30 * 0xFFFF + 32) >> 6 = 30720, * 31 >> 6 = 14880 = 0x3A20 = 0.765625. Signed, B of
      // endpoint 0 is 1023 = -1 as 10 bits: ((1 << 15) + 0x4000) >> 9 = 96, negated; (96 * 31) >> 5 = 93 with the
      // sign bit: the half -93 * 2^-24.
      {"RGBA_BPTC_UNORM mode 6",
       GL_COMPRESSED_RGBA_BPTC_UNORM,
       {0xC0, 0x3F, 0x00, 0xF0, 0x07, 0x02, 0xFF, 0xFF, 0xF0, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00},
       false,
       k8,
       {{0, 0, 1, n(1), n(129), 1}, {1, 0, 0, n(254), n(128), n(254)}, {2, 0, n(120), n(135), n(128), n(254)}}},
      {"SRGB_ALPHA_BPTC_UNORM mode 1",
       GL_COMPRESSED_SRGB_ALPHA_BPTC_UNORM,
       {0x02, 0xFF, 0x0F, 0x00, 0x00, 0x00, 0x00, 0x00, 0xF0, 0xFF, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00},
       true,
       k8,
       {{1, 2, 1, n(2), n(2), 1}, {2, 1, 0, 0, n(253), 1}}},
      {"RGB_BPTC_UNSIGNED_FLOAT mode 3",
       GL_COMPRESSED_RGB_BPTC_UNSIGNED_FLOAT,
       {0x03, 0x40, 0x00, 0xFE, 0x07, 0x00, 0x40, 0x00, 0xF0, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00},
       false,
       0.0f,  // RGBA16F storage holds the decoded halves exactly
       {{0, 0, 1.5146484375f, 0, 65504.0f, 1},
        {1, 0, 0, 1.5146484375f, 0, 1},
        {2, 0, 1.2724609375f / 256, 1.2421875f / 128, 0.765625f, 1}}},
      {"RGB_BPTC_SIGNED_FLOAT mode 3",
       GL_COMPRESSED_RGB_BPTC_SIGNED_FLOAT,
       {0x03, 0x40, 0x00, 0xFE, 0x07, 0x00, 0x40, 0x00, 0xF0, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00},
       false,
       0.0f,
       {{0, 0, -65504.0f, 0, -93.0f / 16777216.0f, 1}}},
      {"R11_EAC", GL_COMPRESSED_R11_EAC, {0x64, 0x10, 0, 0, 0, 0, 0, 0}, false, k16, {{2, 3, 780 / 2047.f, 0, 0, 1}}},
      {"SIGNED_R11_EAC",
       GL_COMPRESSED_SIGNED_R11_EAC,
       {0x80, 0x0D, 0x92, 0x49, 0x24, 0x92, 0x49, 0x24},
       false,
       k16,
       {{1, 1, -1016 / 1023.f, 0, 0, 1}}},
      {"RG11_EAC",
       GL_COMPRESSED_RG11_EAC,
       {0x64, 0x10, 0, 0, 0, 0, 0, 0, 0xFF, 0xF0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF},
       false,
       k16,
       {{3, 1, 780 / 2047.f, 1, 0, 1}}},
      // Green: base 127, multiplier 15, index 7 (+14): 1016 + 1680 clamps to 1023 = 1.0.
      {"SIGNED_RG11_EAC",
       GL_COMPRESSED_SIGNED_RG11_EAC,
       {0x80, 0x0D, 0x92, 0x49, 0x24, 0x92, 0x49, 0x24, 0x7F, 0xF0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF},
       false,
       k16,
       {{0, 2, -1016 / 1023.f, 1, 0, 1}}},
  };
}

void require_texel(const Rgba& got, const Expect& e, bool srgb, float margin) {
  INFO("texel (" << e.x << ", " << e.y << ")");
  const float want[4] = {srgb ? linear(e.r) : e.r, srgb ? linear(e.g) : e.g, srgb ? linear(e.b) : e.b, e.a};
  for (int c = 0; c < 4; ++c) {
    // sRGB: the conversion of an 8-bit value; half a step of the encoded value bounds the error.
    const float m = srgb && c < 3 ? 0.01f : margin;
    CHECK(got.c[c] == Approx(want[c]).margin(m));
  }
}

// A one-colour ETC2 block of the differential mode (diff bit 33 = 1, dR = dG = dB = 0, tables 0, every pixel
// index 0 = +2): the colour is each 5-bit base extended (x << 3 | x >> 2) plus 2, clamped.
std::vector<uint8_t> solid_etc2(int r5, int g5, int b5) {
  return {
      static_cast<uint8_t>(r5 << 3), static_cast<uint8_t>(g5 << 3), static_cast<uint8_t>(b5 << 3), 0x02, 0, 0, 0, 0};
}
int solid_value(int v5) {
  return std::min(255, ((v5 << 3) | (v5 >> 2)) + 2);
}

}  // namespace

TEST_CASE("compressed formats: texelFetch returns the texels of the spec's decoding (GL 4.6 §8.7)", "[compressed]") {
  GlContext gl;
  const GLuint program = make_program(kFetch2D);
  for (const Case& c : cases()) {
    CAPTURE(c.name);
    GLuint t = 0;
    glGenTextures(1, &t);
    glBindTexture(GL_TEXTURE_2D, t);
    glCompressedTexImage2D(GL_TEXTURE_2D, 0, c.format, 4, 4, 0, static_cast<GLsizei>(c.block.size()), c.block.data());
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    const auto texels = fetch(program, t, 4, 4);
    for (const Expect& e : c.texels) {
      require_texel(texels[static_cast<size_t>(e.y * 4 + e.x)], e, c.srgb, device_margin(c.format, c.margin));
    }
    // §8.11.3: TEXTURE_COMPRESSED is TRUE, TEXTURE_COMPRESSED_IMAGE_SIZE the bytes of the image, and
    // TEXTURE_INTERNAL_FORMAT the compressed format.
    GLint compressed = 0, size = 0, internal = 0;
    glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_COMPRESSED, &compressed);
    glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_COMPRESSED_IMAGE_SIZE, &size);
    glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_INTERNAL_FORMAT, &internal);
    CHECK(compressed == GL_TRUE);
    CHECK(size == static_cast<GLint>(c.block.size()));
    CHECK(internal == static_cast<GLint>(c.format));
    // §8.11.4: GetCompressedTexImage returns the image "in the compressed form": the application's bytes.
    std::vector<uint8_t> back(c.block.size(), 0xCD);
    glGetCompressedTexImage(GL_TEXTURE_2D, 0, back.data());
    CHECK(back == c.block);
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    glDeleteTextures(1, &t);
  }
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("compressed sub-images at block-aligned offsets, storage and reads of parts (GL 4.6 §8.7, §8.11.4)",
          "[compressed]") {
  GlContext gl;
  const GLuint program = make_program(kFetch2D);
  GLuint t = 0;
  glCreateTextures(GL_TEXTURE_2D, 1, &t);
  glTextureStorage2D(t, 1, GL_COMPRESSED_RGB8_ETC2, 8, 8);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  GLint immutable = 0, compressed = 0;
  glGetTextureParameteriv(t, GL_TEXTURE_IMMUTABLE_FORMAT, &immutable);
  glGetTextureLevelParameteriv(t, 0, GL_TEXTURE_COMPRESSED, &compressed);
  CHECK(immutable == GL_TRUE);
  CHECK(compressed == GL_TRUE);
  // Four blocks of four colours, row by row of blocks.
  const int colours[4][3] = {{31, 0, 0}, {0, 31, 0}, {0, 0, 31}, {16, 16, 16}};
  std::vector<uint8_t> all;
  for (const auto& c : colours) {
    const auto b = solid_etc2(c[0], c[1], c[2]);
    all.insert(all.end(), b.begin(), b.end());
  }
  glBindTexture(GL_TEXTURE_2D, t);
  glCompressedTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 8, 8, GL_COMPRESSED_RGB8_ETC2, 32, all.data());
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  // Replace the lower right block through the DSA entry point (offset (4, 4): multiples of the block size).
  const auto yellow = solid_etc2(31, 31, 0);
  glCompressedTextureSubImage2D(t, 0, 4, 4, 4, 4, GL_COMPRESSED_RGB8_ETC2, 8, yellow.data());
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  const int expect[4][3] = {{31, 0, 0}, {0, 31, 0}, {0, 0, 31}, {31, 31, 0}};
  const auto texels = fetch(program, t, 8, 8);
  for (int y = 0; y < 8; ++y) {
    for (int x = 0; x < 8; ++x) {
      const auto& c = expect[(y / 4) * 2 + x / 4];
      const Expect e{x, y, n(solid_value(c[0])), n(solid_value(c[1])), n(solid_value(c[2])), 1};
      require_texel(texels[static_cast<size_t>(y * 8 + x)], e, false, k8);
    }
  }
  // The whole image: the blocks as uploaded, the replaced one included.
  std::vector<uint8_t> back(32);
  glGetCompressedTextureImage(t, 0, 32, back.data());
  std::vector<uint8_t> want = all;
  std::memcpy(want.data() + 24, yellow.data(), 8);
  CHECK(back == want);
  // GetCompressedTextureSubImage of the upper right block.
  std::vector<uint8_t> part(8);
  glGetCompressedTextureSubImage(t, 0, 4, 0, 0, 4, 4, 1, 8, part.data());
  CHECK(std::equal(part.begin(), part.end(), all.begin() + 8));
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  // §8.26.1: image unit access is invalid when "the internal format of the texture bound to the image unit is not
  // found in table 8.26" (no compressed format is), and "image loads will return zero". The texels are white.
  const GLuint load = make_program(
      "#version 430\n"
      "layout(local_size_x = 1) in;\n"
      "layout(rgba8, binding = 0) readonly uniform image2D img;\n"
      "layout(std430, binding = 0) buffer Out { vec4 texel; };\n"
      "void main() { texel = imageLoad(img, ivec2(1, 1)); }\n");
  const auto white = solid_etc2(31, 31, 31);
  for (int i = 0; i < 4; ++i)
    glCompressedTextureSubImage2D(t, 0, (i % 2) * 4, (i / 2) * 4, 4, 4, GL_COMPRESSED_RGB8_ETC2, 8, white.data());
  glBindImageTexture(0, t, 0, GL_FALSE, 0, GL_READ_ONLY, GL_RGBA8);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  const float ones[4] = {1, 1, 1, 1};
  const GLuint out = make_buffer(16, ones);
  glUseProgram(load);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, out);
  glDispatchCompute(1, 1, 1);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  float loaded[4] = {-1, -1, -1, -1};
  glGetNamedBufferSubData(out, 0, 16, loaded);
  for (float v : loaded) CHECK(v == 0.0f);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("compressed 2D array textures: layers through CompressedTexSubImage3D", "[compressed]") {
  GlContext gl;
  const GLuint program = make_program(kFetch2DArray);
  GLuint t = 0;
  glGenTextures(1, &t);
  glBindTexture(GL_TEXTURE_2D_ARRAY, t);
  glTexStorage3D(GL_TEXTURE_2D_ARRAY, 1, GL_COMPRESSED_R11_EAC, 4, 4, 2);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  // Layer 1 only: base 100, multiplier 1, table 0, every index 0 → 780 / 2047 (R11 formula of §C / the DF spec).
  const uint8_t block[8] = {0x64, 0x10, 0, 0, 0, 0, 0, 0};
  glCompressedTexSubImage3D(GL_TEXTURE_2D_ARRAY, 0, 0, 0, 1, 4, 4, 1, GL_COMPRESSED_R11_EAC, 8, block);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  const auto texels = fetch(program, t, 4, 4, 2);
  CHECK(texels[16 + 5].c[0] == Approx(780 / 2047.f).margin(k16));
  std::vector<uint8_t> back(16, 0xCD);
  glGetCompressedTexImage(GL_TEXTURE_2D_ARRAY, 0, back.data());
  CHECK(std::equal(block, block + 8, back.begin() + 8));
  // GL 4.6 §8.7 (as the ARB's editor quotes it, KhronosGroup/OpenGL-Registry issue 349): "An INVALID_OPERATION
  // error is generated by CompressedTexImage3D if internalformat is one of the EAC, ETC2, or RGTC formats and either
  // border is non-zero, or target is not TEXTURE_2D_ARRAY, TEXTURE_CUBE_MAP or TEXTURE_CUBE_MAP_ARRAY" (table 8.14's
  // "3D Tex." column; S3TC, no core format, has no 3D images either). Cube map arrays take them.
  GLuint cube_array = 0;
  glGenTextures(1, &cube_array);
  glBindTexture(GL_TEXTURE_CUBE_MAP_ARRAY, cube_array);
  std::vector<uint8_t> faces(6 * 8, 0x11);
  glCompressedTexImage3D(GL_TEXTURE_CUBE_MAP_ARRAY, 0, GL_COMPRESSED_R11_EAC, 4, 4, 6, 0, 48, faces.data());
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  glCompressedTexImage3D(GL_TEXTURE_CUBE_MAP_ARRAY, 0, GL_COMPRESSED_RED_RGTC1, 4, 4, 6, 0, 48, faces.data());
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  glDeleteTextures(1, &cube_array);
  GLuint t3 = 0;
  glGenTextures(1, &t3);
  glBindTexture(GL_TEXTURE_3D, t3);
  glCompressedTexImage3D(GL_TEXTURE_3D, 0, GL_COMPRESSED_R11_EAC, 4, 4, 1, 0, 8, block);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  const uint8_t slices_of_zero[16] = {};
  glTexStorage3D(GL_TEXTURE_3D, 1, GL_COMPRESSED_RG_RGTC2, 4, 4, 4);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glTexStorage3D(GL_TEXTURE_3D, 1, GL_COMPRESSED_RGBA8_ETC2_EAC, 4, 4, 4);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glCompressedTexImage3D(GL_TEXTURE_3D, 0, GL_COMPRESSED_RGBA_S3TC_DXT5_EXT, 4, 4, 1, 0, 16, slices_of_zero);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  // BPTC has the "3D Tex." mark: a 4x4x2 TEXTURE_3D image is two slices of one block each.
  std::vector<uint8_t> slices(32);
  for (size_t i = 0; i < slices.size(); ++i) slices[i] = static_cast<uint8_t>(0x40 + i);
  glCompressedTexImage3D(GL_TEXTURE_3D, 0, GL_COMPRESSED_RGBA_BPTC_UNORM, 4, 4, 2, 0, 32, slices.data());
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  std::vector<uint8_t> slices_back(32);
  glGetCompressedTexImage(GL_TEXTURE_3D, 0, slices_back.data());
  CHECK(slices_back == slices);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("compressed texture errors (GL 4.6 §8.7, §8.11)", "[compressed]") {
  GlContext gl;
  GLuint t = 0;
  glGenTextures(1, &t);
  glBindTexture(GL_TEXTURE_2D, t);
  const std::vector<uint8_t> blocks(64, 0);
  // "An INVALID_VALUE error is generated if imageSize is not consistent with the format, dimensions, and contents
  // of the compressed image": 8x8 RGB8_ETC2 is 4 blocks of 8 bytes.
  glCompressedTexImage2D(GL_TEXTURE_2D, 0, GL_COMPRESSED_RGB8_ETC2, 8, 8, 0, 31, blocks.data());
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  glCompressedTexImage2D(GL_TEXTURE_2D, 0, GL_COMPRESSED_RGB8_ETC2, 8, 8, 0, 64, blocks.data());
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  // A size that is not a multiple of 4: ceil(6/4) * ceil(6/4) = 4 blocks.
  glCompressedTexImage2D(GL_TEXTURE_2D, 0, GL_COMPRESSED_RGB8_ETC2, 6, 6, 0, 32, blocks.data());
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  // "An INVALID_ENUM error is generated if internalformat is one of the generic compressed internal formats" or
  // not a compressed format at all.
  glCompressedTexImage2D(GL_TEXTURE_2D, 0, GL_COMPRESSED_RGBA, 4, 4, 0, 16, blocks.data());
  REQUIRE_GL_ERROR(GL_INVALID_ENUM);
  glCompressedTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 4, 4, 0, 64, blocks.data());
  REQUIRE_GL_ERROR(GL_INVALID_ENUM);
  // §8.5 as §8.7 applies it: a border other than zero is INVALID_VALUE.
  glCompressedTexImage2D(GL_TEXTURE_2D, 0, GL_COMPRESSED_RGB8_ETC2, 4, 4, 1, 8, blocks.data());
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  // §8.7: "An INVALID_OPERATION error is generated if ... xoffset or yoffset is not a multiple of the block width
  // or height; width is not a multiple of the block width and xoffset + width is not equal to the width of the
  // level".
  glCompressedTexSubImage2D(GL_TEXTURE_2D, 0, 2, 0, 4, 4, GL_COMPRESSED_RGB8_ETC2, 8, blocks.data());
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glCompressedTexSubImage2D(GL_TEXTURE_2D, 0, 0, 1, 4, 4, GL_COMPRESSED_RGB8_ETC2, 8, blocks.data());
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glCompressedTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 2, 4, GL_COMPRESSED_RGB8_ETC2, 8, blocks.data());
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  // ... but a partial block at the level's edge is fine: (4, 4) + (2, 2) ends at the 6x6 level's corner.
  glCompressedTexSubImage2D(GL_TEXTURE_2D, 0, 4, 4, 2, 2, GL_COMPRESSED_RGB8_ETC2, 8, blocks.data());
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  // Sub-image imageSize: INVALID_VALUE.
  glCompressedTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 4, 4, GL_COMPRESSED_RGB8_ETC2, 16, blocks.data());
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  // "An INVALID_OPERATION error is generated if format does not match the internal format of the texture image
  // being modified".
  glCompressedTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 4, 4, GL_COMPRESSED_R11_EAC, 8, blocks.data());
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  // Outside the level: INVALID_VALUE (§8.6's region rule).
  glCompressedTexSubImage2D(GL_TEXTURE_2D, 0, 4, 4, 4, 4, GL_COMPRESSED_RGB8_ETC2, 8, blocks.data());
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  // Uncompressed transfers into a compressed image are compressed by the GL (texture_compressed_copy_test.cpp) in
  // whole blocks: "xoffset or yoffset is not a multiple of four" is INVALID_OPERATION (§8.7, table 8.14's formats).
  glTexSubImage2D(GL_TEXTURE_2D, 0, 2, 0, 4, 4, GL_RGBA, GL_UNSIGNED_BYTE, blocks.data());
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  // §8.14.4: glGenerateMipmap needs a color-renderable format; compressed formats are not.
  glGenerateMipmap(GL_TEXTURE_2D);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  // §8.11.4: GetnCompressedTexImage: "An INVALID_OPERATION error is generated if ... the buffer size required to
  // store the requested data is greater than bufSize".
  std::vector<uint8_t> back(32);
  glGetnCompressedTexImage(GL_TEXTURE_2D, 0, 31, back.data());
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glGetnCompressedTexImage(GL_TEXTURE_2D, 0, 32, back.data());
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  // GetCompressedTexImage of an uncompressed image: INVALID_OPERATION; so is COMPRESSED_IMAGE_SIZE (§8.11.3).
  GLuint plain = 0;
  glGenTextures(1, &plain);
  glBindTexture(GL_TEXTURE_2D, plain);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  glGetCompressedTexImage(GL_TEXTURE_2D, 0, back.data());
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  GLint size = 0, compressed = 1;
  glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_COMPRESSED_IMAGE_SIZE, &size);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_COMPRESSED, &compressed);
  CHECK(compressed == GL_FALSE);
  // §9.4.1: a color attachment needs a color-renderable format; table 8.14's compressed formats are not.
  GLuint fbo = 0;
  glCreateFramebuffers(1, &fbo);
  glNamedFramebufferTexture(fbo, GL_COLOR_ATTACHMENT0, t, 0);
  CHECK(glCheckNamedFramebufferStatus(fbo, GL_FRAMEBUFFER) == GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT);
  glDeleteFramebuffers(1, &fbo);
  // §8.26 (BindImageTextures): "An INVALID_OPERATION error is generated if the internal format of the level zero
  // texture image of any texture in textures is not found in table 8.26" — no compressed format is.
  glBindImageTextures(0, 1, &t);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("compressed blocks through pixel buffer objects and the compressed block pixel storage modes",
          "[compressed]") {
  GlContext gl;
  const GLuint program = make_program(kFetch2D);
  GLuint t = 0;
  glCreateTextures(GL_TEXTURE_2D, 1, &t);
  glTextureStorage2D(t, 1, GL_COMPRESSED_RGB8_ETC2, 8, 4);
  // Unpack buffer: data is an offset into PIXEL_UNPACK_BUFFER (§8.7 / §8.4.4.1).
  std::vector<uint8_t> bytes(24, 0);
  const auto red = solid_etc2(31, 0, 0), blue = solid_etc2(0, 0, 31);
  std::memcpy(bytes.data() + 8, red.data(), 8);
  std::memcpy(bytes.data() + 16, blue.data(), 8);
  GLuint pbo = 0;
  glCreateBuffers(1, &pbo);
  glNamedBufferData(pbo, 24, bytes.data(), GL_STATIC_DRAW);
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, pbo);
  glCompressedTextureSubImage2D(t, 0, 0, 0, 8, 4, GL_COMPRESSED_RGB8_ETC2, 16, reinterpret_cast<const void*>(8));
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  // Reads past the buffer's end: INVALID_OPERATION.
  glCompressedTextureSubImage2D(t, 0, 0, 0, 8, 4, GL_COMPRESSED_RGB8_ETC2, 16, reinterpret_cast<const void*>(16));
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
  auto texels = fetch(program, t, 8, 4);
  require_texel(texels[0], {0, 0, n(solid_value(31)), n(2), n(2), 1}, false, k8);
  require_texel(texels[7], {7, 0, n(2), n(2), n(solid_value(31)), 1}, false, k8);
  // Pack buffer: the blocks are written at the offset.
  GLuint pack = 0;
  glCreateBuffers(1, &pack);
  glNamedBufferData(pack, 20, nullptr, GL_STATIC_READ);
  glBindBuffer(GL_PIXEL_PACK_BUFFER, pack);
  glGetCompressedTextureImage(t, 0, 16, reinterpret_cast<void*>(4));
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
  std::vector<uint8_t> packed(20);
  glGetNamedBufferSubData(pack, 0, 20, packed.data());
  CHECK(std::equal(red.begin(), red.end(), packed.begin() + 4));
  CHECK(std::equal(blue.begin(), blue.end(), packed.begin() + 12));
  // UNPACK_COMPRESSED_BLOCK_WIDTH / HEIGHT / SIZE set: ROW_LENGTH, SKIP_PIXELS and SKIP_ROWS count in blocks
  // (ROW_LENGTH 12 texels = 3 blocks a row, SKIP_PIXELS 4 = one block, SKIP_ROWS 4 = one row of blocks). The client
  // image is 3x2 blocks; the upload takes blocks 1 and 2 of the second row.
  std::vector<uint8_t> client(6 * 8, 0);
  const auto green = solid_etc2(0, 31, 0), grey = solid_etc2(16, 16, 16);
  std::memcpy(client.data() + (3 + 1) * 8, green.data(), 8);
  std::memcpy(client.data() + (3 + 2) * 8, grey.data(), 8);
  glPixelStorei(GL_UNPACK_COMPRESSED_BLOCK_WIDTH, 4);
  glPixelStorei(GL_UNPACK_COMPRESSED_BLOCK_HEIGHT, 4);
  glPixelStorei(GL_UNPACK_COMPRESSED_BLOCK_SIZE, 8);
  glPixelStorei(GL_UNPACK_ROW_LENGTH, 12);
  glPixelStorei(GL_UNPACK_SKIP_PIXELS, 4);
  glPixelStorei(GL_UNPACK_SKIP_ROWS, 4);
  GLint queried = 0;
  glGetIntegerv(GL_UNPACK_COMPRESSED_BLOCK_SIZE, &queried);
  CHECK(queried == 8);
  glCompressedTextureSubImage2D(t, 0, 0, 0, 8, 4, GL_COMPRESSED_RGB8_ETC2, 16, client.data());
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
  glPixelStorei(GL_UNPACK_SKIP_PIXELS, 0);
  glPixelStorei(GL_UNPACK_SKIP_ROWS, 0);
  std::vector<uint8_t> back(16);
  glGetCompressedTextureImage(t, 0, 16, back.data());
  CHECK(std::equal(green.begin(), green.end(), back.begin()));
  CHECK(std::equal(grey.begin(), grey.end(), back.begin() + 8));
  // PACK_COMPRESSED_BLOCK_*: the same layout on the way out (SKIP_PIXELS 4: one block skipped; the skipped bytes
  // keep their values).
  glPixelStorei(GL_PACK_COMPRESSED_BLOCK_WIDTH, 4);
  glPixelStorei(GL_PACK_COMPRESSED_BLOCK_HEIGHT, 4);
  glPixelStorei(GL_PACK_COMPRESSED_BLOCK_SIZE, 8);
  glPixelStorei(GL_PACK_SKIP_PIXELS, 4);
  std::vector<uint8_t> out(24, 0xEE);
  glGetCompressedTextureImage(t, 0, 24, out.data());
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  CHECK(out[0] == 0xEE);
  CHECK(std::equal(green.begin(), green.end(), out.begin() + 8));
  CHECK(std::equal(grey.begin(), grey.end(), out.begin() + 16));
  glPixelStorei(GL_PACK_SKIP_PIXELS, 0);
  // Block modes that are not the format's (16-byte blocks for RGB8_ETC2's 8): refused, nothing read past the data.
  glPixelStorei(GL_UNPACK_COMPRESSED_BLOCK_SIZE, 16);
  glCompressedTextureSubImage2D(t, 0, 0, 0, 8, 4, GL_COMPRESSED_RGB8_ETC2, 16, client.data());
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glPixelStorei(GL_UNPACK_COMPRESSED_BLOCK_SIZE, 0);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("compressed format queries (GL 4.6 table 23.53, §22.3)", "[compressed]") {
  GlContext gl;
  GLint count = 0;
  glGetIntegerv(GL_NUM_COMPRESSED_TEXTURE_FORMATS, &count);
  std::vector<GLint> formats(static_cast<size_t>(count));
  glGetIntegerv(GL_COMPRESSED_TEXTURE_FORMATS, formats.data());
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  // Every format of this test file's cases is enumerated (the RGTC, BPTC and ETC2/EAC ones GL 4.6 requires, S3TC).
  for (const Case& c : cases()) {
    CAPTURE(c.name);
    CHECK(std::find(formats.begin(), formats.end(), static_cast<GLint>(c.format)) != formats.end());
  }
  CHECK(count == 22);
  // The S3TC formats are EXT_texture_compression_s3tc's: the extension is listed.
  CHECK(has_extension("GL_EXT_texture_compression_s3tc"));
  // §22.3.2: TEXTURE_COMPRESSED "TRUE ... if internalformat is a compressed format that is supported for this type
  // of resource"; the block's width, height and bytes.
  GLint v = -1;
  glGetInternalformativ(GL_TEXTURE_2D, GL_COMPRESSED_RGBA8_ETC2_EAC, GL_TEXTURE_COMPRESSED, 1, &v);
  CHECK(v == GL_TRUE);
  glGetInternalformativ(GL_TEXTURE_2D, GL_COMPRESSED_RGBA8_ETC2_EAC, GL_TEXTURE_COMPRESSED_BLOCK_WIDTH, 1, &v);
  CHECK(v == 4);
  glGetInternalformativ(GL_TEXTURE_2D, GL_COMPRESSED_RGBA8_ETC2_EAC, GL_TEXTURE_COMPRESSED_BLOCK_HEIGHT, 1, &v);
  CHECK(v == 4);
  glGetInternalformativ(GL_TEXTURE_2D, GL_COMPRESSED_RGBA8_ETC2_EAC, GL_TEXTURE_COMPRESSED_BLOCK_SIZE, 1, &v);
  CHECK(v == 16);
  glGetInternalformativ(GL_TEXTURE_2D, GL_COMPRESSED_RED_RGTC1, GL_TEXTURE_COMPRESSED_BLOCK_SIZE, 1, &v);
  CHECK(v == 8);
  glGetInternalformativ(GL_TEXTURE_2D, GL_RGBA8, GL_TEXTURE_COMPRESSED, 1, &v);
  CHECK(v == GL_FALSE);
  // No TEXTURE_3D images of table 8.14's RGTC / ETC2 formats; never an image unit format.
  glGetInternalformativ(GL_TEXTURE_3D, GL_COMPRESSED_RGB8_ETC2, GL_INTERNALFORMAT_SUPPORTED, 1, &v);
  CHECK(v == GL_FALSE);
  glGetInternalformativ(GL_TEXTURE_2D, GL_COMPRESSED_RGB8_ETC2, GL_SHADER_IMAGE_LOAD, 1, &v);
  CHECK(v == GL_NONE);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("compressed cube maps and mip levels smaller than a block (GL 4.6 §8.7, §8.11.4)", "[compressed]") {
  GlContext gl;
  // A cube map through the DSA entry point, zoffset selecting faces (§8.6: TextureSubImage3D of a cube map
  // "treats the faces as layers"): one solid block per face, read back as a whole and face by face.
  GLuint cube = 0;
  glCreateTextures(GL_TEXTURE_CUBE_MAP, 1, &cube);
  glTextureStorage2D(cube, 1, GL_COMPRESSED_RGB8_ETC2, 4, 4);
  std::vector<uint8_t> faces;
  for (int f = 0; f < 6; ++f) {
    const auto b = solid_etc2(f * 5, 31 - f * 5, f);
    faces.insert(faces.end(), b.begin(), b.end());
  }
  glCompressedTextureSubImage3D(cube, 0, 0, 0, 0, 4, 4, 6, GL_COMPRESSED_RGB8_ETC2, 48, faces.data());
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  std::vector<uint8_t> all(48);
  glGetCompressedTextureImage(cube, 0, 48, all.data());
  CHECK(all == faces);
  glBindTexture(GL_TEXTURE_CUBE_MAP, cube);
  std::vector<uint8_t> face(8);
  glGetCompressedTexImage(GL_TEXTURE_CUBE_MAP_NEGATIVE_Y, 0, face.data());  // face 3
  CHECK(std::equal(face.begin(), face.end(), faces.begin() + 24));
  // Replace face 4 alone through the face target.
  const auto white = solid_etc2(31, 31, 31);
  glCompressedTexSubImage2D(GL_TEXTURE_CUBE_MAP_POSITIVE_Z, 0, 0, 0, 4, 4, GL_COMPRESSED_RGB8_ETC2, 8, white.data());
  glGetCompressedTextureSubImage(cube, 0, 0, 0, 4, 4, 4, 1, 8, face.data());
  CHECK(face == white);
  REQUIRE_GL_ERROR(GL_NO_ERROR);

  // Levels of an 8x8 texture: 8x8, 4x4, 2x2, 1x1. Level 2 is 2x2 texels of one block (imageSize 8); the texels
  // are the block's top-left 2x2 (§8.7: the texels of a block outside the image are discarded).
  const GLuint program = make_program(kFetch2D);
  GLuint t = 0;
  glCreateTextures(GL_TEXTURE_2D, 1, &t);
  glTextureStorage2D(t, 4, GL_COMPRESSED_RGB8_ETC2, 8, 8);
  GLint size = 0;
  glGetTextureLevelParameteriv(t, 2, GL_TEXTURE_COMPRESSED_IMAGE_SIZE, &size);
  CHECK(size == 8);
  glGetTextureLevelParameteriv(t, 0, GL_TEXTURE_COMPRESSED_IMAGE_SIZE, &size);
  CHECK(size == 32);
  // The individual-mode block of the decode tests: (0,0) 141, (1,0) 153, (0,1) 131, (1,1) 119 (grey).
  const uint8_t individual[8] = {0x80, 0x80, 0x8F, 0x20, 0x10, 0x22, 0x10, 0x30};
  glCompressedTextureSubImage2D(t, 2, 0, 0, 2, 2, GL_COMPRESSED_RGB8_ETC2, 8, individual);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  glTextureParameteri(t, GL_TEXTURE_BASE_LEVEL, 2);
  glTextureParameteri(t, GL_TEXTURE_MAX_LEVEL, 2);
  glTextureParameteri(t, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  // texelFetch with lod 0 reads level_base + 0 = level 2 (§11.1.3.2 / §8.14.1: lod is relative to the base level).
  const auto texels = fetch(program, t, 2, 2);
  require_texel(texels[0], {0, 0, n(141), n(141), n(141), 1}, false, k8);
  require_texel(texels[1], {1, 0, n(153), n(153), n(153), 1}, false, k8);
  require_texel(texels[2], {0, 1, n(131), n(131), n(131), 1}, false, k8);
  require_texel(texels[3], {1, 1, n(119), n(119), n(119), 1}, false, k8);
  // glGetTextureSubImage of a compressed image returns the decoded texels.
  uint8_t rgba[16] = {};
  glGetTextureSubImage(t, 2, 0, 0, 0, 2, 2, 1, GL_RGBA, GL_UNSIGNED_BYTE, 16, rgba);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  CHECK(rgba[0] == 141);
  CHECK(rgba[4] == 153);
  CHECK(rgba[8] == 131);
  CHECK(rgba[12] == 119);
  CHECK(rgba[3] == 255);
  // The 2x2 level's block round-trips whole.
  uint8_t back[8] = {};
  glGetCompressedTextureImage(t, 2, 8, back);
  CHECK(std::equal(back, back + 8, individual));
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}
