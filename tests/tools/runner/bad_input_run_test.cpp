// `bismuth run` over malformed tests: each is a Fail of that test only, with a message naming the file, and the
// run reports every other test as usual — never an uncaught exception in the runner, never a worker crash, never
// a number that silently wraps.
#include <catch2/catch.hpp>

#include <functional>
#include <nlohmann/json.hpp>

#include "runner_test_support.hpp"

using namespace bismuth::runnertest;
namespace fs = std::filesystem;

namespace {

// A copy of examples/corpus/iota_store at suite/NAME with `edit` applied to its case.json.
fs::path corpus_copy(const TempDir& dir, const std::string& name,
                     const std::function<void(nlohmann::json&)>& edit = {}) {
  const fs::path from = source_dir() / "examples/corpus/iota_store";
  const fs::path to = dir.path() / "suite" / name;
  fs::create_directories(to);
  for (const char* file : {"case.json", "shader.comp", "program.nvcp5", "expected.bin"}) {
    fs::copy_file(from / file, to / file);
  }
  if (edit) {
    auto j = nlohmann::json::parse(read_file(to / "case.json"));
    edit(j);
    dir.write("suite/" + name + "/case.json", j.dump(1));
  }
  return to;
}

}  // namespace

TEST_CASE("Malformed corpus cases and unreadable test files fail one by one, naming the file", "[vulkan]") {
  TempDir dir;
  const fs::path suite = dir.path() / "suite";
  corpus_copy(dir, "ok");
  corpus_copy(dir, "words_negative", [](auto& j) { j["output"]["words"] = -1; });
  corpus_copy(dir, "groups_too_many", [](auto& j) { j["num_groups"][0] = 4294967296u; });
  corpus_copy(dir, "groups_fraction", [](auto& j) { j["num_groups"][0] = 8.5; });
  corpus_copy(dir, "init_too_wide", [](auto& j) { j["output"]["init"] = "0x1DEADBEEF"; });
  corpus_copy(dir, "tolerance_text", [](auto& j) { j["compare"] = "float32:abc"; });
  // One word compared as float64 by a shader that writes nothing: the pair loop never ran, so the word that
  // differs from expected.bin passed.
  corpus_copy(dir, "float64_odd", [](auto& j) {
    j["compare"] = "float64:0";
    j["output"]["words"] = 1;
  });
  dir.write("suite/float64_odd/shader.comp", "#version 450\nlayout(local_size_x = 1) in;\nvoid main() {}\n");
  dir.write("suite/float64_odd/expected.bin", std::string("\x78\x56\x34\x12", 4));
  // 16 GiB of input: a requirement no device's storage block meets, refused before the host copy is made.
  corpus_copy(dir, "input_too_large", [](auto& j) { j["input"]["words"] = 4294967295u; });
  const auto shader_dir = corpus_copy(dir, "shader_is_dir");
  fs::remove(shader_dir / "shader.comp");
  fs::create_directory(shader_dir / "shader.comp");
  const auto expected_dir = corpus_copy(dir, "expected_is_dir");
  fs::remove(expected_dir / "expected.bin");
  fs::create_directory(expected_dir / "expected.bin");
  const auto case_dir = corpus_copy(dir, "case_is_dir");
  fs::remove(case_dir / "case.json");
  fs::create_directory(case_dir / "case.json");
  fs::create_symlink("loop.shader_test", suite / "loop.shader_test");

  const auto r = run_json({suite.string()});
  CHECK(r.process.exit_code == 1);
  CHECK(r.tests.size() == 12);
  CHECK(status(r, "ok@glsl") == "Pass");
  const std::string s = suite.string();
  auto failed_with = [&](const std::string& name, const std::string& text) {
    INFO(name << ": " << message(r, name));
    CHECK(status(r, name) == "Fail");
    CHECK_THAT(message(r, name), Catch::Contains(text));
  };
  failed_with("words_negative@glsl",
              s + "/words_negative/case.json: \"output.words\": expected an integer 0..4294967295, got -1");
  failed_with("groups_too_many@glsl", s + "/groups_too_many/case.json: \"num_groups[0]\"");
  failed_with("groups_fraction@glsl", s + "/groups_fraction/case.json: \"num_groups[0]\"");
  failed_with("init_too_wide@glsl", s + "/init_too_wide/case.json: \"output.init\"");
  failed_with("tolerance_text@glsl",
              s + "/tolerance_text/case.json: \"compare\": unknown compare rule \"float32:abc\"");
  failed_with("float64_odd@glsl", s + "/float64_odd/case.json: \"compare\": float64:0 compares doubles");
  failed_with("shader_is_dir@glsl", s + "/shader_is_dir/shader.comp: cannot read the file: it is a directory");
  failed_with("expected_is_dir@glsl", s + "/expected_is_dir/expected.bin: cannot read the file: it is a directory");
  failed_with("case_is_dir@glsl", s + "/case_is_dir/case.json: cannot read the file: it is a directory");
  failed_with("loop", s + "/loop.shader_test: cannot read the file: Too many levels of symbolic links");
  CHECK(status(r, "input_too_large@glsl") == "Skip");
  CHECK_THAT(message(r, "input_too_large@glsl"),
             Catch::Contains(s + "/input_too_large/case.json: input.words 4294967295 (17179869180 bytes) is more than "
                                 "GL_MAX_SHADER_STORAGE_BLOCK_SIZE"));
}

TEST_CASE("bismuth run takes a timeout of 0.001 to 1000000 seconds, not NaN, infinity or 1e10", "[vulkan]") {
  // NaN passed CLI::PositiveNumber and 1e10 s overflowed the deadline: both timed every test out at once with
  // "no result after -2147483648 s".
  const std::string test = (data_dir() / "passes.shader_test").string();
  for (const char* bad : {"nan", "inf", "1e10", "0", "-1", "0.0001", "10s"}) {
    INFO(bad);
    const auto p = bismuth_run({test, "--timeout", bad});
    CHECK(p.exit_code != 0);
    CHECK(p.exit_code != 1);  // 1 is "a test failed": this is a usage error
    CHECK_THAT(p.err,
               Catch::Contains("--timeout") && Catch::Contains("is not a number of seconds from 0.001 to 1000000"));
  }
  const auto r = run_json({test, "--timeout", "1000000"});
  CHECK(r.process.exit_code == 0);
  CHECK(status(r, "passes") == "Pass");
}

TEST_CASE("An NV assembly load error is reported as program.nvcp5:LINE:COLUMN: error:", "[vulkan]") {
  // Like every other front ("shader.comp:2:12: error: ..."), not GL's "line 3, column 1: error: ...".
  TempDir dir;
  const auto c = corpus_copy(dir, "bad_asm");
  dir.write("suite/bad_asm/program.nvcp5", "!!NVcp5.0\nGROUP_SIZE 64;\n  FOO;\nEND\n");
  const auto r = run_json({c.string(), "--front", "nvasm"});
  CHECK(r.process.exit_code == 1);
  CHECK(status(r, "bad_asm@nvasm") == "Fail");
  CHECK_THAT(message(r, "bad_asm@nvasm"),
             Catch::StartsWith(c.string() + "/program.nvcp5:3:3: error: unknown opcode 'FOO'") &&
                 Catch::EndsWith("(glProgramStringARB raised GL_INVALID_OPERATION)"));
}
