// lower_khr_subgroup_ops: fails with a message or produces a module that parses and has no KHR instruction left.
#include <cstdio>
#include <cstdlib>

#include "bismuth/spirv_patch/passes/khr_ballot_vote_to_group_non_uniform.hpp"
#include "fuzz_target.hpp"

BISMUTH_FUZZ_TARGET(subgroup_lowering) {
  using namespace bismuth::spirv_patch;
  const auto words = bismuth::fuzz::words_of(data, size);
  auto patch = lower_khr_subgroup_ops(words);
  if (!patch) {
    if (patch.error().message.empty()) std::abort();
    return 0;
  }
  auto again = Module::parse(patch->words);
  if (!again) {
    std::fprintf(stderr, "pass output does not parse: %s\n", again.error().message.c_str());
    std::abort();
  }
  for (auto h : again->instructions()) {
    const auto op = again->opcode(h);
    if (op == spv::Op::OpSubgroupBallotKHR || op == spv::Op::OpSubgroupFirstInvocationKHR ||
        op == spv::Op::OpSubgroupReadInvocationKHR || op == spv::Op::OpSubgroupAllKHR ||
        op == spv::Op::OpSubgroupAnyKHR || op == spv::Op::OpSubgroupAllEqualKHR) {
      std::abort();
    }
  }
  return 0;
}
