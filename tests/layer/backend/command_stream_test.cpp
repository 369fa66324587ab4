// Resources, recording and submission: buffers, command streams, automatic barriers, timeline submission.
#include <numeric>

#include "backend_fixture.hpp"

using namespace bismuth;
using namespace bismuth::backend;
using bismuth::test::make_stream;
using bismuth::test::read_words;
using bismuth::test::ValidatedVulkan;

namespace {

struct Push {
  uint32_t count;
  uint32_t add;
};

std::vector<uint32_t> iota_words(size_t n) {
  std::vector<uint32_t> v(n);
  std::iota(v.begin(), v.end(), 0u);
  return v;
}

// Runs dst = src + 1 then dst2 = dst + 10 without any explicit barrier, at several workgroup sizes.
void chained_adds(const DeviceOptions& device_options) {
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk, device_options);
    auto cache = test::make_cache(*device);
    auto stream = make_stream(*device, *cache);
    auto shader = test::make_add_shader(*device);
    constexpr uint32_t n = 1000;
    auto a = test::make_buffer(*device, n);
    auto b = test::make_buffer(*device, n);
    auto c = test::make_buffer(*device, n);
    REQUIRE_OK(stream->upload(*a, 0, test::bytes_of(iota_words(n))));
    for (uint32_t size : {1u, 7u, 32u, 64u, 256u}) {
      const Push first{n, 1};
      const Push second{n, 10};
      BufferBinding ab[2] = {{a.get(), 0, VK_WHOLE_SIZE, Access::Read}, {b.get(), 0, VK_WHOLE_SIZE, Access::Write}};
      BufferBinding bc[2] = {{b.get(), 0, VK_WHOLE_SIZE, Access::Read}, {c.get(), 0, VK_WHOLE_SIZE, Access::Write}};
      const uint32_t groups = (n + size - 1) / size;
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
      const auto words = read_words(*stream, *c, n);
      for (uint32_t i = 0; i < n; ++i) {
        if (words[i] != i + 11) FAIL("word " << i << " is " << words[i] << " at group size " << size);
      }
    }
    CHECK(stream->stats().automatic_barriers >= 5);
    CHECK(cache->stats().compiles == 5);
  }
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

}  // namespace

TEST_CASE("Dispatches at many group sizes compute the right values (host-visible buffers)", "[vulkan]") {
  chained_adds({.memory = MemoryStrategy::HostVisible});
}

TEST_CASE("Dispatches at many group sizes compute the right values (device-local + staging)", "[vulkan]") {
  chained_adds({.memory = MemoryStrategy::DeviceLocalWithStaging});
}

TEST_CASE("Descriptor pools bind correctly where push descriptors are not used", "[vulkan]") {
  chained_adds({.use_push_descriptors = false});
}

