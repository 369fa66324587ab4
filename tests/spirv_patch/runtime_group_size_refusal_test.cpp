// workgroup_size_to_runtime: which modules it makes exact only, and the modules, options and uses of the size it
// refuses (with the error each gives).
#include <catch2/catch.hpp>

#include <random>

#include "runtime_group_size_support.hpp"

using bismuth::spirv_patch::Module;
using bismuth::spirv_patch::TargetEnv;
using bismuth::test::assemble_or_fail;
using bismuth::test::compile_or_fail;
using namespace bismuth::test::runtime_group_size;

TEST_CASE("Runtime group size: barriers, subgroup operations and subgroup built-ins make the module exact only") {
  for (TargetEnv env : {TargetEnv::Vulkan1_1, TargetEnv::Vulkan1_3}) {
    INFO("target " << bismuth::spirv_patch::to_string(env));
    const auto reduction = runtime_or_fail(prepared(shader(kReduction), env), env);
    CHECK(reduction.report.exact_only);
    CHECK_THAT(reduction.report.exact_only_reason, Catch::Contains("(OpControlBarrier): workgroup barrier"));
    CHECK_THAT(reduction.report.exact_only_reason, Catch::StartsWith("word "));

    const std::string subgroup_ext = "#extension GL_KHR_shader_subgroup_arithmetic : require\n";
    const auto subgroup = runtime_or_fail(prepared(shader(kSubgroup, kVariable, subgroup_ext), env), env);
    CHECK(subgroup.report.exact_only);
    CHECK_THAT(subgroup.report.exact_only_reason, Catch::Contains("(OpGroupNonUniformIAdd)"));

    const std::string basic_ext = "#extension GL_KHR_shader_subgroup_basic : require\n";
    const auto builtin = runtime_or_fail(prepared(shader(kSubgroupBuiltin, kVariable, basic_ext), env), env);
    CHECK(builtin.report.exact_only);
    CHECK_THAT(builtin.report.exact_only_reason,
               Catch::Contains("reads the subgroup built-in SubgroupLocalInvocationId"));
  }
  // Shared memory with atomics but no barrier does not need the whole workgroup.
  const std::string atomics = R"(
layout(std430, binding = 0) buffer B { uint data[]; };
shared uint counter;
void main() { data[atomicAdd(counter, 1u)] = gl_LocalInvocationID.x; }
)";
  CHECK_FALSE(runtime_or_fail(prepared(shader(atomics)), TargetEnv::Vulkan1_1).report.exact_only);
}

TEST_CASE("Runtime group size: constant-only uses of the size, fixed sizes and bad options are refused") {
  const std::string array = R"(
layout(std430, binding = 0) buffer B { uint data[]; };
shared uint tile[gl_WorkGroupSize.x];
void main() { tile[gl_LocalInvocationIndex] = 1u; data[0] = tile[0]; }
)";
  const std::string message = error_of(prepared(shader(array)));
  CHECK_THAT(message, Catch::Contains("(OpTypeArray): workgroup size used as a constant (array length): not eligible"));
  CHECK_THAT(message, Catch::StartsWith("word "));

  // A fixed size never went through workgroup_size_to_spec_constants: its dimensions are not specialization constants.
  const auto fixed = compile_or_fail(shader("void main() {}\n", "layout(local_size_x = 4, local_size_y = 2) in;\n"));
  CHECK_THAT(error_of(fixed), Catch::Contains("is not a specialization constant with a SpecId"));

  const auto input = prepared(shader(kRecorder));
  CHECK_THAT(error_of(input, {.push_constant_offset = 8}), Catch::Contains("not a multiple of 16"));
  CHECK_THAT(error_of(input, {.entry_point = "other"}), Catch::Contains("no GLCompute entry point named \"other\""));
  // The user block is 8 bytes: the size cannot go at 0.
  CHECK_THAT(error_of(prepared(shader(kWithPushConstants))),
             Catch::Contains("is inside the existing push constant block"));
}

