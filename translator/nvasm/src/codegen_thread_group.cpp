// The thread-group instructions (NV_shader_thread_group, NV_shader_thread_shuffle) on the subgroup operations:
// ballot, the votes and the shuffles. The parser has already required 32-lane subgroups for them.
#include "codegen.hpp"

namespace bismuth::nvasm::detail {

// NV_shader_thread_group works per component: TGBALLOT, TGALL, TGANY and TGEQ read the whole (swizzled) operand
// of every active thread and give component c of the result from component c of the operands ("TGANY.U R0.y,
// -R0;" votes on -R0.y). TGALL / TGANY / TGEQ give TRUE or FALSE in the instruction's type, as the set-on
// instructions do (1.0 / 0.0 for floats, the default type; all ones / 0 for integers); TGBALLOT gives each
// component's 32-bit mask of the threads whose operand component is non-zero.
bool Codegen::thread_group(const Instruction& inst, Val& r) {
  uses_subgroup_ = true;
  const uint32_t subgroup = c_u32(kScopeSubgroup);
  const DataType t = inst.type;
  if (inst.op == AsmOp::TGBALLOT || inst.op == AsmOp::TGALL || inst.op == AsmOp::TGANY || inst.op == AsmOp::TGEQ) {
    const Val a = load_operand(inst.sources[0], t);
    std::array<uint32_t, 4> parts{};
    for (uint32_t c = 0; c < 4; ++c) {
      const uint32_t x = component(a, c);
      if (inst.op == AsmOp::TGEQ) {
        // Equal by value in the instruction's type: .F compares floats (0.0 equals -0.0, a NaN equals nothing).
        uses_vote_ = true;
        parts[c] = b_.op(Op::OpGroupNonUniformAllEqual, t_bool(), {subgroup, x});
        continue;
      }
      // "Non-zero" by value too: -0.0 is zero, a NaN is not.
      const uint32_t cond = is_float(t) ? b_.op(Op::OpFUnordNotEqual, t_bool(), {x, c_scalar(t, 0.0, 0, true)})
                                        : b_.op(Op::OpINotEqual, t_bool(), {x, c_scalar(t, 0.0, 0, false)});
      if (inst.op == AsmOp::TGBALLOT) {
        // The warp's threads are the subgroup's first 32 invocations: word 0 of the ballot.
        uses_ballot_ = true;
        const uint32_t ballot = b_.op(Op::OpGroupNonUniformBallot, t_uvec4(), {subgroup, cond});
        parts[c] = b_.op(Op::OpCompositeExtract, t_u32(), {ballot, 0});
      } else {
        uses_vote_ = true;
        parts[c] = b_.op(inst.op == AsmOp::TGALL ? Op::OpGroupNonUniformAll : Op::OpGroupNonUniformAny, t_bool(),
                         {subgroup, cond});
      }
    }
    if (inst.op == AsmOp::TGBALLOT) {
      r = {b_.op(Op::OpCompositeConstruct, t_uvec4(), {parts[0], parts[1], parts[2], parts[3]}), DataType::U32};
      // The mask in the instruction's own type (the bits for .S; zero-extended for 64-bit types).
      if (t != DataType::U32) r = convert(r, t);
      return true;
    }
    r = bool_result(b_.op(Op::OpCompositeConstruct, t_bvec4(), {parts[0], parts[1], parts[2], parts[3]}), t);
    return true;
  }
  r = shuffle(inst, subgroup);
  return true;
}

// SHF*: operand 0 the value (.x), operand 1 the lane index or offset (.x), operand 2 the packed
// clamp (bits 0-4) and segment mask (bits 8-12). Result .x: the source lane was valid; .y: the value.
Val Codegen::shuffle(const Instruction& inst, uint32_t subgroup) {
  const DataType t = inst.type;
  uses_shuffle_ = true;
  const Val value = load_operand(inst.sources[0], DataType::U32);
  const Val b = load_operand(inst.sources[1], DataType::U32);
  const Val c = load_operand(inst.sources[2], DataType::U32);
  const uint32_t u = t_u32();
  const uint32_t lane = b_.op(Op::OpLoad, u, {builtin_var(spv::BuiltIn::SubgroupLocalInvocationId, u)});
  const uint32_t cx = component(c, 0), bx = component(b, 0);
  const uint32_t clamp = b_.op(Op::OpBitwiseAnd, u, {cx, c_u32(31)});
  const uint32_t segmask = b_.op(Op::OpBitwiseAnd, u, {b_.op(Op::OpShiftRightLogical, u, {cx, c_u32(8)}), c_u32(31)});
  const uint32_t not_seg = b_.op(Op::OpNot, u, {segmask});
  const uint32_t min_lane = b_.op(Op::OpBitwiseAnd, u, {lane, segmask});
  const uint32_t max_lane = b_.op(Op::OpBitwiseOr, u, {min_lane, b_.op(Op::OpBitwiseAnd, u, {clamp, not_seg})});
  uint32_t j, valid;
  switch (inst.op) {
    case AsmOp::SHFIDX:
      j = b_.op(Op::OpBitwiseOr, u, {min_lane, b_.op(Op::OpBitwiseAnd, u, {bx, not_seg})});
      valid = b_.op(Op::OpULessThanEqual, t_bool(), {j, max_lane});
      break;
    case AsmOp::SHFUP:
      j = b_.op(Op::OpISub, u, {lane, bx});
      valid = b_.op(Op::OpSGreaterThanEqual, t_bool(),
                    {b_.op(Op::OpBitcast, t_i32(), {j}), b_.op(Op::OpBitcast, t_i32(), {max_lane})});
      break;
    case AsmOp::SHFDOWN:
      j = b_.op(Op::OpIAdd, u, {lane, bx});
      valid = b_.op(Op::OpULessThanEqual, t_bool(), {j, max_lane});
      break;
    default:
      j = b_.op(Op::OpBitwiseXor, u, {lane, bx});
      valid = b_.op(Op::OpULessThanEqual, t_bool(), {j, max_lane});
      break;
  }
  const uint32_t source = b_.op(Op::OpSelect, u, {valid, j, lane});
  const uint32_t shuffled = b_.op(Op::OpGroupNonUniformShuffle, u, {subgroup, component(value, 0), source});
  const uint32_t valid_word = b_.op(Op::OpSelect, u, {valid, c_u32(0xFFFFFFFFu), c_u32(0)});
  Val r = {b_.op(Op::OpCompositeConstruct, t_uvec4(), {valid_word, shuffled, valid_word, shuffled}), DataType::U32};
  if (is_float(t) || is_signed(t)) {
    // The bits move unchanged; keep the write in the instruction's own type so 64-bit registers convert right.
    r = {b_.op(Op::OpBitcast, vec_type(is_float(t) ? DataType::F32 : DataType::S32), {r.id}),
         is_float(t) ? DataType::F32 : DataType::S32};
  }
  return r;
}

}  // namespace bismuth::nvasm::detail
