// bench_gl: the CPU cost of libbismuth-gl's hot path, glDispatchComputeGroupSizeARB on a pipeline-cache hit,
// next to the backend's own CommandStream::dispatch for the same work (target: ratio <= 1.3 on lavapipe; on the
// H100 the absolute cost per call is compared with NVIDIA GL's 0.86-0.89 us and Zink's 0.46-0.49 us; target
// <= 0.3 us).
//
//   BM_GlDispatchGroupSizeARB   glDispatchComputeGroupSizeARB through the exported entry point (EGL context)
//   BM_BackendDispatch          backend::CommandStream::dispatch with the same shader, size, binding and access
//   BM_Interleaved              both in alternating chunks timed with the thread's CPU clock; counters gl_ns,
//                               backend_ns and ratio = gl/backend
//   BM_GlFirstUse/<case>        the first glDispatchComputeGroupSizeARB at a never-seen size of a program linked
//                               3 s earlier (its link-time prewarm, BISMUTH_PREWARM=64, has finished), followed by
//                               glFinish; iteration time = call + finish, counter call_us = the call alone.
//                               0: new shapes of prewarmed totals (8x8, 4x16x1, ...); 1: never-seen odd totals
//                               (11, 19, ...: a larger pipeline runs them while their own compiles); 2: the same
//                               odd totals with BISMUTH_RUNTIME_GROUP_SIZE=0 (per-size pipelines, a compile at each
//                               first use: what Zink does)
//
// Both paths record the same commands (one dispatch of one 64-wide group writing one storage buffer; GL's barrier
// model, so no barrier between the writes — before issue 17 both recorded an automatic barrier per dispatch) and
// submit every 4096 dispatches; only the calling thread's CPU time is measured, not the device's execution.
// BISMUTH_DEVICE selects the device for both.
#define EGL_EGLEXT_PROTOTYPES 1
#include <EGL/egl.h>
#include <EGL/eglext.h>
#define GL_GLEXT_PROTOTYPES 1
#include <GL/glcorearb.h>
#include <benchmark/benchmark.h>
#include <time.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "bismuth/backend/buffer.hpp"
#include "bismuth/backend/command_stream.hpp"
#include "bismuth/backend/device.hpp"
#include "bismuth/backend/device_info.hpp"
#include "bismuth/backend/device_selection.hpp"
#include "bismuth/backend/instance.hpp"
#include "bismuth/backend/pipeline_cache.hpp"
#include "bismuth/backend/shader.hpp"
#include "bismuth/translator/gl_program.hpp"

namespace bb = bismuth::backend;

namespace {

constexpr const char* kShader = R"(#version 450
#extension GL_ARB_compute_variable_group_size : require
layout(local_size_variable) in;
layout(std430, binding = 0) buffer B { uint v[]; };
void main() { v[gl_LocalInvocationIndex] = gl_LocalGroupSizeARB.x; }
)";
constexpr uint32_t kGroupSize = 64;
constexpr int kChunk = 1024;

[[noreturn]] void die(const std::string& what) {
  std::fprintf(stderr, "bench_gl: %s\n", what.c_str());
  std::exit(1);
}

template <class T>
T take(bismuth::Expected<T> e, const char* what) {
  if (!e) die(std::string(what) + ": " + e.error().message);
  return std::move(*e);
}

double thread_cpu_ns() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return double(t.tv_sec) * 1e9 + double(t.tv_nsec);
}

