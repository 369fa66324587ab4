// Concurrency: 8 threads dispatch mixed sizes through one Device and one PipelineCache for
// several seconds. Built twice: in backend_tests and, instrumented with ThreadSanitizer, as
// backend_concurrency_tsan (tests/layer/backend/CMakeLists.txt). Checks: no error, correct results, exactly one
// compile per key, and — with a tiny budget that evicts constantly — no pipeline destroyed while in flight
// (the validation layer would report VUID-vkDestroyPipeline-pipeline-00765).
#include <chrono>
#include <cstdlib>
#include <set>
#include <thread>

#include "backend_fixture.hpp"

using namespace bismuth;
using namespace bismuth::backend;
using bismuth::test::ValidatedVulkan;

namespace {

double test_seconds() {
  const char* env = std::getenv("BISMUTH_CONCURRENCY_SECONDS");
  return env != nullptr ? std::atof(env) : 3.0;
}

struct Totals {
  std::atomic<uint64_t> dispatches{0};
  std::atomic<uint64_t> front_table_hits{0};
  std::atomic<uint64_t> failures{0};
  std::mutex mutex;
  std::vector<std::string> messages;
};

// One thread: its own stream and buffers; sizes cycle through a mix that overlaps with the other threads'.
void hammer(Device& device, PipelineCache& cache, const std::shared_ptr<Shader>& shader, int thread, double seconds,
            Totals& totals) {
  auto fail_with = [&](const std::string& m) {
    totals.failures.fetch_add(1);
    std::lock_guard lock(totals.mutex);
    totals.messages.push_back(m);
  };
  auto stream = CommandStream::create(device, cache, {.max_dispatches_per_batch = 64});
  if (!stream) return fail_with(stream.error().message);
  constexpr uint32_t n = 512;
  auto src = Buffer::create(device, n * 4);
  auto dst = Buffer::create(device, n * 4);
  if (!src || !dst) return fail_with("buffer creation failed");
  std::vector<uint32_t> input(n);
  for (uint32_t i = 0; i < n; ++i) input[i] = i * 3 + thread;
  if (auto ok = (*stream)->upload(**src, 0, test::bytes_of(input)); !ok) return fail_with(ok.error().message);
  static constexpr uint32_t kSizes[] = {1, 2, 3, 4, 8, 16, 24, 32, 48, 64, 96, 128, 256};
  const auto start = std::chrono::steady_clock::now();
  uint32_t round = 0;
  while (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < seconds) {
    const uint32_t size = kSizes[(round * 7 + thread * 3) % std::size(kSizes)];
    const uint32_t add = round % 1000;
    const uint32_t push[2] = {n, add};
    BufferBinding bindings[2] = {{src->get(), 0, VK_WHOLE_SIZE, Access::Read},
                                 {dst->get(), 0, VK_WHOLE_SIZE, Access::Write}};
    auto ok = (*stream)->dispatch({.shader = shader.get(), .size = {size, 1, 1}, .groups = {(n + size - 1) / size, 1, 1},
                                   .bindings = bindings, .push_constants = std::as_bytes(std::span(push))});
    if (!ok) return fail_with(ok.error().message);
    totals.dispatches.fetch_add(1, std::memory_order_relaxed);
    if (round % 16 == 15) {
      std::vector<uint32_t> out(n);
      if (auto read = (*stream)->readback(**dst, 0, std::as_writable_bytes(std::span(out))); !read) {
        return fail_with(read.error().message);
      }
      for (uint32_t i = 0; i < n; ++i) {
        if (out[i] != input[i] + add) {
          return fail_with("thread " + std::to_string(thread) + ": word " + std::to_string(i) + " wrong at size " +
                           std::to_string(size));
        }
      }
    }
    ++round;
  }
  if (auto ok = (*stream)->finish(); !ok) fail_with(ok.error().message);
  totals.front_table_hits.fetch_add((*stream)->stats().front_table_hits);
}

void run(size_t max_entries, bool expect_one_compile_per_key) {
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk);
    auto options = test::quiet_cache_options();
    options.max_entries = max_entries;
    auto cache = test::make_cache(*device, options);
    auto shader = test::make_add_shader(*device);
    // Background prewarm of some of the same sizes races with the threads' foreground misses: each key must
    // still compile once (a foreground miss joins a running prewarm compile).
    cache->prewarm(shader, {{256, 1, 1}, {128, 1, 1}, {96, 1, 1}, {64, 1, 1}, {48, 1, 1}, {32, 1, 1}});
    Totals totals;
    std::vector<std::thread> threads;
    for (int t = 0; t < 8; ++t) {
      threads.emplace_back(
          [&, t] { hammer(*device, *cache, shader, t, test_seconds(), totals); });
    }
    for (auto& th : threads) th.join();
    for (const auto& m : totals.messages) UNSCOPED_INFO(m);
    REQUIRE(totals.failures == 0);
    CHECK(totals.dispatches > 8 * 13);
    const PipelineCacheStats stats = cache->stats();
    INFO(stats.to_string());
    if (expect_one_compile_per_key) {
      CHECK(stats.compiles == 13);  // every size in kSizes exactly once, foreground or prewarm
      CHECK(stats.evictions == 0);
    } else {
      CHECK(stats.evictions > 0);
      CHECK(stats.entries <= max_entries);
    }
    // Every dispatch was served by its stream's front table or by exactly one cache lookup.
    CHECK(stats.hits + stats.misses + totals.front_table_hits == totals.dispatches);
  }
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

}  // namespace

