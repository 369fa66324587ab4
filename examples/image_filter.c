/* image_filter: a plain EGL + GL program that blurs a large RGBA8 texture with a separable 17-tap binomial filter
 * in two compute passes, the way GL image-processing code does (issue 18's benchmark), so NVIDIA's GL, Zink and
 * Bismuth compare side by side on the same binary.
 *
 *   image_filter [--size N] [--iterations I] [--repeat R] [--variant image|fetch|linear]... [--egl
 * auto|device|surfaceless]
 *
 * Variants (each pass reads one texture/image and writes another, RGBA8, 16x16 groups; the horizontal pass writes
 * an intermediate RGBA8 texture that the vertical pass reads; coordinates clamp at the edges):
 *   image   imageLoad / imageStore (layout(rgba8) image2D with binding qualifiers), GL_SHADER_IMAGE_ACCESS_BARRIER_BIT
 *           between the passes
 *   fetch   texelFetch from a sampler2D whose unit is set with glUniform1i (no binding qualifier) + imageStore,
 *           GL_TEXTURE_FETCH_BARRIER_BIT between the passes
 *   linear  textureLod with GL_LINEAR filtering: 9 bilinear samples per pixel stand for the 17 taps (two neighbouring
 *           taps share one sample at their weighted midpoint), GL_TEXTURE_FETCH_BARRIER_BIT between the passes
 *
 * Each variant runs one untimed iteration first (compiles, first use), then I iterations (default 20) with a
 * GL_TIME_ELAPSED query around each; the result is read back with glGetTexImage and compared with a CPU reference
 * on the corners and 4,096 pseudo-random pixels (the CPU computes both passes exactly, rounding the intermediate to
 * 8 bits as the GL does: GL 4.6 §2.3.5.2; allowed difference per channel: 2 for image/fetch, 3 for linear, whose
 * filter weights GPUs keep with 8 fractional bits). --no-verify skips the read-back and the comparison
 * (max_error=-1).
 *
 * One line per variant and pass on stdout, key=value:
 *   image_filter impl="<GL_RENDERER> | <GL_VERSION> | EGL <platform>" variant=image pass=1 size=4096 taps=17
 *   iterations=20 gpu_ms_median=... gpu_ms_min=... gpu_ms_max=... wall_ms=... gpixels_per_s=... gpu_timed=1
 *   max_error=... ok=1
 * gpu_ms_*: the GL_TIME_ELAPSED query of one iteration (both passes and the barrier between them); wall_ms: issuing
 * all I iterations + glFinish, per iteration; gpixels_per_s: pixels filtered (both passes count once) per second of
 * median GPU time; gpu_timed: 0 when the queries measured under 1 us per iteration (the implementation does not
 * time compute work, as Mesa's llvmpipe; the gpu_* figures then mean nothing).
 *
 * Exit code: 0 every check passed, 1 a compile, link, GL error or content mismatch, 2 no usable EGL/GL (or no
 * texture support), 64 bad arguments. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "egl_gl_context.h"

#define PROGRAM "image_filter"
#define RADIUS 8
#define TAPS (2 * RADIUS + 1)
#define GROUP 16
#define MAX_ITERATIONS 1000
#define SAMPLES 4096

typedef enum { VARIANT_IMAGE, VARIANT_FETCH, VARIANT_LINEAR, VARIANT_COUNT } Variant;
static const char* const kVariantNames[VARIANT_COUNT] = {"image", "fetch", "linear"};

typedef struct {
  uint32_t size;
  uint32_t iterations;
  uint32_t repeat;
  int verify; /* --no-verify: 0 (no read-back; max_error=-1) */
  int variants[VARIANT_COUNT];
  EglGlPlatform platform;
} Options;

/* Binomial weights C(16, k) / 2^16: exact in binary floating point, so the CPU reference and the GPU add the same
 * numbers. */
static const double kBinomial[TAPS] = {1,     16,   120,  560,  1820, 4368, 8008, 11440, 12870,
                                       11440, 8008, 4368, 1820, 560,  120,  16,   1};

/* The common head of every kernel: the weights and the clamped coordinate of tap i along `axis`. */
#define KERNEL_HEAD                                                                                  \
  "#version 430\n"                                                                                   \
  "layout(local_size_x = 16, local_size_y = 16) in;\n"                                               \
  "const float W[17] = float[](1.0, 16.0, 120.0, 560.0, 1820.0, 4368.0, 8008.0, 11440.0, 12870.0,\n" \
  "                            11440.0, 8008.0, 4368.0, 1820.0, 560.0, 120.0, 16.0, 1.0);\n"         \
  "uniform ivec2 axis;\n"

