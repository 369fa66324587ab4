// Feature 2: VK_BISMUTH_variable_group_size. One test per rule of docs/VK_BISMUTH_variable_group_size.adoc.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <mutex>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <optional>
#include <filesystem>
#include <thread>
#include <string>

#include "bismuth/spirv_patch/validate.hpp"
#include "bismuth/translator/glsl_compiler.hpp"
#include "layer_vulkan.hpp"

using namespace bismuth;
using namespace bismuth::layer_test;

namespace {

using Size = std::array<uint32_t, 3>;

// Each invocation writes its local id (and the group size as the shader sees it) at
// base + group_linear * invocations + local_index.
const char* kFixedSizeShader = R"(#version 450
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
const char* kSpecIdShader = R"(#version 450
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

std::vector<uint32_t> compile(const char* source, spirv_patch::TargetEnv target = spirv_patch::TargetEnv::Vulkan1_1) {
  translator::GlslCompileOptions options;
  options.target = target;
  auto words = translator::compile_glsl_compute(source, options);
  INFO((words ? std::string() : words.error().message));
  REQUIRE(words);
  return *words;
}

VkPhysicalDeviceVariableGroupSizeFeaturesBISMUTH features_enabled() {
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

Order any_order() { return GENERATE(Order::ValidationAboveBismuth, Order::ValidationBelowBismuth); }

bool has_message(const LayerVulkan& vk, const std::string& vuid) {
  for (const auto& m : vk.bismuth_messages())
    if (m.id == vuid) return true;
  return false;
}

}  // namespace

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

namespace {

// Records dispatches of `pipeline` (a kSpecIdShader pipeline on f.layout writing into `out`) at `sizes`, one group
// each, and runs them.
void dispatch_sizes(Fixture& f, VkPipeline pipeline, LayerVulkan::Buffer& out, const std::vector<Size>& sizes) {
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

}  // namespace

TEST_CASE("Size pipelines come from the backend's pipeline cache: BISMUTH_STATS counts its hits, misses and compiles") {
  const Order order = any_order();
  INFO(to_string(order));
  ScopedEnv stats("BISMUTH_STATS", "1");
  StderrCapture capture;
  {
    Fixture f(order);
    auto& out = f.vk.buffer(4096 * 4);
    clear_spied_modules();
    const VkPipeline pipeline = f.vk.compute_pipeline(f.vk.module(compile(kSpecIdShader)), f.layout, true);
    // 3 new sizes, 3 repeats, and the module's own size (1x1x1: the application's pipeline, not the cache).
    dispatch_sizes(f, pipeline, out, {{3, 1, 1}, {5, 2, 1}, {3, 1, 1}, {8, 1, 1}, {5, 2, 1}, {1, 1, 1}, {8, 1, 1}});
    const SpiedPipelines spied = spied_pipelines();
    CHECK(spied.created.size() == 4);  // the parent and three size pipelines, each compiled once
    CHECK(spied.created_at(3, 1, 1) == 1);
    CHECK(spied.created_at(5, 2, 1) == 1);
    CHECK(spied.created_at(8, 1, 1) == 1);
    REQUIRE_NO_VALIDATION_MESSAGES(f.vk);
  }
  const CacheStats s = parse_cache_stats(capture.finish());
  REQUIRE(s.found);
  CHECK(s.compiles == 3);
  CHECK(s.misses == 3);
  CHECK(s.hits == 3);
  CHECK(s.prewarm_compiles == 0);  // BISMUTH_PREWARM=0 in the harness
  CHECK(s.evictions == 0);
}

TEST_CASE("Destroying the parent destroys its size pipelines, and only after the submissions that used them") {
  const Order order = any_order();
  INFO(to_string(order));
  Fixture f(order);
  auto& out = f.vk.buffer(4096 * 4);
  clear_spied_modules();
  const VkPipeline first = f.vk.compute_pipeline(f.vk.module(compile(kSpecIdShader)), f.layout, true);
  const VkPipeline second = f.vk.compute_pipeline(f.vk.module(compile(kSpecIdShader)), f.layout, true);
  const std::vector<Size> sizes = {{2, 1, 1}, {4, 4, 1}, {16, 1, 1}};
  // Submitted and waited for (run()): after this the application may destroy `first` (VUID-00765).
  dispatch_sizes(f, first, out, sizes);
  dispatch_sizes(f, second, out, sizes);
  SpiedPipelines spied = spied_pipelines();
  REQUIRE(spied.created.size() == 2 + 2 * sizes.size());
  // Nothing was destroyed while the application held both pipelines, however many sizes it compiled.
  CHECK(spied.destroyed.empty());
  const std::string first_handle = spied.created[0].handle;
  // Which size pipelines belong to `first`: the three created right after the first dispatch started.
  std::vector<std::string> first_sizes, second_sizes;
  for (size_t i = 2; i < 2 + sizes.size(); ++i) first_sizes.push_back(spied.created[i].handle);
  for (size_t i = 2 + sizes.size(); i < spied.created.size(); ++i) second_sizes.push_back(spied.created[i].handle);
  f.vk.destroy_pipeline(first);
  spied = spied_pipelines();
  CHECK(spied.was_destroyed(first_handle));
  for (const auto& h : first_sizes) CHECK(spied.was_destroyed(h));
  for (const auto& h : second_sizes) CHECK_FALSE(spied.was_destroyed(h));
  // `second` still dispatches at its sizes (its pipelines are intact) and compiles nothing new.
  dispatch_sizes(f, second, out, sizes);
  CHECK(spied_pipelines().created.size() == spied.created.size());
  f.vk.destroy_pipeline(second);
  spied = spied_pipelines();
  for (const auto& h : second_sizes) CHECK(spied.was_destroyed(h));
  // With validation below Bismuth, destroying a pipeline a pending command buffer uses would be reported
  // (VUID-vkDestroyPipeline-pipeline-00765), and one left behind at vkDestroyDevice too.
  REQUIRE_NO_VALIDATION_MESSAGES(f.vk);
}

TEST_CASE("The size pipelines' cache is saved to BISMUTH_CACHE_DIR and loaded by the next vkCreateDevice") {
  const auto dir = std::filesystem::temp_directory_path() / ("bismuth-layer-cache-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  ScopedEnv cache_dir("BISMUTH_CACHE_DIR", dir.c_str());
  ScopedEnv stats("BISMUTH_STATS", "1");
  const std::vector<Size> sizes = {{16, 1, 1}, {6, 6, 1}, {40, 1, 1}};
  std::string first_run, second_run;
  for (std::string* text : {&first_run, &second_run}) {
    StderrCapture capture;
    {
      Fixture f(Order::ValidationBelowBismuth);
      auto& out = f.vk.buffer(4096 * 4);
      const VkPipeline pipeline = f.vk.compute_pipeline(f.vk.module(compile(kSpecIdShader)), f.layout, true);
      dispatch_sizes(f, pipeline, out, sizes);
      REQUIRE_NO_VALIDATION_MESSAGES(f.vk);
      CHECK(f.vk.bismuth_messages().empty());  // no warning about the file
    }
    *text = capture.finish();
  }
  // The backend's file format and name: pipelines-<vendor>-<device>-<driver>-<uuid>.bin, one per device.
  size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    CHECK(entry.path().filename().string().rfind("pipelines-", 0) == 0);
    ++files;
  }
  CHECK(files == 1);
  const CacheStats first = parse_cache_stats(first_run);
  const CacheStats second = parse_cache_stats(second_run);
  REQUIRE(first.found);
  REQUIRE(second.found);
  INFO(first.disk_line << "\n" << second.disk_line);
  CHECK(first.disk_line.find("(no file, loaded 0 bytes") != std::string::npos);
  CHECK(second.disk_line.find("(loaded, loaded ") != std::string::npos);
  CHECK(second.disk_line.find("loaded 0 bytes") == std::string::npos);
  CHECK(second.compiles == sizes.size());  // compiled through the loaded VkPipelineCache
  std::filesystem::remove_all(dir);
}

TEST_CASE("Creating a variable-size pipeline prewarms the backend's default sizes in the background") {
  const Order order = any_order();
  INFO(to_string(order));
  ScopedEnv prewarm("BISMUTH_PREWARM", "4");  // the first four of the default set: 64, 128, 256, 32
  ScopedEnv stats("BISMUTH_STATS", "1");
  StderrCapture capture;
  {
    Fixture f(order);
    auto& out = f.vk.buffer(4096 * 4);
    clear_spied_modules();
    const VkPipeline pipeline = f.vk.compute_pipeline(f.vk.module(compile(kSpecIdShader)), f.layout, true);
    const std::vector<Size> prewarmed = {{64, 1, 1}, {128, 1, 1}, {256, 1, 1}, {32, 1, 1}};
    // The compiles reach the driver from the layer's background workers, without any dispatch.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    auto all_compiled = [&] {
      const SpiedPipelines spied = spied_pipelines();
      for (const auto& s : prewarmed)
        if (spied.created_at(s[0], s[1], s[2]) != 1) return false;
      return true;
    };
    while (!all_compiled() && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    REQUIRE(all_compiled());
    // First use of each is a hit: nothing more is compiled.
    dispatch_sizes(f, pipeline, out, prewarmed);
    CHECK(spied_pipelines().created.size() == 1 + prewarmed.size());
    REQUIRE_NO_VALIDATION_MESSAGES(f.vk);
  }
  const CacheStats s = parse_cache_stats(capture.finish());
  REQUIRE(s.found);
  CHECK(s.prewarm_compiles == 4);
  CHECK(s.compiles == 4);
  CHECK(s.hits == 4);
  CHECK(s.misses == 0);
}

TEST_CASE("BISMUTH_PREWARM=off compiles no size before it is dispatched") {
  ScopedEnv prewarm("BISMUTH_PREWARM", "off");
  ScopedEnv stats("BISMUTH_STATS", "1");
  StderrCapture capture;
  {
    Fixture f(Order::ValidationBelowBismuth);
    clear_spied_modules();
    f.vk.compute_pipeline(f.vk.module(compile(kSpecIdShader)), f.layout, true);
    std::this_thread::sleep_for(std::chrono::milliseconds(500));  // what prewarm would have had to start
    CHECK(spied_pipelines().created.size() == 1);  // the parent only
    REQUIRE_NO_VALIDATION_MESSAGES(f.vk);
  }
  const CacheStats s = parse_cache_stats(capture.finish());
  REQUIRE(s.found);
  CHECK(s.compiles == 0);
}

TEST_CASE("Prewarm stops when the parent is destroyed at once, and never uses a destroyed pipeline layout",
          "[concurrency]") {
  const Order order = any_order();
  INFO(to_string(order));
  ScopedEnv prewarm("BISMUTH_PREWARM", "64");
  Fixture f(order);
  for (int i = 0; i < 3; ++i) {
    const VkPipeline pipeline = f.vk.compute_pipeline(f.vk.module(compile(kSpecIdShader)), f.layout, true);
    f.vk.destroy_pipeline(pipeline);  // while its 64 prewarm compiles are queued or running
  }
  // A layout destroyed while the pipeline lives: its prewarm stops before the layout goes.
  const VkPipelineLayout layout = f.vk.layout(1);
  const VkPipeline pipeline = f.vk.compute_pipeline(f.vk.module(compile(kSpecIdShader)), layout, true);
  f.vk.destroy_layout(layout);
  // With validation below Bismuth, a compile with the destroyed layout would be reported.
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  f.vk.destroy_pipeline(pipeline);
  REQUIRE_NO_VALIDATION_MESSAGES(f.vk);
}

TEST_CASE("VUID-vkCmdDispatchGroupSizeBISMUTH-layout-10012: a dispatch after the pipeline layout was destroyed is "
          "reported and skipped") {
  const Order order = any_order();
  INFO(to_string(order));
  Fixture f(order);
  auto& out = f.vk.buffer(1024 * 4);
  std::fill(out.data, out.data + 1024, 0xffffffffu);
  // A second, identically defined layout (compatible for binding) that is destroyed after the pipeline's creation.
  const VkPipelineLayout doomed = f.vk.layout(1);
  const VkPipeline pipeline = f.vk.compute_pipeline(f.vk.module(compile(kSpecIdShader)), doomed, true);
  f.vk.destroy_layout(doomed);
  const VkDescriptorSet set = f.vk.descriptor_set(f.layout, {&out});
  f.vk.run([&](VkCommandBuffer cb) {
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, f.layout, 0, 1, &set, 0, nullptr);
    const uint32_t push[2] = {8, 0};
    vkCmdPushConstants(cb, f.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), push);
    f.vk.dispatch_group_size(cb, 1, 1, 1, 8, 1, 1);
  });
  CHECK(has_message(f.vk, "VUID-vkCmdDispatchGroupSizeBISMUTH-layout-10012"));
  CHECK(out.data[0] == 0xffffffffu);  // skipped
  f.vk.destroy_pipeline(pipeline);
  REQUIRE_NO_VALIDATION_MESSAGES(f.vk);
}

