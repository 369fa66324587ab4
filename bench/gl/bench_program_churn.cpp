// bench_program_churn: the cost per program of a GL program that builds many small compute programs (issue 17),
// through libbismuth-gl on one EGL context. The programs come from examples/program_template.c (the template
// examples/program_loop.c uses): layout(local_size_variable), one atomic counter, differing in a literal baked
// into the source and in the group size each is dispatched with (cycling through 1-, 2- and 3-D sizes).
//
//   BM_ProgramChurn/0         cold: every iteration a never-seen source (its literal comes from a counter seeded
//                             from the clock, so no earlier process's cache holds it either)
//   BM_ProgramChurn/1         warm: cycles over 64 sources each compiled, linked and dispatched once before timing,
//                             recreating the shader and program objects every iteration (an in-process or disk
//                             program cache can hit)
//   BM_ProgramChurnPhases/0,1 the same with the two halves timed apart: counters compile_link_us
//                             (glCreateShader ... glLinkProgram + GL_LINK_STATUS) and dispatch_readback_us (counter
//                             reset, glDispatchComputeGroupSizeARB, glMemoryBarrier, glMapBufferRange(READ) and the
//                             check)
//
// One iteration = one program: compile + link + one dispatch + readback of its counter (checked: the benchmark
// stops with an error on a mismatch) + glDeleteShader/glDeleteProgram. Time = wall clock per program.
//
// The context is created by the first benchmark that runs; a cold one sets BISMUTH_CACHE_DIR=off before (as the
// issue's cold figures have every disk cache off). The cold benchmarks are registered first, so a full run keeps
// the disk cache off throughout (counter disk_cache = 0); `--benchmark_filter=/1` runs the warm ones alone with
// the environment's cache folder (disk_cache = 1), and a second such process shows the disk cache.
#define EGL_EGLEXT_PROTOTYPES 1
#include <EGL/egl.h>
#include <EGL/eglext.h>
#define GL_GLEXT_PROTOTYPES 1
#include <GL/glcorearb.h>
#include <benchmark/benchmark.h>
#include <time.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "program_template.h"

namespace {

constexpr uint32_t kWarmSources = 64;
constexpr uint32_t kWarmLiteralBase = 1000;  // the warm sources' literals: 1000 ... 1063

[[noreturn]] void die(const std::string& what) {
  std::fprintf(stderr, "bench_program_churn: %s\n", what.c_str());
  std::exit(1);
}

bool has_extension(const char* name) {
  GLint count = 0;
  glGetIntegerv(GL_NUM_EXTENSIONS, &count);
  for (GLint i = 0; i < count; ++i) {
    if (std::strcmp(reinterpret_cast<const char*>(glGetStringi(GL_EXTENSIONS, GLuint(i))), name) == 0) return true;
  }
  return false;
}

double now_s() {
  timespec t{};
  clock_gettime(CLOCK_MONOTONIC, &t);
  return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
}

// Seconds spent in the two halves of one program.
struct Phases {
  double compile_link = 0, dispatch_readback = 0;
};

struct Churn {
  bool disk_cache = true;
  std::string renderer;
  ProgramTemplateCounterOps ops = PROGRAM_TEMPLATE_COUNTER_OPS_ARB;
  uint32_t sizes[1024][3] = {};
  size_t size_count = 0;
  GLuint counter = 0;
  uint32_t next_cold_literal = 0;
  bool warm_ready = false;

