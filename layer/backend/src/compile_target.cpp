#include "bismuth/backend/compile_target.hpp"

#include <string>

#include "bismuth/backend/device.hpp"

namespace bismuth::backend {

namespace {

// Whether the driver computes GLSL.std.450 Fma as a separate multiply and add (llvmpipe does).
bool splits_fused_multiply_add(const Device& device) {
  const DeviceInfo& d = device.info();
  return d.driver_name.find("llvmpipe") != std::string::npos || d.name.find("llvmpipe") != std::string::npos;
}

}  // namespace

std::optional<uint32_t> subgroup_size_32_requirement(const Device& device) {
  const DeviceInfo& d = device.info();
  if (d.min_subgroup_size == 32 && d.max_subgroup_size == 32 && d.subgroup_size == 32) return 0u;
  if (device.features().subgroup_size_control && (d.required_subgroup_size_stages & VK_SHADER_STAGE_COMPUTE_BIT) &&
      d.min_subgroup_size <= 32 && d.max_subgroup_size >= 32) {
    return 32u;
  }
  return std::nullopt;
}

ShaderExtensionSupport shader_extension_support(const Device& device) {
  const DeviceFeatures& f = device.features();
  ShaderExtensionSupport e;
  e.subgroup_clock = f.shader_subgroup_clock;
  e.device_clock = f.shader_device_clock;
  const bool float_exchange = f.float32_buffer_atomics && f.float32_shared_atomics;
  e.float32_atomic_add = float_exchange && f.float32_buffer_atomic_add && f.float32_shared_atomic_add;
  e.float32_atomic_min_max = float_exchange && f.float32_buffer_atomic_min_max && f.float32_shared_atomic_min_max;
  e.compute_derivatives = f.compute_derivative_group_quads && f.compute_derivative_group_linear;
  e.subgroup_features = device.info().compute_subgroup_operations();
  e.int64_buffer_atomics = f.int64_buffer_atomics;
  e.int64_shared_atomics = f.int64_shared_atomics;
  // shaderStorageImageReadWithoutFormat / WriteWithoutFormat: the device is created without them (DeviceFeatures
  // has neither yet), so no module may use formatless image loads or stores.
  e.image_read_without_format = false;
  e.image_write_without_format = false;
  return e;
}

CompileTarget compile_target(const Device& device) {
  const DeviceFeatures& f = device.features();
  CompileTarget target;
  target.fma_through_double = splits_fused_multiply_add(device) && f.shader_float64;
  target.subgroup_size_32 = subgroup_size_32_requirement(device).has_value();
  target.int64_buffer_atomics = f.int64_buffer_atomics;
  target.storage_buffer_8bit = f.storage_buffer_8bit;
  target.storage_buffer_16bit = f.storage_buffer_16bit;
  target.buffer_device_address = f.buffer_device_address;
  target.min_lod = f.resource_min_lod;
  target.image_float32_atomics = f.float32_image_atomics;
  target.image_float32_atomic_add = f.float32_image_atomic_add;
  target.buffer_float32_atomic_add = f.float32_buffer_atomic_add;
  target.buffer_float64_atomic_add = f.float64_buffer_atomic_add;
  target.max_uniform_buffer_range = device.info().max_uniform_buffer_range;
  target.extensions = shader_extension_support(device);
  return target;
}

}  // namespace bismuth::backend