TEST_CASE("Threads recording vkCmdDispatchGroupSizeBISMUTH at the same sizes concurrently compile each size once "
          "and get correct results", "[concurrency]") {
  ScopedEnv stats("BISMUTH_STATS", "1");
  StderrCapture capture;
  std::optional<Fixture> fixture;
  fixture.emplace(Order::ValidationBelowBismuth);
  Fixture& f = *fixture;
  clear_spied_modules();
  constexpr int kThreads = 4;
  const std::vector<Size> sizes = {{3, 1, 1}, {8, 2, 1}, {5, 5, 1}, {16, 1, 4}, {3, 1, 1}, {32, 1, 1}};
  uint32_t per_thread = 0;
  for (const auto& s : sizes) per_thread += 2 * s[0] * s[1] * s[2];
  auto& out = f.vk.buffer(uint64_t{per_thread} * kThreads * 4);
  std::fill(out.data, out.data + per_thread * kThreads, 0xffffffffu);
  const VkPipeline pipeline = f.vk.compute_pipeline(f.vk.module(compile(kSpecIdShader)), f.layout, true);
  const VkDescriptorSet set = f.vk.descriptor_set(f.layout, {&out});
  // One command buffer per thread, recorded in parallel (each from its own pool: pools are externally synchronised),
  // then submitted together by the harness's run() of the primary that executes nothing else.
  std::vector<VkCommandPool> pools(kThreads);
  std::vector<VkCommandBuffer> buffers(kThreads);
  for (int t = 0; t < kThreads; ++t) {
    VkCommandPoolCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
    info.queueFamilyIndex = f.vk.queue_family();
    REQUIRE(vkCreateCommandPool(f.vk.device(), &info, nullptr, &pools[t]) == VK_SUCCESS);
    VkCommandBufferAllocateInfo alloc{};
    alloc.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
    alloc.commandPool = pools[t];
    alloc.level = VK_COMMAND_BUFFER_LEVEL_SECONDARY;
    alloc.commandBufferCount = 1;
    REQUIRE(vkAllocateCommandBuffers(f.vk.device(), &alloc, &buffers[t]) == VK_SUCCESS);
  }
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  std::atomic<int> ready{0};
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      ready.fetch_add(1);
      while (ready.load() < kThreads) std::this_thread::yield();  // start together: the misses race
      VkCommandBufferInheritanceInfo inheritance{};
      inheritance.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO;
      VkCommandBufferBeginInfo begin{};
      begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
      begin.pInheritanceInfo = &inheritance;
      if (vkBeginCommandBuffer(buffers[t], &begin) != VK_SUCCESS) ++failures;
      vkCmdBindPipeline(buffers[t], VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
      vkCmdBindDescriptorSets(buffers[t], VK_PIPELINE_BIND_POINT_COMPUTE, f.layout, 0, 1, &set, 0, nullptr);
      uint32_t base = per_thread * static_cast<uint32_t>(t);
      for (const auto& s : sizes) {
        const uint32_t push[2] = {s[0] * s[1] * s[2], base};
        vkCmdPushConstants(buffers[t], f.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), push);
        f.vk.dispatch_group_size(buffers[t], 1, 1, 1, s[0], s[1], s[2]);
        base += 2 * s[0] * s[1] * s[2];
      }
      if (vkEndCommandBuffer(buffers[t]) != VK_SUCCESS) ++failures;
    });
  for (auto& th : threads) th.join();
  REQUIRE(failures == 0);
  f.vk.run([&](VkCommandBuffer cb) { vkCmdExecuteCommands(cb, kThreads, buffers.data()); });
  uint32_t wrong = 0;
  for (int t = 0; t < kThreads; ++t) {
    uint32_t base = per_thread * static_cast<uint32_t>(t);
    for (const auto& s : sizes) {
      const uint32_t invocations = s[0] * s[1] * s[2];
      for (uint32_t li = 0; li < invocations; ++li) {
        const uint32_t x = li % s[0], y = li / s[0] % s[1], z = li / (s[0] * s[1]);
        const uint32_t* r = &out.data[base + 2 * li];
        if (r[0] != (x | y << 10 | z << 20) || r[1] != (s[0] | s[1] << 10 | s[2] << 20)) ++wrong;
      }
      base += 2 * invocations;
    }
  }
  CHECK(wrong == 0);
  // One compile per distinct size reached the driver, whichever thread missed first; the others waited for it.
  const SpiedPipelines spied = spied_pipelines();
  CHECK(spied.created.size() == 1 + 5);
  for (const auto& s : sizes) CHECK(spied.created_at(s[0], s[1], s[2]) == 1);
  for (int t = 0; t < kThreads; ++t) vkDestroyCommandPool(f.vk.device(), pools[t], nullptr);
  REQUIRE_NO_VALIDATION_MESSAGES(f.vk);
  fixture.reset();
  const CacheStats cache = parse_cache_stats(capture.finish());
  REQUIRE(cache.found);
  CHECK(cache.compiles == 5);
  CHECK(cache.hits + cache.misses == kThreads * sizes.size());
  CHECK(cache.misses >= 5);
  CHECK(cache.single_flight_waits <= cache.misses - 5);  // a miss may find the compile just finished
}

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

