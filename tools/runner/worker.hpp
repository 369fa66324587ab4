// The worker side of `bismuth run`: the hidden `bismuth run-worker` subcommand runs exactly one test in its own
// process and prints one result line, so that a crash, an abort or a GPU hang costs that test only.
#pragma once

#include <optional>
#include <string>

#include "status.hpp"
#include "test_discovery.hpp"

namespace bismuth::tools::runner {

// The line a worker prints on stdout: kResultPrefix followed by one JSON object {status, message, device}.
inline constexpr const char* kResultPrefix = "BISMUTH-RUN-RESULT ";

// Runs `test` on `device` (a BISMUTH_DEVICE-style selector, empty for the default) in this process.
Outcome run_test_in_process(const TestSpec& test, const std::string& device);

// Honours BISMUTH_RUNNER_FAULT="ACTION:SUBSTRING" in workers only, for the runner's own tests: when the test
// name contains SUBSTRING, ACTION happens instead of the test — crash (SIGSEGV), abort, hang (sleeps forever),
// exit (exit code 3 without a result), or flaky:MARKER (FAIL when the file MARKER does not exist yet, creating
// it; the real test afterwards). run_test_in_process honours one more, validation (a validation-layer message
// sent through KHR_debug after the context exists, which must turn the test into a FAIL).
void inject_fault_if_requested(const TestSpec& test);

std::string encode_result(const Outcome& outcome);
// The outcome of the last result line in `stdout_text`; nullopt when there is none.
std::optional<Outcome> decode_result(const std::string& stdout_text);

}  // namespace bismuth::tools::runner
