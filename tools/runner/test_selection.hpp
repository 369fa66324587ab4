// Which of the discovered tests one `bismuth run` executes, as deqp-runner selects them for CI: --include and
// --exclude regexes, deqp-runner skips files (--skips: one regex per line, '#' comments), and --fraction N
// --fraction-start K (every N-th test starting at the K-th, 1-based), so that N CI jobs with K = 1..N split one
// suite into disjoint shards whose union is the whole selection.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bismuth/common/expected.hpp"
#include "test_discovery.hpp"

namespace bismuth::tools::runner {

struct SelectionOptions {
  std::vector<std::string> include;      // regexes; when any is given, a test must match one
  std::vector<std::string> exclude;      // regexes; a test matching one is not run
  std::vector<std::string> skips_files;  // files of regexes, as deqp-runner's --skips
  uint64_t fraction = 1;                 // run every fraction-th test ...
  uint64_t fraction_start = 1;           // ... starting at this one (1-based, at most `fraction`)
};

struct Selection {
  std::vector<TestSpec> tests;  // what runs, in the order of the input
  size_t filtered_out = 0;      // removed by --include / --exclude / --skips
  size_t other_fractions = 0;   // left to the other --fraction shards
};

// A regex matches a test when it matches any part of its name (std::regex_search, ECMAScript syntax), as
// deqp-runner's unanchored patterns do. Errors: a bad regex ("--include: ..." or "FILE:LINE: ..."), an unreadable
// skips file, a fraction of 0 or a start outside 1..fraction.
Expected<Selection> select_tests(const std::vector<TestSpec>& tests, const SelectionOptions& options);

}  // namespace bismuth::tools::runner
