// Recording and submission: many dispatches per command buffer, automatic barriers, timeline submission.
//
// One CommandStream records into one "batch" (command buffer + its descriptor pools + timestamp query pool) at
// a time and submits it on flush()/finish(), before a readback or map that needs its results, or when the
// batch reaches StreamOptions::max_dispatches_per_batch. Each batch's completion is its Device timeline value;
// batches are recycled once complete.
//
// Barriers (StreamOptions::barriers): the stream tracks which buffer ranges the commands since the last barrier
// read and wrote. BarrierModel::Automatic: a dispatch (or copy/fill) that reads or writes a range written since
// the last barrier, or writes a range read since then, gets a compute/transfer → compute/transfer memory barrier
// first, so a program that never asks for one is still correct. BarrierModel::Gl (GL 4.6 §7.13): dispatches are
// not ordered with each other unless memory_barrier() asks; copies, fills, staged uploads, readbacks and maps
// stay ordered with every earlier and later command. Explicit requests (barrier(), memory_barrier()) are recorded
// only when the next command is, merged with any other barrier recorded there.
//
// A CommandStream is used by one thread at a time (like a GL context); several streams may share a Device
// and a PipelineCache from different threads.
#pragma once

#include <array>
#include <cstddef>
#include <cstring>
#include <deque>
#include <memory>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "bismuth/backend/buffer.hpp"
#include "bismuth/backend/device.hpp"
#include "bismuth/backend/hazard_tracker.hpp"
#include "bismuth/backend/image.hpp"
#include "bismuth/backend/pipeline_cache.hpp"
#include "bismuth/backend/pipeline_front_table.hpp"
#include "bismuth/backend/queue_depth.hpp"
#include "bismuth/backend/shader.hpp"

