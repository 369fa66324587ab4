#include <catch2/catch.hpp>

#include <algorithm>
#include <set>

#include "bismuth/spirv_patch/passes/khr_ballot_vote_to_group_non_uniform.hpp"
#include "shader_sources.hpp"
#include "support/compute_harness.hpp"
#include "support/validated_vulkan.hpp"

using bismuth::spirv_patch::lower_khr_subgroup_ops;
using bismuth::spirv_patch::Module;
using bismuth::spirv_patch::TargetEnv;
using bismuth::test::compile_or_fail;

namespace {

// GL_ARB_shader_ballot and GL_ARB_shader_group_vote, every function and built-in; glslang emits the KHR forms.
// `lane` (first buffer word) is a dynamically uniform, non-constant index: it takes the Shuffle path.
const char* kBallotVote = R"(#version 450
#extension GL_ARB_shader_ballot : require
#extension GL_ARB_shader_group_vote : require
#extension GL_ARB_gpu_shader_int64 : require
layout(local_size_x = 64) in;  // replaced by with_size() for other sizes
layout(std430, binding = 0) buffer B { uint lane; uint v[]; };
const uint kWords = 13u;
void main() {
  uint i = gl_LocalInvocationIndex;
  uint base = i * kWords;
  v[base + 0u] = uint(ballotARB((i & 1u) == 0u));
  v[base + 1u] = readFirstInvocationARB(i + 5u);
  v[base + 2u] = readInvocationARB(i * 3u, 2u);
  v[base + 3u] = readInvocationARB(i * 7u + 1u, lane);
  v[base + 4u] = anyInvocationARB(i == 3u) ? 1u : 0u;
  v[base + 5u] = allInvocationsARB(i < 20u) ? 1u : 0u;
  v[base + 6u] = allInvocationsEqualARB((i / 12u) == 0u) ? 1u : 0u;
  v[base + 7u] = uint(gl_SubGroupEqMaskARB);
  v[base + 8u] = gl_SubGroupInvocationARB;
  v[base + 9u] = gl_SubGroupSizeARB;
  v[base + 10u] = uint(gl_SubGroupLtMaskARB);
  v[base + 11u] = uint(ballotARB(true) >> 32);
  v[base + 12u] = readFirstInvocationARB(i);  // names the subgroup the device put this invocation in
}
)";
constexpr uint32_t kWords = 13;

std::string with_size(const std::string& layout) {
  std::string source = kBallotVote;
  const std::string from = "local_size_x = 64";
  source.replace(source.find(from), from.size(), layout);
  return source;
}

const char* kVoteOnly = R"(#version 450
#extension GL_ARB_shader_group_vote : require
layout(local_size_x = 8) in;
layout(std430, binding = 0) buffer B { uint v[]; };
void main() { v[gl_LocalInvocationIndex] = anyInvocationARB(gl_LocalInvocationIndex == 2u) ? 1u : 0u; }
)";

const char* kPlain = R"(#version 450
layout(local_size_x = 8) in;
layout(std430, binding = 0) buffer B { uint v[]; };
void main() { v[gl_LocalInvocationIndex] = 1u; }
)";

struct Placement {
  uint32_t subgroup;
  uint32_t lane;
};

// Invocation i is lane i % S of the subgroup that starts at invocation i / S * S: what a device does when the
// workgroup is a row of full subgroups.
std::vector<Placement> linear_layout(uint32_t invocations, uint32_t S) {
  std::vector<Placement> layout(invocations);
  for (uint32_t i = 0; i < invocations; ++i) layout[i] = {i / S * S, i % S};
  return layout;
}

