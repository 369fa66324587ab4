// A PipelineCache's background workers: low-priority threads that run a queue of pipeline compiles (prewarm, and
// the exact pipelines CommandStream runs a larger one for meanwhile) and the periodic save of the cache file.
//
// Workers start no new compile while a foreground compile runs (the cache brackets each with
// foreground_compile_begins/ends), so that prewarm never delays a compile someone waits for; the compile itself
// is the cache's (PipelineCache::compile_for_prewarm), which inserts a pending entry first, so that a foreground
// miss for a size being prewarmed joins it. Part of PipelineCache (pipeline_cache.hpp has the API).
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "bismuth/backend/pipeline_cache.hpp"

namespace bismuth::backend {

class PipelinePrewarm {
 public:
  struct Task {
    std::shared_ptr<const Shader> shader;
    GroupSize size;
    uint32_t subgroup_size = 0;
    // Not started before this time (add()'s delay): a program deleted before then never pays for its prewarm.
    std::chrono::steady_clock::time_point not_before{};
  };

  explicit PipelinePrewarm(PipelineCache& cache) : cache_(cache) {}
  // The cache stops the workers before its own members go (they use them); here only as a backstop.
  ~PipelinePrewarm() { stop(); }
  PipelinePrewarm(const PipelinePrewarm&) = delete;
  PipelinePrewarm& operator=(const PipelinePrewarm&) = delete;

  // Starts `threads` workers (at most once); a save is due `save_interval` after this, then after each save.
  void start(uint32_t threads, std::chrono::milliseconds save_interval, std::chrono::milliseconds stream_quiet);
  // Drops the queued compiles, lets the running ones finish and joins the workers; later calls queue nothing.
  void stop();
  bool has_workers() const { return !workers_.empty(); }

  // Queues one compile per size, in order, after every queued one, none started before `delay` has passed.
  void add(std::shared_ptr<const Shader> shader, std::vector<GroupSize> sizes, uint32_t subgroup_size,
           std::chrono::milliseconds delay = std::chrono::milliseconds(0));
  // Queues one compile ahead of every queued one; false when stopped.
  bool add_first(Task task);
  // Drops every queued compile.
  void cancel();
  // Drops the queued compiles of `shader`; with `wait_running`, also waits until no worker compiles it.
  void cancel(const Shader& shader, bool wait_running);
  // Waits until no compile is queued or running (or the workers stopped).
  void wait_idle();

  void foreground_compile_begins();
  void foreground_compile_ends();
  // Lets a worker look whether a save is due (the cache compiled something new).
  void wake_for_save() { work_cv_.notify_one(); }
  // A stream of dispatches recorded a batch: add()'s compiles start only `stream_quiet` (start()) after the last
  // such batch (add_first's are wanted by a running dispatch and start at once). Prewarm guesses at sizes a program may
  // use later; while a stream runs, its compiles compete with the stream's recording threads and with the compile
  // of the exact pipeline the stream waits for (both on the driver).
  void note_stream_batch() {
    last_stream_batch_ns_.store(std::chrono::steady_clock::now().time_since_epoch().count(), std::memory_order_relaxed);
  }

 private:
  void worker_loop();

  PipelineCache& cache_;
  std::chrono::milliseconds save_interval_{0};
  std::chrono::milliseconds stream_quiet_{0};
  std::mutex mutex_;
  std::condition_variable work_cv_;
  std::condition_variable idle_cv_;
  // One add() or add_first(): its sizes are compiled front to back. The GL shim adds ~40 sizes at every
  // variable-size link and cancels them at the delete, so a batch is one allocation to add and one to drop (a
  // task per size cost ~25k instructions per program loop iteration).
  struct Batch {
    std::shared_ptr<const Shader> shader;
    std::vector<GroupSize> sizes;
    size_t next = 0;  // the first size not yet taken by a worker
    uint32_t subgroup_size = 0;
    std::chrono::steady_clock::time_point not_before{};
    bool wanted = false;  // add_first: a running dispatch waits for it (not held back by streams)
  };
  std::deque<Batch> queue_;                          // guarded by mutex_
  size_t running_ = 0;                               // guarded by mutex_
  std::vector<const Shader*> running_shaders_;       // guarded by mutex_: the shaders of running compiles
  size_t foreground_compiles_ = 0;                   // guarded by mutex_
  bool stopping_ = false;                            // guarded by mutex_
  std::chrono::steady_clock::time_point last_save_;  // guarded by mutex_
  // guarded by mutex_: when each sleeping worker wakes by itself (add() need not wake one for a later task)
  std::multiset<std::chrono::steady_clock::time_point> sleeper_wakes_;
  std::vector<std::thread> workers_;
  std::atomic<int64_t> last_stream_batch_ns_{0};  // steady_clock's count at the last note_stream_batch()
};

}  // namespace bismuth::backend
