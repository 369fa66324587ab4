// What a linked module asks of the device beyond the features every Bismuth device has. A program the device
// cannot run fails glLinkProgram with a log that names the missing feature, instead of reaching
// vkCreateComputePipelines with a module the driver may reject or crash on.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "bismuth/backend/device.hpp"

namespace bismuth::gl {

// The first feature `words` needs that `features` lacks, as a sentence for the info log; empty when the device has
// them all. Checked: 64-bit integer atomics on storage buffers (shaderBufferInt64Atomics) and on shared variables
// (shaderSharedInt64Atomics), GL_NV_shader_atomic_int64 / GL_ARB_gpu_shader_int64.
std::string missing_device_feature(std::span<const uint32_t> words, const backend::DeviceFeatures& features);

}  // namespace bismuth::gl
