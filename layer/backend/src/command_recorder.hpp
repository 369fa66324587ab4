// Where CommandStream's vkCmd* calls go: straight into the command buffer (inline), or into a ring of encoded
// commands that a recording thread replays into the command buffer (threaded).
//
// Why a recording thread: on GPU drivers, recording is the expensive part of a dispatch. NVIDIA's
// vkCmdDispatch alone costs 0.33–0.44 µs of CPU on the H100 machine (bench_vk_record), more than the whole
// budget GL programs expect for glDispatchCompute. Encoding the same command into a ring costs the calling
// thread a few tens of nanoseconds; the recording thread pays the driver's price in parallel, as Mesa's glthread
// does for GL. The caller's view does not change: every command is recorded, in order, into the command buffer
// it was encoded for. A batch ends with an encoded Submit: the recording thread ends that command buffer and
// submits it with the timeline value the caller reserved in flush() (Device::reserve, submit_reserved), so a
// flush does not wait for the replay. The caller meanwhile begins the next batch's command buffer, which has a
// pool of its own, and retargets the thread to it with an encoded Target — so Vulkan's external
// synchronisation of command buffers and pools holds: each is used by one thread at a time, handed over
// through the ring's release/acquire pairs (caller → thread) and the Device's submission turn (thread →
// caller: a batch is reused only once its value was submitted and completed). drain() waits until everything
// encoded was replayed (and submitted); the stream calls it before it discards or destroys command buffers.
// A failed vkEndCommandBuffer or vkQueueSubmit on the thread becomes the recorder's error (take_error()); its
// value is still signalled in order (Device::submit_reserved), so nobody waits forever.
//
// Descriptor pools, query pools and everything else that is not a vkCmd* stay on the calling thread.
//
// Several recording threads (`lanes`): on NVIDIA's driver one thread replays a tiny dispatch in ~0.4 µs, longer
// than the H100 takes to run it, so a stream of tiny dispatches without barriers kept the GPU waiting for the
// recorder. With more than one lane, whole batches go to the lanes in turn (a target() starts a batch on the next
// lane): while one thread records batch k, the next records batch k + 1 into its own command buffer and pool. The
// batches still reach the queue in stream order, because each submits with the timeline value the caller reserved
// in order and Device::submit_reserved submits value v only after v - 1. Commands of one batch never span two
// lanes, so the per-command-buffer order is the ring's as before.
//
// Whose command buffers: a batch the caller begins inline (target_inline, then perhaps hand_over) is recorded into
// the caller's own command buffer, as every batch of an inline recorder is. A batch handed to a lane from its start
// (target_own) is recorded into one of that lane's command buffers, which the lane resets and begins itself: the
// caller then never waits for a command buffer to come back from the GPU, only for room in a ring. Each lane keeps
// at most `buffers_per_lane` of its command buffers in flight and, before beginning another, waits for the GPU to
// complete its oldest and records into that one again. Why (issue 17, docs/performance.md): NVIDIA's driver grows a
// command buffer's memory while it is filled for the first time, and a process's first long stream that filled
// 25 fresh command buffers ran at 0.40 us of GPU time per tiny dispatch where buffers filled again ran at 0.2; the
// same shallow queue on the caller's side made the caller wait for the recording threads and the GPU instead.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "bismuth/backend/device.hpp"
#include "bismuth/backend/vk_functions.hpp"
#include "recorded_commands.hpp"

namespace bismuth::backend {

// Where the recording threads' time went, summed over the batches they submitted (StreamStats).
struct RecorderTimes {
  // From the caller's flush of a batch until its lane reached the batch's end: how far the lanes lag behind.
  uint64_t lag_ns = 0;
  // Ending and submitting those batches, including each one's wait for its turn in the queue (the lane before).
  uint64_t submit_ns = 0;
  // Waiting for the GPU to complete a lane's oldest command buffer before recording into it again (target_own).
  uint64_t gpu_wait_ns = 0;
  // Command buffers (each with its pool) the lanes created for target_own batches.
  uint64_t buffers_created = 0;
  // The caller: times it found a ring full, and how long it waited for room.
  uint64_t ring_waits = 0;
  uint64_t ring_wait_ns = 0;
};

class CommandRecorder {
 public:
  // `ring_bytes`: each lane's ring capacity when threaded (at least 64 KiB; rounded up to a power of two).
  // `lanes`: recording threads when threaded (at least 1); the first starts now, the others with their first batch.
  // `buffers_per_lane`: of each lane's own command buffers (target_own), how many may be in flight before it waits
  // for the GPU to complete the oldest (at least 1).
  CommandRecorder(Device& device, bool threaded, size_t ring_bytes, uint32_t lanes = 1, uint32_t buffers_per_lane = 2);
  ~CommandRecorder();
  CommandRecorder(const CommandRecorder&) = delete;
  CommandRecorder& operator=(const CommandRecorder&) = delete;

