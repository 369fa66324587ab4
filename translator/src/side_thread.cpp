// The calling thread's parked side thread (side_thread.hpp).
#include "side_thread.hpp"

#include <pthread.h>

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>

namespace bismuth::translator {

namespace {

// Counts fork()s in the child: a side thread started before the latest one is not in this process.
std::atomic<unsigned> g_fork_generation{0};

void after_fork_in_child() {
  g_fork_generation.fetch_add(1, std::memory_order_relaxed);
}

unsigned fork_generation() {
  static const bool registered = [] { return ::pthread_atfork(nullptr, nullptr, after_fork_in_child) == 0; }();
  (void)registered;
  return g_fork_generation.load(std::memory_order_relaxed);
}

}  // namespace

class SideThread {
 public:
  // False where the thread cannot be started (the object is then not used).
  bool start() {
    pthread_attr_t attr;
    if (::pthread_attr_init(&attr) != 0) return false;
    const bool started = ::pthread_attr_setstacksize(&attr, kSideThreadStackBytes) == 0 &&
                         ::pthread_create(&thread_, &attr, &SideThread::main, this) == 0;
    ::pthread_attr_destroy(&attr);
    generation_ = fork_generation();
    started_ = started;
    return started;
  }

  // Stops and joins the thread (it is idle: every post was waited for).
  ~SideThread() {
    if (!started_) return;
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    work_cv_.notify_one();
    ::pthread_join(thread_, nullptr);
  }

  void post(const std::function<void()>& work) {
    {
      std::lock_guard lock(mutex_);
      work_ = &work;
      done_ = false;
    }
    busy_ = true;
    work_cv_.notify_one();
  }

  void wait() {
    {
      std::unique_lock lock(mutex_);
      done_cv_.wait(lock, [&] { return done_; });
    }
    busy_ = false;
  }

  bool busy() const { return busy_; }
  bool from_this_process() const { return generation_ == g_fork_generation.load(std::memory_order_relaxed); }

 private:
  static void* main(void* arg) {
    static_cast<SideThread*>(arg)->loop();
    return nullptr;
  }

  void loop() {
    ::pthread_setname_np(::pthread_self(), "bismuth-side");
    std::unique_lock lock(mutex_);
    for (;;) {
      work_cv_.wait(lock, [&] { return stopping_ || work_ != nullptr; });
      if (work_ == nullptr) return;  // stopping, and nothing posted
      const std::function<void()>* work = work_;
      lock.unlock();
      (*work)();
      lock.lock();
      work_ = nullptr;
      done_ = true;
      done_cv_.notify_one();
    }
  }

  pthread_t thread_{};
  bool started_ = false;
  unsigned generation_ = 0;
  bool busy_ = false;  // the owner's own flag: posted and not yet waited for (read and written by the owner only)
  std::mutex mutex_;
  std::condition_variable work_cv_;
  std::condition_variable done_cv_;
  const std::function<void()>* work_ = nullptr;  // guarded by mutex_
  bool done_ = false;                            // guarded by mutex_
  bool stopping_ = false;                        // guarded by mutex_
};

namespace {

// Owns the calling thread's side thread; its destructor (at the thread's end) stops and joins it.
struct SideThreadSlot {
  std::unique_ptr<SideThread> side;

  ~SideThreadSlot() {
    // A side thread from before a fork() is not in this process: nothing to join.
    if (side && !side->from_this_process()) (void)side.release();
  }
};

thread_local SideThreadSlot t_slot;

}  // namespace

SideThread* idle_side_thread(size_t stack_bytes) {
  if (2 * stack_bytes > kSideThreadStackBytes) return nullptr;
  SideThreadSlot& slot = t_slot;
  if (slot.side && !slot.side->from_this_process()) {
    (void)slot.side.release();  // the forked child's copy of the parent's: never started here, never joined
  }
  if (!slot.side) {
    auto side = std::make_unique<SideThread>();
    if (!side->start()) return nullptr;  // the parts run one after the other this time; the next call tries again
    slot.side = std::move(side);
  }
  return slot.side->busy() ? nullptr : slot.side.get();
}

void side_thread_post(SideThread& side, const std::function<void()>& work) {
  side.post(work);
}

void side_thread_wait(SideThread& side) {
  side.wait();
}

}  // namespace bismuth::translator
