/* program_loop: a plain EGL + GL program shaped like a real GL test program that builds many compute programs
 * (issue 17), timed phase by phase so NVIDIA's GL, Zink and Bismuth compare side by side on the same binary.
 *
 *   program_loop [variable|fixed] [--count N] [--repeat R] [--dispatches D] [--egl auto|device|surfaceless]
 *
 * variable (default, N = 2108): N distinct programs with layout(local_size_variable) (ARB_compute_variable_group_size)
 *   from examples/program_template.c, differing in a literal baked into the source (literal = index + 1) and in the
 *   group size each is dispatched with (cycling through 1-, 2- and 3-D sizes within
 *   GL_MAX_COMPUTE_VARIABLE_GROUP_INVOCATIONS_ARB); per program one glDispatchComputeGroupSizeARB (D = 1).
 * fixed (N = 2000): N programs with distinct layout(local_size_x, local_size_y) and D = 4 glDispatchCompute each.
 *
 * Each program: glCreateShader + glShaderSource + glCompileShader (+ GL_COMPILE_STATUS), glCreateProgram +
 * glAttachShader + glLinkProgram (+ GL_LINK_STATUS), then per dispatch: reset the atomic counter
 * (glBufferSubData), dispatch, glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT), glMapBufferRange(GL_MAP_READ_BIT) of
 * the counter and check it against literal x invocations; finally glDeleteShader + glDeleteProgram. --repeat R runs
 * the whole loop R times in one process over the same sources (pass 2 onwards shows an in-process cache).
 *
 * One line per pass on stdout, key=value (times in ms are per program, averaged over the pass):
 *   program_loop impl="<GL_RENDERER> | <GL_VERSION> | EGL <platform>" mode=variable pass=1 programs=2108
 *   dispatches_per_program=1 total_s=... per_program_ms=... compile_ms=... link_ms=... first_dispatch_ms=...
 *   first_readback_ms=... more_dispatch_ms=... more_readback_ms=... delete_ms=... mismatches=0
 * "dispatch" is issuing (counter reset, glUseProgram, the dispatch call); "readback" is the barrier, the map (which
 * waits for the GPU), the check and the unmap; "more" are the dispatches after the first (fixed mode).
 *
 * Exit code: 0 every counter matched, 1 a compile, link, GL error or counter mismatch, 2 no usable EGL/GL or a
 * missing extension, 64 bad arguments. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "egl_gl_context.h"
#include "program_template.h"

#define PROGRAM "program_loop"
#define MAX_SOURCE 1024
#define MAX_SIZES 1024

typedef struct {
  ProgramTemplateKind kind;
  uint32_t count;
  uint32_t repeat;
  uint32_t dispatches;
  EglGlPlatform platform;
} Options;

/* Seconds spent in each phase over one pass. */
typedef struct {
  double compile, link, first_dispatch, first_readback, more_dispatch, more_readback, delete_objects;
  uint32_t mismatches;
} PhaseTimes;

typedef struct {
  ProgramTemplateCounterOps ops;
  uint32_t (*sizes)[3]; /* the group size of each program */
  uint32_t size_count;
  GLuint counter;
} Loop;

static int usage(void) {
  fprintf(stderr, "usage: " PROGRAM
                  " [variable|fixed] [--count N] [--repeat R] [--dispatches D] "
                  "[--egl auto|device|surfaceless]\n");
  return 64;
}

static int parse_count(const char* text, uint32_t* value) {
  char* end = NULL;
  const unsigned long parsed = strtoul(text, &end, 10);
  if (end == text || *end != '\0' || parsed == 0 || parsed > 1000000) return 0;
  *value = (uint32_t)parsed;
  return 1;
}

static int parse_options(int argc, char** argv, Options* options) {
  options->kind = PROGRAM_TEMPLATE_VARIABLE;
  options->count = 0;
  options->repeat = 1;
  options->dispatches = 0;
  options->platform = EGL_GL_PLATFORM_AUTO;
  for (int i = 1; i < argc; ++i) {
    const char* arg = argv[i];
    const char* value = i + 1 < argc ? argv[i + 1] : "";
    if (strcmp(arg, "variable") == 0) {
      options->kind = PROGRAM_TEMPLATE_VARIABLE;
    } else if (strcmp(arg, "fixed") == 0) {
      options->kind = PROGRAM_TEMPLATE_FIXED;
    } else if (strcmp(arg, "--count") == 0 && parse_count(value, &options->count)) {
      ++i;
    } else if (strcmp(arg, "--repeat") == 0 && parse_count(value, &options->repeat)) {
      ++i;
    } else if (strcmp(arg, "--dispatches") == 0 && parse_count(value, &options->dispatches)) {
      ++i;
    } else if (strcmp(arg, "--egl") == 0 && egl_gl_parse_platform(value, &options->platform)) {
      ++i;
    } else {
      return 0;
    }
  }
  const int variable = options->kind == PROGRAM_TEMPLATE_VARIABLE;
  if (options->count == 0) options->count = variable ? 2108 : 2000;
  if (options->dispatches == 0) options->dispatches = variable ? 1 : 4;
  return 1;
}

