// bench_vk_record: what the *driver* charges for recording a compute dispatch, under the recording patterns a
// backend can choose between. The backend's per-dispatch cost is measured against a raw loop in bench_backend;
// this binary explains the raw loop itself, so the backend can pick the cheapest pattern on each driver
// (docs/performance.md, "What the driver charges per dispatch").
//
//   BISMUTH_DEVICE=<selector> bench_vk_record [google-benchmark flags]
//
// Every benchmark records chunks of `chunk` dispatches into one command buffer (begin, one-time state, the
// dispatch loop, end, reset) and reports the thread CPU time per dispatch, chunk overhead included. Variants:
//   Dispatch/<binding>/<chunk>   bindings bound once per chunk: 0 push descriptors, 1 a descriptor set
//   DispatchBindEach             vkCmdBindPipeline of the same pipeline before every dispatch
//   DispatchCycle8               a different pipeline (one of 8 sizes) before every dispatch
//   DispatchPushConstEach        vkCmdPushConstants before every dispatch (a GL uniform changing every time)
//   DispatchPushDescEach         vkCmdPushDescriptorSetKHR before every dispatch (bindings changing every time)
//   DispatchBarrierEach          a compute→compute vkCmdPipelineBarrier (one VkMemoryBarrier) before every dispatch
//   Reset/<mode>                 chunk of 2048 with the pool reset (0), the buffer reset (1), a new buffer (2)
//   GpuTiny/<variant>            20,000 tiny dispatches (4 groups of 64) in one command buffer between two
//                                timestamps, submitted and waited for; counters cpu_ns_per_dispatch (recording) and
//                                gpu_ns_per_dispatch. 0 a layout without push constants, 1 a shader reading 16 bytes
//                                of push constants pushed once, 2 the same pushed before every dispatch, 3 the layout
//                                and push of 1 with a shader that does not read them, 4 the 16 bytes read from a
//                                uniform buffer instead. Why: the runtime-size variants read the logical size and
//                                literals from push constants, the programs' own modules mostly read none, and on
//                                NVIDIA a dispatch of a shader that reads push constants records at about 1.6x the
//                                CPU cost (docs/performance.md, "What a stand-in dispatch costs NVIDIA").
#include <benchmark/benchmark.h>
#include <time.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "bismuth/backend/buffer.hpp"
#include "bismuth/backend/device.hpp"
#include "bismuth/backend/device_selection.hpp"
#include "bismuth/backend/instance.hpp"
#include "bismuth/backend/pipeline_cache.hpp"
#include "bismuth/translator/glsl_compiler.hpp"
#include "bench_support.hpp"

namespace bb = bismuth::backend;

const char* const bench::kProgramName = "bench_vk_record";

namespace {

using bench::die;
using bench::kSizes;
using bench::take;
constexpr const char* kShader = bench::kAddShader;

void check(VkResult r, const char* what) {
  if (r != VK_SUCCESS) die(std::string(what) + " failed: " + std::to_string(r));
}

double thread_cpu_ns() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return double(t.tv_sec) * 1e9 + double(t.tv_nsec);
}

// One device, shader, 8 size pipelines (compiled through the backend's cache), two buffers, a descriptor set.
struct Fixture {
  std::unique_ptr<bb::Instance> instance;
  std::unique_ptr<bb::Device> device;
  std::unique_ptr<bb::PipelineCache> cache;
  std::shared_ptr<bb::Shader> shader;
  std::shared_ptr<bb::Buffer> src, dst;
  std::array<VkPipeline, kSizes.size()> pipelines{};
  VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;  // a non-push layout for the descriptor-set variant
  VkPipelineLayout set_pipeline_layout = VK_NULL_HANDLE;
  VkPipeline set_pipeline = VK_NULL_HANDLE;
  VkDescriptorPool descriptor_pool = VK_NULL_HANDLE;
  VkDescriptorSet set = VK_NULL_HANDLE;
  VkDescriptorBufferInfo infos[2]{};
  VkWriteDescriptorSet writes[2]{};

  // Never destroyed: the process exits right after the benchmarks, and the driver reclaims everything.
  static Fixture& get() {
    static Fixture& f = *new Fixture(make());
    return f;
  }

