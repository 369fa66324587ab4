/* dispatch_stream: a plain EGL + GL program that issues long streams of tiny dispatches into one buffer and a
 * streaming store kernel (issue 17), so NVIDIA's GL, Zink and Bismuth compare side by side on the same binary.
 *
 *   dispatch_stream [--count N] [--stream-dispatches M] [--stream-mb S] [--repeat R] [--warmup-ms W]
 *                   [--phases NAME,NAME,...] [--egl auto|device|surfaceless]
 *
 * Phases (each after one warm-up dispatch, a clear of its buffer and glFinish, so no compile and no earlier work is
 * timed):
 *   variable_no_barrier  N x glDispatchComputeGroupSizeARB(4,1,1, 64,1,1) (default N = 100000), nothing between them
 *   variable_barrier     the same with glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT) after each dispatch
 *   fixed_no_barrier     N x glDispatchCompute(4,1,1) of the same kernel with local_size_x = 64
 *   fixed_barrier        the same with glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT) after each dispatch
 *   stream_store         M x (default 100) a kernel where each invocation writes one uvec4 over S MiB (default 32)
 * The tiny kernel writes values[i] = i * 3 + tag for its 256 invocations and counts its dispatches with one
 * atomicAdd from invocation 0; at the end of each phase the buffer is mapped and checked (every dispatch ran, every
 * word holds this phase's value). The variable phases are skipped (skipped=1) without
 * GL_ARB_compute_variable_group_size. --warmup-ms W: before the first pass, the streaming store kernel keeps the GPU
 * busy for W ms (then glFinish), so that the first phase does not pay for the GPU leaving its idle clocks or for the
 * implementation's first GPU work; without it pass 1 of the first phase includes both. --phases: the phases to run
 * and their order (default: all five as listed), e.g. `--phases fixed_no_barrier,variable_no_barrier` to see whether
 * what pass 1 of the first phase costs belongs to that phase or to being first.
 *
 * One line per phase and pass on stdout, key=value:
 *   dispatch_stream impl="<GL_RENDERER> | <GL_VERSION> | EGL <platform>" phase=variable_no_barrier pass=1
 *   dispatches=100000 cpu_us=... gpu_us=... wall_us=... gpu_timed=1 ok=1   (stream_store adds bytes=... gb_per_s=...)
 * cpu_us: CLOCK_MONOTONIC around issuing the stream, per dispatch (the final glFinish excluded); gpu_us: the
 * GL_TIME_ELAPSED query around the stream, per dispatch; wall_us: issuing + glFinish, per dispatch; gpu_timed: 0 when
 * the query measured under 1 ns per dispatch (the implementation does not time compute work; gpu_us and gb_per_s
 * then mean nothing). gb_per_s: bytes written per second of GPU time (10^9 bytes).
 *
 * Exit code: 0 every check passed, 1 a compile, link, GL error or content mismatch, 2 no usable EGL/GL, 64 bad
 * arguments. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "egl_gl_context.h"

#define PROGRAM "dispatch_stream"
#define TINY_GROUPS 4
#define TINY_GROUP_SIZE 64
#define TINY_WORDS (1 + TINY_GROUPS * TINY_GROUP_SIZE) /* the dispatch count, then one word per invocation */
#define STREAM_GROUP_SIZE 256

typedef struct {
  uint32_t count;
  uint32_t stream_dispatches;
  uint32_t stream_mib;
  uint32_t repeat;
  uint32_t warmup_ms;
  uint32_t phase_order[16]; /* indices into kPhases */
  uint32_t phase_count;
  EglGlPlatform platform;
} Options;

typedef enum { KERNEL_TINY_VARIABLE, KERNEL_TINY_FIXED, KERNEL_STREAM } Kernel;

typedef struct {
  const char* name;
  Kernel kernel;
  int barrier; /* glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT) after each dispatch */
} Phase;

static const Phase kPhases[] = {
    {"variable_no_barrier", KERNEL_TINY_VARIABLE, 0},
    {"variable_barrier", KERNEL_TINY_VARIABLE, 1},
    {"fixed_no_barrier", KERNEL_TINY_FIXED, 0},
    {"fixed_barrier", KERNEL_TINY_FIXED, 1},
    {"stream_store", KERNEL_STREAM, 0},
};

