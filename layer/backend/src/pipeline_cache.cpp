#include "bismuth/backend/pipeline_cache.hpp"

#include <xxhash.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <thread>

#include "bismuth/backend/atomic_max.hpp"
#include "bismuth/backend/disk_cache.hpp"
#include "pipeline_prewarm.hpp"
#include "stats_environment.hpp"

namespace bismuth::backend {

namespace {

// Which hit-counter stripe this thread uses: threads spread over the stripes so that hits from different
// threads do not bounce one cache line.
size_t thread_stripe() {
  static std::atomic<size_t> next{0};
  thread_local size_t stripe = next.fetch_add(1, std::memory_order_relaxed);
  return stripe;
}

uint64_t now_ns() {
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
          .count());
}

}  // namespace

// ---- key ----

PipelineKey PipelineKey::make(const PipelineRequest& request) {
  PipelineKey key;
  const Shader& shader = *request.shader;
  key.spirv = shader.spirv_hash();
  key.entry_point = shader.entry_point_hash();
  key.layout = shader.layout_identity();
  if (!request.spec_values.empty())
    key.spec_values = hash128(request.spec_values.data(), request.spec_values.size_bytes());
  key.group[0] = request.size.x;
  key.group[1] = request.size.y;
  key.group[2] = request.size.z;
  key.subgroup_size = request.subgroup_size;
  key.hash = XXH3_64bits(&key, offsetof(PipelineKey, hash));
  return key;
}

// Per-thread front caches: a few direct-mapped tables of recently used entries, one per PipelineCache the
// thread uses. A hit needs no lock and no shared reference-count update.
struct FrontSlot {
  std::shared_ptr<CachedPipeline> entry;
};
struct FrontCache {
  uint64_t cache_id = 0;
  uint64_t generation = 0;
  std::array<FrontSlot, 64> slots;
  void clear() {
    for (FrontSlot& s : slots) s.entry.reset();
  }
};
thread_local std::array<FrontCache, 4> t_front;
thread_local uint32_t t_front_next = 0;
std::atomic<uint64_t> g_next_cache_id{1};

// ---- entries ----

CachedPipeline::CachedPipeline(Device& device, const PipelineKey& key,
                               std::shared_ptr<detail::PipelineGraveyard> graveyard)
    : device_(&device), graveyard_(std::move(graveyard)), key_(key) {
  std::lock_guard lock(graveyard_->mutex);
  graveyard_->live.emplace(this, true);
}

CachedPipeline::~CachedPipeline() {
  std::lock_guard lock(graveyard_->mutex);
  graveyard_->live.erase(this);
  // A null device: the cache is gone and has destroyed this pipeline already.
  if (pipeline_ == VK_NULL_HANDLE || graveyard_->device == nullptr) return;
  Device* device = device_;
  VkPipeline pipeline = pipeline_;
  device->defer(last_use(),
                [device, pipeline] { device->vk().vkDestroyPipeline(device->handle(), pipeline, nullptr); });
}

void CachedPipeline::mark_used(uint64_t value) const {
  // Two submitters may both see 0 and both note theirs: harmless, one more registration of the exit handler.
  if (last_use_.load(std::memory_order_relaxed) == 0) device_->note_first_execution(value);
  raise_to(last_use_, value);
}

// ---- statistics ----