namespace bismuth::backend {

class CommandRecorder;
class StagingPool;

enum class Access : uint8_t { Read = 1, Write = 2, ReadWrite = 3 };

struct BufferBinding {
  Buffer* buffer = nullptr;  // must be owned by a shared_ptr (Buffer::create)
  VkDeviceSize offset = 0;   // multiple of min{Storage,Uniform}BufferOffsetAlignment
  VkDeviceSize range = VK_WHOLE_SIZE;
  Access access = Access::ReadWrite;
};

// One image, sampler or texel-buffer descriptor (DispatchInfo::images), by the layout's descriptor type:
//  STORAGE_IMAGE: `image` (kImageStorage) through `view` (one mip level; its format with STORAGE_IMAGE);
//  SAMPLED_IMAGE: `image` (kImageSampled) through `view` (its format with SAMPLED_IMAGE);
//  COMBINED_IMAGE_SAMPLER: the same plus `sampler` (Device::sampler; a LINEAR filter needs the view format's
//    SAMPLED_IMAGE_FILTER_LINEAR; unnormalized coordinates a 1D/2D view of one level and layer);
//  SAMPLER: `sampler` alone;
//  UNIFORM_TEXEL_BUFFER / STORAGE_TEXEL_BUFFER: `texel_buffer` at offset/range read as `texel_format`
//    (Buffer::texel_view).
// Images are in VK_IMAGE_LAYOUT_GENERAL (image.hpp). `access` is what the shader does with the image or range: it
// joins the hazard tracking like a buffer binding's (an image is tracked whole, a texel buffer by its range).
struct ImageBinding {
  Image* image = nullptr;  // owned by a shared_ptr (Image::create)
  ImageViewDesc view;
  VkSampler sampler = VK_NULL_HANDLE;
  Buffer* texel_buffer = nullptr;  // owned by a shared_ptr (Buffer::create)
  VkDeviceSize offset = 0, range = VK_WHOLE_SIZE;
  VkFormat texel_format = VK_FORMAT_UNDEFINED;
  Access access = Access::Read;
};

struct DispatchInfo {
  const Shader* shader = nullptr;
  GroupSize size;              // the workgroup size: selects the pipeline
  uint32_t subgroup_size = 0;  // required subgroup size; 0 = any
  std::span<const SpecValue> spec_values;
  std::array<uint32_t, 3> groups = {1, 1, 1};  // vkCmdDispatch counts
  // Set 0's descriptors in binding order: storage and uniform buffers take `bindings` in order, image, sampler and
  // texel-buffer descriptors take `images` in order (an array binding of n descriptors: n consecutive entries).
  std::span<const BufferBinding> bindings;
  std::span<const ImageBinding> images;
  std::span<const std::byte> push_constants;
  // Buffers the shader may reach through their device addresses (Buffer::device_address, PhysicalStorageBuffer64)
  // rather than a descriptor: GL_NV_shader_buffer_load's resident buffers. No descriptor is written for them; the
  // stream keeps each alive until the batch completes and joins its range to the hazard tracking with `access`, as
  // a binding's. Only offset, range and access are read besides the buffer.
  std::span<const BufferBinding> address_buffers;
  // Non-null: vkCmdDispatchIndirect with the VkDispatchIndirectCommand at indirect_offset (a multiple of 4, 12
  // bytes inside the buffer) instead of `groups` (use dispatch_indirect()).
  Buffer* indirect = nullptr;  // owned by a shared_ptr (Buffer::create)
  VkDeviceSize indirect_offset = 0;
};

// Names the GPU timestamps written around one dispatch.
struct TimestampQuery {
  uint64_t batch = 0;
  uint32_t pair = 0;
};

// Who calls vkCmd*: the thread that calls the stream (Inline), or the stream's recording threads (one or more,
// StreamOptions::recording_threads), which replay commands the caller encodes into rings (Thread; see
// src/command_recorder.hpp for why). Automatic: Thread on GPUs, whose drivers charge hundreds of nanoseconds per
// recorded dispatch, Inline on CPU devices (lavapipe's recording is cheap and its shader threads want the cores);
// BISMUTH_RECORDING_THREAD=0/1 overrides Automatic.
enum class RecordingMode : uint8_t { Automatic, Inline, Thread };

// Which hazards between commands the stream orders by itself (docs/backend.md, "Barriers").
enum class BarrierModel : uint8_t {
  // Every hazard between any two commands gets a barrier (the backend's tests and benchmarks, and programs that
  // must be correct without asking: BISMUTH_BARRIERS=automatic in the GL shim).
  Automatic,
  // GL's memory model (GL 4.6 §7.13.2): shader accesses of one dispatch are not ordered with another dispatch's
  // unless memory_barrier() asks; copies, fills, staged uploads, indirect parameter reads, readbacks and maps are
  // ordered with every command (GL's buffer commands are).
  Gl,
};

struct StreamOptions {
  RecordingMode recording = RecordingMode::Automatic;
  BarrierModel barriers = BarrierModel::Automatic;
  uint32_t max_dispatches_per_batch = 4096;  // flush when a batch reaches this many dispatches
  // Recording waits for the oldest batch beyond this. Deep enough that a sustained stream of tiny dispatches does
  // not wait for the GPU before ~130,000 dispatches are queued (issue 17's stream is 100,000).
  uint32_t max_batches_in_flight = 32;
  // Batches recorded into the caller's own command buffers (an inline recorder's): the queue starts this deep; from
  // here a new batch first waits, bounded by the time the caller took to fill the previous one, for the oldest;
  // three such waits in a row that run out deepen it to max_batches_in_flight (queue_depth.hpp says why). 0: always
  // max_batches_in_flight deep. BISMUTH_QUEUE_DEPTH=n overrides it. A recording thread's batches use the thread's
  // command buffers instead (lane_batches_in_flight), and the caller makes no bounded waits for them.
  uint32_t initial_batches_in_flight = 4;
  // RecordingMode::Thread: each recording thread records whole batches into command buffers of its own, and keeps
  // at most this many in flight; before it begins another it waits for the GPU to complete its oldest and records
  // into that one again, whose memory the driver already grew (src/command_recorder.hpp). The caller waits only when
  // max_batches_in_flight batches are in flight or a ring is full. BISMUTH_LANE_QUEUE_DEPTH=n (1–64) overrides it.
  uint32_t lane_batches_in_flight = 2;
  uint32_t timestamp_pairs_per_batch = 256;
  // RecordingMode::Thread: the ring of encoded commands. The caller waits for the thread only when it is full; on
  // a GPU driver the thread replays a dispatch in ~0.4 us, slower than the caller encodes it, so a sustained
  // stream must fit: 8 MiB holds ~350,000 bare dispatches (24 bytes each; 1 MiB made issue 17's stream of 100,000
  // wait for the thread). Rounded up to a power of two, at least 64 KiB.
  size_t recording_ring_bytes = size_t(8) << 20;
  // RecordingMode::Thread: batches of fewer than `inline_batch_dispatches` dispatches are recorded by the caller,
  // which ends and submits them itself: a batch that is waited for as soon as it is submitted (a program loop's
  // upload, dispatch and readback) then waits for no thread. The next batch starts inline after a batch this
  // small; a batch that reaches it is handed to the thread for the rest, and the next starts there (a stream).
  // 0: every batch goes to the thread.
  uint32_t inline_batch_dispatches = 32;
  // RecordingMode::Thread: how many recording threads replay the stream's batches, whole batches in turn (each
  // with its own ring of `recording_ring_bytes`; src/command_recorder.hpp). A GPU driver's vkCmdDispatch (0.34–0.9
  // µs on NVIDIA's) is slower than the GPU runs a tiny dispatch, so one thread leaves the GPU waiting in a stream
  // of them. 0: automatic — on GPUs 3 with at least 12 hardware threads, 2 with at least 8, else 1;
  // BISMUTH_RECORDING_THREADS=n (1–4) overrides automatic.
  uint32_t recording_threads = 0;
};

// Mip levels and array layers of an image (clear_image).
struct ImageSubresources {
  uint32_t base_mip = 0, mip_count = 1;
  uint32_t base_layer = 0, layer_count = 1;
};

struct StreamStats {
  uint64_t dispatches = 0;
  // Dispatches whose pipeline came from the stream's own front table (no PipelineCache lookup at all).
  uint64_t front_table_hits = 0;
  uint64_t automatic_barriers = 0;  // hazards that called for a barrier
  uint64_t explicit_barriers = 0;   // barrier() and memory_barrier() requests
  // vkCmdPipelineBarrier commands recorded: hazards and explicit requests that met with no command between them
  // are one command, and the host barrier that ends a batch with writes is one more.
  uint64_t barrier_commands = 0;
  uint64_t submissions = 0;
  // Of those, batches a stream with a recording thread recorded and submitted on the calling thread
  // (StreamOptions::inline_batch_dispatches).
  uint64_t inline_batches = 0;
  // Dispatches that ran a runtime-group-size pipeline (Shader::runtime_variant): chosen by total invocations.
  uint64_t runtime_size_dispatches = 0;
  // Of those, dispatches that ran on a larger pipeline (L > x*y*z, the surplus invocations return at once) while
  // the exact one compiled in the background.
  uint64_t masked_dispatches = 0;
  // Dispatches that ran a stand-in variant shared by the programs of one template (Shader::runtime_stand_in)
  // while the program's own exact-size pipeline was not ready.
  uint64_t shared_variant_dispatches = 0;
  // Staging memory (device-local buffers' uploads and readbacks): transfers served from the stream's reused staging
  // chunks, and staging buffers created (chunks and requests too large for one).
  uint64_t staged_transfers = 0;
  uint64_t staging_buffers_created = 0;
  // Batches (command buffers with their pools) the stream created: how deep its queue went, plus the one recording.
  uint64_t batches_created = 0;
  // Waits for the oldest batch at the queue's initial depth, and whether one ran out of time and deepened it to
  // StreamOptions::max_batches_in_flight (queue_depth.hpp).
  uint64_t depth_waits = 0;
  bool queue_deepened = false;
  // Where the time between dispatches went (BISMUTH_STATS=1 says why a stream ran at the pace it did). The caller:
  // in depth waits, for the recording threads to submit the oldest batch and then for the GPU; and beginning
  // batches (creating or resetting their pools, vkBeginCommandBuffer).
  uint64_t depth_wait_recording_ns = 0;
  uint64_t depth_wait_gpu_ns = 0;
  uint64_t batch_begin_ns = 0;
  // The caller found a recording thread's ring full (StreamOptions::recording_ring_bytes): how often, how long.
  uint64_t ring_waits = 0;
  uint64_t ring_wait_ns = 0;
  // The recording threads, summed over the batches they submitted: from the caller's flush until the thread reached
  // the batch's end (how far they lag), and ending and submitting (with each batch's wait for the one before).
  uint64_t recording_lag_ns = 0;
  uint64_t recording_submit_ns = 0;
  // The recording threads' own command buffers: created, and the time spent waiting for the GPU to complete one
  // before recording into it again (StreamOptions::lane_batches_in_flight).
  uint64_t lane_command_buffers = 0;
  uint64_t recording_gpu_wait_ns = 0;
  // One line per group of counters; BISMUTH_STATS=1 prints it when the stream is destroyed.
  std::string to_string() const;
};

class CommandStream {
 public:
  static Expected<std::unique_ptr<CommandStream>> create(Device& device, PipelineCache& cache,
                                                         const StreamOptions& options = {});
  // Submits what is recorded, waits for the stream's submissions, frees its pools.
  ~CommandStream();
  CommandStream(const CommandStream&) = delete;
  CommandStream& operator=(const CommandStream&) = delete;

