/* num_waves_examples: the three examples of the HLSL numWaves proposal (hlsl-specs 0054), in GLSL with
 * GL_BISMUTH_num_waves and in HLSL, run through libbismuth-gl as an EGL + GL program and checked against CPU
 * references computed for the wave size the program committed to:
 *   tile_minmax_1wave   min/max depth of 8x8 tiles, one wave per work group
 *   tile_minmax_2wave   the same with two waves, wave 1 handing its half to wave 0 through shared memory
 *   compaction_4wave    stream compaction with one atomic per work group: the items of each work group land
 *                       contiguously, in the group's own (row-major) order
 * The application sizes the compaction's dispatch from GL_COMPUTE_WAVE_SIZE_BISMUTH, as the proposal intends.
 *
 * Usage: num_waves_examples [SHADER_DIR]   (default: the folder this file was built from)
 * Exit code: 0 every example matched, 1 a mismatch, a GL error or a Vulkan validation message, 2 no usable EGL/GL, 77
 * the device cannot run wave-sized programs (no subgroup operations in compute shaders). */
#define GL_GLEXT_PROTOTYPES 1
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/glcorearb.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bismuth/gl/glext_bismuth.h"

#ifndef NUM_WAVES_SHADER_DIR
#define NUM_WAVES_SHADER_DIR "."
#endif

#define DEPTH_WIDTH 64u
#define TILE_SIZE 8u
#define IMAGE_WIDTH 64u
#define IMAGE_HEIGHT 64u

static const char* shader_dir = NUM_WAVES_SHADER_DIR;
static PFNGLSHADERSOURCEHLSLBISMUTHPROC shader_source_hlsl;

static char* read_file(const char* name) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", shader_dir, name);
  FILE* f = fopen(path, "rb");
  if (f == NULL) {
    fprintf(stderr, "num_waves_examples: cannot open %s\n", path);
    return NULL;
  }
  fseek(f, 0, SEEK_END);
  long size = ftell(f);
  fseek(f, 0, SEEK_SET);
  char* text = malloc((size_t)size + 1);
  if (text == NULL || fread(text, 1, (size_t)size, f) != (size_t)size) {
    fclose(f);
    free(text);
    return NULL;
  }
  text[size] = '\0';
  fclose(f);
  return text;
}

/* Compiles and links one example; `entry` non-NULL: the file is HLSL with that entry point. 0 on failure. */
static GLuint build_program(const char* file, const char* entry) {
  char* source = read_file(file);
  if (source == NULL) return 0;
  GLuint shader = glCreateShader(GL_COMPUTE_SHADER);
  const GLchar* strings[1] = {source};
  if (entry != NULL) {
    shader_source_hlsl(shader, 1, strings, NULL, entry);
  } else {
    glShaderSource(shader, 1, strings, NULL);
  }
  free(source);
  glCompileShader(shader);
  GLint status = 0;
  char log[4096];
  glGetShaderiv(shader, GL_COMPILE_STATUS, &status);
  if (!status) {
    glGetShaderInfoLog(shader, sizeof log, NULL, log);
    fprintf(stderr, "%s: compile failed:\n%s\n", file, log);
    return 0;
  }
  GLuint program = glCreateProgram();
  glAttachShader(program, shader);
  glLinkProgram(program);
  glDeleteShader(shader);
  glGetProgramiv(program, GL_LINK_STATUS, &status);
  if (!status) {
    glGetProgramInfoLog(program, sizeof log, NULL, log);
    fprintf(stderr, "%s: link failed:\n%s\n", file, log);
    glDeleteProgram(program);
    return 0;
  }
  return program;
}

/* The wave size the program committed to, after checking the program queries' rules (docs/GL_BISMUTH_num_waves.txt):
 * COMPUTE_NUM_WAVES is the declared count, the wave size a power of two inside the declared range, and
 * COMPUTE_WORK_GROUP_SIZE (num_waves x wave size, 1, 1). 0 on a violation. */
static GLint committed_wave_size(const char* file, GLuint program, GLint num_waves, GLint min, GLint max) {
  GLint wave_size = 0, waves = 0, size[3] = {0, 0, 0};
  glGetProgramiv(program, GL_COMPUTE_WAVE_SIZE_BISMUTH, &wave_size);
  glGetProgramiv(program, GL_COMPUTE_NUM_WAVES_BISMUTH, &waves);
  glGetProgramiv(program, GL_COMPUTE_WORK_GROUP_SIZE, size);
  const int power_of_two = wave_size > 0 && (wave_size & (wave_size - 1)) == 0;
  if (waves != num_waves || !power_of_two || wave_size < min || wave_size > max || size[0] != num_waves * wave_size ||
      size[1] != 1 || size[2] != 1 || glGetError() != GL_NO_ERROR) {
    fprintf(stderr, "%s: queries: %d waves of %d (group %d x %d x %d); declared %d waves of [%d, %d]\n", file, waves,
            wave_size, size[0], size[1], size[2], num_waves, min, max);
    return 0;
  }
  return wave_size;
}

