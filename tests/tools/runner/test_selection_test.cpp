// Test selection for CI (deqp-runner's conventions): --include / --exclude regexes, skips files, and --fraction N
// --fraction-start K, whose N shards must be disjoint and together cover the selection.
#include <catch2/catch.hpp>

#include <set>

#include "runner_test_support.hpp"
#include "test_selection.hpp"

using namespace bismuth::tools::runner;
using bismuth::runnertest::TempDir;

namespace {

std::vector<TestSpec> suite(int n) {
  std::vector<TestSpec> tests;
  for (int i = 0; i < n; ++i) {
    TestSpec t;
    t.name = (i % 2 ? "spec/odd/t" : "spec/even/t") + std::to_string(100 + i);
    t.path = "/x/" + t.name;
    tests.push_back(t);
  }
  return tests;
}

std::vector<std::string> names(const Selection& s) {
  std::vector<std::string> out;
  for (const auto& t : s.tests) out.push_back(t.name);
  return out;
}

}  // namespace

TEST_CASE(
    "Selection with --fraction N --fraction-start K: every N-th test from the K-th, and the N shards partition the "
    "suite") {
  const auto tests = suite(10);
  SelectionOptions o;
  o.fraction = 3;
  o.fraction_start = 2;
  auto s = select_tests(tests, o);
  REQUIRE(s);
  // deqp-runner: the 2nd, 5th, 8th test of the list (1-based).
  CHECK(names(*s) == std::vector<std::string>{tests[1].name, tests[4].name, tests[7].name});
  CHECK(s->other_fractions == 7);

  std::multiset<std::string> all;
  for (uint64_t k = 1; k <= 3; ++k) {
    o.fraction_start = k;
    auto shard = select_tests(tests, o);
    REQUIRE(shard);
    for (const auto& n : names(*shard)) all.insert(n);
  }
  CHECK(all.size() == tests.size());  // each test in exactly one shard
  for (const auto& t : tests) CHECK(all.count(t.name) == 1);
}

TEST_CASE("More shards than tests leaves some shards empty, which is not an error") {
  SelectionOptions o;
  o.fraction = 5;
  o.fraction_start = 4;
  auto s = select_tests(suite(2), o);
  REQUIRE(s);
  CHECK(s->tests.empty());
}

TEST_CASE("A fraction of 0, or a start outside 1..fraction, is rejected") {
  SelectionOptions o;
  o.fraction = 0;
  CHECK_FALSE(select_tests(suite(3), o));
  o.fraction = 2;
  o.fraction_start = 0;
  CHECK_FALSE(select_tests(suite(3), o));
  o.fraction_start = 3;
  auto s = select_tests(suite(3), o);
  REQUIRE_FALSE(s);
  CHECK_THAT(s.error().message, Catch::Contains("--fraction-start must be from 1 to --fraction (2), got 3"));
}

TEST_CASE(
    "Selection with --include keeps matching tests (unanchored regex), --exclude removes them, then the fraction "
    "applies") {
  const auto tests = suite(8);
  SelectionOptions o;
  o.include = {"odd/"};
  auto s = select_tests(tests, o);
  REQUIRE(s);
  CHECK(s->tests.size() == 4);
  CHECK(s->filtered_out == 4);
  o.exclude = {"t10[13]$"};
  s = select_tests(tests, o);
  REQUIRE(s);
  CHECK(names(*s) == std::vector<std::string>{"spec/odd/t105", "spec/odd/t107"});
  // The fraction counts what the filters left: shard 2 of 2 is the second remaining test.
  o.fraction = 2;
  o.fraction_start = 2;
  s = select_tests(tests, o);
  REQUIRE(s);
  CHECK(names(*s) == std::vector<std::string>{"spec/odd/t107"});
}

TEST_CASE("A skips file is one regex per line with '#' comments, as deqp-runner reads it") {
  TempDir dir;
  const auto skips = dir.write("skips.txt", "# slow ones\n\nspec/even/t10[02]\n  \n#spec/odd\nt107$\r\n");
  SelectionOptions o;
  o.skips_files = {skips.string()};
  auto s = select_tests(suite(8), o);
  REQUIRE(s);
  CHECK(names(*s) == std::vector<std::string>{"spec/odd/t101", "spec/odd/t103", "spec/even/t104", "spec/odd/t105",
                                              "spec/even/t106"});
  CHECK(s->filtered_out == 3);
}

TEST_CASE("Bad regexes and unreadable skips files are errors that name where they come from") {
  TempDir dir;
  SelectionOptions o;
  o.include = {"spec/("};
  auto s = select_tests(suite(2), o);
  REQUIRE_FALSE(s);
  CHECK_THAT(s.error().message, Catch::Contains("--include: bad regular expression \"spec/(\""));
  o.include.clear();
  o.skips_files = {dir.write("skips.txt", "ok\n[z-a]\n").string()};
  s = select_tests(suite(2), o);
  REQUIRE_FALSE(s);
  CHECK_THAT(s.error().message, Catch::Contains("skips.txt:2: bad regular expression \"[z-a]\""));
  o.skips_files = {(dir.path() / "missing.txt").string()};
  s = select_tests(suite(2), o);
  REQUIRE_FALSE(s);
  CHECK_THAT(s.error().message, Catch::Contains("missing.txt: cannot read the skips file"));
}