  // Looks the pipeline up (compiling on a miss), binds it and the buffers, records the dispatch. With
  // `timestamp`, GPU timestamps are written around it (read them with elapsed_ns).
  // Inline: the front table's hit and the repeat path (a dispatch that changes nothing but, perhaps, the pipeline
  // since the previous one: recorded here, src/command_stream_dispatch.cpp says when); the rest out of line.
  [[gnu::always_inline]] Status dispatch(const DispatchInfo& info, TimestampQuery* timestamp = nullptr) {
    if (info.shader != nullptr && info.spec_values.empty()) [[likely]] {
      if (FrontEntry* entry = front_.hit(info.shader, info.size, info.subgroup_size); entry != nullptr) [[likely]] {
        // A repeat counts as a front-table hit and a dispatch when the path settles (settle_repeats).
        if (timestamp == nullptr && repeat_dispatch(*entry, info)) [[likely]]
          return {};
        ++stats_.front_table_hits;
        return record(*entry->pipeline, *entry->run_shader, info, timestamp, entry);
      }
    }
    return dispatch_uncached(info, timestamp);
  }
  // The same with a pipeline already looked up (the caller keeps the key/pipeline, e.g. the Vulkan layer).
  Status dispatch(const PipelineRef& pipeline, const DispatchInfo& info, TimestampQuery* timestamp = nullptr);
  // dispatch() with the group counts read by the GPU from info.indirect (vkCmdDispatchIndirect): no CPU wait. A
  // barrier (indirect-command read) comes first when earlier commands wrote that range.
  Status dispatch_indirect(const DispatchInfo& info);
  // Explicit barrier: every later command sees every earlier write (compute/transfer → compute/transfer).
  // Recorded when the next command is, merged with any other barrier recorded there.
  Status barrier();
  // Explicit barrier with targets (glMemoryBarrier): earlier dispatches' shader writes → what `targets` name
  // (explicit_barrier_scope); deferred and merged like barrier(). No targets: nothing.
  Status memory_barrier(BarrierTargets targets);

