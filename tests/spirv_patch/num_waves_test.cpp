// specialize_num_waves and bind_marker_builtins (spirv_patch/include/bismuth/spirv_patch/passes/num_waves.hpp).
// HLSL proposal 0054: "the group size is X times the wave size"; the pass gives every size form that value as
// literals, and turns the HLSL front's marker variables into the SubgroupId family of built-ins.
#include <catch2/catch.hpp>

#include <random>

#include "bismuth/spirv_patch/analysis/workgroup_size.hpp"
#include "bismuth/spirv_patch/passes/bind_marker_builtins.hpp"
#include "bismuth/spirv_patch/passes/num_waves.hpp"
#include "bismuth/spirv_patch/pipeline.hpp"
#include "shader_sources.hpp"

using bismuth::spirv_patch::Module;
using bismuth::spirv_patch::NumWavesOptions;
using bismuth::spirv_patch::PipelineOptions;
using bismuth::spirv_patch::PipelineStage;
using bismuth::spirv_patch::TargetEnv;
using bismuth::spirv_patch::WorkgroupSizeForm;
using bismuth::test::assemble_or_fail;
using bismuth::test::compile_or_fail;

namespace {

// What the fronts emit (docs: numwaves design, "Seam 1"): the size as spec constants at 0x7B00..0x7B02, default 1.
const char* kFrontForm = R"(#version 450
#extension GL_KHR_shader_subgroup_basic : require
layout(local_size_x_id = 0x7B00, local_size_y_id = 0x7B01, local_size_z_id = 0x7B02) in;
layout(std430, binding = 0) buffer B { uvec4 data[]; };
void main() {
  uint slot = gl_WorkGroupID.x * gl_WorkGroupSize.x + gl_SubgroupID * gl_SubgroupSize + gl_SubgroupInvocationID;
  data[slot] = uvec4(gl_SubgroupID, gl_SubgroupInvocationID, gl_SubgroupSize, gl_WorkGroupSize.x);
}
)";

const char* kFixed = R"(#version 450
layout(local_size_x = 64, local_size_y = 2) in;
layout(std430, binding = 0) buffer B { uint data[]; };
void main() { data[gl_LocalInvocationIndex] = 1u; }
)";

const char* kSpecXAtOtherId = R"(#version 450
layout(local_size_x_id = 5, local_size_y = 3) in;
layout(std430, binding = 0) buffer B { uint data[]; };
void main() { data[gl_LocalInvocationIndex] = gl_WorkGroupSize.x * 2u + gl_WorkGroupSize.y; }
)";

// LocalSizeId on plain constants that code also uses: %uint_4 must keep its value for the store.
const char* kLocalSizeIdShared = R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionModeId %main LocalSizeId %uint_4 %uint_1 %uint_1
OpDecorate %block Block
OpMemberDecorate %block 0 Offset 0
OpDecorate %out DescriptorSet 0
OpDecorate %out Binding 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%uint_4 = OpConstant %uint 4
%uint_1 = OpConstant %uint 1
%uint_0 = OpConstant %uint 0
%block = OpTypeStruct %uint
%ptr_block = OpTypePointer StorageBuffer %block
%ptr_uint = OpTypePointer StorageBuffer %uint
%out = OpVariable %ptr_block StorageBuffer
%main = OpFunction %void None %fn
%l = OpLabel
%p = OpAccessChain %ptr_uint %out %uint_0
OpStore %p %uint_4
OpReturn
OpFunctionEnd
)";

// One spec constant serves X and Y (a front could share "1"): X must get its own constant.
const char* kSharedSpecConstant = R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %one SpecId 7
OpDecorate %size BuiltIn WorkgroupSize
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%v3uint = OpTypeVector %uint 3
%one = OpSpecConstant %uint 1
%size = OpSpecConstantComposite %v3uint %one %one %one
%main = OpFunction %void None %fn
%l = OpLabel
OpReturn
OpFunctionEnd
)";

