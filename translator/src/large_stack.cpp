#include "large_stack.hpp"
#include "side_thread.hpp"

#include <pthread.h>
#include <sys/mman.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <exception>
#include <new>
#include <string>

namespace bismuth::translator {

namespace {

// Below the stack: an inaccessible region larger than any single glslang frame, so an overflow faults instead
// of writing past the end (a one-page guard can be jumped by a frame larger than the page).
constexpr size_t kGuardBytes = size_t{1} << 20;

// Runs `work`; what it throws becomes the returned text (empty: it returned).
std::string run_catching(const std::function<void()>& work) {
  try {
    work();
    return {};
  } catch (const std::bad_alloc&) {
    return "out of memory";
  } catch (const std::exception& e) {
    return *e.what() != '\0' ? e.what() : "unknown exception";
  } catch (...) {
    return "unknown exception";
  }
}

struct Job {
  const std::function<void()>* work;
  std::string error;
};

void* thread_main(void* arg) {
  Job& job = *static_cast<Job*>(arg);
  job.error = run_catching(*job.work);
  return nullptr;
}

Status run_on_large_stack(const std::function<void()>& work) {
  // MAP_NORESERVE: the reservation costs address space only; pages are backed as the compile touches them.
  void* region = ::mmap(nullptr, kGuardBytes + kCompilerStackBytes, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
  if (region == MAP_FAILED) {
    return fail("cannot reserve the compiler thread's stack: " + std::string(std::strerror(errno)));
  }
  auto* base = static_cast<char*>(region);
  Status result;
  pthread_attr_t attr;
  int rc = ::mprotect(base, kGuardBytes, PROT_NONE) == 0 ? ::pthread_attr_init(&attr) : errno;
  if (rc == 0) {
    rc = ::pthread_attr_setstack(&attr, base + kGuardBytes, kCompilerStackBytes);
    Job job{&work, {}};
    pthread_t thread;
    if (rc == 0) rc = ::pthread_create(&thread, &attr, thread_main, &job);
    ::pthread_attr_destroy(&attr);
    if (rc == 0) {
      ::pthread_join(thread, nullptr);
      if (!job.error.empty()) result = fail(std::move(job.error));
    }
  }
  if (rc != 0) result = fail("cannot start the compiler thread: " + std::string(std::strerror(rc)));
  ::munmap(region, kGuardBytes + kCompilerStackBytes);
  return result;
}

// The calling thread's stack as [low, high); {0, 0} when unknown. glibc finds the main thread's by reading
// /proc/self/maps, so it is looked up once per thread.
struct StackBounds {
  uintptr_t low = 0;
  uintptr_t high = 0;
};

StackBounds thread_stack() {
  thread_local const StackBounds bounds = [] {
    pthread_attr_t attr;
    if (::pthread_getattr_np(::pthread_self(), &attr) != 0) return StackBounds{};
    void* address = nullptr;
    size_t size = 0;
    const int rc = ::pthread_attr_getstack(&attr, &address, &size);
    ::pthread_attr_destroy(&attr);
    if (rc != 0) return StackBounds{};
    return StackBounds{reinterpret_cast<uintptr_t>(address), reinterpret_cast<uintptr_t>(address) + size};
  }();
  return bounds;
}

}  // namespace

size_t stack_bytes_left() {
  const StackBounds stack = thread_stack();
  const auto here = reinterpret_cast<uintptr_t>(__builtin_frame_address(0));
  // Outside the thread's stack (a coroutine's or a signal stack): unknown, so none.
  return here > stack.low && here <= stack.high ? here - stack.low : 0;
}

Status run_beside(size_t stack_bytes, const std::function<void()>& beside, const std::function<void()>& work) {
  Job job{&beside, {}};
  const std::function<void()> side_job = [&job] { job.error = run_catching(*job.work); };
  // The calling thread's parked side thread where its stack has room (side_thread.hpp): no thread start per compile.
  if (SideThread* side = idle_side_thread(stack_bytes); side != nullptr && side_thread_post(*side, side_job)) {
    try {
      work();
    } catch (...) {
      side_thread_wait(*side);
      throw;
    }
    side_thread_wait(*side);
    if (!job.error.empty()) return fail(std::move(job.error));
    return {};
  }
  // Deeper sources: a thread of their own with twice what the work may need; deeper than that, one after the other.
  constexpr size_t kLargestSideStackBytes = size_t{64} << 20;
  const size_t side_stack = std::max(kSideThreadStackBytes, 2 * stack_bytes);
  pthread_t thread;
  bool started = false;
  // After the exit stop no thread is started (process_exit.hpp): the parts run one after the other.
  if (side_stack <= kLargestSideStackBytes && !side_threads_stopped()) {
    pthread_attr_t attr;
    if (::pthread_attr_init(&attr) == 0) {
      started = ::pthread_attr_setstacksize(&attr, side_stack) == 0 &&
                ::pthread_create(&thread, &attr, thread_main, &job) == 0;
      ::pthread_attr_destroy(&attr);
    }
  }
  if (!started) {
    work();
    job.error = run_catching(beside);
  } else {
    try {
      work();
    } catch (...) {
      ::pthread_join(thread, nullptr);
      throw;
    }
    ::pthread_join(thread, nullptr);
  }
  if (!job.error.empty()) return fail(std::move(job.error));
  return {};
}

Status run_with_stack(size_t stack_bytes, const std::function<void()>& work) {
  if (stack_bytes <= kCompilerStackBytes / 2 && stack_bytes_left() / 2 >= stack_bytes) {
    std::string error = run_catching(work);
    if (!error.empty()) return fail(std::move(error));
    return {};
  }
  return run_on_large_stack(work);
}

}  // namespace bismuth::translator