// The shader's computation on the CPU, for a given placement of invocations in subgroups of size S. Invocations
// placed nowhere else are inactive lanes.
std::vector<uint32_t> cpu_model(const std::vector<Placement>& layout, uint32_t S, uint32_t lane_index) {
  const auto invocations = static_cast<uint32_t>(layout.size());
  std::vector<uint32_t> out(invocations * kWords);
  for (uint32_t i = 0; i < invocations; ++i) {
    std::vector<uint32_t> member_at(S, UINT32_MAX);  // lane -> invocation index, for i's subgroup
    for (uint32_t j = 0; j < invocations; ++j) {
      if (layout[j].subgroup == layout[i].subgroup && layout[j].lane < S) member_at[layout[j].lane] = j;
    }
    auto subgroup = [&](auto predicate) {
      uint64_t mask = 0;
      for (uint32_t l = 0; l < S; ++l) {
        if (member_at[l] != UINT32_MAX && predicate(member_at[l])) mask |= uint64_t{1} << l;
      }
      return mask;
    };
    const uint64_t active = subgroup([](uint32_t) { return true; });
    uint32_t first = UINT32_MAX;
    for (uint32_t l = 0; l < S && first == UINT32_MAX; ++l) first = member_at[l];
    const uint32_t lane = layout[i].lane;
    uint32_t* v = out.data() + i * kWords;
    v[0] = static_cast<uint32_t>(subgroup([](uint32_t j) { return (j & 1u) == 0; }));
    v[1] = first + 5;
    v[2] = member_at[2 % S] * 3;
    v[3] = member_at[lane_index] * 7 + 1;
    v[4] = subgroup([](uint32_t j) { return j == 3; }) != 0;
    v[5] = subgroup([](uint32_t j) { return j < 20; }) == active;
    const uint64_t equal = subgroup([](uint32_t j) { return j / 12 == 0; });
    v[6] = equal == 0 || equal == active;
    v[7] = static_cast<uint32_t>(uint64_t{1} << lane);
    v[8] = lane;
    v[9] = S;
    v[10] = static_cast<uint32_t>((uint64_t{1} << lane) - 1);
    v[11] = static_cast<uint32_t>(active >> 32);
    v[12] = first;
  }
  return out;
}

