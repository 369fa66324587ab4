// StagingPool (staging_pool.hpp): chunks reused in place of a staging buffer per transfer.
#include "staging_pool.hpp"

namespace bismuth::backend {

namespace {

constexpr VkDeviceSize kAlignment = 16;

VkDeviceSize aligned(VkDeviceSize v) {
  return (v + kAlignment - 1) & ~(kAlignment - 1);
}

}  // namespace

Expected<StagingPool::Slice> StagingPool::allocate(VkDeviceSize bytes, const std::function<bool(const Buffer&)>& idle) {
  const VkDeviceSize size = aligned(bytes);
  auto own = [&]() -> Expected<Slice> {
    auto buffer = Buffer::create(*device_, bytes, BufferKind::Staging);
    if (!buffer) return buffer.error();
    ++own_buffers_;
    auto* data = static_cast<std::byte*>((*buffer)->mapped());
    return Slice{std::move(*buffer), 0, data};
  };
  if (size > chunk_bytes_ / 2) return own();
  auto take = [&](Chunk& c) {
    Slice s{c.buffer, c.used, static_cast<std::byte*>(c.buffer->mapped()) + c.used};
    c.used += size;
    return s;
  };
  // The current chunk while it has room (its earlier slices may still be pending: they lie before `used`).
  if (current_ < chunks_.size() && chunks_[current_].used + size <= chunk_bytes_) return take(chunks_[current_]);
  // Else the first chunk nothing pending uses any more, from its beginning.
  for (size_t i = 0; i < chunks_.size(); ++i) {
    if (idle(*chunks_[i].buffer)) {
      chunks_[i].used = 0;
      current_ = i;
      return take(chunks_[i]);
    }
  }
  if (chunks_.size() < max_chunks_) {
    auto buffer = Buffer::create(*device_, chunk_bytes_, BufferKind::Staging);
    if (!buffer) return own();  // no room for a chunk: the request may still fit on its own
    chunks_.push_back(Chunk{std::move(*buffer), 0});
    current_ = chunks_.size() - 1;
    return take(chunks_.back());
  }
  return own();
}

}  // namespace bismuth::backend
