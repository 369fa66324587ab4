// CommandStream (command_stream.hpp), recording dispatches and barriers: validation, the barriers that hazards
// call for, the pipeline from the front table, and only the binds that changed since the previous dispatch.
#include <algorithm>
#include <cstring>

#include "bismuth/backend/command_stream.hpp"
#include "command_recorder.hpp"

namespace bismuth::backend {

namespace {

constexpr uint32_t kSetsPerPool = 256;

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

// Buffers, offsets and ranges: what the bound descriptors name.
bool same_bindings(const std::vector<BufferBinding>& a, std::span<const BufferBinding> b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].buffer != b[i].buffer || a[i].offset != b[i].offset || a[i].range != b[i].range) return false;
  }
  return true;
}

// The declared accesses of bindings already known to be the same (same_bindings).
template <class Binding>
bool same_accesses(const std::vector<Binding>& a, std::span<const Binding> b) {
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].access != b[i].access) return false;
  }
  return true;
}

// Images, views, samplers and texel ranges: what the bound image descriptors name. Out of line: only dispatches
// with image bindings get past the size check.
[[gnu::noinline]] bool same_image_entries(const std::vector<ImageBinding>& a, std::span<const ImageBinding> b) {
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].image != b[i].image || !(a[i].view == b[i].view) || a[i].sampler != b[i].sampler ||
        a[i].texel_buffer != b[i].texel_buffer || a[i].offset != b[i].offset || a[i].range != b[i].range ||
        a[i].texel_format != b[i].texel_format) {
      return false;
    }
  }
  return true;
}

inline bool same_images(const std::vector<ImageBinding>& a, std::span<const ImageBinding> b) {
  return a.size() == b.size() && (b.empty() || same_image_entries(a, b));
}

// The first buffer-typed binding at or after `binding` (image descriptors take DispatchInfo::images).
inline size_t next_buffer_binding(const BindingLayout& layout, size_t binding) {
  while (binding < layout.bindings.size() && !is_buffer_descriptor(layout.bindings[binding])) ++binding;
  return binding;
}

// Kept out of line so that the dispatch path does not carry the message-building code.
[[gnu::cold, gnu::noinline]] Error binding_error(const Shader& shader, size_t index, const std::string& what) {
  return Error{"dispatch of " + shader.name() + ": binding " + std::to_string(index) + " " + what, 0};
}

}  // namespace

void CommandStream::record_barrier(const BarrierScope& scope) {
  const BarrierScope merged = pending_barrier_ |= scope;
  pending_barrier_ = {};
  recorder_->record(CmdPipelineBarrier{merged.source_stages, merged.destination_stages, merged.source_access,
                                       merged.destination_access});
  ++stats_.barrier_commands;
  if (merged.covers(HazardTracker::kHazardScope)) {
    hazards_.clear();
    shader_accesses_.clear();
  }
  end_readonly_repeat();  // the ranges must be noted again
}

// Explicit requests are only noted here: the next command records them (record_pending_barrier, or merged into the
// barrier its hazards need), so adjacent requests become one vkCmdPipelineBarrier and one at the end of a stream
// costs nothing. A request with no command after it never needs recording: nothing is there to wait.
Status CommandStream::barrier() {
  if (Status ok = device_->alive(); !ok) return ok;
  pending_barrier_ |= HazardTracker::kHazardScope;
  end_readonly_repeat();
  ++stats_.explicit_barriers;
  return {};
}

Status CommandStream::memory_barrier(BarrierTargets targets) {
  if (Status ok = device_->alive(); !ok) return ok;
  if (targets == 0) return {};
  // Its source scope is shader writes only, so it never clears the access tracking: a repeated dispatch may still
  // skip it (barrier() does clear it when recorded, so it stops the fast path).
  pending_barrier_ |= explicit_barrier_scope(targets);
  close_repeat_path();  // the next dispatch records it (record_pending_barrier)
  ++stats_.explicit_barriers;
  return {};
}

