#include "support/buffer_dispatch.hpp"

#include <algorithm>
#include <cstring>

namespace bismuth::test {

namespace {

Error vk_error(const char* call, VkResult result) {
  return Error{std::string(call) + " failed: VkResult " + std::to_string(static_cast<int>(result)),
               static_cast<int64_t>(result)};
}

}  // namespace

Expected<std::unique_ptr<BufferDevice>> BufferDevice::create(ValidatedVulkan& vk) {
  std::unique_ptr<BufferDevice> self(new BufferDevice());
  const auto& info = vk.selected_device();
  self->physical_ = info.handle;
  self->subgroup_size_ = info.subgroup_size;
  self->min_subgroup_ = info.min_subgroup_size;
  self->max_subgroup_ = info.max_subgroup_size;

  uint32_t family_count = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(self->physical_, &family_count, nullptr);
  std::vector<VkQueueFamilyProperties> families(family_count);
  vkGetPhysicalDeviceQueueFamilyProperties(self->physical_, &family_count, families.data());
  bool found = false;
  for (uint32_t i = 0; i < family_count && !found; ++i) {
    if (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT) {
      self->queue_family_ = i;
      found = true;
    }
  }
  if (!found) return fail("no compute queue on " + info.name);

  const bool vulkan13 = info.api_version >= VK_API_VERSION_1_3 && vk.instance().api_version() >= VK_API_VERSION_1_3;
  VkPhysicalDeviceVulkan13Features supported13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  // 64-bit atomics (NV_shader_atomic_int64 and the 64-bit CAS loops of NV assembly's F64 atomics): Vulkan 1.2 core.
  const bool vulkan12 = info.api_version >= VK_API_VERSION_1_2 && vk.instance().api_version() >= VK_API_VERSION_1_2;
  VkPhysicalDeviceShaderAtomicInt64Features supported_atomic64{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_INT64_FEATURES};
  VkPhysicalDeviceBufferDeviceAddressFeatures supported_bda{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES};
  supported_atomic64.pNext = &supported_bda;
  VkPhysicalDeviceFeatures2 supported{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  if (vulkan13) {
    supported13.pNext = vulkan12 ? &supported_atomic64 : nullptr;
    supported.pNext = &supported13;
  } else if (vulkan12) {
    supported.pNext = &supported_atomic64;
  }
  // Native float adds on storage buffers (NV assembly's ATOMB.ADD.F32 / .F64 with the assembler's
  // buffer_float32/64_atomic_add), queried and enabled at the head of the chain.
  VkPhysicalDeviceShaderAtomicFloatFeaturesEXT supported_float{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT};
  if (info.has_shader_atomic_float) {
    supported_float.pNext = supported.pNext;
    supported.pNext = &supported_float;
  }
  vkGetPhysicalDeviceFeatures2(self->physical_, &supported);

  VkPhysicalDeviceVulkan13Features enabled13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  enabled13.subgroupSizeControl = supported13.subgroupSizeControl;
  enabled13.computeFullSubgroups = supported13.computeFullSubgroups;
  enabled13.maintenance4 = supported13.maintenance4;
  VkPhysicalDeviceFeatures2 enabled{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  enabled.features.shaderInt64 = supported.features.shaderInt64;
  enabled.features.shaderFloat64 = supported.features.shaderFloat64;
  VkPhysicalDeviceShaderAtomicInt64Features enabled_atomic64{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_INT64_FEATURES};
  enabled_atomic64.shaderBufferInt64Atomics = vulkan12 && supported_atomic64.shaderBufferInt64Atomics;
  enabled_atomic64.shaderSharedInt64Atomics = vulkan12 && supported_atomic64.shaderSharedInt64Atomics;
  VkPhysicalDeviceBufferDeviceAddressFeatures enabled_bda{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES};
  enabled_bda.bufferDeviceAddress = vulkan12 && supported_bda.bufferDeviceAddress;
  enabled_atomic64.pNext = &enabled_bda;
  if (vulkan13) {
    enabled13.pNext = vulkan12 ? &enabled_atomic64 : nullptr;
    enabled.pNext = &enabled13;
  } else if (vulkan12) {
    enabled.pNext = &enabled_atomic64;
  }
  VkPhysicalDeviceShaderAtomicFloatFeaturesEXT enabled_float{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT};
  enabled_float.shaderBufferFloat32AtomicAdd = supported_float.shaderBufferFloat32AtomicAdd;
  enabled_float.shaderBufferFloat64AtomicAdd = supported_float.shaderBufferFloat64AtomicAdd;
  const char* float_extension = VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME;
  const bool float_adds = enabled_float.shaderBufferFloat32AtomicAdd || enabled_float.shaderBufferFloat64AtomicAdd;
  if (float_adds) {
    enabled_float.pNext = enabled.pNext;
    enabled.pNext = &enabled_float;
  }
  self->float32_buffer_atomic_add_ = enabled_float.shaderBufferFloat32AtomicAdd;
  self->float64_buffer_atomic_add_ = enabled_float.shaderBufferFloat64AtomicAdd;
  self->int64_buffer_atomics_ = enabled_atomic64.shaderBufferInt64Atomics;
  self->int64_shared_atomics_ = enabled_atomic64.shaderSharedInt64Atomics;
  self->buffer_device_address_ = enabled_bda.bufferDeviceAddress && supported.features.shaderInt64;
  self->int64_ = supported.features.shaderInt64;
  self->float64_ = supported.features.shaderFloat64;
  self->size_control_ = vulkan13 && supported13.subgroupSizeControl && supported13.computeFullSubgroups;
  self->maintenance4_ = vulkan13 && supported13.maintenance4;
  self->compute_required_size_ = (info.required_subgroup_size_stages & VK_SHADER_STAGE_COMPUTE_BIT) != 0;

  const float priority = 1.0f;
  VkDeviceQueueCreateInfo queue_info{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queue_info.queueFamilyIndex = self->queue_family_;
  queue_info.queueCount = 1;
  queue_info.pQueuePriorities = &priority;
  VkDeviceCreateInfo device_info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  device_info.pNext = &enabled;
  device_info.queueCreateInfoCount = 1;
  device_info.pQueueCreateInfos = &queue_info;
  if (float_adds) {
    device_info.enabledExtensionCount = 1;
    device_info.ppEnabledExtensionNames = &float_extension;
  }
  if (VkResult r = vkCreateDevice(self->physical_, &device_info, nullptr, &self->device_); r != VK_SUCCESS) {
    return vk_error("vkCreateDevice", r);
  }
  volkLoadDeviceTable(&self->vk_, self->device_);
  self->vk_.vkGetDeviceQueue(self->device_, self->queue_family_, 0, &self->queue_);
  return self;
}

bool BufferDevice::can_run_subgroup_size(uint32_t size) const {
  if (subgroup_size_ == size && min_subgroup_ == max_subgroup_) return true;
  return size_control_ && compute_required_size_ && min_subgroup_ <= size && size <= max_subgroup_;
}

BufferDevice::~BufferDevice() { reset(); }

void BufferDevice::reset() {
  if (device_ != VK_NULL_HANDLE) vk_.vkDestroyDevice(device_, nullptr);
  device_ = VK_NULL_HANDLE;
}

Status BufferDevice::run(MultiBufferDispatch& dispatch) {
  if (device_ == VK_NULL_HANDLE) return fail("BufferDevice::run after reset()");
  struct Resource {
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    void* mapped = nullptr;
    VkDeviceSize size = 0;
  };
  struct Objects {
    const VolkDeviceTable& vk;
    VkDevice device;
    std::vector<Resource> resources;
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
      for (auto& r : resources) {
        if (r.buffer) vk.vkDestroyBuffer(device, r.buffer, nullptr);
        if (r.memory) vk.vkFreeMemory(device, r.memory, nullptr);
      }
    }
  } o{vk_, device_, {}};

  VkPhysicalDeviceMemoryProperties memory_properties;
  vkGetPhysicalDeviceMemoryProperties(physical_, &memory_properties);
  const VkMemoryPropertyFlags wanted = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  std::vector<VkDescriptorSetLayoutBinding> bindings;
  uint32_t storage_count = 0, uniform_count = 0;
  for (auto& b : dispatch.buffers) {
    Resource r;
    r.size = std::max<size_t>(b.words.size(), 4) * sizeof(uint32_t);
    VkBufferCreateInfo buffer_info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    buffer_info.size = r.size;
    buffer_info.usage = b.uniform ? VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT : VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    if (buffer_device_address_) buffer_info.usage |= VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT;
    if (VkResult e = vk_.vkCreateBuffer(device_, &buffer_info, nullptr, &r.buffer); e) return vk_error("vkCreateBuffer", e);
    o.resources.push_back(r);
    Resource& res = o.resources.back();
    VkMemoryRequirements requirements;
    vk_.vkGetBufferMemoryRequirements(device_, res.buffer, &requirements);
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
    VkMemoryAllocateFlagsInfo allocate_flags{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO};
    allocate_flags.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT;
    if (buffer_device_address_) allocate.pNext = &allocate_flags;
    if (VkResult e = vk_.vkAllocateMemory(device_, &allocate, nullptr, &res.memory); e) return vk_error("vkAllocateMemory", e);
    if (VkResult e = vk_.vkBindBufferMemory(device_, res.buffer, res.memory, 0); e) return vk_error("vkBindBufferMemory", e);
    if (VkResult e = vk_.vkMapMemory(device_, res.memory, 0, res.size, 0, &res.mapped); e) return vk_error("vkMapMemory", e);
    std::memset(res.mapped, 0, res.size);
    std::memcpy(res.mapped, b.words.data(), b.words.size() * sizeof(uint32_t));
    bindings.push_back({b.binding, b.uniform ? VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1,
                        VK_SHADER_STAGE_COMPUTE_BIT, nullptr});
    (b.uniform ? uniform_count : storage_count)++;
  }

  for (const AddressWords& a : dispatch.addresses) {
    if (!buffer_device_address_) return fail("device addresses without bufferDeviceAddress");
    if (a.buffer >= o.resources.size() || a.target >= o.resources.size() ||
        (a.word + 2) * sizeof(uint32_t) > o.resources[a.buffer].size) {
      return fail("address words out of range");
    }
    VkBufferDeviceAddressInfo address_info{VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO};
    address_info.buffer = o.resources[a.target].buffer;
    const uint64_t address = vk_.vkGetBufferDeviceAddress(device_, &address_info) + a.offset;
    std::memcpy(static_cast<char*>(o.resources[a.buffer].mapped) + a.word * sizeof(uint32_t), &address, 8);
  }

  VkShaderModuleCreateInfo module_info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  module_info.codeSize = dispatch.spirv.size() * sizeof(uint32_t);
  module_info.pCode = dispatch.spirv.data();
  if (VkResult e = vk_.vkCreateShaderModule(device_, &module_info, nullptr, &o.module); e) {
    return vk_error("vkCreateShaderModule", e);
  }
  VkDescriptorSetLayoutCreateInfo set_layout_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  set_layout_info.bindingCount = static_cast<uint32_t>(bindings.size());
  set_layout_info.pBindings = bindings.data();
  if (VkResult e = vk_.vkCreateDescriptorSetLayout(device_, &set_layout_info, nullptr, &o.set_layout); e) {
    return vk_error("vkCreateDescriptorSetLayout", e);
  }
  const VkPushConstantRange push_range{VK_SHADER_STAGE_COMPUTE_BIT, 0,
                                       static_cast<uint32_t>(dispatch.push_words.size() * sizeof(uint32_t))};
  VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  layout_info.setLayoutCount = 1;
  layout_info.pSetLayouts = &o.set_layout;
  layout_info.pushConstantRangeCount = dispatch.push_words.empty() ? 0 : 1;
  layout_info.pPushConstantRanges = &push_range;
  if (VkResult e = vk_.vkCreatePipelineLayout(device_, &layout_info, nullptr, &o.layout); e) {
    return vk_error("vkCreatePipelineLayout", e);
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
  if (dispatch.required_subgroup_size && *dispatch.required_subgroup_size != subgroup_size_) {
    if (!can_run_subgroup_size(*dispatch.required_subgroup_size)) return fail("subgroup size cannot be pinned");
    subgroup_size.requiredSubgroupSize = *dispatch.required_subgroup_size;
    pipeline_info.stage.pNext = &subgroup_size;
    pipeline_info.stage.flags = VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT;
  }
  pipeline_info.layout = o.layout;
  if (VkResult e = vk_.vkCreateComputePipelines(device_, VK_NULL_HANDLE, 1, &pipeline_info, nullptr, &o.pipeline); e) {
    return vk_error("vkCreateComputePipelines", e);
  }

  std::vector<VkDescriptorPoolSize> pool_sizes;
  if (storage_count) pool_sizes.push_back({VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, storage_count});
  if (uniform_count) pool_sizes.push_back({VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, uniform_count});
  if (pool_sizes.empty()) pool_sizes.push_back({VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1});
  VkDescriptorPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  pool_info.maxSets = 1;
  pool_info.poolSizeCount = static_cast<uint32_t>(pool_sizes.size());
  pool_info.pPoolSizes = pool_sizes.data();
  if (VkResult e = vk_.vkCreateDescriptorPool(device_, &pool_info, nullptr, &o.pool); e) {
    return vk_error("vkCreateDescriptorPool", e);
  }
  VkDescriptorSetAllocateInfo set_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  set_info.descriptorPool = o.pool;
  set_info.descriptorSetCount = 1;
  set_info.pSetLayouts = &o.set_layout;
  VkDescriptorSet set = VK_NULL_HANDLE;
  if (VkResult e = vk_.vkAllocateDescriptorSets(device_, &set_info, &set); e) return vk_error("vkAllocateDescriptorSets", e);
  std::vector<VkDescriptorBufferInfo> descriptors(dispatch.buffers.size());
  std::vector<VkWriteDescriptorSet> writes(dispatch.buffers.size());
  for (size_t i = 0; i < dispatch.buffers.size(); ++i) {
    descriptors[i] = {o.resources[i].buffer, 0, VK_WHOLE_SIZE};
    writes[i] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    writes[i].dstSet = set;
    writes[i].dstBinding = dispatch.buffers[i].binding;
    writes[i].descriptorCount = 1;
    writes[i].descriptorType = bindings[i].descriptorType;
    writes[i].pBufferInfo = &descriptors[i];
  }
  vk_.vkUpdateDescriptorSets(device_, static_cast<uint32_t>(writes.size()), writes.data(), 0, nullptr);

  VkCommandPoolCreateInfo command_pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  command_pool_info.queueFamilyIndex = queue_family_;
  if (VkResult e = vk_.vkCreateCommandPool(device_, &command_pool_info, nullptr, &o.command_pool); e) {
    return vk_error("vkCreateCommandPool", e);
  }
  VkCommandBufferAllocateInfo command_info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  command_info.commandPool = o.command_pool;
  command_info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  command_info.commandBufferCount = 1;
  VkCommandBuffer commands = VK_NULL_HANDLE;
  if (VkResult e = vk_.vkAllocateCommandBuffers(device_, &command_info, &commands); e) {
    return vk_error("vkAllocateCommandBuffers", e);
  }
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  vk_.vkBeginCommandBuffer(commands, &begin);
  vk_.vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, o.pipeline);
  vk_.vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE, o.layout, 0, 1, &set, 0, nullptr);
  if (!dispatch.push_words.empty()) {
    vk_.vkCmdPushConstants(commands, o.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, push_range.size,
                           dispatch.push_words.data());
  }
  vk_.vkCmdDispatch(commands, dispatch.group_count[0], dispatch.group_count[1], dispatch.group_count[2]);
  VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
  vk_.vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &barrier,
                           0, nullptr, 0, nullptr);
  if (VkResult e = vk_.vkEndCommandBuffer(commands); e) return vk_error("vkEndCommandBuffer", e);
  VkFenceCreateInfo fence_info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  if (VkResult e = vk_.vkCreateFence(device_, &fence_info, nullptr, &o.fence); e) return vk_error("vkCreateFence", e);
  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &commands;
  if (VkResult e = vk_.vkQueueSubmit(queue_, 1, &submit, o.fence); e) return vk_error("vkQueueSubmit", e);
  if (VkResult e = vk_.vkWaitForFences(device_, 1, &o.fence, VK_TRUE, UINT64_MAX); e) return vk_error("vkWaitForFences", e);
  for (size_t i = 0; i < dispatch.buffers.size(); ++i) {
    auto& b = dispatch.buffers[i];
    if (!b.uniform) std::memcpy(b.words.data(), o.resources[i].mapped, b.words.size() * sizeof(uint32_t));
    vk_.vkUnmapMemory(device_, o.resources[i].memory);
  }
  return {};
}

}  // namespace bismuth::test
