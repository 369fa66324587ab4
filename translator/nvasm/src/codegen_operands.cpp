// Operands and results: raw register words <-> typed values, swizzles, the operand kinds (registers, parameters,
// built-ins, parameter buffer elements, literals), the masked and predicated destination write, and the condition
// codes it updates and tests.
#include <algorithm>
#include <cstring>

#include "codegen.hpp"

namespace bismuth::nvasm::detail {

// ---------------------------------------------------------------- conversions

uint32_t Codegen::ext(GLSLstd450 which, uint32_t type, std::initializer_list<uint32_t> args) {
  std::vector<uint32_t> ops = {glsl_, static_cast<uint32_t>(which)};
  ops.insert(ops.end(), args.begin(), args.end());
  return b_.op(Op::OpExtInst, type, ops);
}

// Raw register words (u32 or u64 x4) -> a value of type t.
uint32_t Codegen::from_raw(uint32_t raw, bool wide, DataType t) {
  if (wide == is_64(t)) {
    if (t == DataType::U32 || t == DataType::U64) return raw;
    return b_.op(Op::OpBitcast, vec_type(t), {raw});
  }
  if (!wide) {  // 32-bit register, 64-bit type: convert the 32-bit value of the same kind
    switch (t) {
      case DataType::U64: return b_.op(Op::OpUConvert, vec_type(t), {raw});
      case DataType::S64:
        return b_.op(Op::OpSConvert, vec_type(t), {b_.op(Op::OpBitcast, vec_type(DataType::S32), {raw})});
      default: return b_.op(Op::OpFConvert, vec_type(t), {b_.op(Op::OpBitcast, vec_type(DataType::F32), {raw})});
    }
  }
  switch (t) {  // 64-bit register, 32-bit type
    case DataType::U32: return b_.op(Op::OpUConvert, vec_type(t), {raw});
    case DataType::S32:
      return b_.op(Op::OpSConvert, vec_type(t), {b_.op(Op::OpBitcast, vec_type(DataType::S64), {raw})});
    default: return b_.op(Op::OpFConvert, vec_type(t), {b_.op(Op::OpBitcast, vec_type(DataType::F64), {raw})});
  }
}

uint32_t Codegen::to_raw(Val v, bool wide) {
  const DataType t = v.type;
  if (wide == is_64(t)) {
    if (t == DataType::U32 || t == DataType::U64) return v.id;
    return b_.op(Op::OpBitcast, raw_vec(wide), {v.id});
  }
  if (wide) {  // 32-bit value into a 64-bit register
    switch (t) {
      case DataType::U32: return b_.op(Op::OpUConvert, raw_vec(true), {v.id});
      case DataType::S32:
        return b_.op(Op::OpBitcast, raw_vec(true), {b_.op(Op::OpSConvert, vec_type(DataType::S64), {v.id})});
      default: return b_.op(Op::OpBitcast, raw_vec(true), {b_.op(Op::OpFConvert, vec_type(DataType::F64), {v.id})});
    }
  }
  switch (t) {  // 64-bit value into a 32-bit register
    case DataType::U64: return b_.op(Op::OpUConvert, raw_vec(false), {v.id});
    case DataType::S64:
      return b_.op(Op::OpBitcast, raw_vec(false), {b_.op(Op::OpSConvert, vec_type(DataType::S32), {v.id})});
    default: return b_.op(Op::OpBitcast, raw_vec(false), {b_.op(Op::OpFConvert, vec_type(DataType::F32), {v.id})});
  }
}

// Any type to any type, by value (CVT, and I2F / round-to-integer results).
Val Codegen::convert(Val v, DataType to) {
  if (v.type == to) return v;
  const bool ff = is_float(v.type), tf = is_float(to);
  Op op;
  if (ff && tf) op = Op::OpFConvert;
  else if (ff) op = is_signed(to) ? Op::OpConvertFToS : Op::OpConvertFToU;
  else if (tf) op = is_signed(v.type) ? Op::OpConvertSToF : Op::OpConvertUToF;
  else if (is_64(v.type) == is_64(to)) op = Op::OpBitcast;
  else op = is_signed(v.type) ? Op::OpSConvert : Op::OpUConvert;
  if (op == Op::OpSConvert || op == Op::OpUConvert) {
    // Width change first in the source's signedness, then reinterpret.
    const DataType mid = is_64(to) ? (is_signed(v.type) ? DataType::S64 : DataType::U64)
                                   : (is_signed(v.type) ? DataType::S32 : DataType::U32);
    uint32_t r = b_.op(op, vec_type(mid), {v.id});
    if (mid != to) r = b_.op(Op::OpBitcast, vec_type(to), {r});
    return {r, to};
  }
  if (ff && !tf) {
    // Float to integer: out-of-range values are undefined in SPIR-V; clamp to the target range first.
    const DataType ft = v.type;
    double lo = 0, hi = 0;
    if (to == DataType::S32) lo = -2147483648.0, hi = 2147483520.0;
    else if (to == DataType::U32) lo = 0.0, hi = 4294967040.0;
    else if (to == DataType::S64) lo = -9.2233720368547758e18, hi = 9.2233714e18;
    else lo = 0.0, hi = 1.8446742e19;
    const uint32_t clamped = ext(GLSLstd450FClamp, vec_type(ft), {v.id, c_splat(ft, lo, 0), c_splat(ft, hi, 0)});
    const uint32_t nan = b_.op(Op::OpIsNan, t_bvec4(), {v.id});
    const uint32_t safe = b_.op(Op::OpSelect, vec_type(ft), {nan, c_splat(ft, 0.0, 0), clamped});
    return {b_.op(op, vec_type(to), {safe}), to};
  }
  return {b_.op(op, vec_type(to), {v.id}), to};
}

uint32_t Codegen::swizzle(uint32_t vec, uint32_t type, const std::array<uint8_t, 4>& s) {
  if (s[0] == 0 && s[1] == 1 && s[2] == 2 && s[3] == 3) return vec;
  return b_.op(Op::OpVectorShuffle, type, {vec, vec, s[0], s[1], s[2], s[3]});
}

// ---------------------------------------------------------------- operands

// A dynamic index: element + temps[rel].c, clamped into [0, limit).
uint32_t Codegen::dynamic_index(uint32_t element, uint32_t rel_temp, uint8_t comp, uint32_t limit) {
  const uint32_t raw = load_temp_raw(rel_temp, 0, false, 0, 0);
  const bool wide = p_.temps[rel_temp].is_long;
  uint32_t c = b_.op(Op::OpCompositeExtract, raw_scalar(wide), {raw, comp});
  if (wide) c = b_.op(Op::OpUConvert, t_u32(), {c});
  const uint32_t sum = b_.op(Op::OpIAdd, t_u32(), {c, c_u32(element)});
  return b_.op(Op::OpExtInst, t_u32(), {glsl_, GLSLstd450UMin, sum, c_u32(limit - 1)});
}

uint32_t Codegen::temp_pointer(uint32_t temp, uint32_t element, bool relative, uint32_t rel_temp, uint8_t rel_comp) {
  const Temp& t = p_.temps[temp];
  if (!t.count) return temp_vars_[temp];
  const uint32_t index = relative ? dynamic_index(element, rel_temp, rel_comp, t.count) : c_u32(element);
  if (!temp_vars_[temp]) return scratch_pointer(temp, index);
  return b_.op(Op::OpAccessChain, t_ptr(spv::StorageClass::Private, raw_vec(t.is_long)), {temp_vars_[temp], index});
}

uint32_t Codegen::load_temp_raw(uint32_t temp, uint32_t element, bool relative, uint32_t rel_temp, uint8_t rel_comp) {
  const uint32_t ptr = temp_pointer(temp, element, relative, rel_temp, rel_comp);
  return b_.op(Op::OpLoad, raw_vec(p_.temps[temp].is_long), {ptr});
}

uint32_t Codegen::builtin_raw(Builtin which) {
  auto vec3 = [&](spv::BuiltIn bi) {
    const uint32_t v = b_.op(Op::OpLoad, t_uvec3(), {builtin_var(bi, t_uvec3())});
    const uint32_t zero3 = b_.global(Op::OpConstantComposite, {t_uvec3(), c_u32(0), c_u32(0), c_u32(0)}, true);
    return b_.op(Op::OpVectorShuffle, t_uvec4(), {v, zero3, 0, 1, 2, 3});
  };
  auto splat = [&](uint32_t s) { return b_.op(Op::OpCompositeConstruct, t_uvec4(), {s, s, s, s}); };
  auto scalar = [&](spv::BuiltIn bi) { return splat(b_.op(Op::OpLoad, t_u32(), {builtin_var(bi, t_u32())})); };
  auto mask = [&](spv::BuiltIn bi) {
    uses_subgroup_ = uses_ballot_ = true;
    const uint32_t m = b_.op(Op::OpLoad, t_uvec4(), {builtin_var(bi, t_uvec4())});
    return splat(b_.op(Op::OpCompositeExtract, t_u32(), {m, 0}));
  };
  switch (which) {
    case Builtin::LocalId: return vec3(spv::BuiltIn::LocalInvocationId);
    case Builtin::GlobalId: return vec3(spv::BuiltIn::GlobalInvocationId);
    case Builtin::GroupId: return vec3(spv::BuiltIn::WorkgroupId);
    case Builtin::GroupCount: return vec3(spv::BuiltIn::NumWorkgroups);
    case Builtin::GroupSize: {
      const uint32_t zero3 = b_.global(Op::OpConstantComposite, {t_uvec3(), c_u32(0), c_u32(0), c_u32(0)}, true);
      return b_.op(Op::OpVectorShuffle, t_uvec4(), {group_size_, zero3, 0, 1, 2, 3});
    }
    case Builtin::LocalIndex: return scalar(spv::BuiltIn::LocalInvocationIndex);
    // NV_shader_thread_group's warp and SM numbers on a device that is not an NVIDIA GPU: the warp is the
    // subgroup, numbered within the workgroup (SubgroupId, 0 .. NumSubgroups - 1), and all of a workgroup's
    // subgroups count as one SM of NumSubgroups warps: invocation.smid is 0 and state.thread.smcount 1. The
    // ranges the extension promises (warpid < warpspersm, smid < smcount) hold.
    case Builtin::WarpId:
      uses_subgroup_ = true;
      return scalar(spv::BuiltIn::SubgroupId);
    case Builtin::WarpsPerSm:
      uses_subgroup_ = true;
      return scalar(spv::BuiltIn::NumSubgroups);
    case Builtin::SmId: return c_uvec4(0, 0, 0, 0);
    case Builtin::SmCount: return c_uvec4(1, 1, 1, 1);
    case Builtin::ThreadId:
      uses_subgroup_ = true;
      return scalar(spv::BuiltIn::SubgroupLocalInvocationId);
    case Builtin::WarpSize:
      uses_subgroup_ = true;
      return scalar(spv::BuiltIn::SubgroupSize);
    case Builtin::ThreadEqMask: return mask(spv::BuiltIn::SubgroupEqMask);
    case Builtin::ThreadGeMask: return mask(spv::BuiltIn::SubgroupGeMask);
    case Builtin::ThreadGtMask: return mask(spv::BuiltIn::SubgroupGtMask);
    case Builtin::ThreadLeMask: return mask(spv::BuiltIn::SubgroupLeMask);
    case Builtin::ThreadLtMask: return mask(spv::BuiltIn::SubgroupLtMask);
  }
  return c_uvec4(0, 0, 0, 0);
}

// A parameter vector as raw 32-bit words, or nullopt for a constant (typed by the instruction instead).
uint32_t Codegen::param_raw(const Operand& o) {
  const Param& p = p_.params[o.id];
  if (!o.relative) {
    const ParamElement& e = p.elements[o.element];
    return param_element_raw(e);
  }
  // Relative addressing: contiguous program.local / program.env ranges index the uniform buffer directly;
  // other arrays go through a Private copy of their raw words.
  const ParamElement& first = p.elements[0];
  bool contiguous = first.kind == ParamElement::Kind::Local || first.kind == ParamElement::Kind::Env;
  for (size_t i = 0; contiguous && i < p.elements.size(); ++i) {
    contiguous = p.elements[i].kind == first.kind && p.elements[i].index == first.index + i;
  }
  const uint32_t count = static_cast<uint32_t>(p.elements.size());
  const uint32_t index = dynamic_index(o.element, o.rel_temp, o.rel_component, count);
  if (contiguous) {
    const uint32_t var = first.kind == ParamElement::Kind::Local ? local_var_ : env_var_;
    const uint32_t at = b_.op(Op::OpIAdd, t_u32(), {index, c_u32(first.index)});
    const uint32_t ptr = b_.op(Op::OpAccessChain, t_ptr(spv::StorageClass::Uniform, t_uvec4()), {var, c_u32(0), at});
    return b_.op(Op::OpLoad, t_uvec4(), {ptr});
  }
  auto it = param_arrays_.find(o.id);
  uint32_t var;
  if (it == param_arrays_.end()) {
    const uint32_t arr = b_.global(Op::OpTypeArray, {t_uvec4(), c_u32(count)}, false);
    var = variable(t_ptr(spv::StorageClass::Private, arr), spv::StorageClass::Private);
    param_arrays_[o.id] = var;
    // Filled at the start of the entry point? Simpler: filled here on every use (the optimizer folds it).
  } else {
    var = it->second;
  }
  for (uint32_t i = 0; i < count; ++i) {
    const uint32_t ptr = b_.op(Op::OpAccessChain, t_ptr(spv::StorageClass::Private, t_uvec4()), {var, c_u32(i)});
    b_.inst(Op::OpStore, {ptr, param_element_raw(p.elements[i])});
  }
  const uint32_t ptr = b_.op(Op::OpAccessChain, t_ptr(spv::StorageClass::Private, t_uvec4()), {var, index});
  return b_.op(Op::OpLoad, t_uvec4(), {ptr});
}

uint32_t Codegen::param_element_raw(const ParamElement& e) {
  if (e.kind == ParamElement::Kind::Constant) {
    // Untyped context (relative addressing): float literals as float bits, integers as integer bits.
    std::array<uint32_t, 4> words{};
    for (int i = 0; i < 4; ++i) {
      if (e.values[i].is_float) {
        const float f = narrow(e.values[i].f);
        std::memcpy(&words[i], &f, 4);
      } else {
        words[i] = static_cast<uint32_t>(e.values[i].i);
      }
    }
    return c_uvec4(words[0], words[1], words[2], words[3]);
  }
  if (e.kind == ParamElement::Kind::State) return builtin_raw(e.builtin);
  if (e.kind == ParamElement::Kind::StorageLen) {
    // The block is one runtime array of words: its length times 4 is the bound range's size in bytes (rounded
    // down to a word).
    const uint32_t words = b_.op(Op::OpArrayLength, t_u32(), {storage_vars_.at(e.index), 0});
    const uint32_t bytes = b_.op(Op::OpIMul, t_u32(), {words, c_u32(4)});
    return b_.op(Op::OpCompositeConstruct, t_uvec4(), {bytes, bytes, bytes, bytes});
  }
  const uint32_t var = e.kind == ParamElement::Kind::Local ? local_var_ : env_var_;
  const uint32_t ptr =
      b_.op(Op::OpAccessChain, t_ptr(spv::StorageClass::Uniform, t_uvec4()), {var, c_u32(0), c_u32(e.index)});
  return b_.op(Op::OpLoad, t_uvec4(), {ptr});
}

// A BUFFER (one word, replicated) or BUFFER4 (a vector) element as raw words; the index is clamped into the
// declared elements that lie in the device's window (declarations may name up to kMaxParameterBufferBytes).
uint32_t Codegen::buffer_raw(const Operand& o) {
  const BufferDecl& b = p_.buffers[o.id];
  const uint32_t window = parameter_buffer_window(options_) / (b.kind == BufferDecl::Kind::Vec4 ? 16 : 4);
  const uint32_t first = std::min(b.first, window - 1);
  const uint32_t count = std::max(1u, std::min(b.count, window - first));
  const uint32_t element =
      o.relative ? dynamic_index(o.element, o.rel_temp, o.rel_component, count) : c_u32(std::min(o.element, count - 1));
  const uint32_t at = b_.op(Op::OpIAdd, t_u32(), {element, c_u32(first)});
  const uint32_t var = parameter_vars_.at(b.program_buffer[0]);
  if (b.kind == BufferDecl::Kind::Vec4) {
    const uint32_t ptr = b_.op(Op::OpAccessChain, t_ptr(spv::StorageClass::Uniform, t_uvec4()), {var, c_u32(0), at});
    return b_.op(Op::OpLoad, t_uvec4(), {ptr});
  }
  const uint32_t w = b_.op(Op::OpLoad, t_u32(), {parameter_word_pointer(b.program_buffer[0], at)});
  return b_.op(Op::OpCompositeConstruct, t_uvec4(), {w, w, w, w});
}

Val Codegen::load_operand(const Operand& o, DataType t) {
  uint32_t value = 0;
  const std::array<Literal, 4>* literal = nullptr;
  if (o.kind == Operand::Kind::Literal) literal = &o.literal;
  if (o.kind == Operand::Kind::Param && !o.relative &&
      p_.params[o.id].elements[o.element].kind == ParamElement::Kind::Constant) {
    literal = &p_.params[o.id].elements[o.element].values;
  }
  if (literal) {
    if (o.kind == Operand::Kind::Param)
      check_var_type(p_.params[o.id].var_type, p_.params[o.id].name, t, o.offset, false);
    const auto& l = *literal;
    value = b_.global(Op::OpConstantComposite,
                      {vec_type(t), c_literal(l[o.swizzle[0]], t), c_literal(l[o.swizzle[1]], t),
                       c_literal(l[o.swizzle[2]], t), c_literal(l[o.swizzle[3]], t)},
                      true);
  } else {
    uint32_t raw = 0;
    bool wide = false;
    switch (o.kind) {
      case Operand::Kind::Temp:
        raw = load_temp_raw(o.id, o.element, o.relative, o.rel_temp, o.rel_component);
        wide = p_.temps[o.id].is_long;
        check_var_type(p_.temps[o.id].var_type, p_.temps[o.id].name, t, o.offset, false);
        break;
      case Operand::Kind::Param:
        raw = param_raw(o);
        check_var_type(p_.params[o.id].var_type, p_.params[o.id].name, t, o.offset, false);
        break;
      case Operand::Kind::Builtin: raw = builtin_raw(o.builtin); break;
      case Operand::Kind::Buffer: raw = buffer_raw(o); break;
      default: break;
    }
    raw = swizzle(raw, raw_vec(wide), o.swizzle);
    value = from_raw(raw, wide, t);
  }
  if (o.absolute) {
    value = is_float(t) ? ext(GLSLstd450FAbs, vec_type(t), {value}) : ext(GLSLstd450SAbs, vec_type(t), {value});
  }
  if (o.negate) value = b_.op(is_float(t) ? Op::OpFNegate : Op::OpSNegate, vec_type(t), {value});
  return {value, t};
}

uint32_t Codegen::component(Val v, uint32_t c) { return b_.op(Op::OpCompositeExtract, scalar_type(v.type), {v.id, c}); }

Val Codegen::splat(Val v, uint32_t c) {
  const uint32_t s = component(v, c);
  return {b_.op(Op::OpCompositeConstruct, vec_type(v.type), {s, s, s, s}), v.type};
}

Val Codegen::splat_scalar(uint32_t s, DataType t) {
  return {b_.op(Op::OpCompositeConstruct, vec_type(t), {s, s, s, s}), t};
}

// ---------------------------------------------------------------- condition codes

uint32_t Codegen::condition_vector(const CondTest& test) {
  const uint32_t cc = b_.op(Op::OpLoad, t_uvec4(), {cc_vars_[test.cc]});
  const uint32_t f = swizzle(cc, t_uvec4(), test.swizzle);
  auto flag = [&](uint32_t bit) {
    const uint32_t masked = b_.op(Op::OpBitwiseAnd, t_uvec4(), {f, c_uvec4(bit, bit, bit, bit)});
    return b_.op(Op::OpINotEqual, t_bvec4(), {masked, c_uvec4(0, 0, 0, 0)});
  };
  auto and_ = [&](uint32_t a, uint32_t b) { return b_.op(Op::OpLogicalAnd, t_bvec4(), {a, b}); };
  auto or_ = [&](uint32_t a, uint32_t b) { return b_.op(Op::OpLogicalOr, t_bvec4(), {a, b}); };
  auto not_ = [&](uint32_t a) { return b_.op(Op::OpLogicalNot, t_bvec4(), {a}); };
  auto ne = [&](uint32_t a, uint32_t b) { return b_.op(Op::OpLogicalNotEqual, t_bvec4(), {a, b}); };
  // NV_gpu_program4, Table X.16 "Condition code tests", one expression per rule (^ is exclusive or). A NaN sets
  // SF and ZF, so every ordered comparison (LT LE GT GE EQ) fails on it and NE passes; an integer ADD whose signed
  // result overflows to 0 (SF 0, ZF 1, OF 1) is "less than" because the true sum is negative.
  switch (test.rule) {
    case CondRule::TR: return c_bvec4(0xF);
    case CondRule::FL: return c_bvec4(0);
    case CondRule::EQ: return and_(not_(flag(kFlagSF)), flag(kFlagZF));                           // !SF && ZF
    case CondRule::NE: return or_(flag(kFlagSF), not_(flag(kFlagZF)));                            // SF || !ZF
    case CondRule::LT: return ne(and_(flag(kFlagSF), not_(flag(kFlagZF))), flag(kFlagOF));        // (SF && !ZF) ^ OF
    case CondRule::GE: return not_(ne(flag(kFlagSF), flag(kFlagOF)));                             // !(SF ^ OF)
    case CondRule::GT: return and_(ne(not_(flag(kFlagSF)), flag(kFlagOF)), not_(flag(kFlagZF)));  // (!SF ^ OF) && !ZF
    case CondRule::LE: return ne(flag(kFlagSF), or_(flag(kFlagZF), flag(kFlagOF)));               // SF ^ (ZF || OF)
    case CondRule::NAN_: return and_(flag(kFlagSF), flag(kFlagZF));
    case CondRule::LEG: return or_(not_(flag(kFlagSF)), not_(flag(kFlagZF)));
    case CondRule::CF: return flag(kFlagCF);
    case CondRule::NCF: return not_(flag(kFlagCF));
    case CondRule::OF: return flag(kFlagOF);
    case CondRule::NOF: return not_(flag(kFlagOF));
    case CondRule::AB: return and_(flag(kFlagCF), not_(flag(kFlagZF)));
    case CondRule::BLE: return or_(not_(flag(kFlagCF)), flag(kFlagZF));
    case CondRule::SF: return flag(kFlagSF);
    case CondRule::NSF: return not_(flag(kFlagSF));
    case CondRule::ZF: return flag(kFlagZF);
    case CondRule::NZF: return not_(flag(kFlagZF));
    case CondRule::NONRESIDENT: return flag(kFlagNR);
  }
  return c_bvec4(0xF);
}

// Branch conditions: true when the test passes for any of the selected components.
uint32_t Codegen::condition_scalar(const CondTest& test) {
  const uint32_t v = condition_vector(test);
  if (test.swizzle_count == 1) return b_.op(Op::OpCompositeExtract, t_bool(), {v, 0});
  return b_.op(Op::OpAny, t_bool(), {v});
}

uint32_t Codegen::flags_of(Val v) {
  uint32_t sf, zf;
  if (is_float(v.type)) {
    const uint32_t nan = b_.op(Op::OpIsNan, t_bvec4(), {v.id});
    const uint32_t zero = c_splat(v.type, 0.0, 0);
    sf = b_.op(Op::OpLogicalOr, t_bvec4(), {b_.op(Op::OpFOrdLessThan, t_bvec4(), {v.id, zero}), nan});
    zf = b_.op(Op::OpLogicalOr, t_bvec4(), {b_.op(Op::OpFOrdEqual, t_bvec4(), {v.id, zero}), nan});
  } else {
    const DataType st = is_64(v.type) ? DataType::S64 : DataType::S32;
    const uint32_t s = v.type == st ? v.id : b_.op(Op::OpBitcast, vec_type(st), {v.id});
    sf = b_.op(Op::OpSLessThan, t_bvec4(), {s, c_splat(st, 0, 0)});
    zf = b_.op(Op::OpIEqual, t_bvec4(), {s, c_splat(st, 0, 0)});
  }
  const uint32_t a =
      b_.op(Op::OpSelect, t_uvec4(), {sf, c_uvec4(kFlagSF, kFlagSF, kFlagSF, kFlagSF), c_uvec4(0, 0, 0, 0)});
  const uint32_t z =
      b_.op(Op::OpSelect, t_uvec4(), {zf, c_uvec4(kFlagZF, kFlagZF, kFlagZF, kFlagZF), c_uvec4(0, 0, 0, 0)});
  return b_.op(Op::OpBitwiseOr, t_uvec4(), {a, z});
}

// ---------------------------------------------------------------- results

void Codegen::write_dest(const Instruction& inst, Val v, uint32_t extra_flags) {
  const Dest& d = inst.dest;
  if (is_float(v.type) && (inst.saturate || inst.signed_saturate)) {
    const double lo = inst.saturate ? 0.0 : -1.0;
    v.id = ext(GLSLstd450FClamp, vec_type(v.type), {v.id, c_splat(v.type, lo, 0), c_splat(v.type, 1.0, 0)});
  }
  const Temp& temp = p_.temps[d.temp];
  check_var_type(temp.var_type, temp.name, v.type, d.offset, true);
  if (temp.is_short && is_float(v.type)) {
    // NV_gpu_program5: "SHORT floating-point values will have at least 5 bits of exponent and 10 bits of mantissa."
    // As NVIDIA's driver stores them (580, H200): rounded to the nearest half, overflow to infinity, results in
    // the half subnormal range flushed to a signed zero; integer results keep their 32 bits.
    if (v.type == DataType::F64) v = {b_.op(Op::OpFConvert, vec_type(DataType::F32), {v.id}), DataType::F32};
    v.id = short_rounded(v.id);
  }
  const bool wide = temp.is_long;
  const uint32_t raw = to_raw(v, wide);
  const uint32_t ptr = temp_pointer(d.temp, d.element, d.relative, d.rel_temp, d.rel_component);
  const uint32_t old = b_.op(Op::OpLoad, raw_vec(wide), {ptr});
  uint32_t select_mask = 0;
  if (d.predicate) {
    select_mask = b_.op(Op::OpLogicalAnd, t_bvec4(), {condition_vector(*d.predicate), c_bvec4(d.mask)});
  }
  auto merge = [&](uint32_t type, uint32_t old_value, uint32_t new_value) {
    if (select_mask) return b_.op(Op::OpSelect, type, {select_mask, new_value, old_value});
    if (d.mask == 0xF) return new_value;
    std::vector<uint32_t> ops = {old_value, new_value};
    for (uint32_t c = 0; c < 4; ++c) ops.push_back((d.mask >> c) & 1 ? 4 + c : c);
    return b_.op(Op::OpVectorShuffle, type, ops);
  };
  b_.inst(Op::OpStore, {ptr, merge(raw_vec(wide), old, raw)});
  if (inst.update_cc) {
    uint32_t flags = flags_of(v);
    if (extra_flags) flags = b_.op(Op::OpBitwiseOr, t_uvec4(), {flags, extra_flags});
    const uint32_t cc_old = b_.op(Op::OpLoad, t_uvec4(), {cc_vars_[inst.cc_register]});
    b_.inst(Op::OpStore, {cc_vars_[inst.cc_register], merge(t_uvec4(), cc_old, flags)});
  }
}

void Codegen::check_var_type(VarType declared, const std::string& name, DataType t, size_t offset, bool write) {
  if (declared == VarType::Any || type_error_) return;
  // As NVIDIA's driver (580) checks them: a FLOAT variable only as floats, an INT one as signed or unsigned
  // integers, a UINT one only as unsigned integers.
  const bool ok = declared == VarType::Float ? is_float(t)
                  : declared == VarType::Int ? !is_float(t)
                                             : !is_float(t) && !is_signed(t);
  if (ok) return;
  const char* decl = declared == VarType::Float ? "FLOAT" : declared == VarType::Int ? "INT" : "UINT";
  const char* as = is_float(t) ? "floating-point" : is_signed(t) ? "signed integer" : "unsigned integer";
  type_error_ = Failure{offset, "data type mismatch: '" + name + "' is declared " + decl + " and this instruction " +
                                    (write ? "writes" : "reads") + " it as " + as};
}

// f32 components rounded to half precision and back (SHORT TEMP): nearest even, overflow to infinity, the half
// subnormal range flushed to zero with the sign kept.
uint32_t Codegen::short_rounded(uint32_t f32vec) {
  const uint32_t vt = vec_type(DataType::F32);
  const uint32_t back = from_half_bits(half_bits(f32vec));
  const uint32_t tiny =
      b_.op(Op::OpFOrdLessThan, t_bvec4(), {ext(GLSLstd450FAbs, vt, {back}), c_splat(DataType::F32, 0x1p-14, 0)});
  const uint32_t sign =
      b_.op(Op::OpBitwiseAnd, t_uvec4(),
            {b_.op(Op::OpBitcast, t_uvec4(), {back}), c_uvec4(0x80000000u, 0x80000000u, 0x80000000u, 0x80000000u)});
  return b_.op(Op::OpSelect, vt, {tiny, b_.op(Op::OpBitcast, vt, {sign}), back});
}

Val Codegen::bool_result(uint32_t bvec, DataType t) {
  // Set-on instructions: 1.0 / 0.0 for floats, all ones / 0 for integers.
  const uint32_t one = is_float(t) ? c_splat(t, 1.0, 0) : c_splat(t, 0, -1);
  return {b_.op(Op::OpSelect, vec_type(t), {bvec, one, c_splat(t, 0.0, 0)}), t};
}

}  // namespace bismuth::nvasm::detail
