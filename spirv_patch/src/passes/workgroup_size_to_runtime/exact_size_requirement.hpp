// workgroup_size_to_runtime, last plan step: whether the backend may run a logical size T on a pipeline of more
// invocations (L > T), or only on L == T. Inactive invocations return at once, so anything that needs every
// invocation of the physical workgroup or subgroup (barriers, collectives, subgroup built-ins) asks for L == T.
#pragma once

#include "bismuth/spirv_patch/module.hpp"
#include "passes/workgroup_size_to_runtime/plan.hpp"

namespace bismuth::spirv_patch {

// Sets plan.exact_only and exact_only_reason from the first such instruction in a function the entry point reaches.
void find_exact_size_requirement(const Module& module, RuntimeGroupSizePlan& plan);

}  // namespace bismuth::spirv_patch
