// What a run tells people and CI: the live progress line, the final summary table, JUnit XML and JSON.
#pragma once

#include <chrono>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "scheduler.hpp"

namespace bismuth::tools::runner {

// Counts by status in a fixed order (every status present, zeros included).
std::map<Status, size_t> count_statuses(const std::vector<TestResult>& results);

// Progress on a terminal: one line rewritten in place (counts by status, rate, ETA). Otherwise one plain line
// per finished test, so CI logs read top to bottom.
class Progress {
 public:
  Progress(std::FILE* out, bool terminal, size_t total);
  void on_result(const TestResult& result, size_t done);
  void finish();

 private:
  std::FILE* out_;
  bool terminal_;
  size_t total_;
  std::map<Status, size_t> counts_;
  std::chrono::steady_clock::time_point start_;
};

// Status counts, the slowest tests, tests per device, then every unexpected result with its message.
std::string summary_text(const std::vector<TestResult>& results, double wall_seconds);

// JUnit XML: one <testsuite>, a <testcase> per test (classname = the name's folder); FAIL and UnexpectedPass as
// <failure>, CRASH and TIMEOUT as <error>, SKIP as <skipped>.
std::string junit_xml(const std::vector<TestResult>& results, double wall_seconds);

// {"tests": [{name, status, time, device, message, attempts}], "counts": {...}, "time": s}
std::string results_json(const std::vector<TestResult>& results, double wall_seconds);

}  // namespace bismuth::tools::runner
