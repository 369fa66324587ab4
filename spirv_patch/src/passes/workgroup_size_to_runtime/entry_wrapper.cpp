#include "passes/workgroup_size_to_runtime/entry_wrapper.hpp"

#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

#include "analysis/type_queries.hpp"

namespace bismuth::spirv_patch {

namespace {

using spv::Op;

constexpr uint32_t kVersion1_4 = 0x00010400;

// The wrapper's instructions, collected first and appended only when every id could be allocated.
class WrapperFunction {
 public:
  explicit WrapperFunction(RuntimeGroupSizeEditor& edit) : edit_(edit), module_(edit.module), plan_(edit.plan) {}

  // The id of the wrapper, now appended to the function section.
  Expected<uint32_t> build();

 private:
  // The next id. On exhaustion: 1, and the error is kept for build() to return before anything is appended.
  uint32_t id() {
    auto next = module_.allocate_id();
    if (!next) {
      error_ = next.error();
      return 1;
    }
    return *next;
  }
  void add(Op op, std::vector<uint32_t> operands) { code_.push_back({op, std::move(operands)}); }
  uint32_t type_of_variable(uint32_t variable) const {
    return pointer_type(module_, module_.words(*module_.definition(variable))[1])->second;
  }
  void store_invocation_ids(uint32_t flat, uint32_t size, uint32_t x, uint32_t y, uint32_t xy);
  void store(uint32_t variable, uint32_t value);

