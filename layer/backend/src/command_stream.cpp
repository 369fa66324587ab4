#include "bismuth/backend/command_stream.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "command_recorder.hpp"

namespace bismuth::backend {

namespace {

constexpr VkPipelineStageFlags kWorkStages = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;
constexpr VkAccessFlags kWriteAccess = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
constexpr VkAccessFlags kAllAccess = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT |
                                     VK_ACCESS_UNIFORM_READ_BIT | VK_ACCESS_TRANSFER_READ_BIT |
                                     VK_ACCESS_TRANSFER_WRITE_BIT;
constexpr uint32_t kSetsPerPool = 256;
constexpr size_t kRetainedTimestampBatches = 64;

bool same_bytes(const std::vector<std::byte>& a, std::span<const std::byte> b) {
  if (a.size() != b.size()) return false;
  if (b.size() == 8) {  // the common small case without a library call
    uint64_t x, y;
    std::memcpy(&x, a.data(), 8);
    std::memcpy(&y, b.data(), 8);
    return x == y;
  }
  return std::memcmp(a.data(), b.data(), b.size()) == 0;
}

bool same_bindings(const std::vector<BufferBinding>& a, std::span<const BufferBinding> b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].buffer != b[i].buffer || a[i].offset != b[i].offset || a[i].range != b[i].range) return false;
  }
  return true;
}

// Whether a runtime-group-size pipeline of x*y*z invocations can run the size: within the device's per-dimension
// limits, and the total within maxComputeWorkGroupSize[0] and maxComputeWorkGroupInvocations. Otherwise the
// original module's per-size pipeline reports the limit.
bool runtime_size_fits(const DeviceInfo& limits, const GroupSize& size) {
  if (size.x == 0 || size.y == 0 || size.z == 0 || size.x > limits.max_compute_work_group_size[0] ||
      size.y > limits.max_compute_work_group_size[1] || size.z > limits.max_compute_work_group_size[2]) {
    return false;
  }
  const uint64_t total = uint64_t(size.x) * size.y * size.z;
  return total <= limits.max_compute_work_group_size[0] && total <= limits.max_compute_work_group_invocations;
}

// Kept out of line so that the dispatch path does not carry the message-building code.
[[gnu::cold, gnu::noinline]] Error binding_error(const Shader& shader, size_t index, const std::string& what) {
  return Error{"dispatch of " + shader.name() + ": binding " + std::to_string(index) + " " + what, 0};
}

}  // namespace

Expected<std::unique_ptr<CommandStream>> CommandStream::create(Device& device, PipelineCache& cache,
                                                               const StreamOptions& options) {
  if (Status ok = device.alive(); !ok) return ok.error();
  if (&cache.device() != &device) return fail("CommandStream::create: the pipeline cache belongs to another device");
  StreamOptions o = options;
  o.max_dispatches_per_batch = std::max(1u, o.max_dispatches_per_batch);
  o.max_batches_in_flight = std::max(1u, o.max_batches_in_flight);
  o.timestamp_pairs_per_batch = std::max(1u, o.timestamp_pairs_per_batch);
  bool threaded = o.recording == RecordingMode::Thread;
  if (o.recording == RecordingMode::Automatic) {
    threaded = device.info().is_gpu();
    if (const char* env = std::getenv("BISMUTH_RECORDING_THREAD"); env != nullptr && *env != '\0') {
      threaded = std::strcmp(env, "0") != 0;
    }
  }
  return std::unique_ptr<CommandStream>(new CommandStream(device, cache, o, threaded));
}

CommandStream::CommandStream(Device& device, PipelineCache& cache, const StreamOptions& options, bool threaded)
    : device_(&device),
      cache_(&cache),
      options_(options),
      recorder_(std::make_unique<CommandRecorder>(device, threaded)) {}

bool CommandStream::records_on_thread() const { return recorder_->threaded(); }

void CommandStream::stop_recording_thread_for_exit() { recorder_->stop_thread_for_exit(); }

CommandStream::~CommandStream() {
  (void)submission_error();  // an earlier batch's failure must not keep flush() from submitting this one
  if (current_ && !device_->lost()) (void)flush();
  // Every encoded command recorded and every encoded submission made: the recording thread no longer uses a
  // command buffer destroyed below (with a lost device the current one is destroyed unsubmitted).
  recorder_->drain();
  if (device_->lost()) {
    device_->drain_after_loss();
  } else {
    (void)device_->wait(last_value_);
  }
  if (current_) destroy_batch(*current_);
  for (auto& b : in_flight_) destroy_batch(*b);
  for (auto& b : free_) destroy_batch(*b);
  device_->collect();
}

// ---- batches ----

