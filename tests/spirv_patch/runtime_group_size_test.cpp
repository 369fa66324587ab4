// Pass 4 (workgroup size -> run-time value): validity of the output for many GLSL shapes and SPIR-V versions, the
// refusals, and on the selected device (lavapipe on CI, validation layer on) a word-for-word comparison with the
// input module specialized to the logical size, for physical sizes L == x*y*z and L > x*y*z.
#include <catch2/catch.hpp>

#include <volk.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>

#include "bismuth/spirv_patch/analysis/reflection.hpp"
#include "bismuth/spirv_patch/passes/workgroup_size_to_runtime.hpp"
#include "bismuth/spirv_patch/passes/workgroup_size_to_spec_constants.hpp"
#include "bismuth/translator/gl_program.hpp"
#include "shader_sources.hpp"
#include "support/buffer_dispatch.hpp"
#include "support/validated_vulkan.hpp"

using bismuth::Error;
using bismuth::Expected;
using bismuth::fail;
using bismuth::Status;
using bismuth::spirv_patch::Module;
using bismuth::spirv_patch::RuntimeGroupSizeOptions;
using bismuth::spirv_patch::RuntimeGroupSizePatch;
using bismuth::spirv_patch::TargetEnv;
using bismuth::spirv_patch::workgroup_size_to_runtime;
using bismuth::spirv_patch::workgroup_size_to_spec_constants;
using bismuth::spirv_patch::WorkgroupSizeForm;
using bismuth::test::assemble_or_fail;
using bismuth::test::BufferDevice;
using bismuth::test::compile_or_fail;
using bismuth::test::MultiBufferDispatch;
using bismuth::test::ValidatedVulkan;

namespace {

constexpr const char* kVariable = "layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;\n";

std::string shader(const std::string& body, const std::string& layout = kVariable, const std::string& extensions = "") {
  return "#version 450\n" + extensions + layout + body;
}

// Every built-in the pass touches, per invocation, at a slot indexed by the global linear index; helper functions
// read the built-ins too, and word 13 is glslang's OpSpecConstantOp over the WorkgroupSize composite.
const char* kRecorder = R"(
layout(std430, binding = 0) buffer B { uint count; uint data[]; };
uvec3 global_id() { return gl_GlobalInvocationID; }
uint local_y() { return gl_LocalInvocationID.y; }
void main() {
  atomicAdd(count, 1u);
  uvec3 total = gl_NumWorkGroups * gl_WorkGroupSize;
  uvec3 g = global_id();
  uint base = (g.x + g.y * total.x + g.z * total.x * total.y) * 16u;
  uvec3 size = gl_WorkGroupSize;
  data[base + 0u] = gl_LocalInvocationID.x;
  data[base + 1u] = local_y();
  data[base + 2u] = gl_LocalInvocationID.z;
  data[base + 3u] = gl_GlobalInvocationID.x;
  data[base + 4u] = gl_GlobalInvocationID.y;
  data[base + 5u] = gl_GlobalInvocationID.z;
  data[base + 6u] = gl_LocalInvocationIndex;
  data[base + 7u] = size.x;
  data[base + 8u] = size.y;
  data[base + 9u] = gl_WorkGroupSize.z;
  data[base + 10u] = gl_WorkGroupID.x;
  data[base + 11u] = gl_WorkGroupID.y;
  data[base + 12u] = gl_WorkGroupID.z;
  data[base + 13u] = gl_WorkGroupSize.x * 2u + gl_WorkGroupSize.y * 100u;
  data[base + 14u] = max(gl_WorkGroupSize.z, 3u) + (gl_WorkGroupSize.x > 4u ? 1000u : 0u);
  data[base + 15u] = gl_NumWorkGroups.x;
}
)";

// A user push-constant block next to the pushed size.
const char* kWithPushConstants = R"(
layout(std430, binding = 0) buffer B { uint count; uint data[]; };
layout(push_constant) uniform P { uint scale; uint bias; } pc;
void main() {
  atomicAdd(count, 1u);
  uint i = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * gl_WorkGroupSize.x +
           gl_GlobalInvocationID.z * gl_NumWorkGroups.x * gl_WorkGroupSize.x * gl_NumWorkGroups.y * gl_WorkGroupSize.y;
  data[i] = gl_LocalInvocationIndex * pc.scale + pc.bias + gl_WorkGroupSize.y;
}
)";

// Tree reduction in shared memory with barriers: needs every invocation of the workgroup (exact only).
const char* kReduction = R"(
layout(std430, binding = 0) buffer B { uint count; uint data[]; };
shared uint partial[1024];
void main() {
  uint n = gl_WorkGroupSize.x * gl_WorkGroupSize.y * gl_WorkGroupSize.z;
  uint i = gl_LocalInvocationIndex;
  partial[i] = gl_GlobalInvocationID.x * 3u + gl_GlobalInvocationID.y * 5u + gl_GlobalInvocationID.z * 7u + 1u;
  barrier();
  for (uint stride = 1u; stride < n; stride *= 2u) {
    uint v = 0u;
    if (i % (2u * stride) == 0u && i + stride < n) v = partial[i + stride];
    barrier();
    partial[i] += v;
    barrier();
  }
  if (i == 0u) {
    atomicAdd(count, 1u);
    data[gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x] = partial[0];
  }
}
)";

