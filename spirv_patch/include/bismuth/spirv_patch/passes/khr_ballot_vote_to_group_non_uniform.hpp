// SPV_KHR_shader_ballot and SPV_KHR_subgroup_vote instructions -> SPIR-V 1.3 OpGroupNonUniform*, which
// every Vulkan 1.1 device with the matching subgroup features accepts (VK_EXT_shader_subgroup_ballot / _vote are
// deprecated and absent on most drivers).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "bismuth/common/expected.hpp"
#include "bismuth/spirv_patch/module.hpp"

namespace bismuth::spirv_patch {

struct SubgroupLoweringReport {
  // How many instructions were rewritten, per replacement.
  uint32_t ballot = 0;           // OpSubgroupBallotKHR -> OpGroupNonUniformBallot
  uint32_t broadcast_first = 0;  // OpSubgroupFirstInvocationKHR -> OpGroupNonUniformBroadcastFirst
  uint32_t broadcast = 0;        // OpSubgroupReadInvocationKHR, constant index -> OpGroupNonUniformBroadcast
  uint32_t shuffle = 0;          // OpSubgroupReadInvocationKHR, dynamic index -> OpGroupNonUniformShuffle
  uint32_t all = 0;              // OpSubgroupAllKHR -> OpGroupNonUniformAll
  uint32_t any = 0;              // OpSubgroupAnyKHR -> OpGroupNonUniformAny
  uint32_t all_equal = 0;        // OpSubgroupAllEqualKHR -> OpGroupNonUniformAllEqual
  bool changed = false;          // the module used either extension
  // GL_ARB_shader_ballot exposes ballots and masks as 64-bit values: the shader is only correct when the subgroup
  // size is <= 64. The runtime pins the size with VK_EXT_subgroup_size_control or refuses the device.
  bool requires_subgroup_size_at_most_64 = false;
  uint32_t version_before = 0;
  uint32_t version_after = 0;
  std::vector<spv::Capability> capabilities_added;
};

// The lowering has no settings; the struct gives it the (Module&, options) -> Expected<Report> shape of every pass.
struct SubgroupLoweringOptions {};

// Rewrites `module` in place. A module without either extension is left untouched (changed == false).
Expected<SubgroupLoweringReport> lower_khr_subgroup_ops(Module& module, const SubgroupLoweringOptions& options = {});

struct SubgroupLoweringPatch {
  std::vector<uint32_t> words;
  SubgroupLoweringReport report;
};
// Words in, words out: parse, rewrite, serialize.
Expected<SubgroupLoweringPatch> lower_khr_subgroup_ops(std::span<const uint32_t> words,
                                                      const SubgroupLoweringOptions& options = {});

}  // namespace bismuth::spirv_patch
