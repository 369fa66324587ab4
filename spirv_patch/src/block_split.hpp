// Splitting a basic block in two so that a pass can put new blocks (a loop, say) in the middle of it, keeping SPIR-V
// 1.6 section 2.11's structured control flow: a header's merge instruction stays with its terminator, a loop header
// stays the target of its back edge, and OpPhi parents follow the edge that now leaves the block's last part.
#pragma once

#include <cstdint>

#include "bismuth/common/expected.hpp"
#include "bismuth/spirv_patch/module.hpp"

namespace bismuth::spirv_patch {

// Prepares to split the block that holds `at` (an instruction of a function body, not an OpPhi) before `at`.
// Returns a new label id, L2. The caller then inserts before `at`, in order: the instructions that belong to the
// first part, a terminator for it, any blocks of its own, and last `L2 = OpLabel`. `at`, what follows it, the
// block's merge instruction and its terminator end up in block L2.
//
// Done here: every OpPhi whose parent is the split block names the block that now holds its terminator instead
// (L2, or L3 below). A loop header keeps its OpLoopMerge (it must stay the target of the back edge): the merge
// instruction moves up to just after the OpPhis, followed by OpBranch to a new block, where the caller's
// instructions go. A loop whose continue target was the header itself gets a new continue target L3 after L2,
// holding only the terminator (L2 may be the merge block of a construct the caller adds, which must lie inside
// the loop construct, not in its continue construct). Fails, with the instruction named, when `at` is not inside a
// block, or when a loop header's conditional branch is neither a break nor a continue (it would need a selection
// merge that the split cannot place).
Expected<uint32_t> split_block_before(Module& module, InstructionHandle at);

// The checks of split_block_before alone, editing nothing: for passes that check everything before their first edit.
Status can_split_block_before(const Module& module, InstructionHandle at);

}  // namespace bismuth::spirv_patch
