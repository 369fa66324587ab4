#include "pipeline_prewarm.hpp"

#include <pthread.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>

namespace bismuth::backend {

void PipelinePrewarm::start(uint32_t threads, std::chrono::milliseconds save_interval,
                            std::chrono::milliseconds stream_quiet) {
  save_interval_ = save_interval;
  stream_quiet_ = stream_quiet;
  last_save_ = std::chrono::steady_clock::now();
  if (!workers_.empty()) return;
  for (uint32_t i = 0; i < threads; ++i) workers_.emplace_back([this] { worker_loop(); });
}

void PipelinePrewarm::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    queue_.clear();
  }
  work_cv_.notify_all();
  idle_cv_.notify_all();
  for (std::thread& t : workers_) {
    if (t.joinable()) t.join();
  }
}

void PipelinePrewarm::add(std::shared_ptr<const Shader> shader, std::vector<GroupSize> sizes, uint32_t subgroup_size,
                          std::chrono::milliseconds delay) {
  if (sizes.empty()) return;
  const auto not_before = std::chrono::steady_clock::now() + delay;
  bool wake = false;
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return;
    queue_.push_back(Batch{std::move(shader), std::move(sizes), 0, subgroup_size, not_before});
    // A worker that sleeps until no later than not_before finds these tasks when it wakes by itself, and a busy
    // worker looks at the queue before it sleeps again. Waking the workers anyway would cost a futex call and every
    // worker's context switch per GL link (a program loop queues a delayed prewarm at each), only to put them back
    // to sleep until the delay passed.
    wake = !sleeper_wakes_.empty() && *sleeper_wakes_.begin() > not_before;
  }
  if (wake) work_cv_.notify_all();
}

bool PipelinePrewarm::add_first(Task task) {
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return false;
    queue_.push_front(Batch{std::move(task.shader), {task.size}, 0, task.subgroup_size, task.not_before, true});
  }
  work_cv_.notify_one();
  return true;
}

void PipelinePrewarm::cancel() {
  std::deque<Batch> dropped;  // released outside the lock
  {
    std::lock_guard lock(mutex_);
    dropped.swap(queue_);
  }
  idle_cv_.notify_all();
}

void PipelinePrewarm::cancel(const Shader& shader, bool wait_running) {
  std::vector<Batch> dropped;  // released outside the lock
  std::unique_lock lock(mutex_);
  // One pass that keeps the others in order.
  auto kept = queue_.begin();
  for (auto it = queue_.begin(); it != queue_.end(); ++it) {
    if (it->shader.get() == &shader) {
      dropped.push_back(std::move(*it));
    } else {
      if (kept != it) *kept = std::move(*it);
      ++kept;
    }
  }
  queue_.erase(kept, queue_.end());
  if (wait_running) {
    idle_cv_.wait(lock, [&] {
      return std::find(running_shaders_.begin(), running_shaders_.end(), &shader) == running_shaders_.end();
    });
  }
  if (queue_.empty() && running_ == 0) idle_cv_.notify_all();
}

void PipelinePrewarm::wait_idle() {
  std::unique_lock lock(mutex_);
  idle_cv_.wait(lock, [&] { return stopping_ || (queue_.empty() && running_ == 0); });
}

void PipelinePrewarm::foreground_compile_begins() {
  std::lock_guard lock(mutex_);
  ++foreground_compiles_;
}

void PipelinePrewarm::foreground_compile_ends() {
  {
    std::lock_guard lock(mutex_);
    --foreground_compiles_;
  }
  work_cv_.notify_all();
}

void PipelinePrewarm::worker_loop() {
  // Low priority: prewarm must not take CPU from the application's threads (Linux: per-thread nice value).
  setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), 19);
  // A name that says whose thread it is (debuggers, /proc/<pid>/task/*/comm; the exit tests look for it).
  pthread_setname_np(pthread_self(), "bismuth-prewarm");
  std::unique_lock lock(mutex_);
  while (true) {
    const auto save_due = [&] {
      return cache_.has_unsaved_pipelines() && std::chrono::steady_clock::now() - last_save_ >= save_interval_;
    };
    if (stopping_) break;
    if (save_due()) {
      last_save_ = std::chrono::steady_clock::now();
      lock.unlock();
      cache_.save_or_warn();
      lock.lock();
      continue;
    }
    // The first queued task that is due (add()'s delay has passed and no stream ran for stream_quiet_; add_first's
    // are due at once). Without one, or while a foreground compile runs, sleep until the next task or save is due
    // or something changes (add, cancel, a foreground compile's end, stop notify work_cv_), then look again.
    const auto now = std::chrono::steady_clock::now();
    const auto stream_quiet_at = std::chrono::steady_clock::time_point(std::chrono::steady_clock::duration(
                                     last_stream_batch_ns_.load(std::memory_order_relaxed))) +
                                 stream_quiet_;
    const auto starts_at = [&](const Batch& b) {
      return b.wanted ? b.not_before : std::max(b.not_before, stream_quiet_at);
    };
    auto due = std::find_if(queue_.begin(), queue_.end(), [&](const Batch& b) { return starts_at(b) <= now; });
    if (due == queue_.end() || foreground_compiles_ != 0) {
      auto wake_at = now + save_interval_;  // (a compile that leaves the cache unsaved wakes a worker: wake_for_save)
      if (cache_.has_unsaved_pipelines()) wake_at = std::min(wake_at, last_save_ + save_interval_);
      if (foreground_compiles_ == 0) {
        for (const Batch& b : queue_) wake_at = std::min(wake_at, starts_at(b));
      }
      const auto slot = sleeper_wakes_.insert(wake_at);
      work_cv_.wait_until(lock, wake_at);
      sleeper_wakes_.erase(slot);
      continue;
    }
    Task task{due->shader, due->sizes[due->next], due->subgroup_size, due->not_before};
    if (++due->next == due->sizes.size()) queue_.erase(due);
    ++running_;
    running_shaders_.push_back(task.shader.get());
    lock.unlock();

    cache_.compile_for_prewarm(PipelineRequest{task.shader.get(), task.size, task.subgroup_size, {}});
    const Shader* finished = task.shader.get();
    task.shader.reset();
    lock.lock();
    --running_;
    running_shaders_.erase(std::find(running_shaders_.begin(), running_shaders_.end(), finished));
    idle_cv_.notify_all();
  }
}

}  // namespace bismuth::backend
