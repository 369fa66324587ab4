// CommandStream with a recording thread (RecordingMode::Thread): the caller encodes commands into a ring and a
// thread per stream replays them into the command buffer, then ends and submits it with the timeline value that
// flush() reserved (Device::reserve / submit_reserved). These tests force the mode, so they run on lavapipe
// too (where Automatic picks inline recording), and are also part of the ThreadSanitizer binary ([concurrency]).
#include <atomic>
#include <chrono>
#include <mutex>
#include <numeric>
#include <set>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

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

// Every batch on the thread (no inline batches), unless the test asks for them.
std::unique_ptr<CommandStream> make_threaded_stream(Device& device, PipelineCache& cache,
                                                    StreamOptions options = {.inline_batch_dispatches = 0}) {
  options.recording = RecordingMode::Thread;
  auto stream = CommandStream::create(device, cache, options);
  if (!stream) FAIL(stream.error().message);
  REQUIRE((*stream)->records_on_thread());
  return std::move(*stream);
}

// One 64-invocation dispatch b[i] = a[i] + add, which the failure tests record before and after a fault.
struct AddJob {
  static constexpr uint32_t n = 64;
  std::shared_ptr<Shader> shader;
  std::shared_ptr<Buffer> a, b;
  BufferBinding bindings[2];
  Push push;
  DispatchInfo info;
  AddJob(Device& device, uint32_t add)
      : shader(test::make_add_shader(device)),
        a(test::make_buffer(device, n)),
        b(test::make_buffer(device, n)),
        bindings{{a.get(), 0, VK_WHOLE_SIZE, Access::Read}, {b.get(), 0, VK_WHOLE_SIZE, Access::Write}},
        push{n, add},
        info{.shader = shader.get(),
             .size = {64, 1, 1},
             .groups = {1, 1, 1},
             .bindings = bindings,
             .push_constants = test::bytes_of(push)} {}
  AddJob(const AddJob&) = delete;  // info points into the object
  AddJob& operator=(const AddJob&) = delete;
};

}  // namespace

