// Shadow samplers against a CPU model of GL 4.6 §8.23.1, for every compare function with NEAREST and LINEAR
// filters: texture, textureOffset, textureProj, textureLod, textureGather(shadow, ref), 2D array, cube and cube
// array shadow samplers. Tagged [depth]: ctest runs them with depth textures in depth formats (the device compares)
// and with BISMUTH_DEPTH_TEXTURES=color (gl:depth_textures_color), where lavapipe cannot compare R32_SFLOAT /
// R16_UNORM and the shim runs the program with the comparison in the shader (shadow_lowering.cpp, spirv_patch
// lower_shadow_samplers). Both must give the CPU model's results; the compare function changes between dispatches
// of one program (sampler state, no relink).
//
// The rules modelled: "r = 1.0 if D_ref OP D_t, else 0.0" for LEQUAL <=, GEQUAL >=, LESS <, GREATER >, EQUAL ==,
// NOTEQUAL !=, ALWAYS 1.0, NEVER 0.0 (table 8.23 / §8.23.1); "If the value of TEXTURE_MAG_FILTER is LINEAR, ... r
// may be computed by comparing more than one depth texture value to the texture reference value ... the resulting
// value ... should be a weighted average of the comparison results" — here the bilinear weights of §8.14.2
// (i0 = floor(u - 1/2), α = frac(u - 1/2)); textureGather with a shadow sampler returns the four comparisons
// (GLSL 4.60 §8.9.4) of texels (i0, j1), (i1, j1), (i1, j0), (i0, j0).
#include <algorithm>
#include <cmath>
#include <vector>

#include "translator/gl/asm_program_support.hpp"
#include "translator/gl/gl_fixture.hpp"

using namespace bismuth::gltest;

