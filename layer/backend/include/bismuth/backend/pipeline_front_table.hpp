// A CommandStream's front table: the pipeline lookup memo in front of the PipelineCache, so that a dispatch of a
// program it ran before takes no cache lookup at all.
//
// Keyed by (shader object, size, subgroup size) for requests without other specialization values: 64 slots, up to
// four probes from a home slot (a multiply-xor hash), and the entry of the previous hit checked first (a GL program
// dispatched in a loop: no hashing) unless it is provisional. An entry holds the shader and the pipeline, so neither
// address can be reused while it names them; the whole table is dropped whenever the cache evicts something
// (PipelineCache::generation). Part of CommandStream (one per stream, used by its thread only).
#pragma once

#include <array>
#include <cstdint>
#include <memory>

#include "bismuth/backend/device.hpp"
#include "bismuth/backend/pipeline_cache.hpp"
#include "bismuth/backend/shader.hpp"

namespace bismuth::backend {

class PipelineFrontTable {
 public:
  static constexpr uint64_t kNotLooked = ~uint64_t(0);  // Entry::ready_seen before the first look

  struct Entry {
    const Shader* shader = nullptr;
    GroupSize size;
    uint32_t subgroup_size = 0;
    std::shared_ptr<const Shader> shader_ref;
    PipelineRef pipeline;
    uint64_t batch_seen = 0;  // the stream's batch that already holds a reference to `pipeline`
    // The shader that runs: `shader` or its runtime variant (then the logical size is pushed per dispatch).
    const Shader* run_shader = nullptr;
    // A larger runtime-size pipeline, or a variant shared by the programs of a template, standing in while the
    // exact one compiles in the background: every hit looks for the exact one (upgrade_provisional).
    bool provisional = false;
    // Hits on a shared variant's entry so far: the exact pipeline is queued at kStandInHitsBeforeCompile.
    uint32_t stand_in_hits = 0;
    // PipelineCache::ready_count() when the exact pipeline was last looked for and not found: polling again costs a
    // key hash and a shard lookup (~250 instructions per dispatch on lavapipe), so it waits until some compile ended.
    uint64_t ready_seen = kNotLooked;
  };

  // Dispatches of a program on a shared variant before its own exact-size pipeline is queued in the background.
  static constexpr uint32_t kStandInHitsBeforeCompile = 8;

  PipelineFrontTable(const Device& device, PipelineCache& cache) : cache_(&cache), device_(&device) {}
  PipelineFrontTable(const PipelineFrontTable&) = delete;
  PipelineFrontTable& operator=(const PipelineFrontTable&) = delete;

  // The entry for (shader, size, subgroup size) or nullptr. Inlined into CommandStream::dispatch (the recording
  // benchmark's hot loop); the key comes as the caller's fields, which are read where they are (a copy of them
  // read back at another width than the caller wrote them stalls store forwarding).
  [[gnu::always_inline]] Entry* hit(const Shader* shader, const GroupSize& size, uint32_t subgroup_size) {
    const uint64_t generation = cache_->generation();
    if (generation != generation_) [[unlikely]] {
      reset(generation);
      return nullptr;
    }
    // The same program at the same size as the previous dispatch: no hashing (and never provisional).
    if (Entry* e = last_; e != nullptr && e->shader == shader && e->size == size && e->subgroup_size == subgroup_size) {
      return e;
    }
    // Up to four probes from the home slot. A slot with a shader always has its pipeline.
    const size_t first = home(shader, size, subgroup_size);
    for (size_t probe = 0; probe < 4; ++probe) {
      Entry& c = entries_[(first + probe) & (entries_.size() - 1)];
      if (c.shader == shader && c.size == size && c.subgroup_size == subgroup_size) {
        // The LRU stamp is refreshed once per batch (the stream does it when the batch first uses the pipeline).
        if (c.provisional) [[unlikely]]
          return upgrade_provisional(c);
        last_ = &c;
        return &c;
      }
    }
    return nullptr;
  }

  // The miss path after hit(): the cache lookup for `request` (no specialization values; compiling on a miss),
  // then the entry replaces one of the four probed slots.
  Expected<Entry*> lookup(const PipelineRequest& request);

 private:
  static size_t home(const Shader* shader, const GroupSize& size, uint32_t subgroup_size) {
    const uint64_t h =
        (reinterpret_cast<uintptr_t>(shader) >> 4) * 0x9E3779B97F4A7C15ull ^
        (uint64_t(size.x) | uint64_t(size.y) << 16 | uint64_t(size.z) << 32 | uint64_t(subgroup_size) << 48) *
            0xC2B2AE3D27D4EB4Full;
    return static_cast<size_t>(h >> 58);
  }
  // Out of line: the cache evicted something, so every reference the table holds may be stale.
  [[gnu::cold, gnu::noinline]] void reset(uint64_t generation);
  Status fill_runtime_entry(Entry& entry, const PipelineRequest& request, const Shader& variant);
  // Returns &entry, which becomes last_ once it is no longer provisional.
  Entry* upgrade_provisional(Entry& entry);

  // What every hit reads first, together; the slots after.
  PipelineCache* cache_;
  uint64_t generation_ = 0;
  // The entry the previous lookup returned, unless that one is provisional (each of its hits looks for the exact
  // pipeline: upgrade_provisional).
  Entry* last_ = nullptr;
  uint32_t replace_ = 0;
  const Device* device_;
  std::array<Entry, 64> entries_{};  // a power of two (slots are masked)
};

}  // namespace bismuth::backend
