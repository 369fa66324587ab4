// `bismuth devices [--json]`: every Vulkan physical device the loader sees, and which one Bismuth selects.
#pragma once

#include <CLI/CLI.hpp>

namespace bismuth::tools {

// Registers the subcommand on `app`. Its exit code lands in `*exit_code`.
void add_devices_command(CLI::App& app, int* exit_code);

}  // namespace bismuth::tools