static GLuint make_buffer(GLuint binding, GLsizeiptr bytes, const void* data) {
  GLuint buffer = 0;
  glGenBuffers(1, &buffer);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffer);
  glBufferData(GL_SHADER_STORAGE_BUFFER, bytes, data, GL_DYNAMIC_COPY);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, binding, buffer);
  return buffer;
}

static void read_buffer(GLuint buffer, GLsizeiptr bytes, void* out) {
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffer);
  const void* mapped = glMapBufferRange(GL_SHADER_STORAGE_BUFFER, 0, bytes, GL_MAP_READ_BIT);
  if (mapped != NULL) memcpy(out, mapped, (size_t)bytes);
  glUnmapBuffer(GL_SHADER_STORAGE_BUFFER);
}

static uint32_t xorshift(uint32_t* state) {
  uint32_t x = *state;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  return *state = x;
}

/* IEEE binary16 bits of a float that is zero or a normal binary16 number (the depth values are chosen so). */
static uint32_t half_bits(float value) {
  uint32_t bits;
  memcpy(&bits, &value, 4);
  if ((bits & 0x7fffffffu) == 0) return (bits >> 16) & 0x8000u;
  const uint32_t sign = (bits >> 16) & 0x8000u;
  const int exponent = (int)((bits >> 23) & 0xffu) - 127 + 15;
  return sign | ((uint32_t)exponent << 10) | ((bits >> 13) & 0x3ffu);
}

/* Both tile examples: min/max of each 8x8 tile of a 64x64 depth buffer, packed (half(max) << 16) | half(min). */
static int run_tile_example(const char* file, const char* entry, GLint num_waves, GLint min, GLint max) {
  GLuint program = build_program(file, entry);
  if (program == 0) return 1;
  const GLint wave_size = committed_wave_size(file, program, num_waves, min, max);
  if (wave_size == 0) return 1;
  enum { kPixels = DEPTH_WIDTH * DEPTH_WIDTH, kTiles = (DEPTH_WIDTH / TILE_SIZE) * (DEPTH_WIDTH / TILE_SIZE) };
  static float depth[kPixels];
  uint32_t state = 0x9e3779b9u;
  /* k / 1024: exact in binary16, so packing is exact whatever the rounding mode. */
  for (int i = 0; i < kPixels; ++i) depth[i] = (float)(xorshift(&state) % 1024u) / 1024.0f;
  static uint32_t got[kTiles];
  memset(got, 0xff, sizeof got);
  GLuint in = make_buffer(0, sizeof depth, depth);
  GLuint out = make_buffer(1, sizeof got, got);
  glUseProgram(program);
  glDispatchCompute(DEPTH_WIDTH / TILE_SIZE, DEPTH_WIDTH / TILE_SIZE, 1);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  read_buffer(out, sizeof got, got);
  int mismatches = 0;
  for (uint32_t ty = 0; ty < DEPTH_WIDTH / TILE_SIZE; ++ty) {
    for (uint32_t tx = 0; tx < DEPTH_WIDTH / TILE_SIZE; ++tx) {
      float lo = depth[ty * TILE_SIZE * DEPTH_WIDTH + tx * TILE_SIZE], hi = lo;
      for (uint32_t y = 0; y < TILE_SIZE; ++y) {
        for (uint32_t x = 0; x < TILE_SIZE; ++x) {
          const float z = depth[(ty * TILE_SIZE + y) * DEPTH_WIDTH + tx * TILE_SIZE + x];
          lo = z < lo ? z : lo;
          hi = z > hi ? z : hi;
        }
      }
      const uint32_t expected = (half_bits(hi) << 16) | half_bits(lo);
      const uint32_t tile = ty * (DEPTH_WIDTH / TILE_SIZE) + tx;
      if (got[tile] != expected && mismatches++ < 4) {
        fprintf(stderr, "%s: tile (%u, %u): got 0x%08x, expected 0x%08x\n", file, tx, ty, got[tile], expected);
      }
    }
  }
  glDeleteBuffers(1, &in);
  glDeleteBuffers(1, &out);
  glDeleteProgram(program);
  printf("%-24s %-5s %d wave(s) of %2d: %s\n", file, entry ? "HLSL" : "GLSL", num_waves, wave_size,
         mismatches ? "MISMATCH" : "matches the CPU reference");
  return mismatches != 0 || glGetError() != GL_NO_ERROR;
}

