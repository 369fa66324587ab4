// The shader features behind device-gated GL extensions (GL_ARB_shader_clock, GL_NV_shader_atomic_float,
// GL_INTEL_shader_atomic_float_minmax, GL_NV_compute_shader_derivatives, GL_KHR_shader_subgroup): Device::create
// enables each exactly where the physical device reports it (asked here straight from Vulkan, not through the
// backend's description), and backend::shader_extension_support derives the GLSL extensions from what is enabled.
// The validation layer checks that nothing unsupported was enabled (VUID-VkDeviceCreateInfo-pNext-*) and that every
// extension a feature struct needs is in the list.
#include <algorithm>
#include <string>
#include <vector>

#include "backend_fixture.hpp"
#include "bismuth/backend/compile_target.hpp"

using namespace bismuth;
using namespace bismuth::backend;
using bismuth::test::ValidatedVulkan;

namespace {

// The device's extensions, straight from vkEnumerateDeviceExtensionProperties.
bool device_has_extension(const Device& device, const char* name) {
  uint32_t count = 0;
  device.vki().vkEnumerateDeviceExtensionProperties(device.physical_device(), nullptr, &count, nullptr);
  std::vector<VkExtensionProperties> properties(count);
  device.vki().vkEnumerateDeviceExtensionProperties(device.physical_device(), nullptr, &count, properties.data());
  return std::any_of(properties.begin(), properties.end(),
                     [&](const VkExtensionProperties& p) { return std::string(p.extensionName) == name; });
}

struct QueriedFeatures {
  VkPhysicalDeviceShaderClockFeaturesKHR clock{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CLOCK_FEATURES_KHR};
  VkPhysicalDeviceShaderAtomicFloatFeaturesEXT atomic_float{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT};
  VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT atomic_float2{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_2_FEATURES_EXT};
  VkPhysicalDeviceComputeShaderDerivativesFeaturesNV derivatives{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COMPUTE_SHADER_DERIVATIVES_FEATURES_NV};
  bool has_clock = false, has_float = false, has_float2 = false, has_derivatives = false;
};

// Vulkan 1.3 spec, "Features": a feature structure may be chained only where its extension is supported, so each
// struct is asked only when the device lists the extension (a missing one reads as all-false).
QueriedFeatures query_features(const Device& device) {
  QueriedFeatures q;
  q.has_clock = device_has_extension(device, VK_KHR_SHADER_CLOCK_EXTENSION_NAME);
  q.has_float = device_has_extension(device, VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME);
  q.has_float2 = device_has_extension(device, VK_EXT_SHADER_ATOMIC_FLOAT_2_EXTENSION_NAME);
  q.has_derivatives = device_has_extension(device, VK_NV_COMPUTE_SHADER_DERIVATIVES_EXTENSION_NAME);
  VkPhysicalDeviceFeatures2 features2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  void** next = &features2.pNext;
  auto chain = [&](auto& s) {
    *next = &s;
    next = &s.pNext;
  };
  if (q.has_clock) chain(q.clock);
  if (q.has_float) chain(q.atomic_float);
  if (q.has_float2) chain(q.atomic_float2);
  if (q.has_derivatives) chain(q.derivatives);
  device.vki().vkGetPhysicalDeviceFeatures2(device.physical_device(), &features2);
  return q;
}

}  // namespace

