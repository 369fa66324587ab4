#include "runner_test_support.hpp"

#include <unistd.h>

#include <catch2/catch.hpp>

#include <atomic>
#include <fstream>
#include <sstream>

namespace bismuth::runnertest {

namespace fs = std::filesystem;

TempDir::TempDir() {
  static std::atomic<int> counter{0};
  path_ =
      fs::temp_directory_path() / ("bismuth_runner_test_" + std::to_string(getpid()) + "_" + std::to_string(counter++));
  fs::remove_all(path_);
  fs::create_directories(path_);
}

TempDir::~TempDir() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

fs::path TempDir::write(const std::string& name, const std::string& text) const {
  const fs::path p = path_ / name;
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << text;
  return p;
}

std::string read_file(const fs::path& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

// The source tree this binary was built from, else the working directory (bundled runs from a repository copy).
fs::path source_dir() {
  const fs::path built = BISMUTH_SOURCE_DIR;
  if (fs::exists(built / "tests/tools/runner/data")) return built;
  return fs::current_path();
}

fs::path data_dir() {
  return source_dir() / "tests/tools/runner/data";
}

test::ProcessResult bismuth_run(const std::vector<std::string>& args, const std::vector<std::string>& extra_env) {
  std::vector<std::string> argv = {test::tool_path(BISMUTH_CLI_PATH), "run"};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<std::string> env = {"BISMUTH_VALIDATION=1"};
  env.insert(env.end(), extra_env.begin(), extra_env.end());
  return test::run_process(argv, env);
}

Run run_json(std::vector<std::string> args, const std::vector<std::string>& env) {
  TempDir dir;
  const fs::path json = dir.path() / "out.json";
  args.insert(args.end(), {"--json", json.string(), "-j", "2"});
  Run r;
  r.process = bismuth_run(args, env);
  INFO(r.process.out << r.process.err);
  REQUIRE(fs::exists(json));
  r.json = nlohmann::json::parse(read_file(json));
  for (const auto& t : r.json["tests"]) r.tests[t["name"].get<std::string>()] = t;
  return r;
}

std::string status(const Run& r, const std::string& name) {
  INFO(name);
  REQUIRE(r.tests.count(name) == 1);
  return r.tests.at(name)["status"];
}

std::string message(const Run& r, const std::string& name) {
  INFO(name);
  REQUIRE(r.tests.count(name) == 1);
  return r.tests.at(name)["message"];
}

test::ProcessResult check_junit(const fs::path& file) {
  return test::run_process(
      {"/usr/bin/env", "python3", (source_dir() / "tests/tools/runner/check_junit.py").string(), file.string()});
}

}  // namespace bismuth::runnertest
