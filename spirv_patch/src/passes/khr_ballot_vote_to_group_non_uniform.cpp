// lower_khr_subgroup_ops. Sources: SPV_KHR_shader_ballot (rev. 11), SPV_KHR_subgroup_vote, SPIR-V 1.6 section 3.42.24
// ("Non-Uniform Instructions"). The KHR instructions have no Scope operand; their scope is the subgroup, so each
// becomes the GroupNonUniform instruction with Execution = Subgroup (3). Result ids and types are kept, so no use
// needs rewriting.
#define SPV_ENABLE_UTILITY_CODE  // HasResultAndType
#include <spirv/unified1/spirv.hpp11>

#include "bismuth/spirv_patch/passes/khr_ballot_vote_to_group_non_uniform.hpp"

#include <algorithm>

#include "analysis/type_queries.hpp"

namespace bismuth::spirv_patch {

namespace {

constexpr uint32_t kVersion1_3 = 0x00010300;
constexpr uint32_t kVersion1_5 = 0x00010500;

bool is_khr_subgroup_op(spv::Op op) {
  switch (op) {
    case spv::Op::OpSubgroupBallotKHR:
    case spv::Op::OpSubgroupFirstInvocationKHR:
    case spv::Op::OpSubgroupReadInvocationKHR:
    case spv::Op::OpSubgroupAllKHR:
    case spv::Op::OpSubgroupAnyKHR:
    case spv::Op::OpSubgroupAllEqualKHR: return true;
    default: return false;
  }
}

bool is_constant_instruction(const Module& module, uint32_t id) {
  auto definition = module.definition(id);
  if (!definition) return false;
  const spv::Op op = module.opcode(*definition);
  return op == spv::Op::OpConstant || op == spv::Op::OpSpecConstant || op == spv::Op::OpConstantNull;
}

bool is_signed_int_type(const Module& module, uint32_t type) {
  auto definition = module.definition(type);
  if (!definition || module.opcode(*definition) != spv::Op::OpTypeInt) return false;
  const auto w = module.words(*definition);
  return w.size() == 4 && w[3] == 1;
}

// Core capabilities the rewritten instructions and the ballot built-ins need, beyond GroupNonUniform.
struct CapabilityNeeds {
  bool ballot = false;
  bool shuffle = false;
  bool vote = false;
};

// OpSubgroupReadInvocationKHR -> OpGroupNonUniformBroadcast when the index may be one, else OpGroupNonUniformShuffle.
Status lower_read_invocation(Module& module, InstructionHandle h, uint32_t scope, SubgroupLoweringReport& report,
                             CapabilityNeeds& needs) {
  const auto w = module.words(h);
  const uint32_t type = w[1];
  const uint32_t result = w[2];
  const uint32_t value = w[3];
  uint32_t index = w[4];
  // OpGroupNonUniformBroadcast needs a constant Id before SPIR-V 1.5 and a dynamically uniform one from 1.5
  // on; the KHR instruction already requires the index to be the same for all active invocations.
  const bool broadcast = is_constant_instruction(module, index) || report.version_before >= kVersion1_5;
  const uint32_t index_type = result_type(module, index);
  if (index_type == 0) return fail(module.describe(h) + ": Index %" + std::to_string(index) + " has no type");
  if (is_signed_int_type(module, index_type)) {
    // Both GroupNonUniform forms take an unsigned Id.
    auto uint_type = module.type_int(32, false);
    if (!uint_type) return uint_type.error();
    auto cast = module.allocate_id();
    if (!cast) return cast.error();
    const uint32_t cast_operands[] = {*uint_type, *cast, index};
    module.insert_before(h, spv::Op::OpBitcast, cast_operands);
    index = *cast;
  }
  const uint32_t operands[] = {type, result, scope, value, index};
  if (broadcast) {
    module.replace(h, spv::Op::OpGroupNonUniformBroadcast, operands);
    needs.ballot = true;
    ++report.broadcast;
  } else {
    module.replace(h, spv::Op::OpGroupNonUniformShuffle, operands);
    needs.shuffle = true;
    ++report.shuffle;
  }
  return {};
}

// One KHR instruction -> its GroupNonUniform form, same result id and type, Execution scope `scope`.
Status lower_instruction(Module& module, InstructionHandle h, uint32_t scope, SubgroupLoweringReport& report,
                         CapabilityNeeds& needs) {
  const spv::Op op = module.opcode(h);
  const auto w = module.words(h);
  const size_t expected_words = op == spv::Op::OpSubgroupReadInvocationKHR ? 5 : 4;
  if (w.size() != expected_words) {
    return fail(module.describe(h) + ": has " + std::to_string(w.size()) + " words, expected " +
                std::to_string(expected_words));
  }
  const uint32_t type = w[1];
  const uint32_t result = w[2];
  const uint32_t value = w[3];
  switch (op) {
    case spv::Op::OpSubgroupBallotKHR: {
      const uint32_t operands[] = {type, result, scope, value};
      module.replace(h, spv::Op::OpGroupNonUniformBallot, operands);
      needs.ballot = true;
      ++report.ballot;
      break;
    }
    case spv::Op::OpSubgroupFirstInvocationKHR: {
      const uint32_t operands[] = {type, result, scope, value};
      module.replace(h, spv::Op::OpGroupNonUniformBroadcastFirst, operands);
      needs.ballot = true;
      ++report.broadcast_first;
      break;
    }
    case spv::Op::OpSubgroupReadInvocationKHR: return lower_read_invocation(module, h, scope, report, needs);
    case spv::Op::OpSubgroupAllKHR:
    case spv::Op::OpSubgroupAnyKHR:
    case spv::Op::OpSubgroupAllEqualKHR: {
      const uint32_t operands[] = {type, result, scope, value};
      const spv::Op replacement = op == spv::Op::OpSubgroupAllKHR   ? spv::Op::OpGroupNonUniformAll
                                  : op == spv::Op::OpSubgroupAnyKHR ? spv::Op::OpGroupNonUniformAny
                                                                    : spv::Op::OpGroupNonUniformAllEqual;
      module.replace(h, replacement, operands);
      needs.vote = true;
      ++(op == spv::Op::OpSubgroupAllKHR ? report.all : op == spv::Op::OpSubgroupAnyKHR ? report.any
                                                                                        : report.all_equal);
      break;
    }
    default: break;
  }
  return {};
}

// Built-ins of SPV_KHR_shader_ballot keep their numbers in SPIR-V 1.3 but need the core capabilities:
// the masks GroupNonUniformBallot, SubgroupSize / SubgroupLocalInvocationId GroupNonUniform.
bool uses_ballot_masks(const Module& module) {
  bool masks = false;
  for (InstructionHandle h : module.instructions(Section::Annotation)) {
    const auto w = module.words(h);
    if (module.opcode(h) != spv::Op::OpDecorate || w.size() < 4 ||
        w[2] != static_cast<uint32_t>(spv::Decoration::BuiltIn)) {
      continue;
    }
    const auto builtin = static_cast<spv::BuiltIn>(w[3]);
    if (builtin == spv::BuiltIn::SubgroupEqMask || builtin == spv::BuiltIn::SubgroupGeMask ||
        builtin == spv::BuiltIn::SubgroupGtMask || builtin == spv::BuiltIn::SubgroupLeMask ||
        builtin == spv::BuiltIn::SubgroupLtMask) {
      masks = true;
    }
  }
  return masks;
}

// The core capabilities in, the KHR capabilities and extensions out (every KHR instruction is rewritten by now).
void replace_capabilities(Module& module, const CapabilityNeeds& needs, SubgroupLoweringReport& report) {
  auto add = [&](spv::Capability capability) {
    if (module.has_capability(capability)) return;
    module.add_capability(capability);
    report.capabilities_added.push_back(capability);
  };
  add(spv::Capability::GroupNonUniform);
  if (needs.ballot) add(spv::Capability::GroupNonUniformBallot);
  if (needs.shuffle) add(spv::Capability::GroupNonUniformShuffle);
  if (needs.vote) add(spv::Capability::GroupNonUniformVote);
  module.remove_capability(spv::Capability::SubgroupBallotKHR);
  module.remove_capability(spv::Capability::SubgroupVoteKHR);
  module.remove_extension("SPV_KHR_shader_ballot");
  module.remove_extension("SPV_KHR_subgroup_vote");
}

}  // namespace

Expected<SubgroupLoweringReport> lower_khr_subgroup_ops(Module& module, const SubgroupLoweringOptions&) {
  SubgroupLoweringReport report;
  report.version_before = module.version();
  report.version_after = module.version();

  const bool had_ballot = module.has_capability(spv::Capability::SubgroupBallotKHR) ||
                          module.has_extension("SPV_KHR_shader_ballot");
  const bool had_vote = module.has_capability(spv::Capability::SubgroupVoteKHR) ||
                        module.has_extension("SPV_KHR_subgroup_vote");
  std::vector<InstructionHandle> targets;
  for (InstructionHandle h : module.instructions()) {
    if (!is_khr_subgroup_op(module.opcode(h))) continue;
    if (module.section(h) != Section::Function) return fail(module.describe(h) + ": outside a function");
    targets.push_back(h);
  }
  if (!had_ballot && !had_vote && targets.empty()) return report;
  report.changed = true;

  CapabilityNeeds needs;
  uint32_t scope = 0;
  if (!targets.empty()) {
    auto subgroup_scope = module.constant_u32(static_cast<uint32_t>(spv::Scope::Subgroup));
    if (!subgroup_scope) return subgroup_scope.error();
    scope = *subgroup_scope;
  }
  for (InstructionHandle h : targets) {
    if (Status ok = lower_instruction(module, h, scope, report, needs); !ok) return ok.error();
  }
  if (had_ballot) {
    if (uses_ballot_masks(module)) needs.ballot = true;
    report.requires_subgroup_size_at_most_64 = true;
  }
  replace_capabilities(module, needs, report);
  // GroupNonUniform is SPIR-V 1.3. Never go higher: 1.4 changes the OpEntryPoint interface rules.
  if (module.version() < kVersion1_3) module.set_version(kVersion1_3);
  report.version_after = module.version();
  return report;
}

Expected<SubgroupLoweringPatch> lower_khr_subgroup_ops(std::span<const uint32_t> words,
                                                      const SubgroupLoweringOptions& options) {
  auto module = Module::parse(words);
  if (!module) return module.error();
  auto report = lower_khr_subgroup_ops(*module, options);
  if (!report) return report.error();
  return SubgroupLoweringPatch{module->serialize(), *report};
}

}  // namespace bismuth::spirv_patch
