// bench_backend: what the per-size pipeline cache and the command stream cost (docs/performance.md).
//
//   BISMUTH_DEVICE=<selector> bench_backend [google-benchmark flags]
//
// Groups (ratios side by side in one run):
//   BM_CacheHit                 — get_or_compile on a hit (key built and hashed once), 1 and 2 threads
//   BM_Record/Raw vs /Backend   — vkCmdBindPipeline+vkCmdDispatch through the device table vs
//                                 CommandStream::dispatch, both cycling over 8 workgroup sizes; recording only
//   BM_FirstUse/Cold|Prewarmed|DiskWarm — first request for a new workgroup size: compile; after prewarm;
//                                 in a fresh process whose VkPipelineCache was loaded from disk (the binary
//                                 re-executes itself with --disk-warm-child)
//   BM_FirstUse_Runtime{Shape,Masked} — first dispatch (CommandStream::dispatch, CPU) at a never-seen size of a
//                                 shader with a runtime-group-size variant whose default sizes were prewarmed: a new
//                                 shape of a prewarmed total (shares its pipeline); a never-seen total (runs on a
//                                 larger pipeline while its own compiles in the background)
//   BM_Throughput/<batch>       — 100k tiny dispatches submitted in batches, then finish (dispatches/s)
#include <benchmark/benchmark.h>
#include <time.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "bench_support.hpp"
#include "bismuth/backend/buffer.hpp"
#include "bismuth/backend/command_stream.hpp"
#include "bismuth/backend/device.hpp"
#include "bismuth/backend/device_selection.hpp"
#include "bismuth/backend/instance.hpp"
#include "bismuth/backend/pipeline_cache.hpp"
#include "bismuth/backend/sampler.hpp"
#include "bismuth/spirv_patch/passes/workgroup_size_to_runtime.hpp"
#include "bismuth/translator/glsl_compiler.hpp"

namespace bb = bismuth::backend;

const char* const bench::kProgramName = "bench_backend";

namespace {

using bench::die;
using bench::kAddShader;
using bench::kSizes;
using bench::take;

void require(const bismuth::Status& s, const char* what) {
  if (!s) die(std::string(what) + ": " + s.error().message);
}

struct Context {
  std::unique_ptr<bb::Instance> instance;
  bb::DeviceInfo info;
  std::unique_ptr<bb::Device> device;
  std::vector<uint32_t> spirv;

  static Context& get() {
    static Context context = [] {
      Context c;
      c.instance = take(bb::Instance::create({.application_name = "bench_backend"}), "instance");
      auto devices = take(bb::enumerate_devices(*c.instance), "devices");
      const size_t index = take(bb::select_device(devices, bb::DeviceSelector::from_environment()), "BISMUTH_DEVICE");
      c.info = devices[index];
      c.device = take(bb::Device::create(*c.instance, c.info), "device");
      c.spirv = take(bismuth::translator::compile_glsl_compute(kAddShader, {.source_name = "bench.comp"}), "glslang");
      return c;
    }();
    return context;
  }

  std::shared_ptr<bb::Shader> shader(const std::string& name = "bench") {
    bb::ShaderDesc desc;
    desc.spirv = spirv;
    desc.layout = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}, 8};
    desc.name = name;
    return take(bb::Shader::create(*device, desc), "shader");
  }

  // The same shader with its runtime-group-size variant (what the GL shim creates for variable-size programs).
  std::shared_ptr<bb::Shader> shader_with_variant(const std::string& name) {
    bismuth::spirv_patch::RuntimeGroupSizeOptions options;
    options.push_constant_offset = 16;
    auto patched = take(bismuth::spirv_patch::workgroup_size_to_runtime(spirv, options), "workgroup_size_to_runtime");
    bb::ShaderDesc desc;
    desc.spirv = spirv;
    desc.layout = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}, 8};
    desc.name = name;
    desc.runtime_group_size =
        bb::ShaderDesc::RuntimeGroupSize{patched.words, patched.report.push_constant_offset, patched.report.exact_only};
    auto shader = take(bb::Shader::create(*device, desc), "shader");
    if (shader->runtime_variant() == nullptr) die("no runtime variant: " + shader->runtime_variant_note());
    return shader;
  }
};