static const char* kTinyVariable =
    "#version 430\n"
    "#extension GL_ARB_compute_variable_group_size : require\n"
    "layout(local_size_variable) in;\n"
    "layout(std430, binding = 0) buffer Tiny { uint dispatches; uint values[]; };\n"
    "uniform uint tag;\n"
    "void main() {\n"
    "  uint i = gl_GlobalInvocationID.x;\n"
    "  values[i] = i * 3u + tag;\n"
    "  if (i == 0u) atomicAdd(dispatches, 1u);\n"
    "}\n";

static const char* kTinyFixed =
    "#version 430\n"
    "layout(local_size_x = 64) in;\n"
    "layout(std430, binding = 0) buffer Tiny { uint dispatches; uint values[]; };\n"
    "uniform uint tag;\n"
    "void main() {\n"
    "  uint i = gl_GlobalInvocationID.x;\n"
    "  values[i] = i * 3u + tag;\n"
    "  if (i == 0u) atomicAdd(dispatches, 1u);\n"
    "}\n";

static const char* kStream =
    "#version 430\n"
    "layout(local_size_x = 256) in;\n"
    "layout(std430, binding = 1) writeonly buffer Stream { uvec4 data[]; };\n"
    "uniform uint tag;\n"
    "void main() {\n"
    "  uint i = gl_GlobalInvocationID.x;\n"
    "  data[i] = uvec4(i, i ^ tag, i * 3u, tag);\n"
    "}\n";

typedef struct {
  GLuint programs[3]; /* by Kernel; 0 where unsupported */
  GLuint tiny, stream;
  GLsizeiptr stream_bytes;
  GLuint query;
} Resources;

static int usage(void) {
  fprintf(stderr, "usage: " PROGRAM
                  " [--count N] [--stream-dispatches M] [--stream-mb S (1..255)] [--repeat R] "
                  "[--warmup-ms W] [--phases NAME,...] [--egl auto|device|surfaceless]\n");
  return 64;
}

static int parse_number(const char* text, uint32_t max, uint32_t* value) {
  char* end = NULL;
  const unsigned long parsed = strtoul(text, &end, 10);
  if (end == text || *end != '\0' || parsed == 0 || parsed > max) return 0;
  *value = (uint32_t)parsed;
  return 1;
}

/* A comma-separated list of phase names (each may repeat), at most 16. */
static int parse_phases(const char* text, Options* options) {
  options->phase_count = 0;
  while (*text != '\0') {
    const char* comma = strchr(text, ',');
    const size_t length = comma != NULL ? (size_t)(comma - text) : strlen(text);
    int found = 0;
    for (uint32_t p = 0; p < sizeof kPhases / sizeof kPhases[0] && !found; ++p) {
      if (strlen(kPhases[p].name) == length && strncmp(kPhases[p].name, text, length) == 0) {
        if (options->phase_count == sizeof options->phase_order / sizeof options->phase_order[0]) return 0;
        options->phase_order[options->phase_count++] = p;
        found = 1;
      }
    }
    if (!found) return 0;
    text += length;
    if (*text == ',') ++text;
  }
  return options->phase_count > 0;
}

static int parse_options(int argc, char** argv, Options* options) {
  options->count = 100000;
  options->stream_dispatches = 100;
  options->stream_mib = 32;
  options->repeat = 1;
  options->warmup_ms = 0;
  options->phase_count = sizeof kPhases / sizeof kPhases[0];
  for (uint32_t p = 0; p < options->phase_count; ++p) options->phase_order[p] = p;
  options->platform = EGL_GL_PLATFORM_AUTO;
  for (int i = 1; i < argc; ++i) {
    const char* arg = argv[i];
    const char* value = i + 1 < argc ? argv[i + 1] : "";
    if (strcmp(arg, "--count") == 0 && parse_number(value, 100000000, &options->count)) {
      ++i;
    } else if (strcmp(arg, "--stream-dispatches") == 0 && parse_number(value, 1000000, &options->stream_dispatches)) {
      ++i;
    } else if (strcmp(arg, "--stream-mb") == 0 && parse_number(value, 255, &options->stream_mib)) {
      ++i; /* 255 MiB: 65280 groups of 256, within the minimum GL_MAX_COMPUTE_WORK_GROUP_COUNT of 65535 */
    } else if (strcmp(arg, "--repeat") == 0 && parse_number(value, 1000, &options->repeat)) {
      ++i;
    } else if (strcmp(arg, "--warmup-ms") == 0 && parse_number(value, 60000, &options->warmup_ms)) {
      ++i;
    } else if (strcmp(arg, "--phases") == 0 && parse_phases(value, options)) {
      ++i;
    } else if (strcmp(arg, "--egl") == 0 && egl_gl_parse_platform(value, &options->platform)) {
      ++i;
    } else {
      return 0;
    }
  }
  return 1;
}

