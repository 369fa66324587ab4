// Atomic counters (NV_shader_atomic_counters' ATOMCTR, and ATOMCTROP, NVIDIA's internal form for
// ARB_shader_atomic_counter_ops). Each program.counter[b] a COUNTER declaration binds is a storage block of 32-bit
// words, as the GLSL front's atomic counters are: one buffer per GL atomic counter buffer binding. What NVIDIA's
// driver 580 does (tests/data/nv_reference) sets the meaning the spec leaves open: the index counts counters from
// the start of the binding; INCR returns the value before the increment, DECR the value after the decrement (GLSL's
// atomicCounterDecrement), GET the value; ATOMCTROP returns the value before the operation (CSWAP compares with
// operand .x and stores .y, as ATOM.CSWAP does). The result goes to .x of the destination only: NVIDIA's
// `ATOMCTR.INCR R0.xy, c[3]` increments once and leaves .y as it was.
#include "codegen.hpp"
#include "program_info.hpp"

namespace bismuth::nvasm::detail {

void Codegen::declare_counter_buffers() {
  const std::vector<uint32_t> bindings = declared_counter_buffers(p_);
  if (bindings.empty()) return;
  // The block type of program.storage (the builder keeps one of each type): decorated once.
  const uint32_t rt = b_.global(Op::OpTypeRuntimeArray, {t_u32()}, false);
  const uint32_t block = b_.global(Op::OpTypeStruct, {rt}, false);
  if (storage_vars_.empty()) {
    decorate(rt, spv::Decoration::ArrayStride, {4});
    decorate(block, spv::Decoration::Block);
    member_decorate(block, 0, spv::Decoration::Offset, {0});
  }
  const uint32_t ptr = t_ptr(spv::StorageClass::StorageBuffer, block);
  for (uint32_t b : bindings) {
    const uint32_t var = variable(ptr, spv::StorageClass::StorageBuffer);
    decorate(var, spv::Decoration::DescriptorSet, {0});
    decorate(var, spv::Decoration::Binding, {counter_binding(options_, b)});
    counter_vars_[b] = var;
  }
}

// The word of the binding the counter reference names.
uint32_t Codegen::counter_word(const CounterRef& c) {
  const CounterDecl& d = p_.counters[c.decl];
  if (d.whole) {
    // `c[R0.z + 3]` on a whole binding: counter R0.z + 3, unbounded as a storage buffer address is.
    if (!c.relative) return c_u32(c.element);
    const uint32_t raw = load_temp_raw(c.rel_temp, 0, false, 0, 0);
    const bool wide = p_.temps[c.rel_temp].is_long;
    uint32_t v = b_.op(Op::OpCompositeExtract, raw_scalar(wide), {raw, c.rel_component});
    if (wide) v = b_.op(Op::OpUConvert, t_u32(), {v});
    return c.element ? b_.op(Op::OpIAdd, t_u32(), {v, c_u32(c.element)}) : v;
  }
  const uint32_t n = static_cast<uint32_t>(d.words.size());
  if (!c.relative) return c_u32(d.words[c.element]);
  // A list of counters indexed with a register: the index clamped into the list (as register-array indices are),
  // then its word: first + index for consecutive counters, else a chain of selects.
  const uint32_t index = dynamic_index(c.element, c.rel_temp, c.rel_component, n);
  bool consecutive = true;
  for (uint32_t k = 1; k < n; ++k) consecutive = consecutive && d.words[k] == d.words[0] + k;
  if (consecutive) return d.words[0] ? b_.op(Op::OpIAdd, t_u32(), {index, c_u32(d.words[0])}) : index;
  uint32_t word = c_u32(d.words[0]);
  for (uint32_t k = 1; k < n; ++k) {
    const uint32_t is_k = b_.op(Op::OpIEqual, t_bool(), {index, c_u32(k)});
    word = b_.op(Op::OpSelect, t_u32(), {is_k, c_u32(d.words[k]), word});
  }
  return word;
}

bool Codegen::counter(const Instruction& inst) {
  const CounterRef& c = *inst.counter;
  const uint32_t var = counter_vars_.at(p_.counters[c.decl].binding);
  const uint32_t ptr =
      b_.op(Op::OpAccessChain, t_ptr(spv::StorageClass::StorageBuffer, t_u32()), {var, c_u32(0), counter_word(c)});
  const uint32_t scope = c_u32(kScopeDevice), none = c_u32(0), u32 = t_u32();
  uint32_t a = 0, b = 0;
  if (!inst.sources.empty()) {
    const Val v = load_operand(inst.sources[0], DataType::U32);
    a = component(v, 0);
    b = component(v, 1);
  }
  uint32_t result = 0;
  switch (inst.counter_op) {
    case CounterOp::Incr: result = b_.op(Op::OpAtomicIIncrement, u32, {ptr, scope, none}); break;
    case CounterOp::Decr:
      // GLSL's atomicCounterDecrement: the decremented value (NVIDIA's DECR returns it too).
      result = b_.op(Op::OpISub, u32, {b_.op(Op::OpAtomicIDecrement, u32, {ptr, scope, none}), c_u32(1)});
      break;
    case CounterOp::Get: result = b_.op(Op::OpAtomicLoad, u32, {ptr, scope, none}); break;
    case CounterOp::Sub: result = b_.op(Op::OpAtomicISub, u32, {ptr, scope, none, a}); break;
    case CounterOp::Add: result = atomic_word(AtomicOp::Add, false, ptr, scope, u32, a, b); break;
    case CounterOp::Min: result = atomic_word(AtomicOp::Min, false, ptr, scope, u32, a, b); break;
    case CounterOp::Max: result = atomic_word(AtomicOp::Max, false, ptr, scope, u32, a, b); break;
    case CounterOp::And: result = atomic_word(AtomicOp::And, false, ptr, scope, u32, a, b); break;
    case CounterOp::Or: result = atomic_word(AtomicOp::Or, false, ptr, scope, u32, a, b); break;
    case CounterOp::Xor: result = atomic_word(AtomicOp::Xor, false, ptr, scope, u32, a, b); break;
    case CounterOp::Exch: result = atomic_word(AtomicOp::Exch, false, ptr, scope, u32, a, b); break;
    case CounterOp::CSwap: result = atomic_word(AtomicOp::CSwap, false, ptr, scope, u32, a, b); break;
    case CounterOp::None: return fail(inst, "internal: counter instruction without an operation");
  }
  Instruction x_only = inst;
  x_only.dest.mask &= 1;
  write_dest(x_only, splat_scalar(result, DataType::U32));
  return true;
}

}  // namespace bismuth::nvasm::detail
