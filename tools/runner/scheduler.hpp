// Runs tests in worker processes: `jobs` slots, each pinned to one device (slots are dealt round-robin over the
// devices, so with --devices all every device gets the same number of workers), pulling from one shared queue
// so that the shards stay balanced whatever each test costs. A worker that dies is CRASH, one that runs past the
// timeout is killed and TIMEOUT; neither stops the run.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "status.hpp"
#include "test_discovery.hpp"

namespace bismuth::tools::runner {

struct DeviceTarget {
  std::string selector;  // passed to the worker (BISMUTH_DEVICE syntax); empty: the worker's default
  std::string name;      // for reports when the worker could not say (crash, timeout)
};

struct TestResult {
  TestSpec test;
  Outcome outcome;
  double seconds = 0;
  int attempts = 1;
};

struct SchedulerOptions {
  int jobs = 1;
  std::vector<DeviceTarget> devices{DeviceTarget{}};
  // Seconds per attempt, (0, kMaxTimeoutSeconds]; a value outside (NaN, infinite, negative, larger) is taken as
  // the nearest bound, so the deadline arithmetic cannot overflow (the CLI rejects such values before).
  double timeout_seconds = 60;
  int retry_flakes = 0;  // extra attempts for FAIL/CRASH/TIMEOUT; a later PASS makes the test a Flake
  // The worker's argv for one test on one device.
  std::function<std::vector<std::string>(const TestSpec&, const DeviceTarget&)> worker_command;
  // Called after each finished test (not after each attempt), from the scheduler's thread.
  std::function<void(const TestResult&, size_t done, size_t total)> on_result;
};

// The longest --timeout: about 11.6 days, far inside steady_clock's range (a duration of 1e10 s in nanoseconds
// overflows it).
inline constexpr double kMaxTimeoutSeconds = 1e6;
// The smallest: one millisecond (the poll granularity).
inline constexpr double kMinTimeoutSeconds = 1e-3;

// The device index of each of `jobs` slots over `devices` devices: round-robin, at least one slot per device.
std::vector<size_t> slot_devices(int jobs, size_t devices);

// Runs every test; the results are in the order of `tests`.
std::vector<TestResult> run_scheduled(const std::vector<TestSpec>& tests, const SchedulerOptions& options);

}  // namespace bismuth::tools::runner
