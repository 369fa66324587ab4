// run_beside (translator/src/large_stack.hpp), which runs the GLSL front's GL-rules check parse beside its
// code-generating parse: both parts run, at the same time where a side thread has room for the stack asked for,
// the side thread is joined before the call returns (also when the calling thread's part throws), and what the side
// part throws becomes the returned error.
#include <sys/wait.h>
#include <unistd.h>
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "bismuth/translator/front_threads.hpp"
#include "large_stack.hpp"

using bismuth::translator::run_beside;

namespace {

// Waits until `flag` is set, for at most 10 s; whether it was.
bool wait_for(const std::atomic<bool>& flag) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!flag.load()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::yield();
  }
  return true;
}

}  // namespace

TEST_CASE("run_beside runs its two parts at the same time and joins the side thread before returning") {
  std::atomic<bool> beside_started{false}, work_started{false};
  bool beside_saw_work = false, work_saw_beside = false;
  std::thread::id beside_thread;
  auto status = run_beside(
      64 << 10,
      [&] {
        beside_thread = std::this_thread::get_id();
        beside_started = true;
        beside_saw_work = wait_for(work_started);
      },
      [&] {
        work_started = true;
        work_saw_beside = wait_for(beside_started);
      });
  REQUIRE(status);
  // Each part saw the other running: neither waited for the other to end.
  CHECK(beside_saw_work);
  CHECK(work_saw_beside);
  CHECK(beside_thread != std::this_thread::get_id());
}

TEST_CASE("run_beside returns what the side part throws as an error") {
  bool worked = false;
  auto status = run_beside(
      0, [] { throw std::runtime_error("side part failed"); }, [&] { worked = true; });
  REQUIRE_FALSE(status);
  CHECK(status.error().message == "side part failed");
  CHECK(worked);
}

TEST_CASE("run_beside joins the side thread before an exception of the calling thread's part leaves it") {
  std::atomic<bool> beside_done{false};
  bool threw = false;
  try {
    (void)run_beside(
        0,
        [&] {
          std::this_thread::sleep_for(std::chrono::milliseconds(50));
          beside_done = true;
        },
        [] { throw std::runtime_error("work failed"); });
  } catch (const std::runtime_error& e) {
    threw = std::string(e.what()) == "work failed";
    CHECK(beside_done.load());  // joined: the side part has ended by the time the exception arrives
  }
  CHECK(threw);
}

TEST_CASE("run_beside runs the parts one after the other on the calling thread where the stack is too deep") {
  std::vector<std::string> order;
  std::thread::id beside_thread;
  auto status = run_beside(
      size_t{48} << 20,
      [&] {
        beside_thread = std::this_thread::get_id();
        order.push_back("beside");
      },
      [&] { order.push_back("work"); });
  REQUIRE(status);
  CHECK(order == std::vector<std::string>{"work", "beside"});
  CHECK(beside_thread == std::this_thread::get_id());
}

// side_thread.hpp: "one parked thread per calling thread, kept between compiles". Threads by their kernel id, which
// a new thread does not reuse at once (a std::thread::id, a pthread_t, often is: glibc reuses a joined thread's
// descriptor).
TEST_CASE("run_beside keeps the calling thread's side thread between calls, and each thread has its own") {
  // The calling thread's part waits until the side part started: work the side thread has not taken yet when the
  // caller's part ends would run on the calling thread (side_thread.hpp).
  auto side_of_call = [] {
    pid_t side = 0;
    std::atomic<bool> started{false};
    REQUIRE(run_beside(
        64 << 10,
        [&] {
          side = ::gettid();
          started = true;
        },
        [&] { REQUIRE(wait_for(started)); }));
    return side;
  };
  const pid_t first = side_of_call();
  const pid_t second = side_of_call();
  CHECK(first != ::gettid());
  CHECK(first == second);
  pid_t other_threads_side = 0;
  std::thread other([&] { other_threads_side = side_of_call(); });
  other.join();
  CHECK(other_threads_side != first);
  CHECK(other_threads_side != 0);
}

// front_threads.hpp: stop_front_threads "stops and joins every such thread ... from then on the front keeps none",
// and after the exit stop no thread is started at all (side_thread.hpp); side_thread.hpp: "After fork() the child's
// copy names a thread the child does not have: it is dropped there (never joined) and a new one started". The stop
// is for good, so it runs in a forked child, which also checks the fork rule.
TEST_CASE("After fork a new side thread, after stop_front_threads none: the parts run one after the other") {
#if defined(__SANITIZE_THREAD__)
  // ThreadSanitizer does not support starting threads in the child of a multi-threaded fork (it ends the child).
  WARN("not under ThreadSanitizer: a thread started in a forked child ends the child");
  return;
#endif
  const std::thread::id parents_side = [] {
    std::thread::id side;
    std::atomic<bool> started{false};
    REQUIRE(run_beside(
        64 << 10,
        [&] {
          side = std::this_thread::get_id();
          started = true;
        },
        [&] { REQUIRE(wait_for(started)); }));
    return side;
  }();
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    int code = 0;
    std::atomic<bool> beside_started{false};
    // A side thread of the child's own, running beside the work (the parent's would never run it: a hang).
    const auto ran_beside = run_beside(
        64 << 10, [&] { beside_started = true; }, [&] { code |= wait_for(beside_started) ? 0 : 1; });
    if (!ran_beside) code |= 2;
    bismuth::translator::stop_front_threads();
    std::vector<std::string> order;
    std::thread::id beside_thread;
    const auto ran_after = run_beside(
        64 << 10,
        [&] {
          beside_thread = std::this_thread::get_id();
          order.push_back("beside");
        },
        [&] { order.push_back("work"); });
    if (!ran_after) code |= 4;
    if (order != std::vector<std::string>{"work", "beside"} || beside_thread != std::this_thread::get_id()) code |= 8;
    ::_exit(code);
  }
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  CHECK(parents_side != std::this_thread::get_id());  // the parent had one before the fork
}
