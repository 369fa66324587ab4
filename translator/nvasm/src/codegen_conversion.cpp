// CVT (NV_gpu_program5, "Section 2.X.8.Z, CVT: Data Type Conversion"): every pair of F16 F32 F64 S8 S16 S32 S64
// U8 U16 U32 U64, with the rounding modifiers ROUND (the default) TRUNC FLR CEIL and SAT.
//
// The rules this file implements, in the spec's words:
//  - "F16" is "a floating-point type, but whose sixteen least significant bits describe a 16-bit floating-point
//    value"; S8 / S16 / U8 / U16 operands are the low bits of the register component, sign- or zero-extended,
//    and such results are written extended to the register's 32 bits.
//  - float to integer: "one of the two integers closest in value ... chosen according to the rounding
//    instruction modifier ... "ROUND" is used if no rounding modifier is specified."
//  - "Floating-point values not exactly representable in the destination data are rounded to one of the two
//    nearest values in the destination type according to the rounding modifier." SPIR-V converts to the nearest
//    (even) value; a directed mode then steps the result one unit in the last place when the value converted back
//    lies on the wrong side of the exact one.
//  - "Integer values are clamped to the closest value representable in the result data type if the "SAT"
//    (saturation) modifier is specified" and "drop the most significant bits if the "SAT" modifier is not
//    specified" (float operands: the rounded value modulo 2^32 for results of 32 bits or fewer).
//  - infinities and NaN converted to integers are undefined; they give 0 here.
#include <cstdint>

#include "codegen.hpp"

