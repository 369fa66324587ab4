#include "test_selection.hpp"

#include <fstream>
#include <regex>
#include <sstream>

namespace bismuth::tools::runner {

namespace {

struct Pattern {
  std::regex regex;
  std::string where;  // "--include 'x'" or "skips.txt:3", for messages
};

Expected<Pattern> compile(const std::string& text, const std::string& where) {
  try {
    return Pattern{std::regex(text, std::regex::ECMAScript | std::regex::optimize), where};
  } catch (const std::regex_error& e) {
    return fail(where + ": bad regular expression \"" + text + "\": " + e.what());
  }
}

// deqp-runner's skips format: one regex per line; blank lines and lines starting with '#' are ignored.
Expected<void> load_skips(const std::string& path, std::vector<Pattern>& out) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return fail(path + ": cannot read the skips file");
  std::string line;
  int n = 0;
  while (std::getline(file, line)) {
    ++n;
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) line.pop_back();
    const size_t start = line.find_first_not_of(" \t");
    if (start == std::string::npos || line[start] == '#') continue;
    auto pattern = compile(line.substr(start), path + ":" + std::to_string(n));
    if (!pattern) return pattern.error();
    out.push_back(std::move(*pattern));
  }
  if (file.bad()) return fail(path + ": cannot read the skips file");
  return {};
}

bool any_match(const std::vector<Pattern>& patterns, const std::string& name) {
  for (const auto& p : patterns) {
    if (std::regex_search(name, p.regex)) return true;
  }
  return false;
}

}  // namespace

Expected<Selection> select_tests(const std::vector<TestSpec>& tests, const SelectionOptions& options) {
  if (options.fraction == 0) return fail("--fraction must be at least 1");
  if (options.fraction_start == 0 || options.fraction_start > options.fraction) {
    return fail("--fraction-start must be from 1 to --fraction (" + std::to_string(options.fraction) + "), got " +
                std::to_string(options.fraction_start));
  }
  std::vector<Pattern> include, exclude;
  for (const auto& text : options.include) {
    auto p = compile(text, "--include");
    if (!p) return p.error();
    include.push_back(std::move(*p));
  }
  for (const auto& text : options.exclude) {
    auto p = compile(text, "--exclude");
    if (!p) return p.error();
    exclude.push_back(std::move(*p));
  }
  for (const auto& path : options.skips_files) {
    if (auto loaded = load_skips(path, exclude); !loaded) return loaded.error();
  }
  Selection selection;
  // The fraction counts the tests left after filtering, so that the shards stay balanced whatever the filters
  // remove; every shard sees the same sorted list (discover_tests sorts by name), hence disjoint shards.
  uint64_t index = 0;
  for (const auto& test : tests) {
    if ((!include.empty() && !any_match(include, test.name)) || any_match(exclude, test.name)) {
      ++selection.filtered_out;
      continue;
    }
    if (index++ % options.fraction == options.fraction_start - 1) {
      selection.tests.push_back(test);
    } else {
      ++selection.other_fractions;
    }
  }
  return selection;
}

}  // namespace bismuth::tools::runner