TEST_CASE("A recording thread records dispatches, copies, fills and barriers in stream order",
          "[vulkan][concurrency]") {
  // With several recording threads each batch (here: each readback's) goes to the next one.
  const uint32_t lanes = GENERATE(1u, 2u, 3u);
  CAPTURE(lanes);
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk);
    auto cache = test::make_cache(*device);
    auto stream = make_threaded_stream(*device, *cache, {.inline_batch_dispatches = 0, .recording_threads = lanes});
    REQUIRE(stream->recording_threads() == lanes);
    auto shader = test::make_add_shader(*device);
    constexpr uint32_t n = 512;
    auto a = test::make_buffer(*device, n);
    auto b = test::make_buffer(*device, n);
    auto c = test::make_buffer(*device, n);
    std::vector<uint32_t> input(n);
    std::iota(input.begin(), input.end(), 0u);
    REQUIRE_OK(stream->upload(*a, 0, test::bytes_of(input)));
    for (uint32_t round = 0; round < 20; ++round) {
      const uint32_t size = 1u << (round % 9);
      const uint32_t groups = (n + size - 1) / size;
      const Push first{n, round};
      const Push second{n, 1000};
      BufferBinding ab[2] = {{a.get(), 0, VK_WHOLE_SIZE, Access::Read}, {b.get(), 0, VK_WHOLE_SIZE, Access::Write}};
      BufferBinding bc[2] = {{b.get(), 0, VK_WHOLE_SIZE, Access::Read}, {c.get(), 0, VK_WHOLE_SIZE, Access::Write}};
      // c = (a + round) + 1000, then the first 64 words of c are cleared and its second half copied onto a's.
      REQUIRE_OK(stream->dispatch({.shader = shader.get(),
                                   .size = {size, 1, 1},
                                   .groups = {groups, 1, 1},
                                   .bindings = ab,
                                   .push_constants = test::bytes_of(first)}));
      REQUIRE_OK(stream->dispatch({.shader = shader.get(),
                                   .size = {size, 1, 1},
                                   .groups = {groups, 1, 1},
                                   .bindings = bc,
                                   .push_constants = test::bytes_of(second)}));
      REQUIRE_OK(stream->fill(*c, 0, 64 * 4, 0xFFFFFFFFu));
      REQUIRE_OK(stream->barrier());
      const auto words = read_words(*stream, *c, n);
      for (uint32_t i = 0; i < n; ++i) {
        const uint32_t want = i < 64 ? 0xFFFFFFFFu : input[i] + round + 1000;
        if (words[i] != want) FAIL("round " << round << " word " << i << ": " << words[i] << " != " << want);
      }
      REQUIRE_OK(stream->copy(*c, n * 2, *a, n * 2, n * 2));  // a's upper half = c's upper half
      for (uint32_t i = n / 2; i < n; ++i) input[i] = input[i] + round + 1000;
    }
    CHECK(stream->stats().explicit_barriers == 20);
  }
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("The recording thread's ring wraps around without losing or reordering commands", "[vulkan][concurrency]") {
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk);
    auto cache = test::make_cache(*device);
    // One batch for everything and the smallest ring (64 KiB), so that it wraps many times before the first
    // submission.
    auto stream = make_threaded_stream(
        *device, *cache,
        {.max_dispatches_per_batch = 1u << 20, .recording_ring_bytes = 1, .inline_batch_dispatches = 0});
    auto shader = test::make_add_shader(*device);
    constexpr uint32_t n = 64;
    auto x = test::make_buffer(*device, n);
    auto y = test::make_buffer(*device, n);
    REQUIRE_OK(stream->fill(*x, 0, VK_WHOLE_SIZE, 0));
    // Ping-pong x → y → x … adding k at step k: the result is the sum of every step's value, so one lost,
    // repeated or reordered dispatch (or push constant) changes it.
    constexpr uint32_t steps = 12000;
    uint32_t expected = 0;
    for (uint32_t k = 0; k < steps; ++k) {
      Buffer* from = k % 2 == 0 ? x.get() : y.get();
      Buffer* to = k % 2 == 0 ? y.get() : x.get();
      BufferBinding bindings[2] = {{from, 0, VK_WHOLE_SIZE, Access::Read}, {to, 0, VK_WHOLE_SIZE, Access::Write}};
      const Push push{n, k};
      REQUIRE_OK(stream->dispatch({.shader = shader.get(),
                                   .size = {1u + k % 64, 1, 1},
                                   .groups = {n, 1, 1},
                                   .bindings = bindings,
                                   .push_constants = test::bytes_of(push)}));
      expected += k;
    }
    CHECK(stream->stats().submissions == 0);
    const auto words = read_words(*stream, steps % 2 == 0 ? *x : *y, n);
    for (uint32_t i = 0; i < n; ++i) REQUIRE(words[i] == expected);
  }
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("Destroying or discarding a stream whose recording thread is busy is safe", "[vulkan][concurrency]") {
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk);
    auto cache = test::make_cache(*device);
    auto shader = test::make_add_shader(*device);
    auto src = test::make_buffer(*device, 256);
    auto dst = test::make_buffer(*device, 256);
    const Push push{256, 7};
    BufferBinding bindings[2] = {{src.get(), 0, VK_WHOLE_SIZE, Access::Read},
                                 {dst.get(), 0, VK_WHOLE_SIZE, Access::Write}};
    const DispatchInfo info{.shader = shader.get(),
                            .size = {32, 1, 1},
                            .groups = {8, 1, 1},
                            .bindings = bindings,
                            .push_constants = test::bytes_of(push)};
    for (int pass = 0; pass < 6; ++pass) {
      // Passes 2–5: batches of 64 on two or three recording threads, so that several are busy at the end.
      StreamOptions options{.inline_batch_dispatches = 0};
      if (pass >= 2) {
        options.max_dispatches_per_batch = 64;
        options.recording_threads = 2u + pass % 2;
      }
      auto stream = make_threaded_stream(*device, *cache, options);
      REQUIRE_OK(stream->fill(*src, 0, VK_WHOLE_SIZE, 5));
      for (int i = 0; i < 500; ++i) REQUIRE_OK(stream->dispatch(info));
      if (pass % 2 == 0) {
        stream->discard();  // drops the current batch; the next command begins a fresh command buffer
        REQUIRE_OK(stream->fill(*src, 0, VK_WHOLE_SIZE, 5));
        REQUIRE_OK(stream->fill(*dst, 0, VK_WHOLE_SIZE, 1));
        REQUIRE_OK(stream->dispatch(info));
        const auto words = read_words(*stream, *dst, 256);
        CHECK(words[0] == 12);
        for (int i = 0; i < 300; ++i) REQUIRE_OK(stream->dispatch(info));
      }
      // The stream goes out of scope with commands encoded and possibly not yet recorded.
    }
  }
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("GPU timestamps work with a recording thread", "[vulkan][concurrency]") {
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk);
    auto cache = test::make_cache(*device);
    auto stream = make_threaded_stream(*device, *cache, {.timestamp_pairs_per_batch = 4, .inline_batch_dispatches = 0});
    auto shader = test::make_spin_shader(*device);
    auto out = test::make_buffer(*device, 64);
    BufferBinding binding{out.get(), 0, VK_WHOLE_SIZE, Access::Write};
    const uint32_t iterations = 1000;
    std::vector<TimestampQuery> queries(10);
    for (auto& query : queries) {
      REQUIRE_OK(stream->dispatch({.shader = shader.get(),
                                   .size = {64, 1, 1},
                                   .groups = {1, 1, 1},
                                   .bindings = {&binding, 1},
                                   .push_constants = test::bytes_of(iterations)},
                                  &query));
    }
    CHECK(stream->stats().submissions >= 2);  // 4 pairs per batch: the batches rolled over
    for (const auto& query : queries) {
      auto ns = stream->elapsed_ns(query);
      REQUIRE(ns);
      CHECK(*ns >= 0);
    }
  }
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

