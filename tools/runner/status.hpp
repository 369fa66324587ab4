// Test statuses of `bismuth run`, named as deqp-runner and Mesa CI baselines name them.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace bismuth::tools::runner {

enum class Status {
  Pass,
  Fail,
  Skip,
  Crash,           // the worker died (signal, abort, exit without a result)
  Timeout,         // the worker ran past the per-test limit and was killed
  ExpectedFail,    // XFAIL: failed (FAIL/CRASH/TIMEOUT) as the baseline says
  UnexpectedPass,  // UnexpectedPass: the baseline expects a failure, the test passed
  Flake,           // failed, then passed on a retry (--retry-flakes)
};

const char* to_string(Status status);
// Accepts the names to_string gives, case-insensitively, plus XFAIL/UPASS spellings baselines use.
std::optional<Status> parse_status(std::string_view text);
// A status that makes the run's exit code non-zero.
bool is_unexpected(Status status);
// FAIL, CRASH, TIMEOUT: what a retry may turn into a flake and a baseline may expect.
bool is_failure(Status status);

// What one attempt of one test produced.
struct Outcome {
  Status status = Status::Fail;
  std::string message;  // first failing probe (expected vs observed), skip reason, crash signal...
  std::string device;   // Vulkan device name the test ran on
};

}  // namespace bismuth::tools::runner
