#include "passes/workgroup_size_to_runtime/push_constant_block.hpp"

#include <optional>
#include <string>
#include <vector>

#include "analysis/id_operands.hpp"
#include "bismuth/spirv_patch/analysis/type_layout.hpp"
#include "analysis/type_queries.hpp"

namespace bismuth::spirv_patch {

namespace {

using spv::Op;

// The PushConstant variable the entry point uses (in its interface, or read by a function it reaches), if any.
Expected<std::optional<uint32_t>> find_used_variable(const Module& module, const UseIndex& uses,
                                                     const RuntimeGroupSizePlan& plan) {
  std::vector<uint32_t> candidates;
  for (InstructionHandle h : module.instructions(Section::Global)) {
    const auto w = module.words(h);
    if (module.opcode(h) != Op::OpVariable || w.size() < 4 || w[3] != u(spv::StorageClass::PushConstant)) continue;
    bool used = false;
    const auto entry = module.words(plan.entry.handle);
    // From SPIR-V 1.4 the interface lists every global the entry point uses.
    const size_t interface_begin = 3 + plan.entry.name.size() / 4 + 1;
    for (size_t i = interface_begin; i < entry.size(); ++i) used |= entry[i] == w[2];
    for (InstructionHandle user : uses.users(w[2])) {
      auto fn = plan.function_of.find(user);
      used |= fn != plan.function_of.end() && plan.reachable.contains(fn->second);
    }
    if (used) candidates.push_back(w[2]);
  }
  if (candidates.size() > 1) {
    return fail("entry point \"" + plan.entry.name + "\" uses more than one push constant block (" +
                id_name(candidates[0]) + ", " + id_name(candidates[1]) + ")");
  }
  if (candidates.empty()) return std::optional<uint32_t>{};
  return std::optional<uint32_t>{candidates[0]};
}

// Nothing but the variable (through its pointer type) may use the struct, or the pointer type.
Status check_struct_only_in_variable(const Module& module, const UseIndex& uses, uint32_t variable,
                                     uint32_t struct_id) {
  const InstructionHandle var_def = *module.definition(variable);
  const uint32_t pointer_id = module.words(var_def)[1];
  auto shared = [&](InstructionHandle h) -> Status {
    return fail(module.describe(h) + ": the push constant struct " + id_name(struct_id) +
                " is also used by something other than the push constant variable " + id_name(variable) +
                ", so a member cannot be appended to it");
  };
  const InstructionHandle pointer_def = *module.definition(pointer_id);
  for (InstructionHandle h : uses.users(struct_id)) {
    const Section section = module.section(h);
    if (h == pointer_def || section == Section::Debug || section == Section::Annotation || is_non_semantic(module, h)) {
      continue;
    }
    return shared(h);
  }
  // The pointer type may also be an OpFunctionParameter's or a function type's; neither may see a new member.
  for (InstructionHandle h : uses.users(pointer_id)) {
    if (module.section(h) == Section::Debug || module.section(h) == Section::Annotation) continue;
    if (module.opcode(h) == Op::OpTypeFunction) return shared(h);
  }
  IdOperands operands;  // one for every instruction: the walk reuses its storage
  for (InstructionHandle h : module.instructions()) {
    const auto w = module.words(h);
    if (h == var_def) continue;
    id_operands(module, h, operands);
    if (operands.result_type != 0 && (w[operands.result_type] == struct_id || w[operands.result_type] == pointer_id)) {
      return shared(h);
    }
  }
  return {};
}

}  // namespace

Status find_push_constant_block(const Module& module, const UseIndex& uses, uint32_t push_constant_offset,
                                RuntimeGroupSizePlan& plan) {
  auto found = find_used_variable(module, uses, plan);
  if (!found) return found.error();
  if (!*found) return {};
  const uint32_t variable = **found;
  const InstructionHandle var_def = *module.definition(variable);
  const auto pointer = pointer_type(module, module.words(var_def)[1]);
  auto struct_def = pointer ? module.definition(pointer->second) : std::nullopt;
  if (!struct_def || module.opcode(*struct_def) != Op::OpTypeStruct) {
    return fail(module.describe(var_def) + ": the push constant variable is not a pointer to a struct");
  }
  const uint32_t struct_id = pointer->second;
  bool block = false;
  for (InstructionHandle h : module.instructions(Section::Annotation)) {
    const auto a = module.words(h);
    if (module.opcode(h) == Op::OpDecorate && a.size() == 3 && a[1] == struct_id && a[2] == u(spv::Decoration::Block)) {
      block = true;
    }
  }
  if (!block) return fail(module.describe(*struct_def) + ": the push constant struct is not decorated Block");
  if (Status ok = check_struct_only_in_variable(module, uses, variable, struct_id); !ok) return ok;
  auto size = explicit_layout_size(module, struct_id, "push constant");
  if (!size) return size.error();
  if (*size > push_constant_offset) {
    return fail("push_constant_offset " + std::to_string(push_constant_offset) +
                " is inside the existing push constant block " + id_name(struct_id) + " (" + std::to_string(*size) +
                " bytes); use an offset >= its size, rounded up to 16");
  }
  plan.push_variable = variable;
  plan.push_struct = struct_id;
  plan.push_member = static_cast<uint32_t>(module.words(*struct_def).size() - 2);
  return {};
}

}  // namespace bismuth::spirv_patch
