// Compressed textures stored in Vulkan's block formats (docs/gl_shim.md "Compressed textures", native storage;
// BISMUTH_COMPRESSED_TEXTURES=decode forces the decoded storage, ctest gl:compressed_textures_decode). What the GL
// sees must not depend on the storage: texelFetch and filtered lookups return the spec's decoding of the blocks
// (GL 4.6 §8.7), glGetTexImage the decoded texels (§8.11.4), glGetCompressedTexImage the blocks byte for byte. A
// debug context's low-severity messages name the Vulkan format each compressed storage took and the device memory
// glTexStorage's image has: the proof that the image really is native (no test-only GL entry point).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "translator/gl/gl_fixture.hpp"

using namespace bismuth::gltest;

#ifndef GL_COMPRESSED_RGB_S3TC_DXT1_EXT
#define GL_COMPRESSED_RGB_S3TC_DXT1_EXT 0x83F0
#define GL_COMPRESSED_RGBA_S3TC_DXT5_EXT 0x83F3
#endif

namespace {

bool decode_forced() {
  const char* v = std::getenv("BISMUTH_COMPRESSED_TEXTURES");
  return v != nullptr && std::string(v) == "decode";
}

// lavapipe (Mesa 22.3, the device the plain runs use) has textureCompressionBC with every BC format sampled,
// filtered and copied, and no textureCompressionETC2: its BC textures must be native, its ETC2 ones decoded.
bool on_lavapipe() {
  const auto* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  return renderer != nullptr && std::string(renderer).find("llvmpipe") != std::string::npos;
}

// The text of the last message that contains `text`, empty when none.
std::string last_message(const GlContext& gl, const std::string& text) {
  std::string found;
  for (const auto& m : gl.messages()) {
    if (m.text.find(text) != std::string::npos) found = m.text;
  }
  return found;
}

struct Storage {
  GLenum format;
  const char* gl_name;
  const char* native;   // the Vulkan block format (Vulkan appendix C's mapping)
  const char* decoded;  // the storage the blocks are decoded into otherwise
  bool etc2;
};

constexpr Storage kStorages[] = {
    {GL_COMPRESSED_RGB_S3TC_DXT1_EXT, "GL_COMPRESSED_RGB_S3TC_DXT1_EXT", "VK_FORMAT_BC1_RGB_UNORM_BLOCK",
     "VK_FORMAT_R8G8B8A8_UNORM", false},
    {GL_COMPRESSED_RGBA_S3TC_DXT5_EXT, "GL_COMPRESSED_RGBA_S3TC_DXT5_EXT", "VK_FORMAT_BC3_UNORM_BLOCK",
     "VK_FORMAT_R8G8B8A8_UNORM", false},
    {GL_COMPRESSED_RED_RGTC1, "GL_COMPRESSED_RED_RGTC1", "VK_FORMAT_BC4_UNORM_BLOCK", "VK_FORMAT_R16_UNORM", false},
    {GL_COMPRESSED_SIGNED_RG_RGTC2, "GL_COMPRESSED_SIGNED_RG_RGTC2", "VK_FORMAT_BC5_SNORM_BLOCK",
     "VK_FORMAT_R16G16_SNORM", false},
    {GL_COMPRESSED_RGB_BPTC_UNSIGNED_FLOAT, "GL_COMPRESSED_RGB_BPTC_UNSIGNED_FLOAT", "VK_FORMAT_BC6H_UFLOAT_BLOCK",
     "VK_FORMAT_R16G16B16A16_SFLOAT", false},
    {GL_COMPRESSED_RGBA_BPTC_UNORM, "GL_COMPRESSED_RGBA_BPTC_UNORM", "VK_FORMAT_BC7_UNORM_BLOCK",
     "VK_FORMAT_R8G8B8A8_UNORM", false},
    {GL_COMPRESSED_SRGB_ALPHA_BPTC_UNORM, "GL_COMPRESSED_SRGB_ALPHA_BPTC_UNORM", "VK_FORMAT_BC7_SRGB_BLOCK",
     "VK_FORMAT_R8G8B8A8_SRGB", false},
    {GL_COMPRESSED_RGBA8_ETC2_EAC, "GL_COMPRESSED_RGBA8_ETC2_EAC", "VK_FORMAT_ETC2_R8G8B8A8_UNORM_BLOCK",
     "VK_FORMAT_R8G8B8A8_UNORM", true},
};

constexpr const char* kFetchLevel =
    "#version 430\n"
    "layout(local_size_x = 1) in;\n"
    "layout(binding = 0) uniform sampler2D tex;\n"
    "layout(std430, binding = 0) buffer Out { vec4 texels[]; };\n"
    "uniform int level;\n"
    "void main() {\n"
    "  ivec2 p = ivec2(gl_GlobalInvocationID.xy);\n"
    "  texels[p.y * int(gl_NumWorkGroups.x) + p.x] = texelFetch(tex, p, level);\n"
    "}\n";

// textureLod at the corner shared by texels (2x, 2y) .. (2x + 1, 2y + 1) of level 0: the LINEAR filter's weights are
// all 1/4 there (§8.14.2), exact at any sub-texel precision.
constexpr const char* kFilterCorners =
    "#version 430\n"
    "layout(local_size_x = 1) in;\n"
    "layout(binding = 0) uniform sampler2D tex;\n"
    "layout(std430, binding = 0) buffer Out { vec4 texels[]; };\n"
    "void main() {\n"
    "  ivec2 p = ivec2(gl_GlobalInvocationID.xy);\n"
    "  vec2 size = vec2(textureSize(tex, 0));\n"
    "  texels[p.y * int(gl_NumWorkGroups.x) + p.x] = textureLod(tex, vec2(2 * p + 1) / size, 0.0);\n"
    "}\n";

std::vector<float> dispatch(GLuint program, GLuint texture, int w, int h, int level) {
  const GLuint out = make_buffer(static_cast<GLsizeiptr>(w * h * 16));
  glUseProgram(program);
  const GLint at = glGetUniformLocation(program, "level");
  if (at >= 0) glUniform1i(at, level);
  glBindTextureUnit(0, texture);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, out);
  glDispatchCompute(static_cast<GLuint>(w), static_cast<GLuint>(h), 1);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  std::vector<float> r(static_cast<size_t>(w * h * 4));
  glGetNamedBufferSubData(out, 0, static_cast<GLsizeiptr>(r.size() * 4), r.data());
  glDeleteBuffers(1, &out);
  return r;
}

