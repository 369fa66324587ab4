// Which instructions use each id (the id operands of analysis/id_operands.hpp; a result or result type is not a use).
// Module::definition gives the other direction.
#pragma once

#include <cstdint>
#include <span>
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
  // Every use, grouped by id in module order (a counting sort of one walk): id's users are
  // users_[starts_[id] .. starts_[id + 1]). Two allocations for the whole module instead of a node and a vector per
  // used id.
  std::vector<uint32_t> starts_;
  std::vector<InstructionHandle> users_;
};

// How many id operands name each id, indexed by id (module.bound() entries): users(id).size() of a UseIndex of the
// module, for a pass that needs only the counts (one walk, no list of users to sort).
std::vector<uint32_t> use_counts(const Module& module);

}  // namespace bismuth::spirv_patch
