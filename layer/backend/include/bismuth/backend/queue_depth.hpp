// How many submitted batches a CommandStream keeps in flight before its caller waits for the GPU, for batches recorded
// into the caller's own command buffers (an inline recorder's). A recording thread's batches go into the thread's own
// command buffers, which the thread reuses by the same reasoning (StreamOptions::lane_batches_in_flight,
// src/command_recorder.hpp); the caller makes no bounded waits for those.
//
// A deep queue lets the caller run ahead of a slow GPU (a stream with a barrier after every dispatch) without
// waiting. But each batch a queue grows by is a command buffer filled for the first time, and a GPU driver grows its
// command memory while one fills: on NVIDIA's (issue 17, docs/performance.md run Y) a process's first stream of
// 100,000 tiny dispatches ran at 0.40-0.46 us of GPU time per dispatch with 32 new batches, because the recording
// threads filling them fell behind the GPU, and at 0.21-0.24 us with 4 batches reused in turn.
//
// So the queue starts shallow and deepens only when the GPU is much slower than the caller. Whenever `limit()` or
// more batches are in flight as a batch begins, the caller first waits until the oldest was submitted (the recording
// threads' pace: a deeper queue would only give them fresh command buffers to fill), then for the GPU to complete
// it, but no longer than it took to fill the previous batch (`budget`), so the caller runs at no less than half its
// own pace. Either way it goes on: a wait that runs out leaves one batch more in flight. `kRunOutsToDeepen` waits in
// a row that run out (not one: a stream's first batches wait for a whole batch of GPU work at once) set the limit to
// the maximum (a GPU more than twice slower than the caller has no use for a depth in between), and it stays there.
// The maximum is a hard limit: beyond it the caller waits for the oldest batch however long that takes.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>

namespace bismuth::backend {

class QueueDepth {
 public:
  using Clock = std::chrono::steady_clock;

  // initial 0 or >= maximum: always `maximum` deep (no waits that can deepen it).
  QueueDepth(uint32_t initial, uint32_t maximum)
      : maximum_(std::max(1u, maximum)), limit_(initial == 0 ? maximum_ : std::min(std::max(1u, initial), maximum_)) {}

  // Batches in flight from which a new batch first waits, bounded, for the oldest.
  uint32_t limit() const { return limit_; }
  // Whether a batch that begins with `in_flight` batches in flight makes that bounded wait (never at the maximum).
  bool waits_at(size_t in_flight) const { return limit_ < maximum_ && in_flight >= limit_; }
  uint32_t maximum() const { return maximum_; }
  bool deepened() const { return deepened_; }

  // How long the caller may wait for the oldest batch when a batch is about to begin at `now` with `limit()` or
  // more in flight: the time since the previous batch began recording (zero before the first), which does
  // not include the previous wait.
  Clock::duration budget(Clock::time_point now) const { return started_ ? now - last_began_ : Clock::duration::zero(); }
  // A batch began recording at `now` (after any wait).
  void began(Clock::time_point now) {
    last_began_ = now;
    started_ = true;
  }

  static constexpr uint32_t kRunOutsToDeepen = 3;

  // The wait for the oldest batch ended: `completed` false (the budget ran out) kRunOutsToDeepen times in a row
  // deepens the queue to its maximum.
  void waited(bool completed) {
    if (limit_ == maximum_) return;
    run_outs_ = completed ? 0 : run_outs_ + 1;
    if (run_outs_ < kRunOutsToDeepen) return;
    limit_ = maximum_;
    deepened_ = true;
  }

 private:
  uint32_t maximum_;
  uint32_t limit_;
  bool deepened_ = false;
  uint32_t run_outs_ = 0;  // waits in a row whose budget ran out
  bool started_ = false;
  Clock::time_point last_began_{};
};

}  // namespace bismuth::backend
