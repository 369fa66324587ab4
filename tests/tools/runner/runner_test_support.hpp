// Helpers of the runner tests: temporary folders with test files, the JUnit checker script, `bismuth run`.
#pragma once

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "support/run_process.hpp"

namespace bismuth::runnertest {

// A fresh folder under the system temp dir, removed at destruction.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }
  // Writes `text` to path()/name (creating folders) and returns the full path.
  std::filesystem::path write(const std::string& name, const std::string& text) const;

 private:
  std::filesystem::path path_;
};

std::string read_file(const std::filesystem::path& path);
// tests/tools/runner/data and the repository's examples/ (source tree, or BISMUTH_SOURCE_DIR-relative copies).
std::filesystem::path data_dir();
std::filesystem::path source_dir();

// `bismuth run ARGS...` with BISMUTH_VALIDATION=1 plus `extra_env`.
test::ProcessResult bismuth_run(const std::vector<std::string>& args, const std::vector<std::string>& extra_env = {});

// `bismuth run ARGS... --json FILE -j 2` and its JSON report, the tests by name.
struct Run {
  test::ProcessResult process;
  nlohmann::json json;
  std::map<std::string, nlohmann::json> tests;
};
Run run_json(std::vector<std::string> args, const std::vector<std::string>& env = {});
// The status / message of one test of the report (the test must be there).
std::string status(const Run& r, const std::string& name);
std::string message(const Run& r, const std::string& name);

// python3 tests/tools/runner/check_junit.py FILE: parses the XML and checks the JUnit structure; prints the counts.
test::ProcessResult check_junit(const std::filesystem::path& file);

}  // namespace bismuth::runnertest
