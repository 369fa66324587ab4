// How deep a command stream's queue of submitted batches goes (queue_depth.hpp): it starts at
// StreamOptions::initial_batches_in_flight and deepens to max_batches_in_flight only when the caller would wait for
// the oldest batch longer than it took to fill the previous one.
#include <thread>

#include "backend_fixture.hpp"
#include "bismuth/backend/queue_depth.hpp"

using namespace bismuth;
using namespace bismuth::backend;
using bismuth::test::make_stream;
using bismuth::test::ValidatedVulkan;
using namespace std::chrono_literals;

TEST_CASE("The queue depth starts at its initial value and deepens to the maximum after waits that run out") {
  QueueDepth depth(4, 32);
  CHECK(depth.limit() == 4);
  CHECK(depth.maximum() == 32);
  const auto t0 = QueueDepth::Clock::now();
  CHECK(depth.budget(t0) == QueueDepth::Clock::duration::zero());  // no batch began yet
  depth.began(t0);
  CHECK(depth.budget(t0 + 3ms) == 3ms);  // the time since the previous batch began
  depth.began(t0 + 5ms);
  CHECK(depth.budget(t0 + 6ms) == 1ms);
  depth.waited(true);  // the oldest batch completed within the budget: the GPU keeps pace
  CHECK(depth.limit() == 4);
  CHECK_FALSE(depth.deepened());
  // A budget that runs out once or twice (a stream's first batches wait for a whole batch of GPU work) keeps it.
  depth.waited(false);
  depth.waited(false);
  depth.waited(true);
  depth.waited(false);
  CHECK(depth.limit() == 4);
  CHECK_FALSE(depth.deepened());
  depth.waited(false);
  depth.waited(false);  // three in a row: the GPU is more than twice slower than the caller
  static_assert(QueueDepth::kRunOutsToDeepen == 3);
  CHECK(depth.limit() == 32);
  CHECK(depth.deepened());
  depth.waited(true);  // and the queue stays deep
  CHECK(depth.limit() == 32);
}

TEST_CASE("A queue depth of 0, or one above the maximum, is the maximum and never deepens") {
  for (uint32_t initial : {0u, 32u, 33u, 1000u}) {
    QueueDepth depth(initial, 32);
    CHECK(depth.limit() == 32);
    for (uint32_t i = 0; i < QueueDepth::kRunOutsToDeepen; ++i) depth.waited(false);
    CHECK_FALSE(depth.deepened());
  }
  CHECK(QueueDepth(1, 0).limit() == 1);  // a maximum of 0 is 1, as StreamOptions says
}

namespace {

// Inline recording, GL barriers, every dispatch its own batch: each batch is one dispatch the test sizes.
StreamOptions one_dispatch_per_batch(uint32_t initial, uint32_t maximum) {
  return {.recording = RecordingMode::Inline,
          .barriers = BarrierModel::Gl,
          .max_dispatches_per_batch = 1,
          .max_batches_in_flight = maximum,
          .initial_batches_in_flight = initial};
}

struct SpinStream {
  explicit SpinStream(ValidatedVulkan& vk, const StreamOptions& options)
      : device(test::make_device(vk)),
        cache(test::make_cache(*device)),
        stream(make_stream(*device, *cache, options)),
        shader(test::make_spin_shader(*device)),
        out(test::make_buffer(*device, 4096)) {}

  // One batch (max_dispatches_per_batch = 1) of `groups` x 64 invocations spinning `iterations` times each.
  void dispatch(uint32_t groups, uint32_t iterations) { dispatch_on(*stream, groups, iterations); }
  void dispatch_on(CommandStream& on, uint32_t groups, uint32_t iterations) {
    BufferBinding binding{out.get(), 0, VK_WHOLE_SIZE, Access::Write};
    REQUIRE_OK(on.dispatch({.shader = shader.get(),
                            .size = {64, 1, 1},
                            .groups = {groups, 1, 1},
                            .bindings = {&binding, 1},
                            .push_constants = test::bytes_of(iterations)}));
  }

  // Iterations for which one dispatch of `groups` groups keeps the device busy for at least `target`, doubling from
  // `start`, timed on a stream of their own (this stream's counters stay the test's): lavapipe takes milliseconds
  // for the spins these tests start from, an H200 microseconds, which would keep pace with any caller.
  uint32_t iterations_lasting(uint32_t groups, uint32_t start, std::chrono::milliseconds target) {
    std::unique_ptr<CommandStream> timing = make_stream(*device, *cache, {.recording = RecordingMode::Inline});
    auto run = [&](uint32_t iterations) {
      dispatch_on(*timing, groups, iterations);
      REQUIRE_OK(timing->finish());
    };
    run(1);  // the pipeline's first use
    uint32_t iterations = start;
    while (true) {
      const auto begin = std::chrono::steady_clock::now();
      run(iterations);
      if (std::chrono::steady_clock::now() - begin >= target || iterations >= (1u << 28)) return iterations;
      iterations *= 2;
    }
  }

  std::unique_ptr<Device> device;
  std::unique_ptr<PipelineCache> cache;
  std::unique_ptr<CommandStream> stream;
  std::shared_ptr<Shader> shader;
  std::shared_ptr<Buffer> out;
};

}  // namespace

