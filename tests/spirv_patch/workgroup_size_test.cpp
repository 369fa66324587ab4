#include <catch2/catch.hpp>

#include "bismuth/spirv_patch/passes/workgroup_size_to_spec_constants.hpp"
#include "shader_sources.hpp"

using bismuth::spirv_patch::Module;
using bismuth::spirv_patch::TargetEnv;
using bismuth::spirv_patch::WorkgroupSizeForm;
using bismuth::spirv_patch::WorkgroupSizeOptions;
using bismuth::spirv_patch::workgroup_size_to_spec_constants;
using bismuth::test::assemble_or_fail;
using bismuth::test::compile_or_fail;

namespace {

// glslang declares a WorkgroupSize built-in composite of plain constants for this shader (and folds its uses).
const char* kFixed = R"(#version 450
layout(local_size_x = 4, local_size_y = 2) in;
layout(std430, binding = 0) buffer B { uint data[]; };
void main() { data[gl_LocalInvocationIndex] = gl_LocalInvocationIndex; }
)";

const char* kSpecX = R"(#version 450
layout(local_size_x_id = 5, local_size_y = 3) in;
layout(std430, binding = 0) buffer B { uint data[]; };
void main() { data[gl_LocalInvocationIndex] = gl_WorkGroupSize.x * 2u + gl_WorkGroupSize.y; }
)";

const char* kSpecXYZ = R"(#version 450
layout(local_size_x_id = 10, local_size_y_id = 11, local_size_z_id = 12) in;
layout(std430, binding = 0) buffer B { uint data[]; };
void main() { data[gl_LocalInvocationIndex] = gl_WorkGroupSize.x * gl_WorkGroupSize.y * gl_WorkGroupSize.z; }
)";

const char* kWithUserSpecConstants = R"(#version 450
layout(local_size_x = 8) in;
layout(constant_id = 0) const uint K0 = 5;
layout(constant_id = 1) const uint K1 = 6;
layout(std430, binding = 0) buffer B { uint data[]; };
void main() { data[gl_LocalInvocationIndex] = K0 + K1; }
)";

// Two compute entry points with different sizes, and LocalSizeId on plain OpConstant.
const char* kTwoEntryPoints = R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %a "a"
OpEntryPoint GLCompute %b "b"
OpExecutionModeId %a LocalSizeId %uint_4 %uint_2 %uint_1
OpExecutionMode %b LocalSize 16 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%uint_4 = OpConstant %uint 4
%uint_2 = OpConstant %uint 2
%uint_1 = OpConstant %uint 1
%a = OpFunction %void None %fn
%la = OpLabel
OpReturn
OpFunctionEnd
%b = OpFunction %void None %fn
%lb = OpLabel
OpReturn
OpFunctionEnd
)";

bismuth::spirv_patch::WorkgroupSizeInfo size_of(const std::vector<uint32_t>& words, const std::string& name = "main") {
  auto module = Module::parse(words);
  REQUIRE_OK(module);
  for (const auto& entry : module->entry_points()) {
    if (entry.name != name) continue;
    auto info = bismuth::spirv_patch::find_workgroup_size(*module, entry);
    REQUIRE_OK(info);
    return *info;
  }
  FAIL("no entry point " << name);
  return {};
}

}  // namespace

TEST_CASE("LocalSize becomes a WorkgroupSize spec-constant composite valid for Vulkan 1.1") {
  const auto input = bismuth::test::strip_workgroup_size_builtin(compile_or_fail(kFixed));
  auto patch = workgroup_size_to_spec_constants(input, {});
  REQUIRE_OK(patch);
  REQUIRE_VALID(patch->words, TargetEnv::Vulkan1_1);
  CHECK(patch->report.input_form == WorkgroupSizeForm::LocalSize);
  CHECK(patch->report.input_was_fixed);
  CHECK(patch->report.original_size == std::array<uint32_t, 3>{4, 2, 1});
  CHECK(patch->report.spec_ids == std::array<uint32_t, 3>{0, 1, 2});
  const auto info = size_of(patch->words);
  CHECK(info.form == WorkgroupSizeForm::WorkgroupSizeBuiltIn);
  CHECK(info.size == std::array<uint32_t, 3>{4, 2, 1});
  CHECK(info.spec_ids == std::array<std::optional<uint32_t>, 3>{0u, 1u, 2u});
}

TEST_CASE("LocalSize becomes LocalSizeId on spec constants, valid for Vulkan 1.3") {
  const auto input = bismuth::test::strip_workgroup_size_builtin(compile_or_fail(kFixed));
  REQUIRE(size_of(input).form == WorkgroupSizeForm::LocalSize);
  auto patch = workgroup_size_to_spec_constants(input, {.output_form = WorkgroupSizeForm::LocalSizeId});
  REQUIRE_OK(patch);
  REQUIRE_VALID(patch->words, TargetEnv::Vulkan1_3);
  const auto info = size_of(patch->words);
  CHECK(info.form == WorkgroupSizeForm::LocalSizeId);
  CHECK(info.size == std::array<uint32_t, 3>{4, 2, 1});
  CHECK(info.spec_ids == std::array<std::optional<uint32_t>, 3>{0u, 1u, 2u});
}

