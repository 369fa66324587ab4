// VK_BISMUTH_variable_group_size: the feature and its limits, vkCmdDispatchGroupSizeBISMUTH at every size, and the
// VUIDs of dispatches that must be reported and skipped.
#include <catch2/catch.hpp>

#include <algorithm>

#include "bismuth/spirv_patch/validate.hpp"

#include "variable_group_size_support.hpp"

using namespace bismuth;
using namespace bismuth::layer_test;
using namespace bismuth::layer_test::variable_group_size;

TEST_CASE("vkGetPhysicalDeviceFeatures2 reports variableGroupSize") {
  const Order order = any_order();
  INFO(to_string(order));
  LayerVulkan vk(order);
  VkPhysicalDeviceVariableGroupSizeFeaturesBISMUTH f{};
  f.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VARIABLE_GROUP_SIZE_FEATURES_BISMUTH;
  VkPhysicalDeviceFeatures2 features{};
  features.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
  features.pNext = &f;
  vkGetPhysicalDeviceFeatures2(vk.physical_device(), &features);
  CHECK(f.variableGroupSize == VK_TRUE);
  CHECK(features.pNext == &f);  // the chain is given back as it came
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("maxVariableGroupSize and maxVariableGroupInvocations are the device's compute limits") {
  const Order order = any_order();
  INFO(to_string(order));
  LayerVulkan vk(order);
  VkPhysicalDeviceVariableGroupSizePropertiesBISMUTH p{};
  p.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VARIABLE_GROUP_SIZE_PROPERTIES_BISMUTH;
  VkPhysicalDeviceProperties2 properties{};
  properties.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
  properties.pNext = &p;
  vkGetPhysicalDeviceProperties2(vk.physical_device(), &properties);
  const auto& limits = properties.properties.limits;
  for (int i = 0; i < 3; ++i) CHECK(p.maxVariableGroupSize[i] == limits.maxComputeWorkGroupSize[i]);
  CHECK(p.maxVariableGroupInvocations == limits.maxComputeWorkGroupInvocations);
  CHECK(p.maxVariableGroupInvocations >= 128);
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("vkCmdDispatchGroupSizeBISMUTH dispatches at every requested size") {
  const Order order = any_order();
  const bool spec_id_shader = GENERATE(false, true);
  INFO(to_string(order) << (spec_id_shader ? ", local_size_x_id shader" : ", fixed LocalSize shader"));
  Fixture f(order);
  VkPhysicalDeviceProperties properties;
  vkGetPhysicalDeviceProperties(f.vk.physical_device(), &properties);
  const auto& limits = properties.limits;
  std::vector<Size> sizes = {{1, 1, 1},  {2, 1, 1},  {4, 2, 1},  {7, 3, 1},   {8, 8, 1},  {5, 4, 3},
                             {3, 5, 7},  {13, 1, 1}, {64, 1, 1}, {1, 64, 1},  {1, 1, 64}, {32, 32, 1},
                             {16, 8, 8}, {31, 1, 1}, {1, 1, 1},  {7, 3, 1}};  // repeats: cache hits
  sizes.push_back({limits.maxComputeWorkGroupInvocations, 1, 1});
  sizes.push_back({1, std::min(limits.maxComputeWorkGroupSize[1], limits.maxComputeWorkGroupInvocations), 1});
  sizes.push_back({1, 1, std::min(limits.maxComputeWorkGroupSize[2], limits.maxComputeWorkGroupInvocations)});
  const Size count{2, 3, 2};
  const uint32_t groups = count[0] * count[1] * count[2];
  std::vector<uint32_t> bases;
  uint32_t total = 0;
  for (const auto& s : sizes) {
    bases.push_back(total);
    total += 2 * groups * s[0] * s[1] * s[2];
  }
  auto& out = f.vk.buffer(uint64_t{total} * 4);
  std::fill(out.data, out.data + total, 0xffffffffu);
  clear_spied_modules();
  const VkPipeline pipeline =
      f.vk.compute_pipeline(f.vk.module(compile(spec_id_shader ? kSpecIdShader : kFixedSizeShader)), f.layout, true);
  // What reached the driver: the application's module and the layer's respecialisable copy (the same words when
  // the size already was specialization constants: the application may destroy its module), both valid.
  const auto spied = spied_modules();
  REQUIRE(spied.size() == 2);
  CHECK((spied[0] == spied[1]) == spec_id_shader);
  for (const auto& words : spied) {
    const auto valid = spirv_patch::validate(words, spirv_patch::TargetEnv::Vulkan1_1);
    INFO((valid ? std::string() : valid.error().message));
    CHECK(valid);
  }
  const VkDescriptorSet set = f.vk.descriptor_set(f.layout, {&out});
  f.vk.run([&](VkCommandBuffer cb) {
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, f.layout, 0, 1, &set, 0, nullptr);
    for (size_t i = 0; i < sizes.size(); ++i) {
      const uint32_t push[2] = {sizes[i][0] * sizes[i][1] * sizes[i][2], bases[i]};
      vkCmdPushConstants(cb, f.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), push);
      f.vk.dispatch_group_size(cb, count[0], count[1], count[2], sizes[i][0], sizes[i][1], sizes[i][2]);
    }
  });
  for (size_t i = 0; i < sizes.size(); ++i) {
    const Size s = sizes[i];
    INFO("group size " << s[0] << "x" << s[1] << "x" << s[2]);
    const uint32_t invocations = s[0] * s[1] * s[2];
    uint32_t wrong = 0;
    for (uint32_t g = 0; g < groups; ++g)
      for (uint32_t li = 0; li < invocations; ++li) {
        const uint32_t x = li % s[0], y = li / s[0] % s[1], z = li / (s[0] * s[1]);
        const uint32_t* r = &out.data[bases[i] + 2 * (g * invocations + li)];
        const uint32_t size_word = spec_id_shader ? (s[0] | s[1] << 10 | s[2] << 20) : 0u;
        if (r[0] != (x | y << 10 | z << 20) || r[1] != size_word) ++wrong;
      }
    CHECK(wrong == 0);
  }
  f.vk.destroy_pipeline(pipeline);  // destroys its size pipelines too (validation below would report leaks)
  REQUIRE_NO_VALIDATION_MESSAGES(f.vk);
  CHECK(f.vk.bismuth_messages().empty());
}

