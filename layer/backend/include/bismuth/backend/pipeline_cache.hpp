// The per-size compute pipeline cache: the heart of the backend (docs/backend.md).
//
//  * Key: XXH3-128 of the SPIR-V, entry point, workgroup size x/y/z, required subgroup size (0 = any), the
//    other specialization values, pipeline-layout identity. A PipelineKey is built and hashed once per lookup.
//  * Concurrency: the map is split into shards, each behind a shared_mutex; hits take one shared lock and never
//    write shared state except the entry's recency stamp (only when it changes) and a per-thread-stripe hit
//    counter. Misses are single-flight: the first requester inserts a pending entry and compiles outside every
//    lock, later requesters for the same key wait on that entry.
//  * Bounds: LRU eviction by entry count and an approximate byte budget. An evicted pipeline is destroyed when
//    its last reference is dropped and every submission that used it (timeline value) completed.
//  * Persistence: one VkPipelineCache per device, loaded from and saved to a validated file (disk_cache.hpp).
//  * Prewarm: background workers at low priority compile likely sizes (src/pipeline_prewarm.hpp); a foreground
//    miss for a size being prewarmed joins that compile, and workers start no new compile while a foreground
//    compile runs.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "bismuth/backend/device.hpp"
#include "bismuth/backend/process_exit.hpp"
#include "bismuth/backend/shader.hpp"

namespace bismuth::backend {

struct GroupSize {
  uint32_t x = 1, y = 1, z = 1;
  friend bool operator==(const GroupSize&, const GroupSize&) = default;
};

struct SpecValue {
  uint32_t id = 0;
  uint32_t value = 0;
};

struct PipelineRequest {
  const Shader* shader = nullptr;
  GroupSize size;
  uint32_t subgroup_size = 0;              // required subgroup size; 0 = any
  std::span<const SpecValue> spec_values;  // other specialization constants (not the group size)
};

// Plain data, compared field by field; `hash` is computed once by make().
struct PipelineKey {
  Hash128 spirv;
  uint64_t entry_point = 0;
  uint64_t layout = 0;
  Hash128 spec_values;  // XXH3-128 of the other specialization values (zero when none)
  uint32_t group[3] = {1, 1, 1};
  uint32_t subgroup_size = 0;
  uint64_t hash = 0;

  static PipelineKey make(const PipelineRequest& request);
  friend bool operator==(const PipelineKey& a, const PipelineKey& b) {
    return a.hash == b.hash && a.spirv == b.spirv && a.entry_point == b.entry_point && a.layout == b.layout &&
           a.spec_values == b.spec_values && a.group[0] == b.group[0] && a.group[1] == b.group[1] &&
           a.group[2] == b.group[2] && a.subgroup_size == b.subgroup_size;
  }
};

struct PipelineKeyHash {
  size_t operator()(const PipelineKey& k) const { return static_cast<size_t>(k.hash); }
};

class PipelineCache;
class PipelinePrewarm;
namespace detail {
// Tracks every live CachedPipeline of one PipelineCache, so that ~PipelineCache can destroy the VkPipelines of
// entries that outlive it in other threads' front caches, and their later destructors do nothing.
struct PipelineGraveyard {
  std::mutex mutex;
  Device* device = nullptr;  // null once the cache is gone
  std::unordered_map<const void*, bool> live;
};
}  // namespace detail

// One cached pipeline. Held through PipelineRef (shared_ptr); the VkPipeline is handed to Device::defer when
// the last reference goes, with the last timeline value of a submission that used it.
class CachedPipeline : public std::enable_shared_from_this<CachedPipeline> {
 public:
  ~CachedPipeline();
  VkPipeline handle() const { return pipeline_; }
  const PipelineKey& key() const { return key_; }
  // Records that a submission with timeline value `value` uses this pipeline.
  void mark_used(uint64_t value) const;
  uint64_t last_use() const { return last_use_.load(std::memory_order_acquire); }

