#include "run_command.hpp"

#include <unistd.h>

#include <charconv>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <memory>
#include <thread>

#include "baseline.hpp"
#include "bismuth/backend/device_info.hpp"
#include "bismuth/backend/device_selection.hpp"
#include "bismuth/backend/instance.hpp"
#include "reports.hpp"
#include "scheduler.hpp"
#include "test_discovery.hpp"
#include "test_selection.hpp"
#include "worker.hpp"

namespace bismuth::tools {

namespace {

using namespace bismuth::tools::runner;

struct RunOptions {
  std::vector<std::string> inputs;
  int jobs = 0;  // 0: one per core
  std::string device;
  std::string devices;  // "all"
  double timeout = 120;
  std::string front = "source";
  std::string baseline;
  int retry_flakes = 0;
  std::string junit;
  std::string json;
  bool quiet = false;
  SelectionOptions selection;
};

struct WorkerOptions {
  std::string kind;
  std::string path;
  std::string name;
  std::string front = "glsl";
  std::string device;
};

std::string self_executable() {
  char path[4096];
  const ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
  if (n <= 0) return "bismuth";
  path[n] = '\0';
  return path;
}

// The devices the workers are pinned to: every device (--devices all), or the one --device / BISMUTH_DEVICE
// selects. Names come from the same enumeration the workers' contexts use, so indices agree.
Expected<std::vector<DeviceTarget>> resolve_devices(const RunOptions& options) {
  auto instance = backend::Instance::create({.application_name = "bismuth run"});
  if (!instance) return fail("no Vulkan driver: " + instance.error().message);
  auto devices = backend::enumerate_devices(**instance);
  if (!devices) return devices.error();
  if (devices->empty()) return fail("no Vulkan device");
  std::vector<DeviceTarget> targets;
  if (options.devices == "all") {
    for (const auto& d : *devices) targets.push_back({std::to_string(d.index), d.name});
    return targets;
  }
  const auto selector = options.device.empty() ? backend::DeviceSelector::from_environment()
                                               : backend::DeviceSelector::parse(options.device);
  auto selected = backend::select_device(*devices, selector);
  if (!selected) return selected.error();
  // Pin by index: the workers then need no environment to agree with the parent.
  targets.push_back({std::to_string((*devices)[*selected].index), (*devices)[*selected].name});
  return targets;
}

bool write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  return static_cast<bool>(out);
}

int run_run(const RunOptions& options) {
  // --front is one of source (glsl + hlsl), glsl, hlsl, nvasm, both (glsl + nvasm), all (checked by the option).
  DiscoveryOptions discovery;
  const std::string& f = options.front;
  discovery.glsl = f == "source" || f == "glsl" || f == "both" || f == "all";
  discovery.hlsl = f == "source" || f == "hlsl" || f == "all";
  discovery.nvasm = f == "nvasm" || f == "both" || f == "all";
  auto tests = discover_tests(options.inputs, discovery);
  if (!tests) {
    std::fprintf(stderr, "bismuth run: %s\n", tests.error().message.c_str());
    return 2;
  }
  if (tests->empty()) {
    std::fprintf(stderr, "bismuth run: no tests found (*.shader_test files or corpus case folders)\n");
    return 2;
  }
  const size_t discovered = tests->size();
  auto selection = select_tests(*tests, options.selection);
  if (!selection) {
    std::fprintf(stderr, "bismuth run: %s\n", selection.error().message.c_str());
    return 2;
  }
  if (selection->filtered_out == discovered) {
    // A filter that leaves nothing is a typo far more often than an intent.
    std::fprintf(stderr, "bismuth run: --include / --exclude / --skips leave none of the %zu tests\n", discovered);
    return 2;
  }
  if (selection->filtered_out > 0 || selection->other_fractions > 0) {
    std::fprintf(stderr, "bismuth run: %zu of %zu tests selected (%zu filtered out, %zu in other fractions)\n",
                 selection->tests.size(), discovered, selection->filtered_out, selection->other_fractions);
  }
  tests = std::move(selection->tests);
  Baseline baseline;
  if (!options.baseline.empty()) {
    auto loaded = load_baseline(options.baseline);
    if (!loaded) {
      std::fprintf(stderr, "bismuth run: %s\n", loaded.error().message.c_str());
      return 2;
    }
    baseline = std::move(*loaded);
  }
  auto devices = resolve_devices(options);
  if (!devices) {
    std::fprintf(stderr, "bismuth run: %s\n", devices.error().message.c_str());
    return 2;
  }

  SchedulerOptions scheduler;
  scheduler.jobs =
      options.jobs > 0 ? options.jobs : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  scheduler.devices = *devices;
  scheduler.timeout_seconds = options.timeout;
  scheduler.retry_flakes = options.retry_flakes;
  const std::string self = self_executable();
  scheduler.worker_command = [self](const TestSpec& test, const DeviceTarget& device) {
    std::vector<std::string> argv = {
        self,     "run-worker", "--kind", test.kind == TestSpec::Kind::ShaderTest ? "shader_test" : "corpus",
        "--path", test.path,    "--name", test.name};
    if (!test.front.empty()) argv.insert(argv.end(), {"--front", test.front});
    if (!device.selector.empty()) argv.insert(argv.end(), {"--device", device.selector});
    return argv;
  };
  const bool terminal = isatty(STDERR_FILENO) != 0;
  Progress progress(stderr, terminal, tests->size());
  scheduler.on_result = [&](const TestResult& r, size_t done, size_t) {
    if (options.quiet) return;
    // The baseline decides whether a failure is news; show the status the summary will show.
    TestResult shown = r;
    std::vector<TestResult> one{shown};
    apply_baseline(baseline, one);
    progress.on_result(one[0], done);
  };
  std::string device_names;
  for (const auto& d : *devices) device_names += (device_names.empty() ? "[" : ", [") + d.selector + "] " + d.name;
  std::fprintf(stderr, "bismuth run: %zu tests, %zu workers on %s\n", tests->size(),
               slot_devices(scheduler.jobs, devices->size()).size(), device_names.c_str());

  const auto start = std::chrono::steady_clock::now();
  auto results = run_scheduled(*tests, scheduler);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!options.quiet) progress.finish();
  apply_baseline(baseline, results);

