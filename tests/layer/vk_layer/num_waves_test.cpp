// VK_BISMUTH_num_waves (docs/VK_BISMUTH_num_waves.adoc) through the real loader, with the validation layer above and
// below the Bismuth layer (zero validation messages). The shader is what the GLSL front emits for
// `layout(num_waves = X) in;` (the size as spec constants 0x7B00..0x7B02, wave index and lane from the subgroup
// built-ins); each invocation records what it sees, and the test checks it against the wave size the pipeline
// committed to and vkGetPipelineNumWavesPropertiesBISMUTH reports.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include "bismuth/spirv_patch/validate.hpp"
#include "bismuth/translator/glsl_compiler.hpp"
#include "layer_vulkan.hpp"
#include "variable_group_size_support.hpp"

using namespace bismuth;
using namespace bismuth::layer_test;

namespace {

// Slot of an invocation: group * X * w + wave * w + lane. Proposal 0054: "the group id, the wave index within the
// group and the lane index" identify the work; with full waves of the committed size every slot is written once.
const char* kNumWavesShader = R"(#version 450
#extension GL_KHR_shader_subgroup_basic : require
layout(local_size_x_id = 0x7B00, local_size_y_id = 0x7B01, local_size_z_id = 0x7B02) in;
layout(std430, binding = 0) buffer Out { uint results[]; };
void main() {
  uint slot = gl_WorkGroupID.x * gl_WorkGroupSize.x + gl_SubgroupID * gl_SubgroupSize + gl_SubgroupInvocationID;
  results[4u * slot + 0u] = gl_SubgroupID;
  results[4u * slot + 1u] = gl_SubgroupInvocationID;
  results[4u * slot + 2u] = gl_SubgroupSize;
  results[4u * slot + 3u] = gl_NumSubgroups | (gl_WorkGroupSize.x << 16);
}
)";

// The HLSL front's form (numwaves design, "Seam 1"): Private uints named bismuth_builtin_<BuiltIn>, never stored,
// which the layer's specialization binds to the built-ins. A GLSL global without initializer compiles to exactly that.
const char* kMarkerShader = R"(#version 450
layout(local_size_x_id = 0x7B00, local_size_y_id = 0x7B01, local_size_z_id = 0x7B02) in;
layout(std430, binding = 0) buffer Out { uint results[]; };
uint bismuth_builtin_SubgroupId;
uint bismuth_builtin_SubgroupLocalInvocationId;
uint bismuth_builtin_SubgroupSize;
uint bismuth_builtin_NumSubgroups;
void main() {
  uint slot = gl_WorkGroupID.x * gl_WorkGroupSize.x + bismuth_builtin_SubgroupId * bismuth_builtin_SubgroupSize +
              bismuth_builtin_SubgroupLocalInvocationId;
  results[4u * slot + 0u] = bismuth_builtin_SubgroupId;
  results[4u * slot + 1u] = bismuth_builtin_SubgroupLocalInvocationId;
  results[4u * slot + 2u] = bismuth_builtin_SubgroupSize;
  results[4u * slot + 3u] = bismuth_builtin_NumSubgroups | (gl_WorkGroupSize.x << 16);
}
)";

std::vector<uint32_t> compile(const char* source) {
  auto words = translator::compile_glsl_compute(source);
  INFO((words ? std::string() : words.error().message));
  REQUIRE(words);
  return *words;
}

struct DeviceSubgroups {
  uint32_t subgroup_size = 0;
  bool size_control = false;  // subgroupSizeControl and computeFullSubgroups supported
  uint32_t min_size = 0, max_size = 0;
  uint32_t max_invocations = 0;
};

DeviceSubgroups device_subgroups(VkPhysicalDevice physical_device) {
  VkPhysicalDeviceSubgroupSizeControlProperties control{};
  control.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_PROPERTIES;
  VkPhysicalDeviceSubgroupProperties subgroup{};
  subgroup.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES;
  subgroup.pNext = &control;
  VkPhysicalDeviceProperties2 properties{};
  properties.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
  properties.pNext = &subgroup;
  vkGetPhysicalDeviceProperties2(physical_device, &properties);
  VkPhysicalDeviceSubgroupSizeControlFeatures features{};
  features.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES;
  VkPhysicalDeviceFeatures2 features2{};
  features2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
  features2.pNext = &features;
  vkGetPhysicalDeviceFeatures2(physical_device, &features2);
  DeviceSubgroups out;
  out.subgroup_size = subgroup.subgroupSize;
  out.size_control = features.subgroupSizeControl && features.computeFullSubgroups &&
                     (control.requiredSubgroupSizeStages & VK_SHADER_STAGE_COMPUTE_BIT);
  out.min_size = out.size_control ? control.minSubgroupSize : subgroup.subgroupSize;
  out.max_size = out.size_control ? control.maxSubgroupSize : subgroup.subgroupSize;
  out.max_invocations = properties.properties.limits.maxComputeWorkGroupInvocations;
  return out;
}