Status CommandStream::bind_descriptors(Batch& batch, const Shader& shader, const DispatchInfo& info) {
  const auto& vk = device_->vk();
  const BindingLayout& layout = shader.binding_layout();
  const std::span<const BufferBinding> bindings = info.bindings;
  if (bindings.size() != shader.buffer_descriptor_count() || info.images.size() != shader.image_descriptor_count())
      [[unlikely]] {
    return fail("dispatch of " + shader.name() + ": " + std::to_string(bindings.size()) + " buffers and " +
                std::to_string(info.images.size()) + " images bound, the layout has " +
                std::to_string(shader.buffer_descriptor_count()) + " buffer and " +
                std::to_string(shader.image_descriptor_count()) + " image, sampler or texel-buffer descriptors");
  }
  // Images were resolved into scratch_image_infos_ / scratch_texel_views_ by track_dispatch, which every dispatch
  // that binds runs first.
  const bool mixed = !info.images.empty();
  scratch_infos_.resize(bindings.size());
  for (size_t i = 0; i < bindings.size(); ++i) {
    const BufferBinding& b = bindings[i];
    scratch_infos_[i] = {b.buffer->handle(), b.offset, b.range};
    track(batch, *b.buffer);
  }
  if (shader.uses_push_descriptors()) {
    if (mixed) [[unlikely]] {
      recorder_->record(CmdPushDescriptorSetImages{shader.pipeline_layout(), layout.bindings, layout.counts,
                                                   scratch_infos_, scratch_image_infos_, scratch_texel_views_});
    } else {
      recorder_->record(CmdPushDescriptorSet{shader.pipeline_layout(), layout.bindings, layout.counts, scratch_infos_});
    }
    return {};
  }
  if (bindings.empty() && !mixed) return {};
  VkDescriptorSet set = VK_NULL_HANDLE;
  const VkDescriptorSetLayout set_layout = shader.set_layout();
  while (true) {
    if (batch.active_pool == batch.descriptor_pools.size()) {
      // Every type a layout may hold, so that buffer-only and image shaders share the batch's pools (a pool sized
      // for one set of n descriptors of each type; a set that does not fit moves on to the next pool below).
      const uint32_t per_set = static_cast<uint32_t>(std::max<size_t>(1, bindings.size() + info.images.size()));
      const VkDescriptorType types[] = {
          VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,         VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER,
          VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,          VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE,
          VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, VK_DESCRIPTOR_TYPE_SAMPLER,
          VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER,   VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER,
      };
      VkDescriptorPoolSize sizes[std::size(types)];
      for (size_t t = 0; t < std::size(types); ++t) sizes[t] = {types[t], kSetsPerPool * per_set};
      VkDescriptorPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
      pool_info.maxSets = kSetsPerPool;
      pool_info.poolSizeCount = static_cast<uint32_t>(std::size(types));
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
    Status ok =
        device_->call("vkAllocateDescriptorSets", vk.vkAllocateDescriptorSets, device_->handle(), &allocate, &set);
    if (ok) break;
    if (ok.error().code != VK_ERROR_OUT_OF_POOL_MEMORY && ok.error().code != VK_ERROR_FRAGMENTED_POOL) return ok;
    ++batch.active_pool;  // this pool is full: the next one (created above when needed)
  }
  // The set is new and only this thread touches it until the bind below is recorded.
  scratch_writes_.resize(layout.bindings.size());
  if (mixed) [[unlikely]] {
    for (VkWriteDescriptorSet& w : scratch_writes_) w = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, nullptr, set};
    point_mixed_writes(scratch_writes_, layout.bindings, layout.counts, scratch_infos_.data(),
                       scratch_image_infos_.data(), scratch_texel_views_.data());
  } else {
    size_t first = 0;
    for (size_t i = 0; i < layout.bindings.size(); ++i) {
      scratch_writes_[i] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
      scratch_writes_[i].dstSet = set;
      scratch_writes_[i].dstBinding = static_cast<uint32_t>(i);
      scratch_writes_[i].descriptorCount = layout.count(i);
      scratch_writes_[i].descriptorType = layout.bindings[i];
      scratch_writes_[i].pBufferInfo = &scratch_infos_[first];
      first += layout.count(i);
    }
  }
  vk.vkUpdateDescriptorSets(device_->handle(), static_cast<uint32_t>(scratch_writes_.size()), scratch_writes_.data(), 0,
                            nullptr);
  recorder_->record(CmdBindDescriptorSet{shader.pipeline_layout(), set});
  return {};
}