  std::printf("%s", summary_text(results, wall).c_str());
  int code = 0;
  if (!options.junit.empty() && !write_file(options.junit, junit_xml(results, wall))) {
    std::fprintf(stderr, "bismuth run: cannot write %s\n", options.junit.c_str());
    code = 2;
  }
  if (!options.json.empty() && !write_file(options.json, results_json(results, wall))) {
    std::fprintf(stderr, "bismuth run: cannot write %s\n", options.json.c_str());
    code = 2;
  }
  for (const auto& r : results) {
    if (is_unexpected(r.outcome.status)) code = code == 0 ? 1 : code;
  }
  return code;
}

int run_worker(const WorkerOptions& options) {
  TestSpec test;
  test.kind = options.kind == "corpus" ? TestSpec::Kind::CorpusCase : TestSpec::Kind::ShaderTest;
  test.path = options.path;
  test.name = options.name.empty() ? options.path : options.name;
  test.front = options.front;
  inject_fault_if_requested(test);
  const Outcome outcome = run_test_in_process(test, options.device);
  std::printf("%s%s\n", kResultPrefix, encode_result(outcome).c_str());
  std::fflush(stdout);
  return 0;
}

// --timeout: seconds in [0.001, 1000000]. CLI::PositiveNumber let "nan" through, and 1e10 s overflowed the
// deadline arithmetic; both then reported "no result after -2147483648 s".
CLI::Validator timeout_validator() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        double seconds = 0;
        const char* end = text.data() + text.size();
        const auto [at, ec] = std::from_chars(text.data(), end, seconds);
        if (ec != std::errc() || at != end || !(seconds >= kMinTimeoutSeconds && seconds <= kMaxTimeoutSeconds)) {
          return "\"" + text + "\" is not a number of seconds from 0.001 to 1000000";
        }
        return {};
      },
      "SECONDS");
}

}  // namespace

