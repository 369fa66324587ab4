#include "analysis/use_index.hpp"

#include "analysis/id_operands.hpp"

namespace bismuth::spirv_patch {

UseIndex::UseIndex(const Module& module) {
  for (InstructionHandle h : module.instructions()) {
    const IdOperands operands = id_operands(module, h);
    const auto w = module.words(h);
    for (size_t i : operands.ids) users_[w[i]].push_back(h);
  }
}

std::span<const InstructionHandle> UseIndex::users(uint32_t id) const {
  auto it = users_.find(id);
  if (it == users_.end()) return {};
  return it->second;
}

}  // namespace bismuth::spirv_patch