/* The compaction: every pixel whose G-buffer word has bit 0 set is exported as (x | y << 16). The CPU reference is
 * the set of exported pixels of each work group in row-major order (wave-major, lanes row-major within a wave);
 * the output must hold each group's list contiguously and in that order, the groups in any order. */
static int run_compaction_example(const char* file, const char* entry) {
  GLuint program = build_program(file, entry);
  if (program == 0) return 1;
  const GLint wave_size = committed_wave_size(file, program, 4, 8, 64);
  if (wave_size == 0) return 1;
  const uint32_t tile_height = (uint32_t)wave_size / TILE_SIZE * 4u;
  const uint32_t groups_x = IMAGE_WIDTH / TILE_SIZE, groups_y = IMAGE_HEIGHT / tile_height;
  enum { kPixels = IMAGE_WIDTH * IMAGE_HEIGHT };
  static uint32_t gbuffer[kPixels];
  uint32_t state = 0x2545f491u;
  for (int i = 0; i < kPixels; ++i) gbuffer[i] = xorshift(&state);
  static uint32_t data[kPixels];
  uint32_t count = 0;
  memset(data, 0xff, sizeof data);
  GLuint in = make_buffer(0, sizeof gbuffer, gbuffer);
  GLuint counter = make_buffer(1, sizeof count, &count);
  GLuint out = make_buffer(2, sizeof data, data);
  glUseProgram(program);
  GLuint params = 0; /* HLSL's cbuffer Params : register(b3); GLSL's default-block uniform */
  if (entry != NULL) {
    const uint32_t block[4] = {IMAGE_WIDTH, 0, 0, 0};
    glGenBuffers(1, &params);
    glBindBuffer(GL_UNIFORM_BUFFER, params);
    glBufferData(GL_UNIFORM_BUFFER, sizeof block, block, GL_STATIC_DRAW);
    glBindBufferBase(GL_UNIFORM_BUFFER, 3, params);
  } else {
    glUniform1ui(glGetUniformLocation(program, "image_width"), IMAGE_WIDTH);
  }
  glDispatchCompute(groups_x, groups_y, 1);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  read_buffer(counter, sizeof count, &count);
  read_buffer(out, sizeof data, data);

  /* Each group's expected list, and where in the output it starts (-1: not seen yet). */
  static uint32_t expected[kPixels];
  static uint32_t group_first[kPixels], group_count[kPixels];
  static int32_t group_seen_at[kPixels];
  uint32_t total = 0;
  for (uint32_t gy = 0; gy < groups_y; ++gy) {
    for (uint32_t gx = 0; gx < groups_x; ++gx) {
      const uint32_t g = gy * groups_x + gx;
      group_first[g] = total;
      for (uint32_t y = gy * tile_height; y < (gy + 1) * tile_height; ++y) {
        for (uint32_t x = gx * TILE_SIZE; x < (gx + 1) * TILE_SIZE; ++x) {
          if (gbuffer[y * IMAGE_WIDTH + x] & 1u) expected[total++] = x | (y << 16);
        }
      }
      group_count[g] = total - group_first[g];
      group_seen_at[g] = -1;
    }
  }
  int failures = 0;
  if (count != total) {
    fprintf(stderr, "%s: %u items exported, expected %u\n", file, count, total);
    failures = 1;
  }
  /* Walk the output group by group: the first item names the group, the rest must follow in order. */
  for (uint32_t p = 0; !failures && p < total;) {
    const uint32_t x = data[p] & 0xffffu, y = data[p] >> 16;
    if (x >= IMAGE_WIDTH || y >= IMAGE_HEIGHT) {
      fprintf(stderr, "%s: item %u = 0x%08x is not a pixel\n", file, p, data[p]);
      failures = 1;
      break;
    }
    const uint32_t g = (y / tile_height) * groups_x + x / TILE_SIZE;
    if (group_seen_at[g] >= 0 || p + group_count[g] > total ||
        memcmp(&data[p], &expected[group_first[g]], group_count[g] * sizeof(uint32_t)) != 0) {
      fprintf(stderr, "%s: work group %u's items are not contiguous and in order at output %u\n", file, g, p);
      failures = 1;
      break;
    }
    group_seen_at[g] = (int32_t)p;
    p += group_count[g];
  }
  glDeleteBuffers(1, &in);
  glDeleteBuffers(1, &counter);
  glDeleteBuffers(1, &out);
  if (params) glDeleteBuffers(1, &params);
  glDeleteProgram(program);
  printf("%-24s %-5s 4 waves of %2d: %u of %u pixels exported, %u work groups (atomics): %s\n", file,
         entry ? "HLSL" : "GLSL", wave_size, count, (unsigned)kPixels, groups_x * groups_y,
         failures ? "MISMATCH" : "matches the CPU reference");
  return failures || glGetError() != GL_NO_ERROR;
}