  static Fixture make() {
    Fixture f;
    f.instance = take(bb::Instance::create({.application_name = "bench_vk_record"}), "instance");
    auto devices = take(bb::enumerate_devices(*f.instance), "devices");
    const size_t index = take(bb::select_device(devices, bb::DeviceSelector::from_environment()), "BISMUTH_DEVICE");
    f.device = take(bb::Device::create(*f.instance, devices[index]), "device");
    std::fprintf(stderr, "bench_vk_record: device %s\n", devices[index].name.c_str());
    benchmark::AddCustomContext("bismuth_device", devices[index].name);
    const auto spirv = take(bismuth::translator::compile_glsl_compute(kShader, {.source_name = "bench.comp"}), "glslang");
    bb::PipelineCacheOptions options;
    options.cache_dir = "off";
    options.print_stats_at_exit = false;
    f.cache = take(bb::PipelineCache::create(*f.device, options), "cache");
    bb::ShaderDesc desc;
    desc.spirv = spirv;
    desc.layout = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}, 8};
    desc.name = "bench";
    f.shader = take(bb::Shader::create(*f.device, desc), "shader");
    if (!f.shader->uses_push_descriptors()) die("the device has no VK_KHR_push_descriptor");
    f.src = take(bb::Buffer::create(*f.device, 4096), "buffer");
    f.dst = take(bb::Buffer::create(*f.device, 4096), "buffer");
    for (size_t i = 0; i < kSizes.size(); ++i) {
      f.pipelines[i] = take(f.cache->get_or_compile({f.shader.get(), {kSizes[i], 1, 1}, 0, {}}), "compile")->handle();
    }
    f.infos[0] = {f.src->handle(), 0, VK_WHOLE_SIZE};
    f.infos[1] = {f.dst->handle(), 0, VK_WHOLE_SIZE};
    for (uint32_t i = 0; i < 2; ++i) {
      f.writes[i] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
      f.writes[i].dstBinding = i;
      f.writes[i].descriptorCount = 1;
      f.writes[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
      f.writes[i].pBufferInfo = &f.infos[i];
    }
    f.make_descriptor_set_pipeline(spirv);
    return f;
  }

  // The same shader behind an ordinary (pool-allocated) descriptor set layout.
  void make_descriptor_set_pipeline(const std::vector<uint32_t>& spirv) {
    const auto& vk = device->vk();
    const VkDevice d = device->handle();
    VkDescriptorSetLayoutBinding bindings[2]{};
    for (uint32_t i = 0; i < 2; ++i) {
      bindings[i] = {i, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
    }
    VkDescriptorSetLayoutCreateInfo set_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    set_info.bindingCount = 2;
    set_info.pBindings = bindings;
    check(vk.vkCreateDescriptorSetLayout(d, &set_info, nullptr, &set_layout), "vkCreateDescriptorSetLayout");
    VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, 8};
    VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    layout_info.setLayoutCount = 1;
    layout_info.pSetLayouts = &set_layout;
    layout_info.pushConstantRangeCount = 1;
    layout_info.pPushConstantRanges = &range;
    check(vk.vkCreatePipelineLayout(d, &layout_info, nullptr, &set_pipeline_layout), "vkCreatePipelineLayout");
    VkShaderModuleCreateInfo module_info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    module_info.codeSize = spirv.size() * 4;
    module_info.pCode = spirv.data();
    VkShaderModule module = VK_NULL_HANDLE;
    check(vk.vkCreateShaderModule(d, &module_info, nullptr, &module), "vkCreateShaderModule");
    const uint32_t size[3] = {64, 1, 1};
    VkSpecializationMapEntry entries[3] = {{0, 0, 4}, {1, 4, 4}, {2, 8, 4}};
    VkSpecializationInfo spec{3, entries, sizeof size, size};
    VkComputePipelineCreateInfo pipeline_info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    pipeline_info.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
    pipeline_info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    pipeline_info.stage.module = module;
    pipeline_info.stage.pName = "main";
    pipeline_info.stage.pSpecializationInfo = &spec;
    pipeline_info.layout = set_pipeline_layout;
    check(vk.vkCreateComputePipelines(d, VK_NULL_HANDLE, 1, &pipeline_info, nullptr, &set_pipeline),
          "vkCreateComputePipelines");
    vk.vkDestroyShaderModule(d, module, nullptr);
    VkDescriptorPoolSize pool_size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2};
    VkDescriptorPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    pool_info.maxSets = 1;
    pool_info.poolSizeCount = 1;
    pool_info.pPoolSizes = &pool_size;
    check(vk.vkCreateDescriptorPool(d, &pool_info, nullptr, &descriptor_pool), "vkCreateDescriptorPool");
    VkDescriptorSetAllocateInfo allocate{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    allocate.descriptorPool = descriptor_pool;
    allocate.descriptorSetCount = 1;
    allocate.pSetLayouts = &set_layout;
    check(vk.vkAllocateDescriptorSets(d, &allocate, &set), "vkAllocateDescriptorSets");
    VkWriteDescriptorSet w[2] = {writes[0], writes[1]};
    w[0].dstSet = w[1].dstSet = set;
    vk.vkUpdateDescriptorSets(d, 2, w, 0, nullptr);
  }
};