TEST_CASE("Prewarm of a REQUIRE_FULL_SUBGROUPS stage compiles only whole numbers of subgroups") {
  ScopedEnv prewarm("BISMUTH_PREWARM", "64");
  VkPhysicalDeviceVulkan13Features features13{};
  features13.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES;
  features13.subgroupSizeControl = VK_TRUE;
  features13.computeFullSubgroups = VK_TRUE;
  {
    // Only on a device that has the features (lavapipe does).
    LayerVulkan probe(Order::ValidationBelowBismuth, true, VK_API_VERSION_1_3);
    VkPhysicalDeviceProperties properties;
    vkGetPhysicalDeviceProperties(probe.physical_device(), &properties);
    VkPhysicalDeviceVulkan13Features supported{};
    supported.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES;
    VkPhysicalDeviceFeatures2 features2{};
    features2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
    features2.pNext = &supported;
    if (properties.apiVersion >= VK_API_VERSION_1_3) vkGetPhysicalDeviceFeatures2(probe.physical_device(), &features2);
    if (properties.apiVersion < VK_API_VERSION_1_3 || !supported.subgroupSizeControl ||
        !supported.computeFullSubgroups) {
      WARN("the device lacks computeFullSubgroups: nothing to check");
      return;
    }
  }
  // Validation below Bismuth checks every prewarm compile: a local size x that is not a multiple of the subgroup
  // size with REQUIRE_FULL_SUBGROUPS is an error (VUID-VkPipelineShaderStageCreateInfo-flags-02759).
  Fixture f(Order::ValidationBelowBismuth, VK_API_VERSION_1_3, &features13);
  clear_spied_modules();
  const char* source = R"(#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Out { uint results[]; };
void main() { results[gl_GlobalInvocationID.x] = gl_LocalInvocationIndex; }
)";
  const VkShaderModule module = f.vk.module(compile(source));
  VkComputePipelineVariableGroupSizeCreateInfoBISMUTH variable{};
  variable.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_VARIABLE_GROUP_SIZE_CREATE_INFO_BISMUTH;
  variable.variableGroupSize = VK_TRUE;
  VkComputePipelineCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO;
  info.pNext = &variable;
  info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  info.stage.flags = VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT;
  info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  info.stage.module = module;
  info.stage.pName = "main";
  info.layout = f.layout;
  info.basePipelineIndex = -1;
  VkPipeline pipeline = VK_NULL_HANDLE;
  REQUIRE(vkCreateComputePipelines(f.vk.device(), VK_NULL_HANDLE, 1, &info, nullptr, &pipeline) == VK_SUCCESS);
  // Until the background compiles settle (the count stops growing).
  size_t seen = 0;
  auto quiet_since = std::chrono::steady_clock::now();
  const auto deadline = quiet_since + std::chrono::seconds(60);
  while (std::chrono::steady_clock::now() < deadline &&
         std::chrono::steady_clock::now() - quiet_since < std::chrono::milliseconds(500)) {
    const size_t now = spied_pipelines().created.size();
    if (now != seen) {
      seen = now;
      quiet_since = std::chrono::steady_clock::now();
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  CHECK(seen > 1);  // the parent and some prewarmed sizes
  vkDestroyPipeline(f.vk.device(), pipeline, nullptr);
  REQUIRE_NO_VALIDATION_MESSAGES(f.vk);
}