const char* kSubgroup = R"(
layout(std430, binding = 0) buffer B { uint data[]; };
void main() { data[gl_GlobalInvocationID.x] = subgroupAdd(gl_LocalInvocationID.x) + gl_WorkGroupSize.x; }
)";

const char* kSubgroupBuiltin = R"(
layout(std430, binding = 0) buffer B { uint data[]; };
void main() { data[gl_GlobalInvocationID.x] = gl_SubgroupInvocationID + gl_WorkGroupSize.y; }
)";

// Input for the pass: GLSL with size spec constants, through pass 1 (LocalSizeId for SPIR-V 1.6).
std::vector<uint32_t> prepared(const std::string& source, TargetEnv env = TargetEnv::Vulkan1_1) {
  const auto words = compile_or_fail(source, env);
  bismuth::spirv_patch::WorkgroupSizeOptions options;
  if (env == TargetEnv::Vulkan1_3) options.output_form = WorkgroupSizeForm::LocalSizeId;
  auto patch = workgroup_size_to_spec_constants(words, options);
  if (!patch) FAIL(patch.error().message);
  return patch->words;
}

RuntimeGroupSizePatch runtime_or_fail(const std::vector<uint32_t>& words, TargetEnv env,
                                      const RuntimeGroupSizeOptions& options = {}) {
  auto patch = workgroup_size_to_runtime(words, options);
  if (!patch) FAIL(patch.error().message);
  auto valid = bismuth::spirv_patch::validate(patch->words, env);
  if (!valid) {
    auto text = bismuth::spirv_patch::disassemble(patch->words);
    FAIL(valid.error().message << "\n" << (text ? *text : std::string()));
  }
  return std::move(*patch);
}

std::string error_of(std::span<const uint32_t> words, const RuntimeGroupSizeOptions& options = {}) {
  auto patch = workgroup_size_to_runtime(words, options);
  if (patch) FAIL("the pass accepted a module it should refuse");
  return patch.error().message;
}

bool has_builtin(const std::vector<uint32_t>& words, spv::BuiltIn builtin) {
  auto module = Module::parse(words);
  REQUIRE_OK(module);
  for (auto h : module->instructions(bismuth::spirv_patch::Section::Annotation)) {
    const auto w = module->words(h);
    if (module->opcode(h) == spv::Op::OpDecorate && w.size() == 4 &&
        w[2] == static_cast<uint32_t>(spv::Decoration::BuiltIn) && w[3] == static_cast<uint32_t>(builtin)) {
      return true;
    }
  }
  return false;
}

}  // namespace

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
  // The reference corpus and the examples: GL-semantics GLSL through the GL front; fixed sizes through pass 1
  // first (the backend only runs pass 4 on variable sizes, but the output must still be valid).
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

  // A fixed size never went through pass 1: its dimensions are not specialization constants.
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

// ----------------------------------------------------------------------------------------------------------------
// On the device.

namespace {

using Size = std::array<uint32_t, 3>;

std::string describe(const Size& s) {
  return std::to_string(s[0]) + "x" + std::to_string(s[1]) + "x" + std::to_string(s[2]);
}

constexpr uint32_t kSentinel = 0xdeadbeef;

// Runs `original` specialized to `size` and `patched` specialized to (L,1,1) with the size pushed at `offset`, with
// the same workgroup counts and user push constants, and compares every word of the buffer.
void compare(BufferDevice& device, const std::vector<uint32_t>& original, const RuntimeGroupSizePatch& patched,
             const Size& size, uint32_t physical, const std::array<uint32_t, 3>& groups, uint32_t buffer_words,
             const std::vector<uint32_t>& user_push = {}) {
  INFO("logical size " << describe(size) << ", physical size " << physical << ", groups " << describe(groups));
  const auto& ids = patched.report.spec_ids;
  std::vector<uint32_t> initial(buffer_words, kSentinel);
  initial[0] = 0;
  MultiBufferDispatch reference;
  reference.spirv = original;
  reference.specialization = {{ids[0], size[0]}, {ids[1], size[1]}, {ids[2], size[2]}};
  reference.group_count = groups;
  reference.buffers = {{0, false, initial}};
  reference.push_words = user_push;
  REQUIRE_OK(device.run(reference));

  MultiBufferDispatch runtime = reference;
  runtime.spirv = patched.words;
  runtime.specialization = {{ids[0], physical}, {ids[1], 1}, {ids[2], 1}};
  runtime.buffers = {{0, false, initial}};
  runtime.push_words = user_push;
  runtime.push_words.resize(patched.report.push_constant_offset / 4, 0);
  runtime.push_words.insert(runtime.push_words.end(), size.begin(), size.end());
  REQUIRE_OK(device.run(runtime));

  const std::vector<uint32_t>& expected = reference.buffers[0].words;
  const std::vector<uint32_t>& got = runtime.buffers[0].words;
  size_t mismatches = 0;
  for (size_t i = 0; i < expected.size(); ++i) {
    if (expected[i] == got[i]) continue;
    if (++mismatches <= 8) UNSCOPED_INFO("word " << i << ": original " << expected[i] << ", runtime size " << got[i]);
  }
  CHECK(mismatches == 0);
}

uint32_t volume(const Size& s) {
  return s[0] * s[1] * s[2];
}

}  // namespace

