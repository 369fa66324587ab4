// workgroup_size_to_runtime: a function that read the size constants computes the same values from the pushed size.
#pragma once

#include "analysis/call_graph.hpp"
#include "bismuth/common/expected.hpp"
#include "passes/workgroup_size_to_runtime/editor.hpp"

namespace bismuth::spirv_patch {

// At the top of `function` (after its OpVariables): loads the pushed size and computes every size-dependent value
// the function uses (OpSpecConstantOp op -> the ordinary op, OpSpecConstantComposite -> OpCompositeConstruct); then
// every use in the function reads the computed value. A function variable's initializer becomes an OpStore.
Status rematerialize_size(RuntimeGroupSizeEditor& edit, const Function& function);

}  // namespace bismuth::spirv_patch
