// The per-size pipeline cache: key, hits, single flight, LRU bounds, deferred
// destruction, prewarm, statistics.
#include <unistd.h>
#include <chrono>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>
#include <thread>

#include "backend_fixture.hpp"

using namespace bismuth;
using namespace bismuth::backend;
using bismuth::test::ValidatedVulkan;

TEST_CASE("The key distinguishes every field and equal requests give equal keys", "[vulkan]") {
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk);
    auto add = test::make_add_shader(*device);
    auto add_again = test::make_add_shader(*device, "same source, another object");
    auto probe = test::make_probe_shader(*device);
    const SpecValue spec_a[] = {{3, 1}};
    const SpecValue spec_b[] = {{3, 2}};
    const PipelineRequest base{add.get(), {64, 1, 1}, 0, {}};
    const PipelineKey k = PipelineKey::make(base);
    CHECK(PipelineKey::make({add_again.get(), {64, 1, 1}, 0, {}}) == k);  // content, not object identity
    std::vector<PipelineKey> different = {
        PipelineKey::make({probe.get(), {64, 1, 1}, 0, {}}),   PipelineKey::make({add.get(), {32, 1, 1}, 0, {}}),
        PipelineKey::make({add.get(), {64, 2, 1}, 0, {}}),     PipelineKey::make({add.get(), {64, 1, 2}, 0, {}}),
        PipelineKey::make({add.get(), {64, 1, 1}, 8, {}}),     PipelineKey::make({add.get(), {64, 1, 1}, 0, spec_a}),
        PipelineKey::make({add.get(), {64, 1, 1}, 0, spec_b}),
    };
    std::set<uint64_t> hashes{k.hash};
    for (const PipelineKey& d : different) {
      CHECK_FALSE(d == k);
      hashes.insert(d.hash);
    }
    CHECK(hashes.size() == different.size() + 1);
  }
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("A second request for the same key is a hit returning the same pipeline", "[vulkan]") {
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk);
    auto cache = test::make_cache(*device);
    auto shader = test::make_add_shader(*device);
    auto first = cache->get_or_compile({shader.get(), {64, 1, 1}, 0, {}});
    REQUIRE(first);
    auto second = cache->get_or_compile({shader.get(), {64, 1, 1}, 0, {}});
    REQUIRE(second);
    CHECK((*first)->handle() == (*second)->handle());
    CHECK(cache->find(PipelineKey::make({shader.get(), {64, 1, 1}, 0, {}})) != nullptr);
    CHECK(cache->find(PipelineKey::make({shader.get(), {65, 1, 1}, 0, {}})) == nullptr);
    const PipelineCacheStats stats = cache->stats();
    CHECK(stats.hits == 2);  // get_or_compile + find
    CHECK(stats.misses == 1);
    CHECK(stats.compiles == 1);
    CHECK(stats.entries == 1);
    CHECK(stats.compile_ns_total > 0);
    uint64_t histogram_total = 0;
    for (uint64_t n : stats.compile_histogram) histogram_total += n;
    CHECK(histogram_total == 1);
  }
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("Concurrent misses for one key compile once", "[vulkan]") {
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk);
    auto cache = test::make_cache(*device, [] {
      auto o = test::quiet_cache_options();
      o.prewarm_threads = 1;
      return o;
    }());
    auto shader = test::make_add_shader(*device);
    for (uint32_t round = 0; round < 5; ++round) {
      std::vector<std::thread> threads;
      std::vector<VkPipeline> seen(8, VK_NULL_HANDLE);
      for (int t = 0; t < 8; ++t) {
        threads.emplace_back([&, t] {
          auto p = cache->get_or_compile({shader.get(), {16 + round, 1, 1}, 0, {}});
          if (p) seen[t] = (*p)->handle();
        });
      }
      for (auto& th : threads) th.join();
      for (VkPipeline p : seen) CHECK(p == seen[0]);
      CHECK(seen[0] != VK_NULL_HANDLE);
    }
    const PipelineCacheStats stats = cache->stats();
    CHECK(stats.compiles == 5);
    CHECK(stats.hits + stats.misses == 40);
  }
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("A required subgroup size is honoured within the device's range and refused outside", "[vulkan]") {
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk);
    auto cache = test::make_cache(*device);
    auto shader = test::make_add_shader(*device);
    const DeviceInfo& info = device->info();
    if (device->features().subgroup_size_control &&
        (info.required_subgroup_size_stages & VK_SHADER_STAGE_COMPUTE_BIT)) {
      auto ok = cache->get_or_compile({shader.get(), {64, 1, 1}, info.min_subgroup_size, {}});
      REQUIRE(ok);
      auto any = cache->get_or_compile({shader.get(), {64, 1, 1}, 0, {}});
      REQUIRE(any);
      CHECK((*ok)->handle() != (*any)->handle());
    }
    auto bad = cache->get_or_compile({shader.get(), {64, 1, 1}, 3, {}});
    REQUIRE_FALSE(bad);
    CHECK_THAT(bad.error().message, Catch::Contains("subgroup"));
    auto too_big = cache->get_or_compile({shader.get(), {info.max_compute_work_group_invocations + 1, 1, 1}, 0, {}});
    REQUIRE_FALSE(too_big);
    CHECK_THAT(too_big.error().message, Catch::Contains("device limits"));
    CHECK(cache->stats().compile_failures == 2);
    CHECK(cache->size() == (device->features().subgroup_size_control ? 2u : 0u));
  }
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("The cache evicts the least recently used entries beyond its entry budget", "[vulkan]") {
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk);
    auto options = test::quiet_cache_options();
    options.max_entries = 3;
    auto cache = test::make_cache(*device, options);
    auto shader = test::make_add_shader(*device);
    auto get = [&](uint32_t x) {
      auto p = cache->get_or_compile({shader.get(), {x, 1, 1}, 0, {}});
      REQUIRE(p);
      return *p;
    };
    get(1);
    get(2);
    get(3);
    get(1);  // 1 is now more recent than 2
    get(4);  // evicts 2
    CHECK(cache->size() == 3);
    CHECK(cache->stats().evictions == 1);
    auto key = [&](uint32_t x) { return PipelineKey::make({shader.get(), {x, 1, 1}, 0, {}}); };
    CHECK(cache->find(key(1)) != nullptr);
    CHECK(cache->find(key(2)) == nullptr);
    CHECK(cache->find(key(3)) != nullptr);
    CHECK(cache->find(key(4)) != nullptr);
    const uint64_t compiles = cache->stats().compiles;
    get(2);  // a miss again
    CHECK(cache->stats().compiles == compiles + 1);
  }
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("The cache evicts beyond its byte budget", "[vulkan]") {
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk);
    auto options = test::quiet_cache_options();
    options.bytes_per_pipeline = 1000;
    options.bytes_per_spirv_byte = 0;
    options.max_bytes = 2500;  // two pipelines
    auto cache = test::make_cache(*device, options);
    auto shader = test::make_add_shader(*device);
    for (uint32_t x = 1; x <= 6; ++x) REQUIRE(cache->get_or_compile({shader.get(), {x, 1, 1}, 0, {}}));
    const PipelineCacheStats stats = cache->stats();
    CHECK(stats.entries == 2);
    CHECK(stats.bytes == 2000);
    CHECK(stats.evictions == 4);
  }
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("An evicted pipeline in flight is destroyed only after its submission completed", "[vulkan]") {
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk);
    auto options = test::quiet_cache_options();
    options.max_entries = 1;
    auto cache = test::make_cache(*device, options);
    auto stream = CommandStream::create(*device, *cache);
    REQUIRE(stream);
    auto shader = test::make_spin_shader(*device);
    auto out = test::make_buffer(*device, 256);
    BufferBinding binding{out.get(), 0, VK_WHOLE_SIZE, Access::Write};
    const uint32_t iterations = 3000000;
    REQUIRE_OK((*stream)->dispatch({.shader = shader.get(),
                                    .size = {64, 1, 1},
                                    .groups = {4, 1, 1},
                                    .bindings = {&binding, 1},
                                    .push_constants = test::bytes_of(iterations)}));
    auto value = (*stream)->flush();
    REQUIRE(value);
    // Evict the in-flight pipeline by compiling another size.
    REQUIRE(cache->get_or_compile({shader.get(), {32, 1, 1}, 0, {}}));
    CHECK(cache->stats().evictions == 1);
    // The stream's front table and this thread's front cache drop their references on their next lookups.
    REQUIRE_OK((*stream)->dispatch({.shader = shader.get(),
                                    .size = {32, 1, 1},
                                    .groups = {1, 1, 1},
                                    .bindings = {&binding, 1},
                                    .push_constants = test::bytes_of(iterations)}));
    const PipelineRequest next{shader.get(), {32, 1, 1}, 0, {}};
    REQUIRE(cache->acquire(PipelineKey::make(next), next));
    // Either the GPU already finished, or the destruction waits in the deferred list; never destroyed early.
    const size_t deferred = device->deferred_count();
    CHECK((deferred >= 1 || device->is_complete(*value)));
    REQUIRE_OK((*stream)->finish());
    CHECK(device->deferred_count() == 0);
  }
  // Destroying it early would be VUID-vkDestroyPipeline-pipeline-00765.
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("Prewarm compiles likely sizes in the background so that first use is a hit", "[vulkan]") {
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk);
    auto cache = test::make_cache(*device);
    auto shader = test::make_add_shader(*device);
    const std::vector<GroupSize> sizes = {{64, 1, 1}, {128, 1, 1}, {24, 1, 1}, {8, 8, 1}};
    cache->prewarm(shader, sizes);
    cache->wait_prewarm_idle();
    PipelineCacheStats stats = cache->stats();
    CHECK(stats.prewarm_compiles == 4);
    CHECK(stats.entries == 4);
    for (const GroupSize& s : sizes) REQUIRE(cache->get_or_compile({shader.get(), s, 0, {}}));
    stats = cache->stats();
    CHECK(stats.hits == 4);
    CHECK(stats.misses == 0);
    CHECK(stats.compiles == 4);
  }
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("A foreground miss for a size being prewarmed joins that compile", "[vulkan]") {
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk);
    auto options = test::quiet_cache_options();
    options.prewarm_threads = 1;
    auto cache = test::make_cache(*device, options);
    auto shader = test::make_add_shader(*device);
    // Many sizes queued; ask for each one right away: whichever is being compiled by the worker at that moment
    // is joined, the rest compile in the foreground. Either way every size compiles exactly once.
    std::vector<GroupSize> sizes;
    for (uint32_t x = 1; x <= 48; ++x) sizes.push_back({x, 1, 1});
    cache->prewarm(shader, sizes);
    for (const GroupSize& s : sizes) REQUIRE(cache->get_or_compile({shader.get(), s, 0, {}}));
    cache->wait_prewarm_idle();
    const PipelineCacheStats stats = cache->stats();
    CHECK(stats.compiles == sizes.size());
    CHECK(stats.entries == sizes.size());
    CHECK(stats.hits + stats.misses == sizes.size());
    CHECK(stats.prewarm_joins <= stats.misses);
  }
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("Prewarm without sizes uses the configured set", "[vulkan]") {
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk);
    auto options = test::quiet_cache_options();
    options.prewarm_sizes = {{8, 1, 1}, {16, 1, 1}, {4, 4, 1}};
    auto cache = test::make_cache(*device, options);
    auto shader = test::make_add_shader(*device);
    cache->prewarm(shader);
    cache->wait_prewarm_idle();
    CHECK(cache->stats().prewarm_compiles == 3);
    for (const GroupSize& s : options.prewarm_sizes) {
      CHECK(cache->find(PipelineKey::make({shader.get(), s, 0, {}})) != nullptr);
    }
  }
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("Cancelling prewarm drops the queued sizes", "[vulkan]") {
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk);
    auto options = test::quiet_cache_options();
    options.prewarm_threads = 1;
    auto cache = test::make_cache(*device, options);
    auto shader = test::make_add_shader(*device);
    std::vector<GroupSize> sizes;
    for (uint32_t x = 1; x <= 200; ++x) sizes.push_back({x, 1, 1});
    cache->prewarm(shader, sizes);
    cache->cancel_prewarm();
    cache->wait_prewarm_idle();
    CHECK(cache->stats().prewarm_compiles < sizes.size());
  }
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("A delayed prewarm starts after its delay, and cancelling before then compiles nothing", "[vulkan]") {
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk);
    auto options = test::quiet_cache_options();
    options.prewarm_threads = 2;
    auto cache = test::make_cache(*device, options);
    auto dropped = test::make_add_shader(*device);
    auto kept = test::make_add_shader(*device);
    const std::vector<GroupSize> sizes = {{64, 1, 1}, {128, 1, 1}, {32, 1, 1}};
    const auto start = std::chrono::steady_clock::now();
    // A program deleted right after its first dispatch: its prewarm is dropped before its delay ends.
    cache->prewarm(dropped, sizes, 0, std::chrono::milliseconds(10000));
    cache->cancel_prewarm(*dropped);
    // A program that lives on: its prewarm runs once the delay has passed, and not before — also when the workers
    // went to sleep before it was queued (until the next save, a minute away).
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    cache->prewarm(kept, sizes, 0, std::chrono::milliseconds(150));
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    CHECK(cache->stats().prewarm_compiles == 0);
    cache->wait_prewarm_idle();
    CHECK(std::chrono::steady_clock::now() - start >= std::chrono::milliseconds(150));
    CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(20));  // not at the save interval
    const PipelineCacheStats stats = cache->stats();
    CHECK(stats.prewarm_compiles == 3);
    for (const GroupSize& s : sizes) REQUIRE(cache->get_or_compile({kept.get(), s, 0, {}}));
    CHECK(cache->stats().hits == 3);
    // A background compile of an exact size (compile_in_background) is due at once, ahead of delayed prewarm.
    cache->prewarm(dropped, sizes, 0, std::chrono::milliseconds(10000));
    REQUIRE(cache->compile_in_background(dropped, {16, 1, 1}, 0));
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (cache->stats().prewarm_compiles < 4 && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    CHECK(cache->stats().prewarm_compiles == 4);
    cache->cancel_prewarm(*dropped);
  }
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

