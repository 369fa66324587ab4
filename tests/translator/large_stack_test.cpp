// run_beside (translator/src/large_stack.hpp), which runs the GLSL front's GL-rules check parse beside its
// code-generating parse: both parts run, at the same time where a side thread has room for the stack asked for,
// the side thread is joined before the call returns (also when the calling thread's part throws), and what the side
// part throws becomes the returned error.
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

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