TEST_CASE("LocalSizeId on plain constants (glslang's SPIR-V 1.6) becomes LocalSizeId on spec constants") {
  const auto input = compile_or_fail(kFixed, TargetEnv::Vulkan1_3);
  REQUIRE(size_of(input).form == WorkgroupSizeForm::LocalSizeId);
  auto patch = workgroup_size_to_spec_constants(input, {.output_form = WorkgroupSizeForm::LocalSizeId});
  REQUIRE_OK(patch);
  REQUIRE_VALID(patch->words, TargetEnv::Vulkan1_3);
  const auto info = size_of(patch->words);
  CHECK(info.form == WorkgroupSizeForm::LocalSizeId);
  CHECK(info.size == std::array<uint32_t, 3>{4, 2, 1});
  CHECK(info.spec_ids == std::array<std::optional<uint32_t>, 3>{0u, 1u, 2u});
}

TEST_CASE("A fixed WorkgroupSize built-in composite becomes a spec-constant composite") {
  const auto input = compile_or_fail(kFixed);
  REQUIRE(size_of(input).form == WorkgroupSizeForm::WorkgroupSizeBuiltIn);
  auto patch = workgroup_size_to_spec_constants(input, {});
  REQUIRE_OK(patch);
  REQUIRE_VALID(patch->words, TargetEnv::Vulkan1_1);
  CHECK(patch->report.input_form == WorkgroupSizeForm::WorkgroupSizeBuiltIn);
  CHECK(patch->report.input_was_fixed);
  CHECK(patch->report.original_size == std::array<uint32_t, 3>{4, 2, 1});
  CHECK(size_of(patch->words).spec_ids == std::array<std::optional<uint32_t>, 3>{0u, 1u, 2u});
  CHECK(patch->words[3] == input[3] + 3);  // three new ids: the spec constants; the composite kept its id
}

TEST_CASE("A WorkgroupSize built-in composite takes precedence and is rewritten in place, so its uses follow") {
  const auto input = compile_or_fail(kSpecX);
  auto module = Module::parse(input);
  REQUIRE_OK(module);
  auto report = workgroup_size_to_spec_constants(*module, {});
  REQUIRE_OK(report);
  const auto out = module->serialize();
  REQUIRE_VALID(out, TargetEnv::Vulkan1_1);
  CHECK(report->input_form == WorkgroupSizeForm::WorkgroupSizeBuiltIn);
  CHECK_FALSE(report->input_was_fixed);
  CHECK(report->original_size == std::array<uint32_t, 3>{1, 3, 1});
  CHECK(report->reused_spec_constant == std::array<bool, 3>{true, false, false});
  CHECK(report->spec_ids[0] == 5);
  // The OpSpecConstantOp that computes `x * 2u + y` reads the composite, which now holds three spec constants.
  const auto info = size_of(out);
  CHECK(info.form == WorkgroupSizeForm::WorkgroupSizeBuiltIn);
  CHECK(info.spec_ids[0] == 5u);
  CHECK(info.spec_ids[1].has_value());
  CHECK(info.spec_ids[2].has_value());
}

TEST_CASE("A module with local_size_x_id keeps its SpecIds and gains no new spec constant") {
  const auto input = compile_or_fail(kSpecXYZ);
  auto patch = workgroup_size_to_spec_constants(input, {});
  REQUIRE_OK(patch);
  REQUIRE_VALID(patch->words, TargetEnv::Vulkan1_1);
  CHECK(patch->report.spec_ids == std::array<uint32_t, 3>{10, 11, 12});
  CHECK(patch->report.reused_spec_constant == std::array<bool, 3>{true, true, true});
  CHECK(patch->words[3] == input[3]);  // bound unchanged: nothing new was declared
}

TEST_CASE("LocalSizeId with spec constants (SPIR-V 1.6 input) is reused") {
  const auto input = compile_or_fail(kSpecXYZ, TargetEnv::Vulkan1_3);
  REQUIRE(size_of(input).form == WorkgroupSizeForm::LocalSizeId);
  auto patch = workgroup_size_to_spec_constants(input, {.output_form = WorkgroupSizeForm::LocalSizeId});
  REQUIRE_OK(patch);
  REQUIRE_VALID(patch->words, TargetEnv::Vulkan1_3);
  CHECK(patch->report.input_form == WorkgroupSizeForm::LocalSizeId);
  CHECK(patch->report.spec_ids == std::array<uint32_t, 3>{10, 11, 12});
}