// Lowers `source`, runs it with each readInvocationARB index in `lanes`, compares with the CPU model.
// With `layout_from_device`, the placement in subgroups is read back: a subgroup is named by its first active
// invocation (readFirstInvocationARB(gl_LocalInvocationIndex)), the lane is gl_SubGroupInvocationARB. Vulkan leaves
// the placement to the implementation when the workgroup is not a whole number of subgroups along x (lavapipe
// gives each 7-wide row its own subgroup). The model then checks that each name is its lowest lane's invocation.
void run_against_model(const std::string& source, uint32_t invocations, std::vector<uint32_t> lanes,
                       bool layout_from_device) {
  bismuth::test::ValidatedVulkan vk;
  const auto& info = vk.selected_device();
  const uint32_t subgroup_size = info.subgroup_size;
  REQUIRE(subgroup_size >= 1);
  if (subgroup_size > 64) {
    WARN("subgroup size " << subgroup_size << " is outside what GL_ARB_shader_ballot supports");
    return;
  }
  auto device = bismuth::test::ComputeDevice::create(vk);
  REQUIRE_OK(device);
  auto patch = lower_khr_subgroup_ops(compile_or_fail(source));
  REQUIRE_OK(patch);
  REQUIRE_VALID(patch->words, TargetEnv::Vulkan1_1);
  for (uint32_t lane : lanes) {
    lane %= subgroup_size;
    INFO("readInvocationARB index " << lane << ", subgroup size " << subgroup_size);
    bismuth::test::ComputeDispatch dispatch;
    dispatch.spirv = patch->words;
    dispatch.buffer.assign(1 + invocations * kWords, 0);
    dispatch.buffer[0] = lane;
    // The report says the shader needs a subgroup size <= 64: pin it where the device allows.
    if ((*device)->subgroup_size_control() && info.min_subgroup_size <= subgroup_size &&
        subgroup_size <= info.max_subgroup_size && (info.required_subgroup_size_stages & VK_SHADER_STAGE_COMPUTE_BIT)) {
      dispatch.required_subgroup_size = subgroup_size;
    }
    auto out = (*device)->run(dispatch);
    REQUIRE_OK(out);
    const std::vector<uint32_t> got(out->begin() + 1, out->end());
    std::vector<Placement> layout = linear_layout(invocations, subgroup_size);
    if (layout_from_device) {
      std::set<std::pair<uint32_t, uint32_t>> seen;
      for (uint32_t i = 0; i < invocations; ++i) {
        layout[i] = {got[i * kWords + 12], got[i * kWords + 8]};
        REQUIRE(layout[i].lane < subgroup_size);
        REQUIRE(seen.insert({layout[i].subgroup, layout[i].lane}).second);  // one invocation per lane
      }
    }
    const auto expected = cpu_model(layout, subgroup_size, lane);
    for (uint32_t i = 0; i < got.size(); ++i) {
      INFO("invocation " << i / kWords << " word " << i % kWords);
      REQUIRE(got[i] == expected[i]);
    }
  }
  device->reset();
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

bool contains_opcode(const std::vector<uint32_t>& words, spv::Op op) {
  auto module = Module::parse(words);
  REQUIRE_OK(module);
  for (auto h : module->instructions()) {
    if (module->opcode(h) == op) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("Every KHR ballot and vote instruction becomes its GroupNonUniform counterpart") {
  const auto input = compile_or_fail(kBallotVote);
  REQUIRE(contains_opcode(input, spv::Op::OpSubgroupBallotKHR));
  auto patch = lower_khr_subgroup_ops(input);
  REQUIRE_OK(patch);
  REQUIRE_VALID(patch->words, TargetEnv::Vulkan1_1);
  const auto& r = patch->report;
  CHECK(r.changed);
  CHECK(r.ballot == 2);
  CHECK(r.broadcast_first == 2);
  CHECK(r.broadcast == 1);
  CHECK(r.shuffle == 1);
  CHECK(r.all == 1);
  CHECK(r.any == 1);
  CHECK(r.all_equal == 1);
  for (spv::Op op : {spv::Op::OpSubgroupBallotKHR, spv::Op::OpSubgroupFirstInvocationKHR,
                     spv::Op::OpSubgroupReadInvocationKHR, spv::Op::OpSubgroupAllKHR, spv::Op::OpSubgroupAnyKHR,
                     spv::Op::OpSubgroupAllEqualKHR}) {
    CHECK_FALSE(contains_opcode(patch->words, op));
  }
  CHECK(contains_opcode(patch->words, spv::Op::OpGroupNonUniformBallot));
  CHECK(contains_opcode(patch->words, spv::Op::OpGroupNonUniformBroadcastFirst));
  CHECK(contains_opcode(patch->words, spv::Op::OpGroupNonUniformBroadcast));
  CHECK(contains_opcode(patch->words, spv::Op::OpGroupNonUniformShuffle));
  CHECK(contains_opcode(patch->words, spv::Op::OpGroupNonUniformAllEqual));
}

TEST_CASE("KHR capabilities and extension strings are dropped, the GroupNonUniform capabilities are added") {
  auto patch = lower_khr_subgroup_ops(compile_or_fail(kBallotVote));
  REQUIRE_OK(patch);
  auto module = Module::parse(patch->words);
  REQUIRE_OK(module);
  CHECK_FALSE(module->has_capability(spv::Capability::SubgroupBallotKHR));
  CHECK_FALSE(module->has_capability(spv::Capability::SubgroupVoteKHR));
  CHECK_FALSE(module->has_extension("SPV_KHR_shader_ballot"));
  CHECK_FALSE(module->has_extension("SPV_KHR_subgroup_vote"));
  for (auto capability : {spv::Capability::GroupNonUniform, spv::Capability::GroupNonUniformBallot,
                          spv::Capability::GroupNonUniformShuffle, spv::Capability::GroupNonUniformVote}) {
    CHECK(module->has_capability(capability));
  }
}

TEST_CASE("ReadInvocation with a dynamic index becomes Broadcast from SPIR-V 1.5 on") {
  const auto input = compile_or_fail(kBallotVote, TargetEnv::Vulkan1_2);
  REQUIRE(input[1] == 0x00010500u);
  auto patch = lower_khr_subgroup_ops(input);
  REQUIRE_OK(patch);
  REQUIRE_VALID(patch->words, TargetEnv::Vulkan1_2);
  CHECK(patch->report.broadcast == 2);
  CHECK(patch->report.shuffle == 0);
  CHECK(patch->report.version_after == 0x00010500u);  // never changed when already >= 1.3
}

TEST_CASE("The module version rises to 1.3 from below and never further") {
  const auto input = compile_or_fail(kBallotVote, TargetEnv::Vulkan1_0);
  REQUIRE(input[1] == 0x00010000u);
  auto patch = lower_khr_subgroup_ops(input);
  REQUIRE_OK(patch);
  CHECK(patch->words[1] == 0x00010300u);
  CHECK(patch->report.version_before == 0x00010000u);
  CHECK(patch->report.version_after == 0x00010300u);
  REQUIRE_VALID(patch->words, TargetEnv::Vulkan1_1);
}

TEST_CASE("Ballot modules report that they need a subgroup size of at most 64, vote-only modules do not") {
  auto ballot = lower_khr_subgroup_ops(compile_or_fail(kBallotVote));
  REQUIRE_OK(ballot);
  CHECK(ballot->report.requires_subgroup_size_at_most_64);
  auto vote = lower_khr_subgroup_ops(compile_or_fail(kVoteOnly));
  REQUIRE_OK(vote);
  REQUIRE_VALID(vote->words, TargetEnv::Vulkan1_1);
  CHECK(vote->report.changed);
  CHECK(vote->report.any == 1);
  CHECK_FALSE(vote->report.requires_subgroup_size_at_most_64);
}

TEST_CASE("A module without either extension is left word for word as it was") {
  const auto input = compile_or_fail(kPlain);
  auto patch = lower_khr_subgroup_ops(input);
  REQUIRE_OK(patch);
  CHECK_FALSE(patch->report.changed);
  CHECK(patch->words == input);
}

TEST_CASE("Bad input: a KHR instruction with the wrong word count is an error naming it") {
  const char* text = R"(
OpCapability Shader
OpCapability SubgroupVoteKHR
OpExtension "SPV_KHR_subgroup_vote"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%true = OpConstantTrue %bool
%main = OpFunction %void None %fn
%l = OpLabel
%x = OpSubgroupAnyKHR %bool %true
OpReturn
OpFunctionEnd
)";
  auto words = bismuth::test::assemble_or_fail(text);
  // Lengthen OpSubgroupAnyKHR by one word, swallowing OpReturn's word as an extra operand.
  for (size_t i = 5; i < words.size(); i += words[i] >> 16) {
    if ((words[i] & 0xffff) == static_cast<uint32_t>(spv::Op::OpSubgroupAnyKHR)) {
      words[i] = (5u << 16) | (words[i] & 0xffff);
      words[i + 4] = 1;  // an id below the bound, so only the word count is wrong
      break;
    }
  }
  auto patch = lower_khr_subgroup_ops(words);
  REQUIRE_FALSE(patch);
  CHECK_THAT(patch.error().message, Catch::Contains("(OpSubgroupAnyKHR)"));
}

TEST_CASE("Lowered ballot and vote match a CPU model of the device's subgroup size, word for word") {
  run_against_model(kBallotVote, 64, {0, 5, 7}, false);
}

TEST_CASE("Lowered ballot and vote match the CPU model with a partial last subgroup (7x3x1)") {
  // 21 invocations in subgroups of 8: some lanes are inactive. Lanes 0 and 4 are active in every subgroup of the
  // layouts devices use (rows of 7, or 8 + 8 + 5), so readInvocationARB reads a defined value.
  run_against_model(with_size("local_size_x = 7, local_size_y = 3"), 21, {0, 4}, true);
}