/* Every GL error and every Vulkan validation message (BISMUTH_VALIDATION=1 forwards them as KHR_debug errors)
 * fails the run. */
static int debug_errors;
static void APIENTRY on_debug_message(GLenum source, GLenum type, GLuint id, GLenum severity, GLsizei length,
                                      const GLchar* message, const void* user) {
  (void)source, (void)id, (void)severity, (void)length, (void)user;
  if (type != GL_DEBUG_TYPE_ERROR) return;
  ++debug_errors;
  fprintf(stderr, "num_waves_examples: debug message: %s\n", message);
}

static int has_extension(const char* name) {
  GLint count = 0;
  glGetIntegerv(GL_NUM_EXTENSIONS, &count);
  for (GLint i = 0; i < count; ++i) {
    if (strcmp((const char*)glGetStringi(GL_EXTENSIONS, (GLuint)i), name) == 0) return 1;
  }
  return 0;
}

int main(int argc, char** argv) {
  if (argc > 1) shader_dir = argv[1];
  EGLDisplay display = eglGetDisplay(EGL_DEFAULT_DISPLAY);
  if (display == EGL_NO_DISPLAY || !eglInitialize(display, NULL, NULL) || !eglBindAPI(EGL_OPENGL_API)) {
    fprintf(stderr, "num_waves_examples: no EGL display (error 0x%x)\n", (unsigned)eglGetError());
    return 2;
  }
  const EGLint attribs[] = {
      EGL_CONTEXT_MAJOR_VERSION,           4,       EGL_CONTEXT_MINOR_VERSION, 6, EGL_CONTEXT_OPENGL_PROFILE_MASK,
      EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
  EGLContext context = eglCreateContext(display, (EGLConfig)0, EGL_NO_CONTEXT, attribs);
  if (context == EGL_NO_CONTEXT || !eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context)) {
    fprintf(stderr, "num_waves_examples: no GL 4.6 context (error 0x%x)\n", (unsigned)eglGetError());
    return 2;
  }
  fprintf(stderr, "num_waves_examples: %s / %s\n", (const char*)glGetString(GL_RENDERER),
          (const char*)glGetString(GL_VERSION));
  if (!has_extension("GL_BISMUTH_num_waves")) {
    fprintf(stderr, "num_waves_examples: skipped: GL_BISMUTH_num_waves is not supported on this device\n");
    return 77;
  }
  shader_source_hlsl = (PFNGLSHADERSOURCEHLSLBISMUTHPROC)eglGetProcAddress("glShaderSourceHLSLBISMUTH");
  if (shader_source_hlsl == NULL) {
    fprintf(stderr, "num_waves_examples: eglGetProcAddress(glShaderSourceHLSLBISMUTH) is NULL\n");
    return 1;
  }
  glEnable(GL_DEBUG_OUTPUT);
  glEnable(GL_DEBUG_OUTPUT_SYNCHRONOUS);
  glDebugMessageCallback(on_debug_message, NULL);
  int failures = 0;
  failures += run_tile_example("tile_minmax_1wave.comp", NULL, 1, 8, 64);
  failures += run_tile_example("tile_minmax_1wave.hlsl", "ComputeMinMaxZ", 1, 8, 64);
  failures += run_tile_example("tile_minmax_2wave.comp", NULL, 2, 8, 32);
  failures += run_tile_example("tile_minmax_2wave.hlsl", "ComputeMinMaxZ", 2, 8, 32);
  failures += run_compaction_example("compaction_4wave.comp", NULL);
  failures += run_compaction_example("compaction_4wave.hlsl", "Main");
  failures += debug_errors;
  eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  eglDestroyContext(display, context);
  eglTerminate(display);
  printf("num_waves_examples: %s\n", failures ? "FAILED" : "all examples match their CPU references");
  return failures ? 1 : 0;
}
