// bismuth: the command-line front of Bismuth. Each subcommand lives in its own *_command.cpp.
#include <CLI/CLI.hpp>

#include "compile_command.hpp"
#include "devices_command.hpp"
#include "merge_results_command.hpp"
#include "run_command.hpp"

int main(int argc, char** argv) {
  CLI::App app{"Bismuth: GL-style compute on any Vulkan device"};
  app.require_subcommand(1);
  app.failure_message(CLI::FailureMessage::help);  // a bad command line shows the subcommands
  int exit_code = 0;
  bismuth::tools::add_devices_command(app, &exit_code);
  bismuth::tools::add_compile_command(app, &exit_code);
  bismuth::tools::add_run_command(app, &exit_code);
  bismuth::tools::add_run_worker_command(app, &exit_code);
  bismuth::tools::add_merge_results_command(app, &exit_code);
  CLI11_PARSE(app, argc, argv);
  return exit_code;
}
