// Images (issue 18): device-local, optimally tiled color images that CommandStream uploads to, reads back, clears
// and copies (command_stream.hpp), and that dispatches bind through views (Image::view; ImageBinding in
// command_stream.hpp) as storage images or sampled textures.
//
// Layout: an image lives in VK_IMAGE_LAYOUT_GENERAL for its whole life (valid for storage, sampled and transfer
// use), so the stream's global VkMemoryBarriers order image accesses exactly as they order buffer accesses and no
// command ever needs to know which layout another left behind. The first command that touches the image records
// its UNDEFINED → GENERAL transition in stream order (CommandStream::prepare_image).
//
// Lifetime: as Buffer's. A CommandStream holds a reference while a command that uses the image is recorded but not
// submitted, and marks it with the submission's timeline value; ~Image hands the VkImage and its memory to
// Device::defer, so they are destroyed only after every submission that used them completed.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "bismuth/backend/device.hpp"

namespace bismuth::backend {

enum class ImageType : uint8_t { Image1D, Image2D, Image3D };

// What shaders will do with the image besides transfers (transfer source and destination are always asked for).
enum ImageUsage : uint32_t {
  kImageStorage = 1u << 0,  // VK_IMAGE_USAGE_STORAGE_BIT: image load/store (GL image units)
  kImageSampled = 1u << 1,  // VK_IMAGE_USAGE_SAMPLED_BIT: texture fetches
};
using ImageUsages = uint32_t;

struct ImageExtent {
  uint32_t width = 1, height = 1, depth = 1;
  friend bool operator==(const ImageExtent&, const ImageExtent&) = default;
};

struct ImageDesc {
  ImageType type = ImageType::Image2D;
  VkFormat format = VK_FORMAT_R8G8B8A8_UNORM;  // a format of texel_bytes(); others are refused
  ImageExtent extent;                          // 1D: height = depth = 1; 2D: depth = 1
  uint32_t mip_levels = 1;
  uint32_t array_layers = 1;     // 3D: 1
  bool cube_compatible = false;  // 2D, square, layers a multiple of 6 (VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT)
  ImageUsages usage = 0;
  // VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT: views may use another format of the same texel size (GL texture views,
  // glBindImageTexture's format reinterpretation). Off only for an image that is never viewed as another format.
  bool mutable_format = true;
  // Samples per texel (VkSampleCountFlagBits as a number: 1, 2, 4, ... 64). More than 1: a multisample image (GL's
  // 2D_MULTISAMPLE(_ARRAY) textures), 2D, one mip level, not cube compatible, and a count the device reports for
  // this format, type and usage (VkImageFormatProperties::sampleCounts, which Vulkan bounds by the limits'
  // sampled/storageImage*SampleCounts); kImageStorage also needs shaderStorageImageMultisample. Multisample images
  // are cleared, copied (to images of the same count) and bound, never uploaded to or read back: Vulkan's buffer
  // image copies need one sample (VUID-vkCmdCopyBufferToImage-dstImage-07973).
  uint32_t samples = 1;
};

// A view of an image: its type, format (VK_FORMAT_UNDEFINED: the image's), mip levels and array layers, and its
// component mapping (GL's TEXTURE_SWIZZLE_*: r, g, b, a). A view of another format needs
// ImageDesc::mutable_format and a format of the same texel size. Views are cached by the whole description, so a
// swizzled view is a view of its own. Vulkan (VUID-VkWriteDescriptorSet-descriptorType-00336) binds only views
// with the identity mapping as storage images; CommandStream refuses others there.
struct ImageViewDesc {
  VkImageViewType type = VK_IMAGE_VIEW_TYPE_2D;
  VkFormat format = VK_FORMAT_UNDEFINED;
  uint32_t base_mip = 0, mip_count = 1, base_layer = 0, layer_count = 1;
  std::array<VkComponentSwizzle, 4> components{VK_COMPONENT_SWIZZLE_IDENTITY, VK_COMPONENT_SWIZZLE_IDENTITY,
                                               VK_COMPONENT_SWIZZLE_IDENTITY, VK_COMPONENT_SWIZZLE_IDENTITY};
  // Whether `components` maps each component to itself (IDENTITY or its own component).
  bool identity_components() const;
  friend bool operator==(const ImageViewDesc&, const ImageViewDesc&) = default;
};

// A view Image::view_info made: its handle, its format (resolved), and that format's optimal-tiling features
// (what CommandStream checks a binding against: STORAGE_IMAGE, SAMPLED_IMAGE, SAMPLED_IMAGE_FILTER_LINEAR).
struct ImageViewInfo {
  VkImageView handle = VK_NULL_HANDLE;
  VkFormat format = VK_FORMAT_UNDEFINED;
  VkFormatFeatureFlags features = 0;
  VkImageUsageFlags usage = 0;  // the view's usage: the image's sampled/storage bits its format supports
  // Whether comparison samplers (GL shadow samplers) may sample it: VkFormatProperties3's
  // SAMPLED_IMAGE_DEPTH_COMPARISON where the device reports format features 2 (Vulkan 1.3 or
  // VK_KHR_format_feature_flags2), else whether the format is a depth format.
  bool depth_compare = false;
};

// The bytes of one texel of an uncompressed color format Bismuth handles, or of the depth aspect of a depth format
// (D16_UNORM 2; X8_D24_UNORM_PACK32, D24_UNORM_S8_UINT, D32_SFLOAT, D32_SFLOAT_S8_UINT 4: how a depth-aspect copy
// packs them); 0 for every other format (stencil-only, compressed, multi-planar, packed 3-byte formats, ...). Texel
// sizes only: converting pixels is not the backend's.
// Block-compressed formats (kBlockFormats in image.cpp: BC1-BC7, ETC2, EAC): the bytes of one 4x4 texel block.
uint32_t texel_bytes(VkFormat format);
// Whether the format is one of the block-compressed formats the backend handles: regions of such images are in
// texels, block-aligned (offsets multiples of the block, sizes too unless they end at the level's edge), and their
// buffer copies move whole blocks (region_bytes). They are sampled and copied, never stored to or cleared.
bool is_block_format(VkFormat format);
// The texel block of a format: 4x4x1 for block formats, 1x1x1 otherwise.
ImageExtent block_extent(VkFormat format);
// Depth formats: images of them are transferred, cleared and viewed through their depth aspect only (the stencil
// of D24S8 / D32S8 is not reachable yet); they can be sampled (shadow samplers), never stored.
bool is_depth_format(VkFormat format);
// Every aspect of the format (layout transitions): COLOR, DEPTH, or DEPTH | STENCIL.
VkImageAspectFlags format_aspects(VkFormat format);
// The aspect transfers and views use: DEPTH for depth formats, COLOR otherwise.
VkImageAspectFlags data_aspect(VkFormat format);
// "VK_FORMAT_R8G8B8A8_UNORM" for the formats texel_bytes knows, "VkFormat <n>" for others (messages).
std::string format_name(VkFormat format);

// The extent of mip level `level` of `extent` (each dimension halved per level, at least 1).
ImageExtent mip_extent(const ImageExtent& extent, uint32_t level);

class Image : public std::enable_shared_from_this<Image> {
 public:
  // Checks the description against the device before creating anything (vkGetPhysicalDeviceImageFormatProperties
  // and the format's optimal-tiling features): an unsupported format, usage, extent, mip or layer count is an
  // Error that names the format and the reason, never a driver error.
  static Expected<std::shared_ptr<Image>> create(Device& device, const ImageDesc& desc);
  ~Image();
  Image(const Image&) = delete;
  Image& operator=(const Image&) = delete;

