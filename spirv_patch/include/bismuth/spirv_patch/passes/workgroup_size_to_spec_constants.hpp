// The workgroup size of one compute entry point becomes three OpSpecConstant uints with known SpecIds, so
// one module serves every `glDispatchComputeGroupSizeARB` size through pipeline specialization.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "bismuth/common/expected.hpp"
#include "bismuth/spirv_patch/analysis/workgroup_size.hpp"
#include "bismuth/spirv_patch/module.hpp"

namespace bismuth::spirv_patch {

struct WorkgroupSizeOptions {
  std::string entry_point = "main";
  // WorkgroupSizeBuiltIn: valid on Vulkan 1.0+ for SPIR-V < 1.6. LocalSizeId: needs SPIR-V >= 1.2 (the pass raises
  // a lower version to 1.2) and maintenance4 on the device; the only form for SPIR-V 1.6.
  WorkgroupSizeForm output_form = WorkgroupSizeForm::WorkgroupSizeBuiltIn;
  // SpecIds to use for new spec constants, per dimension; taken when not already used in the module. Existing
  // specialization constants (GLSL local_size_x_id) keep their ids.
  std::array<std::optional<uint32_t>, 3> preferred_spec_ids{};
  // Refuse modules whose size is fixed (no spec constant in any dimension): their front end may have folded
  // gl_WorkGroupSize into literals the pass cannot find.
  bool reject_fixed_size = false;
};

struct WorkgroupSizeReport {
  std::array<uint32_t, 3> spec_ids{};
  std::array<uint32_t, 3> spec_constant_ids{};  // result ids of the three OpSpecConstant
  std::array<uint32_t, 3> original_size{};      // the size in force before the pass (spec constant defaults)
  WorkgroupSizeForm input_form = WorkgroupSizeForm::LocalSize;
  WorkgroupSizeForm output_form = WorkgroupSizeForm::WorkgroupSizeBuiltIn;
  // Per dimension: the input already had a specialization constant with a SpecId, which was reused.
  std::array<bool, 3> reused_spec_constant{};
  // No dimension was specializable before the pass. Front ends fold `gl_WorkGroupSize.x * 2u` into literals for
  // fixed sizes; such values keep the original size after the pass (docs/spirv_patch.md, "Limits").
  bool input_was_fixed = false;
  uint32_t version_before = 0;
  uint32_t version_after = 0;
};

// Rewrites `module` in place.
Expected<WorkgroupSizeReport> workgroup_size_to_spec_constants(Module& module, const WorkgroupSizeOptions& options);

struct WorkgroupSizePatch {
  std::vector<uint32_t> words;
  WorkgroupSizeReport report;
};
// Words in, words out: parse, rewrite, serialize.
Expected<WorkgroupSizePatch> workgroup_size_to_spec_constants(std::span<const uint32_t> words,
                                                              const WorkgroupSizeOptions& options);

}  // namespace bismuth::spirv_patch