TEST_CASE("VUID-vkCmdDispatchGroupSizeBISMUTH-None-10001: a fixed-size pipeline is reported and not dispatched") {
  const Order order = any_order();
  INFO(to_string(order));
  Fixture f(order);
  auto& out = f.vk.buffer(1024 * 4);
  std::fill(out.data, out.data + 1024, 0xffffffffu);
  const VkPipeline pipeline = f.vk.compute_pipeline(f.vk.module(compile(kFixedSizeShader)), f.layout, false);
  const VkDescriptorSet set = f.vk.descriptor_set(f.layout, {&out});
  f.vk.run([&](VkCommandBuffer cb) {
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, f.layout, 0, 1, &set, 0, nullptr);
    const uint32_t push[2] = {8, 0};
    vkCmdPushConstants(cb, f.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), push);
    f.vk.dispatch_group_size(cb, 1, 1, 1, 4, 2, 1);
  });
  CHECK(has_message(f.vk, "VUID-vkCmdDispatchGroupSizeBISMUTH-None-10001"));
  CHECK(out.data[0] == 0xffffffffu);  // skipped
  REQUIRE_NO_VALIDATION_MESSAGES(f.vk);
}

TEST_CASE("VUID-vkCmdDispatch-None-10009: vkCmdDispatch on a variable-size pipeline is reported and skipped") {
  const Order order = any_order();
  INFO(to_string(order));
  Fixture f(order);
  auto& out = f.vk.buffer(1024 * 4);
  std::fill(out.data, out.data + 1024, 0xffffffffu);
  const VkPipeline pipeline = f.vk.compute_pipeline(f.vk.module(compile(kFixedSizeShader)), f.layout, true);
  const VkDescriptorSet set = f.vk.descriptor_set(f.layout, {&out});
  f.vk.run([&](VkCommandBuffer cb) {
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, f.layout, 0, 1, &set, 0, nullptr);
    const uint32_t push[2] = {8, 0};
    vkCmdPushConstants(cb, f.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), push);
    vkCmdDispatch(cb, 1, 1, 1);
  });
  CHECK(has_message(f.vk, "VUID-vkCmdDispatch-None-10009"));
  CHECK(out.data[0] == 0xffffffffu);
  REQUIRE_NO_VALIDATION_MESSAGES(f.vk);
}

