#include <catch2/catch.hpp>

#include <algorithm>

#include "bismuth/spirv_patch/analysis/reflection.hpp"
#include "bismuth/spirv_patch/passes/khr_ballot_vote_to_group_non_uniform.hpp"
#include "shader_sources.hpp"

using bismuth::spirv_patch::DescriptorType;
using bismuth::spirv_patch::reflect;
using bismuth::spirv_patch::WorkgroupSizeForm;
using bismuth::test::compile_or_fail;

namespace {

const char* kResources = R"(#version 450
layout(local_size_x_id = 0, local_size_y = 4) in;
layout(std430, set = 0, binding = 0) readonly buffer In { uint a[]; } in_data;
layout(std430, set = 0, binding = 1) writeonly buffer Out { uint b[]; } out_data;
layout(std140, set = 1, binding = 0) uniform Params { uvec4 p; } params;
layout(set = 1, binding = 2, r32ui) uniform uimage2D images[3];
layout(set = 2, binding = 0) uniform usamplerBuffer texels;
layout(set = 0, binding = 7) buffer Unused { uint u[]; } unused;
layout(push_constant) uniform Push { uint offset; uint count; } pc;
shared uint tile[64];
void helper(uint i) {
  tile[i % 64u] = in_data.a[i];
  barrier();
  atomicAdd(tile[0], 1u);
}
void main() {
  uint i = gl_GlobalInvocationID.x + pc.offset;
  helper(i);
  out_data.b[i] = tile[(i + 1u) % 64u] + params.p.x + imageLoad(images[1], ivec2(0)).x + texelFetch(texels, 0).x;
}
)";

const char* kNothing = R"(#version 450
layout(local_size_x = 2) in;
layout(std430, binding = 0) buffer B { uint v[]; };
void main() { v[gl_LocalInvocationIndex] = 1u; }
)";

const char* kBallot = R"(#version 450
#extension GL_ARB_shader_group_vote : require
layout(local_size_x = 8) in;
layout(std430, binding = 0) buffer B { uint v[]; };
void main() { v[gl_LocalInvocationIndex] = anyInvocationARB(gl_LocalInvocationIndex == 2u) ? 1u : 0u; }
)";

}  // namespace

TEST_CASE("Reflection lists each statically used descriptor with set, binding, type, count and access") {
  auto reflection = reflect(compile_or_fail(kResources));
  REQUIRE_OK(reflection);
  REQUIRE(reflection->entry_points.size() == 1);
  const auto& bindings = reflection->entry_points[0].resources.bindings;
  REQUIRE(bindings.size() == 5);  // `unused` is not statically used
  CHECK(bindings[0].set == 0);
  CHECK(bindings[0].binding == 0);
  CHECK(bindings[0].type == DescriptorType::StorageBuffer);
  CHECK(bindings[0].readable);
  CHECK_FALSE(bindings[0].writable);
  CHECK(bindings[1].binding == 1);
  CHECK(bindings[1].writable);
  CHECK_FALSE(bindings[1].readable);
  CHECK(bindings[2].set == 1);
  CHECK(bindings[2].binding == 0);
  CHECK(bindings[2].type == DescriptorType::UniformBuffer);
  CHECK_FALSE(bindings[2].writable);
  CHECK(bindings[3].binding == 2);
  CHECK(bindings[3].type == DescriptorType::StorageImage);
  CHECK(bindings[3].array_size == 3);
  CHECK(bindings[4].set == 2);
  CHECK(bindings[4].type == DescriptorType::UniformTexelBuffer);
}

TEST_CASE("Reflection reports the push constant block size") {
  auto reflection = reflect(compile_or_fail(kResources));
  REQUIRE_OK(reflection);
  const auto& push = reflection->entry_points[0].resources.push_constants;
  REQUIRE(push.has_value());
  CHECK(push->size == 8);
}

TEST_CASE("Reflection sees barriers, shared memory and atomics in functions the entry point calls") {
  auto reflection = reflect(compile_or_fail(kResources));
  REQUIRE_OK(reflection);
  const auto& entry = reflection->entry_points[0];
  CHECK(entry.uses_barriers);
  CHECK(entry.uses_workgroup_storage);
  CHECK(entry.uses_atomics);
  CHECK_FALSE(entry.uses_subgroup_operations);
  auto plain = reflect(compile_or_fail(kNothing));
  REQUIRE_OK(plain);
  CHECK_FALSE(plain->entry_points[0].uses_barriers);
  CHECK_FALSE(plain->entry_points[0].uses_workgroup_storage);
  CHECK_FALSE(plain->entry_points[0].uses_atomics);
  CHECK_FALSE(plain->entry_points[0].resources.push_constants.has_value());
}

TEST_CASE("Reflection reports the workgroup size form, values and SpecIds") {
  auto reflection = reflect(compile_or_fail(kResources));
  REQUIRE_OK(reflection);
  const auto& size = reflection->entry_points[0].workgroup_size;
  REQUIRE(size.has_value());
  CHECK(size->form == WorkgroupSizeForm::WorkgroupSizeBuiltIn);
  CHECK(size->size == std::array<uint32_t, 3>{1, 4, 1});
  CHECK(size->spec_ids[0] == 0u);
  CHECK_FALSE(size->spec_ids[1].has_value());
}

TEST_CASE("Reflection reports subgroup operations and the capabilities and extensions they need") {
  const auto input = compile_or_fail(kBallot);
  auto before = reflect(input);
  REQUIRE_OK(before);
  CHECK(before->entry_points[0].uses_subgroup_operations);
  CHECK(std::count(before->extensions.begin(), before->extensions.end(), "SPV_KHR_subgroup_vote") == 1);
  auto lowered = bismuth::spirv_patch::lower_khr_subgroup_ops(input);
  REQUIRE_OK(lowered);
  auto after = reflect(lowered->words);
  REQUIRE_OK(after);
  CHECK(after->entry_points[0].uses_subgroup_operations);
  CHECK(after->extensions.empty());
  const auto& caps = after->capabilities;
  CHECK(std::find(caps.begin(), caps.end(), spv::Capability::GroupNonUniformVote) != caps.end());
}

TEST_CASE("Bad input: reflection refuses modules that do not validate") {
  auto words = compile_or_fail(kNothing);
  // Make the entry point's function id name the OpTypeVoid: structurally fine, semantically invalid.
  for (size_t i = 5; i < words.size(); i += words[i] >> 16) {
    if ((words[i] & 0xffff) == static_cast<uint32_t>(spv::Op::OpEntryPoint)) {
      words[i + 2] = 2;
      break;
    }
  }
  auto reflection = reflect(words);
  REQUIRE_FALSE(reflection);
  CHECK_THAT(reflection.error().message, Catch::Contains("invalid module") && Catch::Contains("word"));
}
