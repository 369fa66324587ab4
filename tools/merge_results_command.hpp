// `bismuth merge-results SHARDS... [--json F] [--junit F] [--baseline-out F]`: the reports of `bismuth run`
// shards (CI jobs that each ran one --fraction of a suite) joined into one report and one baseline
// (docs/runner.md, "Merging shards").
#pragma once

#include <CLI/CLI.hpp>

namespace bismuth::tools {

void add_merge_results_command(CLI::App& app, int* exit_code);

}  // namespace bismuth::tools
