#include <catch2/catch.hpp>

#include <vector>

#include "bismuth/spirv_patch/validate.hpp"
#include "bismuth/translator/glsl_compiler.hpp"

using bismuth::spirv_patch::TargetEnv;

TEST_CASE("Target environments parse from their command-line names") {
  CHECK(bismuth::spirv_patch::parse_target_env("vulkan1.1") == TargetEnv::Vulkan1_1);
  CHECK(bismuth::spirv_patch::parse_target_env("vulkan1.3") == TargetEnv::Vulkan1_3);
  CHECK_FALSE(bismuth::spirv_patch::parse_target_env("opengl4.5").has_value());
  CHECK(bismuth::spirv_patch::to_string(TargetEnv::Vulkan1_2) == "vulkan1.2");
}

TEST_CASE("validate rejects modules that are not SPIR-V") {
  CHECK_FALSE(bismuth::spirv_patch::validate({}, TargetEnv::Vulkan1_1));
  const std::vector<uint32_t> garbage = {0xdeadbeef, 1, 2, 3, 4, 5};
  auto result = bismuth::spirv_patch::validate(garbage, TargetEnv::Vulkan1_1);
  REQUIRE_FALSE(result);
  CHECK_THAT(result.error().message, Catch::StartsWith("spirv-val (vulkan1.1)"));
}

TEST_CASE("validate enforces the target's SPIR-V version") {
  auto words = bismuth::translator::compile_glsl_compute(
      "#version 450\nlayout(local_size_x = 1) in;\nvoid main() {}\n", {.target = TargetEnv::Vulkan1_3});
  REQUIRE(words);
  CHECK(bismuth::spirv_patch::validate(*words, TargetEnv::Vulkan1_3));
  CHECK_FALSE(bismuth::spirv_patch::validate(*words, TargetEnv::Vulkan1_0));  // SPIR-V 1.6 is not Vulkan 1.0's
}