// GL 4.6 §8.24: an sRGB texel's R, G and B are converted to linear when fetched.
float linear(float cs) {
  return cs <= 0.04045f ? cs / 12.92f : std::pow((cs + 0.055f) / 1.055f, 2.4f);
}

}  // namespace

TEST_CASE("compressed textures are stored in Vulkan's block formats where the device samples them",
          "[compressed][native]") {
  GlContext gl(4, 6, true);
  const bool lavapipe = on_lavapipe();
  for (const Storage& s : kStorages) {
    CAPTURE(s.gl_name);
    gl.clear_messages();
    GLuint t = 0;
    glCreateTextures(GL_TEXTURE_2D, 1, &t);
    glTextureStorage2D(t, 3, s.format, 12, 8);
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    const std::string native = std::string("glTextureStorage2D: ") + s.gl_name + " stored natively as " + s.native;
    const std::string decoded =
        std::string("glTextureStorage2D: ") + s.gl_name + " decoded on upload into " + s.decoded;
    const bool is_native = !last_message(gl, native).empty();
    const bool is_decoded = !last_message(gl, decoded).empty();
    CHECK(is_native != is_decoded);  // exactly one of the two
    if (decode_forced()) {
      CHECK_FALSE(is_native);
    } else if (lavapipe) {
      CHECK(is_native == !s.etc2);
    }
    // The image glTextureStorage2D made is of that format.
    CHECK_FALSE(
        last_message(gl, std::string(": ") + (is_native ? s.native : s.decoded) + " image of 3 level(s)").empty());
    glDeleteTextures(1, &t);
  }
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("natively stored blocks: partial edge blocks, levels below a block, filtering and reads (GL 4.6 §8.7)",
          "[compressed][native]") {
  GlContext gl;
  const GLuint fetch = make_program(kFetchLevel);
  const GLuint corners = make_program(kFilterCorners);
  struct Format {
    GLenum format;
    const char* name;
    uint32_t block_bytes;
    float margin;  // texelFetch against glGetTexImage's CPU decoding
  };
  // BC7's texels are 8-bit integers in the spec (the BPTC chapter's interpolation is integer arithmetic): exact.
  // BC1's interpolants are exact real values the device may decode in 8 bits (texture_compressed_test.cpp,
  // device_margin: the H100 reads BC1's 65/255 as 63/255): four 8-bit steps; RGBA8 storage rounds them to the
  // nearest step when decoded on upload.
  const Format formats[] = {{GL_COMPRESSED_RGBA_BPTC_UNORM, "BC7", 16, 1e-6f},
                            {GL_COMPRESSED_RGB_S3TC_DXT1_EXT, "BC1", 8, 4.0f / 255.0f}};
  std::mt19937 random(18);
  for (const Format& f : formats) {
    CAPTURE(f.name);
    // 10x6: a partial block column and row at the edges; level 1 is 5x3, level 2 (2x1) is smaller than a block.
    GLuint t = 0;
    glCreateTextures(GL_TEXTURE_2D, 1, &t);
    glTextureStorage2D(t, 3, f.format, 10, 6);
    glTextureParameteri(t, GL_TEXTURE_MIN_FILTER, GL_NEAREST_MIPMAP_NEAREST);
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    std::vector<std::vector<uint8_t>> blocks(3);
    for (int level = 0; level < 3; ++level) {
      const int w = std::max(1, 10 >> level), h = std::max(1, 6 >> level);
      const size_t bytes = static_cast<size_t>((w + 3) / 4 * ((h + 3) / 4)) * f.block_bytes;
      blocks[static_cast<size_t>(level)].resize(bytes);
      for (auto& b : blocks[static_cast<size_t>(level)]) b = static_cast<uint8_t>(random());
      // BC7: no block of the reserved mode 8 (a first byte of zero), whose texels the spec leaves to the decoder.
      if (f.block_bytes == 16) {
        for (size_t i = 0; i < bytes; i += 16) blocks[static_cast<size_t>(level)][i] |= 1u << (random() % 8);
      }
      glCompressedTextureSubImage2D(t, level, 0, 0, w, h, f.format, static_cast<GLsizei>(bytes),
                                    blocks[static_cast<size_t>(level)].data());
      REQUIRE_GL_ERROR(GL_NO_ERROR);
    }
    for (int level = 0; level < 3; ++level) {
      CAPTURE(level);
      const int w = std::max(1, 10 >> level), h = std::max(1, 6 >> level);
      // §8.11.4: GetCompressedTexImage returns the blocks as they were given.
      std::vector<uint8_t> back(blocks[static_cast<size_t>(level)].size(), 0xCD);
      glGetCompressedTextureImage(t, level, static_cast<GLsizei>(back.size()), back.data());
      CHECK(back == blocks[static_cast<size_t>(level)]);
      // glGetTexImage: the CPU decoding of the kept blocks; texelFetch: the device's (native) or the decoded
      // storage's.
      std::vector<float> decoded(static_cast<size_t>(w * h * 4), -1.0f);
      glGetTextureImage(t, level, GL_RGBA, GL_FLOAT, static_cast<GLsizei>(decoded.size() * 4), decoded.data());
      REQUIRE_GL_ERROR(GL_NO_ERROR);
      const auto fetched = dispatch(fetch, t, w, h, level);
      for (size_t i = 0; i < decoded.size(); ++i) {
        CAPTURE(i);
        CHECK(fetched[i] == Approx(decoded[i]).margin(f.margin));
      }
    }
    // §15.2.1: the texture swizzle applies to every lookup, texelFetch included (natively: the component mapping of
    // a view of the block image).
    const GLint abgr[] = {GL_ALPHA, GL_BLUE, GL_GREEN, GL_RED};
    glTextureParameteriv(t, GL_TEXTURE_SWIZZLE_RGBA, abgr);
    {
      std::vector<float> decoded(10 * 6 * 4);
      glGetTextureImage(t, 0, GL_RGBA, GL_FLOAT, static_cast<GLsizei>(decoded.size() * 4), decoded.data());
      const auto swizzled = dispatch(fetch, t, 10, 6, 0);
      for (size_t i = 0; i < decoded.size(); i += 4) {
        CAPTURE(i);
        for (size_t c = 0; c < 4; ++c) CHECK(swizzled[i + c] == Approx(decoded[i + 3 - c]).margin(f.margin));
      }
    }
    const GLint rgba[] = {GL_RED, GL_GREEN, GL_BLUE, GL_ALPHA};
    glTextureParameteriv(t, GL_TEXTURE_SWIZZLE_RGBA, rgba);
    // LINEAR filtering of level 0 at texel corners: the mean of the four texels (within the margin plus the
    // filter's own rounding, one 8-bit step).
    glTextureParameteri(t, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTextureParameteri(t, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    std::vector<float> level0(10 * 6 * 4);
    glGetTextureImage(t, 0, GL_RGBA, GL_FLOAT, static_cast<GLsizei>(level0.size() * 4), level0.data());
    const auto filtered = dispatch(corners, t, 5, 3, 0);
    for (int y = 0; y < 3; ++y) {
      for (int x = 0; x < 5; ++x) {
        for (int c = 0; c < 4; ++c) {
          float mean = 0.0f;
          for (int dy = 0; dy < 2; ++dy) {
            for (int dx = 0; dx < 2; ++dx)
              mean += level0[static_cast<size_t>(((2 * y + dy) * 10 + 2 * x + dx) * 4 + c)];
          }
          CHECK(filtered[static_cast<size_t>((y * 5 + x) * 4 + c)] ==
                Approx(mean / 4.0f).margin(f.margin + 1.0f / 255.0f));
        }
      }
    }
    glDeleteTextures(1, &t);
  }
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("an sRGB view of linear BPTC blocks decodes sRGB (GL 4.6 §8.18, §8.24)", "[compressed][native]") {
  GlContext gl;
  const GLuint fetch = make_program(kFetchLevel);
  std::mt19937 random(24);
  std::vector<uint8_t> blocks(16 * 4);
  for (auto& b : blocks) b = static_cast<uint8_t>(random());
  for (size_t i = 0; i < blocks.size(); i += 16) blocks[i] |= 1u << (random() % 8);  // no reserved mode 8
  GLuint t = 0, view = 0;
  glCreateTextures(GL_TEXTURE_2D, 1, &t);
  glTextureStorage2D(t, 1, GL_COMPRESSED_RGBA_BPTC_UNORM, 8, 8);
  glCompressedTextureSubImage2D(t, 0, 0, 0, 8, 8, GL_COMPRESSED_RGBA_BPTC_UNORM, 64, blocks.data());
  glGenTextures(1, &view);
  glTextureView(view, GL_TEXTURE_2D, t, GL_COMPRESSED_SRGB_ALPHA_BPTC_UNORM, 0, 1, 0, 1);
  glTextureParameteri(t, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTextureParameteri(view, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  const auto unorm = dispatch(fetch, t, 8, 8, 0);
  const auto srgb = dispatch(fetch, view, 8, 8, 0);
  // The view reads the same blocks as SRGB_ALPHA_BPTC_UNORM: its R, G, B are the linear texture's values
  // converted from sRGB, its alpha the same (natively: a BC7_SRGB view of the BC7_UNORM image; decoded: an
  // R8G8B8A8_SRGB view of the R8G8B8A8_UNORM one).
  for (size_t i = 0; i < unorm.size(); ++i) {
    CAPTURE(i);
    if (i % 4 == 3) {
      CHECK(srgb[i] == Approx(unorm[i]).margin(1e-6));
    } else {
      CHECK(srgb[i] == Approx(linear(unorm[i])).margin(0.01));  // half an 8-bit step of the encoded value
    }
  }
  glDeleteTextures(1, &view);
  glDeleteTextures(1, &t);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("device memory of a 4096x4096 BC1 and BC7 texture, native and decoded", "[compressed][native]") {
  GlContext gl(4, 6, true);
  struct Case {
    GLenum format;
    const char* name;
    uint64_t block_bytes;
  };
  for (const Case& c :
       {Case{GL_COMPRESSED_RGB_S3TC_DXT1_EXT, "BC1", 8}, Case{GL_COMPRESSED_RGBA_BPTC_UNORM, "BC7", 16}}) {
    CAPTURE(c.name);
    gl.clear_messages();
    GLuint t = 0;
    glCreateTextures(GL_TEXTURE_2D, 1, &t);
    glTextureStorage2D(t, 1, c.format, 4096, 4096);
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    const std::string m = last_message(gl, "bytes of device memory");
    REQUIRE_FALSE(m.empty());
    const size_t colon = m.rfind(": ");
    const uint64_t bytes = std::stoull(m.substr(colon + 2));
    const uint64_t blocks = 1024ull * 1024ull * c.block_bytes;  // (4096 / 4)^2 blocks
    const uint64_t texels = 4096ull * 4096ull * 4;              // the RGBA8 decoded storage
    std::printf("%s 4096x4096, %s: %llu bytes (%s)\n", c.name, decode_forced() ? "decoded" : "native",
                static_cast<unsigned long long>(bytes), m.c_str());
    if (decode_forced()) {
      CHECK(bytes >= texels);
    } else if (on_lavapipe()) {
      CHECK(bytes >= blocks);
      CHECK(bytes < texels / 2);  // at most an eighth (BC1) or a quarter (BC7) of it, plus alignment
    }
    glDeleteTextures(1, &t);
  }
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}
