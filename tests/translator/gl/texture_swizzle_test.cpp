// Texture swizzle (GL 4.6 §8.10 TEXTURE_SWIZZLE_R/G/B/A/RGBA, applied in §15.2.1 "Texture Access"): the shim maps
// it to the Vulkan image view's component mapping (docs/gl_shim.md, "Textures and images at dispatch").
#include <cstdlib>
#include <string>
#include <vector>

#include "translator/gl/asm_program_support.hpp"
#include "translator/gl/gl_fixture.hpp"

using namespace bismuth::gltest;

namespace {

constexpr const char* kSampleProgram =
    "#version 430\n"
    "layout(local_size_x = 1) in;\n"
    "layout(binding = 0) uniform sampler2D tex;\n"
    "layout(std430, binding = 0) buffer Out { vec4 sampled; vec4 fetched; };\n"
    "void main() {\n"
    "  sampled = texture(tex, vec2(0.25, 0.25));\n"
    "  fetched = texelFetch(tex, ivec2(1, 0), 0);\n"
    "}\n";

struct Results {
  float sampled[4], fetched[4];
};

Results run(GLuint program, GLuint texture, GLuint out) {
  glUseProgram(program);
  glBindTextureUnit(0, texture);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, out);
  glDispatchCompute(1, 1, 1);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  Results r{};
  glGetNamedBufferSubData(out, 0, sizeof r, &r);
  return r;
}

}  // namespace

