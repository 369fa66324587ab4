// NV_shader_atomic_fp16_vector: ATOMB / ATOMS .ADD .MIN .MAX .EXCH with F16X2 (two halves in a 32-bit word) and
// F16X4 (four halves in two words). A compare-and-swap loop per 32-bit word computes both halves, so no
// VK_NV_shader_atomic_float16_vector or 16-bit storage feature is needed and every device runs them. The operand's
// components are rounded to halves first (nearest even), then each half of memory becomes half(old + op) (computed
// in float, which holds the exact sum of two halves before the one rounding to half), min or max (NMin / NMax:
// a NaN loses to a number), or op (EXCH: an exchange of the 32-bit word, no loop). The result register gets the old
// halves as floats, spread over x..w as LDB spreads an F32X2 (x, y, x, y). F16X4 is atomic per word: each pair of
// halves is updated atomically, the two pairs separately.
#include "codegen.hpp"

namespace bismuth::nvasm::detail {

bool Codegen::atomic_f16(const Instruction& inst) {
  const MemoryRef& m = *inst.memory;
  const StorageFormat f = inst.format;
  const uint32_t f32 = t_float(32), u = t_u32();
  // The operand rounded to halves, as bits and as floats.
  const Val v = load_operand(inst.sources[0], DataType::F32);
  const uint32_t op_bits = half_bits(v.id);
  const uint32_t op_values = from_half_bits(op_bits);
  const uint32_t addr = byte_address(m);
  std::array<uint32_t, 4> old_values{};
  for (uint32_t w = 0; w < f.count / 2u; ++w) {
    const uint32_t lo_c = 2 * w, hi_c = 2 * w + 1;
    const uint32_t op_lo = b_.op(Op::OpCompositeExtract, u, {op_bits, lo_c});
    const uint32_t op_hi = b_.op(Op::OpCompositeExtract, u, {op_bits, hi_c});
    const uint32_t op_word = b_.op(Op::OpBitwiseOr, u, {op_lo, b_.op(Op::OpShiftLeftLogical, u, {op_hi, c_u32(16)})});
    auto next = [&](uint32_t old) -> uint32_t {
      if (inst.atomic == AtomicOp::Exch) return op_word;
      std::array<uint32_t, 2> halves{};
      for (uint32_t h = 0; h < 2; ++h) {
        const uint32_t bits = h == 0 ? b_.op(Op::OpBitwiseAnd, u, {old, c_u32(0xFFFF)})
                                     : b_.op(Op::OpShiftRightLogical, u, {old, c_u32(16)});
        const uint32_t a = half_to_float(bits);
        const uint32_t b = b_.op(Op::OpCompositeExtract, f32, {op_values, h == 0 ? lo_c : hi_c});
        switch (inst.atomic) {
          case AtomicOp::Min: halves[h] = ext(GLSLstd450NMin, f32, {a, b}); break;
          case AtomicOp::Max: halves[h] = ext(GLSLstd450NMax, f32, {a, b}); break;
          default: halves[h] = b_.op(Op::OpFAdd, f32, {a, b}); break;
        }
      }
      const uint32_t zero = c_scalar(DataType::F32, 0.0, 0, true);
      const uint32_t packed =
          half_bits(b_.op(Op::OpCompositeConstruct, vec_type(DataType::F32), {halves[0], halves[1], zero, zero}));
      const uint32_t lo = b_.op(Op::OpCompositeExtract, u, {packed, 0});
      const uint32_t hi = b_.op(Op::OpCompositeExtract, u, {packed, 1});
      return b_.op(Op::OpBitwiseOr, u, {lo, b_.op(Op::OpShiftLeftLogical, u, {hi, c_u32(16)})});
    };
    const uint32_t index = word_index(addr, w);
    uint32_t old = 0;
    if (shared64_ && m.shared) {
      old = shared64_update_word(index, next);
    } else if (inst.atomic == AtomicOp::Exch) {
      old = b_.op(Op::OpAtomicExchange, u, {word_pointer(m, index), scope_of(m), c_u32(0), op_word});
    } else {
      old = cas_loop_fn(word_pointer(m, index), scope_of(m), next, u);
    }
    old_values[lo_c] = half_to_float(b_.op(Op::OpBitwiseAnd, u, {old, c_u32(0xFFFF)}));
    old_values[hi_c] = half_to_float(b_.op(Op::OpShiftRightLogical, u, {old, c_u32(16)}));
  }
  std::vector<uint32_t> parts;
  for (uint32_t c = 0; c < 4; ++c) parts.push_back(old_values[c % f.count]);
  write_dest(inst, {b_.op(Op::OpCompositeConstruct, vec_type(DataType::F32), parts), DataType::F32});
  return true;
}

}  // namespace bismuth::nvasm::detail
