// workgroup_size_to_runtime (workgroup size -> run-time value): validity of the output for many GLSL shapes, the GL
// front's programs, the corpus and SPIR-V versions 1.0 to 1.6.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "bismuth/spirv_patch/analysis/reflection.hpp"
#include "bismuth/translator/gl_program.hpp"
#include "runtime_group_size_support.hpp"

using bismuth::spirv_patch::Module;
using bismuth::spirv_patch::TargetEnv;
using bismuth::test::assemble_or_fail;
using namespace bismuth::test::runtime_group_size;

TEST_CASE("Runtime group size: the built-in recorder validates for SPIR-V 1.0, 1.3, 1.5 and 1.6 targets") {
  for (TargetEnv env : {TargetEnv::Vulkan1_0, TargetEnv::Vulkan1_1, TargetEnv::Vulkan1_2, TargetEnv::Vulkan1_3}) {
    INFO("target " << bismuth::spirv_patch::to_string(env));
    const auto input = prepared(shader(kRecorder), env);
    const auto patch = runtime_or_fail(input, env);
    CHECK(patch.report.spec_ids == std::array<uint32_t, 3>{0, 1, 2});
    CHECK(patch.report.push_constant_offset == 0);
    CHECK(patch.report.push_constant_end == 12);
    CHECK_FALSE(patch.report.exact_only);
    CHECK(patch.report.exact_only_reason.empty());
    CHECK(patch.report.version_before == patch.report.version_after);
    CHECK(patch.report.version_after == bismuth::spirv_patch::max_spirv_version(env));
    // The invocation ids are computed now; WorkgroupId and LocalInvocationIndex come from the device.
    CHECK_FALSE(has_builtin(patch.words, spv::BuiltIn::LocalInvocationId));
    CHECK_FALSE(has_builtin(patch.words, spv::BuiltIn::GlobalInvocationId));
    CHECK(has_builtin(patch.words, spv::BuiltIn::LocalInvocationIndex));
    CHECK(has_builtin(patch.words, spv::BuiltIn::WorkgroupId));
    // The size spec constants still state the physical size.
    auto module = Module::parse(patch.words);
    REQUIRE_OK(module);
    auto info = bismuth::spirv_patch::find_workgroup_size(*module, module->entry_points().at(0));
    REQUIRE_OK(info);
    CHECK(info->spec_ids == std::array<std::optional<uint32_t>, 3>{0u, 1u, 2u});
  }
}

TEST_CASE("Runtime group size: helpers, folded OpSpecConstantOp and user push constants validate") {
  const std::string helpers = R"(
layout(std430, binding = 0) buffer B { uint data[]; };
uint twice_x() { return gl_WorkGroupSize.x * 2u; }
uint flat_index(uvec3 id) { return id.x + id.y * gl_WorkGroupSize.x + id.z * gl_WorkGroupSize.x * gl_WorkGroupSize.y; }
void bump(inout uvec3 v) { v += gl_WorkGroupSize; }
void main() {
  uvec3 l = gl_LocalInvocationID;
  bump(l);
  const uint folded = gl_WorkGroupSize.x * 2u + gl_WorkGroupSize.z;
  data[gl_GlobalInvocationID.x] = twice_x() + flat_index(gl_LocalInvocationID) + l.y + folded + gl_LocalInvocationIndex;
}
)";
  for (TargetEnv env : {TargetEnv::Vulkan1_0, TargetEnv::Vulkan1_1, TargetEnv::Vulkan1_2, TargetEnv::Vulkan1_3}) {
    INFO("target " << bismuth::spirv_patch::to_string(env));
    const auto helpers_patch = runtime_or_fail(prepared(shader(helpers), env), env);
    // The backend's flow: reflection gives the user block's size, the pass goes at the next multiple of 16, and
    // reflection of the output gives the range to declare.
    const auto input = prepared(shader(kWithPushConstants), env);
    auto before = bismuth::spirv_patch::reflect(input);
    REQUIRE_OK(before);
    REQUIRE(before->entry_points.at(0).resources.push_constants);
    const uint32_t offset = (before->entry_points[0].resources.push_constants->size + 15) / 16 * 16;
    CHECK(offset == 16);
    const auto patch = runtime_or_fail(input, env, {.push_constant_offset = offset});
    CHECK(patch.report.push_constant_offset == 16);
    CHECK(patch.report.push_constant_end == 28);
    for (const auto* words : {&patch.words, &helpers_patch.words}) {
      auto after = bismuth::spirv_patch::reflect(*words);
      REQUIRE_OK(after);
      REQUIRE(after->entry_points.at(0).resources.push_constants);
      CHECK(after->entry_points[0].resources.push_constants->size ==
            (words == &patch.words ? patch.report.push_constant_end : helpers_patch.report.push_constant_end));
    }
  }
  // Only LocalInvocationIndex and no size at all: nothing to compute but the guard.
  const std::string index_only = R"(
