// Variable-group-size programs (GL_ARB_compute_variable_group_size, NV_compute_program5's variable form): the
// runtime-group-size variant of their module and background compiles of likely sizes at link time.
//
// The variant (spirv_patch::workgroup_size_to_runtime) makes a program's pipelines depend on the total invocation count
// only, so 8x8, 16x4 and 64x1 share one pipeline, and a never-seen size of a barrier-free program runs at once on a
// larger prewarmed pipeline while its own compiles in the background (docs/backend.md, "Runtime group size").
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <vector>

#include "bismuth/backend/pipeline_cache.hpp"
#include "bismuth/backend/shader.hpp"
#include "bismuth/spirv_patch/pipeline.hpp"

namespace bismuth::gl {

// Whether the pipeline builds the variant: BISMUTH_RUNTIME_GROUP_SIZE=0 turns it off (comparisons, debugging).
bool runtime_group_size_enabled();
// Whether the variant's integer literals become push constants, so programs from one template share its
// pipelines: BISMUTH_SHARED_VARIANTS=0 turns it off (comparisons, debugging).
bool shared_variants_enabled();
// Whether the variant reads its size and literals from a uniform buffer instead of push constants (GlPipelineChoices::
// uniform_parameters): BISMUTH_VARIANT_PARAMETERS=push turns it off (comparisons on NVIDIA).
bool uniform_parameters_enabled();
// The process's memo of run-time group size variants (spirv_patch/variant_memo.hpp): a program from a template seen
// before takes the variant its first program made, the same words. Null with BISMUTH_VARIANT_MEMO=0 (comparisons).
spirv_patch::VariantMemo* variant_memo();
// The three settings above as an index 0..7 (what the program binary fingerprint depends on).
inline unsigned variant_settings() {
  return (runtime_group_size_enabled() ? 1u : 0u) | (shared_variants_enabled() ? 2u : 0u) |
         (uniform_parameters_enabled() ? 4u : 0u);
}

// Sets desc.runtime_group_size from the pipeline's variant (whose words must outlive Shader::create). Without one
// (the pass refused the module, or spirv-val refused the result) the program keeps per-size pipelines: never an
// error for the program.
void set_runtime_group_size(backend::ShaderDesc& desc, const spirv_patch::PipelineResult& piped);

// Drops a program's queued prewarm compiles when its executable goes (glDeleteProgram, relink). The cache outlives
// every executable (DeviceState outlives the share group's programs).
// Also drops the exact-size compiles a stream queued for the program's own module while a shared variant stood in
// (backend "Runtime group size").
class PrewarmTicket {
 public:
  PrewarmTicket(backend::PipelineCache& cache, std::vector<std::shared_ptr<const backend::Shader>> shaders)
      : cache_(&cache), shaders_(std::move(shaders)) {}
  ~PrewarmTicket() {
    for (const auto& shader : shaders_) cache_->cancel_prewarm(*shader, false);
  }
  PrewarmTicket(const PrewarmTicket&) = delete;
  PrewarmTicket& operator=(const PrewarmTicket&) = delete;

 private:
  backend::PipelineCache* cache_;
  std::vector<std::shared_ptr<const backend::Shader>> shaders_;
};

// How long after its link a program's prewarm may start: BISMUTH_PREWARM_DELAY_MS, else kDefaultPrewarmDelay. A
// program deleted before then (made, dispatched once, read back and deleted, as test suites and generators do,
// thousands in a row) never pays for the compiles of sizes it would not use; measured in docs/performance.md,
// "Real programs side by side". The first dispatches meanwhile take the path they took while a prewarm ran.
inline constexpr std::chrono::milliseconds kDefaultPrewarmDelay{50};
std::chrono::milliseconds prewarm_delay();

// Queues background compiles of likely sizes for a variable-size program (its runtime variant when it has one).
// BISMUTH_PREWARM=off|<n> (as for the layer); unset: the backend's default set on GPUs, none on CPU devices, whose
// cores run the shaders themselves. Null when the cache has no background workers.
// No prewarm (a fixed-size program with a stand-in variant runs at one size), only the ticket that drops the
// compile of its exact-size pipeline when the program goes first. Null without background workers.
std::unique_ptr<PrewarmTicket> stand_in_ticket(backend::PipelineCache& cache,
                                               const std::shared_ptr<backend::Shader>& shader);

std::unique_ptr<PrewarmTicket> prewarm_variable_size(backend::PipelineCache& cache,
                                                     const std::shared_ptr<backend::Shader>& shader,
                                                     uint32_t subgroup_size);

}  // namespace bismuth::gl
