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
// texture[n] at 3000 + n, image[n] at 4000 + n.
inline constexpr uint32_t kGlTextureBindingBase = 3000;
inline constexpr uint32_t kGlImageBindingBase = 4000;
// The scratch buffer of large TEMP arrays (AssembleOptions::scratch_binding) at 5000.
inline constexpr uint32_t kGlScratchBinding = 5000;
// program.counter[b] (COUNTER, NV_shader_atomic_counters) at 6000 + b.
inline constexpr uint32_t kGlCounterBindingBase = 6000;

// The descriptor type of a texture or image binding.
enum class GlDescriptorType : uint8_t {
  CombinedImageSampler,  // texture[n], every target but BUFFER
  UniformTexelBuffer,    // texture[n], BUFFER target
  StorageImage,          // image[n], every target but BUFFER
  StorageTexelBuffer,    // image[n], BUFFER target
};

struct GlUnitBinding {
  uint32_t unit = 0;  // the GL texture image unit (textures) or image unit (images)
  GlDescriptorType type = GlDescriptorType::CombinedImageSampler;
};

AssembleOptions gl_assemble_options(const CompileTarget& target);

// Set 0 of the program, in this order, each only when the program uses it:
//   storage buffers      program.storage in increasing index, then the TEMP array scratch buffer when the program
//                        has one (ProgramInfo::scratch_bytes_per_invocation > 0), then program.counter in
//                        increasing binding (the GL_ATOMIC_COUNTER_BUFFER binding points)
//   uniform buffers      program.buffer in increasing index, then program.local, then program.env, then
//                        program.subroutine
//   textures             texture[n] in increasing unit: combined image samplers (uniform texel buffers for BUFFER)
//   images               image[n] in increasing unit: storage images (storage texel buffers for BUFFER)
struct GlProgramLayout {
  std::vector<uint32_t> storage;    // binding i: program.storage[storage[i]]
  int scratch_binding = -1;         // storage.size() when the program has a scratch buffer, else -1
  std::vector<uint32_t> counter;    // binding counter_binding_base() + i: program.counter[counter[i]]
  std::vector<uint32_t> parameter;  // binding storage.size() + i: program.buffer[parameter[i]]
  int local_binding = -1;           // -1: no program.local buffer
  int env_binding = -1;             // -1: no program.env buffer
  int subroutine_binding = -1;      // -1: no program.subroutine buffer (SUBROUTINE declarations)
  // binding texture_binding_base() + i: texture[textures[i].unit]
  std::vector<GlUnitBinding> textures;
  // binding image_binding_base() + i: image[images[i].unit]
  std::vector<GlUnitBinding> images;
  uint32_t texture_binding_base() const { return storage_buffer_count() + uniform_buffer_count(); }
  uint32_t image_binding_base() const { return texture_binding_base() + static_cast<uint32_t>(textures.size()); }
  uint32_t counter_binding_base() const {
    return static_cast<uint32_t>(storage.size()) + (scratch_binding >= 0 ? 1u : 0u);
  }
  uint32_t storage_buffer_count() const { return counter_binding_base() + static_cast<uint32_t>(counter.size()); }
  uint32_t uniform_buffer_count() const {
    return static_cast<uint32_t>(parameter.size()) + (local_binding >= 0 ? 1u : 0u) + (env_binding >= 0 ? 1u : 0u) +
           (subroutine_binding >= 0 ? 1u : 0u);
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
