// workgroup_size_to_runtime: the compute built-in variables the pass reads or replaces.
#include "passes/workgroup_size_to_runtime/invocation_builtins.hpp"

#include <string>
#include <vector>

#include "analysis/id_operands.hpp"
#include "analysis/type_queries.hpp"

namespace bismuth::spirv_patch {

using spv::Op;

Status find_invocation_builtins(const Module& module, RuntimeGroupSizePlan& plan) {
  for (InstructionHandle h : module.instructions(Section::Annotation)) {
    const Op op = module.opcode(h);
    const auto w = module.words(h);
    if (op == Op::OpMemberDecorate && w.size() >= 5 && w[3] == u(spv::Decoration::BuiltIn) &&
        (w[4] == u(spv::BuiltIn::LocalInvocationId) || w[4] == u(spv::BuiltIn::GlobalInvocationId))) {
      return fail(module.describe(h) + ": LocalInvocationId / GlobalInvocationId as a block member: not eligible");
    }
    if (op != Op::OpDecorate || w.size() != 4 || w[2] != u(spv::Decoration::BuiltIn)) continue;
    const auto builtin = static_cast<spv::BuiltIn>(w[3]);
    auto def = module.definition(w[1]);
    if (!def) return fail(module.describe(h) + ": decorates undefined id " + id_name(w[1]));
    const Op def_op = module.opcode(*def);
    if (builtin == spv::BuiltIn::WorkgroupSize) {
      if (def_op == Op::OpVariable) return fail(module.describe(h) + ": BuiltIn WorkgroupSize on a variable");
      continue;
    }
    const bool ours = builtin == spv::BuiltIn::LocalInvocationId || builtin == spv::BuiltIn::GlobalInvocationId ||
                      builtin == spv::BuiltIn::LocalInvocationIndex || builtin == spv::BuiltIn::WorkgroupId;
    if (def_op == Op::OpDecorationGroup) {
      if (ours) return fail(module.describe(h) + ": compute built-in through a decoration group: not eligible");
      continue;
    }
    if (def_op != Op::OpVariable) continue;
    const auto dw = module.words(*def);
    if (dw.size() < 4) return fail(module.describe(*def) + ": malformed OpVariable");
    switch (builtin) {
      case spv::BuiltIn::NumSubgroups:
      case spv::BuiltIn::SubgroupId:
      case spv::BuiltIn::SubgroupLocalInvocationId:
      case spv::BuiltIn::SubgroupEqMask:
      case spv::BuiltIn::SubgroupGeMask:
      case spv::BuiltIn::SubgroupGtMask:
      case spv::BuiltIn::SubgroupLeMask:
      case spv::BuiltIn::SubgroupLtMask: plan.subgroup_builtin_vars[w[1]] = builtin; continue;
      default: break;
    }
    if (!ours) continue;
    const auto pointer = pointer_type(module, dw[1]);
    const uint32_t count = (builtin == spv::BuiltIn::LocalInvocationIndex) ? 1u : 3u;
    if (dw[3] != u(spv::StorageClass::Input) || !pointer || pointer->first != u(spv::StorageClass::Input) ||
        !int32_type(module, pointer->second, count)) {
      return fail(module.describe(h) + ": the built-in variable " + id_name(w[1]) + " is not an Input " +
                  (count == 1 ? "32-bit integer" : "3-component vector of 32-bit integers"));
    }
    switch (builtin) {
      case spv::BuiltIn::LocalInvocationId: plan.local_id_vars.push_back(w[1]); break;
      case spv::BuiltIn::GlobalInvocationId: plan.global_id_vars.push_back(w[1]); break;
      case spv::BuiltIn::LocalInvocationIndex:
        if (!plan.local_index_var) plan.local_index_var = w[1];
        break;
      case spv::BuiltIn::WorkgroupId:
        if (!plan.workgroup_id_var) plan.workgroup_id_var = w[1];
        break;
      default: break;
    }
  }
  for (uint32_t id : plan.local_id_vars) plan.converted.insert(id);
  for (uint32_t id : plan.global_id_vars) plan.converted.insert(id);
  return {};
}

Status check_invocation_id_uses(const Module& module, const UseIndex& uses, RuntimeGroupSizePlan& plan) {
  std::vector<uint32_t> pending(plan.converted.begin(), plan.converted.end());
  std::set<uint32_t> seen(plan.converted.begin(), plan.converted.end());
  while (!pending.empty()) {
    const uint32_t id = pending.back();
    pending.pop_back();
    for (InstructionHandle h : uses.users(id)) {
      const Op op = module.opcode(h);
      const auto w = module.words(h);
      const Section section = module.section(h);
      if (section == Section::Debug || section == Section::Annotation || is_non_semantic(module, h)) continue;
      if (op == Op::OpEntryPoint) {
        if (h != plan.entry.handle) {
          return fail(module.describe(h) + ": the LocalInvocationId / GlobalInvocationId variable " + id_name(id) +
                      " is also in the interface of another entry point: not eligible");
        }
        continue;
      }
      if (section == Section::Function) {
        auto fn = plan.function_of.find(h);
        if (fn != plan.function_of.end() && plan.others_reachable.contains(fn->second)) {
          return fail(module.describe(h) + ": the LocalInvocationId / GlobalInvocationId variable " + id_name(id) +
                      " is used by a function another entry point calls: not eligible");
        }
      }
      switch (op) {
        case Op::OpLoad:
          if (w.size() >= 4 && w[3] == id) continue;
          break;
        case Op::OpCopyMemory:
        case Op::OpCopyMemorySized: continue;
        case Op::OpAccessChain:
        case Op::OpInBoundsAccessChain:
        case Op::OpPtrAccessChain:
        case Op::OpInBoundsPtrAccessChain:
        case Op::OpCopyObject:
          if (w.size() >= 4 && w[3] == id) {
            if (!pointer_type(module, w[1])) return fail(module.describe(h) + ": result type is not a pointer");
            if (seen.insert(w[2]).second) {
              plan.derived.push_back(h);
              pending.push_back(w[2]);
            }
            continue;
          }
          break;
        default: break;
      }
      return fail(module.describe(h) + ": uses the LocalInvocationId / GlobalInvocationId variable " + id_name(id) +
                  " (or a pointer into it) in a way the pass cannot retarget to a Private variable " +
                  "(only loads, copies and access chains are handled): not eligible");
    }
  }
  return {};
}

}  // namespace bismuth::spirv_patch
