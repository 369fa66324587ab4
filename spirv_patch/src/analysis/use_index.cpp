#include "analysis/use_index.hpp"

#include <utility>

#include "analysis/id_operands.hpp"

namespace bismuth::spirv_patch {

namespace {

// Calls `use(id, user)` for every id operand of every live instruction, in module order: what UseIndex and
// use_counts are built from. Every id is below module.bound() (id_operands), which sizes their tables.
template <class Use>
void for_each_use(const Module& module, Use&& use) {
  IdOperands operands;  // one for every instruction: id_operands reuses its storage
  for (InstructionHandle h : module.instructions()) {
    id_operands(module, h, operands);
    const auto w = module.words(h);
    for (size_t i : operands.ids) use(w[i], h);
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