enum class Reset { Pool, Buffer, NewBuffer };

// A command pool + buffer and the chunked recording loop shared by every variant.
class Recorder {
 public:
  explicit Recorder(Fixture& f, Reset reset = Reset::Pool) : f_(f), reset_(reset) {
    VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pool_info.queueFamilyIndex = f.device->queue_family();
    if (reset == Reset::Buffer) pool_info.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    check(vk().vkCreateCommandPool(f.device->handle(), &pool_info, nullptr, &pool_), "vkCreateCommandPool");
    allocate();
  }
  ~Recorder() { vk().vkDestroyCommandPool(f_.device->handle(), pool_, nullptr); }
  Recorder(const Recorder&) = delete;
  Recorder& operator=(const Recorder&) = delete;

  const bb::DeviceFunctions& vk() const { return f_.device->vk(); }
  VkCommandBuffer cb() const { return cb_; }

  void begin() {
    switch (reset_) {
      case Reset::Pool:
        vk().vkResetCommandPool(f_.device->handle(), pool_, 0);
        break;
      case Reset::Buffer:
        vk().vkResetCommandBuffer(cb_, 0);
        break;
      case Reset::NewBuffer:
        vk().vkFreeCommandBuffers(f_.device->handle(), pool_, 1, &cb_);
        allocate();
        break;
    }
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    vk().vkBeginCommandBuffer(cb_, &begin);
  }
  void end() { vk().vkEndCommandBuffer(cb_); }

 private:
  void allocate() {
    VkCommandBufferAllocateInfo allocate{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    allocate.commandPool = pool_;
    allocate.commandBufferCount = 1;
    check(vk().vkAllocateCommandBuffers(f_.device->handle(), &allocate, &cb_), "vkAllocateCommandBuffers");
  }

  Fixture& f_;
  Reset reset_;
  VkCommandPool pool_ = VK_NULL_HANDLE;
  VkCommandBuffer cb_ = VK_NULL_HANDLE;
};

enum class PerDispatch { Nothing, BindSame, Cycle8, PushConstants, PushDescriptors, Barrier };

// Runs chunks until the benchmark has enough time; per-dispatch thread CPU time as the "ns_per_dispatch" counter
// (and as manual time, so the time columns are per chunk).
void run_chunks(benchmark::State& state, bool descriptor_set, uint32_t chunk, PerDispatch each,
                Reset reset = Reset::Pool) {
  Fixture& f = Fixture::get();
  Recorder r(f, reset);
  const auto& vk = r.vk();
  const VkPipelineLayout layout = descriptor_set ? f.set_pipeline_layout : f.shader->pipeline_layout();
  const VkPipeline fixed = descriptor_set ? f.set_pipeline : f.pipelines[1];
  const uint32_t push[2] = {1024, 1};
  VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
  double ns = 0;
  uint64_t dispatches = 0;
  for (auto _ : state) {
    const double t0 = thread_cpu_ns();
    r.begin();
    const VkCommandBuffer cb = r.cb();
    if (descriptor_set) {
      vk.vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &f.set, 0, nullptr);
    } else {
      vk.vkCmdPushDescriptorSetKHR(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 2, f.writes);
    }
    vk.vkCmdPushConstants(cb, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof push, push);
    vk.vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, fixed);
    for (uint32_t n = 0; n < chunk; ++n) {
      switch (each) {
        case PerDispatch::Nothing:
          break;
        case PerDispatch::BindSame:
          vk.vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, fixed);
          break;
        case PerDispatch::Cycle8:
          vk.vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, f.pipelines[n % kSizes.size()]);
          break;
        case PerDispatch::PushConstants:
          vk.vkCmdPushConstants(cb, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof push, push);
          break;
        case PerDispatch::PushDescriptors:
          vk.vkCmdPushDescriptorSetKHR(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 2, f.writes);
          break;
        case PerDispatch::Barrier:
          vk.vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1,
                                  &barrier, 0, nullptr, 0, nullptr);
          break;
      }
      vk.vkCmdDispatch(cb, 4, 1, 1);
    }
    r.end();
    const double elapsed = thread_cpu_ns() - t0;
    state.SetIterationTime(elapsed * 1e-9);
    ns += elapsed;
    dispatches += chunk;
  }
  state.counters["ns_per_dispatch"] = ns / double(dispatches);
  state.SetItemsProcessed(int64_t(dispatches));
}

