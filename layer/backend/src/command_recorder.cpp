#include "command_recorder.hpp"

#include <pthread.h>

#include <algorithm>
#include <array>
#include <bit>
#include <chrono>
#include <cstring>
#include <utility>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

#include "transient_commands.hpp"

namespace bismuth::backend {

namespace {

// How long each side polls before it sleeps on the atomic: a dispatch loop publishes every few hundred
// nanoseconds, and a futex round trip costs microseconds.
constexpr int kSpinIterations = 256;

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#else
  std::this_thread::yield();
#endif
}

struct TargetEntry {
  VkCommandBuffer commands;
};
struct SubmitEntry {
  VkCommandBuffer commands;
  uint64_t value;
  int64_t flushed_ns;  // steady clock when the caller flushed the batch (RecorderTimes::lag_ns)
};

int64_t steady_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

template <class T>
T load(const std::byte* at) {
  T value;
  std::memcpy(&value, at, sizeof value);
  return value;
}

// The recording thread's table: entry i records RecordedCommands' command i.
using RecordFunction = void (*)(const DeviceFunctions& vk, VkCommandBuffer commands, const std::byte* payload);

template <class Command>
void record_encoded(const DeviceFunctions& vk, VkCommandBuffer commands, const std::byte* payload) {
  decode_command<Command>(payload).record(vk, commands);
}

template <class... Commands>
constexpr std::array<RecordFunction, sizeof...(Commands)> record_table(CommandList<Commands...>) {
  return {&record_encoded<Commands>...};
}

constexpr auto kRecordEncoded = record_table(RecordedCommands{});

}  // namespace

CommandRecorder::CommandRecorder(Device& device, bool threaded, size_t ring_bytes, uint32_t lanes,
                                 uint32_t buffers_per_lane)
    : device_(device),
      vk_(device.vk()),
      threaded_(threaded),
      direct_(!threaded),
      buffers_per_lane_(std::max(1u, buffers_per_lane)) {
  if (!threaded_) return;
  capacity_ = std::bit_ceil(std::max<size_t>(ring_bytes, size_t(64) << 10));
  mask_ = capacity_ - 1;
  lanes_.resize(std::max(1u, lanes));
  for (auto& lane : lanes_) lane = std::make_unique<Lane>();
  lane_ = lanes_.front().get();
  start_thread(*lane_);
}

CommandRecorder::~CommandRecorder() {
  stop_thread_for_exit();
  // The stream waited for its submissions before destroying the recorder (or the device was lost and drained).
  for (auto& lane : lanes_) destroy_own_buffers(*lane);
}

void CommandRecorder::destroy_own_buffers(Lane& lane) {
  auto destroy = [&](const OwnBuffer& buffer) {
    if (buffer.pool != VK_NULL_HANDLE) vk_.vkDestroyCommandPool(device_.handle(), buffer.pool, nullptr);
  };
  destroy(lane.own_current);
  for (const OwnBuffer& buffer : lane.own_in_flight) destroy(buffer);
  for (const OwnBuffer& buffer : lane.own_free) destroy(buffer);
  lane.own_current = {};
  lane.own_in_flight.clear();
  lane.own_free.clear();
}

void CommandRecorder::start_thread(Lane& lane) {
  lane.ring.reset(new std::byte[capacity_]);  // uninitialised: pages are touched as the ring fills
  lane.thread = std::thread([this, &lane] { run(lane); });
}

// Also the destructor's stop: each thread replays what was encoded (submissions included), then the Stop, and is
// joined. A thread that waits for its submission's turn waits for another lane, which is still running.
void CommandRecorder::stop_thread_for_exit() {
  if (!threaded_) return;
  for (auto& lane : lanes_) {
    if (!lane->thread.joinable()) continue;
    reserve(*lane, uint32_t(Control::Stop), 0);
    publish_now(*lane);
    lane->thread.join();
  }
  threaded_ = false;
  // The command buffer the current lane recorded into (visible after the join), unless this thread records its own.
  if (!direct_) inline_target_ = lane_->replay_target;
  direct_ = true;
}

