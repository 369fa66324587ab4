// workgroup_size_to_runtime, plan steps for the compute built-ins. LocalInvocationId and GlobalInvocationId depend on
// the workgroup shape: their Input variables become Private ones the wrapper fills, so every use must be one the
// rewrite can retarget. LocalInvocationIndex and WorkgroupId are read by the wrapper; the subgroup built-ins decide
// exact_only (exact_size_requirement.hpp).
#pragma once

#include "analysis/use_index.hpp"
#include "bismuth/common/expected.hpp"
#include "bismuth/spirv_patch/module.hpp"
#include "passes/workgroup_size_to_runtime/plan.hpp"

namespace bismuth::spirv_patch {

// Fills plan.local_id_vars, global_id_vars, local_index_var, workgroup_id_var, subgroup_builtin_vars and converted.
Status find_invocation_builtins(const Module& module, RuntimeGroupSizePlan& plan);

// Follows every use of the converted variables through access chains and copies (filling plan.derived); refuses
// any other use, and any use by another entry point.
Status check_invocation_id_uses(const Module& module, const UseIndex& uses, RuntimeGroupSizePlan& plan);

}  // namespace bismuth::spirv_patch