namespace {

// A cache whose prewarm waits `quiet` after a stream's last batch (PipelineCacheOptions::prewarm_stream_quiet).
std::unique_ptr<PipelineCache> make_stream_quiet_cache(Device& device, uint32_t prewarm_threads,
                                                       std::chrono::milliseconds quiet) {
  auto options = test::quiet_cache_options();
  options.prewarm_threads = prewarm_threads;
  options.prewarm_stream_quiet = quiet;
  return test::make_cache(device, options);
}

}  // namespace

TEST_CASE("Prewarm waits while a stream of dispatches runs, a background compile a dispatch waits for does not",
          "[vulkan]") {
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk);
    auto cache = make_stream_quiet_cache(*device, 2, std::chrono::milliseconds(400));
    auto speculative = test::make_add_shader(*device);
    auto wanted = test::make_add_shader(*device);
    const std::vector<GroupSize> sizes = {{64, 1, 1}, {128, 1, 1}, {32, 1, 1}};
    const auto streamed = std::chrono::steady_clock::now();
    cache->note_stream_batch();  // a CommandStream recorded a long batch
    cache->prewarm(speculative, sizes);
    REQUIRE(cache->compile_in_background(wanted, {16, 1, 1}, 0));
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (cache->stats().prewarm_compiles < 1 && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    REQUIRE(cache->stats().prewarm_compiles >= 1);
    // Still within the quiet time (unless this machine stalled for it): only the wanted compile ran.
    if (std::chrono::steady_clock::now() - streamed < std::chrono::milliseconds(300)) {
      CHECK(cache->stats().prewarm_compiles == 1);
      CHECK(cache->find(PipelineKey::make({wanted.get(), {16, 1, 1}, 0, {}})));
    }
    // The speculative sizes start once no stream batch came for the quiet time.
    cache->wait_prewarm_idle();
    CHECK(std::chrono::steady_clock::now() - streamed >= std::chrono::milliseconds(400));
    CHECK(cache->stats().prewarm_compiles == 1 + sizes.size());
  }
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("A stream of dispatches holds prewarm back, recorded inline or on recording threads", "[vulkan]") {
  const RecordingMode recording = GENERATE(RecordingMode::Inline, RecordingMode::Thread);
  CAPTURE(int(recording));
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk);
    auto cache = make_stream_quiet_cache(*device, 1, std::chrono::milliseconds(400));
    auto stream = test::make_stream(
        *device, *cache, {.recording = recording, .barriers = BarrierModel::Gl, .inline_batch_dispatches = 0});
    auto shader = test::make_add_shader(*device);
    auto a = test::make_buffer(*device, 64);
    auto b = test::make_buffer(*device, 64);
    BufferBinding bindings[2] = {{a.get(), 0, VK_WHOLE_SIZE, Access::Read}, {b.get(), 0, VK_WHOLE_SIZE, Access::Write}};
    const uint32_t push[2] = {64, 1};
    const DispatchInfo info{.shader = shader.get(),
                            .size = {64, 1, 1},
                            .groups = {1, 1, 1},
                            .bindings = bindings,
                            .push_constants = test::bytes_of(push)};
    // 40 identical dispatches in one batch: a stream (the later ones take the inline repeat path, which must still
    // hand the batch's 32nd dispatch to the part of the stream that notes it).
    const auto before = std::chrono::steady_clock::now();
    for (int i = 0; i < 40; ++i) REQUIRE_OK(stream->dispatch(info));
    REQUIRE_OK(stream->finish());
    cache->prewarm(shader, {{32, 1, 1}, {128, 1, 1}});
    cache->wait_prewarm_idle();
    CHECK(std::chrono::steady_clock::now() - before >= std::chrono::milliseconds(400));
    CHECK(cache->stats().prewarm_compiles == 2);
  }
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("Default prewarm sizes: powers of two and subgroup multiples within the limits, 1-D first", "[vulkan]") {
  DeviceInfo info;
  info.subgroup_size = 32;
  info.max_compute_work_group_size = {1024, 1024, 64};
  info.max_compute_work_group_invocations = 1024;
  const auto sizes = PipelineCache::default_prewarm_sizes(info, 1000);
  std::set<uint32_t> one_d;
  bool seen_2d = false;
  for (const GroupSize& s : sizes) {
    CHECK(uint64_t(s.x) * s.y * s.z <= 1024);
    if (s.y == 1 && s.z == 1) {
      CHECK_FALSE(seen_2d);
      one_d.insert(s.x);
    } else {
      seen_2d = true;
    }
  }
  for (uint32_t p = 1; p <= 1024; p *= 2) CHECK(one_d.count(p) == 1);
  for (uint32_t m = 32; m <= 1024; m += 32) CHECK(one_d.count(m) == 1);
  CHECK(seen_2d);
  CHECK(PipelineCache::default_prewarm_sizes(info, 10).size() == 10);
}

