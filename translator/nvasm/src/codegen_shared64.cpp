// Shared memory as 64-bit words, for programs with 64-bit ATOMS (NV_shader_atomic_int64, NV_shader_atomic_float64).
//
// Shared memory is normally one Workgroup array of 32-bit words that every LDS/STS/ATOMS width aliases. A 64-bit
// atomic needs a 64-bit pointer, and Vulkan 1.1 SPIR-V cannot view one Workgroup array as another type (only
// VK_KHR_workgroup_memory_explicit_layout can, which neither lavapipe nor the SPIR-V 1.3 target has). So when a
// program uses 64-bit ATOMS and the device has shaderSharedInt64Atomics, the array is made of 64-bit words
// instead and the narrower accesses work on halves of them:
//   - loads read the 64-bit word and take the 32-bit half (then the byte or half-word, as LDS does);
//   - stores of 32 bits or less replace their bits with a compare-and-swap loop on the 64-bit word, so the other
//     half, which another invocation may be writing, is never lost;
//   - 32-bit atomics are compare-and-swap loops computing the operation on the half (same results, atomic on the
//     whole word);
//   - 64-bit atomics are the SPIR-V atomics on the 64-bit word.
// Out-of-range addresses are clamped into the array as for 32-bit shared memory.
#include "codegen.hpp"

