// `bismuth merge-results`: the reports of several `bismuth run` shards (CI jobs that each ran one --fraction)
// read back and joined into one list of results, from which one report (JSON, JUnit, summary) and one baseline
// are written. Shards are JSON (`bismuth run --json`) or JUnit XML (`--junit`), told apart by their first byte.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "bismuth/common/expected.hpp"
#include "scheduler.hpp"

namespace bismuth::tools::runner {

struct Shard {
  std::vector<TestResult> results;
  double seconds = 0;  // the shard's wall time
};

// One shard's text; `path` names it in errors ("shard.json: tests[3].status: unknown status \"Passed\"").
Expected<Shard> parse_shard(std::string_view text, const std::string& path);
Expected<Shard> load_shard(const std::string& path);

struct Merged {
  std::vector<TestResult> results;  // sorted by name
  double seconds = 0;               // the longest shard: shards run side by side
};

// Every shard's results, each test once: a test reported by two shards (overlapping fractions, or one shard
// given twice) is an error naming both files.
Expected<Merged> merge_shards(const std::vector<std::string>& paths);

// A baseline of the merged run (baseline.hpp format): every test that failed (Fail, Crash, Timeout, and the
// failure an ExpectedFail stands for), with that status, sorted by name.
std::string baseline_text(const std::vector<TestResult>& results);

}  // namespace bismuth::tools::runner