static GLuint build(const char* source) {
  const GLuint shader = egl_gl_compile_compute(PROGRAM, source);
  const GLuint program = egl_gl_link(PROGRAM, shader);
  p_glDeleteShader(shader);
  return program;
}

static GLuint make_buffer(GLuint binding, GLsizeiptr bytes) {
  GLuint buffer = 0;
  p_glGenBuffers(1, &buffer);
  p_glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffer);
  p_glBufferData(GL_SHADER_STORAGE_BUFFER, bytes, NULL, GL_DYNAMIC_COPY);
  p_glBindBufferBase(GL_SHADER_STORAGE_BUFFER, binding, buffer);
  return buffer;
}

static void dispatch(Kernel kernel, uint32_t stream_groups) {
  switch (kernel) {
    case KERNEL_TINY_VARIABLE: p_glDispatchComputeGroupSizeARB(TINY_GROUPS, 1, 1, TINY_GROUP_SIZE, 1, 1); break;
    case KERNEL_TINY_FIXED: p_glDispatchCompute(TINY_GROUPS, 1, 1); break;
    case KERNEL_STREAM: p_glDispatchCompute(stream_groups, 1, 1); break;
  }
}

/* Maps the phase's buffer and checks what its kernel wrote; returns 1 when all of it is right. */
static int verify(const Phase* phase, const Resources* r, uint32_t tag, uint32_t dispatches) {
  const int stream = phase->kernel == KERNEL_STREAM;
  const GLsizeiptr bytes = stream ? r->stream_bytes : (GLsizeiptr)(TINY_WORDS * sizeof(uint32_t));
  p_glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  p_glBindBuffer(GL_SHADER_STORAGE_BUFFER, stream ? r->stream : r->tiny);
  const uint32_t* words = p_glMapBufferRange(GL_SHADER_STORAGE_BUFFER, 0, bytes, GL_MAP_READ_BIT);
  if (words == NULL) {
    fprintf(stderr, PROGRAM ": glMapBufferRange failed (0x%x)\n", (unsigned)p_glGetError());
    exit(1);
  }
  uint64_t wrong = 0;
  if (stream) {
    const uint32_t elements = (uint32_t)(bytes / 16);
    for (uint32_t i = 0; i < elements; ++i) {
      const uint32_t* e = words + 4 * (size_t)i;
      wrong += e[0] != i || e[1] != (i ^ tag) || e[2] != i * 3u || e[3] != tag;
    }
  } else {
    if (words[0] != dispatches) {
      fprintf(stderr, PROGRAM ": %s: %u dispatches counted, %u issued\n", phase->name, (unsigned)words[0],
              (unsigned)dispatches);
      ++wrong;
    }
    for (uint32_t i = 0; i < TINY_WORDS - 1; ++i) wrong += words[1 + i] != i * 3u + tag;
  }
  p_glUnmapBuffer(GL_SHADER_STORAGE_BUFFER);
  if (wrong != 0) fprintf(stderr, PROGRAM ": %s: %llu wrong values\n", phase->name, (unsigned long long)wrong);
  return wrong == 0;
}