  explicit Churn(bool cold) {
    if (cold) setenv("BISMUTH_CACHE_DIR", "off", 1);
    const char* dir = std::getenv("BISMUTH_CACHE_DIR");
    disk_cache = dir == nullptr || std::strcmp(dir, "off") != 0;
    EGLDisplay display = eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, nullptr, nullptr);
    if (display == EGL_NO_DISPLAY || !eglInitialize(display, nullptr, nullptr)) die("eglInitialize failed");
    eglBindAPI(EGL_OPENGL_API);
    const EGLint attribs[] = {EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 6, EGL_NONE};
    EGLContext context = eglCreateContext(display, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, attribs);
    if (context == EGL_NO_CONTEXT || !eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context)) {
      die("no GL 4.6 context");
    }
    renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
    if (!has_extension("GL_ARB_compute_variable_group_size")) die("no GL_ARB_compute_variable_group_size");
    ops = has_extension("GL_ARB_shader_atomic_counter_ops") ? PROGRAM_TEMPLATE_COUNTER_OPS_ARB
                                                            : PROGRAM_TEMPLATE_COUNTER_OPS_460;
    GLint max_invocations = 0;
    glGetIntegerv(GL_MAX_COMPUTE_VARIABLE_GROUP_INVOCATIONS_ARB, &max_invocations);
    uint32_t max_size[3];
    for (GLuint d = 0; d < 3; ++d) {
      GLint v = 0;
      glGetIntegeri_v(GL_MAX_COMPUTE_VARIABLE_GROUP_SIZE_ARB, d, &v);
      max_size[d] = uint32_t(v);
    }
    size_count = program_template_variable_sizes(sizes, 1024, uint32_t(max_invocations), max_size);
    if (size_count == 0) die("no group size fits the limits");
    glGenBuffers(1, &counter);
    glBindBuffer(GL_ATOMIC_COUNTER_BUFFER, counter);
    glBufferData(GL_ATOMIC_COUNTER_BUFFER, 4, nullptr, GL_DYNAMIC_READ);
    glBindBufferBase(GL_ATOMIC_COUNTER_BUFFER, 0, counter);
    // Never-seen literals in this process and, with high probability, in any earlier one; never 0 (which would
    // make every counter value expected).
    next_cold_literal = uint32_t(now_s() * 1e6) ^ (uint32_t(getpid()) << 16);
    // One program of a never-seen source before any timing: the process's one-time set-up (front-end tables,
    // first submission) is not a per-program cost.
    Phases ignored;
    if (std::string error = run(cold_literal(), 0, ignored); !error.empty()) die(error);
  }

  static Churn& get(bool cold) {
    static Churn* churn = new Churn(cold);  // one context for every benchmark, kept until exit
    return *churn;
  }

  uint32_t cold_literal() {
    if (++next_cold_literal == 0) ++next_cold_literal;
    return next_cold_literal;
  }

  // One program: compile, link, dispatch at the size of `index`, read the counter back and check it. Returns an
  // error message, empty on success.
  std::string run(uint32_t literal, uint32_t index, Phases& phases) {
    const uint32_t* size = sizes[index % size_count];
    char source[1024];
    if (!program_template_source(source, sizeof source, PROGRAM_TEMPLATE_VARIABLE, ops, literal, size)) {
      return "the source does not fit";
    }
    const double t0 = now_s();
    const GLchar* text = source;
    const GLuint shader = glCreateShader(GL_COMPUTE_SHADER);
    glShaderSource(shader, 1, &text, nullptr);
    glCompileShader(shader);
    const GLuint program = glCreateProgram();
    glAttachShader(program, shader);
    glLinkProgram(program);
    GLint linked = 0;
    glGetProgramiv(program, GL_LINK_STATUS, &linked);
    const double t1 = now_s();
    std::string error;
    if (!linked) {
      char log[2048] = {};
      glGetShaderInfoLog(shader, sizeof log, nullptr, log);
      error = std::string("link failed: ") + log;
    } else {
      uint32_t groups[3];
      program_template_groups(index, groups);
      const uint32_t zero = 0;
      glBufferSubData(GL_ATOMIC_COUNTER_BUFFER, 0, 4, &zero);
      glUseProgram(program);
      glDispatchComputeGroupSizeARB(groups[0], groups[1], groups[2], size[0], size[1], size[2]);
      glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
      const auto* value =
          static_cast<const uint32_t*>(glMapBufferRange(GL_ATOMIC_COUNTER_BUFFER, 0, 4, GL_MAP_READ_BIT));
      const uint32_t expected = program_template_expected(literal, size, groups);
      if (value == nullptr) {
        error = "glMapBufferRange failed";
      } else {
        if (*value != expected) error = "counter " + std::to_string(*value) + ", expected " + std::to_string(expected);
        glUnmapBuffer(GL_ATOMIC_COUNTER_BUFFER);
      }
    }
    const double t2 = now_s();
    glDeleteShader(shader);
    glDeleteProgram(program);
    phases.compile_link += t1 - t0;
    phases.dispatch_readback += t2 - t1;
    return error;
  }

  // The warm sources, each built and run once before the first warm iteration.
  std::string prepare_warm() {
    if (warm_ready) return {};
    Phases ignored;
    for (uint32_t k = 0; k < kWarmSources; ++k) {
      if (std::string error = run(kWarmLiteralBase + k, k, ignored); !error.empty()) return error;
    }
    warm_ready = true;
    return {};
  }
};

void churn(benchmark::State& state, bool split) {
  const bool cold = state.range(0) == 0;
  Churn& c = Churn::get(cold);
  if (!cold) {
    if (std::string error = c.prepare_warm(); !error.empty()) {
      state.SkipWithError(error.c_str());
      return;
    }
  }
  Phases phases;
  uint32_t k = 0;
  for (auto _ : state) {
    const uint32_t index = k++ % kWarmSources;
    const uint32_t literal = cold ? c.cold_literal() : kWarmLiteralBase + index;
    if (std::string error = c.run(literal, cold ? k : index, phases); !error.empty()) {
      state.SkipWithError(error.c_str());
      break;
    }
  }
  state.SetLabel(c.renderer + (cold ? ", cold" : ", warm (64 sources)"));
  state.counters["disk_cache"] = c.disk_cache ? 1 : 0;
  if (split) {
    state.counters["compile_link_us"] =
        benchmark::Counter(phases.compile_link * 1e6, benchmark::Counter::kAvgIterations);
    state.counters["dispatch_readback_us"] =
        benchmark::Counter(phases.dispatch_readback * 1e6, benchmark::Counter::kAvgIterations);
  }
}

void BM_ProgramChurn(benchmark::State& state) {
  churn(state, false);
}
void BM_ProgramChurnPhases(benchmark::State& state) {
  churn(state, true);
}

// Cold first: the first benchmark creates the context (see the top).
BENCHMARK(BM_ProgramChurn)->Arg(0)->Arg(1)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_ProgramChurnPhases)->Arg(0)->Arg(1)->UseRealTime()->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
