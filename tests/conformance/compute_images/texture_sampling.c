/* Texture sampling in compute as GL 4.3 programs use it (GL 4.6 chapter 8 and §11.1.3.5, GLSL 4.60 §8.9): sampler
 * uniforms without a binding qualifier whose unit is set with glUniform1i, texture units, texture parameters and
 * sampler objects, completeness, integer and buffer textures. Each kernel writes what it sampled to an SSBO. */
#include <math.h>

#include "conformance.h"

static GLuint results;

/* Runs `program` once (one invocation) and reads `count` vec4s of results. */
static void run(GLuint program, float* out, int count) {
  glUseProgram(program);
  glDispatchCompute(1, 1, 1);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, (GLsizeiptr)(count * 4 * sizeof(float)), out);
}

static int near(float a, float b, float tolerance) {
  return fabsf(a - b) <= tolerance;
}

/* GL 4.6 §7.10: "the value of a sampler uniform is the texture image unit to which it refers" (set with Uniform1i);
 * texelFetch reads level `lod` without filtering (GLSL 4.60 §8.9.2); textureSize and textureQueryLevels. */
static void fetch_levels_and_units(void) {
  const char* src =
      "#version 430\n"
      "layout(local_size_x = 1) in;\n"
      "uniform sampler2D tex;\n"
      "layout(std430, binding = 0) buffer Out { vec4 r[]; };\n"
      "void main() {\n"
      "  r[0] = texelFetch(tex, ivec2(3, 1), 0);\n"
      "  r[1] = texelFetch(tex, ivec2(1, 0), 1);\n"
      "  r[2] = vec4(textureSize(tex, 0), textureSize(tex, 1));\n"
      "  r[3] = vec4(textureQueryLevels(tex));\n"
      "}\n";
  GLuint program = conformance_compute_program(src);
  CHECK(program != 0, "a sampler2D program without binding links");
  if (!program) return;
  GLint location = glGetUniformLocation(program, "tex");
  CHECK(location >= 0, "the sampler uniform has a location");
  glUseProgram(program);
  glUniform1i(location, 3);
  CHECK_GL_ERROR(GL_NO_ERROR, "glUniform1i on a sampler");
  GLint unit = -1;
  glGetUniformiv(program, location, &unit);
  CHECK(unit == 3, "glGetUniformiv returns the sampler's unit (got %d)", unit);

  GLuint t = 0;
  glGenTextures(1, &t);
  glActiveTexture(GL_TEXTURE3);
  glBindTexture(GL_TEXTURE_2D, t);
  glTexStorage2D(GL_TEXTURE_2D, 2, GL_RGBA32F, 4, 2);
  float level0[4 * 2 * 4], level1[2 * 1 * 4];
  for (int i = 0; i < 32; ++i) level0[i] = (float)i;
  for (int i = 0; i < 8; ++i) level1[i] = 100.0f + (float)i;
  glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 4, 2, GL_RGBA, GL_FLOAT, level0);
  glTexSubImage2D(GL_TEXTURE_2D, 1, 0, 0, 2, 1, GL_RGBA, GL_FLOAT, level1);
  glActiveTexture(GL_TEXTURE0);
  float r[16];
  run(program, r, 4);
  CHECK_GL_ERROR(GL_NO_ERROR, "fetch program");
  CHECK(r[0] == 28.0f && r[1] == 29.0f && r[2] == 30.0f && r[3] == 31.0f,
        "texelFetch(3,1) of level 0 (got %g %g %g %g)", r[0], r[1], r[2], r[3]);
  CHECK(r[4] == 104.0f && r[7] == 107.0f, "texelFetch(1,0) of level 1 (got %g .. %g)", r[4], r[7]);
  CHECK(r[8] == 4.0f && r[9] == 2.0f && r[10] == 2.0f && r[11] == 1.0f, "textureSize of levels 0 and 1");
  CHECK(r[12] == 2.0f, "textureQueryLevels is the texture's 2 levels (got %g)", r[12]);
  glDeleteTextures(1, &t);
  glDeleteProgram(program);
}

/* GL 4.6 §8.14.2 (linear filtering, equation 8.11) and §8.14.2's wrap modes (Table 8.20) with textureLod at LOD 0
 * (GLSL 4.60 §8.9.2); a sampler object bound to the unit overrides the texture's own parameters (GL 4.6 §8.2). */
