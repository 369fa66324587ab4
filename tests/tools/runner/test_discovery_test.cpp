// Test discovery over inputs the filesystem cannot resolve: symlink loops, dangling links, a case.json that is a
// directory. Each becomes the test it names (whose worker then fails reading it) or a clear input error; none ends
// `bismuth run` with an uncaught std::filesystem::filesystem_error.
#include <sys/stat.h>

#include <catch2/catch.hpp>

#include <map>

#include "runner_test_support.hpp"
#include "test_discovery.hpp"

using namespace bismuth::tools::runner;
using namespace bismuth::runnertest;
namespace fs = std::filesystem;

namespace {

const char* kPasses = "[require]\nGL >= 4.3\n[compute shader]\nvoid main() {}\n[test]\ncompute 1 1 1\n";

std::map<std::string, TestSpec> by_name(const std::vector<TestSpec>& tests) {
  std::map<std::string, TestSpec> out;
  for (const auto& t : tests) out[t.name] = t;
  return out;
}

}  // namespace

TEST_CASE("A symlink loop named .shader_test inside a folder is a test of its own, next to the others") {
  TempDir dir;
  dir.write("suite/ok.shader_test", kPasses);
  fs::create_symlink("loop.shader_test", dir.path() / "suite/loop.shader_test");
  fs::create_symlink("self", dir.path() / "suite/self");  // a loop that names no test
  const auto tests = discover_tests({(dir.path() / "suite").string()}, {});
  REQUIRE(tests);
  const auto named = by_name(*tests);
  CHECK(named.size() == 2);
  CHECK(named.count("ok") == 1);
  REQUIRE(named.count("loop") == 1);
  CHECK(named.at("loop").path == (dir.path() / "suite/loop.shader_test").string());
}

TEST_CASE("A symlink loop given as the input is that test, or an error naming it") {
  TempDir dir;
  fs::create_symlink("loop.shader_test", dir.path() / "loop.shader_test");
  auto tests = discover_tests({(dir.path() / "loop.shader_test").string()}, {});
  REQUIRE(tests);
  REQUIRE(tests->size() == 1);
  CHECK((*tests)[0].name == "loop");

  fs::create_symlink("other", dir.path() / "other");
  tests = discover_tests({(dir.path() / "other").string()}, {});
  REQUIRE_FALSE(tests);
  CHECK_THAT(tests.error().message, Catch::Contains("other: cannot read it: Too many levels of symbolic links"));
}

TEST_CASE("A glob matching a symlink loop lists it as a test") {
  TempDir dir;
  dir.write("ok.shader_test", kPasses);
  fs::create_symlink("loop.shader_test", dir.path() / "loop.shader_test");
  const auto tests = discover_tests({(dir.path() / "*.shader_test").string()}, {});
  REQUIRE(tests);
  CHECK(tests->size() == 2);
}

TEST_CASE("A folder with a case.json that is a directory or a symlink loop is a case, not silently nothing") {
  TempDir dir;
  fs::create_directories(dir.path() / "suite/dir_case/case.json");
  fs::create_directories(dir.path() / "suite/loop_case");
  fs::create_symlink("case.json", dir.path() / "suite/loop_case/case.json");
  const auto tests = discover_tests({(dir.path() / "suite").string()}, {});
  REQUIRE(tests);
  const auto named = by_name(*tests);
  CHECK(named.count("dir_case@glsl") == 1);
  CHECK(named.count("loop_case@glsl") == 1);
}

TEST_CASE("A list file naming a symlink loop lists it") {
  TempDir dir;
  fs::create_symlink("loop.shader_test", dir.path() / "loop.shader_test");
  const auto list = dir.write("list.txt", "loop.shader_test\n");
  const auto tests = discover_tests({list.string()}, {});
  REQUIRE(tests);
  CHECK(tests->size() == 1);
}

TEST_CASE("An input that is a FIFO is an error that says what it is, not \"no such file\"") {
  TempDir dir;
  const auto fifo = dir.path() / "pipe";
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  const auto tests = discover_tests({fifo.string()}, {});
  REQUIRE_FALSE(tests);
  CHECK_THAT(tests.error().message, Catch::Contains("pipe: not a folder, a .shader_test file or a list file"));
}
