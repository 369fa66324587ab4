// Default-block uniforms of GL SPIR-V (UniformConstant + Location) -> one std140 uniform block. The layout is computed
// first and shared with the GL shim (default_uniform_layout); the rewrite then replaces every access chain and load
// rooted at such a variable by the same access into the block's member.
#include "bismuth/spirv_patch/passes/default_uniforms_to_uniform_block.hpp"

#include <algorithm>
#include <deque>
#include <map>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "analysis/type_queries.hpp"
#include "analysis/use_index.hpp"
#include "variable_edits.hpp"

namespace bismuth::spirv_patch {

namespace {

using spv::Op;

std::vector<uint32_t> copy_words(const Module& m, InstructionHandle h) {
  const auto w = m.words(h);
  return {w.begin(), w.end()};
}

bool is_bool_type(const Module& m, uint32_t type) {
  auto def = m.definition(type);
  if (!def) return false;
  if (m.opcode(*def) == Op::OpTypeVector) def = m.definition(m.words(*def)[2]);
  return def && m.opcode(*def) == Op::OpTypeBool;
}

// The type a value of `type` is stored as in the block: bool and bvecN become uint and uvecN.
Expected<uint32_t> stored_type(Module& m, uint32_t type) {
  if (!is_bool_type(m, type)) return type;
  auto uint_type = m.type_int(32, false);
  if (!uint_type) return uint_type.error();
  auto def = m.definition(type);
  if (m.opcode(*def) == Op::OpTypeVector) return m.type_vector(*uint_type, m.words(*def)[3]);
  return *uint_type;
}

// A zero of the stored (unsigned) type of a bool uniform, for `value != 0`.
Expected<uint32_t> zero_of(Module& m, uint32_t uint_type) {
  auto def = m.definition(uint_type);
  if (m.opcode(*def) != Op::OpTypeVector) return m.constant_u32(0);
  auto zero = m.constant_u32(0);
  if (!zero) return zero.error();
  auto id = m.allocate_id();
  if (!id) return id.error();
  std::vector<uint32_t> operands = {uint_type, *id};
  for (uint32_t i = 0; i < m.words(*def)[3]; ++i) operands.push_back(*zero);
  m.append(Section::Global, Op::OpConstantComposite, operands);
  return *id;
}

// Whether `OpMemberDecorate target member decoration` exists.
bool member_decorated(const Module& m, uint32_t target, uint32_t member, spv::Decoration decoration) {
  for (InstructionHandle h : m.instructions(Section::Annotation)) {
    const auto w = m.words(h);
    if (m.opcode(h) == Op::OpMemberDecorate && w.size() >= 4 && w[1] == target && w[2] == member &&
        w[3] == uint32_t(decoration)) {
      return true;
    }
  }
  return false;
}

bool is_access_chain(Op op) {
  return op == Op::OpAccessChain || op == Op::OpInBoundsAccessChain;
}

// Every instruction that uses a candidate's pointer, directly or through access chains, is a load, an access chain
// or a debug/annotation/entry-point reference; anything else is refused before the module is edited.
Status check_uses(const Module& m, const UseIndex& uses, uint32_t variable) {
  std::deque<uint32_t> pending = {variable};
  while (!pending.empty()) {
    const uint32_t id = pending.front();
    pending.pop_front();
    for (InstructionHandle h : uses.users(id)) {
      const Op op = m.opcode(h);
      const auto w = m.words(h);
      if (names_without_using(m, h)) continue;
      if (is_access_chain(op) && w[3] == id) {
        pending.push_back(w[2]);
        continue;
      }
      if (op == Op::OpLoad && w[3] == id) continue;
      return fail("the default-block uniform %" + std::to_string(variable) + " is used by " + m.describe(h) +
                  ", which only loads and access chains may do");
    }
  }
  return {};
}

}  // namespace

Expected<DefaultUniformLayout> default_uniforms_to_uniform_block(Module& m, const DefaultUniformBlockOptions& options) {
  auto layout = default_uniform_layout(m);
  if (!layout || layout->variables.empty()) return layout;
  const std::vector<DefaultUniformCandidate> found = default_uniform_candidates(m);
  const UseIndex uses(m);
  for (const DefaultUniformCandidate& c : found) {
    if (Status ok = check_uses(m, uses, c.variable); !ok) return ok.error();
  }

  // The block: one member per variable, in declaration order (found[i] is layout->variables[i]); the types inside
  // get the explicit layout the block needs.
  for (const LayoutDecoration& d : layout->decorations) {
    const bool present = d.member ? false : m.decoration_literal(d.target, d.decoration).has_value();
    if (present) continue;
    if (d.member) {
      if (member_decorated(m, d.target, *d.member, d.decoration)) continue;
      std::vector<uint32_t> operands = {d.target, *d.member, uint32_t(d.decoration)};
      if (d.value) operands.push_back(*d.value);
      m.append(Section::Annotation, Op::OpMemberDecorate, operands);
    } else {
      m.add_decoration(d.target, d.decoration, d.value ? std::span(&*d.value, 1) : std::span<const uint32_t>{});
    }
  }
  std::vector<uint32_t> member_types;
  for (const DefaultUniformCandidate& c : found) {
    auto type = stored_type(m, c.pointee);
    if (!type) return type.error();
    member_types.push_back(*type);
  }
  auto block_type = m.allocate_id();
  if (!block_type) return block_type.error();
  std::vector<uint32_t> struct_operands = {*block_type};
  struct_operands.insert(struct_operands.end(), member_types.begin(), member_types.end());
  m.append(Section::Global, Op::OpTypeStruct, struct_operands);
  m.add_decoration(*block_type, spv::Decoration::Block);
  for (uint32_t i = 0; i < found.size(); ++i) {
    const DefaultUniformVariable& v = layout->variables[i];
    const uint32_t offset[] = {*block_type, i, uint32_t(spv::Decoration::Offset), v.offset};
    m.append(Section::Annotation, Op::OpMemberDecorate, offset);
    if (v.matrix_stride != 0) {
      const uint32_t col_major[] = {*block_type, i, uint32_t(spv::Decoration::ColMajor)};
      m.append(Section::Annotation, Op::OpMemberDecorate, col_major);
      const uint32_t stride[] = {*block_type, i, uint32_t(spv::Decoration::MatrixStride), v.matrix_stride};
      m.append(Section::Annotation, Op::OpMemberDecorate, stride);
    }
  }
  auto block_pointer = pointer_to(m, spv::StorageClass::Uniform, *block_type);
  if (!block_pointer) return block_pointer.error();
  auto block = m.allocate_id();
  if (!block) return block.error();
  const uint32_t variable_operands[] = {*block_pointer, *block, uint32_t(spv::StorageClass::Uniform)};
  m.append(Section::Global, Op::OpVariable, variable_operands);
  m.add_decoration(*block, spv::Decoration::DescriptorSet, std::span(&options.descriptor_set, 1));
  m.add_decoration(*block, spv::Decoration::Binding, std::span(&options.binding, 1));

  // The uses: access chains rooted at a uniform start at the block's member; loads of bool read the stored uint.
  for (uint32_t i = 0; i < found.size(); ++i) {
    auto member = m.constant_u32(i);
    if (!member) return member.error();
    std::deque<uint32_t> pending = {found[i].variable};
    while (!pending.empty()) {
      const uint32_t id = pending.front();
      pending.pop_front();
      for (InstructionHandle h : uses.users(id)) {
        std::vector<uint32_t> w = copy_words(m, h);
        const Op op = m.opcode(h);
        if (m.section(h) == Section::Debug || m.section(h) == Section::Annotation) {
          if (id == found[i].variable) m.erase(h);
          continue;
        }
        if (op == Op::OpEntryPoint) {
          // SPIR-V 1.4+ lists every global variable in the interface: the block replaces the uniforms there.
          m.replace(h, op, entry_point_interface_edit(m, h, id, interface_lists_all_globals(m) ? *block : 0));
          continue;
        }
        if (is_access_chain(op)) {
          auto pointer = pointer_type(m, w[1]);
          if (!pointer) return fail("malformed access chain " + m.describe(h));
          auto pointee = stored_type(m, pointer->second);
          if (!pointee) return pointee.error();
          auto result_type = pointer_to(m, spv::StorageClass::Uniform, *pointee);
          if (!result_type) return result_type.error();
          std::vector<uint32_t> operands = {*result_type, w[2]};
          if (id == found[i].variable) {
            operands.push_back(*block);
            operands.push_back(*member);
          } else {
            operands.push_back(id);
          }
          operands.insert(operands.end(), w.begin() + 4, w.end());
          m.replace(h, op, operands);
          pending.push_back(w[2]);
          continue;
        }
        // OpLoad (check_uses allowed nothing else).
        uint32_t pointer = id;
        const uint32_t loaded = w[1];
        auto stored = stored_type(m, loaded);
        if (!stored) return stored.error();
        if (id == found[i].variable) {
          auto chain_type = pointer_to(m, spv::StorageClass::Uniform, member_types[i]);
          if (!chain_type) return chain_type.error();
          auto chain = m.allocate_id();
          if (!chain) return chain.error();
          const uint32_t operands[] = {*chain_type, *chain, *block, *member};
          m.insert_before(h, Op::OpAccessChain, operands);
          pointer = *chain;
        }
        std::vector<uint32_t> load = {*stored, w[2], pointer};
        load.insert(load.end(), w.begin() + 4, w.end());
        if (*stored == loaded) {
          m.replace(h, Op::OpLoad, load);
          continue;
        }
        auto raw = m.allocate_id();
        if (!raw) return raw.error();
        auto zero = zero_of(m, *stored);
        if (!zero) return zero.error();
        load[1] = *raw;
        m.insert_before(h, Op::OpLoad, load);
        const uint32_t compare[] = {loaded, w[2], *raw, *zero};
        m.replace(h, Op::OpINotEqual, compare);
      }
    }
    m.erase(found[i].handle);
  }
  return layout;
}

}  // namespace bismuth::spirv_patch