RecorderTimes CommandRecorder::times() const {
  RecorderTimes times;
  times.ring_waits = ring_waits_;
  times.ring_wait_ns = ring_wait_ns_;
  for (const auto& lane : lanes_) {
    times.lag_ns += lane->lag_ns.load(std::memory_order_relaxed);
    times.submit_ns += lane->submit_ns.load(std::memory_order_relaxed);
    times.gpu_wait_ns += lane->gpu_wait_ns.load(std::memory_order_relaxed);
    times.buffers_created += lane->buffers_created.load(std::memory_order_relaxed);
  }
  return times;
}

uint64_t CommandRecorder::replayed() const {
  uint64_t total = 0;
  for (const auto& lane : lanes_) total += lane->replayed.load(std::memory_order_acquire);
  return total;
}

// ---- producer side ----

void CommandRecorder::wait_for_space(Lane& lane, size_t bytes) {
  auto fits = [&](uint64_t tail) { return lane.write + bytes - tail <= capacity_; };
  if (fits(lane.tail_seen)) return;  // the common case: no read of the recording thread's line
  lane.tail_seen = lane.tail.load(std::memory_order_acquire);
  if (fits(lane.tail_seen)) return;
  const int64_t start = steady_ns();
  ++ring_waits_;
  publish_now(lane);  // the recording thread may be asleep with commands waiting
  for (int i = 0; i < kSpinIterations; ++i) {
    lane.tail_seen = lane.tail.load(std::memory_order_acquire);
    if (fits(lane.tail_seen)) {
      ring_wait_ns_ += uint64_t(steady_ns() - start);
      return;
    }
    cpu_relax();
  }
  while (true) {
    lane.producer_waiting.store(true, std::memory_order_seq_cst);
    lane.tail_seen = lane.tail.load(std::memory_order_seq_cst);
    if (fits(lane.tail_seen)) break;
    lane.tail.wait(lane.tail_seen, std::memory_order_seq_cst);
  }
  lane.producer_waiting.store(false, std::memory_order_relaxed);
  ring_wait_ns_ += uint64_t(steady_ns() - start);
}

std::byte* CommandRecorder::reserve(Lane& lane, uint32_t tag, size_t payload_bytes) {
  const size_t bytes = align8(sizeof(Header) + payload_bytes);
  const size_t offset = (lane.write & mask_);
  if (offset + bytes > capacity_) {  // no room before the end: pad to it and start over at 0
    const size_t pad = capacity_ - offset;
    wait_for_space(lane, pad + bytes);
    const Header wrap{uint32_t(Control::Wrap), static_cast<uint32_t>(pad)};
    std::memcpy(lane.ring.get() + offset, &wrap, sizeof wrap);
    lane.write += pad;
  } else {
    wait_for_space(lane, bytes);
  }
  std::byte* at = lane.ring.get() + (lane.write & mask_);
  const Header header{tag, static_cast<uint32_t>(bytes)};
  std::memcpy(at, &header, sizeof header);
  lane.write += bytes;
  return at + sizeof(Header);
}

void CommandRecorder::publish_now(Lane& lane) {
  lane.published = lane.write;
  lane.head.store(lane.write, std::memory_order_seq_cst);
  if (lane.consumer_sleeping.load(std::memory_order_seq_cst)) lane.head.notify_one();
}

void CommandRecorder::wait_replayed(Lane& lane) {
  for (int i = 0; i < kSpinIterations; ++i) {
    if (lane.tail.load(std::memory_order_acquire) == lane.write) return;
    cpu_relax();
  }
  while (true) {
    lane.producer_waiting.store(true, std::memory_order_seq_cst);
    const uint64_t tail = lane.tail.load(std::memory_order_seq_cst);
    if (tail == lane.write) break;
    lane.tail.wait(tail, std::memory_order_seq_cst);
  }
  lane.producer_waiting.store(false, std::memory_order_relaxed);
}

void CommandRecorder::drain() {
  if (!threaded_) return;
  for (auto& lane : lanes_) {
    if (lane->thread.joinable()) publish_now(*lane);
  }
  for (auto& lane : lanes_) {
    if (lane->thread.joinable()) wait_replayed(*lane);
  }
}

void CommandRecorder::submit(VkCommandBuffer commands, uint64_t value) {
  const SubmitEntry entry{commands, value, steady_ns()};
  std::memcpy(reserve(uint32_t(Control::Submit), sizeof entry), &entry, sizeof entry);
  publish_now(*lane_);  // the submission must not wait for the next block: others may wait for its value
}

