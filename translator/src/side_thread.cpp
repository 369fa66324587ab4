// The calling thread's parked side thread (side_thread.hpp) and the exit stop of all of them (front_threads.hpp).
#include "side_thread.hpp"

#include <pthread.h>

#include <algorithm>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "bismuth/translator/front_threads.hpp"

namespace bismuth::translator {

class SideThread {
 public:
  SideThread() = default;
  SideThread(const SideThread&) = delete;
  SideThread& operator=(const SideThread&) = delete;

  // False where the thread cannot be started (the object is then not used).
  bool start() {
    pthread_attr_t attr;
    if (::pthread_attr_init(&attr) != 0) return false;
    started_ = ::pthread_attr_setstacksize(&attr, kSideThreadStackBytes) == 0 &&
               ::pthread_create(&thread_, &attr, &SideThread::main, this) == 0;
    ::pthread_attr_destroy(&attr);
    return started_;
  }

  // Lets the thread finish what it runs, ends it and joins it; once, whoever calls first (its owner's end or the exit
  // stop). Posts after it are refused.
  void stop_and_join() noexcept {
    const std::lock_guard join_lock(join_mutex_);
    if (!started_ || joined_) return;
    {
      const std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    work_cv_.notify_one();
    ::pthread_join(thread_, nullptr);
    joined_ = true;
  }

  // False (nothing posted) once the thread was stopped.
  bool post(const std::function<void()>& work) {
    {
      const std::lock_guard lock(mutex_);
      if (stopping_) return false;
      work_ = &work;
      done_ = false;
    }
    busy_ = true;
    work_cv_.notify_one();
    return true;
  }

  // Waits until the posted work has ended; where the thread has not taken it yet (it is still waking up, or waits
  // for a core), runs it here instead: the caller would only wait for it.
  void wait() {
    std::unique_lock lock(mutex_);
    if (work_ != nullptr) {
      const std::function<void()>* work = std::exchange(work_, nullptr);
      lock.unlock();
      (*work)();
    } else {
      done_cv_.wait(lock, [&] { return done_; });
    }
    busy_ = false;
  }

  bool busy() const { return busy_; }

 private:
  static void* main(void* arg) {
    static_cast<SideThread*>(arg)->loop();
    return nullptr;
  }

  // Runs what is posted until stopped; a job posted before the stop is run first.
  void loop() {
    ::pthread_setname_np(::pthread_self(), "bismuth-side");
    std::unique_lock lock(mutex_);
    for (;;) {
      work_cv_.wait(lock, [&] { return stopping_ || work_ != nullptr; });
      if (work_ == nullptr) return;
      const std::function<void()>* work = std::exchange(work_, nullptr);  // taken: the owner's wait waits for it
      lock.unlock();
      (*work)();
      lock.lock();
      done_ = true;
      done_cv_.notify_one();
    }
  }

  pthread_t thread_{};
  bool started_ = false;
  bool busy_ = false;  // posted and not yet waited for: the owner's own flag, only its thread reads or writes it
  std::mutex join_mutex_;
  bool joined_ = false;  // guarded by join_mutex_
  std::mutex mutex_;
  std::condition_variable work_cv_;
  std::condition_variable done_cv_;
  const std::function<void()>* work_ = nullptr;  // guarded by mutex_
  bool done_ = false;                            // guarded by mutex_
  bool stopping_ = false;                        // guarded by mutex_
};

namespace {

// Every side thread of the process, for the exit stop. Never destroyed: threads end after static destructors.
struct Registry {
  std::mutex mutex;
  std::vector<SideThread*> threads;  // guarded by mutex
  bool stopped = false;              // guarded by mutex: stop_front_threads ran; no side thread is started again
};

void lock_for_fork();
void unlock_after_fork();
void clear_in_forked_child();

Registry& registry() {
  static Registry* r = [] {
    auto* created = new Registry;
    // fork() copies the registry, not the threads: the child forgets the parent's (never joined there).
    ::pthread_atfork(lock_for_fork, unlock_after_fork, clear_in_forked_child);
    return created;
  }();
  return *r;
}

void lock_for_fork() {
  registry().mutex.lock();
}
void unlock_after_fork() {
  registry().mutex.unlock();
}
// Counts fork()s in the child: a thread's slot compares it to learn that its side thread stayed in the parent.
unsigned g_generation = 0;  // written in the child only, before it has other threads
void clear_in_forked_child() {
  Registry& r = registry();
  r.threads.clear();
  ++g_generation;
  r.mutex.unlock();
}

// Owns the calling thread's side thread; at the thread's end it stops and joins it.
struct SideThreadSlot {
  std::unique_ptr<SideThread> side;
  unsigned generation = 0;

  // Drops a side thread of the parent process (after fork): not in this process, nothing to join.
  void forget_if_forked() {
    if (side && generation != g_generation) (void)side.release();
  }

  ~SideThreadSlot() {
    forget_if_forked();
    if (!side) return;
    {
      Registry& r = registry();
      const std::lock_guard lock(r.mutex);  // waits for an exit stop in progress, which may be joining it
      std::erase(r.threads, side.get());
    }
    side->stop_and_join();
  }
};

thread_local SideThreadSlot t_slot;

}  // namespace

SideThread* idle_side_thread(size_t stack_bytes) {
  if (2 * stack_bytes > kSideThreadStackBytes) return nullptr;
  SideThreadSlot& slot = t_slot;
  slot.forget_if_forked();
  if (!slot.side) {
    Registry& r = registry();
    const std::lock_guard lock(r.mutex);
    if (r.stopped) return nullptr;
    auto side = std::make_unique<SideThread>();
    if (!side->start()) return nullptr;  // the parts run as before this time; the next call tries again
    r.threads.push_back(side.get());
    slot.side = std::move(side);
    slot.generation = g_generation;
  }
  return slot.side->busy() ? nullptr : slot.side.get();
}

bool side_thread_post(SideThread& side, const std::function<void()>& work) {
  return side.post(work);
}

void side_thread_wait(SideThread& side) {
  side.wait();
}

bool side_threads_stopped() {
  Registry& r = registry();
  const std::lock_guard lock(r.mutex);
  return r.stopped;
}

void stop_front_threads() noexcept {
  Registry& r = registry();
  const std::lock_guard lock(r.mutex);
  r.stopped = true;
  for (SideThread* side : r.threads) side->stop_and_join();
  // The owners still hold them (stopped: they refuse posts) and remove them at their end.
}

}  // namespace bismuth::translator
