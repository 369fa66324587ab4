// CommandStream's barrier models, checked on the commands it records: the device is adopted through a
// vkGetDeviceProcAddr that logs every vkCmdPipelineBarrier, vkCmdDispatch, vkCmdCopyBuffer and vkCmdFillBuffer
// (with either recording mode: the recording thread calls the same table), then the log is compared with what
// GL's memory model asks for (BarrierModel::Gl) or what the automatic model promises.
//
// GL 4.6 §7.13.2 ("Shader Memory Access Synchronization" / glMemoryBarrier): "MemoryBarrier defines a barrier
// ordering the memory transactions issued prior to the command relative to those issued after the barrier" — the
// only thing that orders shader writes of one dispatch before the accesses of another; each bit names the later
// accesses that "will reflect data written by shaders prior to the barrier". GL's buffer commands
// (BufferSubData, CopyBufferSubData, ClearBufferSubData, GetBufferSubData, maps) are commands in the GL stream,
// and Bismuth orders them with every earlier dispatch whatever the barrier bits (it never returns stale data).
#include <atomic>
#include <mutex>

#include "backend_fixture.hpp"

using namespace bismuth;
using namespace bismuth::backend;
using bismuth::test::read_words;
using bismuth::test::ValidatedVulkan;

namespace {

struct Push {
  uint32_t count;
  uint32_t add;
};

// One logged command: a barrier with its scope, or a command that touches memory.
struct Logged {
  enum Kind { Barrier, Dispatch, Copy, Fill } kind;
  BarrierScope scope;  // Barrier only
};

std::mutex g_log_mutex;
std::vector<Logged> g_log;  // guarded by g_log_mutex
PFN_vkGetDeviceProcAddr g_real_gdpa = nullptr;
PFN_vkCmdPipelineBarrier g_real_barrier = nullptr;
PFN_vkCmdDispatch g_real_dispatch = nullptr;
PFN_vkCmdCopyBuffer g_real_copy = nullptr;
PFN_vkCmdFillBuffer g_real_fill = nullptr;

void log_command(const Logged& entry) {
  std::lock_guard lock(g_log_mutex);
  g_log.push_back(entry);
}

VKAPI_ATTR void VKAPI_CALL logging_barrier(VkCommandBuffer cb, VkPipelineStageFlags src, VkPipelineStageFlags dst,
                                           VkDependencyFlags flags, uint32_t memory_count,
                                           const VkMemoryBarrier* memory, uint32_t buffer_count,
                                           const VkBufferMemoryBarrier* buffers, uint32_t image_count,
                                           const VkImageMemoryBarrier* images) {
  BarrierScope scope{src, dst, 0, 0};
  for (uint32_t i = 0; i < memory_count; ++i) {
    scope.source_access |= memory[i].srcAccessMask;
    scope.destination_access |= memory[i].dstAccessMask;
  }
  log_command({Logged::Barrier, scope});
  g_real_barrier(cb, src, dst, flags, memory_count, memory, buffer_count, buffers, image_count, images);
}

VKAPI_ATTR void VKAPI_CALL logging_dispatch(VkCommandBuffer cb, uint32_t x, uint32_t y, uint32_t z) {
  log_command({Logged::Dispatch, {}});
  g_real_dispatch(cb, x, y, z);
}

VKAPI_ATTR void VKAPI_CALL logging_copy(VkCommandBuffer cb, VkBuffer src, VkBuffer dst, uint32_t count,
                                        const VkBufferCopy* regions) {
  log_command({Logged::Copy, {}});
  g_real_copy(cb, src, dst, count, regions);
}

VKAPI_ATTR void VKAPI_CALL logging_fill(VkCommandBuffer cb, VkBuffer buffer, VkDeviceSize offset, VkDeviceSize size,
                                        uint32_t data) {
  log_command({Logged::Fill, {}});
  g_real_fill(cb, buffer, offset, size, data);
}

// State changes, counted apart from the log (the log's tests compare whole sequences): pipeline binds, push
// constant pushes, descriptor updates (pushed or bound sets).
std::atomic<uint32_t> g_pipeline_binds{0}, g_push_constants{0}, g_descriptor_updates{0};
PFN_vkCmdBindPipeline g_real_bind_pipeline = nullptr;
PFN_vkCmdPushConstants g_real_push_constants = nullptr;
PFN_vkCmdPushDescriptorSetKHR g_real_push_descriptors = nullptr;
PFN_vkCmdBindDescriptorSets g_real_bind_sets = nullptr;

VKAPI_ATTR void VKAPI_CALL counting_bind_pipeline(VkCommandBuffer cb, VkPipelineBindPoint point, VkPipeline pipeline) {
  ++g_pipeline_binds;
  g_real_bind_pipeline(cb, point, pipeline);
}

VKAPI_ATTR void VKAPI_CALL counting_push_constants(VkCommandBuffer cb, VkPipelineLayout layout,
                                                   VkShaderStageFlags stages, uint32_t offset, uint32_t size,
                                                   const void* values) {
  ++g_push_constants;
  g_real_push_constants(cb, layout, stages, offset, size, values);
}

VKAPI_ATTR void VKAPI_CALL counting_push_descriptors(VkCommandBuffer cb, VkPipelineBindPoint point,
                                                     VkPipelineLayout layout, uint32_t set, uint32_t count,
                                                     const VkWriteDescriptorSet* writes) {
  ++g_descriptor_updates;
  g_real_push_descriptors(cb, point, layout, set, count, writes);
}

VKAPI_ATTR void VKAPI_CALL counting_bind_sets(VkCommandBuffer cb, VkPipelineBindPoint point, VkPipelineLayout layout,
                                              uint32_t first, uint32_t count, const VkDescriptorSet* sets,
                                              uint32_t dynamic_count, const uint32_t* dynamic_offsets) {
  ++g_descriptor_updates;
  g_real_bind_sets(cb, point, layout, first, count, sets, dynamic_count, dynamic_offsets);
}

struct StateChanges {
  uint32_t pipeline_binds, push_constants, descriptor_updates;
  bool operator==(const StateChanges&) const = default;
};
// Since the last call.
StateChanges take_state_changes() {
  return {g_pipeline_binds.exchange(0), g_push_constants.exchange(0), g_descriptor_updates.exchange(0)};
}

template <class Pfn>
PFN_vkVoidFunction wrap(VkDevice device, const char* name, Pfn& real, Pfn logging) {
  real = reinterpret_cast<Pfn>(g_real_gdpa(device, name));
  return reinterpret_cast<PFN_vkVoidFunction>(logging);
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL logging_gdpa(VkDevice device, const char* name) {
  const std::string n = name;
  if (n == "vkCmdPipelineBarrier") return wrap(device, name, g_real_barrier, &logging_barrier);
  if (n == "vkCmdDispatch") return wrap(device, name, g_real_dispatch, &logging_dispatch);
  if (n == "vkCmdCopyBuffer") return wrap(device, name, g_real_copy, &logging_copy);
  if (n == "vkCmdFillBuffer") return wrap(device, name, g_real_fill, &logging_fill);
  if (n == "vkCmdBindPipeline") return wrap(device, name, g_real_bind_pipeline, &counting_bind_pipeline);
  if (n == "vkCmdPushConstants") return wrap(device, name, g_real_push_constants, &counting_push_constants);
  if (n == "vkCmdBindDescriptorSets") return wrap(device, name, g_real_bind_sets, &counting_bind_sets);
  if (n == "vkCmdPushDescriptorSetKHR") {
    if (g_real_gdpa(device, name) == nullptr) return nullptr;  // not enabled: the stream binds sets
    return wrap(device, name, g_real_push_descriptors, &counting_push_descriptors);
  }
  return g_real_gdpa(device, name);
}

// What was recorded since the last call (every encoded command is replayed once the stream finished).
std::vector<Logged> take_log() {
  std::lock_guard lock(g_log_mutex);
  std::vector<Logged> log = std::move(g_log);
  g_log.clear();
  return log;
}

std::vector<Logged::Kind> kinds(const std::vector<Logged>& log) {
  std::vector<Logged::Kind> out;
  for (const Logged& l : log) out.push_back(l.kind);
  return out;
}

// A device owned by the test, adopted by a second Device that records through the logging table.
struct LoggedDevice {
  std::unique_ptr<Device> owned;
  std::mutex queue_mutex;
  std::unique_ptr<Device> device;

  explicit LoggedDevice(ValidatedVulkan& vk) : owned(test::make_device(vk)) {
    g_real_gdpa = owned->vki().vkGetDeviceProcAddr;
    ExternalDevice external;
    external.instance = vk.instance().handle();
    external.instance_api_version = vk.instance().api_version();
    external.get_instance_proc_addr = vkGetInstanceProcAddr;
    external.physical_device = owned->physical_device();
    external.device = owned->handle();
    external.get_device_proc_addr = &logging_gdpa;
    external.queue = owned->queue();
    external.queue_family = owned->queue_family();
    external.enabled = owned->features();
    external.queue_mutex = &queue_mutex;
    auto adopted = Device::adopt(external);
    if (!adopted) FAIL(adopted.error().message);
    device = std::move(*adopted);
    take_log();
  }
};

std::unique_ptr<CommandStream> make_stream(Device& device, PipelineCache& cache, BarrierModel model,
                                           RecordingMode recording) {
  return test::make_stream(device, cache, {.recording = recording, .barriers = model});
}

constexpr BarrierScope kShaderToStorage{VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                                        VK_ACCESS_SHADER_WRITE_BIT,
                                        VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT};

}  // namespace

TEST_CASE("Each barrier target waits for shader writes and makes them visible to its own stage and accesses") {
  // GL 4.6 §7.13.2, per bit: SHADER_STORAGE / ATOMIC_COUNTER "accesses ... after the barrier will reflect writes
  // prior to the barrier"; UNIFORM "shader uniforms sourced from buffer objects"; COMMAND "command data sourced
  // from buffer objects by ... DispatchComputeIndirect"; BUFFER_UPDATE "reads or writes via BufferSubData, ..."
  // (transfers); CLIENT_MAPPED_BUFFER "access by the client to persistent mapped regions" (host);
  // SHADER_IMAGE_ACCESS "memory accesses using shader image load, store, and atomic built-in functions";
  // TEXTURE_FETCH "texture fetches from shaders ... (including buffer textures)"; TEXTURE_UPDATE "writes to a
  // texture via Tex(Sub)Image*, ClearTex*Image, CopyTex*, or CopyTexSubImage*, and reads via GetTexImage"
  // (transfers on images); FRAMEBUFFER "reads and writes via framebuffers ... ReadPixels" (read-backs, clears).
  struct Row {
    BarrierTargets targets;
    VkPipelineStageFlags stages;
    VkAccessFlags access;
  };
  const Row rows[] = {
      {kBarrierStorage, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT},
      {kBarrierUniform, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_UNIFORM_READ_BIT},
      {kBarrierIndirectCommand, VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT, VK_ACCESS_INDIRECT_COMMAND_READ_BIT},
      {kBarrierTransfer, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT},
      {kBarrierHost, VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT | VK_ACCESS_HOST_WRITE_BIT},
      {kBarrierImage, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT},
      {kBarrierTextureFetch, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT},
      {kBarrierTextureUpdate, VK_PIPELINE_STAGE_TRANSFER_BIT,
       VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT},
      {kBarrierFramebuffer, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT},
  };
  BarrierScope all;
  for (const Row& row : rows) {
    const BarrierScope scope = explicit_barrier_scope(row.targets);
    CHECK(scope.source_stages == VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT);
    CHECK(scope.source_access == VK_ACCESS_SHADER_WRITE_BIT);
    CHECK(scope.destination_stages == row.stages);
    CHECK(scope.destination_access == row.access);
    all |= scope;
  }
  CHECK(explicit_barrier_scope(kBarrierAllTargets) == all);
  CHECK(explicit_barrier_scope(0).empty());
}

TEST_CASE("GL model: dependent dispatches get no barrier unless one is requested, adjacent requests are one barrier",
          "[vulkan]") {
  const RecordingMode recording = GENERATE(RecordingMode::Inline, RecordingMode::Thread);
  ValidatedVulkan vk;
  {
    LoggedDevice logged(vk);
    Device& device = *logged.device;
    auto cache = test::make_cache(device);
    auto stream = make_stream(device, *cache, BarrierModel::Gl, recording);
    auto shader = test::make_add_shader(device);
    constexpr uint32_t n = 256;
    auto a = test::make_buffer(device, n);
    auto b = test::make_buffer(device, n);
    auto c = test::make_buffer(device, n);
    REQUIRE_OK(stream->fill(*a, 0, VK_WHOLE_SIZE, 5));
    REQUIRE_OK(stream->finish());
    take_log();
    BufferBinding ab[2] = {{a.get(), 0, VK_WHOLE_SIZE, Access::Read}, {b.get(), 0, VK_WHOLE_SIZE, Access::Write}};
    BufferBinding bc[2] = {{b.get(), 0, VK_WHOLE_SIZE, Access::Read}, {c.get(), 0, VK_WHOLE_SIZE, Access::Write}};
    const Push one{n, 1}, ten{n, 10};
    const DispatchInfo a_to_b{.shader = shader.get(),
                              .size = {64, 1, 1},
                              .groups = {4, 1, 1},
                              .bindings = ab,
                              .push_constants = test::bytes_of(one)};
    const DispatchInfo b_to_c{.shader = shader.get(),
                              .size = {64, 1, 1},
                              .groups = {4, 1, 1},
                              .bindings = bc,
                              .push_constants = test::bytes_of(ten)};

    // Without a request, GL does not order the second dispatch's reads of b after the first one's writes. The
    // fill of a (a buffer command) is still ordered before the first dispatch's reads: the one barrier first.
    REQUIRE_OK(stream->dispatch(a_to_b));
    REQUIRE_OK(stream->dispatch(b_to_c));
    REQUIRE_OK(stream->dispatch(b_to_c));  // the same bindings again: the repeat path
    REQUIRE_OK(stream->finish());
    std::vector<Logged> log = take_log();
    // The batch ends with its host barrier (device writes → host reads after the wait), nothing between dispatches.
    REQUIRE(kinds(log) == std::vector<Logged::Kind>{Logged::Barrier, Logged::Dispatch, Logged::Dispatch,
                                                    Logged::Dispatch, Logged::Barrier});
    CHECK(log[0].scope.covers(HazardTracker::kHazardScope));
    CHECK(log[4].scope.destination_stages == VK_PIPELINE_STAGE_HOST_BIT);
    CHECK(stream->stats().automatic_barriers == 1);

    // Two requests with no command between them: one barrier before the next command, the union of both.
    REQUIRE_OK(stream->dispatch(a_to_b));
    REQUIRE_OK(stream->memory_barrier(kBarrierStorage));
    REQUIRE_OK(stream->memory_barrier(kBarrierUniform));
    REQUIRE_OK(stream->dispatch(b_to_c));
    const uint64_t commands_before_end = stream->stats().barrier_commands;
    // A request at the end of the stream costs no barrier of its own: it merges into the batch's host barrier.
    REQUIRE_OK(stream->memory_barrier(kBarrierStorage));
    REQUIRE_OK(stream->finish());
    log = take_log();
    REQUIRE(kinds(log) ==
            std::vector<Logged::Kind>{Logged::Dispatch, Logged::Barrier, Logged::Dispatch, Logged::Barrier});
    BarrierScope expected = kShaderToStorage;
    expected.destination_access |= VK_ACCESS_UNIFORM_READ_BIT;
    CHECK(log[1].scope == expected);
    CHECK(log[3].scope.covers(kShaderToStorage));
    CHECK(log[3].scope.destination_stages == (VK_PIPELINE_STAGE_HOST_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT));
    CHECK(stream->stats().barrier_commands == commands_before_end + 1);
    CHECK(stream->stats().explicit_barriers == 3);
    // With the barrier, the second dispatch saw the first one's writes: c = (5 + 1) + 10.
    for (uint32_t w : read_words(*stream, *c, n)) REQUIRE(w == 16);
  }
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("GL model: copies, fills and readbacks stay ordered with the dispatches around them", "[vulkan]") {
  const RecordingMode recording = GENERATE(RecordingMode::Inline, RecordingMode::Thread);
  ValidatedVulkan vk;
  {
    LoggedDevice logged(vk);
    Device& device = *logged.device;
    auto cache = test::make_cache(device);
    auto stream = make_stream(device, *cache, BarrierModel::Gl, recording);
    auto shader = test::make_add_shader(device);
    constexpr uint32_t n = 256;
    auto a = test::make_buffer(device, n);
    auto b = test::make_buffer(device, n);
    auto c = test::make_buffer(device, n);
    BufferBinding ab[2] = {{a.get(), 0, VK_WHOLE_SIZE, Access::Read}, {b.get(), 0, VK_WHOLE_SIZE, Access::Write}};
    const Push one{n, 1};
    const DispatchInfo a_to_b{.shader = shader.get(),
                              .size = {64, 1, 1},
                              .groups = {4, 1, 1},
                              .bindings = ab,
                              .push_constants = test::bytes_of(one)};
    // fill a (transfer write) → dispatch reads a: ordered; dispatch writes b → copy b to c: ordered; the copy read
    // b → a fill of b (a write after that read): ordered.
    REQUIRE_OK(stream->fill(*a, 0, VK_WHOLE_SIZE, 41));
    REQUIRE_OK(stream->dispatch(a_to_b));
    REQUIRE_OK(stream->copy(*b, 0, *c, 0, n * 4));
    REQUIRE_OK(stream->fill(*b, 0, 64, 7));
    REQUIRE_OK(stream->finish());
    const std::vector<Logged> log = take_log();
    REQUIRE(kinds(log) == std::vector<Logged::Kind>{Logged::Fill, Logged::Barrier, Logged::Dispatch, Logged::Barrier,
                                                    Logged::Copy, Logged::Barrier, Logged::Fill, Logged::Barrier});
    for (size_t i : {1u, 3u, 5u}) {
      CHECK(log[i].scope.covers(HazardTracker::kHazardScope));  // transfer ↔ shader, both directions
    }
    CHECK(stream->stats().automatic_barriers == 3);
    for (uint32_t w : read_words(*stream, *c, n)) REQUIRE(w == 42);
    // A dispatch's writes are visible to a readback without any request: GL syncs GetBufferSubData and maps
    // with the commands before them, and Bismuth never returns stale data.
    REQUIRE_OK(stream->dispatch(a_to_b));
    for (uint32_t w : read_words(*stream, *b, n)) REQUIRE(w == 42);
  }
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("Automatic model: dependent dispatches get a barrier without a request", "[vulkan]") {
  ValidatedVulkan vk;
  {
    LoggedDevice logged(vk);
    Device& device = *logged.device;
    auto cache = test::make_cache(device);
    auto stream = make_stream(device, *cache, BarrierModel::Automatic, RecordingMode::Inline);
    auto shader = test::make_add_shader(device);
    constexpr uint32_t n = 256;
    auto a = test::make_buffer(device, n);
    auto b = test::make_buffer(device, n);
    auto c = test::make_buffer(device, n);
    BufferBinding ab[2] = {{a.get(), 0, VK_WHOLE_SIZE, Access::Read}, {b.get(), 0, VK_WHOLE_SIZE, Access::Write}};
    BufferBinding bc[2] = {{b.get(), 0, VK_WHOLE_SIZE, Access::Read}, {c.get(), 0, VK_WHOLE_SIZE, Access::Write}};
    const Push one{n, 1};
    REQUIRE_OK(stream->dispatch({.shader = shader.get(),
                                 .size = {64, 1, 1},
                                 .groups = {4, 1, 1},
                                 .bindings = ab,
                                 .push_constants = test::bytes_of(one)}));
    REQUIRE_OK(stream->dispatch({.shader = shader.get(),
                                 .size = {64, 1, 1},
                                 .groups = {4, 1, 1},
                                 .bindings = bc,
                                 .push_constants = test::bytes_of(one)}));
    REQUIRE_OK(stream->finish());
    const std::vector<Logged> log = take_log();
    REQUIRE(kinds(log) ==
            std::vector<Logged::Kind>{Logged::Dispatch, Logged::Barrier, Logged::Dispatch, Logged::Barrier});
    CHECK(log[1].scope == HazardTracker::kHazardScope);
  }
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("A full barrier request before a dispatch does not hide that dispatch's accesses", "[vulkan]") {
  // barrier() is recorded with the next command; it orders everything before it, so it restarts the tracking —
  // but the accesses of the command it is recorded with come after it and must still be tracked: a later dispatch
  // reading what that one wrote needs a barrier (automatic model), and a later copy of it too (both models).
  const BarrierModel model = GENERATE(BarrierModel::Automatic, BarrierModel::Gl);
  ValidatedVulkan vk;
  {
    LoggedDevice logged(vk);
    Device& device = *logged.device;
    auto cache = test::make_cache(device);
    auto stream = make_stream(device, *cache, model, RecordingMode::Inline);
    auto shader = test::make_add_shader(device);
    constexpr uint32_t n = 256;
    auto a = test::make_buffer(device, n);
    auto b = test::make_buffer(device, n);
    auto c = test::make_buffer(device, n);
    BufferBinding ab[2] = {{a.get(), 0, VK_WHOLE_SIZE, Access::Read}, {b.get(), 0, VK_WHOLE_SIZE, Access::Write}};
    const Push one{n, 1};
    REQUIRE_OK(stream->barrier());
    REQUIRE_OK(stream->dispatch({.shader = shader.get(),
                                 .size = {64, 1, 1},
                                 .groups = {4, 1, 1},
                                 .bindings = ab,
                                 .push_constants = test::bytes_of(one)}));
    REQUIRE_OK(stream->copy(*b, 0, *c, 0, n * 4));
    REQUIRE_OK(stream->finish());
    const std::vector<Logged> log = take_log();
    REQUIRE(kinds(log) == std::vector<Logged::Kind>{Logged::Barrier, Logged::Dispatch, Logged::Barrier, Logged::Copy,
                                                    Logged::Barrier});
    CHECK(log[2].scope.covers(HazardTracker::kHazardScope));
    // a holds whatever its memory held (filling it first would be a hazard of its own): c = a + 1.
    const auto in = read_words(*stream, *a, n);
    const auto out = read_words(*stream, *c, n);
    for (uint32_t i = 0; i < n; ++i) REQUIRE(out[i] == in[i] + 1);
  }
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("GL model: dispatches over many buffers restart the tracking with one barrier per 256", "[vulkan]") {
  // Without transfers nothing clears the GL model's tracking of dispatches (they need no barrier among
  // themselves), so it is bounded: the dispatch that finds more than 256 ranges noted gets one full barrier first.
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk);
    auto cache = test::make_cache(*device);
    auto stream = make_stream(*device, *cache, BarrierModel::Gl, RecordingMode::Inline);
    auto shader = test::make_add_shader(*device);
    auto src = test::make_buffer(*device, 64);
    std::vector<std::shared_ptr<Buffer>> outs;
    const Push one{64, 1};
    for (int i = 0; i < 300; ++i) {
      outs.push_back(test::make_buffer(*device, 64));
      BufferBinding bindings[2] = {{src.get(), 0, VK_WHOLE_SIZE, Access::Read},
                                   {outs.back().get(), 0, VK_WHOLE_SIZE, Access::Write}};
      REQUIRE_OK(stream->dispatch({.shader = shader.get(),
                                   .size = {64, 1, 1},
                                   .groups = {1, 1, 1},
                                   .bindings = bindings,
                                   .push_constants = test::bytes_of(one)}));
      // src (one range) and 256 outputs are noted before the 257th dispatch.
      REQUIRE(stream->stats().automatic_barriers == (i < 256 ? 0u : 1u));
    }
    REQUIRE_OK(stream->finish());
  }
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

// The recording path of a dispatch that repeats the previous one's state (CommandStream::dispatch records it inline
// with no tracking): what it records must be what the full path records. GL 4.6 §7.13.2 orders shader accesses of
// different dispatches only through MemoryBarrier; buffer bindings, push constants and the program are state that
// each dispatch uses as it is when the dispatch is issued, so a change made in place (the same DispatchInfo and
// arrays, new contents) must reach the next dispatch.
TEST_CASE("GL model: a repeated dispatch records only the state that changed, in-place changes included", "[vulkan]") {
  const RecordingMode recording = GENERATE(RecordingMode::Inline, RecordingMode::Thread);
  ValidatedVulkan vk;
  {
    LoggedDevice logged(vk);
    Device& device = *logged.device;
    auto cache = test::make_cache(device);
    auto stream = make_stream(device, *cache, BarrierModel::Gl, recording);
    auto shader = test::make_add_shader(device);
    constexpr uint32_t n = 256;
    auto a = test::make_buffer(device, n);
    auto b = test::make_buffer(device, n);
    auto c = test::make_buffer(device, n);
    REQUIRE_OK(stream->fill(*a, 0, VK_WHOLE_SIZE, 5));
    REQUIRE_OK(stream->finish());
    take_log();
    take_state_changes();
    BufferBinding bindings[2] = {{a.get(), 0, VK_WHOLE_SIZE, Access::Read}, {b.get(), 0, VK_WHOLE_SIZE, Access::Write}};
    Push push{n, 1};
    DispatchInfo info{.shader = shader.get(),
                      .size = {64, 1, 1},
                      .groups = {4, 1, 1},
                      .bindings = bindings,
                      .push_constants = test::bytes_of(push)};
    const uint64_t dispatches_before = stream->stats().dispatches;

    // The first dispatch binds everything; three repeats record dispatches only.
    for (int i = 0; i < 4; ++i) REQUIRE_OK(stream->dispatch(info));
    CHECK(take_state_changes() == StateChanges{1, 1, 1});
    // Another size (another pipeline) and back: a bind each time, the bindings and push constants stay.
    info.size.x = 128;
    REQUIRE_OK(stream->dispatch(info));
    info.size.x = 64;
    REQUIRE_OK(stream->dispatch(info));
    REQUIRE_OK(stream->dispatch(info));
    CHECK(take_state_changes() == StateChanges{2, 0, 0});
    // A buffer changed in place: new descriptors; new push constant contents: pushed again.
    bindings[1].buffer = c.get();
    REQUIRE_OK(stream->dispatch(info));
    CHECK(take_state_changes() == StateChanges{0, 0, 1});
    push.add = 10;
    REQUIRE_OK(stream->dispatch(info));
    CHECK(take_state_changes() == StateChanges{0, 1, 0});
    // A request between two identical dispatches is recorded before the second.
    take_log();
    REQUIRE_OK(stream->memory_barrier(kBarrierStorage));
    REQUIRE_OK(stream->dispatch(info));
    REQUIRE_OK(stream->dispatch(info));
    CHECK(take_state_changes() == StateChanges{0, 0, 0});
    REQUIRE_OK(stream->finish());
    const std::vector<Logged> log = take_log();
    REQUIRE(kinds(log).size() >= 3);
    CHECK(kinds(log)[0] == Logged::Barrier);
    CHECK(log[0].scope == kShaderToStorage);
    CHECK(kinds(log)[1] == Logged::Dispatch);
    CHECK(kinds(log)[2] == Logged::Dispatch);
    CHECK(stream->stats().dispatches - dispatches_before == 11);
    // Every dispatch ran with the state it was issued with: b = 5 + 1, c = 5 + 10.
    for (uint32_t w : read_words(*stream, *b, n)) REQUIRE(w == 6);
    for (uint32_t w : read_words(*stream, *c, n)) REQUIRE(w == 15);
  }
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

// The automatic model repeats only read-only dispatches: one that writes what the previous one accessed needs a
// barrier, whatever path its state would take.
TEST_CASE("Automatic model: a repeated dispatch that writes still gets its hazard barrier", "[vulkan]") {
  ValidatedVulkan vk;
  {
    LoggedDevice logged(vk);
    Device& device = *logged.device;
    auto cache = test::make_cache(device);
    auto stream = make_stream(device, *cache, BarrierModel::Automatic, RecordingMode::Inline);
    auto shader = test::make_add_shader(device);
    constexpr uint32_t n = 256;
    auto a = test::make_buffer(device, n);
    auto b = test::make_buffer(device, n);
    REQUIRE_OK(stream->fill(*a, 0, VK_WHOLE_SIZE, 5));
    REQUIRE_OK(stream->finish());
    take_log();
    // Declared read-only: the stream may repeat these without tracking (nothing reads b here).
    BufferBinding bindings[2] = {{a.get(), 0, VK_WHOLE_SIZE, Access::Read}, {b.get(), 0, VK_WHOLE_SIZE, Access::Read}};
    const Push push{n, 1};
    DispatchInfo info{.shader = shader.get(),
                      .size = {64, 1, 1},
                      .groups = {4, 1, 1},
                      .bindings = bindings,
                      .push_constants = test::bytes_of(push)};
    REQUIRE_OK(stream->dispatch(info));
    REQUIRE_OK(stream->dispatch(info));
    // The same buffers, b now declared written (in place): a write after the earlier reads of b.
    bindings[1].access = Access::Write;
    REQUIRE_OK(stream->dispatch(info));
    REQUIRE_OK(stream->dispatch(info));  // a write after a write
    REQUIRE_OK(stream->finish());
    const std::vector<Logged> log = take_log();
    REQUIRE(kinds(log) == std::vector<Logged::Kind>{Logged::Barrier, Logged::Dispatch, Logged::Dispatch,
                                                    Logged::Barrier, Logged::Dispatch, Logged::Barrier,
                                                    Logged::Dispatch, Logged::Barrier});
    for (size_t i : {3u, 5u}) CHECK(log[i].scope.covers(HazardTracker::kHazardScope));
    for (uint32_t w : read_words(*stream, *b, n)) REQUIRE(w == 6);
  }
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}
