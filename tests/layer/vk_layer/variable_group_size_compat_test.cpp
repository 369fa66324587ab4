// VK_BISMUTH_variable_group_size with the rest of Vulkan: SPIR-V 1.6 modules (LocalSizeId), VK_EXT_debug_report,
// the application's specialization constants, the feature left off, vkGetInstanceProcAddr and Vulkan 1.0.
#include <catch2/catch.hpp>

#include <algorithm>
#include <mutex>

#include "variable_group_size_support.hpp"

using namespace bismuth;
using namespace bismuth::layer_test;
using namespace bismuth::layer_test::variable_group_size;

TEST_CASE("A SPIR-V 1.6 module (LocalSizeId) takes its variable size through LocalSizeId with maintenance4") {
  const Order order = any_order();
  INFO(to_string(order));
  VkPhysicalDeviceVulkan13Features features13{};
  features13.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES;
  features13.maintenance4 = VK_TRUE;
  Fixture f(order, VK_API_VERSION_1_3, &features13);
  VkPhysicalDeviceProperties properties;
  vkGetPhysicalDeviceProperties(f.vk.physical_device(), &properties);
  if (properties.apiVersion < VK_API_VERSION_1_3) {
    WARN("the device is not Vulkan 1.3: nothing to check");
    return;
  }
  const auto words = compile(kSpecIdShader, spirv_patch::TargetEnv::Vulkan1_3);
  REQUIRE(words[1] == 0x00010600u);
  const std::vector<Size> sizes = {{4, 2, 1}, {9, 1, 1}, {2, 3, 4}, {64, 2, 1}};
  uint32_t total = 0;
  for (const auto& s : sizes) total += 2 * s[0] * s[1] * s[2];
  auto& out = f.vk.buffer(uint64_t{total} * 4);
  const VkPipeline pipeline = f.vk.compute_pipeline(f.vk.module(words), f.layout, true);
  const VkDescriptorSet set = f.vk.descriptor_set(f.layout, {&out});
  f.vk.run([&](VkCommandBuffer cb) {
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, f.layout, 0, 1, &set, 0, nullptr);
    uint32_t base = 0;
    for (const auto& s : sizes) {
      const uint32_t push[2] = {s[0] * s[1] * s[2], base};
      vkCmdPushConstants(cb, f.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), push);
      f.vk.dispatch_group_size(cb, 1, 1, 1, s[0], s[1], s[2]);
      base += 2 * s[0] * s[1] * s[2];
    }
  });
  uint32_t base = 0, wrong = 0;
  for (const auto& s : sizes) {
    for (uint32_t li = 0; li < s[0] * s[1] * s[2]; ++li) {
      const uint32_t x = li % s[0], y = li / s[0] % s[1], z = li / (s[0] * s[1]);
      const uint32_t* r = &out.data[base + 2 * li];
      if (r[0] != (x | y << 10 | z << 20) || r[1] != (s[0] | s[1] << 10 | s[2] << 20)) ++wrong;
    }
    base += 2 * s[0] * s[1] * s[2];
  }
  CHECK(wrong == 0);
  REQUIRE_NO_VALIDATION_MESSAGES(f.vk);
  CHECK(f.vk.bismuth_messages().empty());
}

namespace {
struct ReportLog {
  std::mutex mutex;
  std::vector<std::string> prefixes;
};
VKAPI_ATTR VkBool32 VKAPI_CALL on_report(VkDebugReportFlagsEXT, VkDebugReportObjectTypeEXT, uint64_t, size_t, int32_t,
                                         const char* prefix, const char*, void* user) {
  auto* log = static_cast<ReportLog*>(user);
  std::lock_guard lock(log->mutex);
  log->prefixes.push_back(prefix ? prefix : "");
  return VK_FALSE;
}
}  // namespace

