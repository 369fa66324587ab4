// workgroup_size_to_runtime: workgroup size -> run-time value from push constants. The rules it follows:
// - SPIR-V 1.6 section 3.21: LocalInvocationIndex = x + y*X + z*X*Y; with a physical size (L,1,1) it is the flat
//   index itself, so the logical ids come from it: (i % X, (i / X) % Y, i / (X*Y)), GlobalInvocationId =
//   WorkgroupId * (X,Y,Z) + LocalInvocationId. WorkgroupId and NumWorkgroups do not change.
// - Section 2.4 and 2.16: a new entry function (the wrapper) calls the old one; every value the old size
//   constants fed inside a function is computed again at the top of that function (after its OpVariables) from
//   the pushed size. Constants that must stay constants (array lengths, types, decorations, execution modes other
//   than LocalSizeId) cannot follow a run-time value: such modules are refused.
// - Section 2.17 / Vulkan 15.6: OpEntryPoint interfaces list Input/Output variables before SPIR-V 1.4 and every
//   global variable the entry point uses from 1.4 on.
// Everything is checked before the first edit (workgroup_size_to_runtime/plan.hpp); after that only the id bound
// can run out (workgroup_size_to_runtime/rewrite.hpp).
#include "bismuth/spirv_patch/passes/workgroup_size_to_runtime.hpp"

#include <cstdint>
#include <string>

#include "passes/workgroup_size_to_runtime/plan.hpp"
#include "passes/workgroup_size_to_runtime/rewrite.hpp"

namespace bismuth::spirv_patch {

Expected<RuntimeGroupSizeReport> workgroup_size_to_runtime(Module& module, const RuntimeGroupSizeOptions& options) {
  if (options.push_constant_offset % 16 != 0) {
    return fail("push_constant_offset " + std::to_string(options.push_constant_offset) +
                " is not a multiple of 16 (a uvec3 member needs 16-byte alignment)");
  }
  if (options.push_constant_offset > UINT32_MAX - 12) return fail("push_constant_offset is too large");
  RuntimeGroupSizeReport report;
  report.push_constant_offset = options.push_constant_offset;
  report.push_constant_end = options.push_constant_offset + 12;
  report.version_before = module.version();

  auto plan = plan_workgroup_size_to_runtime(module, options);
  if (!plan) return plan.error();
  report.spec_ids = plan->spec_ids;
  report.exact_only = plan->exact_only;
  report.exact_only_reason = plan->exact_only_reason;

  auto push_variable = rewrite_workgroup_size_to_runtime(module, *plan, options);
  if (!push_variable) return push_variable.error();
  report.push_variable = *push_variable;
  report.version_after = module.version();
  return report;
}

Expected<RuntimeGroupSizePatch> workgroup_size_to_runtime(std::span<const uint32_t> words,
                                                          const RuntimeGroupSizeOptions& options) {
  auto module = Module::parse(words);
  if (!module) return module.error();
  auto report = workgroup_size_to_runtime(*module, options);
  if (!report) return report.error();
  return RuntimeGroupSizePatch{module->serialize(), *report};
}

}  // namespace bismuth::spirv_patch
