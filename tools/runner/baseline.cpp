#include "baseline.hpp"

#include <fstream>
#include <sstream>

namespace bismuth::tools::runner {

Expected<Baseline> parse_baseline(std::string_view text, const std::string& path) {
  Baseline baseline;
  std::istringstream in{std::string(text)};
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) line.pop_back();
    size_t start = line.find_first_not_of(" \t");
    if (start == std::string::npos || line[start] == '#') continue;
    line = line.substr(start);
    const size_t comma = line.rfind(',');
    if (comma == std::string::npos || comma == 0) {
      return fail(path + ":" + std::to_string(n) + ": expected \"test-name,Status\", got \"" + line + "\"");
    }
    const std::string name = line.substr(0, comma);
    const auto status = parse_status(line.substr(comma + 1));
    if (!status) {
      return fail(path + ":" + std::to_string(n) + ": unknown status \"" + line.substr(comma + 1) +
                  "\" (Pass, Fail, Skip, Crash, Timeout, ExpectedFail, UnexpectedPass, Flake)");
    }
    baseline[name] = *status;
  }
  return baseline;
}

Expected<Baseline> load_baseline(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return fail(path + ": cannot read the baseline");
  std::stringstream text;
  text << file.rdbuf();
  return parse_baseline(text.str(), path);
}

void apply_baseline(const Baseline& baseline, std::vector<TestResult>& results) {
  for (auto& r : results) {
    const auto it = baseline.find(r.test.name);
    if (it == baseline.end()) continue;
    const Status expected = it->second == Status::ExpectedFail ? Status::Fail : it->second;
    if (!is_failure(expected)) continue;  // a baseline "Skip" or "Pass" line changes nothing
    if (is_failure(r.outcome.status)) {
      r.outcome.message = "expected " + std::string(to_string(expected)) + " (baseline), got " +
                          to_string(r.outcome.status) + (r.outcome.message.empty() ? "" : ": " + r.outcome.message);
      r.outcome.status = Status::ExpectedFail;
    } else if (r.outcome.status == Status::Pass || r.outcome.status == Status::Flake) {
      r.outcome.message = "the baseline expects " + std::string(to_string(expected)) + "; remove the line";
      r.outcome.status = Status::UnexpectedPass;
    }
  }
}

}  // namespace bismuth::tools::runner
