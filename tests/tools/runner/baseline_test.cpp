// Baselines (one "test-name,Status" per line, as Mesa CI keeps them) and what they do to results.
#include <catch2/catch.hpp>

#include "baseline.hpp"

using namespace bismuth::tools::runner;

namespace {

TestResult result(const std::string& name, Status status) {
  TestResult r;
  r.test.name = name;
  // One aggregate assignment: GCC 12 warns falsely (-Wrestrict) on assigning a literal to the member here.
  r.outcome = Outcome{status, std::string(1, 'm'), {}};
  return r;
}

}  // namespace

TEST_CASE("A baseline line is name,Status and comments and blank lines are ignored") {
  auto b =
      parse_baseline("# known\n\nspec/a,Fail\nspec/b,Crash\r\nspec/c,timeout\nspec/d,Skip\nx@glsl,XFAIL\n", "b.txt");
  REQUIRE(b);
  CHECK(b->size() == 5);
  CHECK(b->at("spec/a") == Status::Fail);
  CHECK(b->at("spec/b") == Status::Crash);
  CHECK(b->at("spec/c") == Status::Timeout);
  CHECK(b->at("spec/d") == Status::Skip);
  CHECK(b->at("x@glsl") == Status::ExpectedFail);
}

TEST_CASE("Malformed baseline lines name file and line") {
  auto b = parse_baseline("a,Fail\nno comma here\n", "fails.txt");
  REQUIRE_FALSE(b);
  CHECK(b.error().message == "fails.txt:2: expected \"test-name,Status\", got \"no comma here\"");
  b = parse_baseline("a,Broken\n", "fails.txt");
  REQUIRE_FALSE(b);
  CHECK_THAT(b.error().message, Catch::StartsWith("fails.txt:1: unknown status \"Broken\""));
}

TEST_CASE("An expected failure becomes ExpectedFail and a pass where a failure was expected is UnexpectedPass") {
  Baseline b = {{"f", Status::Fail}, {"c", Status::Crash}, {"p", Status::Fail}, {"s", Status::Skip}};
  std::vector<TestResult> results = {result("f", Status::Fail), result("c", Status::Timeout), result("p", Status::Pass),
                                     result("s", Status::Skip), result("other", Status::Fail)};
  apply_baseline(b, results);
  CHECK(results[0].outcome.status == Status::ExpectedFail);
  CHECK_THAT(results[0].outcome.message, Catch::Contains("baseline"));
  CHECK(results[1].outcome.status == Status::ExpectedFail);
  CHECK(results[2].outcome.status == Status::UnexpectedPass);
  CHECK(results[3].outcome.status == Status::Skip);
  CHECK(results[4].outcome.status == Status::Fail);
  CHECK(is_unexpected(Status::UnexpectedPass));
  CHECK_FALSE(is_unexpected(Status::ExpectedFail));
}