 private:
  friend class PipelineCache;
  enum State : uint32_t { Pending = 0, Ready = 1, Failed = 2 };
  CachedPipeline(Device& device, const PipelineKey& key, std::shared_ptr<detail::PipelineGraveyard> graveyard);
  Device* device_;
  std::shared_ptr<detail::PipelineGraveyard> graveyard_;
  PipelineKey key_;
  VkPipeline pipeline_ = VK_NULL_HANDLE;
  std::atomic<uint32_t> state_{Pending};
  Error error_;                // written before state_ becomes Failed
  bool from_prewarm_ = false;  // written before the entry is published
  size_t bytes_ = 0;
  mutable std::atomic<uint64_t> last_use_{0};
  mutable std::atomic<uint64_t> recency_{0};
};
using PipelineRef = std::shared_ptr<const CachedPipeline>;

struct PipelineCacheOptions {
  size_t max_entries = 4096;
  size_t max_bytes = size_t(256) << 20;  // approximate, see estimated_bytes
  // Estimated host+driver bytes of one pipeline: this much plus `bytes_per_spirv_byte` times the SPIR-V size.
  size_t bytes_per_pipeline = 16 << 10;
  size_t bytes_per_spirv_byte = 4;
  // Persistent VkPipelineCache. Unset: $BISMUTH_CACHE_DIR, else $XDG_CACHE_HOME/bismuth, else
  // ~/.cache/bismuth. "off" or an empty string: no file is read or written.
  std::optional<std::string> cache_dir;
  size_t max_file_bytes = size_t(64) << 20;        // larger blobs are not written
  std::chrono::milliseconds save_interval{60000};  // periodic save by a background worker when dirty
  // Prewarm workers; 0: one per two hardware threads, at least 1, at most 4.
  uint32_t prewarm_threads = 0;
  // Prewarm compiles start only this long after a stream's last batch (note_stream_batch).
  std::chrono::milliseconds prewarm_stream_quiet{20};
  // The sizes prewarm(shader) compiles when given none; empty: default_prewarm_sizes(device, max_prewarm_sizes).
  std::vector<GroupSize> prewarm_sizes;
  size_t max_prewarm_sizes = 64;
  // Print statistics to stderr in ~PipelineCache. Unset: BISMUTH_STATS=1 decides.
  std::optional<bool> print_stats_at_exit;
  // Warnings (ignored cache files, failed saves) go here; unset: stderr.
  std::function<void(const std::string&)> on_warning;
};

struct PipelineCacheStats {
  // Compile-time histogram bucket upper bounds in milliseconds; the last bucket is "more".
  static constexpr std::array<double, 8> kBucketMs = {0.1, 0.3, 1, 3, 10, 30, 100, 300};
  uint64_t hits = 0;
  uint64_t misses = 0;    // foreground requests that found no ready entry
  uint64_t compiles = 0;  // vkCreateComputePipelines calls (foreground + prewarm)
  uint64_t prewarm_compiles = 0;
  uint64_t prewarm_joins = 0;        // foreground misses that waited for a prewarm compile of the same key
  uint64_t single_flight_waits = 0;  // foreground misses that waited for another thread's compile
  uint64_t compile_failures = 0;
  uint64_t evictions = 0;
  uint64_t disk_cache_hits = 0;  // compiles the driver served from the VkPipelineCache (creation feedback)
  uint64_t compile_ns_total = 0;
  std::array<uint64_t, kBucketMs.size() + 1> compile_histogram{};
  size_t entries = 0;
  size_t bytes = 0;
  size_t disk_loaded_bytes = 0;  // VkPipelineCache data loaded from the cache file at start
  size_t disk_saved_bytes = 0;   // data written by the last save
  std::string disk_path;         // empty when persistence is off
  std::string disk_status;       // "loaded", "no file", "ignored: <reason>", "off"
  std::string to_string() const;
};

class PipelineCache final : private ExitParticipant {
 public:
  static Expected<std::unique_ptr<PipelineCache>> create(Device& device, const PipelineCacheOptions& options = {});
  // Cancels prewarm, joins workers, saves the cache file, prints statistics when asked. Cached pipelines still
  // referenced elsewhere stay valid until those references go.
  ~PipelineCache();
  PipelineCache(const PipelineCache&) = delete;
  PipelineCache& operator=(const PipelineCache&) = delete;

