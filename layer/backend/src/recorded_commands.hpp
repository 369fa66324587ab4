// The vkCmd* commands a CommandStream records, each described once: a struct of its arguments and the one call
// that records it (`record`). CommandRecorder either runs `record` on the calling thread (inline) or copies the
// struct into its ring, where the recording thread rebuilds it and runs the same `record` (threaded); so both
// paths record exactly the same call.
//
// Adding a command: a struct here (trivially copyable; array arguments as std::span members named by a static
// `trailing()`, whose elements travel behind the struct in the ring) and its name in RecordedCommands.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <span>
#include <tuple>
#include <type_traits>

#include "bismuth/backend/vk_functions.hpp"

namespace bismuth::backend {

struct CmdBindPipeline {
  VkPipeline pipeline;
  void record(const DeviceFunctions& vk, VkCommandBuffer commands) const {
    vk.vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
  }
};

// Binding i of set 0 is infos[i], of type types[i].
// Binding i has types[i] and counts[i] descriptors (1 where `counts` is shorter or 0); `infos` holds them all,
// binding by binding.
struct CmdPushDescriptorSet {
  VkPipelineLayout layout;
  std::span<const VkDescriptorType> types;
  std::span<const uint32_t> counts;
  std::span<const VkDescriptorBufferInfo> infos;
  static constexpr auto trailing() {
    return std::tuple{&CmdPushDescriptorSet::types, &CmdPushDescriptorSet::counts, &CmdPushDescriptorSet::infos};
  }
  void record(const DeviceFunctions& vk, VkCommandBuffer commands) const;
};

// A set with image, sampler or texel-buffer descriptors besides buffers (CommandStream's image bindings): buffer
// descriptors take `buffers` in order, the others `images` / `texel_views` (one entry per image binding, the array
// its type reads), as in CmdPushDescriptorSet. Separate, so that the buffer-only push stays as small as it was.
struct CmdPushDescriptorSetImages {
  VkPipelineLayout layout;
  std::span<const VkDescriptorType> types;
  std::span<const uint32_t> counts;
  std::span<const VkDescriptorBufferInfo> buffers;
  std::span<const VkDescriptorImageInfo> images;
  std::span<const VkBufferView> texel_views;
  static constexpr auto trailing() {
    return std::tuple{&CmdPushDescriptorSetImages::types, &CmdPushDescriptorSetImages::counts,
                      &CmdPushDescriptorSetImages::buffers, &CmdPushDescriptorSetImages::images,
                      &CmdPushDescriptorSetImages::texel_views};
  }
  void record(const DeviceFunctions& vk, VkCommandBuffer commands) const;
};

// Whether a descriptor of `type` takes a BufferBinding (else an ImageBinding).
constexpr bool is_buffer_descriptor(VkDescriptorType type) {
  return type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER || type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
}
constexpr bool is_texel_buffer_descriptor(VkDescriptorType type) {
  return type == VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER || type == VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER;
}

// Points `writes[i]` (one per binding, dstSet and the struct type already set) at its descriptors: buffer bindings
// at consecutive `buffers`, the others at consecutive entries of `images` or `texel_views`.
void point_mixed_writes(std::span<VkWriteDescriptorSet> writes, std::span<const VkDescriptorType> types,
                        std::span<const uint32_t> counts, const VkDescriptorBufferInfo* buffers,
                        const VkDescriptorImageInfo* images, const VkBufferView* texel_views);

struct CmdBindDescriptorSet {
  VkPipelineLayout layout;
  VkDescriptorSet set;
  void record(const DeviceFunctions& vk, VkCommandBuffer commands) const {
    vk.vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, nullptr);
  }
};

struct CmdPushConstants {
  VkPipelineLayout layout;
  std::span<const std::byte> bytes;  // from offset 0
  static constexpr auto trailing() { return std::tuple{&CmdPushConstants::bytes}; }
  void record(const DeviceFunctions& vk, VkCommandBuffer commands) const {
    vk.vkCmdPushConstants(commands, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, static_cast<uint32_t>(bytes.size()),
                          bytes.data());
  }
};

