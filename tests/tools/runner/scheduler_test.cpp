// The scheduler with fake workers (/bin/sh scripts printing a result line): crash, hang, exit without a result,
// flakes, device pinning and balance — the process handling without any GPU.
#include <catch2/catch.hpp>

#include <limits>
#include <map>

#include "runner_test_support.hpp"
#include "scheduler.hpp"
#include "worker.hpp"

using namespace bismuth::tools::runner;

namespace {

std::vector<TestSpec> specs(const std::vector<std::string>& names) {
  std::vector<TestSpec> out;
  for (const auto& n : names) out.push_back({TestSpec::Kind::ShaderTest, n, n, ""});
  return out;
}

// A worker that reports Pass and the device it was pinned to.
std::string pass_script(const DeviceTarget& device, const std::string& extra = "") {
  return extra + "printf '%s{\"status\":\"Pass\",\"message\":\"\",\"device\":\"" + device.name + "\"}\\n' '" +
         kResultPrefix + "'";
}

SchedulerOptions options_with(std::function<std::string(const TestSpec&, const DeviceTarget&)> script) {
  SchedulerOptions o;
  o.jobs = 2;
  o.devices = {{"0", "fake0"}};
  o.timeout_seconds = 10;
  o.worker_command = [script](const TestSpec& t, const DeviceTarget& d) {
    return std::vector<std::string>{"/bin/sh", "-c", script(t, d)};
  };
  return o;
}

}  // namespace

TEST_CASE("A worker that reports a result gives that result, with its device") {
  auto results = run_scheduled(specs({"a", "b"}), options_with([](auto&, auto& d) { return pass_script(d); }));
  REQUIRE(results.size() == 2);
  for (const auto& r : results) {
    CHECK(r.outcome.status == Status::Pass);
    CHECK(r.outcome.device == "[0] fake0");
    CHECK(r.attempts == 1);
  }
}

TEST_CASE("A worker killed by a signal is Crash for that test only") {
  auto results =
      run_scheduled(specs({"crashes", "passes"}), options_with([](const TestSpec& t, auto& d) {
                      return t.name == "crashes" ? std::string("echo dying >&2; kill -SEGV $$") : pass_script(d);
                    }));
  CHECK(results[0].outcome.status == Status::Crash);
  CHECK_THAT(results[0].outcome.message, Catch::Contains("signal 11") && Catch::Contains("dying"));
  CHECK(results[0].outcome.device == "[0] fake0");
  CHECK(results[1].outcome.status == Status::Pass);
}

TEST_CASE("A worker that reports and then dies is Crash, saying what it had reported") {
  auto results =
      run_scheduled(specs({"x"}), options_with([](auto&, auto& d) { return pass_script(d) + "; kill -ABRT $$"; }));
  CHECK(results[0].outcome.status == Status::Crash);
  CHECK_THAT(results[0].outcome.message, Catch::Contains("signal 6") && Catch::Contains("after reporting Pass"));
}

TEST_CASE("A worker that exits without a result line is Crash with its exit code") {
  auto results = run_scheduled(specs({"x"}), options_with([](auto&, auto&) { return std::string("exit 3"); }));
  CHECK(results[0].outcome.status == Status::Crash);
  CHECK_THAT(results[0].outcome.message, Catch::Contains("exited with code 3"));
}

TEST_CASE("A worker past the timeout is killed with everything it started, and is Timeout") {
  auto o = options_with([](const TestSpec& t, auto& d) {
    return t.name == "hangs" ? std::string("sleep 30 & sleep 30") : pass_script(d);
  });
  o.timeout_seconds = 0.5;
  const auto start = std::chrono::steady_clock::now();
  auto results = run_scheduled(specs({"hangs", "passes"}), o);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CHECK(results[0].outcome.status == Status::Timeout);
  CHECK(results[1].outcome.status == Status::Pass);
  CHECK(seconds < 5);  // neither the worker nor its background child kept the run waiting
}

TEST_CASE("The Timeout message gives the timeout as set, fractions included") {
  auto o = options_with([](auto&, auto&) { return std::string("sleep 30"); });
  o.timeout_seconds = 0.5;
  auto results = run_scheduled(specs({"hangs"}), o);
  CHECK(results[0].outcome.status == Status::Timeout);
  // It said "no result after 0 s": the seconds were truncated to an int.
  CHECK_THAT(results[0].outcome.message, Catch::StartsWith("no result after 0.5 s"));
}

