// The one place that orders spirv_patch's passes. Every producer of SPIR-V for a driver — the GL shim's
// glLinkProgram and assembly-program load, `bismuth compile`, the Vulkan layer — describes what it needs with
// PipelineOptions and calls run_pipeline; none of them calls passes in an order of its own, so the same options give
// the same words everywhere (tests/tools/cli_matches_gl_test.cpp holds `bismuth compile` to the GL shim's words).
//
// The order, and why:
//   0. default_uniforms_to_uniform_block, atomic_counters_to_storage_buffers
//                                    ARB_gl_spirv input only: GL storage classes Vulkan lacks become buffers at the
//                                    bindings the GL front chose; first, so every later pass sees a Vulkan module
//   1. remap_descriptor_bindings     the front's compact binding layout; first, so later passes see final bindings
//   1b. lower_float_compare_swap     GL_INTEL_shader_atomic_float_minmax's float atomicCompSwap markers -> uint
//                                    compare-exchange on a uint view (no-op without them); after the remap, so a
//                                    buffer's uint view copies its final DescriptorSet and Binding
//   1c. lower_shadow_samplers        the shadow samplers named (a GL dispatch on depth textures a device cannot
//                                    compare) do their depth comparison in the shader; after the remap, so the
//                                    names are final bindings. The GL shim runs it alone on a linked program's words
//                                    the first time a dispatch needs it (translator/gl/src/shadow_lowering.cpp)
//   1d. swizzle_lookups              the samplers named swizzle their lookups' results in the shader (a GL texture
//                                    swizzle with a border colour on a device without VK_EXT_border_color_swizzle);
//                                    the GL shim runs it with 1c
//   2. lower_khr_subgroup_ops        SPV_KHR_shader_ballot / subgroup_vote -> GroupNonUniform (no-op without them)
//   3. match_gl_arithmetic           GL's contraction and remainder rules, on the lowered module
//   4. workgroup_size_to_spec_constants   a fixed or literal size becomes specializable (layer, SPIR-V input)
//   5. specialize_num_waves          a numWaves entry point gets the literal size (X * wave size, 1, 1) and its marker
//                                    variables become built-ins; after the lowering so the module is final, before
//                                    validation so spirv-val sees the specialized module. It fixes the size, so it
//                                    excludes steps 4 and 7 (run_pipeline refuses the combination)
//   6. validate                      spirv-val for the target environment
//   7. workgroup_size_to_runtime     a second module (variant) reading the logical size from push constants,
//                                    derived from the validated result; dropped when spirv-val refuses it (where
//                                    validate_runtime_group_size asks; otherwise trusted: tests/spirv_patch holds the
//                                    pass to spirv-val)
//   8. literals_to_push_constants    on the variant only: its integer literals follow the logical size in the push
//                                    constants, so the variants of programs that differ only in literals are the
//                                    same words and share pipelines; the main module keeps them (the backend's
//                                    fully specialised pipeline)
//   9. push_constants_to_uniform_block   on the variant only, where asked (runtime_parameters_binding) and its
//                                    push-constant block holds nothing but steps 7 and 8's members: the block becomes
//                                    a uniform block at that binding of set 0 (NVIDIA's driver charges every dispatch
//                                    of a shader that reads push constants); otherwise the variant keeps them
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "bismuth/common/expected.hpp"
#include "bismuth/spirv_patch/passes/atomic_counters_to_storage_buffers.hpp"
#include "bismuth/spirv_patch/passes/default_uniforms_to_uniform_block.hpp"
#include "bismuth/spirv_patch/passes/float_compare_swap.hpp"
#include "bismuth/spirv_patch/passes/gl_arithmetic.hpp"
#include "bismuth/spirv_patch/passes/khr_ballot_vote_to_group_non_uniform.hpp"
#include "bismuth/spirv_patch/passes/literals_to_push_constants.hpp"
#include "bismuth/spirv_patch/passes/num_waves.hpp"
#include "bismuth/spirv_patch/passes/push_constants_to_uniform_block.hpp"
#include "bismuth/spirv_patch/passes/remap_descriptor_bindings.hpp"
#include "bismuth/spirv_patch/passes/shadow_samplers.hpp"
#include "bismuth/spirv_patch/passes/swizzle_lookups.hpp"
#include "bismuth/spirv_patch/passes/workgroup_size_to_runtime.hpp"
#include "bismuth/spirv_patch/passes/workgroup_size_to_spec_constants.hpp"
#include "bismuth/spirv_patch/target_env.hpp"