// A front-table miss (looked up in the cache, compiling if needed, then entered), or a request with specialization
// values (the cache's own lookup). Out of line: the inline dispatch() (command_stream.hpp) keeps only the hit path.
Status CommandStream::dispatch_uncached(const DispatchInfo& info, TimestampQuery* timestamp) {
  if (info.shader == nullptr) return fail("dispatch without a shader");
  if (info.spec_values.empty()) {
    auto front = front_.lookup(PipelineRequest{info.shader, info.size, info.subgroup_size, {}});
    if (!front) return front.error();
    FrontEntry* entry = *front;
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
  const BindingLayout& layout = shader.binding_layout();
  size_t binding = next_buffer_binding(layout, 0), element = 0;  // of descriptor i
  for (size_t i = 0; i < info.bindings.size(); ++i) {
    const BufferBinding& b = info.bindings[i];
    if (b.buffer == nullptr) return binding_error(shader, i, "has no buffer");
    const bool uniform =
        binding < layout.bindings.size() && layout.bindings[binding] == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
    if (++element == layout.count(binding)) {
      binding = next_buffer_binding(layout, binding + 1);
      element = 0;
    }
    const VkDeviceSize alignment =
        uniform ? limits.min_uniform_buffer_offset_alignment : limits.min_storage_buffer_offset_alignment;
    // Alignments are powers of two (Vulkan spec, "Limits").
    if ((b.offset & (alignment - 1)) != 0 || b.offset >= b.buffer->size()) {
      return binding_error(shader, i,
                           "offset " + std::to_string(b.offset) + " is not a multiple of " + std::to_string(alignment) +
                               " or past the end of the buffer");
    }
    const VkDeviceSize end =
        b.range == VK_WHOLE_SIZE ? b.buffer->size() : std::min(b.buffer->size(), b.offset + b.range);
    const bool writes = (uint8_t(b.access) & uint8_t(Access::Write)) != 0;
    need_barrier |= shader_hazard(b.buffer->handle(), b.offset, end, writes);
  }
  for (const BufferBinding& b : info.address_buffers) {
    if (b.buffer == nullptr) return fail("a dispatch's address buffer is null");
    const VkDeviceSize end =
        b.range == VK_WHOLE_SIZE ? b.buffer->size() : std::min(b.buffer->size(), b.offset + b.range);
    const bool writes = (uint8_t(b.access) & uint8_t(Access::Write)) != 0;
    need_barrier |= shader_hazard(b.buffer->handle(), b.offset, end, writes);
    track(batch, *b.buffer);  // no descriptor holds it: the batch keeps it alive
  }
  if (!info.images.empty()) [[unlikely]] {
    if (Status ok = resolve_image_bindings(batch, shader, info, need_barrier); !ok) return ok;
  }
  // Gl: only transfers, indirect reads, readbacks and maps wait for what dispatches access.
  HazardTracker& noted = gl_barriers_ ? shader_accesses_ : hazards_;
  // Noting is linear in the buffers noted since the last full barrier, and in the GL model only transfers clear
  // them: a program cycling through many buffers would pay for each on every dispatch. Past this many, one full
  // barrier before this dispatch restarts the tracking (one per 256 buffers at most).
  constexpr size_t kMaxTrackedRanges = 256;
  if (need_barrier || noted.ranges() > kMaxTrackedRanges) {
    record_barrier(HazardTracker::kHazardScope);
    ++stats_.automatic_barriers;
  } else {
    // Before noting: a pending full request clears the tracking when it is recorded, and this dispatch comes after it.
    record_pending_barrier();
  }
  for (std::span<const BufferBinding> list : {info.bindings, info.address_buffers}) {
    for (const BufferBinding& b : list) {
      const VkDeviceSize end =
          b.range == VK_WHOLE_SIZE ? b.buffer->size() : std::min(b.buffer->size(), b.offset + b.range);
      const bool writes = (uint8_t(b.access) & uint8_t(Access::Write)) != 0;
      if (uint8_t(b.access) & uint8_t(Access::Read)) noted.note_access(b.buffer->handle(), b.offset, end, false);
      if (writes) {
        noted.note_access(b.buffer->handle(), b.offset, end, true);
        batch.has_writes = true;
      }
    }
  }
  if (!info.images.empty()) [[unlikely]]
    note_image_bindings(batch, noted, info.images);
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

Status CommandStream::record(const CachedPipeline& pipeline, const Shader& shader, const DispatchInfo& call,
                             TimestampQuery* timestamp, FrontEntry* front) {
  close_repeat_path();  // reopened at the end, should this dispatch succeed (the batch's count is settled)
  Batch* batch = current_.get();
  if (batch == nullptr) [[unlikely]] {
    auto begun = begin_batch();
    if (!begun) return begun.error();
    batch = *begun;
  }
  // A variant that reads its size and literals from a uniform buffer: that buffer is one more binding, after the
  // program's (the layout's last), and from here on the dispatch is the caller's with it appended.
  DispatchInfo with_parameters;
  const bool uniform_parameters = shader.runtime_parameters_bytes() != 0;
  if (uniform_parameters) [[unlikely]] {
    auto parameters = parameters_binding(*batch, shader, call);
    if (!parameters) return parameters.error();
    scratch_parameter_bindings_.assign(call.bindings.begin(), call.bindings.end());
    scratch_parameter_bindings_.push_back(*parameters);
    with_parameters = call;
    with_parameters.bindings = scratch_parameter_bindings_;
  }
  const DispatchInfo& info = uniform_parameters ? with_parameters : call;

  const bool same_as_bound = shader.layout_identity() == bound_layout_ &&
                             same_bindings(bound_buffers_, info.bindings) && same_images(bound_images_, info.images);
  bool read_only = true;
  for (const BufferBinding& b : info.bindings) read_only &= b.access == Access::Read;
  for (const ImageBinding& b : info.images) read_only &= b.access == Access::Read;
  for (const BufferBinding& b : info.address_buffers) read_only &= b.access == Access::Read;
  // Fast path: the same bindings as the previous dispatch, nothing recorded in between — the access tracking would
  // come to the same answer (no barrier, nothing new to note). Automatic: only read-only ones (a write would be a
  // hazard); Gl: any, with the same declared accesses (dispatches are not ordered with each other).
  // Address buffers are not part of the bound state: a dispatch with any always tracks (and keeps them alive).
  const bool repeat = same_as_bound && readonly_repeat_ && info.address_buffers.empty() &&
                      (gl_barriers_ ? same_accesses(bound_buffers_, info.bindings) &&
                                          (info.images.empty() || same_accesses(bound_images_, info.images))
                                    : read_only);
  if (!repeat) {
    // The caller's bindings only: a variant's parameters are a fresh range the host wrote before submission, which
    // no command writes, so they need no barrier — and noting a range per parameter change would bring the full
    // barrier that caps the tracked ranges.
    if (Status ok = track_dispatch(*batch, shader, call); !ok) return ok;
    // The tracking noted this dispatch's accesses: the bound buffers take them, which the repeat path compares with
    // (Gl: what a repeat must declare; Automatic: read-only ones when the repeat path opens).
    if (same_as_bound) {
      for (size_t i = 0; i < info.bindings.size(); ++i) bound_buffers_[i].access = info.bindings[i].access;
    }
  } else {
    record_pending_barrier();  // only requests that do not clear the tracking (barrier() stops the repeat path)
  }

  if (pipeline.handle() != bound_pipeline_) {
    recorder_->record(CmdBindPipeline{pipeline.handle()});
    bound_pipeline_ = pipeline.handle();
    if (front == nullptr || front->batch_seen != batch->id) [[unlikely]]
      keep_pipeline(*batch, pipeline, front);
  }
  if (&shader != bound_shader_) [[unlikely]] {
    batch->shaders.push_back(shader.shared_from_this());
    bound_shader_ = &shader;
  }
  // Identically described layouts are compatible, so bindings survive a pipeline change within the same layout.
  if (!same_as_bound) {
    if (Status ok = bind_descriptors(*batch, shader, info); !ok) return ok;
    bound_buffers_.assign(info.bindings.begin(), info.bindings.end());
    bound_images_.assign(info.images.begin(), info.images.end());
    if (shader.layout_identity() != bound_layout_) bound_push_.clear();
    bound_layout_ = shader.layout_identity();
  }
  // A variant reading push constants gets the caller's, its size and literals in one push; anything else (a variant
  // with uniform parameters too) only the caller's push constants, when they changed.
  if (shader.is_runtime_variant() && !uniform_parameters) {
    if (Status ok = push_runtime_size(shader, info); !ok) return ok;
  } else if (!info.push_constants.empty() && !same_bytes(bound_push_, info.push_constants)) {
    recorder_->record(CmdPushConstants{shader.pipeline_layout(), info.push_constants});
    bound_push_.assign(info.push_constants.begin(), info.push_constants.end());
  }
  if (shader.is_runtime_variant()) {
    ++stats_.runtime_size_dispatches;
    if (shader.runtime_stand_in()) {
      ++stats_.shared_variant_dispatches;
    } else if (front != nullptr && front->provisional) {
      ++stats_.masked_dispatches;
    }
  }

  const bool timed = timestamp != nullptr && device_->timestamp_valid_bits() != 0;
  if (timed) {
    if (Status ok = prepare_timestamp_pair(*batch); !ok) return ok;
    recorder_->record(
        CmdWriteTimestamp{batch->query_pool, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, batch->pairs_used * 2});
  }
  if (info.indirect != nullptr) {
    recorder_->record(CmdDispatchIndirect{info.indirect->handle(), info.indirect_offset});
  } else {
    recorder_->record(CmdDispatch{info.groups[0], info.groups[1], info.groups[2]});
  }
  readonly_repeat_ = gl_barriers_ || read_only;
  ++stats_.dispatches;
  ++batch->dispatches;
  if (batch->dispatches == options_.inline_batch_dispatches) [[unlikely]]
    recorder_->hand_over();
  // A batch this long is a stream of dispatches (a program loop's batches hold one or a few): speculative prewarm
  // compiles wait until it is over (PipelineCache::note_stream_batch).
  if (batch->dispatches == kStreamBatchDispatches) [[unlikely]]
    cache_->note_stream_batch();
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
    return {};
  }
  open_repeat_path(*batch, shader, info, front);
  return {};
}

// What repeat_dispatch() does not check per dispatch holds from here until the path closes: the shader bound is
// `shader` (so its layout's descriptors and push constants are the bound ones), it is no runtime variant (those push
// the size per dispatch), no images are bound, no barrier request is pending (record() recorded it; a new one closes
// the path), the recorder records this batch directly (a recording thread's batch goes through record(), which
// encodes), and the bound buffers carry this dispatch's declared accesses. readonly_repeat_ says the tracking would
// come to the same answer (Automatic: this dispatch was read-only); it is checked per dispatch, as every transfer,
// timestamp and new batch clears it.
void CommandStream::open_repeat_path(Batch& batch, const Shader& shader, const DispatchInfo& info,
                                     const FrontEntry* front) {
  if (!readonly_repeat_ || shader.is_runtime_variant() || !info.images.empty() || !recorder_->recording_inline() ||
      !pending_barrier_.empty()) {
    return;
  }
  const DeviceFunctions& vk = device_->vk();
  repeat_.dispatch = vk.vkCmdDispatch;
  repeat_.bind_pipeline = vk.vkCmdBindPipeline;
  repeat_.batch = &batch;
  repeat_.batch_id = batch.id;
  repeat_.shader = &shader;
  // A dispatch with a pipeline of its own (no front entry) binds it: only an entry's pipeline is known bound.
  repeat_.entry = front;
  repeat_.buffers = bound_buffers_.data();
  repeat_.buffer_count = bound_buffers_.size();
  repeat_.push = bound_push_.data();
  repeat_.push_bytes = bound_push_.size();
  if (repeat_.push_bytes == 8) std::memcpy(&repeat_.push_word, repeat_.push, 8);
  // record() hands a threaded recorder's inline batch over to the thread at inline_batch_dispatches, notes a stream
  // at kStreamBatchDispatches and flushes at max_dispatches_per_batch; timestamps (which count pairs) never take
  // the path.
  // record() flushed a batch at max_dispatches_per_batch, so `until` is above the batch's count.
  uint32_t until = options_.max_dispatches_per_batch;
  if (options_.inline_batch_dispatches > batch.dispatches) until = std::min(until, options_.inline_batch_dispatches);
  if (kStreamBatchDispatches > batch.dispatches) until = std::min(until, kStreamBatchDispatches);
  repeat_.repeats = 0;
  repeat_.limit = until - batch.dispatches;  // a repeat takes the path while the batch's count stays below `until`
  repeat_.commands = recorder_->inline_target();  // batch.commands, or a stopped thread's buffer
}

namespace {

// Where a runtime-size variant reads its parameters, past the caller's push constants: the logical workgroup size (12
// bytes at runtime_size_offset), then the program's literals when the variant reads them (a variant shared by the
// programs of one template: each its own) at runtime_literal_offset. The one layout push constants and uniform
// parameters share.
struct RuntimeParameters {
  size_t size_offset = 0;
  uint32_t size[3] = {};
  std::span<const uint32_t> literals;
  size_t literal_offset = 0;
  size_t end = 0;  // one past the last byte written
};

RuntimeParameters runtime_parameters(const Shader& variant, const DispatchInfo& info) {
  RuntimeParameters p;
  p.size_offset = variant.runtime_size_offset();
  p.size[0] = info.size.x;
  p.size[1] = info.size.y;
  p.size[2] = info.size.z;
  // The program's own literals (a shared variant serves several programs).
  const Shader& program = info.shader->runtime_variant() == &variant ? *info.shader : variant;
  p.literals = program.runtime_literals();
  p.literal_offset = variant.runtime_literal_offset();
  p.end = p.literals.empty() ? p.size_offset + 12 : p.literal_offset + p.literals.size_bytes();
  return p;
}

// Writes `p` into `base` (at least p.end bytes); the bytes between stay as they are.
void write_runtime_parameters(std::byte* base, const RuntimeParameters& p) {
  std::memcpy(base + p.size_offset, p.size, 12);
  if (!p.literals.empty()) std::memcpy(base + p.literal_offset, p.literals.data(), p.literals.size_bytes());
}

}  // namespace

// The caller's push constants, then the variant's parameters (RuntimeParameters), pushed only when they differ from
// what is bound.
Status CommandStream::push_runtime_size(const Shader& variant, const DispatchInfo& info) {
  const RuntimeParameters p = runtime_parameters(variant, info);
  const size_t user = info.push_constants.size();
  if (user > p.size_offset) {
    return fail("dispatch of " + info.shader->name() + ": " + std::to_string(user) +
                " bytes of push constants overlap the runtime group size at offset " + std::to_string(p.size_offset));
  }
  const size_t literal_bytes = p.literals.size_bytes();
  if (bound_push_.size() == p.end && std::memcmp(bound_push_.data() + p.size_offset, p.size, 12) == 0 &&
      (user == 0 || std::memcmp(bound_push_.data(), info.push_constants.data(), user) == 0) &&
      (literal_bytes == 0 ||
       std::memcmp(bound_push_.data() + p.literal_offset, p.literals.data(), literal_bytes) == 0)) {
    return {};
  }
  bound_push_.assign(p.end, std::byte{0});
  if (user != 0) std::memcpy(bound_push_.data(), info.push_constants.data(), user);
  write_runtime_parameters(bound_push_.data(), p);
  recorder_->record(CmdPushConstants{variant.pipeline_layout(), bound_push_});
  return {};
}

// The variant's parameters (without the caller's push constants: a variant with uniform parameters has its block at
// offset 0), in a uniform-buffer range of this batch. Written again only when they differ from the last ones this
// batch wrote, so a stream at one size binds the same range throughout.
Expected<BufferBinding> CommandStream::parameters_binding(Batch& batch, const Shader& variant,
                                                          const DispatchInfo& info) {
  const size_t bytes = variant.runtime_parameters_bytes();
  const RuntimeParameters p = runtime_parameters(variant, info);
  if (p.size_offset + 12 > bytes || p.end > bytes) {
    return fail("dispatch of " + info.shader->name() + ": the variant's size and literals do not fit its " +
                std::to_string(bytes) + " bytes of uniform parameters");
  }
  scratch_parameters_.assign(bytes, std::byte{0});
  write_runtime_parameters(scratch_parameters_.data(), p);
  if (last_parameters_batch_ == batch.id && last_parameters_ == scratch_parameters_) return last_parameters_binding_;

  const VkDeviceSize alignment = std::max<VkDeviceSize>(device_->info().min_uniform_buffer_offset_alignment, 16);
  const VkDeviceSize slot = (VkDeviceSize(bytes) + alignment - 1) / alignment * alignment;
  if (batch.parameter_chunks.empty() || batch.parameter_used + slot > kParameterChunkBytes) {
    if (free_parameter_chunks_.empty()) {
      // Device-local where the host can write it (a BAR heap), else host memory: either is host-visible, coherent
      // and mapped for its lifetime, so the bytes written before the batch's submission are what its dispatches read.
      auto created =
          Buffer::create(*device_, kParameterChunkBytes * kParameterChunksPerBuffer, BufferKind::MappedDeviceLocal);
      if (created && !(*created)->host_visible()) {
        created = Buffer::create(*device_, kParameterChunkBytes * kParameterChunksPerBuffer, BufferKind::HostStorage);
      }
      if (!created) return created.error();
      for (VkDeviceSize c = 0; c < kParameterChunksPerBuffer; ++c) {
        free_parameter_chunks_.push_back({created->get(), c * kParameterChunkBytes});
      }
      parameter_buffers_.push_back(std::move(*created));
    }
    batch.parameter_chunks.push_back(free_parameter_chunks_.back());
    free_parameter_chunks_.pop_back();
    batch.parameter_used = 0;
  }
  const ParameterChunk& chunk = batch.parameter_chunks.back();
  const VkDeviceSize at = chunk.offset + batch.parameter_used;
  std::memcpy(static_cast<std::byte*>(chunk.buffer->mapped()) + at, scratch_parameters_.data(), bytes);
  batch.parameter_used += slot;
  last_parameters_.swap(scratch_parameters_);
  last_parameters_batch_ = batch.id;
  last_parameters_binding_ = BufferBinding{chunk.buffer, at, VkDeviceSize(bytes), Access::Read};
  return last_parameters_binding_;
}

Status CommandStream::dispatch_indirect(const DispatchInfo& info) {
  if (info.indirect == nullptr) return fail("dispatch_indirect: no indirect buffer");
  Buffer& buffer = *info.indirect;
  const VkDeviceSize begin = info.indirect_offset, end = info.indirect_offset + 12;
  if (begin % 4 != 0 || end > buffer.size()) {
    return fail("dispatch_indirect: the command at offset " + std::to_string(begin) +
                " is not 4-aligned inside the buffer");
  }
  auto begun = begin_batch();
  if (!begun) return begun.error();
  Batch& batch = **begun;
  track(batch, buffer);
  // The parameters are read like a transfer reads: ordered with earlier dispatches in both models (in Gl the
  // buffer is the shim's own, written by its count check pass; the application's COMMAND barrier orders its own
  // writes before that pass).
  if (ordered_hazard(buffer.handle(), begin, end, false)) {
    // The hazard barrier, plus the indirect-command read of the dispatch.
    BarrierScope scope = HazardTracker::kHazardScope;
    scope.destination_stages |= VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT;
    scope.destination_access |= VK_ACCESS_INDIRECT_COMMAND_READ_BIT;
    record_barrier(scope);
    ++stats_.automatic_barriers;
  }
  if (Status ok = dispatch(info); !ok) return ok;
  // After the dispatch's own tracking (a barrier it recorded would have cleared this note).
  hazards_.note_access(buffer.handle(), begin, end, false);
  end_readonly_repeat();  // a repeat must still see this read
  return {};
}

}  // namespace bismuth::backend
