// What the tests of workgroup_size_to_runtime (runtime_group_size_*_test.cpp) share: the GLSL shapes they patch,
// the input prepared through workgroup_size_to_spec_constants, and the pass run expecting success or an error.
#pragma once

#include <catch2/catch.hpp>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "bismuth/spirv_patch/passes/workgroup_size_to_runtime.hpp"
#include "bismuth/spirv_patch/passes/workgroup_size_to_spec_constants.hpp"
#include "shader_sources.hpp"

namespace bismuth::test::runtime_group_size {

using spirv_patch::Module;
using spirv_patch::RuntimeGroupSizeOptions;
using spirv_patch::RuntimeGroupSizePatch;
using spirv_patch::TargetEnv;
using spirv_patch::workgroup_size_to_runtime;
using spirv_patch::workgroup_size_to_spec_constants;
using spirv_patch::WorkgroupSizeForm;

inline constexpr const char* kVariable =
    "layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;\n";

inline std::string shader(const std::string& body, const std::string& layout = kVariable,
                          const std::string& extensions = "") {
  return "#version 450\n" + extensions + layout + body;
}

// Every built-in the pass touches, per invocation, at a slot indexed by the global linear index; helper functions
// read the built-ins too, and word 13 is glslang's OpSpecConstantOp over the WorkgroupSize composite.
inline constexpr const char* kRecorder = R"(
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
inline constexpr const char* kWithPushConstants = R"(
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
inline constexpr const char* kReduction = R"(
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

inline constexpr const char* kSubgroup = R"(
layout(std430, binding = 0) buffer B { uint data[]; };
void main() { data[gl_GlobalInvocationID.x] = subgroupAdd(gl_LocalInvocationID.x) + gl_WorkGroupSize.x; }
)";

inline constexpr const char* kSubgroupBuiltin = R"(
layout(std430, binding = 0) buffer B { uint data[]; };
void main() { data[gl_GlobalInvocationID.x] = gl_SubgroupInvocationID + gl_WorkGroupSize.y; }
)";

// Input for the pass: GLSL with size spec constants, through workgroup_size_to_spec_constants (LocalSizeId for
// SPIR-V 1.6).
inline std::vector<uint32_t> prepared(const std::string& source, TargetEnv env = TargetEnv::Vulkan1_1) {
  const auto words = compile_or_fail(source, env);
  bismuth::spirv_patch::WorkgroupSizeOptions options;
  if (env == TargetEnv::Vulkan1_3) options.output_form = WorkgroupSizeForm::LocalSizeId;
  auto patch = workgroup_size_to_spec_constants(words, options);
  if (!patch) FAIL(patch.error().message);
  return patch->words;
}

inline RuntimeGroupSizePatch runtime_or_fail(const std::vector<uint32_t>& words, TargetEnv env,
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

inline std::string error_of(std::span<const uint32_t> words, const RuntimeGroupSizeOptions& options = {}) {
  auto patch = workgroup_size_to_runtime(words, options);
  if (patch) FAIL("the pass accepted a module it should refuse");
  return patch.error().message;
}

inline bool has_builtin(const std::vector<uint32_t>& words, spv::BuiltIn builtin) {
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

}  // namespace bismuth::test::runtime_group_size