std::optional<Error> CommandRecorder::take_error() {
  std::lock_guard lock(error_mutex_);
  std::optional<Error> error = std::move(error_);
  error_.reset();
  failed_.store(false, std::memory_order_release);
  return error;
}

void CommandRecorder::target(VkCommandBuffer commands) {
  if (!threaded_) {
    inline_target_ = commands;
    return;
  }
  direct_ = false;
  // A new batch (or the rest of an inline one) starts on the next lane. What the previous lane holds is published
  // first: its thread must not wait for a block this thread no longer fills.
  Lane& next = *lanes_[next_lane_];
  next_lane_ = next_lane_ + 1 == lanes_.size() ? 0 : next_lane_ + 1;
  if (&next != lane_) {
    if (lane_->published != lane_->write) publish_now(*lane_);
    if (!next.thread.joinable()) start_thread(next);
    lane_ = &next;
  }
  const TargetEntry entry{commands};
  std::memcpy(reserve(uint32_t(Control::Target), sizeof entry), &entry, sizeof entry);
}

void CommandRecorder::target_own() {
  target(VK_NULL_HANDLE);
}

void CommandRecorder::target_inline(VkCommandBuffer commands) {
  // Nothing encoded names `commands`: the threads may still replay earlier batches, into their own buffers.
  inline_target_ = commands;
  direct_ = true;
}

void CommandRecorder::hand_over() {
  if (!threaded_ || !direct_) return;
  target(inline_target_);  // what this thread recorded happens before the thread's first command (release/acquire)
  publish_now(*lane_);
}

// ---- recording threads ----

void CommandRecorder::run(Lane& lane) {
  // A name that says whose thread it is (debuggers, /proc/<pid>/task/*/comm; the exit tests look for it).
  pthread_setname_np(pthread_self(), "bismuth-record");
  uint64_t position = 0;
  while (true) {
    uint64_t head = lane.head.load(std::memory_order_acquire);
    for (int i = 0; i < kSpinIterations && head == position; ++i) {
      cpu_relax();
      head = lane.head.load(std::memory_order_acquire);
    }
    if (head == position) {
      lane.consumer_sleeping.store(true, std::memory_order_seq_cst);
      head = lane.head.load(std::memory_order_seq_cst);
      if (head == position) lane.head.wait(position, std::memory_order_seq_cst);
      lane.consumer_sleeping.store(false, std::memory_order_relaxed);
      continue;
    }
    uint64_t commands = 0;
    while (position < head) {
      const std::byte* at = lane.ring.get() + (position & mask_);
      if (load<Header>(at).tag == uint32_t(Control::Stop)) return;
      position += replay(lane, at);
      ++commands;
    }
    // Once per block: per command, this store shared a line that the caller read with every command.
    lane.replayed.store(lane.replayed.load(std::memory_order_relaxed) + commands, std::memory_order_release);
    lane.tail.store(position, std::memory_order_seq_cst);
    if (lane.producer_waiting.load(std::memory_order_seq_cst)) lane.tail.notify_one();
  }
}

size_t CommandRecorder::replay(Lane& lane, const std::byte* at) {
  const Header header = load<Header>(at);
  const std::byte* payload = at + sizeof(Header);
  if (header.tag < kRecordEncoded.size()) [[likely]] {
    // Null: a batch whose own command buffer could not be begun (its failure was noted); its commands are dropped.
    if (lane.replay_target != VK_NULL_HANDLE) [[likely]]
      kRecordEncoded[header.tag](vk_, lane.replay_target, payload);
  } else if (header.tag == uint32_t(Control::Target)) {
    const VkCommandBuffer commands = load<TargetEntry>(payload).commands;
    lane.replay_target = commands != VK_NULL_HANDLE ? commands : begin_own_buffer(lane);
  } else if (header.tag == uint32_t(Control::Submit)) {
    const auto entry = load<SubmitEntry>(payload);
    const int64_t reached = steady_ns();
    if (entry.commands != VK_NULL_HANDLE) {
      submit_on_thread(entry.commands, entry.value);
    } else {
      submit_own_buffer(lane, entry.value);
    }
    // One writer each: the caller only reads them (times()).
    lane.lag_ns.store(
        lane.lag_ns.load(std::memory_order_relaxed) + uint64_t(std::max<int64_t>(0, reached - entry.flushed_ns)),
        std::memory_order_relaxed);
    lane.submit_ns.store(lane.submit_ns.load(std::memory_order_relaxed) + uint64_t(steady_ns() - reached),
                         std::memory_order_relaxed);
    lane.replay_target = VK_NULL_HANDLE;  // the caller may reuse it once the value completed
  }                                       // Wrap: nothing to record (Stop ends run() before it gets here)
  return header.bytes;
}

