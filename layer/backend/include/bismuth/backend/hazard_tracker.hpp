// CommandStream's barrier decisions: which buffer ranges (and whole images) the commands since the last barrier read
// and wrote, and whether the next access needs a barrier first — a read or write of a range written since then, or
// a write of a range read since then; and the scope of the barriers it records (hazards, explicit requests with their
// targets). Part of CommandStream (command_stream.hpp says what its barriers guarantee); inline because every dispatch
// with new bindings asks it.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "bismuth/backend/vk_functions.hpp"

namespace bismuth::backend {

// One vkCmdPipelineBarrier with one global VkMemoryBarrier: the stages and accesses it waits for and makes visible
// to. Requests that meet with no command between them are merged into one (the union of their scopes).
struct BarrierScope {
  VkPipelineStageFlags source_stages = 0, destination_stages = 0;
  VkAccessFlags source_access = 0, destination_access = 0;

  bool empty() const { return source_stages == 0 && destination_stages == 0; }
  BarrierScope& operator|=(const BarrierScope& other) {
    source_stages |= other.source_stages;
    destination_stages |= other.destination_stages;
    source_access |= other.source_access;
    destination_access |= other.destination_access;
    return *this;
  }
  // Whether this barrier orders everything `other` orders.
  bool covers(const BarrierScope& other) const {
    return (source_stages & other.source_stages) == other.source_stages &&
           (destination_stages & other.destination_stages) == other.destination_stages &&
           (source_access & other.source_access) == other.source_access &&
           (destination_access & other.destination_access) == other.destination_access;
  }
  friend bool operator==(const BarrierScope&, const BarrierScope&) = default;
};

// Whom an explicit barrier (CommandStream::memory_barrier) makes the shader writes of earlier dispatches visible
// to — GL's glMemoryBarrier bits in Vulkan terms (the GL shim maps each bit; docs/gl_shim.md).
enum BarrierTarget : uint32_t {
  kBarrierStorage = 1u << 0,          // later dispatches' storage-buffer reads and writes (atomic counters too)
  kBarrierUniform = 1u << 1,          // later dispatches' uniform-buffer reads
  kBarrierIndirectCommand = 1u << 2,  // the parameters of a later indirect dispatch
  kBarrierTransfer = 1u << 3,         // later copies, fills, staged updates and readbacks
  kBarrierHost = 1u << 4,             // host reads and writes through a mapping
  // Images (GL_SHADER_IMAGE_ACCESS_BARRIER_BIT): later dispatches' image loads, stores and atomics, and texel-buffer
  // loads and stores through storage texel buffers.
  kBarrierImage = 1u << 5,
  kBarrierTextureFetch = 1u << 6,   // GL_TEXTURE_FETCH_BARRIER_BIT: later sampled reads (textures, buffer textures)
  kBarrierTextureUpdate = 1u << 7,  // GL_TEXTURE_UPDATE_BARRIER_BIT: later uploads, clears, copies to/of images
  kBarrierFramebuffer = 1u << 8,    // GL_FRAMEBUFFER_BARRIER_BIT: later read-backs (glReadPixels) and clears of images
  kBarrierAllTargets = (1u << 9) - 1,
};
using BarrierTargets = uint32_t;

// The barrier an explicit request records: compute-shader writes → each target's stage and accesses.
constexpr BarrierScope explicit_barrier_scope(BarrierTargets targets) {
  BarrierScope scope;
  if (targets == 0) return scope;
  scope.source_stages = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
  scope.source_access = VK_ACCESS_SHADER_WRITE_BIT;
  if (targets & kBarrierStorage) {
    scope.destination_stages |= VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
    scope.destination_access |= VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
  }
  if (targets & kBarrierUniform) {
    scope.destination_stages |= VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
    scope.destination_access |= VK_ACCESS_UNIFORM_READ_BIT;
  }
  if (targets & kBarrierIndirectCommand) {
    scope.destination_stages |= VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT;
    scope.destination_access |= VK_ACCESS_INDIRECT_COMMAND_READ_BIT;
  }
  if (targets & kBarrierTransfer) {
    scope.destination_stages |= VK_PIPELINE_STAGE_TRANSFER_BIT;
    scope.destination_access |= VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
  }
  if (targets & kBarrierImage) {
    scope.destination_stages |= VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
    scope.destination_access |= VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
  }
  if (targets & kBarrierTextureFetch) {
    scope.destination_stages |= VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
    scope.destination_access |= VK_ACCESS_SHADER_READ_BIT;
  }
  if (targets & (kBarrierTextureUpdate | kBarrierFramebuffer)) {
    scope.destination_stages |= VK_PIPELINE_STAGE_TRANSFER_BIT;
    scope.destination_access |= VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
  }
  if (targets & kBarrierHost) {
    scope.destination_stages |= VK_PIPELINE_STAGE_HOST_BIT;
    scope.destination_access |= VK_ACCESS_HOST_READ_BIT | VK_ACCESS_HOST_WRITE_BIT;
  }
  return scope;
}

class HazardTracker {
 public:
  // The barrier a hazard calls for: compute/transfer writes → compute/transfer reads and writes.
  static constexpr VkPipelineStageFlags kStages = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;
  static constexpr VkAccessFlags kWriteAccess = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
  static constexpr VkAccessFlags kAllAccess = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT |
                                              VK_ACCESS_UNIFORM_READ_BIT | VK_ACCESS_TRANSFER_READ_BIT |
                                              VK_ACCESS_TRANSFER_WRITE_BIT;
  static constexpr BarrierScope kHazardScope{kStages, kStages, kWriteAccess, kAllAccess};

