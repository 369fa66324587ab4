#include "bismuth/spirv_patch/pipeline.hpp"

#include <utility>

#include "bismuth/spirv_patch/module.hpp"
#include "bismuth/spirv_patch/passes/compact_ids.hpp"
#include "bismuth/spirv_patch/validate.hpp"
#include "bismuth/spirv_patch/variant_memo.hpp"

namespace bismuth::spirv_patch {

namespace {

Error at(PipelineStage stage, const Error& error) {
  return Error{error.message, static_cast<int64_t>(stage)};
}

// Steps 7 and 8: the variant is an optimisation. A module the passes or spirv-val refuse is dropped with a note,
// never an error; literals that cannot be hoisted leave the variant as step 7 made it. Without a `target` the variant
// is trusted.
// What the variant depends on besides the module: the VariantMemo's key (the options steps 7-9 read and the target
// that accepted the variant).
std::string variant_options_key(const PipelineOptions& options, std::optional<TargetEnv> target) {
  std::string key = options.runtime_group_size->entry_point;
  key += '\0';
  const uint32_t numbers[] = {
      options.runtime_group_size->push_constant_offset,
      options.literals_to_push_constants ? 1u : 0u,
      options.literals_to_push_constants ? options.literals_to_push_constants->push_constant_limit : 0u,
      options.runtime_parameters_binding ? 1u : 0u,
      options.runtime_parameters_binding.value_or(0),
      target ? 1u + static_cast<uint32_t>(*target) : 0u,
  };
  key.append(reinterpret_cast<const char*>(numbers), sizeof numbers);
  return key;
}

void add_runtime_group_size(PipelineResult& result, const PipelineOptions& options, std::optional<TargetEnv> target,
                            const Module& main_module) {
  // A module seen before but for its literals: the variant made then, with this module's literals.
  std::string memo_key;
  if (options.variant_memo != nullptr) {
    memo_key = variant_options_key(options, target);
    if (auto known = options.variant_memo->find(result.words, memo_key)) {
      result.runtime_group_size = std::move(*known);
      return;
    }
  }
  // The words are run_pipeline's input, which it parsed, or its passes' output: no walk of the grammar again, and the
  // id operands main_module found for its instructions are kept (result.words is main_module's serialize()).
  auto module = Module::reparse(result.words, main_module);
  if (!module) {
    result.runtime_group_size_note = module.error().message;
    return;
  }
  auto report = workgroup_size_to_runtime(*module, *options.runtime_group_size);
  if (!report) {
    result.runtime_group_size_note = report.error().message;
    return;
  }
  RuntimeGroupSizeVariant variant{{}, *report, {}};
  if (options.literals_to_push_constants) {
    LiteralsToPushConstantsOptions literal_options = *options.literals_to_push_constants;
    literal_options.entry_point = options.runtime_group_size->entry_point;
    literal_options.push_constant_offset = report->push_constant_end;
    literal_options.push_variable = report->push_variable;
    literal_options.size_spec_ids = report->spec_ids;
    auto hoisted = literals_to_push_constants(*module, literal_options);
    if (!hoisted) {
      // The module may be partly edited: the variant without step 8.
      auto plain = workgroup_size_to_runtime(result.words, *options.runtime_group_size);
      if (!plain) {
        result.runtime_group_size_note = plain.error().message;
        return;
      }
      variant.report = plain->report;
      variant.words = std::move(plain->words);
      variant.literals.skipped_reason = hoisted.error().message;
    } else {
      variant.literals = std::move(*hoisted);
    }
  }
  // Step 9 on the module step 7 or 8 left (a block at offset 0 holds only their members).
  auto to_uniform_block = [&](Module& edited) {
    if (!options.runtime_parameters_binding || variant.report.push_constant_offset != 0) return;
    auto moved = push_constants_to_uniform_block(
        edited,
        {.push_variable = variant.report.push_variable, .set = 0, .binding = *options.runtime_parameters_binding});
    if (!moved) return;  // refused: the module is unchanged and keeps its push constants
    variant.parameters_binding = moved->binding;
    variant.parameters_bytes = moved->block_bytes;
  };
  if (!variant.words.empty()) {
    // Step 8 was skipped on a partly edited module: the plain variant's words, parsed again for step 9.
    if (options.runtime_parameters_binding && variant.report.push_constant_offset == 0) {
      if (auto plain = Module::reparse(variant.words); plain) {
        to_uniform_block(*plain);
        if (variant.parameters_binding) variant.words = plain->serialize();
      }
    }
  } else {
    to_uniform_block(*module);
  }
  if (variant.words.empty()) {
    // The ids of the removed constants: gone from the numbering too, so that the words match across programs
    // (compact_ids of the module gives the words compact_ids of its serialized words would, without a parse).
    variant.words = options.literals_to_push_constants ? compact_ids(*module) : module->serialize();
  }
  if (Status valid = target ? validate(variant.words, *target) : Status{}; !valid) {
    result.runtime_group_size_note = "the run-time group size variant is invalid: " + valid.error().message;
    return;
  }
  if (options.variant_memo != nullptr) options.variant_memo->remember(result.words, memo_key, variant);
  result.runtime_group_size = std::move(variant);
}

Status check_options(const PipelineOptions& options) {
  if (options.num_waves && (options.group_size_to_spec_constants || options.runtime_group_size)) {
    return at(PipelineStage::NumWaves,
              fail("numWaves fixes the workgroup size; it cannot be combined with a variable group size"));
  }
  return {};
}

Expected<PipelineResult> run_parsed(std::span<const uint32_t> words, const PipelineOptions& options, Module& module) {
  PipelineResult result;
  bool changed = false;  // some pass edited the module

  if (options.default_uniform_block) {
    auto block = default_uniforms_to_uniform_block(module, *options.default_uniform_block);
    if (!block) return at(PipelineStage::DefaultUniformBlock, block.error());
    changed |= !block->variables.empty();
  }
  if (options.atomic_counter_buffers) {
    auto counters = atomic_counters_to_storage_buffers(module, *options.atomic_counter_buffers);
    if (!counters) return at(PipelineStage::AtomicCounterBuffers, counters.error());
    changed |= !counters->empty();
  }
  if (options.bindings) {
    if (Status remapped = remap_descriptor_bindings(module, *options.bindings); !remapped) {
      return at(PipelineStage::RemapDescriptorBindings, remapped.error());
    }
    changed = true;
  }
  if (options.lower_float_compare_swap) {
    auto lowered = lower_float_compare_swap(module);
    if (!lowered) return at(PipelineStage::FloatCompareSwap, lowered.error());
    result.float_compare_swap = *lowered;
    changed |= lowered->changed;
  }
  if (options.shadow_samplers) {
    auto lowered = lower_shadow_samplers(module, *options.shadow_samplers);
    if (!lowered) return at(PipelineStage::ShadowSamplers, lowered.error());
    changed |= lowered->lowered != 0 || lowered->retyped != 0 || !lowered->spec_ids.empty();
    result.shadow_samplers = std::move(*lowered);
  }
  if (options.swizzle_lookups) {
    auto swizzled = swizzle_lookups(module, *options.swizzle_lookups);
    if (!swizzled) return at(PipelineStage::SwizzleLookups, swizzled.error());
    changed |= swizzled->swizzled != 0 || !swizzled->spec_ids.empty();
    result.swizzle_lookups = std::move(*swizzled);
  }
  if (options.lower_khr_subgroup_ops) {
    auto lowered = lower_khr_subgroup_ops(module);
    if (!lowered) return at(PipelineStage::LowerKhrSubgroupOps, lowered.error());
    result.subgroup_lowering = *lowered;
    changed |= lowered->changed;
  }
  if (options.gl_arithmetic) {
    auto arithmetic = match_gl_arithmetic(module, *options.gl_arithmetic);
    if (!arithmetic) return at(PipelineStage::GlArithmetic, arithmetic.error());
    result.gl_arithmetic = *arithmetic;
    changed |= arithmetic->fused != 0 || arithmetic->remainders != 0;
  }
  if (options.group_size_to_spec_constants) {
    auto group = workgroup_size_to_spec_constants(module, *options.group_size_to_spec_constants);
    if (!group) return at(PipelineStage::WorkgroupSizeToSpecConstants, group.error());
    result.group_size = *group;
    changed = true;
  }
  if (options.num_waves) {
    auto waves = specialize_num_waves(module, *options.num_waves);
    if (!waves) return at(PipelineStage::NumWaves, waves.error());
    result.num_waves = *waves;
    changed = true;
  }
  // An untouched module goes on word for word, whatever the editor would normalise.
  result.words = changed ? module.serialize() : std::vector<uint32_t>(words.begin(), words.end());
  if (options.validate) {
    if (Status valid = validate(result.words, *options.validate); !valid) {
      return at(PipelineStage::Validate, valid.error());
    }
  }
  if (options.runtime_group_size) {
    add_runtime_group_size(result, options,
                           options.validate_runtime_group_size
                               ? std::optional(options.validate.value_or(TargetEnv::Vulkan1_1))
                               : std::nullopt,
                           module);
  }
  return result;
}

}  // namespace

Expected<PipelineResult> run_pipeline(std::span<const uint32_t> words, const PipelineOptions& options) {
  if (Status ok = check_options(options); !ok) return ok.error();
  auto parsed = Module::parse(words);
  if (!parsed) return at(PipelineStage::Parse, parsed.error());
  return run_parsed(words, options, *parsed);
}

Expected<PipelineResult> run_pipeline(std::span<const uint32_t> words, const PipelineOptions& options,
                                      Module&& parsed) {
  if (Status ok = check_options(options); !ok) return ok.error();
  return run_parsed(words, options, parsed);
}

}  // namespace bismuth::spirv_patch
