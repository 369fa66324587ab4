// Host-visible staging memory for CommandStream's uploads to and readbacks from device-local buffers
// (command_stream_transfers.cpp). A request is a slice of one of a few chunk buffers, allocated by bumping an
// offset; a chunk starts again from its beginning once nothing that used it is pending (its last submission
// completed and it is not in the batch being recorded). Requests larger than half a chunk, and requests while
// every chunk is busy and the pool is at its size, get a buffer of their own, as every request did before.
//
// Why: a Buffer::create per request is a vkAllocateMemory each, which NVIDIA's driver answers in hundreds of
// microseconds, on paths GL programs take once per dispatch (glBufferSubData, glMapBufferRange(READ),
// glGetBufferSubData).
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <vector>

#include "bismuth/backend/buffer.hpp"

namespace bismuth::backend {

class StagingPool {
 public:
  static constexpr VkDeviceSize kDefaultChunkBytes = VkDeviceSize{4} << 20;
  static constexpr size_t kDefaultMaxChunks = 4;

  explicit StagingPool(Device& device, VkDeviceSize chunk_bytes = kDefaultChunkBytes,
                       size_t max_chunks = kDefaultMaxChunks)
      : device_(&device), chunk_bytes_(chunk_bytes), max_chunks_(max_chunks) {}

  using Slice = StagingSlice;  // its buffer: a chunk, or a buffer of the request's own

  // `bytes` of staging memory, 16-byte aligned. `idle(chunk)` says whether nothing that used a chunk is pending.
  Expected<Slice> allocate(VkDeviceSize bytes, const std::function<bool(const Buffer&)>& idle);

  size_t chunks() const { return chunks_.size(); }
  // Staging buffers made so far: chunks, and requests that got a buffer of their own.
  uint64_t buffers_created() const { return chunks_.size() + own_buffers_; }

 private:
  struct Chunk {
    std::shared_ptr<Buffer> buffer;
    VkDeviceSize used = 0;
  };
  Device* device_;
  VkDeviceSize chunk_bytes_;
  size_t max_chunks_;
  std::vector<Chunk> chunks_;
  size_t current_ = 0;
  uint64_t own_buffers_ = 0;
};

}  // namespace bismuth::backend
