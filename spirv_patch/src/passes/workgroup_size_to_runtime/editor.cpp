#include "passes/workgroup_size_to_runtime/editor.hpp"

#include <algorithm>
#include <span>

#include "analysis/id_operands.hpp"

namespace bismuth::spirv_patch {

namespace {

using spv::Op;

// Bounds the recursion over the declarations a hoisted one uses.
constexpr int kMaxHoistDepth = 64;

}  // namespace

RuntimeGroupSizeEditor::RuntimeGroupSizeEditor(Module& edited, const RuntimeGroupSizePlan& eligible)
    : module(edited),
      plan(eligible),
      local_index_var(eligible.local_index_var),
      workgroup_id_var(eligible.workgroup_id_var),
      push_struct(eligible.push_struct) {}

Expected<uint32_t> RuntimeGroupSizeEditor::pointer_to(uint32_t storage_class, uint32_t pointee) {
  if (!pointers_indexed_) {
    for (InstructionHandle h : module.instructions(Section::Global)) {
      const auto w = module.words(h);
      if (module.opcode(h) == Op::OpTypePointer && w.size() == 4) pointers_.emplace(std::pair{w[2], w[3]}, w[1]);
    }
    pointers_indexed_ = true;
  }
  if (auto it = pointers_.find({storage_class, pointee}); it != pointers_.end()) return it->second;
  auto id = module.allocate_id();
  if (!id) return id;
  const uint32_t operands[] = {*id, storage_class, pointee};
  module.append(Section::Global, Op::OpTypePointer, operands);
  pointers_.emplace(std::pair{storage_class, pointee}, *id);
  return *id;
}

void RuntimeGroupSizeEditor::hoist_before(uint32_t id, InstructionHandle anchor, int depth) {
  if (depth > kMaxHoistDepth) return;
  auto def = module.definition(id);
  if (!def || module.section(*def) != Section::Global) return;
  const auto order = module.instructions(Section::Global);
  const auto def_at = std::find(order.begin(), order.end(), *def);
  const auto anchor_at = std::find(order.begin(), order.end(), anchor);
  if (def_at < anchor_at) return;
  for (size_t i : id_operands(module, *def).ids) hoist_before(module.words(*def)[i], anchor, depth + 1);
  const auto w = module.words(*def);
  const std::vector<uint32_t> operands(w.begin() + 1, w.end());
  const Op op = module.opcode(*def);
  module.erase(*def);
  module.insert_before(anchor, op, operands);
}

Expected<uint32_t> RuntimeGroupSizeEditor::builtin_input(spv::BuiltIn builtin, uint32_t type) {
  auto pointer = pointer_to(u(spv::StorageClass::Input), type);
  if (!pointer) return pointer;
  auto id = module.allocate_id();
  if (!id) return id;
  const uint32_t operands[] = {*pointer, *id, u(spv::StorageClass::Input)};
  module.append(Section::Global, Op::OpVariable, operands);
  const uint32_t literal = u(builtin);
  module.add_decoration(*id, spv::Decoration::BuiltIn, std::span(&literal, 1));
  return *id;
}

void RuntimeGroupSizeEditor::add_name(uint32_t id, std::string_view name) {
  std::vector<uint32_t> operands(1 + (name.size() + 4) / 4, 0);
  operands[0] = id;
  std::copy(name.begin(), name.end(), reinterpret_cast<char*>(operands.data() + 1));
  for (InstructionHandle h : module.instructions(Section::Debug)) {
    if (module.opcode(h) == Op::OpModuleProcessed) {
      module.insert_before(h, Op::OpName, operands);
      return;
    }
  }
  module.append(Section::Debug, Op::OpName, operands);
}

std::vector<uint32_t> RuntimeGroupSizeEditor::operands_of(InstructionHandle h) const {
  const auto w = module.words(h);
  return std::vector<uint32_t>(w.begin() + 1, w.end());
}

}  // namespace bismuth::spirv_patch