static int run_phase(const Options* options, const Resources* r, const Phase* phase, uint32_t pass, uint32_t tag) {
  const GLuint program = r->programs[phase->kernel];
  if (program == 0) {
    printf(PROGRAM " impl=\"%s\" phase=%s pass=%u skipped=1\n", egl_gl_implementation(), phase->name, (unsigned)pass);
    return 1;
  }
  const int stream = phase->kernel == KERNEL_STREAM;
  const uint32_t count = stream ? options->stream_dispatches : options->count;
  const uint32_t stream_groups = (uint32_t)(r->stream_bytes / 16 / STREAM_GROUP_SIZE);
  p_glUseProgram(program);
  p_glUniform1ui(p_glGetUniformLocation(program, "tag"), tag);
  dispatch(phase->kernel, stream_groups); /* warm-up: the first use of the program and size is not timed */
  p_glMemoryBarrier(GL_ALL_BARRIER_BITS); /* the clear below must come after the warm-up's writes */
  p_glBindBuffer(GL_SHADER_STORAGE_BUFFER, stream ? r->stream : r->tiny);
  p_glClearBufferData(GL_SHADER_STORAGE_BUFFER, GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, NULL);
  p_glFinish();

  p_glBeginQuery(GL_TIME_ELAPSED, r->query);
  const double start = egl_gl_now();
  if (phase->barrier) {
    for (uint32_t i = 0; i < count; ++i) {
      dispatch(phase->kernel, stream_groups);
      p_glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    }
  } else {
    for (uint32_t i = 0; i < count; ++i) dispatch(phase->kernel, stream_groups);
  }
  const double issued = egl_gl_now();
  p_glEndQuery(GL_TIME_ELAPSED);
  p_glFinish();
  const double finished = egl_gl_now();
  GLuint64 gpu_ns = 0;
  p_glGetQueryObjectui64v(r->query, GL_QUERY_RESULT, &gpu_ns);

  const int ok = verify(phase, r, tag, count);
  const GLenum error = p_glGetError();
  if (error != GL_NO_ERROR) fprintf(stderr, PROGRAM ": %s: GL error 0x%x\n", phase->name, (unsigned)error);
  /* Under 1 ns per dispatch the implementation does not time compute work (Mesa's llvmpipe reports ~0). */
  const int gpu_timed = gpu_ns >= count;
  printf(PROGRAM " impl=\"%s\" phase=%s pass=%u dispatches=%u cpu_us=%.4f gpu_us=%.4f wall_us=%.4f gpu_timed=%d",
         egl_gl_implementation(), phase->name, (unsigned)pass, (unsigned)count, (issued - start) * 1e6 / count,
         (double)gpu_ns * 1e-3 / count, (finished - start) * 1e6 / count, gpu_timed);
  if (stream) {
    const double bytes = (double)r->stream_bytes * count;
    printf(" bytes=%lld gb_per_s=%.1f", (long long)r->stream_bytes, gpu_timed ? bytes / (double)gpu_ns : 0.0);
  }
  printf(" ok=%d\n", ok && error == GL_NO_ERROR);
  fflush(stdout);
  return ok && error == GL_NO_ERROR;
}

int main(int argc, char** argv) {
  Options options;
  if (!parse_options(argc, argv, &options)) return usage();
  const int opened = egl_gl_open(PROGRAM, options.platform);
  if (opened != 0) return opened;

  Resources r;
  memset(&r, 0, sizeof r);
  if (egl_gl_has_extension("GL_ARB_compute_variable_group_size")) {
    r.programs[KERNEL_TINY_VARIABLE] = build(kTinyVariable);
  } else {
    fprintf(stderr, PROGRAM ": GL_ARB_compute_variable_group_size is not supported: the variable phases skip\n");
  }
  r.programs[KERNEL_TINY_FIXED] = build(kTinyFixed);
  r.programs[KERNEL_STREAM] = build(kStream);
  r.stream_bytes = (GLsizeiptr)options.stream_mib << 20;
  r.tiny = make_buffer(0, TINY_WORDS * sizeof(uint32_t));
  r.stream = make_buffer(1, r.stream_bytes);
  p_glGenQueries(1, &r.query);

  if (options.warmup_ms != 0 && r.programs[KERNEL_STREAM] != 0) {
    const uint32_t stream_groups = (uint32_t)(r.stream_bytes / 16 / STREAM_GROUP_SIZE);
    p_glUseProgram(r.programs[KERNEL_STREAM]);
    const double until = egl_gl_now() + options.warmup_ms * 1e-3;
    while (egl_gl_now() < until) {
      for (int i = 0; i < 10; ++i) dispatch(KERNEL_STREAM, stream_groups);
      p_glFinish();
    }
  }

  int ok = 1;
  for (uint32_t pass = 1; pass <= options.repeat; ++pass) {
    for (uint32_t k = 0; k < options.phase_count; ++k) {
      const uint32_t p = options.phase_order[k];
      ok &= run_phase(&options, &r, &kPhases[p], pass, pass * 16u + p + 1u);
    }
  }

  p_glDeleteQueries(1, &r.query);
  GLuint buffers[] = {r.tiny, r.stream};
  p_glDeleteBuffers(2, buffers);
  for (int k = 0; k < 3; ++k) p_glDeleteProgram(r.programs[k]);
  egl_gl_close();
  fprintf(stderr, PROGRAM ": %s\n", ok ? "OK" : "FAILED");
  return ok ? 0 : 1;
}
