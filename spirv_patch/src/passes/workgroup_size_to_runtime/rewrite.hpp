// workgroup_size_to_runtime's edits, in order: the uint, uvec3 and bool types; the LocalInvocationIndex and
// WorkgroupId built-ins the wrapper reads; the push-constant member; the id variables made Private; the size values
// computed in each function that reads them; the wrapper entry function. Only the id bound can make them fail.
#pragma once

#include "bismuth/common/expected.hpp"
#include "bismuth/spirv_patch/module.hpp"
#include "bismuth/spirv_patch/passes/workgroup_size_to_runtime.hpp"
#include "passes/workgroup_size_to_runtime/plan.hpp"

namespace bismuth::spirv_patch {

// `plan` comes from plan_workgroup_size_to_runtime(module, options), with no edit in between. Returns the push-constant
// variable that holds the size.
Expected<uint32_t> rewrite_workgroup_size_to_runtime(Module& module, const RuntimeGroupSizePlan& plan,
                                                     const RuntimeGroupSizeOptions& options);

}  // namespace bismuth::spirv_patch
