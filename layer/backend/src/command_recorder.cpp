#include "command_recorder.hpp"

#include <pthread.h>

#include <array>
#include <cstring>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace bismuth::backend {

namespace {

// How long each side polls before it sleeps on the atomic: a dispatch loop publishes every few hundred
// nanoseconds, and a futex round trip costs microseconds.
constexpr int kSpinIterations = 256;

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#else
  std::this_thread::yield();
#endif
}

constexpr size_t align8(size_t n) { return (n + 7) & ~size_t(7); }

struct TargetCmd {
  VkCommandBuffer commands;
};
struct BindPipelineCmd {
  VkPipeline pipeline;
};
struct PushDescriptorsCmd {  // followed by VkDescriptorType[count] (padded to 8) and VkDescriptorBufferInfo[count]
  VkPipelineLayout layout;
  uint32_t count;
};
struct BindSetCmd {
  VkPipelineLayout layout;
  VkDescriptorSet set;
};
struct PushConstantsCmd {  // followed by `bytes` bytes
  VkPipelineLayout layout;
  uint32_t bytes;
};
struct DispatchCmd {
  uint32_t x, y, z;
};
struct DispatchIndirectCmd {
  VkBuffer buffer;
  VkDeviceSize offset;
};
struct BarrierCmd {
  VkPipelineStageFlags source_stages, destination_stages;
  VkAccessFlags source_access, destination_access;
};
struct CopyCmd {
  VkBuffer source, destination;
  VkBufferCopy region;
};
struct FillCmd {
  VkBuffer buffer;
  VkDeviceSize offset, bytes;
  uint32_t value;
};
struct ResetQueriesCmd {
  VkQueryPool pool;
  uint32_t first, count;
};
struct TimestampCmd {
  VkQueryPool pool;
  VkPipelineStageFlagBits stage;
  uint32_t query;
};
struct SubmitCmd {
  VkCommandBuffer commands;
  uint64_t value;
};

template <class T>
T load(const std::byte* at) {
  T value;
  std::memcpy(&value, at, sizeof value);
  return value;
}

}  // namespace

enum class CommandRecorder::Op : uint32_t {
  Wrap,  // padding to the end of the ring
  Stop,
  Target,
  BindPipeline,
  PushDescriptors,
  BindSet,
  PushConstants,
  Dispatch,
  DispatchIndirect,
  Barrier,
  Copy,
  Fill,
  ResetQueries,
  Timestamp,
  Submit,
};

CommandRecorder::CommandRecorder(Device& device, bool threaded)
    : device_(device), vk_(device.vk()), threaded_(threaded) {
  if (!threaded_) return;
  ring_ = std::make_unique<std::byte[]>(kCapacity);
  thread_ = std::thread([this] { run(); });
}

CommandRecorder::~CommandRecorder() { stop_thread_for_exit(); }

// Also the destructor's stop: the thread replays what was encoded, then the Stop, and is joined.
void CommandRecorder::stop_thread_for_exit() {
  if (!threaded_) return;
  reserve(Op::Stop, 0);
  publish_now();
  thread_.join();
  threaded_ = false;
  inline_target_ = replay_target_;  // the command buffer the thread recorded into (visible after the join)
}

// ---- producer side ----

void CommandRecorder::wait_for_space(size_t bytes) {
  auto fits = [&](uint64_t tail) { return write_ + bytes - tail <= kCapacity; };
  if (fits(tail_.load(std::memory_order_acquire))) return;
  publish_now();  // the recording thread may be asleep with commands waiting
  for (int i = 0; i < kSpinIterations; ++i) {
    if (fits(tail_.load(std::memory_order_acquire))) return;
    cpu_relax();
  }
  while (true) {
    producer_waiting_.store(true, std::memory_order_seq_cst);
    const uint64_t tail = tail_.load(std::memory_order_seq_cst);
    if (fits(tail)) break;
    tail_.wait(tail, std::memory_order_seq_cst);
  }
  producer_waiting_.store(false, std::memory_order_relaxed);
}

std::byte* CommandRecorder::reserve(Op op, size_t payload_bytes) {
  const size_t bytes = align8(sizeof(Header) + payload_bytes);
  const size_t offset = write_ % kCapacity;
  if (offset + bytes > kCapacity) {  // no room before the end: pad to it and start over at 0
    const size_t pad = kCapacity - offset;
    wait_for_space(pad + bytes);
    const Header wrap{Op::Wrap, static_cast<uint32_t>(pad)};
    std::memcpy(ring_.get() + offset, &wrap, sizeof wrap);
    write_ += pad;
  } else {
    wait_for_space(bytes);
  }
  std::byte* at = ring_.get() + write_ % kCapacity;
  const Header header{op, static_cast<uint32_t>(bytes)};
  std::memcpy(at, &header, sizeof header);
  write_ += bytes;
  return at + sizeof(Header);
}