bb::PipelineCacheOptions no_disk() {
  bb::PipelineCacheOptions o;
  o.cache_dir = "off";
  o.print_stats_at_exit = false;
  return o;
}

// ---- 1. cache hit ----

struct HitFixture {
  std::unique_ptr<bb::PipelineCache> cache;
  std::shared_ptr<bb::Shader> shader;
};
HitFixture& hit_fixture() {
  static HitFixture f = [] {
    Context& c = Context::get();
    HitFixture h;
    h.cache = take(bb::PipelineCache::create(*c.device, no_disk()), "cache");
    h.shader = c.shader();
    for (uint32_t x : kSizes) take(h.cache->get_or_compile({h.shader.get(), {x, 1, 1}, 0, {}}), "compile");
    return h;
  }();
  return f;
}

// The hot path CommandStream uses: key built and hashed, thread's front cache probed, borrowed pointer.
void BM_CacheHit(benchmark::State& state) {
  HitFixture& f = hit_fixture();
  uint32_t i = static_cast<uint32_t>(state.thread_index());
  for (auto _ : state) {
    const bb::PipelineRequest request{f.shader.get(), {kSizes[i++ % kSizes.size()], 1, 1}, 0, {}};
    auto pipeline = f.cache->acquire(bb::PipelineKey::make(request), request);
    benchmark::DoNotOptimize(pipeline);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_CacheHit)->Threads(1)->Threads(2)->UseRealTime();

// The owning lookup (shared map under a shared lock, returns a PipelineRef).
void BM_CacheHit_SharedMap(benchmark::State& state) {
  HitFixture& f = hit_fixture();
  uint32_t i = static_cast<uint32_t>(state.thread_index());
  for (auto _ : state) {
    const bb::PipelineRequest request{f.shader.get(), {kSizes[i++ % kSizes.size()], 1, 1}, 0, {}};
    auto pipeline = f.cache->get_or_compile(request);
    benchmark::DoNotOptimize(pipeline);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_CacheHit_SharedMap)->Threads(1)->Threads(2)->UseRealTime();

// ---- 2. recording: raw Vulkan vs backend ----

constexpr uint32_t kRecordBatch = 2048;  // dispatches per command buffer before it is reset

struct RecordFixture {
  std::unique_ptr<bb::PipelineCache> cache;
  std::shared_ptr<bb::Shader> shader;
  std::shared_ptr<bb::Buffer> src, dst;
};
RecordFixture& record_fixture() {
  static RecordFixture f = [] {
    Context& c = Context::get();
    RecordFixture r;
    r.cache = take(bb::PipelineCache::create(*c.device, no_disk()), "cache");
    r.shader = c.shader();
    r.src = take(bb::Buffer::create(*c.device, 4096), "buffer");
    r.dst = take(bb::Buffer::create(*c.device, 4096), "buffer");
    for (uint32_t x : kSizes) take(r.cache->get_or_compile({r.shader.get(), {x, 1, 1}, 0, {}}), "compile");
    return r;
  }();
  return f;
}

// The baseline the backend's recording is compared with: a raw command buffer with the same one-time state the
// backend records per command buffer (push descriptors, push constants), binding pipelines and dispatching directly
// through the device table.
struct RawRecorder {
  explicit RawRecorder(RecordFixture& f) : fixture(f) {
    Context& c = Context::get();
    for (size_t i = 0; i < kSizes.size(); ++i) {
      pipelines[i] = take(f.cache->get_or_compile({f.shader.get(), {kSizes[i], 1, 1}, 0, {}}), "compile")->handle();
    }
    VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pool_info.queueFamilyIndex = c.device->queue_family();
    require(c.device->check(vk.vkCreateCommandPool(device, &pool_info, nullptr, &pool), "vkCreateCommandPool"), "pool");
    VkCommandBufferAllocateInfo allocate{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    allocate.commandPool = pool;
    allocate.commandBufferCount = 1;
    require(c.device->check(vk.vkAllocateCommandBuffers(device, &allocate, &cb), "vkAllocateCommandBuffers"), "cb");
    for (uint32_t i = 0; i < 2; ++i) {
      writes[i].dstBinding = i;
      writes[i].descriptorCount = 1;
      writes[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
      writes[i].pBufferInfo = &infos[i];
    }
  }
  ~RawRecorder() { vk.vkDestroyCommandPool(device, pool, nullptr); }
  RawRecorder(const RawRecorder&) = delete;
  RawRecorder& operator=(const RawRecorder&) = delete;

  // Resets the pool and begins the command buffer with the one-time state.
  void start() {
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    vk.vkResetCommandPool(device, pool, 0);
    vk.vkBeginCommandBuffer(cb, &begin);
    if (fixture.shader->uses_push_descriptors()) {
      vk.vkCmdPushDescriptorSetKHR(cb, VK_PIPELINE_BIND_POINT_COMPUTE, fixture.shader->pipeline_layout(), 0, 2, writes);
    }
    vk.vkCmdPushConstants(cb, fixture.shader->pipeline_layout(), VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof push, push);
  }
  void bind(size_t size_index) { vk.vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipelines[size_index]); }
  void dispatch() { vk.vkCmdDispatch(cb, 4, 1, 1); }
  void end() { vk.vkEndCommandBuffer(cb); }

  RecordFixture& fixture;
  const bb::DeviceFunctions& vk = Context::get().device->vk();
  VkDevice device = Context::get().device->handle();
  std::array<VkPipeline, kSizes.size()> pipelines{};
  VkCommandPool pool = VK_NULL_HANDLE;
  VkCommandBuffer cb = VK_NULL_HANDLE;
  const uint32_t push[2] = {1024, 1};
  VkDescriptorBufferInfo infos[2] = {{fixture.src->handle(), 0, VK_WHOLE_SIZE},
                                     {fixture.dst->handle(), 0, VK_WHOLE_SIZE}};
  VkWriteDescriptorSet writes[2] = {{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET}, {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET}};
};

void BM_Record_Raw(benchmark::State& state) {
  RawRecorder raw(record_fixture());
  raw.start();
  uint32_t n = 0;
  for (auto _ : state) {
    raw.bind(n % kSizes.size());
    raw.dispatch();
    if (++n % kRecordBatch == 0) {
      raw.end();
      raw.start();
    }
  }
  raw.end();
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Record_Raw);

// Benchmark argument → recording mode: 0 inline (the caller records), 1 a recording thread (the caller encodes).
bb::RecordingMode recording_mode(int64_t arg) {
  return arg == 0 ? bb::RecordingMode::Inline : bb::RecordingMode::Thread;
}

void record_backend(benchmark::State& state, bb::Access destination_access) {
  Context& c = Context::get();
  RecordFixture& f = record_fixture();
  auto stream = take(
      bb::CommandStream::create(*c.device, *f.cache,
                                {.recording = recording_mode(state.range(0)), .max_dispatches_per_batch = 1u << 30}),
      "stream");
  const uint32_t push[2] = {1024, 1};
  bb::BufferBinding bindings[2] = {{f.src.get(), 0, VK_WHOLE_SIZE, bb::Access::Read},
                                   {f.dst.get(), 0, VK_WHOLE_SIZE, destination_access}};
  bb::DispatchInfo info{.shader = f.shader.get(),
                        .groups = {4, 1, 1},
                        .bindings = bindings,
                        .push_constants = std::as_bytes(std::span(push))};
  uint32_t n = 0;
  for (auto _ : state) {
    info.size.x = kSizes[n % kSizes.size()];
    require(stream->dispatch(info), "dispatch");
    if (++n % kRecordBatch == 0) stream->discard();  // recording only, like the raw loop's reset
  }
  stream->discard();
  state.SetItemsProcessed(state.iterations());
  state.counters["barriers"] =
      benchmark::Counter(double(stream->stats().automatic_barriers), benchmark::Counter::kAvgIterations);
}
// Read-only bindings: no hazards, so the same commands as the raw loop plus the cache lookup and tracking.
// Argument: recording mode (0 inline, 1 recording thread). CPU time is the calling thread's; real time includes
// waiting for the recording thread at each discard.
void BM_Record_Backend(benchmark::State& state) {
  record_backend(state, bb::Access::Read);
}
BENCHMARK(BM_Record_Backend)->Arg(0)->Arg(1);
// Every dispatch writes the same buffer: a write-after-write hazard, so one automatic barrier per dispatch.
void BM_Record_Backend_Hazard(benchmark::State& state) {
  record_backend(state, bb::Access::Write);
}
BENCHMARK(BM_Record_Backend_Hazard)->Arg(0)->Arg(1);

// Dispatches that bind a storage image, a combined image sampler and a storage buffer (what a GL image-filter
// program binds): the cost of image bindings on the recording path. Arguments: recording mode (0 inline, 1 thread);
// 0 = the same images every dispatch (the repeat path), 1 = two sets of images alternating (every dispatch checks
// and resolves its bindings, notes their accesses and binds descriptors anew). Accesses are declared read-only (the
// stream is discarded, nothing runs) so that no hazard barrier adds to the binding cost measured.
void BM_Record_Images(benchmark::State& state) {
  constexpr const char* kImageShader = R"(#version 450
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;
layout(binding = 0, rgba8) uniform image2D dst;
layout(binding = 1) uniform sampler2D src;
layout(std430, binding = 2) buffer Out { uint words[]; };
void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  imageStore(dst, p, textureLod(src, vec2(p) / 64.0, 0.0));
}
)";
  Context& c = Context::get();
  RecordFixture& f = record_fixture();
  static const std::vector<uint32_t> spirv =
      take(bismuth::translator::compile_glsl_compute(kImageShader, {.source_name = "bench_images.comp"}), "glslang");
  bb::ShaderDesc desc;
  desc.spirv = spirv;
  desc.layout = {
      {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}};
  desc.name = "bench images";
  auto shader = take(bb::Shader::create(*c.device, desc), "shader");
  std::shared_ptr<bb::Image> images[4];
  for (auto& image : images) {
    image = take(bb::Image::create(*c.device, {.format = VK_FORMAT_R8G8B8A8_UNORM,
                                               .extent = {64, 64, 1},
                                               .usage = bb::kImageStorage | bb::kImageSampled}),
                 "image");
  }
  const VkSampler sampler =
      take(c.device->sampler({.mag_filter = VK_FILTER_LINEAR, .min_filter = VK_FILTER_LINEAR}), "sampler");
  auto stream = take(
      bb::CommandStream::create(*c.device, *f.cache,
                                {.recording = recording_mode(state.range(0)), .max_dispatches_per_batch = 1u << 30}),
      "stream");
  const bool alternate = state.range(1) != 0;
  const bb::Access write = bb::Access::Read;
  const bb::ImageBinding sets[2][2] = {
      {{.image = images[0].get(), .access = write}, {.image = images[1].get(), .sampler = sampler}},
      {{.image = images[2].get(), .access = write}, {.image = images[3].get(), .sampler = sampler}}};
  const bb::BufferBinding buffers[1] = {{f.dst.get(), 0, VK_WHOLE_SIZE, bb::Access::Read}};
  bb::DispatchInfo info{.shader = shader.get(), .size = {8, 8, 1}, .groups = {8, 8, 1}, .bindings = buffers};
  uint32_t n = 0;
  for (auto _ : state) {
    info.images = sets[alternate ? n % 2 : 0];
    require(stream->dispatch(info), "dispatch");
    if (++n % kRecordBatch == 0) stream->discard();
  }
  stream->discard();
  state.SetItemsProcessed(state.iterations());
  state.counters["barriers"] =
      benchmark::Counter(double(stream->stats().automatic_barriers), benchmark::Counter::kAvgIterations);
}
BENCHMARK(BM_Record_Images)->ArgsProduct({{0, 1}, {0, 1}});

// Raw and backend recording interleaved in chunks of kRecordBatch, timed with the thread's CPU clock, so that
// load from other processes (this machine is shared) hits both sides equally. Counters: ns per dispatch for
// each and their ratio (the issue's target: backend/raw <= 1.2 on lavapipe).
double clock_ns(clockid_t clock) {
  timespec t{};
  clock_gettime(clock, &t);
  return double(t.tv_sec) * 1e9 + double(t.tv_nsec);
}
double thread_cpu_ns() {
  return clock_ns(CLOCK_THREAD_CPUTIME_ID);
}

void BM_Record_Interleaved(benchmark::State& state) {
  Context& c = Context::get();
  RecordFixture& f = record_fixture();
  // Argument: how many workgroup sizes the dispatches cycle through (8: a new pipeline every dispatch; 1: the
  // same size again and again, the common case of a GL program dispatched in a loop).
  // Second argument: the backend's recording mode (0 inline, 1 recording thread).
  const auto distinct_sizes = static_cast<uint32_t>(state.range(0));
  RawRecorder raw(f);
  auto stream = take(
      bb::CommandStream::create(*c.device, *f.cache,
                                {.recording = recording_mode(state.range(1)), .max_dispatches_per_batch = 1u << 30}),
      "stream");
  bb::BufferBinding bindings[2] = {{f.src.get(), 0, VK_WHOLE_SIZE, bb::Access::Read},
                                   {f.dst.get(), 0, VK_WHOLE_SIZE, bb::Access::Read}};
  bb::DispatchInfo info{.shader = f.shader.get(),
                        .groups = {4, 1, 1},
                        .bindings = bindings,
                        .push_constants = std::as_bytes(std::span(raw.push))};
  double raw_ns = 0, backend_ns = 0, backend_wall_ns = 0, backend_process_ns = 0;
  uint64_t dispatches = 0;
  for (auto _ : state) {
    // Raw chunk (including the per-command-buffer reset and one-time state, as the backend's discard/begin).
    double t0 = thread_cpu_ns();
    raw.start();
    for (uint32_t n = 0; n < kRecordBatch; ++n) {
      // A raw caller binds only when the size (pipeline) changes: every dispatch when cycling sizes, once when not.
      if (n < distinct_sizes || distinct_sizes > 1) raw.bind(n % distinct_sizes);
      raw.dispatch();
    }
    raw.end();
    double t1 = thread_cpu_ns();
    const double wall1 = clock_ns(CLOCK_MONOTONIC), process1 = clock_ns(CLOCK_PROCESS_CPUTIME_ID);
    for (uint32_t n = 0; n < kRecordBatch; ++n) {
      info.size.x = kSizes[n % distinct_sizes];
      require(stream->dispatch(info), "dispatch");
    }
    stream->discard();  // waits for the recording thread, if any, to record everything
    double t2 = thread_cpu_ns();
    backend_wall_ns += clock_ns(CLOCK_MONOTONIC) - wall1;
    backend_process_ns += clock_ns(CLOCK_PROCESS_CPUTIME_ID) - process1;
    raw_ns += t1 - t0;
    backend_ns += t2 - t1;
    dispatches += kRecordBatch;
  }
  state.counters["raw_ns"] = raw_ns / double(dispatches);
  state.counters["backend_ns"] = backend_ns / double(dispatches);
  state.counters["ratio"] = backend_ns / raw_ns;
  // With a recording thread, backend_ns is the calling thread's share; these say what the whole costs: the
  // chunk's wall-clock time (until everything is recorded) and the process's CPU time (both threads).
  state.counters["backend_wall_ns"] = backend_wall_ns / double(dispatches);
  state.counters["backend_process_ns"] = backend_process_ns / double(dispatches);
  state.SetItemsProcessed(int64_t(dispatches));
}
BENCHMARK(BM_Record_Interleaved)->ArgsProduct({{8, 1}, {0, 1}})->Unit(benchmark::kMicrosecond);

// ---- 3. first use of a new size ----

constexpr uint32_t kFirstUseSizes = 32;
uint32_t first_use_size(uint32_t i) {
  return 8 * (i + 1) + 3;
}  // 11, 19, ... never one of the other groups'

// Sizes never requested before in this process (also across repetitions), so that no in-process driver cache
// can make a "cold" compile warm: 3, 11, 19, ... then 4, 12, ... up to 1023.
uint32_t never_seen_size() {
  static uint32_t k = 0;
  const uint32_t n = k++;
  return 3 + (n * 8) % 1016 + (n * 8) / 1016;
}

void BM_FirstUse_Cold(benchmark::State& state) {
  Context& c = Context::get();
  auto cache = take(bb::PipelineCache::create(*c.device, no_disk()), "cache");
  auto shader = c.shader("cold");
  uint32_t i = 0;
  uint64_t compiles = 0;
  for (auto _ : state) {
    ++i;
    auto p = cache->get_or_compile({shader.get(), {never_seen_size(), 1, 1}, 0, {}});
    benchmark::DoNotOptimize(p);
    if (i % kFirstUseSizes == 0) {  // start over with an empty cache
      state.PauseTiming();
      compiles += cache->stats().compiles;
      cache.reset();
      cache = take(bb::PipelineCache::create(*c.device, no_disk()), "cache");
      state.ResumeTiming();
    }
  }
  state.counters["compiles"] = double(compiles + cache->stats().compiles);
}
BENCHMARK(BM_FirstUse_Cold)->Iterations(kFirstUseSizes)->Unit(benchmark::kMicrosecond);

void BM_FirstUse_Prewarmed(benchmark::State& state) {
  Context& c = Context::get();
  auto cache = take(bb::PipelineCache::create(*c.device, no_disk()), "cache");
  auto shader = c.shader("prewarmed");
  std::vector<bb::GroupSize> sizes;
  for (uint32_t i = 0; i < kFirstUseSizes; ++i) sizes.push_back({first_use_size(i), 1, 1});
  cache->prewarm(shader, sizes);
  cache->wait_prewarm_idle();
  uint32_t i = 0;
  for (auto _ : state) {
    auto p = cache->get_or_compile({shader.get(), {first_use_size(i++ % kFirstUseSizes), 1, 1}, 0, {}});
    benchmark::DoNotOptimize(p);
  }
  state.counters["prewarm_compiles"] = double(cache->stats().prewarm_compiles);
}
BENCHMARK(BM_FirstUse_Prewarmed)->Iterations(kFirstUseSizes)->Unit(benchmark::kMicrosecond);

// In the child process: first use of every size with the VkPipelineCache loaded from `dir`; prints one line of
// nanoseconds per size.
int disk_warm_child(const char* dir) {
  Context& c = Context::get();
  bb::PipelineCacheOptions options = no_disk();
  options.cache_dir = dir;
  options.prewarm_threads = 1;
  auto cache = take(bb::PipelineCache::create(*c.device, options), "cache");
  auto shader = c.shader("disk");
  std::printf("loaded %zu status %s disk_hits", cache->stats().disk_loaded_bytes, cache->stats().disk_status.c_str());
  std::vector<double> ns;
  for (uint32_t i = 0; i < kFirstUseSizes; ++i) {
    const auto start = std::chrono::steady_clock::now();
    auto p = cache->get_or_compile({shader.get(), {first_use_size(i), 1, 1}, 0, {}});
    ns.push_back(std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count());
    if (!p) die(p.error().message);
  }
  std::printf(" %llu\n", (unsigned long long)cache->stats().disk_cache_hits);
  for (double v : ns) std::printf("%.0f\n", v);
  return 0;
}

void BM_FirstUse_DiskWarm(benchmark::State& state) {
  Context& c = Context::get();
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("bismuth-bench-cache-" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  {
    // Populate the disk cache in this process (the "previous run").
    bb::PipelineCacheOptions options = no_disk();
    options.cache_dir = dir.string();
    auto cache = take(bb::PipelineCache::create(*c.device, options), "cache");
    auto shader = c.shader("disk");
    for (uint32_t i = 0; i < kFirstUseSizes; ++i) {
      take(cache->get_or_compile({shader.get(), {first_use_size(i), 1, 1}, 0, {}}), "compile");
    }
  }  // saved here
  const std::string command =
      "'" + std::filesystem::read_symlink("/proc/self/exe").string() + "' --disk-warm-child '" + dir.string() + "'";
  std::FILE* child = popen(command.c_str(), "r");
  if (child == nullptr) die("cannot run " + command);
  char line[256];
  std::string header;
  if (std::fgets(line, sizeof line, child) != nullptr) header = line;
  std::vector<double> ns;
  while (std::fgets(line, sizeof line, child) != nullptr) ns.push_back(std::atof(line));
  if (pclose(child) != 0 || ns.size() != kFirstUseSizes) die("the disk-warm child failed: " + header);
  std::filesystem::remove_all(dir);
  size_t i = 0;
  for (auto _ : state) state.SetIterationTime(ns[i++ % ns.size()] / 1e9);
  unsigned long long loaded = 0, hits = 0;
  char status[64] = {};
  std::sscanf(header.c_str(), "loaded %llu status %63s disk_hits %llu", &loaded, status, &hits);
  state.counters["loaded_bytes"] = double(loaded);
  state.counters["driver_cache_hits"] = double(hits);
}
BENCHMARK(BM_FirstUse_DiskWarm)->Iterations(kFirstUseSizes)->UseManualTime()->Unit(benchmark::kMicrosecond);

// First dispatch of a never-seen size through CommandStream, for a shader whose runtime variant was prewarmed with
// the default sizes (as the GL shim does at link time on GPUs). Timed: the dispatch() call; the submission and
// wait that follow each one are not.
struct RuntimeFirstUse {
  std::unique_ptr<bb::PipelineCache> cache;
  std::shared_ptr<bb::Shader> shader;
  std::unique_ptr<bb::CommandStream> stream;
  std::shared_ptr<bb::Buffer> src, dst;
};

RuntimeFirstUse runtime_first_use(const char* name) {
  Context& c = Context::get();
  RuntimeFirstUse f;
  f.cache = take(bb::PipelineCache::create(*c.device, no_disk()), "cache");
  f.shader = c.shader_with_variant(name);
  f.cache->prewarm(f.shader->runtime_variant_ref());
  f.cache->wait_prewarm_idle();
  f.stream = take(bb::CommandStream::create(*c.device, *f.cache), "stream");
  f.src = take(bb::Buffer::create(*c.device, 1 << 16), "buffer");
  f.dst = take(bb::Buffer::create(*c.device, 1 << 16), "buffer");
  return f;
}

void first_dispatches(benchmark::State& state, RuntimeFirstUse& f, const std::vector<bb::GroupSize>& sizes) {
  const uint32_t push[2] = {64, 1};
  bb::BufferBinding bindings[2] = {{f.src.get(), 0, VK_WHOLE_SIZE, bb::Access::Read},
                                   {f.dst.get(), 0, VK_WHOLE_SIZE, bb::Access::Write}};
  const uint64_t compiles_before = f.cache->stats().compiles;
  size_t i = 0;
  for (auto _ : state) {
    bb::DispatchInfo info{.shader = f.shader.get(),
                          .size = sizes[i++ % sizes.size()],
                          .groups = {1, 1, 1},
                          .bindings = bindings,
                          .push_constants = std::as_bytes(std::span(push))};
    require(f.stream->dispatch(info), "dispatch");
    state.PauseTiming();
    require(f.stream->finish(), "finish");
    state.ResumeTiming();
  }
  f.cache->wait_prewarm_idle();
  state.counters["masked"] = double(f.stream->stats().masked_dispatches);
  state.counters["foreground_misses"] = double(f.cache->stats().misses);
  state.counters["compiles_after_prewarm"] = double(f.cache->stats().compiles - compiles_before);
}

// Shapes never dispatched before whose totals (64, 128, 256) the default prewarm set holds as 1-D sizes.
void BM_FirstUse_RuntimeShape(benchmark::State& state) {
  Context& c = Context::get();
  RuntimeFirstUse f = runtime_first_use("runtime-shape");
  std::vector<bb::GroupSize> sizes;
  for (uint32_t total : {64u, 128u, 256u}) {
    for (uint32_t y = 1; y <= total; y *= 2) {
      for (uint32_t z = 1; y * z <= total; z *= 2) {
        if ((y == 1 && z == 1) || y > c.info.max_compute_work_group_size[1] ||
            z > c.info.max_compute_work_group_size[2])
          continue;
        if (sizes.size() < kFirstUseSizes) sizes.push_back({total / (y * z), y, z});
      }
    }
  }
  first_dispatches(state, f, sizes);
}
BENCHMARK(BM_FirstUse_RuntimeShape)->Iterations(kFirstUseSizes)->Unit(benchmark::kMicrosecond);

// Totals the prewarm set does not hold (odd: neither powers of two nor subgroup multiples).
void BM_FirstUse_RuntimeMasked(benchmark::State& state) {
  RuntimeFirstUse f = runtime_first_use("runtime-masked");
  std::vector<bb::GroupSize> sizes;
  for (uint32_t i = 0; i < kFirstUseSizes; ++i) sizes.push_back({first_use_size(i), 1, 1});
  first_dispatches(state, f, sizes);
}
BENCHMARK(BM_FirstUse_RuntimeMasked)->Iterations(kFirstUseSizes)->Unit(benchmark::kMicrosecond);

// ---- 4. throughput ----

void BM_Throughput(benchmark::State& state) {
  Context& c = Context::get();
  RecordFixture& f = record_fixture();
  const uint32_t batch = static_cast<uint32_t>(state.range(0));
  auto stream =
      take(bb::CommandStream::create(*c.device, *f.cache,
                                     {.recording = recording_mode(state.range(1)), .max_dispatches_per_batch = batch}),
           "stream");
  const uint32_t push[2] = {64, 1};
  bb::BufferBinding bindings[2] = {{f.src.get(), 0, VK_WHOLE_SIZE, bb::Access::Read},
                                   {f.dst.get(), 0, VK_WHOLE_SIZE, bb::Access::Read}};
  bb::DispatchInfo info{.shader = f.shader.get(),
                        .groups = {1, 1, 1},
                        .bindings = bindings,
                        .push_constants = std::as_bytes(std::span(push))};
  constexpr uint32_t kDispatches = 100000;
  for (auto _ : state) {
    for (uint32_t n = 0; n < kDispatches; ++n) {
      info.size.x = kSizes[n % kSizes.size()];
      require(stream->dispatch(info), "dispatch");
    }
    require(stream->finish(), "finish");
  }
  state.SetItemsProcessed(state.iterations() * kDispatches);
  state.counters["submissions"] = double(stream->stats().submissions);
}
BENCHMARK(BM_Throughput)
    ->ArgsProduct({{256, 4096}, {0, 1}})
    ->Iterations(2)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace

int main(int argc, char** argv) {
  if (argc == 3 && std::strcmp(argv[1], "--disk-warm-child") == 0) return disk_warm_child(argv[2]);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  Context& c = Context::get();
  std::fprintf(stderr, "bench_backend: device %s (%s), driver %s %s, subgroup %u, push descriptors %s, staging %s\n",
               c.info.name.c_str(), c.info.is_gpu() ? "gpu" : "cpu", c.info.driver_name.c_str(),
               c.info.driver_info.c_str(), c.info.subgroup_size, c.device->uses_push_descriptors() ? "yes" : "no",
               c.device->uses_staging() ? "yes" : "no");
  benchmark::AddCustomContext("bismuth_device", c.info.name);
  benchmark::AddCustomContext("bismuth_driver", c.info.driver_name + " " + c.info.driver_info);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
