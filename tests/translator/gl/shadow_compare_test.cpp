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
#include <array>
#include <cmath>
#include <limits>
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

// Implicit-LOD shadow lookups with the shader's bias (GL_NV_compute_shader_derivatives gives compute shaders
// implicit LOD over a derivative group): GL 4.6 §8.14.1, "λ'(x, y) = λ_base(x, y) + clamp(bias_texobj +
// bias_shader)", and with NEAREST_MIPMAP_NEAREST the level is ⌈λ + ½⌉ − 1 (level 0 for λ ≤ ½, §8.14.3). The
// coordinate steps one base texel per invocation along x and keeps t (ρ = 1, λ_base = 0), so the shader's bias b selects level
// b and TEXTURE_LOD_BIAS adds to it. Devices whose shadow samplers are lowered into the shader (the H100's colour
// storage of depth) compute λ there from the derivatives; lavapipe has no compute derivatives, so this runs on GPUs.
TEST_CASE("implicit-LOD shadow lookups add the shader's bias and TEXTURE_LOD_BIAS to λ (GL 4.6 §8.14.1, §8.23.1)",
          "[textures][depth][shadow]") {
  GlContext gl;
  if (!depth_textures_here()) return;
  if (!has_extension("GL_NV_compute_shader_derivatives")) {
    WARN("GL_NV_compute_shader_derivatives is not exposed on this device: skipped");
    return;
  }
  const GLuint program = make_program(R"(#version 450
#extension GL_NV_compute_shader_derivatives : require
layout(local_size_x = 8, local_size_y = 2) in;
layout(derivative_group_quadsNV) in;
layout(binding = 0) uniform sampler2DShadow s;
uniform float bias;
layout(std430, binding = 0) buffer Out { uint level[16]; };
void main() {
  // One base texel per invocation along x, a constant t: every derivative but du/dx is 0, so rho = 1 exactly (the
  // approximation max(m_u, m_v) <= f <= m_u + m_v has no room).
  vec2 coord = vec2((float(gl_LocalInvocationID.x) + 0.5) / 8.0, 0.5);
  // LEQUAL against levels of depth 0.1, 0.3, 0.5, 0.7: how many of the three references pass is the level.
  float passed = texture(s, vec3(coord, 0.2), bias) + texture(s, vec3(coord, 0.4), bias) +
                 texture(s, vec3(coord, 0.6), bias);
  level[gl_LocalInvocationIndex] = uint(passed + 0.5);
}
)");
  GLuint t = 0;
  glCreateTextures(GL_TEXTURE_2D, 1, &t);
  glTextureStorage2D(t, 4, GL_DEPTH_COMPONENT32F, 8, 8);
  for (int level = 0; level < 4; ++level) {
    const int size = 8 >> level;
    const std::vector<float> texels(size * size, 0.1f + 0.2f * float(level));
    glTextureSubImage2D(t, level, 0, 0, size, size, GL_DEPTH_COMPONENT, GL_FLOAT, texels.data());
  }
  glTextureParameteri(t, GL_TEXTURE_COMPARE_MODE, GL_COMPARE_REF_TO_TEXTURE);
  glTextureParameteri(t, GL_TEXTURE_COMPARE_FUNC, GL_LEQUAL);
  glTextureParameteri(t, GL_TEXTURE_MIN_FILTER, GL_NEAREST_MIPMAP_NEAREST);
  glTextureParameteri(t, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glBindTextureUnit(0, t);
  const GLuint out = make_buffer(64);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, out);
  glUseProgram(program);
  struct Case {
    float shader_bias, texture_bias;
    uint32_t level;
  };
  // λ = 0 + b: level ⌈b + ½⌉ − 1, clamped to the last level (3).
  const Case cases[] = {{0, 0, 0}, {1, 0, 1}, {2, 0, 2}, {1, 1, 2}, {0, 2, 2}, {2, 2, 3}, {-1, 0, 0}, {3, -1, 2}};
  for (const Case& c : cases) {
    CAPTURE(c.shader_bias, c.texture_bias);
    glTextureParameterf(t, GL_TEXTURE_LOD_BIAS, c.texture_bias);
    glUniform1f(glGetUniformLocation(program, "bias"), c.shader_bias);
    glDispatchCompute(1, 1, 1);
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    uint32_t level[16] = {};
    glGetNamedBufferSubData(out, 0, sizeof level, level);
    REQUIRE_FALSE(gl.saw_message_containing("dispatch was skipped"));
    for (uint32_t l : level) CHECK(l == c.level);
  }
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

namespace {

// GL 4.6 §8.13.1, table 8.19: the face of the major axis of r and its (s, t); ties of magnitude go to x, then y.
struct CubeCoord {
  int face;
  float s, t;
};

CubeCoord cube_coord(const std::array<float, 3>& r) {
  const float ax = std::fabs(r[0]), ay = std::fabs(r[1]), az = std::fabs(r[2]);
  float sc = 0, tc = 0, ma = 0;
  int face = 0;
  if (ax >= ay && ax >= az) {
    face = r[0] >= 0 ? 0 : 1;
    sc = r[0] >= 0 ? -r[2] : r[2];
    tc = -r[1];
    ma = ax;
  } else if (ay >= az) {
    face = r[1] >= 0 ? 2 : 3;
    sc = r[0];
    tc = r[1] >= 0 ? r[2] : -r[2];
    ma = ay;
  } else {
    face = r[2] >= 0 ? 4 : 5;
    sc = r[2] >= 0 ? r[0] : -r[0];
    tc = -r[1];
    ma = az;
  }
  return {face, (sc / ma + 1) / 2, (tc / ma + 1) / 2};
}

// The inverse: the direction of the point (sc, tc) of `face` at ma = 1 (table 8.19 solved for r).
std::array<float, 3> cube_direction(int face, float sc, float tc) {
  switch (face) {
    case 0: return {1, -tc, -sc};
    case 1: return {-1, -tc, sc};
    case 2: return {sc, 1, tc};
    case 3: return {sc, -1, -tc};
    case 4: return {sc, -tc, 1};
    default: return {-sc, -tc, -1};
  }
}

struct CubeTexel {
  int face, x, y;
};

// §8.14.2 NEAREST on the face the direction selects.
CubeTexel nearest_cube_texel(const std::array<float, 3>& r, int size) {
  const CubeCoord c = cube_coord(r);
  return {c.face, std::clamp(int(std::floor(c.s * float(size))), 0, size - 1),
          std::clamp(int(std::floor(c.t * float(size))), 0, size - 1)};
}

// §8.14.2 LINEAR on a cube map level with seamless filtering (§8.13.1): "if a texture sample location would lie in
// the texture border in either u or v (but not both), instead select the corresponding texel from the appropriate
// neighboring face" — the neighbour's texel that the point half a texel past the edge, seen from the cube's
// centre, falls in; "if a texture sample location would lie in the texture border in both u and v (in one of the
// corners of the cube) ... The recommended method to generate this texel is to average the values of the three
// available samples. However, implementations are free to construct this fourth texel in another way, so long as,
// when the three available samples have the same value, this texel also has that value." `value` gives each texel's
// comparison result; the corner's is returned separately (its weight and the three others') so that the caller can
// allow any value between the three.
struct CubeLinear {
  float known = 0;          // the weighted sum over the texels that exist
  float corner_weight = 0;  // the corner texel's weight (0: no corner in the footprint)
  float lo = 0, hi = 0;     // the range of the three available results around the corner
  float recommended() const { return known + corner_weight * (lo + hi) / 2; }
};

template <class Value>
CubeLinear cube_linear(const std::array<float, 3>& r, int size, Value value) {
  const CubeCoord c = cube_coord(r);
  const float u = c.s * float(size) - 0.5f, v = c.t * float(size) - 0.5f;
  const int i0 = int(std::floor(u)), j0 = int(std::floor(v));
  const float a = u - std::floor(u), b = v - std::floor(v);
  auto outside = [&](int i) { return i < 0 || i >= size; };
  float results[2][2] = {};
  bool corner[2][2] = {};
  for (int dj = 0; dj < 2; ++dj) {
    for (int di = 0; di < 2; ++di) {
      const int i = i0 + di, j = j0 + dj;
      corner[dj][di] = outside(i) && outside(j);
      if (corner[dj][di]) continue;
      const float sc = (float(i) + 0.5f) * 2.0f / float(size) - 1.0f;
      const float tc = (float(j) + 0.5f) * 2.0f / float(size) - 1.0f;
      results[dj][di] = value(nearest_cube_texel(cube_direction(c.face, sc, tc), size));
    }
  }
  const float weights[2][2] = {{(1 - a) * (1 - b), a * (1 - b)}, {(1 - a) * b, a * b}};
  CubeLinear out;
  out.lo = std::numeric_limits<float>::max();
  out.hi = std::numeric_limits<float>::lowest();
  for (int dj = 0; dj < 2; ++dj) {
    for (int di = 0; di < 2; ++di) {
      if (corner[dj][di]) {
        out.corner_weight = weights[dj][di];
        continue;
      }
      out.known += weights[dj][di] * results[dj][di];
      out.lo = std::min(out.lo, results[dj][di]);
      out.hi = std::max(out.hi, results[dj][di]);
    }
  }
  return out;
}

}  // namespace

// The CPU model's seamless neighbours, checked without the GPU: the texel past the top edge of +X (table 8.19: tc
// grows along −y) is on +Y, the texel past its left edge (sc grows along −z) is on +Z, and they touch the edge.
TEST_CASE("the seamless cube model picks the neighbouring face's edge texels", "[textures][shadow]") {
  const CubeTexel above = nearest_cube_texel(cube_direction(0, -0.25f, -1.25f), 4);
  CHECK(above.face == 2);
  CHECK(above.x == 3);  // +Y's sc = rx grows towards +X
  CHECK(above.y == 2);  // tc = rz: −sc of +X's texel column 1 (rz = 0.25)
  const CubeTexel left = nearest_cube_texel(cube_direction(0, -1.25f, 0.25f), 4);
  CHECK(left.face == 4);
  CHECK(left.x == 3);  // +Z's sc = rx: +X is at its right
  CHECK(left.y == 2);
}

// The model's neighbour selection against the device's own seamless filtering (Vulkan's cube maps are seamless): a
// plain samplerCube of R32F (filterable) with LINEAR is the bilinear average of the same texels' values, so the
// model with each texel's value in place of its comparison must give it (the corner: between the three's values).
TEST_CASE("the seamless cube model matches the device's LINEAR filtering of a colour cube map", "[textures][shadow]") {
  GlContext gl;
  const GLuint program = make_program(R"(#version 430
layout(local_size_x = 1) in;
layout(binding = 0) uniform samplerCube c;
uniform vec3 dirs[6];
layout(std430, binding = 0) buffer Out { float r[6]; };
void main() {
  for (int i = 0; i < 6; ++i) r[i] = texture(c, dirs[i]).r;
}
)");
  auto value = [](const CubeTexel& t) { return float(t.face * 16 + t.y * 4 + t.x) / 96.0f; };
  GLuint cube = 0;
  glCreateTextures(GL_TEXTURE_CUBE_MAP, 1, &cube);
  glTextureStorage2D(cube, 1, GL_R32F, 4, 4);
  for (int face = 0; face < 6; ++face) {
    std::vector<float> texels;
    for (int y = 0; y < 4; ++y) {
      for (int x = 0; x < 4; ++x) texels.push_back(value({face, x, y}));
    }
    glTextureSubImage3D(cube, 0, 0, 0, face, 4, 4, 1, GL_RED, GL_FLOAT, texels.data());
  }
  glTextureParameteri(cube, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTextureParameteri(cube, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glBindTextureUnit(0, cube);
  glEnable(GL_TEXTURE_CUBE_MAP_SEAMLESS);  // desktop GL's initial state is per-face filtering (§8.13.1)
  const GLuint out = make_buffer(24);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, out);
  glUseProgram(program);
  // Edges of every face pair kind: +X top (+Y), +X corner, −Z right (−X), −Y bottom (−Z), +Z left (−X), −X top (+Y).
  const std::array<std::array<float, 3>, 6> dirs = {{
      cube_direction(0, -0.125f, -0.875f),
      cube_direction(0, -0.875f, -0.875f),
      cube_direction(5, 0.875f, 0.125f),
      cube_direction(3, 0.125f, 0.875f),
      cube_direction(4, -0.875f, 0.375f),
      cube_direction(1, 0.375f, -0.875f),
  }};
  glUniform3fv(glGetUniformLocation(program, "dirs"), 6, dirs[0].data());
  glDispatchCompute(1, 1, 1);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  float r[6] = {};
  glGetNamedBufferSubData(out, 0, sizeof r, r);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  for (size_t i = 0; i < dirs.size(); ++i) {
    CAPTURE(i);
    const CubeLinear model = cube_linear(dirs[i], 4, value);
    const double margin = 1.0 / 256;  // 1/16-subtexel weights on values 1/96 apart
    CHECK(r[i] >= model.known + model.corner_weight * model.lo - margin);
    CHECK(r[i] <= model.known + model.corner_weight * model.hi + margin);
  }
  glDeleteTextures(1, &cube);
  glDeleteBuffers(1, &out);
  glDeleteProgram(program);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

namespace {

// The cube shadow tests' program (a cube and a cube-array shadow sampler, four directions, one reference) and
// textures: DEPTH_COMPONENT32F, every texel its own depth (face f, texel (x, y), layer l), comparing, LINEAR.
constexpr const char* kCubeShadowSource = R"(#version 430
layout(local_size_x = 1) in;
layout(binding = 0) uniform samplerCubeShadow sc;
layout(binding = 1) uniform samplerCubeArrayShadow sca;
uniform vec3 dirs[4];
uniform float ref;
layout(std430, binding = 0) buffer Out { float r[8]; };
void main() {
  for (int i = 0; i < 4; ++i) {
    r[i] = texture(sc, vec4(dirs[i], ref));
    r[4 + i] = texture(sca, vec4(dirs[i], 1.0), ref + 0.5);
  }
}
)";

float cube_shadow_depth(int layer, const CubeTexel& t) {
  return (float(t.face * kSize * kSize + t.y * kSize + t.x) + 0.5f) / 96.0f * 0.5f + 0.5f * float(layer);
}

// Creates the cube (layer 0) and the two-layer cube array, bound to texture units 0 and 1.
void make_cube_shadow_textures(GLuint& cube, GLuint& cube_array) {
  glCreateTextures(GL_TEXTURE_CUBE_MAP, 1, &cube);
  glCreateTextures(GL_TEXTURE_CUBE_MAP_ARRAY, 1, &cube_array);
  glTextureStorage2D(cube, 1, GL_DEPTH_COMPONENT32F, kSize, kSize);
  glTextureStorage3D(cube_array, 1, GL_DEPTH_COMPONENT32F, kSize, kSize, 12);
  for (int layer = 0; layer < 2; ++layer) {
    for (int face = 0; face < 6; ++face) {
      std::vector<float> texels;
      for (int y = 0; y < kSize; ++y) {
        for (int x = 0; x < kSize; ++x) texels.push_back(cube_shadow_depth(layer, {face, x, y}));
      }
      if (layer == 0) {
        glTextureSubImage3D(cube, 0, 0, 0, face, kSize, kSize, 1, GL_DEPTH_COMPONENT, GL_FLOAT, texels.data());
      }
      glTextureSubImage3D(cube_array, 0, 0, 0, layer * 6 + face, kSize, kSize, 1, GL_DEPTH_COMPONENT, GL_FLOAT,
                          texels.data());
    }
  }
  for (GLuint tex : {cube, cube_array}) {
    glTextureParameteri(tex, GL_TEXTURE_COMPARE_MODE, GL_COMPARE_REF_TO_TEXTURE);
    glTextureParameteri(tex, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTextureParameteri(tex, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  }
  glBindTextureUnit(0, cube);
  glBindTextureUnit(1, cube_array);
}

}  // namespace

// Cube shadow samplers with LINEAR compare the 2x2 footprint (§8.14.2, §8.23.1: "a weighted average of the
// results"), across face edges and at corners as seamless cube maps do (§8.13.1). Vulkan's cube maps are always
// seamless, so the comparing sampler (depth formats) and the lowering (colour formats) must both give the model.
TEST_CASE("cube shadow samplers filter LINEAR across face edges and corners (GL 4.6 §8.13.1, §8.23.1)",
          "[textures][depth][shadow]") {
  GlContext gl;
  if (!depth_textures_here()) return;
  const GLuint program = make_program(kCubeShadowSource);
  GLuint cube = 0, cube_array = 0;
  make_cube_shadow_textures(cube, cube_array);
  glEnable(GL_TEXTURE_CUBE_MAP_SEAMLESS);  // desktop GL's initial state is per-face filtering (§8.13.1)
  const GLuint out = make_buffer(32);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, out);
  glUseProgram(program);
  // Weights exact in binary: (s, t) = (0.4375, 0.0625) on +X is u = 1.25, v = −0.25 (the row above is +Y's);
  // (0.0625, 0.0625) on +X is the corner with +Y and +Z; (0.9375, 0.5625) on −Z crosses into −X; (0.5625, 0.9375)
  // on −Y crosses into −Z.
  const std::array<std::array<float, 3>, 4> dirs = {{
      cube_direction(0, 2 * 0.4375f - 1, 2 * 0.0625f - 1),
      cube_direction(0, 2 * 0.0625f - 1, 2 * 0.0625f - 1),
      cube_direction(5, 2 * 0.9375f - 1, 2 * 0.5625f - 1),
      cube_direction(3, 2 * 0.5625f - 1, 2 * 0.9375f - 1),
  }};
  glUniform3fv(glGetUniformLocation(program, "dirs"), 4, dirs[0].data());
  GLint filter_support = GL_NONE;
  glGetInternalformativ(GL_TEXTURE_CUBE_MAP, GL_DEPTH_COMPONENT32F, GL_FILTER, 1, &filter_support);
  const bool filterable = filter_support == GL_FULL_SUPPORT;
  if (!filterable) WARN("this device does not filter the depth format linearly: LINEAR may compare one texel");
  // Refs between the depths of the footprints' faces: +X 0..1/6, −X, +Y, −Y, +Z, −Z up to 0.5 (layer 1: +0.5).
  for (float ref : {0.0117f, 0.0845f, 0.17f, 0.2f, 0.43f}) {
    CAPTURE(ref);
    glUniform1f(glGetUniformLocation(program, "ref"), ref);
    for (GLenum func : {GL_LEQUAL, GL_GREATER}) {
      CAPTURE(func);
      for (GLuint tex : {cube, cube_array}) glTextureParameteri(tex, GL_TEXTURE_COMPARE_FUNC, static_cast<GLint>(func));
      glDispatchCompute(1, 1, 1);
      glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
      float r[8] = {};
      glGetNamedBufferSubData(out, 0, sizeof r, r);
      REQUIRE_GL_ERROR(GL_NO_ERROR);
      REQUIRE_FALSE(gl.saw_message_containing("dispatch was skipped"));
      for (int i = 0; i < 8; ++i) {
        CAPTURE(i);
        const int layer = i < 4 ? 0 : 1;
        const auto& r_dir = dirs[size_t(i % 4)];
        // Layer 1's depths are 0.5 higher, and so is its ref.
        const float layer_ref = ref + 0.5f * float(layer);
        auto result = [&](const CubeTexel& t) { return compare(func, layer_ref, cube_shadow_depth(layer, t)); };
        const CubeLinear model = cube_linear(r_dir, kSize, result);
        const float nearest = result(nearest_cube_texel(r_dir, kSize));
        const double margin = 1.0 / 64;
        const bool in_range = r[i] >= model.known + model.corner_weight * model.lo - margin &&
                              r[i] <= model.known + model.corner_weight * model.hi + margin;
        CHECK((in_range || (!filterable && r[i] == nearest)));
      }
    }
  }
  GLuint textures[2] = {cube, cube_array};
  glDeleteTextures(2, textures);
  glDeleteBuffers(1, &out);
  glDeleteProgram(program);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

namespace {

// A 3-level 4x4 2D (or cube, or 2-cube array) depth texture whose level L holds 0.25 * (L + 1) everywhere.
GLuint uniform_levels(GLenum target) {
  GLuint t = 0;
  glCreateTextures(target, 1, &t);
  const int layers = target == GL_TEXTURE_2D ? 1 : target == GL_TEXTURE_CUBE_MAP ? 6 : 12;
  if (target == GL_TEXTURE_CUBE_MAP_ARRAY) {
    glTextureStorage3D(t, 3, GL_DEPTH_COMPONENT32F, 4, 4, layers);
  } else {
    glTextureStorage2D(t, 3, GL_DEPTH_COMPONENT32F, 4, 4);
  }
  for (int level = 0; level < 3; ++level) {
    const int size = 4 >> level;
    const std::vector<float> texels(size_t(size * size * layers), 0.25f * float(level + 1));
    if (target == GL_TEXTURE_2D) {
      glTextureSubImage2D(t, level, 0, 0, size, size, GL_DEPTH_COMPONENT, GL_FLOAT, texels.data());
    } else {
      glTextureSubImage3D(t, level, 0, 0, 0, size, size, layers, GL_DEPTH_COMPONENT, GL_FLOAT, texels.data());
    }
  }
  glTextureParameteri(t, GL_TEXTURE_COMPARE_MODE, GL_COMPARE_REF_TO_TEXTURE);
  glTextureParameteri(t, GL_TEXTURE_COMPARE_FUNC, GL_LESS);
  return t;
}

// §8.14.3 on the uniform levels with LESS: the comparison of level d is "ref < 0.25 (d + 1)"; *_MIPMAP_LINEAR blends
// d1 = ⌊λ⌋ and d2 = d1 + 1 ("both q where λ >= q") by frac(λ); *_MIPMAP_NEAREST reads ⌈λ + ½⌉ − 1 in [0, q].
float levels_model(float ref, float lambda, bool blend) {
  auto level_result = [&](int level) { return ref < 0.25f * float(level + 1) ? 1.0f : 0.0f; };
  const int q = 2;
  if (lambda <= 0) return level_result(0);
  if (!blend) return level_result(std::clamp(int(std::ceil(lambda + 0.5f)) - 1, 0, q));
  if (lambda >= float(q)) return level_result(q);
  const int d1 = int(std::floor(lambda));
  const float f = lambda - float(d1);
  return (1.0f - f) * level_result(d1) + f * level_result(d1 + 1);
}

}  // namespace

// GL 4.6 §8.14.1: "λ'(x, y) = λ_base(x, y) + clamp(bias_texobj + bias_shader)" and λ is λ' clamped to
// [TEXTURE_MIN_LOD, TEXTURE_MAX_LOD]; "If λ(x, y) is less than or equal to the constant c ... the texture is said to be
// magnified; if it is greater, the texture is minified" (c = 0, §8.15). textureLod's lod is λ_base. So the texture's
// bias and LOD clamps choose both the filter (MAG NEAREST vs MIN LINEAR here) and the mipmap level(s).
TEST_CASE("TEXTURE_LOD_BIAS and TEXTURE_MIN/MAX_LOD choose the filter and levels of shadow lookups (GL 4.6 §8.14)",
          "[textures][depth][shadow]") {
  GlContext gl;
  if (!depth_textures_here()) return;
  const GLuint program = make_program(R"(#version 430
layout(local_size_x = 1) in;
layout(binding = 0) uniform sampler2DShadow s;
layout(binding = 1) uniform sampler2DShadow levels;
uniform vec2 st;
uniform float ref;
uniform float lod;
layout(std430, binding = 0) buffer Out { float r[2]; };
void main() {
  r[0] = textureLod(s, vec3(st, 0.25), lod);
  r[1] = textureLod(levels, vec3(0.3, 0.3, ref), lod);
}
)");
  const GLuint t = depth_texture(GL_TEXTURE_2D, GL_DEPTH_COMPONENT32F, 1);
  glTextureParameteri(t, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glTextureParameteri(t, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTextureParameteri(t, GL_TEXTURE_COMPARE_FUNC, GL_LEQUAL);
  const GLuint mipmapped = uniform_levels(GL_TEXTURE_2D);
  glTextureParameteri(mipmapped, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glBindTextureUnit(0, t);
  glBindTextureUnit(1, mipmapped);
  const GLuint out = make_buffer(8);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, out);
  glUseProgram(program);
  const float s = 1.75f / kSize, tt = 2.25f / kSize;
  glUniform2f(glGetUniformLocation(program, "st"), s, tt);
  GLint filter_support = GL_NONE;
  glGetInternalformativ(GL_TEXTURE_2D, GL_DEPTH_COMPONENT32F, GL_FILTER, 1, &filter_support);
  const bool filterable = filter_support == GL_FULL_SUPPORT;
  struct Case {
    float lod, bias, min_lod, max_lod;
    GLenum min_filter;  // of `levels`
    float ref;
  };
  // λ = clamp(lod + bias, min, max): 0 + 0.5 → minified; 0 with MIN_LOD 0.5 → minified, levels 0 and 1 (weight ½);
  // 1 with MAX_LOD −0.5 → magnified; 0.5 + 0.75 = 1.25 → levels 1 and 2 (weight ¼); −0.5 + 0.75 → minified; 0.25
  // with MIN_LOD 1.75 → levels 1 and 2 (weight ¾); 1 + (−1.25) → magnified; 1 with MAX_LOD 0.25 → levels 0 and 1
  // (weight ¼). No λ of a nearest level ends in .5 (GL and Vulkan may round apart there). Each case gives another
  // result than λ without the bias and clamps (`lod` alone choosing filter and levels) in r[0] or r[1].
  const Case cases[] = {
      {0.0f, 0.5f, -1000, 1000, GL_LINEAR_MIPMAP_LINEAR, 0.6f},
      {0.0f, 0.0f, 0.5f, 1000, GL_NEAREST_MIPMAP_LINEAR, 0.4f},
      {1.0f, 0.0f, -1000, -0.5f, GL_LINEAR_MIPMAP_NEAREST, 0.6f},
      {0.5f, 0.75f, -1000, 1000, GL_LINEAR_MIPMAP_LINEAR, 0.6f},
      {-0.5f, 0.75f, -1000, 1000, GL_NEAREST_MIPMAP_NEAREST, 0.6f},
      {0.25f, 0.0f, 1.75f, 1000, GL_NEAREST_MIPMAP_LINEAR, 0.6f},
      {1.0f, -1.25f, -1000, 1000, GL_NEAREST_MIPMAP_NEAREST, 0.4f},
      {1.0f, 0.0f, -1000, 0.25f, GL_LINEAR_MIPMAP_LINEAR, 0.4f},
  };
  for (const Case& c : cases) {
    CAPTURE(c.lod, c.bias, c.min_lod, c.max_lod, c.min_filter, c.ref);
    for (GLuint tex : {t, mipmapped}) {
      glTextureParameterf(tex, GL_TEXTURE_LOD_BIAS, c.bias);
      glTextureParameterf(tex, GL_TEXTURE_MIN_LOD, c.min_lod);
      glTextureParameterf(tex, GL_TEXTURE_MAX_LOD, c.max_lod);
    }
    glTextureParameteri(mipmapped, GL_TEXTURE_MIN_FILTER, static_cast<GLint>(c.min_filter));
    glUniform1f(glGetUniformLocation(program, "lod"), c.lod);
    glUniform1f(glGetUniformLocation(program, "ref"), c.ref);
    glDispatchCompute(1, 1, 1);
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    float r[2] = {};
    glGetNamedBufferSubData(out, 0, sizeof r, r);
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    REQUIRE_FALSE(gl.saw_message_containing("dispatch was skipped"));
    const float lambda = std::clamp(c.lod + c.bias, c.min_lod, c.max_lod);
    // r[0]: LEQUAL with ref 0.25 on the footprint (1..2, 1..2) of depths 0.17, 0.20, 0.30, 0.33: LINEAR ¾, NEAREST 1.
    const float nearest = model_nearest(GL_LEQUAL, s, tt, 0.25f, 0);
    const float linear = model_linear(GL_LEQUAL, s, tt, 0.25f, 0);
    if (lambda <= 0) {
      CHECK(r[0] == nearest);
    } else {
      CHECK((r[0] == Approx(linear).margin(1.0 / 64) || (!filterable && r[0] == nearest)));
    }
    const bool blend = c.min_filter == GL_LINEAR_MIPMAP_LINEAR || c.min_filter == GL_NEAREST_MIPMAP_LINEAR;
    CHECK((r[1] == Approx(levels_model(c.ref, lambda, blend)).margin(1.0 / 16) ||
           (!filterable && blend && r[1] == levels_model(c.ref, lambda, false))));
  }
  glDeleteTextures(1, &t);
  glDeleteTextures(1, &mipmapped);
  glDeleteBuffers(1, &out);
  glDeleteProgram(program);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

// §8.14.3's *_MIPMAP_LINEAR on cube and cube array shadow samplers: the comparisons of two levels blended by
// frac(λ). A compute shader's texture() has no derivatives; TEXTURE_MIN_LOD = TEXTURE_MAX_LOD fixes λ whatever
// λ_base is (§8.14.1's clamp).
TEST_CASE("*_MIPMAP_LINEAR cube shadow lookups blend two levels (GL 4.6 §8.14.3, §8.23.1)",
          "[textures][depth][shadow]") {
  GlContext gl;
  if (!depth_textures_here()) return;
  const GLuint program = make_program(R"(#version 430
layout(local_size_x = 1) in;
layout(binding = 0) uniform samplerCubeShadow sc;
layout(binding = 1) uniform samplerCubeArrayShadow sca;
uniform float ref;
layout(std430, binding = 0) buffer Out { float r[2]; };
void main() {
  r[0] = texture(sc, vec4(0.3, -1.0, 0.2, ref));
  r[1] = texture(sca, vec4(0.3, 0.2, 1.0, 1.0), ref);
}
)");
  const GLuint cube = uniform_levels(GL_TEXTURE_CUBE_MAP);
  const GLuint cube_array = uniform_levels(GL_TEXTURE_CUBE_MAP_ARRAY);
  glBindTextureUnit(0, cube);
  glBindTextureUnit(1, cube_array);
  const GLuint out = make_buffer(8);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, out);
  glUseProgram(program);
  GLint filter_support = GL_NONE;
  glGetInternalformativ(GL_TEXTURE_CUBE_MAP, GL_DEPTH_COMPONENT32F, GL_FILTER, 1, &filter_support);
  const bool filterable = filter_support == GL_FULL_SUPPORT;
  for (GLenum min : {GL_NEAREST_MIPMAP_LINEAR, GL_LINEAR_MIPMAP_LINEAR, GL_LINEAR_MIPMAP_NEAREST}) {
    CAPTURE(min);
    for (float lambda : {0.25f, 1.25f, 1.75f, 2.5f}) {
      CAPTURE(lambda);
      for (GLuint tex : {cube, cube_array}) {
        glTextureParameteri(tex, GL_TEXTURE_MIN_FILTER, static_cast<GLint>(min));
        glTextureParameterf(tex, GL_TEXTURE_MIN_LOD, lambda);
        glTextureParameterf(tex, GL_TEXTURE_MAX_LOD, lambda);
      }
      for (float ref : {0.4f, 0.6f}) {
        CAPTURE(ref);
        glUniform1f(glGetUniformLocation(program, "ref"), ref);
        glDispatchCompute(1, 1, 1);
        glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
        float r[2] = {};
        glGetNamedBufferSubData(out, 0, sizeof r, r);
        REQUIRE_GL_ERROR(GL_NO_ERROR);
        REQUIRE_FALSE(gl.saw_message_containing("dispatch was skipped"));
        const bool blend = min != GL_LINEAR_MIPMAP_NEAREST;
        for (float got : r) {
          CHECK((got == Approx(levels_model(ref, lambda, blend)).margin(1.0 / 16) ||
                 (!filterable && blend && got == levels_model(ref, lambda, false))));
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

// §8.14.1 for textureGrad: "ρ = max{ sqrt((∂u/∂x)² + (∂v/∂x)²), sqrt((∂u/∂y)² + (∂v/∂y)²) }" with u = s·w_t, v = t·h_t,
// and λ_base = log2 ρ; for a cube map (s, t) are the face's (§8.13.1), so on +Z at its centre ∂s = ∂rx / 2. The
// gradients choose the levels as an explicit lod does, here with *_MIPMAP_LINEAR blending two of them.
TEST_CASE("textureGrad's derivatives give λ for shadow lookups (GL 4.6 §8.14.1)", "[textures][depth][shadow]") {
  GlContext gl;
  if (!depth_textures_here()) return;
  const GLuint program = make_program(R"(#version 430
layout(local_size_x = 1) in;
layout(binding = 0) uniform sampler2DShadow s;
layout(binding = 1) uniform samplerCubeShadow sc;
uniform float ref;
uniform float d;
layout(std430, binding = 0) buffer Out { float r[2]; };
void main() {
  r[0] = textureGrad(s, vec3(0.3, 0.3, ref), vec2(d, 0.0), vec2(0.0, d * 0.5));
  r[1] = textureGrad(sc, vec4(0.0, 0.0, 1.0, ref), vec3(0.0, d * 0.5, 0.0), vec3(d * 2.0, 0.0, 0.0));
}
)");
  const GLuint t = uniform_levels(GL_TEXTURE_2D);
  const GLuint cube = uniform_levels(GL_TEXTURE_CUBE_MAP);
  glBindTextureUnit(0, t);
  glBindTextureUnit(1, cube);
  const GLuint out = make_buffer(8);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, out);
  glUseProgram(program);
  GLint filter_support = GL_NONE;
  glGetInternalformativ(GL_TEXTURE_2D, GL_DEPTH_COMPONENT32F, GL_FILTER, 1, &filter_support);
  const bool filterable = filter_support == GL_FULL_SUPPORT;
  for (GLenum min : {GL_LINEAR_MIPMAP_LINEAR, GL_NEAREST_MIPMAP_NEAREST}) {
    CAPTURE(min);
    for (GLuint tex : {t, cube}) glTextureParameteri(tex, GL_TEXTURE_MIN_FILTER, static_cast<GLint>(min));
    for (float lambda : {0.25f, 1.25f, 1.75f}) {
      CAPTURE(lambda);
      // 2D: ρ = max(4d, 2d) = 4d; cube (+Z at its centre, ma = 1): dPdy's ∂rx = 2d is ∂s = d, dPdx's ∂ry = d/2 is
      // |∂t| = d/4, so ρ = max(4d, d) = 4d. Both 2^λ.
      const float d = std::exp2(lambda) / 4.0f;
      glUniform1f(glGetUniformLocation(program, "d"), d);
      for (float ref : {0.4f, 0.6f}) {
        CAPTURE(ref);
        glUniform1f(glGetUniformLocation(program, "ref"), ref);
        glDispatchCompute(1, 1, 1);
        glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
        float r[2] = {};
        glGetNamedBufferSubData(out, 0, sizeof r, r);
        REQUIRE_GL_ERROR(GL_NO_ERROR);
        REQUIRE_FALSE(gl.saw_message_containing("dispatch was skipped"));
        const bool blend = min == GL_LINEAR_MIPMAP_LINEAR;
        for (int i = 0; i < 2; ++i) {
          CAPTURE(i);
          CHECK((r[i] == Approx(levels_model(ref, lambda, blend)).margin(1.0 / 16) ||
                 (!filterable && blend && r[i] == levels_model(ref, lambda, false))));
        }
      }
    }
  }
  GLuint textures[2] = {t, cube};
  glDeleteTextures(2, textures);
  glDeleteBuffers(1, &out);
  glDeleteProgram(program);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

// ---- TEXTURE_CUBE_MAP_SEAMLESS disabled ----

// GL 4.6 §8.13.1: seamless cube map filtering happens "If TEXTURE_CUBE_MAP_SEAMLESS is enabled"; otherwise "each face
// of the texture is treated as an independent two-dimensional texture, and the generated (s t) coordinate is
// subjected to the same clamping and wrapping rules as for any other two dimensional texture fetch"
// (ARB_seamless_cube_map). GL 4.6's state tables (chapter 23): TEXTURE_CUBE_MAP_SEAMLESS, IsEnabled, initially FALSE.
TEST_CASE("TEXTURE_CUBE_MAP_SEAMLESS is an enable, initially FALSE (GL 4.6 §8.13.1)", "[textures]") {
  GlContext gl;
  auto state = [] {
    GLboolean b = GL_FALSE;
    GLint i = -1;
    glGetBooleanv(GL_TEXTURE_CUBE_MAP_SEAMLESS, &b);
    glGetIntegerv(GL_TEXTURE_CUBE_MAP_SEAMLESS, &i);
    const GLboolean enabled = glIsEnabled(GL_TEXTURE_CUBE_MAP_SEAMLESS);
    CHECK(b == enabled);
    CHECK(i == (enabled ? 1 : 0));
    return enabled == GL_TRUE;
  };
  CHECK_FALSE(state());
  glEnable(GL_TEXTURE_CUBE_MAP_SEAMLESS);
  CHECK(state());
  glDisable(GL_TEXTURE_CUBE_MAP_SEAMLESS);
  CHECK_FALSE(state());
  REQUIRE_GL_ERROR(GL_NO_ERROR);
}

namespace {

// §8.14.2 LINEAR on the selected face alone, CLAMP_TO_EDGE (equation 8.11's i = clamp(i, 0, w_t − 1)): the 2x2
// footprint's texels outside the face are the face's edge texels.
template <class Value>
float per_face_linear(const std::array<float, 3>& r, int size, Value value) {
  const CubeCoord c = cube_coord(r);
  const float u = c.s * float(size) - 0.5f, v = c.t * float(size) - 0.5f;
  const int i0 = int(std::floor(u)), j0 = int(std::floor(v));
  const float a = u - std::floor(u), b = v - std::floor(v);
  auto at = [&](int i, int j) {
    return value(CubeTexel{c.face, std::clamp(i, 0, size - 1), std::clamp(j, 0, size - 1)});
  };
  return (1 - a) * (1 - b) * at(i0, j0) + a * (1 - b) * at(i0 + 1, j0) + (1 - a) * b * at(i0, j0 + 1) +
         a * b * at(i0 + 1, j0 + 1);
}

// Footprints at face edges with weights exact in binary (as above): +X with the row above on +Y; the corner of +X,
// +Y and +Z; −Z with the column right of it on −X; and one inside +Z (the same either way).
const std::array<std::array<float, 3>, 4> kEdgeDirs = {{
    cube_direction(0, 2 * 0.4375f - 1, 2 * 0.0625f - 1),
    cube_direction(0, 2 * 0.0625f - 1, 2 * 0.0625f - 1),
    cube_direction(5, 2 * 0.9375f - 1, 2 * 0.5625f - 1),
    cube_direction(4, 2 * 0.4375f - 1, 2 * 0.5625f - 1),
}};

}  // namespace

// A colour samplerCube / samplerCubeArray with LINEAR (R32F: filterable), TEXTURE_CUBE_MAP_SEAMLESS off and on: off
// filters the selected face alone with its CLAMP_TO_EDGE wrap (VK_EXT_non_seamless_cube_map), on takes the texels
// past an edge from the neighbouring face. The two models differ at the edges, so each state is told apart.
TEST_CASE("LINEAR cube lookups at a face edge stay on the face unless TEXTURE_CUBE_MAP_SEAMLESS (GL 4.6 §8.13.1)",
          "[textures]") {
  GlContext gl;
  const GLuint program = make_program(R"(#version 430
layout(local_size_x = 1) in;
layout(binding = 0) uniform samplerCube c;
layout(binding = 1) uniform samplerCubeArray ca;
uniform vec3 dirs[4];
layout(std430, binding = 0) buffer Out { float r[8]; };
void main() {
  for (int i = 0; i < 4; ++i) {
    r[i] = texture(c, dirs[i]).r;
    r[4 + i] = texture(ca, vec4(dirs[i], 1.0)).r;
  }
}
)");
  // Every texel its own value; the array's layer 1 is layer 0 plus 1.
  auto value = [](int layer, const CubeTexel& t) { return float(t.face * 16 + t.y * 4 + t.x) / 96.0f + float(layer); };
  GLuint cube = 0, cube_array = 0;
  glCreateTextures(GL_TEXTURE_CUBE_MAP, 1, &cube);
  glCreateTextures(GL_TEXTURE_CUBE_MAP_ARRAY, 1, &cube_array);
  glTextureStorage2D(cube, 1, GL_R32F, 4, 4);
  glTextureStorage3D(cube_array, 1, GL_R32F, 4, 4, 12);
  for (int layer = 0; layer < 2; ++layer) {
    for (int face = 0; face < 6; ++face) {
      std::vector<float> texels;
      for (int y = 0; y < 4; ++y) {
        for (int x = 0; x < 4; ++x) texels.push_back(value(layer, {face, x, y}));
      }
      if (layer == 0) glTextureSubImage3D(cube, 0, 0, 0, face, 4, 4, 1, GL_RED, GL_FLOAT, texels.data());
      glTextureSubImage3D(cube_array, 0, 0, 0, layer * 6 + face, 4, 4, 1, GL_RED, GL_FLOAT, texels.data());
    }
  }
  for (GLuint tex : {cube, cube_array}) {
    glTextureParameteri(tex, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTextureParameteri(tex, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTextureParameteri(tex, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTextureParameteri(tex, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  }
  glBindTextureUnit(0, cube);
  glBindTextureUnit(1, cube_array);
  const GLuint out = make_buffer(32);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, out);
  glUseProgram(program);
  glUniform3fv(glGetUniformLocation(program, "dirs"), 4, kEdgeDirs[0].data());
  for (bool seamless : {false, true, false}) {
    CAPTURE(seamless);
    if (seamless) {
      glEnable(GL_TEXTURE_CUBE_MAP_SEAMLESS);
    } else {
      glDisable(GL_TEXTURE_CUBE_MAP_SEAMLESS);
    }
    glDispatchCompute(1, 1, 1);
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    float r[8] = {};
    glGetNamedBufferSubData(out, 0, sizeof r, r);
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    const double margin = 1.0 / 256;  // the device's subtexel weights on values 1/96 apart
    for (int i = 0; i < 8; ++i) {
      CAPTURE(i);
      const int layer = i < 4 ? 0 : 1;
      const auto& dir = kEdgeDirs[size_t(i % 4)];
      auto v = [&](const CubeTexel& t) { return value(layer, t); };
      const float per_face = per_face_linear(dir, 4, v);
      const CubeLinear joined = cube_linear(dir, 4, v);
      if (i % 4 < 3) CHECK(std::fabs(per_face - joined.recommended()) > 4 * margin);  // an edge: the models differ
      if (seamless) {
        CHECK(r[i] >= joined.known + joined.corner_weight * joined.lo - margin);
        CHECK(r[i] <= joined.known + joined.corner_weight * joined.hi + margin);
      } else {
        CHECK(r[i] == Approx(per_face).margin(margin));
      }
    }
  }
  GLuint textures[2] = {cube, cube_array};
  glDeleteTextures(2, textures);
  glDeleteBuffers(1, &out);
  glDeleteProgram(program);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

// The same for cube shadow samplers (§8.23.1's weighted average of the footprint's comparisons): with
// TEXTURE_CUBE_MAP_SEAMLESS disabled the footprint is the selected face's, clamped to its edge texels — through the
// comparing sampler where the device compares (depth formats), in the shader where it does not
// (BISMUTH_DEPTH_TEXTURES=color: spirv_patch's kShadowStateCubeNonSeamless).
TEST_CASE("cube shadow samplers filter LINEAR within the face unless TEXTURE_CUBE_MAP_SEAMLESS (GL 4.6 §8.13.1)",
          "[textures][depth][shadow]") {
  GlContext gl;
  if (!depth_textures_here()) return;
  const GLuint program = make_program(kCubeShadowSource);
  GLuint cube = 0, cube_array = 0;
  make_cube_shadow_textures(cube, cube_array);
  for (GLuint tex : {cube, cube_array}) {
    glTextureParameteri(tex, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTextureParameteri(tex, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  }
  const GLuint out = make_buffer(32);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, out);
  glUseProgram(program);
  glUniform3fv(glGetUniformLocation(program, "dirs"), 4, kEdgeDirs[0].data());
  GLint filter_support = GL_NONE;
  glGetInternalformativ(GL_TEXTURE_CUBE_MAP, GL_DEPTH_COMPONENT32F, GL_FILTER, 1, &filter_support);
  const bool filterable = filter_support == GL_FULL_SUPPORT;
  if (!filterable) WARN("this device does not filter the depth format linearly: LINEAR may compare one texel");
  // Refs between the depths of +X (0..1/12) and +Y / +Z / −X (above 1/6), and within −Z's (5/12..1/2), so that the
  // edge footprints' comparisons differ between the face and its neighbours.
  for (float ref : {0.0117f, 0.0845f, 0.43f}) {
    CAPTURE(ref);
    glUniform1f(glGetUniformLocation(program, "ref"), ref);
    for (bool seamless : {false, true}) {
      CAPTURE(seamless);
      if (seamless) {
        glEnable(GL_TEXTURE_CUBE_MAP_SEAMLESS);
      } else {
        glDisable(GL_TEXTURE_CUBE_MAP_SEAMLESS);
      }
      for (GLenum func : {GL_LEQUAL, GL_GREATER}) {
        CAPTURE(func);
        for (GLuint tex : {cube, cube_array}) {
          glTextureParameteri(tex, GL_TEXTURE_COMPARE_FUNC, static_cast<GLint>(func));
        }
        glDispatchCompute(1, 1, 1);
        glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
        float r[8] = {};
        glGetNamedBufferSubData(out, 0, sizeof r, r);
        REQUIRE_GL_ERROR(GL_NO_ERROR);
        REQUIRE_FALSE(gl.saw_message_containing("dispatch was skipped"));
        for (int i = 0; i < 8; ++i) {
          CAPTURE(i);
          const int layer = i < 4 ? 0 : 1;
          const auto& dir = kEdgeDirs[size_t(i % 4)];
          const float layer_ref = ref + 0.5f * float(layer);
          auto result = [&](const CubeTexel& t) { return compare(func, layer_ref, cube_shadow_depth(layer, t)); };
          const float nearest = result(nearest_cube_texel(dir, kSize));
          const double margin = 1.0 / 64;
          bool matches = false;
          if (seamless) {
            const CubeLinear model = cube_linear(dir, kSize, result);
            matches = r[i] >= model.known + model.corner_weight * model.lo - margin &&
                      r[i] <= model.known + model.corner_weight * model.hi + margin;
          } else {
            matches = std::fabs(r[i] - per_face_linear(dir, kSize, result)) <= margin;
          }
          CHECK((matches || (!filterable && r[i] == nearest)));
        }
      }
    }
  }
  // The test tells the states apart: at ref 0.0845 with LEQUAL, +X's edge footprint compares differently on +Y.
  {
    auto result = [](const CubeTexel& t) {
      return compare(GL_LEQUAL, 0.0845f, (float(t.face * 16 + t.y * 4 + t.x) + 0.5f) / 96.0f * 0.5f);
    };
    CHECK(std::fabs(per_face_linear(kEdgeDirs[0], kSize, result) - cube_linear(kEdgeDirs[0], kSize, result).known) >
          0.1f);
  }
  GLuint textures[2] = {cube, cube_array};
  glDeleteTextures(2, textures);
  glDeleteBuffers(1, &out);
  glDeleteProgram(program);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

namespace {

// GL 4.6 §8.14.2, table 8.20 ("Texel location wrap mode application"), on a texel index of a face `size` texels wide:
// CLAMP_TO_EDGE clamp(coord, 0, size − 1); CLAMP_TO_BORDER clamp(coord, −1, size); REPEAT fmod(coord, size);
// MIRRORED_REPEAT (size − 1) − mirror(fmod(coord, 2 × size) − size); MIRROR_CLAMP_TO_EDGE
// clamp(mirror(coord), 0, size − 1); "mirror(a) returns a if a ≥ 0, and −(1 + a) otherwise".
int wrap_index(GLenum mode, int coord, int size) {
  auto mirror = [](int a) { return a >= 0 ? a : -(1 + a); };
  auto fmod = [](int a, int b) { return a - b * int(std::floor(float(a) / float(b))); };
  switch (mode) {
    case GL_CLAMP_TO_EDGE: return std::clamp(coord, 0, size - 1);
    case GL_CLAMP_TO_BORDER: return std::clamp(coord, -1, size);
    case GL_REPEAT: return fmod(coord, size);
    case GL_MIRRORED_REPEAT: return (size - 1) - mirror(fmod(coord, 2 * size) - size);
    default: return std::clamp(mirror(coord), 0, size - 1);  // MIRROR_CLAMP_TO_EDGE
  }
}

// §8.13 with TEXTURE_CUBE_MAP_SEAMLESS disabled: the selected face is a 2D texture. LINEAR (§8.14.2): the 2x2
// footprint i0 = wrap(⌊u − ½⌋), i1 = wrap(⌊u − ½⌋ + 1) (and j), bilinear weights; NEAREST: i = wrap(⌊u⌋). A wrapped
// index outside [0, size) is a border texel ("the border values defined by TEXTURE_BORDER_COLOR are used"), whose
// result is `border` (its depth compared like a texel's, §8.23.1).
template <class Value>
float per_face_wrapped(const std::array<float, 3>& r, int size, GLenum wrap_s, GLenum wrap_t, bool linear, Value value,
                       float border) {
  const CubeCoord c = cube_coord(r);
  auto at = [&](int i, int j) {
    const int x = wrap_index(wrap_s, i, size), y = wrap_index(wrap_t, j, size);
    if (x < 0 || x >= size || y < 0 || y >= size) return border;
    return value(CubeTexel{c.face, x, y});
  };
  if (!linear) return at(int(std::floor(c.s * float(size))), int(std::floor(c.t * float(size))));
  const float u = c.s * float(size) - 0.5f, v = c.t * float(size) - 0.5f;
  const int i0 = int(std::floor(u)), j0 = int(std::floor(v));
  const float a = u - std::floor(u), b = v - std::floor(v);
  return (1 - a) * (1 - b) * at(i0, j0) + a * (1 - b) * at(i0 + 1, j0) + (1 - a) * b * at(i0, j0 + 1) +
         a * b * at(i0 + 1, j0 + 1);
}

}  // namespace

// GL 4.6 §8.13: with TEXTURE_CUBE_MAP_SEAMLESS disabled the face is selected and (s, t) computed, then the face is
// sampled as a two-dimensional texture, "subjected to the same clamping and wrapping rules as for any other two
// dimensional texture fetch" (ARB_seamless_cube_map): TEXTURE_WRAP_S / TEXTURE_WRAP_T apply at the face's edges
// (table 8.20), and a CLAMP_TO_BORDER texel past an edge is the border, "If the texture contains depth components,
// the first component of TEXTURE_BORDER_COLOR is interpreted as a depth value" (§8.14.2), compared with D_ref like
// any texel (§8.23.1). Through the comparing sampler with VK_EXT_non_seamless_cube_map (depth formats) and through
// the comparison in the shader (BISMUTH_DEPTH_TEXTURES=color: the wrap modes and border depth as push constants). A
// cube face's (s, t) lie in [0, 1], so a footprint reaches one texel past an edge at most: there MIRRORED_REPEAT and
// MIRROR_CLAMP_TO_EDGE pick the edge texel as CLAMP_TO_EDGE does, while REPEAT takes the opposite edge's texel and
// CLAMP_TO_BORDER the border (the test checks that those two differ from CLAMP_TO_EDGE).
TEST_CASE("non-seamless cube shadow lookups apply the face's wrap modes and border (GL 4.6 §8.13, §8.14.2)",
          "[textures][depth][shadow]") {
  GlContext gl;
  if (!depth_textures_here()) return;
  const GLuint program = make_program(kCubeShadowSource);
  GLuint cube = 0, cube_array = 0;
  make_cube_shadow_textures(cube, cube_array);
  glDisable(GL_TEXTURE_CUBE_MAP_SEAMLESS);
  const GLuint out = make_buffer(32);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, out);
  glUseProgram(program);
  glUniform3fv(glGetUniformLocation(program, "dirs"), 4, kEdgeDirs[0].data());
  GLint filter_support = GL_NONE;
  glGetInternalformativ(GL_TEXTURE_CUBE_MAP, GL_DEPTH_COMPONENT32F, GL_FILTER, 1, &filter_support);
  const bool filterable = filter_support == GL_FULL_SUPPORT;
  if (!filterable) WARN("this device does not filter the depth format linearly: LINEAR may compare one texel");
  const std::array<std::array<GLenum, 2>, 7> wraps = {{
      {GL_CLAMP_TO_EDGE, GL_CLAMP_TO_EDGE},
      {GL_REPEAT, GL_REPEAT},
      {GL_MIRRORED_REPEAT, GL_MIRRORED_REPEAT},
      {GL_CLAMP_TO_BORDER, GL_CLAMP_TO_BORDER},
      {GL_MIRROR_CLAMP_TO_EDGE, GL_MIRROR_CLAMP_TO_EDGE},
      {GL_REPEAT, GL_CLAMP_TO_BORDER},
      {GL_CLAMP_TO_BORDER, GL_REPEAT},
  }};
  // Border depths below, between and above the faces' depths (layer 0: 0..0.5, layer 1: 0.5..1).
  const float borders[] = {0.0f, 0.3f, 1.0f};
  bool repeat_differs = false, border_differs = false;
  for (const auto& wrap : wraps) {
    CAPTURE(wrap[0], wrap[1]);
    for (GLuint tex : {cube, cube_array}) {
      glTextureParameteri(tex, GL_TEXTURE_WRAP_S, static_cast<GLint>(wrap[0]));
      glTextureParameteri(tex, GL_TEXTURE_WRAP_T, static_cast<GLint>(wrap[1]));
    }
    const bool has_border = wrap[0] == GL_CLAMP_TO_BORDER || wrap[1] == GL_CLAMP_TO_BORDER;
    for (float border :
         has_border ? std::vector<float>(std::begin(borders), std::end(borders)) : std::vector<float>{0.0f}) {
      CAPTURE(border);
      const float border_color[4] = {border, 0.25f, 0.5f, 1.0f};
      for (GLuint tex : {cube, cube_array}) glTextureParameterfv(tex, GL_TEXTURE_BORDER_COLOR, border_color);
      for (bool linear : {true, false}) {
        CAPTURE(linear);
        for (GLuint tex : {cube, cube_array}) {
          glTextureParameteri(tex, GL_TEXTURE_MIN_FILTER, linear ? GL_LINEAR : GL_NEAREST);
          glTextureParameteri(tex, GL_TEXTURE_MAG_FILTER, linear ? GL_LINEAR : GL_NEAREST);
        }
        for (float ref : {0.0117f, 0.0845f, 0.43f}) {
          CAPTURE(ref);
          glUniform1f(glGetUniformLocation(program, "ref"), ref);
          for (GLenum func : {GL_LEQUAL, GL_GREATER}) {
            CAPTURE(func);
            for (GLuint tex : {cube, cube_array}) {
              glTextureParameteri(tex, GL_TEXTURE_COMPARE_FUNC, static_cast<GLint>(func));
            }
            glDispatchCompute(1, 1, 1);
            glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
            float r[8] = {};
            glGetNamedBufferSubData(out, 0, sizeof r, r);
            REQUIRE_GL_ERROR(GL_NO_ERROR);
            REQUIRE_FALSE(gl.saw_message_containing("dispatch was skipped"));
            for (int i = 0; i < 8; ++i) {
              CAPTURE(i);
              const int layer = i < 4 ? 0 : 1;
              const auto& dir = kEdgeDirs[size_t(i % 4)];
              const float layer_ref = ref + 0.5f * float(layer);
              auto result = [&](const CubeTexel& t) { return compare(func, layer_ref, cube_shadow_depth(layer, t)); };
              const float border_result = compare(func, layer_ref, border);
              const float model = per_face_wrapped(dir, kSize, wrap[0], wrap[1], linear, result, border_result);
              const float edge_model =
                  per_face_wrapped(dir, kSize, GL_CLAMP_TO_EDGE, GL_CLAMP_TO_EDGE, linear, result, border_result);
              if (std::fabs(model - edge_model) > 0.1f) {
                if (wrap[0] == GL_REPEAT && wrap[1] == GL_REPEAT) repeat_differs = true;
                if (wrap[0] == GL_CLAMP_TO_BORDER && wrap[1] == GL_CLAMP_TO_BORDER) border_differs = true;
              }
              const float nearest = per_face_wrapped(dir, kSize, wrap[0], wrap[1], false, result, border_result);
              const bool matches = std::fabs(r[i] - model) <= 1.0 / 64;
              CHECK((matches || (linear && !filterable && r[i] == nearest)));
            }
          }
        }
      }
    }
  }
  // The wrap modes are told apart from CLAMP_TO_EDGE at these edges.
  CHECK(repeat_differs);
  CHECK(border_differs);
  GLuint textures[2] = {cube, cube_array};
  glDeleteTextures(2, textures);
  glDeleteBuffers(1, &out);
  glDeleteProgram(program);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}