layout(std430, binding = 0) buffer B { uint data[]; };
void main() { data[gl_LocalInvocationIndex] = 1u; }
)";
  runtime_or_fail(prepared(shader(index_only)), TargetEnv::Vulkan1_1);
}

TEST_CASE("Runtime group size: a push-constant block declared before any uvec3 and a nested one get the size") {
  // glslang declares P before the uvec3 type here: the pass moves the vector type up before appending the member.
  const std::string early = R"(
layout(std430, binding = 0) buffer B { uint data[]; };
layout(push_constant) uniform P { uint k; } pc;
void main() { data[pc.k] = pc.k + gl_LocalInvocationIndex; }
)";
  for (TargetEnv env : {TargetEnv::Vulkan1_0, TargetEnv::Vulkan1_1, TargetEnv::Vulkan1_2, TargetEnv::Vulkan1_3}) {
    INFO("target " << bismuth::spirv_patch::to_string(env));
    runtime_or_fail(prepared(shader(early), env), env, {.push_constant_offset = 16});
  }
  // A struct member and a scalar: the existing block is 12 bytes, so 16 is the first offset the pass accepts.
  const std::string nested = R"(
layout(std430, binding = 0) buffer B { uint data[]; };
struct S { uint a; uint b; };
layout(push_constant) uniform P { S s; uint k; } pc;
void main() { S copy = pc.s; data[gl_LocalInvocationIndex] = copy.a + pc.k + gl_WorkGroupSize.x; }
)";
  runtime_or_fail(prepared(shader(nested)), TargetEnv::Vulkan1_1, {.push_constant_offset = 16});
  CHECK_THAT(error_of(prepared(shader(nested))), Catch::Contains("(12 bytes)"));
}

