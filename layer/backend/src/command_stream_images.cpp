// CommandStream (command_stream.hpp), transfers on images: uploads and readbacks through the stream's staging
// memory, clears and image-to-image copies, all in stream order and under the same hazard tracking as buffers.
//
// Every image stays in VK_IMAGE_LAYOUT_GENERAL (image.hpp). GENERAL is valid for every use these commands and
// later dispatches make (transfer source and destination, storage, sampled), so no command depends on the layout a
// previous one left, and the global VkMemoryBarrier the hazard tracking records orders image accesses as it orders
// buffer accesses: no per-image barriers, no layout bookkeeping across batches or streams. The price — drivers may
// keep GENERAL images uncompressed — matters for render targets, not for compute. The one layout change, UNDEFINED
// → GENERAL, is recorded by the first command that touches a new image, in stream order, so it happens after
// nothing and before everything that uses the image.
#include <algorithm>
#include <cstring>

#include "bismuth/backend/command_stream.hpp"
#include "command_recorder.hpp"
#include "staging_pool.hpp"

namespace bismuth::backend {

namespace {

VkImageSubresourceLayers layers_of(const Image& image, const ImageRegion& region) {
  return {data_aspect(image.desc().format), region.mip_level, region.base_layer, region.layer_count};
}

VkOffset3D offset_of(const ImageRegion& region) {
  return {static_cast<int32_t>(region.x), static_cast<int32_t>(region.y), static_cast<int32_t>(region.z)};
}

VkExtent3D extent_of(const ImageRegion& region) {
  return {region.extent.width, region.extent.height, region.extent.depth};
}

VkBufferImageCopy buffer_image_copy(const Image& image, VkDeviceSize buffer_offset, const ImageRegion& region) {
  // Row length and image height 0: the buffer holds the region tightly packed (Vulkan's "Buffer and Image
  // Addressing"), which is what the API promises the caller.
  return VkBufferImageCopy{buffer_offset, 0, 0, layers_of(image, region), offset_of(region), extent_of(region)};
}

bool ranges_overlap(uint32_t a, uint32_t a_size, uint32_t b, uint32_t b_size) {
  return uint64_t(a) < uint64_t(b) + b_size && uint64_t(b) < uint64_t(a) + a_size;
}

// Two regions of one image that share texels (Vulkan forbids such a vkCmdCopyImage).
bool regions_overlap(const ImageRegion& a, const ImageRegion& b) {
  return a.mip_level == b.mip_level && ranges_overlap(a.base_layer, a.layer_count, b.base_layer, b.layer_count) &&
         ranges_overlap(a.x, a.extent.width, b.x, b.extent.width) &&
         ranges_overlap(a.y, a.extent.height, b.y, b.extent.height) &&
         ranges_overlap(a.z, a.extent.depth, b.z, b.extent.depth);
}

Status check_size(const Image& image, const ImageRegion& region, size_t bytes, const char* what) {
  const uint64_t expected = region_bytes(image, region);
  if (bytes != expected) {
    return fail(std::string(what) + ": " + std::to_string(bytes) + " bytes given, the region holds " +
                std::to_string(expected) + " (" + std::to_string(image.texel_bytes()) + " per texel, tightly packed)");
  }
  return {};
}

}  // namespace

void CommandStream::track_image(Batch& batch, Image& image) {
  if (std::none_of(batch.images.begin(), batch.images.end(), [&](const auto& i) { return i.get() == &image; })) {
    batch.images.push_back(image.shared_from_this());
  }
  if (!image.in_general_layout()) {
    recorder_->record(CmdImageToGeneral{image.handle(), format_aspects(image.desc().format), image.desc().mip_levels,
                                        image.desc().array_layers});
    image.set_general_layout(true);
    batch.images_made_general.push_back(&image);
  }
}

namespace {

// Vulkan (VUID-vkCmdCopyBufferToImage-commandBuffer-07739 and its kin, VUID-vkCmdBlitImage-commandBuffer-cmdpool):
// depth/stencil copies and clears between buffers and images, and blits, need a queue with graphics; on a
// compute-only queue they are an Error here instead of invalid commands (the NVIDIA driver hangs on such a blit).
Status graphics_queue_needed(const Device& device, const char* what) {
  if (device.graphics_queue()) return {};
  return fail(std::string(what) + " needs a queue with graphics, and Bismuth runs on " + device.info().name +
              "'s compute-only queue (Vulkan allows depth/stencil copies and clears, and blits, only on graphics "
              "queues)");
}

// Vulkan's buffer <-> image copies need single-sample images (VUID-vkCmdCopyBufferToImage-dstImage-07973,
// VUID-vkCmdCopyImageToBuffer-srcImage-07973): a multisample image's texels reach the host only through a shader.
Status single_sample(const Image& image, const char* what) {
  if (image.desc().samples == 1) return {};
  return fail(std::string(what) + ": the image has " + std::to_string(image.desc().samples) +
              " samples; Vulkan copies between buffers and single-sample images only");
}

}  // namespace

Status CommandStream::upload_image(Image& image, const ImageRegion& region, std::span<const std::byte> texels) {
  if (Status ok = device_->alive(); !ok) return ok;
  if (Status ok = check_region(image, region, "upload_image"); !ok) return ok;
  if (Status ok = single_sample(image, "upload_image"); !ok) return ok;
  if (Status ok = check_size(image, region, texels.size(), "upload_image"); !ok) return ok;
  if (is_depth_format(image.desc().format)) {
    if (Status ok = graphics_queue_needed(*device_, "upload_image of a depth image"); !ok) return ok;
  }
  // Staging slices are 16-byte aligned, a multiple of every texel size (vkCmdCopyBufferToImage's bufferOffset).
  auto staging = stage(texels.size());
  if (!staging) return staging.error();
  std::memcpy(staging->data, texels.data(), texels.size());
  auto begun = begin_batch();
  if (!begun) return begun.error();
  Batch& batch = **begun;
  const VkDeviceSize begin = staging->offset, end = staging->offset + texels.size();
  order_transfer(ordered_image_hazard(image.handle(), true) ||
                 ordered_hazard(staging->buffer->handle(), begin, end, false));
  hazards_.note_access(staging->buffer->handle(), begin, end, false);
  hazards_.note_image_access(image.handle(), true);
  track(batch, *staging->buffer);
  track_image(batch, image);
  batch.has_writes = true;
  recorder_->record(CmdCopyBufferToImage{staging->buffer->handle(), image.handle(),
                                         buffer_image_copy(image, staging->offset, region)});
  recorder_->publish();
  return {};
}

Status CommandStream::readback_image(Image& image, const ImageRegion& region, std::span<std::byte> out) {
  if (Status ok = device_->alive(); !ok) return ok;
  if (Status ok = check_region(image, region, "readback_image"); !ok) return ok;
  if (Status ok = single_sample(image, "readback_image"); !ok) return ok;
  if (Status ok = check_size(image, region, out.size(), "readback_image"); !ok) return ok;
  if (is_depth_format(image.desc().format)) {
    if (Status ok = graphics_queue_needed(*device_, "readback_image of a depth image"); !ok) return ok;
  }
  auto staging = stage(out.size());
  if (!staging) return staging.error();
  auto begun = begin_batch();
  if (!begun) return begun.error();
  Batch& batch = **begun;
  const VkDeviceSize begin = staging->offset, end = staging->offset + out.size();
  order_transfer(ordered_image_hazard(image.handle(), false) ||
                 ordered_hazard(staging->buffer->handle(), begin, end, true));
  hazards_.note_image_access(image.handle(), false);
  hazards_.note_access(staging->buffer->handle(), begin, end, true);
  track(batch, *staging->buffer);
  track_image(batch, image);  // a never-written image reads as whatever its memory holds, but in a valid layout
  batch.has_writes = true;    // the staging copy: the batch ends with the barrier that makes it visible to the host
  recorder_->record(CmdCopyImageToBuffer{image.handle(), staging->buffer->handle(),
                                         buffer_image_copy(image, staging->offset, region)});
  recorder_->publish();
  // Waits for the batch of this copy (the chunk's last use): exactly the work the readback needs, as the image's
  // writes come before the copy in stream order.
  if (Status ok = wait_buffer_idle(*staging->buffer); !ok) return ok;
  std::memcpy(out.data(), staging->data, out.size());
  return {};
}

Status CommandStream::clear_image(Image& image, const ImageSubresources& range, const VkClearColorValue& color) {
  if (Status ok = device_->alive(); !ok) return ok;
  const ImageDesc& desc = image.desc();
  if (range.mip_count == 0 || range.base_mip >= desc.mip_levels || range.mip_count > desc.mip_levels - range.base_mip ||
      range.layer_count == 0 || range.base_layer >= desc.array_layers ||
      range.layer_count > desc.array_layers - range.base_layer) {
    return fail("clear_image: mip levels " + std::to_string(range.base_mip) + " + " + std::to_string(range.mip_count) +
                ", layers " + std::to_string(range.base_layer) + " + " + std::to_string(range.layer_count) +
                " are empty or outside the image's " + std::to_string(desc.mip_levels) + " levels and " +
                std::to_string(desc.array_layers) + " layers");
  }
  if (is_depth_format(desc.format)) {
    if (Status ok = graphics_queue_needed(*device_, "clear_image of a depth image"); !ok) return ok;
  }
  // VUID-vkCmdClearColorImage-image-01993: the format needs color-attachment-like clears; block formats have none.
  if (is_block_format(desc.format)) return fail("clear_image: " + format_name(desc.format) + " is block-compressed");
  auto begun = begin_batch();
  if (!begun) return begun.error();
  Batch& batch = **begun;
  order_transfer(ordered_image_hazard(image.handle(), true));
  hazards_.note_image_access(image.handle(), true);
  track_image(batch, image);
  batch.has_writes = true;
  if (is_depth_format(desc.format)) {
    recorder_->record(CmdClearDepthImage{
        image.handle(),
        color.float32[0],
        {VK_IMAGE_ASPECT_DEPTH_BIT, range.base_mip, range.mip_count, range.base_layer, range.layer_count}});
  } else {
    recorder_->record(CmdClearColorImage{
        image.handle(),
        color,
        {VK_IMAGE_ASPECT_COLOR_BIT, range.base_mip, range.mip_count, range.base_layer, range.layer_count}});
  }
  recorder_->publish();
  return {};
}

Status CommandStream::copy_image(Image& source, const ImageRegion& source_region, Image& destination,
                                 const ImageRegion& destination_region) {
  if (Status ok = device_->alive(); !ok) return ok;
  if (Status ok = check_region(source, source_region, "copy_image (source)"); !ok) return ok;
  if (Status ok = check_region(destination, destination_region, "copy_image (destination)"); !ok) return ok;
  if (source.desc().type != destination.desc().type) return fail("copy_image: the images differ in type");
  // VUID-vkCmdCopyImage-srcImage-00136: "The sample count of srcImage and dstImage must match".
  if (source.desc().samples != destination.desc().samples) {
    return fail("copy_image: the images differ in sample count (" + std::to_string(source.desc().samples) + " and " +
                std::to_string(destination.desc().samples) + ")");
  }
  if ((is_depth_format(source.desc().format) || is_depth_format(destination.desc().format)) &&
      source.desc().format != destination.desc().format) {
    return fail("copy_image: a depth image copies only to and from an image of its own format");
  }
  if (is_depth_format(source.desc().format)) {
    if (Status ok = graphics_queue_needed(*device_, "copy_image of depth images"); !ok) return ok;
  }
  if (source.texel_bytes() != destination.texel_bytes()) {
    return fail("copy_image: texel sizes differ (" + std::to_string(source.texel_bytes()) + " and " +
                std::to_string(destination.texel_bytes()) + " bytes): the formats are not compatible");
  }
  // Copies between a block format and another (Vulkan's size-compatible copies, whose destination box is the
  // source's scaled by the blocks) are not offered: both sides have one block extent, so the boxes are equal.
  if (block_extent(source.desc().format) != block_extent(destination.desc().format)) {
    return fail("copy_image: " + format_name(source.desc().format) + " and " + format_name(destination.desc().format) +
                " have different texel blocks");
  }
  if (source_region.extent != destination_region.extent ||
      source_region.layer_count != destination_region.layer_count) {
    return fail("copy_image: the regions differ in extent or layer count");
  }
  if (&source == &destination && regions_overlap(source_region, destination_region)) {
    return fail("copy_image: the regions overlap within one image");
  }
  auto begun = begin_batch();
  if (!begun) return begun.error();
  Batch& batch = **begun;
  order_transfer(ordered_image_hazard(source.handle(), false) || ordered_image_hazard(destination.handle(), true));
  hazards_.note_image_access(source.handle(), false);
  hazards_.note_image_access(destination.handle(), true);
  track_image(batch, source);
  track_image(batch, destination);
  batch.has_writes = true;
  recorder_->record(CmdCopyImage{
      source.handle(),
      destination.handle(),
      {layers_of(source, source_region), offset_of(source_region), layers_of(destination, destination_region),
       offset_of(destination_region), extent_of(source_region)}});
  recorder_->publish();
  return {};
}

// Vulkan 1.3 §20.5 "Image Copies with Scaling": each level is blitted from the one above (filter LINEAR), so level
// l + 1 reads what level l's blit wrote: a transfer → transfer barrier between levels.
Status CommandStream::generate_mipmaps(Image& image, uint32_t base_level, uint32_t layer_base, uint32_t layer_count,
                                       uint32_t last_level) {
  if (Status ok = device_->alive(); !ok) return ok;
  const ImageDesc& desc = image.desc();
  const uint32_t end_level = last_level == 0 ? desc.mip_levels : last_level + 1;
  if (base_level >= desc.mip_levels || end_level > desc.mip_levels || layer_count == 0 ||
      layer_base >= desc.array_layers || layer_count > desc.array_layers - layer_base) {
    return fail("generate_mipmaps: base level " + std::to_string(base_level) + ", layers " +
                std::to_string(layer_base) + " + " + std::to_string(layer_count) + " outside the image's " +
                std::to_string(desc.mip_levels) + " levels and " + std::to_string(desc.array_layers) + " layers");
  }
  if (Status ok = graphics_queue_needed(*device_, "generate_mipmaps (vkCmdBlitImage)"); !ok) return ok;
  VkFormatProperties properties{};
  device_->vki().vkGetPhysicalDeviceFormatProperties(device_->physical_device(), desc.format, &properties);
  constexpr VkFormatFeatureFlags kNeeded = VK_FORMAT_FEATURE_BLIT_SRC_BIT | VK_FORMAT_FEATURE_BLIT_DST_BIT |
                                           VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT;
  if ((properties.optimalTilingFeatures & kNeeded) != kNeeded) {
    return fail("generate_mipmaps: " + format_name(desc.format) +
                " lacks BLIT_SRC, BLIT_DST or SAMPLED_IMAGE_FILTER_LINEAR on this device (no linear blits)");
  }
  if (base_level + 1 >= end_level) return {};
  auto begun = begin_batch();
  if (!begun) return begun.error();
  Batch& batch = **begun;
  order_transfer(ordered_image_hazard(image.handle(), true));
  track_image(batch, image);
  auto corner = [](const ImageExtent& e) {
    return VkOffset3D{static_cast<int32_t>(e.width), static_cast<int32_t>(e.height), static_cast<int32_t>(e.depth)};
  };
  for (uint32_t level = base_level + 1; level < end_level; ++level) {
    if (level > base_level + 1) {
      record_barrier(HazardTracker::kHazardScope);  // the previous level's blit wrote this one's source
      ++stats_.automatic_barriers;
    }
    VkImageBlit blit{};
    blit.srcSubresource = {data_aspect(desc.format), level - 1, layer_base, layer_count};
    blit.srcOffsets[1] = corner(image.extent(level - 1));
    blit.dstSubresource = {data_aspect(desc.format), level, layer_base, layer_count};
    blit.dstOffsets[1] = corner(image.extent(level));
    recorder_->record(CmdBlitImage{image.handle(), blit});
  }
  // After the loop: a barrier inside it cleared the tracking.
  hazards_.note_image_access(image.handle(), true);
  batch.has_writes = true;
  end_readonly_repeat();
  recorder_->publish();
  return {};
}

}  // namespace bismuth::backend
