// Storage buffers. Memory placement follows the Device's strategy: host-visible coherent on UMA devices
// (lavapipe, integrated GPUs), device-local with staging copies where the device has dedicated memory.
// One VkDeviceMemory per buffer (no sub-allocation yet).
//
// Lifetime: buffers are shared_ptr; a CommandStream holds a reference while a dispatch or copy that uses the
// buffer is recorded but not yet submitted, and marks the buffer with the submission's timeline value. When the
// last reference goes, ~Buffer hands the VkBuffer and its memory to Device::defer, so they are destroyed only
// after every submission that used them completed.
#pragma once

#include <atomic>
#include <cstddef>
#include <memory>
#include <mutex>
#include <vector>

#include "bismuth/backend/device.hpp"

namespace bismuth::backend {

enum class BufferKind {
  Storage,  // shader-visible; placement per the Device's strategy
  Staging,  // host-visible coherent transfer buffer
  // Shader-visible and host-visible coherent (host-cached preferred), mapped for its lifetime: GL's persistent
  // coherent mappings (glBufferStorage with GL_MAP_PERSISTENT_BIT), on every device.
  HostStorage,
  // Shader-visible storage in memory that is device-local and host-visible coherent at once (a BAR heap), mapped
  // for its lifetime: a small buffer the host reads back (a counter, a flag, a reduction's result) is then read in
  // place once its commands completed, and written in place while idle, so a dispatch followed by a read needs no
  // copy to staging and no transfer barriers in its batch. The GPU keeps device-local speed; host reads of such
  // memory are uncached, which is why only small buffers ask for it. Where the device has no such memory type, or
  // its heap is exhausted, the buffer is placed like Storage.
  MappedDeviceLocal,
};

// A texel-buffer view Buffer::texel_view made: its handle, the bytes it covers (VK_WHOLE_SIZE resolved), and its
// format's buffer features (UNIFORM_TEXEL_BUFFER, STORAGE_TEXEL_BUFFER, STORAGE_TEXEL_BUFFER_ATOMIC).
struct TexelBufferViewInfo {
  VkBufferView handle = VK_NULL_HANDLE;
  VkDeviceSize range = 0;
  VkFormatFeatureFlags features = 0;
};

class Buffer : public std::enable_shared_from_this<Buffer> {
 public:
  static Expected<std::shared_ptr<Buffer>> create(Device& device, VkDeviceSize size,
                                                  BufferKind kind = BufferKind::Storage);
  ~Buffer();
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  VkBuffer handle() const { return buffer_; }
  VkDeviceSize size() const { return size_; }
  bool host_visible() const { return mapped_ != nullptr; }
  // The persistent mapping of a host-visible buffer (null otherwise). Reading or writing it while a submission
  // that uses the buffer is in flight is a data race; CommandStream::map waits first.
  void* mapped() const { return mapped_; }
  // The buffer's GPU address (vkGetBufferDeviceAddress) where the device has DeviceFeatures::buffer_device_address
  // and the buffer is shader-visible; 0 otherwise. Shaders reach the buffer through it (PhysicalStorageBuffer64)
  // without a descriptor, so a dispatch that may do so must keep the buffer alive and ordered itself (the GL shim's
  // resident buffers).
  VkDeviceAddress device_address() const { return device_address_; }
  // The last timeline value of a submission that used the buffer (0: never submitted).
  uint64_t last_use() const { return last_use_.load(std::memory_order_acquire); }
  void mark_used(uint64_t value);

  // A VkBufferView of `format` over [offset, offset + range) (GL buffer textures, glTexBuffer(Range)), created on
  // first use and kept (thread-safe) until the buffer is destroyed, when it goes to Device::defer with it. Error:
  // a Staging buffer, a format texel_bytes() does not know or one the device does not support in both uniform and
  // storage texel buffers (every shader-visible buffer has both usages, and Vulkan checks the view against each), an
  // offset that is not a multiple of minTexelBufferOffsetAlignment or past the end, a range that is not a multiple of
  // the texel size or beyond the end (VK_WHOLE_SIZE: to the end, rounded down to whole texels), or more than
  // maxTexelBufferElements texels.
  Expected<TexelBufferViewInfo> texel_view(VkFormat format, VkDeviceSize offset, VkDeviceSize range);

 private:
  explicit Buffer(Device& device) : device_(&device) {}
  struct CachedTexelView {
    VkFormat format;
    VkDeviceSize offset, requested_range;
    TexelBufferViewInfo info;
  };
  std::mutex texel_views_mutex_;
  std::vector<CachedTexelView> texel_views_;
  bool shader_visible_ = false;
  Device* device_;
  VkBuffer buffer_ = VK_NULL_HANDLE;
  VkDeviceMemory memory_ = VK_NULL_HANDLE;
  VkDeviceSize size_ = 0;
  void* mapped_ = nullptr;
  VkDeviceAddress device_address_ = 0;
  std::atomic<uint64_t> last_use_{0};
};

// A range of host-visible staging memory: `data` maps `buffer` at `offset` (CommandStream's uploads and readbacks).
struct StagingSlice {
  std::shared_ptr<Buffer> buffer;
  VkDeviceSize offset = 0;
  std::byte* data = nullptr;
};

// The index of a memory type allowed by `type_bits` with all of `required` (preferring also `preferred`), or
// an error naming what was missing.
Expected<uint32_t> find_memory_type(const VkPhysicalDeviceMemoryProperties& memory, uint32_t type_bits,
                                    VkMemoryPropertyFlags required, VkMemoryPropertyFlags preferred);

}  // namespace bismuth::backend