  Status copy(Buffer& source, VkDeviceSize source_offset, Buffer& destination, VkDeviceSize destination_offset,
              VkDeviceSize bytes);
  // Clears a range to a repeated 32-bit value (offset and size multiples of 4; VK_WHOLE_SIZE: to the end).
  Status fill(Buffer& buffer, VkDeviceSize offset, VkDeviceSize bytes, uint32_t value);
  // Writes bytes in stream order: later commands see them, earlier ones do not. Direct memcpy when the buffer
  // is host-visible and idle; otherwise through a staging buffer and a recorded copy (never a stall).
  Status upload(Buffer& buffer, VkDeviceSize offset, std::span<const std::byte> data);
  // Reads bytes after every earlier command: flushes and waits as needed.
  Status readback(Buffer& buffer, VkDeviceSize offset, std::span<std::byte> out);
  // The host pointer of a host-visible buffer once every earlier command that uses it completed.
  Expected<void*> map(Buffer& buffer);

  // Images (image.hpp; command_stream_images.cpp). Each is a transfer in stream order, ordered with every earlier
  // and later command that touches the image in both barrier models (a whole image is one tracked range), and
  // the first command on a new image records its UNDEFINED -> GENERAL transition first. Regions outside the image
  // are an Error. `texels` / `out` hold the region tightly packed: rows of width texels, then slices, then
  // layers, each texel image.texel_bytes() bytes; their size must be exactly region_bytes().
  // Writes texels in stream order, through the stream's staging memory (vkCmdCopyBufferToImage).
  Status upload_image(Image& image, const ImageRegion& region, std::span<const std::byte> texels);
  // Reads texels after every earlier command (vkCmdCopyImageToBuffer into staging); waits for that batch only.
  Status readback_image(Image& image, const ImageRegion& region, std::span<std::byte> out);
  // Sets every texel of the levels and layers to `color` (vkCmdClearColorImage; the value is read as the format's
  // numeric type: float32 for UNORM/SNORM/SFLOAT/UFLOAT/SRGB, uint32 for UINT, int32 for SINT).
  Status clear_image(Image& image, const ImageSubresources& range, const VkClearColorValue& color);
  // Copies a region to a region of the same extent and layer count (vkCmdCopyImage): images of the same type and
  // texel size (the formats are then in one Vulkan compatibility class); within one image, the regions must not
  // overlap.
  Status copy_image(Image& source, const ImageRegion& source_region, Image& destination,
                    const ImageRegion& destination_region);
  // glGenerateMipmap: levels base_level + 1 .. last, of layers layer_base .. + layer_count, each blitted from the
  // level above with a linear filter (vkCmdBlitImage), in stream order like the other image transfers. Error when
  // the format lacks BLIT_SRC, BLIT_DST or SAMPLED_IMAGE_FILTER_LINEAR (the GL shim falls back or reports), or
  // the range is outside the image. A base level that is the last records nothing. `last_level` (0: the image's
  // last) stops earlier: GL's q = min(p, MAX_LEVEL) (GL 4.6 §8.14.4).
  Status generate_mipmaps(Image& image, uint32_t base_level, uint32_t layer_base, uint32_t layer_count,
                          uint32_t last_level = 0);