  RuntimeGroupSizeEditor& edit_;
  Module& module_;
  const RuntimeGroupSizePlan& plan_;
  std::vector<std::pair<Op, std::vector<uint32_t>>> code_;
  std::optional<Error> error_;
};

Expected<uint32_t> WrapperFunction::build() {
  const Function* main = find_function(plan_.functions, plan_.entry.function_id);
  auto wrapper = module_.allocate_id();
  auto label = module_.allocate_id();
  auto body_label = module_.allocate_id();
  auto merge_label = module_.allocate_id();
  if (!wrapper || !label || !body_label || !merge_label) return fail("the id bound cannot grow past the limit");
  const uint32_t uint_type = edit_.uint_type;

  add(Op::OpFunction, {main->result_type, *wrapper, 0, main->type});
  add(Op::OpLabel, {*label});
  // flat = LocalInvocationIndex (the physical size is (L,1,1), so this is the flat index of the logical size too)
  const uint32_t index_type = type_of_variable(*edit_.local_index_var);
  uint32_t flat = id();
  add(Op::OpLoad, {index_type, flat, *edit_.local_index_var});
  if (index_type != uint_type) {
    const uint32_t cast = id();
    add(Op::OpBitcast, {uint_type, cast, flat});
    flat = cast;
  }
  const uint32_t pointer = id(), size = id(), x = id(), y = id(), z = id(), xy = id(), total = id(), active = id();
  add(Op::OpAccessChain, {edit_.push_member_pointer, pointer, edit_.push_variable, edit_.push_index_constant});
  add(Op::OpLoad, {edit_.uvec3_type, size, pointer});
  add(Op::OpCompositeExtract, {uint_type, x, size, 0});
  add(Op::OpCompositeExtract, {uint_type, y, size, 1});
  add(Op::OpCompositeExtract, {uint_type, z, size, 2});
  add(Op::OpIMul, {uint_type, xy, x, y});
  add(Op::OpIMul, {uint_type, total, xy, z});
  add(Op::OpULessThan, {edit_.bool_type, active, flat, total});
  add(Op::OpSelectionMerge, {*merge_label, 0});
  add(Op::OpBranchConditional, {active, *body_label, *merge_label});
  add(Op::OpLabel, {*body_label});
  if (!plan_.converted.empty()) store_invocation_ids(flat, size, x, y, xy);
  const uint32_t call = id();
  add(Op::OpFunctionCall, {main->result_type, call, plan_.entry.function_id});
  add(Op::OpBranch, {*merge_label});
  add(Op::OpLabel, {*merge_label});
  add(Op::OpReturn, {});
  add(Op::OpFunctionEnd, {});
  if (error_) return *error_;
  for (auto& [op, operands] : code_) module_.append(Section::Function, op, operands);
  return *wrapper;
}

void WrapperFunction::store_invocation_ids(uint32_t flat, uint32_t size, uint32_t x, uint32_t y, uint32_t xy) {
  const uint32_t uint_type = edit_.uint_type;
  const uint32_t uvec3_type = edit_.uvec3_type;
  const uint32_t lx = id(), row = id(), ly = id(), lz = id(), lid = id();
  add(Op::OpUMod, {uint_type, lx, flat, x});
  add(Op::OpUDiv, {uint_type, row, flat, x});
  add(Op::OpUMod, {uint_type, ly, row, y});
  add(Op::OpUDiv, {uint_type, lz, flat, xy});
  add(Op::OpCompositeConstruct, {uvec3_type, lid, lx, ly, lz});
  for (uint32_t variable : plan_.local_id_vars) store(variable, lid);
  if (plan_.global_id_vars.empty()) return;
  const uint32_t group_type = type_of_variable(*edit_.workgroup_id_var);
  uint32_t group = id();
  add(Op::OpLoad, {group_type, group, *edit_.workgroup_id_var});
  if (group_type != uvec3_type) {
    const uint32_t cast = id();
    add(Op::OpBitcast, {uvec3_type, cast, group});
    group = cast;
  }
  const uint32_t base = id(), gid = id();
  add(Op::OpIMul, {uvec3_type, base, group, size});
  add(Op::OpIAdd, {uvec3_type, gid, base, lid});
  for (uint32_t variable : plan_.global_id_vars) store(variable, gid);
}

void WrapperFunction::store(uint32_t variable, uint32_t value) {
  const uint32_t type = type_of_variable(variable);
  if (type != edit_.uvec3_type) {
    const uint32_t cast = id();
    add(Op::OpBitcast, {type, cast, value});
    value = cast;
  }
  add(Op::OpStore, {variable, value});
}

// The entry point runs the wrapper; execution modes follow it.
Status retarget_entry_point(RuntimeGroupSizeEditor& edit, uint32_t wrapper) {
  Module& module = edit.module;
  const RuntimeGroupSizePlan& plan = edit.plan;
  const auto w = module.words(plan.entry.handle);
  const size_t name_words = plan.entry.name.size() / 4 + 1;
  if (w.size() < 3 + name_words) return fail(module.describe(plan.entry.handle) + ": malformed OpEntryPoint");
  std::vector<uint32_t> operands{w[1], wrapper};
  operands.insert(operands.end(), w.begin() + 3, w.begin() + 3 + name_words);
  std::vector<uint32_t> interface;
  const bool all_globals = module.version() >= kVersion1_4;
  auto add = [&](uint32_t variable) {
    if (std::find(interface.begin(), interface.end(), variable) == interface.end()) interface.push_back(variable);
  };
  for (size_t i = 3 + name_words; i < w.size(); ++i) {
    if (!all_globals && plan.converted.contains(w[i])) continue;  // Private now: only Input/Output before 1.4
    add(w[i]);
  }
  add(*edit.local_index_var);
  if (!plan.global_id_vars.empty()) add(*edit.workgroup_id_var);
  if (all_globals) {
    add(edit.push_variable);
    for (uint32_t variable : plan.converted) add(variable);
  }
  operands.insert(operands.end(), interface.begin(), interface.end());
  module.replace(plan.entry.handle, Op::OpEntryPoint, operands);
  for (InstructionHandle h : module.instructions(Section::ExecutionMode)) {
    const auto mode = module.words(h);
    if (mode.size() < 2 || mode[1] != plan.entry.function_id) continue;
    std::vector<uint32_t> retargeted(mode.begin() + 1, mode.end());
    retargeted[0] = wrapper;
    module.replace(h, module.opcode(h), retargeted);
  }
  return {};
}

}  // namespace

Status add_entry_wrapper(RuntimeGroupSizeEditor& edit) {
  auto wrapper = WrapperFunction(edit).build();
  if (!wrapper) return wrapper.error();
  if (Status ok = retarget_entry_point(edit, *wrapper); !ok) return ok;
  edit.add_name(*wrapper, "bismuth_runtime_group_size_main");
  return {};
}

}  // namespace bismuth::spirv_patch
