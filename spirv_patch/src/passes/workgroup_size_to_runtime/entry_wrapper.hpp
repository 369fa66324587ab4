// workgroup_size_to_runtime: the new entry function. The physical workgroup is (L,1,1), so LocalInvocationIndex is
// the flat index i of the logical size (x,y,z) too; invocations with i >= x*y*z return at once, the others store
// their logical LocalInvocationId (i % x, (i / x) % y, i / (x*y)) and GlobalInvocationId (WorkgroupId * size + that)
// in the Private variables and call the old entry function.
#pragma once

#include "bismuth/common/expected.hpp"
#include "passes/workgroup_size_to_runtime/editor.hpp"

namespace bismuth::spirv_patch {

// Appends the wrapper function and makes the entry point run it: its interface (Input/Output variables before
// SPIR-V 1.4, every global the entry point uses from 1.4 on) and execution modes follow.
Status add_entry_wrapper(RuntimeGroupSizeEditor& edit);

}  // namespace bismuth::spirv_patch
