#include "bismuth/translator/gl_program_pipeline.hpp"

namespace bismuth::translator {

spirv_patch::PipelineOptions gl_program_pipeline(const GlLinkedProgram& program, const CompileTarget& target,
                                                 const GlPipelineChoices& choices) {
  spirv_patch::PipelineOptions options;
  options.default_uniform_block = program.spirv_default_uniform_block;
  options.atomic_counter_buffers = program.spirv_atomic_counter_buffers;
  options.bindings = program.bindings;
  if (program.spirv_local_size_id) {
    options.group_size_to_spec_constants = spirv_patch::WorkgroupSizeOptions{.entry_point = program.entry_point};
  }
  options.gl_arithmetic = spirv_patch::GlArithmeticOptions{.fma_through_double = target.fma_through_double};
  options.validate = spirv_patch::TargetEnv::Vulkan1_1;
  if (program.group_size == GroupSize::Variable && choices.runtime_group_size) {
    spirv_patch::RuntimeGroupSizeOptions runtime;
    runtime.entry_point = program.entry_point;
    runtime.push_constant_offset = (choices.push_constant_bytes + 15u) / 16u * 16u;
    options.runtime_group_size = runtime;
  }
  return options;
}

}  // namespace bismuth::translator
