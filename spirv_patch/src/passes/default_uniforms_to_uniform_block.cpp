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

uint32_t round_up(uint32_t value, uint32_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

std::vector<uint32_t> copy_words(const Module& m, InstructionHandle h) {
  const auto w = m.words(h);
  return {w.begin(), w.end()};
}

// Opaque types stay UniformConstant (samplers, images): they are descriptors, not default-block storage.
bool is_opaque(const Module& m, uint32_t type) {
  for (int depth = 0; depth < 8; ++depth) {
    auto def = m.definition(type);
    if (!def) return false;
    switch (m.opcode(*def)) {
      case Op::OpTypeArray:
      case Op::OpTypeRuntimeArray: type = m.words(*def)[2]; continue;
      case Op::OpTypeImage:
      case Op::OpTypeSampler:
      case Op::OpTypeSampledImage:
      case Op::OpTypeAccelerationStructureKHR: return true;
      default: return false;
    }
  }
  return false;
}

struct Scalar {
  UniformScalar kind;
  uint32_t bytes;
};

Expected<Scalar> scalar_of(const Module& m, uint32_t type) {
  auto def = m.definition(type);
  if (!def) return fail("%" + std::to_string(type) + " is not a type");
  const auto w = m.words(*def);
  switch (m.opcode(*def)) {
    case Op::OpTypeBool: return Scalar{UniformScalar::Bool, 4};
    case Op::OpTypeFloat:
      if (w[2] == 32) return Scalar{UniformScalar::Float, 4};
      if (w[2] == 64) return Scalar{UniformScalar::Double, 8};
      break;
    case Op::OpTypeInt:
      if (w[2] == 32) return Scalar{w[3] ? UniformScalar::Int : UniformScalar::Uint, 4};
      if (w[2] == 64) return Scalar{w[3] ? UniformScalar::Int64 : UniformScalar::Uint64, 8};
      break;
    default: break;
  }
  return fail("a default-block uniform of type " + opcode_name(uint32_t(m.opcode(*def))) + " is not supported");
}

// std140 (GL 4.6 §7.6.2.2) size and base alignment of a scalar, vector or matrix, filling `u`'s shape.
struct Shape {
  uint32_t size = 0;
  uint32_t alignment = 0;
};

Expected<Shape> shape_of(const Module& m, uint32_t type, DefaultUniform& u) {
  auto def = m.definition(type);
  if (!def) return fail("%" + std::to_string(type) + " is not a type");
  const auto w = m.words(*def);
  if (m.opcode(*def) == Op::OpTypeMatrix) {
    auto column = m.definition(w[2]);
    if (!column || m.opcode(*column) != Op::OpTypeVector) return fail("malformed matrix type");
    auto s = scalar_of(m, m.words(*column)[2]);
    if (!s) return s.error();
    u.scalar = s->kind;
    u.components = m.words(*column)[3];
    u.columns = w[3];
    // A matrix is an array of its column vectors: each column aligned to a vec4 (rule 5).
    const uint32_t column_alignment = round_up(s->bytes * (u.components == 2 ? 2 : 4), 16);
    u.matrix_stride = column_alignment;
    return Shape{column_alignment * u.columns, column_alignment};
  }
  uint32_t scalar_type = type;
  u.components = 1;
  if (m.opcode(*def) == Op::OpTypeVector) {
    scalar_type = w[2];
    u.components = w[3];
  }
  auto s = scalar_of(m, scalar_type);
  if (!s) return s.error();
  u.scalar = s->kind;
  const uint32_t alignment = s->bytes * (u.components == 1 ? 1 : u.components == 2 ? 2 : 4);
  return Shape{s->bytes * u.components, alignment};
}

Expected<uint32_t> array_length(const Module& m, uint32_t length_id) {
  auto def = m.definition(length_id);
  if (!def || m.opcode(*def) != Op::OpConstant || m.words(*def).size() != 4) {
    return fail("a default-block uniform array's length is not a 32-bit constant");
  }
  return m.words(*def)[3];
}

// The element type of a uniform array type, its length, and its declared ArrayStride if any.
struct ArrayInfo {
  uint32_t element = 0;
  uint32_t length = 0;
};

std::optional<ArrayInfo> as_array(const Module& m, uint32_t type) {
  auto def = m.definition(type);
  if (!def || m.opcode(*def) != Op::OpTypeArray) return std::nullopt;
  return ArrayInfo{m.words(*def)[2], m.words(*def)[3]};
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

struct Candidate {
  InstructionHandle handle;
  uint32_t variable;
  uint32_t pointee;
};

std::vector<Candidate> candidates(const Module& m) {
  std::vector<Candidate> found;
  for (InstructionHandle h : m.instructions(Section::Global)) {
    const auto w = m.words(h);
    if (m.opcode(h) != Op::OpVariable || w[3] != uint32_t(spv::StorageClass::UniformConstant)) continue;
    auto pointer = pointer_type(m, w[1]);
    if (!pointer || is_opaque(m, pointer->second)) continue;
    found.push_back({h, w[2], pointer->second});
  }
  return found;
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
      if (m.section(h) != Section::Function) continue;  // OpName, OpDecorate, OpEntryPoint
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

Expected<DefaultUniformLayout> default_uniform_layout(const Module& m) {
  DefaultUniformLayout layout;
  std::map<uint32_t, uint32_t> taken;  // first location -> one past the last, for overlap checks
  for (const Candidate& c : candidates(m)) {
    DefaultUniform u;
    u.variable = c.variable;
    auto location = m.decoration_literal(c.variable, spv::Decoration::Location);
    if (!location) {
      return fail("the default-block uniform %" + std::to_string(c.variable) +
                  " has no Location (ARB_gl_spirv: uniforms are set by location)");
    }
    u.location = *location;
    uint32_t element = c.pointee;
    if (auto array = as_array(m, c.pointee)) {
      auto length = array_length(m, array->length);
      if (!length) return length.error();
      u.array_size = *length;
      element = array->element;
      if (as_array(m, element)) return fail("default-block uniform arrays of arrays are not supported");
      if (is_bool_type(m, element)) return fail("default-block uniform arrays of bool are not supported");
    }
    if (auto def = m.definition(element); def && m.opcode(*def) == Op::OpTypeStruct) {
      return fail("default-block uniforms of struct type are not supported");
    }
    auto shape = shape_of(m, element, u);
    if (!shape) return shape.error();
    uint32_t alignment = shape->alignment;
    uint32_t size = shape->size;
    if (u.array_size != 0) {
      // Rule 4: an array's element alignment is rounded up to a vec4's; the stride is the element size so aligned.
      alignment = round_up(alignment, 16);
      u.array_stride = round_up(size, alignment);
      if (auto declared = m.decoration_literal(c.pointee, spv::Decoration::ArrayStride);
          declared && *declared != u.array_stride) {
        return fail("the default-block uniform %" + std::to_string(c.variable) + " has ArrayStride " +
                    std::to_string(*declared) + ", std140 needs " + std::to_string(u.array_stride));
      }
      size = u.array_stride * u.array_size;
    }
    u.offset = round_up(layout.size, alignment);
    layout.size = u.offset + size;
    const uint32_t end = u.location + std::max<uint32_t>(1, u.array_size);
    auto next = taken.lower_bound(u.location);
    const bool overlaps_next = next != taken.end() && next->first < end;
    const bool overlaps_previous = next != taken.begin() && std::prev(next)->second > u.location;
    if (overlaps_next || overlaps_previous) {
      return fail("default-block uniforms overlap at location " + std::to_string(u.location));
    }
    taken[u.location] = end;
    layout.uniforms.push_back(u);
  }
  return layout;
}

Expected<DefaultUniformLayout> default_uniforms_to_uniform_block(Module& m, const DefaultUniformBlockOptions& options) {
  auto layout = default_uniform_layout(m);
  if (!layout || layout->uniforms.empty()) return layout;
  const std::vector<Candidate> found = candidates(m);
  const UseIndex uses(m);
  for (const Candidate& c : found) {
    if (Status ok = check_uses(m, uses, c.variable); !ok) return ok.error();
  }

  // The block: one member per uniform, in layout order (found[i] is layout->uniforms[i]).
  std::vector<uint32_t> member_types;
  for (size_t i = 0; i < found.size(); ++i) {
    auto type = stored_type(m, found[i].pointee);
    if (!type) return type.error();
    member_types.push_back(*type);
    const DefaultUniform& u = layout->uniforms[i];
    if (u.array_size != 0 && !m.decoration_literal(found[i].pointee, spv::Decoration::ArrayStride)) {
      m.add_decoration(found[i].pointee, spv::Decoration::ArrayStride, std::span(&u.array_stride, 1));
    }
  }
  auto block_type = m.allocate_id();
  if (!block_type) return block_type.error();
  std::vector<uint32_t> struct_operands = {*block_type};
  struct_operands.insert(struct_operands.end(), member_types.begin(), member_types.end());
  m.append(Section::Global, Op::OpTypeStruct, struct_operands);
  m.add_decoration(*block_type, spv::Decoration::Block);
  for (uint32_t i = 0; i < found.size(); ++i) {
    const DefaultUniform& u = layout->uniforms[i];
    const uint32_t offset[] = {*block_type, i, uint32_t(spv::Decoration::Offset), u.offset};
    m.append(Section::Annotation, Op::OpMemberDecorate, offset);
    if (u.columns != 0) {
      const uint32_t col_major[] = {*block_type, i, uint32_t(spv::Decoration::ColMajor)};
      m.append(Section::Annotation, Op::OpMemberDecorate, col_major);
      const uint32_t stride[] = {*block_type, i, uint32_t(spv::Decoration::MatrixStride), u.matrix_stride};
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