TEST_CASE("BISMUTH_STATS=1 prints the statistics when the cache is destroyed", "[vulkan]") {
  ValidatedVulkan vk;
  std::string printed;
  {
    auto device = test::make_device(vk);
    auto options = test::quiet_cache_options();
    options.print_stats_at_exit.reset();
    setenv("BISMUTH_STATS", "1", 1);
    auto cache = test::make_cache(*device, options);
    auto shader = test::make_add_shader(*device);
    REQUIRE(cache->get_or_compile({shader.get(), {64, 1, 1}, 0, {}}));
    REQUIRE(cache->get_or_compile({shader.get(), {64, 1, 1}, 0, {}}));
    // Capture stderr around the destructor.
    std::fflush(stderr);
    char path[] = "/tmp/bismuth-stats-XXXXXX";
    const int fd = mkstemp(path);
    REQUIRE(fd >= 0);
    const int saved = dup(2);
    dup2(fd, 2);
    cache.reset();
    std::fflush(stderr);
    dup2(saved, 2);
    close(saved);
    close(fd);
    unsetenv("BISMUTH_STATS");
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    printed = text.str();
    std::remove(path);
  }
  CHECK_THAT(printed, Catch::Contains("1 hits, 1 misses, 1 compiles"));
  CHECK_THAT(printed, Catch::Contains("compile time histogram"));
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

namespace {

// The probe plus a specialization constant (id 3) that the Vulkan layer would pass as the application's.
constexpr const char* kProbePlusShader = R"(#version 450
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;
layout(constant_id = 3) const uint kExtra = 0;
layout(std430, binding = 0) buffer Out { uint words[]; };
void main() {
  if (gl_LocalInvocationIndex == 0) words[gl_WorkGroupID.x] = gl_WorkGroupSize.x * gl_WorkGroupSize.y + kExtra;
}
)";

std::shared_ptr<Shader> make_probe_plus(Device& device, std::optional<uint32_t> extra,
                                        VkPipelineCreateFlags flags = 0) {
  ShaderDesc desc;
  desc.spirv = test::spirv_of(kProbePlusShader);
  desc.layout = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}, 0};
  desc.name = "probe+";
  if (extra) {
    desc.specialization_entries = {{3, 4, sizeof(uint32_t)}};  // at offset 4: offsets are kept as given
    desc.specialization_data.resize(8);
    std::memcpy(desc.specialization_data.data() + 4, &*extra, sizeof(uint32_t));
  }
  desc.pipeline_flags = flags;
  auto shader = Shader::create(device, desc);
  if (!shader) FAIL(shader.error().message);
  return std::move(*shader);
}

}  // namespace

