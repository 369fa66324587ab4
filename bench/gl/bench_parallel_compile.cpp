// bench_parallel_compile: GL_KHR_parallel_shader_compile's gain (issue 17 item 4) — a batch of never-seen compute
// programs built the way the extension expects (compile every shader, link every program, then wait for
// COMPLETION_STATUS_KHR and check LINK_STATUS), timed per batch, with MAX_SHADER_COMPILER_THREADS_KHR 0 (every
// compile and link on the calling thread) against the initial 0xFFFFFFFF (the device's compiler threads).
//
//   BM_BatchBuild/<programs>/<hint>   hint 0: synchronous; hint 1: 0xFFFFFFFF
//
// The sources come from examples/program_template.c (fixed-size form) with literals never seen before (the disk
// program cache is off: BISMUTH_CACHE_DIR=off), so every compile and link runs the front. Counters: programs per
// second, and compiler threads the hint allows on this machine (min(hardware threads / 2, 8)).
#define EGL_EGLEXT_PROTOTYPES 1
#include <EGL/egl.h>
#include <EGL/eglext.h>
#define GL_GLEXT_PROTOTYPES 1
#include <GL/glcorearb.h>
#include <benchmark/benchmark.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "program_template.h"

namespace {

[[noreturn]] void die(const std::string& what) {
  std::fprintf(stderr, "bench_parallel_compile: %s\n", what.c_str());
  std::exit(1);
}

struct Setup {
  uint32_t next_literal = 0;
  Setup() {
    setenv("BISMUTH_CACHE_DIR", "off", 1);
    EGLDisplay display = eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, nullptr, nullptr);
    if (display == EGL_NO_DISPLAY || !eglInitialize(display, nullptr, nullptr)) die("eglInitialize failed");
    eglBindAPI(EGL_OPENGL_API);
    const EGLint attribs[] = {EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 6, EGL_NONE};
    EGLContext context = eglCreateContext(display, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, attribs);
    if (context == EGL_NO_CONTEXT || !eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context)) {
      die("no GL 4.6 context");
    }
    timespec t{};
    clock_gettime(CLOCK_MONOTONIC, &t);
    next_literal = uint32_t(t.tv_nsec) ^ (uint32_t(getpid()) << 16);
  }
  static Setup& get() {
    static Setup* setup = new Setup;  // one context for every benchmark, kept until exit
    return *setup;
  }
  uint32_t literal() {
    if (++next_literal == 0) ++next_literal;
    return next_literal;
  }
};

// Builds `count` programs as a batch; false when one fails to compile or link.
bool build_batch(Setup& setup, uint32_t count) {
  static const uint32_t kSize[3] = {64, 1, 1};
  std::vector<GLuint> shaders(count), programs(count);
  char source[4096];
  for (uint32_t i = 0; i < count; ++i) {
    if (!program_template_source(source, sizeof source, PROGRAM_TEMPLATE_FIXED, PROGRAM_TEMPLATE_COUNTER_OPS_460,
                                 setup.literal(), kSize)) {
      return false;
    }
    const char* text = source;
    shaders[i] = glCreateShader(GL_COMPUTE_SHADER);
    glShaderSource(shaders[i], 1, &text, nullptr);
    glCompileShader(shaders[i]);
  }
  for (uint32_t i = 0; i < count; ++i) {
    programs[i] = glCreateProgram();
    glAttachShader(programs[i], shaders[i]);
    glLinkProgram(programs[i]);
    glDeleteShader(shaders[i]);
  }
  bool ok = true;
  for (uint32_t i = 0; i < count; ++i) {
    GLint done = GL_FALSE;
    while (glGetProgramiv(programs[i], GL_COMPLETION_STATUS_KHR, &done), done != GL_TRUE) std::this_thread::yield();
    GLint linked = GL_FALSE;
    glGetProgramiv(programs[i], GL_LINK_STATUS, &linked);
    ok = ok && linked == GL_TRUE;
    glDeleteProgram(programs[i]);
  }
  return ok;
}

void BM_BatchBuild(benchmark::State& state) {
  Setup& setup = Setup::get();
  const auto count = uint32_t(state.range(0));
  const GLuint hint = state.range(1) == 0 ? 0u : 0xFFFFFFFFu;
  glMaxShaderCompilerThreadsKHR(hint);
  if (!build_batch(setup, 1)) die("a program failed to build");  // the process's first compile and link
  for (auto _ : state) {
    if (!build_batch(setup, count)) {
      state.SkipWithError("a program failed to compile or link");
      break;
    }
  }
  state.counters["programs_per_s"] =
      benchmark::Counter(double(count) * double(state.iterations()), benchmark::Counter::kIsRate);
  state.counters["threads"] = hint == 0 ? 0 : std::min(std::max(1u, std::thread::hardware_concurrency() / 2), 8u);
}
BENCHMARK(BM_BatchBuild)->ArgsProduct({{64}, {0, 1}})->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
