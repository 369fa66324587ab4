// The compiler thread pool of GL_KHR_parallel_shader_compile (compiler_threads.hpp).
#include "compiler_threads.hpp"

#include <pthread.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <system_error>

#include "bismuth/translator/front_threads.hpp"

namespace bismuth::gl {

namespace {

// BISMUTH_COMPILER_THREADS=N: at most N compiler threads per device (0: every compile and link on the calling
// thread, whatever the contexts' hints); read once. Unset or not a number: no bound beyond thread_limit's own.
uint32_t environment_limit() {
  static const uint32_t limit = [] {
    const char* v = std::getenv("BISMUTH_COMPILER_THREADS");
    if (v == nullptr || *v == '\0') return UINT32_MAX;
    char* end = nullptr;
    const unsigned long n = std::strtoul(v, &end, 10);
    if (*end != '\0') return UINT32_MAX;
    return static_cast<uint32_t>(std::min<unsigned long>(n, UINT32_MAX));
  }();
  return limit;
}

}  // namespace

uint32_t CompilerThreads::thread_limit(uint32_t requested) {
  const uint32_t hardware = std::max<uint32_t>(1, std::thread::hardware_concurrency() / 2);
  return std::min({requested, hardware, kMaxThreads, environment_limit()});
}

CompilerThreads::~CompilerThreads() {
  bool registered = false;
  {
    std::lock_guard lock(mutex_);
    registered = registered_;
  }
  if (registered) backend::exit_unregister(*this);
  stop();
}

bool CompilerThreads::submit(CompilerJob job, uint32_t requested_threads) {
  const uint32_t wanted = thread_limit(requested_threads);
  if (wanted == 0) return false;
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return false;
    // Registered before the first thread starts, so that an exit from then on stops them; a pool asked for work
    // while the process exits starts none (the caller compiles in the foreground).
    if (!registered_) {
      if (!backend::exit_register(*this, backend::ExitPhase::Threads)) return false;
      registered_ = true;
    }
    while (threads_.size() < wanted) {
      try {
        threads_.emplace_back([this] { worker_loop(); });
      } catch (const std::system_error&) {
        break;  // no more threads: the ones there are do the work
      }
    }
    if (threads_.empty()) return false;
    queue_.push_back(std::move(job));
  }
  work_cv_.notify_one();
  return true;
}

void CompilerThreads::stop() noexcept {
  std::deque<CompilerJob> abandoned;
  std::vector<std::thread> threads;
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    abandoned.swap(queue_);
    threads.swap(threads_);
  }
  work_cv_.notify_all();
  for (CompilerJob& job : abandoned) job.abandon();
  abandoned.clear();
  for (std::thread& t : threads) {
    if (t.joinable()) t.join();
  }
}

uint32_t CompilerThreads::thread_count() const {
  std::lock_guard lock(mutex_);
  return static_cast<uint32_t>(threads_.size());
}

void CompilerThreads::worker_loop() {
  pthread_setname_np(pthread_self(), "bismuth-compile");
  for (;;) {
    CompilerJob job;
    {
      std::unique_lock lock(mutex_);
      work_cv_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (stopping_ && queue_.empty()) return;
      job = std::move(queue_.front());
      queue_.pop_front();
    }
    job.run();
  }
}

}  // namespace bismuth::gl

namespace bismuth::gl {

namespace {

// The GLSL front's side threads (bismuth/translator/front_threads.hpp): kept between compiles by every thread that
// compiles, the compiler threads and application threads alike; the exit stop ends them with the compiler threads.
class FrontThreadsStop final : public backend::ExitParticipant {
 public:
  void stop_for_exit() noexcept override { translator::stop_front_threads(); }
};

// Once per process, before the first compile of any device (which makes its compiler threads first).
void register_front_threads_stop() {
  static const bool registered = [] {
    static auto* participant = new FrontThreadsStop;  // never destroyed: the exit stop may use it at any time
    // The exit stop has begun: no side thread may be kept from now on.
    if (!backend::exit_register(*participant, backend::ExitPhase::Threads)) translator::stop_front_threads();
    return true;
  }();
  (void)registered;
}

}  // namespace

std::shared_ptr<CompilerThreads> make_compiler_threads() {
  register_front_threads_stop();
  return std::make_shared<CompilerThreads>();
}

}  // namespace bismuth::gl