TEST_CASE("LocalSizeId on plain constants becomes spec constants without touching the shared constants") {
  const auto input = assemble_or_fail(kTwoEntryPoints);
  auto patch = workgroup_size_to_spec_constants(input, {.entry_point = "a",
                                                        .output_form = WorkgroupSizeForm::LocalSizeId});
  REQUIRE_OK(patch);
  REQUIRE_VALID(patch->words, TargetEnv::Vulkan1_3);
  CHECK(patch->report.input_form == WorkgroupSizeForm::LocalSizeId);
  CHECK(patch->report.original_size == std::array<uint32_t, 3>{4, 2, 1});
  CHECK(size_of(patch->words, "a").spec_ids == std::array<std::optional<uint32_t>, 3>{0u, 1u, 2u});
}

TEST_CASE("Only the selected entry point changes, the others keep their sizes") {
  const auto input = assemble_or_fail(kTwoEntryPoints);
  auto patch = workgroup_size_to_spec_constants(input, {.entry_point = "a",
                                                        .output_form = WorkgroupSizeForm::LocalSizeId});
  REQUIRE_OK(patch);
  const auto b = size_of(patch->words, "b");
  CHECK(b.form == WorkgroupSizeForm::LocalSize);
  CHECK(b.size == std::array<uint32_t, 3>{16, 1, 1});
  CHECK_FALSE(b.spec_ids[0].has_value());
  // A new WorkgroupSize built-in would resize "b" too: refused with a message that says why.
  auto builtin = workgroup_size_to_spec_constants(input, {.entry_point = "a"});
  REQUIRE_FALSE(builtin);
  CHECK_THAT(builtin.error().message, Catch::Contains("\"b\"") && Catch::Contains("LocalSizeId"));
}

TEST_CASE("The WorkgroupSize built-in form is refused for SPIR-V 1.6") {
  const auto input = compile_or_fail(kFixed, TargetEnv::Vulkan1_3);
  auto patch = workgroup_size_to_spec_constants(input, {});
  REQUIRE_FALSE(patch);
  CHECK_THAT(patch.error().message, Catch::Contains("1.6") && Catch::Contains("LocalSizeId"));
}

TEST_CASE("LocalSizeId output raises a SPIR-V 1.0 module to 1.2, not further") {
  const auto input = compile_or_fail(kFixed, TargetEnv::Vulkan1_0);
  REQUIRE(input[1] == 0x00010000u);
  auto patch = workgroup_size_to_spec_constants(input, {.output_form = WorkgroupSizeForm::LocalSizeId});
  REQUIRE_OK(patch);
  CHECK(patch->words[1] == 0x00010200u);
  CHECK(patch->report.version_after == 0x00010200u);
  REQUIRE_VALID(patch->words, TargetEnv::Vulkan1_3);
}

TEST_CASE("New SpecIds never collide with the module's own, free preferred ids are used") {
  const auto input = compile_or_fail(kWithUserSpecConstants);
  auto patch = workgroup_size_to_spec_constants(input, {});
  REQUIRE_OK(patch);
  REQUIRE_VALID(patch->words, TargetEnv::Vulkan1_1);
  CHECK(patch->report.spec_ids == std::array<uint32_t, 3>{2, 3, 4});
  auto preferred = workgroup_size_to_spec_constants(input, {.preferred_spec_ids = {100u, 1u, 101u}});
  REQUIRE_OK(preferred);
  CHECK(preferred->report.spec_ids == std::array<uint32_t, 3>{100, 2, 101});  // 1 belongs to K1
  REQUIRE_VALID(preferred->words, TargetEnv::Vulkan1_1);
}

TEST_CASE("Patching twice changes nothing the second time") {
  const auto input = compile_or_fail(kFixed);
  auto first = workgroup_size_to_spec_constants(input, {});
  REQUIRE_OK(first);
  auto second = workgroup_size_to_spec_constants(first->words, {});
  REQUIRE_OK(second);
  CHECK(second->words == first->words);
  CHECK(second->report.reused_spec_constant == std::array<bool, 3>{true, true, true});
}

TEST_CASE("A fixed-size module is reported as fixed and refused when the caller asks") {
  const auto input = compile_or_fail(kFixed);
  auto patch = workgroup_size_to_spec_constants(input, {.reject_fixed_size = true});
  REQUIRE_FALSE(patch);
  CHECK_THAT(patch.error().message, Catch::Contains("4x2x1") && Catch::Contains("folded"));
  CHECK(workgroup_size_to_spec_constants(compile_or_fail(kSpecX), {.reject_fixed_size = true}));
}

TEST_CASE("Bad input: a missing entry point is an error naming it") {
  const auto input = compile_or_fail(kFixed);
  auto patch = workgroup_size_to_spec_constants(input, {.entry_point = "nope"});
  REQUIRE_FALSE(patch);
  CHECK_THAT(patch.error().message, Catch::Contains("\"nope\"") && Catch::Contains("\"main\""));
}

TEST_CASE("Bad input: an entry point without a workgroup size is an error") {
  const char* text = R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%l = OpLabel
OpReturn
OpFunctionEnd
)";
  auto patch = workgroup_size_to_spec_constants(assemble_or_fail(text), {});
  REQUIRE_FALSE(patch);
  CHECK_THAT(patch.error().message, Catch::Contains("no workgroup size"));
}