TEST_CASE("Runtime group size: copies, pointer copies, signed ids, phis and initializers are retargeted") {
  // Shapes glslang does not emit but valid SPIR-V may hold: OpCopyMemory from and OpCopyObject of the
  // LocalInvocationId variable, a signed GlobalInvocationId, a function variable initialized with a size-dependent
  // OpSpecConstantOp and an OpPhi over size-dependent constants.
  const char* text = R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %lid %gid
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %lid BuiltIn LocalInvocationId
OpDecorate %gid BuiltIn GlobalInvocationId
OpDecorate %x SpecId 0
OpDecorate %y SpecId 1
OpDecorate %z SpecId 2
OpDecorate %size BuiltIn WorkgroupSize
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%int = OpTypeInt 32 1
%v3 = OpTypeVector %uint 3
%v3i = OpTypeVector %int 3
%bool = OpTypeBool
%x = OpSpecConstant %uint 1
%y = OpSpecConstant %uint 1
%z = OpSpecConstant %uint 1
%size = OpSpecConstantComposite %v3 %x %y %z
%uint_2 = OpConstant %uint 2
%uint_0 = OpConstant %uint 0
%twice = OpSpecConstantOp %uint IMul %x %uint_2
%second = OpSpecConstantOp %uint CompositeExtract %size 1
%ptr_in_v3 = OpTypePointer Input %v3
%ptr_in_v3i = OpTypePointer Input %v3i
%ptr_in_uint = OpTypePointer Input %uint
%ptr_fn_v3 = OpTypePointer Function %v3
%ptr_fn_uint = OpTypePointer Function %uint
%ptr_priv_uint = OpTypePointer Private %uint
%lid = OpVariable %ptr_in_v3 Input
%gid = OpVariable %ptr_in_v3i Input
%sink = OpVariable %ptr_priv_uint Private
%main = OpFunction %void None %fn
%entry = OpLabel
%copy = OpVariable %ptr_fn_v3 Function
%init = OpVariable %ptr_fn_uint Function %twice
OpCopyMemory %copy %lid
%alias = OpCopyObject %ptr_in_v3 %lid
%chain = OpAccessChain %ptr_in_uint %alias %uint_0
%lx = OpLoad %uint %chain
%gv = OpLoad %v3i %gid
%g0 = OpCompositeExtract %int %gv 0
%g0u = OpBitcast %uint %g0
%cond = OpULessThan %bool %lx %second
OpSelectionMerge %merge None
OpBranchConditional %cond %then %merge
%then = OpLabel
OpBranch %merge
%merge = OpLabel
%phi = OpPhi %uint %twice %entry %second %then
%i = OpLoad %uint %init
%s1 = OpIAdd %uint %phi %i
%s2 = OpIAdd %uint %s1 %g0u
OpStore %sink %s2
OpReturn
OpFunctionEnd
)";
  const auto input = assemble_or_fail(text);
  REQUIRE_VALID(input, TargetEnv::Vulkan1_1);
  const auto patch = runtime_or_fail(input, TargetEnv::Vulkan1_1);
  CHECK_FALSE(patch.report.exact_only);
}

TEST_CASE("Runtime group size: debug lines between functions and non-semantic instructions are kept") {
  // glslang -gV emits OpLine between functions and NonSemantic.Shader.DebugInfo.100 instructions that name the
  // built-in variables and constants; a made-up non-semantic set stands for it here.
  const char* text = R"(
OpCapability Shader
OpExtension "SPV_KHR_non_semantic_info"
%set = OpExtInstImport "NonSemantic.Bismuth.Test"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %lid
%file = OpString "test.comp"
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
%ptr_in_v3 = OpTypePointer Input %v3
%ptr_priv_v3 = OpTypePointer Private %v3
%lid = OpVariable %ptr_in_v3 Input
%sink = OpVariable %ptr_priv_v3 Private
%d0 = OpExtInst %void %set 1 %lid %size
%main = OpFunction %void None %fn
%l0 = OpLabel
%d1 = OpExtInst %void %set 2 %lid %size
%v = OpLoad %v3 %lid
%w = OpIAdd %v3 %v %size
OpStore %sink %w
%r = OpFunctionCall %void %helper
OpReturn
OpFunctionEnd
OpLine %file 10 1
%helper = OpFunction %void None %fn
%l1 = OpLabel
OpStore %sink %size
OpReturn
OpFunctionEnd
)";
  const auto input = assemble_or_fail(text);
  REQUIRE_VALID(input, TargetEnv::Vulkan1_1);
  runtime_or_fail(input, TargetEnv::Vulkan1_1);
}