namespace bismuth::spirv_patch {

class VariantMemo;

struct PipelineOptions {
  std::optional<DefaultUniformBlockOptions> default_uniform_block;
  std::optional<AtomicCounterBufferOptions> atomic_counter_buffers;
  std::optional<DescriptorBindingRemap> bindings;
  bool lower_float_compare_swap = true;
  std::optional<ShadowSamplerOptions> shadow_samplers;
  std::optional<SwizzleLookupOptions> swizzle_lookups;
  bool lower_khr_subgroup_ops = true;
  std::optional<GlArithmeticOptions> gl_arithmetic;
  std::optional<WorkgroupSizeOptions> group_size_to_spec_constants;
  std::optional<NumWavesOptions> num_waves;
  // Validation of the main module; unset: not validated (the layer hands the application's module on as is).
  std::optional<TargetEnv> validate = TargetEnv::Vulkan1_1;
  std::optional<RuntimeGroupSizeOptions> runtime_group_size;
  // Step 8 (with step 7 only); its push_constant_offset is ignored: the literals go right after the logical size.
  std::optional<LiteralsToPushConstantsOptions> literals_to_push_constants;
  // Step 9 (with step 7 only): the binding (set 0) the variant's size and literals move to, one past the program's
  // own bindings; unset: they stay push constants.
  std::optional<uint32_t> runtime_parameters_binding;
  // spirv-val on the variant, for `validate`'s target (Vulkan 1.1 when unset); one it refuses is dropped. Off: the
  // variant is trusted (the GL shim's release path, where spirv-val would cost more than the rest of a link).
  bool validate_runtime_group_size = true;
  // Steps 7-9 reuse the variant of a module seen before but for the literals step 8 hoists (variant_memo.hpp); the
  // result is the same words. Unset: every run makes its variant.
  VariantMemo* variant_memo = nullptr;
};

// Where a run failed; the Error's code is the stage, so each caller words its message as its API requires.
enum class PipelineStage : int64_t {
  Parse = 1,
  RemapDescriptorBindings,
  LowerKhrSubgroupOps,
  GlArithmetic,
  WorkgroupSizeToSpecConstants,
  Validate,
  DefaultUniformBlock,
  AtomicCounterBuffers,
  NumWaves,
  FloatCompareSwap,
  ShadowSamplers,
  SwizzleLookups,
};
inline PipelineStage failed_stage(const Error& error) {
  return static_cast<PipelineStage>(error.code);
}

struct RuntimeGroupSizeVariant {
  std::vector<uint32_t> words;
  RuntimeGroupSizeReport report;
  // Step 8: where the hoisted literals are and their values (empty: none were hoisted; `literals.skipped_reason` says
  // why when some were found).
  LiteralsToPushConstantsReport literals;
  // Step 9: the variant reads the bytes the report's offsets describe from a uniform buffer at this binding of set 0
  // (`parameters_bytes` of them) instead of push constants.
  std::optional<uint32_t> parameters_binding;
  uint32_t parameters_bytes = 0;
};

struct PipelineResult {
  std::vector<uint32_t> words;  // the module for vkCreateShaderModule (the input words when no pass edited it)
  FloatCompareSwapReport float_compare_swap;
  std::optional<ShadowSamplerReport> shadow_samplers;
  std::optional<SwizzleLookupReport> swizzle_lookups;
  SubgroupLoweringReport subgroup_lowering;
  GlArithmeticReport gl_arithmetic;
  std::optional<WorkgroupSizeReport> group_size;
  std::optional<NumWavesReport> num_waves;
  std::optional<RuntimeGroupSizeVariant> runtime_group_size;
  // When runtime_group_size was asked for and is absent: why (the variant is an optimisation, not an error).
  std::string runtime_group_size_note;
};

Expected<PipelineResult> run_pipeline(std::span<const uint32_t> words, const PipelineOptions& options);
// The same for a caller that has parsed `words` already: `parsed` is Module::parse(words), or reparse(words, m) of a
// module m that parse() gave and whose serialize() is `words` (the GL link's module after its own checks). The
// pipeline edits it instead of parsing the words again; the result is the one above.
Expected<PipelineResult> run_pipeline(std::span<const uint32_t> words, const PipelineOptions& options,
                                      Module&& parsed);

}  // namespace bismuth::spirv_patch
