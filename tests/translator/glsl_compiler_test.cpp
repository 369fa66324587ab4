#include <catch2/catch.hpp>

#include "bismuth/spirv_patch/validate.hpp"
#include "bismuth/translator/glsl_compiler.hpp"

using bismuth::spirv_patch::TargetEnv;
using bismuth::translator::compile_glsl_compute;

TEST_CASE("A GLSL compute shader compiles to valid SPIR-V for each Vulkan target") {
  const char* source = R"(#version 450
layout(local_size_x = 8, local_size_y = 2) in;
layout(std430, binding = 0) buffer B { uint data[]; };
void main() { data[gl_LocalInvocationIndex] = gl_WorkGroupSize.x * gl_WorkGroupSize.y; }
)";
  for (TargetEnv env : {TargetEnv::Vulkan1_0, TargetEnv::Vulkan1_1, TargetEnv::Vulkan1_2, TargetEnv::Vulkan1_3}) {
    INFO(bismuth::spirv_patch::to_string(env));
    auto words = compile_glsl_compute(source, {.source_name = "ok.comp", .target = env});
    REQUIRE(words);
    REQUIRE(words->size() > 5);
    CHECK((*words)[0] == 0x07230203u);
    CHECK((*words)[1] <= bismuth::spirv_patch::max_spirv_version(env));
    auto valid = bismuth::spirv_patch::validate(*words, env);
    INFO((valid ? "" : valid.error().message));
    CHECK(valid);
  }
}

TEST_CASE("Compile errors name file, line and column of the user's source") {
  const char* source = "#version 450\nlayout(local_size_x = 1) in;\nvoid main() {\n  uint x = undefined_name;\n}\n";
  auto words = compile_glsl_compute(source, {.source_name = "broken.comp"});
  REQUIRE_FALSE(words);
  INFO(words.error().message);
  // "undefined_name" starts in column 12 of line 4.
  CHECK_THAT(words.error().message, Catch::StartsWith("broken.comp:4:12: error: 'undefined_name'"));
}

TEST_CASE("A shader that is not a compute shader's source is a clean error") {
  for (const char* source : {"", "not glsl at all", "#version 450\nvoid main() { gl_Position = vec4(0); }\n"}) {
    auto words = compile_glsl_compute(source, {.source_name = "bad.comp"});
    REQUIRE_FALSE(words);
    CHECK_FALSE(words.error().message.empty());
  }
}