static uint32_t get_limit(GLenum name, GLuint index) {
  GLint value = 0;
  p_glGetIntegeri_v(name, index, &value);
  return value > 0 ? (uint32_t)value : 0;
}

/* The sizes of the programs, cycled through by program index. Returns 0 (with a message) when there are none. */
static int choose_sizes(const Options* options, Loop* loop) {
  uint32_t max_size[3];
  GLint max_invocations = 0;
  if (options->kind == PROGRAM_TEMPLATE_VARIABLE) {
    p_glGetIntegerv(GL_MAX_COMPUTE_VARIABLE_GROUP_INVOCATIONS_ARB, &max_invocations);
    for (GLuint d = 0; d < 3; ++d) max_size[d] = get_limit(GL_MAX_COMPUTE_VARIABLE_GROUP_SIZE_ARB, d);
    loop->sizes = calloc(MAX_SIZES, sizeof *loop->sizes);
    loop->size_count =
        (uint32_t)program_template_variable_sizes(loop->sizes, MAX_SIZES, (uint32_t)max_invocations, max_size);
  } else {
    p_glGetIntegerv(GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS, &max_invocations);
    for (GLuint d = 0; d < 3; ++d) max_size[d] = get_limit(GL_MAX_COMPUTE_WORK_GROUP_SIZE, d);
    loop->sizes = calloc(options->count, sizeof *loop->sizes);
    loop->size_count =
        (uint32_t)program_template_fixed_sizes(loop->sizes, options->count, (uint32_t)max_invocations, max_size);
    if (loop->size_count < options->count) {
      fprintf(stderr, PROGRAM ": only %u distinct fixed sizes fit this implementation's limits\n",
              (unsigned)loop->size_count);
      return 0;
    }
  }
  if (loop->size_count == 0) {
    fprintf(stderr, PROGRAM ": no group size fits this implementation's limits\n");
    return 0;
  }
  return 1;
}

static void dispatch(ProgramTemplateKind kind, GLuint program, const uint32_t size[3], const uint32_t groups[3]) {
  const uint32_t zero = 0;
  p_glBufferSubData(GL_ATOMIC_COUNTER_BUFFER, 0, sizeof zero, &zero);
  p_glUseProgram(program);
  if (kind == PROGRAM_TEMPLATE_VARIABLE) {
    p_glDispatchComputeGroupSizeARB(groups[0], groups[1], groups[2], size[0], size[1], size[2]);
  } else {
    p_glDispatchCompute(groups[0], groups[1], groups[2]);
  }
}

/* Reads the counter back; returns 1 when it holds `expected`. */
static int read_back(uint32_t expected, uint32_t program_index) {
  p_glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  const uint32_t* value = p_glMapBufferRange(GL_ATOMIC_COUNTER_BUFFER, 0, sizeof(uint32_t), GL_MAP_READ_BIT);
  if (value == NULL) {
    fprintf(stderr, PROGRAM ": glMapBufferRange failed (0x%x)\n", (unsigned)p_glGetError());
    exit(1);
  }
  const uint32_t got = *value;
  p_glUnmapBuffer(GL_ATOMIC_COUNTER_BUFFER);
  if (got == expected) return 1;
  fprintf(stderr, PROGRAM ": program %u: counter %u, expected %u\n", (unsigned)program_index, (unsigned)got,
          (unsigned)expected);
  return 0;
}