void CommandRecorder::publish_now() {
  published_ = write_;
  head_.store(write_, std::memory_order_seq_cst);
  if (consumer_sleeping_.load(std::memory_order_seq_cst)) head_.notify_one();
}

void CommandRecorder::drain() {
  if (!threaded_) return;
  publish_now();
  for (int i = 0; i < kSpinIterations; ++i) {
    if (tail_.load(std::memory_order_acquire) == write_) return;
    cpu_relax();
  }
  while (true) {
    producer_waiting_.store(true, std::memory_order_seq_cst);
    const uint64_t tail = tail_.load(std::memory_order_seq_cst);
    if (tail == write_) break;
    tail_.wait(tail, std::memory_order_seq_cst);
  }
  producer_waiting_.store(false, std::memory_order_relaxed);
}

void CommandRecorder::submit(VkCommandBuffer commands, uint64_t value) {
  const SubmitCmd c{commands, value};
  std::memcpy(reserve(Op::Submit, sizeof c), &c, sizeof c);
  publish_now();  // the submission must not wait for the next block: others may wait for its value
}

std::optional<Error> CommandRecorder::take_error() {
  std::lock_guard lock(error_mutex_);
  std::optional<Error> error = std::move(error_);
  error_.reset();
  failed_.store(false, std::memory_order_release);
  return error;
}

void CommandRecorder::target(VkCommandBuffer commands) {
  if (!threaded_) {
    inline_target_ = commands;
    return;
  }
  const TargetCmd c{commands};
  std::memcpy(reserve(Op::Target, sizeof c), &c, sizeof c);
}

void CommandRecorder::encode_bind_pipeline(VkPipeline pipeline) {
  const BindPipelineCmd c{pipeline};
  std::memcpy(reserve(Op::BindPipeline, sizeof c), &c, sizeof c);
}

void CommandRecorder::push_descriptors(VkPipelineLayout layout, std::span<const VkDescriptorType> types,
                                       std::span<const VkDescriptorBufferInfo> infos) {
  if (!threaded_) {
    std::vector<VkWriteDescriptorSet>& writes = inline_writes_;  // reused: no allocation per bind
    writes.resize(infos.size());
    for (size_t i = 0; i < infos.size(); ++i) {
      writes[i] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
      writes[i].dstBinding = static_cast<uint32_t>(i);
      writes[i].descriptorCount = 1;
      writes[i].descriptorType = types[i];
      writes[i].pBufferInfo = &infos[i];
    }
    vk_.vkCmdPushDescriptorSetKHR(inline_target_, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0,
                                  static_cast<uint32_t>(writes.size()), writes.data());
    return;
  }
  const size_t types_bytes = align8(types.size_bytes());
  std::byte* at = reserve(Op::PushDescriptors, sizeof(PushDescriptorsCmd) + types_bytes + infos.size_bytes());
  const PushDescriptorsCmd c{layout, static_cast<uint32_t>(infos.size())};
  std::memcpy(at, &c, sizeof c);
  std::memcpy(at + sizeof c, types.data(), types.size_bytes());
  std::memcpy(at + sizeof c + types_bytes, infos.data(), infos.size_bytes());
}

void CommandRecorder::bind_descriptor_set(VkPipelineLayout layout, VkDescriptorSet set) {
  if (!threaded_) {
    vk_.vkCmdBindDescriptorSets(inline_target_, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, nullptr);
    return;
  }
  const BindSetCmd c{layout, set};
  std::memcpy(reserve(Op::BindSet, sizeof c), &c, sizeof c);
}

void CommandRecorder::encode_push_constants(VkPipelineLayout layout, std::span<const std::byte> bytes) {
  std::byte* at = reserve(Op::PushConstants, sizeof(PushConstantsCmd) + bytes.size());
  const PushConstantsCmd c{layout, static_cast<uint32_t>(bytes.size())};
  std::memcpy(at, &c, sizeof c);
  std::memcpy(at + sizeof c, bytes.data(), bytes.size());
}

void CommandRecorder::encode_dispatch(uint32_t x, uint32_t y, uint32_t z) {
  const DispatchCmd c{x, y, z};
  std::memcpy(reserve(Op::Dispatch, sizeof c), &c, sizeof c);
}