static const char* kImageKernel = KERNEL_HEAD
    "layout(rgba8, binding = 0) readonly uniform image2D source;\n"
    "layout(rgba8, binding = 1) writeonly uniform image2D destination;\n"
    "void main() {\n"
    "  ivec2 size = imageSize(source);\n"
    "  ivec2 p = ivec2(gl_GlobalInvocationID.xy);\n"
    "  if (p.x >= size.x || p.y >= size.y) return;\n"
    "  vec4 sum = vec4(0.0);\n"
    "  for (int i = 0; i < 17; ++i)\n"
    "    sum += W[i] * imageLoad(source, clamp(p + (i - 8) * axis, ivec2(0), size - 1));\n"
    "  imageStore(destination, p, sum * (1.0 / 65536.0));\n"
    "}\n";

static const char* kFetchKernel = KERNEL_HEAD
    "uniform sampler2D source;\n"
    "layout(rgba8, binding = 1) writeonly uniform image2D destination;\n"
    "void main() {\n"
    "  ivec2 size = textureSize(source, 0);\n"
    "  ivec2 p = ivec2(gl_GlobalInvocationID.xy);\n"
    "  if (p.x >= size.x || p.y >= size.y) return;\n"
    "  vec4 sum = vec4(0.0);\n"
    "  for (int i = 0; i < 17; ++i)\n"
    "    sum += W[i] * texelFetch(source, clamp(p + (i - 8) * axis, ivec2(0), size - 1), 0);\n"
    "  imageStore(destination, p, sum * (1.0 / 65536.0));\n"
    "}\n";

/* Taps -8..-1 pair up as (-8,-7) ... (-2,-1), taps 1..8 as (1,2) ... (7,8); the centre is one nearest sample. A pair
 * (a, a+1) with weights wa, wb is one linear sample at a + wb / (wa + wb), weighted wa + wb. */
static const char* kLinearKernel = KERNEL_HEAD
    "uniform sampler2D source;\n"
    "layout(rgba8, binding = 1) writeonly uniform image2D destination;\n"
    "void main() {\n"
    "  ivec2 size = textureSize(source, 0);\n"
    "  ivec2 p = ivec2(gl_GlobalInvocationID.xy);\n"
    "  if (p.x >= size.x || p.y >= size.y) return;\n"
    "  vec2 texel = 1.0 / vec2(size);\n"
    "  vec2 centre = (vec2(p) + 0.5) * texel;\n"
    "  vec4 sum = W[8] * texelFetch(source, p, 0);\n"
    "  for (int k = 0; k < 4; ++k) {\n"
    "    int a = 2 * k;\n"
    "    float w = W[a] + W[a + 1];\n"
    "    float before = float(a - 8) + W[a + 1] / w;\n"
    "    float after = float(8 - a) - W[a + 1] / w;\n"
    "    sum += w * textureLod(source, centre + before * vec2(axis) * texel, 0.0);\n"
    "    sum += w * textureLod(source, centre + after * vec2(axis) * texel, 0.0);\n"
    "  }\n"
    "  imageStore(destination, p, sum * (1.0 / 65536.0));\n"
    "}\n";

typedef struct {
  GLuint programs[VARIANT_COUNT];
  GLuint textures[3]; /* source, intermediate, destination */
  GLuint* queries;
  uint8_t* source; /* size x size RGBA8 */
  uint8_t* result; /* read back */
} Resources;

static int usage(void) {
  fprintf(stderr, "usage: " PROGRAM
                  " [--size N (16..16384)] [--iterations I] [--repeat R] [--variant image|fetch|linear]... "
                  "[--no-verify] [--egl auto|device|surfaceless]\n");
  return 64;
}

static int parse_number(const char* text, uint32_t min, uint32_t max, uint32_t* value) {
  char* end = NULL;
  const unsigned long parsed = strtoul(text, &end, 10);
  if (end == text || *end != '\0' || parsed < min || parsed > max) return 0;
  *value = (uint32_t)parsed;
  return 1;
}

