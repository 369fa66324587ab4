// workgroup_size_to_runtime: which values depend on the workgroup size, and where they are used.
#include "passes/workgroup_size_to_runtime/size_constant_uses.hpp"

#include <algorithm>
#include <optional>
#include <string>

#include "analysis/id_operands.hpp"
#include "analysis/type_queries.hpp"
#include "bismuth/spirv_patch/analysis/workgroup_size.hpp"

namespace bismuth::spirv_patch {

namespace {

using spv::Op;

// OpSpecConstantOp opcodes that have an ordinary instruction with the same operands in a function, by operand shape.
enum class SpecShape { Unary, Binary, Ternary, Extract, Insert, Shuffle };

std::optional<SpecShape> spec_op_shape(Op op) {
  switch (op) {
    case Op::OpSConvert:
    case Op::OpUConvert:
    case Op::OpFConvert:
    case Op::OpSNegate:
    case Op::OpNot:
    case Op::OpLogicalNot:
    case Op::OpQuantizeToF16:
    case Op::OpBitcast:
    case Op::OpFNegate:
    case Op::OpConvertFToS:
    case Op::OpConvertSToF:
    case Op::OpConvertFToU:
    case Op::OpConvertUToF: return SpecShape::Unary;
    case Op::OpIAdd:
    case Op::OpISub:
    case Op::OpIMul:
    case Op::OpUDiv:
    case Op::OpSDiv:
    case Op::OpUMod:
    case Op::OpSRem:
    case Op::OpSMod:
    case Op::OpShiftRightLogical:
    case Op::OpShiftRightArithmetic:
    case Op::OpShiftLeftLogical:
    case Op::OpBitwiseOr:
    case Op::OpBitwiseXor:
    case Op::OpBitwiseAnd:
    case Op::OpLogicalOr:
    case Op::OpLogicalAnd:
    case Op::OpLogicalEqual:
    case Op::OpLogicalNotEqual:
    case Op::OpIEqual:
    case Op::OpINotEqual:
    case Op::OpULessThan:
    case Op::OpSLessThan:
    case Op::OpUGreaterThan:
    case Op::OpSGreaterThan:
    case Op::OpULessThanEqual:
    case Op::OpSLessThanEqual:
    case Op::OpUGreaterThanEqual:
    case Op::OpSGreaterThanEqual:
    case Op::OpFAdd:
    case Op::OpFSub:
    case Op::OpFMul:
    case Op::OpFDiv:
    case Op::OpFRem:
    case Op::OpFMod: return SpecShape::Binary;
    case Op::OpSelect: return SpecShape::Ternary;
    case Op::OpCompositeExtract: return SpecShape::Extract;
    case Op::OpCompositeInsert: return SpecShape::Insert;
    case Op::OpVectorShuffle: return SpecShape::Shuffle;
    default: return std::nullopt;
  }
}

// Checks the operand count of an OpSpecConstantOp against the opcode it names.
Status check_spec_op(const Module& module, InstructionHandle h) {
  const auto w = module.words(h);
  if (w.size() < 4) return fail(module.describe(h) + ": OpSpecConstantOp without an opcode");
  const auto inner = static_cast<Op>(w[3]);
  const auto shape = spec_op_shape(inner);
  if (!shape) {
    return fail(module.describe(h) + ": OpSpecConstantOp " + opcode_name(w[3]) +
                " over the workgroup size cannot be computed in a function: not eligible");
  }
  const size_t operands = w.size() - 4;
  bool ok = false;
  switch (*shape) {
    case SpecShape::Unary: ok = operands == 1; break;
    case SpecShape::Binary: ok = operands == 2; break;
    case SpecShape::Ternary: ok = operands == 3; break;
    case SpecShape::Extract: ok = operands >= 2; break;
    case SpecShape::Insert:
    case SpecShape::Shuffle: ok = operands >= 3; break;
  }
  if (!ok) {
    return fail(module.describe(h) + ": OpSpecConstantOp " + opcode_name(w[3]) + " has " + std::to_string(operands) +
                " operand word(s), the wrong number for that opcode");
  }
  // Module::parse does not interpret these operands: check that the ids name something.
  for (size_t i : id_operands(module, h).ids) {
    if (!module.definition(w[i])) {
      return fail(module.describe(h) + ": operand " + id_name(w[i]) + " (word " + std::to_string(i) +
                  ") is not defined");
    }
  }
  return {};
}

// What a constant-only use of the workgroup size is, for the error message.
std::string constant_use_kind(Op op) {
  switch (op) {
    case Op::OpTypeArray: return "array length";
    case Op::OpConstantComposite: return "constant composite";
    case Op::OpVariable: return "variable initializer";
    case Op::OpDecorateId: return "decoration";
    case Op::OpExecutionModeId: return "execution mode operand";
    default: break;
  }
  if (opcode_name(u(op)).starts_with("OpType")) return "type operand";
  return "constant operand";
}

// The three SpecIds, and every spec constant that carries one of them.
Status find_size_roots(const Module& module, RuntimeGroupSizePlan& plan) {
  auto info = find_workgroup_size(module, plan.entry);
  if (!info) return fail("entry point \"" + plan.entry.name + "\": " + info.error().message);
  for (int d = 0; d < 3; ++d) {
    if (!info->spec_ids[d]) {
      return fail("entry point \"" + plan.entry.name + "\": workgroup size dimension " + std::to_string(d) + " (" +
                  std::to_string(info->size[d]) +
                  ") is not a specialization constant with a SpecId; run workgroup_size_to_spec_constants first");
    }
    plan.spec_ids[d] = *info->spec_ids[d];
  }
  if (plan.spec_ids[0] == plan.spec_ids[1] || plan.spec_ids[0] == plan.spec_ids[2] ||
      plan.spec_ids[1] == plan.spec_ids[2]) {
    return fail("entry point \"" + plan.entry.name + "\": two workgroup size dimensions share a SpecId, so the size " +
                "cannot be specialized to (L,1,1)");
  }
  // Every spec constant with one of the three SpecIds takes the specialized (physical) value: glslang declares a
  // second set for gl_WorkGroupSize next to LocalSizeId in SPIR-V 1.6.
  for (InstructionHandle h : module.instructions(Section::Annotation)) {
    const auto w = module.words(h);
    if (module.opcode(h) != Op::OpDecorate || w.size() != 4 || w[2] != u(spv::Decoration::SpecId)) continue;
    const auto it = std::find(plan.spec_ids.begin(), plan.spec_ids.end(), w[3]);
    if (it == plan.spec_ids.end()) continue;
    auto def = module.definition(w[1]);
    if (!def) return fail(module.describe(h) + ": decorates undefined id " + id_name(w[1]));
    const auto dw = module.words(*def);
    if (module.opcode(*def) != Op::OpSpecConstant || dw.size() != 4 || !int32_type(module, dw[1], 1)) {
      return fail(module.describe(h) + ": the workgroup size SpecId " + std::to_string(w[3]) + " decorates " +
                  module.describe(*def) + "; a 32-bit integer OpSpecConstant is required");
    }
    plan.roots[w[1]] = static_cast<int>(it - plan.spec_ids.begin());
    plan.dependent.insert(w[1]);
  }
  return {};
}

// Module-level uses, in module order (definitions come before uses): spec constant expressions join the dependent
// values; anything else that needs a constant cannot take a run-time value.
Status find_module_level_uses(const Module& module, RuntimeGroupSizePlan& plan) {
  IdOperands operands;  // one for every instruction: the walk reuses its storage
  for (InstructionHandle h : module.instructions()) {
    const Section section = module.section(h);
    if (section == Section::Function) continue;
    const Op op = module.opcode(h);
    const auto w = module.words(h);
    id_operands(module, h, operands);
    std::optional<size_t> use;
    for (size_t i : operands.ids) {
      if (plan.is_dependent(w[i])) {
        use = i;
        break;
      }
    }
    if (!use) continue;
    if (section == Section::Debug) continue;
    if (section == Section::Annotation) {
      // The decorated target itself is not a use of its value; id operands of OpDecorateId are.
      if (op == Op::OpDecorate || op == Op::OpGroupDecorate || op == Op::OpDecorateString) continue;
      if (op == Op::OpDecorateId && *use == 1) {
        bool other = false;
        for (size_t i : operands.ids) other |= i != 1 && plan.is_dependent(w[i]);
        if (!other) continue;
      }
    }
    if (op == Op::OpExecutionModeId && w.size() >= 3 && w[2] == u(spv::ExecutionMode::LocalSizeId)) continue;
    if (is_non_semantic(module, h)) continue;  // debug information names the constant, its value is not used
    if (op == Op::OpSpecConstantOp || op == Op::OpSpecConstantComposite) {
      if (op == Op::OpSpecConstantOp) {
        if (Status ok = check_spec_op(module, h); !ok) return ok;
      }
      if (w.size() < 3) return fail(module.describe(h) + ": malformed constant");
      plan.dependent.insert(w[2]);
      plan.dependent_order.push_back(h);
      continue;
    }
    return fail(module.describe(h) + ": workgroup size used as a constant (" + constant_use_kind(op) +
                "): not eligible");
  }
  return {};
}

// Functions of the entry point that read a dependent value compute it themselves (rematerialize.hpp).
Status find_function_uses(const Module& module, RuntimeGroupSizePlan& plan) {
  IdOperands operands;  // one for every instruction: the walk reuses its storage
  for (const Function& f : plan.functions) {
    for (InstructionHandle h : f.body) {
      const auto w = module.words(h);
      id_operands(module, h, operands);
      bool uses = false;
      for (size_t i : operands.ids) uses |= plan.is_dependent(w[i]);
      if (!uses) continue;
      if (!plan.reachable.contains(f.id)) continue;  // other entry points keep reading the constants
      if (is_non_semantic(module, h)) continue;
      for (size_t i : operands.constant_required) {
        if (plan.is_dependent(w[i])) {
          return fail(module.describe(h) + ": workgroup size used as a constant (operand word " + std::to_string(i) +
                      " must be a constant instruction): not eligible");
        }
      }
      if (plan.others_reachable.contains(f.id)) {
        return fail(module.describe(h) + ": function " + id_name(f.id) +
                    " reads the workgroup size and is also called from another entry point: not eligible");
      }
      plan.functions_to_rematerialize.insert(f.id);
    }
  }
  return {};
}

}  // namespace

Status find_size_constant_uses(const Module& module, RuntimeGroupSizePlan& plan) {
  if (Status ok = find_size_roots(module, plan); !ok) return ok;
  if (Status ok = find_module_level_uses(module, plan); !ok) return ok;
  return find_function_uses(module, plan);
}

}  // namespace bismuth::spirv_patch
