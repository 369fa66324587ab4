#include "bismuth/backend/buffer.hpp"

#include "bismuth/backend/atomic_max.hpp"

namespace bismuth::backend {

Expected<uint32_t> find_memory_type(const VkPhysicalDeviceMemoryProperties& memory, uint32_t type_bits,
                                    VkMemoryPropertyFlags required, VkMemoryPropertyFlags preferred) {
  int fallback = -1;
  for (uint32_t i = 0; i < memory.memoryTypeCount; ++i) {
    if (!(type_bits & (1u << i))) continue;
    const VkMemoryPropertyFlags flags = memory.memoryTypes[i].propertyFlags;
    if ((flags & required) != required) continue;
    if ((flags & preferred) == preferred) return i;
    if (fallback < 0) fallback = static_cast<int>(i);
  }
  if (fallback >= 0) return static_cast<uint32_t>(fallback);
  return fail("no memory type with property flags 0x" + std::to_string(required) + " for the buffer",
              VK_ERROR_OUT_OF_DEVICE_MEMORY);
}

Expected<std::shared_ptr<Buffer>> Buffer::create(Device& device, VkDeviceSize size, BufferKind kind) {
  if (Status ok = device.alive(); !ok) return ok.error();
  if (size == 0) return fail("Buffer::create: size must be greater than 0");
  const auto& vk = device.vk();
  std::shared_ptr<Buffer> self(new Buffer(device));
  // Sizes are rounded to 4 bytes so that vkCmdFillBuffer/vkCmdCopyBuffer can cover the whole buffer.
  self->size_ = (size + 3) & ~VkDeviceSize(3);
  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.size = self->size_;
  info.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  if (kind != BufferKind::Staging) {
    info.usage |= VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT |
                  VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT | VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT |
                  VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT;
    self->shader_visible_ = true;
    // GL_NV_shader_buffer_load: every shader-visible buffer can be made resident and read through its GPU address.
    if (device.features().buffer_device_address) info.usage |= VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT;
  }
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  if (Status ok = device.call("vkCreateBuffer", vk.vkCreateBuffer, device.handle(), &info, nullptr, &self->buffer_);
      !ok) {
    return ok.error();
  }
  VkMemoryRequirements requirements{};
  vk.vkGetBufferMemoryRequirements(device.handle(), self->buffer_, &requirements);
  VkMemoryAllocateInfo allocate{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  allocate.allocationSize = requirements.size;
  VkMemoryAllocateFlagsInfo allocate_flags{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO};
  allocate_flags.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT;
  if (self->shader_visible_ && device.features().buffer_device_address) allocate.pNext = &allocate_flags;
  bool host_visible = false;
  if (kind == BufferKind::MappedDeviceLocal) {
    constexpr VkMemoryPropertyFlags kMapped = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT |
                                              VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                              VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    // Called directly, not through call(): running out of this (often small) heap is no error, the buffer then goes
    // where Storage goes.
    if (auto type = find_memory_type(device.memory_properties(), requirements.memoryTypeBits, kMapped, kMapped)) {
      allocate.memoryTypeIndex = *type;
      host_visible =
          !device.lost() && vk.vkAllocateMemory(device.handle(), &allocate, nullptr, &self->memory_) == VK_SUCCESS;
      if (!host_visible) self->memory_ = VK_NULL_HANDLE;
    }
  }
  if (self->memory_ == VK_NULL_HANDLE) {
    host_visible = kind == BufferKind::Staging || kind == BufferKind::HostStorage || !device.uses_staging();
    const VkMemoryPropertyFlags required =
        host_visible ? VkMemoryPropertyFlags(VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT)
                     : VkMemoryPropertyFlags(0);
    VkMemoryPropertyFlags preferred =
        host_visible ? required : VkMemoryPropertyFlags(VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    if (kind == BufferKind::HostStorage) preferred |= VK_MEMORY_PROPERTY_HOST_CACHED_BIT;
    auto type = find_memory_type(device.memory_properties(), requirements.memoryTypeBits, required, preferred);
    if (!type) return type.error();
    allocate.memoryTypeIndex = *type;
    if (Status ok =
            device.call("vkAllocateMemory", vk.vkAllocateMemory, device.handle(), &allocate, nullptr, &self->memory_);
        !ok) {
      return ok.error();
    }
  }
  if (Status ok = device.call("vkBindBufferMemory", vk.vkBindBufferMemory, device.handle(), self->buffer_,
                              self->memory_, VkDeviceSize{0});
      !ok) {
    return ok.error();
  }
  if (self->shader_visible_ && device.features().buffer_device_address && vk.vkGetBufferDeviceAddress) {
    VkBufferDeviceAddressInfo address{VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO};
    address.buffer = self->buffer_;
    self->device_address_ = vk.vkGetBufferDeviceAddress(device.handle(), &address);
  }
  if (host_visible) {
    if (Status ok = device.call("vkMapMemory", vk.vkMapMemory, device.handle(), self->memory_, VkDeviceSize{0},
                                VkDeviceSize{VK_WHOLE_SIZE}, VkMemoryMapFlags{0}, &self->mapped_);
        !ok) {
      self->mapped_ = nullptr;
      return ok.error();
    }
  }
  return self;
}

void Buffer::mark_used(uint64_t value) {
  raise_to(last_use_, value);
}

Buffer::~Buffer() {
  Device* device = device_;
  VkBuffer buffer = buffer_;
  VkDeviceMemory memory = memory_;
  const bool mapped = mapped_ != nullptr;
  std::vector<VkBufferView> views;
  for (const CachedTexelView& v : texel_views_) views.push_back(v.info.handle);
  device->defer(last_use(), [device, buffer, memory, mapped, views = std::move(views)] {
    const auto& vk = device->vk();
    for (VkBufferView view : views) vk.vkDestroyBufferView(device->handle(), view, nullptr);
    if (mapped) vk.vkUnmapMemory(device->handle(), memory);
    if (buffer != VK_NULL_HANDLE) vk.vkDestroyBuffer(device->handle(), buffer, nullptr);
    if (memory != VK_NULL_HANDLE) vk.vkFreeMemory(device->handle(), memory, nullptr);
  });
}

}  // namespace bismuth::backend