static void run_program(const Options* options, const Loop* loop, uint32_t index, PhaseTimes* times) {
  const uint32_t literal = index + 1;
  const uint32_t* size = loop->sizes[index % loop->size_count];
  char source[MAX_SOURCE];
  if (!program_template_source(source, sizeof source, options->kind, loop->ops, literal, size)) {
    fprintf(stderr, PROGRAM ": the shader source does not fit %d bytes\n", MAX_SOURCE);
    exit(1);
  }
  double t0 = egl_gl_now();
  const GLuint shader = egl_gl_compile_compute(PROGRAM, source);
  double t1 = egl_gl_now();
  const GLuint program = egl_gl_link(PROGRAM, shader);
  double t2 = egl_gl_now();
  times->compile += t1 - t0;
  times->link += t2 - t1;
  for (uint32_t d = 0; d < options->dispatches; ++d) {
    uint32_t groups[3];
    program_template_groups(options->kind == PROGRAM_TEMPLATE_VARIABLE ? index : d, groups);
    const double start = egl_gl_now();
    dispatch(options->kind, program, size, groups);
    const double issued = egl_gl_now();
    times->mismatches += !read_back(program_template_expected(literal, size, groups), index);
    const double read = egl_gl_now();
    *(d == 0 ? &times->first_dispatch : &times->more_dispatch) += issued - start;
    *(d == 0 ? &times->first_readback : &times->more_readback) += read - issued;
  }
  t0 = egl_gl_now();
  p_glDeleteShader(shader);
  p_glDeleteProgram(program);
  times->delete_objects += egl_gl_now() - t0;
}

static int run_pass(const Options* options, const Loop* loop, uint32_t pass) {
  PhaseTimes times;
  memset(&times, 0, sizeof times);
  const double start = egl_gl_now();
  for (uint32_t i = 0; i < options->count; ++i) run_program(options, loop, i, &times);
  const double total = egl_gl_now() - start;
  const GLenum error = p_glGetError();
  const double ms = 1e3 / options->count;
  printf(PROGRAM
         " impl=\"%s\" mode=%s pass=%u programs=%u dispatches_per_program=%u total_s=%.3f per_program_ms=%.4f"
         " compile_ms=%.4f link_ms=%.4f first_dispatch_ms=%.4f first_readback_ms=%.4f more_dispatch_ms=%.4f"
         " more_readback_ms=%.4f delete_ms=%.4f mismatches=%u\n",
         egl_gl_implementation(), options->kind == PROGRAM_TEMPLATE_VARIABLE ? "variable" : "fixed", (unsigned)pass,
         (unsigned)options->count, (unsigned)options->dispatches, total, total * ms, times.compile * ms,
         times.link * ms, times.first_dispatch * ms, times.first_readback * ms, times.more_dispatch * ms,
         times.more_readback * ms, times.delete_objects * ms, (unsigned)times.mismatches);
  fflush(stdout);
  if (error != GL_NO_ERROR) fprintf(stderr, PROGRAM ": GL error 0x%x during the pass\n", (unsigned)error);
  return times.mismatches == 0 && error == GL_NO_ERROR;
}

/* The atomic-counter flavour this implementation compiles, or -1. */
static int choose_counter_ops(void) {
  if (egl_gl_has_extension("GL_ARB_shader_atomic_counter_ops")) return PROGRAM_TEMPLATE_COUNTER_OPS_ARB;
  if (egl_gl_version() >= 46) return PROGRAM_TEMPLATE_COUNTER_OPS_460;
  return -1;
}

int main(int argc, char** argv) {
  Options options;
  if (!parse_options(argc, argv, &options)) return usage();
  const int opened = egl_gl_open(PROGRAM, options.platform);
  if (opened != 0) return opened;
  if (options.kind == PROGRAM_TEMPLATE_VARIABLE && !egl_gl_has_extension("GL_ARB_compute_variable_group_size")) {
    fprintf(stderr, PROGRAM ": GL_ARB_compute_variable_group_size is not supported\n");
    return 2;
  }
  const int ops = choose_counter_ops();
  if (ops < 0) {
    fprintf(stderr, PROGRAM ": neither GL 4.6 nor GL_ARB_shader_atomic_counter_ops (atomicCounterAdd)\n");
    return 2;
  }
  Loop loop;
  memset(&loop, 0, sizeof loop);
  loop.ops = (ProgramTemplateCounterOps)ops;
  if (!choose_sizes(&options, &loop)) return 2;

  p_glGenBuffers(1, &loop.counter);
  p_glBindBuffer(GL_ATOMIC_COUNTER_BUFFER, loop.counter);
  p_glBufferData(GL_ATOMIC_COUNTER_BUFFER, sizeof(uint32_t), NULL, GL_DYNAMIC_READ);
  p_glBindBufferBase(GL_ATOMIC_COUNTER_BUFFER, 0, loop.counter);

  int ok = 1;
  for (uint32_t pass = 1; pass <= options.repeat; ++pass) ok &= run_pass(&options, &loop, pass);

  p_glDeleteBuffers(1, &loop.counter);
  free(loop.sizes);
  egl_gl_close();
  fprintf(stderr, PROGRAM ": %s\n", ok ? "OK" : "FAILED");
  return ok ? 0 : 1;
}
