#include "command_recorder.hpp"

#include <pthread.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

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
};

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

CommandRecorder::CommandRecorder(Device& device, bool threaded, size_t ring_bytes, uint32_t lanes)
    : device_(device), vk_(device.vk()), threaded_(threaded), direct_(!threaded) {
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

uint64_t CommandRecorder::replayed() const {
  uint64_t total = 0;
  for (const auto& lane : lanes_) total += lane->replayed.load(std::memory_order_acquire);
  return total;
}

// ---- producer side ----

void CommandRecorder::wait_for_space(Lane& lane, size_t bytes) {
  auto fits = [&](uint64_t tail) { return lane.write + bytes - tail <= capacity_; };
  if (fits(lane.tail.load(std::memory_order_acquire))) return;
  publish_now(lane);  // the recording thread may be asleep with commands waiting
  for (int i = 0; i < kSpinIterations; ++i) {
    if (fits(lane.tail.load(std::memory_order_acquire))) return;
    cpu_relax();
  }
  while (true) {
    lane.producer_waiting.store(true, std::memory_order_seq_cst);
    const uint64_t tail = lane.tail.load(std::memory_order_seq_cst);
    if (fits(tail)) break;
    lane.tail.wait(tail, std::memory_order_seq_cst);
  }
  lane.producer_waiting.store(false, std::memory_order_relaxed);
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
  const SubmitEntry entry{commands, value};
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
    while (position < head) {
      const std::byte* at = lane.ring.get() + (position & mask_);
      if (load<Header>(at).tag == uint32_t(Control::Stop)) return;
      position += replay(lane, at);
    }
    lane.tail.store(position, std::memory_order_seq_cst);
    if (lane.producer_waiting.load(std::memory_order_seq_cst)) lane.tail.notify_one();
  }
}

size_t CommandRecorder::replay(Lane& lane, const std::byte* at) {
  const Header header = load<Header>(at);
  const std::byte* payload = at + sizeof(Header);
  if (header.tag < kRecordEncoded.size()) [[likely]] {
    kRecordEncoded[header.tag](vk_, lane.replay_target, payload);
  } else if (header.tag == uint32_t(Control::Target)) {
    lane.replay_target = load<TargetEntry>(payload).commands;
  } else if (header.tag == uint32_t(Control::Submit)) {
    const auto entry = load<SubmitEntry>(payload);
    submit_on_thread(entry.commands, entry.value);
    lane.replay_target = VK_NULL_HANDLE;  // the caller may reuse it once the value completed
  }                                       // Wrap: nothing to record (Stop ends run() before it gets here)
  lane.replayed.store(lane.replayed.load(std::memory_order_relaxed) + 1, std::memory_order_release);  // one writer
  return header.bytes;
}

void CommandRecorder::note_failure(const Error& error) {
  std::lock_guard lock(error_mutex_);
  if (!error_) error_ = error;
  failed_.store(true, std::memory_order_release);
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
