// Feature 1: with BISMUTH_FORCE_EMULATION=1 the layer emulates VK_EXT_shader_subgroup_ballot/vote on lavapipe,
// which has them natively: glslang's SPV_KHR ballot/vote modules are lowered, run, and compared with a CPU model of
// subgroups of the device's size (8 on lavapipe); other modules reach the driver byte for byte.
#include <catch2/catch.hpp>

#include <cstdlib>

#include "bismuth/spirv_patch/validate.hpp"
#include "bismuth/translator/glsl_compiler.hpp"
#include "layer_vulkan.hpp"

using namespace bismuth;
using namespace bismuth::layer_test;

namespace {

constexpr uint32_t kInvocations = 64;  // one workgroup, full subgroups
constexpr uint32_t kResultsPerInvocation = 6;

const char* kBallotVoteShader = R"(#version 450
#extension GL_ARB_shader_ballot : require
#extension GL_ARB_shader_group_vote : require
#extension GL_ARB_gpu_shader_int64 : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer In { uint values[]; };
layout(std430, binding = 1) buffer Out { uint results[]; };
void main() {
  uint i = gl_LocalInvocationIndex;
  uint v = values[i];
  uint64_t b = ballotARB((v & 1u) != 0u);
  results[i * 6u + 0u] = uint(b);
  results[i * 6u + 1u] = uint(b >> 32);
  results[i * 6u + 2u] = readFirstInvocationARB(v);
  results[i * 6u + 3u] = readInvocationARB(v, gl_WorkGroupID.x + 5u);  // dynamically uniform, not constant
  results[i * 6u + 4u] = (anyInvocationARB(v > 900u) ? 1u : 0u) | (allInvocationsARB(v < 1000u) ? 2u : 0u) |
                         (allInvocationsEqualARB((v / 100u) % 2u == 1u) ? 4u : 0u);
  results[i * 6u + 5u] = readInvocationARB(v, 3u);
}
)";

const char* kPlainShader = R"(#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer In { uint values[]; };
layout(std430, binding = 1) buffer Out { uint results[]; };
void main() { results[gl_LocalInvocationIndex] = values[gl_LocalInvocationIndex] * 3u + 1u; }
)";

std::vector<uint32_t> compile(const char* source) {
  auto words = translator::compile_glsl_compute(source);
  INFO((words ? std::string() : words.error().message));
  REQUIRE(words);
  return *words;
}

bool contains_string(const std::vector<uint32_t>& words, const char* text) {
  const std::string_view bytes(reinterpret_cast<const char*>(words.data()), words.size() * 4);
  return bytes.find(text) != std::string_view::npos;
}

uint32_t subgroup_size(VkPhysicalDevice physical_device) {
  VkPhysicalDeviceSubgroupProperties subgroup{};
  subgroup.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES;
  VkPhysicalDeviceProperties2 properties{};
  properties.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
  properties.pNext = &subgroup;
  vkGetPhysicalDeviceProperties2(physical_device, &properties);
  return subgroup.subgroupSize;
}

// Input: some subgroups all-equal after /100, some with values >= 1000, odd/even mixtures for the ballot.
std::vector<uint32_t> input_values() {
  std::vector<uint32_t> v(kInvocations);
  for (uint32_t i = 0; i < kInvocations; ++i) {
    const uint32_t group = i / 8;
    if (group == 0) v[i] = 150 + (i % 2);
    else if (group == 2) v[i] = 1000 + i * 7;
    else if (group == 5) v[i] = 950;
    else v[i] = (i * 37 + 11) % 1000;
  }
  return v;
}

// The CPU model: subgroups of `size` consecutive invocations (full subgroups, all active).
std::vector<uint32_t> model(const std::vector<uint32_t>& v, uint32_t size) {
  std::vector<uint32_t> r(kInvocations * kResultsPerInvocation);
  for (uint32_t i = 0; i < kInvocations; ++i) {
    const uint32_t base = i / size * size;
    uint64_t ballot = 0;
    bool any = false, all = true, equal = true;
    for (uint32_t l = 0; l < size; ++l) {
      const uint32_t x = v[base + l];
      if (x & 1u) ballot |= uint64_t{1} << l;
      any = any || x > 900;
      all = all && x < 1000;
      equal = equal && (x / 100 % 2 == 1) == (v[base] / 100 % 2 == 1);
    }
    uint32_t* out = &r[i * kResultsPerInvocation];
    out[0] = static_cast<uint32_t>(ballot);
    out[1] = static_cast<uint32_t>(ballot >> 32);
    out[2] = v[base];
    out[3] = v[base + 5];
    out[4] = (any ? 1u : 0u) | (all ? 2u : 0u) | (equal ? 4u : 0u);
    out[5] = v[base + 3];
  }
  return r;
}