// ---- the GL side: an EGL context with the program and buffer bound ----
struct Gl {
  EGLDisplay display = EGL_NO_DISPLAY;
  EGLContext context = EGL_NO_CONTEXT;
  std::string renderer;
  static Gl& get() {
    static Gl gl = [] {
      Gl g;
      g.display = eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, nullptr, nullptr);
      if (g.display == EGL_NO_DISPLAY || !eglInitialize(g.display, nullptr, nullptr)) die("eglInitialize failed");
      eglBindAPI(EGL_OPENGL_API);
      g.context = eglCreateContext(g.display, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, nullptr);
      if (g.context == EGL_NO_CONTEXT || !eglMakeCurrent(g.display, EGL_NO_SURFACE, EGL_NO_SURFACE, g.context)) {
        die("eglCreateContext/eglMakeCurrent failed");
      }
      g.renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
      const GLuint program = glCreateShaderProgramv(GL_COMPUTE_SHADER, 1, &kShader);
      GLint linked = 0;
      glGetProgramiv(program, GL_LINK_STATUS, &linked);
      if (!linked) die("the benchmark program did not link");
      glUseProgram(program);
      GLuint buffer = 0;
      glGenBuffers(1, &buffer);
      glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffer);
      glBufferData(GL_SHADER_STORAGE_BUFFER, kGroupSize * 4, nullptr, GL_DYNAMIC_COPY);
      glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, buffer);
      glDispatchComputeGroupSizeARB(1, 1, 1, kGroupSize, 1, 1);  // compiles the pipeline: later calls hit
      glFinish();
      if (glGetError() != GL_NO_ERROR) die("GL error during setup");
      return g;
    }();
    return gl;
  }
};

// ---- the backend side: the same program through translator + backend directly ----
struct Backend {
  std::unique_ptr<bb::Instance> instance;
  std::unique_ptr<bb::Device> device;
  std::unique_ptr<bb::PipelineCache> cache;
  std::unique_ptr<bb::CommandStream> stream;
  std::shared_ptr<bb::Shader> shader;
  std::shared_ptr<bb::Buffer> buffer;
  bb::BufferBinding binding;
  bb::DispatchInfo info;
  static Backend& get() {
    static Backend b = [] {
      Backend k;
      k.instance = take(bb::Instance::create({.application_name = "bench_gl"}), "instance");
      auto devices = take(bb::enumerate_devices(*k.instance), "devices");
      const size_t index = take(bb::select_device(devices, bb::DeviceSelector::from_environment()), "BISMUTH_DEVICE");
      k.device = take(bb::Device::create(*k.instance, devices[index]), "device");
      bb::PipelineCacheOptions options;
      options.cache_dir = "off";
      options.print_stats_at_exit = false;
      k.cache = take(bb::PipelineCache::create(*k.device, options), "cache");
      // The GL shim's barrier model, so that both paths record the same commands.
      k.stream = take(bb::CommandStream::create(*k.device, *k.cache, {.barriers = bb::BarrierModel::Gl}), "stream");
      auto shader = bismuth::translator::GlShader::compile(kShader);
      if (!shader->ok()) die("compile: " + shader->info_log());
      std::shared_ptr<const bismuth::translator::GlShader> shaders[] = {shader};
      auto linked = take(bismuth::translator::link_gl_program(shaders), "link");
      bb::ShaderDesc desc;
      desc.spirv = linked.spirv;
      desc.layout.bindings = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER};
      desc.group_size_spec_ids = linked.size_spec_ids;
      k.shader = take(bb::Shader::create(*k.device, desc), "shader");
      k.buffer = take(bb::Buffer::create(*k.device, kGroupSize * 4), "buffer");
      k.binding = {k.buffer.get(), 0, VK_WHOLE_SIZE, bb::Access::ReadWrite};
      k.info.shader = k.shader.get();
      k.info.size = {kGroupSize, 1, 1};
      k.info.groups = {1, 1, 1};
      k.info.bindings = std::span(&k.binding, 1);
      if (auto ok = k.stream->dispatch(k.info); !ok) die("dispatch: " + ok.error().message);
      if (auto ok = k.stream->finish(); !ok) die("finish: " + ok.error().message);
      return k;
    }();
    return b;
  }
  void dispatch() {
    if (auto ok = stream->dispatch(info); !ok) die("dispatch: " + ok.error().message);
  }
};

void BM_GlDispatchGroupSizeARB(benchmark::State& state) {
  Gl& gl = Gl::get();
  for (auto _ : state) glDispatchComputeGroupSizeARB(1, 1, 1, kGroupSize, 1, 1);
  glFinish();
  state.SetLabel(gl.renderer);
}
BENCHMARK(BM_GlDispatchGroupSizeARB);

void BM_BackendDispatch(benchmark::State& state) {
  Backend& b = Backend::get();
  for (auto _ : state) b.dispatch();
  (void)b.stream->finish();
  state.SetLabel(b.device->info().name);
}
BENCHMARK(BM_BackendDispatch);