TEST_CASE("The group size reaches the pipeline as specialization constants", "[vulkan]") {
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk);
    auto cache = test::make_cache(*device);
    auto stream = make_stream(*device, *cache);
    auto shader = test::make_probe_shader(*device);
    auto out = test::make_buffer(*device, 8);
    BufferBinding binding{out.get(), 0, VK_WHOLE_SIZE, Access::Write};
    for (GroupSize size : {GroupSize{1, 1, 1}, GroupSize{64, 1, 1}, GroupSize{8, 4, 2}, GroupSize{3, 5, 7}}) {
      REQUIRE_OK(
          stream->dispatch({.shader = shader.get(), .size = size, .groups = {8, 1, 1}, .bindings = {&binding, 1}}));
      const auto words = read_words(*stream, *out, 8);
      for (uint32_t w : words) CHECK(w == size.x * size.y * size.z);
    }
  }
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("Independent dispatches get no barrier, and a write then a read gets exactly one", "[vulkan]") {
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk);
    auto cache = test::make_cache(*device);
    auto stream = make_stream(*device, *cache);
    auto shader = test::make_add_shader(*device);
    auto src = test::make_buffer(*device, 256);
    auto x = test::make_buffer(*device, 256);
    auto y = test::make_buffer(*device, 256);
    const Push push{256, 1};
    BufferBinding to_x[2] = {{src.get(), 0, VK_WHOLE_SIZE, Access::Read}, {x.get(), 0, VK_WHOLE_SIZE, Access::Write}};
    BufferBinding to_y[2] = {{src.get(), 0, VK_WHOLE_SIZE, Access::Read}, {y.get(), 0, VK_WHOLE_SIZE, Access::Write}};
    BufferBinding x_to_y[2] = {{x.get(), 0, VK_WHOLE_SIZE, Access::Read}, {y.get(), 0, VK_WHOLE_SIZE, Access::Write}};
    DispatchInfo info{
        .shader = shader.get(), .size = {64, 1, 1}, .groups = {4, 1, 1}, .push_constants = test::bytes_of(push)};
    info.bindings = to_x;
    REQUIRE_OK(stream->dispatch(info));
    info.bindings = to_y;
    REQUIRE_OK(stream->dispatch(info));  // reads src (only read so far), writes y: independent
    CHECK(stream->stats().automatic_barriers == 0);
    info.bindings = x_to_y;
    REQUIRE_OK(stream->dispatch(info));  // reads x written above, and writes y written above
    CHECK(stream->stats().automatic_barriers == 1);
    REQUIRE_OK(stream->barrier());
    CHECK(stream->stats().explicit_barriers == 1);
    REQUIRE_OK(stream->finish());
  }
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("Disjoint sub-ranges of one buffer need no barrier", "[vulkan]") {
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk);
    auto cache = test::make_cache(*device);
    auto stream = make_stream(*device, *cache);
    auto shader = test::make_add_shader(*device);
    auto src = test::make_buffer(*device, 512);
    auto dst = test::make_buffer(*device, 512);
    const Push push{256, 5};
    BufferBinding low[2] = {{src.get(), 0, 1024, Access::Read}, {dst.get(), 0, 1024, Access::Write}};
    BufferBinding high[2] = {{src.get(), 1024, 1024, Access::Read}, {dst.get(), 1024, 1024, Access::Write}};
    DispatchInfo info{
        .shader = shader.get(), .size = {64, 1, 1}, .groups = {4, 1, 1}, .push_constants = test::bytes_of(push)};
    info.bindings = low;
    REQUIRE_OK(stream->dispatch(info));
    info.bindings = high;
    REQUIRE_OK(stream->dispatch(info));
    CHECK(stream->stats().automatic_barriers == 0);
    REQUIRE_OK(stream->finish());
  }
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("Copy, fill and sub-range upload/readback keep stream order", "[vulkan]") {
  for (MemoryStrategy memory : {MemoryStrategy::HostVisible, MemoryStrategy::DeviceLocalWithStaging}) {
    ValidatedVulkan vk;
    {
      auto device = test::make_device(vk, {.memory = memory});
      auto cache = test::make_cache(*device);
      auto stream = make_stream(*device, *cache);
      auto a = test::make_buffer(*device, 64);
      auto b = test::make_buffer(*device, 64);
      REQUIRE_OK(stream->fill(*a, 0, VK_WHOLE_SIZE, 7));
      REQUIRE_OK(stream->copy(*a, 0, *b, 0, 64 * 4));
      const std::vector<uint32_t> middle = {1, 2, 3, 4};
      REQUIRE_OK(stream->upload(*b, 8 * 4, test::bytes_of(middle)));  // after the copy in stream order
      REQUIRE_OK(stream->fill(*a, 0, VK_WHOLE_SIZE, 9));              // after the copy read a
      auto words = read_words(*stream, *b, 64);
      for (uint32_t i = 0; i < 64; ++i) {
        const uint32_t expected = (i >= 8 && i < 12) ? i - 7 : 7;
        if (words[i] != expected) FAIL("word " << i << " is " << words[i]);
      }
      std::vector<uint32_t> part(2);
      REQUIRE_OK(stream->readback(*b, 9 * 4, std::as_writable_bytes(std::span(part))));
      CHECK(part == std::vector<uint32_t>{2, 3});
      CHECK(read_words(*stream, *a, 64) == std::vector<uint32_t>(64, 9));
      auto mapped = stream->map(*a);
      CHECK(bool(mapped) == (memory == MemoryStrategy::HostVisible));
    }
    REQUIRE_NO_VALIDATION_MESSAGES(vk);
  }
}