TEST_CASE("Invalid use is also reported to VK_EXT_debug_report callbacks") {
  Fixture f(Order::ValidationBelowBismuth);
  ReportLog log;
  VkDebugReportCallbackCreateInfoEXT info{};
  info.sType = VK_STRUCTURE_TYPE_DEBUG_REPORT_CALLBACK_CREATE_INFO_EXT;
  info.flags = VK_DEBUG_REPORT_ERROR_BIT_EXT;
  info.pfnCallback = &on_report;
  info.pUserData = &log;
  VkDebugReportCallbackEXT callback;
  REQUIRE(vkCreateDebugReportCallbackEXT(f.vk.instance(), &info, nullptr, &callback) == VK_SUCCESS);
  auto& out = f.vk.buffer(64);
  const VkPipeline pipeline = f.vk.compute_pipeline(f.vk.module(compile(kFixedSizeShader)), f.layout, false);
  const VkDescriptorSet set = f.vk.descriptor_set(f.layout, {&out});
  f.vk.run([&](VkCommandBuffer cb) {
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, f.layout, 0, 1, &set, 0, nullptr);
    f.vk.dispatch_group_size(cb, 1, 1, 1, 4, 2, 1);
  });
  vkDestroyDebugReportCallbackEXT(f.vk.instance(), callback, nullptr);
  CHECK(std::count(log.prefixes.begin(), log.prefixes.end(), "VUID-vkCmdDispatchGroupSizeBISMUTH-None-10001") == 1);
  REQUIRE_NO_VALIDATION_MESSAGES(f.vk);
}

TEST_CASE("The application's specialization constants apply at every size, and its group size values are the default") {
  const Order order = any_order();
  INFO(to_string(order));
  Fixture f(order);
  const char* source = R"(#version 450
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;
layout(constant_id = 7) const uint K = 1u;
layout(std430, binding = 0) buffer Out { uint results[]; };
layout(push_constant) uniform P { uint invocations; uint base; } p;
void main() {
  uint index = p.base + 2u * gl_LocalInvocationIndex;
  results[index] = K;
  results[index + 1u] = gl_WorkGroupSize.x | (gl_WorkGroupSize.y << 10) | (gl_WorkGroupSize.z << 20);
}
)";
  // K = 5; the group size ids 0/1/2 given 6x1x1 by the application: that is the parent's (default) size.
  const uint32_t values[4] = {5, 6, 1, 1};
  const VkSpecializationMapEntry entries[4] = {{7, 0, 4}, {0, 4, 4}, {1, 8, 4}, {2, 12, 4}};
  const VkSpecializationInfo specialization{4, entries, sizeof(values), values};
  auto& out = f.vk.buffer(4096);
  std::fill(out.data, out.data + 1024, 0xffffffffu);
  const VkPipeline pipeline = f.vk.compute_pipeline(f.vk.module(compile(source)), f.layout, true, nullptr, &specialization);
  const VkDescriptorSet set = f.vk.descriptor_set(f.layout, {&out});
  const std::vector<Size> sizes = {{6, 1, 1}, {3, 2, 2}, {17, 1, 1}};
  f.vk.run([&](VkCommandBuffer cb) {
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, f.layout, 0, 1, &set, 0, nullptr);
    uint32_t base = 0;
    for (const auto& s : sizes) {
      const uint32_t push[2] = {s[0] * s[1] * s[2], base};
      vkCmdPushConstants(cb, f.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), push);
      f.vk.dispatch_group_size(cb, 1, 1, 1, s[0], s[1], s[2]);
      base += 2 * s[0] * s[1] * s[2];
    }
  });
  uint32_t base = 0, wrong = 0;
  for (const auto& s : sizes) {
    for (uint32_t li = 0; li < s[0] * s[1] * s[2]; ++li)
      if (out.data[base + 2 * li] != 5u || out.data[base + 2 * li + 1] != (s[0] | s[1] << 10 | s[2] << 20)) ++wrong;
    base += 2 * s[0] * s[1] * s[2];
  }
  CHECK(wrong == 0);
  REQUIRE_NO_VALIDATION_MESSAGES(f.vk);
  CHECK(f.vk.bismuth_messages().empty());
}

