// Compressed textures beyond CompressedTexImage (docs/gl_shim.md "Compressed textures"): glCopyImageSubData with a
// compressed side (GL 4.6 §18.3.3), texture views of compressed textures (§8.18), and glTexImage* / glTexSubImage*
// with uncompressed client data into compressed levels (§8.5, §8.7: the GL compresses). The references are the
// same blocks uploaded through glCompressedTex*SubImage (the decoded texels must be those an upload of the blocks
// gives) and, for RGTC, a CPU decoding written here from the Khronos Data Format Specification's BC4 rules.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "translator/gl/gl_fixture.hpp"

using namespace bismuth::gltest;

#ifndef GL_COMPRESSED_RGBA_S3TC_DXT1_EXT
#define GL_COMPRESSED_RGB_S3TC_DXT1_EXT 0x83F0
#define GL_COMPRESSED_RGBA_S3TC_DXT1_EXT 0x83F1
#define GL_COMPRESSED_RGBA_S3TC_DXT3_EXT 0x83F2
#define GL_COMPRESSED_RGBA_S3TC_DXT5_EXT 0x83F3
#endif

namespace {

// Whether compressed textures are stored in Vulkan's block formats (BISMUTH_COMPRESSED_TEXTURES unset) or decoded on
// upload (=decode).
bool native_storage() {
  const char* v = std::getenv("BISMUTH_COMPRESSED_TEXTURES");
  return v == nullptr || std::string(v) != "decode";
}

constexpr const char* kFetch2D =
    "#version 430\n"
    "layout(local_size_x = 1) in;\n"
    "layout(binding = 0) uniform sampler2D tex;\n"
    "layout(std430, binding = 0) buffer Out { vec4 texels[]; };\n"
    "uniform int level;\n"
    "void main() {\n"
    "  ivec2 p = ivec2(gl_GlobalInvocationID.xy);\n"
    "  texels[p.y * int(gl_NumWorkGroups.x) + p.x] = texelFetch(tex, p, level);\n"
    "}\n";

struct Rgba {
  float c[4];
  bool operator==(const Rgba& o) const { return std::memcmp(c, o.c, sizeof c) == 0; }
};

// Every texel of `level` (w x h) as texelFetch returns it.
std::vector<Rgba> fetch(GLuint program, GLuint texture, int w, int h, int level = 0) {
  const GLuint out = make_buffer(static_cast<GLsizeiptr>(w * h * 16));
  glUseProgram(program);
  glUniform1i(glGetUniformLocation(program, "level"), level);
  glBindTextureUnit(0, texture);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, out);
  glDispatchCompute(static_cast<GLuint>(w), static_cast<GLuint>(h), 1);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  std::vector<Rgba> r(static_cast<size_t>(w * h));
  glGetNamedBufferSubData(out, 0, static_cast<GLsizeiptr>(r.size() * 16), r.data());
  glDeleteBuffers(1, &out);
  return r;
}

GLuint texture_2d(GLenum format, int w, int h, int levels = 1) {
  GLuint t = 0;
  glCreateTextures(GL_TEXTURE_2D, 1, &t);
  glTextureStorage2D(t, levels, format, w, h);
  return t;
}

// A texture of `format` holding `blocks` at level 0 (w x h), uploaded with CompressedTextureSubImage2D.
GLuint uploaded(GLenum format, int w, int h, const std::vector<uint8_t>& blocks) {
  const GLuint t = texture_2d(format, w, h);
  glCompressedTextureSubImage2D(t, 0, 0, 0, w, h, format, static_cast<GLsizei>(blocks.size()), blocks.data());
  return t;
}

std::vector<uint8_t> blocks_of(GLuint t, size_t bytes, int level = 0) {
  std::vector<uint8_t> b(bytes, 0xEE);
  glGetCompressedTextureImage(t, level, static_cast<GLsizei>(bytes), b.data());
  return b;
}

std::vector<uint8_t> pattern(size_t bytes, int seed) {
  std::vector<uint8_t> b(bytes);
  for (size_t i = 0; i < bytes; ++i) b[i] = static_cast<uint8_t>(i * 37 + static_cast<size_t>(seed) * 101 + 11);
  return b;
}

// BC4 (RGTC1 unsigned) per the Khronos Data Format Specification: red0, red1, then sixteen 3-bit indices; red0 >
// red1: red0, red1 and six interpolants ((8 - k) red0 + (k - 1) red1) / 7; otherwise four interpolants
// ((6 - k) red0 + (k - 1) red1) / 5, then 0 and 255.
std::vector<float> decode_rgtc1(const uint8_t* b) {
  const float r0 = b[0], r1 = b[1];
  float palette[8] = {r0, r1};
  for (int k = 2; k < 8; ++k) {
    palette[k] = b[0] > b[1] ? ((8 - k) * r0 + (k - 1) * r1) / 7
                 : k < 6     ? ((6 - k) * r0 + (k - 1) * r1) / 5
                 : k == 6    ? 0
                             : 255;
  }
  uint64_t bits = 0;
  for (int i = 0; i < 6; ++i) bits |= static_cast<uint64_t>(b[2 + i]) << (8 * i);
  std::vector<float> out(16);
  for (int t = 0; t < 16; ++t) out[static_cast<size_t>(t)] = palette[(bits >> (3 * t)) & 7] / 255.0f;
  return out;
}

}  // namespace

