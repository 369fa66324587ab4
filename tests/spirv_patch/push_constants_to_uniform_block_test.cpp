// push_constants_to_uniform_block (issue 17): the runtime-group-size variant reads its logical size and literals
// from a uniform buffer instead of push constants (on NVIDIA every dispatch of a shader that reads push constants
// costs the driver ~1.6x the CPU, docs/performance.md "What a stand-in dispatch costs NVIDIA"). The variant must
// compute what the original computes, stay shared across a template's programs, and pass spirv-val; a block with the
// program's own push constants stays push constants.
#include <catch2/catch.hpp>

#include <volk.h>

#include <string>
#include <tuple>

#include "bismuth/spirv_patch/passes/push_constants_to_uniform_block.hpp"
#include "bismuth/spirv_patch/pipeline.hpp"
#include "runtime_group_size_support.hpp"
#include "support/buffer_dispatch.hpp"
#include "support/validated_vulkan.hpp"

using bismuth::spirv_patch::PipelineOptions;
using bismuth::spirv_patch::PipelineResult;
using bismuth::test::BufferDevice;
using bismuth::test::MultiBufferDispatch;
using bismuth::test::ValidatedVulkan;
using namespace bismuth::test::runtime_group_size;

namespace {

// A kernel from a template, as a generator bakes `a` and `b` into the source.
std::string templated(uint32_t a, uint32_t b) {
  const std::string A = std::to_string(a) + "u", B = std::to_string(b) + "u";
  return shader(R"(
layout(std430, binding = 0) buffer Out { uint count; uint data[]; };
void main() {
  uint i = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * 32u;
  data[i * 4u + 0u] = i * )" +
                A + R"( + gl_LocalInvocationIndex;
  data[i * 4u + 1u] = (i ^ )" +
                B + R"() + gl_WorkGroupSize.x * 100u + gl_WorkGroupSize.y;
  data[i * 4u + 2u] = gl_WorkGroupID.x + gl_NumWorkGroups.x * 7u;
  data[i * 4u + 3u] = gl_LocalInvocationID.y;
  atomicAdd(count, )" +
                A + R"();
}
)");
}

PipelineOptions variant_options(TargetEnv env, uint32_t binding) {
  PipelineOptions options;
  options.validate = env;
  options.runtime_group_size = bismuth::spirv_patch::RuntimeGroupSizeOptions{};
  options.literals_to_push_constants = bismuth::spirv_patch::LiteralsToPushConstantsOptions{};
  options.runtime_parameters_binding = binding;
  return options;
}

PipelineResult piped_or_fail(const std::vector<uint32_t>& words, const PipelineOptions& options) {
  auto piped = bismuth::spirv_patch::run_pipeline(words, options);
  REQUIRE_OK(piped);
  REQUIRE(piped->runtime_group_size);
  return std::move(*piped);
}

std::string text_of(const std::vector<uint32_t>& words) {
  auto text = bismuth::spirv_patch::disassemble(words);
  REQUIRE_OK(text);
  return *text;
}

}  // namespace

TEST_CASE("Uniform parameters: the variant's block becomes a uniform buffer after the program's bindings") {
  for (TargetEnv env : {TargetEnv::Vulkan1_0, TargetEnv::Vulkan1_1, TargetEnv::Vulkan1_3}) {
    INFO("target " << bismuth::spirv_patch::to_string(env));
    const auto first = piped_or_fail(prepared(templated(5, 3), env), variant_options(env, 1));
    const auto second = piped_or_fail(prepared(templated(77, 9), env), variant_options(env, 1));
    const auto& a = *first.runtime_group_size;
    REQUIRE(a.parameters_binding == std::optional<uint32_t>(1));
    REQUIRE_FALSE(a.literals.values.empty());
    // Size (12 bytes at 0), then the literals: the bytes the push constants would have held.
    CHECK(a.report.push_constant_offset == 0);
    CHECK(a.parameters_bytes == a.literals.push_constant_offset + 4 * a.literals.values.size());
    REQUIRE_VALID(a.words, env);
    // Programs of one template still share the variant's words.
    CHECK(a.words == second.runtime_group_size->words);
    CHECK(a.literals.values != second.runtime_group_size->literals.values);
    const std::string text = text_of(a.words);
    CHECK(text.find("PushConstant") == std::string::npos);
    CHECK(text.find("Binding 1") != std::string::npos);
    // The main module is untouched by the step.
    CHECK(text_of(first.words).find("Binding 1") == std::string::npos);
  }
}

