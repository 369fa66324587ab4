// `bismuth run` end to end on the default device, with BISMUTH_VALIDATION=1 (a validation message fails a test):
// the examples, the reference corpus, worker isolation (crash, abort, hang through the workers' fault
// injection), baselines, flakes, --devices all, reports and exit codes.
#include <catch2/catch.hpp>

#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "runner_test_support.hpp"

using namespace bismuth::runnertest;
namespace fs = std::filesystem;

namespace {

// The selected device's subgroup size, from `bismuth devices --json`.
int device_subgroup_size() {
  auto devices = bismuth::test::run_process({bismuth::test::tool_path(BISMUTH_CLI_PATH), "devices", "--json"});
  const auto j = nlohmann::json::parse(devices.out);
  return j["devices"][j["selected"].get<int>()]["subgroup"]["size"].get<int>();
}

std::vector<std::string> device_names() {
  auto devices = bismuth::test::run_process({bismuth::test::tool_path(BISMUTH_CLI_PATH), "devices", "--json"});
  const auto j = nlohmann::json::parse(devices.out);
  std::vector<std::string> names;
  // As reports label them: "[index] name".
  for (const auto& d : j["devices"]) {
    names.push_back("[" + std::to_string(d["index"].get<int>()) + "] " + d["name"].get<std::string>());
  }
  return names;
}

}  // namespace

TEST_CASE("bismuth run examples/: every shader_test passes, drawing skips, corpus cases by subgroup size", "[vulkan]") {
  const auto r = run_json({(source_dir() / "examples").string()});
  CHECK(r.process.exit_code == 0);
  for (const char* name : {"variable_group_size_1d", "variable_group_size_2d", "variable_group_size_3d", "ballot",
                           "vote", "atomic_counters", "uniforms", "uniforms_64bit", "shared_memory", "linked_shaders",
                           "link_error_conflicting_sizes"}) {
    CHECK(status(r, std::string("shader_tests/") + name) == "Pass");
  }
  CHECK(status(r, "shader_tests/draw_is_skipped") == "Skip");
  // Skip naming why: the vertex shader this libbismuth-gl cannot create, or (once it can) the draw command.
  CHECK_THAT(
      message(r, "shader_tests/draw_is_skipped"),
      Catch::Contains("glCreateShader(GL_VERTEX_SHADER) returned 0") || Catch::Contains("\"draw rect -1 -1 2 2\" at "));
  for (const char* name : {"iota_store", "saxpy_uniform", "var_size_reduce"}) {
    CHECK(status(r, std::string("corpus/") + name + "@glsl") == "Pass");
  }
  CHECK(status(r, "corpus/ballot_arb@glsl") == (device_subgroup_size() == 32 ? "Pass" : "Skip"));
  CHECK_THAT(r.process.out, Catch::Contains("status          count") && Catch::Contains("slowest:"));
}

TEST_CASE("bismuth run on the reference corpus: Pass, or Skip with the reason where the subgroup size differs",
          "[vulkan]") {
  const fs::path corpus = source_dir() / "tests/data/corpus/nvidia-h100";
  const auto r = run_json({corpus.string()});
  CHECK(r.process.exit_code == 0);
  REQUIRE(r.tests.size() == 17);
  const int subgroup = device_subgroup_size();
  for (const auto& entry : fs::directory_iterator(corpus)) {
    const std::string name = entry.path().filename().string();
    const auto spec = nlohmann::json::parse(read_file(entry.path() / "case.json"));
    const std::string test = name + "@glsl";
    INFO(test << ": " << message(r, test));
    if (name == "thread_group_nv") {
      // GL_NV_shader_thread_group has no Vulkan equivalent: the GLSL front reports it, the runner skips.
      CHECK(status(r, test) == "Skip");
      CHECK_THAT(message(r, test), Catch::Contains("NVIDIA-only"));
    } else if (!spec["requires_subgroup_size"].is_null() && spec["requires_subgroup_size"] != subgroup) {
      CHECK(status(r, test) == "Skip");
      CHECK_THAT(message(r, test),
                 Catch::Contains("needs subgroup size " + std::to_string(spec["requires_subgroup_size"].get<int>())));
    } else {
      CHECK(status(r, test) == "Pass");
    }
  }
}

TEST_CASE("bismuth run --front both runs the corpus through the GLSL and the NV assembly fronts", "[vulkan]") {
  const fs::path corpus = source_dir() / "tests/data/corpus/nvidia-h100";
  const auto r = run_json({corpus.string(), "--front", "both"});
  CHECK(r.process.exit_code == 0);
  REQUIRE(r.tests.size() == 34);
  const int subgroup = device_subgroup_size();
  for (const auto& entry : fs::directory_iterator(corpus)) {
    const std::string test = entry.path().filename().string() + "@nvasm";
    const auto spec = nlohmann::json::parse(read_file(entry.path() / "case.json"));
    INFO(test << ": " << message(r, test));
    if (!spec["requires_subgroup_size"].is_null() && spec["requires_subgroup_size"] != subgroup) {
      // The assembler refuses thread-group programs where 32-lane subgroups cannot be had: Skip, with why.
      CHECK(status(r, test) == "Skip");
      CHECK_THAT(message(r, test), Catch::Contains("needs subgroup size 32") && Catch::Contains("program.nvcp5:"));
    } else {
      CHECK(status(r, test) == "Pass");
    }
  }
  CHECK_THAT(message(r, "thread_group_nv@glsl"), Catch::Contains("thread_group_nv/shader.comp:2:12: error:"));
}

