// GL_KHR_parallel_shader_compile's compiler threads: one pool per DeviceState that runs the expensive part of
// glCompileShader (the front's compile) and glLinkProgram (the link from source) off the application's thread
// (parallel_compile.hpp decides what goes here). Threads start on the first job, as many as the contexts' hints
// ask for (glMaxShaderCompilerThreadsKHR) within thread_limit().
//
// Exit and teardown (process_exit.hpp): the pool is an ExitParticipant of phase Threads. At exit, and when its
// DeviceState is destroyed, queued jobs are abandoned — each completes its result with a failure, so that nothing
// waits for them forever — the running ones finish and the threads are joined. Jobs reference the DeviceState;
// it owns the pool and stops it first in its destructor, so it outlives every job.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "bismuth/backend/process_exit.hpp"
#include "gl_internal.hpp"

namespace bismuth::gl {

// One job: exactly one of `run` (on a compiler thread) and `abandon` (on the thread that stops the pool) is called,
// once. Neither may throw; each completes the job's result.
struct CompilerJob {
  std::function<void()> run;
  std::function<void()> abandon;
};

class CompilerThreads final : public backend::ExitParticipant {
 public:
  // At most this many threads per device: compiles are CPU-bound and the application's threads need cores too.
  static constexpr uint32_t kMaxThreads = 8;
  // The threads a hint allows: min(requested, max(1, hardware threads / 2), kMaxThreads, BISMUTH_COMPILER_THREADS).
  // 0 for a hint of 0 (and BISMUTH_COMPILER_THREADS=0).
  static uint32_t thread_limit(uint32_t requested);

  CompilerThreads() = default;
  ~CompilerThreads();
  CompilerThreads(const CompilerThreads&) = delete;
  CompilerThreads& operator=(const CompilerThreads&) = delete;

  // Queues `job`, first starting threads up to thread_limit(requested_threads). False — the job is not taken, the
  // caller does the work itself — when the hint is 0, the process is exiting, the pool was stopped or no thread
  // could be started.
  bool submit(CompilerJob job, uint32_t requested_threads);

  // Abandons the queued jobs, lets the running ones finish and joins the threads. Idempotent; later submits fail.
  void stop() noexcept;
  void stop_for_exit() noexcept override { stop(); }

  uint32_t thread_count() const;

 private:
  void worker_loop();

  mutable std::mutex mutex_;
  std::condition_variable work_cv_;
  std::deque<CompilerJob> queue_;
  std::vector<std::thread> threads_;
  bool registered_ = false;
  bool stopping_ = false;
};

}  // namespace bismuth::gl