static void filtering_wrapping_and_samplers(void) {
  const char* src =
      "#version 430\n"
      "layout(local_size_x = 1) in;\n"
      "uniform sampler2D tex;\n"
      "layout(std430, binding = 0) buffer Out { vec4 r[]; };\n"
      "void main() {\n"
      "  r[0] = textureLod(tex, vec2(0.375 / 2.0, 0.5), 0.0);\n" /* between texels 0 and 1, 0.25 from 0 */
      "  r[1] = textureLod(tex, vec2(1.3125, 0.5), 0.0);\n"      /* outside [0,1]: the wrap mode decides */
      "}\n";
  GLuint program = conformance_compute_program(src);
  CHECK(program != 0, "the filtering program links");
  if (!program) return;
  GLuint t = 0;
  glGenTextures(1, &t);
  glBindTexture(GL_TEXTURE_2D, t);
  glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA16F, 4, 1);
  const float texels[16] = {0, 0, 0, 1, 1, 10, 100, 1, 2, 20, 200, 1, 3, 30, 300, 1};
  glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 4, 1, GL_RGBA, GL_FLOAT, texels);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_REPEAT);
  glUseProgram(program);
  glUniform1i(glGetUniformLocation(program, "tex"), 0);
  float r[8];
  run(program, r, 2);
  /* u = 0.1875 * 4 - 0.5 = 0.25: 0.75 * texel 0 + 0.25 * texel 1. */
  CHECK(near(r[0], 0.25f, 0.01f) && near(r[1], 2.5f, 0.05f), "LINEAR between texels 0 and 1 (got %g %g)", r[0], r[1]);
  /* REPEAT: s = 1.3125 wraps to 0.3125, u = 1.25: 0.25 * texel 0 + 0.75 * texel 1 (R = 0.75). */
  CHECK(near(r[4], 0.75f, 0.01f), "LINEAR with REPEAT at s = 1.3125 (got %g)", r[4]);

  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  run(program, r, 2);
  CHECK(near(r[4], 3.0f, 0.01f), "CLAMP_TO_EDGE at s = 1.3125 is the last texel (got %g)", r[4]);

  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_BORDER);
  const float border[4] = {0.25f, 0.5f, 0.75f, 1.0f};
  glTexParameterfv(GL_TEXTURE_2D, GL_TEXTURE_BORDER_COLOR, border);
  run(program, r, 2);
  CHECK(near(r[4], 0.25f, 0.01f) && near(r[5], 0.5f, 0.01f) && near(r[6], 0.75f, 0.01f),
        "CLAMP_TO_BORDER outside the texture returns the border colour (got %g %g %g)", r[4], r[5], r[6]);

  GLuint sampler = 0;
  glGenSamplers(1, &sampler);
  glSamplerParameteri(sampler, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glSamplerParameteri(sampler, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glSamplerParameteri(sampler, GL_TEXTURE_WRAP_S, GL_MIRRORED_REPEAT);
  glBindSampler(0, sampler);
  run(program, r, 2);
  CHECK(near(r[0], 0.0f, 0.001f), "a NEAREST sampler object overrides the texture's LINEAR filter (got %g)", r[0]);
  /* MIRRORED_REPEAT at 1.3125: mirrored to 0.6875 -> u = 2.75 -> texel 2. */
  CHECK(near(r[4], 2.0f, 0.001f), "MIRRORED_REPEAT from the sampler object (got %g)", r[4]);
  glBindSampler(0, 0);
  run(program, r, 2);
  CHECK(near(r[0], 0.25f, 0.01f), "unbinding the sampler object restores the texture's parameters (got %g)", r[0]);
  CHECK_GL_ERROR(GL_NO_ERROR, "filtering program");
  glDeleteSamplers(1, &sampler);
  glDeleteTextures(1, &t);
  glDeleteProgram(program);
}

/* GL 4.6 §11.1.3.5: "If a sampler is used in a shader and the sampler's associated texture is not complete, as
 * defined in section 8.17, (0, 0, 0, 1) will be returned"; §8.17: a minification filter that needs mipmaps with only
 * level 0 specified is not complete (the default MIN_FILTER is NEAREST_MIPMAP_LINEAR). */
static void incomplete_texture(void) {
  const char* src =
      "#version 430\n"
      "layout(local_size_x = 1) in;\n"
      "uniform sampler2D tex;\n"
      "layout(std430, binding = 0) buffer Out { vec4 r[]; };\n"
      "void main() { r[0] = texelFetch(tex, ivec2(0), 0); r[1] = textureLod(tex, vec2(0.5), 0.0); }\n";
  GLuint program = conformance_compute_program(src);
  CHECK(program != 0, "the completeness program links");
  if (!program) return;
  GLuint t = 0;
  glGenTextures(1, &t);
  glBindTexture(GL_TEXTURE_2D, t);
  const float texels[4 * 4] = {9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9};
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA32F, 2, 2, 0, GL_RGBA, GL_FLOAT, texels);
  glUseProgram(program);
  glUniform1i(glGetUniformLocation(program, "tex"), 0);
  float r[8];
  run(program, r, 2);
  CHECK(r[0] == 0 && r[1] == 0 && r[2] == 0 && r[3] == 1 && r[4] == 0 && r[7] == 1,
        "an incomplete texture samples as (0,0,0,1) (got %g %g %g %g)", r[0], r[1], r[2], r[3]);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  run(program, r, 2);
  CHECK(r[0] == 9 && r[4] == 9, "with MIN_FILTER NEAREST the single level is complete (got %g %g)", r[0], r[4]);
  CHECK_GL_ERROR(GL_NO_ERROR, "completeness program");
  glDeleteTextures(1, &t);
  glDeleteProgram(program);
}