namespace bismuth::nvasm::detail {
namespace {

using Rounding = Instruction::Rounding;

}  // namespace

// f32 components -> the IEEE half bits of each (nearest even), in the low 16 bits of a uvec4.
uint32_t Codegen::half_bits(uint32_t f32vec) {
  const uint32_t v2 = t_vec(t_float(32), 2);
  const uint32_t zero = c_scalar(DataType::F32, 0.0, 0, true);
  std::vector<uint32_t> parts;
  for (uint32_t c = 0; c < 4; ++c) {
    const uint32_t x = b_.op(Op::OpCompositeExtract, t_float(32), {f32vec, c});
    const uint32_t pair = b_.op(Op::OpCompositeConstruct, v2, {x, zero});
    parts.push_back(ext(GLSLstd450PackHalf2x16, t_u32(), {pair}));
  }
  return b_.op(Op::OpCompositeConstruct, t_uvec4(), parts);
}

// The low 16 bits of each component as an IEEE half -> f32 components.
uint32_t Codegen::from_half_bits(uint32_t u32vec) {
  std::vector<uint32_t> parts;
  for (uint32_t c = 0; c < 4; ++c) {
    const uint32_t w = b_.op(Op::OpCompositeExtract, t_u32(), {u32vec, c});
    parts.push_back(half_to_float(b_.op(Op::OpBitwiseAnd, t_u32(), {w, c_u32(0xFFFF)})));
  }
  return b_.op(Op::OpCompositeConstruct, vec_type(DataType::F32), parts);
}

// An IEEE half in the low 16 bits of `half` (the rest zero) -> f32, decoded with integer operations rather than
// UnpackHalf2x16: NVIDIA's compiler (580, H200) folds UnpackHalf2x16(PackHalf2x16(x)) to x, so CVT.F16.F32 followed
// by CVT.F32.F16 returned 0.1 instead of half(0.1) = 0.0999756; lavapipe folded a constant pack/unpack pair wrongly
// too. Every half is exact in f32: normal numbers rebias the exponent (15 -> 127), subnormals are mantissa * 2^-24,
// infinities and NaNs keep their payload.
uint32_t Codegen::half_to_float(uint32_t half) {
  const uint32_t u = t_u32(), f32 = t_float(32), bl = t_bool();
  const uint32_t sign =
      b_.op(Op::OpShiftLeftLogical, u, {b_.op(Op::OpBitwiseAnd, u, {half, c_u32(0x8000)}), c_u32(16)});
  const uint32_t exponent =
      b_.op(Op::OpBitwiseAnd, u, {b_.op(Op::OpShiftRightLogical, u, {half, c_u32(10)}), c_u32(0x1F)});
  const uint32_t mantissa = b_.op(Op::OpBitwiseAnd, u, {half, c_u32(0x3FF)});
  const uint32_t shifted_mantissa = b_.op(Op::OpShiftLeftLogical, u, {mantissa, c_u32(13)});
  const uint32_t normal = b_.op(
      Op::OpBitwiseOr, u,
      {b_.op(Op::OpShiftLeftLogical, u, {b_.op(Op::OpIAdd, u, {exponent, c_u32(112)}), c_u32(23)}), shifted_mantissa});
  const uint32_t special = b_.op(Op::OpBitwiseOr, u, {c_u32(0x7F800000), shifted_mantissa});
  const uint32_t small_magnitude =
      b_.op(Op::OpFMul, f32, {b_.op(Op::OpConvertUToF, f32, {mantissa}), c_scalar(DataType::F32, 0x1p-24, 0, true)});
  const uint32_t small = b_.op(Op::OpBitcast, u, {small_magnitude});
  const uint32_t is_zero_or_subnormal = b_.op(Op::OpIEqual, bl, {exponent, c_u32(0)});
  const uint32_t is_special = b_.op(Op::OpIEqual, bl, {exponent, c_u32(31)});
  const uint32_t magnitude =
      b_.op(Op::OpSelect, u, {is_zero_or_subnormal, small, b_.op(Op::OpSelect, u, {is_special, special, normal})});
  return b_.op(Op::OpBitcast, f32, {b_.op(Op::OpBitwiseOr, u, {sign, magnitude})});
}

// f32 components to halves in the low 16 bits (CVT.F16.*): clamped to [0, 1] with .SAT, then rounded to nearest
// and stepped by the directed rounding `mode`, comparing the half converted back with the f32 value.
Val Codegen::rounded_half(uint32_t f32vec, bool sat, Instruction::Rounding mode) {
  if (sat) {
    f32vec = ext(GLSLstd450FClamp, vec_type(DataType::F32),
                 {f32vec, c_splat(DataType::F32, 0.0, 0), c_splat(DataType::F32, 1.0, 0)});
  }
  const uint32_t h = half_bits(f32vec);
  const uint32_t back = from_half_bits(h);
  const uint32_t greater = b_.op(Op::OpFOrdGreaterThan, t_bvec4(), {back, f32vec});
  const uint32_t less = b_.op(Op::OpFOrdLessThan, t_bvec4(), {back, f32vec});
  return {directed(h, greater, less, mode, true), DataType::U32};
}

// Directed rounding of a float converted to nearest: `bits` are the result's bits (f32, or a half in the low 16
// bits), `greater` / `less` say where the converted value lies against the exact one. FLR steps down where it is
// greater, CEIL up where it is less, TRUNC toward zero.
uint32_t Codegen::directed(uint32_t bits, uint32_t greater, uint32_t less, Instruction::Rounding mode, bool half) {
  if (mode == Rounding::None || mode == Rounding::Round) return bits;
  const uint32_t sign_bit = half ? 0x8000u : 0x80000000u;
  auto splat_u = [&](uint32_t v) { return c_uvec4(v, v, v, v); };
  const uint32_t magnitude = b_.op(Op::OpBitwiseAnd, t_uvec4(), {bits, splat_u(sign_bit - 1)});
  const uint32_t zero = b_.op(Op::OpIEqual, t_bvec4(), {magnitude, splat_u(0)});
  const uint32_t negative =
      b_.op(Op::OpINotEqual, t_bvec4(), {b_.op(Op::OpBitwiseAnd, t_uvec4(), {bits, splat_u(sign_bit)}), splat_u(0)});
  const uint32_t plus = b_.op(Op::OpIAdd, t_uvec4(), {bits, splat_u(1)});
  const uint32_t minus = b_.op(Op::OpISub, t_uvec4(), {bits, splat_u(1)});
  // One unit toward -inf: the smallest negative denormal from a zero, a smaller magnitude from a positive value.
  const uint32_t down = b_.op(Op::OpSelect, t_uvec4(),
                              {zero, splat_u(sign_bit | 1), b_.op(Op::OpSelect, t_uvec4(), {negative, plus, minus})});
  const uint32_t up =
      b_.op(Op::OpSelect, t_uvec4(), {zero, splat_u(1), b_.op(Op::OpSelect, t_uvec4(), {negative, minus, plus})});
  uint32_t step_down = 0, step_up = 0;
  switch (mode) {
    case Rounding::Floor: step_down = greater; break;
    case Rounding::Ceil: step_up = less; break;
    default: {  // TRUNC: toward zero
      const uint32_t positive = b_.op(Op::OpLogicalNot, t_bvec4(), {negative});
      step_down = b_.op(Op::OpLogicalAnd, t_bvec4(), {greater, positive});
      step_up = b_.op(Op::OpLogicalAnd, t_bvec4(), {less, negative});
      break;
    }
  }
  uint32_t r = bits;
  if (step_down) r = b_.op(Op::OpSelect, t_uvec4(), {step_down, down, r});
  if (step_up) r = b_.op(Op::OpSelect, t_uvec4(), {step_up, up, r});
  return r;
}

// A float value rounded to an integral value by the rounding modifier (ROUND: nearest even).
Val Codegen::round_integral(Val v, Instruction::Rounding mode) {
  const GLSLstd450 which = mode == Rounding::Trunc   ? GLSLstd450Trunc
                           : mode == Rounding::Floor ? GLSLstd450Floor
                           : mode == Rounding::Ceil  ? GLSLstd450Ceil
                                                     : GLSLstd450RoundEven;
  return {ext(which, vec_type(v.type), {v.id}), v.type};
}

bool Codegen::cvt(const Instruction& inst, Val& r) {
  const DataType st = inst.src_type, dt = inst.type;
  const uint8_t sbits = inst.src_bits, dbits = inst.dst_bits;
  const Rounding mode = inst.rounding;
  Val v = load_operand(inst.sources[0], st);
  // The operand: F16 from the low 16 bits, S8/S16/U8/U16 from the low bits, extended.
  if (sbits == 16 && is_float(st)) {
    v = {from_half_bits(b_.op(Op::OpBitcast, t_uvec4(), {v.id})), DataType::F32};
  } else if (sbits) {
    v = {b_.op(is_signed(st) ? Op::OpBitFieldSExtract : Op::OpBitFieldUExtract, vec_type(st),
               {v.id, c_u32(0), c_u32(sbits)}),
         st};
  }
  const bool sat = inst.saturate;
  // The integer range of the result type, for SAT.
  const bool dsigned = is_signed(dt);
  const uint32_t width = dbits ? dbits : (is_64(dt) ? 64 : 32);
  const int64_t lo = !dsigned ? 0 : width == 64 ? INT64_MIN : -(int64_t(1) << (width - 1));
  const uint64_t hi =
      dsigned ? (uint64_t(1) << (width - 1)) - 1 : (width == 64 ? ~uint64_t(0) : (uint64_t(1) << width) - 1);

  if (is_float(v.type) && is_float(dt)) {
    // Float to float.
    Val f = v;
    if (v.type == DataType::F64 && (dt == DataType::F32 || dbits == 16)) {
      f = convert(v, DataType::F32);
      const uint32_t back = convert(f, DataType::F64).id;
      const uint32_t greater = b_.op(Op::OpFOrdGreaterThan, t_bvec4(), {back, v.id});
      const uint32_t less = b_.op(Op::OpFOrdLessThan, t_bvec4(), {back, v.id});
      const uint32_t bits = directed(b_.op(Op::OpBitcast, t_uvec4(), {f.id}), greater, less, mode, false);
      f = {b_.op(Op::OpBitcast, vec_type(DataType::F32), {bits}), DataType::F32};
    } else if (dbits != 16) {
      f = convert(v, dt);  // widening or the same type: exact
    }
    if (dbits == 16) {
      r = rounded_half(f.id, sat, mode);
      return true;
    }
    r = f;  // write_dest applies SAT to float results
    return true;
  }

  if (!is_float(v.type) && is_float(dt)) {
    // Integer to float: nearest first, then the directed step, comparing the result converted back with the
    // operand (exactly: a float at or past 2^31 / 2^32 is greater than every 32-bit operand).
    if (is_64(v.type) && mode != Rounding::None && mode != Rounding::Round && dt != DataType::F64) {
      return fail(inst, "CVT from a 64-bit integer supports only the ROUND rounding modifier");
    }
    if (dt == DataType::F64 && !is_64(v.type)) {
      r = convert(v, DataType::F64);  // exact
      return true;
    }
    const DataType ft = dt == DataType::F64 ? DataType::F64 : DataType::F32;
    Val f = convert(v, ft);
    if (ft == DataType::F32 && !is_64(v.type) && mode != Rounding::None && mode != Rounding::Round) {
      const bool sg = is_signed(v.type);
      const double limit = sg ? 2147483648.0 : 4294967296.0;
      const uint32_t big = b_.op(Op::OpFOrdGreaterThanEqual, t_bvec4(), {f.id, c_splat(ft, limit, 0)});
      const uint32_t safe = b_.op(Op::OpSelect, vec_type(ft), {big, c_splat(ft, 0.0, 0), f.id});
      const uint32_t back = b_.op(sg ? Op::OpConvertFToS : Op::OpConvertFToU, vec_type(v.type), {safe});
      const uint32_t gt = b_.op(sg ? Op::OpSGreaterThan : Op::OpUGreaterThan, t_bvec4(), {back, v.id});
      const uint32_t lt = b_.op(sg ? Op::OpSLessThan : Op::OpULessThan, t_bvec4(), {back, v.id});
      const uint32_t greater = b_.op(Op::OpLogicalOr, t_bvec4(), {big, gt});
      const uint32_t less = b_.op(Op::OpLogicalAnd, t_bvec4(), {b_.op(Op::OpLogicalNot, t_bvec4(), {big}), lt});
      const uint32_t bits = directed(b_.op(Op::OpBitcast, t_uvec4(), {f.id}), greater, less, mode, false);
      f = {b_.op(Op::OpBitcast, vec_type(ft), {bits}), ft};
    }
    if (dbits == 16) {
      r = rounded_half(f.id, sat, mode);
      return true;
    }
    r = f;
    return true;
  }

  if (is_float(v.type)) {
    // Float to integer: round to an integral value, then saturate or wrap.
    const DataType ft = v.type;
    const Val rv = round_integral(v, mode);
    const uint32_t vft = vec_type(ft);
    const uint32_t nan = b_.op(Op::OpIsNan, t_bvec4(), {rv.id});
    const uint32_t inf = b_.op(Op::OpIsInf, t_bvec4(), {rv.id});
    const uint32_t special = b_.op(Op::OpLogicalOr, t_bvec4(), {nan, inf});
    if (is_64(dt)) {
      r = convert(rv, dt);  // clamps to the 64-bit range; NaN gives 0
      return true;
    }
    const DataType wt = dsigned ? DataType::S32 : DataType::U32;
    if (sat) {
      // Clamp in the float type: the bounds of 8- and 16-bit types are exact; for 32-bit types the values at
      // or past the bound take the bound itself (2^31 - 1 and 2^32 - 1 are not floats).
      const double flo = double(lo), fhi_exclusive = double(hi) + 1.0;
      const uint32_t above = b_.op(Op::OpFOrdGreaterThanEqual, t_bvec4(), {rv.id, c_splat(ft, fhi_exclusive, 0)});
      const uint32_t below = b_.op(Op::OpFOrdLessThan, t_bvec4(), {rv.id, c_splat(ft, flo, 0)});
      const uint32_t out = b_.op(Op::OpLogicalOr, t_bvec4(), {b_.op(Op::OpLogicalOr, t_bvec4(), {above, below}), nan});
      const uint32_t safe = b_.op(Op::OpSelect, vft, {out, c_splat(ft, 0.0, 0), rv.id});
      uint32_t x = b_.op(dsigned ? Op::OpConvertFToS : Op::OpConvertFToU, vec_type(wt), {safe});
      x = b_.op(Op::OpSelect, vec_type(wt), {above, c_splat(wt, 0, int64_t(hi)), x});
      x = b_.op(Op::OpSelect, vec_type(wt), {below, c_splat(wt, 0, lo), x});
      x = b_.op(Op::OpSelect, vec_type(wt), {nan, c_splat(wt, 0, 0), x});
      r = {x, wt};  // wt is dt: S32 or U32 (the sized types are held in them)
      return true;
    }
    // Wrap: |value| < 2^31 converts directly; larger values take the value modulo 2^32, which is exact in the
    // float type (v - 2^32 * floor(v * 2^-32): scaling by powers of two, floor and a subtraction whose result is
    // representable are all exact).
    const uint32_t mag = ext(GLSLstd450FAbs, vft, {rv.id});
    const uint32_t small = b_.op(Op::OpFOrdLessThan, t_bvec4(), {mag, c_splat(ft, 2147483648.0, 0)});
    const uint32_t direct = b_.op(Op::OpBitcast, t_uvec4(),
                                  {b_.op(Op::OpConvertFToS, vec_type(DataType::S32),
                                         {b_.op(Op::OpSelect, vft, {small, rv.id, c_splat(ft, 0.0, 0)})})});
    const uint32_t scaled = b_.op(Op::OpFMul, vft, {rv.id, c_splat(ft, 1.0 / 4294967296.0, 0)});
    const uint32_t whole = b_.op(Op::OpFMul, vft, {ext(GLSLstd450Floor, vft, {scaled}), c_splat(ft, 4294967296.0, 0)});
    const uint32_t mod = b_.op(Op::OpFSub, vft, {rv.id, whole});
    const uint32_t use_direct = b_.op(Op::OpLogicalOr, t_bvec4(), {small, special});
    const uint32_t wrapped =
        b_.op(Op::OpConvertFToU, t_uvec4(), {b_.op(Op::OpSelect, vft, {use_direct, c_splat(ft, 0.0, 0), mod})});
    uint32_t x = b_.op(Op::OpSelect, t_uvec4(), {small, direct, wrapped});
    x = b_.op(Op::OpSelect, t_uvec4(), {special, c_uvec4(0, 0, 0, 0), x});
    if (dbits) {
      x = b_.op(dsigned ? Op::OpBitFieldSExtract : Op::OpBitFieldUExtract, t_uvec4(), {x, c_u32(0), c_u32(dbits)});
    }
    r = dt == DataType::U32 ? Val{x, dt} : Val{b_.op(Op::OpBitcast, vec_type(dt), {x}), dt};
    return true;
  }

  // Integer to integer.
  if (!sat) {
    Val x = convert(v, dt);  // sign / zero extension, or dropping the high bits
    if (dbits) {
      x.id = b_.op(dsigned ? Op::OpBitFieldSExtract : Op::OpBitFieldUExtract, vec_type(dt),
                   {x.id, c_u32(0), c_u32(dbits)});
    }
    r = x;
    return true;
  }
  // SAT: clamp in the wider of the two widths, in the operand's signedness, then convert (now exact).
  const bool wide = is_64(v.type) || is_64(dt);
  const bool ssigned = is_signed(v.type);
  const DataType ct = wide ? (ssigned ? DataType::S64 : DataType::U64) : (ssigned ? DataType::S32 : DataType::U32);
  Val x = convert(v, ct);
  const uint32_t vct = vec_type(ct);
  if (ssigned) {
    const int64_t smax = wide ? INT64_MAX : INT32_MAX;
    x.id = ext(GLSLstd450SMax, vct, {x.id, c_splat(ct, 0, lo)});
    if (hi < uint64_t(smax)) x.id = ext(GLSLstd450SMin, vct, {x.id, c_splat(ct, 0, int64_t(hi))});
  } else {
    const uint64_t umax = wide ? ~uint64_t(0) : 0xFFFFFFFFull;
    if (hi < umax) x.id = ext(GLSLstd450UMin, vct, {x.id, c_splat(ct, 0, int64_t(hi))});
  }
  r = convert(x, dt);
  return true;
}

}  // namespace bismuth::nvasm::detail
