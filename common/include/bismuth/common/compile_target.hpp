// What a compile needs to know about the device the program will run on: the few device facts that change the
// SPIR-V Bismuth emits. The GL shim reads them from its device (backend::compile_target); `bismuth compile` reads
// them from the device named by --device, or assumes the defaults below, so both give the driver the same words.
#pragma once

#include <cstdint>

namespace bismuth {

// The device features behind GLSL extensions whose built-ins only some Vulkan devices can run (docs/gl_shim.md,
// "Extensions and the device features behind them"). The GLSL front refuses `#extension X : require` of one the
// device lacks and warns on `enable`/`warn`, leaving it off. The defaults allow every one: `bismuth compile`
// without --device has no device to check against.
struct ShaderExtensionSupport {
  bool subgroup_clock = true;  // GL_ARB_shader_clock: shaderSubgroupClock
  bool device_clock = true;    // GL_EXT_shader_realtime_clock: shaderDeviceClock
  // GL_NV_shader_atomic_float / GL_EXT_shader_atomic_float: float atomicAdd and atomicExchange on buffer and shared
  // variables (shaderBuffer/SharedFloat32Atomics and ...AtomicAdd).
  bool float32_atomic_add = true;
  // GL_INTEL_shader_atomic_float_minmax / GL_EXT_shader_atomic_float2: float atomicMin/Max (and atomicExchange) on
  // buffer and shared variables (shaderBuffer/SharedFloat32AtomicMinMax and ...Float32Atomics).
  bool float32_atomic_min_max = true;
  // GL_NV_compute_shader_derivatives (both of its layouts): computeDerivativeGroupQuads and
  // computeDerivativeGroupLinear.
  bool compute_derivatives = true;
  // GL_KHR_shader_subgroup_<feature>: the VK_SUBGROUP_FEATURE_* bits (same values as GL's
  // SUBGROUP_FEATURE_*_BIT_KHR) the device has in compute shaders.
  uint32_t subgroup_features = 0xFF;
  // GL_NV_shader_atomic_int64 / GL_ARB_gpu_shader_int64 atomics on buffer and on shared variables
  // (shaderBufferInt64Atomics, shaderSharedInt64Atomics).
  bool int64_buffer_atomics = true;
  bool int64_shared_atomics = true;
  // GL_EXT_shader_image_load_formatted (imageLoad on an image without a format qualifier):
  // shaderStorageImageReadWithoutFormat. imageStore on a writeonly image without one: ...WriteWithoutFormat.
  bool image_read_without_format = true;
  bool image_write_without_format = true;
};

struct CompileTarget {
  // The driver computes GLSL.std.450 Fma as a multiply and an add (llvmpipe) and has shaderFloat64: GL's fused
  // multiply-adds and NV MAD.F32 are computed in double precision instead.
  bool fma_through_double = false;
  // 32-lane subgroups can be had in compute (the only size, or pinned by subgroup size control): NV thread-group
  // programs load.
  bool subgroup_size_32 = true;
  bool int64_buffer_atomics = false;  // shaderBufferInt64Atomics
  bool storage_buffer_8bit = false;   // storageBuffer8BitAccess
  bool storage_buffer_16bit = false;  // storageBuffer16BitAccess
  // NV assembly images and sparse textures (nvasm::AssembleOptions of the same names):
  bool storage_image_read_without_format = false;   // shaderStorageImageReadWithoutFormat
  bool storage_image_write_without_format = false;  // shaderStorageImageWriteWithoutFormat
  bool sparse_residency = false;                    // shaderResourceResidency
  bool buffer_device_address = false;               // bufferDeviceAddress (NV assembly LOAD / STORE / ATOM)
  bool min_lod = false;                             // shaderResourceMinLod (TXD.LODCLAMP)
  // VK_EXT_shader_atomic_float (nvasm::AssembleOptions of the same names: ATOMIM .F32, native ATOMB.ADD.F32/F64):
  bool image_float32_atomics = false;      // shaderImageFloat32Atomics
  bool image_float32_atomic_add = false;   // shaderImageFloat32AtomicAdd
  bool buffer_float32_atomic_add = false;  // shaderBufferFloat32AtomicAdd
  bool buffer_float64_atomic_add = false;  // shaderBufferFloat64AtomicAdd
  // maxUniformBufferRange: NV assembly parameter buffers (program.buffer) read this much, at most 64 KiB
  // (nvasm::AssembleOptions::parameter_buffer_bytes). 16384, Vulkan's minimum, without a device.
  uint32_t max_uniform_buffer_range = 16384;
  ShaderExtensionSupport extensions;
};

}  // namespace bismuth
