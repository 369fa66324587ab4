// Memory: loads and stores on storage buffers, shared memory and parameter buffers (byte addresses over 32-bit
// words), atomics, and barriers.
#include "codegen.hpp"
#include "program_info.hpp"

namespace bismuth::nvasm::detail {

bool Codegen::barrier(const Instruction& inst) {
  if (inst.op == AsmOp::BAR) {
    b_.inst(Op::OpControlBarrier, {c_u32(kScopeWorkgroup), c_u32(kScopeWorkgroup), c_u32(kSemAcqRel | kSemWorkgroup)});
  } else {
    b_.inst(Op::OpMemoryBarrier,
            {c_u32(inst.cta ? kScopeWorkgroup : kScopeDevice), c_u32(kSemAcqRel | kSemUniform | kSemWorkgroup)});
  }
  return true;
}

bool Codegen::memory_access(const Instruction& inst) {
  if (inst.memory->global && !options_.buffer_device_address) {
    return fail(inst,
                "LOAD, STORE and ATOM on GPU addresses (NV_shader_buffer_load / NV_shader_buffer_store) need the "
                "device's bufferDeviceAddress feature (Vulkan 1.2 or VK_KHR_buffer_device_address) and shaderInt64");
  }
  // Shared memory of 64-bit words (a program with 64-bit ATOMS): every access but those atomics is on halves.
  if (shared64_ && inst.memory->shared && !(inst.op == AsmOp::ATOMS && inst.format.bits != 32)) {
    return shared64_access(inst);
  }
  switch (inst.op) {
    case AsmOp::LDB:
    case AsmOp::LOAD:
    case AsmOp::LDS:
    case AsmOp::LDC: return load(inst);
    case AsmOp::STB:
    case AsmOp::STORE:
    case AsmOp::STS: return store(inst);
    default: return atomic(inst);
  }
}

// A buffer array indexed with a register (`s[R0.x + k][address]`): a switch over the array's buffers, each case
// the access with that buffer (the index clamped into the array, as register-array indices are). Each buffer is
// its own descriptor, so no descriptor indexing feature is needed.
bool Codegen::memory(const Instruction& inst) {
  const MemoryRef& m = *inst.memory;
  if (!m.dynamic_buffer) return memory_access(inst);
  const uint32_t count = static_cast<uint32_t>(m.buffers.size());
  return switch_cases(dynamic_index(m.buffer_element, m.buffer_temp, m.buffer_component, count), count,
                      [&](uint32_t k) {
                        Instruction one = inst;
                        one.memory->dynamic_buffer = false;
                        one.memory->buffer = m.buffers[k];
                        return memory_access(one);
                      });
}

// Byte address -> word index in the buffer or shared array.
uint32_t Codegen::byte_address(const MemoryRef& m) {
  if (m.global) return global_byte_address(m);
  uint32_t addr = c_u32(static_cast<uint32_t>(m.offset));
  if (m.has_register) {
    const uint32_t raw = load_temp_raw(m.temp, 0, false, 0, 0);
    const bool wide = p_.temps[m.temp].is_long;
    uint32_t c = b_.op(Op::OpCompositeExtract, raw_scalar(wide), {raw, m.component});
    if (wide) c = b_.op(Op::OpUConvert, t_u32(), {c});
    addr = m.offset ? b_.op(Op::OpIAdd, t_u32(), {c, addr}) : c;
  }
  return addr;
}

// Word `word_index` of parameter buffer `buffer`, clamped into the declared block, the device's window (the GL
// binding's range is the application's to respect, as for uniform blocks).
uint32_t Codegen::parameter_word_pointer(uint32_t buffer, uint32_t word_index) {
  const uint32_t last_word = parameter_buffer_window(options_) / 4 - 1;
  const uint32_t w = b_.op(Op::OpExtInst, t_u32(), {glsl_, GLSLstd450UMin, word_index, c_u32(last_word)});
  const uint32_t vec = b_.op(Op::OpShiftRightLogical, t_u32(), {w, c_u32(2)});
  const uint32_t comp = b_.op(Op::OpBitwiseAnd, t_u32(), {w, c_u32(3)});
  return b_.op(Op::OpAccessChain, t_ptr(spv::StorageClass::Uniform, t_u32()),
               {parameter_vars_.at(buffer), c_u32(0), vec, comp});
}

uint32_t Codegen::word_pointer(const MemoryRef& m, uint32_t word_index) {
  if (m.global) {
    return global_pointer(b_.op(Op::OpShiftLeftLogical, t_u32(), {word_index, c_u32(2)}), t_u32());
  }
  if (m.constant) return parameter_word_pointer(m.buffer, word_index);
  if (m.shared) {
    // Out-of-range shared accesses are clamped into the array (the GL spec leaves them undefined).
    const uint32_t idx = b_.op(Op::OpExtInst, t_u32(), {glsl_, GLSLstd450UMin, word_index, c_u32(shared_words_ - 1)});
    return b_.op(Op::OpAccessChain, t_ptr(spv::StorageClass::Workgroup, t_u32()), {shared_var_, idx});
  }
  return b_.op(Op::OpAccessChain, t_ptr(spv::StorageClass::StorageBuffer, t_u32()),
               {storage_vars_.at(m.buffer), c_u32(0), word_index});
}

uint32_t Codegen::word_index(uint32_t addr, uint32_t plus_words) {
  uint32_t w = b_.op(Op::OpShiftRightLogical, t_u32(), {addr, c_u32(2)});
  if (plus_words) w = b_.op(Op::OpIAdd, t_u32(), {w, c_u32(plus_words)});
  return w;
}

uint32_t Codegen::load_word(const MemoryRef& m, uint32_t index) {
  const uint32_t ptr = word_pointer(m, index);
  if (m.global) return b_.op(Op::OpLoad, t_u32(), {ptr, kMemoryAccessAligned, 4});
  return b_.op(Op::OpLoad, t_u32(), {ptr});
}

void Codegen::store_word(const MemoryRef& m, uint32_t index, uint32_t value) {
  const uint32_t ptr = word_pointer(m, index);
  if (m.global) {
    b_.inst(Op::OpStore, {ptr, value, kMemoryAccessAligned, 4});
  } else {
    b_.inst(Op::OpStore, {ptr, value});
  }
}

// Formats whose elements are narrower than a word (U8 ... U16X4, F16 ... F16X4; NV_gpu_program5_mem_extended for
// the vector and F16 forms): the access is `total` bytes at an address aligned down to that size (a misaligned
// access is undefined; NVIDIA's driver aligns down too), element e in bits e * bits of the little-endian bytes.
uint32_t Codegen::narrow_address(const MemoryRef& m, const StorageFormat& f) {
  const uint32_t addr = byte_address(m);
  const uint32_t total = f.bits / 8u * f.count;
  if (total <= 1) return addr;
  return b_.op(Op::OpBitwiseAnd, t_u32(), {addr, c_u32(~(total - 1))});
}

// Element `e` of a narrow format from `word` (the word holding it) at bit `shift`: sign- or zero-extended, or an
// F16 decoded to f32.
uint32_t Codegen::narrow_element(const StorageFormat& f, uint32_t word, uint32_t shift) {
  if (f.half) return half_to_float(b_.op(Op::OpBitFieldUExtract, t_u32(), {word, shift, c_u32(16)}));
  if (f.type == DataType::S32) {
    return b_.op(Op::OpBitFieldSExtract, t_i32(), {b_.op(Op::OpBitcast, t_i32(), {word}), shift, c_u32(f.bits)});
  }
  return b_.op(Op::OpBitFieldUExtract, t_u32(), {word, shift, c_u32(f.bits)});
}

bool Codegen::load(const Instruction& inst) {
  const MemoryRef& m = *inst.memory;
  const StorageFormat f = inst.format;
  std::array<uint32_t, 4> elems{};
  if (f.bits < 32) {
    const uint32_t addr = narrow_address(m, f);
    const uint32_t total_bits = f.bits * f.count;
    if (total_bits >= 32) {
      // Whole words: S8X4, U16X2, F16X4, ...
      const uint32_t per_word = 32 / f.bits;
      for (uint32_t k = 0; k < total_bits / 32; ++k) {
        const uint32_t w = load_word(m, word_index(addr, k));
        for (uint32_t j = 0; j < per_word; ++j) elems[k * per_word + j] = narrow_element(f, w, c_u32(j * f.bits));
      }
    } else {
      // One field inside a word: U8, S16, F16, U8X2, ...
      const uint32_t w = load_word(m, word_index(addr, 0));
      const uint32_t shift =
          b_.op(Op::OpShiftLeftLogical, t_u32(), {b_.op(Op::OpBitwiseAnd, t_u32(), {addr, c_u32(3)}), c_u32(3)});
      for (uint32_t e = 0; e < f.count; ++e) {
        elems[e] = narrow_element(f, w, e ? b_.op(Op::OpIAdd, t_u32(), {shift, c_u32(e * f.bits)}) : shift);
      }
    }
  } else {
    const uint32_t addr = byte_address(m);
    for (uint32_t e = 0; e < f.count; ++e) {
      if (f.bits == 64) {
        const uint32_t lo = load_word(m, word_index(addr, 2 * e));
        const uint32_t hi = load_word(m, word_index(addr, 2 * e + 1));
        const uint32_t v2 = b_.op(Op::OpCompositeConstruct, t_vec(t_u32(), 2), {lo, hi});
        elems[e] = b_.op(Op::OpBitcast, scalar_type(f.type), {v2});
      } else {
        const uint32_t w = load_word(m, word_index(addr, e));
        elems[e] = f.type == DataType::U32 ? w : b_.op(Op::OpBitcast, scalar_type(f.type), {w});
      }
    }
  }
  // NV_gpu_program5 2.X.4.5: "When the storage modifier specifies that fewer than four components should be
  // fetched, remaining components are filled with zeroes." NVIDIA's driver does so (580, H200): LDB.U32 R0.yw
  // writes 0 to y and w.
  std::vector<uint32_t> parts;
  for (uint32_t c = 0; c < 4; ++c) parts.push_back(c < f.count ? elems[c] : c_scalar(f.type, 0.0, 0, false));
  const uint32_t vt = vec_type(f.type);
  uint32_t value = b_.op(Op::OpCompositeConstruct, vt, parts);
  // LDC's operand modifiers, in the order operands apply them (swizzle, absolute value, negation).
  if (m.has_swizzle) value = swizzle(value, vt, m.swizzle);
  if (m.absolute) value = ext(is_float(f.type) ? GLSLstd450FAbs : GLSLstd450SAbs, vt, {value});
  if (m.negate) value = b_.op(is_float(f.type) ? Op::OpFNegate : Op::OpSNegate, vt, {value});
  write_dest(inst, {value, f.type});
  return true;
}

// A compare-and-swap loop computing new = f(old) on a word of type `word` (u32 unless given); returns the old value.
// The value a failed compare-and-swap returns is the next attempt's old value (no second load), carried in a
// Function variable that only the continue block writes. So the old value read after the loop is the loop-carried
// value of the successful attempt, never a value defined in the loop body: lavapipe (Mesa 22.3) hands invocations
// of a subgroup that left a loop early the body values of later iterations, which made every returned old value
// but one per subgroup wrong (the same happens with glslang's output for a do/while compare-and-swap loop).
template <class F>
uint32_t Codegen::cas_loop(uint32_t ptr, uint32_t scope, F&& next_value, uint32_t word) {
  if (!word) word = t_u32();
  const uint32_t carried = function_var(word);
  b_.inst(Op::OpStore, {carried, b_.op(Op::OpAtomicLoad, word, {ptr, scope, c_u32(0)})});
  const uint32_t header = b_.id(), body = b_.id(), cont = b_.id(), merge = b_.id();
  branch(header);
  label(header);
  b_.inst(Op::OpLoopMerge, {merge, cont, 0});
  branch(body);
  label(body);
  const uint32_t old = b_.op(Op::OpLoad, word, {carried});
  const uint32_t desired = next_value(old);
  const uint32_t seen = b_.op(Op::OpAtomicCompareExchange, word, {ptr, scope, c_u32(0), c_u32(0), desired, old});
  const uint32_t done = b_.op(Op::OpIEqual, t_bool(), {seen, old});
  b_.inst(Op::OpBranchConditional, {done, merge, cont});
  label(cont);
  b_.inst(Op::OpStore, {carried, seen});
  branch(header);
  label(merge);
  return b_.op(Op::OpLoad, word, {carried});
}

uint32_t Codegen::cas_loop_fn(uint32_t ptr, uint32_t scope, const std::function<uint32_t(uint32_t)>& next_value,
                              uint32_t word) {
  return cas_loop(ptr, scope, next_value, word);
}

bool Codegen::store(const Instruction& inst) {
  const MemoryRef& m = *inst.memory;
  const StorageFormat f = inst.format;
  const Val v = load_operand(inst.sources[0], f.type);
  if (f.bits < 32) return store_narrow(m, f, v);
  const uint32_t addr = byte_address(m);
  for (uint32_t e = 0; e < f.count; ++e) {
    const uint32_t s = component(v, e);
    if (f.bits == 64) {
      const uint32_t v2 = b_.op(Op::OpBitcast, t_vec(t_u32(), 2), {s});
      store_word(m, word_index(addr, 2 * e), b_.op(Op::OpCompositeExtract, t_u32(), {v2, 0}));
      store_word(m, word_index(addr, 2 * e + 1), b_.op(Op::OpCompositeExtract, t_u32(), {v2, 1}));
    } else if (f.bits == 32) {
      const uint32_t w = f.type == DataType::U32 ? s : b_.op(Op::OpBitcast, t_u32(), {s});
      store_word(m, word_index(addr, e), w);
    }
  }
  return true;
}

// Narrow formats: the elements (F16 rounded to nearest even) packed little-endian into whole words (stored as words,
// the access being aligned to its size) or into one 8- or 16-bit field (store_field).
bool Codegen::store_narrow(const MemoryRef& m, const StorageFormat& f, Val v) {
  const uint32_t addr = narrow_address(m, f);
  const uint32_t halves = f.half ? half_bits(v.id) : 0;
  std::array<uint32_t, 4> elems{};
  for (uint32_t e = 0; e < f.count; ++e) {
    uint32_t s = f.half ? b_.op(Op::OpCompositeExtract, t_u32(), {halves, e}) : component(v, e);
    if (!f.half && f.type != DataType::U32) s = b_.op(Op::OpBitcast, t_u32(), {s});
    elems[e] = b_.op(Op::OpBitwiseAnd, t_u32(), {s, c_u32((1u << f.bits) - 1)});
  }
  auto pack = [&](uint32_t first, uint32_t n) {
    uint32_t word = elems[first];
    for (uint32_t j = 1; j < n; ++j) {
      word = b_.op(Op::OpBitwiseOr, t_u32(),
                   {word, b_.op(Op::OpShiftLeftLogical, t_u32(), {elems[first + j], c_u32(j * f.bits)})});
    }
    return word;
  };
  const uint32_t total_bits = f.bits * f.count;
  if (total_bits >= 32) {
    const uint32_t per_word = 32 / f.bits;
    for (uint32_t k = 0; k < total_bits / 32; ++k) {
      store_word(m, word_index(addr, k), pack(k * per_word, per_word));
    }
    return true;
  }
  store_field(m, addr, total_bits, pack(0, f.count));
  return true;
}

// An 8- or 16-bit field `w` (zero above) at byte address `addr`.
void Codegen::store_field(const MemoryRef& m, uint32_t addr, uint32_t bits, uint32_t w) {
  const bool narrow_store =
      (bits == 8 && options_.storage_buffer_8bit) || (bits == 16 && options_.storage_buffer_16bit);
  if (!m.shared && !m.global && narrow_store) {
    // The device has 8/16-bit storage: a plain byte or half-word store on a narrow view of the buffer. A memory
    // location is a byte in Vulkan's memory model, so the neighbours are untouched.
    const uint32_t narrow = t_int(bits, false);
    const uint32_t index = bits == 8 ? addr : b_.op(Op::OpShiftRightLogical, t_u32(), {addr, c_u32(1)});
    const uint32_t ptr = b_.op(Op::OpAccessChain, t_ptr(spv::StorageClass::StorageBuffer, narrow),
                               {storage_view(m.buffer, bits), c_u32(0), index});
    b_.inst(Op::OpStore, {ptr, b_.op(Op::OpUConvert, narrow, {w})});
    return;
  }
  // Sub-word store without touching the neighbouring bytes other invocations may write: a compare-and-swap loop on
  // the containing word replaces just the field. Neighbours are never lost, and concurrent stores to the same byte
  // leave one of the stored values (never a mix, which separate clear and set atomics could leave). One atomic when
  // uncontended; no 8/16-bit storage feature needed.
  const uint32_t field = (1u << bits) - 1;
  const uint32_t shift =
      b_.op(Op::OpShiftLeftLogical, t_u32(), {b_.op(Op::OpBitwiseAnd, t_u32(), {addr, c_u32(3)}), c_u32(3)});
  const uint32_t keep = b_.op(Op::OpNot, t_u32(), {b_.op(Op::OpShiftLeftLogical, t_u32(), {c_u32(field), shift})});
  const uint32_t placed = b_.op(Op::OpShiftLeftLogical, t_u32(), {w, shift});
  const uint32_t ptr = word_pointer(m, word_index(addr, 0));
  cas_loop(ptr, scope_of(m), [&](uint32_t old) {
    return b_.op(Op::OpBitwiseOr, t_u32(), {b_.op(Op::OpBitwiseAnd, t_u32(), {old, keep}), placed});
  });
}

// program.storage[index] as 8-, 16- or 64-bit elements (or 32/64-bit floats): another block variable on the same
// binding (descriptor aliasing), for sub-word stores where the device has 8/16-bit storage, for the 64-bit atomics
// and for the native float adds.
uint32_t Codegen::storage_view(uint32_t index, uint32_t bits, bool is_float) {
  const uint32_t key = is_float ? bits | 0x100 : bits;
  auto it = storage_views_.find({key, index});
  if (it != storage_views_.end()) return it->second;
  if (bits == 8) uses_storage8_ = true;
  if (bits == 16) uses_storage16_ = true;
  const uint32_t rt = b_.global(Op::OpTypeRuntimeArray, {is_float ? t_float(bits) : t_int(bits, false)}, false);
  const uint32_t block = b_.global(Op::OpTypeStruct, {rt}, false);
  decorate(rt, spv::Decoration::ArrayStride, {bits / 8});
  decorate(block, spv::Decoration::Block);
  member_decorate(block, 0, spv::Decoration::Offset, {0});
  const uint32_t var = variable(t_ptr(spv::StorageClass::StorageBuffer, block), spv::StorageClass::StorageBuffer);
  decorate(var, spv::Decoration::DescriptorSet, {0});
  decorate(var, spv::Decoration::Binding, {storage_binding(options_, index)});
  storage_views_[{key, index}] = var;
  return var;
}

uint32_t Codegen::float_atomic_add(uint32_t ptr, uint32_t scope, uint32_t type, uint32_t value) {
  (type == t_float(64) ? uses_float64_add_ : uses_float32_add_) = true;
  return b_.op(Op::OpAtomicFAddEXT, type, {ptr, scope, c_u32(0), value});
}

// NV_shader_atomic_int64: ATOMB .U64 / .S64 on an 8-byte aligned address (shaderBufferInt64Atomics).
bool Codegen::atomic64(const Instruction& inst) {
  const MemoryRef& m = *inst.memory;
  if (inst.format.type == DataType::F64 && inst.atomic == AtomicOp::Add && !m.shared &&
      options_.buffer_float64_atomic_add) {
    // shaderBufferFloat64AtomicAdd: OpAtomicFAddEXT on a double view of the buffer (no 64-bit integer atomics).
    uses_buffer_double_add_ = true;
    uses_float64_ = true;
    const uint32_t f64 = t_float(64);
    const uint32_t index = b_.op(Op::OpShiftRightLogical, t_u32(), {byte_address(m), c_u32(3)});
    const uint32_t ptr = b_.op(Op::OpAccessChain, t_ptr(spv::StorageClass::StorageBuffer, f64),
                               {storage_view(m.buffer, 64, true), c_u32(0), index});
    const uint32_t x = component(load_operand(inst.sources[0], DataType::F64), 0);
    write_dest(inst, splat_scalar(float_atomic_add(ptr, scope_of(m), f64, x), DataType::F64));
    return true;
  }
  if (m.shared && !shared64_) {
    return fail(inst,
                "64-bit ATOMS need the device's shaderSharedInt64Atomics feature (shared memory is then "
                "an array of 64-bit words)");
  }
  if (!m.shared && !options_.int64_buffer_atomics) {
    return fail(inst,
                "64-bit atomics (NV_shader_atomic_int64, and NV_shader_atomic_float64 through 64-bit "
                "compare-and-swap) need the device's shaderBufferInt64Atomics feature");
  }
  (m.shared ? uses_int64_shared_atomics_ : uses_int64_atomics_) = true;
  const uint32_t u64 = t_int(64, false);
  uint32_t ptr = 0;
  if (m.shared) {
    // The 64-bit word holding the 8-byte aligned address (32-bit word address >> 2 = 64-bit word address >> 3).
    ptr = shared64_pointer_of_word(word_index(byte_address(m), 0));
  } else if (m.global) {
    ptr = global_pointer(b_.op(Op::OpBitwiseAnd, t_u32(), {byte_address(m), c_u32(~7u)}), u64);
  } else {
    const uint32_t index = b_.op(Op::OpShiftRightLogical, t_u32(), {byte_address(m), c_u32(3)});
    ptr = b_.op(Op::OpAccessChain, t_ptr(spv::StorageClass::StorageBuffer, u64),
                {storage_view(m.buffer, 64), c_u32(0), index});
  }
  const uint32_t scope = scope_of(m), none = c_u32(0);
  if (inst.format.type == DataType::F64) {
    // NV_shader_atomic_float64: EXCH as an exchange of the bits; ADD as a compare-and-swap loop on the 64-bit word
    // (one correctly rounded double addition per attempt, the same sum a native float atomic gives).
    const uint32_t x = component(load_operand(inst.sources[0], DataType::F64), 0);
    const uint32_t f64 = t_float(64);
    uint32_t old = 0;
    if (inst.atomic == AtomicOp::Exch) {
      old = b_.op(Op::OpAtomicExchange, u64, {ptr, scope, none, b_.op(Op::OpBitcast, u64, {x})});
    } else {
      old = cas_loop(
          ptr, scope,
          [&](uint32_t o) {
            return b_.op(Op::OpBitcast, u64, {b_.op(Op::OpFAdd, f64, {b_.op(Op::OpBitcast, f64, {o}), x})});
          },
          u64);
    }
    write_dest(inst, splat_scalar(b_.op(Op::OpBitcast, f64, {old}), DataType::F64));
    return true;
  }
  const bool sign = inst.format.type == DataType::S64;
  const Val v = load_operand(inst.sources[0], DataType::U64);
  const uint32_t a = component(v, 0);
  uint32_t old = 0;
  switch (inst.atomic) {
    case AtomicOp::Add: old = b_.op(Op::OpAtomicIAdd, u64, {ptr, scope, none, a}); break;
    case AtomicOp::Min: old = b_.op(sign ? Op::OpAtomicSMin : Op::OpAtomicUMin, u64, {ptr, scope, none, a}); break;
    case AtomicOp::Max: old = b_.op(sign ? Op::OpAtomicSMax : Op::OpAtomicUMax, u64, {ptr, scope, none, a}); break;
    case AtomicOp::And: old = b_.op(Op::OpAtomicAnd, u64, {ptr, scope, none, a}); break;
    case AtomicOp::Or: old = b_.op(Op::OpAtomicOr, u64, {ptr, scope, none, a}); break;
    case AtomicOp::Xor: old = b_.op(Op::OpAtomicXor, u64, {ptr, scope, none, a}); break;
    case AtomicOp::Exch: old = b_.op(Op::OpAtomicExchange, u64, {ptr, scope, none, a}); break;
    case AtomicOp::CSwap:
      old = b_.op(Op::OpAtomicCompareExchange, u64, {ptr, scope, none, none, component(v, 1), a});
      break;
    default: return fail(inst, "this atomic operation does not take a 64-bit storage modifier");
  }
  Val result = splat_scalar(old, DataType::U64);
  if (sign) result = {b_.op(Op::OpBitcast, vec_type(DataType::S64), {result.id}), DataType::S64};
  write_dest(inst, result);
  return true;
}

bool Codegen::atomic(const Instruction& inst) {
  const MemoryRef& m = *inst.memory;
  const StorageFormat f = inst.format;
  if (f.bits == 64) return atomic64(inst);
  if (f.bits == 16) return atomic_f16(inst);
  const uint32_t ptr = word_pointer(m, word_index(byte_address(m), 0));
  const uint32_t scope = scope_of(m);
  if (f.type == DataType::F32 && inst.atomic == AtomicOp::Exch) {
    // NV_shader_atomic_float's EXCH.F32 stores the operand and returns the old value: an exchange of the bits, the
    // same on every device (no shaderBufferFloat32Atomics / shaderSharedFloat32Atomics needed).
    const Val v = load_operand(inst.sources[0], DataType::F32);
    const uint32_t bits = b_.op(Op::OpBitcast, t_u32(), {component(v, 0)});
    const uint32_t old = b_.op(Op::OpAtomicExchange, t_u32(), {ptr, scope, c_u32(0), bits});
    write_dest(inst, splat_scalar(b_.op(Op::OpBitcast, t_float(32), {old}), DataType::F32));
    return true;
  }
  if (f.type == DataType::F32 && !m.shared && options_.buffer_float32_atomic_add) {
    // The device adds floats in storage buffers itself (shaderBufferFloat32AtomicAdd): OpAtomicFAddEXT on a float
    // view of the buffer, one correctly rounded addition like the loop below.
    uses_buffer_float_add_ = true;
    const uint32_t f32 = t_float(32);
    const uint32_t fptr = b_.op(Op::OpAccessChain, t_ptr(spv::StorageClass::StorageBuffer, f32),
                                {storage_view(m.buffer, 32, true), c_u32(0), word_index(byte_address(m), 0)});
    const uint32_t old = float_atomic_add(fptr, scope, f32, component(load_operand(inst.sources[0], DataType::F32), 0));
    write_dest(inst, splat_scalar(old, DataType::F32));
    return true;
  }
  if (f.type == DataType::F32) {
    // Float add as a CAS loop: exact on every device, no float-atomic feature needed (shared memory always: its
    // words are one u32 array, and OpAtomicFAddEXT needs a float pointer).
    const Val v = load_operand(inst.sources[0], DataType::F32);
    const uint32_t add = component(v, 0);
    const uint32_t old = cas_loop(ptr, scope, [&](uint32_t o) {
      const uint32_t sum = b_.op(Op::OpFAdd, t_float(32), {b_.op(Op::OpBitcast, t_float(32), {o}), add});
      return b_.op(Op::OpBitcast, t_u32(), {sum});
    });
    write_dest(inst, splat_scalar(b_.op(Op::OpBitcast, t_float(32), {old}), DataType::F32));
    return true;
  }
  const bool sign = f.type == DataType::S32;
  const Val v = load_operand(inst.sources[0], DataType::U32);
  const uint32_t a = component(v, 0);
  const uint32_t desired = inst.atomic == AtomicOp::CSwap ? component(v, 1) : 0;
  const uint32_t old = atomic_word(inst.atomic, sign, ptr, scope, t_u32(), a, desired);
  Val result = splat_scalar(old, DataType::U32);
  if (sign) result = {b_.op(Op::OpBitcast, vec_type(DataType::S32), {result.id}), DataType::S32};
  write_dest(inst, result);
  return true;
}

// A 32-bit atomic on the word at `ptr`, whose type `word` is u32 (buffers, shared memory, unsigned images) or i32
// (signed integer images); `a` and `b` (CSWAP's new value) have that type. Returns the old value.
uint32_t Codegen::atomic_word(AtomicOp op, bool sign, uint32_t ptr, uint32_t scope, uint32_t word, uint32_t a,
                              uint32_t b) {
  const uint32_t none = c_u32(0);
  const bool int_word = word == t_i32();
  // The operations SPIR-V has no atomic for (on this word type) are compare-and-swap loops of atomic_result.
  auto computed = [&] {
    return cas_loop(
        ptr, scope, [&](uint32_t o) { return atomic_result(op, sign, o, a, b, word); }, word);
  };
  switch (op) {
    case AtomicOp::Add: return b_.op(Op::OpAtomicIAdd, word, {ptr, scope, none, a});
    case AtomicOp::Min:
      if (sign) return int_word ? b_.op(Op::OpAtomicSMin, word, {ptr, scope, none, a}) : computed();
      return b_.op(Op::OpAtomicUMin, word, {ptr, scope, none, a});
    case AtomicOp::Max:
      if (sign) return int_word ? b_.op(Op::OpAtomicSMax, word, {ptr, scope, none, a}) : computed();
      return b_.op(Op::OpAtomicUMax, word, {ptr, scope, none, a});
    case AtomicOp::And: return b_.op(Op::OpAtomicAnd, word, {ptr, scope, none, a});
    case AtomicOp::Or: return b_.op(Op::OpAtomicOr, word, {ptr, scope, none, a});
    case AtomicOp::Xor: return b_.op(Op::OpAtomicXor, word, {ptr, scope, none, a});
    case AtomicOp::Exch: return b_.op(Op::OpAtomicExchange, word, {ptr, scope, none, a});
    case AtomicOp::CSwap:
      // NV_gpu_program5 ATOM.CSWAP: compare with operand.x, store operand.y on a match.
      return b_.op(Op::OpAtomicCompareExchange, word, {ptr, scope, none, none, b, a});
    case AtomicOp::IWrap:
    case AtomicOp::DWrap: return computed();
    case AtomicOp::None: break;
  }
  return 0;
}

}  // namespace bismuth::nvasm::detail
