// bismuth merge-results: shards written by reports.cpp (JSON and JUnit) read back to the same results, merged into
// one sorted list and one baseline; overlapping or malformed shards are clear errors.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "baseline.hpp"
#include "merge_results.hpp"
#include "reports.hpp"
#include "runner_test_support.hpp"

using namespace bismuth::tools::runner;
using bismuth::runnertest::TempDir;

namespace {

TestResult result(const std::string& name, Status status, const std::string& message = "",
                  const std::string& device = "[0] llvmpipe (LLVM 15.0.6, 256 bits)") {
  TestResult r;
  r.test.name = name;
  r.test.path = "/suite/" + name + ".shader_test";
  r.outcome = {status, message, device};
  r.seconds = 0.5;
  return r;
}

std::vector<TestResult> shard_a() {
  return {result("spec/a/pass", Status::Pass), result("spec/a/fail", Status::Fail, "probe failed: <1> & \"2\""),
          result("spec/a/skip", Status::Skip, "requires GL_ARB_foo"),
          result("spec/a/crash", Status::Crash, "signal SIGSEGV")};
}
std::vector<TestResult> shard_b() {
  auto xfail = result("spec/b/xfail", Status::ExpectedFail, "expected Fail (baseline), got Timeout: no result");
  auto flake = result("spec/b/flake", Status::Flake, "passed on attempt 2");
  flake.attempts = 2;
  return {result("top", Status::Timeout, "no result after 60 s", "[1] NVIDIA H100 80GB HBM3; rev 1"), xfail, flake,
          result("spec/b/upass", Status::UnexpectedPass, "the baseline expects Fail; remove the line")};
}

// JUnit has no message for passing test cases (Pass, Flake): `junit` leaves those out of the comparison.
void check_same(const std::vector<TestResult>& got, const std::vector<TestResult>& want, bool junit = false) {
  REQUIRE(got.size() == want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    INFO(want[i].test.name);
    CHECK(got[i].test.name == want[i].test.name);
    CHECK(got[i].outcome.status == want[i].outcome.status);
    const bool passed = want[i].outcome.status == Status::Pass || want[i].outcome.status == Status::Flake;
    if (!junit || !passed) CHECK(got[i].outcome.message == want[i].outcome.message);
    CHECK(got[i].outcome.device == want[i].outcome.device);
    CHECK(got[i].seconds == Approx(want[i].seconds));
    CHECK(got[i].attempts == want[i].attempts);
  }
}

}  // namespace

TEST_CASE("A JSON shard reads back to the results it was written from") {
  auto shard = parse_shard(results_json(shard_a(), 3.0), "a.json");
  REQUIRE(shard);
  check_same(shard->results, shard_a());
  CHECK(shard->seconds == Approx(3.0));
}

TEST_CASE("A JUnit shard reads back to the same names, statuses, messages, devices and attempts") {
  for (const auto& results : {shard_a(), shard_b()}) {
    auto shard = parse_shard(junit_xml(results, 2.0), "a.xml");
    REQUIRE(shard);
    check_same(shard->results, results, true);
    CHECK(shard->seconds == Approx(2.0));
  }
}

TEST_CASE("A JUnit file from another tool: failure/error/skipped children decide the status") {
  const char* xml = R"(<?xml version="1.0"?>
<!-- written by some other runner -->
<testsuite name="x" time="4.5">
  <testcase classname="bismuth.spec/x" name="ok" time="0.1"/>
  <testcase classname="other" name="bad"><failure message="a &lt; b &#x41;&#66;"><![CDATA[details <here>]]></failure></testcase>
  <testcase classname="bismuth" name="gone"><error message="boom"/></testcase>
  <testcase classname="bismuth.spec" name="later"><skipped/></testcase>
</testsuite>)";
  auto shard = parse_shard(xml, "other.xml");
  REQUIRE(shard);
  REQUIRE(shard->results.size() == 4);
  CHECK(shard->results[0].test.name == "spec/x/ok");
  CHECK(shard->results[0].outcome.status == Status::Pass);
  CHECK(shard->results[1].test.name == "other/bad");
  CHECK(shard->results[1].outcome.status == Status::Fail);
  CHECK(shard->results[1].outcome.message == "a < b AB");
  CHECK(shard->results[2].test.name == "gone");
  CHECK(shard->results[2].outcome.status == Status::Crash);
  CHECK(shard->results[3].outcome.status == Status::Skip);
  CHECK(shard->seconds == Approx(4.5));
}

