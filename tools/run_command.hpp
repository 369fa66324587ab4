// `bismuth run TESTS... [options]`: the GPU regression runner (docs/runner.md), and the hidden
// `bismuth run-worker` it starts once per test.
#pragma once

#include <CLI/CLI.hpp>

namespace bismuth::tools {

void add_run_command(CLI::App& app, int* exit_code);
void add_run_worker_command(CLI::App& app, int* exit_code);

}  // namespace bismuth::tools
