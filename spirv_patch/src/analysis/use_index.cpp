#include "analysis/use_index.hpp"

#include <utility>

#include "analysis/id_operands.hpp"

namespace bismuth::spirv_patch {

namespace {

// Calls `use(id, user)` for every id operand of every live instruction, in module order: what UseIndex and
// use_counts are built from. Operands at or above the bound are skipped: no instruction can define them, and
// parse() checks only the grammar's id operands against the bound, not the ones id_operands adds from the opcode
// (OpExtInst's operands, OpSpecConstantOp's, OpSwitch's labels), so a corrupted module can name ids up to 2^32 - 1.
// Indexing those would size the tables by the operand (gigabytes for one flipped bit) or overflow `id + 1`.
template <class Use>
void for_each_use(const Module& module, Use&& use) {
  const uint32_t bound = module.bound();
  IdOperands operands;  // one for every instruction: id_operands reuses its storage
  for (InstructionHandle h : module.instructions()) {
    id_operands(module, h, operands);
    const auto w = module.words(h);
    for (size_t i : operands.ids) {
      if (w[i] < bound) use(w[i], h);
    }
  }
}

}  // namespace

UseIndex::UseIndex(const Module& module) {
  std::vector<std::pair<uint32_t, InstructionHandle>> uses;  // (id, user) in module order
  for_each_use(module, [&](uint32_t id, InstructionHandle user) { uses.emplace_back(id, user); });
  starts_.assign(size_t(module.bound()) + 1, 0);
  for (const auto& use : uses) ++starts_[use.first + 1];
  for (size_t id = 1; id < starts_.size(); ++id) starts_[id] += starts_[id - 1];
  users_.resize(uses.size());
  std::vector<uint32_t> next(starts_.begin(), starts_.end() - 1);  // stable: module order within each id
  for (const auto& [id, user] : uses) users_[next[id]++] = user;
}

std::vector<uint32_t> use_counts(const Module& module) {
  std::vector<uint32_t> counts(module.bound(), 0);
  for_each_use(module, [&](uint32_t id, InstructionHandle) { ++counts[id]; });
  return counts;
}

std::span<const InstructionHandle> UseIndex::users(uint32_t id) const {
  if (size_t(id) + 1 >= starts_.size()) return {};
  return std::span<const InstructionHandle>(users_).subspan(starts_[id], starts_[id + 1] - starts_[id]);
}

}  // namespace bismuth::spirv_patch