void BM_Dispatch(benchmark::State& state) {
  run_chunks(state, state.range(0) != 0, uint32_t(state.range(1)), PerDispatch::Nothing);
}
BENCHMARK(BM_Dispatch)
    ->ArgsProduct({{0, 1}, {64, 2048, 16384}})
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);

void BM_DispatchBindEach(benchmark::State& state) {
  run_chunks(state, state.range(0) != 0, 2048, PerDispatch::BindSame);
}
BENCHMARK(BM_DispatchBindEach)->Arg(0)->Arg(1)->UseManualTime()->Unit(benchmark::kMicrosecond);

void BM_DispatchCycle8(benchmark::State& state) { run_chunks(state, false, 2048, PerDispatch::Cycle8); }
BENCHMARK(BM_DispatchCycle8)->UseManualTime()->Unit(benchmark::kMicrosecond);

void BM_DispatchPushConstEach(benchmark::State& state) {
  run_chunks(state, state.range(0) != 0, 2048, PerDispatch::PushConstants);
}
BENCHMARK(BM_DispatchPushConstEach)->Arg(0)->Arg(1)->UseManualTime()->Unit(benchmark::kMicrosecond);

void BM_DispatchPushDescEach(benchmark::State& state) {
  run_chunks(state, false, 2048, PerDispatch::PushDescriptors);
}
BENCHMARK(BM_DispatchPushDescEach)->UseManualTime()->Unit(benchmark::kMicrosecond);

void BM_DispatchBarrierEach(benchmark::State& state) {
  run_chunks(state, state.range(0) != 0, 2048, PerDispatch::Barrier);
}
BENCHMARK(BM_DispatchBarrierEach)->Arg(0)->Arg(1)->UseManualTime()->Unit(benchmark::kMicrosecond);

void BM_Reset(benchmark::State& state) {
  run_chunks(state, false, 2048, PerDispatch::Nothing, static_cast<Reset>(state.range(0)));
}
BENCHMARK(BM_Reset)->Arg(0)->Arg(1)->Arg(2)->UseManualTime()->Unit(benchmark::kMicrosecond);

// The tiny kernel of examples/dispatch_stream.c, without push constants and with 16 bytes of them.
constexpr const char* kTinyShader = R"(#version 450
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;
layout(std430, binding = 0) buffer Values { uint values[]; };
void main() { values[gl_GlobalInvocationID.x] = gl_GlobalInvocationID.x * 3u + 1u; }
)";
constexpr const char* kTinyPushShader = R"(#version 450
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;
layout(std430, binding = 0) buffer Values { uint values[]; };
layout(push_constant) uniform Push { uvec4 tag; };
void main() { values[gl_GlobalInvocationID.x] = gl_GlobalInvocationID.x * 3u + tag.x; }
)";
constexpr const char* kTinyUniformShader = R"(#version 450
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;
layout(std430, binding = 0) buffer Values { uint values[]; };
layout(std140, binding = 1) uniform Params { uvec4 tag; };
void main() { values[gl_GlobalInvocationID.x] = gl_GlobalInvocationID.x * 3u + tag.x; }
)";