std::string PipelineCacheStats::to_string() const {
  std::string s;
  char line[256];
  std::snprintf(line, sizeof line,
                "bismuth pipeline cache: %llu hits, %llu misses, %llu compiles (%llu prewarm, %llu failed), "
                "%llu prewarm joins, %llu single-flight waits, %llu evictions, %llu disk-cache hits\n",
                (unsigned long long)hits, (unsigned long long)misses, (unsigned long long)compiles,
                (unsigned long long)prewarm_compiles, (unsigned long long)compile_failures,
                (unsigned long long)prewarm_joins, (unsigned long long)single_flight_waits,
                (unsigned long long)evictions, (unsigned long long)disk_cache_hits);
  s += line;
  std::snprintf(line, sizeof line, "  %zu entries, ~%zu KiB; compile time total %.3f ms, mean %.3f ms\n", entries,
                bytes >> 10, compile_ns_total / 1e6, compiles ? compile_ns_total / 1e6 / compiles : 0.0);
  s += line;
  s += "  compile time histogram:";
  for (size_t i = 0; i < compile_histogram.size(); ++i) {
    if (i < kBucketMs.size()) {
      std::snprintf(line, sizeof line, " <%gms:%llu", kBucketMs[i], (unsigned long long)compile_histogram[i]);
    } else {
      std::snprintf(line, sizeof line, " more:%llu", (unsigned long long)compile_histogram[i]);
    }
    s += line;
  }
  s += "\n  disk cache: " + (disk_path.empty() ? std::string("off") : disk_path) + " (" + disk_status + ", loaded " +
       std::to_string(disk_loaded_bytes) + " bytes, last save " + std::to_string(disk_saved_bytes) + " bytes)\n";
  return s;
}

// ---- cache ----

PipelineCache::PipelineCache(Device& device, const PipelineCacheOptions& options)
    : device_(&device),
      options_(options),
      id_(g_next_cache_id.fetch_add(1)),
      prewarm_(std::make_unique<PipelinePrewarm>(*this)) {
  graveyard_->device = &device;
}

std::shared_ptr<CachedPipeline> PipelineCache::new_entry(const PipelineKey& key) {
  return std::shared_ptr<CachedPipeline>(new CachedPipeline(*device_, key, graveyard_));
}

void PipelineCache::touch(CachedPipeline& entry) {
  // Recency is the eviction epoch (advanced by every insertion): written only when it changes.
  const uint64_t epoch = epoch_.load(std::memory_order_relaxed);
  if (entry.recency_.load(std::memory_order_relaxed) != epoch) entry.recency_.store(epoch, std::memory_order_relaxed);
  count_hit();
}

Expected<const CachedPipeline*> PipelineCache::acquire(const PipelineKey& key, const PipelineRequest& request) {
  FrontCache* front = nullptr;
  for (FrontCache& f : t_front) {
    if (f.cache_id == id_) front = &f;
  }
  if (front == nullptr) {
    front = &t_front[t_front_next++ % t_front.size()];
    front->clear();
    front->cache_id = id_;
    front->generation = 0;
  }
  const uint64_t generation = generation_.load(std::memory_order_acquire);
  if (front->generation != generation) {
    front->clear();
    front->generation = generation;
  }
  FrontSlot& slot = front->slots[key.hash % front->slots.size()];
  if (slot.entry && slot.entry->key_ == key) {
    if (device_->lost()) return device_->lost_error();
    touch(*slot.entry);
    return static_cast<const CachedPipeline*>(slot.entry.get());
  }
  auto entry = lookup_shared(key, request);
  if (!entry) return entry.error();
  slot.entry = std::move(*entry);
  return static_cast<const CachedPipeline*>(slot.entry.get());
}

Expected<std::unique_ptr<PipelineCache>> PipelineCache::create(Device& device, const PipelineCacheOptions& options) {
  if (Status ok = device.alive(); !ok) return ok.error();
  std::unique_ptr<PipelineCache> self(new PipelineCache(device, options));
  if (Status ok = self->load_disk_cache(); !ok) return ok.error();
  uint32_t threads = options.prewarm_threads;
  if (threads == 0) threads = std::clamp<uint32_t>(std::thread::hardware_concurrency() / 2, 1, 4);
  // Registered before the workers start, so that an exit from now on stops them (process_exit.hpp). A cache
  // created while the process exits (an application's exit handler) gets no workers: misses compile in the caller.
  if (!exit_register(*self, ExitPhase::Threads)) threads = 0;
  self->prewarm_->start(threads, options.save_interval, options.prewarm_stream_quiet);
  return self;
}