TEST_CASE("glCopyImageSubData between compressed images copies their blocks (GL 4.6 §18.3.3)", "[compressed]") {
  GlContext gl;
  const GLuint program = make_program(kFetch2D);
  const auto blocks = pattern(32, 1);
  const GLuint src = uploaded(GL_COMPRESSED_RED_RGTC1, 8, 8, blocks);
  const GLuint dst = uploaded(GL_COMPRESSED_SIGNED_RED_RGTC1, 8, 8, std::vector<uint8_t>(32, 0));
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  // "two internal formats are considered compatible if ... the formats are considered compatible according to the
  // compatibility rules used for texture views" (table 8.22: RED_RGTC1 and SIGNED_RED_RGTC1 are VIEW_CLASS_RGTC1_RED).
  // "The dimensions are always specified in texels, even for compressed texture formats": block (1, 0) to (0, 1).
  glCopyImageSubData(src, GL_TEXTURE_2D, 0, 4, 0, 0, dst, GL_TEXTURE_2D, 0, 0, 4, 0, 4, 4, 1);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  std::vector<uint8_t> want(32, 0);
  std::copy(blocks.begin() + 8, blocks.begin() + 16, want.begin() + 16);
  CHECK(blocks_of(dst, 32) == want);
  // The destination's texels are those an upload of the same blocks gives.
  const GLuint ref = uploaded(GL_COMPRESSED_SIGNED_RED_RGTC1, 8, 8, want);
  CHECK(fetch(program, dst, 8, 8) == fetch(program, ref, 8, 8));
  // "If the formats are not compatible, an INVALID_OPERATION error is generated": another view class, even of the
  // same block size (RGB8_ETC2 blocks are 8 bytes as well).
  const GLuint rg = texture_2d(GL_COMPRESSED_RG_RGTC2, 8, 8);
  const GLuint etc = texture_2d(GL_COMPRESSED_RGB8_ETC2, 8, 8);
  glCopyImageSubData(src, GL_TEXTURE_2D, 0, 0, 0, 0, rg, GL_TEXTURE_2D, 0, 0, 0, 0, 4, 4, 1);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glCopyImageSubData(src, GL_TEXTURE_2D, 0, 0, 0, 0, etc, GL_TEXTURE_2D, 0, 0, 0, 0, 4, 4, 1);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  // "An INVALID_VALUE error is generated if ... the image format is compressed and the dimensions of the subregion
  // fail to meet the alignment constraints of the format" (offsets multiples of the block, sizes too unless the
  // region ends at the level's edge).
  glCopyImageSubData(src, GL_TEXTURE_2D, 0, 2, 0, 0, dst, GL_TEXTURE_2D, 0, 0, 0, 0, 4, 4, 1);
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  glCopyImageSubData(src, GL_TEXTURE_2D, 0, 0, 0, 0, dst, GL_TEXTURE_2D, 0, 0, 0, 0, 2, 4, 1);
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  glCopyImageSubData(src, GL_TEXTURE_2D, 0, 0, 0, 0, dst, GL_TEXTURE_2D, 0, 4, 2, 0, 4, 4, 1);
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  // "... if the dimensions of either subregion exceeds the boundaries of the corresponding image object".
  glCopyImageSubData(src, GL_TEXTURE_2D, 0, 4, 4, 0, dst, GL_TEXTURE_2D, 0, 0, 0, 0, 8, 4, 1);
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  // A region ending at the edge of a 6x6 level is aligned: its last blocks are partial.
  const auto six = pattern(32, 2);
  const GLuint a = uploaded(GL_COMPRESSED_RED_RGTC1, 6, 6, six);
  const GLuint b = uploaded(GL_COMPRESSED_RED_RGTC1, 6, 6, std::vector<uint8_t>(32, 0));
  glCopyImageSubData(a, GL_TEXTURE_2D, 0, 4, 4, 0, b, GL_TEXTURE_2D, 0, 4, 4, 0, 2, 2, 1);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  std::vector<uint8_t> corner(32, 0);
  std::copy(six.begin() + 24, six.end(), corner.begin() + 24);
  CHECK(blocks_of(b, 32) == corner);
  // "Slices of a TEXTURE_1D_ARRAY, TEXTURE_2D_ARRAY, TEXTURE_CUBE_MAP_ARRAY, TEXTURE_3D and faces of
  // TEXTURE_CUBE_MAP are all compatible": face 2 of a cube map to layer 1 of a 2D array.
  GLuint cube = 0, array = 0;
  glCreateTextures(GL_TEXTURE_CUBE_MAP, 1, &cube);
  glTextureStorage2D(cube, 1, GL_COMPRESSED_RED_RGTC1, 4, 4);
  const auto faces = pattern(48, 11);
  glCompressedTextureSubImage3D(cube, 0, 0, 0, 0, 4, 4, 6, GL_COMPRESSED_RED_RGTC1, 48, faces.data());
  glCreateTextures(GL_TEXTURE_2D_ARRAY, 1, &array);
  glTextureStorage3D(array, 1, GL_COMPRESSED_RED_RGTC1, 4, 4, 2);
  const std::vector<uint8_t> zeros(16, 0);
  glCompressedTextureSubImage3D(array, 0, 0, 0, 0, 4, 4, 2, GL_COMPRESSED_RED_RGTC1, 16, zeros.data());
  glCopyImageSubData(cube, GL_TEXTURE_CUBE_MAP, 0, 0, 0, 2, array, GL_TEXTURE_2D_ARRAY, 0, 0, 0, 1, 4, 4, 1);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  std::vector<uint8_t> layered(16, 0);
  std::copy(faces.begin() + 16, faces.begin() + 24, layered.begin() + 8);
  CHECK(blocks_of(array, 16) == layered);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("glCopyImageSubData between compressed and uncompressed images: a block per texel (GL 4.6 table 18.4)",
          "[compressed]") {
  GlContext gl;
  const GLuint program = make_program(kFetch2D);
  // Compressed to uncompressed: "one format is compressed and the other is uncompressed and Table 18.4 lists the
  // two formats in the same row" (128-bit: RGBA32UI and the BPTC formats); "the number of texels touched in the
  // compressed image will be a factor of the block size larger than in the uncompressed image".
  const auto bptc = pattern(64, 3);
  const GLuint src = uploaded(GL_COMPRESSED_RGBA_BPTC_UNORM, 8, 8, bptc);
  const GLuint u = texture_2d(GL_RGBA32UI, 2, 2);
  glCopyImageSubData(src, GL_TEXTURE_2D, 0, 0, 0, 0, u, GL_TEXTURE_2D, 0, 0, 0, 0, 8, 8, 1);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  std::vector<uint8_t> texels(64);
  glGetTextureImage(u, 0, GL_RGBA_INTEGER, GL_UNSIGNED_INT, 64, texels.data());
  CHECK(texels == bptc);
  // Uncompressed to compressed (RGBA32UI and RG_RGTC2, 16-byte blocks): the texel (1, 0) becomes block (1, 0).
  const auto words = pattern(64, 4);
  glTextureSubImage2D(u, 0, 0, 0, 2, 2, GL_RGBA_INTEGER, GL_UNSIGNED_INT, words.data());
  const GLuint rg = uploaded(GL_COMPRESSED_RG_RGTC2, 8, 8, std::vector<uint8_t>(64, 0));
  glCopyImageSubData(u, GL_TEXTURE_2D, 0, 1, 0, 0, rg, GL_TEXTURE_2D, 0, 4, 0, 0, 1, 1, 1);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  std::vector<uint8_t> want(64, 0);
  std::copy(words.begin() + 16, words.begin() + 32, want.begin() + 16);
  CHECK(blocks_of(rg, 64) == want);
  const GLuint ref = uploaded(GL_COMPRESSED_RG_RGTC2, 8, 8, want);
  CHECK(fetch(program, rg, 8, 8) == fetch(program, ref, 8, 8));
  // 64-bit row: RG32UI and RED_RGTC1 (8-byte blocks); the partial edge block of a 6x6 level is reachable.
  const GLuint f = texture_2d(GL_RG32UI, 2, 2);
  const auto halves = pattern(32, 5);
  glTextureSubImage2D(f, 0, 0, 0, 2, 2, GL_RG_INTEGER, GL_UNSIGNED_INT, halves.data());
  const GLuint red = uploaded(GL_COMPRESSED_RED_RGTC1, 6, 6, std::vector<uint8_t>(32, 0));
  glCopyImageSubData(f, GL_TEXTURE_2D, 0, 1, 1, 0, red, GL_TEXTURE_2D, 0, 4, 4, 0, 1, 1, 1);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  std::vector<uint8_t> corner(32, 0);
  std::copy(halves.begin() + 24, halves.end(), corner.begin() + 24);
  CHECK(blocks_of(red, 32) == corner);
  // Formats outside table 18.4, or of another size: INVALID_OPERATION ("An INVALID_OPERATION error is generated if
  // the texel size of the uncompressed image is not equal to the block size of the compressed image").
  const GLuint rgba8 = texture_2d(GL_RGBA8, 2, 2);
  const GLuint f128 = texture_2d(GL_RGBA32F, 2, 2);
  glCopyImageSubData(rgba8, GL_TEXTURE_2D, 0, 0, 0, 0, red, GL_TEXTURE_2D, 0, 0, 0, 0, 1, 1, 1);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glCopyImageSubData(f128, GL_TEXTURE_2D, 0, 0, 0, 0, red, GL_TEXTURE_2D, 0, 0, 0, 0, 1, 1, 1);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  // The uncompressed destination box (8x8 texels are 2x2 blocks) must fit: INVALID_VALUE at (1, 1) of a 2x2 image.
  glCopyImageSubData(src, GL_TEXTURE_2D, 0, 0, 0, 0, u, GL_TEXTURE_2D, 0, 1, 1, 0, 8, 8, 1);
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("texture views of compressed textures share their blocks (GL 4.6 §8.18, table 8.22)", "[compressed]") {
  GlContext gl;
  const GLuint program = make_program(kFetch2D);
  const auto level0 = pattern(32, 6), level1 = pattern(8, 7);
  const GLuint t = texture_2d(GL_COMPRESSED_RED_RGTC1, 8, 8, 2);
  glCompressedTextureSubImage2D(t, 0, 0, 0, 8, 8, GL_COMPRESSED_RED_RGTC1, 32, level0.data());
  glCompressedTextureSubImage2D(t, 1, 0, 0, 4, 4, GL_COMPRESSED_RED_RGTC1, 8, level1.data());
  // "the internal format of origtexture and internalformat are ... compatible" when both are in one entry of
  // table 8.22: VIEW_CLASS_RGTC1_RED holds COMPRESSED_RED_RGTC1 and COMPRESSED_SIGNED_RED_RGTC1.
  GLuint view = 0;
  glGenTextures(1, &view);
  glTextureView(view, GL_TEXTURE_2D, t, GL_COMPRESSED_SIGNED_RED_RGTC1, 0, 2, 0, 1);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  GLint compressed = 0, internal = 0;
  glGetTextureLevelParameteriv(view, 0, GL_TEXTURE_COMPRESSED, &compressed);
  glGetTextureLevelParameteriv(view, 0, GL_TEXTURE_INTERNAL_FORMAT, &internal);
  CHECK(compressed == GL_TRUE);
  CHECK(internal == GL_COMPRESSED_SIGNED_RED_RGTC1);
  // The view's data are the original's blocks, read as the view's format.
  CHECK(blocks_of(view, 32) == level0);
  CHECK(blocks_of(view, 8, 1) == level1);
  const GLuint signed_ref = uploaded(GL_COMPRESSED_SIGNED_RED_RGTC1, 8, 8, level0);
  CHECK(fetch(program, view, 8, 8) == fetch(program, signed_ref, 8, 8));
  // §22.3.2 VIEW_COMPATIBILITY_CLASS: the class of table 8.22 the format belongs to.
  GLint view_class = 0;
  glGetInternalformativ(GL_TEXTURE_2D, GL_COMPRESSED_SIGNED_RED_RGTC1, GL_VIEW_COMPATIBILITY_CLASS, 1, &view_class);
  CHECK(view_class == GL_VIEW_CLASS_RGTC1_RED);
  // Writes through the view change the original's blocks and texels (one set of blocks).
  const auto block = pattern(8, 8);
  glCompressedTextureSubImage2D(view, 0, 4, 4, 4, 4, GL_COMPRESSED_SIGNED_RED_RGTC1, 8, block.data());
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  auto updated = level0;
  std::copy(block.begin(), block.end(), updated.begin() + 24);
  CHECK(blocks_of(t, 32) == updated);
  const GLuint unsigned_ref = uploaded(GL_COMPRESSED_RED_RGTC1, 8, 8, updated);
  CHECK(fetch(program, t, 8, 8) == fetch(program, unsigned_ref, 8, 8));
  const GLuint signed_updated = uploaded(GL_COMPRESSED_SIGNED_RED_RGTC1, 8, 8, updated);
  CHECK(fetch(program, view, 8, 8) == fetch(program, signed_updated, 8, 8));
  // A view of level 1 only (TEXTURE_VIEW_MIN_LEVEL 1): its level 0 is the original's level 1.
  GLuint small = 0;
  glGenTextures(1, &small);
  glTextureView(small, GL_TEXTURE_2D, t, GL_COMPRESSED_RED_RGTC1, 1, 1, 0, 1);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  CHECK(blocks_of(small, 8) == level1);
  // "An INVALID_OPERATION error is generated if the internal format of origtexture and internalformat are not
  // compatible": another compressed class, or an uncompressed format of the block's size.
  GLuint bad = 0;
  glGenTextures(1, &bad);
  glTextureView(bad, GL_TEXTURE_2D, t, GL_COMPRESSED_RG_RGTC2, 0, 1, 0, 1);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glTextureView(bad, GL_TEXTURE_2D, t, GL_RG32F, 0, 1, 0, 1);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  // VIEW_CLASS_BPTC_UNORM: RGBA_BPTC_UNORM and SRGB_ALPHA_BPTC_UNORM; BPTC_FLOAT is another class.
  const GLuint bptc = uploaded(GL_COMPRESSED_RGBA_BPTC_UNORM, 4, 4, pattern(16, 9));
  glTextureView(bad, GL_TEXTURE_2D, bptc, GL_COMPRESSED_RGB_BPTC_UNSIGNED_FLOAT, 0, 1, 0, 1);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glTextureView(bad, GL_TEXTURE_2D, bptc, GL_COMPRESSED_SRGB_ALPHA_BPTC_UNORM, 0, 1, 0, 1);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  CHECK(blocks_of(bad, 16) == pattern(16, 9));
  // A 2D view of layer 1 of a 2D array (TEXTURE_VIEW_MIN_LAYER 1).
  GLuint array = 0, layer = 0;
  glCreateTextures(GL_TEXTURE_2D_ARRAY, 1, &array);
  glTextureStorage3D(array, 1, GL_COMPRESSED_RG_RGTC2, 4, 4, 2);
  const auto layers = pattern(32, 10);
  glCompressedTextureSubImage3D(array, 0, 0, 0, 0, 4, 4, 2, GL_COMPRESSED_RG_RGTC2, 32, layers.data());
  glGenTextures(1, &layer);
  glTextureView(layer, GL_TEXTURE_2D, array, GL_COMPRESSED_SIGNED_RG_RGTC2, 0, 1, 1, 1);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  CHECK(blocks_of(layer, 16) == std::vector<uint8_t>(layers.begin() + 16, layers.end()));
  const GLuint layer_ref =
      uploaded(GL_COMPRESSED_SIGNED_RG_RGTC2, 4, 4, std::vector<uint8_t>(layers.begin() + 16, layers.end()));
  CHECK(fetch(program, layer, 4, 4) == fetch(program, layer_ref, 4, 4));
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("glTexImage with a specific compressed format: the GL compresses (GL 4.6 §8.5, §8.7)", "[compressed]") {
  GlContext gl;
  const GLuint program = make_program(kFetch2D);
  // RGTC1 from 8-bit red values: the kept blocks decode (Data Format Specification, BC4) to what texelFetch
  // returns, and each texel is within the block's palette step of the client's value.
  std::vector<uint8_t> red(64);
  for (int i = 0; i < 64; ++i) red[static_cast<size_t>(i)] = static_cast<uint8_t>((i % 8) * 29 + (i / 8) * 5);
  GLuint t = 0;
  glGenTextures(1, &t);
  glBindTexture(GL_TEXTURE_2D, t);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_COMPRESSED_RED_RGTC1, 8, 8, 0, GL_RED, GL_UNSIGNED_BYTE, red.data());
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);  // one level: complete (§8.17)
  GLint compressed = 0, internal = 0, size = 0;
  glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_COMPRESSED, &compressed);
  glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_INTERNAL_FORMAT, &internal);
  glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_COMPRESSED_IMAGE_SIZE, &size);
  CHECK(compressed == GL_TRUE);
  CHECK(internal == GL_COMPRESSED_RED_RGTC1);
  CHECK(size == 32);
  const auto blocks = blocks_of(t, 32);
  const auto texels = fetch(program, t, 8, 8);
  for (int by = 0; by < 2; ++by) {
    for (int bx = 0; bx < 2; ++bx) {
      const auto decoded = decode_rgtc1(blocks.data() + (by * 2 + bx) * 8);
      int lo = 255, hi = 0;
      for (int y = 0; y < 4; ++y) {
        for (int x = 0; x < 4; ++x) {
          const int v = red[static_cast<size_t>((by * 4 + y) * 8 + bx * 4 + x)];
          lo = std::min(lo, v);
          hi = std::max(hi, v);
        }
      }
      for (int y = 0; y < 4; ++y) {
        for (int x = 0; x < 4; ++x) {
          const size_t i = static_cast<size_t>((by * 4 + y) * 8 + bx * 4 + x);
          // Natively stored, the device decodes (lavapipe: in 8 bits; texture_compressed_test.cpp's device_margin
          // quotes the rule); decoded on upload, the R16 storage holds the CPU decoder's value.
          CHECK(texels[i].c[0] ==
                Approx(decoded[static_cast<size_t>(y * 4 + x)]).margin(native_storage() ? 2.0 / 255 : 1.0 / 65535));
          CHECK(std::fabs(texels[i].c[0] - red[i] / 255.0f) <= (hi - lo) / 14.0f / 255.0f + 1.0f / 255.0f);
        }
      }
    }
  }
  // glTexSubImage2D into the compressed level: whole blocks, "xoffset or yoffset is not a multiple of the block
  // width or height" is INVALID_OPERATION; a block-aligned box replaces only its blocks.
  const std::vector<uint8_t> flat(16, 200);
  glTexSubImage2D(GL_TEXTURE_2D, 0, 2, 0, 4, 4, GL_RED, GL_UNSIGNED_BYTE, flat.data());
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  // "width is not a multiple of four, width plus xoffset is not equal to TEXTURE_WIDTH, and either xoffset or
  // yoffset is non-zero" (ARB_texture_compression_rgtc): a 2x4 box at (4, 0) is refused, at (0, 0) accepted, and
  // only the block it touches changes.
  glTexSubImage2D(GL_TEXTURE_2D, 0, 4, 0, 2, 4, GL_RED, GL_UNSIGNED_BYTE, flat.data());
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 2, 2, GL_RED, GL_UNSIGNED_BYTE, flat.data());
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  const auto origin = blocks_of(t, 32);
  CHECK(std::equal(origin.begin() + 8, origin.end(), blocks.begin() + 8));
  for (float v : decode_rgtc1(origin.data())) CHECK(v == Approx(200 / 255.0f).margin(0.5 / 255));
  // The image holds the decoding of the whole replaced block.
  const auto origin_texels = fetch(program, t, 8, 8);
  for (int y = 0; y < 4; ++y) {
    for (int x = 0; x < 4; ++x)
      CHECK(origin_texels[static_cast<size_t>(y * 8 + x)].c[0] == Approx(200 / 255.0f).margin(1.0 / 255));
  }
  glTexSubImage2D(GL_TEXTURE_2D, 0, 4, 4, 4, 4, GL_RED, GL_UNSIGNED_BYTE, flat.data());
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  const auto after = blocks_of(t, 32);
  CHECK(std::equal(after.begin() + 8, after.begin() + 24, blocks.begin() + 8));
  for (float v : decode_rgtc1(after.data() + 24)) CHECK(v == Approx(200 / 255.0f).margin(0.5 / 255));
  // Two colours per block (each channel of the second at least the first's): every format's encoder can place its
  // endpoints on them. The texels are the decoding of the kept blocks (the same blocks uploaded give the same
  // texels) and near the client's.
  struct Case {
    GLenum format;
    int block_bytes;
    float tolerance;
  };
  const Case cases[] = {
      {GL_COMPRESSED_RGB_S3TC_DXT1_EXT, 8, 1.0f / 31},   {GL_COMPRESSED_RGBA_S3TC_DXT1_EXT, 8, 1.0f / 31},
      {GL_COMPRESSED_RGBA_S3TC_DXT3_EXT, 16, 1.0f / 31}, {GL_COMPRESSED_RGBA_S3TC_DXT5_EXT, 16, 1.0f / 31},
      {GL_COMPRESSED_RG_RGTC2, 16, 1.0f / 255},          {GL_COMPRESSED_RGBA_BPTC_UNORM, 16, 1.5f / 255}};
  std::vector<uint8_t> rgba(8 * 8 * 4);
  for (int y = 0; y < 8; ++y) {
    for (int x = 0; x < 8; ++x) {
      const bool second = ((x + y) % 3) == 0;
      const int block = (y / 4) * 2 + x / 4;
      const uint8_t first[4] = {static_cast<uint8_t>(20 + 40 * block), 66, static_cast<uint8_t>(10 * block), 255};
      const uint8_t other[4] = {static_cast<uint8_t>(first[0] + 60), 230, static_cast<uint8_t>(first[2] + 99), 255};
      std::memcpy(&rgba[static_cast<size_t>((y * 8 + x) * 4)], second ? other : first, 4);
    }
  }
  for (const Case& c : cases) {
    INFO("format " << std::hex << c.format);
    GLuint e = 0;
    glGenTextures(1, &e);
    glBindTexture(GL_TEXTURE_2D, e);
    glTexImage2D(GL_TEXTURE_2D, 0, static_cast<GLint>(c.format), 8, 8, 0, GL_RGBA, GL_UNSIGNED_BYTE, rgba.data());
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);  // one level: complete (§8.17)
    const auto kept = blocks_of(e, static_cast<size_t>(4 * c.block_bytes));
    const auto got = fetch(program, e, 8, 8);
    CHECK(got == fetch(program, uploaded(c.format, 8, 8, kept), 8, 8));
    const int channels = c.format == GL_COMPRESSED_RG_RGTC2 ? 2 : c.format == GL_COMPRESSED_RGB_S3TC_DXT1_EXT ? 3 : 4;
    for (size_t i = 0; i < got.size(); ++i) {
      for (int ch = 0; ch < channels; ++ch) {
        CHECK(std::fabs(got[i].c[ch] - rgba[i * 4 + static_cast<size_t>(ch)] / 255.0f) <= c.tolerance);
      }
    }
  }
  // BPTC float from float pixels: within a few per cent (10-bit endpoints over the half-float range).
  std::vector<float> hdr(8 * 8 * 4);
  for (size_t i = 0; i < 64; ++i) {
    const bool second = i % 3 == 0;
    hdr[i * 4 + 0] = second ? 4.0f : 0.25f;
    hdr[i * 4 + 1] = second ? 1.5f : 0.5f;
    hdr[i * 4 + 2] = second ? 8.0f : 1.0f;
    hdr[i * 4 + 3] = 1.0f;
  }
  GLuint h = 0;
  glGenTextures(1, &h);
  glBindTexture(GL_TEXTURE_2D, h);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_COMPRESSED_RGB_BPTC_UNSIGNED_FLOAT, 8, 8, 0, GL_RGBA, GL_FLOAT, hdr.data());
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);  // one level: complete (§8.17)
  const auto hdr_blocks = blocks_of(h, 64);
  const auto hdr_texels = fetch(program, h, 8, 8);
  CHECK(hdr_texels == fetch(program, uploaded(GL_COMPRESSED_RGB_BPTC_UNSIGNED_FLOAT, 8, 8, hdr_blocks), 8, 8));
  for (size_t i = 0; i < 64; ++i) {
    for (int ch = 0; ch < 3; ++ch) {
      CHECK(hdr_texels[i].c[ch] == Approx(hdr[i * 4 + static_cast<size_t>(ch)]).epsilon(0.05));
    }
  }
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("glTexImage with generic compressed formats, ETC2/EAC and compressed targets (GL 4.6 §8.5, §8.7)",
          "[compressed]") {
  GlContext gl;
  const GLuint program = make_program(kFetch2D);
  // §8.5: "If no specific compressed format is available, internalformat is instead replaced by the corresponding
  // base internal format": the image is stored uncompressed, texel for texel.
  std::vector<uint8_t> rgba(4 * 4 * 4);
  for (size_t i = 0; i < rgba.size(); ++i) rgba[i] = static_cast<uint8_t>(i * 13);
  GLuint t = 0;
  glGenTextures(1, &t);
  glBindTexture(GL_TEXTURE_2D, t);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_COMPRESSED_RGBA, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, rgba.data());
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);  // one level: complete (§8.17)
  GLint compressed = 1, internal = 0;
  glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_COMPRESSED, &compressed);
  glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_INTERNAL_FORMAT, &internal);
  CHECK(compressed == GL_FALSE);
  CHECK(internal == GL_RGBA);
  const auto texels = fetch(program, t, 4, 4);
  for (size_t i = 0; i < 16; ++i) {
    for (size_t c = 0; c < 4; ++c) CHECK(texels[i].c[c] == Approx(rgba[i * 4 + c] / 255.0f).margin(1e-6));
  }
  // The ETC2/EAC formats are specific compressed formats of table 8.14 like RGTC and BPTC: TexImage takes them
  // (the GL compresses; the next test case checks the texels).
  glTexImage2D(GL_TEXTURE_2D, 0, GL_COMPRESSED_RGB8_ETC2, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, rgba.data());
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  // Targets (table 8.14's 4x4 blocks): no one-dimensional textures; TEXTURE_3D only for the BPTC formats (the
  // "3D Tex." column); 2D arrays for all.
  GLuint one = 0, three = 0, arr = 0;
  glGenTextures(1, &one);
  glBindTexture(GL_TEXTURE_1D, one);
  // The RGTC / BPTC formats are "Accepted by the <internalformat> parameter of TexImage2D, TexImage3D, ..."
  // (ARB_texture_compression_bptc), not by TexImage1D: not an accepted internal format, INVALID_VALUE.
  glTexImage1D(GL_TEXTURE_1D, 0, GL_COMPRESSED_RED_RGTC1, 4, 0, GL_RED, GL_UNSIGNED_BYTE, rgba.data());
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  // "CompressedTexImage1D ... produce[s] an INVALID_ENUM error if <internalformat> is an RGTC format", and
  // CompressedTexSubImage1D for such a <format> (ARB_texture_compression_rgtc; _bptc says the same).
  glCompressedTexImage1D(GL_TEXTURE_1D, 0, GL_COMPRESSED_RED_RGTC1, 4, 0, 8, rgba.data());
  REQUIRE_GL_ERROR(GL_INVALID_ENUM);
  glCompressedTexImage1D(GL_TEXTURE_1D, 0, GL_COMPRESSED_RGBA_BPTC_UNORM, 4, 0, 16, rgba.data());
  REQUIRE_GL_ERROR(GL_INVALID_ENUM);
  glCompressedTexSubImage1D(GL_TEXTURE_1D, 0, 0, 4, GL_COMPRESSED_RED_RGTC1, 8, rgba.data());
  REQUIRE_GL_ERROR(GL_INVALID_ENUM);
  glGenTextures(1, &three);
  glBindTexture(GL_TEXTURE_3D, three);
  // "An INVALID_OPERATION error is generated by TexImage3D if internalformat is one of the EAC, ETC2, or RGTC
  // compressed formats and either border is non-zero, or target is not TEXTURE_2D_ARRAY" (GL 4.4 §8.5, as Mesa's
  // teximage.c quotes it; the BPTC formats have table 8.14's "3D Tex." mark).
  glTexImage3D(GL_TEXTURE_3D, 0, GL_COMPRESSED_RED_RGTC1, 4, 4, 1, 0, GL_RED, GL_UNSIGNED_BYTE, rgba.data());
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glTexImage3D(GL_TEXTURE_3D, 0, GL_COMPRESSED_RGBA8_ETC2_EAC, 4, 4, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE, rgba.data());
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glTexImage3D(GL_TEXTURE_3D, 0, GL_COMPRESSED_R11_EAC, 4, 4, 1, 0, GL_RED, GL_UNSIGNED_BYTE, rgba.data());
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glTexImage3D(GL_TEXTURE_3D, 0, GL_COMPRESSED_RGBA_BPTC_UNORM, 4, 4, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE, rgba.data());
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  glGenTextures(1, &arr);
  glBindTexture(GL_TEXTURE_2D_ARRAY, arr);
  glTexImage3D(GL_TEXTURE_2D_ARRAY, 0, GL_COMPRESSED_RED_RGTC1, 4, 4, 1, 0, GL_RED, GL_UNSIGNED_BYTE, rgba.data());
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  GLint arr_compressed = 0;
  glGetTexLevelParameteriv(GL_TEXTURE_2D_ARRAY, 0, GL_TEXTURE_COMPRESSED, &arr_compressed);
  CHECK(arr_compressed == GL_TRUE);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

