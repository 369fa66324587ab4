#include "passes/workgroup_size_to_runtime/plan.hpp"

#include <string_view>
#include <utility>

#include "analysis/entry_points.hpp"
#include "analysis/use_index.hpp"
#include "passes/workgroup_size_to_runtime/exact_size_requirement.hpp"
#include "passes/workgroup_size_to_runtime/invocation_builtins.hpp"
#include "passes/workgroup_size_to_runtime/push_constant_block.hpp"
#include "passes/workgroup_size_to_runtime/size_constant_uses.hpp"

namespace bismuth::spirv_patch {

namespace {

using spv::Op;

// The entry point, the functions and which entry points reach them; the entry point's function must be its own,
// defined, and of type void().
Status find_entry_function(const Module& module, std::string_view entry_point, RuntimeGroupSizePlan& plan) {
  auto found = find_compute_entry_point(module, entry_point);
  if (!found) return found.error();
  plan.entry = *found;
  for (auto& entry : module.entry_points()) {
    if (entry.handle != plan.entry.handle && entry.function_id == plan.entry.function_id) {
      return fail(module.describe(entry.handle) + ": entry point \"" + entry.name + "\" shares the function of \"" +
                  plan.entry.name + "\": not eligible");
    }
  }
  auto functions = collect_functions(module);
  if (!functions) return functions.error();
  plan.functions = std::move(*functions);
  for (const Function& f : plan.functions) {
    plan.function_of[f.header] = f.id;
    for (InstructionHandle h : f.body) plan.function_of[h] = f.id;
  }
  const Function* main = find_function(plan.functions, plan.entry.function_id);
  if (!main || !main->has_blocks) {
    return fail(module.describe(plan.entry.handle) + ": the entry point's function " + id_name(plan.entry.function_id) +
                " is not defined in the module");
  }
  auto void_def = module.definition(main->result_type);
  auto type_def = module.definition(main->type);
  if (!void_def || module.opcode(*void_def) != Op::OpTypeVoid || !type_def ||
      module.opcode(*type_def) != Op::OpTypeFunction || module.words(*type_def).size() != 3) {
    return fail(module.describe(main->header) + ": the entry point's function is not of type void()");
  }
  plan.reachable = reachable_functions(plan.functions, plan.entry.function_id);
  for (auto& entry : module.entry_points()) {
    if (entry.handle == plan.entry.handle) continue;
    for (uint32_t id : reachable_functions(plan.functions, entry.function_id)) plan.others_reachable.insert(id);
  }
  return {};
}

// The wrapper calls the old entry function once per invocation; nothing else may call it.
Status check_entry_function_not_called(const Module& module, const UseIndex& uses, const Module::EntryPoint& entry) {
  for (InstructionHandle h : uses.users(entry.function_id)) {
    const auto w = module.words(h);
    if (module.opcode(h) == Op::OpFunctionCall && w.size() >= 4 && w[3] == entry.function_id) {
      return fail(module.describe(h) + ": calls the entry point's function");
    }
  }
  return {};
}

Status check_no_derivative_groups(const Module& module, const Module::EntryPoint& entry) {
  for (InstructionHandle h : module.instructions(Section::ExecutionMode)) {
    const auto w = module.words(h);
    if (w.size() >= 3 && w[1] == entry.function_id &&
        (w[2] == u(spv::ExecutionMode::DerivativeGroupQuadsNV) ||
         w[2] == u(spv::ExecutionMode::DerivativeGroupLinearNV))) {
      return fail(module.describe(h) + ": compute derivative groups depend on the workgroup shape: not eligible");
    }
  }
  return {};
}

}  // namespace

Expected<RuntimeGroupSizePlan> plan_workgroup_size_to_runtime(const Module& module,
                                                              const RuntimeGroupSizeOptions& options) {
  RuntimeGroupSizePlan plan;
  if (Status ok = find_entry_function(module, options.entry_point, plan); !ok) return ok.error();
  const UseIndex uses(module);
  if (Status ok = check_entry_function_not_called(module, uses, plan.entry); !ok) return ok.error();
  if (Status ok = find_size_constant_uses(module, plan); !ok) return ok.error();
  if (Status ok = find_invocation_builtins(module, plan); !ok) return ok.error();
  if (Status ok = check_invocation_id_uses(module, uses, plan); !ok) return ok.error();
  if (Status ok = find_push_constant_block(module, uses, options.push_constant_offset, plan); !ok) return ok.error();
  if (Status ok = check_no_derivative_groups(module, plan.entry); !ok) return ok.error();
  find_exact_size_requirement(module, plan);
  return plan;
}

}  // namespace bismuth::spirv_patch