  // Submits the current batch. Returns its timeline value (the last submitted one when nothing was recorded).
  // With a recording thread the value is reserved here and the thread ends and submits the command buffer once
  // it replayed it, so flush() does not wait for the replay; Device::wait on the value waits for that
  // submission as well. Should it fail there, the value still completes (nothing ran) and the error is returned
  // by the stream's next flush, finish, readback, map or command that starts a batch.
  Expected<uint64_t> flush();
  // Drops everything recorded since the last flush without submitting it (error recovery; the recording
  // benchmark uses it to measure recording alone). Buffers written by dropped commands keep their old contents.
  void discard();
  // flush() and wait for everything this stream submitted.
  Status finish();
  // Process exit (process_exit.hpp): stops and joins the recording thread once it replayed and submitted what was
  // encoded; the stream records inline from then on and stays usable (an application's own exit handlers may
  // still use it). Call it from the owning thread, or while the owner is known to be outside the stream.
  void stop_recording_thread_for_exit();
  // Nanoseconds between the timestamps around the dispatch; flushes and waits when needed.
  Expected<double> elapsed_ns(const TimestampQuery& query);
  // Writes one GPU timestamp in stream order, once every earlier command completed (bottom of pipe): GL's
  // GL_TIME_ELAPSED brackets. `out` names it (batch 0 when the queue has no timestamp bits).
  Status write_timestamp(TimestampQuery* out);
  // The GPU time of a write_timestamp timestamp in nanoseconds (raw ticks x period, masked to the valid bits);
  // flushes and waits when needed. Differences of two are the GPU time between them.
  Expected<double> timestamp_ns(const TimestampQuery& query);

  // A copy: the repeat path's dispatches not yet settled (settle_repeats) are added to it.
  StreamStats stats() const;
  // Whether a recording thread calls vkCmd* for this stream (RecordingMode after Automatic was resolved).
  bool records_on_thread() const;
  // How many recording threads replay its batches (StreamOptions::recording_threads); 0 when it records inline.
  uint32_t recording_threads() const;
  uint32_t recorded_dispatches() const { return current_ ? current_->dispatches + repeat_.repeats : 0; }
  Device& device() const { return *device_; }

 private:
  // A range of a host-visible buffer a batch writes variants' uniform parameters into (kParameterChunkBytes).
  struct ParameterChunk {
    Buffer* buffer = nullptr;  // one of parameter_buffers_
    VkDeviceSize offset = 0;
  };
  static constexpr VkDeviceSize kParameterChunkBytes = 4096;
  static constexpr VkDeviceSize kParameterChunksPerBuffer = 64;
  struct Batch {
    VkCommandPool command_pool = VK_NULL_HANDLE;
    VkCommandBuffer commands = VK_NULL_HANDLE;
    std::vector<VkDescriptorPool> descriptor_pools;
    size_t active_pool = 0;
    VkQueryPool query_pool = VK_NULL_HANDLE;
    uint32_t pairs_used = 0;
    uint64_t id = 0;
    uint64_t value = 0;  // timeline value, reserved in flush() (a recording thread submits it later)
    uint32_t dispatches = 0;
    bool has_writes = false;
    // Recorded into a recording thread's own command buffer (CommandRecorder::target_own), not `commands`; the
    // batch's own pool is created when the batch first records into it, and reset before it does again.
    bool on_lane = false;
    std::vector<std::shared_ptr<Buffer>> buffers;
    std::vector<std::shared_ptr<Image>> images;
    // Images whose UNDEFINED -> GENERAL transition this batch records: should it never be submitted, the next
    // command on them records it again.
    std::vector<Image*> images_made_general;
    std::vector<PipelineRef> pipelines;  // each distinct pipeline once
    std::vector<const CachedPipeline*> pipeline_keys;
    std::vector<std::shared_ptr<const Shader>> shaders;
    // Uniform parameters of runtime-size variants (parameters_binding): the chunks this batch writes them into, and
    // how much of the last one is used. The chunks go back to the stream when the batch is begun again.
    std::vector<ParameterChunk> parameter_chunks;
    VkDeviceSize parameter_used = 0;
  };
  using FrontEntry = PipelineFrontTable::Entry;

  CommandStream(Device& device, PipelineCache& cache, const StreamOptions& options, bool threaded);

  // Batches and submission (command_stream.cpp).
  Expected<Batch*> begin_batch();
  // Creates (first use) or resets the batch's own command pool and begins its command buffer.
  Status begin_own_commands(Batch& batch);
  void destroy_batch(Batch& batch);
  void retire_completed();
  // The failure of a submission the recording thread made for this stream since the last report, if any.
  Status submission_error();
  void track(Batch& batch, Buffer& buffer);
  bool in_current_batch(const Buffer& buffer) const;
  // Drops a batch's references to images; `submitted`: false when the batch never reached the queue.
  static void release_images(Batch& batch, bool submitted);
  void reset_binding_state();