// ETC2 / EAC are specific compressed formats of table 8.14 like RGTC and BPTC: "If the internal format of the
// texture image being modified is one of the specific compressed formats described in table 8.14, the texture is
// stored using the corresponding compressed texture image encoding" (GL 4.3+ §8.5 / §8.7; KhronosGroup/OpenGL-API
// issue 11: desktop GL compresses them as it does the others). Client texels that one block of the format holds
// exactly (ETC2's differential mode: each half a 5-bit base plus the table's modifiers; EAC: base + modifier x
// multiplier) come back exactly, and the texels are the decoding of the kept blocks.
TEST_CASE("glTexImage / glTexSubImage compress ETC2 and EAC (GL 4.6 §8.5, §8.7)", "[compressed]") {
  GlContext gl;
  const GLuint program = make_program(kFetch2D);
  auto extend5 = [](int q) { return (q << 3) | (q >> 2); };
  constexpr int kModifiers[4][2] = {{5, 17}, {9, 29}, {13, 42}, {18, 60}};  // ETC1 tables 1..4 (a, b)
  // 8x8 RGBA8: block (bx, by) split left / right (bx == by) or top / bottom; half 0 the 5-bit colour q0, half 1
  // q0 + (2, -3, 1); the eight texels of a half take +a, +b, -a, -b of table 1 + bx + 2 by twice each. Alpha:
  // 88 + ... values one EAC alpha block holds (base 128, multiplier 4, table 13: 124, 120, 116, 88, 128, 132,
  // 136, 164).
  constexpr int kAlpha[8] = {124, 120, 116, 88, 128, 132, 136, 164};
  std::vector<uint8_t> rgba(8 * 8 * 4);
  for (int by = 0; by < 2; ++by) {
    for (int bx = 0; bx < 2; ++bx) {
      const int q0[3] = {10 + 3 * bx, 15 + by, 12 + 2 * by};
      const int* ab = kModifiers[bx + 2 * by];
      int seen[2] = {0, 0};
      for (int y = 0; y < 4; ++y) {
        for (int x = 0; x < 4; ++x) {
          const int half = bx == by ? (x >= 2) : (y >= 2);
          const int k = seen[half]++ % 4;
          const int m = k == 0 ? ab[0] : k == 1 ? ab[1] : k == 2 ? -ab[0] : -ab[1];
          const int d[3] = {2, -3, 1};
          uint8_t* p = &rgba[static_cast<size_t>(((by * 4 + y) * 8 + bx * 4 + x) * 4)];
          for (int c = 0; c < 3; ++c) p[c] = static_cast<uint8_t>(extend5(q0[c] + (half ? d[c] : 0)) + m);
          p[3] = static_cast<uint8_t>(kAlpha[(x + y * 4) % 8]);
        }
      }
    }
  }
  struct Case {
    GLenum format;
    size_t block_bytes;
    bool alpha;  // the format keeps the client's alpha (else alpha reads 1)
  };
  for (const Case c :
       {Case{GL_COMPRESSED_RGB8_ETC2, 8, false}, Case{GL_COMPRESSED_SRGB8_ETC2, 8, false},
        Case{GL_COMPRESSED_RGBA8_ETC2_EAC, 16, true}, Case{GL_COMPRESSED_SRGB8_ALPHA8_ETC2_EAC, 16, true}}) {
    INFO("format " << std::hex << c.format);
    GLuint t = 0;
    glGenTextures(1, &t);
    glBindTexture(GL_TEXTURE_2D, t);
    glTexImage2D(GL_TEXTURE_2D, 0, static_cast<GLint>(c.format), 8, 8, 0, GL_RGBA, GL_UNSIGNED_BYTE, rgba.data());
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);  // one level: complete (§8.17)
    GLint internal = 0;
    glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_INTERNAL_FORMAT, &internal);
    CHECK(internal == static_cast<GLint>(c.format));
    const auto kept = blocks_of(t, 4 * c.block_bytes);
    const auto got = fetch(program, t, 8, 8);
    CHECK(got == fetch(program, uploaded(c.format, 8, 8, kept), 8, 8));
    // texelFetch of an sRGB texture decodes; compare the sRGB formats through their kept blocks' linear twins.
    const bool srgb = c.format == GL_COMPRESSED_SRGB8_ETC2 || c.format == GL_COMPRESSED_SRGB8_ALPHA8_ETC2_EAC;
    const auto linear = srgb ? fetch(program,
                                     uploaded(c.format == GL_COMPRESSED_SRGB8_ETC2 ? GL_COMPRESSED_RGB8_ETC2
                                                                                   : GL_COMPRESSED_RGBA8_ETC2_EAC,
                                              8, 8, kept),
                                     8, 8)
                             : got;
    for (size_t i = 0; i < 64; ++i) {
      for (size_t ch = 0; ch < 3; ++ch) CHECK(linear[i].c[ch] == Approx(rgba[i * 4 + ch] / 255.0f).margin(0.5 / 255));
      CHECK(linear[i].c[3] == Approx(c.alpha ? rgba[i * 4 + 3] / 255.0f : 1.0f).margin(0.5 / 255));
    }
    // glTexSubImage2D into the level: the block at (4, 4) re-encoded (a flat colour: within table 0's smallest
    // modifier, 2), the other three kept byte for byte.
    const std::vector<uint8_t> flat(4 * 4 * 4, 123);
    glTextureSubImage2D(t, 0, 4, 4, 4, 4, GL_RGBA, GL_UNSIGNED_BYTE, flat.data());
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    const auto after = blocks_of(t, 4 * c.block_bytes);
    CHECK(std::equal(after.begin(), after.begin() + static_cast<std::ptrdiff_t>(3 * c.block_bytes), kept.begin()));
    const auto replaced =
        fetch(program, uploaded(c.alpha ? GL_COMPRESSED_RGBA8_ETC2_EAC : GL_COMPRESSED_RGB8_ETC2, 8, 8, after), 8, 8);
    for (int y = 4; y < 8; ++y) {
      for (int x = 4; x < 8; ++x) {
        for (size_t ch = 0; ch < 3; ++ch)
          CHECK(replaced[static_cast<size_t>(y * 8 + x)].c[ch] == Approx(123 / 255.0f).margin(2.5 / 255));
      }
    }
  }
  // Punch-through alpha: texels of alpha below one half are transparent black (index 2 with the "opaque" bit
  // clear), the others keep their colour (modifiers 0, +b, -b of the half's table).
  std::vector<uint8_t> punch(4 * 4 * 4);
  for (int y = 0; y < 4; ++y) {
    for (int x = 0; x < 4; ++x) {
      const int i = y * 4 + x;
      const bool clear = (x + y) % 4 == 1;
      const int m = i % 3 == 0 ? 0 : i % 3 == 1 ? 29 : -29;  // table 2's b
      uint8_t* p = &punch[static_cast<size_t>(i * 4)];
      const int base = extend5(x >= 2 ? 14 : 12);
      for (int ch = 0; ch < 3; ++ch) p[ch] = clear ? 7 : static_cast<uint8_t>(base + (ch == 1 ? 0 : m));
      p[3] = clear ? 0 : 255;
    }
  }
  GLuint pt = 0;
  glGenTextures(1, &pt);
  glBindTexture(GL_TEXTURE_2D, pt);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_COMPRESSED_RGB8_PUNCHTHROUGH_ALPHA1_ETC2, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE,
               punch.data());
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  const auto punched = fetch(program, pt, 4, 4);
  CHECK(punched == fetch(program, uploaded(GL_COMPRESSED_RGB8_PUNCHTHROUGH_ALPHA1_ETC2, 4, 4, blocks_of(pt, 8)), 4, 4));
  for (size_t i = 0; i < 16; ++i) {
    if (punch[i * 4 + 3] == 0) {
      for (float v : punched[i].c) CHECK(v == 0.0f);
    } else {
      CHECK(punched[i].c[3] == 1.0f);
      // Green has no modifier offset in the client data: within b of the base; red and blue exact only when the
      // half's mean falls on the base, so all three are checked against the client within the table's step.
      for (size_t ch = 0; ch < 3; ++ch) CHECK(std::fabs(punched[i].c[ch] - punch[i * 4 + ch] / 255.0f) <= 30.0f / 255);
    }
  }
  // EAC: R11 / RG11 from float texels an EAC block holds exactly: unsigned (100 * 8 + 4 + 16 m) / 2047 with table
  // 0's modifiers (multiplier 2), signed (-20 * 8 + 24 m) / 1023 with table 2's (multiplier 3).
  constexpr int kTable0[8] = {-3, -6, -9, -15, 2, 5, 8, 14}, kTable2[8] = {-2, -5, -8, -13, 1, 4, 7, 12};
  std::vector<float> r_unsigned(16 * 4, 1.0f), r_signed(16 * 4, 1.0f);
  for (size_t i = 0; i < 16; ++i) {
    r_unsigned[i * 4] = static_cast<float>(804 + 16 * kTable0[i % 8]) / 2047.0f;
    r_unsigned[i * 4 + 1] = static_cast<float>(804 + 16 * kTable0[(i + 3) % 8]) / 2047.0f;
    r_signed[i * 4] = static_cast<float>(-160 + 24 * kTable2[i % 8]) / 1023.0f;
    r_signed[i * 4 + 1] = static_cast<float>(-160 + 24 * kTable2[(i + 5) % 8]) / 1023.0f;
  }
  struct EacCase {
    GLenum format;
    const std::vector<float>* texels;
    int channels;
    double step;  // the storage's (R16 / R16_SNORM) unit
  };
  for (const EacCase& c : {EacCase{GL_COMPRESSED_R11_EAC, &r_unsigned, 1, 1.0 / 65535},
                           EacCase{GL_COMPRESSED_RG11_EAC, &r_unsigned, 2, 1.0 / 65535},
                           EacCase{GL_COMPRESSED_SIGNED_R11_EAC, &r_signed, 1, 1.0 / 32767},
                           EacCase{GL_COMPRESSED_SIGNED_RG11_EAC, &r_signed, 2, 1.0 / 32767}}) {
    INFO("format " << std::hex << c.format);
    GLuint t = 0;
    glGenTextures(1, &t);
    glBindTexture(GL_TEXTURE_2D, t);
    glTexImage2D(GL_TEXTURE_2D, 0, static_cast<GLint>(c.format), 4, 4, 0, GL_RGBA, GL_FLOAT, c.texels->data());
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    const auto got = fetch(program, t, 4, 4);
    CHECK(got == fetch(program, uploaded(c.format, 4, 4, blocks_of(t, c.channels == 1 ? 8u : 16u)), 4, 4));
    for (size_t i = 0; i < 16; ++i) {
      for (size_t ch = 0; ch < static_cast<size_t>(c.channels); ++ch)
        CHECK(got[i].c[ch] == Approx((*c.texels)[i * 4 + ch]).margin(c.step));
    }
  }
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}
