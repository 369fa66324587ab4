#include "merge_results_command.hpp"

#include <cstdio>
#include <fstream>
#include <memory>

#include "merge_results.hpp"
#include "reports.hpp"

namespace bismuth::tools {

namespace {

using namespace bismuth::tools::runner;

struct MergeOptions {
  std::vector<std::string> shards;
  std::string json;
  std::string junit;
  std::string baseline;
  bool quiet = false;
};

bool write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  return static_cast<bool>(out);
}

// Exit codes as `bismuth run`: 0 when nothing unexpected, 1 when a shard holds a Fail, Crash, Timeout or
// UnexpectedPass (the merged job gates CI as one run would), 2 for a shard that cannot be read or merged.
int run_merge(const MergeOptions& options) {
  auto merged = merge_shards(options.shards);
  if (!merged) {
    std::fprintf(stderr, "bismuth merge-results: %s\n", merged.error().message.c_str());
    return 2;
  }
  if (!options.quiet) std::printf("%s", summary_text(merged->results, merged->seconds).c_str());
  int code = 0;
  auto write = [&](const std::string& path, const std::string& text) {
    if (!path.empty() && !write_file(path, text)) {
      std::fprintf(stderr, "bismuth merge-results: cannot write %s\n", path.c_str());
      code = 2;
    }
  };
  write(options.json, results_json(merged->results, merged->seconds));
  write(options.junit, junit_xml(merged->results, merged->seconds));
  write(options.baseline, baseline_text(merged->results));
  for (const auto& r : merged->results) {
    if (is_unexpected(r.outcome.status) && code == 0) code = 1;
  }
  return code;
}

}  // namespace

void add_merge_results_command(CLI::App& app, int* exit_code) {
  auto options = std::make_shared<MergeOptions>();
  CLI::App* command = app.add_subcommand(
      "merge-results", "Join the JSON / JUnit reports of `bismuth run` shards into one report and one baseline");
  command->add_option("shards", options->shards, "Reports written by bismuth run --json or --junit")->required();
  command->add_option("--json", options->json, "Write the merged JSON report here");
  command->add_option("--junit", options->junit, "Write the merged JUnit XML here");
  command->add_option("--baseline-out", options->baseline,
                      "Write a baseline of the merged run here (every failing test, \"name,Status\")");
  command->add_flag("-q,--quiet", options->quiet, "No summary on stdout");
  command->callback([options, exit_code] { *exit_code = run_merge(*options); });
}

}  // namespace bismuth::tools
