// CommandStream (command_stream.hpp), transfers: copies and fills in stream order, uploads that never stall, and
// readbacks and maps that wait only for what the buffer needs.
#include <cstring>

#include "bismuth/backend/command_stream.hpp"
#include "command_recorder.hpp"
#include "staging_pool.hpp"

namespace bismuth::backend {

Status CommandStream::copy(Buffer& source, VkDeviceSize source_offset, Buffer& destination,
                           VkDeviceSize destination_offset, VkDeviceSize bytes) {
  if (bytes == 0) return {};
  if (source_offset + bytes > source.size() || destination_offset + bytes > destination.size()) {
    return fail("copy: range past the end of a buffer");
  }
  auto begun = begin_batch();
  if (!begun) return begun.error();
  Batch& batch = **begun;
  // Ordered with every earlier command that touched either range, dispatches included in both models (GL orders
  // its buffer commands with earlier shader work).
  order_transfer(ordered_hazard(source.handle(), source_offset, source_offset + bytes, false) ||
                 ordered_hazard(destination.handle(), destination_offset, destination_offset + bytes, true));
  hazards_.note_access(source.handle(), source_offset, source_offset + bytes, false);
  hazards_.note_access(destination.handle(), destination_offset, destination_offset + bytes, true);
  track(batch, source);
  track(batch, destination);
  batch.has_writes = true;
  recorder_->record(CmdCopyBuffer{source.handle(), destination.handle(), {source_offset, destination_offset, bytes}});
  recorder_->publish();
  return {};
}

Status CommandStream::fill(Buffer& buffer, VkDeviceSize offset, VkDeviceSize bytes, uint32_t value) {
  if (bytes == VK_WHOLE_SIZE) bytes = buffer.size() > offset ? buffer.size() - offset : 0;
  if (bytes == 0) return {};
  if (offset % 4 != 0 || bytes % 4 != 0 || offset + bytes > buffer.size()) {
    return fail("fill: offset and size must be multiples of 4 inside the buffer");
  }
  auto begun = begin_batch();
  if (!begun) return begun.error();
  Batch& batch = **begun;
  order_transfer(ordered_hazard(buffer.handle(), offset, offset + bytes, true));
  hazards_.note_access(buffer.handle(), offset, offset + bytes, true);
  track(batch, buffer);
  batch.has_writes = true;
  recorder_->record(CmdFillBuffer{buffer.handle(), offset, bytes, value});
  recorder_->publish();
  return {};
}

Status CommandStream::wait_buffer_idle(Buffer& buffer) {
  if (in_current_batch(buffer)) {
    auto flushed = flush();
    if (!flushed) return flushed.error();
  }
  if (buffer.last_use() != 0) {
    Status waited = device_->wait(buffer.last_use());
    // The batch that wrote the buffer may have failed to submit on the recording thread: not its old contents.
    if (Status ok = submission_error(); !ok) return ok;
    if (!waited) return waited;
  }
  retire_completed();
  return {};
}

Status CommandStream::upload(Buffer& buffer, VkDeviceSize offset, std::span<const std::byte> data) {
  if (Status ok = device_->alive(); !ok) return ok;
  if (data.empty()) return {};
  if (offset + data.size() > buffer.size()) return fail("upload: range past the end of the buffer");
  if (buffer.host_visible() && !in_current_batch(buffer) && device_->is_complete(buffer.last_use())) {
    std::memcpy(static_cast<std::byte*>(buffer.mapped()) + offset, data.data(), data.size());
    return {};
  }
  // Busy or device-local: stage and copy in stream order. Copies need 4-byte granularity only for fills.
  auto staging = stage(data.size());
  if (!staging) return staging.error();
  std::memcpy(staging->data, data.data(), data.size());
  return copy(*staging->buffer, staging->offset, buffer, offset, data.size());
}

Status CommandStream::readback(Buffer& buffer, VkDeviceSize offset, std::span<std::byte> out) {
  if (Status ok = device_->alive(); !ok) return ok;
  if (out.empty()) return {};
  if (offset + out.size() > buffer.size()) return fail("readback: range past the end of the buffer");
  if (buffer.host_visible()) {
    if (Status ok = wait_buffer_idle(buffer); !ok) return ok;
    std::memcpy(out.data(), static_cast<const std::byte*>(buffer.mapped()) + offset, out.size());
    return {};
  }
  auto staging = stage(out.size());
  if (!staging) return staging.error();
  if (Status ok = copy(buffer, offset, *staging->buffer, staging->offset, out.size()); !ok) return ok;
  // Waits for the batch of this copy (the chunk's last use): exactly the work the readback needs, as the buffer's
  // writes come before the copy in stream order.
  if (Status ok = wait_buffer_idle(*staging->buffer); !ok) return ok;
  std::memcpy(out.data(), staging->data, out.size());
  return {};
}

Expected<StagingSlice> CommandStream::stage(VkDeviceSize bytes) {
  const uint64_t created_before = staging_->buffers_created();
  auto slice = staging_->allocate(bytes, [this](const Buffer& chunk) {
    return !in_current_batch(chunk) && device_->is_complete(chunk.last_use());
  });
  if (slice) {
    ++stats_.staged_transfers;
    stats_.staging_buffers_created += staging_->buffers_created() - created_before;
  }
  return slice;
}

Expected<void*> CommandStream::map(Buffer& buffer) {
  if (Status ok = device_->alive(); !ok) return ok.error();
  if (!buffer.host_visible()) return fail("map: the buffer is device-local (use readback/upload)");
  if (Status ok = wait_buffer_idle(buffer); !ok) return ok.error();
  return buffer.mapped();
}

}  // namespace bismuth::backend
