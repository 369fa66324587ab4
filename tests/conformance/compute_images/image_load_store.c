/* Image load/store in compute as GL 4.3 programs use it (GL 4.6 §8.26 "Texture Image Loads and Stores", GLSL 4.60
 * §8.12 "Image Functions"): textures with immutable storage bound to image units with glBindImageTexture, written and
 * read by a compute shader, read back with glGetTexImage. */
#include "conformance.h"

static GLuint make_texture(GLenum target, GLsizei levels, GLenum format, GLsizei w, GLsizei h, GLsizei d) {
  GLuint t = 0;
  glGenTextures(1, &t);
  glBindTexture(target, t);
  if (target == GL_TEXTURE_2D) {
    glTexStorage2D(target, levels, format, w, h);
  } else {
    glTexStorage3D(target, levels, format, w, h, d);
  }
  return t;
}

static void dispatch(GLuint program, GLuint x, GLuint y, GLuint z) {
  glUseProgram(program);
  glDispatchCompute(x, y, z);
  glMemoryBarrier(GL_TEXTURE_UPDATE_BARRIER_BIT | GL_SHADER_IMAGE_ACCESS_BARRIER_BIT);
}

/* "imageStore ... writes the texel at P" (GLSL 4.60 §8.12): every texel of a 16x8 RGBA32F texture. */
static void store_rgba32f(void) {
  const char* src =
      "#version 430\n"
      "layout(local_size_x = 4, local_size_y = 4) in;\n"
      "layout(rgba32f, binding = 2) writeonly uniform image2D target;\n"
      "void main() {\n"
      "  ivec2 p = ivec2(gl_GlobalInvocationID.xy);\n"
      "  imageStore(target, p, vec4(p.x, p.y, p.x * p.y, 0.5));\n"
      "}\n";
  GLuint program = conformance_compute_program(src);
  CHECK(program != 0, "an image2D store program links");
  if (!program) return;
  GLuint t = make_texture(GL_TEXTURE_2D, 1, GL_RGBA32F, 16, 8, 1);
  glBindImageTexture(2, t, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA32F);
  CHECK_GL_ERROR(GL_NO_ERROR, "glBindImageTexture of a 2D RGBA32F texture");
  dispatch(program, 4, 2, 1);
  static float texels[16 * 8 * 4];
  glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_FLOAT, texels);
  CHECK_GL_ERROR(GL_NO_ERROR, "glGetTexImage");
  int wrong = 0;
  for (int y = 0; y < 8; ++y) {
    for (int x = 0; x < 16; ++x) {
      const float* t4 = texels + (y * 16 + x) * 4;
      wrong += t4[0] != (float)x || t4[1] != (float)y || t4[2] != (float)(x * y) || t4[3] != 0.5f;
    }
  }
  CHECK(wrong == 0, "every texel holds what imageStore wrote (%d wrong)", wrong);
  glDeleteTextures(1, &t);
  glDeleteProgram(program);
}

/* "imageLoad ... loads the texel at P" of an RGBA8 texture filled by glTexSubImage2D: the shader returns the
 * normalized values (GL 4.6 §2.3.5.1: c / 255) through an SSBO. */
static void load_rgba8(void) {
  const char* src =
      "#version 430\n"
      "layout(local_size_x = 8, local_size_y = 8) in;\n"
      "layout(rgba8, binding = 0) readonly uniform image2D source;\n"
      "layout(std430, binding = 0) writeonly buffer Out { uint packed[]; };\n"
      "void main() {\n"
      "  ivec2 p = ivec2(gl_GlobalInvocationID.xy);\n"
      "  packed[p.y * 8 + p.x] = packUnorm4x8(imageLoad(source, p));\n"
      "}\n";
  GLuint program = conformance_compute_program(src);
  CHECK(program != 0, "an image2D load program links");
  if (!program) return;
  unsigned char bytes[8 * 8 * 4];
  for (int i = 0; i < 8 * 8 * 4; ++i) bytes[i] = (unsigned char)(i * 37 + 11);
  GLuint t = make_texture(GL_TEXTURE_2D, 1, GL_RGBA8, 8, 8, 1);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 8, 8, GL_RGBA, GL_UNSIGNED_BYTE, bytes);
  glBindImageTexture(0, t, 0, GL_FALSE, 0, GL_READ_ONLY, GL_RGBA8);
  GLuint buffer = 0;
  glGenBuffers(1, &buffer);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, buffer);
  glBufferData(GL_SHADER_STORAGE_BUFFER, sizeof bytes, NULL, GL_DYNAMIC_READ);
  glUseProgram(program);
  glDispatchCompute(1, 1, 1);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  unsigned char got[8 * 8 * 4];
  glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, sizeof got, got);
  CHECK_GL_ERROR(GL_NO_ERROR, "load program");
  CHECK(memcmp(got, bytes, sizeof got) == 0, "imageLoad returns the uploaded RGBA8 texels unchanged");
  glDeleteBuffers(1, &buffer);
  glDeleteTextures(1, &t);
  glDeleteProgram(program);
}