void CommandRecorder::dispatch_indirect(VkBuffer buffer, VkDeviceSize offset) {
  if (!threaded_) {
    vk_.vkCmdDispatchIndirect(inline_target_, buffer, offset);
    return;
  }
  const DispatchIndirectCmd c{buffer, offset};
  std::memcpy(reserve(Op::DispatchIndirect, sizeof c), &c, sizeof c);
}

void CommandRecorder::memory_barrier(VkPipelineStageFlags source_stages, VkPipelineStageFlags destination_stages,
                                     VkAccessFlags source_access, VkAccessFlags destination_access) {
  if (!threaded_) {
    VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    barrier.srcAccessMask = source_access;
    barrier.dstAccessMask = destination_access;
    vk_.vkCmdPipelineBarrier(inline_target_, source_stages, destination_stages, 0, 1, &barrier, 0, nullptr, 0, nullptr);
    return;
  }
  const BarrierCmd c{source_stages, destination_stages, source_access, destination_access};
  std::memcpy(reserve(Op::Barrier, sizeof c), &c, sizeof c);
}

void CommandRecorder::copy(VkBuffer source, VkBuffer destination, const VkBufferCopy& region) {
  if (!threaded_) {
    vk_.vkCmdCopyBuffer(inline_target_, source, destination, 1, &region);
    return;
  }
  const CopyCmd c{source, destination, region};
  std::memcpy(reserve(Op::Copy, sizeof c), &c, sizeof c);
}

void CommandRecorder::fill(VkBuffer buffer, VkDeviceSize offset, VkDeviceSize bytes, uint32_t value) {
  if (!threaded_) {
    vk_.vkCmdFillBuffer(inline_target_, buffer, offset, bytes, value);
    return;
  }
  const FillCmd c{buffer, offset, bytes, value};
  std::memcpy(reserve(Op::Fill, sizeof c), &c, sizeof c);
}

void CommandRecorder::reset_queries(VkQueryPool pool, uint32_t first, uint32_t count) {
  if (!threaded_) {
    vk_.vkCmdResetQueryPool(inline_target_, pool, first, count);
    return;
  }
  const ResetQueriesCmd c{pool, first, count};
  std::memcpy(reserve(Op::ResetQueries, sizeof c), &c, sizeof c);
}

void CommandRecorder::write_timestamp(VkPipelineStageFlagBits stage, VkQueryPool pool, uint32_t query) {
  if (!threaded_) {
    vk_.vkCmdWriteTimestamp(inline_target_, stage, pool, query);
    return;
  }
  const TimestampCmd c{pool, stage, query};
  std::memcpy(reserve(Op::Timestamp, sizeof c), &c, sizeof c);
}

// ---- recording thread ----

void CommandRecorder::run() {
  // A name that says whose thread it is (debuggers, /proc/<pid>/task/*/comm; the exit tests look for it).
  pthread_setname_np(pthread_self(), "bismuth-record");
  uint64_t position = 0;
  while (true) {
    uint64_t head = head_.load(std::memory_order_acquire);
    for (int i = 0; i < kSpinIterations && head == position; ++i) {
      cpu_relax();
      head = head_.load(std::memory_order_acquire);
    }
    if (head == position) {
      consumer_sleeping_.store(true, std::memory_order_seq_cst);
      head = head_.load(std::memory_order_seq_cst);
      if (head == position) head_.wait(position, std::memory_order_seq_cst);
      consumer_sleeping_.store(false, std::memory_order_relaxed);
      continue;
    }
    while (position < head) {
      const std::byte* at = ring_.get() + position % kCapacity;
      if (load<Header>(at).op == Op::Stop) return;
      position += replay(at);
    }
    tail_.store(position, std::memory_order_seq_cst);
    if (producer_waiting_.load(std::memory_order_seq_cst)) tail_.notify_one();
  }
}

