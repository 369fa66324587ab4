// Reports: JUnit XML checked by a real XML parser (python3's xml.etree, tests/tools/runner/check_junit.py), JSON, and
// the summary table.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "reports.hpp"
#include "runner_test_support.hpp"

using namespace bismuth::tools::runner;
using bismuth::runnertest::TempDir;

namespace {

std::vector<TestResult> every_status() {
  std::vector<TestResult> out;
  const Status all[] = {Status::Pass,    Status::Fail,         Status::Skip,           Status::Crash,
                        Status::Timeout, Status::ExpectedFail, Status::UnexpectedPass, Status::Flake};
  int i = 0;
  for (Status s : all) {
    TestResult r;
    r.test.name = std::string("spec/group <&>/t") + std::to_string(i++) + "@glsl";
    r.test.path = "/p";
    r.outcome = {s, "expected \"1\" & got <2>\x01 \xff\xfe bytes", "llvmpipe"};
    r.seconds = 0.25 * i;
    out.push_back(r);
  }
  return out;
}

}  // namespace

TEST_CASE("JUnit output is well-formed XML whose counts match its test cases, even with hostile messages") {
  TempDir dir;
  const auto file = dir.write("junit.xml", junit_xml(every_status(), 2.5));
  const auto checked = bismuth::runnertest::check_junit(file);
  INFO(checked.out << checked.err);
  REQUIRE(checked.exit_code == 0);
  // Fail + UnexpectedPass are failures, Crash + Timeout errors, Skip + ExpectedFail skipped.
  CHECK_THAT(checked.out, Catch::Contains("tests=8 failures=2 errors=2 skipped=2"));
}

TEST_CASE("The JUnit checker rejects malformed XML and wrong counts (it can fail)") {
  TempDir dir;
  auto checked = bismuth::runnertest::check_junit(dir.write("bad.xml", "<testsuites><testsuite></testsuites>"));
  CHECK(checked.exit_code == 1);
  checked = bismuth::runnertest::check_junit(
      dir.write("counts.xml",
                "<testsuites><testsuite tests=\"2\" failures=\"0\" errors=\"0\" skipped=\"0\">"
                "<testcase classname=\"a\" name=\"b\" time=\"1\"/></testsuite></testsuites>"));
  CHECK(checked.exit_code == 1);
}

TEST_CASE("JSON output has every test with status, time, device and message") {
  const auto results = every_status();
  const auto j = nlohmann::json::parse(results_json(results, 2.5));
  REQUIRE(j["tests"].size() == results.size());
  CHECK(j["tests"][1]["status"] == "Fail");
  CHECK(j["tests"][1]["device"] == "llvmpipe");
  CHECK(j["tests"][1]["time"].get<double>() == Approx(0.5));
  CHECK_THAT(j["tests"][1]["message"].get<std::string>(), Catch::StartsWith("expected \"1\" & got <2>"));
  CHECK(j["counts"]["Fail"] == 1);
  CHECK(j["counts"]["Flake"] == 1);
  CHECK(j["time"].get<double>() == Approx(2.5));
}

TEST_CASE("The summary has status counts, devices, the slowest tests and what did not pass") {
  const auto text = summary_text(every_status(), 3.0);
  CHECK_THAT(text, Catch::Contains("Pass                1") && Catch::Contains("Timeout             1"));
  CHECK_THAT(text, Catch::Contains("total               8  in 3.00s"));
  CHECK_THAT(text, Catch::Contains("llvmpipe: 8 tests"));
  CHECK_THAT(text, Catch::Contains("slowest:\n  2.00s  spec/group <&>/t7@glsl"));
  CHECK_THAT(text, Catch::Contains("Crash  spec/group <&>/t3@glsl"));
}
