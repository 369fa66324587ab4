// What workgroup_size_to_runtime finds in the module before its first edit: whether the module is eligible, and
// everything the rewrite (rewrite.hpp) needs. Every check of the pass runs here, so a refused module is untouched.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "analysis/call_graph.hpp"
#include "bismuth/common/expected.hpp"
#include "bismuth/spirv_patch/module.hpp"
#include "bismuth/spirv_patch/passes/workgroup_size_to_runtime.hpp"

namespace bismuth::spirv_patch {

// The word of a spv:: enumerant.
inline uint32_t u(auto value) {
  return static_cast<uint32_t>(value);
}

struct RuntimeGroupSizePlan {
  Module::EntryPoint entry{};
  std::vector<Function> functions;
  std::set<uint32_t> reachable;                        // functions the entry point calls, itself included
  std::set<uint32_t> others_reachable;                 // functions other entry points reach
  std::unordered_map<uint32_t, uint32_t> function_of;  // instruction handle -> function id (function section)

  // Size constants: every OpSpecConstant with one of the three SpecIds -> dimension; then every
  // OpSpecConstantOp/Composite depending on them, in module order.
  std::array<uint32_t, 3> spec_ids{};
  std::map<uint32_t, int> roots;
  std::set<uint32_t> dependent;
  std::vector<InstructionHandle> dependent_order;
  std::set<uint32_t> functions_to_rematerialize;

  // Built-in variables.
  std::vector<uint32_t> local_id_vars, global_id_vars;
  std::optional<uint32_t> local_index_var, workgroup_id_var;
  std::map<uint32_t, spv::BuiltIn> subgroup_builtin_vars;
  std::set<uint32_t> converted;            // LocalInvocationId / GlobalInvocationId variables
  std::vector<InstructionHandle> derived;  // access chains / copies of them, to retype

  // Push constants.
  std::optional<uint32_t> push_variable;  // existing block to extend
  uint32_t push_struct = 0;
  uint32_t push_member = 0;

  bool exact_only = false;
  std::string exact_only_reason;

  bool is_dependent(uint32_t id) const { return dependent.contains(id); }
};

Expected<RuntimeGroupSizePlan> plan_workgroup_size_to_runtime(const Module& module,
                                                              const RuntimeGroupSizeOptions& options);

}  // namespace bismuth::spirv_patch