TEST_CASE("merge-results joins JSON and JUnit shards, sorted by name, and the time is the longest shard's") {
  TempDir dir;
  const auto a = dir.write("a.json", results_json(shard_a(), 3.0));
  const auto b = dir.write("b.xml", junit_xml(shard_b(), 7.0));
  auto merged = merge_shards({a.string(), b.string()});
  REQUIRE(merged);
  REQUIRE(merged->results.size() == 8);
  for (size_t i = 1; i < merged->results.size(); ++i) {
    CHECK(merged->results[i - 1].test.name < merged->results[i].test.name);
  }
  CHECK(merged->seconds == Approx(7.0));
}

TEST_CASE("The merged baseline lists every failure with its status, ExpectedFail as the failure it stands for") {
  std::vector<TestResult> all = shard_a();
  for (auto& r : shard_b()) all.push_back(r);
  const std::string text = baseline_text(all);
  // Crash, Fail, Timeout, and the ExpectedFail that was a Timeout; not Pass, Skip, Flake, UnexpectedPass.
  CHECK(text ==
        "# bismuth merge-results: 4 failing of 8 tests\n"
        "spec/a/crash,Crash\n"
        "spec/a/fail,Fail\n"
        "spec/b/xfail,Timeout\n"
        "top,Timeout\n");
  // It is a baseline `bismuth run --baseline` reads.
  auto parsed = parse_baseline(text, "baseline.txt");
  REQUIRE(parsed);
  CHECK(parsed->size() == 4);
  CHECK(parsed->at("spec/b/xfail") == Status::Timeout);
}

TEST_CASE("A test in two shards is an error naming both files") {
  TempDir dir;
  const auto a = dir.write("a.json", results_json(shard_a(), 1.0));
  const auto b = dir.write("b.xml", junit_xml(shard_a(), 1.0));
  auto merged = merge_shards({a.string(), b.string()});
  REQUIRE_FALSE(merged);
  CHECK_THAT(merged.error().message, Catch::Contains("\"spec/a/pass\" is in " + a.string() + " and in " + b.string()));
}

TEST_CASE("Malformed shards are errors that name the file and what is wrong") {
  struct Case {
    const char* text;
    const char* message;
  } cases[] = {
      {"", "bad: empty file, not a report"},
      {"hello", "neither a JSON report"},
      {"{\"tests\": [", "not valid JSON"},
      {"{\"counts\": {}}", "an object with a \"tests\" array"},
      {"{\"tests\": [{\"name\": \"a\", \"status\": \"Passed\"}]}", "tests[0].status: unknown status \"Passed\""},
      {"{\"tests\": [{\"status\": \"Pass\"}]}", "tests[0]: \"name\" is missing"},
      {"{\"tests\": [{\"name\": \"a\", \"status\": \"Pass\", \"time\": -1}]}", "tests[0].time"},
      {"{\"tests\": [{\"name\": \"a\", \"status\": \"Pass\", \"attempts\": 0}]}", "tests[0].attempts"},
      {"<html><body/></html>", "not a JUnit report (root element <html>)"},
      {"<testsuites><testsuite><testcase name=\"a\"></testsuite></testsuites>",
       "</testsuite> does not close <testcase>"},
      {"<testsuites><testsuite>", "<testsuite> is never closed"},
      {"<testsuites><testcase name=\"a\" time=\"x\"/></testsuites>", "bad time \"x\""},
      {"<testsuites><testcase name=\"a&bogus;\"/></testsuites>", "unknown entity &bogus;"},
      {"<testsuites><testcase/></testsuites>", "<testcase> without a name"},
  };
  for (const auto& c : cases) {
    INFO(c.text);
    auto shard = parse_shard(c.text, "bad");
    REQUIRE_FALSE(shard);
    CHECK_THAT(shard.error().message, Catch::StartsWith("bad") && Catch::Contains(c.message));
  }
  TempDir dir;
  auto merged = merge_shards({(dir.path() / "nope.json").string()});
  REQUIRE_FALSE(merged);
  CHECK_THAT(merged.error().message, Catch::Contains("nope.json: cannot read the file"));
}
