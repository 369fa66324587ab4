// workgroup_size_to_runtime's edits (rewrite.hpp, rematerialize.hpp, entry_wrapper.hpp) share one state: the plan,
// the ids the edits make, and the pointer types they look up or add.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "bismuth/common/expected.hpp"
#include "bismuth/spirv_patch/module.hpp"
#include "passes/workgroup_size_to_runtime/plan.hpp"

namespace bismuth::spirv_patch {

class RuntimeGroupSizeEditor {
 public:
  RuntimeGroupSizeEditor(Module& edited, const RuntimeGroupSizePlan& eligible);

  Module& module;
  const RuntimeGroupSizePlan& plan;

  // Found or made by the edits.
  uint32_t uint_type = 0, uvec3_type = 0, bool_type = 0;
  std::optional<uint32_t> local_index_var, workgroup_id_var;  // the plan's, else new Input built-ins
  uint32_t push_struct = 0;                                   // the plan's block, else a new one
  uint32_t push_variable = 0, push_member_index = 0;
  uint32_t push_member_pointer = 0;  // PushConstant pointer to the uvec3 member
  uint32_t push_index_constant = 0;  // the member index as a constant, for access chains

  // The pointer type (first declaration wins), else a new one at the end of the globals.
  Expected<uint32_t> pointer_to(uint32_t storage_class, uint32_t pointee);
  // Moves the global definition of `id` (and, first, of the ids it uses) before `anchor` when it comes later; ids
  // are kept.
  void hoist_before(uint32_t id, InstructionHandle anchor, int depth = 0);
  // A new Input variable decorated BuiltIn `builtin`.
  Expected<uint32_t> builtin_input(spv::BuiltIn builtin, uint32_t type);
  // An OpName, placed before any OpModuleProcessed (SPIR-V 2.4, 7b before 7c).
  void add_name(uint32_t id, std::string_view name);
  // The instruction's words after the first one, copied: edits may move the word store under a span.
  std::vector<uint32_t> operands_of(InstructionHandle h) const;

 private:
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> pointers_;  // (storage class, pointee) -> pointer type
  bool pointers_indexed_ = false;
};

}  // namespace bismuth::spirv_patch
