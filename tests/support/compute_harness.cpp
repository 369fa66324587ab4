#include "support/compute_harness.hpp"

#include <cstring>

namespace bismuth::test {

namespace {

Error vk_error(const char* call, VkResult result) {
  return Error{std::string(call) + " failed: VkResult " + std::to_string(static_cast<int>(result)),
               static_cast<int64_t>(result)};
}

}  // namespace

Expected<std::unique_ptr<ComputeDevice>> ComputeDevice::create(ValidatedVulkan& vk) {
  std::unique_ptr<ComputeDevice> self(new ComputeDevice());
  const auto& info = vk.selected_device();
  self->physical_ = info.handle;

  uint32_t family_count = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(self->physical_, &family_count, nullptr);
  std::vector<VkQueueFamilyProperties> families(family_count);
  vkGetPhysicalDeviceQueueFamilyProperties(self->physical_, &family_count, families.data());
  bool found = false;
  for (uint32_t i = 0; i < family_count; ++i) {
    if (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT) {
      self->queue_family_ = i;
      found = true;
      break;
    }
  }
  if (!found) return fail("no compute queue on " + info.name);

  const bool vulkan13 = info.api_version >= VK_API_VERSION_1_3 && vk.instance().api_version() >= VK_API_VERSION_1_3;
  VkPhysicalDeviceVulkan13Features supported13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  VkPhysicalDeviceFeatures2 supported{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  if (vulkan13) supported.pNext = &supported13;
  vkGetPhysicalDeviceFeatures2(self->physical_, &supported);

  VkPhysicalDeviceVulkan13Features enabled13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  enabled13.subgroupSizeControl = supported13.subgroupSizeControl;
  enabled13.computeFullSubgroups = supported13.computeFullSubgroups;
  enabled13.maintenance4 = supported13.maintenance4;
  VkPhysicalDeviceFeatures2 enabled{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  enabled.features.shaderInt64 = supported.features.shaderInt64;
  if (vulkan13) enabled.pNext = &enabled13;
  self->maintenance4_ = vulkan13 && supported13.maintenance4;
  self->subgroup_size_control_ = vulkan13 && supported13.subgroupSizeControl;

  const float priority = 1.0f;
  VkDeviceQueueCreateInfo queue_info{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queue_info.queueFamilyIndex = self->queue_family_;
  queue_info.queueCount = 1;
  queue_info.pQueuePriorities = &priority;
  VkDeviceCreateInfo device_info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  device_info.pNext = &enabled;
  device_info.queueCreateInfoCount = 1;
  device_info.pQueueCreateInfos = &queue_info;
  if (VkResult r = vkCreateDevice(self->physical_, &device_info, nullptr, &self->device_); r != VK_SUCCESS) {
    return vk_error("vkCreateDevice", r);
  }
  volkLoadDeviceTable(&self->vk_, self->device_);
  self->vk_.vkGetDeviceQueue(self->device_, self->queue_family_, 0, &self->queue_);
  return self;
}

ComputeDevice::~ComputeDevice() { reset(); }

void ComputeDevice::reset() {
  if (device_ != VK_NULL_HANDLE) vk_.vkDestroyDevice(device_, nullptr);
  device_ = VK_NULL_HANDLE;
}

Expected<std::vector<uint32_t>> ComputeDevice::run(const ComputeDispatch& dispatch) {
  if (device_ == VK_NULL_HANDLE) return fail("ComputeDevice::run after reset()");
  // Every object of this dispatch, destroyed in reverse order on every path.
  struct Objects {
    const VolkDeviceTable& vk;
    VkDevice device;
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    VkShaderModule module = VK_NULL_HANDLE;
    VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
    VkPipelineLayout layout = VK_NULL_HANDLE;
    VkPipeline pipeline = VK_NULL_HANDLE;
    VkDescriptorPool pool = VK_NULL_HANDLE;
    VkCommandPool command_pool = VK_NULL_HANDLE;
    VkFence fence = VK_NULL_HANDLE;
    ~Objects() {
      if (fence) vk.vkDestroyFence(device, fence, nullptr);
      if (command_pool) vk.vkDestroyCommandPool(device, command_pool, nullptr);
      if (pool) vk.vkDestroyDescriptorPool(device, pool, nullptr);
      if (pipeline) vk.vkDestroyPipeline(device, pipeline, nullptr);
      if (layout) vk.vkDestroyPipelineLayout(device, layout, nullptr);
      if (set_layout) vk.vkDestroyDescriptorSetLayout(device, set_layout, nullptr);
      if (module) vk.vkDestroyShaderModule(device, module, nullptr);
      if (buffer) vk.vkDestroyBuffer(device, buffer, nullptr);
      if (memory) vk.vkFreeMemory(device, memory, nullptr);
    }
  } o{vk_, device_};

  const VkDeviceSize size = std::max<size_t>(dispatch.buffer.size(), 1) * sizeof(uint32_t);
  VkBufferCreateInfo buffer_info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  buffer_info.size = size;
  buffer_info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  if (VkResult r = vk_.vkCreateBuffer(device_, &buffer_info, nullptr, &o.buffer); r) return vk_error("vkCreateBuffer", r);
  VkMemoryRequirements requirements;
  vk_.vkGetBufferMemoryRequirements(device_, o.buffer, &requirements);
  VkPhysicalDeviceMemoryProperties memory_properties;
  vkGetPhysicalDeviceMemoryProperties(physical_, &memory_properties);
  const VkMemoryPropertyFlags wanted = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  uint32_t type_index = UINT32_MAX;
  for (uint32_t i = 0; i < memory_properties.memoryTypeCount; ++i) {
    if ((requirements.memoryTypeBits & (1u << i)) && (memory_properties.memoryTypes[i].propertyFlags & wanted) == wanted) {
      type_index = i;
      break;
    }
  }
  if (type_index == UINT32_MAX) return fail("no host-visible coherent memory type");
  VkMemoryAllocateInfo allocate{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  allocate.allocationSize = requirements.size;
  allocate.memoryTypeIndex = type_index;
  if (VkResult r = vk_.vkAllocateMemory(device_, &allocate, nullptr, &o.memory); r) return vk_error("vkAllocateMemory", r);
  if (VkResult r = vk_.vkBindBufferMemory(device_, o.buffer, o.memory, 0); r) return vk_error("vkBindBufferMemory", r);
  void* mapped = nullptr;
  if (VkResult r = vk_.vkMapMemory(device_, o.memory, 0, size, 0, &mapped); r) return vk_error("vkMapMemory", r);
  std::memset(mapped, 0, size);
  std::memcpy(mapped, dispatch.buffer.data(), dispatch.buffer.size() * sizeof(uint32_t));

  VkShaderModuleCreateInfo module_info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  module_info.codeSize = dispatch.spirv.size() * sizeof(uint32_t);
  module_info.pCode = dispatch.spirv.data();
  if (VkResult r = vk_.vkCreateShaderModule(device_, &module_info, nullptr, &o.module); r) {
    return vk_error("vkCreateShaderModule", r);
  }
  VkDescriptorSetLayoutBinding binding{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
  VkDescriptorSetLayoutCreateInfo set_layout_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  set_layout_info.bindingCount = 1;
  set_layout_info.pBindings = &binding;
  if (VkResult r = vk_.vkCreateDescriptorSetLayout(device_, &set_layout_info, nullptr, &o.set_layout); r) {
    return vk_error("vkCreateDescriptorSetLayout", r);
  }
  VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  layout_info.setLayoutCount = 1;
  layout_info.pSetLayouts = &o.set_layout;
  if (VkResult r = vk_.vkCreatePipelineLayout(device_, &layout_info, nullptr, &o.layout); r) {
    return vk_error("vkCreatePipelineLayout", r);
  }

  std::vector<VkSpecializationMapEntry> entries;
  std::vector<uint32_t> values;
  for (auto [spec_id, value] : dispatch.specialization) {
    entries.push_back({spec_id, static_cast<uint32_t>(values.size() * sizeof(uint32_t)), sizeof(uint32_t)});
    values.push_back(value);
  }
  VkSpecializationInfo specialization{static_cast<uint32_t>(entries.size()), entries.data(),
                                      values.size() * sizeof(uint32_t), values.data()};
  VkPipelineShaderStageRequiredSubgroupSizeCreateInfo subgroup_size{
      VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO};
  VkComputePipelineCreateInfo pipeline_info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  pipeline_info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  pipeline_info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  pipeline_info.stage.module = o.module;
  pipeline_info.stage.pName = dispatch.entry_point.c_str();
  pipeline_info.stage.pSpecializationInfo = entries.empty() ? nullptr : &specialization;
  if (dispatch.required_subgroup_size) {
    if (!subgroup_size_control_) return fail("required subgroup size asked for but subgroupSizeControl is off");
    subgroup_size.requiredSubgroupSize = *dispatch.required_subgroup_size;
    pipeline_info.stage.pNext = &subgroup_size;
  }
  pipeline_info.layout = o.layout;
  if (VkResult r = vk_.vkCreateComputePipelines(device_, VK_NULL_HANDLE, 1, &pipeline_info, nullptr, &o.pipeline); r) {
    return vk_error("vkCreateComputePipelines", r);
  }

  VkDescriptorPoolSize pool_size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1};
  VkDescriptorPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  pool_info.maxSets = 1;
  pool_info.poolSizeCount = 1;
  pool_info.pPoolSizes = &pool_size;
  if (VkResult r = vk_.vkCreateDescriptorPool(device_, &pool_info, nullptr, &o.pool); r) {
    return vk_error("vkCreateDescriptorPool", r);
  }
  VkDescriptorSetAllocateInfo set_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  set_info.descriptorPool = o.pool;
  set_info.descriptorSetCount = 1;
  set_info.pSetLayouts = &o.set_layout;
  VkDescriptorSet set = VK_NULL_HANDLE;
  if (VkResult r = vk_.vkAllocateDescriptorSets(device_, &set_info, &set); r) return vk_error("vkAllocateDescriptorSets", r);
  VkDescriptorBufferInfo descriptor{o.buffer, 0, VK_WHOLE_SIZE};
  VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
  write.dstSet = set;
  write.descriptorCount = 1;
  write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
  write.pBufferInfo = &descriptor;
  vk_.vkUpdateDescriptorSets(device_, 1, &write, 0, nullptr);

  VkCommandPoolCreateInfo command_pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  command_pool_info.queueFamilyIndex = queue_family_;
  if (VkResult r = vk_.vkCreateCommandPool(device_, &command_pool_info, nullptr, &o.command_pool); r) {
    return vk_error("vkCreateCommandPool", r);
  }
  VkCommandBufferAllocateInfo command_info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  command_info.commandPool = o.command_pool;
  command_info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  command_info.commandBufferCount = 1;
  VkCommandBuffer commands = VK_NULL_HANDLE;
  if (VkResult r = vk_.vkAllocateCommandBuffers(device_, &command_info, &commands); r) {
    return vk_error("vkAllocateCommandBuffers", r);
  }
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  vk_.vkBeginCommandBuffer(commands, &begin);
  vk_.vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, o.pipeline);
  vk_.vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE, o.layout, 0, 1, &set, 0, nullptr);
  vk_.vkCmdDispatch(commands, dispatch.group_count[0], dispatch.group_count[1], dispatch.group_count[2]);
  VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
  vk_.vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &barrier,
                           0, nullptr, 0, nullptr);
  if (VkResult r = vk_.vkEndCommandBuffer(commands); r) return vk_error("vkEndCommandBuffer", r);

  VkFenceCreateInfo fence_info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  if (VkResult r = vk_.vkCreateFence(device_, &fence_info, nullptr, &o.fence); r) return vk_error("vkCreateFence", r);
  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &commands;
  if (VkResult r = vk_.vkQueueSubmit(queue_, 1, &submit, o.fence); r) return vk_error("vkQueueSubmit", r);
  if (VkResult r = vk_.vkWaitForFences(device_, 1, &o.fence, VK_TRUE, UINT64_MAX); r) return vk_error("vkWaitForFences", r);

  std::vector<uint32_t> out(dispatch.buffer.size());
  std::memcpy(out.data(), mapped, out.size() * sizeof(uint32_t));
  vk_.vkUnmapMemory(device_, o.memory);
  return out;
}

}  // namespace bismuth::test