Status PipelineCache::load_disk_cache() {
  std::optional<std::string> dir = options_.cache_dir;
  if (!dir) dir = cache_dir_from_environment();
  if (dir && (dir->empty() || *dir == "off")) dir.reset();
  std::vector<uint8_t> initial;
  if (!dir) {
    disk_status_ = "off";
  } else {
    const CacheIdentity identity = CacheIdentity::of(device_->info());
    disk_path_ = cache_file_path(*dir, identity);
    auto read = read_cache_file(disk_path_, identity, options_.max_file_bytes);
    if (!read) {
      disk_status_ = "ignored: " + read.error().message;
      warn("ignoring pipeline cache file " + disk_path_ + ": " + read.error().message);
    } else if (!read->has_value()) {
      disk_status_ = "no file";
    } else {
      initial = std::move(**read);
      disk_status_ = "loaded";
    }
  }
  VkPipelineCacheCreateInfo info{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
  info.initialDataSize = initial.size();
  info.pInitialData = initial.empty() ? nullptr : initial.data();
  Status ok = device_->call("vkCreatePipelineCache", device_->vk().vkCreatePipelineCache, device_->handle(), &info,
                            nullptr, &vk_cache_);
  if (!ok && !initial.empty() && !is_device_lost(ok.error()) && !is_out_of_memory(ok.error())) {
    // The driver refused data that passed our checks: start empty rather than fail.
    warn("ignoring pipeline cache file " + disk_path_ + ": " + ok.error().message);
    disk_status_ = "ignored: driver rejected the data";
    initial.clear();
    info.initialDataSize = 0;
    info.pInitialData = nullptr;
    ok = device_->call("vkCreatePipelineCache", device_->vk().vkCreatePipelineCache, device_->handle(), &info, nullptr,
                       &vk_cache_);
  }
  if (!ok) return ok;
  disk_loaded_bytes_ = initial.size();
  return {};
}

void PipelineCache::stop_for_exit() noexcept {
  prewarm_->stop();
  if (!device_->lost() && dirty_.load()) save_or_warn();
}

void PipelineCache::save_or_warn() {
  if (Status ok = save(); !ok) warn("could not save the pipeline cache: " + ok.error().message);
}

PipelineCache::~PipelineCache() {
  exit_unregister(*this);
  stop_for_exit();  // workers joined, file saved; then statistics and pipelines
  const bool print = options_.print_stats_at_exit.value_or(stats_requested_by_environment());
  if (print) std::fputs(stats().to_string().c_str(), stderr);
  generation_.fetch_add(1, std::memory_order_acq_rel);
  for (Shard& shard : shards_) {
    std::unique_lock lock(shard.mutex);
    shard.map.clear();  // pipelines go to Device::defer when their last reference goes
  }
  {
    // Entries still referenced elsewhere (other threads' front caches; callers that kept a PipelineRef past
    // the cache, which they must not use any more) are destroyed now, once their submissions completed.
    std::lock_guard lock(graveyard_->mutex);
    uint64_t last_use = 0;
    for (auto& [pointer, unused] : graveyard_->live) {
      last_use = std::max(last_use, static_cast<const CachedPipeline*>(pointer)->last_use());
    }
    if (!graveyard_->live.empty()) {
      if (device_->lost()) {
        device_->drain_after_loss();
      } else {
        (void)device_->wait(last_use);
      }
    }
    for (auto& [pointer, unused] : graveyard_->live) {
      auto* entry = const_cast<CachedPipeline*>(static_cast<const CachedPipeline*>(pointer));
      if (entry->pipeline_ != VK_NULL_HANDLE) {
        device_->vk().vkDestroyPipeline(device_->handle(), entry->pipeline_, nullptr);
        entry->pipeline_ = VK_NULL_HANDLE;
      }
    }
    graveyard_->device = nullptr;
  }
  if (vk_cache_ != VK_NULL_HANDLE) device_->vk().vkDestroyPipelineCache(device_->handle(), vk_cache_, nullptr);
}

void PipelineCache::warn(const std::string& message) const {
  if (options_.on_warning) {
    options_.on_warning(message);
  } else {
    std::fprintf(stderr, "bismuth: warning: %s\n", message.c_str());
  }
}

void PipelineCache::count_hit() {
  hit_stripes_[thread_stripe() % kStripes].value.fetch_add(1, std::memory_order_relaxed);
}

PipelineRef PipelineCache::find(const PipelineKey& key) {
  Shard& shard = shards_[key.hash % kShards];
  std::shared_ptr<CachedPipeline> entry;
  {
    std::shared_lock lock(shard.mutex);
    auto it = shard.map.find(key);
    if (it == shard.map.end()) return nullptr;
    entry = it->second;
  }
  if (entry->state_.load(std::memory_order_acquire) != CachedPipeline::Ready) return nullptr;
  touch(*entry);
  return entry;
}

Expected<PipelineRef> PipelineCache::get_or_compile(const PipelineKey& key, const PipelineRequest& request) {
  auto entry = lookup_shared(key, request);
  if (!entry) return entry.error();
  return PipelineRef(std::move(*entry));
}

Expected<std::shared_ptr<CachedPipeline>> PipelineCache::lookup_shared(const PipelineKey& key,
                                                                       const PipelineRequest& request) {
  if (device_->lost()) return device_->lost_error();
  Shard& shard = shards_[key.hash % kShards];
  std::shared_ptr<CachedPipeline> entry;
  {
    std::shared_lock lock(shard.mutex);
    auto it = shard.map.find(key);
    if (it != shard.map.end()) entry = it->second;
  }
  if (entry) {
    if (entry->state_.load(std::memory_order_acquire) == CachedPipeline::Ready) {
      touch(*entry);
      return entry;
    }
    misses_.fetch_add(1, std::memory_order_relaxed);
    if (auto waited = wait_for(entry, true); !waited) return waited.error();
    return entry;
  }

  misses_.fetch_add(1, std::memory_order_relaxed);
  if (request.shader == nullptr) return fail("PipelineCache: request without a shader");
  {
    std::unique_lock lock(shard.mutex);
    auto it = shard.map.find(key);
    if (it != shard.map.end()) {
      entry = it->second;
      lock.unlock();
      if (auto waited = wait_for(entry, true); !waited) return waited.error();
      return entry;
    }
    entry = new_entry(key);
    shard.map.emplace(key, entry);
  }
  prewarm_->foreground_compile_begins();
  Status compiled = compile(*entry, request);
  prewarm_->foreground_compile_ends();
  if (!compiled) {
    remove_failed(entry);
    return compiled.error();
  }
  evict_if_needed(entry.get());
  maybe_save_periodically();
  return entry;
}

Expected<PipelineRef> PipelineCache::wait_for(const std::shared_ptr<CachedPipeline>& entry, bool count_join) {
  uint32_t state = entry->state_.load(std::memory_order_acquire);
  if (state == CachedPipeline::Pending && count_join) {
    if (entry->from_prewarm_) {
      prewarm_joins_.fetch_add(1, std::memory_order_relaxed);
    } else {
      single_flight_waits_.fetch_add(1, std::memory_order_relaxed);
    }
  }
  while (state == CachedPipeline::Pending) {
    entry->state_.wait(CachedPipeline::Pending, std::memory_order_acquire);
    state = entry->state_.load(std::memory_order_acquire);
  }
  if (state == CachedPipeline::Failed) return entry->error_;
  return PipelineRef(entry);
}

Status PipelineCache::compile(CachedPipeline& entry, const PipelineRequest& request) {
  const Shader& shader = *request.shader;
  const DeviceInfo& info = device_->info();
  Status result;
  const GroupSize& size = request.size;
  if (size.x == 0 || size.y == 0 || size.z == 0 || size.x > info.max_compute_work_group_size[0] ||
      size.y > info.max_compute_work_group_size[1] || size.z > info.max_compute_work_group_size[2] ||
      uint64_t(size.x) * size.y * size.z > info.max_compute_work_group_invocations) {
    result =
        fail("workgroup size " + std::to_string(size.x) + "x" + std::to_string(size.y) + "x" + std::to_string(size.z) +
             " is outside the device limits (maxComputeWorkGroupSize, " + "maxComputeWorkGroupInvocations)");
  }
  VkPipelineShaderStageRequiredSubgroupSizeCreateInfo subgroup{
      VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO};
  if (result && request.subgroup_size != 0) {
    const uint32_t s = request.subgroup_size;
    if (!device_->features().subgroup_size_control ||
        !(info.required_subgroup_size_stages & VK_SHADER_STAGE_COMPUTE_BIT)) {
      result = fail("a required subgroup size needs subgroupSizeControl for compute shaders");
    } else if (s < info.min_subgroup_size || s > info.max_subgroup_size || (s & (s - 1)) != 0) {
      result = fail("required subgroup size " + std::to_string(s) + " is outside [" +
                    std::to_string(info.min_subgroup_size) + ", " + std::to_string(info.max_subgroup_size) + "]");
    } else if (info.max_compute_workgroup_subgroups != 0 &&
               uint64_t(size.x) * size.y * size.z > uint64_t(info.max_compute_workgroup_subgroups) * s) {
      result = fail("workgroup too large for maxComputeWorkgroupSubgroups at subgroup size " + std::to_string(s));
    }
    subgroup.requiredSubgroupSize = s;
  }
  VkShaderModule module = VK_NULL_HANDLE;
  if (result) {
    auto made = shader.module();
    if (made) {
      module = *made;
    } else {
      result = made.error();
    }
  }
  if (result) {
    // The shader's fixed specialization constants first (their offsets stay valid), then the group size.
    std::vector<VkSpecializationMapEntry> map(shader.specialization_entries());
    std::vector<uint32_t> data((shader.specialization_data().size() + 3) / 4);
    if (!data.empty()) {
      std::memcpy(data.data(), shader.specialization_data().data(), shader.specialization_data().size());
    }
    const auto& ids = shader.group_size_spec_ids();
    const uint32_t group[3] = {size.x, size.y, size.z};
    for (int i = 0; i < 3; ++i) {
      map.push_back({ids[i], static_cast<uint32_t>(data.size() * 4), 4});
      data.push_back(group[i]);
    }
    for (const SpecValue& v : request.spec_values) {
      map.push_back({v.id, static_cast<uint32_t>(data.size() * 4), 4});
      data.push_back(v.value);
    }
    VkSpecializationInfo specialization{static_cast<uint32_t>(map.size()), map.data(), data.size() * 4, data.data()};
    VkComputePipelineCreateInfo create{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    create.flags = shader.pipeline_flags();
    create.stage.flags = shader.stage_flags();
    create.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    create.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    create.stage.module = module;
    create.stage.pName = shader.entry_point().c_str();
    create.stage.pSpecializationInfo = &specialization;
    if (request.subgroup_size != 0) create.stage.pNext = &subgroup;
    create.layout = shader.pipeline_layout();
    VkPipelineCreationFeedback feedback{};
    VkPipelineCreationFeedbackCreateInfo feedback_info{VK_STRUCTURE_TYPE_PIPELINE_CREATION_FEEDBACK_CREATE_INFO};
    feedback_info.pPipelineCreationFeedback = &feedback;
    if (device_->features().pipeline_creation_feedback) create.pNext = &feedback_info;

    const uint64_t start = now_ns();
    VkPipeline pipeline = VK_NULL_HANDLE;
    result = device_->call("vkCreateComputePipelines", device_->vk().vkCreateComputePipelines, device_->handle(),
                           vk_cache_, 1u, &create, nullptr, &pipeline);
    const uint64_t elapsed = now_ns() - start;
    // Drivers may set up their compiler (and its exit-time teardown) at the first pipeline: the exit stop must
    // run before that teardown (process_exit.hpp).
    ensure_exit_handler_after(DriverMilestone::FirstPipeline);
    compiles_.fetch_add(1, std::memory_order_relaxed);
    if (entry.from_prewarm_) prewarm_compiles_.fetch_add(1, std::memory_order_relaxed);
    compile_ns_total_.fetch_add(elapsed, std::memory_order_relaxed);
    size_t bucket = 0;
    while (bucket < PipelineCacheStats::kBucketMs.size() && elapsed / 1e6 >= PipelineCacheStats::kBucketMs[bucket]) {
      ++bucket;
    }
    histogram_[bucket].fetch_add(1, std::memory_order_relaxed);
    if (result && pipeline == VK_NULL_HANDLE) result = fail("vkCreateComputePipelines returned no pipeline");
    if (result) {
      entry.pipeline_ = pipeline;
      entry.bytes_ = options_.bytes_per_pipeline + options_.bytes_per_spirv_byte * shader.spirv_bytes();
      dirty_.store(true, std::memory_order_relaxed);
      if ((feedback.flags & VK_PIPELINE_CREATION_FEEDBACK_VALID_BIT) &&
          (feedback.flags & VK_PIPELINE_CREATION_FEEDBACK_APPLICATION_PIPELINE_CACHE_HIT_BIT)) {
        disk_cache_hits_.fetch_add(1, std::memory_order_relaxed);
      }
    }
  }
  if (!result) {
    compile_failures_.fetch_add(1, std::memory_order_relaxed);
    entry.error_ = result.error();
    entry.error_.message = "compiling " + (shader.name().empty() ? std::string("a shader") : shader.name()) + " at " +
                           std::to_string(size.x) + "x" + std::to_string(size.y) + "x" + std::to_string(size.z) + ": " +
                           entry.error_.message;
    entry.state_.store(CachedPipeline::Failed, std::memory_order_release);
    entry.state_.notify_all();
    return entry.error_;
  }
  entry.recency_.store(epoch_.fetch_add(1, std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  // Counted before the entry becomes Ready, so that an eviction (which only takes Ready entries) can never
  // subtract it first.
  account_insert(entry);
  entry.state_.store(CachedPipeline::Ready, std::memory_order_release);
  entry.state_.notify_all();
  ready_count_.fetch_add(1, std::memory_order_release);  // after Ready: a poller that sees it finds the entry
  return {};
}

void PipelineCache::remove_failed(const std::shared_ptr<CachedPipeline>& entry) {
  Shard& shard = shards_[entry->key_.hash % kShards];
  std::unique_lock lock(shard.mutex);
  auto it = shard.map.find(entry->key_);
  if (it != shard.map.end() && it->second == entry) shard.map.erase(it);
}

void PipelineCache::account_insert(CachedPipeline& entry) {
  entries_.fetch_add(1, std::memory_order_acq_rel);
  bytes_.fetch_add(entry.bytes_, std::memory_order_acq_rel);
}

void PipelineCache::evict_if_needed(const CachedPipeline* keep) {
  if (entries_.load(std::memory_order_acquire) <= options_.max_entries &&
      bytes_.load(std::memory_order_acquire) <= options_.max_bytes) {
    return;
  }
  std::lock_guard evict_lock(evict_mutex_);
  // Oldest first by recency stamp; the stamps are the insertion epoch at the last hit, so this is LRU at the
  // granularity of insertions, which is when eviction runs.
  std::vector<std::pair<uint64_t, std::shared_ptr<CachedPipeline>>> candidates;
  for (Shard& shard : shards_) {
    std::shared_lock lock(shard.mutex);
    for (auto& [key, e] : shard.map) {
      if (e.get() != keep && e->state_.load(std::memory_order_acquire) == CachedPipeline::Ready) {
        candidates.emplace_back(e->recency_.load(std::memory_order_relaxed), e);
      }
    }
  }
  std::sort(candidates.begin(), candidates.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (auto& [recency, victim] : candidates) {
    if (entries_.load(std::memory_order_acquire) <= options_.max_entries &&
        bytes_.load(std::memory_order_acquire) <= options_.max_bytes) {
      break;
    }
    Shard& shard = shards_[victim->key_.hash % kShards];
    std::unique_lock lock(shard.mutex);
    auto it = shard.map.find(victim->key_);
    if (it == shard.map.end() || it->second != victim) continue;
    shard.map.erase(it);
    generation_.fetch_add(1, std::memory_order_acq_rel);  // front caches drop their references
    entries_.fetch_sub(1, std::memory_order_acq_rel);
    bytes_.fetch_sub(victim->bytes_, std::memory_order_acq_rel);
    evictions_.fetch_add(1, std::memory_order_relaxed);
  }
  // `candidates` drops its references here: evicted pipelines nobody else holds go to Device::defer, which
  // destroys each once the last submission that used it completed.
}

// ---- prewarm ----

std::vector<GroupSize> PipelineCache::default_prewarm_sizes(const DeviceInfo& info, size_t max_sizes) {
  std::vector<GroupSize> sizes;
  auto add = [&](GroupSize s) {
    if (sizes.size() >= max_sizes) return;
    if (s.x > info.max_compute_work_group_size[0] || s.y > info.max_compute_work_group_size[1] ||
        uint64_t(s.x) * s.y * s.z > info.max_compute_work_group_invocations) {
      return;
    }
    if (std::find(sizes.begin(), sizes.end(), s) == sizes.end()) sizes.push_back(s);
  };
  const uint32_t limit = std::min(info.max_compute_work_group_size[0], info.max_compute_work_group_invocations);
  // Common sizes first: the subgroup-sized and the usual 64/128/256 groups.
  for (uint32_t x : {64u, 128u, 256u, 32u}) add({x, 1, 1});
  for (uint32_t x = 1; x <= limit; x *= 2) add({x, 1, 1});
  const uint32_t subgroup = std::max<uint32_t>(1, info.subgroup_size);
  for (uint32_t x = subgroup; x <= limit; x += subgroup) add({x, 1, 1});
  for (uint32_t s = 2; s * s <= info.max_compute_work_group_invocations && s <= info.max_compute_work_group_size[1];
       s *= 2) {
    add({s, s, 1});
  }
  return sizes;
}

std::vector<GroupSize> PipelineCache::device_prewarm_sizes(size_t max_sizes) const {
  std::lock_guard lock(prewarm_sizes_mutex_);
  auto it = prewarm_sizes_.find(max_sizes);
  if (it == prewarm_sizes_.end()) {
    it = prewarm_sizes_.emplace(max_sizes, default_prewarm_sizes(device_->info(), max_sizes)).first;
  }
  return it->second;
}

std::optional<size_t> PipelineCache::parse_prewarm_setting(std::string_view value) {
  if (value == "off" || value == "false" || value == "no") return 0;
  if (value.empty() || value.size() > 6 || value.find_first_not_of("0123456789") != std::string_view::npos) {
    return std::nullopt;
  }
  return std::stoul(std::string(value));  // digits only, at most 6: cannot throw
}

bool PipelineCache::has_workers() const {
  return prewarm_->has_workers();
}

void PipelineCache::prewarm(std::shared_ptr<const Shader> shader, std::vector<GroupSize> sizes, uint32_t subgroup_size,
                            std::chrono::milliseconds delay) {
  if (!shader || !prewarm_->has_workers()) return;
  if (sizes.empty()) sizes = options_.prewarm_sizes;
  if (sizes.empty()) sizes = device_prewarm_sizes(options_.max_prewarm_sizes);
  if (shader->is_runtime_variant()) {
    // Its pipelines depend on the total only: the 1-D sizes cover every shape.
    std::erase_if(sizes, [](const GroupSize& s) { return s.y != 1 || s.z != 1; });
  }
  prewarm_->add(std::move(shader), std::move(sizes), subgroup_size, delay);
}

void PipelineCache::note_stream_batch() {
  prewarm_->note_stream_batch();
}

void PipelineCache::cancel_prewarm() {
  prewarm_->cancel();
}

bool PipelineCache::compile_in_background(std::shared_ptr<const Shader> shader, GroupSize size,
                                          uint32_t subgroup_size) {
  if (!shader || !prewarm_->has_workers()) return false;
  return prewarm_->add_first(PipelinePrewarm::Task{std::move(shader), size, subgroup_size});
}

void PipelineCache::cancel_prewarm(const Shader& shader, bool wait_running) {
  prewarm_->cancel(shader, wait_running);
}

size_t PipelineCache::erase(const Shader& shader) {
  cancel_prewarm(shader);
  std::vector<std::shared_ptr<CachedPipeline>> removed;  // released outside the shard locks
  for (Shard& shard : shards_) {
    std::unique_lock lock(shard.mutex);
    for (auto it = shard.map.begin(); it != shard.map.end();) {
      const PipelineKey& k = it->first;
      if (k.spirv == shader.spirv_hash() && k.entry_point == shader.entry_point_hash() &&
          k.layout == shader.layout_identity() &&
          it->second->state_.load(std::memory_order_acquire) == CachedPipeline::Ready) {
        entries_.fetch_sub(1, std::memory_order_acq_rel);
        bytes_.fetch_sub(it->second->bytes_, std::memory_order_acq_rel);
        removed.push_back(std::move(it->second));
        it = shard.map.erase(it);
      } else {
        ++it;
      }
    }
  }
  if (!removed.empty()) generation_.fetch_add(1, std::memory_order_acq_rel);  // front caches drop theirs
  return removed.size();
}

void PipelineCache::wait_prewarm_idle() {
  prewarm_->wait_idle();
}

void PipelineCache::maybe_save_periodically() {
  // The save itself runs on a worker (PipelinePrewarm); a foreground miss never writes files.
  if (has_unsaved_pipelines()) prewarm_->wake_for_save();
}

void PipelineCache::compile_for_prewarm(const PipelineRequest& request) {
  const PipelineKey key = PipelineKey::make(request);
  Shard& shard = shards_[key.hash % kShards];
  std::shared_ptr<CachedPipeline> entry;
  {
    std::unique_lock shard_lock(shard.mutex);
    if (shard.map.find(key) == shard.map.end() && !device_->lost()) {
      entry = new_entry(key);
      entry->from_prewarm_ = true;
      shard.map.emplace(key, entry);
    }
  }
  if (!entry) return;
  if (compile(*entry, request)) {
    evict_if_needed(entry.get());
  } else {
    remove_failed(entry);
  }
}

// ---- persistence ----

Status PipelineCache::save() {
  if (disk_path_.empty()) return {};
  if (Status ok = device_->alive(); !ok) return ok;
  std::lock_guard lock(disk_mutex_);
  dirty_.store(false, std::memory_order_relaxed);
  size_t size = 0;
  const auto& vk = device_->vk();
  if (Status ok = device_->call("vkGetPipelineCacheData", vk.vkGetPipelineCacheData, device_->handle(), vk_cache_,
                                &size, static_cast<void*>(nullptr));
      !ok) {
    return ok;
  }
  if (size > options_.max_file_bytes) {
    return fail("VkPipelineCache data (" + std::to_string(size) + " bytes) exceeds the cap of " +
                std::to_string(options_.max_file_bytes) + " bytes; not saved");
  }
  std::vector<uint8_t> data(size);
  if (Status ok = device_->call("vkGetPipelineCacheData", vk.vkGetPipelineCacheData, device_->handle(), vk_cache_,
                                &size, static_cast<void*>(data.data()));
      !ok) {
    return ok;
  }
  data.resize(size);
  if (Status ok = write_cache_file(disk_path_, CacheIdentity::of(device_->info()), data); !ok) return ok;
  disk_saved_bytes_ = data.size();
  return {};
}

PipelineCacheStats PipelineCache::stats() const {
  PipelineCacheStats s;
  for (const Counter& c : hit_stripes_) s.hits += c.value.load(std::memory_order_relaxed);
  s.misses = misses_.load(std::memory_order_relaxed);
  s.compiles = compiles_.load(std::memory_order_relaxed);
  s.prewarm_compiles = prewarm_compiles_.load(std::memory_order_relaxed);
  s.prewarm_joins = prewarm_joins_.load(std::memory_order_relaxed);
  s.single_flight_waits = single_flight_waits_.load(std::memory_order_relaxed);
  s.compile_failures = compile_failures_.load(std::memory_order_relaxed);
  s.evictions = evictions_.load(std::memory_order_relaxed);
  s.disk_cache_hits = disk_cache_hits_.load(std::memory_order_relaxed);
  s.compile_ns_total = compile_ns_total_.load(std::memory_order_relaxed);
  for (size_t i = 0; i < s.compile_histogram.size(); ++i) s.compile_histogram[i] = histogram_[i].load();
  s.entries = entries_.load(std::memory_order_relaxed);
  s.bytes = bytes_.load(std::memory_order_relaxed);
  std::lock_guard lock(disk_mutex_);
  s.disk_loaded_bytes = disk_loaded_bytes_;
  s.disk_saved_bytes = disk_saved_bytes_;
  s.disk_path = disk_path_;
  s.disk_status = disk_status_;
  return s;
}

}  // namespace bismuth::backend