struct CmdDispatch {
  uint32_t x, y, z;
  void record(const DeviceFunctions& vk, VkCommandBuffer commands) const { vk.vkCmdDispatch(commands, x, y, z); }
};

struct CmdDispatchIndirect {
  VkBuffer buffer;
  VkDeviceSize offset;
  void record(const DeviceFunctions& vk, VkCommandBuffer commands) const {
    vk.vkCmdDispatchIndirect(commands, buffer, offset);
  }
};

// One global VkMemoryBarrier.
struct CmdPipelineBarrier {
  VkPipelineStageFlags source_stages, destination_stages;
  VkAccessFlags source_access, destination_access;
  void record(const DeviceFunctions& vk, VkCommandBuffer commands) const {
    VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    barrier.srcAccessMask = source_access;
    barrier.dstAccessMask = destination_access;
    vk.vkCmdPipelineBarrier(commands, source_stages, destination_stages, 0, 1, &barrier, 0, nullptr, 0, nullptr);
  }
};

struct CmdCopyBuffer {
  VkBuffer source, destination;
  VkBufferCopy region;
  void record(const DeviceFunctions& vk, VkCommandBuffer commands) const {
    vk.vkCmdCopyBuffer(commands, source, destination, 1, &region);
  }
};

struct CmdFillBuffer {
  VkBuffer buffer;
  VkDeviceSize offset, bytes;
  uint32_t value;
  void record(const DeviceFunctions& vk, VkCommandBuffer commands) const {
    vk.vkCmdFillBuffer(commands, buffer, offset, bytes, value);
  }
};

// An image's first use (image.hpp): UNDEFINED → GENERAL for all of its levels and layers, before every later
// compute or transfer access. Nothing earlier wrote it, so the barrier waits for nothing.
struct CmdImageToGeneral {
  VkImage image;
  VkImageAspectFlags aspects;  // every aspect of the format (format_aspects)
  uint32_t mip_levels, array_layers;
  void record(const DeviceFunctions& vk, VkCommandBuffer commands) const;
};

struct CmdCopyBufferToImage {
  VkBuffer source;
  VkImage destination;
  VkBufferImageCopy region;
  void record(const DeviceFunctions& vk, VkCommandBuffer commands) const {
    vk.vkCmdCopyBufferToImage(commands, source, destination, VK_IMAGE_LAYOUT_GENERAL, 1, &region);
  }
};

struct CmdCopyImageToBuffer {
  VkImage source;
  VkBuffer destination;
  VkBufferImageCopy region;
  void record(const DeviceFunctions& vk, VkCommandBuffer commands) const {
    vk.vkCmdCopyImageToBuffer(commands, source, VK_IMAGE_LAYOUT_GENERAL, destination, 1, &region);
  }
};

// One level of generate_mipmaps: a linear blit between two levels of one image (both in GENERAL).
struct CmdBlitImage {
  VkImage image;
  VkImageBlit region;
  void record(const DeviceFunctions& vk, VkCommandBuffer commands) const {
    vk.vkCmdBlitImage(commands, image, VK_IMAGE_LAYOUT_GENERAL, image, VK_IMAGE_LAYOUT_GENERAL, 1, &region,
                      VK_FILTER_LINEAR);
  }
};

struct CmdCopyImage {
  VkImage source, destination;
  VkImageCopy region;
  void record(const DeviceFunctions& vk, VkCommandBuffer commands) const {
    vk.vkCmdCopyImage(commands, source, VK_IMAGE_LAYOUT_GENERAL, destination, VK_IMAGE_LAYOUT_GENERAL, 1, &region);
  }
};

struct CmdClearColorImage {
  VkImage image;
  VkClearColorValue color;
  VkImageSubresourceRange range;
  void record(const DeviceFunctions& vk, VkCommandBuffer commands) const {
    vk.vkCmdClearColorImage(commands, image, VK_IMAGE_LAYOUT_GENERAL, &color, 1, &range);
  }
};

// clear_image on a depth image: the depth aspect (GL's glClearTexImage on a depth texture).
struct CmdClearDepthImage {
  VkImage image;
  float depth;
  VkImageSubresourceRange range;
  void record(const DeviceFunctions& vk, VkCommandBuffer commands) const {
    const VkClearDepthStencilValue value{depth, 0};
    vk.vkCmdClearDepthStencilImage(commands, image, VK_IMAGE_LAYOUT_GENERAL, &value, 1, &range);
  }
};