  // Dispatches and barriers (command_stream_dispatch.cpp).
  // Records one barrier: the pending explicit requests merged with `scope` (may be empty). One that orders every
  // compute/transfer access clears the access tracking.
  void record_barrier(const BarrierScope& scope);
  // Records the pending explicit requests, if any, before a command that needs no other barrier.
  void record_pending_barrier() {
    if (!pending_barrier_.empty()) record_barrier({});
  }
  // Before a copy, fill, upload, readback or clear: the hazard barrier when the command's accesses call for one
  // (counted), else only what explicit requests left pending; no later dispatch then takes the repeat path.
  void order_transfer(bool hazard) {
    if (hazard) {
      record_barrier(HazardTracker::kHazardScope);
      ++stats_.automatic_barriers;
    } else {
      record_pending_barrier();
    }
    end_readonly_repeat();
  }
  // Whether an access of a range by a dispatch (shader) or by a transfer / indirect read calls for a barrier.
  bool shader_hazard(VkBuffer buffer, VkDeviceSize begin, VkDeviceSize end, bool writes) const {
    return hazards_.needs_barrier(buffer, begin, end, writes);
  }
  bool ordered_hazard(VkBuffer buffer, VkDeviceSize begin, VkDeviceSize end, bool writes) const {
    return hazards_.needs_barrier(buffer, begin, end, writes) ||
           (!shader_accesses_.empty() && shader_accesses_.needs_barrier(buffer, begin, end, writes));
  }
  // Dispatches in one batch from which the stream counts as a stream of dispatches (note_stream_batch).
  static constexpr uint32_t kStreamBatchDispatches = 32;
  // `shader` is the shader whose module and layout run: info.shader or its runtime variant.
  Status record(const CachedPipeline& pipeline, const Shader& shader, const DispatchInfo& call,
                TimestampQuery* timestamp, FrontEntry* front = nullptr);
  // dispatch() after a front-table miss, or with specialization values (out of line: the inline part stays small).
  [[gnu::noinline]] Status dispatch_uncached(const DispatchInfo& info, TimestampQuery* timestamp);
  // The repeat path (RepeatPath below): records a dispatch that changes nothing but, perhaps, the pipeline and
  // returns true; or records nothing and returns false. Inline, so that the dispatch loop of a GL program pays no
  // call for it (the recording benchmark's target is 1.2x the raw vkCmdBindPipeline + vkCmdDispatch on lavapipe).
  [[gnu::always_inline]] bool repeat_dispatch(const FrontEntry& entry, const DispatchInfo& info) {
    // Another entry (program or size) than the one bound: the same shader, and a pipeline the batch holds. A closed
    // path has neither entry nor shader (close_repeat_path): every entry fails here.
    const bool rebind = &entry != repeat_.entry;
    if (rebind && (entry.run_shader != repeat_.shader || entry.batch_seen != repeat_.batch_id)) return false;
    if ((info.images.size() | info.address_buffers.size() | reinterpret_cast<uintptr_t>(info.indirect)) != 0) {
      return false;
    }
    // No calls up to the driver's: nothing of this path, and none of the caller's loop, needs a register saved.
    if ((buffer_differences(info.bindings) | push_constant_differences(info.push_constants)) != 0) return false;
    const uint32_t repeats = repeat_.repeats + 1;
    if (repeats >= repeat_.limit) return false;
    // The path's state is stored before the driver's calls, so that nothing but the command buffer and the
    // caller's info lives across them.
    repeat_.repeats = repeats;
    if (rebind) {
      repeat_.entry = &entry;
      const VkPipeline pipeline = entry.pipeline->handle();
      if (pipeline != bound_pipeline_) {
        bound_pipeline_ = pipeline;
        repeat_.bind_pipeline(repeat_.commands, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
      }
    }
    repeat_.dispatch(repeat_.commands, info.groups[0], info.groups[1], info.groups[2]);
    return true;
  }
  // Nonzero unless the caller's buffers are the bound ones with the declared accesses of the dispatch that opened
  // the repeat path. Differences are or-ed together: one test for all of them; two bindings (a common count) in
  // straight-line code.
  [[gnu::always_inline]] uint64_t buffer_differences(std::span<const BufferBinding> bindings) const {
    const size_t count = bindings.size();
    if (count != repeat_.buffer_count) return 1;
    const BufferBinding* caller = bindings.data();
    const BufferBinding* bound = repeat_.buffers;
    if (count == 2) return binding_difference(caller[0], bound[0]) | binding_difference(caller[1], bound[1]);
    uint64_t differs = 0;
    for (size_t i = 0; i < count; ++i) differs |= binding_difference(caller[i], bound[i]);
    return differs;
  }
  [[gnu::always_inline]] static uint64_t binding_difference(const BufferBinding& a, const BufferBinding& b) {
    return (reinterpret_cast<uintptr_t>(a.buffer) ^ reinterpret_cast<uintptr_t>(b.buffer)) | (a.offset ^ b.offset) |
           (a.range ^ b.range) | uint64_t(uint8_t(a.access) ^ uint8_t(b.access));
  }
  // Nonzero unless there are no push constants (what is bound stays) or they are the bound ones: the common 8 bytes
  // against a copy kept in the path, others against the bound bytes, word by word (no library call).
  [[gnu::always_inline]] uint64_t push_constant_differences(std::span<const std::byte> bytes) const {
    const size_t size = bytes.size();
    uint64_t word;
    if (size == 8 && repeat_.push_bytes == 8) {
      std::memcpy(&word, bytes.data(), 8);
      return word ^ repeat_.push_word;
    }
    if (size == 0) return 0;
    if (size != repeat_.push_bytes) return 1;
    uint64_t differs = 0, bound;
    size_t i = 0;
    for (; i + 8 <= size; i += 8) {
      std::memcpy(&word, bytes.data() + i, 8);
      std::memcpy(&bound, repeat_.push + i, 8);
      differs |= word ^ bound;
    }
    for (; i < size; ++i) differs |= uint8_t(bytes[i]) ^ uint8_t(repeat_.push[i]);
    return differs;
  }
  // At the end of record(): opens the repeat path when the next dispatch may take it.
  void open_repeat_path(Batch& batch, const Shader& shader, const DispatchInfo& info, const FrontEntry* front);
  // Adds the repeat path's dispatches to the batch's count and the stats (its hot path counts only
  // RepeatPath::repeats); every reader of those counts calls it first, or adds the repeats as stats() does.
  void settle_repeats() {
    if (repeat_.repeats != 0) {
      repeat_.batch->dispatches += repeat_.repeats;
      stats_.dispatches += repeat_.repeats;
      stats_.front_table_hits += repeat_.repeats;
      repeat_.limit -= repeat_.repeats;
      repeat_.repeats = 0;
    }
  }
  // Closes the repeat path (settling its count). Whatever ends what the path relies on calls it: the next
  // dispatch goes through record(), which reopens the path when it may. Closed, the path names no entry and no
  // shader, so that repeat_dispatch() fails its first test (an entry always has a shader to run).
  void close_repeat_path() {
    settle_repeats();
    repeat_.entry = nullptr;
    repeat_.shader = nullptr;
  }
  // The previous dispatch's access tracking no longer holds (a transfer, barrier, timestamp or new batch).
  void end_readonly_repeat() {
    readonly_repeat_ = false;
    close_repeat_path();
  }
  Status push_runtime_size(const Shader& variant, const DispatchInfo& info);
  // The bytes push_runtime_size would push, for a variant with uniform parameters: the binding of this batch's copy
  // of them (written when they differ from the last ones this batch wrote).
  Expected<BufferBinding> parameters_binding(Batch& batch, const Shader& variant, const DispatchInfo& info);
  [[gnu::noinline]] Status track_dispatch(Batch& batch, const Shader& shader, const DispatchInfo& info);
  [[gnu::cold, gnu::noinline]] void keep_pipeline(Batch& batch, const CachedPipeline& pipeline, FrontEntry* front);
  Status bind_descriptors(Batch& batch, const Shader& shader, const DispatchInfo& info);

  // Image bindings (command_stream_image_bindings.cpp). Checks info.images against the layout and the device,
  // fills the scratch descriptors, keeps images and texel buffers in the batch, and adds their hazards to
  // `need_barrier`; note_image_bindings notes their accesses once the barrier is recorded.
  [[gnu::noinline]] Status resolve_image_bindings(Batch& batch, const Shader& shader, const DispatchInfo& info,
                                                  bool& need_barrier);
  void note_image_bindings(Batch& batch, HazardTracker& noted, std::span<const ImageBinding> images);

  // Transfers (command_stream_transfers.cpp).
  Status wait_buffer_idle(Buffer& buffer);

  // Images (command_stream_images.cpp).
  bool ordered_image_hazard(VkImage image, bool writes) const {
    return hazards_.needs_image_barrier(image, writes) ||
           (!shader_accesses_.empty() && shader_accesses_.needs_image_barrier(image, writes));
  }
  // Keeps the image alive in the batch and records its transition to GENERAL if no command did yet.
  void track_image(Batch& batch, Image& image);

  // Timestamps (command_stream_timestamps.cpp).
  // Before a batch's next timestamp pair: creates its query pool, resets the pool before the first pair.
  Status prepare_timestamp_pair(Batch& batch);
  // Staging memory for an upload or readback of `bytes` (staging_pool.hpp).
  Expected<StagingSlice> stage(VkDeviceSize bytes);
  // A completed batch is retired: its timestamp results are read and kept.
  Status retire(Batch& batch);
  Expected<std::array<uint64_t, 2>> pair_ticks(const TimestampQuery& query);

  Device* device_;
  PipelineCache* cache_;
  StreamOptions options_;
  std::unique_ptr<CommandRecorder> recorder_;
  std::unique_ptr<StagingPool> staging_;  // uploads and readbacks through device-local buffers (src/staging_pool.hpp)
  // Scratch for bind_descriptors (no allocation per dispatch).
  std::vector<VkDescriptorBufferInfo> scratch_infos_;
  std::vector<VkWriteDescriptorSet> scratch_writes_;
  // One per ImageBinding (resolve_image_bindings): the image info or the texel view, whichever its type uses.
  std::vector<VkDescriptorImageInfo> scratch_image_infos_;
  std::vector<VkBufferView> scratch_texel_views_;
  std::vector<VkDeviceSize> scratch_texel_ends_;  // the end of each texel buffer's range (its hazard range)
  std::unique_ptr<Batch> current_;
  std::deque<std::unique_ptr<Batch>> in_flight_;
  std::vector<std::unique_ptr<Batch>> free_;
  QueueDepth depth_;
  uint64_t next_batch_id_ = 1;
  uint64_t last_value_ = 0;
  StreamStats stats_;

  // Accesses since the last barrier that orders them: Automatic, every command's; Gl, those GL orders with every
  // later command (transfers, indirect parameter reads).
  HazardTracker hazards_;
  // Gl only: dispatches' accesses, which only transfers, indirect reads, readbacks and maps must wait for.
  HazardTracker shader_accesses_;
  const bool gl_barriers_;
  bool inline_next_batch_;  // StreamOptions::inline_batch_dispatches
  // Explicit requests not yet recorded: recorded before the next command, merged with its barrier.
  BarrierScope pending_barrier_;
  // The previous dispatch's access tracking still holds and nothing was recorded after it: a dispatch with the
  // same bindings (Automatic: read-only ones) would come to the same answer.
  bool readonly_repeat_ = false;

  // What is bound in the current command buffer, to skip redundant binds.
  VkPipeline bound_pipeline_ = VK_NULL_HANDLE;
  uint64_t bound_layout_ = 0;
  const Shader* bound_shader_ = nullptr;
  std::vector<BufferBinding> bound_buffers_;
  std::vector<ImageBinding> bound_images_;
  std::vector<std::byte> bound_push_;
  // Variants' uniform parameters (parameters_binding): the buffers, their free chunks, the last bytes written and
  // where (in batch `last_parameters_batch_`), and the dispatch's bindings with the parameters appended.
  std::vector<std::shared_ptr<Buffer>> parameter_buffers_;
  std::vector<ParameterChunk> free_parameter_chunks_;
  std::vector<std::byte> last_parameters_;
  BufferBinding last_parameters_binding_{};
  uint64_t last_parameters_batch_ = 0;
  std::vector<BufferBinding> scratch_parameter_bindings_;
  std::vector<std::byte> scratch_parameters_;
  // The repeat path: open (`shader` set) after a dispatch whose state the next one may repeat — recorded inline
  // into `batch`'s command buffer, with `shader` bound, no images bound, no barrier request pending and the bound
  // buffers' accesses the declared ones of that dispatch; the next dispatch then needs only the checks of
  // repeat_dispatch(). Closed (close_repeat_path) by record(), the barrier requests, whatever clears
  // readonly_repeat_ (every transfer, timestamp and new batch: end_readonly_repeat) and flush() / discard(), so
  // that while it is open readonly_repeat_ holds and `batch` is the current batch.
  // What it reads, together: the driver's entry points, the bound buffers' and push constants' storage (from
  // bound_buffers_ / bound_push_, which only record() changes) and the front-table entry whose pipeline is bound.
  struct RepeatPath {
    const FrontEntry* entry = nullptr;  // its pipeline is bound_pipeline_ (nullptr: none known)
    // Dispatches recorded by the path that the batch's count and the stats do not hold yet (settle_repeats), and
    // the count at which record() takes over: the batch's hand-over, stream note or flush (see open_repeat_path).
    uint32_t repeats = 0;
    uint32_t limit = 0;
    const BufferBinding* buffers = nullptr;
    size_t buffer_count = 0;
    size_t push_bytes = 0;
    uint64_t push_word = 0;  // the bound push constants when they are 8 bytes
    PFN_vkCmdDispatch dispatch = nullptr;
    VkCommandBuffer commands = VK_NULL_HANDLE;
    // Read when the entry changes (another size of the shader); nullptr: the path is closed.
    const Shader* shader = nullptr;
    uint64_t batch_id = 0;
    PFN_vkCmdBindPipeline bind_pipeline = nullptr;
    const std::byte* push = nullptr;
    Batch* batch = nullptr;
  } repeat_;
  // After the bound state, which its hit path reads next.
  PipelineFrontTable front_;

  // Timestamp results of retired batches: batch id -> raw ticks (two per pair).
  std::unordered_map<uint64_t, std::vector<uint64_t>> timestamps_;
  std::deque<uint64_t> timestamp_order_;
};

}  // namespace bismuth::backend