TEST_CASE("A mapped device-local buffer is updated and read back in place, without staging", "[vulkan]") {
  ValidatedVulkan vk;
  {
    // Every buffer device-local with staging, as on a discrete GPU; lavapipe's one memory type is device-local and
    // host-visible coherent, as a BAR heap is.
    auto device = test::make_device(vk, {.memory = MemoryStrategy::DeviceLocalWithStaging});
    auto cache = test::make_cache(*device);
    auto stream = make_stream(*device, *cache);
    auto shader = test::make_add_shader(*device);
    constexpr uint32_t n = 64;
    auto source = test::make_buffer(*device, n);
    REQUIRE_OK(stream->upload(*source, 0, test::bytes_of(iota_words(n))));
    const uint64_t staged_before = stream->stats().staged_transfers;
    auto storage = Buffer::create(*device, n * 4, BufferKind::Storage);
    auto mapped = Buffer::create(*device, n * 4, BufferKind::MappedDeviceLocal);
    REQUIRE_OK(storage);
    REQUIRE_OK(mapped);
    CHECK_FALSE((*storage)->host_visible());
    REQUIRE((*mapped)->host_visible());
    // A GL program's loop: reset the result, dispatch into it, read it back; each round waits for its dispatch.
    for (uint32_t round = 1; round <= 5; ++round) {
      REQUIRE_OK(stream->upload(**mapped, 0, test::bytes_of(std::vector<uint32_t>(n, 0xDEADu))));  // idle: in place
      const Push push{n, round};
      BufferBinding bindings[2] = {{source.get(), 0, VK_WHOLE_SIZE, Access::Read},
                                   {mapped->get(), 0, VK_WHOLE_SIZE, Access::Write}};
      REQUIRE_OK(stream->dispatch({.shader = shader.get(),
                                   .size = {64, 1, 1},
                                   .groups = {1, 1, 1},
                                   .bindings = bindings,
                                   .push_constants = test::bytes_of(push)}));
      // Busy: this upload is staged and copied after the dispatch in stream order, and must not land before it.
      REQUIRE_OK(stream->upload(**mapped, 4, test::bytes_of(std::vector<uint32_t>{7u})));
      std::vector<uint32_t> back(n);
      REQUIRE_OK(stream->readback(**mapped, 0, std::as_writable_bytes(std::span(back))));
      for (uint32_t i = 0; i < n; ++i) {
        const uint32_t expected = i == 1 ? 7u : i + round;
        if (back[i] != expected) FAIL("round " << round << ": word " << i << " is " << back[i]);
      }
    }
    // Only the busy uploads were staged; the resets went in place and the readbacks copied nothing.
    CHECK(stream->stats().staged_transfers - staged_before == 5);
  }
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("Uploads and readbacks through device-local buffers reuse the stream's staging memory", "[vulkan]") {
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk, {.memory = MemoryStrategy::DeviceLocalWithStaging});
    auto cache = test::make_cache(*device);
    auto stream = make_stream(*device, *cache);
    auto buffer = test::make_buffer(*device, 1024);
    // A GL program's loop: glBufferSubData, a readback (glMapBufferRange / glGetBufferSubData), 300 times. Each
    // readback waits for its copy, so one chunk serves every transfer.
    for (uint32_t i = 0; i < 300; ++i) {
      const std::vector<uint32_t> words = {i, i * 3, i * 7, 0xFEEDu};
      REQUIRE_OK(stream->upload(*buffer, (i % 250) * 16, test::bytes_of(words)));
      std::vector<uint32_t> back(4);
      REQUIRE_OK(stream->readback(*buffer, (i % 250) * 16, std::as_writable_bytes(std::span(back))));
      REQUIRE(back == words);
    }
    CHECK(stream->stats().staged_transfers == 600);
    CHECK(stream->stats().staging_buffers_created == 1);

    // Many uploads in one batch, more than a chunk holds: later chunks, then buffers of their own; every byte
    // lands where it was sent, in stream order.
    auto big = test::make_buffer(*device, 8u << 20);  // words
    const uint32_t piece_words = 16384;               // 64 KiB per upload, 384 uploads: 24 MiB in one batch
    for (uint32_t p = 0; p < 384; ++p) {
      std::vector<uint32_t> piece(piece_words, p + 1);
      REQUIRE_OK(stream->upload(*big, VkDeviceSize(p) * piece_words * 4, test::bytes_of(piece)));
    }
    // One transfer larger than half a chunk: a buffer of its own.
    std::vector<uint32_t> tail(1u << 20, 0xABCDu);
    REQUIRE_OK(stream->upload(*big, VkDeviceSize(384) * piece_words * 4, test::bytes_of(tail)));
    const auto words = read_words(*stream, *big, 384 * piece_words + tail.size());
    for (uint32_t p = 0; p < 384; ++p) {
      if (words[size_t(p) * piece_words] != p + 1 || words[size_t(p) * piece_words + piece_words - 1] != p + 1)
        FAIL("piece " << p);
    }
    CHECK(words.back() == 0xABCDu);
    CHECK(stream->stats().staging_buffers_created > 1);
  }
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("A batch is submitted when it reaches the batch size", "[vulkan]") {
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk);
    auto cache = test::make_cache(*device);
    auto stream = make_stream(*device, *cache, {.max_dispatches_per_batch = 10});
    auto shader = test::make_probe_shader(*device);
    auto out = test::make_buffer(*device, 1);
    BufferBinding binding{out.get(), 0, VK_WHOLE_SIZE, Access::Write};
    for (int i = 0; i < 25; ++i) {
      REQUIRE_OK(stream->dispatch({.shader = shader.get(),
                                   .size = {uint32_t(1 + i % 3), 1, 1},
                                   .groups = {1, 1, 1},
                                   .bindings = {&binding, 1}}));
    }
    CHECK(stream->stats().submissions == 2);
    CHECK(stream->recorded_dispatches() == 5);
    REQUIRE_OK(stream->finish());
    CHECK(stream->stats().submissions == 3);
    CHECK(device->completed() == device->last_submitted());
  }
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

