// Device's descriptor set and pipeline layouts by description (Device::pipeline_layouts; pipeline_layouts.cpp).
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <vector>

#include "bismuth/backend/device.hpp"

namespace bismuth::backend {

struct PipelineLayoutCache {
  // At most this many descriptions are kept; past it each shader makes (and destroys) its own pair. Real programs
  // use a handful (a description is binding types, counts and push-constant bytes), so the bound only stops a
  // generator of endless array sizes from growing the map without end.
  static constexpr size_t kMaxEntries = 4096;
  std::mutex mutex;
  // The key: BindingLayout::description.
  std::map<std::vector<uint32_t>, Device::PipelineLayouts> by_desc;
  // ~Device, once the device is idle and every pipeline is gone.
  void destroy_all(const DeviceFunctions& vk, VkDevice device);
};

}  // namespace bismuth::backend