TEST_CASE("texture swizzle reorders, zeroes and fills the components of lookups (GL 4.6 §8.10, §15.2.1)", "[swizzle]") {
  GlContext gl;
  const GLuint program = make_program(kSampleProgram);
  const GLuint out = make_buffer(32);
  // Two texels, (10, 20, 30, 40) and (50, 60, 70, 80) / 255.
  GLuint t = 0;
  glCreateTextures(GL_TEXTURE_2D, 1, &t);
  glTextureStorage2D(t, 1, GL_RGBA8, 2, 1);
  const uint8_t texels[8] = {10, 20, 30, 40, 50, 60, 70, 80};
  glTextureSubImage2D(t, 0, 0, 0, 2, 1, GL_RGBA, GL_UNSIGNED_BYTE, texels);
  glTextureParameteri(t, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTextureParameteri(t, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  auto value = [&](int texel, GLenum swizzle, int own) -> float {
    // §15.2.1: "the value of TEXTURE_SWIZZLE_R (…G, B, A) selects the component: RED, GREEN, BLUE and ALPHA the
    // value of that component, ZERO 0 and ONE 1".
    switch (swizzle) {
      case GL_RED: return texels[texel * 4 + 0] / 255.0f;
      case GL_GREEN: return texels[texel * 4 + 1] / 255.0f;
      case GL_BLUE: return texels[texel * 4 + 2] / 255.0f;
      case GL_ALPHA: return texels[texel * 4 + 3] / 255.0f;
      case GL_ZERO: return 0.0f;
      case GL_ONE: return 1.0f;
      default: return texels[texel * 4 + own] / 255.0f;
    }
  };
  const GLint swizzles[][4] = {{GL_RED, GL_GREEN, GL_BLUE, GL_ALPHA},
                               {GL_BLUE, GL_ZERO, GL_ONE, GL_RED},
                               {GL_ALPHA, GL_ALPHA, GL_GREEN, GL_ONE},
                               {GL_ZERO, GL_ONE, GL_RED, GL_BLUE}};
  for (const auto& s : swizzles) {
    CAPTURE(s[0], s[1], s[2], s[3]);
    // Half the cases through the four scalar pnames, half through SWIZZLE_RGBA.
    if (s[0] == GL_BLUE || s[0] == GL_ZERO) {
      glTextureParameteriv(t, GL_TEXTURE_SWIZZLE_RGBA, s);
    } else {
      for (int c = 0; c < 4; ++c) glTextureParameteri(t, GL_TEXTURE_SWIZZLE_R + static_cast<GLenum>(c), s[c]);
    }
    const Results r = run(program, t, out);
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    for (int c = 0; c < 4; ++c) {
      CHECK(r.sampled[c] == Approx(value(0, static_cast<GLenum>(s[c]), c)).margin(1e-6));
      // texelFetch is a texture lookup too (§11.1.3.2, §15.2.1): swizzled the same way.
      CHECK(r.fetched[c] == Approx(value(1, static_cast<GLenum>(s[c]), c)).margin(1e-6));
    }
  }
  // Swizzle is texture state, not sampler state (§8.2: a sampler object holds the state of table 23.18, which has
  // no swizzle): with a sampler object bound to the unit the texture's swizzle still applies.
  GLuint sampler = 0;
  glGenSamplers(1, &sampler);
  glSamplerParameteri(sampler, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glSamplerParameteri(sampler, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glBindSampler(0, sampler);
  const Results with_sampler = run(program, t, out);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  const GLint* last = swizzles[3];
  for (int c = 0; c < 4; ++c) {
    CHECK(with_sampler.sampled[c] == Approx(value(0, static_cast<GLenum>(last[c]), c)).margin(1e-6));
  }
  glBindSampler(0, 0);
  glDeleteSamplers(1, &sampler);
  glDeleteTextures(1, &t);
  glDeleteBuffers(1, &out);
  glDeleteProgram(program);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("swizzle applies after the base format's components are filled in (GL 4.6 §15.2.1, table 15.1)",
          "[swizzle]") {
  GlContext gl;
  const GLuint program = make_program(kSampleProgram);
  const GLuint out = make_buffer(32);
  // An R8 texture reads (R, 0, 0, 1) (table 15.1); a luminance-style swizzle (R, R, R, ONE) and one that picks the
  // filled-in components (GREEN → 0, ALPHA → 1).
  GLuint t = 0;
  glCreateTextures(GL_TEXTURE_2D, 1, &t);
  glTextureStorage2D(t, 1, GL_R8, 2, 1);
  const uint8_t texels[2] = {51, 204};
  glTextureSubImage2D(t, 0, 0, 0, 2, 1, GL_RED, GL_UNSIGNED_BYTE, texels);
  glTextureParameteri(t, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  const GLint luminance[4] = {GL_RED, GL_RED, GL_RED, GL_ONE};
  glTextureParameteriv(t, GL_TEXTURE_SWIZZLE_RGBA, luminance);
  Results r = run(program, t, out);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  for (int c = 0; c < 3; ++c) {
    CHECK(r.sampled[c] == Approx(0.2f).margin(1e-6));
    CHECK(r.fetched[c] == Approx(0.8f).margin(1e-6));
  }
  CHECK(r.sampled[3] == 1.0f);
  const GLint filled[4] = {GL_ALPHA, GL_GREEN, GL_BLUE, GL_RED};
  glTextureParameteriv(t, GL_TEXTURE_SWIZZLE_RGBA, filled);
  r = run(program, t, out);
  CHECK(r.sampled[0] == 1.0f);
  CHECK(r.sampled[1] == 0.0f);
  CHECK(r.sampled[2] == 0.0f);
  CHECK(r.sampled[3] == Approx(0.2f).margin(1e-6));
  // An RGB8 texture (stored with alpha 1): ALPHA reads 1 (table 15.1: A = 1 for RGB).
  GLuint rgb = 0;
  glCreateTextures(GL_TEXTURE_2D, 1, &rgb);
  glTextureStorage2D(rgb, 1, GL_RGB8, 2, 1);
  const uint8_t rgb_texels[6] = {0, 51, 102, 153, 204, 255};
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glTextureSubImage2D(rgb, 0, 0, 0, 2, 1, GL_RGB, GL_UNSIGNED_BYTE, rgb_texels);
  glTextureParameteri(rgb, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  const GLint reversed[4] = {GL_ALPHA, GL_BLUE, GL_GREEN, GL_RED};
  glTextureParameteriv(rgb, GL_TEXTURE_SWIZZLE_RGBA, reversed);
  r = run(program, rgb, out);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  CHECK(r.fetched[0] == 1.0f);
  CHECK(r.fetched[1] == Approx(1.0f).margin(1e-6));
  CHECK(r.fetched[2] == Approx(0.8f).margin(1e-6));
  CHECK(r.fetched[3] == Approx(0.6f).margin(1e-6));
  glDeleteTextures(1, &rgb);
  glDeleteTextures(1, &t);
  glDeleteBuffers(1, &out);
  glDeleteProgram(program);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("image loads ignore the texture swizzle (GL 4.6 §8.26)", "[swizzle]") {
  GlContext gl;
  // §8.26 / §11.1.3.5: an image load converts the texel's bits by the image unit's format; texture swizzle is part
  // of texture lookups only (§15.2.1), so the same texture reads unswizzled through an image unit while a sampler
  // in the same dispatch sees the swizzle.
  const GLuint program = make_program(
      "#version 430\n"
      "layout(local_size_x = 1) in;\n"
      "layout(binding = 0) uniform sampler2D tex;\n"
      "layout(binding = 0, rgba8) readonly uniform image2D img;\n"
      "layout(std430, binding = 0) buffer Out { vec4 sampled; vec4 loaded; };\n"
      "void main() {\n"
      "  sampled = texelFetch(tex, ivec2(0, 0), 0);\n"
      "  loaded = imageLoad(img, ivec2(0, 0));\n"
      "}\n");
  GLuint t = 0;
  glCreateTextures(GL_TEXTURE_2D, 1, &t);
  glTextureStorage2D(t, 1, GL_RGBA8, 1, 1);
  const uint8_t texel[4] = {255, 0, 51, 102};
  glTextureSubImage2D(t, 0, 0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, texel);
  const GLint swizzle[4] = {GL_ALPHA, GL_BLUE, GL_GREEN, GL_RED};
  glTextureParameteriv(t, GL_TEXTURE_SWIZZLE_RGBA, swizzle);
  glTextureParameteri(t, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glBindImageTexture(0, t, 0, GL_FALSE, 0, GL_READ_ONLY, GL_RGBA8);
  const GLuint out = make_buffer(32);
  const Results r = run(program, t, out);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  const float expected_sampled[4] = {0.4f, 0.2f, 0.0f, 1.0f};
  const float expected_loaded[4] = {1.0f, 0.0f, 0.2f, 0.4f};
  for (int c = 0; c < 4; ++c) {
    CHECK(r.sampled[c] == Approx(expected_sampled[c]).margin(1e-6));
    CHECK(r.fetched[c] == Approx(expected_loaded[c]).margin(1e-6));
  }
  glDeleteTextures(1, &t);
  glDeleteBuffers(1, &out);
  glDeleteProgram(program);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

// The border colour stands in for a texel outside the image (GL 4.6 §8.14.2, CLAMP_TO_BORDER) and §15.2.1 applies
// TEXTURE_SWIZZLE_* to the lookup's result, so a border colour is swizzled like a texel. Vulkan defines that for
// custom and opaque-black border colours with a swizzled view through VK_EXT_border_color_swizzle (the backend
// names the mapping on the sampler where the device wants it); without it (ctest gl:no_border_color_swizzle,
// BISMUTH_BORDER_COLOR_SWIZZLE=off) the shim binds an identity view and swizzles the lookups in the shader, which
// must give the same texels, border and gathers: textureGather gathers the component the swizzle selects (§8.14.2's
// "the swizzle ... is applied" before the component is chosen), texelFetch is swizzled too.
TEST_CASE("the border colour is swizzled like a texel (GL 4.6 §8.14.2, §15.2.1)", "[swizzle][border]") {
  GlContext gl;
  const GLuint program = make_program(
      "#version 430\n"
      "layout(local_size_x = 1) in;\n"
      "layout(binding = 0) uniform sampler2D tex;\n"
      "layout(binding = 1) uniform usampler2D utex;\n"
      "layout(std430, binding = 0) buffer Out { vec4 border; vec4 inside; uvec4 uborder; vec4 gathered[4];\n"
      "                                          vec4 fetched; };\n"
      "void main() {\n"
      "  border = texture(tex, vec2(-1.0, -1.0));\n"
      "  inside = texture(tex, vec2(0.25, 0.5));\n"
      "  uborder = texture(utex, vec2(2.0, 0.5));\n"
      "  gathered[0] = textureGather(tex, vec2(-1.0, -1.0), 0);\n"
      "  gathered[1] = textureGather(tex, vec2(-1.0, -1.0), 1);\n"
      "  gathered[2] = textureGather(tex, vec2(-1.0, -1.0), 2);\n"
      "  gathered[3] = textureGather(tex, vec2(-1.0, -1.0), 3);\n"
      "  fetched = texelFetch(tex, ivec2(1, 0), 0);\n"
      "}\n");
  const GLuint out = make_buffer(128);
  GLuint t = 0, u = 0;
  glCreateTextures(GL_TEXTURE_2D, 1, &t);
  glTextureStorage2D(t, 1, GL_RGBA8, 2, 1);
  const uint8_t texels[8] = {10, 20, 30, 40, 50, 60, 70, 80};
  glTextureSubImage2D(t, 0, 0, 0, 2, 1, GL_RGBA, GL_UNSIGNED_BYTE, texels);
  glCreateTextures(GL_TEXTURE_2D, 1, &u);
  glTextureStorage2D(u, 1, GL_RGBA32UI, 1, 1);
  const uint32_t utexel[4] = {1, 2, 3, 4};
  glTextureSubImage2D(u, 0, 0, 0, 1, 1, GL_RGBA_INTEGER, GL_UNSIGNED_INT, utexel);
  for (GLuint x : {t, u}) {
    glTextureParameteri(x, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTextureParameteri(x, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTextureParameteri(x, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_BORDER);
    glTextureParameteri(x, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_BORDER);
  }
  const GLint swizzle[4] = {GL_BLUE, GL_ALPHA, GL_ONE, GL_RED};
  glTextureParameteriv(t, GL_TEXTURE_SWIZZLE_RGBA, swizzle);
  const GLint uswizzle[4] = {GL_ALPHA, GL_ZERO, GL_RED, GL_GREEN};
  glTextureParameteriv(u, GL_TEXTURE_SWIZZLE_RGBA, uswizzle);
  const GLuint uborder[4] = {7, 8, 9, 10};
  glTextureParameterIuiv(u, GL_TEXTURE_BORDER_COLOR, uborder);
  // The lookup's RGBA before the swizzle, then the swizzle's selection (RED..ALPHA a component, ZERO 0, ONE 1).
  auto swizzled = [](const float rgba[4], const GLint s[4], int c) -> float {
    switch (s[c]) {
      case GL_RED: return rgba[0];
      case GL_GREEN: return rgba[1];
      case GL_BLUE: return rgba[2];
      case GL_ALPHA: return rgba[3];
      case GL_ZERO: return 0.0f;
      default: return 1.0f;
    }
  };
  // A custom colour, opaque black and opaque white (the last two are Vulkan's built-in border colours).
  const float borders[][4] = {{0.25f, 0.5f, 0.75f, 0.125f}, {0, 0, 0, 1}, {1, 1, 1, 1}};
  glBindTextureUnit(0, t);
  glBindTextureUnit(1, u);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, out);
  glUseProgram(program);
  for (const auto& b : borders) {
    CAPTURE(b[0], b[1], b[2], b[3]);
    glTextureParameterfv(t, GL_TEXTURE_BORDER_COLOR, b);
    glDispatchCompute(1, 1, 1);
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    struct {
      float border[4], inside[4];
      uint32_t uborder[4];
      float gathered[4][4], fetched[4];
    } r{};
    glGetNamedBufferSubData(out, 0, sizeof r, &r);
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    const float texel0[4] = {10 / 255.0f, 20 / 255.0f, 30 / 255.0f, 40 / 255.0f};
    const float texel1[4] = {50 / 255.0f, 60 / 255.0f, 70 / 255.0f, 80 / 255.0f};
    for (int c = 0; c < 4; ++c) {
      CAPTURE(c);
      CHECK(r.fetched[c] == Approx(swizzled(texel1, swizzle, c)).margin(1e-6));
      // All four gathered texels are border texels: component c of the swizzled border.
      for (int k = 0; k < 4; ++k) {
        CHECK(r.gathered[c][k] == Approx(swizzled(b, swizzle, c)).margin(0.5 / 255.0 + 1e-6));
      }
      // Within half a unit of RGBA8: NVIDIA's H100 returns the border colour rounded to the texture format's
      // precision (0.75 as 191/255), which VK_EXT_custom_border_color allows ("may be converted to the format's
      // precision") and GL's "interpreted ... to match the texture's internal format" (§8.14.2) does not forbid.
      CHECK(r.border[c] == Approx(swizzled(b, swizzle, c)).margin(0.5 / 255.0 + 1e-6));
      CHECK(r.inside[c] == Approx(swizzled(texel0, swizzle, c)).margin(1e-6));
    }
    // The integer border colour of TEXTURE_BORDER_COLOR set with TexParameterIuiv, swizzled (ALPHA, ZERO, RED,
    // GREEN): (10, 0, 7, 8).
    const uint32_t expected[4] = {uborder[3], 0, uborder[0], uborder[1]};
    for (int c = 0; c < 4; ++c) CHECK(r.uborder[c] == expected[c]);
  }
  // BISMUTH_BORDER_COLOR_SWIZZLE=off: the swizzle went to the shader (the shim says so once per program).
  const char* off = std::getenv("BISMUTH_BORDER_COLOR_SWIZZLE");
  if (off != nullptr && std::string(off) == "off") CHECK(gl.saw_message_containing("swizzles in the shader"));
  const GLuint textures[2] = {t, u};
  glDeleteTextures(2, textures);
  glDeleteBuffers(1, &out);
  glDeleteProgram(program);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

// The same for an assembly program's TEX (NV_gpu_program4's texture lookups return the swizzled texel, GL 4.6
// §15.2.1): the border colour of CLAMP_TO_BORDER swizzled like a texel, through VK_EXT_border_color_swizzle or, under
// gl:no_border_color_swizzle, the program's second module with the swizzle in the shader.
TEST_CASE("assembly TEX swizzles the border colour like a texel (GL 4.6 §8.14.2, §15.2.1)", "[swizzle][border][asm]") {
  GlContext gl;
  const std::string source =
      "!!NVcp5.0\nOPTION NV_shader_storage_buffer;\nGROUP_SIZE 1;\n"
      "STORAGE out[] = { program.storage[0] };\nTEMP R0, R1;\n"
      "TEX.F R0, {-1.0, -1.0, 0, 0}, texture[0], 2D;\nSTB.U32X4 R0, out[0];\n"
      "TEX.F R1, {0.25, 0.5, 0, 0}, texture[0], 2D;\nSTB.U32X4 R1, out[16];\nEND\n";
  GLuint name = 0;
  glGenProgramsARB(1, &name);
  glBindProgramARB(GL_COMPUTE_PROGRAM_NV, name);
  REQUIRE(asm_program::load(source) == GL_NO_ERROR);
  glEnable(GL_COMPUTE_PROGRAM_NV);
  GLuint t = 0;
  glCreateTextures(GL_TEXTURE_2D, 1, &t);
  glTextureStorage2D(t, 1, GL_RGBA8, 2, 1);
  const uint8_t texels[8] = {10, 20, 30, 40, 50, 60, 70, 80};
  glTextureSubImage2D(t, 0, 0, 0, 2, 1, GL_RGBA, GL_UNSIGNED_BYTE, texels);
  glTextureParameteri(t, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTextureParameteri(t, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glTextureParameteri(t, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_BORDER);
  glTextureParameteri(t, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_BORDER);
  const GLint swizzle[4] = {GL_ALPHA, GL_ONE, GL_RED, GL_ZERO};
  glTextureParameteriv(t, GL_TEXTURE_SWIZZLE_RGBA, swizzle);
  const float border[4] = {0.25f, 0.5f, 0.75f, 0.125f};
  glTextureParameterfv(t, GL_TEXTURE_BORDER_COLOR, border);
  glBindTextureUnit(0, t);
  const GLuint out = make_buffer(32);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, out);
  glDispatchCompute(1, 1, 1);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  float r[8] = {};
  glGetNamedBufferSubData(out, 0, sizeof r, r);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  REQUIRE_FALSE(gl.saw_message_containing("dispatch was skipped"));
  // (ALPHA, ONE, RED, ZERO) of the border colour and of texel 0.
  const float expected_border[4] = {border[3], 1.0f, border[0], 0.0f};
  const float expected_inside[4] = {40 / 255.0f, 1.0f, 10 / 255.0f, 0.0f};
  for (int c = 0; c < 4; ++c) {
    CAPTURE(c);
    CHECK(r[c] == Approx(expected_border[c]).margin(0.5 / 255.0 + 1e-6));
    CHECK(r[4 + c] == Approx(expected_inside[c]).margin(1e-6));
  }
  const char* off = std::getenv("BISMUTH_BORDER_COLOR_SWIZZLE");
  if (off != nullptr && std::string(off) == "off") CHECK(gl.saw_message_containing("swizzles in the shader"));
  glDisable(GL_COMPUTE_PROGRAM_NV);
  glDeleteProgramsARB(1, &name);
  glDeleteTextures(1, &t);
  glDeleteBuffers(1, &out);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

// The limit of the shader swizzle (docs/gl_shim.md): a helper function called with two different samplers cannot have
// its lookup swizzled per sampler, so on a device without VK_EXT_border_color_swizzle (gl:no_border_color_swizzle) a
// dispatch that needs the swizzle there is skipped with a message rather than reading an undefined border; with the
// extension, or without a swizzle, the program gives GL's values (§8.14.2's border, §15.2.1's swizzle).
TEST_CASE("a helper shared by two samplers gets GL's border swizzle or a skipped dispatch", "[swizzle][border]") {
  GlContext gl;
  const GLuint program = make_program(
      "#version 430\n"
      "layout(local_size_x = 1) in;\n"
      "layout(binding = 0) uniform sampler2D a;\n"
      "layout(binding = 1) uniform sampler2D b;\n"
      "layout(std430, binding = 0) buffer Out { vec4 r[2]; };\n"
      "vec4 helper(sampler2D h, vec2 p) { return texture(h, p); }\n"
      "void main() {\n"
      "  r[0] = helper(a, vec2(-1.0, -1.0));\n"
      "  r[1] = helper(b, vec2(0.25, 0.5));\n"
      "}\n");
  GLuint t = 0;
  glCreateTextures(GL_TEXTURE_2D, 1, &t);
  glTextureStorage2D(t, 1, GL_RGBA8, 2, 1);
  const uint8_t texels[8] = {10, 20, 30, 40, 50, 60, 70, 80};
  glTextureSubImage2D(t, 0, 0, 0, 2, 1, GL_RGBA, GL_UNSIGNED_BYTE, texels);
  glTextureParameteri(t, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTextureParameteri(t, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glTextureParameteri(t, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_BORDER);
  glTextureParameteri(t, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_BORDER);
  const float border[4] = {0.25f, 0.5f, 0.75f, 0.125f};
  glTextureParameterfv(t, GL_TEXTURE_BORDER_COLOR, border);
  glBindTextureUnit(0, t);
  glBindTextureUnit(1, t);
  const GLuint out = make_buffer(32);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, out);
  glUseProgram(program);
  const char* env = std::getenv("BISMUTH_BORDER_COLOR_SWIZZLE");
  const bool off = env != nullptr && std::string(env) == "off";
  const GLint identity[4] = {GL_RED, GL_GREEN, GL_BLUE, GL_ALPHA};
  const GLint swizzle[4] = {GL_GREEN, GL_ZERO, GL_ALPHA, GL_RED};
  for (const GLint* s : {identity, swizzle, identity}) {
    const bool swizzled = s == swizzle;
    CAPTURE(swizzled);
    glTextureParameteriv(t, GL_TEXTURE_SWIZZLE_RGBA, s);
    const float marker[8] = {-1, -1, -1, -1, -1, -1, -1, -1};
    glNamedBufferSubData(out, 0, sizeof marker, marker);
    glDispatchCompute(1, 1, 1);
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    float r[8] = {};
    glGetNamedBufferSubData(out, 0, sizeof r, r);
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    if (off && swizzled) {
      CHECK(gl.saw_message_containing("texture swizzles cannot be applied in the shader"));
      CHECK(r[0] == -1.0f);  // skipped: nothing written
      continue;
    }
    const float texel0[4] = {10 / 255.0f, 20 / 255.0f, 30 / 255.0f, 40 / 255.0f};
    auto pick = [&](const float rgba[4], int c) {
      return s[c] == GL_ZERO ? 0.0f : s[c] == GL_ONE ? 1.0f : rgba[s[c] - GL_RED];
    };
    for (int c = 0; c < 4; ++c) {
      CAPTURE(c);
      CHECK(r[c] == Approx(pick(border, c)).margin(0.5 / 255.0 + 1e-6));
      CHECK(r[4 + c] == Approx(pick(texel0, c)).margin(1e-6));
    }
  }
  glDeleteTextures(1, &t);
  glDeleteBuffers(1, &out);
  glDeleteProgram(program);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}