/* "The atomic memory operations ... are performed atomically" (GLSL 4.60 §8.12): 64x64 invocations each add 1 to one
 * of four R32UI texels, and each invocation's returned value is unique per texel. */
static void atomics_at_contention(void) {
  const char* src =
      "#version 430\n"
      "layout(local_size_x = 64) in;\n"
      "layout(r32ui, binding = 1) coherent uniform uimage2D counters;\n"
      "layout(std430, binding = 1) writeonly buffer Seen { uint seen[]; };\n"
      "void main() {\n"
      "  uint i = gl_GlobalInvocationID.x;\n"
      "  uint before = imageAtomicAdd(counters, ivec2(int(i % 4u), 0), 1u);\n"
      "  seen[(i % 4u) * 1024u + before] = 1u;\n"
      "}\n";
  GLuint program = conformance_compute_program(src);
  CHECK(program != 0, "an imageAtomicAdd program links");
  if (!program) return;
  GLuint t = make_texture(GL_TEXTURE_2D, 1, GL_R32UI, 4, 1, 1);
  const GLuint zero[4] = {0, 0, 0, 0};
  glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 4, 1, GL_RED_INTEGER, GL_UNSIGNED_INT, zero);
  glBindImageTexture(1, t, 0, GL_FALSE, 0, GL_READ_WRITE, GL_R32UI);
  GLuint buffer = 0;
  glGenBuffers(1, &buffer);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, buffer);
  static GLuint seen[4096];
  memset(seen, 0, sizeof seen);
  glBufferData(GL_SHADER_STORAGE_BUFFER, sizeof seen, seen, GL_DYNAMIC_READ);
  glUseProgram(program);
  glDispatchCompute(64, 1, 1);
  glMemoryBarrier(GL_TEXTURE_UPDATE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
  GLuint counts[4] = {0, 0, 0, 0};
  glGetTexImage(GL_TEXTURE_2D, 0, GL_RED_INTEGER, GL_UNSIGNED_INT, counts);
  glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, sizeof seen, seen);
  CHECK_GL_ERROR(GL_NO_ERROR, "atomic program");
  for (int k = 0; k < 4; ++k) CHECK(counts[k] == 1024, "texel %d counted %u of 1024 additions", k, counts[k]);
  int missing = 0;
  for (int i = 0; i < 4096; ++i) missing += seen[i] != 1;
  CHECK(missing == 0, "every returned value 0..1023 was seen once per texel (%d missing)", missing);
  glDeleteBuffers(1, &buffer);
  glDeleteTextures(1, &t);
  glDeleteProgram(program);
}

/* GL 4.6 §8.26: "If layered is TRUE, the entire level is bound. If layered is FALSE, only the single layer identified
 * by layer will be bound. When layered is FALSE, the single bound layer is treated as a different texture target for
 * image accesses: two-dimensional array ... layers are treated as two-dimensional textures". */
static void layered_and_single_layer(void) {
  const char* layered_src =
      "#version 430\n"
      "layout(local_size_x = 4, local_size_y = 4, local_size_z = 3) in;\n"
      "layout(r32ui, binding = 0) writeonly uniform uimage2DArray layers;\n"
      "void main() {\n"
      "  ivec3 p = ivec3(gl_GlobalInvocationID);\n"
      "  imageStore(layers, p, uvec4(100u * uint(p.z) + uint(p.y * 4 + p.x)));\n"
      "}\n";
  const char* single_src =
      "#version 430\n"
      "layout(local_size_x = 4, local_size_y = 4) in;\n"
      "layout(r32ui, binding = 0) uniform uimage2D one;\n"
      "void main() {\n"
      "  ivec2 p = ivec2(gl_GlobalInvocationID.xy);\n"
      "  imageStore(one, p, imageLoad(one, p) + uvec4(5000u));\n"
      "}\n";
  GLuint layered = conformance_compute_program(layered_src);
  GLuint single = conformance_compute_program(single_src);
  CHECK(layered && single, "the layered and single-layer programs link");
  if (!layered || !single) return;
  GLuint t = make_texture(GL_TEXTURE_2D_ARRAY, 1, GL_R32UI, 4, 4, 3);
  glBindImageTexture(0, t, 0, GL_TRUE, 0, GL_WRITE_ONLY, GL_R32UI);
  dispatch(layered, 1, 1, 1);
  glBindImageTexture(0, t, 0, GL_FALSE, 1, GL_READ_WRITE, GL_R32UI);
  dispatch(single, 1, 1, 1);
  GLuint texels[3 * 16];
  glGetTexImage(GL_TEXTURE_2D_ARRAY, 0, GL_RED_INTEGER, GL_UNSIGNED_INT, texels);
  CHECK_GL_ERROR(GL_NO_ERROR, "layered programs");
  int wrong = 0;
  for (int z = 0; z < 3; ++z) {
    for (int i = 0; i < 16; ++i) wrong += texels[z * 16 + i] != 100u * z + i + (z == 1 ? 5000u : 0u);
  }
  CHECK(wrong == 0, "layer 1 alone was updated by the single-layer binding (%d wrong)", wrong);
  glDeleteTextures(1, &t);
  glDeleteProgram(layered);
  glDeleteProgram(single);
}

