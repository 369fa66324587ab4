// Runs a program the way a user would from a shell, for tests of the CLI and the examples.
#pragma once

#include <string>
#include <vector>

namespace bismuth::test {

struct ProcessResult {
  int exit_code = -1;  // -1 when the process did not exit normally
  std::string out;     // stdout
  std::string err;     // stderr
};

// Where a program built by this project is: `built_path` (the build tree's absolute path, compiled in), or, when
// BISMUTH_TEST_BIN_DIR is set, the file of the same name there — so bundled test binaries run on another machine.
std::string tool_path(const std::string& built_path);

// Runs `argv` with `extra_env` ("NAME=value") added to the environment.
ProcessResult run_process(const std::vector<std::string>& argv, const std::vector<std::string>& extra_env = {});

}  // namespace bismuth::test