  // The pipeline for `request`, compiling it on a miss (single-flight). `key` must be PipelineKey::make(request).
  Expected<PipelineRef> get_or_compile(const PipelineKey& key, const PipelineRequest& request);
  Expected<PipelineRef> get_or_compile(const PipelineRequest& request) {
    return get_or_compile(PipelineKey::make(request), request);
  }
  // The hot path: like get_or_compile, but returns a borrowed pointer that stays valid until this thread's next
  // call into this cache (the thread's front cache holds the reference). Take shared_from_this() to keep it
  // longer. Hits in the front cache take no lock and touch no shared reference count.
  Expected<const CachedPipeline*> acquire(const PipelineKey& key, const PipelineRequest& request);
  // A ready pipeline or null; never compiles or waits.
  PipelineRef find(const PipelineKey& key);
  // For callers that keep their own small front table (CommandStream): marks `pipeline` recently used, so that
  // LRU eviction sees reuse that did not go through a lookup.
  void note_reuse(const CachedPipeline& pipeline) {
    const uint64_t epoch = epoch_.load(std::memory_order_relaxed);
    if (pipeline.recency_.load(std::memory_order_relaxed) != epoch) {
      pipeline.recency_.store(epoch, std::memory_order_relaxed);
    }
  }
  // Changes whenever an entry is evicted: tables that hold references drop them when it changes.
  uint64_t generation() const { return generation_.load(std::memory_order_acquire); }
  // Advanced after each compile that made an entry ready: while it is unchanged, find() of a key that found nothing
  // still finds nothing (PipelineFrontTable polls the exact pipeline of a provisional entry only when it moved).
  uint64_t ready_count() const { return ready_count_.load(std::memory_order_acquire); }

  // Queues background compiles of `sizes` for `shader`, in order; empty: the configured prewarm_sizes, else
  // default_prewarm_sizes. Call it when a variable-size shader is created.
  // None starts before `delay` has passed, and cancel_prewarm(shader) before then drops them all: the GL shim delays
  // a program's prewarm so that programs made, dispatched once and deleted (test suites, generators) never pay it.
  void prewarm(std::shared_ptr<const Shader> shader, std::vector<GroupSize> sizes = {}, uint32_t subgroup_size = 0,
               std::chrono::milliseconds delay = std::chrono::milliseconds(0));
  // Queues one background compile ahead of every queued prewarm compile (CommandStream: the exact pipeline of a
  // size it is running on a larger runtime-group-size pipeline meanwhile). False when there are no workers.
  bool compile_in_background(std::shared_ptr<const Shader> shader, GroupSize size, uint32_t subgroup_size = 0);
  // Whether background compiles run at all (prewarm_threads resolved to at least one worker).
  bool has_workers() const;
  // A CommandStream recorded a batch of a stream of dispatches: prewarm compiles wait until no such batch came for
  // PipelineCacheOptions::prewarm_stream_quiet, compile_in_background's do not. On NVIDIA's
  // driver, prewarm's compiles beside a stream delayed the exact pipeline that stream waited for ~10× and slowed
  // its recording (docs/performance.md). Cheap: one clock read and a relaxed store, once per batch.
  void note_stream_batch();
  // Drops every queued prewarm compile (a compile already running finishes).
  void cancel_prewarm();
  // Drops the queued prewarm compiles of `shader` and waits for its running one, so that no prewarm compile
  // uses `shader` (or the external pipeline layout it names) after this returns.
  void cancel_prewarm(const Shader& shader) { cancel_prewarm(shader, true); }
  // `wait_running` false: only drops the queued compiles (for owners whose tasks' shared references keep the
  // shader and its layout alive anyway, e.g. the GL shim at glDeleteProgram).
  void cancel_prewarm(const Shader& shader, bool wait_running);
  // For owners that bound the lifetime of a shader's pipelines themselves (the Vulkan layer, whose size pipelines
  // die with the application's parent pipeline): cancel_prewarm(shader), then removes every ready entry of
  // `shader` (same SPIR-V, entry point and layout identity). Their VkPipelines are destroyed when the last
  // reference goes, after the last timeline value they were marked with (Device::defer). Returns how many.
  size_t erase(const Shader& shader);
  // Waits until no prewarm compile is queued or running (tests, benchmarks).
  void wait_prewarm_idle();
  // Powers of two, then multiples of the subgroup size, up to the device limits (1-D first), then square 2-D
  // powers of two; at most `max_sizes`.
  static std::vector<GroupSize> default_prewarm_sizes(const DeviceInfo& info, size_t max_sizes = 64);
  // default_prewarm_sizes of this cache's device, worked out once per `max_sizes` (the GL shim asks at every
  // variable-size link). Thread-safe.
  std::vector<GroupSize> device_prewarm_sizes(size_t max_sizes) const;
  // The value of BISMUTH_PREWARM (the layer and the GL shim read it): "off", "false" or "no" → 0 sizes, up to six
  // digits → that many; nullopt when empty or not understood (the reader's default applies).
  static std::optional<size_t> parse_prewarm_setting(std::string_view value);