TEST_CASE("Runtime group size: the GL front's local_size_variable programs validate, with its SpecIds") {
  // What the GL shim hands the backend: GL-semantics GLSL with gl_LocalGroupSizeARB, default-block uniforms and
  // atomic counters, and ballot/vote (exact only).
  const std::string header =
      "#version 450\n#extension GL_ARB_compute_variable_group_size : require\n"
      "#extension GL_ARB_shader_ballot : require\n#extension GL_ARB_gpu_shader_int64 : require\n"
      "layout(local_size_variable) in;\nlayout(std430, binding = 1) buffer Out { uint o[]; };\n"
      "uniform uint scale;\nlayout(binding = 0, offset = 0) uniform atomic_uint counter;\n";
  const std::string plain = header + R"(
void main() {
  uvec3 total = gl_NumWorkGroups * gl_LocalGroupSizeARB;
  uint i = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * total.x + gl_GlobalInvocationID.z * total.x * total.y;
  o[i] = gl_LocalInvocationID.x * scale + gl_LocalGroupSizeARB.x * 2u + atomicCounterIncrement(counter);
}
)";
  const std::string ballot = header + R"(
void main() { o[gl_GlobalInvocationID.x] = uint(ballotARB(gl_LocalInvocationID.x < gl_LocalGroupSizeARB.x / 2u)); }
)";
  for (const auto& [source, exact] : {std::pair{plain, false}, std::pair{ballot, true}}) {
    auto gl_shader = bismuth::translator::GlShader::compile(source);
    INFO(gl_shader->info_log());
    REQUIRE(gl_shader->ok());
    auto program = bismuth::translator::link_gl_program(std::span(&gl_shader, 1));
    if (!program) FAIL(program.error().message);
    const auto patch = runtime_or_fail(program->spirv, TargetEnv::Vulkan1_1);
    CHECK(patch.report.spec_ids == bismuth::translator::kVariableGroupSizeSpecIds);
    CHECK(patch.report.exact_only == exact);
  }
}

TEST_CASE("Runtime group size: every GLSL shader of the corpus validates after the pass") {
  // The reference corpus and the examples: GL-semantics GLSL through the GL front; fixed sizes through
  // workgroup_size_to_spec_constants first (the backend only runs workgroup_size_to_runtime on variable sizes, but
  // the output must still be valid).
  // Where the sources are: the tree this binary was built from, else the current directory (the GPU machine runs
  // the bundled binaries from a copy of the repository) and BISMUTH_CORPUS_DIR (as the GL corpus tests).
  std::vector<std::filesystem::path> roots;
  for (const char* dir : {"tests/data/corpus", "examples/corpus"}) {
    const std::filesystem::path built = std::filesystem::path(BISMUTH_SOURCE_DIR) / dir;
    roots.push_back(std::filesystem::exists(built) ? built : std::filesystem::path(dir));
  }
  if (const char* corpus = std::getenv("BISMUTH_CORPUS_DIR"); corpus != nullptr && !std::filesystem::exists(roots[0])) {
    roots[0] = corpus;
  }
  std::vector<std::filesystem::path> files;
  for (const std::filesystem::path& root : roots) {
    if (!std::filesystem::exists(root)) continue;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
      if (entry.path().extension() == ".comp") files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  int variable = 0, exact = 0, refused = 0;
  for (const auto& file : files) {
    INFO(file.string());
    std::ifstream in(file);
    const std::string source((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    auto gl_shader = bismuth::translator::GlShader::compile(source);
    if (!gl_shader->ok()) {  // NVIDIA-only extensions the front refuses: no module, nothing to patch
      ++refused;
      continue;
    }
    auto program = bismuth::translator::link_gl_program(std::span(&gl_shader, 1));
    if (!program) FAIL(program.error().message);
    std::vector<uint32_t> words = program->spirv;
    if (program->group_size == bismuth::translator::GroupSize::Variable) {
      ++variable;
    } else {
      auto fixed = workgroup_size_to_spec_constants(words, {});
      if (!fixed) FAIL(fixed.error().message);
      words = fixed->words;
    }
    const auto patch = runtime_or_fail(words, TargetEnv::Vulkan1_1);
    exact += patch.report.exact_only ? 1 : 0;
  }
  CHECK(files.size() >= 10);
  CHECK(refused <= 2);
  CHECK(variable >= 3);
  CHECK(exact >= 1);
}