static int parse_options(int argc, char** argv, Options* options) {
  memset(options, 0, sizeof *options);
  options->size = 4096;
  options->iterations = 20;
  options->repeat = 1;
  options->platform = EGL_GL_PLATFORM_AUTO;
  options->verify = 1;
  int any_variant = 0;
  for (int i = 1; i < argc; ++i) {
    const char* arg = argv[i];
    const char* value = i + 1 < argc ? argv[i + 1] : "";
    if (strcmp(arg, "--size") == 0 && parse_number(value, 16, 16384, &options->size)) {
      ++i;
    } else if (strcmp(arg, "--iterations") == 0 && parse_number(value, 1, MAX_ITERATIONS, &options->iterations)) {
      ++i;
    } else if (strcmp(arg, "--repeat") == 0 && parse_number(value, 1, 1000, &options->repeat)) {
      ++i;
    } else if (strcmp(arg, "--variant") == 0) {
      int found = 0;
      for (int v = 0; v < VARIANT_COUNT; ++v) {
        if (strcmp(value, kVariantNames[v]) == 0) options->variants[v] = found = any_variant = 1;
      }
      if (!found) return 0;
      ++i;
    } else if (strcmp(arg, "--no-verify") == 0) {
      options->verify = 0;
    } else if (strcmp(arg, "--egl") == 0 && egl_gl_parse_platform(value, &options->platform)) {
      ++i;
    } else {
      return 0;
    }
  }
  if (!any_variant) {
    for (int v = 0; v < VARIANT_COUNT; ++v) options->variants[v] = 1;
  }
  return 1;
}

/* A deterministic pattern with edges and noise, so that a wrong tap, axis or clamp shows. */
static uint8_t pattern(uint32_t x, uint32_t y, uint32_t c) {
  uint32_t h = x * 0x9E3779B1u ^ (y + 0x7F4A7C15u) * 0x85EBCA77u ^ c * 0xC2B2AE3Du;
  h ^= h >> 15;
  h *= 0x2C1B3C6Du;
  h ^= h >> 12;
  const uint32_t stripes = ((x / 37u + y / 53u + c) & 1u) ? 200u : 40u;
  return (uint8_t)((stripes + (h & 63u)) & 255u);
}

static uint32_t clamp_index(int64_t v, uint32_t size) {
  return v < 0 ? 0u : v >= (int64_t)size ? size - 1u : (uint32_t)v;
}

/* The GL's float -> UNORM8 conversion (GL 4.6 §2.3.5.2: round to nearest). */
static uint8_t to_unorm8(double v) {
  if (v <= 0.0) return 0;
  if (v >= 1.0) return 255;
  return (uint8_t)(v * 255.0 + 0.5);
}

/* The horizontal pass's RGBA8 value at (x, y), channel c. */
static uint8_t reference_horizontal(const uint8_t* source, uint32_t size, uint32_t x, uint32_t y, uint32_t c) {
  double sum = 0.0;
  for (int i = 0; i < TAPS; ++i) {
    const uint32_t sx = clamp_index((int64_t)x + i - RADIUS, size);
    sum += kBinomial[i] * (source[((size_t)y * size + sx) * 4 + c] / 255.0);
  }
  return to_unorm8(sum / 65536.0);
}

static uint8_t reference_pixel(const uint8_t* source, uint32_t size, uint32_t x, uint32_t y, uint32_t c) {
  double sum = 0.0;
  for (int i = 0; i < TAPS; ++i) {
    const uint32_t sy = clamp_index((int64_t)y + i - RADIUS, size);
    sum += kBinomial[i] * (reference_horizontal(source, size, x, sy, c) / 255.0);
  }
  return to_unorm8(sum / 65536.0);
}

static GLuint build(const char* source) {
  const GLuint shader = egl_gl_compile_compute(PROGRAM, source);
  const GLuint program = egl_gl_link(PROGRAM, shader);
  p_glDeleteShader(shader);
  return program;
}

static GLuint make_texture(uint32_t size, const uint8_t* texels) {
  GLuint texture = 0;
  p_glGenTextures(1, &texture);
  p_glBindTexture(GL_TEXTURE_2D, texture);
  p_glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, (GLsizei)size, (GLsizei)size);
  p_glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  p_glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  p_glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  p_glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  if (texels != NULL) {
    p_glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    p_glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, (GLsizei)size, (GLsizei)size, GL_RGBA, GL_UNSIGNED_BYTE, texels);
  }
  return texture;
}

