// The workgroup size of a variable-size compute entry point becomes a run-time value read from push
// constants, so one pipeline compiled for L invocations serves every logical size (x,y,z) with x*y*z <= L.
//
// The input went through workgroup_size_to_spec_constants: its size is three OpSpecConstant with SpecIds. The
// output keeps those spec constants as the real (physical) size; the backend specializes them to (L,1,1) and pushes
// the logical (x,y,z) as three uint32 at `push_constant_offset`, with the same workgroup counts. Each workgroup then
// behaves like a workgroup of size (x,y,z) of the input; invocations with LocalInvocationIndex >= x*y*z return at
// once, before any side effect. docs/spirv_patch.md, "workgroup_size_to_runtime", has the rules and the limits.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "bismuth/common/expected.hpp"
#include "bismuth/spirv_patch/module.hpp"

namespace bismuth::spirv_patch {

struct RuntimeGroupSizeOptions {
  std::string entry_point = "main";
  // Byte offset in the push-constant block where the pass places the logical size (3 x uint32, 12 bytes).
  // Multiple of 16. Must be >= the size of any existing push-constant block (the caller knows it from reflection).
  uint32_t push_constant_offset = 0;
};

struct RuntimeGroupSizeReport {
  std::array<uint32_t, 3>
      spec_ids{};  // the SpecIds of the LocalSize spec constants (unchanged); the backend specializes them to (L,1,1)
  uint32_t push_constant_offset = 0;  // where the logical (x,y,z) go, as uint32 x3
  uint32_t push_constant_end = 0;     // offset + 12
  // The push-constant variable the entry point reads the size from (its struct grew by the uvec3 member, or is
  // new): where later edits add more members (literals_to_push_constants).
  uint32_t push_variable = 0;
  // True when the module synchronises or communicates across the workgroup/subgroup in ways that need every
  // invocation of the workgroup present (OpControlBarrier with Workgroup or Subgroup execution scope, any
  // GroupNonUniform*/SubgroupBallotKHR/SubgroupVoteKHR/Group* instruction, builtins SubgroupId/NumSubgroups/
  // SubgroupLocalInvocationId/SubgroupEqMask.. etc.): then the backend may only use L == x*y*z (exact).
  bool exact_only = false;
  std::string exact_only_reason;  // e.g. "word 123 (OpControlBarrier): workgroup barrier"
  uint32_t version_before = 0, version_after = 0;
};

// Rewrites `module` in place. On error the module may be partly rewritten: parse the words again to retry.
Expected<RuntimeGroupSizeReport> workgroup_size_to_runtime(Module& module, const RuntimeGroupSizeOptions& options);

struct RuntimeGroupSizePatch {
  std::vector<uint32_t> words;
  RuntimeGroupSizeReport report;
};
// Words in, words out: parse, rewrite, serialize.
Expected<RuntimeGroupSizePatch> workgroup_size_to_runtime(std::span<const uint32_t> words,
                                                          const RuntimeGroupSizeOptions& options);

}  // namespace bismuth::spirv_patch