std::vector<uint32_t> run_shader(LayerVulkan& vk, const std::vector<uint32_t>& words, const std::vector<uint32_t>& in,
                                 size_t out_words) {
  auto& input = vk.buffer(in.size() * 4);
  auto& output = vk.buffer(out_words * 4);
  std::copy(in.begin(), in.end(), input.data);
  std::fill(output.data, output.data + out_words, 0xdeadbeefu);
  const VkShaderModule module = vk.module(words);
  const VkPipelineLayout layout = vk.layout(2);
  const VkPipeline pipeline = vk.compute_pipeline(module, layout, false);
  const VkDescriptorSet set = vk.descriptor_set(layout, {&input, &output});
  vk.run([&](VkCommandBuffer cb) {
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, nullptr);
    vkCmdDispatch(cb, 1, 1, 1);
  });
  return std::vector<uint32_t>(output.data, output.data + out_words);
}

struct ForcedEmulation {
  ForcedEmulation() { ::setenv("BISMUTH_FORCE_EMULATION", "1", 1); }
  ~ForcedEmulation() { ::unsetenv("BISMUTH_FORCE_EMULATION"); }
};

}  // namespace

TEST_CASE("Forced emulation: SPV_KHR_shader_ballot and SPV_KHR_subgroup_vote shaders match the subgroup model") {
  const Order order = GENERATE(Order::ValidationAboveBismuth, Order::ValidationBelowBismuth);
  INFO(to_string(order));
  ForcedEmulation forced;
  LayerVulkan vk(order);
  vk.create_device({{VK_EXT_SHADER_SUBGROUP_BALLOT_EXTENSION_NAME, VK_EXT_SHADER_SUBGROUP_VOTE_EXTENSION_NAME}});
  const auto words = compile(kBallotVoteShader);
  REQUIRE(contains_string(words, "SPV_KHR_shader_ballot"));
  REQUIRE(contains_string(words, "SPV_KHR_subgroup_vote"));
  clear_spied_modules();
  const auto in = input_values();
  const auto out = run_shader(vk, words, in, kInvocations * kResultsPerInvocation);
  const uint32_t size = subgroup_size(vk.physical_device());
  INFO("subgroup size " << size);
  REQUIRE(size <= 64);
  CHECK(out == model(in, size));

  // What reached the driver: lowered (no KHR extension left) and valid for Vulkan 1.1.
  const auto spied = spied_modules();
  REQUIRE(spied.size() == 1);
  CHECK(spied[0] != words);
  CHECK_FALSE(contains_string(spied[0], "SPV_KHR_shader_ballot"));
  CHECK_FALSE(contains_string(spied[0], "SPV_KHR_subgroup_vote"));
  const auto valid = spirv_patch::validate(spied[0], spirv_patch::TargetEnv::Vulkan1_1);
  INFO((valid ? std::string() : valid.error().message));
  CHECK(valid);
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("A module without SPV_KHR ballot/vote reaches the driver byte-identical, emulating or not") {
  const Order order = GENERATE(Order::ValidationAboveBismuth, Order::ValidationBelowBismuth);
  const bool force = GENERATE(false, true);
  INFO(to_string(order) << (force ? ", forced emulation" : ", no emulation"));
  if (force) ::setenv("BISMUTH_FORCE_EMULATION", "1", 1);
  LayerVulkan vk(order);
  ::unsetenv("BISMUTH_FORCE_EMULATION");
  if (force)
    vk.create_device({{VK_EXT_SHADER_SUBGROUP_BALLOT_EXTENSION_NAME, VK_EXT_SHADER_SUBGROUP_VOTE_EXTENSION_NAME}});
  else
    vk.create_device({});
  const auto words = compile(kPlainShader);
  clear_spied_modules();
  std::vector<uint32_t> in(kInvocations);
  for (uint32_t i = 0; i < kInvocations; ++i) in[i] = i * 5;
  const auto out = run_shader(vk, words, in, kInvocations);
  for (uint32_t i = 0; i < kInvocations; ++i) CHECK(out[i] == in[i] * 3 + 1);
  const auto spied = spied_modules();
  REQUIRE(spied.size() == 1);
  CHECK(spied[0] == words);
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("Without emulation a ballot/vote module reaches the driver byte-identical") {
  const Order order = GENERATE(Order::ValidationAboveBismuth, Order::ValidationBelowBismuth);
  INFO(to_string(order));
  LayerVulkan vk(order);
  if (!vk.has_device_extension(VK_EXT_SHADER_SUBGROUP_BALLOT_EXTENSION_NAME) ||
      vk.has_device_extension(VK_EXT_SHADER_SUBGROUP_BALLOT_EXTENSION_NAME, "VK_LAYER_BISMUTH_compute"))
  {
    WARN("the driver lacks VK_EXT_shader_subgroup_ballot: the layer emulates it; nothing to check");
    return;
  }
  vk.create_device({{VK_EXT_SHADER_SUBGROUP_BALLOT_EXTENSION_NAME, VK_EXT_SHADER_SUBGROUP_VOTE_EXTENSION_NAME}});
  const auto words = compile(kBallotVoteShader);
  clear_spied_modules();
  const auto in = input_values();
  const auto out = run_shader(vk, words, in, kInvocations * kResultsPerInvocation);
  CHECK(out == model(in, subgroup_size(vk.physical_device())));
  const auto spied = spied_modules();
  REQUIRE(spied.size() == 1);
  CHECK(spied[0] == words);
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("Forced emulation: an inline VkShaderModuleCreateInfo in a compute stage is lowered too") {
  const Order order = GENERATE(Order::ValidationAboveBismuth, Order::ValidationBelowBismuth);
  INFO(to_string(order));
  ForcedEmulation forced;
  LayerVulkan vk(order);
  if (!vk.has_device_extension(VK_EXT_GRAPHICS_PIPELINE_LIBRARY_EXTENSION_NAME)) {
    WARN("no VK_EXT_graphics_pipeline_library: inline shader modules cannot be used");
    return;
  }
  VkPhysicalDeviceGraphicsPipelineLibraryFeaturesEXT gpl{};
  gpl.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GRAPHICS_PIPELINE_LIBRARY_FEATURES_EXT;
  gpl.graphicsPipelineLibrary = VK_TRUE;
  vk.create_device({{VK_EXT_SHADER_SUBGROUP_BALLOT_EXTENSION_NAME, VK_EXT_SHADER_SUBGROUP_VOTE_EXTENSION_NAME,
                     VK_KHR_PIPELINE_LIBRARY_EXTENSION_NAME, VK_EXT_GRAPHICS_PIPELINE_LIBRARY_EXTENSION_NAME},
                    &gpl});
  const auto words = compile(kBallotVoteShader);
  const auto in = input_values();
  const size_t out_words = kInvocations * kResultsPerInvocation;
  auto& input = vk.buffer(in.size() * 4);
  auto& output = vk.buffer(out_words * 4);
  std::copy(in.begin(), in.end(), input.data);
  const VkPipelineLayout layout = vk.layout(2);
  VkShaderModuleCreateInfo module_info{};
  module_info.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO;
  module_info.codeSize = words.size() * 4;
  module_info.pCode = words.data();
  VkComputePipelineCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO;
  info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  info.stage.pNext = &module_info;
  info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  info.stage.pName = "main";
  info.layout = layout;
  info.basePipelineIndex = -1;
  VkPipeline pipeline = VK_NULL_HANDLE;
  REQUIRE(vkCreateComputePipelines(vk.device(), VK_NULL_HANDLE, 1, &info, nullptr, &pipeline) == VK_SUCCESS);
  CHECK(module_info.pCode == words.data());  // the application's structure is given back as it was
  const VkDescriptorSet set = vk.descriptor_set(layout, {&input, &output});
  vk.run([&](VkCommandBuffer cb) {
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, nullptr);
    vkCmdDispatch(cb, 1, 1, 1);
  });
  const std::vector<uint32_t> out(output.data, output.data + out_words);
  CHECK(out == model(in, subgroup_size(vk.physical_device())));
  vkDestroyPipeline(vk.device(), pipeline, nullptr);
  // Validation below Bismuth would report SPV_KHR_shader_ballot without its device extension had it reached it.
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}
