// The instructions that state a compute entry point's workgroup size: what find_workgroup_size summarises and what
// workgroup_size_to_spec_constants rewrites.
#pragma once

#include <array>
#include <cstdint>
#include <optional>

#include "bismuth/common/expected.hpp"
#include "bismuth/spirv_patch/analysis/workgroup_size.hpp"
#include "bismuth/spirv_patch/module.hpp"

namespace bismuth::spirv_patch {

struct WorkgroupSizeDimension {
  uint32_t value = 0;
  uint32_t constant_id = 0;  // 0: a LocalSize literal
  bool is_spec_constant = false;
  std::optional<uint32_t> spec_id;
};

struct WorkgroupSizeSources {
  std::optional<InstructionHandle> builtin_composite;
  std::optional<InstructionHandle> builtin_decoration;
  std::optional<InstructionHandle> local_size;
  std::optional<InstructionHandle> local_size_id;
  WorkgroupSizeForm form = WorkgroupSizeForm::LocalSize;  // the form in force (the built-in wins)
  std::array<WorkgroupSizeDimension, 3> dimensions{};
};

// The sources of the size of the entry point whose function is `function_id`. Fails when the module states no
// size, a zero dimension, or a component that is not a 32-bit OpConstant / OpSpecConstant.
Expected<WorkgroupSizeSources> find_workgroup_size_sources(const Module& module, uint32_t function_id);

}  // namespace bismuth::spirv_patch
