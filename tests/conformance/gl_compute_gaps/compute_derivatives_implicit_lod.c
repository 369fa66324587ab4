/* compute_derivatives_implicit_lod.c: implicit level-of-detail texture sampling in compute shaders with
 * GL_NV_compute_shader_derivatives, through the GL API. GLSL 4.60 §8.9: "automatic level of detail is computed only
 * for fragment shaders. Other shaders operate as though the base level of detail were computed as zero";
 * NV_compute_shader_derivatives extends the automatic level of detail (and dFdx / dFdy) to compute shaders that
 * declare derivative_group_quadsNV or derivative_group_linearNV, the derivatives taken over the quad of
 * invocations the layout defines. The level then follows GL 4.6 §8.14:
 *   lambda_base = log2(rho), rho from the derivatives of (u, v) = (s, t) * (width, height) of the base level (an
 *   implementation may use any f with max(m_u, m_v) <= f <= m_u + m_v, m_u = max(|du/dx|, |du/dy|));
 *   lambda' = lambda_base + clamp(bias_texobj, ...) (TEXTURE_LOD_BIAS), lambda = clamp(lambda', TEXTURE_MIN_LOD,
 *   TEXTURE_MAX_LOD); with NEAREST_MIPMAP_NEAREST level ceil(lambda + 1/2) - 1 (level 0 for lambda <= 1/2).
 * A 16x16 texture with five levels, each a solid colour, tells the level every invocation sampled. The steps here
 * move u alone (m_v = 0), so f = rho exactly and lambda_base is the integer log2 of the step.
 * Skipped (exit 77) where the device cannot back the extension: lavapipe (Mesa 22.3) has no
 * VK_NV_compute_shader_derivatives. */
#include "conformance.h"

static const GLubyte kLevelColors[5][4] = {
    {255, 0, 0, 255}, {0, 255, 0, 255}, {0, 0, 255, 255}, {255, 255, 255, 255}, {255, 255, 0, 255}};

static GLuint make_texture(void) {
  GLuint texture = 0;
  glGenTextures(1, &texture);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, texture);
  glTexStorage2D(GL_TEXTURE_2D, 5, GL_RGBA8, 16, 16);
  static GLubyte texels[16 * 16 * 4];
  for (int level = 0; level < 5; ++level) {
    const int size = 16 >> level;
    for (int i = 0; i < size * size; ++i) memcpy(&texels[i * 4], kLevelColors[level], 4);
    glTexSubImage2D(GL_TEXTURE_2D, level, 0, 0, size, size, GL_RGBA, GL_UNSIGNED_BYTE, texels);
  }
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST_MIPMAP_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_REPEAT);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_REPEAT);
  CHECK_GL_ERROR(GL_NO_ERROR, "making the mipmapped texture");
  return texture;
}

/* The shader: work group g steps u by `texel_step[g]` base texels per invocation along the quad's x; each invocation
 * counts the level whose colour it read in seen[g][level] (5: none). `layout` is the derivative group part. */
static GLuint make_program(const char* layout, const char* quad_x) {
  char source[4096];
  snprintf(source, sizeof source,
           "#version 450\n#extension GL_NV_compute_shader_derivatives : require\n%s"
           "uniform sampler2D tex;\n"
           "uniform float texel_step[5];\n"
           "layout(std430, binding = 0) buffer Seen { uint seen[5][6]; };\n"
           "uint level_of(vec4 c) {\n"
           "  if (c == vec4(1, 0, 0, 1)) return 0u;\n"
           "  if (c == vec4(0, 1, 0, 1)) return 1u;\n"
           "  if (c == vec4(0, 0, 1, 1)) return 2u;\n"
           "  if (c == vec4(1, 1, 1, 1)) return 3u;\n"
           "  if (c == vec4(1, 1, 0, 1)) return 4u;\n"
           "  return 5u;\n"
           "}\n"
           "void main() {\n"
           "  uint g = gl_WorkGroupID.x;\n"
           "  float x = %s;\n"
           "  vec2 coord = vec2((x + 0.25) * texel_step[g] / 16.0, 0.5);\n"
           "  atomicAdd(seen[g][level_of(texture(tex, coord))], 1u);\n"
           "}\n",
           layout, quad_x);
  return conformance_compute_program(source);
}

/* Runs `program` with the steps and returns, per group, the level every invocation saw (-1: they disagreed or
 * saw none of the levels). */