TEST_CASE("Eight threads with mixed sizes: one compile per key, correct results", "[vulkan][concurrency]") {
  run(4096, true);
}

TEST_CASE("Eight threads with constant eviction never destroy a pipeline in flight", "[vulkan][concurrency]") {
  run(4, false);
}

// The Vulkan layer's pattern: shaders come and go while prewarm workers compile for them and recording threads
// look up sizes of other shaders; erase(shader) must never race with a compile of that shader or lose an entry of
// another (ThreadSanitizer checks the locking in backend_concurrency_tsan).
TEST_CASE("Erasing shaders while prewarm and lookups run leaves the other shaders' entries intact",
          "[vulkan][concurrency]") {
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk);
    auto options = test::quiet_cache_options();
    options.prewarm_threads = 2;
    options.max_entries = SIZE_MAX;
    options.max_bytes = SIZE_MAX;
    auto cache = test::make_cache(*device, options);
    auto keeper = test::make_probe_shader(*device);
    std::atomic<bool> stop{false};
    std::atomic<uint64_t> failures{0};
    std::vector<std::thread> lookups;
    for (int t = 0; t < 3; ++t) {
      lookups.emplace_back([&, t] {
        uint32_t x = 1 + static_cast<uint32_t>(t);
        while (!stop.load()) {
          if (!cache->get_or_compile({keeper.get(), {x, 1, 1}, 0, {}})) failures.fetch_add(1);
          x = x % 24 + 1;
        }
      });
    }
    std::vector<GroupSize> sizes;
    for (uint32_t x = 1; x <= 32; ++x) sizes.push_back({x, 1, 1});
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(test_seconds() / 2);
    size_t rounds = 0;
    while (std::chrono::steady_clock::now() < deadline || rounds < 4) {
      auto shader = test::make_add_shader(*device, "transient");  // same SPIR-V and layout every round
      cache->prewarm(shader, sizes);
      if (!cache->get_or_compile({shader.get(), {7, 1, 1}, 0, {}})) failures.fetch_add(1);
      std::this_thread::sleep_for(std::chrono::milliseconds(rounds % 3));
      cache->erase(*shader);
      for (const GroupSize& s : sizes) {
        if (cache->find(PipelineKey::make({shader.get(), s, 0, {}})) != nullptr) failures.fetch_add(1);
      }
      ++rounds;
    }
    stop = true;
    for (auto& t : lookups) t.join();
    cache->wait_prewarm_idle();
    CHECK(failures == 0);
    for (uint32_t x = 1; x <= 24; ++x) CHECK(cache->find(PipelineKey::make({keeper.get(), {x, 1, 1}, 0, {}})) != nullptr);
    CHECK(cache->size() == 24);  // the keeper's sizes only: every transient entry was erased
  }
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}