void BM_GpuTiny(benchmark::State& state) {
  Fixture& f = Fixture::get();
  const auto variant = state.range(0);
  const bool push = variant == 1 || variant == 2 || variant == 3;
  const bool uniform = variant == 4;
  const char* source = variant == 1 || variant == 2 ? kTinyPushShader : uniform ? kTinyUniformShader : kTinyShader;
  const auto spirv = take(bismuth::translator::compile_glsl_compute(source, {.source_name = "tiny.comp"}), "glslang");
  bb::ShaderDesc desc;
  desc.spirv = spirv;
  desc.layout = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}, push ? 16u : 0u};
  if (uniform) desc.layout.bindings.push_back(VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER);
  desc.name = "tiny";
  const auto shader = take(bb::Shader::create(*f.device, desc), "shader");
  const VkPipeline pipeline = take(f.cache->get_or_compile({shader.get(), {64, 1, 1}, 0, {}}), "compile")->handle();
  const auto values = take(bb::Buffer::create(*f.device, 4 * 256), "buffer");
  const auto& vk = f.device->vk();
  const VkDevice d = f.device->handle();
  VkQueryPoolCreateInfo query_info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
  query_info.queryType = VK_QUERY_TYPE_TIMESTAMP;
  query_info.queryCount = 2;
  VkQueryPool queries = VK_NULL_HANDLE;
  check(vk.vkCreateQueryPool(d, &query_info, nullptr, &queries), "vkCreateQueryPool");
  const uint32_t tag[4] = {1, 0, 0, 0};
  const auto params = take(bb::Buffer::create(*f.device, sizeof tag, bb::BufferKind::MappedDeviceLocal), "buffer");
  if (uniform) {
    if (!params->host_visible()) die("the uniform buffer is not host-visible");
    std::memcpy(params->mapped(), tag, sizeof tag);
  }
  VkDescriptorBufferInfo infos[2] = {{values->handle(), 0, VK_WHOLE_SIZE}, {params->handle(), 0, sizeof tag}};
  VkWriteDescriptorSet writes[2]{};
  for (uint32_t i = 0; i < 2; ++i) {
    writes[i] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    writes[i].dstBinding = i;
    writes[i].descriptorCount = 1;
    writes[i].descriptorType = i == 0 ? VK_DESCRIPTOR_TYPE_STORAGE_BUFFER : VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
    writes[i].pBufferInfo = &infos[i];
  }
  constexpr uint32_t kDispatches = 20000;
  Recorder r(f);
  double gpu_ns = 0, cpu_ns = 0;
  uint64_t dispatches = 0;
  for (auto _ : state) {
    const double t0 = thread_cpu_ns();
    r.begin();
    const VkCommandBuffer cb = r.cb();
    vk.vkCmdResetQueryPool(cb, queries, 0, 2);
    vk.vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vk.vkCmdPushDescriptorSetKHR(cb, VK_PIPELINE_BIND_POINT_COMPUTE, shader->pipeline_layout(), 0, uniform ? 2 : 1,
                                 writes);
    if (push) vk.vkCmdPushConstants(cb, shader->pipeline_layout(), VK_SHADER_STAGE_COMPUTE_BIT, 0, 16, tag);
    vk.vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, queries, 0);
    for (uint32_t n = 0; n < kDispatches; ++n) {
      if (variant == 2) vk.vkCmdPushConstants(cb, shader->pipeline_layout(), VK_SHADER_STAGE_COMPUTE_BIT, 0, 16, tag);
      vk.vkCmdDispatch(cb, 4, 1, 1);
    }
    vk.vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, queries, 1);
    r.end();
    cpu_ns += thread_cpu_ns() - t0;
    const VkCommandBuffer cbs[1] = {cb};
    const uint64_t value = take(f.device->submit(cbs), "submit");
    if (!f.device->wait(value)) die("wait failed");
    uint64_t ticks[2] = {};
    check(vk.vkGetQueryPoolResults(d, queries, 0, 2, sizeof ticks, ticks, 8, VK_QUERY_RESULT_64_BIT),
          "vkGetQueryPoolResults");
    const double ns = double(ticks[1] - ticks[0]) * double(f.device->info().timestamp_period_ns);
    state.SetIterationTime(ns * 1e-9);
    gpu_ns += ns;
    dispatches += kDispatches;
  }
  vk.vkDestroyQueryPool(d, queries, nullptr);
  state.counters["gpu_ns_per_dispatch"] = gpu_ns / double(dispatches);
  state.counters["cpu_ns_per_dispatch"] = cpu_ns / double(dispatches);
  state.SetItemsProcessed(int64_t(dispatches));
}
BENCHMARK(BM_GpuTiny)->DenseRange(0, 4)->UseManualTime()->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