void BM_Interleaved(benchmark::State& state) {
  Gl& gl = Gl::get();
  Backend& b = Backend::get();
  double gl_ns = 0, backend_ns = 0;
  int64_t dispatches = 0;
  for (auto _ : state) {
    double t0 = thread_cpu_ns();
    for (int i = 0; i < kChunk; ++i) glDispatchComputeGroupSizeARB(1, 1, 1, kGroupSize, 1, 1);
    double t1 = thread_cpu_ns();
    for (int i = 0; i < kChunk; ++i) b.dispatch();
    double t2 = thread_cpu_ns();
    gl_ns += t1 - t0;
    backend_ns += t2 - t1;
    dispatches += kChunk;
  }
  glFinish();
  (void)b.stream->finish();
  state.SetLabel(gl.renderer);
  state.counters["gl_ns"] = gl_ns / double(dispatches);
  state.counters["backend_ns"] = backend_ns / double(dispatches);
  state.counters["ratio"] = gl_ns / backend_ns;
}
BENCHMARK(BM_Interleaved)->Unit(benchmark::kMillisecond);

void BM_GlFirstUse(benchmark::State& state) {
  Gl& gl = Gl::get();
  const int64_t which = state.range(0);
  static int runs = 0;  // a distinct module per case and repetition, so that none finds another's pipelines
  ++runs;
  const std::string source = std::string(R"(#version 450
#extension GL_ARB_compute_variable_group_size : require
layout(local_size_variable) in;
layout(std430, binding = 0) buffer B { uint v[]; };
void main() { v[gl_LocalInvocationIndex] = gl_LocalGroupSizeARB.x * gl_LocalGroupSizeARB.y + )") +
                             std::to_string(runs) + "u; }\n";
  setenv("BISMUTH_PREWARM", "64", 1);
  if (which == 2) setenv("BISMUTH_RUNTIME_GROUP_SIZE", "0", 1);
  const char* text = source.c_str();
  const GLuint program = glCreateShaderProgramv(GL_COMPUTE_SHADER, 1, &text);
  unsetenv("BISMUTH_RUNTIME_GROUP_SIZE");
  unsetenv("BISMUTH_PREWARM");
  GLint linked = 0;
  glGetProgramiv(program, GL_LINK_STATUS, &linked);
  if (!linked) die("the first-use program did not link");
  GLuint buffer = 0;
  glGenBuffers(1, &buffer);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffer);
  glBufferData(GL_SHADER_STORAGE_BUFFER, 1024 * 4, nullptr, GL_DYNAMIC_COPY);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, buffer);
  glUseProgram(program);
  std::this_thread::sleep_for(std::chrono::seconds(3));  // the link-time prewarm runs in the background

  std::vector<std::array<GLuint, 3>> sizes;
  if (which == 0) {
    for (GLuint total : {64u, 128u, 256u}) {
      for (GLuint y = 2; y <= 16; y *= 2) sizes.push_back({total / y, y, 1});
      for (GLuint z = 2; z <= 8; z *= 2) sizes.push_back({total / (2 * z), 2, z});
    }
  } else {
    for (GLuint i = 0; i < 32; ++i) sizes.push_back({8 * (i + 1) + 3, 1, 1});
  }
  double call_ns = 0;
  size_t i = 0;
  for (auto _ : state) {
    const auto& size = sizes[i++ % sizes.size()];
    const auto start = std::chrono::steady_clock::now();
    glDispatchComputeGroupSizeARB(1, 1, 1, size[0], size[1], size[2]);
    const auto called = std::chrono::steady_clock::now();
    glFinish();
    const auto done = std::chrono::steady_clock::now();
    call_ns += std::chrono::duration<double, std::nano>(called - start).count();
    state.SetIterationTime(std::chrono::duration<double>(done - start).count());
  }
  if (glGetError() != GL_NO_ERROR) die("GL error in the first-use benchmark");
  state.counters["call_us"] = call_ns / 1e3 / double(state.iterations());
  state.SetLabel(gl.renderer);
  glDeleteProgram(program);
  glDeleteBuffers(1, &buffer);
}
BENCHMARK(BM_GlFirstUse)->DenseRange(0, 2)->Iterations(21)->UseManualTime()->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