TEST_CASE("Runtime group size: malformed words are errors") {
  CHECK_THAT(error_of(std::vector<uint32_t>{}), Catch::Contains("empty"));
  CHECK_THAT(error_of(std::vector<uint32_t>{0x07230203, 0x00010300, 0}), Catch::Contains("truncated"));
  CHECK_THAT(error_of(std::vector<uint32_t>{0xdeadbeef, 0x00010300, 0, 10, 0}), Catch::Contains("magic"));
  auto words = prepared(shader(kRecorder));
  words.resize(words.size() - 3);
  CHECK_THAT(error_of(words), Catch::Contains("(OpFunction): function %"));
  CHECK_THAT(error_of(words), Catch::Contains("has no OpFunctionEnd"));

  // Random corruption: every variant that still parses either gives an error or a module (no crash, no UB under
  // the sanitizer build).
  const auto input = prepared(shader(kRecorder));
  std::mt19937 random(1234);
  int parsed = 0;
  for (int i = 0; i < 3000; ++i) {
    auto corrupt = input;
    const int flips = 1 + static_cast<int>(random() % 3);
    for (int f = 0; f < flips; ++f) {
      const size_t at = 5 + random() % (corrupt.size() - 5);
      corrupt[at] = (random() % 2) ? corrupt[at] ^ (1u << (random() % 32)) : static_cast<uint32_t>(random() % 64);
    }
    if (!Module::parse(corrupt)) continue;
    ++parsed;
    (void)workgroup_size_to_runtime(corrupt, {});
  }
  CHECK(parsed > 100);
}

TEST_CASE("Runtime group size: uses of the invocation id the pass cannot retarget are refused") {
  // The LocalInvocationId variable handed to a function as a pointer (glslang copies instead; hand-written SPIR-V
  // may not).
  const char* pointer_argument = R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %lid
OpDecorate %lid BuiltIn LocalInvocationId
OpDecorate %x SpecId 0
OpDecorate %y SpecId 1
OpDecorate %z SpecId 2
OpDecorate %size BuiltIn WorkgroupSize
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%v3 = OpTypeVector %uint 3
%x = OpSpecConstant %uint 1
%y = OpSpecConstant %uint 1
%z = OpSpecConstant %uint 1
%size = OpSpecConstantComposite %v3 %x %y %z
%ptr = OpTypePointer Input %v3
%lid = OpVariable %ptr Input
%fn_ptr = OpTypeFunction %void %ptr
%main = OpFunction %void None %fn
%l0 = OpLabel
%r = OpFunctionCall %void %callee %lid
OpReturn
OpFunctionEnd
%callee = OpFunction %void None %fn_ptr
%p = OpFunctionParameter %ptr
%l1 = OpLabel
OpReturn
OpFunctionEnd
)";
  const auto words = assemble_or_fail(pointer_argument);
  CHECK_THAT(error_of(words), Catch::Contains("(OpFunctionCall): uses the LocalInvocationId / GlobalInvocationId"));
  CHECK_THAT(error_of(words), Catch::Contains("not eligible"));
}

TEST_CASE("Runtime group size: a push-constant struct used elsewhere and shared SpecIds are refused") {
  // The whole block loaded as a value: a new member would change that value's type.
  const char* whole_block = R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpDecorate %x SpecId 0
OpDecorate %y SpecId 1
OpDecorate %z SpecId 2
OpDecorate %size BuiltIn WorkgroupSize
OpDecorate %P Block
OpMemberDecorate %P 0 Offset 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%v3 = OpTypeVector %uint 3
%x = OpSpecConstant %uint 1
%y = OpSpecConstant %uint 1
%z = OpSpecConstant %uint 1
%size = OpSpecConstantComposite %v3 %x %y %z
%P = OpTypeStruct %uint
%ptr = OpTypePointer PushConstant %P
%pc = OpVariable %ptr PushConstant
%main = OpFunction %void None %fn
%l0 = OpLabel
%whole = OpLoad %P %pc
OpReturn
OpFunctionEnd
)";
  const auto block_words = assemble_or_fail(whole_block);
  REQUIRE_VALID(block_words, TargetEnv::Vulkan1_1);
  CHECK_THAT(error_of(block_words, {.push_constant_offset = 16}),
             Catch::Contains("(OpLoad): the push constant struct"));

  const char* shared_spec_id = R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpDecorate %x SpecId 0
OpDecorate %y SpecId 0
OpDecorate %z SpecId 2
OpDecorate %size BuiltIn WorkgroupSize
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%v3 = OpTypeVector %uint 3
%x = OpSpecConstant %uint 1
%y = OpSpecConstant %uint 1
%z = OpSpecConstant %uint 1
%size = OpSpecConstantComposite %v3 %x %y %z
%main = OpFunction %void None %fn
%l0 = OpLabel
OpReturn
OpFunctionEnd
)";
  CHECK_THAT(error_of(assemble_or_fail(shared_spec_id)), Catch::Contains("share a SpecId"));
}