void CommandRecorder::note_failure(const Error& error) {
  std::lock_guard lock(error_mutex_);
  if (!error_) error_ = error;
  failed_.store(true, std::memory_order_release);
}

VkCommandBuffer CommandRecorder::begin_own_buffer(Lane& lane) {
  // A batch the caller discarded before its submission left its command buffer begun: it is reset like the others.
  if (lane.own_current.pool != VK_NULL_HANDLE) lane.own_free.push_back(std::exchange(lane.own_current, {}));
  while (!lane.own_in_flight.empty() && device_.is_complete(lane.own_in_flight.front().value)) {
    lane.own_free.push_back(lane.own_in_flight.front());
    lane.own_in_flight.pop_front();
  }
  if (lane.own_free.empty() && lane.own_in_flight.size() >= buffers_per_lane_) {
    // Record into memory the driver already grew rather than into a fresh command buffer: wait for the oldest.
    const int64_t start = steady_ns();
    Status waited = device_.wait(lane.own_in_flight.front().value);
    lane.gpu_wait_ns.store(lane.gpu_wait_ns.load(std::memory_order_relaxed) + uint64_t(steady_ns() - start),
                           std::memory_order_relaxed);
    if (!waited) {
      note_failure(waited.error());
      return VK_NULL_HANDLE;
    }
    lane.own_free.push_back(lane.own_in_flight.front());
    lane.own_in_flight.pop_front();
  }
  OwnBuffer buffer;
  if (Status ok = reuse_or_create(buffer, lane); !ok) {
    note_failure(ok.error());
    return VK_NULL_HANDLE;
  }
  if (Status ok = begin_one_submission(device_, buffer.commands); !ok) {
    note_failure(ok.error());
    lane.own_free.push_back(buffer);  // reset before its next use
    return VK_NULL_HANDLE;
  }
  lane.own_current = buffer;
  return buffer.commands;
}

Status CommandRecorder::reuse_or_create(OwnBuffer& buffer, Lane& lane) {
  if (!lane.own_free.empty()) {
    buffer = lane.own_free.back();
    lane.own_free.pop_back();
    Status reset = reset_transient_commands(device_, buffer.pool);
    if (!reset) vk_.vkDestroyCommandPool(device_.handle(), buffer.pool, nullptr);
    return reset;
  }
  if (Status ok = create_transient_commands(device_, buffer.pool, buffer.commands); !ok) return ok;
  lane.buffers_created.store(lane.buffers_created.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  return {};
}

void CommandRecorder::submit_own_buffer(Lane& lane, uint64_t value) {
  if (lane.own_current.pool == VK_NULL_HANDLE) {
    // No command buffer could be begun for this batch (the failure was noted): settle its value all the same.
    (void)device_.submit_reserved(value, {});
    return;
  }
  OwnBuffer buffer = std::exchange(lane.own_current, {});
  buffer.value = value;
  submit_on_thread(buffer.commands, value);
  lane.own_in_flight.push_back(buffer);  // a failed submission's value is settled too: it completes
}

void CommandRecorder::submit_on_thread(VkCommandBuffer commands, uint64_t value) {
  // The value was reserved in flush(): it is submitted (or settled after a failure) whatever happens here, and
  // the failure is noted before it settles, so a caller that waited for the value sees it.
  if (Status ended = device_.call("vkEndCommandBuffer", vk_.vkEndCommandBuffer, commands); !ended) {
    note_failure(ended.error());
    (void)device_.submit_reserved(value, {});
    return;
  }
  (void)device_.submit_reserved(value, std::span<const VkCommandBuffer>(&commands, 1),
                                [this](const Error& error) { note_failure(error); });
}

}  // namespace bismuth::backend
