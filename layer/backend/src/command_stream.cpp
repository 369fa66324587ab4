#include "bismuth/backend/command_stream.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <thread>

#include "command_recorder.hpp"
#include "staging_pool.hpp"
#include "stats_environment.hpp"
#include "transient_commands.hpp"

namespace bismuth::backend {

namespace {

// An integer from the environment variable `name` when it is set and within [low, high].
std::optional<uint32_t> environment_count(const char* name, long low, long high) {
  const char* env = std::getenv(name);
  if (env == nullptr || *env == '\0') return std::nullopt;
  const long n = std::strtol(env, nullptr, 10);
  if (n < low || n > high) return std::nullopt;
  return static_cast<uint32_t>(n);
}

uint64_t nanoseconds_between(QueueDepth::Clock::time_point from, QueueDepth::Clock::time_point to) {
  return uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(to - from).count());
}

}  // namespace

Expected<std::unique_ptr<CommandStream>> CommandStream::create(Device& device, PipelineCache& cache,
                                                               const StreamOptions& options) {
  if (Status ok = device.alive(); !ok) return ok.error();
  if (&cache.device() != &device) return fail("CommandStream::create: the pipeline cache belongs to another device");
  StreamOptions o = options;
  o.max_dispatches_per_batch = std::max(1u, o.max_dispatches_per_batch);
  o.max_batches_in_flight = std::max(1u, o.max_batches_in_flight);
  o.initial_batches_in_flight = environment_count("BISMUTH_QUEUE_DEPTH", 0, 1024).value_or(o.initial_batches_in_flight);
  o.lane_batches_in_flight =
      environment_count("BISMUTH_LANE_QUEUE_DEPTH", 1, 64).value_or(std::max(1u, o.lane_batches_in_flight));
  o.timestamp_pairs_per_batch = std::max(1u, o.timestamp_pairs_per_batch);
  bool threaded = o.recording == RecordingMode::Thread;
  if (o.recording == RecordingMode::Automatic) {
    threaded = device.info().is_gpu();
    if (const char* env = std::getenv("BISMUTH_RECORDING_THREAD"); env != nullptr && *env != '\0') {
      threaded = std::strcmp(env, "0") != 0;
    }
  }
  if (o.recording_threads == 0) {
    // One lane per ~5 hardware threads, at most 3: NVIDIA's H100 machine (16) ran issue 17's first stream of tiny
    // dispatches at 0.35-0.43 us of GPU time per dispatch with 3 and 0.45-0.50 with 2 (docs/performance.md).
    const unsigned hardware = std::thread::hardware_concurrency();
    o.recording_threads = !device.info().is_gpu() ? 1 : hardware >= 12 ? 3 : hardware >= 8 ? 2 : 1;
    o.recording_threads = environment_count("BISMUTH_RECORDING_THREADS", 1, 4).value_or(o.recording_threads);
  }
  return std::unique_ptr<CommandStream>(new CommandStream(device, cache, o, threaded));
}

CommandStream::CommandStream(Device& device, PipelineCache& cache, const StreamOptions& options, bool threaded)
    : device_(&device),
      cache_(&cache),
      options_(options),
      recorder_(std::make_unique<CommandRecorder>(device, threaded, options.recording_ring_bytes,
                                                  options.recording_threads, options.lane_batches_in_flight)),
      staging_(std::make_unique<StagingPool>(device)),
      depth_(options.initial_batches_in_flight, options.max_batches_in_flight),
      gl_barriers_(options.barriers == BarrierModel::Gl),
      inline_next_batch_(options.inline_batch_dispatches != 0),
      front_(device, cache) {}

bool CommandStream::records_on_thread() const {
  return recorder_->threaded();
}

uint32_t CommandStream::recording_threads() const {
  return recorder_->threaded() ? recorder_->lane_count() : 0;
}

void CommandStream::stop_recording_thread_for_exit() {
  recorder_->stop_thread_for_exit();
}

StreamStats CommandStream::stats() const {
  StreamStats stats = stats_;
  stats.dispatches += repeat_.repeats;
  stats.front_table_hits += repeat_.repeats;
  stats.queue_deepened = depth_.deepened();
  const RecorderTimes recorder = recorder_->times();
  stats.recording_lag_ns = recorder.lag_ns;
  stats.recording_submit_ns = recorder.submit_ns;
  stats.recording_gpu_wait_ns = recorder.gpu_wait_ns;
  stats.lane_command_buffers = recorder.buffers_created;
  stats.ring_waits = recorder.ring_waits;
  stats.ring_wait_ns = recorder.ring_wait_ns;
  return stats;
}

