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

CommandRecorder::CommandRecorder(Device& device, bool threaded, size_t ring_bytes)
    : device_(device), vk_(device.vk()), threaded_(threaded), direct_(!threaded) {
  if (!threaded_) return;
  capacity_ = std::bit_ceil(std::max<size_t>(ring_bytes, size_t(64) << 10));
  mask_ = capacity_ - 1;
  ring_.reset(new std::byte[capacity_]);  // uninitialised: pages are touched as the ring fills
  thread_ = std::thread([this] { run(); });
}

CommandRecorder::~CommandRecorder() {
  stop_thread_for_exit();
}

// Also the destructor's stop: the thread replays what was encoded, then the Stop, and is joined.
void CommandRecorder::stop_thread_for_exit() {
  if (!threaded_) return;
  reserve(uint32_t(Control::Stop), 0);
  publish_now();
  thread_.join();
  threaded_ = false;
  // The command buffer the thread recorded into (visible after the join), unless this thread records its own.
  if (!direct_) inline_target_ = replay_target_;
  direct_ = true;
}

// ---- producer side ----

void CommandRecorder::wait_for_space(size_t bytes) {
  auto fits = [&](uint64_t tail) { return write_ + bytes - tail <= capacity_; };
  if (fits(tail_.load(std::memory_order_acquire))) return;
  publish_now();  // the recording thread may be asleep with commands waiting
  for (int i = 0; i < kSpinIterations; ++i) {
    if (fits(tail_.load(std::memory_order_acquire))) return;
    cpu_relax();
  }
  while (true) {
    producer_waiting_.store(true, std::memory_order_seq_cst);
    const uint64_t tail = tail_.load(std::memory_order_seq_cst);
    if (fits(tail)) break;
    tail_.wait(tail, std::memory_order_seq_cst);
  }
  producer_waiting_.store(false, std::memory_order_relaxed);
}

std::byte* CommandRecorder::reserve(uint32_t tag, size_t payload_bytes) {
  const size_t bytes = align8(sizeof(Header) + payload_bytes);
  const size_t offset = (write_ & mask_);
  if (offset + bytes > capacity_) {  // no room before the end: pad to it and start over at 0
    const size_t pad = capacity_ - offset;
    wait_for_space(pad + bytes);
    const Header wrap{uint32_t(Control::Wrap), static_cast<uint32_t>(pad)};
    std::memcpy(ring_.get() + offset, &wrap, sizeof wrap);
    write_ += pad;
  } else {
    wait_for_space(bytes);
  }
  std::byte* at = ring_.get() + (write_ & mask_);
  const Header header{tag, static_cast<uint32_t>(bytes)};
  std::memcpy(at, &header, sizeof header);
  write_ += bytes;
  return at + sizeof(Header);
}

void CommandRecorder::publish_now() {
  published_ = write_;
  head_.store(write_, std::memory_order_seq_cst);
  if (consumer_sleeping_.load(std::memory_order_seq_cst)) head_.notify_one();
}

void CommandRecorder::drain() {
  if (!threaded_) return;
  publish_now();
  for (int i = 0; i < kSpinIterations; ++i) {
    if (tail_.load(std::memory_order_acquire) == write_) return;
    cpu_relax();
  }
  while (true) {
    producer_waiting_.store(true, std::memory_order_seq_cst);
    const uint64_t tail = tail_.load(std::memory_order_seq_cst);
    if (tail == write_) break;
    tail_.wait(tail, std::memory_order_seq_cst);
  }
  producer_waiting_.store(false, std::memory_order_relaxed);
}

void CommandRecorder::submit(VkCommandBuffer commands, uint64_t value) {
  const SubmitEntry entry{commands, value};
  std::memcpy(reserve(uint32_t(Control::Submit), sizeof entry), &entry, sizeof entry);
  publish_now();  // the submission must not wait for the next block: others may wait for its value
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
  const TargetEntry entry{commands};
  std::memcpy(reserve(uint32_t(Control::Target), sizeof entry), &entry, sizeof entry);
}

void CommandRecorder::target_inline(VkCommandBuffer commands) {
  // Nothing encoded names `commands`: the thread may still replay earlier batches, into their own buffers.
  inline_target_ = commands;
  direct_ = true;
}

void CommandRecorder::hand_over() {
  if (!threaded_ || !direct_) return;
  target(inline_target_);  // what this thread recorded happens before the thread's first command (release/acquire)
  publish_now();
}

// ---- recording thread ----

void CommandRecorder::run() {
  // A name that says whose thread it is (debuggers, /proc/<pid>/task/*/comm; the exit tests look for it).
  pthread_setname_np(pthread_self(), "bismuth-record");
  uint64_t position = 0;
  while (true) {
    uint64_t head = head_.load(std::memory_order_acquire);
    for (int i = 0; i < kSpinIterations && head == position; ++i) {
      cpu_relax();
      head = head_.load(std::memory_order_acquire);
    }
    if (head == position) {
      consumer_sleeping_.store(true, std::memory_order_seq_cst);
      head = head_.load(std::memory_order_seq_cst);
      if (head == position) head_.wait(position, std::memory_order_seq_cst);
      consumer_sleeping_.store(false, std::memory_order_relaxed);
      continue;
    }
    while (position < head) {
      const std::byte* at = ring_.get() + (position & mask_);
      if (load<Header>(at).tag == uint32_t(Control::Stop)) return;
      position += replay(at);
    }
    tail_.store(position, std::memory_order_seq_cst);
    if (producer_waiting_.load(std::memory_order_seq_cst)) tail_.notify_one();
  }
}

size_t CommandRecorder::replay(const std::byte* at) {
  const Header header = load<Header>(at);
  const std::byte* payload = at + sizeof(Header);
  if (header.tag < kRecordEncoded.size()) [[likely]] {
    kRecordEncoded[header.tag](vk_, replay_target_, payload);
  } else if (header.tag == uint32_t(Control::Target)) {
    replay_target_ = load<TargetEntry>(payload).commands;
  } else if (header.tag == uint32_t(Control::Submit)) {
    const auto entry = load<SubmitEntry>(payload);
    submit_on_thread(entry.commands, entry.value);
    replay_target_ = VK_NULL_HANDLE;  // the caller may reuse it once the value completed
  }                                   // Wrap: nothing to record (Stop ends run() before it gets here)
  replayed_.store(replayed_.load(std::memory_order_relaxed) + 1, std::memory_order_release);  // one writer
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