  bool threaded() const { return threaded_; }
  uint32_t lane_count() const { return static_cast<uint32_t>(lanes_.size()); }
  // Process exit (process_exit.hpp): the recording thread replays what was encoded (submissions included), stops
  // and is joined; later commands record inline into the same command buffer. Like every producer-side call, only
  // from the thread that owns the recorder, or while that thread is known to be outside it.
  void stop_thread_for_exit();

  // The command buffer later commands go to (already begun by the caller).
  void target(VkCommandBuffer commands);
  // Threaded only: the next batch starts on the next lane, in a command buffer of that lane's own, which the lane
  // begins (after waiting for the GPU when `buffers_per_lane` of its buffers are in flight) and submit() with a null
  // command buffer ends and submits. A lane that cannot begin one (an error) notes the failure, drops the batch's
  // commands and settles its value with an empty submission.
  void target_own();
  // Threaded recorders: `commands` (already begun) is recorded by the calling thread itself, as an inline recorder
  // records, until hand_over() or the end of the batch. A stream whose batches are small and waited for (a program
  // made, dispatched, read back) then pays neither the hand-over to the thread nor the wait for its replay before
  // each submission; the caller ends and submits such a batch itself. Inline recorders: the same as target().
  void target_inline(VkCommandBuffer commands);
  // Whether commands go straight into the command buffer now (an inline recorder, or an inline batch).
  bool recording_inline() const { return direct_; }
  // While recording_inline(): the command buffer commands go to (after stop_thread_for_exit, the one the current
  // lane recorded into, which may be a lane's own).
  VkCommandBuffer inline_target() const { return inline_target_; }
  // Threaded: the rest of the current inline batch goes to the recording thread, which continues the same command
  // buffer (handed over through the ring like a target()). No-op otherwise.
  void hand_over();
  // Records one command (recorded_commands.hpp) into the target: inline, a branch over its direct vkCmd* call;
  // threaded, encoded into the ring (no allocation) for the recording thread to record the same way.
  template <class Command>
  void record(const Command& command) {
    if (direct_) {
      command.record(vk_, inline_target_);
    } else {
      encode(command);
    }
  }

  // Hands what was encoded to the recording thread once enough has gathered (cheap; no wait). Handing over
  // in blocks of kPublishBytes keeps the two threads off the same cache lines: publishing every command made
  // each dispatch pay a cross-core cache-line transfer.
  void publish() {
    if (threaded_ && lane_->write - lane_->published >= kPublishBytes) publish_now(*lane_);
  }
  // Threaded only: the recording thread ends `commands` and submits it with the reserved timeline `value`
  // (Device::reserve) once it has replayed everything encoded before; published at once. Later commands need
  // a target() first. Null `commands`: the lane's own command buffer that target_own() began.
  void submit(VkCommandBuffer commands, uint64_t value);
  // Publishes and waits until the recording threads replayed everything (and made the submissions encoded so
  // far); afterwards the caller may use the current command buffer (end, reset). Inline: nothing to do.
  void drain();
  // Whether an end or submission on the recording thread failed since the last take_error() (cheap).
  bool failed() const { return failed_.load(std::memory_order_acquire); }
  // The first such failure, once; the next failure is recorded again.
  std::optional<Error> take_error();

  // Commands the recording threads replayed (tests).
  uint64_t replayed() const;
  // Relaxed sums: a batch still being submitted may be missing. The caller's own thread only.
  RecorderTimes times() const;

 private:
  // What a ring entry holds: a command of RecordedCommands (its tag is its position there), or one of these.
  enum class Control : uint32_t {
    Wrap = RecordedCommands::size,  // padding to the end of the ring
    Stop,
    Target,
    Submit,
  };
  struct Header {
    uint32_t tag;    // kCommandTag<Command> or a Control
    uint32_t bytes;  // header included, multiple of 8
  };

  // One of a lane's own command buffers, with the pool it alone comes from.
  struct OwnBuffer {
    VkCommandPool pool = VK_NULL_HANDLE;
    VkCommandBuffer commands = VK_NULL_HANDLE;
    uint64_t value = 0;  // the timeline value it was submitted with
  };