TEST_CASE("VUID-vkCmdDispatchGroupSizeBISMUTH-groupSizeX-10002..10005: sizes out of range are reported and skipped") {
  const Order order = any_order();
  INFO(to_string(order));
  Fixture f(order);
  VkPhysicalDeviceProperties properties;
  vkGetPhysicalDeviceProperties(f.vk.physical_device(), &properties);
  const auto& limits = properties.limits;
  auto& out = f.vk.buffer(1024 * 4);
  std::fill(out.data, out.data + 1024, 0xffffffffu);
  const VkPipeline pipeline = f.vk.compute_pipeline(f.vk.module(compile(kFixedSizeShader)), f.layout, true);
  const VkDescriptorSet set = f.vk.descriptor_set(f.layout, {&out});
  struct Case {
    Size size;
    const char* vuid;
  };
  const Case cases[] = {
      {{0, 1, 1}, "VUID-vkCmdDispatchGroupSizeBISMUTH-groupSizeX-10002"},
      {{limits.maxComputeWorkGroupSize[0] + 1, 1, 1}, "VUID-vkCmdDispatchGroupSizeBISMUTH-groupSizeX-10002"},
      {{1, 0, 1}, "VUID-vkCmdDispatchGroupSizeBISMUTH-groupSizeY-10003"},
      {{1, limits.maxComputeWorkGroupSize[1] + 1, 1}, "VUID-vkCmdDispatchGroupSizeBISMUTH-groupSizeY-10003"},
      {{1, 1, 0}, "VUID-vkCmdDispatchGroupSizeBISMUTH-groupSizeZ-10004"},
      {{1, 1, limits.maxComputeWorkGroupSize[2] + 1}, "VUID-vkCmdDispatchGroupSizeBISMUTH-groupSizeZ-10004"},
      {{limits.maxComputeWorkGroupInvocations, 2, 1}, "VUID-vkCmdDispatchGroupSizeBISMUTH-groupSizeX-10005"},
  };
  for (const auto& c : cases) {
    INFO(c.vuid << " at " << c.size[0] << "x" << c.size[1] << "x" << c.size[2]);
    f.vk.run([&](VkCommandBuffer cb) {
      vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
      vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, f.layout, 0, 1, &set, 0, nullptr);
      const uint32_t push[2] = {1, 0};
      vkCmdPushConstants(cb, f.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), push);
      f.vk.dispatch_group_size(cb, 1, 1, 1, c.size[0], c.size[1], c.size[2]);
    });
    CHECK(has_message(f.vk, c.vuid));
  }
  CHECK(out.data[0] == 0xffffffffu);
  REQUIRE_NO_VALIDATION_MESSAGES(f.vk);
}

TEST_CASE("VUID-vkCmdDispatchGroupSizeBISMUTH-groupCountX-10006: group counts beyond maxComputeWorkGroupCount are "
          "reported and skipped") {
  Fixture f(Order::ValidationBelowBismuth);
  VkPhysicalDeviceProperties properties;
  vkGetPhysicalDeviceProperties(f.vk.physical_device(), &properties);
  auto& out = f.vk.buffer(64);
  const VkPipeline pipeline = f.vk.compute_pipeline(f.vk.module(compile(kFixedSizeShader)), f.layout, true);
  const VkDescriptorSet set = f.vk.descriptor_set(f.layout, {&out});
  f.vk.run([&](VkCommandBuffer cb) {
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, f.layout, 0, 1, &set, 0, nullptr);
    const uint32_t push[2] = {1, 0};
    vkCmdPushConstants(cb, f.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), push);
    f.vk.dispatch_group_size(cb, properties.limits.maxComputeWorkGroupCount[0] + 1, 1, 1, 1, 1, 1);
  });
  CHECK(has_message(f.vk, "VUID-vkCmdDispatchGroupSizeBISMUTH-groupCountX-10006"));
  REQUIRE_NO_VALIDATION_MESSAGES(f.vk);
}

TEST_CASE("vkCmdDispatchGroupSizeBISMUTH is not returned by vkGetDeviceProcAddr when the extension is not enabled") {
  LayerVulkan vk(Order::ValidationBelowBismuth);
  vk.create_device({});
  CHECK(vk.dispatch_group_size == nullptr);
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}
