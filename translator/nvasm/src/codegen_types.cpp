// Types and constants by DataType. The builder keeps the one cache of them (SpirvBuilder::global and its typed
// accessors); this file only maps the assembler's data types and literals onto it.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "codegen.hpp"

namespace bismuth::nvasm::detail {
namespace {

uint32_t float_to_int_bits32(double f, bool sign) {
  if (std::isnan(f)) return 0;
  if (sign) return static_cast<uint32_t>(static_cast<int32_t>(std::clamp(std::trunc(f), -2147483648.0, 2147483647.0)));
  return static_cast<uint32_t>(std::clamp(std::trunc(f), 0.0, 4294967295.0));
}
uint64_t float_to_int_bits64(double f, bool sign) {
  if (std::isnan(f)) return 0;
  if (sign) {
    return static_cast<uint64_t>(
        static_cast<int64_t>(std::clamp(std::trunc(f), -9.2233720368547e18, 9.2233720368547e18)));
  }
  return static_cast<uint64_t>(std::clamp(std::trunc(f), 0.0, 1.8446744073709e19));
}

}  // namespace

float narrow(double v) {
  if (std::isnan(v)) return std::numeric_limits<float>::quiet_NaN();
  if (v > std::numeric_limits<float>::max()) return std::numeric_limits<float>::infinity();
  if (v < -std::numeric_limits<float>::max()) return -std::numeric_limits<float>::infinity();
  return static_cast<float>(v);
}

uint32_t Codegen::scalar_type(DataType t) {
  switch (t) {
    case DataType::F32: return t_float(32);
    case DataType::F64: return t_float(64);
    case DataType::S32: return t_i32();
    case DataType::S64: return t_int(64, true);
    case DataType::U64: return t_u64();
    default: return t_u32();
  }
}

uint32_t Codegen::c_i32(int32_t v) { return b_.global(Op::OpConstant, {t_i32(), static_cast<uint32_t>(v)}, true); }

uint32_t Codegen::c_bool(bool v) { return b_.global(v ? Op::OpConstantTrue : Op::OpConstantFalse, {t_bool()}, true); }

uint32_t Codegen::c_scalar(DataType t, double f, int64_t i, bool from_float) {
  uint32_t type = scalar_type(t);
  switch (t) {
    case DataType::F32: {
      const float v = narrow(from_float ? f : static_cast<double>(i));
      uint32_t bits;
      std::memcpy(&bits, &v, 4);
      return b_.global(Op::OpConstant, {type, bits}, true);
    }
    case DataType::F64: {
      const double v = from_float ? f : static_cast<double>(i);
      uint64_t bits;
      std::memcpy(&bits, &v, 8);
      return b_.global(Op::OpConstant, {type, static_cast<uint32_t>(bits), static_cast<uint32_t>(bits >> 32)}, true);
    }
    case DataType::S32:
    case DataType::U32: {
      uint32_t bits = static_cast<uint32_t>(i);
      if (from_float) bits = float_to_int_bits32(f, t == DataType::S32);
      return b_.global(Op::OpConstant, {type, bits}, true);
    }
    default: {
      uint64_t bits = static_cast<uint64_t>(i);
      if (from_float) bits = float_to_int_bits64(f, t == DataType::S64);
      return b_.global(Op::OpConstant, {type, static_cast<uint32_t>(bits), static_cast<uint32_t>(bits >> 32)}, true);
    }
  }
}

uint32_t Codegen::c_splat(DataType t, double f, int64_t i) {
  const uint32_t s = is_float(t) ? c_scalar(t, f, 0, true) : c_scalar(t, 0, i, false);
  return b_.global(Op::OpConstantComposite, {vec_type(t), s, s, s, s}, true);
}

uint32_t Codegen::c_uvec4(uint32_t a, uint32_t b, uint32_t c, uint32_t d) {
  return b_.global(Op::OpConstantComposite, {t_uvec4(), c_u32(a), c_u32(b), c_u32(c), c_u32(d)}, true);
}

uint32_t Codegen::c_bvec4(uint8_t mask) {
  return b_.global(Op::OpConstantComposite,
                   {t_bvec4(), c_bool(mask & 1), c_bool(mask & 2), c_bool(mask & 4), c_bool(mask & 8)}, true);
}

uint32_t Codegen::variable(uint32_t ptr_type, spv::StorageClass sc, uint32_t init) {
  const uint32_t v = b_.id();
  if (init) SpirvBuilder::put(b_.globals, Op::OpVariable, {ptr_type, v, static_cast<uint32_t>(sc), init});
  else SpirvBuilder::put(b_.globals, Op::OpVariable, {ptr_type, v, static_cast<uint32_t>(sc)});
  return v;
}

void Codegen::decorate(uint32_t target, spv::Decoration d, std::initializer_list<uint32_t> extra) {
  std::vector<uint32_t> ops = {target, static_cast<uint32_t>(d)};
  ops.insert(ops.end(), extra.begin(), extra.end());
  SpirvBuilder::put(b_.annotations, Op::OpDecorate, ops);
}

void Codegen::member_decorate(uint32_t type, uint32_t member, spv::Decoration d,
                              std::initializer_list<uint32_t> extra) {
  std::vector<uint32_t> ops = {type, member, static_cast<uint32_t>(d)};
  ops.insert(ops.end(), extra.begin(), extra.end());
  SpirvBuilder::put(b_.annotations, Op::OpMemberDecorate, ops);
}

}  // namespace bismuth::nvasm::detail