TEST_CASE("A NaN or huge timeout does not time a test out at once (the deadline arithmetic must not overflow)") {
  // 1e10 s in steady_clock nanoseconds is past INT64_MAX and NaN has no integer value: both gave a deadline in the
  // past and "no result after -2147483648 s". The scheduler bounds the timeout (the CLI rejects such values).
  for (const double timeout :
       {std::numeric_limits<double>::quiet_NaN(), 1e10, 1e300, std::numeric_limits<double>::infinity()}) {
    INFO(timeout);
    auto o = options_with([](auto&, auto& d) { return std::string("sleep 0.2; ") + pass_script(d); });
    o.timeout_seconds = timeout;
    auto results = run_scheduled(specs({"slow"}), o);
    CHECK(results[0].outcome.status == Status::Pass);
  }
}

TEST_CASE("Retries: a failure that passes on a retry is Flake, one that keeps failing stays Fail") {
  bismuth::runnertest::TempDir dir;
  const std::string marker = (dir.path() / "flaky").string();
  auto o = options_with([marker](const TestSpec& t, auto& d) {
    if (t.name == "always") return std::string("exit 1");
    // Fails the first time (creating the marker), passes afterwards.
    return "if [ -e '" + marker + "' ]; then " + pass_script(d) + "; else touch '" + marker + "'; exit 1; fi";
  });
  o.retry_flakes = 2;
  auto results = run_scheduled(specs({"flaky", "always"}), o);
  CHECK(results[0].outcome.status == Status::Flake);
  CHECK(results[0].attempts == 2);
  CHECK(results[1].outcome.status == Status::Crash);
  CHECK(results[1].attempts == 3);
}

TEST_CASE("Worker slots are dealt round-robin over the devices, at least one per device") {
  CHECK(slot_devices(4, 2) == std::vector<size_t>{0, 1, 0, 1});
  CHECK(slot_devices(1, 3) == std::vector<size_t>{0, 1, 2});
  CHECK(slot_devices(3, 1) == std::vector<size_t>{0, 0, 0});
  CHECK(slot_devices(0, 1) == std::vector<size_t>{0});
}

TEST_CASE("Sharding over two devices: each worker is pinned to its device, the shards are balanced, results merge") {
  std::vector<std::string> names;
  for (int i = 0; i < 16; ++i) names.push_back("t" + std::to_string(100 + i));
  auto o = options_with([](auto&, const DeviceTarget& d) { return std::string("sleep 0.05; ") + pass_script(d); });
  o.jobs = 4;
  o.devices = {{"0", "fake0"}, {"1", "fake1"}};
  auto results = run_scheduled(specs(names), o);
  REQUIRE(results.size() == 16);
  std::map<std::string, int> per_device;
  for (size_t i = 0; i < results.size(); ++i) {
    CHECK(results[i].test.name == names[i]);  // merged in input order
    CHECK(results[i].outcome.status == Status::Pass);
    per_device[results[i].outcome.device] += 1;
  }
  CHECK(per_device.size() == 2);
  CHECK(per_device["[0] fake0"] >= 6);
  CHECK(per_device["[1] fake1"] >= 6);
}

TEST_CASE("Sharding balances by cost: a slow device takes fewer tests than a fast one") {
  std::vector<std::string> names;
  for (int i = 0; i < 12; ++i) names.push_back("t" + std::to_string(100 + i));
  auto o = options_with([](auto&, const DeviceTarget& d) {
    return std::string(d.name == "slow" ? "sleep 0.6; " : "sleep 0.05; ") + pass_script(d);
  });
  o.jobs = 2;
  o.devices = {{"0", "slow"}, {"1", "fast"}};
  auto results = run_scheduled(specs(names), o);
  int slow = 0, fast = 0;
  for (const auto& r : results) (r.outcome.device == "[0] slow" ? slow : fast) += 1;
  CHECK(slow + fast == 12);
  CHECK(fast > slow);
}

TEST_CASE("Result lines round-trip, and output without one decodes to nothing") {
  const Outcome o{Status::Skip, "needs \"x\"\nline two", "dev"};
  const auto decoded = decode_result("noise\n" + std::string(kResultPrefix) + encode_result(o) + "\n");
  REQUIRE(decoded);
  CHECK(decoded->status == Status::Skip);
  CHECK(decoded->message == o.message);
  CHECK(decoded->device == "dev");
  CHECK_FALSE(decode_result("no result here\n"));
  CHECK_FALSE(decode_result(std::string(kResultPrefix) + "{not json"));
  CHECK_FALSE(decode_result(std::string(kResultPrefix) + "{\"status\":\"Bogus\"}"));
}
