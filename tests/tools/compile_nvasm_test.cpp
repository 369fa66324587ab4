// `bismuth compile FILE.nvcp5 -o OUT.spv [--disasm]`: the assembler behind the CLI.
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <string>

#include "support/run_process.hpp"
#include "translator/gl/corpus_paths.hpp"

using bismuth::test::run_process;

namespace {

std::string cli() {
  return bismuth::test::tool_path(BISMUTH_CLI_PATH);
}
std::string corpus(const std::string& name) {
  return (bismuth::gltest::corpus_dir() / name / "program.nvcp5").string();
}

}  // namespace

TEST_CASE("bismuth compile assembles a .nvcp5 program to validated SPIR-V", "[nvasm][cli]") {
  const std::string out = "nvasm_cli_iota.spv";
  auto result = run_process({cli(), "compile", corpus("iota_store"), "-o", out, "--disasm"});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  CHECK_THAT(result.out, Catch::Contains("OpEntryPoint GLCompute"));
  CHECK_THAT(result.out, Catch::Contains("LocalSize 64 1 1"));
  std::ifstream in(out, std::ios::binary | std::ios::ate);
  CHECK(in.tellg() > 20);
  std::remove(out.c_str());
}

TEST_CASE("bismuth compile notes the subgroup size a thread-group program needs", "[nvasm][cli]") {
  const std::string out = "nvasm_cli_tg.spv";
  auto result = run_process({cli(), "compile", corpus("thread_group_nv"), "-o", out});
  REQUIRE(result.exit_code == 0);
  CHECK_THAT(result.err, Catch::Contains("needs a subgroup size of 32"));
  std::remove(out.c_str());
}

TEST_CASE("bismuth compile reports a load error as file:line:column: error:, like the GLSL front", "[nvasm][cli]") {
  // It printed "nvasm_cli_bad.nvcp5: line 3, column 5: error: ..." (GL's GL_PROGRAM_ERROR_STRING_ARB form, which
  // stays as it is for GL programs); on the command line every front says "file:line:column: error: text".
  const std::string input = "nvasm_cli_bad.nvcp5";
  {
    std::ofstream f(input);
    f << "!!NVcp5.0\nGROUP_SIZE 1;\n    FOO;\nEND\n";
  }
  auto result = run_process({cli(), "compile", input, "-o", "nvasm_cli_bad.spv"});
  CHECK(result.exit_code == 1);
  CHECK(result.err == "nvasm_cli_bad.nvcp5:3:5: error: unknown opcode 'FOO'\n");
  std::remove(input.c_str());
}
