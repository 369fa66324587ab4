// CommandStream (command_stream.hpp), a dispatch's image, sampler and texel-buffer bindings (DispatchInfo::images):
// each checked against its descriptor type, the image's usage and the view format's features before anything is
// recorded — a binding the device cannot take is an Error naming it, never a validation message or driver error —
// resolved into descriptors (views cached on the image or buffer, samplers on the device), kept alive in the batch,
// and joined to the hazard tracking like buffer bindings (an image whole, a texel buffer by its range).
#include <string>

#include "bismuth/backend/command_stream.hpp"
#include "bismuth/backend/sampler.hpp"
#include "command_recorder.hpp"

namespace bismuth::backend {

namespace {

const char* descriptor_type_name(VkDescriptorType type) {
  switch (type) {
    case VK_DESCRIPTOR_TYPE_STORAGE_IMAGE: return "storage image";
    case VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE: return "sampled image";
    case VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER: return "combined image sampler";
    case VK_DESCRIPTOR_TYPE_SAMPLER: return "sampler";
    case VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER: return "uniform texel buffer";
    case VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER: return "storage texel buffer";
    default: return "descriptor";
  }
}

[[gnu::cold, gnu::noinline]] Error image_binding_error(const Shader& shader, size_t index, size_t binding,
                                                       VkDescriptorType type, const std::string& what) {
  return Error{"dispatch of " + shader.name() + ": image binding " + std::to_string(index) + " (set 0 binding " +
                   std::to_string(binding) + ", " + descriptor_type_name(type) + ") " + what,
               0};
}

// The first binding at or after `binding` that takes an ImageBinding.
size_t next_image_binding(const BindingLayout& layout, size_t binding) {
  while (binding < layout.bindings.size() && is_buffer_descriptor(layout.bindings[binding])) ++binding;
  return binding;
}

bool writes(Access access) {
  return (uint8_t(access) & uint8_t(Access::Write)) != 0;
}

VkDeviceSize texel_end(const ImageBinding& b, VkDeviceSize range) {
  return b.offset + range;
}

}  // namespace

Status CommandStream::resolve_image_bindings(Batch& batch, const Shader& shader, const DispatchInfo& info,
                                             bool& need_barrier) {
  const BindingLayout& layout = shader.binding_layout();
  if (info.images.size() != shader.image_descriptor_count()) {
    return fail("dispatch of " + shader.name() + ": " + std::to_string(info.images.size()) +
                " image bindings, the layout has " + std::to_string(shader.image_descriptor_count()) +
                " image, sampler or texel-buffer descriptors");
  }
  const size_t n = info.images.size();
  scratch_image_infos_.assign(n, VkDescriptorImageInfo{});
  scratch_texel_views_.assign(n, VK_NULL_HANDLE);
  scratch_texel_ends_.assign(n, 0);
  size_t binding = next_image_binding(layout, 0), element = 0;
  for (size_t k = 0; k < n; ++k) {
    const ImageBinding& b = info.images[k];
    const VkDescriptorType type = layout.bindings[binding];
    auto refuse = [&](const std::string& what) { return image_binding_error(shader, k, binding, type, what); };
    const bool write = writes(b.access);
    if (is_texel_buffer_descriptor(type)) {
      if (b.texel_buffer == nullptr) return refuse("has no texel buffer");
      const bool uniform = type == VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER;
      if (uniform && write) return refuse("is written, but a uniform texel buffer is read-only");
      auto view = b.texel_buffer->texel_view(b.texel_format, b.offset, b.range);
      if (!view) return refuse(view.error().message);
      const VkFormatFeatureFlags needed =
          uniform ? VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT : VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_BIT;
      if (!(view->features & needed)) {
        return refuse(format_name(b.texel_format) + " is not supported in " + descriptor_type_name(type) + "s");
      }
      scratch_texel_views_[k] = view->handle;
      scratch_texel_ends_[k] = texel_end(b, view->range);
      track(batch, *b.texel_buffer);
      need_barrier |= shader_hazard(b.texel_buffer->handle(), b.offset, texel_end(b, view->range), write);
    } else if (type == VK_DESCRIPTOR_TYPE_SAMPLER) {
      SamplerDesc desc;
      if (b.sampler == VK_NULL_HANDLE || !device_->sampler_desc(b.sampler, &desc)) {
        return refuse("has no sampler made by Device::sampler");
      }
      scratch_image_infos_[k] = {b.sampler, VK_NULL_HANDLE, VK_IMAGE_LAYOUT_UNDEFINED};
    } else {
      if (b.image == nullptr) return refuse("has no image");
      const bool storage = type == VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
      if (storage && !(b.image->desc().usage & kImageStorage)) {
        return refuse("binds an image created without kImageStorage");
      }
      if (!storage && !(b.image->desc().usage & kImageSampled)) {
        return refuse("binds an image created without kImageSampled");
      }
      if (!storage && write) return refuse("is written, but sampled images are read-only");
      auto view = b.image->view_info(b.view);
      if (!view) return refuse(view.error().message);
      if (storage) {
        if (!(view->features & VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT)) {
          return refuse("views the image as " + format_name(view->format) +
                        ", which the device does not support as a storage image (STORAGE_IMAGE)");
        }
        if (b.view.mip_count != 1) return refuse("views several mip levels (a storage image has one)");
        // VUID-VkWriteDescriptorSet-descriptorType-00336: storage image views have the identity mapping.
        if (!b.view.identity_components()) return refuse("is a storage image view with a component mapping");
      } else if (!(view->features & VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT)) {
        return refuse("views the image as " + format_name(view->format) +
                      ", which the device does not support as a sampled image (SAMPLED_IMAGE)");
      }
      VkSampler sampler = VK_NULL_HANDLE;
      if (type == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER) {
        SamplerDesc desc;
        if (b.sampler == VK_NULL_HANDLE || !device_->sampler_desc(b.sampler, &desc)) {
          return refuse("has no sampler made by Device::sampler");
        }
        // Vulkan: a LINEAR filter or mipmap mode needs the view format's SAMPLED_IMAGE_FILTER_LINEAR (integer
        // formats never have it); unnormalized coordinates a 1D or 2D view of one level and one layer.
        const bool linear = desc.mag_filter == VK_FILTER_LINEAR || desc.min_filter == VK_FILTER_LINEAR ||
                            desc.mipmap_mode == VK_SAMPLER_MIPMAP_MODE_LINEAR;
        if (linear && !(view->features & VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT)) {
          return refuse("samples " + format_name(view->format) +
                        " with a LINEAR filter, which the format does not support (SAMPLED_IMAGE_FILTER_LINEAR)");
        }
        // Vulkan (vkCmdDispatch): a sampler with compareEnable needs the view format's
        // SAMPLED_IMAGE_DEPTH_COMPARISON (depth formats only).
        if (desc.compare_enable && !view->depth_compare) {
          return refuse("uses a comparison (shadow) sampler on " + format_name(view->format) +
                        ", which the device cannot compare (SAMPLED_IMAGE_DEPTH_COMPARISON)");
        }
        if (desc.unnormalized_coordinates &&
            ((b.view.type != VK_IMAGE_VIEW_TYPE_1D && b.view.type != VK_IMAGE_VIEW_TYPE_2D) || b.view.mip_count != 1 ||
             b.view.layer_count != 1)) {
          return refuse("uses a sampler with unnormalized coordinates on a view that is not 1D or 2D of one level");
        }
        sampler = b.sampler;
      }
      scratch_image_infos_[k] = {sampler, view->handle, VK_IMAGE_LAYOUT_GENERAL};
      track_image(batch, *b.image);
      need_barrier |= hazards_.needs_image_barrier(b.image->handle(), write);
    }
    if (++element == layout.count(binding)) {
      binding = next_image_binding(layout, binding + 1);
      element = 0;
    }
  }
  return {};
}

void CommandStream::note_image_bindings(Batch& batch, HazardTracker& noted, std::span<const ImageBinding> images) {
  for (size_t k = 0; k < images.size(); ++k) {
    const ImageBinding& b = images[k];
    const bool write = writes(b.access);
    const bool read = (uint8_t(b.access) & uint8_t(Access::Read)) != 0;
    if (b.image != nullptr && scratch_image_infos_[k].imageView != VK_NULL_HANDLE) {
      if (read) noted.note_image_access(b.image->handle(), false);
      if (write) noted.note_image_access(b.image->handle(), true);
    } else if (b.texel_buffer != nullptr && scratch_texel_views_[k] != VK_NULL_HANDLE) {
      const VkDeviceSize end = scratch_texel_ends_[k];
      if (read) noted.note_access(b.texel_buffer->handle(), b.offset, end, false);
      if (write) noted.note_access(b.texel_buffer->handle(), b.offset, end, true);
    } else {
      continue;  // a sampler
    }
    if (write) batch.has_writes = true;
  }
}

}  // namespace bismuth::backend