namespace {

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

constexpr GLenum kFuncs[] = {GL_LEQUAL, GL_GEQUAL, GL_LESS, GL_GREATER, GL_EQUAL, GL_NOTEQUAL, GL_ALWAYS, GL_NEVER};

float compare(GLenum func, float ref, float d) {
  switch (func) {
    case GL_LEQUAL: return ref <= d ? 1.0f : 0.0f;
    case GL_GEQUAL: return ref >= d ? 1.0f : 0.0f;
    case GL_LESS: return ref < d ? 1.0f : 0.0f;
    case GL_GREATER: return ref > d ? 1.0f : 0.0f;
    case GL_EQUAL: return ref == d ? 1.0f : 0.0f;
    case GL_NOTEQUAL: return ref != d ? 1.0f : 0.0f;
    case GL_ALWAYS: return 1.0f;
    default: return 0.0f;
  }
}

constexpr int kSize = 4;

// Distinct depths, exact in binary: layer l of a 4x4 texture.
float depth_at(int x, int y, int layer) {
  x = std::clamp(x, 0, kSize - 1);  // CLAMP_TO_EDGE
  y = std::clamp(y, 0, kSize - 1);
  return (float(x + kSize * y) / 16.0f + 1.0f / 32.0f) * 0.5f + 0.5f * float(layer);
}

float model_nearest(GLenum func, float s, float t, float ref, int layer, int offset_x = 0) {
  const int x = int(std::floor(s * kSize)) + offset_x, y = int(std::floor(t * kSize));
  return compare(func, ref, depth_at(x, y, layer));
}

float model_linear(GLenum func, float s, float t, float ref, int layer, int offset_x = 0) {
  const float u = s * kSize - 0.5f + float(offset_x), v = t * kSize - 0.5f;
  const int i0 = int(std::floor(u)), j0 = int(std::floor(v));
  const float a = u - std::floor(u), b = v - std::floor(v);
  auto c = [&](int i, int j) { return compare(func, ref, depth_at(i, j, layer)); };
  return (1 - a) * (1 - b) * c(i0, j0) + a * (1 - b) * c(i0 + 1, j0) + (1 - a) * b * c(i0, j0 + 1) +
         a * b * c(i0 + 1, j0 + 1);
}

GLuint depth_texture(GLenum target, GLenum format, int layers) {
  GLuint t = 0;
  glCreateTextures(target, 1, &t);
  std::vector<float> texels;
  for (int l = 0; l < layers; ++l) {
    for (int y = 0; y < kSize; ++y) {
      for (int x = 0; x < kSize; ++x) texels.push_back(depth_at(x, y, l));
    }
  }
  if (target == GL_TEXTURE_2D) {
    glTextureStorage2D(t, 1, format, kSize, kSize);
    glTextureSubImage2D(t, 0, 0, 0, kSize, kSize, GL_DEPTH_COMPONENT, GL_FLOAT, texels.data());
  } else {
    glTextureStorage3D(t, 1, format, kSize, kSize, layers);
    glTextureSubImage3D(t, 0, 0, 0, 0, kSize, kSize, layers, GL_DEPTH_COMPONENT, GL_FLOAT, texels.data());
  }
  glTextureParameteri(t, GL_TEXTURE_COMPARE_MODE, GL_COMPARE_REF_TO_TEXTURE);
  glTextureParameteri(t, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTextureParameteri(t, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  return t;
}

}  // namespace

TEST_CASE("shadow lookups of 2D and 2D array samplers match GL's texture comparison (GL 4.6 §8.23.1)",
          "[textures][depth][shadow]") {
  GlContext gl;
  if (!depth_textures_here()) return;
  const GLuint program = make_program(R"(#version 430
layout(local_size_x = 1) in;
layout(binding = 0) uniform sampler2DShadow s2;
layout(binding = 1) uniform sampler2DArrayShadow s2a;
uniform vec2 st;
uniform float ref;
layout(std430, binding = 0) buffer Out { float r[8]; vec4 g; };
void main() {
  r[0] = texture(s2, vec3(st, ref));
  r[1] = textureOffset(s2, vec3(st, ref), ivec2(1, 0));
  r[2] = textureProj(s2, vec4(st * 2.0, ref * 2.0, 2.0));
  r[3] = textureLod(s2, vec3(st, ref), 0.0);
  r[4] = texture(s2a, vec4(st, 1.0, ref));
  g = textureGather(s2, st, ref);
}
)");
  const GLuint out = make_buffer(48);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, out);
  // Float and fixed-point storage (R32_SFLOAT and R16_UNORM when colour-stored).
  for (GLenum format : {GL_DEPTH_COMPONENT32F, GL_DEPTH_COMPONENT16}) {
    CAPTURE(format);
    const GLuint t2 = depth_texture(GL_TEXTURE_2D, format, 1);
    const GLuint t2a = depth_texture(GL_TEXTURE_2D_ARRAY, format, 2);
    glBindTextureUnit(0, t2);
    glBindTextureUnit(1, t2a);
    glUseProgram(program);
    GLint filter_support = GL_NONE;
    glGetInternalformativ(GL_TEXTURE_2D, format, GL_FILTER, 1, &filter_support);
    const bool filterable = filter_support == GL_FULL_SUPPORT;
    if (!filterable) WARN("this device does not filter the depth format linearly: LINEAR may compare one texel");
    // u = 1.25, v = 1.75: the footprint (1..2, 1..2), weights α = 1/4, β = 3/4 (exact in any subtexel precision).
    const float s = 1.75f / kSize, t = 2.25f / kSize;
    glUniform2f(glGetUniformLocation(program, "st"), s, t);
    for (GLenum filter : {GL_NEAREST, GL_LINEAR}) {
      CAPTURE(filter);
      for (GLuint tex : {t2, t2a}) {
        glTextureParameteri(tex, GL_TEXTURE_MIN_FILTER, filter);
        glTextureParameteri(tex, GL_TEXTURE_MAG_FILTER, filter);
      }
      // Between the footprint's depths, and (float storage, where the depths are exact) equal to texel (2, 1)'s:
      // EQUAL and NOTEQUAL see it. The 16-bit depths are the nearest unorm values, at most 2^-17 away.
      std::vector<float> refs{0.25f, 0.6f};
      if (format == GL_DEPTH_COMPONENT32F) refs.push_back(depth_at(2, 1, 0));
      for (float ref : refs) {
        CAPTURE(ref);
        glUniform1f(glGetUniformLocation(program, "ref"), ref);
        for (GLenum func : kFuncs) {
          CAPTURE(func);
          for (GLuint tex : {t2, t2a}) glTextureParameteri(tex, GL_TEXTURE_COMPARE_FUNC, static_cast<GLint>(func));
          glDispatchCompute(1, 1, 1);
          glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
          float r[12] = {};
          glGetNamedBufferSubData(out, 0, sizeof r, r);
          REQUIRE_GL_ERROR(GL_NO_ERROR);
          REQUIRE_FALSE(gl.saw_message_containing("dispatch was skipped"));
          const double margin = 1.0 / 64;  // LINEAR weights may be quantized (Vulkan: subTexelPrecisionBits >= 4)
          // The result of a lookup: the LINEAR model, or (where the format reports no linear filtering,
          // GL_FILTER not FULL_SUPPORT: Vulkan's depth formats need not filter) the NEAREST one as well.
          auto matches = [&](float got, int layer, int offset_x = 0) {
            const float nearest = model_nearest(func, s, t, ref, layer, offset_x);
            if (filter == GL_NEAREST) return got == Approx(nearest).margin(margin);
            const float linear = model_linear(func, s, t, ref, layer, offset_x);
            return got == Approx(linear).margin(margin) || (!filterable && got == nearest);
          };
          CHECK(matches(r[0], 0));
          CHECK(matches(r[1], 0, 1));
          CHECK(matches(r[2], 0));
          CHECK(matches(r[3], 0));
          // Layer 1's depths are 0.5 above layer 0's.
          CHECK(matches(r[4], 1));
          // textureGather: unfiltered, texels (1, 2), (2, 2), (2, 1), (1, 1).
          CHECK(r[8] == compare(func, ref, depth_at(1, 2, 0)));
          CHECK(r[9] == compare(func, ref, depth_at(2, 2, 0)));
          CHECK(r[10] == compare(func, ref, depth_at(2, 1, 0)));
          CHECK(r[11] == compare(func, ref, depth_at(1, 1, 0)));
        }
      }
    }
    // Fixed-point formats clamp D_ref to [0, 1] (§8.23.1): 1.5 <= D_t fails unclamped, 1.0 <= 1.0 would hold.
    glTextureSubImage2D(t2, 0, 0, 0, 1, 1, GL_DEPTH_COMPONENT, GL_FLOAT, std::vector<float>{1.0f}.data());
    glTextureParameteri(t2, GL_TEXTURE_COMPARE_FUNC, GL_LEQUAL);
    glTextureParameteri(t2, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTextureParameteri(t2, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glUniform2f(glGetUniformLocation(program, "st"), 0.5f / kSize, 0.5f / kSize);
    glUniform1f(glGetUniformLocation(program, "ref"), 1.5f);
    glDispatchCompute(1, 1, 1);
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    float r0 = -1;
    glGetNamedBufferSubData(out, 0, sizeof r0, &r0);
    if (format == GL_DEPTH_COMPONENT16) {
      CHECK(r0 == 1.0f);
    } else {
      CHECK(r0 == 0.0f);  // float depth: no clamping, 1.5 <= 1.0 is false
    }
    GLuint textures[2] = {t2, t2a};
    glDeleteTextures(2, textures);
  }
  glDeleteBuffers(1, &out);
  glDeleteProgram(program);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("cube and cube array shadow samplers compare with coord.w and the separate ref (GL 4.6 §8.23.1)",
          "[textures][depth][shadow]") {
  GlContext gl;
  if (!depth_textures_here()) return;
  const GLuint program = make_program(R"(#version 430
layout(local_size_x = 1) in;
layout(binding = 0) uniform samplerCubeShadow sc;
layout(binding = 1) uniform samplerCubeArrayShadow sca;
uniform float ref;
layout(std430, binding = 0) buffer Out { float r[4]; };
void main() {
  r[0] = texture(sc, vec4(1.0, 0.1, 0.2, ref));     // +X
  r[1] = texture(sc, vec4(0.1, -1.0, 0.2, ref));    // -Y
  r[2] = texture(sca, vec4(0.2, 0.1, -1.0, 1.0), ref);  // -Z of layer 1
  r[3] = texture(sca, vec4(-1.0, 0.1, 0.2, 0.0), ref);  // -X of layer 0
}
)");
  // Each face one depth, (face + 1) / 16 + layer / 2: LINEAR inside a face compares that depth alone.
  auto face_depth = [](int layer, int face) { return float(face + 1) / 16.0f + 0.5f * float(layer); };
  GLuint cube = 0, cube_array = 0;
  glCreateTextures(GL_TEXTURE_CUBE_MAP, 1, &cube);
  glCreateTextures(GL_TEXTURE_CUBE_MAP_ARRAY, 1, &cube_array);
  glTextureStorage2D(cube, 1, GL_DEPTH_COMPONENT32F, kSize, kSize);
  glTextureStorage3D(cube_array, 1, GL_DEPTH_COMPONENT32F, kSize, kSize, 12);
  for (int layer = 0; layer < 2; ++layer) {
    for (int face = 0; face < 6; ++face) {
      const std::vector<float> texels(kSize * kSize, face_depth(layer, face));
      if (layer == 0) {
        glTextureSubImage3D(cube, 0, 0, 0, face, kSize, kSize, 1, GL_DEPTH_COMPONENT, GL_FLOAT, texels.data());
      }
      glTextureSubImage3D(cube_array, 0, 0, 0, layer * 6 + face, kSize, kSize, 1, GL_DEPTH_COMPONENT, GL_FLOAT,
                          texels.data());
    }
  }
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  glBindTextureUnit(0, cube);
  glBindTextureUnit(1, cube_array);
  const GLuint out = make_buffer(16);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, out);
  glUseProgram(program);
  // Faces +X 0, -X 1, +Y 2, -Y 3, +Z 4, -Z 5 (table 8.19).
  const float expected_depths[4] = {face_depth(0, 0), face_depth(0, 3), face_depth(1, 5), face_depth(0, 1)};
  for (GLenum filter : {GL_NEAREST, GL_LINEAR}) {
    CAPTURE(filter);
    for (GLuint tex : {cube, cube_array}) {
      glTextureParameteri(tex, GL_TEXTURE_COMPARE_MODE, GL_COMPARE_REF_TO_TEXTURE);
      glTextureParameteri(tex, GL_TEXTURE_MIN_FILTER, filter);
      glTextureParameteri(tex, GL_TEXTURE_MAG_FILTER, filter);
    }
    for (float ref : {0.1f, face_depth(0, 3), 0.7f}) {
      CAPTURE(ref);
      glUniform1f(glGetUniformLocation(program, "ref"), ref);
      for (GLenum func : kFuncs) {
        CAPTURE(func);
        for (GLuint tex : {cube, cube_array})
          glTextureParameteri(tex, GL_TEXTURE_COMPARE_FUNC, static_cast<GLint>(func));
        glDispatchCompute(1, 1, 1);
        glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
        float r[4] = {};
        glGetNamedBufferSubData(out, 0, sizeof r, r);
        REQUIRE_GL_ERROR(GL_NO_ERROR);
        REQUIRE_FALSE(gl.saw_message_containing("dispatch was skipped"));
        for (int i = 0; i < 4; ++i) {
          CAPTURE(i);
          CHECK(r[i] == compare(func, ref, expected_depths[i]));
        }
      }
    }
  }
  GLuint textures[2] = {cube, cube_array};
  glDeleteTextures(2, textures);
  glDeleteBuffers(1, &out);
  glDeleteProgram(program);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("textureLod on a shadow sampler compares the chosen mipmap level's texels (GL 4.6 §8.14.3, §8.23.1)",
          "[textures][depth][shadow]") {
  GlContext gl;
  if (!depth_textures_here()) return;
  const GLuint program = make_program(R"(#version 430
layout(local_size_x = 1) in;
layout(binding = 0) uniform sampler2DShadow s;
uniform float ref;
layout(std430, binding = 0) buffer Out { float r[3]; };
void main() {
  r[0] = textureLod(s, vec3(0.3, 0.3, ref), 0.0);
  r[1] = textureLod(s, vec3(0.3, 0.3, ref), 1.0);
  r[2] = textureLod(s, vec3(0.3, 0.3, ref), 2.0);
}
)");
  GLuint t = 0;
  glCreateTextures(GL_TEXTURE_2D, 1, &t);
  glTextureStorage2D(t, 3, GL_DEPTH_COMPONENT32F, 4, 4);
  // Level L holds the depth 0.25 * (L + 1) everywhere.
  for (int level = 0; level < 3; ++level) {
    const int size = 4 >> level;
    const std::vector<float> texels(size * size, 0.25f * float(level + 1));
    glTextureSubImage2D(t, level, 0, 0, size, size, GL_DEPTH_COMPONENT, GL_FLOAT, texels.data());
  }
  glTextureParameteri(t, GL_TEXTURE_COMPARE_MODE, GL_COMPARE_REF_TO_TEXTURE);
  glTextureParameteri(t, GL_TEXTURE_COMPARE_FUNC, GL_LESS);
  glBindTextureUnit(0, t);
  const GLuint out = make_buffer(12);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, out);
  glUseProgram(program);
  glUniform1f(glGetUniformLocation(program, "ref"), 0.6f);  // LESS: 0.6 < D_t holds on level 2 (0.75) only
  for (GLenum min : {GL_NEAREST_MIPMAP_NEAREST, GL_LINEAR_MIPMAP_NEAREST}) {
    CAPTURE(min);
    glTextureParameteri(t, GL_TEXTURE_MIN_FILTER, min);
    glTextureParameteri(t, GL_TEXTURE_MAG_FILTER, min == GL_NEAREST_MIPMAP_NEAREST ? GL_NEAREST : GL_LINEAR);
    glDispatchCompute(1, 1, 1);
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    float r[3] = {};
    glGetNamedBufferSubData(out, 0, sizeof r, r);
    REQUIRE_FALSE(gl.saw_message_containing("dispatch was skipped"));
    CHECK(r[0] == 0.0f);
    CHECK(r[1] == 0.0f);
    CHECK(r[2] == 1.0f);
  }
  // Without a mipmap filter only the base level is sampled (§8.14.2), whatever the Lod.
  glTextureParameteri(t, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTextureParameteri(t, GL_TEXTURE_MAX_LEVEL, 2);
  glDispatchCompute(1, 1, 1);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  float r[3] = {};
  glGetNamedBufferSubData(out, 0, sizeof r, r);
  CHECK(r[0] == 0.0f);
  CHECK(r[1] == 0.0f);
  CHECK(r[2] == 0.0f);
  glDeleteTextures(1, &t);
  glDeleteBuffers(1, &out);
  glDeleteProgram(program);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

// §8.14.3, *_MIPMAP_LINEAR: "the level d1 = floor(λ) and d2 = d1 + 1" are each filtered and "τ = [1 − frac(λ)]τ1 +
// frac(λ)τ2": a shadow lookup blends the comparisons of two levels (the lowering blends them in the shader).
TEST_CASE("*_MIPMAP_LINEAR shadow lookups blend the comparisons of two levels (GL 4.6 §8.14.3, §8.23.1)",
          "[textures][depth][shadow]") {
  GlContext gl;
  if (!depth_textures_here()) return;
  const GLuint program = make_program(R"(#version 430
layout(local_size_x = 1) in;
layout(binding = 0) uniform sampler2DShadow s;
uniform float ref;
uniform vec4 lods;
layout(std430, binding = 0) buffer Out { float r[4]; };
void main() {
  for (int i = 0; i < 4; ++i) r[i] = textureLod(s, vec3(0.3, 0.3, ref), lods[i]);
}
)");
  GLuint t = 0;
  glCreateTextures(GL_TEXTURE_2D, 1, &t);
  glTextureStorage2D(t, 3, GL_DEPTH_COMPONENT32F, 4, 4);
  // Level L holds the depth 0.25 * (L + 1) everywhere: LESS with ref 0.4 fails on level 0 (0.25) and passes on
  // levels 1 (0.5) and 2 (0.75); with ref 0.6 only level 2 passes.
  for (int level = 0; level < 3; ++level) {
    const int size = 4 >> level;
    const std::vector<float> texels(size * size, 0.25f * float(level + 1));
    glTextureSubImage2D(t, level, 0, 0, size, size, GL_DEPTH_COMPONENT, GL_FLOAT, texels.data());
  }
  glTextureParameteri(t, GL_TEXTURE_COMPARE_MODE, GL_COMPARE_REF_TO_TEXTURE);
  glTextureParameteri(t, GL_TEXTURE_COMPARE_FUNC, GL_LESS);
  glBindTextureUnit(0, t);
  const GLuint out = make_buffer(16);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, out);
  glUseProgram(program);
  const float lods[4] = {0.25f, 1.25f, 1.75f, 2.5f};  // no .5: GL and Vulkan round a nearest level apart there
  glUniform4fv(glGetUniformLocation(program, "lods"), 1, lods);
  GLint filter_support = GL_NONE;
  glGetInternalformativ(GL_TEXTURE_2D, GL_DEPTH_COMPONENT32F, GL_FILTER, 1, &filter_support);
  // Vulkan blends levels only for formats it filters linearly (mipmapMode LINEAR): where the depth format is
  // compared in hardware and not filterable, the nearest level's comparison is what comes back.
  const bool filterable = filter_support == GL_FULL_SUPPORT;
  // The CPU model: each level's comparison (uniform levels: NEAREST and LINEAR agree), blended per §8.14.3.
  auto model = [](float ref, float lambda, bool blend) {
    auto level_result = [&](int level) { return ref < 0.25f * float(level + 1) ? 1.0f : 0.0f; };
    const int q = 2;
    if (!blend) return level_result(std::min(q, static_cast<int>(std::floor(lambda + 0.5f))));
    if (lambda >= float(q)) return level_result(q);
    const int d1 = static_cast<int>(std::floor(lambda));
    const float f = lambda - float(d1);
    return (1.0f - f) * level_result(d1) + f * level_result(d1 + 1);
  };
  for (GLenum min : {GL_NEAREST_MIPMAP_LINEAR, GL_LINEAR_MIPMAP_LINEAR}) {
    CAPTURE(min);
    glTextureParameteri(t, GL_TEXTURE_MIN_FILTER, min);
    for (float ref : {0.4f, 0.6f}) {
      CAPTURE(ref);
      glUniform1f(glGetUniformLocation(program, "ref"), ref);
      glDispatchCompute(1, 1, 1);
      glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
      float r[4] = {};
      glGetNamedBufferSubData(out, 0, sizeof r, r);
      REQUIRE_FALSE(gl.saw_message_containing("dispatch was skipped"));
      for (int i = 0; i < 4; ++i) {
        CAPTURE(lods[i]);
        const float blended = model(ref, lods[i], true);
        // Level weights may be quantized (Vulkan: mipmapPrecisionBits >= 4).
        CHECK((r[i] == Approx(blended).margin(1.0 / 16) || (!filterable && r[i] == model(ref, lods[i], false))));
      }
    }
  }
  glDeleteTextures(1, &t);
  glDeleteBuffers(1, &out);
  glDeleteProgram(program);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

// NV_gpu_program4's SHADOW targets: "the third component of the texture coordinate" is the compare value, and the
// result is the comparison in every component but w (the compatibility-profile DEPTH_TEXTURE_MODE LUMINANCE: docs/
// nvasm.md). Assembly programs are lowered like GLSL ones where the device cannot compare.
TEST_CASE("assembly TEX on a SHADOW2D target compares like GLSL's shadow samplers (GL 4.6 §8.23.1)",
          "[textures][depth][shadow][asm]") {
  GlContext gl;
  if (!depth_textures_here()) return;
  const float s = 1.75f / kSize, t = 2.25f / kSize, ref = 0.25f;
  const std::string source =
      "!!NVcp5.0\nOPTION NV_shader_storage_buffer;\nGROUP_SIZE 1;\n"
      "STORAGE out[] = { program.storage[0] };\nTEMP R0, R1;\n"
      "MOV.F R1, {" +
      std::to_string(s) + ", " + std::to_string(t) + ", " + std::to_string(ref) +
      ", 0};\n"
      "TEX.F R0, R1, texture[0], SHADOW2D;\nSTB.U32X4 R0, out[0];\nEND\n";
  GLuint name = 0;
  glGenProgramsARB(1, &name);
  glBindProgramARB(GL_COMPUTE_PROGRAM_NV, name);
  REQUIRE(asm_program::load(source) == GL_NO_ERROR);
  glEnable(GL_COMPUTE_PROGRAM_NV);
  const GLuint texture = depth_texture(GL_TEXTURE_2D, GL_DEPTH_COMPONENT32F, 1);
  glBindTextureUnit(0, texture);
  const GLuint out = make_buffer(16);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, out);
  GLint filter_support = GL_NONE;
  glGetInternalformativ(GL_TEXTURE_2D, GL_DEPTH_COMPONENT32F, GL_FILTER, 1, &filter_support);
  for (GLenum filter : {GL_NEAREST, GL_LINEAR}) {
    CAPTURE(filter);
    glTextureParameteri(texture, GL_TEXTURE_MIN_FILTER, filter);
    glTextureParameteri(texture, GL_TEXTURE_MAG_FILTER, filter);
    for (GLenum func : kFuncs) {
      CAPTURE(func);
      glTextureParameteri(texture, GL_TEXTURE_COMPARE_FUNC, static_cast<GLint>(func));
      glDispatchCompute(1, 1, 1);
      glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
      float r[4] = {};
      glGetNamedBufferSubData(out, 0, sizeof r, r);
      REQUIRE_GL_ERROR(GL_NO_ERROR);
      REQUIRE_FALSE(gl.saw_message_containing("dispatch was skipped"));
      const float nearest = model_nearest(func, s, t, ref, 0);
      const float linear = model_linear(func, s, t, ref, 0);
      const bool ok = filter == GL_NEAREST ? r[0] == nearest
                                           : r[0] == Approx(linear).margin(1.0 / 64) ||
                                                 (filter_support != GL_FULL_SUPPORT && r[0] == nearest);
      CHECK(ok);
      CHECK(r[1] == r[0]);
      CHECK(r[2] == r[0]);
      CHECK(r[3] == 1.0f);
    }
  }
  glDisable(GL_COMPUTE_PROGRAM_NV);
  glDeleteProgramsARB(1, &name);
  glDeleteTextures(1, &texture);
  glDeleteBuffers(1, &out);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}