size_t CommandRecorder::replay(const std::byte* at) {
  const Header header = load<Header>(at);
  const std::byte* payload = at + sizeof(Header);
  VkCommandBuffer& commands = replay_target_;
  switch (header.op) {
    case Op::Wrap:
    case Op::Stop:
      break;
    case Op::Target:
      commands = load<TargetCmd>(payload).commands;
      break;
    case Op::BindPipeline:
      vk_.vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, load<BindPipelineCmd>(payload).pipeline);
      break;
    case Op::PushDescriptors: {
      const auto c = load<PushDescriptorsCmd>(payload);
      const std::byte* types = payload + sizeof c;
      const std::byte* infos = types + align8(size_t(c.count) * sizeof(VkDescriptorType));
      std::array<VkDescriptorBufferInfo, 32> small_infos;
      std::array<VkWriteDescriptorSet, 32> small_writes;
      std::vector<VkDescriptorBufferInfo> big_infos;
      std::vector<VkWriteDescriptorSet> big_writes;
      VkDescriptorBufferInfo* info_array = small_infos.data();
      VkWriteDescriptorSet* write_array = small_writes.data();
      if (c.count > small_infos.size()) {
        big_infos.resize(c.count);
        big_writes.resize(c.count);
        info_array = big_infos.data();
        write_array = big_writes.data();
      }
      std::memcpy(info_array, infos, size_t(c.count) * sizeof(VkDescriptorBufferInfo));
      for (uint32_t i = 0; i < c.count; ++i) {
        write_array[i] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
        write_array[i].dstBinding = i;
        write_array[i].descriptorCount = 1;
        write_array[i].descriptorType = load<VkDescriptorType>(types + size_t(i) * sizeof(VkDescriptorType));
        write_array[i].pBufferInfo = &info_array[i];
      }
      vk_.vkCmdPushDescriptorSetKHR(commands, VK_PIPELINE_BIND_POINT_COMPUTE, c.layout, 0, c.count, write_array);
      break;
    }
    case Op::BindSet: {
      const auto c = load<BindSetCmd>(payload);
      vk_.vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE, c.layout, 0, 1, &c.set, 0, nullptr);
      break;
    }
    case Op::PushConstants: {
      const auto c = load<PushConstantsCmd>(payload);
      vk_.vkCmdPushConstants(commands, c.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, c.bytes, payload + sizeof c);
      break;
    }
    case Op::Dispatch: {
      const auto c = load<DispatchCmd>(payload);
      vk_.vkCmdDispatch(commands, c.x, c.y, c.z);
      break;
    }
    case Op::DispatchIndirect: {
      const auto c = load<DispatchIndirectCmd>(payload);
      vk_.vkCmdDispatchIndirect(commands, c.buffer, c.offset);
      break;
    }
    case Op::Barrier: {
      const auto c = load<BarrierCmd>(payload);
      VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
      barrier.srcAccessMask = c.source_access;
      barrier.dstAccessMask = c.destination_access;
      vk_.vkCmdPipelineBarrier(commands, c.source_stages, c.destination_stages, 0, 1, &barrier, 0, nullptr, 0, nullptr);
      break;
    }
    case Op::Copy: {
      const auto c = load<CopyCmd>(payload);
      vk_.vkCmdCopyBuffer(commands, c.source, c.destination, 1, &c.region);
      break;
    }
    case Op::Fill: {
      const auto c = load<FillCmd>(payload);
      vk_.vkCmdFillBuffer(commands, c.buffer, c.offset, c.bytes, c.value);
      break;
    }
    case Op::ResetQueries: {
      const auto c = load<ResetQueriesCmd>(payload);
      vk_.vkCmdResetQueryPool(commands, c.pool, c.first, c.count);
      break;
    }
    case Op::Timestamp: {
      const auto c = load<TimestampCmd>(payload);
      vk_.vkCmdWriteTimestamp(commands, c.stage, c.pool, c.query);
      break;
    }
    case Op::Submit: {
      const auto c = load<SubmitCmd>(payload);
      submit_on_thread(c.commands, c.value);
      commands = VK_NULL_HANDLE;  // the caller may reuse it once the value completed
      break;
    }
  }
  replayed_.store(replayed_.load(std::memory_order_relaxed) + 1, std::memory_order_release);  // one writer
  return header.bytes;
}

void CommandRecorder::note_failure(const Error& error) {
  std::lock_guard lock(error_mutex_);
  if (!error_) error_ = error;
  failed_.store(true, std::memory_order_release);
}

void CommandRecorder::submit_on_thread(VkCommandBuffer commands, uint64_t value) {
  // The value was reserved in flush(): it is submitted (or settled after a failure) whatever happens here, and
  // the failure is noted before it settles, so a caller that waited for the value sees it.
  if (Status ended = device_.call("vkEndCommandBuffer", vk_.vkEndCommandBuffer, commands); !ended) {
    note_failure(ended.error());
    (void)device_.submit_reserved(value, {});
    return;
  }
  (void)device_.submit_reserved(value, std::span<const VkCommandBuffer>(&commands, 1),
                                [this](const Error& error) { note_failure(error); });
}

}  // namespace bismuth::backend