/* Binds the pass's input and output: `from` as image unit 0 (image) or texture unit 0 (fetch, linear), `to` as
 * image unit 1. */
static void bind_pass(Variant variant, GLuint program, GLuint from, GLuint to, int horizontal) {
  p_glUniform2i(p_glGetUniformLocation(program, "axis"), horizontal ? 1 : 0, horizontal ? 0 : 1);
  if (variant == VARIANT_IMAGE) {
    p_glBindImageTexture(0, from, 0, GL_FALSE, 0, GL_READ_ONLY, GL_RGBA8);
  } else {
    p_glActiveTexture(GL_TEXTURE0);
    p_glBindTexture(GL_TEXTURE_2D, from);
  }
  p_glBindImageTexture(1, to, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA8);
}

static void run_iteration(Variant variant, const Resources* r, uint32_t size) {
  const GLuint program = r->programs[variant];
  const GLuint groups = (size + GROUP - 1) / GROUP;
  const GLbitfield between =
      variant == VARIANT_IMAGE ? GL_SHADER_IMAGE_ACCESS_BARRIER_BIT : GL_TEXTURE_FETCH_BARRIER_BIT;
  bind_pass(variant, program, r->textures[0], r->textures[1], 1);
  p_glDispatchCompute(groups, groups, 1);
  p_glMemoryBarrier(between);
  bind_pass(variant, program, r->textures[1], r->textures[2], 0);
  p_glDispatchCompute(groups, groups, 1);
  /* The next iteration's first pass overwrites the intermediate the second pass reads. */
  p_glMemoryBarrier(GL_SHADER_IMAGE_ACCESS_BARRIER_BIT);
}

static int compare_doubles(const void* a, const void* b) {
  const double x = *(const double*)a, y = *(const double*)b;
  return x < y ? -1 : x > y ? 1 : 0;
}

/* Reads the destination back and compares it with the CPU reference; returns the largest difference seen. */
static int verify(const Resources* r, uint32_t size, int* max_error) {
  p_glMemoryBarrier(GL_TEXTURE_UPDATE_BARRIER_BIT);
  p_glBindTexture(GL_TEXTURE_2D, r->textures[2]);
  p_glPixelStorei(GL_PACK_ALIGNMENT, 4);
  memset(r->result, 0xA5, (size_t)size * size * 4);
  p_glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, r->result);
  int worst = 0;
  uint32_t state = 12345u;
  for (uint32_t s = 0; s < SAMPLES + 4; ++s) {
    uint32_t x, y;
    if (s < 4) {
      x = (s & 1u) ? size - 1u : 0u;
      y = (s & 2u) ? size - 1u : 0u;
    } else {
      state = state * 1664525u + 1013904223u;
      x = (state >> 8) % size;
      state = state * 1664525u + 1013904223u;
      y = (state >> 8) % size;
    }
    for (uint32_t c = 0; c < 4; ++c) {
      const int expected = reference_pixel(r->source, size, x, y, c);
      const int got = r->result[((size_t)y * size + x) * 4 + c];
      const int d = abs(expected - got);
      if (d > worst) worst = d;
    }
  }
  *max_error = worst;
  return worst;
}

