// bench_dispatch_stream: a sustained stream of tiny dispatches through libbismuth-gl, as issue 17's side-by-side
// program issues it: N x glDispatchComputeGroupSizeARB(4,1,1, 64,1,1) of one variable-size program into one
// buffer, bracketed by a GL_TIME_ELAPSED query, then glFinish.
//
//   BM_DispatchStream/N/0   no glMemoryBarrier between the dispatches (GL orders nothing between them)
//   BM_DispatchStream/N/1   glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT) between each pair
//
// Iteration time (manual) is the wall time of issuing the N calls, without the glFinish. Counters, per dispatch:
// cpu_us (the calling thread's CPU time while issuing), issue_us (wall time while issuing: includes waiting for
// the recording thread or for batches in flight), gpu_us (GL_TIME_ELAPSED / N), total_us (issue + glFinish),
// sleeps and preempted (voluntary and involuntary context switches of the calling thread). N = 10,000 also shows the
// issue cost where the GPU does not throttle it (lavapipe runs a tiny dispatch in ~25 us, so 100,000 of them are
// GPU-bound there). The stream's CPU cost is what the calling thread pays; run with BISMUTH_RECORDING_THREAD=1 to
// measure the recording thread on lavapipe (which records inline by default), and BISMUTH_BARRIERS=automatic to compare
// with the backend's automatic hazard barriers (one per dispatch on this stream).
#define GL_GLEXT_PROTOTYPES 1
#include <EGL/egl.h>
#include <GL/glcorearb.h>
#include <benchmark/benchmark.h>
#include <sys/resource.h>
#include <time.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

namespace {

[[noreturn]] void die(const std::string& what) {
  std::fprintf(stderr, "bench_dispatch_stream: %s\n", what.c_str());
  std::exit(1);
}

// Each invocation stores its index: a write into the shared buffer per dispatch, no reads.
constexpr const char* kStoreSource = R"(#version 450
#extension GL_ARB_compute_variable_group_size : require
layout(local_size_variable) in;
layout(std430, binding = 0) buffer Out { uint words[]; };
void main() { words[gl_GlobalInvocationID.x] = gl_GlobalInvocationID.x; }
)";

constexpr GLuint kGroups = 4, kGroupSize = 64;

// Context switches of the calling thread: voluntary (sleeps: futex waits on the recording thread or on batches in
// flight, timeline waits) and involuntary (preempted while runnable: other threads wanted its core).
std::pair<long, long> context_switches() {
  rusage usage{};
  getrusage(RUSAGE_THREAD, &usage);
  return {usage.ru_nvcsw, usage.ru_nivcsw};
}

double thread_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
}

struct Stream {
  GLuint program = 0, buffer = 0, query = 0;

  Stream() {
    EGLDisplay display = eglGetDisplay(EGL_DEFAULT_DISPLAY);
    if (display == EGL_NO_DISPLAY || !eglInitialize(display, nullptr, nullptr) || !eglBindAPI(EGL_OPENGL_API)) {
      die("no EGL display");
    }
    const EGLint attribs[] = {EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 6, EGL_NONE};
    EGLContext context = eglCreateContext(display, EGLConfig{}, EGL_NO_CONTEXT, attribs);
    if (context == EGL_NO_CONTEXT || !eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context)) {
      die("no GL 4.6 context");
    }
    GLuint shader = glCreateShader(GL_COMPUTE_SHADER);
    glShaderSource(shader, 1, &kStoreSource, nullptr);
    glCompileShader(shader);
    program = glCreateProgram();
    glAttachShader(program, shader);
    glLinkProgram(program);
    GLint ok = 0;
    glGetProgramiv(program, GL_LINK_STATUS, &ok);
    if (!ok) die("the store program did not link");
    glUseProgram(program);
    glGenBuffers(1, &buffer);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffer);
    glBufferData(GL_SHADER_STORAGE_BUFFER, kGroups * kGroupSize * 4, nullptr, GL_DYNAMIC_COPY);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, buffer);
    glGenQueries(1, &query);
    // The pipeline compiled and cached before the first measured stream.
    glDispatchComputeGroupSizeARB(kGroups, 1, 1, kGroupSize, 1, 1);
    glFinish();
  }
};

Stream& stream() {
  static Stream s;
  return s;
}

void BM_DispatchStream(benchmark::State& state) {
  Stream& s = stream();
  const auto n = static_cast<uint32_t>(state.range(0));
  const bool barriers = state.range(1) != 0;
  double cpu = 0, issue = 0, gpu = 0, total = 0, sleeps = 0, preempted = 0;
  for (auto _ : state) {
    glFinish();
    const auto start = std::chrono::steady_clock::now();
    const double cpu_start = thread_cpu_seconds();
    const auto switches_start = context_switches();
    glBeginQuery(GL_TIME_ELAPSED, s.query);
    for (uint32_t i = 0; i < n; ++i) {
      glDispatchComputeGroupSizeARB(kGroups, 1, 1, kGroupSize, 1, 1);
      if (barriers) glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    }
    glEndQuery(GL_TIME_ELAPSED);
    const double cpu_issue = thread_cpu_seconds() - cpu_start;
    const auto switches = context_switches();
    sleeps += double(switches.first - switches_start.first);
    preempted += double(switches.second - switches_start.second);
    const double issued = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    glFinish();
    const double finished = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    GLuint64 ns = 0;
    glGetQueryObjectui64v(s.query, GL_QUERY_RESULT, &ns);
    if (glGetError() != GL_NO_ERROR) die("a GL error in the stream");
    state.SetIterationTime(issued);
    cpu += cpu_issue;
    issue += issued;
    gpu += double(ns) * 1e-9;
    total += finished;
  }
  const double per = 1e6 / (double(n) * double(state.iterations()));
  state.counters["cpu_us"] = cpu * per;
  state.counters["issue_us"] = issue * per;
  state.counters["gpu_us"] = gpu * per;
  state.counters["total_us"] = total * per;
  state.counters["sleeps"] = sleeps * per * 1e-6;        // voluntary context switches per dispatch
  state.counters["preempted"] = preempted * per * 1e-6;  // involuntary ones
}
BENCHMARK(BM_DispatchStream)
    ->ArgsProduct({{10000, 100000}, {0, 1}})
    ->ArgNames({"n", "barriers"})
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond)
    ->Iterations(3);

}  // namespace

BENCHMARK_MAIN();