  // One recording thread and its ring of encoded commands (StreamOptions::recording_ring_bytes, rounded up to a
  // power of two). Positions grow monotonically; the physical offset is position & mask. Entries are 8-byte
  // aligned (new[] aligns to 16), which decode_command's spans into the ring rely on. Allocated without
  // initialisation, so a stream that never gets far ahead of its thread touches only the pages it uses.
  // Laid out by who writes what, a cache line each: a field one thread writes per command must not share a line
  // with one the other reads per command, or every command pays a cross-core transfer of that line.
  struct Lane {
    // Set before the thread starts, then only read.
    std::unique_ptr<std::byte[]> ring;
    std::thread thread;
    // The producer's (the caller's thread) own.
    alignas(64) uint64_t write = 0;  // its position
    uint64_t published = 0;          // its copy of head
    uint64_t tail_seen = 0;          // the tail it last read: the atomic is read again only when this leaves no room
    // Written by the producer, read by the recording thread once per block it replays.
    alignas(64) std::atomic<uint64_t> head{0};  // published
    std::atomic<bool> producer_waiting{false};
    // Written by the recording thread once per block it replayed, read by the producer when it runs out of room.
    alignas(64) std::atomic<uint64_t> tail{0};  // replayed
    std::atomic<bool> consumer_sleeping{false};
    // The recording thread's own (the caller's after the join), and its counters (read by the caller now and then).
    alignas(64) VkCommandBuffer replay_target = VK_NULL_HANDLE;
    std::atomic<uint64_t> replayed{0};
    std::atomic<uint64_t> lag_ns{0};     // RecorderTimes
    std::atomic<uint64_t> submit_ns{0};  // RecorderTimes
    std::atomic<uint64_t> gpu_wait_ns{0};
    std::atomic<uint64_t> buffers_created{0};
    // Its own command buffers: begun and not yet submitted (pool null when none), submitted (oldest first), and
    // ready to be reset.
    OwnBuffer own_current;
    std::deque<OwnBuffer> own_in_flight;
    std::vector<OwnBuffer> own_free;
  };

  // Out of line, so that the inline path at each call site stays one branch and the direct vkCmd* call. By value:
  // a small command arrives in registers, where a reference would make it a stack copy read back at other widths
  // than it was written (a store-forwarding stall per command).
  template <class Command>
  [[gnu::noinline]] void encode(const Command command) {
    static_assert(kCommandTag<Command> < RecordedCommands::size, "a command must be listed in RecordedCommands");
    encode_command(command, reserve(kCommandTag<Command>, encoded_bytes(command)));
  }
  // Reserves room in the (current) lane's ring for one entry of `payload_bytes` (multiple of 8) and writes its
  // header; returns the payload.
  std::byte* reserve(uint32_t tag, size_t payload_bytes) { return reserve(*lane_, tag, payload_bytes); }
  std::byte* reserve(Lane& lane, uint32_t tag, size_t payload_bytes);
  void publish_now(Lane& lane);
  void wait_for_space(Lane& lane, size_t bytes);
  void wait_replayed(Lane& lane);
  void start_thread(Lane& lane);
  void run(Lane& lane);
  // Replays one command; returns its size.
  size_t replay(Lane& lane, const std::byte* at);
  void submit_on_thread(VkCommandBuffer commands, uint64_t value);
  // target_own() on the recording thread: a begun command buffer of the lane's own, or null after a failure.
  VkCommandBuffer begin_own_buffer(Lane& lane);
  Status reuse_or_create(OwnBuffer& buffer, Lane& lane);
  void submit_own_buffer(Lane& lane, uint64_t value);
  void destroy_own_buffers(Lane& lane);
  void note_failure(const Error& error);

  Device& device_;
  const DeviceFunctions& vk_;
  bool threaded_;  // false once the threads were stopped for exit
  bool direct_;    // !threaded_, or a batch target_inline() started and hand_over() did not pass on
  VkCommandBuffer inline_target_ = VK_NULL_HANDLE;

  uint32_t buffers_per_lane_;
  uint64_t ring_waits_ = 0;    // RecorderTimes (the producer's)
  uint64_t ring_wait_ns_ = 0;  // RecorderTimes (the producer's)
  size_t capacity_ = 0;
  size_t mask_ = 0;
  static constexpr size_t kPublishBytes = 4096;
  std::vector<std::unique_ptr<Lane>> lanes_;  // empty when inline
  Lane* lane_ = nullptr;                      // where the producer encodes now
  size_t next_lane_ = 0;                      // the lane the next target() starts its batch on
  // Written by a recording thread before the failed value settles; read by the caller.
  alignas(64) std::atomic<bool> failed_{false};
  std::mutex error_mutex_;
  std::optional<Error> error_;  // guarded by error_mutex_
};

}  // namespace bismuth::backend