/* Integer textures (isampler2D: GLSL 4.60 §4.1.7) and buffer textures (samplerBuffer over glTexBuffer: GL 4.6 §8.9,
 * texelFetch reads texel i of the buffer in the texture's format). */
static void integer_and_buffer_textures(void) {
  const char* src =
      "#version 430\n"
      "layout(local_size_x = 1) in;\n"
      "layout(binding = 1) uniform isampler2D ints;\n"
      "layout(binding = 2) uniform samplerBuffer floats;\n"
      "layout(std430, binding = 0) buffer Out { vec4 r[]; };\n"
      "void main() {\n"
      "  r[0] = vec4(texelFetch(ints, ivec2(1, 0), 0));\n"
      "  r[1] = vec4(texelFetch(floats, 5).x, textureSize(floats), 0.0, 0.0);\n"
      "}\n";
  GLuint program = conformance_compute_program(src);
  CHECK(program != 0, "the integer/buffer texture program links");
  if (!program) return;
  GLint unit = -1;
  glGetUniformiv(program, glGetUniformLocation(program, "floats"), &unit);
  CHECK(unit == 2, "a sampler's initial value is its binding qualifier (GLSL 4.60 §4.4.6; got %d)", unit);
  GLuint t[2];
  glGenTextures(2, t);
  glActiveTexture(GL_TEXTURE1);
  glBindTexture(GL_TEXTURE_2D, t[0]);
  glTexStorage2D(GL_TEXTURE_2D, 1, GL_RG32I, 2, 1);
  const GLint ints[4] = {-7, 8, -123456, 654321};
  glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 2, 1, GL_RG_INTEGER, GL_INT, ints);
  GLuint buffer = 0;
  glGenBuffers(1, &buffer);
  glBindBuffer(GL_TEXTURE_BUFFER, buffer);
  float values[16];
  for (int i = 0; i < 16; ++i) values[i] = 0.5f * (float)i;
  glBufferData(GL_TEXTURE_BUFFER, sizeof values, values, GL_STATIC_DRAW);
  glActiveTexture(GL_TEXTURE2);
  glBindTexture(GL_TEXTURE_BUFFER, t[1]);
  glTexBuffer(GL_TEXTURE_BUFFER, GL_R32F, buffer);
  glActiveTexture(GL_TEXTURE0);
  float r[8];
  run(program, r, 2);
  /* GL 4.6 §8.17: "The internal format of the texture is integer ... and TEXTURE_MAG_FILTER is not NEAREST or
   * TEXTURE_MIN_FILTER is neither NEAREST nor NEAREST_MIPMAP_NEAREST": not complete with the default filters. */
  CHECK(r[0] == 0.0f && r[1] == 0.0f && r[2] == 0.0f && r[3] == 1.0f,
        "an integer texture with the default LINEAR filters is incomplete: (0,0,0,1) (got %g %g %g %g)", r[0], r[1],
        r[2], r[3]);
  glActiveTexture(GL_TEXTURE1);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glActiveTexture(GL_TEXTURE0);
  run(program, r, 2);
  CHECK_GL_ERROR(GL_NO_ERROR, "integer/buffer program");
  CHECK(r[0] == -123456.0f && r[1] == 654321.0f && r[2] == 0.0f && r[3] == 1.0f,
        "texelFetch of an RG32I texel: missing components are (0, 1) (got %g %g %g %g)", r[0], r[1], r[2], r[3]);
  CHECK(r[4] == 2.5f && r[5] == 16.0f, "texelFetch(5) of an R32F buffer texture and its size (got %g %g)", r[4], r[5]);
  glDeleteBuffers(1, &buffer);
  glDeleteTextures(2, t);
  glDeleteProgram(program);
}

int main(void) {
  conformance_make_context(EGL_OPENGL_API, 4, 3);
  glGenBuffers(1, &results);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, results);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, results);
  glBufferData(GL_SHADER_STORAGE_BUFFER, 64 * sizeof(float), NULL, GL_DYNAMIC_READ);
  fetch_levels_and_units();
  filtering_wrapping_and_samplers();
  incomplete_texture();
  integer_and_buffer_textures();
  return conformance_result();
}
