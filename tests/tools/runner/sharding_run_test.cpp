// CI at scale end to end: `bismuth run --fraction N --fraction-start K` over examples/shader_tests in N shards,
// `bismuth merge-results` of their JSON and JUnit reports back into one report equal to the unsharded run, and the
// selection options on the command line.
#include <catch2/catch.hpp>

#include <set>

#include "runner_test_support.hpp"

using namespace bismuth::runnertest;
namespace fs = std::filesystem;

namespace {

bismuth::test::ProcessResult merge_results(const std::vector<std::string>& args) {
  std::vector<std::string> argv = {bismuth::test::tool_path(BISMUTH_CLI_PATH), "merge-results"};
  argv.insert(argv.end(), args.begin(), args.end());
  return bismuth::test::run_process(argv, {});
}

}  // namespace

TEST_CASE("Three --fraction shards cover the suite once and merge-results gives the unsharded run's report",
          "[vulkan]") {
  const std::string suite = (source_dir() / "examples/shader_tests").string();
  const auto full = run_json({suite});
  REQUIRE(full.process.exit_code == 0);
  REQUIRE(full.tests.size() >= 3);

  TempDir dir;
  std::vector<std::string> shard_files;
  std::multiset<std::string> seen;
  for (int k = 1; k <= 3; ++k) {
    const std::string json = (dir.path() / ("shard" + std::to_string(k) + ".json")).string();
    const std::string junit = (dir.path() / ("shard" + std::to_string(k) + ".xml")).string();
    const auto r = bismuth_run(
        {suite, "--fraction", "3", "--fraction-start", std::to_string(k), "-j", "2", "--json", json, "--junit", junit});
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.err, Catch::Contains("in other fractions"));
    const auto j = nlohmann::json::parse(read_file(json));
    for (const auto& t : j["tests"]) seen.insert(t["name"].get<std::string>());
    // Shards 1 and 3 as JSON, shard 2 as JUnit: merge-results takes both.
    shard_files.push_back(k == 2 ? junit : json);
  }
  CHECK(seen.size() == full.tests.size());
  for (const auto& [name, t] : full.tests) CHECK(seen.count(name) == 1);

  const std::string merged_json = (dir.path() / "merged.json").string();
  const std::string merged_junit = (dir.path() / "merged.xml").string();
  const std::string baseline = (dir.path() / "fails.txt").string();
  std::vector<std::string> args = shard_files;
  args.insert(args.end(), {"--json", merged_json, "--junit", merged_junit, "--baseline-out", baseline});
  const auto merged = merge_results(args);
  INFO(merged.out << merged.err);
  REQUIRE(merged.exit_code == 0);
  CHECK_THAT(merged.out, Catch::Contains("status          count"));
  const auto j = nlohmann::json::parse(read_file(merged_json));
  REQUIRE(j["tests"].size() == full.tests.size());
  for (const auto& t : j["tests"]) {
    const std::string name = t["name"];
    CHECK(t["status"] == full.tests.at(name)["status"]);
  }
  CHECK(j["counts"] == full.json["counts"]);
  const auto checked = check_junit(merged_junit);
  INFO(checked.out << checked.err);
  CHECK(checked.exit_code == 0);
  // Everything passed or skipped: the baseline has its header only.
  CHECK(read_file(baseline) ==
        "# bismuth merge-results: 0 failing of " + std::to_string(full.tests.size()) + " tests\n");
}

TEST_CASE(
    "merge-results: a failing shard fails the merge (exit 1) and its failures form the baseline, and overlapping "
    "shards exit 2") {
  TempDir dir;
  const auto a = dir.write("a.json",
                           R"({"time": 1, "tests": [{"name": "x/fails", "status": "Fail", "message": "probe"},
                                                    {"name": "x/passes", "status": "Pass"}]})");
  const auto b = dir.write("b.json", R"({"time": 2, "tests": [{"name": "y/crashes", "status": "Crash"}]})");
  const std::string baseline = (dir.path() / "fails.txt").string();
  auto r = merge_results({a.string(), b.string(), "--baseline-out", baseline, "-q"});
  CHECK(r.exit_code == 1);
  CHECK(read_file(baseline) == "# bismuth merge-results: 2 failing of 3 tests\nx/fails,Fail\ny/crashes,Crash\n");
  r = merge_results({a.string(), a.string()});
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("\"x/fails\" is in"));
  r = merge_results({(dir.path() / "missing.xml").string()});
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("missing.xml: cannot read the file"));
}

TEST_CASE("bismuth run --include / --exclude / --skips select by name, and a filter that leaves nothing is exit 2",
          "[vulkan]") {
  const std::string suite = (source_dir() / "examples/shader_tests").string();
  auto r = run_json({suite, "--include", "variable_group_size_[12]d$", "--exclude", "2d"});
  CHECK(r.process.exit_code == 0);
  CHECK(r.tests.size() == 1);
  CHECK(r.tests.count("variable_group_size_1d") == 1);
  // One value per --include: the input after it stays an input.
  r = run_json({"--include", "variable_group_size_3d", suite});
  CHECK(r.process.exit_code == 0);
  CHECK(r.tests.size() == 1);
  CHECK(r.tests.count("variable_group_size_3d") == 1);

  TempDir dir;
  const auto skips = dir.write("skips.txt", "# every variable-size test\nvariable_group_size\n");
  r = run_json({suite, "--skips", skips.string()});
  CHECK(r.process.exit_code == 0);
  for (const auto& [name, t] : r.tests) CHECK(name.find("variable_group_size") == std::string::npos);

  const auto none = bismuth_run({suite, "--include", "no-such-test"});
  CHECK(none.exit_code == 2);
  CHECK_THAT(none.err, Catch::Contains("leave none of the"));
  const auto bad = bismuth_run({suite, "--fraction", "2", "--fraction-start", "3"});
  CHECK(bad.exit_code == 2);
  CHECK_THAT(bad.err, Catch::Contains("--fraction-start must be from 1 to --fraction (2), got 3"));
  const auto zero = bismuth_run({suite, "--fraction", "0"});
  CHECK(zero.exit_code != 0);
}
