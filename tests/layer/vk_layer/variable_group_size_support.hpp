// What the tests of VK_BISMUTH_variable_group_size (variable_group_size_*_test.cpp, one test per rule of
// docs/VK_BISMUTH_variable_group_size.adoc) share: the shaders that record the local id and group size each
// invocation sees, a device with the extension enabled, and dispatching a pipeline at a list of sizes.
#pragma once

#include <catch2/catch.hpp>

#include <array>
#include <cstdlib>
#include <string>
#include <vector>

#include "bismuth/translator/glsl_compiler.hpp"
#include "layer_vulkan.hpp"

namespace bismuth::layer_test::variable_group_size {

using Size = std::array<uint32_t, 3>;

// Each invocation writes its local id (and the group size as the shader sees it) at
// base + group_linear * invocations + local_index.
inline constexpr const char* kFixedSizeShader = R"(#version 450
layout(local_size_x = 4, local_size_y = 2, local_size_z = 1) in;
layout(std430, binding = 0) buffer Out { uint results[]; };
layout(push_constant) uniform P { uint invocations; uint base; } p;
void main() {
  uint group = gl_WorkGroupID.x + gl_NumWorkGroups.x * (gl_WorkGroupID.y + gl_NumWorkGroups.y * gl_WorkGroupID.z);
  uint index = p.base + 2u * (group * p.invocations + gl_LocalInvocationIndex);
  results[index] = gl_LocalInvocationID.x | (gl_LocalInvocationID.y << 10) | (gl_LocalInvocationID.z << 20);
  results[index + 1u] = 0u;
}
)";

// local_size_x_id: gl_WorkGroupSize is a specialization constant, so the shader can read the size it runs at.
inline constexpr const char* kSpecIdShader = R"(#version 450
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;
layout(std430, binding = 0) buffer Out { uint results[]; };
layout(push_constant) uniform P { uint invocations; uint base; } p;
void main() {
  uint group = gl_WorkGroupID.x + gl_NumWorkGroups.x * (gl_WorkGroupID.y + gl_NumWorkGroups.y * gl_WorkGroupID.z);
  uint index = p.base + 2u * (group * p.invocations + gl_LocalInvocationIndex);
  results[index] = gl_LocalInvocationID.x | (gl_LocalInvocationID.y << 10) | (gl_LocalInvocationID.z << 20);
  results[index + 1u] = gl_WorkGroupSize.x | (gl_WorkGroupSize.y << 10) | (gl_WorkGroupSize.z << 20);
}
)";

inline std::vector<uint32_t> compile(const char* source,
                                     spirv_patch::TargetEnv target = spirv_patch::TargetEnv::Vulkan1_1) {
  translator::GlslCompileOptions options;
  options.target = target;
  auto words = translator::compile_glsl_compute(source, options);
  INFO((words ? std::string() : words.error().message));
  REQUIRE(words);
  return *words;
}

inline VkPhysicalDeviceVariableGroupSizeFeaturesBISMUTH features_enabled() {
  VkPhysicalDeviceVariableGroupSizeFeaturesBISMUTH f{};
  f.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VARIABLE_GROUP_SIZE_FEATURES_BISMUTH;
  f.variableGroupSize = VK_TRUE;
  return f;
}

struct Fixture {
  explicit Fixture(Order order, uint32_t api_version = VK_API_VERSION_1_1, void* more_features = nullptr)
      : vk(order, true, api_version) {
    features = features_enabled();
    features.pNext = more_features;
    vk.create_device({{VK_BISMUTH_VARIABLE_GROUP_SIZE_EXTENSION_NAME}, &features});
    REQUIRE(vk.dispatch_group_size != nullptr);
    layout = vk.layout(1);
  }
  VkPhysicalDeviceVariableGroupSizeFeaturesBISMUTH features{};
  LayerVulkan vk;
  VkPipelineLayout layout = VK_NULL_HANDLE;
};

inline Order any_order() { return GENERATE(Order::ValidationAboveBismuth, Order::ValidationBelowBismuth); }

inline bool has_message(const LayerVulkan& vk, const std::string& vuid) {
  for (const auto& m : vk.bismuth_messages())
    if (m.id == vuid) return true;
  return false;
}

// Records dispatches of `pipeline` (a kSpecIdShader pipeline on f.layout writing into `out`) at `sizes`, one group
// each, and runs them.
inline void dispatch_sizes(Fixture& f, VkPipeline pipeline, LayerVulkan::Buffer& out, const std::vector<Size>& sizes) {
  const VkDescriptorSet set = f.vk.descriptor_set(f.layout, {&out});
  f.vk.run([&](VkCommandBuffer cb) {
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, f.layout, 0, 1, &set, 0, nullptr);
    for (const auto& s : sizes) {
      const uint32_t push[2] = {s[0] * s[1] * s[2], 0};
      vkCmdPushConstants(cb, f.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), push);
      f.vk.dispatch_group_size(cb, 1, 1, 1, s[0], s[1], s[2]);
    }
  });
}

// Sets an environment variable for a scope (the layer reads its settings at vkCreateInstance).
struct ScopedEnv {
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    ::setenv(name, value, 1);
  }
  ~ScopedEnv() {
    if (old_.empty()) ::unsetenv(name_);
    else ::setenv(name_, old_.c_str(), 1);
  }
  const char* name_;
  std::string old_;
};

}  // namespace bismuth::layer_test::variable_group_size