// The HLSL front's markers (Seam 1): Private uints named bismuth_builtin_<BuiltIn>, only loaded. %lane has the
// initializer glslang gives an initialised static.
std::string marker_module(const char* extra_code = "", const char* lane_type = "%uint",
                          const char* version_interface = "") {
  return std::string(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main")") +
         version_interface + R"(
OpExecutionMode %main LocalSize 1 1 1
OpName %wave "bismuth_builtin_SubgroupId"
OpName %lane "bismuth_builtin_SubgroupLocalInvocationId"
OpName %size "bismuth_builtin_SubgroupSize"
OpName %count "bismuth_builtin_NumSubgroups"
OpDecorate %block Block
OpMemberDecorate %block 0 Offset 0
OpDecorate %out DescriptorSet 0
OpDecorate %out Binding 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%int = OpTypeInt 32 1
%uint_0 = OpConstant %uint 0
%int_0 = OpConstant %int 0
%block = OpTypeStruct %uint
%ptr_block = OpTypePointer StorageBuffer %block
%ptr_uint = OpTypePointer StorageBuffer %uint
%priv_uint = OpTypePointer Private %uint
%priv_int = OpTypePointer Private %int
%out = OpVariable %ptr_block StorageBuffer
%wave = OpVariable %priv_uint Private
%lane = OpVariable %priv_)" +
         std::string(lane_type).substr(1) + " Private " + (std::string(lane_type) == "%int" ? "%int_0" : "%uint_0") +
         R"(
%size = OpVariable %priv_uint Private
%count = OpVariable %priv_uint Private
%main = OpFunction %void None %fn
%l = OpLabel
%w = OpLoad %uint %wave
%s = OpLoad %uint %size
%c = OpLoad %uint %count
%ws = OpIMul %uint %w %s
%wsc = OpIAdd %uint %ws %c
%p = OpAccessChain %ptr_uint %out %uint_0
)" + extra_code +
         R"(
OpStore %p %wsc
OpReturn
OpFunctionEnd
)";
}

std::vector<uint32_t> specialize_or_fail(const std::vector<uint32_t>& words, NumWavesOptions options,
                                         bismuth::spirv_patch::NumWavesReport* report = nullptr) {
  auto module = Module::parse(words);
  REQUIRE_OK(module);
  auto result = bismuth::spirv_patch::specialize_num_waves(*module, options);
  REQUIRE_OK(result);
  if (report) *report = *result;
  return module->serialize();
}

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

// No specialization can change the size: no dimension is a spec constant any more.
void require_literal_size(const std::vector<uint32_t>& words, std::array<uint32_t, 3> expected) {
  const auto info = size_of(words);
  CHECK(info.size == expected);
  for (const auto& spec_id : info.spec_ids) CHECK_FALSE(spec_id.has_value());
}

std::string error_of(const std::vector<uint32_t>& words, NumWavesOptions options) {
  auto module = Module::parse(words);
  REQUIRE_OK(module);
  auto result = bismuth::spirv_patch::specialize_num_waves(*module, options);
  REQUIRE_FALSE(result);
  return result.error().message;
}

}  // namespace

TEST_CASE("num_waves: the fronts' spec constants 0x7B00..0x7B02 become the literal size X*w,1,1", "[num_waves]") {
  // Proposal 0054: "The thread group size is numWaves * WaveGetLaneCount()", one dimension.
  const auto input = compile_or_fail(kFrontForm);
  for (uint32_t wave : {8u, 32u, 64u}) {
    bismuth::spirv_patch::NumWavesReport report;
    const auto words = specialize_or_fail(input, {.num_waves = 3, .wave_size = wave}, &report);
    CHECK(report.group_size == std::array<uint32_t, 3>{3 * wave, 1, 1});
    CHECK(report.had_spec_constant_size);
    require_literal_size(words, {3 * wave, 1, 1});
    auto module = Module::parse(words);
    REQUIRE_OK(module);
    for (uint32_t id : {0x7B00u, 0x7B01u, 0x7B02u}) {
      const auto in_use = module->spec_ids_in_use();
      CHECK(std::find(in_use.begin(), in_use.end(), id) == in_use.end());
    }
    REQUIRE_VALID(words, TargetEnv::Vulkan1_1);
  }
}

TEST_CASE("num_waves: SPIR-V 1.6 input (LocalSizeId on spec constants)", "[num_waves]") {
  const auto input = compile_or_fail(kFrontForm, TargetEnv::Vulkan1_3);
  REQUIRE(size_of(input).form == WorkgroupSizeForm::LocalSizeId);
  const auto words = specialize_or_fail(input, {.num_waves = 4, .wave_size = 32});
  require_literal_size(words, {128, 1, 1});
  // LocalSizeId needs maintenance4 (VUID-RuntimeSpirv-LocalSizeId-06434); the literal form does not.
  CHECK(size_of(words).form == WorkgroupSizeForm::LocalSize);
  REQUIRE_VALID(words, TargetEnv::Vulkan1_3);
}

