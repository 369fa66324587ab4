// Image::view (image.hpp): views checked against the image and the device before vkCreateImageView, cached on the
// image and destroyed with it.
#include <algorithm>

#include "bismuth/backend/image.hpp"

namespace bismuth::backend {

namespace {

Error refuse_view(const std::string& why) {
  return fail("Image::view: " + why);
}

// Vulkan 1.3 §12.5 "Image Views", table "Image type and image view type compatibility requirements" (without
// VK_IMAGE_CREATE_2D_ARRAY_COMPATIBLE_BIT, which the backend does not set: no 2D views of 3D images).
Status check_view_type(const ImageDesc& image, const ImageViewDesc& view, bool cube_arrays) {
  const uint32_t layers = view.layer_count;
  switch (view.type) {
    case VK_IMAGE_VIEW_TYPE_1D:
      if (image.type == ImageType::Image1D && layers == 1) return {};
      return refuse_view("a 1D view needs a 1D image and one layer");
    case VK_IMAGE_VIEW_TYPE_1D_ARRAY:
      if (image.type == ImageType::Image1D) return {};
      return refuse_view("a 1D array view needs a 1D image");
    case VK_IMAGE_VIEW_TYPE_2D:
      if (image.type == ImageType::Image2D && layers == 1) return {};
      return refuse_view("a 2D view needs a 2D image and one layer (no 2D views of 3D images)");
    case VK_IMAGE_VIEW_TYPE_2D_ARRAY:
      if (image.type == ImageType::Image2D) return {};
      return refuse_view("a 2D array view needs a 2D image");
    case VK_IMAGE_VIEW_TYPE_CUBE:
      if (image.type == ImageType::Image2D && image.cube_compatible && layers == 6) return {};
      return refuse_view("a cube view needs a cube-compatible image and 6 layers");
    case VK_IMAGE_VIEW_TYPE_CUBE_ARRAY:
      if (!cube_arrays) return refuse_view("cube array views need the imageCubeArray feature, which the device lacks");
      if (image.type == ImageType::Image2D && image.cube_compatible && layers % 6 == 0) return {};
      return refuse_view("a cube array view needs a cube-compatible image and a multiple of 6 layers");
    case VK_IMAGE_VIEW_TYPE_3D:
      if (image.type == ImageType::Image3D && view.base_layer == 0 && layers == 1) return {};
      return refuse_view("a 3D view needs a 3D image");
    default: return refuse_view("unknown view type " + std::to_string(int(view.type)));
  }
}

Status check_range(const ImageDesc& image, const ImageViewDesc& view) {
  if (view.mip_count == 0 || view.base_mip >= image.mip_levels || view.mip_count > image.mip_levels - view.base_mip) {
    return refuse_view("mip levels " + std::to_string(view.base_mip) + " + " + std::to_string(view.mip_count) +
                       " are empty or outside the image's " + std::to_string(image.mip_levels));
  }
  if (view.layer_count == 0 || view.base_layer >= image.array_layers ||
      view.layer_count > image.array_layers - view.base_layer) {
    return refuse_view("layers " + std::to_string(view.base_layer) + " + " + std::to_string(view.layer_count) +
                       " are empty or outside the image's " + std::to_string(image.array_layers));
  }
  return {};
}

}  // namespace

bool ImageViewDesc::identity_components() const {
  // VK_COMPONENT_SWIZZLE_R .. A follow IDENTITY (0), ZERO and ONE in the enum: component i is itself at R + i.
  for (uint32_t i = 0; i < 4; ++i) {
    const VkComponentSwizzle c = components[i];
    if (c != VK_COMPONENT_SWIZZLE_IDENTITY && c != static_cast<VkComponentSwizzle>(VK_COMPONENT_SWIZZLE_R + i)) {
      return false;
    }
  }
  return true;
}

Expected<VkImageView> Image::view(const ImageViewDesc& desc) {
  auto info = view_info(desc);
  if (!info) return info.error();
  return info->handle;
}

size_t Image::view_count() const {
  std::lock_guard lock(views_mutex_);
  return views_.size();
}

Expected<ImageViewInfo> Image::view_info(const ImageViewDesc& requested) {
  ImageViewDesc desc = requested;
  if (desc.format == VK_FORMAT_UNDEFINED) desc.format = desc_.format;
  std::lock_guard lock(views_mutex_);
  for (const CachedView& v : views_) {
    if (v.desc == desc) return v.info;
  }
  if (Status ok = device_->alive(); !ok) return ok.error();
  if (Status ok = check_range(desc_, desc); !ok) return ok.error();
  if (Status ok = check_view_type(desc_, desc, device_->features().image_cube_array); !ok) return ok.error();
  if (desc.format != desc_.format) {
    if (is_depth_format(desc.format) || is_depth_format(desc_.format)) {
      return refuse_view(format_name(desc.format) + " view of a " + format_name(desc_.format) +
                         " image: a depth image is viewed only in its own format");
    }
    if (!desc_.mutable_format) {
      return refuse_view(format_name(desc.format) + " view of a " + format_name(desc_.format) +
                         " image created without mutable_format");
    }
    // A block format viewed as an uncompressed one (or the reverse) needs BLOCK_TEXEL_VIEW_COMPATIBLE and one level:
    // not offered (GL views stay in one view class: compressed formats view only compressed formats).
    if (is_block_format(desc.format) != is_block_format(desc_.format)) {
      return refuse_view(format_name(desc.format) + " view of a " + format_name(desc_.format) +
                         " image: block-compressed and uncompressed formats do not view each other");
    }
    if (bismuth::backend::texel_bytes(desc.format) != texel_bytes_) {
      return refuse_view(format_name(desc.format) + " has another texel size than the image's " +
                         format_name(desc_.format) + " (" + std::to_string(texel_bytes_) + " bytes)");
    }
  }
  VkFormatProperties properties{};
  device_->vki().vkGetPhysicalDeviceFormatProperties(device_->physical_device(), desc.format, &properties);
  ImageViewInfo info;
  info.format = desc.format;
  info.features = properties.optimalTilingFeatures;
  info.depth_compare = is_depth_format(desc.format);
  const DeviceInfo& device_info = device_->info();
  if (device_->vki().vkGetPhysicalDeviceFormatProperties2 != nullptr &&
      (device_info.api_version >= VK_API_VERSION_1_3 ||
       device_info.has_extension(VK_KHR_FORMAT_FEATURE_FLAGS_2_EXTENSION_NAME))) {
    VkFormatProperties3 properties3{VK_STRUCTURE_TYPE_FORMAT_PROPERTIES_3};
    VkFormatProperties2 properties2{VK_STRUCTURE_TYPE_FORMAT_PROPERTIES_2, &properties3};
    device_->vki().vkGetPhysicalDeviceFormatProperties2(device_->physical_device(), desc.format, &properties2);
    info.depth_compare =
        (properties3.optimalTilingFeatures & VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_DEPTH_COMPARISON_BIT) != 0;
  }
  // The view asks only for the usages its format supports (VkImageViewUsageCreateInfo), so that e.g. an sRGB view
  // of a storage image is valid for sampling (Vulkan: a view's usage needs its format's features).
  if ((desc_.usage & kImageSampled) && (info.features & VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT)) {
    info.usage |= VK_IMAGE_USAGE_SAMPLED_BIT;
  }
  if ((desc_.usage & kImageStorage) && (info.features & VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT)) {
    info.usage |= VK_IMAGE_USAGE_STORAGE_BIT;
  }
  if (info.usage == 0) {
    return refuse_view(format_name(desc.format) +
                       " view: the image was created with neither usage the format supports here "
                       "(kImageSampled needs SAMPLED_IMAGE, kImageStorage needs STORAGE_IMAGE)");
  }
  VkImageViewUsageCreateInfo usage{VK_STRUCTURE_TYPE_IMAGE_VIEW_USAGE_CREATE_INFO};
  usage.usage = info.usage;
  VkImageViewCreateInfo create{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  create.pNext = &usage;
  create.image = image_;
  create.viewType = desc.type;
  create.format = desc.format;
  create.components = {desc.components[0], desc.components[1], desc.components[2], desc.components[3]};
  create.subresourceRange = {data_aspect(desc.format), desc.base_mip, desc.mip_count, desc.base_layer,
                             desc.layer_count};
  if (Status ok = device_->call("vkCreateImageView", device_->vk().vkCreateImageView, device_->handle(), &create,
                                nullptr, &info.handle);
      !ok) {
    return ok.error();
  }
  views_.push_back(CachedView{desc, info});
  return info;
}

}  // namespace bismuth::backend