struct CmdResetQueryPool {
  VkQueryPool pool;
  uint32_t first, count;
  void record(const DeviceFunctions& vk, VkCommandBuffer commands) const {
    vk.vkCmdResetQueryPool(commands, pool, first, count);
  }
};

struct CmdWriteTimestamp {
  VkQueryPool pool;
  VkPipelineStageFlagBits stage;
  uint32_t query;
  void record(const DeviceFunctions& vk, VkCommandBuffer commands) const {
    vk.vkCmdWriteTimestamp(commands, stage, pool, query);
  }
};

template <class... Commands>
struct CommandList {
  static constexpr size_t size = sizeof...(Commands);
};

// Every command the recorder can encode; a command's position is its tag in the ring.
using RecordedCommands =
    CommandList<CmdBindPipeline, CmdPushDescriptorSet, CmdBindDescriptorSet, CmdPushConstants, CmdDispatch,
                CmdDispatchIndirect, CmdPipelineBarrier, CmdCopyBuffer, CmdFillBuffer, CmdResetQueryPool,
                CmdWriteTimestamp, CmdImageToGeneral, CmdCopyBufferToImage, CmdCopyImageToBuffer, CmdCopyImage,
                CmdClearColorImage, CmdPushDescriptorSetImages, CmdBlitImage, CmdClearDepthImage>;

// RecordedCommands::size when `Command` is not in the list (CommandRecorder refuses to encode it).
template <class Command, class... Commands>
consteval uint32_t command_tag(CommandList<Commands...>) {
  uint32_t tag = 0;
  for (bool match : {std::is_same_v<Command, Commands>...}) {
    if (match) break;
    ++tag;
  }
  return tag;
}
template <class Command>
inline constexpr uint32_t kCommandTag = command_tag<Command>(RecordedCommands{});

// ---- the ring encoding: the struct, then each trailing array, each part padded to 8 bytes ----

constexpr size_t align8(size_t n) {
  return (n + 7) & ~size_t(7);
}

template <class Command>
concept HasTrailing = requires {
  Command::trailing();
};

// Copies a trailing array to `at`; returns where the next part goes.
template <class T>
std::byte* append_array(std::byte* at, std::span<const T> array) {
  if (!array.empty()) std::memcpy(at, array.data(), array.size_bytes());  // an empty one may have no data pointer
  return at + align8(array.size_bytes());
}

// Points `array` (its size as encoded) at its copy at `at`; returns where the next part is.
template <class T>
const std::byte* point_at_array(const std::byte* at, std::span<const T>& array) {
  array = {reinterpret_cast<const T*>(at), array.size()};
  return at + align8(array.size_bytes());
}

template <class Command>
size_t encoded_bytes(const Command& command) {
  static_assert(std::is_trivially_copyable_v<Command>);
  size_t bytes = align8(sizeof(Command));
  if constexpr (HasTrailing<Command>) {
    std::apply([&](auto... member) { ((bytes += align8((command.*member).size_bytes())), ...); }, Command::trailing());
  }
  return bytes;
}

// Writes encoded_bytes(command) bytes at `at`.
template <class Command>
void encode_command(const Command& command, std::byte* at) {
  std::memcpy(at, &command, sizeof(Command));
  if constexpr (HasTrailing<Command>) {
    at += align8(sizeof(Command));
    std::apply([&](auto... member) { ((at = append_array(at, command.*member)), ...); }, Command::trailing());
  }
}

// The command encode_command wrote at `at` (8-byte aligned); its spans point into the encoding.
template <class Command>
Command decode_command(const std::byte* at) {
  Command command;
  std::memcpy(&command, at, sizeof(Command));
  if constexpr (HasTrailing<Command>) {
    at += align8(sizeof(Command));
    std::apply([&](auto... member) { ((at = point_at_array(at, command.*member)), ...); }, Command::trailing());
  }
  return command;
}

}  // namespace bismuth::backend