TEST_CASE("A shader's fixed specialization constants and flags reach its pipelines and its key", "[vulkan]") {
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk);
    auto cache = test::make_cache(*device);
    auto plain = make_probe_plus(*device, std::nullopt);
    auto with_1000 = make_probe_plus(*device, 1000u);
    auto with_1000_again = make_probe_plus(*device, 1000u);
    auto with_7 = make_probe_plus(*device, 7u);
    auto unoptimised = make_probe_plus(*device, 1000u, VK_PIPELINE_CREATE_DISABLE_OPTIMIZATION_BIT);
    const GroupSize size{16, 2, 1};
    const PipelineKey k_plain = PipelineKey::make({plain.get(), size, 0, {}});
    const PipelineKey k_1000 = PipelineKey::make({with_1000.get(), size, 0, {}});
    CHECK(PipelineKey::make({with_1000_again.get(), size, 0, {}}) == k_1000);
    CHECK_FALSE(k_plain == k_1000);
    CHECK_FALSE(PipelineKey::make({with_7.get(), size, 0, {}}) == k_1000);
    CHECK_FALSE(PipelineKey::make({unoptimised.get(), size, 0, {}}) == k_1000);
    CHECK(unoptimised->pipeline_flags() == VK_PIPELINE_CREATE_DISABLE_OPTIMIZATION_BIT);

    auto stream = CommandStream::create(*device, *cache);
    REQUIRE(stream);
    auto out = test::make_buffer(*device, 4);
    BufferBinding binding{out.get(), 0, VK_WHOLE_SIZE, Access::Write};
    auto run = [&](const Shader& shader) {
      REQUIRE_OK(
          (*stream)->dispatch({.shader = &shader, .size = size, .groups = {4, 1, 1}, .bindings = {&binding, 1}}));
      std::vector<uint32_t> words(4);
      REQUIRE_OK((*stream)->readback(*out, 0, std::as_writable_bytes(std::span(words))));
      return words[3];
    };
    CHECK(run(*plain) == 32);
    CHECK(run(*with_1000) == 1032);
    CHECK(run(*with_7) == 39);
    CHECK(run(*unoptimised) == 1032);

    ShaderDesc bad;
    bad.spirv = test::spirv_of(kProbePlusShader);
    bad.layout = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}, 0};
    bad.specialization_entries = {{3, 4, sizeof(uint32_t)}};
    bad.specialization_data.resize(6);
    auto refused = Shader::create(*device, bad);
    REQUIRE_FALSE(refused);
    CHECK_THAT(refused.error().message, Catch::Contains("outside the data"));
  }
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("erase removes one shader's entries, cancels its prewarm and leaves the others", "[vulkan]") {
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk);
    auto options = test::quiet_cache_options();
    options.prewarm_threads = 1;
    auto cache = test::make_cache(*device, options);
    auto a = make_probe_plus(*device, 1u);
    auto b = make_probe_plus(*device, 2u);
    std::vector<GroupSize> many;
    for (uint32_t x = 1; x <= 200; ++x) many.push_back({x, 1, 1});
    const std::vector<GroupSize> few = {{8, 1, 1}, {16, 1, 1}, {4, 4, 1}};
    cache->prewarm(a, many);
    cache->prewarm(b, few);
    cache->cancel_prewarm(*a);  // b's queued sizes stay queued
    cache->wait_prewarm_idle();
    for (const GroupSize& s : few) CHECK(cache->find(PipelineKey::make({b.get(), s, 0, {}})) != nullptr);
    const uint64_t a_prewarmed = cache->stats().prewarm_compiles - few.size();
    CHECK(a_prewarmed < many.size());

    for (uint32_t x : {32u, 64u}) {
      REQUIRE(cache->get_or_compile({a.get(), {x, 1, 1}, 0, {}}));
      REQUIRE(cache->get_or_compile({b.get(), {x, 1, 1}, 0, {}}));
    }
    CHECK(cache->size() == few.size() + 2 + a_prewarmed + 2);
    // Prewarm again and erase at once: erase waits for a running compile of `a`, and none starts afterwards.
    cache->prewarm(a, many);
    const size_t erased = cache->erase(*a);
    CHECK(erased >= 2 + a_prewarmed);
    cache->wait_prewarm_idle();
    CHECK(cache->size() == few.size() + 2);  // b's entries only
    for (uint32_t x = 1; x <= 200; ++x) CHECK(cache->find(PipelineKey::make({a.get(), {x, 1, 1}, 0, {}})) == nullptr);
    CHECK(cache->find(PipelineKey::make({a.get(), {64, 1, 1}, 0, {}})) == nullptr);
    CHECK(cache->find(PipelineKey::make({b.get(), {64, 1, 1}, 0, {}})) != nullptr);
    for (const GroupSize& s : few) CHECK(cache->find(PipelineKey::make({b.get(), s, 0, {}})) != nullptr);
    CHECK(cache->erase(*a) == 0);
    // Nothing was submitted: the erased pipelines were destroyed at once.
    CHECK(device->deferred_count() == 0);
    const uint64_t compiles = cache->stats().compiles;
    REQUIRE(cache->get_or_compile({a.get(), {64, 1, 1}, 0, {}}));
    CHECK(cache->stats().compiles == compiles + 1);
  }
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}