TEST_CASE("VUID-VkComputePipelineVariableGroupSizeCreateInfoBISMUTH-variableGroupSize-10010: without the feature the "
          "pipeline is reported and created with its fixed size") {
  LayerVulkan vk(Order::ValidationBelowBismuth);
  VkPhysicalDeviceVariableGroupSizeFeaturesBISMUTH features{};
  features.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VARIABLE_GROUP_SIZE_FEATURES_BISMUTH;
  features.variableGroupSize = VK_FALSE;
  vk.create_device({{VK_BISMUTH_VARIABLE_GROUP_SIZE_EXTENSION_NAME}, &features});
  const VkPipelineLayout layout = vk.layout(1);
  auto& out = vk.buffer(64 * 4);
  std::fill(out.data, out.data + 64, 0xffffffffu);
  const VkPipeline pipeline = vk.compute_pipeline(vk.module(compile(kFixedSizeShader)), layout, true);
  CHECK(has_message(vk, "VUID-VkComputePipelineVariableGroupSizeCreateInfoBISMUTH-variableGroupSize-10010"));
  // A fixed 4x2x1 pipeline: vkCmdDispatch works.
  const VkDescriptorSet set = vk.descriptor_set(layout, {&out});
  vk.run([&](VkCommandBuffer cb) {
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, nullptr);
    const uint32_t push[2] = {8, 0};
    vkCmdPushConstants(cb, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), push);
    vkCmdDispatch(cb, 1, 1, 1);
  });
  CHECK(out.data[0] == 0u);
  CHECK(out.data[2 * 7] == (3u | 1u << 10));
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("vkCmdDispatchGroupSizeBISMUTH obtained through vkGetInstanceProcAddr works too") {
  const Order order = any_order();
  INFO(to_string(order));
  Fixture f(order);
  auto dispatch = reinterpret_cast<PFN_vkCmdDispatchGroupSizeBISMUTH>(
      vkGetInstanceProcAddr(f.vk.instance(), "vkCmdDispatchGroupSizeBISMUTH"));
  REQUIRE(dispatch != nullptr);
  auto& out = f.vk.buffer(2 * 24 * 4);
  std::fill(out.data, out.data + 48, 0xffffffffu);
  const VkPipeline pipeline = f.vk.compute_pipeline(f.vk.module(compile(kSpecIdShader)), f.layout, true);
  const VkDescriptorSet set = f.vk.descriptor_set(f.layout, {&out});
  f.vk.run([&](VkCommandBuffer cb) {
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, f.layout, 0, 1, &set, 0, nullptr);
    const uint32_t push[2] = {24, 0};
    vkCmdPushConstants(cb, f.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), push);
    dispatch(cb, 1, 1, 1, 2, 3, 4);
  });
  CHECK(out.data[2 * 23] == (1u | 2u << 10 | 3u << 20));
  CHECK(out.data[2 * 23 + 1] == (2u | 3u << 10 | 4u << 20));
  REQUIRE_NO_VALIDATION_MESSAGES(f.vk);
}

TEST_CASE("A Vulkan 1.0 application can enable the extension and dispatch at new sizes") {
  const Order order = any_order();
  INFO(to_string(order));
  Fixture f(order, VK_API_VERSION_1_0);
  auto& out = f.vk.buffer(4096 * 4);
  std::fill(out.data, out.data + 4096, 0xffffffffu);
  const VkPipeline pipeline =
      f.vk.compute_pipeline(f.vk.module(compile(kSpecIdShader, spirv_patch::TargetEnv::Vulkan1_0)), f.layout, true);
  dispatch_sizes(f, pipeline, out, {{6, 1, 1}});
  CHECK(out.data[0] == 0u);                           // invocation 0's local id
  CHECK(out.data[1] == (6u | 1u << 10 | 1u << 20));  // the size it ran at: 6x1x1
  f.vk.destroy_pipeline(pipeline);
  REQUIRE_NO_VALIDATION_MESSAGES(f.vk);
  CHECK(f.vk.bismuth_messages().empty());
}
