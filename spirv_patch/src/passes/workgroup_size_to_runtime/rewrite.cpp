#include "passes/workgroup_size_to_runtime/rewrite.hpp"

#include <vector>

#include "analysis/type_queries.hpp"
#include "passes/workgroup_size_to_runtime/editor.hpp"
#include "passes/workgroup_size_to_runtime/entry_wrapper.hpp"
#include "passes/workgroup_size_to_runtime/rematerialize.hpp"

namespace bismuth::spirv_patch {

namespace {

using spv::Op;

// The uvec3 member at `offset`: appended to the entry point's block, or in a new block.
Status add_push_constant(RuntimeGroupSizeEditor& edit, uint32_t offset) {
  Module& module = edit.module;
  const RuntimeGroupSizePlan& plan = edit.plan;
  if (plan.push_variable) {
    edit.hoist_before(edit.uvec3_type, *module.definition(edit.push_struct));
    const InstructionHandle struct_def = *module.definition(edit.push_struct);
    const auto w = module.words(struct_def);
    std::vector<uint32_t> operands(w.begin() + 1, w.end());
    operands.push_back(edit.uvec3_type);
    module.replace(struct_def, Op::OpTypeStruct, operands);
    edit.push_variable = *plan.push_variable;
    edit.push_member_index = plan.push_member;
  } else {
    auto struct_id = module.allocate_id();
    if (!struct_id) return struct_id.error();
    const uint32_t struct_operands[] = {*struct_id, edit.uvec3_type};
    module.append(Section::Global, Op::OpTypeStruct, struct_operands);
    module.add_decoration(*struct_id, spv::Decoration::Block);
    auto pointer = edit.pointer_to(u(spv::StorageClass::PushConstant), *struct_id);
    if (!pointer) return pointer.error();
    auto variable = module.allocate_id();
    if (!variable) return variable.error();
    const uint32_t var_operands[] = {*pointer, *variable, u(spv::StorageClass::PushConstant)};
    module.append(Section::Global, Op::OpVariable, var_operands);
    edit.add_name(*struct_id, "BismuthLogicalGroupSize");
    edit.push_struct = *struct_id;
    edit.push_variable = *variable;
    edit.push_member_index = 0;
  }
  const uint32_t member[] = {edit.push_struct, edit.push_member_index, u(spv::Decoration::Offset), offset};
  module.append(Section::Annotation, Op::OpMemberDecorate, member);
  auto member_pointer = edit.pointer_to(u(spv::StorageClass::PushConstant), edit.uvec3_type);
  if (!member_pointer) return member_pointer.error();
  edit.push_member_pointer = *member_pointer;
  // Once, here: Module::replace drops the constant index, which a lookup per function would rebuild every time.
  auto index = module.constant_u32(edit.push_member_index);
  if (!index) return index.error();
  edit.push_index_constant = *index;
  return {};
}

// The LocalInvocationId / GlobalInvocationId variables become Private ones (the wrapper stores to them), and the
// pointers derived from them Private pointers.
Status convert_variables(RuntimeGroupSizeEditor& edit) {
  Module& module = edit.module;
  const RuntimeGroupSizePlan& plan = edit.plan;
  const uint32_t private_class = u(spv::StorageClass::Private);
  for (uint32_t id : plan.converted) {
    const InstructionHandle def = *module.definition(id);
    const uint32_t pointee = pointer_type(module, module.words(def)[1])->second;
    auto pointer = edit.pointer_to(private_class, pointee);
    if (!pointer) return pointer.error();
    edit.hoist_before(*pointer, def);
    const uint32_t operands[] = {*pointer, id, private_class};
    module.replace(def, Op::OpVariable, operands);
  }
  for (InstructionHandle h : module.instructions(Section::Annotation)) {
    const auto w = module.words(h);
    if (module.opcode(h) == Op::OpDecorate && w.size() == 4 && w[2] == u(spv::Decoration::BuiltIn) &&
        plan.converted.contains(w[1])) {
      module.erase(h);
    }
  }
  for (InstructionHandle h : plan.derived) {
    std::vector<uint32_t> operands = edit.operands_of(h);
    const uint32_t pointee = pointer_type(module, operands[0])->second;
    auto pointer = edit.pointer_to(private_class, pointee);
    if (!pointer) return pointer.error();
    operands[0] = *pointer;
    module.replace(h, module.opcode(h), operands);
  }
  return {};
}

}  // namespace

Expected<uint32_t> rewrite_workgroup_size_to_runtime(Module& module, const RuntimeGroupSizePlan& plan,
                                                     const RuntimeGroupSizeOptions& options) {
  RuntimeGroupSizeEditor edit(module, plan);
  auto uint_type = module.type_int(32, false);
  if (!uint_type) return uint_type.error();
  edit.uint_type = *uint_type;
  auto v3 = module.type_vector(edit.uint_type, 3);
  if (!v3) return v3.error();
  edit.uvec3_type = *v3;
  auto bool_type = module.type_bool();
  if (!bool_type) return bool_type.error();
  edit.bool_type = *bool_type;
  if (!edit.local_index_var) {
    auto variable = edit.builtin_input(spv::BuiltIn::LocalInvocationIndex, edit.uint_type);
    if (!variable) return variable.error();
    edit.local_index_var = *variable;
  }
  if (!plan.global_id_vars.empty() && !edit.workgroup_id_var) {
    auto variable = edit.builtin_input(spv::BuiltIn::WorkgroupId, edit.uvec3_type);
    if (!variable) return variable.error();
    edit.workgroup_id_var = *variable;
  }
  if (Status ok = add_push_constant(edit, options.push_constant_offset); !ok) return ok.error();
  if (Status ok = convert_variables(edit); !ok) return ok.error();
  for (const Function& f : plan.functions) {
    if (!plan.functions_to_rematerialize.contains(f.id)) continue;
    if (Status ok = rematerialize_size(edit, f); !ok) return ok.error();
  }
  if (Status ok = add_entry_wrapper(edit); !ok) return ok.error();
  return edit.push_variable;
}

}  // namespace bismuth::spirv_patch