// Identical read-only dispatches take the inline repeat path, which counts them apart from the batch
// (CommandStream::settle_repeats): the stream's counts, the flush at the batch size and the results must be those of
// dispatches that each went the full way, at every point, across flushes, barriers and transfers.
TEST_CASE("Repeated dispatches count and flush like any others", "[vulkan]") {
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk);
    auto cache = test::make_cache(*device);
    auto stream = make_stream(*device, *cache, {.recording = RecordingMode::Inline, .max_dispatches_per_batch = 10});
    auto shader = test::make_add_shader(*device);
    constexpr uint32_t n = 64;
    auto a = test::make_buffer(*device, n);
    auto b = test::make_buffer(*device, n);
    REQUIRE_OK(stream->upload(*a, 0, test::bytes_of(iota_words(n))));
    BufferBinding bindings[2] = {{a.get(), 0, VK_WHOLE_SIZE, Access::Read}, {b.get(), 0, VK_WHOLE_SIZE, Access::Read}};
    const Push push{n, 1};
    DispatchInfo info{.shader = shader.get(),
                      .size = {64, 1, 1},
                      .groups = {1, 1, 1},
                      .bindings = bindings,
                      .push_constants = test::bytes_of(push)};
    const StreamStats before = stream->stats();
    uint32_t in_batch = stream->recorded_dispatches();
    for (uint32_t i = 1; i <= 25; ++i) {
      REQUIRE_OK(stream->dispatch(info));
      in_batch = (in_batch + 1) % 10;  // the 10th dispatch of a batch flushes it
      const StreamStats now = stream->stats();
      REQUIRE(now.dispatches - before.dispatches == i);
      REQUIRE(now.front_table_hits - before.front_table_hits == i - 1);  // the first one looked the pipeline up
      REQUIRE(stream->recorded_dispatches() == in_batch);
    }
    CHECK(stream->stats().submissions - before.submissions == 2);
    // A barrier request, a transfer and another flush in between: the counts go on from where they were.
    REQUIRE_OK(stream->barrier());
    REQUIRE_OK(stream->dispatch(info));
    REQUIRE_OK(stream->dispatch(info));
    REQUIRE_OK(stream->fill(*b, 0, 4, 7));
    REQUIRE_OK(stream->dispatch(info));
    REQUIRE_OK(stream->dispatch(info));
    CHECK(stream->recorded_dispatches() == 9);
    REQUIRE(stream->flush());
    CHECK(stream->recorded_dispatches() == 0);
    REQUIRE_OK(stream->dispatch(info));
    REQUIRE_OK(stream->dispatch(info));
    CHECK(stream->recorded_dispatches() == 2);
    CHECK(stream->stats().dispatches - before.dispatches == 31);
    CHECK(stream->stats().front_table_hits - before.front_table_hits == 30);
    REQUIRE_OK(stream->finish());
    CHECK(stream->stats().dispatches - before.dispatches == 31);
  }
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("GPU timestamps around a dispatch measure its duration", "[vulkan]") {
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk);
    REQUIRE(device->timestamp_valid_bits() != 0);  // lavapipe and every GPU Bismuth targets have them
    auto cache = test::make_cache(*device);
    auto stream = make_stream(*device, *cache);
    auto shader = test::make_spin_shader(*device);
    auto out = test::make_buffer(*device, 64);
    BufferBinding binding{out.get(), 0, VK_WHOLE_SIZE, Access::Write};
    const uint32_t short_run = 10, long_run = 2000000;
    TimestampQuery fast, slow;
    // Warm-up: a driver may do one-time work on the first execution of a pipeline.
    REQUIRE_OK(stream->dispatch({.shader = shader.get(),
                                 .size = {64, 1, 1},
                                 .groups = {1, 1, 1},
                                 .bindings = {&binding, 1},
                                 .push_constants = test::bytes_of(short_run)}));
    REQUIRE_OK(stream->finish());
    // On a CPU device the timestamps are the queue thread's clock: on a loaded machine it can be preempted inside
    // the short dispatch, so the pair is measured up to three times and must order correctly once.
    bool ordered = false;
    for (int attempt = 0; attempt < 3 && !ordered; ++attempt) {
      REQUIRE_OK(stream->dispatch({.shader = shader.get(),
                                   .size = {64, 1, 1},
                                   .groups = {1, 1, 1},
                                   .bindings = {&binding, 1},
                                   .push_constants = test::bytes_of(short_run)},
                                  &fast));
      REQUIRE_OK(stream->dispatch({.shader = shader.get(),
                                   .size = {64, 1, 1},
                                   .groups = {1, 1, 1},
                                   .bindings = {&binding, 1},
                                   .push_constants = test::bytes_of(long_run)},
                                  &slow));
      auto fast_ns = stream->elapsed_ns(fast);
      auto slow_ns = stream->elapsed_ns(slow);
      REQUIRE(fast_ns);
      REQUIRE(slow_ns);
      CHECK(*fast_ns >= 0);
      INFO("fast " << *fast_ns << " ns, slow " << *slow_ns << " ns");
      ordered = *slow_ns > *fast_ns;
    }
    CHECK(ordered);
  }
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("A buffer released while a submission uses it is destroyed after completion", "[vulkan]") {
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk);
    auto cache = test::make_cache(*device);
    auto stream = make_stream(*device, *cache);
    auto shader = test::make_spin_shader(*device);
    auto out = test::make_buffer(*device, 256);
    BufferBinding binding{out.get(), 0, VK_WHOLE_SIZE, Access::Write};
    const uint32_t iterations = 3000000;
    REQUIRE_OK(stream->dispatch({.shader = shader.get(),
                                 .size = {64, 1, 1},
                                 .groups = {4, 1, 1},
                                 .bindings = {&binding, 1},
                                 .push_constants = test::bytes_of(iterations)}));
    auto value = stream->flush();
    REQUIRE(value);
    out.reset();
    if (!device->is_complete(*value)) CHECK(device->deferred_count() >= 1);
    REQUIRE_OK(stream->finish());
    CHECK(device->deferred_count() == 0);
  }
  // Destroying the buffer while in use would be VUID-vkDestroyBuffer-buffer-00922.
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("Discarded commands never run", "[vulkan]") {
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk);
    auto cache = test::make_cache(*device);
    auto stream = make_stream(*device, *cache);
    auto a = test::make_buffer(*device, 16);
    REQUIRE_OK(stream->fill(*a, 0, VK_WHOLE_SIZE, 1));
    REQUIRE_OK(stream->finish());
    REQUIRE_OK(stream->fill(*a, 0, VK_WHOLE_SIZE, 2));
    stream->discard();
    CHECK(read_words(*stream, *a, 16) == std::vector<uint32_t>(16, 1));
    REQUIRE_OK(stream->fill(*a, 0, VK_WHOLE_SIZE, 3));  // the recycled batch records normally
    CHECK(read_words(*stream, *a, 16) == std::vector<uint32_t>(16, 3));
  }
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}
