// Device's samplers by value and by handle (Device::sampler; sampler.cpp). Entries are never removed before the
// device is destroyed: a sampler may be in a descriptor of any batch still in flight.
#pragma once

#include <mutex>
#include <unordered_map>

#include "bismuth/backend/sampler.hpp"

namespace bismuth::backend {

struct SamplerCache {
  std::mutex mutex;
  std::unordered_map<SamplerDesc, VkSampler, SamplerDescHash> by_desc;
  std::unordered_map<VkSampler, SamplerDesc> by_handle;
  // ~Device, once the device is idle.
  void destroy_all(const DeviceFunctions& vk, VkDevice device);
};

}  // namespace bismuth::backend
