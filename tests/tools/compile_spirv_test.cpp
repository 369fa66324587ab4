// `bismuth compile`, run as a user runs it.
#include <catch2/catch.hpp>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

#include <unistd.h>

#include "bismuth/spirv_patch/analysis/workgroup_size.hpp"
#include "bismuth/spirv_patch/module.hpp"
#include "spirv_patch/shader_sources.hpp"
#include "support/run_process.hpp"

using bismuth::spirv_patch::Module;
using bismuth::spirv_patch::TargetEnv;
using bismuth::test::run_process;

namespace {

const char* kBallotShader = R"(#version 450
#extension GL_ARB_shader_ballot : require
#extension GL_ARB_shader_group_vote : require
#extension GL_ARB_gpu_shader_int64 : require
layout(local_size_x = 16, local_size_y = 2) in;
layout(std430, binding = 0) buffer B { uint v[]; };
void main() {
  v[gl_LocalInvocationIndex] = uint(ballotARB(gl_LocalInvocationIndex < 3u)) + readFirstInvocationARB(7u) +
                               (allInvocationsARB(true) ? 1u : 0u);
}
)";

// A scratch directory per test, removed afterwards.
struct Scratch {
  std::filesystem::path dir;
  Scratch() {
    dir = std::filesystem::temp_directory_path() /
          ("bismuth-compile-" + std::to_string(::getpid()) + "-" + std::to_string(counter()++));
    std::filesystem::create_directories(dir);
  }
  ~Scratch() {
    std::error_code ignored;
    std::filesystem::remove_all(dir, ignored);
  }
  static int& counter() {
    static int n = 0;
    return n;
  }
  std::string write(const std::string& name, const std::string& bytes) const {
    std::ofstream(dir / name, std::ios::binary) << bytes;
    return (dir / name).string();
  }
  std::string path(const std::string& name) const { return (dir / name).string(); }
};

std::vector<uint32_t> read_words(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), words.size() * 4);
  return words;
}

bool has_opcode(const std::vector<uint32_t>& words, spv::Op op) {
  auto module = Module::parse(words);
  REQUIRE_OK(module);
  for (auto h : module->instructions()) {
    if (module->opcode(h) == op) return true;
  }
  return false;
}

std::string cli() { return bismuth::test::tool_path(BISMUTH_CLI_PATH); }

}  // namespace

TEST_CASE("bismuth compile turns GLSL with ARB ballot and vote into a valid module without KHR instructions") {
  Scratch scratch;
  const auto input = scratch.write("ballot.comp", kBallotShader);
  const auto output = scratch.path("ballot.spv");
  auto result = run_process({cli(), "compile", input, "-o", output, "--target", "vulkan1.1"});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  const auto words = read_words(output);
  REQUIRE_VALID(words, TargetEnv::Vulkan1_1);
  CHECK_FALSE(has_opcode(words, spv::Op::OpSubgroupBallotKHR));
  CHECK(has_opcode(words, spv::Op::OpGroupNonUniformBallot));
  CHECK_THAT(result.err, Catch::Contains("subgroup size of at most 64"));
}

TEST_CASE("bismuth compile --variable-group-size makes the size spec constants and warns about fixed input") {
  Scratch scratch;
  const auto input = scratch.write("ballot.comp", kBallotShader);
  const auto output = scratch.path("out.spv");
  auto result = run_process({cli(), "compile", input, "-o", output, "--variable-group-size"});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  CHECK_THAT(result.err, Catch::Contains("16x2x1") && Catch::Contains("SpecIds 0 1 2") &&
                             Catch::Contains("warning"));
  const auto words = read_words(output);
  REQUIRE_VALID(words, TargetEnv::Vulkan1_1);
  auto module = Module::parse(words);
  REQUIRE_OK(module);
  auto size = bismuth::spirv_patch::find_workgroup_size(*module, module->entry_points().at(0));
  REQUIRE_OK(size);
  CHECK(size->form == bismuth::spirv_patch::WorkgroupSizeForm::WorkgroupSizeBuiltIn);
  CHECK(size->spec_ids[0] == 0u);
}

TEST_CASE("bismuth compile --target vulkan1.3 --variable-group-size uses LocalSizeId") {
  Scratch scratch;
  const auto input = scratch.write("ballot.comp", kBallotShader);
  const auto output = scratch.path("out.spv");
  auto result = run_process({cli(), "compile", input, "-o", output, "--target", "vulkan1.3", "--variable-group-size"});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  const auto words = read_words(output);
  REQUIRE_VALID(words, TargetEnv::Vulkan1_3);
  auto module = Module::parse(words);
  REQUIRE_OK(module);
  auto size = bismuth::spirv_patch::find_workgroup_size(*module, module->entry_points().at(0));
  REQUIRE_OK(size);
  CHECK(size->form == bismuth::spirv_patch::WorkgroupSizeForm::LocalSizeId);
}

TEST_CASE("bismuth compile --disasm prints the result as SPIR-V assembly") {
  Scratch scratch;
  const auto input = scratch.write("ballot.comp", kBallotShader);
  auto result = run_process({cli(), "compile", input, "-o", scratch.path("out.spv"), "--disasm"});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  CHECK_THAT(result.out, Catch::Contains("OpGroupNonUniformBallot") && Catch::Contains("OpEntryPoint GLCompute"));
}

TEST_CASE("bismuth compile patches a SPIR-V binary") {
  Scratch scratch;
  const auto words = bismuth::test::compile_or_fail(kBallotShader);
  const std::string bytes(reinterpret_cast<const char*>(words.data()), words.size() * 4);
  const auto input = scratch.write("in.spv", bytes);
  const auto output = scratch.path("out.spv");
  auto result = run_process({cli(), "compile", input, "-o", output});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  const auto out = read_words(output);
  REQUIRE_VALID(out, TargetEnv::Vulkan1_1);
  CHECK(has_opcode(out, spv::Op::OpGroupNonUniformAll));
}

TEST_CASE("bismuth compile reports GLSL errors as file:line:column") {
  Scratch scratch;
  const auto input = scratch.write("bad.comp", "#version 450\nlayout(local_size_x = 1) in;\nvoid main() {\n  uint x = nope;\n}\n");
  auto result = run_process({cli(), "compile", input, "-o", scratch.path("out.spv")});
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.err, Catch::Contains(input + ":4:") && Catch::Contains("error"));
  CHECK_FALSE(std::filesystem::exists(scratch.path("out.spv")));
}

TEST_CASE("bismuth compile reports malformed SPIR-V with its word offset") {
  Scratch scratch;
  auto words = bismuth::test::compile_or_fail(kBallotShader);
  words[5] = 4090u | (2u << 16);
  const std::string bytes(reinterpret_cast<const char*>(words.data()), words.size() * 4);
  const auto input = scratch.write("broken.spv", bytes);
  auto result = run_process({cli(), "compile", input, "-o", scratch.path("out.spv")});
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.err, Catch::Contains(input + ": error: word 5 (Op4090)"));
}