static void levels_seen(GLuint program, GLuint invocations, const float steps[5], int levels[5]) {
  GLuint buffer = 0;
  glCreateBuffers(1, &buffer);
  GLuint zero[5][6];
  memset(zero, 0, sizeof zero);
  glNamedBufferData(buffer, sizeof zero, zero, GL_DYNAMIC_COPY);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, buffer);
  glUseProgram(program);
  glUniform1i(glGetUniformLocation(program, "tex"), 0);
  glUniform1fv(glGetUniformLocation(program, "texel_step"), 5, steps);
  glDispatchCompute(5, 1, 1);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  GLuint seen[5][6];
  glGetNamedBufferSubData(buffer, 0, sizeof seen, seen);
  for (int g = 0; g < 5; ++g) {
    levels[g] = -1;
    for (int l = 0; l < 5; ++l) {
      if (seen[g][l] == invocations) levels[g] = l;
    }
  }
  glUseProgram(0);
  glDeleteBuffers(1, &buffer);
}

static void check_layout(const char* name, const char* layout, const char* quad_x, GLuint invocations) {
  GLuint program = make_program(layout, quad_x);
  CHECK(program != 0, "%s: texture() without an LOD compiles in a compute shader with a derivative group", name);
  if (program == 0) return;
  const float steps[5] = {1.0f, 2.0f, 4.0f, 8.0f, 16.0f};
  int levels[5];
  /* lambda_base = log2(step): levels 0..4. */
  levels_seen(program, invocations, steps, levels);
  for (int g = 0; g < 5; ++g) {
    CHECK(levels[g] == g, "%s: a step of %g base texels selects level %d (every invocation saw level %d)", name,
          steps[g], g, levels[g]);
  }
  /* TEXTURE_LOD_BIAS 1: lambda' = lambda_base + 1 (level 4 is the last: lambda is clamped to q = 4 there). */
  glTexParameterf(GL_TEXTURE_2D, GL_TEXTURE_LOD_BIAS, 1.0f);
  levels_seen(program, invocations, steps, levels);
  for (int g = 0; g < 5; ++g) {
    const int expected = g + 1 < 4 ? g + 1 : 4;
    CHECK(levels[g] == expected, "%s: TEXTURE_LOD_BIAS 1 moves step %g to level %d (saw %d)", name, steps[g], expected,
          levels[g]);
  }
  glTexParameterf(GL_TEXTURE_2D, GL_TEXTURE_LOD_BIAS, 0.0f);
  /* TEXTURE_MAX_LOD 2: lambda = min(lambda', 2). */
  glTexParameterf(GL_TEXTURE_2D, GL_TEXTURE_MAX_LOD, 2.0f);
  levels_seen(program, invocations, steps, levels);
  for (int g = 0; g < 5; ++g) {
    const int expected = g < 2 ? g : 2;
    CHECK(levels[g] == expected, "%s: TEXTURE_MAX_LOD 2 clamps step %g to level %d (saw %d)", name, steps[g], expected,
          levels[g]);
  }
  glTexParameterf(GL_TEXTURE_2D, GL_TEXTURE_MAX_LOD, 1000.0f);
  glDeleteProgram(program);
}

int main(void) {
  setenv("BISMUTH_VALIDATION", "1", 0);
  conformance_make_context(EGL_OPENGL_API, 4, 6);
  if (!conformance_has_extension("GL_NV_compute_shader_derivatives")) {
    conformance_skip(
        "GL_NV_compute_shader_derivatives is not in GL_EXTENSIONS (the device has no "
        "computeDerivativeGroupQuads/Linear: VK_NV_compute_shader_derivatives)");
  }
  GLuint texture = make_texture();
  /* Quads: (2x, 2y) .. (2x+1, 2y+1) form a quad; x is the local x. */
  check_layout("derivative_group_quadsNV",
               "layout(local_size_x = 8, local_size_y = 4) in;\nlayout(derivative_group_quadsNV) in;\n",
               "float(gl_LocalInvocationID.x)", 32);
  /* Linear: indices 4n .. 4n+3 form a quad laid out (0,0), (1,0), (0,1), (1,1); its x is index bit 0, and quads
   * follow each other two texel steps apart. */
  check_layout("derivative_group_linearNV", "layout(local_size_x = 32) in;\nlayout(derivative_group_linearNV) in;\n",
               "float(gl_LocalInvocationIndex & 1u) + 2.0 * float(gl_LocalInvocationIndex >> 2u)", 32);
  glDeleteTextures(1, &texture);
  CHECK_GL_ERROR(GL_NO_ERROR, "at the end");
  return conformance_result();
}