TEST_CASE("Uniform parameters: on the device the variant matches the original word for word") {
  ValidatedVulkan vk;
  auto device = BufferDevice::create(vk);
  REQUIRE_OK(device);
  for (auto [a, b] : std::vector<std::tuple<uint32_t, uint32_t>>{{5, 3}, {77, 9}, {4294967295u, 0}}) {
    for (std::array<uint32_t, 3> size : {std::array<uint32_t, 3>{16, 2, 1}, {5, 3, 1}}) {
      INFO("literals " << a << ", " << b << ", size " << size[0] << "x" << size[1]);
      const auto original = prepared(templated(a, b));
      const auto piped = piped_or_fail(original, variant_options(TargetEnv::Vulkan1_1, 1));
      const auto& variant = *piped.runtime_group_size;
      REQUIRE(variant.parameters_binding);
      const auto& ids = variant.report.spec_ids;
      const uint32_t words = 1 + 2 * 64 * 4;
      MultiBufferDispatch expected_run;
      expected_run.spirv = original;
      expected_run.specialization = {{ids[0], size[0]}, {ids[1], size[1]}, {ids[2], size[2]}};
      expected_run.group_count = {2, 1, 1};
      expected_run.buffers = {{0, false, std::vector<uint32_t>(words, 0)}};
      REQUIRE_OK((*device)->run(expected_run));
      // The parameters: the logical size at 0, the literals at their offset; a larger physical size, as a stand-in.
      std::vector<uint32_t> parameters(size.begin(), size.end());
      parameters.resize(variant.literals.push_constant_offset / 4, 0);
      parameters.insert(parameters.end(), variant.literals.values.begin(), variant.literals.values.end());
      REQUIRE(parameters.size() * 4 == variant.parameters_bytes);
      MultiBufferDispatch variant_run;
      variant_run.spirv = variant.words;
      variant_run.specialization = {{ids[0], 64}, {ids[1], 1}, {ids[2], 1}};
      variant_run.group_count = {2, 1, 1};
      variant_run.buffers = {{0, false, std::vector<uint32_t>(words, 0)}, {1, true, parameters}};
      REQUIRE_OK((*device)->run(variant_run));
      CHECK(variant_run.buffers[0].words == expected_run.buffers[0].words);
    }
  }
  (*device)->reset();
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("Uniform parameters: a block that holds the program's own push constants stays push constants") {
  // The size then follows the program's members (offset 16): moving the block would move them too.
  auto options = variant_options(TargetEnv::Vulkan1_1, 1);
  options.runtime_group_size->push_constant_offset = 16;
  const auto piped = piped_or_fail(prepared(shader(kWithPushConstants)), options);
  CHECK_FALSE(piped.runtime_group_size->parameters_binding);
  CHECK(text_of(piped.runtime_group_size->words).find("PushConstant") != std::string::npos);
  // Without the option nothing moves either.
  auto plain = variant_options(TargetEnv::Vulkan1_1, 1);
  plain.runtime_parameters_binding.reset();
  const auto kept = piped_or_fail(prepared(templated(5, 3)), plain);
  CHECK_FALSE(kept.runtime_group_size->parameters_binding);
}

TEST_CASE("Uniform parameters: the pass refuses what is not a push-constant variable and leaves the module as is") {
  auto module = Module::parse(prepared(templated(5, 3)));
  REQUIRE_OK(module);
  const auto before = module->serialize();
  auto refused = bismuth::spirv_patch::push_constants_to_uniform_block(*module, {.push_variable = 1, .binding = 1});
  REQUIRE_FALSE(refused);
  CHECK(refused.error().message.find("not a push-constant variable") != std::string::npos);
  CHECK(module->serialize() == before);
}

TEST_CASE("Uniform parameters: a variant whose literals did not fit moves its size alone") {
  // 40 literals do not fit the 128 bytes of push constants step 8 allows: it is skipped, and step 9 then moves the
  // block of step 7 (the logical size only).
  std::string body =
      "layout(std430, binding = 0) buffer Out { uint count; uint data[]; };\nvoid main() {\n"
      "  uint i = gl_GlobalInvocationID.x;\n";
  for (uint32_t k = 0; k < 40; ++k) {
    body += "  data[i * 40u + " + std::to_string(k) + "u] = i * " + std::to_string(1000 + k) + "u;\n";
  }
  body += "}\n";
  const auto piped = piped_or_fail(prepared(shader(body)), variant_options(TargetEnv::Vulkan1_1, 1));
  const auto& variant = *piped.runtime_group_size;
  CHECK_FALSE(variant.literals.skipped_reason.empty());
  CHECK(variant.literals.values.empty());
  REQUIRE(variant.parameters_binding == std::optional<uint32_t>(1));
  CHECK(variant.parameters_bytes == 12);
  REQUIRE_VALID(variant.words, TargetEnv::Vulkan1_1);
  CHECK(text_of(variant.words).find("PushConstant") == std::string::npos);
}