static int run_variant(const Options* options, const Resources* r, Variant variant, uint32_t pass) {
  const uint32_t size = options->size;
  p_glUseProgram(r->programs[variant]);
  if (variant != VARIANT_IMAGE) p_glUniform1i(p_glGetUniformLocation(r->programs[variant], "source"), 0);
  run_iteration(variant, r, size); /* untimed: compiles and first use */
  p_glFinish();

  const uint32_t n = options->iterations;
  const double start = egl_gl_now();
  for (uint32_t i = 0; i < n; ++i) {
    p_glBeginQuery(GL_TIME_ELAPSED, r->queries[i]);
    run_iteration(variant, r, size);
    p_glEndQuery(GL_TIME_ELAPSED);
  }
  p_glFinish();
  const double finished = egl_gl_now();
  double gpu_ms[MAX_ITERATIONS];
  for (uint32_t i = 0; i < n; ++i) {
    GLuint64 ns = 0;
    p_glGetQueryObjectui64v(r->queries[i], GL_QUERY_RESULT, &ns);
    gpu_ms[i] = (double)ns * 1e-6;
  }
  qsort(gpu_ms, n, sizeof gpu_ms[0], compare_doubles);
  const double median = n % 2 ? gpu_ms[n / 2] : 0.5 * (gpu_ms[n / 2 - 1] + gpu_ms[n / 2]);

  int max_error = -1;
  if (options->verify) verify(r, size, &max_error);
  const int allowed = variant == VARIANT_LINEAR ? 3 : 2;
  const GLenum error = p_glGetError();
  if (error != GL_NO_ERROR) fprintf(stderr, PROGRAM ": %s: GL error 0x%x\n", kVariantNames[variant], (unsigned)error);
  if (max_error > allowed) {
    fprintf(stderr, PROGRAM ": %s: a pixel differs from the CPU reference by %d (allowed %d)\n", kVariantNames[variant],
            max_error, allowed);
  }
  const int ok = error == GL_NO_ERROR && max_error <= allowed;
  const int gpu_timed = gpu_ms[n - 1] >= 1e-3;
  printf(PROGRAM
         " impl=\"%s\" variant=%s pass=%u size=%u taps=%d iterations=%u gpu_ms_median=%.4f gpu_ms_min=%.4f "
         "gpu_ms_max=%.4f wall_ms=%.4f gpixels_per_s=%.3f gpu_timed=%d max_error=%d ok=%d\n",
         egl_gl_implementation(), kVariantNames[variant], (unsigned)pass, (unsigned)size, TAPS, (unsigned)n, median,
         gpu_ms[0], gpu_ms[n - 1], (finished - start) * 1e3 / n, gpu_timed ? (double)size * size / (median * 1e6) : 0.0,
         gpu_timed, max_error, ok);
  fflush(stdout);
  return ok;
}

int main(int argc, char** argv) {
  Options options;
  if (!parse_options(argc, argv, &options)) return usage();
  const int opened = egl_gl_open(PROGRAM, options.platform);
  if (opened != 0) return opened;
  if (p_glTexStorage2D == NULL || p_glBindImageTexture == NULL || p_glGetTexImage == NULL) {
    fprintf(stderr, PROGRAM ": the GL lacks glTexStorage2D, glBindImageTexture or glGetTexImage\n");
    egl_gl_close();
    return 2;
  }

  const size_t bytes = (size_t)options.size * options.size * 4;
  Resources r;
  memset(&r, 0, sizeof r);
  r.source = malloc(bytes);
  r.result = malloc(bytes);
  r.queries = calloc(options.iterations, sizeof *r.queries);
  if (r.source == NULL || r.result == NULL || r.queries == NULL) {
    fprintf(stderr, PROGRAM ": out of memory\n");
    return 1;
  }
  for (uint32_t y = 0; y < options.size; ++y) {
    for (uint32_t x = 0; x < options.size; ++x) {
      for (uint32_t c = 0; c < 4; ++c) r.source[((size_t)y * options.size + x) * 4 + c] = pattern(x, y, c);
    }
  }
  r.programs[VARIANT_IMAGE] = options.variants[VARIANT_IMAGE] ? build(kImageKernel) : 0;
  r.programs[VARIANT_FETCH] = options.variants[VARIANT_FETCH] ? build(kFetchKernel) : 0;
  r.programs[VARIANT_LINEAR] = options.variants[VARIANT_LINEAR] ? build(kLinearKernel) : 0;
  r.textures[0] = make_texture(options.size, r.source);
  r.textures[1] = make_texture(options.size, NULL);
  r.textures[2] = make_texture(options.size, NULL);
  p_glGenQueries((GLsizei)options.iterations, r.queries);
  GLenum error = p_glGetError();
  if (error != GL_NO_ERROR) {
    fprintf(stderr, PROGRAM ": GL error 0x%x while creating the textures\n", (unsigned)error);
    return 1;
  }

  int ok = 1;
  for (uint32_t pass = 1; pass <= options.repeat; ++pass) {
    for (int v = 0; v < VARIANT_COUNT; ++v) {
      if (options.variants[v]) ok &= run_variant(&options, &r, (Variant)v, pass);
    }
  }

  p_glDeleteQueries((GLsizei)options.iterations, r.queries);
  p_glDeleteTextures(3, r.textures);
  for (int v = 0; v < VARIANT_COUNT; ++v) {
    if (r.programs[v] != 0) p_glDeleteProgram(r.programs[v]);
  }
  egl_gl_close();
  free(r.source);
  free(r.result);
  free(r.queries);
  fprintf(stderr, PROGRAM ": %s\n", ok ? "OK" : "FAILED");
  return ok ? 0 : 1;
}