  bool needs_barrier(VkBuffer buffer, VkDeviceSize begin, VkDeviceSize end, bool writes) const {
    for (const Range& r : written_) {
      if (r.buffer == buffer && r.begin < end && begin < r.end) return true;  // read/write after write
    }
    if (writes) {
      for (const Range& r : read_) {
        if (r.buffer == buffer && r.begin < end && begin < r.end) return true;  // write after read
      }
    }
    return false;
  }

  void note_access(VkBuffer buffer, VkDeviceSize begin, VkDeviceSize end, bool writes) {
    std::vector<Range>& ranges = writes ? written_ : read_;
    for (Range& r : ranges) {
      if (r.buffer == buffer) {  // one conservative range per buffer keeps the check linear in buffers
        r.begin = std::min(r.begin, begin);
        r.end = std::max(r.end, end);
        return;
      }
    }
    ranges.push_back(Range{buffer, begin, end});
  }

  // Images are tracked whole (one image, one range), in lists of their own: buffer checks, the path every dispatch
  // takes, never scan them, and a VkImage handle can never be mistaken for a VkBuffer with the same value.
  bool needs_image_barrier(VkImage image, bool writes) const {
    if (std::find(images_written_.begin(), images_written_.end(), image) != images_written_.end()) return true;
    return writes && std::find(images_read_.begin(), images_read_.end(), image) != images_read_.end();
  }

  void note_image_access(VkImage image, bool writes) {
    std::vector<VkImage>& images = writes ? images_written_ : images_read_;
    if (std::find(images.begin(), images.end(), image) == images.end()) images.push_back(image);
  }

  bool empty() const { return written_.empty() && read_.empty() && images_written_.empty() && images_read_.empty(); }
  size_t ranges() const { return written_.size() + read_.size() + images_written_.size() + images_read_.size(); }

  // A barrier was recorded: no earlier access is a hazard any more.
  void clear() {
    written_.clear();
    read_.clear();
    images_written_.clear();
    images_read_.clear();
  }

 private:
  struct Range {
    VkBuffer buffer;
    VkDeviceSize begin, end;
  };
  // Accesses since the last barrier (one merged range per buffer and kind).
  std::vector<Range> written_;
  std::vector<Range> read_;
  // Images accessed since the last barrier (image.hpp: every image is in the GENERAL layout, so the same global
  // memory barrier orders them).
  std::vector<VkImage> images_written_;
  std::vector<VkImage> images_read_;
};

}  // namespace bismuth::backend
