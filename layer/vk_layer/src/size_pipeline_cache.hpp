// The backend objects behind VK_BISMUTH_variable_group_size on one device (docs/layer.md, "Size pipelines"): the
// application's VkDevice adopted into a backend::Device that never submits (ExternalDevice::no_submissions), and
// the backend's PipelineCache on it. Only the translation units that talk to the backend include this header (it
// brings in the backend's headers and through them volk.h).
#pragma once

#include <memory>

#include "bismuth/backend/device.hpp"
#include "bismuth/backend/pipeline_cache.hpp"
#include "bismuth/backend/shader.hpp"

namespace bismuth::vk_layer {

struct SizePipelineCache {
  std::unique_ptr<backend::Device> device;
  std::unique_ptr<backend::PipelineCache> cache;
  size_t prewarm_sizes = 0;  // BISMUTH_PREWARM: how many sizes to prewarm per variable-size pipeline (0: none)
  ~SizePipelineCache() {
    cache.reset();  // saves the file, prints BISMUTH_STATS, destroys the remaining pipelines
    device.reset();
  }
};

}  // namespace bismuth::vk_layer
