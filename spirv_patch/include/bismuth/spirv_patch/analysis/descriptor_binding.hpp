// Descriptor bindings and push constants of an entry point, as the runtime needs them to build descriptor set and
// pipeline layouts. Filled from SPIRV-Cross's reflection (reflection.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bismuth::spirv_patch {

enum class DescriptorType {
  UniformBuffer,
  StorageBuffer,
  SampledImage,        // combined image sampler
  SeparateImage,       // texture2D etc.
  SeparateSampler,
  StorageImage,
  UniformTexelBuffer,
  StorageTexelBuffer,
  AccelerationStructure,
};

std::string_view to_string(DescriptorType type);

struct DescriptorBinding {
  uint32_t set = 0;
  uint32_t binding = 0;
  DescriptorType type = DescriptorType::StorageBuffer;
  // Descriptors in the binding: 1 for a plain variable, the product of the array dimensions for an array, 0 for a
  // runtime-sized array.
  uint32_t array_size = 1;
  // Declared access (NonWritable / NonReadable on the variable or on every block member): readonly buffers and
  // images are not writable, writeonly ones not readable.
  bool readable = true;
  bool writable = true;
  std::string name;
};

struct PushConstantBlock {
  uint32_t size = 0;  // declared size of the block in bytes
  std::string name;
};

struct EntryPointResources {
  std::vector<DescriptorBinding> bindings;  // sorted by (set, binding)
  std::optional<PushConstantBlock> push_constants;
};

}  // namespace bismuth::spirv_patch