TEST_CASE("num_waves: a fixed WorkgroupSize built-in and a bare LocalSize are rewritten", "[num_waves]") {
  const auto fixed = compile_or_fail(kFixed);
  REQUIRE(size_of(fixed).form == WorkgroupSizeForm::WorkgroupSizeBuiltIn);
  bismuth::spirv_patch::NumWavesReport report;
  const auto words = specialize_or_fail(fixed, {.num_waves = 2, .wave_size = 16}, &report);
  CHECK_FALSE(report.had_spec_constant_size);
  require_literal_size(words, {32, 1, 1});
  REQUIRE_VALID(words, TargetEnv::Vulkan1_1);

  const auto bare = bismuth::test::strip_workgroup_size_builtin(fixed);
  REQUIRE(size_of(bare).form == WorkgroupSizeForm::LocalSize);
  const auto bare_words = specialize_or_fail(bare, {.num_waves = 5, .wave_size = 8});
  require_literal_size(bare_words, {40, 1, 1});
  REQUIRE_VALID(bare_words, TargetEnv::Vulkan1_1);
}

TEST_CASE("num_waves: spec constants at other SpecIds, mixed with literals", "[num_waves]") {
  const auto input = compile_or_fail(kSpecXAtOtherId);
  const auto words = specialize_or_fail(input, {.num_waves = 1, .wave_size = 32});
  require_literal_size(words, {32, 1, 1});
  REQUIRE_VALID(words, TargetEnv::Vulkan1_1);
}

TEST_CASE("num_waves: a LocalSizeId constant shared with code keeps its value for the code", "[num_waves]") {
  // Also: the result states the size with LocalSize literals (SPIR-V 1.6 section 3.6), no maintenance4 needed.
  const auto input = assemble_or_fail(kLocalSizeIdShared, SPV_ENV_UNIVERSAL_1_3);
  const auto words = specialize_or_fail(input, {.num_waves = 2, .wave_size = 32});
  require_literal_size(words, {64, 1, 1});
  CHECK(size_of(words).form == WorkgroupSizeForm::LocalSize);
  REQUIRE_VALID(words, TargetEnv::Vulkan1_3);
  // The store still writes 4: %uint_4 was not edited.
  auto module = Module::parse(words);
  REQUIRE_OK(module);
  bool stores_four = false;
  for (auto h : module->instructions()) {
    if (module->opcode(h) != spv::Op::OpStore) continue;
    auto value = module->definition(module->words(h)[2]);
    REQUIRE(value);
    stores_four = module->opcode(*value) == spv::Op::OpConstant && module->words(*value)[3] == 4;
  }
  CHECK(stores_four);
}

TEST_CASE("num_waves: one spec constant for several dimensions", "[num_waves]") {
  const auto input = assemble_or_fail(kSharedSpecConstant, SPV_ENV_UNIVERSAL_1_3);
  const auto words = specialize_or_fail(input, {.num_waves = 3, .wave_size = 8});
  require_literal_size(words, {24, 1, 1});
  REQUIRE_VALID(words, TargetEnv::Vulkan1_1);
}

TEST_CASE("bind_marker_builtins: the four markers become Input built-ins", "[num_waves]") {
  // SPIR-V 1.6 section 3.21: SubgroupId, SubgroupLocalInvocationId, SubgroupSize, NumSubgroups are BuiltIns of
  // capability GroupNonUniform; Vulkan 1.3 15.9: built-in variables are Input and listed in the interface.
  // SPIR-V 1.3 lists only Input/Output variables in the interface, 1.4 every global the entry point uses.
  for (const char* version_interface : {"", " %out %wave %lane %size %count"}) {
    const auto env = *version_interface ? SPV_ENV_UNIVERSAL_1_4 : SPV_ENV_UNIVERSAL_1_3;
    const auto target = *version_interface ? TargetEnv::Vulkan1_2 : TargetEnv::Vulkan1_1;
    const auto input = assemble_or_fail(marker_module("", "%uint", version_interface).c_str(), env);
    REQUIRE_VALID(input, target);
    auto module = Module::parse(input);
    REQUIRE_OK(module);
    auto bound = bismuth::spirv_patch::bind_marker_builtins(*module);
    REQUIRE_OK(bound);
    CHECK(*bound == 4);
    CHECK(module->has_capability(spv::Capability::GroupNonUniform));
    const auto words = module->serialize();
    REQUIRE_VALID(words, target);
    auto out = Module::parse(words);
    REQUIRE_OK(out);
    int builtins = 0;
    for (auto h : out->instructions(bismuth::spirv_patch::Section::Global)) {
      const auto w = out->words(h);
      if (out->opcode(h) != spv::Op::OpVariable || w[2] == 0) continue;
      const auto builtin = out->decoration_literal(w[2], spv::Decoration::BuiltIn);
      if (!builtin) continue;
      ++builtins;
      CHECK(w[3] == static_cast<uint32_t>(spv::StorageClass::Input));
      CHECK(w.size() == 4);  // no initializer
    }
    CHECK(builtins == 4);
  }
}

