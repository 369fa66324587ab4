#include "passes/workgroup_size_to_runtime/exact_size_requirement.hpp"

#include <optional>
#include <string>
#include <string_view>

#include "analysis/id_operands.hpp"
#include "grammar.hpp"

namespace bismuth::spirv_patch {

namespace {

using spv::Op;

constexpr uint32_t kScopeWorkgroup = 2;
constexpr uint32_t kScopeSubgroup = 3;

std::string_view subgroup_builtin_name(spv::BuiltIn builtin) {
  switch (builtin) {
    case spv::BuiltIn::NumSubgroups: return "NumSubgroups";
    case spv::BuiltIn::SubgroupId: return "SubgroupId";
    case spv::BuiltIn::SubgroupLocalInvocationId: return "SubgroupLocalInvocationId";
    case spv::BuiltIn::SubgroupEqMask: return "SubgroupEqMask";
    case spv::BuiltIn::SubgroupGeMask: return "SubgroupGeMask";
    case spv::BuiltIn::SubgroupGtMask: return "SubgroupGtMask";
    case spv::BuiltIn::SubgroupLeMask: return "SubgroupLeMask";
    case spv::BuiltIn::SubgroupLtMask: return "SubgroupLtMask";
    default: return "?";
  }
}

// Why instruction `h` needs every invocation of the physical workgroup or subgroup; empty when it does not.
std::string exact_reason(const Module& module, const RuntimeGroupSizePlan& plan, InstructionHandle h) {
  const Op op = module.opcode(h);
  const auto w = module.words(h);
  if (op == Op::OpControlBarrier && w.size() >= 2) {
    auto scope = module.definition(w[1]);
    std::optional<uint32_t> value;
    if (scope && module.opcode(*scope) == Op::OpConstant && module.words(*scope).size() == 4) {
      value = module.words(*scope)[3];
    }
    if (!value) return "barrier with a non-constant execution scope";
    if (*value == kScopeWorkgroup) return "workgroup barrier";
    if (*value == kScopeSubgroup) return "subgroup barrier";
    return {};
  }
  const grammar::InstructionInfo* info = grammar::find_instruction(u(op));
  const std::string_view name = info ? info->name : "";
  if (name.starts_with("OpGroup") || name.starts_with("OpSubgroup")) {
    return "subgroup or workgroup collective operation";
  }
  if (name.starts_with("OpCooperativeMatrix")) return "cooperative matrix operation (subgroup scope)";
  for (size_t i : id_operands(module, h).ids) {
    auto it = plan.subgroup_builtin_vars.find(w[i]);
    if (it == plan.subgroup_builtin_vars.end()) continue;
    return "reads the subgroup built-in " + std::string(subgroup_builtin_name(it->second)) +
           ", whose value depends on the physical workgroup";
  }
  return {};
}

}  // namespace

void find_exact_size_requirement(const Module& module, RuntimeGroupSizePlan& plan) {
  for (const Function& f : plan.functions) {
    if (!plan.reachable.contains(f.id)) continue;
    for (InstructionHandle h : f.body) {
      const std::string why = exact_reason(module, plan, h);
      if (!why.empty()) {
        plan.exact_only = true;
        plan.exact_only_reason = module.describe(h) + ": " + why;
        return;
      }
    }
  }
}

}  // namespace bismuth::spirv_patch
