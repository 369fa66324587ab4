// workgroup_size_to_runtime, first step of the plan: the spec constants that carry the size, every spec constant
// expression built from them, and the functions that read any of those values. Refuses the module where such a value
// must stay a constant (array lengths, other types, constant composites, initializers, decorations, execution modes
// other than LocalSizeId, operands that must name constant instructions).
#pragma once

#include "bismuth/common/expected.hpp"
#include "bismuth/spirv_patch/module.hpp"
#include "passes/workgroup_size_to_runtime/plan.hpp"

namespace bismuth::spirv_patch {

// Fills plan.spec_ids, roots, dependent, dependent_order and functions_to_rematerialize.
Status find_size_constant_uses(const Module& module, RuntimeGroupSizePlan& plan);

}  // namespace bismuth::spirv_patch
