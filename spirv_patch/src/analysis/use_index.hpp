// Which instructions use each id (the id operands of analysis/id_operands.hpp; a result or result type is not a use).
// Module::definition gives the other direction.
#pragma once

#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

#include "bismuth/spirv_patch/module.hpp"

namespace bismuth::spirv_patch {

class UseIndex {
 public:
  // Indexes the module as it is now: later edits are not seen.
  explicit UseIndex(const Module& module);

  // The instructions that use `id`, in module order, once per operand that names it.
  std::span<const InstructionHandle> users(uint32_t id) const;

 private:
  std::unordered_map<uint32_t, std::vector<InstructionHandle>> users_;
};

}  // namespace bismuth::spirv_patch