std::string StreamStats::to_string() const {
  char line[1024];
  std::snprintf(
      line, sizeof line,
      "bismuth command stream: %llu dispatches (%llu front-table hits, %llu runtime-size, %llu masked, %llu "
      "on a shared stand-in variant), %llu submissions (%llu recorded inline), %llu barrier commands "
      "(%llu automatic, %llu explicit requests), %llu staged transfers, %llu staging buffers created, "
      "%llu batches created (%llu depth waits, queue %s); caller: %.2f ms waiting for the recording threads, "
      "%.2f ms for the GPU, %.2f ms beginning batches, %.2f ms in %llu waits for ring space; recording threads: %.2f "
      "ms behind at batch ends, "
      "%.2f ms submitting, %.2f ms waiting for the GPU, %llu command buffers of their own\n",
      (unsigned long long)dispatches, (unsigned long long)front_table_hits, (unsigned long long)runtime_size_dispatches,
      (unsigned long long)masked_dispatches, (unsigned long long)shared_variant_dispatches,
      (unsigned long long)submissions, (unsigned long long)inline_batches, (unsigned long long)barrier_commands,
      (unsigned long long)automatic_barriers, (unsigned long long)explicit_barriers,
      (unsigned long long)staged_transfers, (unsigned long long)staging_buffers_created,
      (unsigned long long)batches_created, (unsigned long long)depth_waits,
      queue_deepened ? "deepened" : "kept its initial depth", depth_wait_recording_ns / 1e6, depth_wait_gpu_ns / 1e6,
      batch_begin_ns / 1e6, ring_wait_ns / 1e6, (unsigned long long)ring_waits, recording_lag_ns / 1e6,
      recording_submit_ns / 1e6, recording_gpu_wait_ns / 1e6, (unsigned long long)lane_command_buffers);
  return line;
}