namespace bismuth::nvasm::detail {

bool program_has_wide_shared_atomics(const ParsedProgram& p) {
  for (const Subroutine& s : p.subroutines) {
    for (const Instruction& inst : s.body) {
      if (inst.op == Op::ATOMS && inst.format.bits == 64) return true;
    }
  }
  return false;
}

// The 64-bit word holding 32-bit word `word_index` (clamped into the array).
uint32_t Codegen::shared64_pointer_of_word(uint32_t word_index) {
  const uint32_t w = ext(GLSLstd450UMin, t_u32(), {word_index, c_u32(shared_words_ - 1)});
  const uint32_t i = b_.op(Op::OpShiftRightLogical, t_u32(), {w, c_u32(1)});
  return b_.op(Op::OpAccessChain, t_ptr(spv::StorageClass::Workgroup, t_u64()), {shared_var_, i});
}

// Bit position of 32-bit word `word_index` in its 64-bit word: 0 or 32.
uint32_t Codegen::shared64_shift_of_word(uint32_t word_index) {
  const uint32_t w = ext(GLSLstd450UMin, t_u32(), {word_index, c_u32(shared_words_ - 1)});
  return b_.op(Op::OpShiftLeftLogical, t_u32(), {b_.op(Op::OpBitwiseAnd, t_u32(), {w, c_u32(1)}), c_u32(5)});
}

uint32_t Codegen::shared64_load_word(uint32_t word_index) {
  const uint32_t wide = b_.op(Op::OpLoad, t_u64(), {shared64_pointer_of_word(word_index)});
  return b_.op(Op::OpUConvert, t_u32(),
               {b_.op(Op::OpShiftRightLogical, t_u64(), {wide, shared64_shift_of_word(word_index)})});
}

// Replaces 32-bit word `word_index` by next(old) atomically (a compare-and-swap loop on its 64-bit word); returns
// the old 32-bit value.
uint32_t Codegen::shared64_update_word(uint32_t word_index, const std::function<uint32_t(uint32_t)>& next) {
  const uint32_t ptr = shared64_pointer_of_word(word_index);
  const uint32_t shift = shared64_shift_of_word(word_index);
  const uint32_t u64 = t_u64();
  const uint32_t keep = b_.op(
      Op::OpNot, u64, {b_.op(Op::OpShiftLeftLogical, u64, {c_scalar(DataType::U64, 0, 0xFFFFFFFF, false), shift})});
  const uint32_t old = cas_loop_fn(
      ptr, c_u32(kScopeWorkgroup),
      [&](uint32_t o) {
        const uint32_t half = b_.op(Op::OpUConvert, t_u32(), {b_.op(Op::OpShiftRightLogical, u64, {o, shift})});
        const uint32_t placed = b_.op(Op::OpShiftLeftLogical, u64, {b_.op(Op::OpUConvert, u64, {next(half)}), shift});
        return b_.op(Op::OpBitwiseOr, u64, {b_.op(Op::OpBitwiseAnd, u64, {o, keep}), placed});
      },
      u64);
  return b_.op(Op::OpUConvert, t_u32(), {b_.op(Op::OpShiftRightLogical, u64, {old, shift})});
}

// NV_gpu_program5's ATOM operations on a 32-bit value, computed (not atomic): what a compare-and-swap loop stores.
// `word` is the value's type, u32 (the default) or i32 (signed integer images); `a` is the operand (CSWAP: the
// compare value), `b` CSWAP's new value.
uint32_t Codegen::atomic_result(AtomicOp op, bool sign, uint32_t old, uint32_t a, uint32_t b, uint32_t word) {
  if (!word) word = t_u32();
  const bool int_word = word == t_i32();
  const uint32_t i = t_i32();
  auto as_i = [&](uint32_t x) { return int_word ? x : b_.op(Op::OpBitcast, i, {x}); };
  auto from_i = [&](uint32_t x) { return int_word ? x : b_.op(Op::OpBitcast, word, {x}); };
  const uint32_t zero = int_word ? c_i32(0) : c_u32(0);
  const uint32_t one = int_word ? c_i32(1) : c_u32(1);
  switch (op) {
    case AtomicOp::Add: return b_.op(Op::OpIAdd, word, {old, a});
    case AtomicOp::Min:
      return sign ? from_i(ext(GLSLstd450SMin, i, {as_i(old), as_i(a)})) : ext(GLSLstd450UMin, word, {old, a});
    case AtomicOp::Max:
      return sign ? from_i(ext(GLSLstd450SMax, i, {as_i(old), as_i(a)})) : ext(GLSLstd450UMax, word, {old, a});
    case AtomicOp::And: return b_.op(Op::OpBitwiseAnd, word, {old, a});
    case AtomicOp::Or: return b_.op(Op::OpBitwiseOr, word, {old, a});
    case AtomicOp::Xor: return b_.op(Op::OpBitwiseXor, word, {old, a});
    case AtomicOp::Exch: return a;
    case AtomicOp::CSwap: return b_.op(Op::OpSelect, word, {b_.op(Op::OpIEqual, t_bool(), {old, a}), b, old});
    case AtomicOp::IWrap:
      // (old >= op) ? 0 : old + 1, unsigned
      return b_.op(Op::OpSelect, word,
                   {b_.op(Op::OpUGreaterThanEqual, t_bool(), {old, a}), zero, b_.op(Op::OpIAdd, word, {old, one})});
    case AtomicOp::DWrap: {
      // (old == 0 || old > op) ? op : old - 1, unsigned
      const uint32_t wrap =
          b_.op(Op::OpLogicalOr, t_bool(),
                {b_.op(Op::OpIEqual, t_bool(), {old, zero}), b_.op(Op::OpUGreaterThan, t_bool(), {old, a})});
      return b_.op(Op::OpSelect, word, {wrap, a, b_.op(Op::OpISub, word, {old, one})});
    }
    case AtomicOp::None: break;
  }
  return old;
}

// LDS, STS and the 32-bit ATOMS on 64-bit shared words (64-bit ATOMS go through atomic64).
bool Codegen::shared64_access(const Instruction& inst) {
  const MemoryRef& m = *inst.memory;
  const StorageFormat f = inst.format;
  const uint32_t addr = byte_address(m);
  const uint32_t sub_shift =
      b_.op(Op::OpShiftLeftLogical, t_u32(), {b_.op(Op::OpBitwiseAnd, t_u32(), {addr, c_u32(3)}), c_u32(3)});
  if (inst.op == AsmOp::LDS) {
    std::array<uint32_t, 4> elems{};
    for (uint32_t e = 0; e < f.count; ++e) {
      if (f.bits == 64) {
        const uint32_t lo = shared64_load_word(word_index(addr, 2 * e));
        const uint32_t hi = shared64_load_word(word_index(addr, 2 * e + 1));
        const uint32_t v2 = b_.op(Op::OpCompositeConstruct, t_vec(t_u32(), 2), {lo, hi});
        elems[e] = b_.op(Op::OpBitcast, scalar_type(f.type), {v2});
      } else if (f.bits == 32) {
        const uint32_t w = shared64_load_word(word_index(addr, e));
        elems[e] = f.type == DataType::U32 ? w : b_.op(Op::OpBitcast, scalar_type(f.type), {w});
      } else {
        const uint32_t w = shared64_load_word(word_index(addr, 0));
        elems[e] = f.type == DataType::S32 ? b_.op(Op::OpBitFieldSExtract, t_i32(),
                                                   {b_.op(Op::OpBitcast, t_i32(), {w}), sub_shift, c_u32(f.bits)})
                                           : b_.op(Op::OpBitFieldUExtract, t_u32(), {w, sub_shift, c_u32(f.bits)});
      }
    }
    std::vector<uint32_t> parts;
    for (uint32_t c = 0; c < 4; ++c) parts.push_back(elems[f.count == 1 ? 0 : c % f.count]);
    write_dest(inst, {b_.op(Op::OpCompositeConstruct, vec_type(f.type), parts), f.type});
    return true;
  }
  if (inst.op == AsmOp::STS) {
    const Val v = load_operand(inst.sources[0], f.type);
    for (uint32_t e = 0; e < f.count; ++e) {
      const uint32_t s = component(v, e);
      auto store_word = [&](uint32_t index, uint32_t w) { shared64_update_word(index, [&](uint32_t) { return w; }); };
      if (f.bits == 64) {
        const uint32_t v2 = b_.op(Op::OpBitcast, t_vec(t_u32(), 2), {s});
        store_word(word_index(addr, 2 * e), b_.op(Op::OpCompositeExtract, t_u32(), {v2, 0}));
        store_word(word_index(addr, 2 * e + 1), b_.op(Op::OpCompositeExtract, t_u32(), {v2, 1}));
      } else if (f.bits == 32) {
        store_word(word_index(addr, e), f.type == DataType::U32 ? s : b_.op(Op::OpBitcast, t_u32(), {s}));
      } else {
        const uint32_t w = f.type == DataType::U32 ? s : b_.op(Op::OpBitcast, t_u32(), {s});
        shared64_update_word(word_index(addr, 0), [&](uint32_t old) {
          return b_.op(Op::OpBitFieldInsert, t_u32(), {old, w, sub_shift, c_u32(f.bits)});
        });
      }
    }
    return true;
  }
  // 32-bit ATOMS: F32 ADD / EXCH and the integer operations.
  const uint32_t index = word_index(addr, 0);
  if (f.type == DataType::F32) {
    const uint32_t x = component(load_operand(inst.sources[0], DataType::F32), 0);
    const uint32_t old = shared64_update_word(index, [&](uint32_t o) {
      if (inst.atomic == AtomicOp::Exch) return b_.op(Op::OpBitcast, t_u32(), {x});
      return b_.op(Op::OpBitcast, t_u32(),
                   {b_.op(Op::OpFAdd, t_float(32), {b_.op(Op::OpBitcast, t_float(32), {o}), x})});
    });
    write_dest(inst, splat_scalar(b_.op(Op::OpBitcast, t_float(32), {old}), DataType::F32));
    return true;
  }
  const bool sign = f.type == DataType::S32;
  const Val v = load_operand(inst.sources[0], DataType::U32);
  const uint32_t a = component(v, 0);
  const uint32_t desired = inst.atomic == AtomicOp::CSwap ? component(v, 1) : 0;
  const uint32_t old =
      shared64_update_word(index, [&](uint32_t o) { return atomic_result(inst.atomic, sign, o, a, desired); });
  Val result = splat_scalar(old, DataType::U32);
  if (sign) result = {b_.op(Op::OpBitcast, vec_type(DataType::S32), {result.id}), DataType::S32};
  write_dest(inst, result);
  return true;
}

}  // namespace bismuth::nvasm::detail