// vkGetPipelineNumWavesPropertiesBISMUTH takes a VkPipeline that no layer above Bismuth can translate: validation
// above must not wrap handles (docs/VK_BISMUTH_num_waves.adoc, issue 4). Read at vkCreateInstance.
const char* unique_handles_setting(Order order) {
  return order == Order::ValidationAboveBismuth ? "VK_VALIDATION_FEATURE_DISABLE_UNIQUE_HANDLES_EXT" : "";
}

struct Fixture {
  explicit Fixture(Order order, uint32_t api_version = VK_API_VERSION_1_1, void* more_features = nullptr)
      : disables("VK_LAYER_DISABLES", unique_handles_setting(order)), vk(order, true, api_version) {
    features.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_NUM_WAVES_FEATURES_BISMUTH;
    features.numWaves = VK_TRUE;
    features.pNext = more_features;
    vk.create_device({{VK_BISMUTH_NUM_WAVES_EXTENSION_NAME}, &features});
    query = reinterpret_cast<PFN_vkGetPipelineNumWavesPropertiesBISMUTH>(
        vkGetDeviceProcAddr(vk.device(), "vkGetPipelineNumWavesPropertiesBISMUTH"));
    REQUIRE(query != nullptr);
    layout = vk.layout(1);
    module = vk.module(compile(kNumWavesShader));
    subgroups = device_subgroups(vk.physical_device());
  }
  VkResult create(const VkPipelineShaderStageNumWavesCreateInfoBISMUTH& request, VkPipeline* pipeline) {
    VkComputePipelineCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO;
    info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    info.stage.pNext = &request;
    info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    info.stage.module = module;
    info.stage.pName = "main";
    info.layout = layout;
    info.basePipelineIndex = -1;
    *pipeline = VK_NULL_HANDLE;
    return vkCreateComputePipelines(vk.device(), VK_NULL_HANDLE, 1, &info, nullptr, pipeline);
  }
  layer_test::variable_group_size::ScopedEnv disables;
  VkPhysicalDeviceNumWavesFeaturesBISMUTH features{};
  LayerVulkan vk;
  PFN_vkGetPipelineNumWavesPropertiesBISMUTH query = nullptr;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  VkShaderModule module = VK_NULL_HANDLE;
  DeviceSubgroups subgroups;
};

VkPipelineShaderStageNumWavesCreateInfoBISMUTH request(uint32_t num_waves, VkNumWavesCreateFlagsBISMUTH flags,
                                                       uint32_t min = 0, uint32_t max = 0) {
  VkPipelineShaderStageNumWavesCreateInfoBISMUTH r{};
  r.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_NUM_WAVES_CREATE_INFO_BISMUTH;
  r.numWaves = num_waves;
  r.minWaveSize = min;
  r.maxWaveSize = max;
  r.flags = flags;
  return r;
}

VkPipelineNumWavesPropertiesBISMUTH properties_of(Fixture& f, VkPipeline pipeline) {
  VkPipelineNumWavesPropertiesBISMUTH p{};
  p.sType = VK_STRUCTURE_TYPE_PIPELINE_NUM_WAVES_PROPERTIES_BISMUTH;
  REQUIRE(f.query(f.vk.device(), pipeline, &p) == VK_SUCCESS);
  return p;
}

bool has_bismuth_message(const LayerVulkan& vk, const std::string& id, const std::string& text = "") {
  for (const auto& m : vk.bismuth_messages())
    if (m.id == id && m.text.find(text) != std::string::npos) return true;
  return false;
}

// Dispatches `groups` groups and checks every (group, wave, lane) slot against the committed properties.
void check_dispatch(Fixture& f, VkPipeline pipeline, const VkPipelineNumWavesPropertiesBISMUTH& p, uint32_t groups) {
  const uint32_t slots = groups * p.numWaves * p.waveSize;
  auto& out = f.vk.buffer(uint64_t{slots} * 16);
  std::fill(out.data, out.data + 4 * slots, 0xffffffffu);
  const VkDescriptorSet set = f.vk.descriptor_set(f.layout, {&out});
  f.vk.run([&](VkCommandBuffer cb) {
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, f.layout, 0, 1, &set, 0, nullptr);
    vkCmdDispatch(cb, groups, 1, 1);
  });
  uint32_t wrong = 0;
  for (uint32_t slot = 0; slot < slots; ++slot) {
    const uint32_t wave = slot / p.waveSize % p.numWaves, lane = slot % p.waveSize;
    const uint32_t* r = &out.data[4 * slot];
    if (r[0] != wave || r[1] != lane || r[2] != p.waveSize || r[3] != (p.numWaves | (p.groupSize[0] << 16))) {
      if (wrong++ < 4) UNSCOPED_INFO("slot " << slot << ": " << r[0] << " " << r[1] << " " << r[2] << " " << r[3]);
    }
  }
  CHECK(wrong == 0);
}