/* GL 4.6 §8.26: a level other than 0 binds that level ("level selects a single level of the texture"). */
static void level_binding(void) {
  const char* src =
      "#version 430\n"
      "layout(local_size_x = 1) in;\n"
      "layout(rgba32f, binding = 3) writeonly uniform image2D level;\n"
      "void main() {\n"
      "  ivec2 s = imageSize(level);\n"
      "  imageStore(level, ivec2(gl_GlobalInvocationID.xy), vec4(s, 7.0, 1.0));\n"
      "}\n";
  GLuint program = conformance_compute_program(src);
  CHECK(program != 0, "the level program links");
  if (!program) return;
  GLuint t = make_texture(GL_TEXTURE_2D, 3, GL_RGBA32F, 8, 4, 1);
  glBindImageTexture(3, t, 1, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA32F);
  dispatch(program, 4, 2, 1);
  float texels[4 * 2 * 4];
  glGetTexImage(GL_TEXTURE_2D, 1, GL_RGBA, GL_FLOAT, texels);
  CHECK_GL_ERROR(GL_NO_ERROR, "level program");
  int wrong = 0;
  for (int i = 0; i < 8; ++i) {
    wrong += texels[i * 4] != 4.0f || texels[i * 4 + 1] != 2.0f || texels[i * 4 + 2] != 7.0f;
  }
  CHECK(wrong == 0, "imageSize of level 1 of an 8x4 texture is 4x2 and its texels were written (%d wrong)", wrong);
  glDeleteTextures(1, &t);
  glDeleteProgram(program);
}

/* GL 4.6 §8.26 Table 8.27 (format compatibility by size): an RGBA8 texture may be bound with format R32UI; the
 * stored 32-bit word is the texel's four bytes (R in the low byte, as GL_UNSIGNED_BYTE pixels return them). */
static void reinterpreted_format(void) {
  const char* src =
      "#version 430\n"
      "layout(local_size_x = 2, local_size_y = 2) in;\n"
      "layout(r32ui, binding = 0) writeonly uniform uimage2D words;\n"
      "void main() { imageStore(words, ivec2(gl_GlobalInvocationID.xy), uvec4(0x44332211u)); }\n";
  GLuint program = conformance_compute_program(src);
  CHECK(program != 0, "the reinterpretation program links");
  if (!program) return;
  GLuint t = make_texture(GL_TEXTURE_2D, 1, GL_RGBA8, 2, 2, 1);
  glBindImageTexture(0, t, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_R32UI);
  CHECK_GL_ERROR(GL_NO_ERROR, "glBindImageTexture of RGBA8 as R32UI (same size)");
  dispatch(program, 1, 1, 1);
  unsigned char bytes[16];
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, bytes);
  CHECK_GL_ERROR(GL_NO_ERROR, "read back");
  int wrong = 0;
  for (int i = 0; i < 4; ++i) {
    wrong += bytes[i * 4] != 0x11 || bytes[i * 4 + 1] != 0x22 || bytes[i * 4 + 2] != 0x33 || bytes[i * 4 + 3] != 0x44;
  }
  CHECK(wrong == 0, "the R32UI words are the RGBA8 texels' bytes (%d wrong)", wrong);
  glDeleteTextures(1, &t);
  glDeleteProgram(program);
}

