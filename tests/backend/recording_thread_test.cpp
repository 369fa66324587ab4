// CommandStream with a recording thread (RecordingMode::Thread): the caller encodes commands into a ring and a
// thread per stream replays them into the command buffer. These tests force the mode, so they run on lavapipe
// too (where Automatic picks inline recording), and are also part of the ThreadSanitizer binary ([concurrency]).
#include <numeric>

#include "backend_fixture.hpp"

using namespace bismuth;
using namespace bismuth::backend;
using bismuth::test::ValidatedVulkan;

namespace {

struct Push {
  uint32_t count;
  uint32_t add;
};

std::unique_ptr<CommandStream> make_threaded_stream(Device& device, PipelineCache& cache, StreamOptions options = {}) {
  options.recording = RecordingMode::Thread;
  auto stream = CommandStream::create(device, cache, options);
  if (!stream) FAIL(stream.error().message);
  REQUIRE((*stream)->records_on_thread());
  return std::move(*stream);
}

std::vector<uint32_t> read_words(CommandStream& stream, Buffer& buffer, size_t n) {
  std::vector<uint32_t> words(n);
  auto ok = stream.readback(buffer, 0, std::as_writable_bytes(std::span(words)));
  if (!ok) FAIL(ok.error().message);
  return words;
}

}  // namespace

TEST_CASE("A recording thread records dispatches, copies, fills and barriers in stream order", "[vulkan][concurrency]") {
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk);
    auto cache = test::make_cache(*device);
    auto stream = make_threaded_stream(*device, *cache);
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
      REQUIRE_OK(stream->dispatch({.shader = shader.get(), .size = {size, 1, 1}, .groups = {groups, 1, 1},
                                   .bindings = ab, .push_constants = test::bytes_of(first)}));
      REQUIRE_OK(stream->dispatch({.shader = shader.get(), .size = {size, 1, 1}, .groups = {groups, 1, 1},
                                   .bindings = bc, .push_constants = test::bytes_of(second)}));
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
    // One batch for everything, so that the ring (1 MiB) wraps several times before the first submission.
    auto stream = make_threaded_stream(*device, *cache, {.max_dispatches_per_batch = 1u << 20});
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
      REQUIRE_OK(stream->dispatch({.shader = shader.get(), .size = {1u + k % 64, 1, 1}, .groups = {n, 1, 1},
                                   .bindings = bindings, .push_constants = test::bytes_of(push)}));
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
    BufferBinding bindings[2] = {{src.get(), 0, VK_WHOLE_SIZE, Access::Read}, {dst.get(), 0, VK_WHOLE_SIZE, Access::Write}};
    const DispatchInfo info{.shader = shader.get(), .size = {32, 1, 1}, .groups = {8, 1, 1}, .bindings = bindings,
                            .push_constants = test::bytes_of(push)};
    for (int pass = 0; pass < 4; ++pass) {
      auto stream = make_threaded_stream(*device, *cache);
      REQUIRE_OK(stream->fill(*src, 0, VK_WHOLE_SIZE, 5));
      for (int i = 0; i < 500; ++i) REQUIRE_OK(stream->dispatch(info));
      if (pass % 2 == 0) {
        stream->discard();  // drops the fill and the dispatches; the next command begins a fresh command buffer
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
    auto stream = make_threaded_stream(*device, *cache, {.timestamp_pairs_per_batch = 4});
    auto shader = test::make_spin_shader(*device);
    auto out = test::make_buffer(*device, 64);
    BufferBinding binding{out.get(), 0, VK_WHOLE_SIZE, Access::Write};
    const uint32_t iterations = 1000;
    std::vector<TimestampQuery> queries(10);
    for (auto& query : queries) {
      REQUIRE_OK(stream->dispatch({.shader = shader.get(), .size = {64, 1, 1}, .groups = {1, 1, 1},
                                   .bindings = {&binding, 1}, .push_constants = test::bytes_of(iterations)},
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
