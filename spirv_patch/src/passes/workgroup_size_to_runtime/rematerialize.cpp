#include "passes/workgroup_size_to_runtime/rematerialize.hpp"

#include <algorithm>
#include <array>
#include <set>
#include <unordered_map>
#include <vector>

#include "analysis/id_operands.hpp"

namespace bismuth::spirv_patch {

namespace {

using spv::Op;

// The dependent ids the function uses, then everything they are built from.
std::set<uint32_t> needed_values(const Module& module, const RuntimeGroupSizePlan& plan, const Function& f) {
  std::set<uint32_t> needed;
  for (InstructionHandle h : f.body) {
    const auto w = module.words(h);
    for (size_t i : id_operands(module, h).ids) {
      if (plan.is_dependent(w[i])) needed.insert(w[i]);
    }
  }
  for (auto it = plan.dependent_order.rbegin(); it != plan.dependent_order.rend(); ++it) {
    const auto w = module.words(*it);
    if (!needed.contains(w[2])) continue;
    for (size_t i : id_operands(module, *it).ids) {
      if (plan.is_dependent(w[i])) needed.insert(w[i]);
    }
  }
  return needed;
}

// The values of one function: the code that computes them goes before its insert point, in the order called.
class FunctionSizeValues {
 public:
  FunctionSizeValues(RuntimeGroupSizeEditor& edit, const Function& f)
      : edit_(edit), module_(edit.module), plan_(edit.plan), f_(f), needed_(needed_values(module_, plan_, f)) {}

  Status load_size();
  Status compute_dependents();
  void replace_uses();

 private:
  void emit(Op op, std::vector<uint32_t> operands) { module_.insert_before(f_.insert_point, op, operands); }
  uint32_t mapped(uint32_t id) const {
    auto it = value_.find(id);
    return it == value_.end() ? id : it->second;
  }

  RuntimeGroupSizeEditor& edit_;
  Module& module_;
  const RuntimeGroupSizePlan& plan_;
  const Function& f_;
  const std::set<uint32_t> needed_;
  uint32_t size_ = 0;                             // the pushed uvec3
  std::array<uint32_t, 3> component_{};           // its components
  std::unordered_map<uint32_t, uint32_t> value_;  // dependent id -> id computed in this function
};

// The pushed vector, its components, and each size spec constant the function needs (bitcast to its own type).
Status FunctionSizeValues::load_size() {
  auto pointer = module_.allocate_id();
  auto size = module_.allocate_id();
  if (!pointer) return pointer.error();
  if (!size) return size.error();
  size_ = *size;
  emit(Op::OpAccessChain, {edit_.push_member_pointer, *pointer, edit_.push_variable, edit_.push_index_constant});
  emit(Op::OpLoad, {edit_.uvec3_type, *size, *pointer});
  for (int d = 0; d < 3; ++d) {
    auto id = module_.allocate_id();
    if (!id) return id.error();
    component_[d] = *id;
    emit(Op::OpCompositeExtract, {edit_.uint_type, *id, *size, u(d)});
  }
  for (const auto& [id, dimension] : plan_.roots) {
    if (!needed_.contains(id)) continue;
    const uint32_t type = module_.words(*module_.definition(id))[1];
    if (type == edit_.uint_type) {
      value_[id] = component_[dimension];
      continue;
    }
    auto cast = module_.allocate_id();
    if (!cast) return cast.error();
    emit(Op::OpBitcast, {type, *cast, component_[dimension]});
    value_[id] = *cast;
  }
  return {};
}

// Each needed spec constant expression, in module order (so operands come first), as an ordinary instruction.
Status FunctionSizeValues::compute_dependents() {
  for (InstructionHandle h : plan_.dependent_order) {
    // emit() may move the word store
    const std::vector<uint32_t> w(module_.words(h).begin(), module_.words(h).end());
    if (!needed_.contains(w[2])) continue;
    if (module_.opcode(h) == Op::OpSpecConstantComposite && w[1] == edit_.uvec3_type && w.size() == 6 &&
        mapped(w[3]) == component_[0] && mapped(w[4]) == component_[1] && mapped(w[5]) == component_[2]) {
      value_[w[2]] = size_;  // the WorkgroupSize composite itself: the pushed vector
      continue;
    }
    auto id = module_.allocate_id();
    if (!id) return id.error();
    if (module_.opcode(h) == Op::OpSpecConstantComposite) {
      std::vector<uint32_t> operands{w[1], *id};
      for (size_t i = 3; i < w.size(); ++i) operands.push_back(mapped(w[i]));
      emit(Op::OpCompositeConstruct, operands);
    } else {
      const IdOperands operands = id_operands(module_, h);
      std::vector<uint32_t> out{w[1], *id};
      for (size_t i = 4; i < w.size(); ++i) {
        const bool is_id = std::find(operands.ids.begin(), operands.ids.end(), i) != operands.ids.end();
        out.push_back(is_id ? mapped(w[i]) : w[i]);
      }
      emit(static_cast<Op>(w[3]), out);
    }
    value_[w[2]] = *id;
  }
  return {};
}

// Every use in the function reads the computed value.
void FunctionSizeValues::replace_uses() {
  // One set of buffers for the whole body: most instructions use no size-dependent value.
  std::vector<uint32_t> w;
  std::vector<uint32_t> out;
  IdOperands operands;
  for (InstructionHandle h : f_.body) {
    // emit() may move the word store
    w.assign(module_.words(h).begin(), module_.words(h).end());
    const Op op = module_.opcode(h);
    if (is_non_semantic(module_, h)) continue;
    id_operands(module_, h, operands);
    bool changed = false;
    out.assign(w.begin() + 1, w.end());
    for (size_t i : operands.ids) {
      if (!plan_.is_dependent(w[i])) continue;
      out[i - 1] = mapped(w[i]);
      changed = true;
    }
    if (!changed) continue;
    if (op == Op::OpVariable && w.size() == 5) {
      // A function variable's initializer must be a constant: store the value after it is computed instead.
      emit(Op::OpStore, {w[2], out[3]});
      out.pop_back();
    }
    module_.replace(h, op, out);
  }
}

}  // namespace

Status rematerialize_size(RuntimeGroupSizeEditor& edit, const Function& function) {
  FunctionSizeValues values(edit, function);
  if (Status ok = values.load_size(); !ok) return ok;
  if (Status ok = values.compute_dependents(); !ok) return ok;
  values.replace_uses();
  return {};
}

}  // namespace bismuth::spirv_patch
