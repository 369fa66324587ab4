// How GL runs an assembled compute program (NV_gpu_program5 through glProgramStringARB): the assembler options a
// device allows, the compact descriptor layout of the program's buffers, and the pipeline options that write that
// layout into the SPIR-V. The GL shim's program load and `bismuth compile` share them, so both give the driver the
// same words.
#pragma once

#include <cstdint>
#include <vector>

#include "bismuth/common/compile_target.hpp"
#include "bismuth/nvasm/assembler.hpp"
#include "bismuth/spirv_patch/pipeline.hpp"

namespace bismuth::nvasm {

// The assembler's bindings before compaction: program.storage[k] at 100 + k, program.buffer[a] at 2000 + a.
inline constexpr uint32_t kMaxStorageIndex = 1023;  // the assembler's program.storage index bound
inline constexpr uint32_t kGlStorageBindingBase = 100;
inline constexpr uint32_t kGlParameterBindingBase = 2000;

AssembleOptions gl_assemble_options(const CompileTarget& target);

// Set 0 of the program: storage buffers in increasing program.storage index, then uniform buffers: program.buffer
// in increasing index, then program.local, then program.env (each only when the program uses it).
struct GlProgramLayout {
  std::vector<uint32_t> storage;    // binding i: program.storage[storage[i]]
  std::vector<uint32_t> parameter;  // binding storage.size() + i: program.buffer[parameter[i]]
  int local_binding = -1;           // -1: no program.local buffer
  int env_binding = -1;             // -1: no program.env buffer
  uint32_t storage_buffer_count() const { return static_cast<uint32_t>(storage.size()); }
  uint32_t uniform_buffer_count() const {
    return static_cast<uint32_t>(parameter.size()) + (local_binding >= 0 ? 1u : 0u) + (env_binding >= 0 ? 1u : 0u);
  }
};
GlProgramLayout gl_program_layout(const ProgramInfo& info);

struct GlProgramPipelineChoices {
  bool runtime_group_size = true;          // build the run-time group size variant of a variable-size program
  bool literals_to_push_constants = true;  // with the variant's integer literals as push constants (shared pipelines)
};
// The layout's bindings written into the assembled module, and for a variable group size the run-time variant.
spirv_patch::PipelineOptions gl_program_pipeline(const ProgramInfo& info, const GlProgramLayout& layout,
                                                 const GlProgramPipelineChoices& choices = {});

}  // namespace bismuth::nvasm
