// NV_gpu_program4's geometric vector instructions (DP2A DPH DST LIT LRP NRM RFL SCS X2D XPD) and its packing
// instructions (PK2H PK2US PK4B PK4UB, UP2H UP2US UP4B UP4UB). Each follows the instruction's pseudo-code in
// NV_gpu_program4 section 2.X.8 (which keeps the ARB_vertex_program / NV_fragment_program definitions); components
// the pseudo-code leaves undefined get a fixed value noted below.
#include <cmath>

#include "codegen.hpp"

namespace bismuth::nvasm::detail {

bool Codegen::vector_instruction(const Instruction& inst, Val& r) {
  const DataType t = inst.type;  // F32 or F64
  const uint32_t st = scalar_type(t);
  auto src = [&](size_t i) { return load_operand(inst.sources[i], t); };
  auto c = [&](Val v, uint32_t k) { return component(v, k); };
  auto mul = [&](uint32_t a, uint32_t b) { return b_.op(Op::OpFMul, st, {a, b}); };
  auto add = [&](uint32_t a, uint32_t b) { return b_.op(Op::OpFAdd, st, {a, b}); };
  auto sub = [&](uint32_t a, uint32_t b) { return b_.op(Op::OpFSub, st, {a, b}); };
  auto k = [&](double v) { return c_scalar(t, v, 0, true); };
  auto vec = [&](uint32_t x, uint32_t y, uint32_t z, uint32_t w) {
    return Val{b_.op(Op::OpCompositeConstruct, vec_type(t), {x, y, z, w}), t};
  };
  // GLSL.std.450's transcendental functions take 32-bit floats only.
  auto f32_call = [&](GLSLstd450 which, std::initializer_list<uint32_t> args) {
    std::vector<uint32_t> ops = {glsl_, static_cast<uint32_t>(which)};
    for (uint32_t a : args) ops.push_back(t == DataType::F64 ? b_.op(Op::OpFConvert, t_float(32), {a}) : a);
    const uint32_t res = b_.op(Op::OpExtInst, t_float(32), ops);
    return t == DataType::F64 ? b_.op(Op::OpFConvert, st, {res}) : res;
  };
  switch (inst.op) {
    case AsmOp::DP2A: {
      // result = tmp0.x * tmp1.x + tmp0.y * tmp1.y + tmp2.x, replicated
      const Val a = src(0), b = src(1), d = src(2);
      r = splat_scalar(add(add(mul(c(a, 0), c(b, 0)), mul(c(a, 1), c(b, 1))), c(d, 0)), t);
      return true;
    }
    case AsmOp::DPH: {
      // result = tmp0.x * tmp1.x + tmp0.y * tmp1.y + tmp0.z * tmp1.z + tmp1.w, replicated
      const Val a = src(0), b = src(1);
      const uint32_t dp3 = add(add(mul(c(a, 0), c(b, 0)), mul(c(a, 1), c(b, 1))), mul(c(a, 2), c(b, 2)));
      r = splat_scalar(add(dp3, c(b, 3)), t);
      return true;
    }
    case AsmOp::DST: {
      // result = (1.0, tmp0.y * tmp1.y, tmp0.z, tmp1.w)
      const Val a = src(0), b = src(1);
      r = vec(k(1.0), mul(c(a, 1), c(b, 1)), c(a, 2), c(b, 3));
      return true;
    }
    case AsmOp::LIT: {
      // x, y >= 0; w clamped to +-(128 - epsilon); result = (1, x, x > 0 ? RoughApproxPower(y, w) : 0, 1).
      // 0 to a power: 1 for w == 0, 0 for w > 0, +inf for w < 0 (GLSL leaves pow(0, w <= 0) undefined).
      const Val a = src(0);
      const uint32_t x = ext(GLSLstd450FMax, st, {c(a, 0), k(0.0)});
      const uint32_t y = ext(GLSLstd450FMax, st, {c(a, 1), k(0.0)});
      const double limit = 127.99999237060547;  // the float below 128
      const uint32_t w = ext(GLSLstd450FClamp, st, {c(a, 3), k(-limit), k(limit)});
      const uint32_t pw = f32_call(GLSLstd450Pow, {y, w});
      const uint32_t y_zero = b_.op(Op::OpFOrdEqual, t_bool(), {y, k(0.0)});
      const uint32_t w_sign = ext(GLSLstd450FSign, st, {w});
      const uint32_t zero_pow = b_.op(
          Op::OpSelect, st,
          {b_.op(Op::OpFOrdEqual, t_bool(), {w_sign, k(0.0)}), k(1.0),
           b_.op(Op::OpSelect, st, {b_.op(Op::OpFOrdGreaterThan, t_bool(), {w_sign, k(0.0)}), k(0.0), k(HUGE_VAL)})});
      const uint32_t power = b_.op(Op::OpSelect, st, {y_zero, zero_pow, pw});
      const uint32_t z = b_.op(Op::OpSelect, st, {b_.op(Op::OpFOrdGreaterThan, t_bool(), {x, k(0.0)}), power, k(0.0)});
      r = vec(k(1.0), x, z, k(1.0));
      return true;
    }
    case AsmOp::LRP: {
      // result = tmp0 * tmp1 + (1 - tmp0) * tmp2
      const Val a = src(0), b = src(1), d = src(2);
      uint32_t parts[4];
      for (uint32_t i = 0; i < 4; ++i) {
        parts[i] = add(mul(c(a, i), c(b, i)), mul(sub(k(1.0), c(a, i)), c(d, i)));
      }
      r = vec(parts[0], parts[1], parts[2], parts[3]);
      return true;
    }
    case AsmOp::NRM: {
      // scale = ApproxRSQ(x*x + y*y + z*z); result.xyz = tmp.xyz * scale; w undefined (here tmp.w * scale).
      const Val a = src(0);
      const uint32_t len2 = add(add(mul(c(a, 0), c(a, 0)), mul(c(a, 1), c(a, 1))), mul(c(a, 2), c(a, 2)));
      const uint32_t scale = f32_call(GLSLstd450InverseSqrt, {len2});
      r = vec(mul(c(a, 0), scale), mul(c(a, 1), scale), mul(c(a, 2), scale), mul(c(a, 3), scale));
      return true;
    }
    case AsmOp::RFL: {
      // Reflect the direction (operand 1) about the axis (operand 0): 2 * dot3(a, d) / dot3(a, a) * a - d;
      // w undefined (here 0).
      const Val a = src(0), d = src(1);
      const uint32_t aa = add(add(mul(c(a, 0), c(a, 0)), mul(c(a, 1), c(a, 1))), mul(c(a, 2), c(a, 2)));
      const uint32_t ad = add(add(mul(c(a, 0), c(d, 0)), mul(c(a, 1), c(d, 1))), mul(c(a, 2), c(d, 2)));
      const uint32_t f = b_.op(Op::OpFDiv, st, {mul(k(2.0), ad), aa});
      r = vec(sub(mul(f, c(a, 0)), c(d, 0)), sub(mul(f, c(a, 1)), c(d, 1)), sub(mul(f, c(a, 2)), c(d, 2)), k(0.0));
      return true;
    }
    case AsmOp::SCS: {
      // result = (cos(tmp), sin(tmp), undefined, undefined): z and w are 0 here.
      const uint32_t x = c(src(0), 0);
      r = vec(f32_call(GLSLstd450Cos, {x}), f32_call(GLSLstd450Sin, {x}), k(0.0), k(0.0));
      return true;
    }
    case AsmOp::X2D: {
      // x = a.x + b.x * c.x + b.y * c.y;  y = a.y + b.x * c.z + b.y * c.w;  z = x;  w = y
      const Val a = src(0), b = src(1), d = src(2);
      const uint32_t x = add(add(c(a, 0), mul(c(b, 0), c(d, 0))), mul(c(b, 1), c(d, 1)));
      const uint32_t y = add(add(c(a, 1), mul(c(b, 0), c(d, 2))), mul(c(b, 1), c(d, 3)));
      r = vec(x, y, x, y);
      return true;
    }
    case AsmOp::XPD: {
      // The cross product of the xyz parts; w undefined (here 0).
      const Val a = src(0), b = src(1);
      r = vec(sub(mul(c(a, 1), c(b, 2)), mul(c(a, 2), c(b, 1))), sub(mul(c(a, 2), c(b, 0)), mul(c(a, 0), c(b, 2))),
              sub(mul(c(a, 0), c(b, 1)), mul(c(a, 1), c(b, 0))), k(0.0));
      return true;
    }
    case AsmOp::SWZ: {
      // result.c = (negate_c ? -1 : 1) * (selector_c is 0 or 1 ? that constant : tmp.selector_c)
      const Val a = src(0);
      uint32_t parts[4];
      for (uint32_t i = 0; i < 4; ++i) {
        const uint8_t sel = inst.ext_swizzle[i];
        uint32_t x = sel < 4 ? c(a, sel) : k(sel == 5 ? 1.0 : 0.0);
        if ((inst.ext_negate >> i) & 1) x = b_.op(Op::OpFNegate, st, {x});
        parts[i] = x;
      }
      r = vec(parts[0], parts[1], parts[2], parts[3]);
      return true;
    }
    default: return fail(inst, "instruction not supported");
  }
}

// PK*: the operand is always a float vector and the result the packed 32-bit word, replicated ("s" result,
// "vf" operand in NV_gpu_program4's opcode table). UP*: the operand's raw bits (ScalarLoad, read as .x), the
// result always a float vector.
bool Codegen::packing(const Instruction& inst, Val& r) {
  if (is_64(inst.type)) return fail(inst, "pack and unpack instructions take 32-bit data types only");
  const uint32_t f32 = t_float(32);
  const uint32_t v2 = t_vec(f32, 2), v4 = vec_type(DataType::F32);
  auto fk = [&](double v) { return c_scalar(DataType::F32, v, 0, true); };
  switch (inst.op) {
    case AsmOp::PK2H:
    case AsmOp::PK2US:
    case AsmOp::PK4B:
    case AsmOp::PK4UB: {
      const Val a = load_operand(inst.sources[0], DataType::F32);
      uint32_t word;
      if (inst.op == AsmOp::PK2H || inst.op == AsmOp::PK2US) {
        // PK2H: the halves of x (bits 0-15) and y (16-31); PK2US: round(65535 * clamp(c, 0, 1)) each.
        const uint32_t xy = b_.op(Op::OpVectorShuffle, v2, {a.id, a.id, 0, 1});
        word = ext(inst.op == AsmOp::PK2H ? GLSLstd450PackHalf2x16 : GLSLstd450PackUnorm2x16, t_u32(), {xy});
      } else if (inst.op == AsmOp::PK4UB) {
        // round(255 * clamp(c, 0, 1)), x in bits 0-7 ... w in 24-31
        word = ext(GLSLstd450PackUnorm4x8, t_u32(), {a.id});
      } else {
        // PK4B: clamp(c, -128/127, 127/127), then round(127 * c + 128): a biased byte, not two's complement.
        const uint32_t clamped = ext(GLSLstd450FClamp, v4,
                                     {a.id, c_splat(DataType::F32, -128.0 / 127.0, 0), c_splat(DataType::F32, 1.0, 0)});
        const uint32_t biased = ext(
            GLSLstd450RoundEven, v4,
            {ext(GLSLstd450Fma, v4, {clamped, c_splat(DataType::F32, 127.0, 0), c_splat(DataType::F32, 128.0, 0)})});
        const uint32_t bytes = b_.op(Op::OpConvertFToU, t_uvec4(), {biased});
        word = 0;
        for (uint32_t i = 0; i < 4; ++i) {
          const uint32_t byte = b_.op(Op::OpCompositeExtract, t_u32(), {bytes, i});
          const uint32_t shifted = i ? b_.op(Op::OpShiftLeftLogical, t_u32(), {byte, c_u32(8 * i)}) : byte;
          word = word ? b_.op(Op::OpBitwiseOr, t_u32(), {word, shifted}) : shifted;
        }
      }
      r = splat_scalar(word, DataType::U32);
      return true;
    }
    case AsmOp::UP2H:
    case AsmOp::UP2US:
    case AsmOp::UP4B:
    case AsmOp::UP4UB: {
      const Val a = load_operand(inst.sources[0], inst.type);
      const uint32_t word = b_.op(Op::OpCompositeExtract, t_u32(), {to_raw(a, false), 0});
      if (inst.op == AsmOp::UP2H || inst.op == AsmOp::UP2US) {
        // x and z from bits 0-15, y and w from bits 16-31 (halves decoded as CVT.F32.F16 does: half_to_float)
        const uint32_t xy =
            inst.op == AsmOp::UP2H
                ? b_.op(Op::OpCompositeConstruct, v2,
                        {half_to_float(b_.op(Op::OpBitwiseAnd, t_u32(), {word, c_u32(0xFFFF)})),
                         half_to_float(b_.op(Op::OpShiftRightLogical, t_u32(), {word, c_u32(16)}))})
                : ext(GLSLstd450UnpackUnorm2x16, v2, {word});
        r = {b_.op(Op::OpVectorShuffle, v4, {xy, xy, 0, 1, 0, 1}), DataType::F32};
      } else if (inst.op == AsmOp::UP4UB) {
        r = {ext(GLSLstd450UnpackUnorm4x8, v4, {word}), DataType::F32};  // byte / 255
      } else {
        // UP4B: (byte - 128) / 127
        std::vector<uint32_t> parts;
        for (uint32_t i = 0; i < 4; ++i) {
          const uint32_t byte = b_.op(Op::OpBitFieldUExtract, t_u32(), {word, c_u32(8 * i), c_u32(8)});
          const uint32_t f = b_.op(Op::OpConvertUToF, f32, {byte});
          parts.push_back(b_.op(Op::OpFDiv, f32, {b_.op(Op::OpFSub, f32, {f, fk(128.0)}), fk(127.0)}));
        }
        r = {b_.op(Op::OpCompositeConstruct, v4, parts), DataType::F32};
      }
      return true;
    }
    default: return fail(inst, "instruction not supported");
  }
}

}  // namespace bismuth::nvasm::detail
