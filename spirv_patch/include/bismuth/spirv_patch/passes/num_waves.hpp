// numWaves (HLSL proposal 0054, GL_BISMUTH_num_waves, VK_BISMUTH_num_waves): a compute entry point whose workgroup
// is X waves gets the size (X * wave_size, 1, 1) once the consumer has committed to one wave size.
//
// The fronts declare the size with spec constants at SpecIds 0x7B00..0x7B02 (docs/spirv_patch.md, "num_waves"), but
// the pass accepts every form SPIR-V has (LocalSize, LocalSizeId, a WorkgroupSize built-in composite, spec constants
// at any SpecId). The size becomes literal constants, not new spec-constant defaults: the pipeline is created with
// a required subgroup size and full subgroups, which hold only if the group is a multiple of the wave size, so an
// application's VkSpecializationInfo must not be able to change it afterwards (an entry for a SpecId the module no
// longer declares has no effect, Vulkan 1.3 section 10.9).
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "bismuth/common/expected.hpp"
#include "bismuth/spirv_patch/module.hpp"
// bind_marker_builtins, which specialize_num_waves runs and the HLSL front calls on its own (declared there).
#include "bismuth/spirv_patch/passes/bind_marker_builtins.hpp"

namespace bismuth::spirv_patch {

struct NumWavesOptions {
  std::string entry_point = "main";
  uint32_t num_waves = 0;  // X > 0
  uint32_t wave_size = 0;  // the committed wave size, > 0
};

struct NumWavesReport {
  std::array<uint32_t, 3> group_size{};  // (X * wave_size, 1, 1)
  // Some dimension of the input was a spec constant. When false the input had a fixed size, which its front end may
  // have folded into other literals (gl_WorkGroupSize.x * 2u): such values keep the old size.
  bool had_spec_constant_size = false;
  uint32_t markers_bound = 0;  // bind_marker_builtins' count
};

// Gives the entry point the workgroup size (X * wave_size, 1, 1) whatever form the module declares it in: every
// spec constant of the size becomes an OpConstant with the new value (its SpecId dropped, its uses kept), literal
// sizes are rewritten, and LocalSizeId becomes LocalSize (no maintenance4 needed). Then binds the marker variables
// (bind_marker_builtins). Fails, leaving `module` in an unspecified state, when the entry point is missing, the size
// cannot be read, X * wave_size overflows, or a marker is misused.
Expected<NumWavesReport> specialize_num_waves(Module& module, const NumWavesOptions& options);

}  // namespace bismuth::spirv_patch
