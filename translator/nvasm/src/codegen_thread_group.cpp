// The thread-group instructions (NV_shader_thread_group, NV_shader_thread_shuffle) on the subgroup operations:
// ballot, the votes and the shuffles. The parser has already required 32-lane subgroups for them.
#include "codegen.hpp"

namespace bismuth::nvasm::detail {

bool Codegen::thread_group(const Instruction& inst, Val& r) {
  uses_subgroup_ = true;
  const uint32_t subgroup = c_u32(kScopeSubgroup);
  const DataType t = inst.type;
  if (inst.op == AsmOp::TGBALLOT || inst.op == AsmOp::TGALL || inst.op == AsmOp::TGANY) {
    const Val a = load_operand(inst.sources[0], is_float(t) ? DataType::F32 : DataType::U32);
    const uint32_t x = component(a, 0);
    const uint32_t cond = is_float(t)
                              ? b_.op(Op::OpFUnordNotEqual, t_bool(), {x, c_scalar(DataType::F32, 0.0, 0, true)})
                              : b_.op(Op::OpINotEqual, t_bool(), {x, c_u32(0)});
    if (inst.op == AsmOp::TGBALLOT) {
      // NV_shader_thread_group: a 32-bit mask of the threads of the warp whose operand is non-zero.
      uses_ballot_ = true;
      const uint32_t ballot = b_.op(Op::OpGroupNonUniformBallot, t_uvec4(), {subgroup, cond});
      r = splat_scalar(b_.op(Op::OpCompositeExtract, t_u32(), {ballot, 0}), DataType::U32);
      if (t == DataType::S32) r = {b_.op(Op::OpBitcast, vec_type(DataType::S32), {r.id}), DataType::S32};
      return true;
    }
    uses_vote_ = true;
    const uint32_t vote = b_.op(inst.op == AsmOp::TGALL ? Op::OpGroupNonUniformAll : Op::OpGroupNonUniformAny,
                                t_bool(), {subgroup, cond});
    const uint32_t v4 = b_.op(Op::OpCompositeConstruct, t_bvec4(), {vote, vote, vote, vote});
    r = bool_result(v4, t);
    return true;
  }
  if (inst.op == AsmOp::TGEQ) {
    uses_vote_ = true;
    const Val a = load_operand(inst.sources[0], DataType::U32);
    const uint32_t eq = b_.op(Op::OpGroupNonUniformAllEqual, t_bool(), {subgroup, component(a, 0)});
    r = bool_result(b_.op(Op::OpCompositeConstruct, t_bvec4(), {eq, eq, eq, eq}), t);
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