Status CommandStream::create_batch(Batch& batch) {
  const auto& vk = device_->vk();
  VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pool_info.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
  pool_info.queueFamilyIndex = device_->queue_family();
  if (Status ok = device_->call("vkCreateCommandPool", vk.vkCreateCommandPool, device_->handle(), &pool_info, nullptr,
                                &batch.command_pool);
      !ok) {
    return ok;
  }
  VkCommandBufferAllocateInfo allocate{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  allocate.commandPool = batch.command_pool;
  allocate.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  allocate.commandBufferCount = 1;
  return device_->call("vkAllocateCommandBuffers", vk.vkAllocateCommandBuffers, device_->handle(), &allocate,
                       &batch.commands);
}

void CommandStream::destroy_batch(Batch& batch) {
  const auto& vk = device_->vk();
  for (VkDescriptorPool pool : batch.descriptor_pools) vk.vkDestroyDescriptorPool(device_->handle(), pool, nullptr);
  batch.descriptor_pools.clear();
  if (batch.query_pool != VK_NULL_HANDLE) vk.vkDestroyQueryPool(device_->handle(), batch.query_pool, nullptr);
  batch.query_pool = VK_NULL_HANDLE;
  if (batch.command_pool != VK_NULL_HANDLE) vk.vkDestroyCommandPool(device_->handle(), batch.command_pool, nullptr);
  batch.command_pool = VK_NULL_HANDLE;
  batch.buffers.clear();
  batch.pipelines.clear();
  batch.pipeline_keys.clear();
  batch.shaders.clear();
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

void CommandStream::retire_completed() {
  // last_queued: with a recording thread, the GPU may complete a batch before the thread's vkQueueSubmit call
  // returned; the batch is reset only after it did.
  while (!in_flight_.empty() && in_flight_.front()->value <= device_->last_queued() &&
         device_->is_complete(in_flight_.front()->value)) {
    std::unique_ptr<Batch> batch = std::move(in_flight_.front());
    in_flight_.pop_front();
    (void)retire(*batch);
    free_.push_back(std::move(batch));
  }
  device_->collect();
}

Status CommandStream::submission_error() {
  if (!recorder_->failed()) return {};
  if (std::optional<Error> error = recorder_->take_error()) return *error;
  return {};
}

Expected<CommandStream::Batch*> CommandStream::begin_batch() {
  if (current_) return current_.get();
  if (Status ok = device_->alive(); !ok) return ok.error();
  if (Status ok = submission_error(); !ok) return ok.error();
  retire_completed();
  while (in_flight_.size() >= options_.max_batches_in_flight) {
    if (Status ok = device_->wait(in_flight_.front()->value); !ok) return ok.error();
    retire_completed();
  }
  const auto& vk = device_->vk();
  std::unique_ptr<Batch> batch;
  if (!free_.empty()) {
    batch = std::move(free_.back());
    free_.pop_back();
    if (Status ok = device_->call("vkResetCommandPool", vk.vkResetCommandPool, device_->handle(), batch->command_pool,
                                  VkCommandPoolResetFlags{0});
        !ok) {
      destroy_batch(*batch);
      return ok.error();
    }
    for (VkDescriptorPool pool : batch->descriptor_pools) {
      vk.vkResetDescriptorPool(device_->handle(), pool, 0);
    }
  } else {
    batch = std::make_unique<Batch>();
    if (Status ok = create_batch(*batch); !ok) {
      destroy_batch(*batch);
      return ok.error();
    }
  }
  batch->active_pool = 0;
  batch->pairs_used = 0;
  batch->dispatches = 0;
  batch->has_writes = false;
  batch->value = 0;
  batch->id = next_batch_id_++;
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  if (Status ok = device_->call("vkBeginCommandBuffer", vk.vkBeginCommandBuffer, batch->commands, &begin); !ok) {
    free_.push_back(std::move(batch));
    return ok.error();
  }
  recorder_->target(batch->commands);
  current_ = std::move(batch);
  reset_binding_state();
  return current_.get();
}

void CommandStream::reset_binding_state() {
  readonly_repeat_ = false;
  bound_pipeline_ = VK_NULL_HANDLE;
  bound_layout_ = 0;
  bound_shader_ = nullptr;
  bound_buffers_.clear();
  bound_push_.clear();
}

Expected<uint64_t> CommandStream::flush() {
  if (device_->lost()) {
    discard();  // it can never be submitted: the next command starts a batch, which fails
    return device_->lost_error();
  }
  // An earlier batch whose submission failed on the recording thread: report that first (this batch stays).
  if (Status ok = submission_error(); !ok) return ok.error();
  if (!current_) return last_value_;
  std::unique_ptr<Batch> batch = std::move(current_);
  const auto& vk = device_->vk();
  if (batch->has_writes) {
    // Device writes → host reads after the timeline wait (Vulkan spec, "Host Write Ordering Guarantees" covers
    // only the other direction).
    recorder_->record(
        CmdPipelineBarrier{kWorkStages, VK_PIPELINE_STAGE_HOST_BIT, kWriteAccess, VK_ACCESS_HOST_READ_BIT});
  }
  Expected<uint64_t> value = last_value_;
  if (recorder_->threaded()) {
    // The value is reserved now, in order; the recording thread ends and submits the command buffer once it
    // replayed it (CommandRecorder::submit), while this thread goes on with the next batch.
    value = device_->reserve();
    if (value) {
      recorder_->submit(batch->commands, *value);
    } else {
      recorder_->drain();  // the batch is recycled below: nothing may still record into it
    }
  } else {
    Status ended = device_->call("vkEndCommandBuffer", vk.vkEndCommandBuffer, batch->commands);
    value = ended ? device_->submit(std::span<const VkCommandBuffer>(&batch->commands, 1))
                  : Expected<uint64_t>(ended.error());
  }
  if (!value) {
    // Nothing of this batch reached the queue: drop its references and recycle it.
    batch->buffers.clear();
    batch->pipelines.clear();
    batch->pipeline_keys.clear();
    batch->shaders.clear();
    batch->pairs_used = 0;
    free_.push_back(std::move(batch));
    return value.error();
  }
  batch->value = *value;
  for (auto& buffer : batch->buffers) buffer->mark_used(*value);
  for (auto& pipeline : batch->pipelines) pipeline->mark_used(*value);
  // From here the timeline value keeps the objects alive (Device::defer), not these references.
  batch->buffers.clear();
  batch->pipelines.clear();
  batch->pipeline_keys.clear();
  batch->shaders.clear();
  last_value_ = *value;
  ++stats_.submissions;
  in_flight_.push_back(std::move(batch));
  return last_value_;
}

void CommandStream::discard() {
  if (!current_) return;
  recorder_->drain();  // the command buffer is reset when the batch is reused
  std::unique_ptr<Batch> batch = std::move(current_);
  batch->buffers.clear();
  batch->pipelines.clear();
  batch->pipeline_keys.clear();
  batch->shaders.clear();
  batch->pairs_used = 0;
  free_.push_back(std::move(batch));  // recycled by begin_batch: vkResetCommandPool
  // The access tracking stays: it may still hold writes of submitted batches that later commands must wait for.
}

Status CommandStream::finish() {
  auto value = flush();
  if (!value) return value.error();
  Status waited = device_->wait(*value);
  // A submission that failed on the recording thread: its own error (noted before its value settled).
  if (Status ok = submission_error(); !ok) return ok;
  if (!waited) return waited;
  retire_completed();
  return {};
}

// ---- barrier tracking ----

bool CommandStream::needs_barrier(VkBuffer buffer, VkDeviceSize begin, VkDeviceSize end, bool writes) const {
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

void CommandStream::note_access(VkBuffer buffer, VkDeviceSize begin, VkDeviceSize end, bool writes) {
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

void CommandStream::record_barrier(Batch& /*batch*/) {
  recorder_->record(CmdPipelineBarrier{kWorkStages, kWorkStages, kWriteAccess, kAllAccess});
  written_.clear();
  read_.clear();
  readonly_repeat_ = false;  // the ranges must be noted again
}

Status CommandStream::barrier() {
  auto batch = begin_batch();
  if (!batch) return batch.error();
  record_barrier(**batch);
  ++stats_.explicit_barriers;
  recorder_->publish();
  return {};
}

void CommandStream::track(Batch& batch, Buffer& buffer) {
  for (const auto& b : batch.buffers) {
    if (b.get() == &buffer) return;
  }
  batch.buffers.push_back(buffer.shared_from_this());
}

bool CommandStream::in_current_batch(const Buffer& buffer) const {
  if (!current_) return false;
  for (const auto& b : current_->buffers) {
    if (b.get() == &buffer) return true;
  }
  return false;
}

// ---- dispatch ----

Status CommandStream::bind_descriptors(Batch& batch, const Shader& shader, std::span<const BufferBinding> bindings) {
  const auto& vk = device_->vk();
  const BindingLayout& layout = shader.binding_layout();
  if (bindings.size() != layout.bindings.size()) {
    return fail("dispatch of " + shader.name() + ": " + std::to_string(bindings.size()) + " buffers bound, the layout has " +
                std::to_string(layout.bindings.size()));
  }
  scratch_infos_.resize(bindings.size());
  for (size_t i = 0; i < bindings.size(); ++i) {
    const BufferBinding& b = bindings[i];
    scratch_infos_[i] = {b.buffer->handle(), b.offset, b.range};
    track(batch, *b.buffer);
  }
  if (shader.uses_push_descriptors()) {
    recorder_->record(CmdPushDescriptorSet{shader.pipeline_layout(), layout.bindings, scratch_infos_});
    return {};
  }
  if (bindings.empty()) return {};
  VkDescriptorSet set = VK_NULL_HANDLE;
  const VkDescriptorSetLayout set_layout = shader.set_layout();
  while (true) {
    if (batch.active_pool == batch.descriptor_pools.size()) {
      const uint32_t per_set = static_cast<uint32_t>(std::max<size_t>(1, bindings.size()));
      VkDescriptorPoolSize sizes[2] = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, kSetsPerPool * per_set},
                                       {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, kSetsPerPool * per_set}};
      VkDescriptorPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
      pool_info.maxSets = kSetsPerPool;
      pool_info.poolSizeCount = 2;
      pool_info.pPoolSizes = sizes;
      VkDescriptorPool pool = VK_NULL_HANDLE;
      if (Status ok = device_->call("vkCreateDescriptorPool", vk.vkCreateDescriptorPool, device_->handle(), &pool_info,
                                    nullptr, &pool);
          !ok) {
        return ok;
      }
      batch.descriptor_pools.push_back(pool);
    }
    VkDescriptorSetAllocateInfo allocate{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    allocate.descriptorPool = batch.descriptor_pools[batch.active_pool];
    allocate.descriptorSetCount = 1;
    allocate.pSetLayouts = &set_layout;
    Status ok = device_->call("vkAllocateDescriptorSets", vk.vkAllocateDescriptorSets, device_->handle(), &allocate, &set);
    if (ok) break;
    if (ok.error().code != VK_ERROR_OUT_OF_POOL_MEMORY && ok.error().code != VK_ERROR_FRAGMENTED_POOL) return ok;
    ++batch.active_pool;  // this pool is full: the next one (created above when needed)
  }
  // The set is new and only this thread touches it until the bind below is recorded.
  scratch_writes_.resize(bindings.size());
  for (size_t i = 0; i < bindings.size(); ++i) {
    scratch_writes_[i] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    scratch_writes_[i].dstSet = set;
    scratch_writes_[i].dstBinding = static_cast<uint32_t>(i);
    scratch_writes_[i].descriptorCount = 1;
    scratch_writes_[i].descriptorType = layout.bindings[i];
    scratch_writes_[i].pBufferInfo = &scratch_infos_[i];
  }
  vk.vkUpdateDescriptorSets(device_->handle(), static_cast<uint32_t>(scratch_writes_.size()), scratch_writes_.data(), 0,
                            nullptr);
  recorder_->record(CmdBindDescriptorSet{shader.pipeline_layout(), set});
  return {};
}

inline size_t CommandStream::front_home(const DispatchInfo& info) {
  const uint64_t h = (reinterpret_cast<uintptr_t>(info.shader) >> 4) * 0x9E3779B97F4A7C15ull ^
                     (uint64_t(info.size.x) | uint64_t(info.size.y) << 16 | uint64_t(info.size.z) << 32 |
                      uint64_t(info.subgroup_size) << 48) * 0xC2B2AE3D27D4EB4Full;
  return static_cast<size_t>(h >> 58);
}

// Out of line: the cache evicted something, so every reference the table holds may be stale.
void CommandStream::reset_front_table(uint64_t generation) {
  for (FrontEntry& e : front_) e = FrontEntry{};
  front_generation_ = generation;
  last_front_ = nullptr;
}

// The hit path of the front table, inlined into dispatch() (the recording benchmark's hot loop); nullptr on a miss.
[[gnu::always_inline]] inline CommandStream::FrontEntry* CommandStream::front_hit(const DispatchInfo& info) {
  const uint64_t generation = cache_->generation();
  if (generation != front_generation_) [[unlikely]] {
    reset_front_table(generation);
    return nullptr;
  }
  // The same program at the same size as the previous dispatch (a GL program dispatched in a loop): no hashing.
  FrontEntry* e = last_front_;
  if (e == nullptr || e->shader != info.shader || !(e->size == info.size) || e->subgroup_size != info.subgroup_size) {
    // Up to four probes from the home slot. A slot with a shader always has its pipeline.
    const size_t home = front_home(info);
    e = nullptr;
    for (size_t probe = 0; probe < 4; ++probe) {
      FrontEntry& c = front_[(home + probe) & (front_.size() - 1)];
      if (c.shader == info.shader && c.size == info.size && c.subgroup_size == info.subgroup_size) {
        e = &c;
        break;
      }
    }
    if (e == nullptr) return nullptr;
    last_front_ = e;
  }
  // The LRU stamp is refreshed once per batch (record() does it when the batch first uses the pipeline).
  ++stats_.front_table_hits;
  if (e->provisional) [[unlikely]] upgrade_provisional(*e);
  return e;
}

// The miss path: the cache lookup (compiling on a miss), then the entry replaces one of the four probed slots.
Expected<CommandStream::FrontEntry*> CommandStream::front_lookup(const DispatchInfo& info) {
  if (FrontEntry* hit = front_hit(info)) return hit;
  const size_t home = front_home(info);
  size_t probe = 0;
  while (probe < 4 && front_[(home + probe) & (front_.size() - 1)].shader != nullptr) ++probe;
  const size_t victim = probe < 4 ? home + probe : home + (front_replace_++ & 3);  // all four taken: one in turn
  FrontEntry& e = front_[victim & (front_.size() - 1)];
  const Shader* variant = info.shader->runtime_variant();
  if (variant != nullptr && runtime_size_fits(device_->info(), info.size)) {
    if (Status ok = fill_runtime_entry(e, info, *variant); !ok) return ok.error();
  } else {
    const PipelineRequest request{info.shader, info.size, info.subgroup_size, {}};
    auto pipeline = cache_->acquire(PipelineKey::make(request), request);
    if (!pipeline) return pipeline.error();
    e.pipeline = (*pipeline)->shared_from_this();
    e.run_shader = info.shader;
    e.provisional = false;
  }
  e.shader = info.shader;
  e.size = info.size;
  e.subgroup_size = info.subgroup_size;
  e.shader_ref = info.shader->shared_from_this();
  e.batch_seen = 0;
  last_front_ = &e;
  return &e;
}

// A runtime-group-size shader: the pipeline of L = x*y*z invocations when it is ready; else, for shaders whose
// surplus invocations may simply return (no barriers or subgroup operations), the smallest ready pipeline of
// more invocations while the exact one compiles in the background — the first dispatch at a never-seen size
// then costs a few lookups instead of a driver compile; else the exact one in the foreground (joining a
// prewarm compile of it).
Status CommandStream::fill_runtime_entry(FrontEntry& e, const DispatchInfo& info, const Shader& variant) {
  const uint32_t total = info.size.x * info.size.y * info.size.z;
  const PipelineRequest exact{&variant, GroupSize{total, 1, 1}, info.subgroup_size, {}};
  const PipelineKey exact_key = PipelineKey::make(exact);
  PipelineRef pipeline = cache_->find(exact_key);
  bool provisional = false;
  if (!pipeline && !variant.runtime_exact_only() && cache_->has_workers()) {
    // The sizes prewarm compiles (default_prewarm_sizes): powers of two and multiples of the subgroup size.
    const DeviceInfo& limits = device_->info();
    const uint32_t largest = std::min(limits.max_compute_work_group_size[0], limits.max_compute_work_group_invocations);
    const uint32_t subgroup = std::max(1u, limits.subgroup_size);
    uint64_t power = 1, multiple = (uint64_t(total) / subgroup + 1) * subgroup;
    while (power <= total) power <<= 1;
    for (int probes = 0; probes < 64; ++probes) {
      const uint64_t candidate = std::min(power, multiple);
      if (candidate > largest) break;
      const PipelineRequest larger{&variant, GroupSize{uint32_t(candidate), 1, 1}, info.subgroup_size, {}};
      if (PipelineRef ready = cache_->find(PipelineKey::make(larger))) {
        pipeline = std::move(ready);
        provisional = true;
        break;
      }
      if (candidate == power) power <<= 1;
      if (candidate == multiple) multiple += subgroup;
    }
    if (provisional && !cache_->compile_in_background(variant.shared_from_this(), exact.size, info.subgroup_size)) {
      pipeline.reset();
      provisional = false;
    }
  }
  if (!pipeline) {
    auto acquired = cache_->acquire(exact_key, exact);
    if (!acquired) return acquired.error();
    pipeline = (*acquired)->shared_from_this();
  }
  e.pipeline = std::move(pipeline);
  e.run_shader = &variant;
  e.provisional = provisional;
  return {};
}

void CommandStream::upgrade_provisional(FrontEntry& e) {
  const PipelineRequest exact{e.run_shader, GroupSize{e.size.x * e.size.y * e.size.z, 1, 1}, e.subgroup_size, {}};
  if (PipelineRef ready = cache_->find(PipelineKey::make(exact))) {
    e.pipeline = std::move(ready);
    e.provisional = false;
    e.batch_seen = 0;
  }
}

Status CommandStream::dispatch(const DispatchInfo& info, TimestampQuery* timestamp) {
  if (info.shader == nullptr) return fail("dispatch without a shader");
  if (info.spec_values.empty()) {
    FrontEntry* entry = front_hit(info);
    if (entry == nullptr) [[unlikely]] {
      auto front = front_lookup(info);
      if (!front) return front.error();
      entry = *front;
    }
    return record(*entry->pipeline, *entry->run_shader, info, timestamp, entry);
  }
  const PipelineRequest request{info.shader, info.size, info.subgroup_size, info.spec_values};
  auto pipeline = cache_->acquire(PipelineKey::make(request), request);
  if (!pipeline) return pipeline.error();
  return record(**pipeline, *info.shader, info, timestamp);
}

Status CommandStream::dispatch(const PipelineRef& pipeline, const DispatchInfo& info, TimestampQuery* timestamp) {
  if (info.shader == nullptr || !pipeline) return fail("dispatch without a shader or pipeline");
  return record(*pipeline, *info.shader, info, timestamp);
}

// The access tracking of one dispatch: validates the bindings, records the barrier their hazards need, notes what
// they read and write. Out of line: a dispatch that repeats the previous read-only bindings skips it.
Status CommandStream::track_dispatch(Batch& batch, const Shader& shader, const DispatchInfo& info) {
  const DeviceInfo& limits = device_->info();
  bool need_barrier = false;
  for (size_t i = 0; i < info.bindings.size(); ++i) {
    const BufferBinding& b = info.bindings[i];
    if (b.buffer == nullptr) return binding_error(shader, i, "has no buffer");
    const bool uniform = i < shader.binding_layout().bindings.size() &&
                         shader.binding_layout().bindings[i] == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
    const VkDeviceSize alignment =
        uniform ? limits.min_uniform_buffer_offset_alignment : limits.min_storage_buffer_offset_alignment;
    // Alignments are powers of two (Vulkan spec, "Limits").
    if ((b.offset & (alignment - 1)) != 0 || b.offset >= b.buffer->size()) {
      return binding_error(shader, i,
                           "offset " + std::to_string(b.offset) + " is not a multiple of " +
                               std::to_string(alignment) + " or past the end of the buffer");
    }
    const VkDeviceSize end =
        b.range == VK_WHOLE_SIZE ? b.buffer->size() : std::min(b.buffer->size(), b.offset + b.range);
    need_barrier |= needs_barrier(b.buffer->handle(), b.offset, end, (uint8_t(b.access) & uint8_t(Access::Write)) != 0);
  }
  if (need_barrier) {
    record_barrier(batch);
    ++stats_.automatic_barriers;
  }
  for (const BufferBinding& b : info.bindings) {
    const VkDeviceSize end =
        b.range == VK_WHOLE_SIZE ? b.buffer->size() : std::min(b.buffer->size(), b.offset + b.range);
    const bool writes = (uint8_t(b.access) & uint8_t(Access::Write)) != 0;
    if (uint8_t(b.access) & uint8_t(Access::Read)) note_access(b.buffer->handle(), b.offset, end, false);
    if (writes) {
      note_access(b.buffer->handle(), b.offset, end, true);
      batch.has_writes = true;
    }
  }
  return {};
}

// Keeps each distinct pipeline of the batch alive until submission (then its timeline value does). Once per batch
// and pipeline for front-table entries.
void CommandStream::keep_pipeline(Batch& batch, const CachedPipeline& pipeline, FrontEntry* front) {
  cache_->note_reuse(pipeline);
  if (std::find(batch.pipeline_keys.begin(), batch.pipeline_keys.end(), &pipeline) == batch.pipeline_keys.end()) {
    batch.pipeline_keys.push_back(&pipeline);
    batch.pipelines.push_back(pipeline.shared_from_this());
  }
  if (front != nullptr) front->batch_seen = batch.id;
}

Status CommandStream::record(const CachedPipeline& pipeline, const Shader& shader, const DispatchInfo& info,
                             TimestampQuery* timestamp, FrontEntry* front) {
  Batch* batch = current_.get();
  if (batch == nullptr) [[unlikely]] {
    auto begun = begin_batch();
    if (!begun) return begun.error();
    batch = *begun;
  }
  const auto& vk = device_->vk();

  const bool same_as_bound = shader.layout_identity() == bound_layout_ && same_bindings(bound_buffers_, info.bindings);
  bool read_only = true;
  for (const BufferBinding& b : info.bindings) read_only &= b.access == Access::Read;
  // Fast path: the same read-only bindings as the previous dispatch, nothing recorded in between — the access
  // tracking would come to the same answer (no barrier, nothing new to note).
  if (!(same_as_bound && read_only && readonly_repeat_)) {
    if (Status ok = track_dispatch(*batch, shader, info); !ok) return ok;
  }

  if (pipeline.handle() != bound_pipeline_) {
    recorder_->record(CmdBindPipeline{pipeline.handle()});
    bound_pipeline_ = pipeline.handle();
    if (front == nullptr || front->batch_seen != batch->id) [[unlikely]] keep_pipeline(*batch, pipeline, front);
  }
  if (&shader != bound_shader_) [[unlikely]] {
    batch->shaders.push_back(shader.shared_from_this());
    bound_shader_ = &shader;
  }
  // Identically described layouts are compatible, so bindings survive a pipeline change within the same layout.
  if (!same_as_bound) {
    if (Status ok = bind_descriptors(*batch, shader, info.bindings); !ok) return ok;
    bound_buffers_.assign(info.bindings.begin(), info.bindings.end());
    if (shader.layout_identity() != bound_layout_) bound_push_.clear();
    bound_layout_ = shader.layout_identity();
  }
  if (shader.is_runtime_variant()) {
    if (Status ok = push_runtime_size(shader, info); !ok) return ok;
    ++stats_.runtime_size_dispatches;
    if (front != nullptr && front->provisional) ++stats_.masked_dispatches;
  } else if (!info.push_constants.empty() && !same_bytes(bound_push_, info.push_constants)) {
    recorder_->record(CmdPushConstants{shader.pipeline_layout(), info.push_constants});
    bound_push_.assign(info.push_constants.begin(), info.push_constants.end());
  }

  const bool timed = timestamp != nullptr && device_->timestamp_valid_bits() != 0;
  if (timed) {
    if (batch->query_pool == VK_NULL_HANDLE) {
      VkQueryPoolCreateInfo query_info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
      query_info.queryType = VK_QUERY_TYPE_TIMESTAMP;
      query_info.queryCount = options_.timestamp_pairs_per_batch * 2;
      if (Status ok = device_->call("vkCreateQueryPool", vk.vkCreateQueryPool, device_->handle(), &query_info, nullptr,
                                    &batch->query_pool);
          !ok) {
        return ok;
      }
    }
    if (batch->pairs_used == 0) {
      recorder_->record(CmdResetQueryPool{batch->query_pool, 0, options_.timestamp_pairs_per_batch * 2});
    }
    recorder_->record(
        CmdWriteTimestamp{batch->query_pool, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, batch->pairs_used * 2});
  }
  if (info.indirect != nullptr) {
    recorder_->record(CmdDispatchIndirect{info.indirect->handle(), info.indirect_offset});
  } else {
    recorder_->record(CmdDispatch{info.groups[0], info.groups[1], info.groups[2]});
  }
  readonly_repeat_ = read_only;
  ++stats_.dispatches;
  ++batch->dispatches;
  if (timed) {
    recorder_->record(
        CmdWriteTimestamp{batch->query_pool, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, batch->pairs_used * 2 + 1});
    *timestamp = TimestampQuery{batch->id, batch->pairs_used};
    ++batch->pairs_used;
  } else if (timestamp != nullptr) {
    *timestamp = TimestampQuery{};
  }
  recorder_->publish();
  if (batch->dispatches >= options_.max_dispatches_per_batch ||
      batch->pairs_used >= options_.timestamp_pairs_per_batch) {
    auto flushed = flush();
    if (!flushed) return flushed.error();
  }
  return {};
}

// The caller's push constants, then the logical workgroup size where the variant reads it (12 bytes at
// runtime_size_offset), pushed only when they differ from what is bound.
Status CommandStream::push_runtime_size(const Shader& variant, const DispatchInfo& info) {
  const size_t offset = variant.runtime_size_offset();
  const size_t user = info.push_constants.size();
  if (user > offset) {
    return fail("dispatch of " + info.shader->name() + ": " + std::to_string(user) +
                " bytes of push constants overlap the runtime group size at offset " + std::to_string(offset));
  }
  const uint32_t size[3] = {info.size.x, info.size.y, info.size.z};
  if (bound_push_.size() == offset + 12 && std::memcmp(bound_push_.data() + offset, size, 12) == 0 &&
      (user == 0 || std::memcmp(bound_push_.data(), info.push_constants.data(), user) == 0)) {
    return {};
  }
  bound_push_.assign(offset + 12, std::byte{0});
  if (user != 0) std::memcpy(bound_push_.data(), info.push_constants.data(), user);
  std::memcpy(bound_push_.data() + offset, size, 12);
  recorder_->record(CmdPushConstants{variant.pipeline_layout(), bound_push_});
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
  return std::array<uint64_t, 2>{it->second[size_t(query.pair) * 2] & mask, it->second[size_t(query.pair) * 2 + 1] & mask};
}

Expected<double> CommandStream::elapsed_ns(const TimestampQuery& query) {
  auto ticks = pair_ticks(query);
  if (!ticks) return ticks.error();
  const uint32_t bits = device_->timestamp_valid_bits();
  const uint64_t mask = bits >= 64 ? ~0ull : ((1ull << bits) - 1);
  return double(((*ticks)[1] - (*ticks)[0]) & mask) * double(device_->info().timestamp_period_ns);
}

Status CommandStream::dispatch_indirect(const DispatchInfo& info) {
  if (info.indirect == nullptr) return fail("dispatch_indirect: no indirect buffer");
  Buffer& buffer = *info.indirect;
  const VkDeviceSize begin = info.indirect_offset, end = info.indirect_offset + 12;
  if (begin % 4 != 0 || end > buffer.size()) {
    return fail("dispatch_indirect: the command at offset " + std::to_string(begin) + " is not 4-aligned inside the buffer");
  }
  auto begun = begin_batch();
  if (!begun) return begun.error();
  Batch& batch = **begun;
  track(batch, buffer);
  if (needs_barrier(buffer.handle(), begin, end, false)) {
    // Like record_barrier, plus the indirect-command read of the dispatch.
    recorder_->record(CmdPipelineBarrier{kWorkStages, kWorkStages | VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT, kWriteAccess,
                                         kAllAccess | VK_ACCESS_INDIRECT_COMMAND_READ_BIT});
    written_.clear();
    read_.clear();
    readonly_repeat_ = false;
    ++stats_.automatic_barriers;
  }
  if (Status ok = dispatch(info); !ok) return ok;
  // After the dispatch's own tracking (a barrier it recorded would have cleared this note).
  note_access(buffer.handle(), begin, end, false);
  return {};
}

Status CommandStream::write_timestamp(TimestampQuery* out) {
  *out = TimestampQuery{};
  if (device_->timestamp_valid_bits() == 0) return {};
  auto begun = begin_batch();
  if (!begun) return begun.error();
  Batch& batch = **begun;
  const auto& vk = device_->vk();
  if (batch.query_pool == VK_NULL_HANDLE) {
    VkQueryPoolCreateInfo query_info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    query_info.queryType = VK_QUERY_TYPE_TIMESTAMP;
    query_info.queryCount = options_.timestamp_pairs_per_batch * 2;
    if (Status ok = device_->call("vkCreateQueryPool", vk.vkCreateQueryPool, device_->handle(), &query_info, nullptr,
                                  &batch.query_pool);
        !ok) {
      return ok;
    }
  }
  if (batch.pairs_used == 0) {
    recorder_->record(CmdResetQueryPool{batch.query_pool, 0, options_.timestamp_pairs_per_batch * 2});
  }
  // One pair, both slots the same point in the stream (retire() reads pairs).
  recorder_->record(CmdWriteTimestamp{batch.query_pool, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, batch.pairs_used * 2});
  recorder_->record(
      CmdWriteTimestamp{batch.query_pool, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, batch.pairs_used * 2 + 1});
  recorder_->publish();
  *out = TimestampQuery{batch.id, batch.pairs_used};
  ++batch.pairs_used;
  readonly_repeat_ = false;
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

// ---- transfers ----

Status CommandStream::copy(Buffer& source, VkDeviceSize source_offset, Buffer& destination,
                           VkDeviceSize destination_offset, VkDeviceSize bytes) {
  if (bytes == 0) return {};
  if (source_offset + bytes > source.size() || destination_offset + bytes > destination.size()) {
    return fail("copy: range past the end of a buffer");
  }
  auto begun = begin_batch();
  if (!begun) return begun.error();
  Batch& batch = **begun;
  if (needs_barrier(source.handle(), source_offset, source_offset + bytes, false) ||
      needs_barrier(destination.handle(), destination_offset, destination_offset + bytes, true)) {
    record_barrier(batch);
    ++stats_.automatic_barriers;
  }
  readonly_repeat_ = false;
  note_access(source.handle(), source_offset, source_offset + bytes, false);
  note_access(destination.handle(), destination_offset, destination_offset + bytes, true);
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
  if (needs_barrier(buffer.handle(), offset, offset + bytes, true)) {
    record_barrier(batch);
    ++stats_.automatic_barriers;
  }
  readonly_repeat_ = false;
  note_access(buffer.handle(), offset, offset + bytes, true);
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
  auto staging = Buffer::create(*device_, data.size(), BufferKind::Staging);
  if (!staging) return staging.error();
  std::memcpy((*staging)->mapped(), data.data(), data.size());
  return copy(**staging, 0, buffer, offset, data.size());
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
  auto staging = Buffer::create(*device_, out.size(), BufferKind::Staging);
  if (!staging) return staging.error();
  if (Status ok = copy(buffer, offset, **staging, 0, out.size()); !ok) return ok;
  if (Status ok = wait_buffer_idle(**staging); !ok) return ok;
  std::memcpy(out.data(), (*staging)->mapped(), out.size());
  return {};
}

Expected<void*> CommandStream::map(Buffer& buffer) {
  if (Status ok = device_->alive(); !ok) return ok.error();
  if (!buffer.host_visible()) return fail("map: the buffer is device-local (use readback/upload)");
  if (Status ok = wait_buffer_idle(buffer); !ok) return ok.error();
  return buffer.mapped();
}

}  // namespace bismuth::backend