  // Writes the VkPipelineCache blob now (no-op when persistence is off).
  Status save();
  PipelineCacheStats stats() const;
  size_t size() const { return entries_.load(std::memory_order_acquire); }
  VkPipelineCache vk_cache() const { return vk_cache_; }
  const std::string& disk_path() const { return disk_path_; }
  Device& device() const { return *device_; }

 private:
  struct alignas(64) Shard {
    mutable std::shared_mutex mutex;
    std::unordered_map<PipelineKey, std::shared_ptr<CachedPipeline>, PipelineKeyHash> map;
  };
  struct alignas(64) Counter {
    std::atomic<uint64_t> value{0};
  };
  friend class PipelinePrewarm;  // runs the compiles and saves below
  static constexpr size_t kShards = 32;
  static constexpr size_t kStripes = 16;

  explicit PipelineCache(Device& device, const PipelineCacheOptions& options);
  Status load_disk_cache();
  Status compile(CachedPipeline& entry, const PipelineRequest& request);
  Expected<PipelineRef> wait_for(const std::shared_ptr<CachedPipeline>& entry, bool count_join);
  Expected<std::shared_ptr<CachedPipeline>> lookup_shared(const PipelineKey& key, const PipelineRequest& request);
  std::shared_ptr<CachedPipeline> new_entry(const PipelineKey& key);
  void touch(CachedPipeline& entry);
  void account_insert(CachedPipeline& entry);
  void evict_if_needed(const CachedPipeline* keep);
  void remove_failed(const std::shared_ptr<CachedPipeline>& entry);
  // A prewarm worker's compile: none when the key is cached or being compiled; otherwise a pending entry first,
  // which a foreground miss for the same key joins.
  void compile_for_prewarm(const PipelineRequest& request);
  void warn(const std::string& message) const;
  void count_hit();
  // Pipelines compiled since the last save, and a cache file to save them to.
  bool has_unsaved_pipelines() const { return !disk_path_.empty() && dirty_.load(std::memory_order_relaxed); }
  void save_or_warn();
  void maybe_save_periodically();
  // At process exit (process_exit.hpp): drops the queued compiles, lets the running ones finish, joins the
  // workers and saves the cache file; later misses compile on the caller's thread.
  void stop_for_exit() noexcept override;

  Device* device_;
  PipelineCacheOptions options_;
  uint64_t id_;  // process-unique, names this cache in the threads' front caches
  // Advanced by every eviction: a thread's front cache drops its references when it sees a new generation.
  std::atomic<uint64_t> generation_{1};
  std::atomic<uint64_t> ready_count_{0};  // ready_count()
  std::shared_ptr<detail::PipelineGraveyard> graveyard_ = std::make_shared<detail::PipelineGraveyard>();
  VkPipelineCache vk_cache_ = VK_NULL_HANDLE;
  std::array<Shard, kShards> shards_;
  std::array<Counter, kStripes> hit_stripes_;
  std::atomic<uint64_t> epoch_{1};
  std::atomic<size_t> entries_{0};
  std::atomic<size_t> bytes_{0};
  std::mutex evict_mutex_;

  // Statistics other than hits (rare events: one counter each is fine).
  std::atomic<uint64_t> misses_{0}, compiles_{0}, prewarm_compiles_{0}, prewarm_joins_{0}, single_flight_waits_{0},
      compile_failures_{0}, evictions_{0}, disk_cache_hits_{0}, compile_ns_total_{0};
  std::array<std::atomic<uint64_t>, PipelineCacheStats::kBucketMs.size() + 1> histogram_{};

  mutable std::mutex prewarm_sizes_mutex_;
  mutable std::map<size_t, std::vector<GroupSize>> prewarm_sizes_;  // device_prewarm_sizes by max_sizes

  // Persistence.
  std::string disk_path_;
  mutable std::mutex disk_mutex_;
  std::string disk_status_;
  size_t disk_loaded_bytes_ = 0;
  size_t disk_saved_bytes_ = 0;
  std::atomic<bool> dirty_{false};

  // Prewarm workers; declared last, so destroyed before the members they use (~PipelineCache stops them first).
  std::unique_ptr<PipelinePrewarm> prewarm_;
};

}  // namespace bismuth::backend