/* GL 4.6 §8.26 errors of BindImageTexture. */
static void bind_errors(void) {
  GLint units = 0;
  glGetIntegerv(GL_MAX_IMAGE_UNITS, &units);
  GLuint t = make_texture(GL_TEXTURE_2D, 1, GL_RGBA8, 4, 4, 1);
  glBindImageTexture((GLuint)units, t, 0, GL_FALSE, 0, GL_READ_ONLY, GL_RGBA8);
  CHECK_GL_ERROR(GL_INVALID_VALUE,
                 "\"An INVALID_VALUE error is generated if unit is greater than or equal to the "
                 "value of MAX_IMAGE_UNITS\"");
  glBindImageTexture(0, 0xBADu, 0, GL_FALSE, 0, GL_READ_ONLY, GL_RGBA8);
  CHECK_GL_ERROR(GL_INVALID_VALUE, "\"... if texture is not the name of an existing texture object\"");
  glBindImageTexture(0, t, -1, GL_FALSE, 0, GL_READ_ONLY, GL_RGBA8);
  CHECK_GL_ERROR(GL_INVALID_VALUE, "\"... if the value of level or layer is less than zero\" (level)");
  glBindImageTexture(0, t, 0, GL_FALSE, -1, GL_READ_ONLY, GL_RGBA8);
  CHECK_GL_ERROR(GL_INVALID_VALUE, "\"... if the value of level or layer is less than zero\" (layer)");
  glBindImageTexture(0, t, 0, GL_FALSE, 0, GL_RGBA, GL_RGBA8);
  CHECK_GL_ERROR(GL_INVALID_ENUM,
                 "\"An INVALID_ENUM error is generated if access is not one of READ_ONLY, "
                 "WRITE_ONLY, or READ_WRITE\"");
  glBindImageTexture(5, t, 0, GL_TRUE, 0, GL_READ_WRITE, GL_RGBA8);
  GLint name = -1, access = 0, format = 0, layered = -1;
  glGetIntegeri_v(GL_IMAGE_BINDING_NAME, 5, &name);
  glGetIntegeri_v(GL_IMAGE_BINDING_ACCESS, 5, &access);
  glGetIntegeri_v(GL_IMAGE_BINDING_FORMAT, 5, &format);
  glGetIntegeri_v(GL_IMAGE_BINDING_LAYERED, 5, &layered);
  CHECK(name == (GLint)t && access == GL_READ_WRITE && format == GL_RGBA8 && layered == GL_TRUE,
        "the IMAGE_BINDING_* state of unit 5 is what was bound (Table 23.45)");
  glDeleteTextures(1, &t);
  glGetIntegeri_v(GL_IMAGE_BINDING_NAME, 5, &name);
  CHECK(name == 0,
        "\"If a texture object bound to one or more image units is deleted by DeleteTextures, it is "
        "detached from each such image unit\"");
  glGetError();
}

/* GL 4.6 Table 23.64 / 23.57 minimum values. */
static void limits(void) {
  struct {
    GLenum pname;
    GLint minimum;
    const char* name;
  } const rows[] = {
      {GL_MAX_IMAGE_UNITS, 8, "MAX_IMAGE_UNITS"},
      {GL_MAX_COMPUTE_IMAGE_UNIFORMS, 8, "MAX_COMPUTE_IMAGE_UNIFORMS"},
      {GL_MAX_COMBINED_IMAGE_UNIFORMS, 8, "MAX_COMBINED_IMAGE_UNIFORMS"},
      {GL_MAX_COMPUTE_TEXTURE_IMAGE_UNITS, 16, "MAX_COMPUTE_TEXTURE_IMAGE_UNITS"},
      {GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS, 80, "MAX_COMBINED_TEXTURE_IMAGE_UNITS"},
      {GL_MAX_TEXTURE_SIZE, 16384, "MAX_TEXTURE_SIZE"},
      {GL_MAX_3D_TEXTURE_SIZE, 2048, "MAX_3D_TEXTURE_SIZE"},
      {GL_MAX_ARRAY_TEXTURE_LAYERS, 2048, "MAX_ARRAY_TEXTURE_LAYERS"},
      {GL_MAX_CUBE_MAP_TEXTURE_SIZE, 16384, "MAX_CUBE_MAP_TEXTURE_SIZE"},
      {GL_MAX_TEXTURE_BUFFER_SIZE, 65536, "MAX_TEXTURE_BUFFER_SIZE"},
  };
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; ++i) {
    GLint value = 0;
    glGetIntegerv(rows[i].pname, &value);
    CHECK(value >= rows[i].minimum, "%s is %d, GL 4.6's minimum is %d", rows[i].name, value, rows[i].minimum);
  }
  CHECK_GL_ERROR(GL_NO_ERROR, "limit queries");
}

int main(void) {
  conformance_make_context(EGL_OPENGL_API, 4, 3);
  limits();
  store_rgba32f();
  load_rgba8();
  atomics_at_contention();
  layered_and_single_layer();
  level_binding();
  reinterpreted_format();
  bind_errors();
  return conformance_result();
}