void add_run_command(CLI::App& app, int* exit_code) {
  auto options = std::make_shared<RunOptions>();
  CLI::App* command = app.add_subcommand(
      "run", "Run piglit shader_test files (compute subset) and corpus cases, each in its own worker process");
  command
      ->add_option("tests", options->inputs,
                   "Directories (searched recursively), .shader_test files, corpus case folders, list files, globs")
      ->required();
  command->add_option("-j,--jobs", options->jobs, "Worker processes (default: one per core)")
      ->check(CLI::NonNegativeNumber);
  auto* device =
      command->add_option("--device", options->device, "Device selection, as BISMUTH_DEVICE (index, cpu, gpu, name)");
  command->add_option("--devices", options->devices, "\"all\": shard the tests over every Vulkan device")
      ->check(CLI::IsMember({"all"}))
      ->excludes(device);
  command->add_option("--timeout", options->timeout, "Seconds per test before the worker is killed (default 120)")
      ->check(timeout_validator());
  command
      ->add_option("--front", options->front,
                   "Corpus cases through: source (default: shader.comp as GLSL and, where a case has one, shader.hlsl "
                   "as HLSL), glsl, hlsl, nvasm, both (glsl + nvasm) or all")
      ->check(CLI::IsMember({"source", "glsl", "hlsl", "nvasm", "both", "all"}));
  command->add_option("--baseline", options->baseline, "Expected results, one \"test-name,Status\" per line");
  command->add_option("--retry-flakes", options->retry_flakes, "Retries of a failing test; a later pass is a Flake")
      ->check(CLI::NonNegativeNumber);
  command->add_option("--junit", options->junit, "Write JUnit XML here");
  command->add_option("--json", options->json, "Write per-test JSON here");
  command->add_flag("-q,--quiet", options->quiet, "No progress output, the summary only");
  // One value per occurrence (repeat the option for more): `--include x suite/` must not take suite/ as a regex.
  command
      ->add_option("--include", options->selection.include,
                   "Run only tests whose name matches one of these regexes (repeatable)")
      ->allow_extra_args(false);
  command->add_option("--exclude", options->selection.exclude, "Do not run tests whose name matches (repeatable)")
      ->allow_extra_args(false);
  command
      ->add_option("--skips", options->selection.skips_files,
                   "A deqp-runner skips file: one regex per line, '#' comments (repeatable)")
      ->allow_extra_args(false);
  auto* fraction = command->add_option("--fraction", options->selection.fraction,
                                       "Run every N-th selected test (one CI shard of N)");
  fraction->check(CLI::Range(uint64_t{1}, uint64_t{1000000}));
  command
      ->add_option("--fraction-start", options->selection.fraction_start,
                   "The shard: start at the K-th selected test, 1 <= K <= --fraction (default 1)")
      ->check(CLI::Range(uint64_t{1}, uint64_t{1000000}));
  command->callback([options, exit_code] { *exit_code = run_run(*options); });
}

void add_run_worker_command(CLI::App& app, int* exit_code) {
  auto options = std::make_shared<WorkerOptions>();
  CLI::App* command = app.add_subcommand("run-worker", "Runs one test (started by bismuth run)");
  command->group("");  // hidden from --help: an implementation detail of `bismuth run`
  command->add_option("--kind", options->kind, "shader_test | corpus")->required();
  command->add_option("--path", options->path, "The test file or case folder")->required();
  command->add_option("--name", options->name, "The test name");
  command->add_option("--front", options->front, "glsl | hlsl | nvasm");
  command->add_option("--device", options->device, "Device selector");
  command->callback([options, exit_code] { *exit_code = run_worker(*options); });
}

}  // namespace bismuth::tools
