#include "bismuth/spirv_patch/analysis/descriptor_binding.hpp"

namespace bismuth::spirv_patch {

std::string_view to_string(DescriptorType type) {
  switch (type) {
    case DescriptorType::UniformBuffer: return "uniform-buffer";
    case DescriptorType::StorageBuffer: return "storage-buffer";
    case DescriptorType::SampledImage: return "combined-image-sampler";
    case DescriptorType::SeparateImage: return "sampled-image";
    case DescriptorType::SeparateSampler: return "sampler";
    case DescriptorType::StorageImage: return "storage-image";
    case DescriptorType::UniformTexelBuffer: return "uniform-texel-buffer";
    case DescriptorType::StorageTexelBuffer: return "storage-texel-buffer";
    case DescriptorType::AccelerationStructure: return "acceleration-structure";
  }
  return "?";
}

}  // namespace bismuth::spirv_patch
