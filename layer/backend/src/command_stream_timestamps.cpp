// CommandStream (command_stream.hpp), GPU timestamps: pairs around dispatches and single stream-order ones,
// written into each batch's query pool and read back once the batch completed.
#include "bismuth/backend/command_stream.hpp"
#include "command_recorder.hpp"

namespace bismuth::backend {

namespace {

constexpr size_t kRetainedTimestampBatches = 64;

}  // namespace

Status CommandStream::prepare_timestamp_pair(Batch& batch) {
  if (batch.query_pool == VK_NULL_HANDLE) {
    VkQueryPoolCreateInfo query_info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    query_info.queryType = VK_QUERY_TYPE_TIMESTAMP;
    query_info.queryCount = options_.timestamp_pairs_per_batch * 2;
    if (Status ok = device_->call("vkCreateQueryPool", device_->vk().vkCreateQueryPool, device_->handle(), &query_info,
                                  nullptr, &batch.query_pool);
        !ok) {
      return ok;
    }
  }
  if (batch.pairs_used == 0) {
    recorder_->record(CmdResetQueryPool{batch.query_pool, 0, options_.timestamp_pairs_per_batch * 2});
  }
  return {};
}

Status CommandStream::retire(Batch& batch) {
  if (batch.pairs_used > 0 && batch.query_pool != VK_NULL_HANDLE) {
    std::vector<uint64_t> ticks(size_t(batch.pairs_used) * 2);
    const auto& vk = device_->vk();
    const VkResult result = vk.vkGetQueryPoolResults(device_->handle(), batch.query_pool, 0u, batch.pairs_used * 2,
                                                     ticks.size() * sizeof(uint64_t), ticks.data(),
                                                     VkDeviceSize{sizeof(uint64_t)}, VK_QUERY_RESULT_64_BIT);
    // Not ready although the batch's value completed: its submission failed and an empty one signalled the value,
    // so the timestamps were never written. Keep none (elapsed_ns/timestamp_ns then fail) rather than zeros.
    if (result == VK_NOT_READY) return {};
    if (Status ok = device_->check(result, "vkGetQueryPoolResults"); !ok) return ok;
    timestamps_[batch.id] = std::move(ticks);
    timestamp_order_.push_back(batch.id);
    while (timestamp_order_.size() > kRetainedTimestampBatches) {
      timestamps_.erase(timestamp_order_.front());
      timestamp_order_.pop_front();
    }
  }
  return {};
}

// The two raw ticks of a timestamp pair (masked to the queue's valid bits), flushing and waiting as needed.
Expected<std::array<uint64_t, 2>> CommandStream::pair_ticks(const TimestampQuery& query) {
  if (query.batch == 0) return fail("no timestamps were written (the queue has no timestamp bits)");
  if (current_ && current_->id == query.batch) {
    auto flushed = flush();
    if (!flushed) return flushed.error();
  }
  for (const auto& batch : in_flight_) {
    if (batch->id == query.batch) {
      if (Status ok = device_->wait(batch->value); !ok) return ok.error();
      break;
    }
  }
  retire_completed();
  auto it = timestamps_.find(query.batch);
  if (it == timestamps_.end() || size_t(query.pair) * 2 + 1 >= it->second.size()) {
    return fail("timestamp results are not available: no longer retained, or their batch was never executed");
  }
  const uint32_t bits = device_->timestamp_valid_bits();
  const uint64_t mask = bits >= 64 ? ~0ull : ((1ull << bits) - 1);
  const size_t first = size_t(query.pair) * 2;
  return std::array<uint64_t, 2>{it->second[first] & mask, it->second[first + 1] & mask};
}

Expected<double> CommandStream::elapsed_ns(const TimestampQuery& query) {
  auto ticks = pair_ticks(query);
  if (!ticks) return ticks.error();
  const uint32_t bits = device_->timestamp_valid_bits();
  const uint64_t mask = bits >= 64 ? ~0ull : ((1ull << bits) - 1);
  return double(((*ticks)[1] - (*ticks)[0]) & mask) * double(device_->info().timestamp_period_ns);
}

Status CommandStream::write_timestamp(TimestampQuery* out) {
  *out = TimestampQuery{};
  if (device_->timestamp_valid_bits() == 0) return {};
  auto begun = begin_batch();
  if (!begun) return begun.error();
  Batch& batch = **begun;
  if (Status ok = prepare_timestamp_pair(batch); !ok) return ok;
  // One pair, both slots the same point in the stream (retire() reads pairs).
  recorder_->record(CmdWriteTimestamp{batch.query_pool, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, batch.pairs_used * 2});
  recorder_->record(
      CmdWriteTimestamp{batch.query_pool, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, batch.pairs_used * 2 + 1});
  recorder_->publish();
  *out = TimestampQuery{batch.id, batch.pairs_used};
  ++batch.pairs_used;
  end_readonly_repeat();
  if (batch.pairs_used >= options_.timestamp_pairs_per_batch) {
    auto flushed = flush();
    if (!flushed) return flushed.error();
  }
  return {};
}

Expected<double> CommandStream::timestamp_ns(const TimestampQuery& query) {
  auto ticks = pair_ticks(query);  // write_timestamp fills both slots of its pair with the same point
  if (!ticks) return ticks.error();
  return double((*ticks)[0]) * double(device_->info().timestamp_period_ns);
}

}  // namespace bismuth::backend