// ---- asynchronous submission: the recording thread ends and submits each batch itself ----

TEST_CASE("With a recording thread flush() hands the submission to the thread and small batches stay in order",
          "[vulkan][concurrency]") {
  // Several recording threads record neighbouring batches at the same time; the queue still gets them in
  // stream order (each submits with the value flush() reserved, after the one before it), which the ping-pong's
  // result checks: a batch submitted before its predecessor reads the other buffer's stale words.
  const uint32_t lanes = GENERATE(1u, 2u, 3u);
  CAPTURE(lanes);
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk);
    auto cache = test::make_cache(*device);
    // Tiny batches: most flushes return while the thread still replays earlier ones.
    auto stream = make_threaded_stream(
        *device, *cache, {.max_dispatches_per_batch = 3, .inline_batch_dispatches = 0, .recording_threads = lanes});
    REQUIRE(stream->recording_threads() == lanes);
    auto shader = test::make_add_shader(*device);
    constexpr uint32_t n = 64;
    auto x = test::make_buffer(*device, n);
    auto y = test::make_buffer(*device, n);
    REQUIRE_OK(stream->fill(*x, 0, VK_WHOLE_SIZE, 0));
    constexpr uint32_t steps = 3000;
    uint32_t expected = 0;
    uint64_t previous = 0;
    for (uint32_t k = 0; k < steps; ++k) {
      Buffer* from = k % 2 == 0 ? x.get() : y.get();
      Buffer* to = k % 2 == 0 ? y.get() : x.get();
      BufferBinding bindings[2] = {{from, 0, VK_WHOLE_SIZE, Access::Read}, {to, 0, VK_WHOLE_SIZE, Access::Write}};
      const Push push{n, k};
      REQUIRE_OK(stream->dispatch({.shader = shader.get(),
                                   .size = {1u + k % 16, 1, 1},
                                   .groups = {n, 1, 1},
                                   .bindings = bindings,
                                   .push_constants = test::bytes_of(push)}));
      expected += k;
      if (k % 7 == 0) {  // explicit flushes between the automatic ones
        auto value = stream->flush();
        REQUIRE(value);
        REQUIRE(*value > previous);
        REQUIRE(*value <= device->last_submitted());
        previous = *value;
      }
    }
    CHECK(stream->stats().submissions >= steps / 3);
    const auto words = read_words(*stream, steps % 2 == 0 ? *x : *y, n);
    for (uint32_t i = 0; i < n; ++i) REQUIRE(words[i] == expected);
    REQUIRE_OK(stream->finish());
    CHECK(device->last_queued() == device->last_submitted());
    CHECK(device->completed() >= device->last_submitted());
  }
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("Streams on several threads flush concurrently and the timeline stays in order", "[vulkan][concurrency]") {
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk);
    auto cache = test::make_cache(*device);
    auto shader = test::make_add_shader(*device);
    constexpr int kThreads = 3;
    constexpr uint32_t n = 128;
    constexpr uint32_t rounds = 300;
    std::mutex mutex;
    std::vector<std::string> failures;
    std::vector<std::vector<uint64_t>> values(kThreads);
    std::atomic<bool> done{false};
    auto work = [&](int t) {
      auto fail_with = [&](const std::string& m) {
        std::lock_guard lock(mutex);
        failures.push_back("thread " + std::to_string(t) + ": " + m);
      };
      // Two recording threads and one inline stream: every kind of submitter takes its turn.
      auto stream = CommandStream::create(
          *device, *cache,
          {.recording = t == 2 ? RecordingMode::Inline : RecordingMode::Thread, .max_dispatches_per_batch = 5});
      if (!stream) return fail_with(stream.error().message);
      auto x = Buffer::create(*device, n * 4);
      auto y = Buffer::create(*device, n * 4);
      if (!x || !y) return fail_with("buffer creation failed");
      if (auto ok = (*stream)->fill(**x, 0, VK_WHOLE_SIZE, uint32_t(t)); !ok) return fail_with(ok.error().message);
      uint32_t expected = uint32_t(t);
      for (uint32_t k = 0; k < rounds; ++k) {
        Buffer* from = k % 2 == 0 ? x->get() : y->get();
        Buffer* to = k % 2 == 0 ? y->get() : x->get();
        BufferBinding bindings[2] = {{from, 0, VK_WHOLE_SIZE, Access::Read}, {to, 0, VK_WHOLE_SIZE, Access::Write}};
        const Push push{n, k + uint32_t(t)};
        auto ok = (*stream)->dispatch({.shader = shader.get(),
                                       .size = {1u + (k + uint32_t(t)) % 32, 1, 1},
                                       .groups = {n, 1, 1},
                                       .bindings = bindings,
                                       .push_constants = test::bytes_of(push)});
        if (!ok) return fail_with(ok.error().message);
        expected += k + uint32_t(t);
        if (k % 2 == 0) {
          auto value = (*stream)->flush();
          if (!value) return fail_with(value.error().message);
          if (!values[t].empty() && *value < values[t].back()) return fail_with("a flush returned a smaller value");
          values[t].push_back(*value);
          // Waiting on an older value of this stream, maybe not submitted by its thread yet.
          if (k % 10 == 0 && values[t].size() > 3) {
            if (auto waited = device->wait(values[t][values[t].size() - 3]); !waited) {
              return fail_with(waited.error().message);
            }
          }
        }
      }
      std::vector<uint32_t> words(n);
      auto read = (*stream)->readback(rounds % 2 == 0 ? **x : **y, 0, std::as_writable_bytes(std::span(words)));
      if (!read) return fail_with(read.error().message);
      for (uint32_t i = 0; i < n; ++i) {
        if (words[i] != expected) return fail_with("word " + std::to_string(i) + " wrong");
      }
      if (auto ok = (*stream)->finish(); !ok) return fail_with(ok.error().message);
    };
    // Meanwhile this thread waits for whatever was last reserved: often a value a recording thread has not
    // submitted yet.
    std::thread waiter([&] {
      while (!done.load()) {
        if (auto ok = device->wait(device->last_submitted()); !ok) {
          std::lock_guard lock(mutex);
          failures.push_back("waiter: " + ok.error().message);
          return;
        }
        std::this_thread::sleep_for(std::chrono::microseconds(200));
      }
    });
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) threads.emplace_back(work, t);
    for (auto& thread : threads) thread.join();
    done.store(true);
    waiter.join();
    for (const auto& m : failures) FAIL_CHECK(m);
    REQUIRE(failures.empty());
    // Distinct values: every flush of every stream reserved its own.
    std::set<uint64_t> all;
    size_t count = 0;
    for (const auto& v : values) {
      all.insert(v.begin(), v.end());
      count += std::set<uint64_t>(v.begin(), v.end()).size();
    }
    CHECK(all.size() == count);
    CHECK(device->last_queued() == device->last_submitted());
    REQUIRE_OK(device->wait_all());
  }
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("Reserved timeline values reach the queue in order whichever thread submits first", "[vulkan][concurrency]") {
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk);
    auto first = device->reserve();
    auto second = device->reserve();
    REQUIRE(first);
    REQUIRE(second);
    REQUIRE(*second == *first + 1);
    std::atomic<bool> second_done{false};
    std::thread later([&] {
      (void)device->submit_reserved(*second, {});  // waits for *first's turn
      second_done.store(true);
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    CHECK_FALSE(second_done.load());
    CHECK(device->last_queued() == *first - 1);
    // A timed wait for a value not submitted yet ends at its timeout without an error (glClientWaitSync then
    // checks is_complete).
    REQUIRE_OK(device->wait(*first, 2'000'000));
    CHECK_FALSE(device->is_complete(*first));
    REQUIRE_OK(device->submit_reserved(*first, {}));
    later.join();
    CHECK(device->last_queued() == *second);
    REQUIRE_OK(device->wait(*second));
    CHECK_FALSE(device->wait(*second + 1));  // never reserved
  }
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("A submission that fails on the recording thread is reported by the stream and its value still completes",
          "[vulkan][concurrency]") {
  // The thread ends and submits each batch, and creates, resets and begins the command buffers of its own that it
  // records them into (StreamOptions::lane_batches_in_flight): a failure in any of these drops that batch, settles
  // its value all the same (an empty submission in its place) and is the stream's next error, once.
  const char* call = GENERATE("vkQueueSubmit", "vkEndCommandBuffer", "vkCreateCommandPool", "vkResetCommandPool",
                              "vkBeginCommandBuffer");
  CAPTURE(call);
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk);
    auto cache = test::make_cache(*device);
    // One thread: the batch after the two below goes to the thread that made them, which resets one (with three,
    // as on a GPU, it would go to a thread that creates its first).
    auto stream = make_threaded_stream(*device, *cache, {.inline_batch_dispatches = 0, .recording_threads = 1});
    const AddJob job(*device, 5);
    const DispatchInfo& info = job.info;
    if (std::string_view(call) != "vkCreateCommandPool") {
      for (int i = 0; i < 2; ++i) {  // the thread has a completed command buffer to reset and begin again
        REQUIRE_OK(stream->fill(*job.a, 0, VK_WHOLE_SIZE, 10));
        REQUIRE_OK(stream->finish());
      }
    }
    device->inject_fault(VK_ERROR_OUT_OF_DEVICE_MEMORY, call);
    REQUIRE_OK(stream->dispatch(info));
    auto value = stream->flush();  // returns at once: the thread begins, records, ends and submits
    REQUIRE(value);
    REQUIRE_OK(device->wait(*value));  // signalled in the failed batch's place: no hang
    auto finished = stream->finish();
    REQUIRE_FALSE(finished);
    CHECK(is_out_of_memory(finished.error()));
    CHECK_THAT(finished.error().message, Catch::Contains(call));
    CHECK_FALSE(device->lost());
    // Reported once; the stream and the device go on working.
    REQUIRE_OK(stream->fill(*job.a, 0, VK_WHOLE_SIZE, 10));
    REQUIRE_OK(stream->dispatch(info));
    const auto words = read_words(*stream, *job.b, AddJob::n);
    for (uint32_t i = 0; i < AddJob::n; ++i) REQUIRE(words[i] == 15);
    REQUIRE_OK(stream->finish());
  }
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("A readback after a failed submission on the recording thread fails instead of reading stale data",
          "[vulkan][concurrency]") {
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk);
    auto cache = test::make_cache(*device);
    auto stream = make_threaded_stream(*device, *cache);
    constexpr uint32_t n = 64;
    auto a = test::make_buffer(*device, n);
    REQUIRE_OK(stream->fill(*a, 0, VK_WHOLE_SIZE, 7));
    REQUIRE_OK(stream->finish());
    REQUIRE_OK(stream->fill(*a, 0, VK_WHOLE_SIZE, 1));
    device->inject_fault(VK_ERROR_OUT_OF_HOST_MEMORY, "vkQueueSubmit");
    std::vector<uint32_t> words(n);
    auto read = stream->readback(*a, 0, std::as_writable_bytes(std::span(words)));
    REQUIRE_FALSE(read);
    CHECK(is_out_of_memory(read.error()));
    CHECK(read_words(*stream, *a, n)[0] == 7);  // the fill never ran; the error was reported once
  }
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("Device lost in a submission on the recording thread: waiters end, every later call fails cleanly",
          "[vulkan][concurrency]") {
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk);
    auto cache = test::make_cache(*device);
    auto stream = make_threaded_stream(*device, *cache, {.max_dispatches_per_batch = 4, .inline_batch_dispatches = 0});
    const AddJob job(*device, 1);
    const DispatchInfo& info = job.info;
    REQUIRE_OK(stream->dispatch(info));
    REQUIRE_OK(stream->finish());
    device->inject_fault(VK_ERROR_DEVICE_LOST, "vkQueueSubmit");
    // Several batches reserved behind the one that fails (a later dispatch may already see the loss).
    for (int i = 0; i < 10; ++i) {
      if (!stream->dispatch(info)) break;
    }
    const uint64_t last = device->last_submitted();
    std::atomic<int> waiter_result{-1};
    std::thread waiter([&] { waiter_result.store(is_device_lost(device->wait(last).error()) ? 1 : 0); });
    auto finished = stream->finish();
    waiter.join();
    CHECK(waiter_result.load() == 1);
    REQUIRE_FALSE(finished);
    CHECK(is_device_lost(finished.error()));
    CHECK(device->lost());
    auto dispatched = stream->dispatch(info);
    REQUIRE_FALSE(dispatched);
    CHECK(is_device_lost(dispatched.error()));
    std::vector<uint32_t> words(AddJob::n);
    auto read = stream->readback(*job.b, 0, std::as_writable_bytes(std::span(words)));
    REQUIRE_FALSE(read);
    CHECK(is_device_lost(read.error()));
    CHECK_FALSE(stream->flush());
    CHECK_FALSE(device->wait_all());
    CHECK_FALSE(CommandStream::create(*device, *cache));
  }
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("Timestamps of a batch whose submission failed on the recording thread are an error and not zeros",
          "[vulkan][concurrency]") {
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk);
    if (device->timestamp_valid_bits() == 0) {
      WARN("the queue has no timestamp bits");
      return;
    }
    auto cache = test::make_cache(*device);
    auto stream = make_threaded_stream(*device, *cache);
    const AddJob job(*device, 5);
    const DispatchInfo& info = job.info;
    TimestampQuery timed;
    REQUIRE_OK(stream->dispatch(info, &timed));
    device->inject_fault(VK_ERROR_OUT_OF_DEVICE_MEMORY, "vkQueueSubmit");
    auto value = stream->flush();
    REQUIRE(value);
    REQUIRE_OK(device->wait(*value));
    REQUIRE_FALSE(stream->finish());  // the submission's error, reported once
    auto elapsed = stream->elapsed_ns(timed);
    REQUIRE_FALSE(elapsed);
    CHECK_THAT(elapsed.error().message, Catch::Contains("never executed"));
    // A timed dispatch afterwards measures normally.
    REQUIRE_OK(stream->dispatch(info, &timed));
    auto ok = stream->elapsed_ns(timed);
    REQUIRE(ok);
    CHECK(*ok >= 0.0);
  }
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("With a recording thread, small batches are recorded by the caller and a growing one is handed over",
          "[vulkan][concurrency]") {
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk);
    auto cache = test::make_cache(*device);
    auto stream = make_threaded_stream(*device, *cache, StreamOptions{.inline_batch_dispatches = 8});
    const AddJob job(*device, 5);
    REQUIRE_OK(stream->fill(*job.a, 0, VK_WHOLE_SIZE, 10));
    // A program loop: dispatch, read back — each batch small and waited for, recorded and submitted here.
    for (uint32_t round = 0; round < 3; ++round) {
      REQUIRE_OK(stream->dispatch(job.info));
      for (uint32_t word : read_words(*stream, *job.b, AddJob::n)) REQUIRE(word == 15);
    }
    CHECK(stream->stats().inline_batches == 3);
    // A stream: the batch reaches 8 dispatches and the thread records the rest of the same command buffer, in
    // order after what this thread recorded (b = a + 5 after a was refilled with 20 mid-batch).
    for (uint32_t i = 0; i < 20; ++i) {
      if (i == 12) REQUIRE_OK(stream->fill(*job.a, 0, VK_WHOLE_SIZE, 20));
      REQUIRE_OK(stream->dispatch(job.info));
    }
    for (uint32_t word : read_words(*stream, *job.b, AddJob::n)) REQUIRE(word == 25);
    CHECK(stream->stats().inline_batches == 3);
    // After a large batch the next one starts on the thread; after a small one, here again.
    REQUIRE_OK(stream->dispatch(job.info));
    REQUIRE_OK(stream->finish());
    CHECK(stream->stats().inline_batches == 3);
    REQUIRE_OK(stream->dispatch(job.info));
    REQUIRE_OK(stream->finish());
    CHECK(stream->stats().inline_batches == 4);
  }
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("A submission that fails for a batch recorded by the caller is reported by its flush",
          "[vulkan][concurrency]") {
  const char* call = GENERATE("vkQueueSubmit", "vkEndCommandBuffer");
  CAPTURE(call);
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk);
    auto cache = test::make_cache(*device);
    auto stream = make_threaded_stream(*device, *cache, StreamOptions{});
    const AddJob job(*device, 5);
    REQUIRE_OK(stream->fill(*job.a, 0, VK_WHOLE_SIZE, 10));
    REQUIRE_OK(stream->finish());
    REQUIRE_OK(stream->dispatch(job.info));
    device->inject_fault(VK_ERROR_OUT_OF_DEVICE_MEMORY, call);
    auto value = stream->flush();
    REQUIRE_FALSE(value);
    CHECK(is_out_of_memory(value.error()));
    CHECK_THAT(value.error().message, Catch::Contains(call));
    CHECK_FALSE(device->lost());
    // The stream and the device go on working.
    REQUIRE_OK(stream->dispatch(job.info));
    for (uint32_t word : read_words(*stream, *job.b, AddJob::n)) REQUIRE(word == 15);
    REQUIRE_OK(stream->finish());
  }
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}