CommandStream::~CommandStream() {
  if (stats_requested_by_environment()) std::fputs(stats().to_string().c_str(), stderr);
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

Status CommandStream::begin_own_commands(Batch& batch) {
  // A recycled batch's pool is reset whether or not it recorded last time (one on a recording thread did not):
  // resetting an unused pool costs next to nothing.
  Status ready = batch.command_pool == VK_NULL_HANDLE
                     ? create_transient_commands(*device_, batch.command_pool, batch.commands)
                     : reset_transient_commands(*device_, batch.command_pool);
  if (!ready) return ready;
  return begin_one_submission(*device_, batch.commands);
}

void CommandStream::destroy_batch(Batch& batch) {
  const auto& vk = device_->vk();
  for (VkDescriptorPool pool : batch.descriptor_pools) vk.vkDestroyDescriptorPool(device_->handle(), pool, nullptr);
  batch.descriptor_pools.clear();
  if (batch.query_pool != VK_NULL_HANDLE) vk.vkDestroyQueryPool(device_->handle(), batch.query_pool, nullptr);
  batch.query_pool = VK_NULL_HANDLE;
  if (batch.command_pool != VK_NULL_HANDLE) vk.vkDestroyCommandPool(device_->handle(), batch.command_pool, nullptr);
  batch.command_pool = VK_NULL_HANDLE;
  batch.commands = VK_NULL_HANDLE;
  batch.buffers.clear();
  release_images(batch, false);
  batch.pipelines.clear();
  batch.pipeline_keys.clear();
  batch.shaders.clear();
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
  // With recording threads the caller makes no bounded waits: a batch that starts on a thread goes into one of the
  // thread's own command buffers, which the thread keeps in turn (lane_batches_in_flight), and a small batch the
  // caller records is waited for as a rule. QueueDepth keeps an inline recorder's queue shallow.
  const bool on_lane = recorder_->threaded() && !inline_next_batch_;
  if (!recorder_->threaded() && depth_.waits_at(in_flight_.size())) {
    // The queue is as deep as it may be yet: wait for its oldest batch's submission, then for the GPU, but no
    // longer than the caller took to fill the previous batch. When that runs out the caller goes on (one batch
    // deeper), and a GPU that keeps it from keeping pace deepens the queue (queue_depth.hpp).
    ++stats_.depth_waits;
    const auto start = QueueDepth::Clock::now();
    const auto budget = std::chrono::duration_cast<std::chrono::nanoseconds>(depth_.budget(start));
    const uint64_t oldest = in_flight_.front()->value;
    if (Status ok = device_->wait_queued(oldest); !ok) return ok.error();
    const auto queued = QueueDepth::Clock::now();
    if (Status ok = device_->wait(oldest, uint64_t(std::max<int64_t>(0, budget.count()))); !ok) return ok.error();
    stats_.depth_wait_recording_ns += nanoseconds_between(start, queued);
    stats_.depth_wait_gpu_ns += nanoseconds_between(queued, QueueDepth::Clock::now());
    retire_completed();
    depth_.waited(in_flight_.empty() || in_flight_.front()->value > oldest);
  }
  while (in_flight_.size() >= depth_.maximum()) {
    if (Status ok = device_->wait(in_flight_.front()->value); !ok) return ok.error();
    retire_completed();
  }
  const auto began = QueueDepth::Clock::now();
  depth_.began(began);
  const auto& vk = device_->vk();
  std::unique_ptr<Batch> batch;
  if (!free_.empty()) {
    batch = std::move(free_.back());
    free_.pop_back();
    for (VkDescriptorPool pool : batch->descriptor_pools) {
      vk.vkResetDescriptorPool(device_->handle(), pool, 0);
    }
    // Its uniform parameters were read: the chunks serve other batches now.
    free_parameter_chunks_.insert(free_parameter_chunks_.end(), batch->parameter_chunks.begin(),
                                  batch->parameter_chunks.end());
    batch->parameter_chunks.clear();
  } else {
    batch = std::make_unique<Batch>();
    ++stats_.batches_created;
  }
  if (!on_lane) {
    if (Status ok = begin_own_commands(*batch); !ok) {
      destroy_batch(*batch);
      return ok.error();
    }
  }
  batch->on_lane = on_lane;
  batch->active_pool = 0;
  batch->pairs_used = 0;
  batch->dispatches = 0;
  batch->has_writes = false;
  batch->value = 0;
  batch->id = next_batch_id_++;
  if (on_lane) {
    recorder_->target_own();
  } else if (inline_next_batch_) {
    recorder_->target_inline(batch->commands);
  } else {
    recorder_->target(batch->commands);
  }
  current_ = std::move(batch);
  reset_binding_state();
  stats_.batch_begin_ns += nanoseconds_between(began, QueueDepth::Clock::now());
  return current_.get();
}

void CommandStream::reset_binding_state() {
  end_readonly_repeat();
  bound_pipeline_ = VK_NULL_HANDLE;
  bound_layout_ = 0;
  bound_shader_ = nullptr;
  bound_buffers_.clear();
  bound_images_.clear();
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
  close_repeat_path();  // its batch ends here; the count below includes its dispatches
  std::unique_ptr<Batch> batch = std::move(current_);
  const auto& vk = device_->vk();
  if (batch->has_writes) {
    // Device writes → host reads after the timeline wait (Vulkan spec, "Host Write Ordering Guarantees" covers
    // only the other direction). Pending explicit requests merge into it: a pipeline barrier's second scope holds
    // every later command in submission order, later batches included.
    record_barrier(BarrierScope{HazardTracker::kStages, VK_PIPELINE_STAGE_HOST_BIT, HazardTracker::kWriteAccess,
                                VK_ACCESS_HOST_READ_BIT});
  }
  Expected<uint64_t> value = last_value_;
  // Small batches (a program loop's dispatch and readback) are recorded by this thread; a batch that grew past
  // StreamOptions::inline_batch_dispatches was handed to the recording thread, and so is the next one (a stream).
  inline_next_batch_ = batch->dispatches < options_.inline_batch_dispatches;
  if (!recorder_->recording_inline()) {
    // The value is reserved now, in order; the recording thread ends and submits the command buffer once it
    // replayed it (CommandRecorder::submit), while this thread goes on with the next batch.
    value = device_->reserve();
    if (value) {
      recorder_->submit(batch->on_lane ? VK_NULL_HANDLE : batch->commands, *value);
    } else {
      recorder_->drain();  // the batch is recycled below: nothing may still record into it
    }
  } else {
    if (recorder_->threaded()) ++stats_.inline_batches;
    // A thread's own command buffer when its thread was stopped for exit mid-batch (the recorder's target).
    const VkCommandBuffer commands = recorder_->inline_target();
    Status ended = device_->call("vkEndCommandBuffer", vk.vkEndCommandBuffer, commands);
    value = ended ? device_->submit(std::span<const VkCommandBuffer>(&commands, 1)) : Expected<uint64_t>(ended.error());
  }
  if (!value) {
    // Nothing of this batch reached the queue: drop its references and recycle it.
    batch->buffers.clear();
    release_images(*batch, false);
    batch->pipelines.clear();
    batch->pipeline_keys.clear();
    batch->shaders.clear();
    batch->pairs_used = 0;
    free_.push_back(std::move(batch));
    return value.error();
  }
  batch->value = *value;
  for (auto& buffer : batch->buffers) buffer->mark_used(*value);
  for (auto& image : batch->images) image->mark_used(*value);
  for (auto& pipeline : batch->pipelines) pipeline->mark_used(*value);
  // From here the timeline value keeps the objects alive (Device::defer), not these references.
  batch->buffers.clear();
  release_images(*batch, true);
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
  close_repeat_path();  // its batch is dropped
  recorder_->drain();   // its command buffer is reset when it is begun again (a recording thread's own: by the thread)
  std::unique_ptr<Batch> batch = std::move(current_);
  batch->buffers.clear();
  release_images(*batch, false);
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

void CommandStream::track(Batch& batch, Buffer& buffer) {
  for (const auto& b : batch.buffers) {
    if (b.get() == &buffer) return;
  }
  batch.buffers.push_back(buffer.shared_from_this());
}

void CommandStream::release_images(Batch& batch, bool submitted) {
  if (!submitted) {
    for (Image* image : batch.images_made_general) image->set_general_layout(false);
  }
  batch.images_made_general.clear();
  batch.images.clear();
}

bool CommandStream::in_current_batch(const Buffer& buffer) const {
  if (!current_) return false;
  for (const auto& b : current_->buffers) {
    if (b.get() == &buffer) return true;
  }
  return false;
}

}  // namespace bismuth::backend
