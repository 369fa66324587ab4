// AtomicCounter variables of GL SPIR-V -> uints in one storage buffer per GL binding point. A counter at byte offset
// o is element o/4 of the buffer's runtime array; an array of counters starts there. The atomics keep their opcode,
// scope and result: only their pointer (and the AtomicCounterMemory bit of their semantics) changes.
#include "bismuth/spirv_patch/passes/atomic_counters_to_storage_buffers.hpp"

#include <string>
#include <unordered_map>

#include "analysis/id_operands.hpp"
#include "analysis/type_queries.hpp"
#include "analysis/use_index.hpp"
#include "variable_edits.hpp"

namespace bismuth::spirv_patch {

namespace {

using spv::Op;

constexpr uint32_t kAtomicCounterMemory = uint32_t(spv::MemorySemanticsMask::AtomicCounterMemory);
constexpr uint32_t kUniformMemory = uint32_t(spv::MemorySemanticsMask::UniformMemory);
constexpr uint32_t kOrderBits =
    uint32_t(spv::MemorySemanticsMask::Acquire) | uint32_t(spv::MemorySemanticsMask::Release) |
    uint32_t(spv::MemorySemanticsMask::AcquireRelease) | uint32_t(spv::MemorySemanticsMask::SequentiallyConsistent);

bool is_access_chain(Op op) {
  return op == Op::OpAccessChain || op == Op::OpInBoundsAccessChain;
}

// Word indices of an atomic's pointer and memory-semantics operands.
struct AtomicOperands {
  size_t pointer;
  std::vector<size_t> semantics;
};

AtomicOperands atomic_operands(Op op) {
  switch (op) {
    case Op::OpAtomicStore:
    case Op::OpAtomicFlagClear: return {1, {3}};
    case Op::OpAtomicCompareExchange:
    case Op::OpAtomicCompareExchangeWeak: return {3, {5, 6}};
    default: return {3, {5}};
  }
}

bool is_uint32(const Module& m, uint32_t type) {
  return int32_type(m, type, 1) == std::optional<bool>(false);
}

// Every use of a counter is an atomic on it or an access chain into a counter array whose results only atomics use.
Status check_uses(const Module& m, const UseIndex& uses, const AtomicCounterVariable& counter) {
  for (InstructionHandle h : uses.users(counter.variable)) {
    if (names_without_using(m, h)) continue;
    const Op op = m.opcode(h);
    const auto w = m.words(h);
    if (is_atomic(op) && w[atomic_operands(op).pointer] == counter.variable) continue;
    if (is_access_chain(op) && counter.array_size != 0 && w.size() == 5 && w[3] == counter.variable) {
      for (InstructionHandle user : uses.users(w[2])) {
        const Op user_op = m.opcode(user);
        if (names_without_using(m, user)) continue;
        if (!is_atomic(user_op) || m.words(user)[atomic_operands(user_op).pointer] != w[2]) {
          return fail("the atomic counter element %" + std::to_string(w[2]) + " is used by " + m.describe(user) +
                      ", which is not an atomic operation on it");
        }
      }
      continue;
    }
    return fail("the atomic counter %" + std::to_string(counter.variable) + " is used by " + m.describe(h) +
                ", which is neither an atomic operation on it nor an access chain into it");
  }
  return {};
}

// The semantics operand `id` without AtomicCounterMemory: a new constant when the bit is set.
Expected<uint32_t> storage_buffer_semantics(Module& m, uint32_t id) {
  auto def = m.definition(id);
  if (!def || m.opcode(*def) != Op::OpConstant || m.words(*def).size() != 4) return id;
  const uint32_t value = m.words(*def)[3];
  if ((value & kAtomicCounterMemory) == 0) return id;
  const uint32_t rewritten = (value & ~kAtomicCounterMemory) | ((value & kOrderBits) != 0 ? kUniformMemory : 0);
  return m.constant_u32(rewritten);
}

// A runtime array of uint with ArrayStride 4: the module's own when it has one that fits, else a new one.
Expected<uint32_t> uint_runtime_array(Module& m, uint32_t uint_type) {
  for (InstructionHandle h : m.instructions(Section::Global)) {
    const auto w = m.words(h);
    if (m.opcode(h) != Op::OpTypeRuntimeArray || w[2] != uint_type) continue;
    auto stride = m.decoration_literal(w[1], spv::Decoration::ArrayStride);
    if (stride == 4u) return w[1];
  }
  auto id = m.allocate_id();
  if (!id) return id.error();
  const uint32_t operands[] = {*id, uint_type};
  m.append(Section::Global, Op::OpTypeRuntimeArray, operands);
  const uint32_t stride = 4;
  m.add_decoration(*id, spv::Decoration::ArrayStride, std::span(&stride, 1));
  return *id;
}

}  // namespace

Expected<std::vector<AtomicCounterVariable>> atomic_counter_variables(const Module& m) {
  std::vector<AtomicCounterVariable> found;
  for (InstructionHandle h : m.instructions(Section::Global)) {
    const auto w = m.words(h);
    if (m.opcode(h) != Op::OpVariable || w[3] != uint32_t(spv::StorageClass::AtomicCounter)) continue;
    AtomicCounterVariable counter;
    counter.variable = w[2];
    const std::string name = "the atomic counter %" + std::to_string(w[2]);
    auto binding = m.decoration_literal(w[2], spv::Decoration::Binding);
    auto offset = m.decoration_literal(w[2], spv::Decoration::Offset);
    if (!binding) return fail(name + " has no Binding");
    if (!offset) return fail(name + " has no Offset");
    if (*offset % 4 != 0) return fail(name + " has Offset " + std::to_string(*offset) + ", not a multiple of 4");
    counter.gl_binding = *binding;
    counter.offset = *offset;
    auto pointer = pointer_type(m, w[1]);
    if (!pointer) return fail(name + " is not a pointer");
    uint32_t element = pointer->second;
    if (auto def = m.definition(element); def && m.opcode(*def) == Op::OpTypeArray) {
      auto length = m.definition(m.words(*def)[3]);
      if (!length || m.opcode(*length) != Op::OpConstant || m.words(*length).size() != 4) {
        return fail(name + " is an array whose length is not a 32-bit constant");
      }
      counter.array_size = m.words(*length)[3];
      element = m.words(*def)[2];
    }
    if (!is_uint32(m, element)) return fail(name + " is not a 32-bit unsigned integer or an array of them");
    found.push_back(counter);
  }
  return found;
}

Expected<std::vector<AtomicCounterVariable>> atomic_counters_to_storage_buffers(
    Module& m, const AtomicCounterBufferOptions& options) {
  auto counters = atomic_counter_variables(m);
  if (!counters || counters->empty()) return counters;
  const UseIndex uses(m);
  for (const AtomicCounterVariable& c : *counters) {
    if (!options.vk_binding.count(c.gl_binding)) {
      return fail("the atomic-counter binding " + std::to_string(c.gl_binding) + " has no Vulkan binding");
    }
    if (Status ok = check_uses(m, uses, c); !ok) return ok.error();
  }

  // SPIR-V 1.3 made StorageBuffer core; earlier modules (GL SPIR-V is 1.0) use BufferBlock in Uniform storage, as
  // glslang writes their storage blocks.
  const bool storage_buffer_class = m.version() >= 0x00010300;
  const auto storage = storage_buffer_class ? spv::StorageClass::StorageBuffer : spv::StorageClass::Uniform;
  auto uint_type = m.type_int(32, false);
  if (!uint_type) return uint_type.error();
  auto array = uint_runtime_array(m, *uint_type);
  if (!array) return array.error();
  auto block_type = m.allocate_id();
  if (!block_type) return block_type.error();
  const uint32_t struct_operands[] = {*block_type, *array};
  m.append(Section::Global, Op::OpTypeStruct, struct_operands);
  m.add_decoration(*block_type, storage_buffer_class ? spv::Decoration::Block : spv::Decoration::BufferBlock);
  const uint32_t member_offset[] = {*block_type, 0, uint32_t(spv::Decoration::Offset), 0};
  m.append(Section::Annotation, Op::OpMemberDecorate, member_offset);
  auto block_pointer = pointer_to(m, storage, *block_type);
  if (!block_pointer) return block_pointer.error();
  auto element_pointer = pointer_to(m, storage, *uint_type);
  if (!element_pointer) return element_pointer.error();
  auto zero = m.constant_u32(0);
  if (!zero) return zero.error();

  std::unordered_map<uint32_t, uint32_t> buffer_of_binding;  // GL binding -> buffer variable
  for (const auto& [gl_binding, vk_binding] : options.vk_binding) {
    auto variable = m.allocate_id();
    if (!variable) return variable.error();
    const uint32_t operands[] = {*block_pointer, *variable, uint32_t(storage)};
    m.append(Section::Global, Op::OpVariable, operands);
    m.add_decoration(*variable, spv::Decoration::DescriptorSet, std::span(&options.descriptor_set, 1));
    m.add_decoration(*variable, spv::Decoration::Binding, std::span(&vk_binding, 1));
    buffer_of_binding[gl_binding] = *variable;
  }

  auto rewrite_semantics = [&](InstructionHandle h) -> Status {
    std::vector<uint32_t> w(m.words(h).begin(), m.words(h).end());
    bool changed = false;
    for (size_t i : atomic_operands(m.opcode(h)).semantics) {
      auto semantics = storage_buffer_semantics(m, w[i]);
      if (!semantics) return semantics.error();
      changed = changed || *semantics != w[i];
      w[i] = *semantics;
    }
    if (changed) m.replace(h, m.opcode(h), std::span(w).subspan(1));
    return {};
  };

  for (const AtomicCounterVariable& c : *counters) {
    const uint32_t buffer = buffer_of_binding.at(c.gl_binding);
    auto first = m.constant_u32(c.offset / 4);
    if (!first) return first.error();
    for (InstructionHandle h : uses.users(c.variable)) {
      std::vector<uint32_t> w(m.words(h).begin(), m.words(h).end());
      const Op op = m.opcode(h);
      if (m.section(h) == Section::Debug || m.section(h) == Section::Annotation) {
        m.erase(h);
        continue;
      }
      if (op == Op::OpEntryPoint) {
        m.replace(h, op, entry_point_interface_edit(m, h, c.variable, interface_lists_all_globals(m) ? buffer : 0));
        continue;
      }
      if (is_access_chain(op)) {
        // counters[i] is element offset/4 + i.
        uint32_t index = w[4];
        if (c.offset != 0) {
          auto sum = m.allocate_id();
          if (!sum) return sum.error();
          const uint32_t add[] = {*uint_type, *sum, w[4], *first};
          m.insert_before(h, Op::OpIAdd, add);
          index = *sum;
        }
        const uint32_t chain[] = {*element_pointer, w[2], buffer, *zero, index};
        m.replace(h, op, chain);
        for (InstructionHandle user : uses.users(w[2])) {
          if (names_without_using(m, user)) continue;
          if (Status ok = rewrite_semantics(user); !ok) return ok.error();
        }
        continue;
      }
      // An atomic on the counter itself.
      auto chain = m.allocate_id();
      if (!chain) return chain.error();
      const uint32_t chain_operands[] = {*element_pointer, *chain, buffer, *zero, *first};
      m.insert_before(h, Op::OpAccessChain, chain_operands);
      w[atomic_operands(op).pointer] = *chain;
      m.replace(h, op, std::span(w).subspan(1));
      if (Status ok = rewrite_semantics(h); !ok) return ok.error();
    }
    if (auto def = m.definition(c.variable)) m.erase(*def);
  }
  // The AtomicCounter pointer types are unused now, and declaring them needs the capability that goes.
  for (InstructionHandle h : m.instructions(Section::Global)) {
    if (m.opcode(h) == Op::OpTypePointer && m.words(h)[2] == uint32_t(spv::StorageClass::AtomicCounter)) {
      for (InstructionHandle d : m.instructions(Section::Debug)) {
        if (m.words(d).size() > 1 && m.words(d)[1] == m.words(h)[1]) m.erase(d);
      }
      m.erase(h);
    }
  }
  m.remove_capability(spv::Capability::AtomicStorage);
  m.remove_capability(spv::Capability::AtomicStorageOps);
  m.remove_extension("SPV_KHR_shader_atomic_counter_ops");
  return counters;
}

}  // namespace bismuth::spirv_patch