TEST_CASE("A stream deepens its queue when the GPU is far slower than the caller, and never goes past the maximum",
          "[vulkan]") {
  // Each batch is one dispatch that runs for milliseconds on the device and takes the caller microseconds to record
  // and submit: the wait at the initial depth runs out, and the queue deepens rather than hold the caller back.
  ValidatedVulkan vk;
  {
    SpinStream s(vk, one_dispatch_per_batch(2, 6));
    const uint32_t iterations = s.iterations_lasting(64, 20000, 5ms);
    for (int i = 0; i < 12; ++i) s.dispatch(64, iterations);
    const StreamStats stats = s.stream->stats();
    CHECK(stats.queue_deepened);
    CHECK(stats.depth_waits >= QueueDepth::kRunOutsToDeepen);
    CHECK(stats.batches_created > 3);   // deeper than 2 in flight + 1 recording
    CHECK(stats.batches_created <= 7);  // 6 in flight + 1 recording at most
    CHECK(stats.submissions == 12);
    INFO(stats.to_string());
    CHECK(stats.to_string().find("queue deepened") != std::string::npos);
    REQUIRE_OK(s.stream->finish());
  }
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("A stream whose GPU keeps pace keeps its initial depth, and reuses its batches", "[vulkan]") {
  // The caller takes far longer per batch than the device runs it: whenever the queue is full the oldest batch is
  // (nearly) done, so the queue never deepens and the same few command buffers are filled again and again.
  ValidatedVulkan vk;
  {
    SpinStream s(vk, one_dispatch_per_batch(2, 32));
    for (int i = 0; i < 12; ++i) {
      s.dispatch(1, 1);
      std::this_thread::sleep_for(20ms);
    }
    REQUIRE_OK(s.stream->finish());
    const StreamStats stats = s.stream->stats();
    INFO(stats.to_string());
    CHECK_FALSE(stats.queue_deepened);
    CHECK(stats.batches_created <= 3);
    CHECK(stats.submissions == 12);
  }
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("With an initial depth of 0 the queue is as deep as the maximum from the start", "[vulkan]") {
  ValidatedVulkan vk;
  {
    SpinStream s(vk, one_dispatch_per_batch(0, 5));
    for (int i = 0; i < 10; ++i) s.dispatch(64, 20000);
    const StreamStats stats = s.stream->stats();
    CHECK(stats.depth_waits == 0);  // only the maximum's unbounded waits
    CHECK_FALSE(stats.queue_deepened);
    CHECK(stats.batches_created <= 6);
    REQUIRE_OK(s.stream->finish());
  }
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("A stream that deepened computes what a stream at its initial depth computes", "[vulkan]") {
  // Deepening changes how many command buffers take turns, never which commands run in which order.
  ValidatedVulkan vk;
  {
    std::vector<std::vector<uint32_t>> results;
    for (uint32_t initial : {1u, 0u}) {
      SpinStream s(vk, {.recording = RecordingMode::Inline,
                        .max_dispatches_per_batch = 1,
                        .max_batches_in_flight = 4,
                        .initial_batches_in_flight = initial});
      for (uint32_t i = 0; i < 8; ++i) s.dispatch(64, 2000 + i);
      results.push_back(test::read_words(*s.stream, *s.out, 4096));
    }
    CHECK(results[0] == results[1]);
  }
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("A recording thread records into command buffers of its own and waits for the GPU, not the caller",
          "[vulkan]") {
  // One recording thread, every batch one dispatch that spins for milliseconds on the device: the caller issues
  // all of them without a bounded wait of its own (no depth waits, the queue's initial depth of 2 does not apply to
  // a thread's batches), while the thread keeps at most 2 of its command buffers in flight and waits for the GPU to
  // complete the oldest before recording into it again. BISMUTH_STATS's line names each timed part.
  ValidatedVulkan vk;
  {
    StreamOptions options = one_dispatch_per_batch(2, 32);
    options.recording = RecordingMode::Thread;
    options.recording_threads = 1;
    options.lane_batches_in_flight = 2;
    options.inline_batch_dispatches = 0;  // every batch goes to the thread
    SpinStream s(vk, options);
    REQUIRE(s.stream->records_on_thread());
    const uint32_t iterations = s.iterations_lasting(64, 20000, 5ms);
    for (int i = 0; i < 8; ++i) s.dispatch(64, iterations);
    REQUIRE_OK(s.stream->finish());
    const StreamStats stats = s.stream->stats();
    INFO(stats.to_string());
    CHECK(stats.depth_waits == 0);
    CHECK(stats.depth_wait_gpu_ns == 0);
    CHECK(stats.inline_batches == 0);
    CHECK(stats.submissions == 8);
    CHECK(stats.lane_command_buffers >= 1);
    CHECK(stats.lane_command_buffers <= 3);  // 2 in flight and the one it records into at most
    CHECK(stats.recording_gpu_wait_ns > 0);  // 8 batches through at most 3 command buffers
    CHECK(stats.recording_submit_ns > 0);
    CHECK(stats.batch_begin_ns > 0);
    CHECK(stats.to_string().find("ms waiting for the GPU, ") != std::string::npos);
  }
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("A stream whose thread reuses its command buffers computes what an inline stream computes", "[vulkan]") {
  // The thread's own command buffers, reset and filled again, hold the same commands in the same order.
  ValidatedVulkan vk;
  {
    std::vector<std::vector<uint32_t>> results;
    for (RecordingMode mode : {RecordingMode::Inline, RecordingMode::Thread}) {
      SpinStream s(vk, {.recording = mode,
                        .max_dispatches_per_batch = 1,
                        .lane_batches_in_flight = 1,
                        .inline_batch_dispatches = 0,
                        .recording_threads = 2});
      for (uint32_t i = 0; i < 12; ++i) s.dispatch(64, 2000 + i);
      results.push_back(test::read_words(*s.stream, *s.out, 4096));
      if (mode == RecordingMode::Thread) CHECK(s.stream->stats().lane_command_buffers <= 4);  // 2 lanes x (1 + 1)
    }
    CHECK(results[0] == results[1]);
  }
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}
