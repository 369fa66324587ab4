// workgroup_size_to_runtime, plan step for push constants: the logical size goes into the entry point's push-constant
// block as a new uvec3 member, or into a new block when the entry point has none.
#pragma once

#include <cstdint>

#include "analysis/use_index.hpp"
#include "bismuth/common/expected.hpp"
#include "bismuth/spirv_patch/module.hpp"
#include "passes/workgroup_size_to_runtime/plan.hpp"

namespace bismuth::spirv_patch {

// Fills plan.push_variable, push_struct and push_member when the entry point uses a block. Refuses more than one
// block, a struct anything but its one variable uses (a new member would change that use), and an offset inside
// the block's explicit layout.
Status find_push_constant_block(const Module& module, const UseIndex& uses, uint32_t push_constant_offset,
                                RuntimeGroupSizePlan& plan);

}  // namespace bismuth::spirv_patch