TEST_CASE("Runtime group size: on the device every built-in matches the module specialized to the logical size") {
  ValidatedVulkan vk;
  auto device = BufferDevice::create(vk);
  REQUIRE_OK(device);
  const uint32_t max_invocations = vk.selected_device().max_compute_work_group_invocations;
  std::vector<TargetEnv> envs{TargetEnv::Vulkan1_0, TargetEnv::Vulkan1_1};
  if ((*device)->maintenance4()) {
    envs.push_back(TargetEnv::Vulkan1_3);
  } else {
    WARN("the selected device lacks maintenance4: the SPIR-V 1.6 (LocalSizeId) form is not dispatched");
  }
  const std::array<uint32_t, 3> groups{2, 2, 2};
  for (TargetEnv env : envs) {
    INFO("target " << bismuth::spirv_patch::to_string(env));
    const auto original = prepared(shader(kRecorder), env);
    const auto patched = runtime_or_fail(original, env);
    REQUIRE_FALSE(patched.report.exact_only);
    for (const Size& size : std::vector<Size>{{7, 3, 1}, {4, 4, 2}, {64, 1, 1}, {5, 1, 3}, {1, 1, 1}, {3, 5, 7}}) {
      const uint32_t t = volume(size);
      const uint32_t words = 1 + t * 8 * 16;
      for (uint32_t physical : {t, t + 1, std::max(t, 64u) + 36, std::min(max_invocations, 256u)}) {
        if (physical < t || physical > max_invocations) continue;
        compare(**device, original, patched, size, physical, groups, words);
      }
    }
  }
  device->reset();
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("Runtime group size: on the device a user push-constant block keeps working next to the size") {
  ValidatedVulkan vk;
  auto device = BufferDevice::create(vk);
  REQUIRE_OK(device);
  const auto original = prepared(shader(kWithPushConstants));
  const auto patched = runtime_or_fail(original, TargetEnv::Vulkan1_1, {.push_constant_offset = 16});
  for (const Size& size : std::vector<Size>{{7, 3, 1}, {4, 4, 2}, {5, 1, 3}}) {
    const uint32_t t = volume(size);
    for (uint32_t physical : {t, t + 9, 128u}) {
      if (physical < t) continue;
      compare(**device, original, patched, size, physical, {3, 1, 2}, 1 + t * 6, {3, 11});
    }
  }
  device->reset();
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("Runtime group size: on the device a shared-memory reduction with barriers matches at L == x*y*z") {
  ValidatedVulkan vk;
  auto device = BufferDevice::create(vk);
  REQUIRE_OK(device);
  const auto original = prepared(shader(kReduction));
  const auto patched = runtime_or_fail(original, TargetEnv::Vulkan1_1);
  REQUIRE(patched.report.exact_only);
  const std::array<uint32_t, 3> groups{3, 2, 1};
  for (const Size& size : std::vector<Size>{{7, 3, 1}, {4, 4, 2}, {64, 1, 1}, {5, 1, 3}, {16, 16, 1}}) {
    const uint32_t t = volume(size);
    compare(**device, original, patched, size, t, groups, 1 + groups[0] * groups[1]);
    // And against the sum computed here.
    MultiBufferDispatch run;
    run.spirv = patched.words;
    run.specialization = {
        {patched.report.spec_ids[0], t}, {patched.report.spec_ids[1], 1}, {patched.report.spec_ids[2], 1}};
    run.group_count = groups;
    run.buffers = {{0, false, std::vector<uint32_t>(1 + groups[0] * groups[1], 0)}};
    run.push_words = {size[0], size[1], size[2]};
    REQUIRE_OK((*device)->run(run));
    const std::vector<uint32_t>& result = run.buffers[0].words;
    CHECK(result[0] == groups[0] * groups[1]);
    for (uint32_t gy = 0; gy < groups[1]; ++gy) {
      for (uint32_t gx = 0; gx < groups[0]; ++gx) {
        uint32_t sum = 0;
        for (uint32_t z = 0; z < size[2]; ++z) {
          for (uint32_t y = 0; y < size[1]; ++y) {
            for (uint32_t x = 0; x < size[0]; ++x) {
              sum += (gx * size[0] + x) * 3 + (gy * size[1] + y) * 5 + z * 7 + 1;
            }
          }
        }
        CHECK(result[1 + gx + gy * groups[0]] == sum);
      }
    }
  }
  device->reset();
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}
