// The pipeline options of a linked GL program (GLSL or ARB_gl_spirv): what glLinkProgram and `bismuth compile` both
// hand spirv_patch::run_pipeline, so the driver gets the same words from either.
#pragma once

#include "bismuth/common/compile_target.hpp"
#include "bismuth/spirv_patch/pipeline.hpp"
#include "bismuth/translator/gl_program.hpp"

namespace bismuth::translator {

struct GlPipelineChoices {
  // Build the run-time group size variant of a variable-size program (backend "Runtime group size"). The GL shim
  // turns it off with BISMUTH_RUNTIME_GROUP_SIZE=0.
  bool runtime_group_size = true;
  // Its integer literals become push constants too (spirv_patch literals_to_push_constants), so programs that
  // differ only in literals share the variant's pipelines. The GL shim turns it off with BISMUTH_SHARED_VARIANTS=0.
  bool literals_to_push_constants = true;
  // Where the variant reads the logical size: after the program's own push constants, 16-byte aligned.
  uint32_t push_constant_bytes = 0;
  // The variant reads its size and literals from a uniform buffer at the binding after the program's own (spirv_patch
  // push_constants_to_uniform_block) where it has no push constants of its own: NVIDIA's driver charges every
  // dispatch of a shader that reads push constants. The GL shim turns it off with BISMUTH_VARIANT_PARAMETERS=push.
  bool uniform_parameters = true;
};

// The program's compact binding layout, ballot/vote lowering, GL arithmetic for `target`, validation for Vulkan 1.1,
// and for a variable or fixed group size the run-time variant (a fixed size through spec constants first).
spirv_patch::PipelineOptions gl_program_pipeline(const GlLinkedProgram& program, const CompileTarget& target,
                                                 const GlPipelineChoices& choices = {});

}  // namespace bismuth::translator