TEST_CASE("A created device enables shader clock, float atomics and compute derivatives exactly where offered",
          "[vulkan]") {
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk);
    const QueriedFeatures q = query_features(*device);
    const DeviceFeatures& f = device->features();
    CHECK(f.shader_subgroup_clock == bool(q.clock.shaderSubgroupClock));
    CHECK(f.shader_device_clock == bool(q.clock.shaderDeviceClock));
    CHECK(f.float32_buffer_atomics == bool(q.atomic_float.shaderBufferFloat32Atomics));
    CHECK(f.float32_buffer_atomic_add == bool(q.atomic_float.shaderBufferFloat32AtomicAdd));
    CHECK(f.float32_shared_atomics == bool(q.atomic_float.shaderSharedFloat32Atomics));
    CHECK(f.float32_shared_atomic_add == bool(q.atomic_float.shaderSharedFloat32AtomicAdd));
    CHECK(f.float32_image_atomics == bool(q.atomic_float.shaderImageFloat32Atomics));
    CHECK(f.float32_image_atomic_add == bool(q.atomic_float.shaderImageFloat32AtomicAdd));
    CHECK(f.float64_buffer_atomic_add == bool(q.atomic_float.shaderBufferFloat64AtomicAdd));
    VkPhysicalDeviceFeatures2 core{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
    device->vki().vkGetPhysicalDeviceFeatures2(device->physical_device(), &core);
    CHECK(f.resource_min_lod == bool(core.features.shaderResourceMinLod));
    // What the NV assembler is told: the same features (nvasm::AssembleOptions through CompileTarget).
    const CompileTarget target = compile_target(*device);
    CHECK(target.image_float32_atomics == f.float32_image_atomics);
    CHECK(target.image_float32_atomic_add == f.float32_image_atomic_add);
    CHECK(target.buffer_float32_atomic_add == f.float32_buffer_atomic_add);
    CHECK(target.buffer_float64_atomic_add == f.float64_buffer_atomic_add);
    CHECK(target.min_lod == f.resource_min_lod);
    CHECK(f.float32_buffer_atomic_min_max == bool(q.has_float && q.atomic_float2.shaderBufferFloat32AtomicMinMax));
    CHECK(f.float32_shared_atomic_min_max == bool(q.has_float && q.atomic_float2.shaderSharedFloat32AtomicMinMax));
    CHECK(f.compute_derivative_group_quads == bool(q.derivatives.computeDerivativeGroupQuads));
    CHECK(f.compute_derivative_group_linear == bool(q.derivatives.computeDerivativeGroupLinear));
    WARN(device->info().name << ": VK_KHR_shader_clock " << q.has_clock << " (subgroup " << q.clock.shaderSubgroupClock
                             << ", device " << q.clock.shaderDeviceClock << "), VK_EXT_shader_atomic_float "
                             << q.has_float << ", _float2 " << q.has_float2 << ", VK_NV_compute_shader_derivatives "
                             << q.has_derivatives);
  }
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("The device's subgroup properties are described as Vulkan reports them", "[vulkan]") {
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk);
    VkPhysicalDeviceSubgroupProperties subgroup{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
    VkPhysicalDeviceProperties2 properties{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &subgroup};
    device->vki().vkGetPhysicalDeviceProperties2(device->physical_device(), &properties);
    const DeviceInfo& info = device->info();
    CHECK(info.subgroup_size == subgroup.subgroupSize);
    CHECK(info.subgroup_supported_stages == subgroup.supportedStages);
    CHECK(info.subgroup_supported_operations == subgroup.supportedOperations);
    CHECK(info.quad_operations_in_all_stages == bool(subgroup.quadOperationsInAllStages));
  }
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("A GLSL extension is allowed only where every feature it needs is enabled", "[vulkan]") {
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk);
    const DeviceFeatures& f = device->features();
    const ShaderExtensionSupport e = shader_extension_support(*device);
    // ARB_shader_clock reads the clock at Subgroup scope, EXT_shader_realtime_clock at Device scope (SPIR-V
    // OpReadClockKHR; Vulkan: "shaderSubgroupClock indicates whether shaders can perform Subgroup scoped clock
    // reads", "shaderDeviceClock ... Device scoped").
    CHECK(e.subgroup_clock == f.shader_subgroup_clock);
    CHECK(e.device_clock == f.shader_device_clock);
    // NV_shader_atomic_float: atomicAdd and atomicExchange on float buffer and shared variables.
    CHECK(e.float32_atomic_add == (f.float32_buffer_atomics && f.float32_shared_atomics &&
                                   f.float32_buffer_atomic_add && f.float32_shared_atomic_add));
    // INTEL_shader_atomic_float_minmax: atomicMin/Max and atomicExchange on float buffer and shared variables.
    CHECK(e.float32_atomic_min_max == (f.float32_buffer_atomics && f.float32_shared_atomics &&
                                       f.float32_buffer_atomic_min_max && f.float32_shared_atomic_min_max));
    // NV_compute_shader_derivatives has both layouts.
    CHECK(e.compute_derivatives == (f.compute_derivative_group_quads && f.compute_derivative_group_linear));
    // KHR_shader_subgroup_<feature>: the operations the device has in compute.
    const DeviceInfo& info = device->info();
    CHECK(e.subgroup_features ==
          ((info.subgroup_supported_stages & VK_SHADER_STAGE_COMPUTE_BIT) ? info.subgroup_supported_operations : 0u));
    CHECK(compile_target(*device).extensions.subgroup_clock == e.subgroup_clock);
  }
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("An adopted device's GLSL extensions follow what its owner says it enabled", "[vulkan]") {
  ValidatedVulkan vk;
  {
    auto owned = test::make_device(vk);
    // The owner enabled none of the optional shader features: no device-gated extension may be used on it, even
    // where the physical device has them (a module using one would need a feature the VkDevice lacks).
    ExternalDevice external;
    external.instance = vk.instance().handle();
    external.instance_api_version = vk.instance().api_version();
    external.get_instance_proc_addr = vkGetInstanceProcAddr;
    external.physical_device = owned->physical_device();
    external.device = owned->handle();
    external.get_device_proc_addr = owned->vki().vkGetDeviceProcAddr;
    external.queue = owned->queue();
    external.queue_family = owned->queue_family();
    external.enabled.timeline_semaphore = true;
    external.no_submissions = true;
    auto adopted = Device::adopt(external);
    REQUIRE(adopted);
    const ShaderExtensionSupport e = shader_extension_support(**adopted);
    CHECK_FALSE(e.subgroup_clock);
    CHECK_FALSE(e.device_clock);
    CHECK_FALSE(e.float32_atomic_add);
    CHECK_FALSE(e.float32_atomic_min_max);
    CHECK_FALSE(e.compute_derivatives);
  }
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}
