// Expected results, as Mesa CI keeps them (deqp-runner's *-fails.txt / *-skips.txt): one "test-name,Status" per
// line, '#' comments. A known failure becomes ExpectedFail; a pass where a failure was expected is
// UnexpectedPass, which fails the run so that the baseline gets updated.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "bismuth/common/expected.hpp"
#include "scheduler.hpp"
#include "status.hpp"

namespace bismuth::tools::runner {

using Baseline = std::map<std::string, Status>;

// Errors are "path:line: message".
Expected<Baseline> parse_baseline(std::string_view text, const std::string& path);
Expected<Baseline> load_baseline(const std::string& path);

// Rewrites each result's status by the baseline (see above); other results are unchanged.
void apply_baseline(const Baseline& baseline, std::vector<TestResult>& results);

}  // namespace bismuth::tools::runner
