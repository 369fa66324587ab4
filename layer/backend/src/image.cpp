#include "bismuth/backend/image.hpp"

#include <algorithm>
#include <array>
#include <string_view>

#include "bismuth/backend/atomic_max.hpp"
#include "bismuth/backend/buffer.hpp"
#include "bismuth/backend/vk_strings.hpp"

namespace bismuth::backend {

namespace {

struct ColorFormat {
  VkFormat format;
  std::string_view name;
  uint32_t bytes;  // of one texel; block formats (kBlockFormats): of one 4x4 block
};

#define BISMUTH_FORMAT(suffix, bytes)  \
  ColorFormat {                        \
    VK_FORMAT_##suffix, #suffix, bytes \
  }
// The color formats the backend handles (GL's sized internal formats for images and textures map onto these).
constexpr std::array kColorFormats{
    BISMUTH_FORMAT(R8_UNORM, 1),
    BISMUTH_FORMAT(R8_SNORM, 1),
    BISMUTH_FORMAT(R8_UINT, 1),
    BISMUTH_FORMAT(R8_SINT, 1),
    BISMUTH_FORMAT(R8_SRGB, 1),
    BISMUTH_FORMAT(R8G8_UNORM, 2),
    BISMUTH_FORMAT(R8G8_SNORM, 2),
    BISMUTH_FORMAT(R8G8_UINT, 2),
    BISMUTH_FORMAT(R8G8_SINT, 2),
    BISMUTH_FORMAT(R8G8_SRGB, 2),
    BISMUTH_FORMAT(R8G8B8A8_UNORM, 4),
    BISMUTH_FORMAT(R8G8B8A8_SNORM, 4),
    BISMUTH_FORMAT(R8G8B8A8_UINT, 4),
    BISMUTH_FORMAT(R8G8B8A8_SINT, 4),
    BISMUTH_FORMAT(R8G8B8A8_SRGB, 4),
    BISMUTH_FORMAT(R16_UNORM, 2),
    BISMUTH_FORMAT(R16_SNORM, 2),
    BISMUTH_FORMAT(R16_UINT, 2),
    BISMUTH_FORMAT(R16_SINT, 2),
    BISMUTH_FORMAT(R16_SFLOAT, 2),
    BISMUTH_FORMAT(R16G16_UNORM, 4),
    BISMUTH_FORMAT(R16G16_SNORM, 4),
    BISMUTH_FORMAT(R16G16_UINT, 4),
    BISMUTH_FORMAT(R16G16_SINT, 4),
    BISMUTH_FORMAT(R16G16_SFLOAT, 4),
    BISMUTH_FORMAT(R16G16B16A16_UNORM, 8),
    BISMUTH_FORMAT(R16G16B16A16_SNORM, 8),
    BISMUTH_FORMAT(R16G16B16A16_UINT, 8),
    BISMUTH_FORMAT(R16G16B16A16_SINT, 8),
    BISMUTH_FORMAT(R16G16B16A16_SFLOAT, 8),
    BISMUTH_FORMAT(R32_UINT, 4),
    BISMUTH_FORMAT(R32_SINT, 4),
    BISMUTH_FORMAT(R32_SFLOAT, 4),
    BISMUTH_FORMAT(R32G32_UINT, 8),
    BISMUTH_FORMAT(R32G32_SINT, 8),
    BISMUTH_FORMAT(R32G32_SFLOAT, 8),
    BISMUTH_FORMAT(R32G32B32A32_UINT, 16),
    BISMUTH_FORMAT(R32G32B32A32_SINT, 16),
    BISMUTH_FORMAT(R32G32B32A32_SFLOAT, 16),
    BISMUTH_FORMAT(R5G6B5_UNORM_PACK16, 2),    // GL_RGB565
    BISMUTH_FORMAT(B4G4R4A4_UNORM_PACK16, 2),  // GL_RGBA4
    BISMUTH_FORMAT(A1R5G5B5_UNORM_PACK16, 2),  // GL_RGB5_A1
    BISMUTH_FORMAT(A2B10G10R10_UNORM_PACK32, 4),
    BISMUTH_FORMAT(A2B10G10R10_UINT_PACK32, 4),
    BISMUTH_FORMAT(B10G11R11_UFLOAT_PACK32, 4),
    BISMUTH_FORMAT(E5B9G9R9_UFLOAT_PACK32, 4),  // GL_RGB9_E5 (sampled only: no storage-image format)
    BISMUTH_FORMAT(B8G8R8A8_UNORM, 4),
};
// Depth formats (GL's depth textures, sampled by shadow samplers): the bytes are those of a depth-aspect copy (Vulkan
// 1.3 §20.4 "Depth/stencil formats": D24 as 32-bit words with the top 8 bits undefined, D32 as 32-bit floats; the
// combined formats' stencil is not reachable through the backend yet).
constexpr std::array kDepthFormats{
    BISMUTH_FORMAT(D16_UNORM, 2),         BISMUTH_FORMAT(X8_D24_UNORM_PACK32, 4), BISMUTH_FORMAT(D32_SFLOAT, 4),
    BISMUTH_FORMAT(D24_UNORM_S8_UINT, 4), BISMUTH_FORMAT(D32_SFLOAT_S8_UINT, 4),
};
// Block-compressed formats (GL's compressed textures stored natively: the BC formats with textureCompressionBC,
// ETC2/EAC with textureCompressionETC2): 4x4 texel blocks of 8 or 16 bytes (Vulkan 1.3 §47.1 "Compatible Formats":
// the BC1/BC4/ETC2 RGB/RGBA1/EAC R11 classes are 64-bit blocks, the others 128-bit).
constexpr std::array kBlockFormats{
    BISMUTH_FORMAT(BC1_RGB_UNORM_BLOCK, 8),
    BISMUTH_FORMAT(BC1_RGB_SRGB_BLOCK, 8),
    BISMUTH_FORMAT(BC1_RGBA_UNORM_BLOCK, 8),
    BISMUTH_FORMAT(BC1_RGBA_SRGB_BLOCK, 8),
    BISMUTH_FORMAT(BC2_UNORM_BLOCK, 16),
    BISMUTH_FORMAT(BC2_SRGB_BLOCK, 16),
    BISMUTH_FORMAT(BC3_UNORM_BLOCK, 16),
    BISMUTH_FORMAT(BC3_SRGB_BLOCK, 16),
    BISMUTH_FORMAT(BC4_UNORM_BLOCK, 8),
    BISMUTH_FORMAT(BC4_SNORM_BLOCK, 8),
    BISMUTH_FORMAT(BC5_UNORM_BLOCK, 16),
    BISMUTH_FORMAT(BC5_SNORM_BLOCK, 16),
    BISMUTH_FORMAT(BC6H_UFLOAT_BLOCK, 16),
    BISMUTH_FORMAT(BC6H_SFLOAT_BLOCK, 16),
    BISMUTH_FORMAT(BC7_UNORM_BLOCK, 16),
    BISMUTH_FORMAT(BC7_SRGB_BLOCK, 16),
    BISMUTH_FORMAT(ETC2_R8G8B8_UNORM_BLOCK, 8),
    BISMUTH_FORMAT(ETC2_R8G8B8_SRGB_BLOCK, 8),
    BISMUTH_FORMAT(ETC2_R8G8B8A1_UNORM_BLOCK, 8),
    BISMUTH_FORMAT(ETC2_R8G8B8A1_SRGB_BLOCK, 8),
    BISMUTH_FORMAT(ETC2_R8G8B8A8_UNORM_BLOCK, 16),
    BISMUTH_FORMAT(ETC2_R8G8B8A8_SRGB_BLOCK, 16),
    BISMUTH_FORMAT(EAC_R11_UNORM_BLOCK, 8),
    BISMUTH_FORMAT(EAC_R11_SNORM_BLOCK, 8),
    BISMUTH_FORMAT(EAC_R11G11_UNORM_BLOCK, 16),
    BISMUTH_FORMAT(EAC_R11G11_SNORM_BLOCK, 16),
};
#undef BISMUTH_FORMAT

const ColorFormat* find_format(VkFormat format) {
  for (const ColorFormat& f : kColorFormats) {
    if (f.format == format) return &f;
  }
  for (const ColorFormat& f : kDepthFormats) {
    if (f.format == format) return &f;
  }
  for (const ColorFormat& f : kBlockFormats) {
    if (f.format == format) return &f;
  }
  return nullptr;
}

uint64_t blocks_across(uint32_t texels, uint32_t block) {
  return (uint64_t{texels} + block - 1) / block;
}

// Why a format outside the table is refused: the classes the brief names get their own words.
std::string_view unsupported_class(VkFormat format) {
  switch (format) {
    case VK_FORMAT_S8_UINT:
    case VK_FORMAT_D16_UNORM_S8_UINT: return "stencil-only and D16S8 depth/stencil formats are not supported";
    default: break;
  }
  if (format >= VK_FORMAT_BC1_RGB_UNORM_BLOCK && format <= VK_FORMAT_ASTC_12x12_SRGB_BLOCK) {
    return "compressed formats other than BC1-BC7, ETC2 and EAC are not supported";
  }
  if (format >= VK_FORMAT_G8B8G8R8_422_UNORM && format <= VK_FORMAT_G16_B16_R16_3PLANE_444_UNORM) {
    return "multi-planar and subsampled formats are not supported";
  }
  return "not a color format the backend handles (see texel_bytes)";
}

Error refuse(const ImageDesc& desc, std::string_view reason) {
  return fail("Image::create: " + format_name(desc.format) + ": " + std::string(reason));
}

VkImageType vk_image_type(ImageType type) {
  switch (type) {
    case ImageType::Image1D: return VK_IMAGE_TYPE_1D;
    case ImageType::Image3D: return VK_IMAGE_TYPE_3D;
    case ImageType::Image2D: break;
  }
  return VK_IMAGE_TYPE_2D;
}

// The description on its own (before asking the device).
Status check_shape(const ImageDesc& desc) {
  const ImageExtent& e = desc.extent;
  if (e.width == 0 || e.height == 0 || e.depth == 0) return refuse(desc, "every extent must be at least 1");
  if (desc.mip_levels == 0 || desc.array_layers == 0) return refuse(desc, "mip levels and layers must be at least 1");
  if (desc.type == ImageType::Image1D && (e.height != 1 || e.depth != 1)) {
    return refuse(desc, "a 1D image has height and depth 1");
  }
  if (desc.type == ImageType::Image2D && e.depth != 1) return refuse(desc, "a 2D image has depth 1");
  if (desc.type == ImageType::Image3D && desc.array_layers != 1) return refuse(desc, "a 3D image has one layer");
  const uint32_t largest = std::max({e.width, e.height, e.depth});
  uint32_t full_chain = 1;
  while ((largest >> full_chain) != 0) ++full_chain;
  if (desc.mip_levels > full_chain) {
    return refuse(desc, std::to_string(desc.mip_levels) + " mip levels exceed the full chain of " +
                            std::to_string(full_chain) + " for this extent");
  }
  if (desc.cube_compatible && (desc.type != ImageType::Image2D || e.width != e.height || desc.array_layers % 6 != 0)) {
    return refuse(desc, "a cube-compatible image is 2D, square, with a multiple of 6 layers");
  }
  if (desc.usage & ~uint32_t(kImageStorage | kImageSampled)) return refuse(desc, "unknown usage bits");
  if (desc.samples == 0 || desc.samples > 64 || (desc.samples & (desc.samples - 1)) != 0) {
    return refuse(desc, std::to_string(desc.samples) + " samples: a sample count is a power of two from 1 to 64");
  }
  // Vulkan 1.3 VkImageCreateInfo: samples other than 1 need a 2D image of one mip level and no cube compatibility
  // (VUID-VkImageCreateInfo-samples-02257).
  if (desc.samples > 1 && (desc.type != ImageType::Image2D || desc.mip_levels != 1 || desc.cube_compatible)) {
    return refuse(desc, "a multisample image is 2D, with one mip level and not cube compatible");
  }
  return {};
}

// The optimal-tiling features the usage needs, then the device's limits for this exact combination.
Status check_device_support(Device& device, const ImageDesc& desc, VkImageUsageFlags usage, VkImageCreateFlags flags) {
  VkFormatProperties properties{};
  device.vki().vkGetPhysicalDeviceFormatProperties(device.physical_device(), desc.format, &properties);
  const VkFormatFeatureFlags features = properties.optimalTilingFeatures;
  struct Need {
    bool wanted;
    VkFormatFeatureFlags feature;
    const char* what;
  };
  const Need needs[] = {
      {true, VK_FORMAT_FEATURE_TRANSFER_SRC_BIT, "is not a transfer source (TRANSFER_SRC)"},
      {true, VK_FORMAT_FEATURE_TRANSFER_DST_BIT, "is not a transfer destination (TRANSFER_DST)"},
      {(desc.usage & kImageStorage) != 0, VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT,
       "does not support storage images (STORAGE_IMAGE) on this device"},
      {(desc.usage & kImageSampled) != 0, VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT,
       "does not support sampled images (SAMPLED_IMAGE) on this device"},
  };
  for (const Need& need : needs) {
    if (need.wanted && !(features & need.feature)) return refuse(desc, need.what);
  }
  VkImageFormatProperties limits{};
  const VkResult result = device.vki().vkGetPhysicalDeviceImageFormatProperties(
      device.physical_device(), desc.format, vk_image_type(desc.type), VK_IMAGE_TILING_OPTIMAL, usage, flags, &limits);
  if (result == VK_ERROR_FORMAT_NOT_SUPPORTED) {
    return refuse(desc, "this type, usage and flags are not supported by the device for optimal tiling");
  }
  if (result != VK_SUCCESS) {
    return fail("vkGetPhysicalDeviceImageFormatProperties: " + std::string(vk_result_string(result)), result);
  }
  const ImageExtent& e = desc.extent;
  if (e.width > limits.maxExtent.width || e.height > limits.maxExtent.height || e.depth > limits.maxExtent.depth) {
    return refuse(desc, "extent " + std::to_string(e.width) + "x" + std::to_string(e.height) + "x" +
                            std::to_string(e.depth) + " exceeds the device's " +
                            std::to_string(limits.maxExtent.width) + "x" + std::to_string(limits.maxExtent.height) +
                            "x" + std::to_string(limits.maxExtent.depth));
  }
  if (desc.mip_levels > limits.maxMipLevels) {
    return refuse(desc, std::to_string(desc.mip_levels) + " mip levels exceed the device's " +
                            std::to_string(limits.maxMipLevels));
  }
  if (desc.array_layers > limits.maxArrayLayers) {
    return refuse(desc, std::to_string(desc.array_layers) + " array layers exceed the device's " +
                            std::to_string(limits.maxArrayLayers));
  }
  if (desc.samples > 1) {
    // VUID-VkImageCreateInfo-samples-02258: the count must be in sampleCounts for this format, type, tiling, usage
    // and flags (which already holds the limits' sampledImage*/storageImageSampleCounts for the usage).
    if (!(limits.sampleCounts & desc.samples)) {
      std::string counts;
      for (uint32_t n = 1; n <= 64; n <<= 1) {
        if (limits.sampleCounts & n) counts += (counts.empty() ? "" : ", ") + std::to_string(n);
      }
      return refuse(desc, std::to_string(desc.samples) +
                              " samples are not supported for this format and usage (the device's counts: " + counts +
                              ")");
    }
    // VUID-VkImageCreateInfo-usage-00968: storage usage with more than one sample needs the feature.
    if ((desc.usage & kImageStorage) && !device.features().storage_image_multisample) {
      return refuse(desc, "multisample storage images need shaderStorageImageMultisample, which the device lacks");
    }
  }
  return {};
}

}  // namespace

std::string format_name(VkFormat format) {
  if (const ColorFormat* f = find_format(format)) return "VK_FORMAT_" + std::string(f->name);
  return "VkFormat " + std::to_string(static_cast<int>(format));
}

bool is_depth_format(VkFormat format) {
  return std::any_of(kDepthFormats.begin(), kDepthFormats.end(),
                     [&](const ColorFormat& f) { return f.format == format; });
}

VkImageAspectFlags format_aspects(VkFormat format) {
  if (format == VK_FORMAT_D24_UNORM_S8_UINT || format == VK_FORMAT_D32_SFLOAT_S8_UINT) {
    return VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT;
  }
  return is_depth_format(format) ? VK_IMAGE_ASPECT_DEPTH_BIT : VK_IMAGE_ASPECT_COLOR_BIT;
}

VkImageAspectFlags data_aspect(VkFormat format) {
  return is_depth_format(format) ? VK_IMAGE_ASPECT_DEPTH_BIT : VK_IMAGE_ASPECT_COLOR_BIT;
}

uint32_t texel_bytes(VkFormat format) {
  const ColorFormat* f = find_format(format);
  return f ? f->bytes : 0;
}

bool is_block_format(VkFormat format) {
  return std::any_of(kBlockFormats.begin(), kBlockFormats.end(),
                     [&](const ColorFormat& f) { return f.format == format; });
}

ImageExtent block_extent(VkFormat format) {
  return is_block_format(format) ? ImageExtent{4, 4, 1} : ImageExtent{1, 1, 1};
}

ImageExtent mip_extent(const ImageExtent& extent, uint32_t level) {
  auto shrink = [level](uint32_t size) { return level >= 32 ? 1u : std::max(1u, size >> level); };
  return {shrink(extent.width), shrink(extent.height), shrink(extent.depth)};
}

Expected<std::shared_ptr<Image>> Image::create(Device& device, const ImageDesc& desc) {
  if (Status ok = device.alive(); !ok) return ok.error();
  const uint32_t bytes = bismuth::backend::texel_bytes(desc.format);
  if (bytes == 0) return refuse(desc, unsupported_class(desc.format));
  if (Status ok = check_shape(desc); !ok) return ok.error();
  VkImageUsageFlags usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
  if (desc.usage & kImageStorage) usage |= VK_IMAGE_USAGE_STORAGE_BIT;
  if (desc.usage & kImageSampled) usage |= VK_IMAGE_USAGE_SAMPLED_BIT;
  VkImageCreateFlags flags = desc.cube_compatible ? VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT : 0;
  // Depth images are viewed only in their own format (image_view.cpp): no reinterpretation to allow.
  if (desc.mutable_format && !is_depth_format(desc.format)) flags |= VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT;
  if (Status ok = check_device_support(device, desc, usage, flags); !ok) return ok.error();

  const auto& vk = device.vk();
  std::shared_ptr<Image> self(new Image(device, desc));
  self->texel_bytes_ = bytes;
  VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  info.flags = flags;
  info.imageType = vk_image_type(desc.type);
  info.format = desc.format;
  info.extent = {desc.extent.width, desc.extent.height, desc.extent.depth};
  info.mipLevels = desc.mip_levels;
  info.arrayLayers = desc.array_layers;
  info.samples = static_cast<VkSampleCountFlagBits>(desc.samples);
  info.tiling = VK_IMAGE_TILING_OPTIMAL;
  info.usage = usage;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;  // the first command moves it to GENERAL (image.hpp)
  if (Status ok = device.call("vkCreateImage", vk.vkCreateImage, device.handle(), &info, nullptr, &self->image_); !ok) {
    return ok.error();
  }
  VkMemoryRequirements requirements{};
  vk.vkGetImageMemoryRequirements(device.handle(), self->image_, &requirements);
  auto type =
      find_memory_type(device.memory_properties(), requirements.memoryTypeBits, 0, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  if (!type) return type.error();
  VkMemoryAllocateInfo allocate{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  allocate.allocationSize = requirements.size;
  self->memory_bytes_ = requirements.size;
  allocate.memoryTypeIndex = *type;
  if (Status ok =
          device.call("vkAllocateMemory", vk.vkAllocateMemory, device.handle(), &allocate, nullptr, &self->memory_);
      !ok) {
    return ok.error();
  }
  if (Status ok = device.call("vkBindImageMemory", vk.vkBindImageMemory, device.handle(), self->image_, self->memory_,
                              VkDeviceSize{0});
      !ok) {
    return ok.error();
  }
  return self;
}

void Image::mark_used(uint64_t value) {
  raise_to(last_use_, value);
}

Image::~Image() {
  Device* device = device_;
  VkImage image = image_;
  VkDeviceMemory memory = memory_;
  std::vector<VkImageView> views;
  for (const CachedView& v : views_) views.push_back(v.info.handle);
  device->defer(last_use(), [device, image, memory, views = std::move(views)] {
    const auto& vk = device->vk();
    for (VkImageView view : views) vk.vkDestroyImageView(device->handle(), view, nullptr);
    if (image != VK_NULL_HANDLE) vk.vkDestroyImage(device->handle(), image, nullptr);
    if (memory != VK_NULL_HANDLE) vk.vkFreeMemory(device->handle(), memory, nullptr);
  });
}

ImageRegion whole_level(const Image& image, uint32_t level) {
  ImageRegion region;
  region.mip_level = level;
  region.layer_count = image.desc().array_layers;
  region.extent = image.extent(level);
  return region;
}

Status check_region(const Image& image, const ImageRegion& region, const char* what) {
  const ImageDesc& desc = image.desc();
  auto refuse_region = [what](const std::string& why) { return fail(std::string(what) + ": " + why); };
  if (region.mip_level >= desc.mip_levels) {
    return refuse_region("mip level " + std::to_string(region.mip_level) + " of an image with " +
                         std::to_string(desc.mip_levels));
  }
  if (region.layer_count == 0 || region.base_layer >= desc.array_layers ||
      region.layer_count > desc.array_layers - region.base_layer) {
    return refuse_region("layers " + std::to_string(region.base_layer) + " + " + std::to_string(region.layer_count) +
                         " outside the image's " + std::to_string(desc.array_layers));
  }
  const ImageExtent level = image.extent(region.mip_level);
  const ImageExtent& e = region.extent;
  // 64-bit sums: an offset near UINT32_MAX must not wrap into range.
  auto inside = [](uint32_t offset, uint32_t size, uint32_t limit) {
    return size != 0 && uint64_t(offset) + size <= limit;
  };
  if (!inside(region.x, e.width, level.width) || !inside(region.y, e.height, level.height) ||
      !inside(region.z, e.depth, level.depth)) {
    return refuse_region("box at (" + std::to_string(region.x) + "," + std::to_string(region.y) + "," +
                         std::to_string(region.z) + ") of " + std::to_string(e.width) + "x" + std::to_string(e.height) +
                         "x" + std::to_string(e.depth) + " is empty or outside mip level " +
                         std::to_string(region.mip_level) + " (" + std::to_string(level.width) + "x" +
                         std::to_string(level.height) + "x" + std::to_string(level.depth) + ")");
  }
  // Block formats (VUID-vkCmdCopyBufferToImage-pRegions-07274 .. -07279 and their vkCmdCopyImage kin): offsets on
  // block boundaries, sizes whole blocks unless the box ends at the level's edge (a partial edge block).
  const ImageExtent block = block_extent(desc.format);
  auto aligned = [](uint32_t offset, uint32_t size, uint32_t limit, uint32_t b) {
    return offset % b == 0 && (size % b == 0 || offset + size == limit);
  };
  if (!aligned(region.x, e.width, level.width, block.width) ||
      !aligned(region.y, e.height, level.height, block.height)) {
    return refuse_region("box at (" + std::to_string(region.x) + "," + std::to_string(region.y) + ") of " +
                         std::to_string(e.width) + "x" + std::to_string(e.height) + " is not aligned to " +
                         format_name(desc.format) + "'s " + std::to_string(block.width) + "x" +
                         std::to_string(block.height) + " blocks");
  }
  return {};
}

uint64_t region_bytes(const Image& image, const ImageRegion& region) {
  const ImageExtent block = block_extent(image.desc().format);
  return blocks_across(region.extent.width, block.width) * blocks_across(region.extent.height, block.height) *
         region.extent.depth * region.layer_count * image.texel_bytes();
}

}  // namespace bismuth::backend
