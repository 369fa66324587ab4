// The arithmetic families of the opcode table: each instruction computes on four components of its data type
// and arithmetic() writes the result (with the condition codes where .CC asks for them).
#include "codegen.hpp"
#include "opcode_table.hpp"

namespace bismuth::nvasm::detail {

bool Codegen::arithmetic(const Instruction& inst) {
  // Every family asks for the result's vector type first, whether it uses it or not: the order in which the
  // emitters first ask for types decides the module's ids.
  const uint32_t vt = vec_type(inst.type);
  Val r;
  uint32_t extra_flags = 0;
  bool ok = true;
  switch (opcode_info(inst.op).family) {
    case Family::Basic: ok = basic(inst, vt, r, extra_flags); break;
    case Family::Division: ok = division(inst, vt, r); break;
    case Family::Comparison: ok = comparison(inst, vt, r); break;
    case Family::Logic: ok = logic(inst, vt, r); break;
    case Family::Bits: ok = bit_instruction(inst, vt, r); break;
    case Family::Rounding: ok = rounding(inst, r); break;
    case Family::Transcendental: ok = transcendental(inst, vt, r); break;
    case Family::DotProduct: ok = dot_product(inst, r); break;
    case Family::Conversion: ok = conversion(inst, r); break;
    case Family::Vector: ok = vector_instruction(inst, r); break;
    case Family::Packing: ok = packing(inst, r); break;
    case Family::ThreadGroup: ok = thread_group(inst, r); break;
    default: return fail(inst, "instruction not supported");
  }
  if (!ok) return false;
  write_dest(inst, r, extra_flags);
  return true;
}

// A two-operand instruction with one SPIR-V opcode per kind of type.
Val Codegen::binary(const Instruction& inst, uint32_t vt, Op f_op, Op s_op, Op u_op) {
  const DataType t = inst.type;
  const Val a = load_operand(inst.sources[0], t), b = load_operand(inst.sources[1], t);
  return Val{b_.op(is_float(t) ? f_op : (is_signed(t) ? s_op : u_op), vt, {a.id, b.id}), t};
}

// MOV ABS ADD SUB MUL MAD MIN MAX; integer ADD, SUB and MAD with .CC also set the overflow and carry flags.
bool Codegen::basic(const Instruction& inst, uint32_t vt, Val& r, uint32_t& extra_flags) {
  const DataType t = inst.type;
  const bool fl = is_float(t);
  const bool sg = is_signed(t);
  auto src = [&](size_t i, DataType as) { return load_operand(inst.sources[i], as); };
  switch (inst.op) {
    case AsmOp::MOV: r = src(0, t); break;
    case AsmOp::ABS: {
      const Val a = src(0, t);
      r = {ext(fl ? GLSLstd450FAbs : GLSLstd450SAbs, vt, {a.id}), t};
      break;
    }
    case AsmOp::ADD:
    case AsmOp::SUB: {
      const Val a = src(0, t), b = src(1, t);
      const bool add = inst.op == AsmOp::ADD;
      r = {b_.op(fl ? (add ? Op::OpFAdd : Op::OpFSub) : (add ? Op::OpIAdd : Op::OpISub), vt, {a.id, b.id}), t};
      if (!fl && inst.update_cc && !inst.saturate && !inst.signed_saturate) {
        extra_flags = add_sub_flags(inst.op, a, b, r);
      }
      break;
    }
    case AsmOp::MUL:
      if (inst.high) {
        if (is_64(t)) return fail(inst, "MUL.HI is supported on 32-bit types only");
        const Val a = src(0, t), b = src(1, t);
        const uint32_t st = b_.global(Op::OpTypeStruct, {vt, vt}, false);
        const uint32_t both = b_.op(sg ? Op::OpSMulExtended : Op::OpUMulExtended, st, {a.id, b.id});
        r = {b_.op(Op::OpCompositeExtract, vt, {both, 1}), t};
      } else {
        r = binary(inst, vt, Op::OpFMul, Op::OpIMul, Op::OpIMul);
      }
      break;
    case AsmOp::MAD: {
      const Val a = src(0, t), b = src(1, t), c = src(2, t);
      if (t == DataType::F32 && options_.exact_float_mad) {
        // NVIDIA's MAD.F32 is fused. Vulkan lets Fma be split into a multiply and an add (lavapipe does), so
        // compute it in double: the product of two floats is exact there, and the sum rounds once more.
        const Val ad = convert(a, DataType::F64), bd = convert(b, DataType::F64), cd = convert(c, DataType::F64);
        const uint32_t prod = b_.op(Op::OpFMul, vec_type(DataType::F64), {ad.id, bd.id});
        r = convert({b_.op(Op::OpFAdd, vec_type(DataType::F64), {prod, cd.id}), DataType::F64}, DataType::F32);
      } else if (fl) {
        r = {ext(GLSLstd450Fma, vt, {a.id, b.id, c.id}), t};
      } else {
        // Integer MAD.CC: the flags of the final addition (the product's low bits plus c), as ADD.CC sets them.
        const Val product{b_.op(Op::OpIMul, vt, {a.id, b.id}), t};
        r = {b_.op(Op::OpIAdd, vt, {product.id, c.id}), t};
        if (inst.update_cc && !inst.saturate && !inst.signed_saturate) extra_flags = addition_flags(product, c, r);
      }
      break;
    }
    case AsmOp::SAD: {
      // NV_gpu_program4 SAD: result = tmp2 + |tmp0 - tmp1| per component, an unsigned result. With .CC it is the
      // addition that sets OF and CF, as for ADD.
      const Val a = src(0, t), b = src(1, t);
      const DataType ut = is_64(t) ? DataType::U64 : DataType::U32;
      const uint32_t uvt = vec_type(ut);
      const Val c = src(2, ut);
      const uint32_t a_gt = b_.op(sg ? Op::OpSGreaterThan : Op::OpUGreaterThan, t_bvec4(), {a.id, b.id});
      auto as_u = [&](uint32_t x) { return t == ut ? x : b_.op(Op::OpBitcast, uvt, {x}); };
      const uint32_t ab = as_u(b_.op(Op::OpISub, vt, {a.id, b.id})), ba = as_u(b_.op(Op::OpISub, vt, {b.id, a.id}));
      const Val diff{b_.op(Op::OpSelect, uvt, {a_gt, ab, ba}), ut};
      r = {b_.op(Op::OpIAdd, uvt, {c.id, diff.id}), ut};
      if (inst.update_cc) extra_flags = add_sub_flags(AsmOp::ADD, c, diff, r);
      break;
    }
    case AsmOp::MIN: {
      const Val a = src(0, t), b = src(1, t);
      r = {ext(fl ? GLSLstd450FMin : (sg ? GLSLstd450SMin : GLSLstd450UMin), vt, {a.id, b.id}), t};
      break;
    }
    case AsmOp::MAX: {
      const Val a = src(0, t), b = src(1, t);
      r = {ext(fl ? GLSLstd450FMax : (sg ? GLSLstd450SMax : GLSLstd450UMax), vt, {a.id, b.id}), t};
      break;
    }
    default: break;
  }
  return true;
}

bool Codegen::division(const Instruction& inst, uint32_t vt, Val& r) {
  const DataType t = inst.type;
  const bool fl = is_float(t);
  const bool sg = is_signed(t);
  auto src = [&](size_t i, DataType as) { return load_operand(inst.sources[i], as); };
  switch (inst.op) {
    case AsmOp::DIV:
    case AsmOp::MOD: {
      // NV_gpu_program4: DIV and MOD divide each component of the first operand by the scalar second operand.
      const Val a = src(0, t);
      const Val b = splat(src(1, t), 0);
      if (fl) {
        r = {b_.op(Op::OpFDiv, vt, {a.id, b.id}), t};
      } else {
        // Integer division by zero is undefined in SPIR-V; NVIDIA returns all ones for the quotient.
        const uint32_t zero = b_.op(Op::OpIEqual, t_bvec4(), {b.id, c_splat(t, 0, 0)});
        const uint32_t safe = b_.op(Op::OpSelect, vt, {zero, c_splat(t, 0, 1), b.id});
        // MOD.S: NVIDIA computes the remainder of the operands' unsigned bit patterns (the reference corpus,
        // int_bits, shows it for negative dividends), and GLSL leaves % of negative operands undefined.
        Op op = inst.op == AsmOp::DIV ? (sg ? Op::OpSDiv : Op::OpUDiv) : Op::OpUMod;
        uint32_t q;
        if (op == Op::OpUMod && sg) {
          const DataType ut = is_64(t) ? DataType::U64 : DataType::U32;
          const uint32_t ua = b_.op(Op::OpBitcast, vec_type(ut), {a.id}),
                         ub = b_.op(Op::OpBitcast, vec_type(ut), {safe});
          q = b_.op(Op::OpBitcast, vt, {b_.op(Op::OpUMod, vec_type(ut), {ua, ub})});
        } else {
          q = b_.op(op, vt, {a.id, safe});
        }
        const uint32_t on_zero = inst.op == AsmOp::DIV ? c_splat(t, 0, -1) : a.id;
        r = {b_.op(Op::OpSelect, vt, {zero, on_zero, q}), t};
      }
      break;
    }
    default: break;
  }
  return true;
}

// The set-on instructions, SSG and CMP.
bool Codegen::comparison(const Instruction& inst, uint32_t vt, Val& r) {
  const DataType t = inst.type;
  const bool fl = is_float(t);
  const bool sg = is_signed(t);
  auto src = [&](size_t i, DataType as) { return load_operand(inst.sources[i], as); };
  switch (inst.op) {
    case AsmOp::SEQ: case AsmOp::SNE: case AsmOp::SLT: case AsmOp::SLE: case AsmOp::SGT: case AsmOp::SGE: {
      const Val a = src(0, t), b = src(1, t);
      Op op;
      switch (inst.op) {
        case AsmOp::SEQ: op = fl ? Op::OpFOrdEqual : Op::OpIEqual; break;
        case AsmOp::SNE: op = fl ? Op::OpFUnordNotEqual : Op::OpINotEqual; break;
        case AsmOp::SLT: op = fl ? Op::OpFOrdLessThan : (sg ? Op::OpSLessThan : Op::OpULessThan); break;
        case AsmOp::SLE: op = fl ? Op::OpFOrdLessThanEqual : (sg ? Op::OpSLessThanEqual : Op::OpULessThanEqual); break;
        case AsmOp::SGT: op = fl ? Op::OpFOrdGreaterThan : (sg ? Op::OpSGreaterThan : Op::OpUGreaterThan); break;
        default: op = fl ? Op::OpFOrdGreaterThanEqual : (sg ? Op::OpSGreaterThanEqual : Op::OpUGreaterThanEqual); break;
      }
      r = bool_result(b_.op(op, t_bvec4(), {a.id, b.id}), t);
      break;
    }
    case AsmOp::SFL: r = bool_result(c_bvec4(0), t); break;
    case AsmOp::STR: r = bool_result(c_bvec4(0xF), t); break;
    case AsmOp::SSG: {
      const Val a = src(0, t);
      if (fl) {
        r = {ext(GLSLstd450FSign, vt, {a.id}), t};
      } else if (sg) {
        r = {ext(GLSLstd450SSign, vt, {a.id}), t};
      } else {
        const uint32_t nonzero = b_.op(Op::OpINotEqual, t_bvec4(), {a.id, c_splat(t, 0, 0)});
        r = {b_.op(Op::OpSelect, vt, {nonzero, c_splat(t, 0, 1), c_splat(t, 0, 0)}), t};
      }
      break;
    }
    case AsmOp::CMP: {
      const Val a = src(0, t), b = src(1, t), c = src(2, t);
      const uint32_t neg =
          fl ? b_.op(Op::OpFOrdLessThan, t_bvec4(), {a.id, c_splat(t, 0.0, 0)})
             : b_.op(Op::OpSLessThan, t_bvec4(),
                     {convert_bits_signed(a), c_splat(is_64(t) ? DataType::S64 : DataType::S32, 0, 0)});
      r = {b_.op(Op::OpSelect, vt, {neg, b.id, c.id}), t};
      break;
    }
    default: break;
  }
  return true;
}

bool Codegen::logic(const Instruction& inst, uint32_t vt, Val& r) {
  const DataType t = inst.type;
  const bool sg = is_signed(t);
  auto src = [&](size_t i, DataType as) { return load_operand(inst.sources[i], as); };
  switch (inst.op) {
    case AsmOp::AND: r = binary(inst, vt, Op::OpBitwiseAnd, Op::OpBitwiseAnd, Op::OpBitwiseAnd); break;
    case AsmOp::OR: r = binary(inst, vt, Op::OpBitwiseOr, Op::OpBitwiseOr, Op::OpBitwiseOr); break;
    case AsmOp::XOR: r = binary(inst, vt, Op::OpBitwiseXor, Op::OpBitwiseXor, Op::OpBitwiseXor); break;
    case AsmOp::NOT: r = {b_.op(Op::OpNot, vt, {src(0, t).id}), t}; break;
    case AsmOp::SHL:
    case AsmOp::SHR: {
      const Val a = src(0, t);
      const Val n = src(1, DataType::U32);
      const Op op = inst.op == AsmOp::SHL ? Op::OpShiftLeftLogical
                                           : (sg ? Op::OpShiftRightArithmetic : Op::OpShiftRightLogical);
      r = {shift(op, t, a.id, n.id), t};
      break;
    }
    default: break;
  }
  return true;
}

// Bit fields (BFE BFI) and bit counts (BFR BTC BTFL BTFM), on 32-bit types.
bool Codegen::bit_instruction(const Instruction& inst, uint32_t vt, Val& r) {
  const DataType t = inst.type;
  const bool sg = is_signed(t);
  auto src = [&](size_t i, DataType as) { return load_operand(inst.sources[i], as); };
  switch (inst.op) {
    case AsmOp::BFE:
    case AsmOp::BFI: {
      if (is_64(t)) return fail(inst, "bitfield instructions are supported on 32-bit types only");
      // Operand 0 holds the field: .x width, .y offset (NV_gpu_program5 BFE/BFI).
      const Val field = src(0, DataType::U32);
      const uint32_t width = clamp_field(splat(field, 0).id);
      const uint32_t offset = clamp_field(splat(field, 1).id);
      // Keep offset + width within 32 bits (SPIR-V leaves larger fields undefined).
      const uint32_t room = b_.op(Op::OpISub, t_uvec4(), {c_uvec4(32, 32, 32, 32), offset});
      const uint32_t count = ext(GLSLstd450UMin, t_uvec4(), {width, room});
      const uint32_t off = ext(GLSLstd450UMin, t_uvec4(), {offset, c_uvec4(31, 31, 31, 31)});
      const uint32_t cnt = b_.op(
          Op::OpSelect, t_uvec4(),
          {b_.op(Op::OpUGreaterThanEqual, t_bvec4(), {offset, c_uvec4(32, 32, 32, 32)}), c_uvec4(0, 0, 0, 0), count});
      // SPIR-V bit-field ops take scalar offset/count with vector base: do it per component.
      const Val v = src(1, t);
      std::vector<uint32_t> parts;
      const Val base = inst.op == AsmOp::BFI ? src(2, t) : Val{};
      for (uint32_t c = 0; c < 4; ++c) {
        const uint32_t o = b_.op(Op::OpCompositeExtract, t_u32(), {off, c});
        const uint32_t n = b_.op(Op::OpCompositeExtract, t_u32(), {cnt, c});
        const uint32_t x = component(v, c);
        if (inst.op == AsmOp::BFE) {
          parts.push_back(b_.op(sg ? Op::OpBitFieldSExtract : Op::OpBitFieldUExtract, scalar_type(t), {x, o, n}));
        } else {
          parts.push_back(b_.op(Op::OpBitFieldInsert, scalar_type(t), {component(base, c), x, o, n}));
        }
      }
      r = {b_.op(Op::OpCompositeConstruct, vt, parts), t};
      break;
    }
    case AsmOp::BFR:
    case AsmOp::BTC:
    case AsmOp::BTFL:
    case AsmOp::BTFM: {
      if (is_64(t)) return fail(inst, "bit-count instructions are supported on 32-bit types only");
      const Val a = src(0, t);
      uint32_t x;
      if (inst.op == AsmOp::BFR) x = b_.op(Op::OpBitReverse, vt, {a.id});
      else if (inst.op == AsmOp::BTC) x = b_.op(Op::OpBitCount, vt, {a.id});
      else if (inst.op == AsmOp::BTFL) x = ext(GLSLstd450FindILsb, vt, {a.id});
      else x = ext(sg ? GLSLstd450FindSMsb : GLSLstd450FindUMsb, vt, {a.id});
      r = {x, t};
      break;
    }
    default: break;
  }
  return true;
}

bool Codegen::rounding(const Instruction& inst, Val& r) {
  const DataType t = inst.type;
  const bool fl = is_float(t);
  auto src = [&](size_t i, DataType as) { return load_operand(inst.sources[i], as); };
  auto unary_ext = [&](GLSLstd450 which, DataType as) {
    const Val a = src(0, as);
    return Val{ext(which, vec_type(as), {a.id}), as};
  };
  switch (inst.op) {
    case AsmOp::FLR: case AsmOp::CEIL: case AsmOp::TRUNC: case AsmOp::ROUND: {
      // The operand is floating-point; .S / .U convert the rounded value to an integer result.
      const DataType ft =
          t == DataType::F64 || t == DataType::S64 || t == DataType::U64 ? DataType::F64 : DataType::F32;
      const GLSLstd450 which = inst.op == AsmOp::FLR ? GLSLstd450Floor
                               : inst.op == AsmOp::CEIL ? GLSLstd450Ceil
                               : inst.op == AsmOp::TRUNC ? GLSLstd450Trunc : GLSLstd450RoundEven;
      r = unary_ext(which, ft);
      if (!fl) r = convert(r, t);
      break;
    }
    case AsmOp::FRC: r = unary_ext(GLSLstd450Fract, t); break;
    default: break;
  }
  return true;
}

// RCP RSQ and the GLSL.std.450 functions EX2 LG2 SIN COS POW.
bool Codegen::transcendental(const Instruction& inst, uint32_t vt, Val& r) {
  const DataType t = inst.type;
  auto src = [&](size_t i, DataType as) { return load_operand(inst.sources[i], as); };
  // 64-bit floats: GLSL.std.450's transcendental functions take 32-bit floats only.
  auto through_f32 = [&](GLSLstd450 which, std::initializer_list<Val> args) {
    std::vector<uint32_t> ops = {glsl_, static_cast<uint32_t>(which)};
    for (Val a : args) ops.push_back(t == DataType::F64 ? convert(a, DataType::F32).id : a.id);
    Val result{b_.op(Op::OpExtInst, vec_type(DataType::F32), ops), DataType::F32};
    return t == DataType::F64 ? convert(result, DataType::F64) : result;
  };
  switch (inst.op) {
    case AsmOp::RCP: {
      const Val a = src(0, t);
      r = {b_.op(Op::OpFDiv, vt, {c_splat(t, 1.0, 0), a.id}), t};
      break;
    }
    case AsmOp::RCC: {
      // NV_gpu_program4 RCC: the reciprocal with its magnitude clamped to [2^-64, 2^+64], the sign kept (the
      // pseudo-code's bounds 1.884467e+19 and 5.42101e-20 are 2^64 and 2^-64 rounded); NaN stays NaN.
      const Val a = src(0, t);
      const uint32_t rcp = b_.op(Op::OpFDiv, vt, {c_splat(t, 1.0, 0), a.id});
      const uint32_t mag = ext(GLSLstd450FClamp, vt, {ext(GLSLstd450FAbs, vt, {rcp}), c_splat(t, 0x1p-64, 0),
                                                      c_splat(t, 0x1p64, 0)});
      // Positive when 1/x is (x = +0 gives +inf, -0 gives -inf).
      const uint32_t negative = b_.op(Op::OpFOrdLessThan, t_bvec4(), {rcp, c_splat(t, 0.0, 0)});
      const uint32_t signed_mag = b_.op(Op::OpSelect, vt, {negative, b_.op(Op::OpFNegate, vt, {mag}), mag});
      r = {b_.op(Op::OpSelect, vt, {b_.op(Op::OpIsNan, t_bvec4(), {rcp}), rcp, signed_mag}), t};
      break;
    }
    case AsmOp::RSQ: {
      // ARB_vertex_program RSQ: 1 / sqrt(|x|).
      const Val a = src(0, t);
      r = {ext(GLSLstd450InverseSqrt, vt, {ext(GLSLstd450FAbs, vt, {a.id})}), t};
      break;
    }
    case AsmOp::EX2: r = through_f32(GLSLstd450Exp2, {src(0, t)}); break;
    case AsmOp::LG2: r = through_f32(GLSLstd450Log2, {src(0, t)}); break;
    case AsmOp::SIN: r = through_f32(GLSLstd450Sin, {src(0, t)}); break;
    case AsmOp::COS: r = through_f32(GLSLstd450Cos, {src(0, t)}); break;
    case AsmOp::POW: r = through_f32(GLSLstd450Pow, {src(0, t), src(1, t)}); break;
    default: break;
  }
  return true;
}

bool Codegen::dot_product(const Instruction& inst, Val& r) {
  const DataType t = inst.type;
  auto src = [&](size_t i, DataType as) { return load_operand(inst.sources[i], as); };
  switch (inst.op) {
    case AsmOp::DP2: case AsmOp::DP3: case AsmOp::DP4: {
      const uint32_t n = inst.op == AsmOp::DP2 ? 2 : inst.op == AsmOp::DP3 ? 3 : 4;
      const Val a = src(0, t), b = src(1, t);
      uint32_t sum = 0;
      for (uint32_t c = 0; c < n; ++c) {
        const uint32_t prod = b_.op(Op::OpFMul, scalar_type(t), {component(a, c), component(b, c)});
        sum = sum ? b_.op(Op::OpFAdd, scalar_type(t), {sum, prod}) : prod;
      }
      r = splat_scalar(sum, t);
      break;
    }
    default: break;
  }
  return true;
}

// I2F, CVT, and PK64 / UP64 (two 32-bit words <-> one 64-bit component).
bool Codegen::conversion(const Instruction& inst, Val& r) {
  const DataType t = inst.type;
  const bool sg = is_signed(t);
  auto src = [&](size_t i, DataType as) { return load_operand(inst.sources[i], as); };
  switch (inst.op) {
    case AsmOp::I2F: r = convert(src(0, t), DataType::F32); break;
    case AsmOp::CVT: return cvt(inst, r);
    case AsmOp::PK64: {
      // Two 32-bit words per 64-bit component: result.x = (op.y << 32) | op.x, result.y from op.zw.
      const Val a = src(0, DataType::U32);
      const DataType wt = is_float(t) ? DataType::F64 : (sg ? DataType::S64 : DataType::U64);
      const uint32_t v2t = t_vec(t_u32(), 2);
      const uint32_t lo = b_.op(Op::OpVectorShuffle, v2t, {a.id, a.id, 0, 1});
      const uint32_t hi = b_.op(Op::OpVectorShuffle, v2t, {a.id, a.id, 2, 3});
      const uint32_t x = b_.op(Op::OpBitcast, scalar_type(wt), {lo});
      const uint32_t y = b_.op(Op::OpBitcast, scalar_type(wt), {hi});
      r = {b_.op(Op::OpCompositeConstruct, vec_type(wt), {x, y, x, y}), wt};
      break;
    }
    case AsmOp::UP64: {
      const DataType wt = is_float(t) ? DataType::F64 : (sg ? DataType::S64 : DataType::U64);
      const Val a = src(0, wt);
      const uint32_t v2t = t_vec(t_u32(), 2);
      const uint32_t x = b_.op(Op::OpBitcast, v2t, {component(a, 0)});
      const uint32_t y = b_.op(Op::OpBitcast, v2t, {component(a, 1)});
      r = {b_.op(Op::OpVectorShuffle, t_uvec4(), {x, y, 0, 1, 2, 3}), DataType::U32};
      break;
    }
    default: break;
  }
  return true;
}

// OF and CF of an integer ADD or SUB (NV_gpu_program4: "overflow" and "carry" flags). CF is the carry out of
// an addition and "no borrow" (a >= b unsigned) for a subtraction, as the AB / BLE tests expect.
uint32_t Codegen::add_sub_flags(AsmOp op, Val a, Val b, Val r) {
  return op == AsmOp::ADD ? addition_flags(a, b, r) : subtraction_flags(a, b, r);
}

// The OF and CF bits of r = a + b on integers (any width, signed or not: the bits decide): OF when a and b have
// the same sign and r does not (signed overflow), CF when the unsigned sum wraps (r < a). Every instruction whose
// last step is an integer addition (ADD, MAD, SAD) sets its flags with this.
uint32_t Codegen::addition_flags(Val a, Val b, Val r) {
  const DataType ut = is_64(a.type) ? DataType::U64 : DataType::U32;
  const uint32_t uv = vec_type(ut);
  auto u = [&](Val x) { return x.type == ut ? x.id : b_.op(Op::OpBitcast, uv, {x.id}); };
  const uint32_t ua = u(a), ub = u(b), ur = u(r);
  // Sign bit of (a ^ r) & (b ^ r): r's sign differs from both operands'.
  const uint32_t x1 = b_.op(Op::OpBitwiseXor, uv, {ua, ur});
  const uint32_t x2 = b_.op(Op::OpBitwiseXor, uv, {ub, ur});
  const uint32_t of = sign_set(b_.op(Op::OpBitwiseAnd, uv, {x1, x2}), a.type);
  const uint32_t cf = b_.op(Op::OpULessThan, t_bvec4(), {ur, ua});
  return overflow_carry_bits(of, cf);
}

// r = a - b: OF when a and b differ in sign and r's sign differs from a's; CF when no borrow (a >= b unsigned).
uint32_t Codegen::subtraction_flags(Val a, Val b, Val r) {
  const DataType ut = is_64(a.type) ? DataType::U64 : DataType::U32;
  const uint32_t uv = vec_type(ut);
  auto u = [&](Val x) { return x.type == ut ? x.id : b_.op(Op::OpBitcast, uv, {x.id}); };
  const uint32_t ua = u(a), ub = u(b), ur = u(r);
  const uint32_t x1 = b_.op(Op::OpBitwiseXor, uv, {ua, ur});
  const uint32_t x2 = b_.op(Op::OpBitwiseXor, uv, {ua, ub});
  const uint32_t of = sign_set(b_.op(Op::OpBitwiseAnd, uv, {x1, x2}), a.type);
  const uint32_t cf = b_.op(Op::OpUGreaterThanEqual, t_bvec4(), {ua, ub});
  return overflow_carry_bits(of, cf);
}

// The sign bit of each component of `bits` (unsigned words of `like`'s width) as a bvec4.
uint32_t Codegen::sign_set(uint32_t bits, DataType like) {
  const DataType st = is_64(like) ? DataType::S64 : DataType::S32;
  return b_.op(Op::OpSLessThan, t_bvec4(), {b_.op(Op::OpBitcast, vec_type(st), {bits}), c_splat(st, 0, 0)});
}

uint32_t Codegen::overflow_carry_bits(uint32_t of, uint32_t cf) {
  const uint32_t o =
      b_.op(Op::OpSelect, t_uvec4(), {of, c_uvec4(kFlagOF, kFlagOF, kFlagOF, kFlagOF), c_uvec4(0, 0, 0, 0)});
  const uint32_t c =
      b_.op(Op::OpSelect, t_uvec4(), {cf, c_uvec4(kFlagCF, kFlagCF, kFlagCF, kFlagCF), c_uvec4(0, 0, 0, 0)});
  return b_.op(Op::OpBitwiseOr, t_uvec4(), {o, c});
}

// Shift with NVIDIA's semantics for counts of the width or more (no undefined SPIR-V shifts).
uint32_t Codegen::shift(Op op, DataType t, uint32_t value, uint32_t count_u32) {
  const uint32_t width = is_64(t) ? 64 : 32;
  const uint32_t vt = vec_type(t);
  const uint32_t count = is_64(t) ? b_.op(Op::OpUConvert, vec_type(DataType::U64), {count_u32}) : count_u32;
  const DataType ct = is_64(t) ? DataType::U64 : DataType::U32;
  const uint32_t big = b_.op(Op::OpUGreaterThanEqual, t_bvec4(), {count, c_splat(ct, 0, width)});
  const uint32_t safe = b_.op(Op::OpSelect, vec_type(ct), {big, c_splat(ct, 0, 0), count});
  const uint32_t shifted = b_.op(op, vt, {value, safe});
  uint32_t fill = c_splat(t, 0, 0);
  if (op == Op::OpShiftRightArithmetic) fill = b_.op(op, vt, {value, c_splat(ct, 0, width - 1)});
  return b_.op(Op::OpSelect, vt, {big, fill, shifted});
}

uint32_t Codegen::clamp_field(uint32_t v) { return ext(GLSLstd450UMin, t_uvec4(), {v, c_uvec4(32, 32, 32, 32)}); }

uint32_t Codegen::convert_bits_signed(Val v) {
  const DataType st = is_64(v.type) ? DataType::S64 : DataType::S32;
  return v.type == st ? v.id : b_.op(Op::OpBitcast, vec_type(st), {v.id});
}

}  // namespace bismuth::nvasm::detail
