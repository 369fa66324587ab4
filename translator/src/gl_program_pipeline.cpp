#include "bismuth/translator/gl_program_pipeline.hpp"

namespace bismuth::translator {

spirv_patch::PipelineOptions gl_program_pipeline(const GlLinkedProgram& program, const CompileTarget& target,
                                                 const GlPipelineChoices& choices) {
  spirv_patch::PipelineOptions options;
  options.default_uniform_block = program.spirv_default_uniform_block;
  options.atomic_counter_buffers = program.spirv_atomic_counter_buffers;
  options.bindings = program.bindings;
  // A fixed-size program gets the variant too, as a stand-in shared by programs that differ only in their size and
  // literals (backend "Runtime group size"): its size becomes specializable first.
  const bool fixed_variant = program.group_size == GroupSize::Fixed && choices.runtime_group_size;
  if (program.spirv_local_size_id || fixed_variant) {
    spirv_patch::WorkgroupSizeOptions size{.entry_point = program.entry_point};
    for (size_t d = 0; d < 3; ++d) size.preferred_spec_ids[d] = kVariableGroupSizeSpecIds[d];
    options.group_size_to_spec_constants = size;
  }
  options.gl_arithmetic = spirv_patch::GlArithmeticOptions{.fma_through_double = target.fma_through_double};
  options.validate = spirv_patch::TargetEnv::Vulkan1_1;
  if ((program.group_size == GroupSize::Variable || fixed_variant) && choices.runtime_group_size) {
    spirv_patch::RuntimeGroupSizeOptions runtime;
    runtime.entry_point = program.entry_point;
    runtime.push_constant_offset = (choices.push_constant_bytes + 15u) / 16u * 16u;
    options.runtime_group_size = runtime;
    // 128 bytes (the Vulkan minimum of maxPushConstantsSize): the same words on every device, as `bismuth compile`
    // gives them.
    if (choices.literals_to_push_constants) {
      options.literals_to_push_constants = spirv_patch::LiteralsToPushConstantsOptions{};
    }
    // One past the program's bindings, as the backend lays them out (one per resource, or per descriptor array).
    if (choices.uniform_parameters) {
      const size_t bindings =
          program.descriptor_counts.empty() ? program.resources.size() : program.descriptor_counts.size();
      options.runtime_parameters_binding = static_cast<uint32_t>(bindings);
    }
  }
  return options;
}

}  // namespace bismuth::translator
