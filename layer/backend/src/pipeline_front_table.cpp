#include "bismuth/backend/pipeline_front_table.hpp"

#include <algorithm>

namespace bismuth::backend {

namespace {

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

}  // namespace

void PipelineFrontTable::reset(uint64_t generation) {
  for (Entry& e : entries_) e = Entry{};
  generation_ = generation;
  last_ = nullptr;
}

Expected<PipelineFrontTable::Entry*> PipelineFrontTable::lookup(const PipelineRequest& request) {
  // What hit() checks first: an eviction since then (another thread's miss) drops the table here too.
  if (const uint64_t generation = cache_->generation(); generation != generation_) reset(generation);
  const size_t first = home(request.shader, request.size, request.subgroup_size);
  size_t probe = 0;
  while (probe < 4 && entries_[(first + probe) & (entries_.size() - 1)].shader != nullptr) ++probe;
  const size_t victim = probe < 4 ? first + probe : first + (replace_++ & 3);  // all four taken: one in turn
  Entry& e = entries_[victim & (entries_.size() - 1)];
  const Shader* variant = request.shader->runtime_variant();
  if (variant != nullptr && runtime_size_fits(device_->info(), request.size)) {
    if (Status ok = fill_runtime_entry(e, request, *variant); !ok) return ok.error();
  } else {
    auto pipeline = cache_->acquire(PipelineKey::make(request), request);
    if (!pipeline) return pipeline.error();
    e.pipeline = (*pipeline)->shared_from_this();
    e.run_shader = request.shader;
    e.provisional = false;
  }
  e.shader = request.shader;
  e.size = request.size;
  e.subgroup_size = request.subgroup_size;
  e.shader_ref = request.shader->shared_from_this();
  e.batch_seen = 0;
  last_ = e.provisional ? nullptr : &e;  // hit() checks a provisional entry's upgrade on every hit
  return &e;
}

// A runtime-group-size shader: the pipeline of L = x*y*z invocations when it is ready; else, for shaders whose
// surplus invocations may simply return (no barriers or subgroup operations), the smallest ready pipeline of
// more invocations while the exact one compiles in the background — the first dispatch at a never-seen size
// then costs a few lookups instead of a driver compile; else the exact one in the foreground (joining a
// prewarm compile of it).
//
// A stand-in variant (shared by the programs of one template: literals hoisted, or a fixed-size program) only stands
// in: what the entry waits for is the original module at the exact size, compiled in the background. When no pipeline
// of the variant is ready, the one compiled in the foreground is the smallest size of the prewarm set that holds the
// total, which later programs of the template at other sizes reuse.
Status PipelineFrontTable::fill_runtime_entry(Entry& e, const PipelineRequest& request, const Shader& variant) {
  const bool stand_in = variant.runtime_stand_in();
  if (stand_in) {
    if (PipelineRef ready = cache_->find(PipelineKey::make(request))) {
      e.pipeline = std::move(ready);
      e.run_shader = request.shader;
      e.provisional = false;
      return {};
    }
  }
  const uint32_t total = request.size.x * request.size.y * request.size.z;
  PipelineRequest exact{&variant, GroupSize{total, 1, 1}, request.subgroup_size, {}};
  PipelineRef pipeline = cache_->find(PipelineKey::make(exact));
  bool masked = false;
  uint32_t smallest_candidate = 0;  // of the prewarm set, above the total
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
      if (smallest_candidate == 0) smallest_candidate = uint32_t(candidate);
      const PipelineRequest larger{&variant, GroupSize{uint32_t(candidate), 1, 1}, request.subgroup_size, {}};
      if (PipelineRef ready = cache_->find(PipelineKey::make(larger))) {
        pipeline = std::move(ready);
        masked = true;
        break;
      }
      if (candidate == power) power <<= 1;
      if (candidate == multiple) multiple += subgroup;
    }
  }
  bool provisional = false;
  if (stand_in) {
    if (!pipeline) {
      // A total that is itself in the prewarm set is compiled as it is; any other, as the next size of the set.
      const uint32_t subgroup = std::max(1u, device_->info().subgroup_size);
      const bool in_set = (total & (total - 1)) == 0 || total % subgroup == 0;
      if (!in_set && smallest_candidate != 0) exact.size = GroupSize{smallest_candidate, 1, 1};
    }
    // Queued by upgrade_provisional once the entry proves to be reused: a program made, dispatched once and deleted
    // (test suites, generators) never pays for a compile of its own.
    provisional = cache_->has_workers();
  } else if (masked) {
    provisional = cache_->compile_in_background(variant.shared_from_this(), exact.size, request.subgroup_size);
    if (!provisional) pipeline.reset();
  }
  if (!pipeline) {
    auto acquired = cache_->acquire(PipelineKey::make(exact), exact);
    if (!acquired) return acquired.error();
    pipeline = (*acquired)->shared_from_this();
  }
  e.pipeline = std::move(pipeline);
  e.run_shader = &variant;
  e.provisional = provisional;
  e.stand_in_hits = 0;
  e.ready_seen = kNotLooked;
  return {};
}

// The exact pipeline of a provisional entry: the original module at the size behind a stand-in variant, else the
// variant's pipeline of the total.
PipelineFrontTable::Entry* PipelineFrontTable::upgrade_provisional(Entry& e) {
  // Read before looking: a compile that ends after this changes the count, so the next hit looks again.
  const uint64_t ready_count = cache_->ready_count();
  const bool look = ready_count != e.ready_seen;
  e.ready_seen = ready_count;
  if (e.run_shader->runtime_stand_in()) {
    const PipelineRequest original{e.shader, e.size, e.subgroup_size, {}};
    if (PipelineRef ready = look ? cache_->find(PipelineKey::make(original)) : nullptr) {
      e.pipeline = std::move(ready);
      e.run_shader = e.shader;
      e.provisional = false;
      e.batch_seen = 0;
    } else if (++e.stand_in_hits == kStandInHitsBeforeCompile &&
               !cache_->compile_in_background(e.shader_ref, e.size, e.subgroup_size)) {
      e.provisional = false;  // no worker took it: the stand-in stays
    }
    if (!e.provisional) last_ = &e;
    return &e;
  }
  if (!look) return &e;
  const PipelineRequest exact{e.run_shader, GroupSize{e.size.x * e.size.y * e.size.z, 1, 1}, e.subgroup_size, {}};
  if (PipelineRef ready = cache_->find(PipelineKey::make(exact))) {
    e.pipeline = std::move(ready);
    e.provisional = false;
    e.batch_seen = 0;
    last_ = &e;
  }
  return &e;
}

}  // namespace bismuth::backend