TEST_CASE("bind_marker_builtins: no markers leaves the module as it was", "[num_waves]") {
  const auto input = compile_or_fail(kFixed);
  auto module = Module::parse(input);
  REQUIRE_OK(module);
  auto bound = bismuth::spirv_patch::bind_marker_builtins(*module);
  REQUIRE_OK(bound);
  CHECK(*bound == 0);
  CHECK(module->serialize() == input);
}

TEST_CASE("bind_marker_builtins: a stored or mistyped marker is an error", "[num_waves]") {
  {
    const auto input = assemble_or_fail(marker_module("OpStore %wave %c").c_str());
    auto module = Module::parse(input);
    REQUIRE_OK(module);
    auto bound = bismuth::spirv_patch::bind_marker_builtins(*module);
    REQUIRE_FALSE(bound);
    CHECK_THAT(bound.error().message, Catch::Contains("bismuth_builtin_SubgroupId") &&
                                          Catch::Contains("may only be read") && Catch::Contains("OpStore"));
  }
  {
    const auto input = assemble_or_fail(marker_module("", "%int").c_str());
    auto module = Module::parse(input);
    REQUIRE_OK(module);
    auto bound = bismuth::spirv_patch::bind_marker_builtins(*module);
    REQUIRE_FALSE(bound);
    CHECK_THAT(bound.error().message, Catch::Contains("bismuth_builtin_SubgroupLocalInvocationId") &&
                                          Catch::Contains("32-bit unsigned integer"));
  }
}

TEST_CASE("num_waves: bad options and inputs are errors", "[num_waves]") {
  const auto input = compile_or_fail(kFrontForm);
  CHECK_THAT(error_of(input, {.num_waves = 0, .wave_size = 32}), Catch::Contains("wave count"));
  CHECK_THAT(error_of(input, {.num_waves = 2, .wave_size = 0}), Catch::Contains("wave size"));
  CHECK_THAT(error_of(input, {.num_waves = 0x10000, .wave_size = 0x10000}), Catch::Contains("overflow"));
  CHECK_THAT(error_of(input, {.entry_point = "other", .num_waves = 1, .wave_size = 8}), Catch::Contains("other"));

  PipelineOptions options;
  options.num_waves = NumWavesOptions{.num_waves = 1, .wave_size = 8};
  options.group_size_to_spec_constants = bismuth::spirv_patch::WorkgroupSizeOptions{};
  auto refused = bismuth::spirv_patch::run_pipeline(input, options);
  REQUIRE_FALSE(refused);
  CHECK(bismuth::spirv_patch::failed_stage(refused.error()) == PipelineStage::NumWaves);
}

TEST_CASE("num_waves: run_pipeline orders the pass and validates its output", "[num_waves]") {
  PipelineOptions options;
  options.num_waves = NumWavesOptions{.num_waves = 2, .wave_size = 32};
  auto result = bismuth::spirv_patch::run_pipeline(compile_or_fail(kFrontForm), options);
  REQUIRE_OK(result);
  REQUIRE(result->num_waves);
  CHECK(result->num_waves->group_size == std::array<uint32_t, 3>{64, 1, 1});
  require_literal_size(result->words, {64, 1, 1});
}

TEST_CASE("num_waves: malformed words give errors, never a crash", "[num_waves]") {
  // Rules: "bad input gets a clear diagnostic, never a crash". Every truncation and a fixed set of word flips of a
  // marker module; any module the pipeline accepts has passed spirv-val inside it.
  const auto input = assemble_or_fail(marker_module().c_str());
  PipelineOptions options;
  options.num_waves = NumWavesOptions{.num_waves = 2, .wave_size = 8};
  for (size_t length = 0; length < input.size(); ++length) {
    auto result = bismuth::spirv_patch::run_pipeline(std::span(input.data(), length), options);
    CHECK_FALSE(result);
  }
  std::mt19937 random(16);
  for (int trial = 0; trial < 2000; ++trial) {
    auto words = input;
    const size_t at = 5 + random() % (words.size() - 5);
    words[at] = (trial % 2) ? random() : words[at] ^ (1u << (random() % 32));
    auto result = bismuth::spirv_patch::run_pipeline(words, options);
    if (result) REQUIRE_VALID(result->words, TargetEnv::Vulkan1_1);
  }
}
