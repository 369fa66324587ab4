// Device::pipeline_layouts: one descriptor set layout and pipeline layout per description, shared by every shader
// of that description. Identically defined layouts are compatible (Vulkan spec, "Pipeline Layout Compatibility"),
// so a pipeline made with one pair is bound, pushed to and dispatched exactly as with another. A GL program loop
// links thousands of programs of one template; without sharing each link created and each delete destroyed two
// Vulkan objects (several µs of NVIDIA's driver per link, most of a warm link once the module became lazy).
#include <cstdlib>
#include <cstring>

#include "bismuth/backend/shader.hpp"
#include "pipeline_layout_cache.hpp"

namespace bismuth::backend {

namespace {

// BISMUTH_SHARED_LAYOUTS=0: every shader makes its own pair (to measure what sharing saves).
bool sharing_enabled() {
  static const bool enabled = [] {
    const char* value = std::getenv("BISMUTH_SHARED_LAYOUTS");
    return value == nullptr || std::strcmp(value, "0") != 0;
  }();
  return enabled;
}

}  // namespace

Expected<Device::PipelineLayouts> Device::create_pipeline_layouts(const BindingLayout& layout, bool push_descriptors) {
  const uint32_t binding_count = static_cast<uint32_t>(layout.bindings.size());
  std::vector<VkDescriptorSetLayoutBinding> bindings(binding_count);
  for (uint32_t i = 0; i < binding_count; ++i) {
    bindings[i] = {i, layout.bindings[i], layout.count(i), VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
  }
  VkDescriptorSetLayoutCreateInfo set_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  set_info.flags = push_descriptors ? VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR : 0;
  set_info.bindingCount = binding_count;
  set_info.pBindings = bindings.data();
  PipelineLayouts made;
  if (Status ok =
          call("vkCreateDescriptorSetLayout", vk_.vkCreateDescriptorSetLayout, device_, &set_info, nullptr, &made.set);
      !ok) {
    return ok.error();
  }
  VkPushConstantRange push{VK_SHADER_STAGE_COMPUTE_BIT, 0, layout.push_constant_bytes};
  VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  layout_info.setLayoutCount = 1;
  layout_info.pSetLayouts = &made.set;
  layout_info.pushConstantRangeCount = layout.push_constant_bytes > 0 ? 1 : 0;
  layout_info.pPushConstantRanges = &push;
  if (Status ok =
          call("vkCreatePipelineLayout", vk_.vkCreatePipelineLayout, device_, &layout_info, nullptr, &made.pipeline);
      !ok) {
    vk_.vkDestroyDescriptorSetLayout(device_, made.set, nullptr);
    return ok.error();
  }
  return made;
}

Expected<Device::PipelineLayouts> Device::pipeline_layouts(const BindingLayout& layout, bool push_descriptors) {
  if (Status ok = alive(); !ok) return ok.error();
  if (!sharing_enabled()) return create_pipeline_layouts(layout, push_descriptors);
  std::vector<uint32_t> key = layout.description(push_descriptors);
  PipelineLayoutCache& cache = *pipeline_layouts_;
  // Held across the creation: two threads linking the first programs of one template make one pair, not two.
  std::lock_guard lock(cache.mutex);
  if (auto it = cache.by_desc.find(key); it != cache.by_desc.end()) return it->second;
  auto made = create_pipeline_layouts(layout, push_descriptors);
  if (!made || cache.by_desc.size() >= PipelineLayoutCache::kMaxEntries) return made;
  made->shared = true;
  cache.by_desc.emplace(std::move(key), *made);
  return made;
}

size_t Device::pipeline_layout_count() const {
  std::lock_guard lock(pipeline_layouts_->mutex);
  return pipeline_layouts_->by_desc.size();
}

void PipelineLayoutCache::destroy_all(const DeviceFunctions& vk, VkDevice device) {
  std::lock_guard lock(mutex);
  for (auto& [key, layouts] : by_desc) {
    vk.vkDestroyPipelineLayout(device, layouts.pipeline, nullptr);
    vk.vkDestroyDescriptorSetLayout(device, layouts.set, nullptr);
  }
  by_desc.clear();
}

}  // namespace bismuth::backend