static_assert(sizeof(VkPhysicalDeviceNumWavesFeaturesBISMUTH) == 24, "VK_LAYER_CUSTOM_STYPE_LIST in layer_vulkan.cpp");
static_assert(sizeof(VkPipelineShaderStageNumWavesCreateInfoBISMUTH) == 40, "VK_LAYER_CUSTOM_STYPE_LIST");
static_assert(sizeof(VkPipelineNumWavesPropertiesBISMUTH) == 48, "VK_LAYER_CUSTOM_STYPE_LIST");

}  // namespace

TEST_CASE("VK_BISMUTH_num_waves is advertised and its feature reported") {
  const Order order = GENERATE(Order::ValidationAboveBismuth, Order::ValidationBelowBismuth);
  INFO(to_string(order));
  LayerVulkan vk(order);
  CHECK(vk.has_device_extension(VK_BISMUTH_NUM_WAVES_EXTENSION_NAME));
  CHECK(vk.has_device_extension(VK_BISMUTH_NUM_WAVES_EXTENSION_NAME, "VK_LAYER_BISMUTH_compute"));
  VkPhysicalDeviceNumWavesFeaturesBISMUTH f{};
  f.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_NUM_WAVES_FEATURES_BISMUTH;
  VkPhysicalDeviceFeatures2 features{};
  features.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
  features.pNext = &f;
  vkGetPhysicalDeviceFeatures2(vk.physical_device(), &features);
  CHECK(f.numWaves == VK_TRUE);  // Vulkan 1.1 devices with basic subgroup operations in compute
  CHECK(features.pNext == &f);
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("numWaves pipelines run X full waves of the committed size, which the query reports") {
  const Order order = GENERATE(Order::ValidationAboveBismuth, Order::ValidationBelowBismuth);
  const uint32_t num_waves = GENERATE(1u, 2u, 4u, 7u);
  INFO(to_string(order) << ", " << num_waves << " waves");
  Fixture f(order);
  clear_spied_modules();
  VkPipelineShaderStageNumWavesCreateInfoBISMUTH r =
      request(num_waves, VK_NUM_WAVES_CREATE_REPORT_WAVE_SIZE_BIT_BISMUTH);
  VkPipeline pipeline;
  REQUIRE(f.create(r, &pipeline) == VK_SUCCESS);
  const auto p = properties_of(f, pipeline);
  // The spec's rules: one size of the device's set (subgroupSize without size control), the group X * w wide.
  CHECK(p.numWaves == num_waves);
  CHECK(p.groupSize[0] == num_waves * p.waveSize);
  CHECK(p.groupSize[1] == 1);
  CHECK(p.groupSize[2] == 1);
  CHECK(p.waveSize >= f.subgroups.min_size);
  CHECK(p.waveSize <= f.subgroups.max_size);
  // No hint, no preference: the device's subgroupSize where it is a candidate.
  CHECK(p.waveSize == f.subgroups.subgroup_size);
  // "The layer enables subgroupSizeControl and computeFullSubgroups where the device supports them."
  CHECK(p.requiredSubgroupSize == (f.subgroups.size_control ? VK_TRUE : VK_FALSE));
  CHECK(p.fullSubgroups == (f.subgroups.size_control ? VK_TRUE : VK_FALSE));
  // What reached the driver: the application's module, then the layer's specialized copy, both valid.
  const auto spied = spied_modules();
  REQUIRE(spied.size() >= 1);
  const auto valid = spirv_patch::validate(spied.back(), spirv_patch::TargetEnv::Vulkan1_1);
  INFO((valid ? std::string() : valid.error().message));
  CHECK(valid);
  check_dispatch(f, pipeline, p, 3);
  vkDestroyPipeline(f.vk.device(), pipeline, nullptr);
  REQUIRE_NO_VALIDATION_MESSAGES(f.vk);
  CHECK(f.vk.bismuth_messages().empty());
}

TEST_CASE("numWaves binds the HLSL front's marker variables to the subgroup built-ins") {
  const Order order = GENERATE(Order::ValidationAboveBismuth, Order::ValidationBelowBismuth);
  INFO(to_string(order));
  Fixture f(order);
  f.module = f.vk.module(compile(kMarkerShader));
  clear_spied_modules();
  VkPipeline pipeline;
  REQUIRE(f.create(request(3, VK_NUM_WAVES_CREATE_REPORT_WAVE_SIZE_BIT_BISMUTH), &pipeline) == VK_SUCCESS);
  const auto spied = spied_modules();
  REQUIRE(spied.size() == 1);  // the layer's specialized copy
  const auto valid = spirv_patch::validate(spied.back(), spirv_patch::TargetEnv::Vulkan1_1);
  INFO((valid ? std::string() : valid.error().message));
  CHECK(valid);
  check_dispatch(f, pipeline, properties_of(f, pipeline), 2);
  vkDestroyPipeline(f.vk.device(), pipeline, nullptr);
  REQUIRE_NO_VALIDATION_MESSAGES(f.vk);
}

TEST_CASE("the layer enables subgroup size control in the application's Vulkan 1.3 feature structure") {
  // VUID-VkDeviceCreateInfo-pNext-02830: with VkPhysicalDeviceVulkan13Features in the chain the layer must not add
  // VkPhysicalDeviceSubgroupSizeControlFeatures; it sets the members for the call and gives the structure back.
  const Order order = GENERATE(Order::ValidationAboveBismuth, Order::ValidationBelowBismuth);
  INFO(to_string(order));
  {
    LayerVulkan probe(order, false, VK_API_VERSION_1_3);
    VkPhysicalDeviceProperties properties;
    vkGetPhysicalDeviceProperties(probe.physical_device(), &properties);
    if (properties.apiVersion < VK_API_VERSION_1_3) {
      WARN("not checked: the device is not Vulkan 1.3");
      return;
    }
  }
  VkPhysicalDeviceVulkan13Features f13{};
  f13.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES;
  Fixture f(order, VK_API_VERSION_1_3, &f13);
  CHECK(f13.subgroupSizeControl == VK_FALSE);  // restored after vkCreateDevice
  CHECK(f13.computeFullSubgroups == VK_FALSE);
  VkPipeline pipeline;
  REQUIRE(f.create(request(2, VK_NUM_WAVES_CREATE_REPORT_WAVE_SIZE_BIT_BISMUTH), &pipeline) == VK_SUCCESS);
  const auto p = properties_of(f, pipeline);
  CHECK(p.requiredSubgroupSize == (f.subgroups.size_control ? VK_TRUE : VK_FALSE));
  check_dispatch(f, pipeline, p, 2);
  vkDestroyPipeline(f.vk.device(), pipeline, nullptr);
  REQUIRE_NO_VALIDATION_MESSAGES(f.vk);
}

TEST_CASE("numWaves hints choose the smallest or the largest size of the device's range") {
  const Order order = GENERATE(Order::ValidationAboveBismuth, Order::ValidationBelowBismuth);
  INFO(to_string(order));
  Fixture f(order);
  // Candidates: powers of two in [minSubgroupSize, maxSubgroupSize] with 2 * w <= maxComputeWorkGroupInvocations.
  uint32_t smallest = 1;
  while (smallest < f.subgroups.min_size) smallest *= 2;
  uint32_t largest = smallest;
  while (largest * 2 <= f.subgroups.max_size && 2 * largest * 2 <= f.subgroups.max_invocations) largest *= 2;
  for (auto [hint, expected] : {std::pair{VK_NUM_WAVES_CREATE_PREFER_SMALL_WAVE_SIZE_BIT_BISMUTH, smallest},
                                std::pair{VK_NUM_WAVES_CREATE_PREFER_LARGE_WAVE_SIZE_BIT_BISMUTH, largest}}) {
    VkPipeline pipeline;
    REQUIRE(f.create(request(2, VK_NUM_WAVES_CREATE_REPORT_WAVE_SIZE_BIT_BISMUTH | hint), &pipeline) == VK_SUCCESS);
    const auto p = properties_of(f, pipeline);
    CHECK(p.waveSize == (f.subgroups.size_control ? expected : f.subgroups.subgroup_size));
    check_dispatch(f, pipeline, p, 2);
    vkDestroyPipeline(f.vk.device(), pipeline, nullptr);
  }
  // A range of exactly one supported size commits to it.
  VkPipeline pipeline;
  REQUIRE(f.create(request(3, VK_NUM_WAVES_CREATE_REPORT_WAVE_SIZE_BIT_BISMUTH, f.subgroups.subgroup_size,
                           f.subgroups.subgroup_size),
                   &pipeline) == VK_SUCCESS);
  CHECK(properties_of(f, pipeline).waveSize == f.subgroups.subgroup_size);
  vkDestroyPipeline(f.vk.device(), pipeline, nullptr);
  REQUIRE_NO_VALIDATION_MESSAGES(f.vk);
}

TEST_CASE("an impossible numWaves request fails with VK_ERROR_FEATURE_NOT_PRESENT and says why") {
  const Order order = GENERATE(Order::ValidationAboveBismuth, Order::ValidationBelowBismuth);
  INFO(to_string(order));
  Fixture f(order);
  VkPipeline pipeline;
  // A size above the device's largest; then more waves than maxComputeWorkGroupInvocations allows.
  const uint32_t too_large = f.subgroups.max_size * 2;
  CHECK(f.create(request(1, 0, too_large, too_large), &pipeline) == VK_ERROR_FEATURE_NOT_PRESENT);
  CHECK(pipeline == VK_NULL_HANDLE);
  const std::string range = "[" + std::to_string(too_large) + "," + std::to_string(too_large) + "]";
  CHECK(has_bismuth_message(f.vk, "BISMUTH-num-waves-unsupported", "cannot honour 1 waves of size in " + range));
  const uint32_t too_many = f.subgroups.max_invocations / f.subgroups.min_size + 1;
  CHECK(f.create(request(too_many, 0), &pipeline) == VK_ERROR_FEATURE_NOT_PRESENT);
  CHECK(has_bismuth_message(f.vk, "BISMUTH-num-waves-unsupported",
                            "max invocations " + std::to_string(f.subgroups.max_invocations)));
  REQUIRE_NO_VALIDATION_MESSAGES(f.vk);
}

TEST_CASE("numWaves valid usage violations are reported with their VUID") {
  const Order order = GENERATE(Order::ValidationAboveBismuth, Order::ValidationBelowBismuth);
  INFO(to_string(order));
  Fixture f(order);
  VkPipeline pipeline;
  CHECK(f.create(request(0, 0), &pipeline) == VK_ERROR_UNKNOWN);
  CHECK(has_bismuth_message(f.vk, "VUID-VkPipelineShaderStageNumWavesCreateInfoBISMUTH-numWaves-10101"));
  CHECK(f.create(request(1, 0, 64, 32), &pipeline) == VK_ERROR_UNKNOWN);
  CHECK(has_bismuth_message(f.vk, "VUID-VkPipelineShaderStageNumWavesCreateInfoBISMUTH-minWaveSize-10103"));
  CHECK(f.create(request(1, 0, 24, 0), &pipeline) == VK_ERROR_UNKNOWN);
  CHECK(has_bismuth_message(f.vk, "VUID-VkPipelineShaderStageNumWavesCreateInfoBISMUTH-minWaveSize-10102"));
  CHECK(f.create(request(1, VK_NUM_WAVES_CREATE_PREFER_SMALL_WAVE_SIZE_BIT_BISMUTH |
                                VK_NUM_WAVES_CREATE_PREFER_LARGE_WAVE_SIZE_BIT_BISMUTH),
                 &pipeline) == VK_ERROR_UNKNOWN);
  CHECK(has_bismuth_message(f.vk, "VUID-VkPipelineShaderStageNumWavesCreateInfoBISMUTH-flags-10105"));

  // The query needs REPORT_WAVE_SIZE at creation.
  REQUIRE(f.create(request(1, 0), &pipeline) == VK_SUCCESS);
  VkPipelineNumWavesPropertiesBISMUTH p{};
  p.sType = VK_STRUCTURE_TYPE_PIPELINE_NUM_WAVES_PROPERTIES_BISMUTH;
  CHECK(f.query(f.vk.device(), pipeline, &p) == VK_ERROR_UNKNOWN);
  CHECK(has_bismuth_message(f.vk, "VUID-vkGetPipelineNumWavesPropertiesBISMUTH-pipeline-10110"));
  vkDestroyPipeline(f.vk.device(), pipeline, nullptr);
  REQUIRE_NO_VALIDATION_MESSAGES(f.vk);
}

TEST_CASE("without VK_BISMUTH_num_waves enabled the query is not available") {
  LayerVulkan vk(Order::ValidationBelowBismuth);
  vk.create_device({});
  CHECK(vkGetDeviceProcAddr(vk.device(), "vkGetPipelineNumWavesPropertiesBISMUTH") == nullptr);
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}
