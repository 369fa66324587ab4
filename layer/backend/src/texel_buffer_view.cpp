// Buffer::texel_view (buffer.hpp): texel-buffer views checked against the buffer and the device's limits before
// vkCreateBufferView, cached on the buffer and destroyed with it.
#include "bismuth/backend/buffer.hpp"
#include "bismuth/backend/image.hpp"

namespace bismuth::backend {

Expected<TexelBufferViewInfo> Buffer::texel_view(VkFormat format, VkDeviceSize offset, VkDeviceSize range) {
  std::lock_guard lock(texel_views_mutex_);
  for (const CachedTexelView& v : texel_views_) {
    if (v.format == format && v.offset == offset && v.requested_range == range) return v.info;
  }
  auto refuse = [&](const std::string& why) {
    return fail("Buffer::texel_view (" + format_name(format) + "): " + why);
  };
  if (Status ok = device_->alive(); !ok) return ok.error();
  if (!shader_visible_) return refuse("a staging buffer cannot be a texel buffer");
  const uint32_t texel = texel_bytes(format);
  if (texel == 0 || is_depth_format(format)) return refuse("not a color format the backend handles");
  const DeviceInfo& limits = device_->info();
  // Alignments are powers of two (Vulkan spec, "Limits").
  if ((offset & (limits.min_texel_buffer_offset_alignment - 1)) != 0 || offset >= size_) {
    return refuse("offset " + std::to_string(offset) + " is not a multiple of minTexelBufferOffsetAlignment (" +
                  std::to_string(limits.min_texel_buffer_offset_alignment) + ") or past the end of the buffer");
  }
  VkDeviceSize bytes = range;
  if (range == VK_WHOLE_SIZE) {
    bytes = (size_ - offset) / texel * texel;
    if (bytes == 0) return refuse("less than one texel between the offset and the end of the buffer");
  } else if (range == 0 || range % texel != 0 || range > size_ - offset) {
    return refuse("range " + std::to_string(range) + " is empty, not a multiple of " + std::to_string(texel) +
                  " bytes or beyond the end of the buffer");
  }
  if (bytes / texel > limits.max_texel_buffer_elements) {
    return refuse(std::to_string(bytes / texel) + " texels exceed maxTexelBufferElements (" +
                  std::to_string(limits.max_texel_buffer_elements) + ")");
  }
  VkFormatProperties properties{};
  device_->vki().vkGetPhysicalDeviceFormatProperties(device_->physical_device(), format, &properties);
  TexelBufferViewInfo info;
  info.range = bytes;
  info.features = properties.bufferFeatures;
  // Every shader-visible buffer has both texel usages, and Vulkan wants a view's format to support each usage of
  // its buffer (VkBufferViewCreateInfo: "If buffer was created with usage containing ..._TEXEL_BUFFER_BIT, format
  // must be supported for ... texel buffers"): a format with only one of them cannot be viewed.
  constexpr VkFormatFeatureFlags kBoth =
      VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT | VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_BIT;
  if ((info.features & kBoth) != kBoth) {
    return refuse("the device does not support the format in both uniform and storage texel buffers");
  }
  VkBufferViewCreateInfo create{VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO};
  create.buffer = buffer_;
  create.format = format;
  create.offset = offset;
  create.range = bytes;
  if (Status ok = device_->call("vkCreateBufferView", device_->vk().vkCreateBufferView, device_->handle(), &create,
                                nullptr, &info.handle);
      !ok) {
    return ok.error();
  }
  texel_views_.push_back(CachedTexelView{format, offset, range, info});
  return info;
}

}  // namespace bismuth::backend
