// The push-constant block of a runtime-group-size variant becomes a uniform block (docs/spirv_patch.md
// "push_constants_to_uniform_block"). Why: on NVIDIA's driver every vkCmdDispatch of a shader that reads push
// constants costs about 1.6x the CPU to record, whether or not anything was pushed since the previous dispatch, and a
// uniform buffer costs nothing extra (bench_vk_record BM_GpuTiny, docs/performance.md "What a stand-in dispatch
// costs NVIDIA"). A variant's size and literals change far less often than it is dispatched.
//
// Runs on the variant after workgroup_size_to_runtime and literals_to_push_constants, only when the block holds
// nothing but their members (it starts at offset 0: the program has no push constants of its own). The variable
// keeps its id and its Block struct and becomes StorageClass Uniform with DescriptorSet `set` and Binding `binding`;
// every pointer type of storage class PushConstant becomes Uniform (SPIR-V allows equal pointer types to be declared
// more than once). The members' offsets stay, so the bytes the backend writes are the bytes it would push. Vulkan's
// uniform-buffer layout rules (15.6.4, "Offset and Stride Assignment", extended alignment) hold for what the two
// passes make — 32-bit integer scalars at multiples of 4 and a 3-component vector at a multiple of 16 — and the pass
// refuses anything else, leaving the module unchanged.
#pragma once

#include <cstdint>

#include "bismuth/common/expected.hpp"
#include "bismuth/spirv_patch/module.hpp"

namespace bismuth::spirv_patch {

struct PushConstantsToUniformBlockOptions {
  uint32_t push_variable = 0;  // the variant's push-constant variable (RuntimeGroupSizeReport::push_variable)
  uint32_t set = 0;
  uint32_t binding = 0;
};

struct PushConstantsToUniformBlockReport {
  uint32_t binding = 0;
  uint32_t block_bytes = 0;  // the end of the block's last member: the uniform buffer's range
};

// Edits `module` in place only on success; on an error (a block the rules above refuse) it is unchanged.
Expected<PushConstantsToUniformBlockReport> push_constants_to_uniform_block(
    Module& module, const PushConstantsToUniformBlockOptions& options);

}  // namespace bismuth::spirv_patch
