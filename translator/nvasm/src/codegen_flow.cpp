// Structured control flow. SPIR-V needs it: IF / ELSE / ENDIF are a selection construct, REP / ENDREP a loop
// (the count in a Function variable, tested in a block after the loop header), BRK / CONT / RET branches out
// (inside a selection when conditional), CAL a function call (one per call depth in a recursive program), CALI a
// switch over the candidates of a subroutine variable.
#include <algorithm>

#include "codegen.hpp"

namespace bismuth::nvasm::detail {

void Codegen::label(uint32_t id) { b_.inst(Op::OpLabel, {id}); }

void Codegen::branch(uint32_t target) { b_.inst(Op::OpBranch, {target}); }

// After a terminator in the middle of straight-line code: the rest goes into an unreachable block.
void Codegen::dead_block() { label(b_.id()); }

uint32_t Codegen::innermost_loop(bool continue_target) {
  for (auto it = constructs_.rbegin(); it != constructs_.rend(); ++it) {
    if (it->kind == AsmOp::REP) return continue_target ? it->cont : it->merge;
  }
  return 0;
}

// if (cond) { <branch to target or return> } — a selection construct around an exit.
void Codegen::conditional_exit(uint32_t cond, uint32_t target) {
  const uint32_t then_label = b_.id(), after = b_.id();
  b_.inst(Op::OpSelectionMerge, {after, 0});
  b_.inst(Op::OpBranchConditional, {cond, then_label, after});
  label(then_label);
  if (target) branch(target);
  else b_.inst(Op::OpReturn, {});
  label(after);
}

bool Codegen::flow(const Instruction& inst) {
  switch (inst.op) {
    case AsmOp::IF: begin_if(inst); break;
    case AsmOp::ELSE: begin_else(); break;
    case AsmOp::ENDIF: end_if(); break;
    case AsmOp::REP: begin_rep(inst); break;
    case AsmOp::ENDREP: end_rep(); break;
    case AsmOp::BRK:
    case AsmOp::CONT:
    case AsmOp::RET: jump(inst); break;
    case AsmOp::CAL: call(inst); break;
    case AsmOp::CALI: indirect_call(inst); break;
    default: break;
  }
  return true;
}

void Codegen::begin_if(const Instruction& inst) {
  Construct c{AsmOp::IF};
  c.merge = b_.id();
  c.else_label = b_.id();
  const uint32_t then_label = b_.id();
  const uint32_t cond = condition_scalar(*inst.condition);
  b_.inst(Op::OpSelectionMerge, {c.merge, 0});
  b_.inst(Op::OpBranchConditional, {cond, then_label, c.else_label});
  label(then_label);
  constructs_.push_back(c);
}

void Codegen::begin_else() {
  Construct& c = constructs_.back();
  branch(c.merge);
  label(c.else_label);
  c.else_seen = true;
}

void Codegen::end_if() {
  Construct c = constructs_.back();
  constructs_.pop_back();
  branch(c.merge);
  if (!c.else_seen) {
    label(c.else_label);
    branch(c.merge);
  }
  label(c.merge);
}

void Codegen::begin_rep(const Instruction& inst) {
  Construct c{AsmOp::REP};
  c.merge = b_.id();
  c.cont = b_.id();
  const uint32_t header = b_.id(), body = b_.id();
  if (!inst.sources.empty()) {
    // The count is evaluated once, at REP (NV_gpu_program4: "loop count").
    c.counter = function_var(t_i32());
    uint32_t count;
    if (is_float(inst.type)) {
      Val v = load_operand(inst.sources[0], DataType::F32);
      uint32_t x = b_.op(Op::OpCompositeExtract, t_float(32), {v.id, 0});
      x = ext(GLSLstd450Floor, t_float(32), {x});
      x = ext(GLSLstd450FClamp, t_float(32), {x, c_scalar(DataType::F32, 0.0, 0, true),
                                              c_scalar(DataType::F32, 2147483647.0, 0, true)});
      count = b_.op(Op::OpConvertFToS, t_i32(), {x});
    } else {
      Val v = load_operand(inst.sources[0], DataType::S32);
      count = b_.op(Op::OpCompositeExtract, t_i32(), {v.id, 0});
    }
    b_.inst(Op::OpStore, {c.counter, count});
  }
  branch(header);
  label(header);
  loop_headers_.push_back(header);
  // OPTION NV_unroll_none: the program asks that loops stay loops (SPIR-V's DontUnroll loop control).
  const bool no_unroll =
      std::find(p_.options.begin(), p_.options.end(), "NV_unroll_none") != p_.options.end();
  b_.inst(Op::OpLoopMerge, {c.merge, c.cont, no_unroll ? uint32_t(spv::LoopControlMask::DontUnroll) : 0u});
  if (c.counter) {
    // OpLoopMerge must be second to last in the header: the count test gets its own block (a break).
    const uint32_t check = b_.id();
    branch(check);
    label(check);
    const uint32_t n = b_.op(Op::OpLoad, t_i32(), {c.counter});
    const uint32_t go = b_.op(Op::OpSGreaterThan, t_bool(), {n, c_i32(0)});
    b_.inst(Op::OpBranchConditional, {go, body, c.merge});
  } else {
    branch(body);
  }
  label(body);
  constructs_.push_back(c);
}

void Codegen::end_rep() {
  Construct c = constructs_.back();
  constructs_.pop_back();
  branch(c.cont);
  label(c.cont);
  if (c.counter) {
    const uint32_t n = b_.op(Op::OpLoad, t_i32(), {c.counter});
    b_.inst(Op::OpStore, {c.counter, b_.op(Op::OpISub, t_i32(), {n, c_i32(1)})});
  }
  branch(loop_headers_.back());
  loop_headers_.pop_back();
  label(c.merge);
}

// BRK and CONT: to the innermost loop's merge or continue block; RET: out of the function.
void Codegen::jump(const Instruction& inst) {
  const bool ret = inst.op == AsmOp::RET;
  const uint32_t target = ret ? 0 : innermost_loop(inst.op == AsmOp::CONT);
  if (inst.condition) {
    conditional_exit(condition_scalar(*inst.condition), target);
  } else {
    if (ret) b_.inst(Op::OpReturn, {});
    else branch(target);
    dead_block();
  }
}

void Codegen::call(const Instruction& inst) {
  if (inst.condition) {
    const uint32_t cond = condition_scalar(*inst.condition);
    const uint32_t then_label = b_.id(), after = b_.id();
    b_.inst(Op::OpSelectionMerge, {after, 0});
    b_.inst(Op::OpBranchConditional, {cond, then_label, after});
    label(then_label);
    call_subroutine(inst.label);
    branch(after);
    label(after);
  } else {
    call_subroutine(inst.label);
  }
}

// Recursion (NV_gpu_program4 allows CAL cycles; SPIR-V does not): every function exists once per call depth, the
// call stack entries in use when it runs (the entry subroutine: 0), and a call from depth d goes to depth d + 1.
// A call that would push entry kMaxCallDepth + 1 overflows the call stack: it terminates the invocation, which
// returns through every caller (each call is followed by the overflow test) with what it wrote so far kept
// (docs/nvasm.md, "Subroutines and recursion").
uint32_t Codegen::instance(uint32_t sub, uint32_t depth) {
  auto [it, added] = instance_ids_.try_emplace({sub, depth}, 0);
  if (added) {
    it->second = b_.id();
    instances_.push_back({sub, depth});
  }
  return it->second;
}

void Codegen::call_subroutine(uint32_t sub) {
  if (!p_.recursive) {
    b_.op(Op::OpFunctionCall, t_void(), {fn_ids_[sub]});
    return;
  }
  if (depth_ + 1 > kMaxCallDepth) {
    b_.inst(Op::OpStore, {overflow_var_, c_bool(true)});
    b_.inst(Op::OpReturn, {});
    dead_block();
    return;
  }
  b_.op(Op::OpFunctionCall, t_void(), {instance(sub, depth_ + 1)});
  conditional_exit(b_.op(Op::OpLoad, t_bool(), {overflow_var_}), 0);
}

// CALI (ARB_shader_subroutine, NV_gpu_program5 interaction): "An "indirect" call will transfer control to one of a
// set of labels, where the specific label that is used in a particular program invocation is set through a
// "subroutine" parameter". An OpSwitch on the parameter's SUBROUTINENUM with a case per label of the variable's
// SUBROUTINETYPE. ProgramSubroutineParametersuivNV accepts only those numbers, so the default case (another value:
// only a caller of the assembler that bypasses the GL checks can give one) calls nothing.
void Codegen::indirect_call(const Instruction& inst) {
  const SubroutineVar& var = p_.subroutine_vars[inst.label];
  uint32_t after = 0;
  if (inst.condition) {
    const uint32_t cond = condition_scalar(*inst.condition);
    const uint32_t then_label = b_.id();
    after = b_.id();
    b_.inst(Op::OpSelectionMerge, {after, 0});
    b_.inst(Op::OpBranchConditional, {cond, then_label, after});
    label(then_label);
  }
  // The program.subroutine index of the element: a constant, or picked by the clamped register index.
  uint32_t param;
  if (inst.call_relative) {
    const auto count = static_cast<uint32_t>(var.params.size());
    const uint32_t element = dynamic_index(inst.call_element, inst.call_rel_temp, inst.call_rel_component, count);
    param = c_u32(var.params[0]);
    for (uint32_t k = 1; k < count; ++k) {
      const uint32_t is_k = b_.op(Op::OpIEqual, t_bool(), {element, c_u32(k)});
      param = b_.op(Op::OpSelect, t_u32(), {is_k, c_u32(var.params[k]), param});
    }
  } else {
    param = c_u32(var.params[inst.call_element]);
  }
  const uint32_t ptr =
      b_.op(Op::OpAccessChain, t_ptr(spv::StorageClass::Uniform, t_uvec4()), {subroutine_var_, c_u32(0), param});
  const uint32_t number = b_.op(Op::OpCompositeExtract, t_u32(), {b_.op(Op::OpLoad, t_uvec4(), {ptr}), 0});
  const std::vector<uint32_t>& labels = p_.subroutine_types[var.type].labels;
  const uint32_t merge = b_.id();
  std::vector<uint32_t> cases(labels.size());
  std::vector<uint32_t> operands = {number, merge};
  for (size_t k = 0; k < labels.size(); ++k) {
    cases[k] = b_.id();
    operands.push_back(static_cast<uint32_t>(p_.subroutines[labels[k]].number));
    operands.push_back(cases[k]);
  }
  b_.inst(Op::OpSelectionMerge, {merge, 0});
  SpirvBuilder::put(b_.body, Op::OpSwitch, operands);
  for (size_t k = 0; k < labels.size(); ++k) {
    label(cases[k]);
    call_subroutine(labels[k]);
    branch(merge);
  }
  label(merge);
  if (after) {
    branch(after);
    label(after);
  }
}

// A register-indexed array of descriptors (codegen.hpp, switch_cases).
bool Codegen::switch_cases(uint32_t index, uint32_t count, const std::function<bool(uint32_t)>& emit_case) {
  const uint32_t merge = b_.id();
  std::vector<uint32_t> labels(count);
  for (auto& l : labels) l = b_.id();
  std::vector<uint32_t> operands = {index, labels[count - 1]};
  for (uint32_t k = 0; k + 1 < count; ++k) {
    operands.push_back(k);
    operands.push_back(labels[k]);
  }
  b_.inst(Op::OpSelectionMerge, {merge, 0});
  SpirvBuilder::put(b_.body, Op::OpSwitch, operands);
  for (uint32_t k = 0; k < count; ++k) {
    label(labels[k]);
    if (!emit_case(k)) return false;
    branch(merge);
  }
  label(merge);
  return true;
}

}  // namespace bismuth::nvasm::detail