TEST_CASE("bismuth run reports failing probes, unknown commands, compile errors and unmet requirements by file:line",
          "[vulkan]") {
  const auto r = run_json({data_dir().string()});
  CHECK(r.process.exit_code == 1);
  const std::string dir = data_dir().string();
  CHECK(status(r, "passes") == "Pass");
  CHECK(status(r, "spirv_only") == "Pass");
  CHECK(status(r, "failing_probe") == "Fail");
  CHECK(message(r, "failing_probe") ==
        dir + "/failing_probe.shader_test:15: probe failed at byte offset 12: expected uint == 5, observed 4");
  CHECK(status(r, "unknown_command") == "Fail");
  CHECK(message(r, "unknown_command") == dir + "/unknown_command.shader_test:11: unknown command \"make coffee\"");
  CHECK(status(r, "compile_error") == "Fail");
  CHECK_THAT(message(r, "compile_error"), Catch::Contains(dir + "/compile_error.shader_test:8:3: error:"));
  CHECK(status(r, "link_error_not_seen") == "Fail");
  CHECK_THAT(message(r, "link_error_not_seen"),
             Catch::Contains("link_error_not_seen.shader_test:10: link error expected"));
  CHECK(status(r, "missing_extension") == "Skip");
  CHECK_THAT(message(r, "missing_extension"), Catch::Contains("requires GL_NV_nonexistent_extension"));
  CHECK(status(r, "limit_too_high") == "Skip");
  CHECK_THAT(message(r, "limit_too_high"), Catch::Contains("context has"));
}

TEST_CASE("A crashing, aborting or hanging worker fails only its own test", "[vulkan]") {
  const std::string tests = (source_dir() / "examples/shader_tests").string();
  for (const char* fault : {"crash", "abort", "exit"}) {
    INFO(fault);
    const auto r = run_json({tests}, {std::string("BISMUTH_RUNNER_FAULT=") + fault + ":uniforms"});
    CHECK(r.process.exit_code == 1);
    CHECK(status(r, "uniforms") == "Crash");
    CHECK(status(r, "vote") == "Pass");
    CHECK(status(r, "atomic_counters") == "Pass");
  }
  const auto crash = run_json({tests}, {"BISMUTH_RUNNER_FAULT=crash:uniforms"});
  CHECK_THAT(message(crash, "uniforms"), Catch::Contains("signal 11"));
  // Two tests only: the limit applies to every test, and a loaded CI machine must not time out the healthy one.
  const auto hang = run_json({tests + "/vote.shader_test", tests + "/uniforms.shader_test", "--timeout", "10"},
                             {"BISMUTH_RUNNER_FAULT=hang:vote"});
  CHECK(hang.process.exit_code == 1);
  CHECK(status(hang, "vote") == "Timeout");
  CHECK_THAT(message(hang, "vote"), Catch::Contains("no result after 10 s"));
  CHECK(status(hang, "uniforms") == "Pass");
}

TEST_CASE("A validation message during a test makes it Fail with the message", "[vulkan]") {
  const auto r = run_json({(data_dir() / "passes.shader_test").string()}, {"BISMUTH_RUNNER_FAULT=validation:passes"});
  CHECK(r.process.exit_code == 1);
  CHECK(status(r, "passes") == "Fail");
  CHECK_THAT(message(r, "passes"), Catch::Contains("1 validation message(s): injected validation message"));
}

TEST_CASE("A baseline turns known failures into ExpectedFail and reports unexpected passes", "[vulkan]") {
  TempDir dir;
  const auto files = std::vector<std::string>{(data_dir() / "failing_probe.shader_test").string(),
                                              (data_dir() / "passes.shader_test").string()};
  auto known = dir.write("fails.txt", "# known failures\nfailing_probe,Fail\n");
  auto args = files;
  args.insert(args.end(), {"--baseline", known.string()});
  auto r = run_json(args);
  CHECK(r.process.exit_code == 0);
  CHECK(status(r, "failing_probe") == "ExpectedFail");
  CHECK(status(r, "passes") == "Pass");

  auto stale = dir.write("stale.txt", "failing_probe,Fail\npasses,Crash\n");
  args = files;
  args.insert(args.end(), {"--baseline", stale.string()});
  r = run_json(args);
  CHECK(r.process.exit_code == 1);
  CHECK(status(r, "passes") == "UnexpectedPass");

  auto bad = dir.write("bad.txt", "passes Fail\n");
  const auto p = bismuth_run({files[0], "--baseline", bad.string()});
  CHECK(p.exit_code == 2);
  CHECK_THAT(p.err, Catch::Contains("bad.txt:1: expected \"test-name,Status\""));
}