  VkImage handle() const { return image_; }
  const ImageDesc& desc() const { return desc_; }
  uint32_t texel_bytes() const { return texel_bytes_; }  // of one texel block for block formats
  // The device memory bound to the image (VkMemoryRequirements::size).
  uint64_t memory_bytes() const { return memory_bytes_; }
  ImageExtent extent(uint32_t level = 0) const { return mip_extent(desc_.extent, level); }

  // The view `desc` describes, created on first use and kept (thread-safe) until the image is destroyed, when it
  // goes to Device::defer with the image. Error, never a driver error: a mip or layer range outside the image, a
  // view type the image cannot have (1D / 1D array of a 1D image; 2D / 2D array of a 2D image, cube / cube array
  // of a cube-compatible one with 6 / a multiple of 6 layers; 3D of a 3D image), a format of another texel size or
  // another format without mutable_format, or a view that could be neither sampled nor stored (the image's usage
  // and the format's features have nothing in common).
  Expected<VkImageView> view(const ImageViewDesc& desc);
  Expected<ImageViewInfo> view_info(const ImageViewDesc& desc);
  size_t view_count() const;

  // The last timeline value of a submission that used the image (0: never submitted).
  uint64_t last_use() const { return last_use_.load(std::memory_order_acquire); }
  void mark_used(uint64_t value);

  // Whether the UNDEFINED → GENERAL transition was recorded (by any stream). A stream sets it when it records the
  // transition and clears it again when that batch is dropped without being submitted.
  bool in_general_layout() const { return general_.load(std::memory_order_acquire); }
  void set_general_layout(bool general) { general_.store(general, std::memory_order_release); }

 private:
  explicit Image(Device& device, const ImageDesc& desc) : device_(&device), desc_(desc) {}
  Device* device_;
  ImageDesc desc_;
  uint32_t texel_bytes_ = 0;
  uint64_t memory_bytes_ = 0;
  VkImage image_ = VK_NULL_HANDLE;
  VkDeviceMemory memory_ = VK_NULL_HANDLE;
  std::atomic<uint64_t> last_use_{0};
  std::atomic<bool> general_{false};
  struct CachedView {
    ImageViewDesc desc;  // format resolved
    ImageViewInfo info;
  };
  mutable std::mutex views_mutex_;
  std::vector<CachedView> views_;  // few per image: a linear search
};

// A box of texels in one mip level and a range of array layers (3D images: layers 0..1, the box's z in slices).
struct ImageRegion {
  uint32_t mip_level = 0;
  uint32_t base_layer = 0, layer_count = 1;
  uint32_t x = 0, y = 0, z = 0;
  ImageExtent extent;
};

// The region covering all of mip level `level` and every layer.
ImageRegion whole_level(const Image& image, uint32_t level = 0);
// Error unless `region` lies inside `image` (its mip level, its layers, its box) and is not empty; `what` names
// the command in the message.
Status check_region(const Image& image, const ImageRegion& region, const char* what);
// The bytes of `region`'s texels tightly packed (rows, then slices, then layers); of its blocks (rows of blocks,
// a partial block at the level's edge counting whole) for a block format.
uint64_t region_bytes(const Image& image, const ImageRegion& region);

}  // namespace bismuth::backend