TEST_CASE("With retries a test that fails once then passes is a Flake and does not fail the run", "[vulkan]") {
  TempDir dir;
  const std::string marker = (dir.path() / "marker").string();
  const std::string test = (data_dir() / "passes.shader_test").string();
  auto r = run_json({test, "--retry-flakes", "1"}, {"BISMUTH_RUNNER_FAULT=flaky:passes:" + marker});
  CHECK(r.process.exit_code == 0);
  CHECK(status(r, "passes") == "Flake");
  CHECK(r.tests.at("passes")["attempts"] == 2);
  fs::remove(marker);
  r = run_json({test}, {"BISMUTH_RUNNER_FAULT=flaky:passes:" + marker});
  CHECK(r.process.exit_code == 1);
  CHECK(status(r, "passes") == "Fail");
}

TEST_CASE("Devices all pins workers to every Vulkan device and merges the results", "[vulkan]") {
  const auto names = device_names();
  REQUIRE_FALSE(names.empty());
  const auto r = run_json({(source_dir() / "examples/shader_tests").string(), "--devices", "all"});
  CHECK(r.process.exit_code == 0);
  CHECK(r.tests.size() == 12);
  std::set<std::string> used;
  for (const auto& [name, t] : r.tests) used.insert(t["device"].get<std::string>());
  // Every device gets at least one worker slot and every slot starts with a test (12 tests >= slots).
  CHECK(used == std::set<std::string>(names.begin(), names.end()));
}

TEST_CASE("Devices all shards over two devices: lavapipe listed twice by the Vulkan loader", "[vulkan]") {
  // Two ICD manifests naming the same driver give two physical devices: a multi-device host on any machine
  // with lavapipe. Where lavapipe is not installed there is nothing to shard here.
  const fs::path lvp = "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json";
  if (!fs::exists(lvp)) {
    WARN("no lavapipe ICD at " << lvp << ": the two-device run is not possible on this machine");
    return;
  }
  TempDir dir;
  const auto copy = dir.write("lvp_copy.json", read_file(lvp));
  const std::string icds = "VK_ICD_FILENAMES=" + lvp.string() + ":" + copy.string();
  const auto r = run_json({(source_dir() / "examples/shader_tests").string(), "--devices", "all"}, {icds});
  CHECK(r.process.exit_code == 0);
  std::map<std::string, int> per_device;
  for (const auto& [name, t] : r.tests) per_device[t["device"].get<std::string>()] += 1;
  REQUIRE(per_device.size() == 2);
  const auto first = per_device.begin()->first;
  const auto second = std::next(per_device.begin())->first;
  CHECK_THAT(first, Catch::StartsWith("[0] llvmpipe"));
  CHECK_THAT(second, Catch::StartsWith("[1] llvmpipe"));
  // One shared queue, one worker per device (-j 2): neither device is left with (almost) nothing.
  CHECK(per_device[first] >= 2);
  CHECK(per_device[second] >= 2);
  CHECK_THAT(r.process.out, Catch::Contains("[0] llvmpipe") && Catch::Contains("[1] llvmpipe"));
}

TEST_CASE("The JUnit report of a run is accepted by an XML parser and has the run's counts", "[vulkan]") {
  TempDir dir;
  const auto junit = dir.path() / "junit.xml";
  const auto p = bismuth_run({data_dir().string(), "--junit", junit.string(), "-j", "2"});
  CHECK(p.exit_code == 1);
  const auto checked = check_junit(junit);
  INFO(checked.out << checked.err);
  CHECK(checked.exit_code == 0);
  CHECK_THAT(checked.out, Catch::Contains("tests=8 failures=4 errors=0 skipped=2"));
}

TEST_CASE("Tests are selected by directory, file, glob and list file, and bad selections are errors", "[vulkan]") {
  TempDir dir;
  const auto list = dir.write("list.txt", "# a list\n" + (data_dir() / "passes.shader_test").string() + "\n" +
                                              (data_dir() / "miss*.shader_test").string() + "\n");
  auto r = run_json({list.string()});
  CHECK(r.tests.size() == 2);
  CHECK(status(r, "passes") == "Pass");
  CHECK(r.tests.count("missing_extension") == 1);
  auto p = bismuth_run({(dir.path() / "nothing_here").string()});
  CHECK(p.exit_code == 2);
  CHECK_THAT(p.err, Catch::Contains("nothing_here: no such file or directory"));
  p = bismuth_run({(data_dir() / "*.nomatch").string()});
  CHECK(p.exit_code == 2);
  CHECK_THAT(p.err, Catch::Contains("the pattern matches no test"));
}
