// default_uniform_layout (declared with its pass, passes/default_uniforms_to_uniform_block.hpp): the std140 layout
// of ARB_gl_spirv default-block uniforms and their GL locations, computed without editing the module.
//
// GL 4.6 §7.6.2.2 (std140): a scalar of N bytes is aligned to N; a two-component vector to 2N, a three- or
// four-component one to 4N; an array's element alignment is rounded up to a vec4's (16) and its stride is the
// element size rounded up to that alignment; a column-major matrix is an array of its column vectors; a structure
// is aligned to its largest member's alignment rounded up to 16 and padded to a multiple of it. GLSL 4.60 §4.4.3:
// a uniform takes one location, an array one per element, a structure one per member (recursively).
#include <algorithm>
#include <map>
#include <string>

#include "analysis/type_queries.hpp"
#include "bismuth/spirv_patch/passes/default_uniforms_to_uniform_block.hpp"

namespace bismuth::spirv_patch {

namespace {

using spv::Op;

constexpr int kMaxDepth = 16;
// Bounds that keep hostile array lengths from exhausting memory: far above what any device's uniform buffer range
// or GL's MAX_UNIFORM_LOCATIONS allows (the GL link checks those).
constexpr uint64_t kMaxBlockBytes = 1u << 20;
constexpr uint32_t kMaxLocations = 1u << 16;

uint32_t round_up(uint32_t value, uint32_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

struct TypeLayout {
  uint32_t size = 0;
  uint32_t alignment = 0;
};

// Plans the layout of types recursively: sizes, the decorations explicit layout needs, and the GL uniforms.
class Planner {
 public:
  Planner(const Module& m, DefaultUniformLayout& out) : m_(m), out_(out) {}

  Expected<TypeLayout> layout(uint32_t type, int depth) {
    if (depth > kMaxDepth) return fail("default-block uniform types nest deeper than " + std::to_string(kMaxDepth));
    auto def = m_.definition(type);
    if (!def) return fail("%" + std::to_string(type) + " is not a type");
    const auto w = m_.words(*def);
    switch (m_.opcode(*def)) {
      case Op::OpTypeBool:
      case Op::OpTypeInt:
      case Op::OpTypeFloat: {
        auto s = scalar(type);
        if (!s) return s.error();
        return TypeLayout{s->second, s->second};
      }
      case Op::OpTypeVector: {
        auto s = scalar(w[2]);
        if (!s) return s.error();
        return TypeLayout{s->second * w[3], s->second * (w[3] == 2 ? 2 : 4)};
      }
      case Op::OpTypeMatrix: {
        auto column = layout(w[2], depth + 1);
        if (!column) return column.error();
        const uint32_t stride = round_up(column->alignment, 16);
        return TypeLayout{stride * w[3], stride};
      }
      case Op::OpTypeArray: {
        auto length = array_length(w[3]);
        if (!length) return length.error();
        auto element = layout(w[2], depth + 1);
        if (!element) return element.error();
        const uint32_t alignment = round_up(element->alignment, 16);
        const uint32_t stride = round_up(element->size, alignment);
        if (uint64_t(stride) * *length > kMaxBlockBytes) {
          return fail("a default-block uniform array takes more than " + std::to_string(kMaxBlockBytes) + " bytes");
        }
        if (Status ok = plan(type, std::nullopt, spv::Decoration::ArrayStride, stride); !ok) return ok.error();
        return TypeLayout{stride * *length, alignment};
      }
      case Op::OpTypeStruct: {
        uint32_t end = 0, alignment = 16;
        for (uint32_t i = 0; i + 2 < w.size(); ++i) {
          auto member = layout(w[2 + i], depth + 1);
          if (!member) return member.error();
          const uint32_t offset = round_up(end, member->alignment);
          if (Status ok = plan(type, i, spv::Decoration::Offset, offset); !ok) return ok.error();
          if (const uint32_t stride = matrix_stride(w[2 + i])) {
            if (Status ok = plan(type, i, spv::Decoration::ColMajor, std::nullopt); !ok) return ok.error();
            if (Status ok = plan(type, i, spv::Decoration::MatrixStride, stride); !ok) return ok.error();
          }
          end = offset + member->size;
          if (end > kMaxBlockBytes) return fail("a default-block uniform structure is too large");
          alignment = std::max(alignment, round_up(member->alignment, 16));
        }
        return TypeLayout{round_up(end, alignment), alignment};
      }
      default:
        return fail("a default-block uniform of type " + opcode_name(uint32_t(m_.opcode(*def))) + " is not supported");
    }
  }

  // The GL uniforms of a value of `type` at `offset` in the block, from location `location` on.
  Status leaves(uint32_t variable, uint32_t type, uint32_t offset, uint32_t& location, bool top_level, int depth) {
    if (depth > kMaxDepth) return fail("default-block uniform types nest too deep");
    if (location > kMaxLocations)
      return fail("default-block uniforms take more than " + std::to_string(kMaxLocations) + " locations");
    auto def = m_.definition(type);
    const auto w = m_.words(*def);
    DefaultUniform u;
    u.variable = variable;
    u.offset = offset;
    uint32_t shape_type = type;
    if (m_.opcode(*def) == Op::OpTypeArray) {
      auto element = m_.definition(w[2]);
      const Op element_op = m_.opcode(*element);
      const uint32_t length = *array_length(w[3]);
      const uint32_t stride = *planned_stride(type);
      if (element_op == Op::OpTypeArray || element_op == Op::OpTypeStruct) {
        for (uint32_t e = 0; e < length; ++e) {
          if (Status ok = leaves(variable, w[2], offset + e * stride, location, false, depth + 1); !ok) return ok;
        }
        return {};
      }
      u.array_size = length;
      u.array_stride = stride;
      shape_type = w[2];
    } else if (m_.opcode(*def) == Op::OpTypeStruct) {
      for (uint32_t i = 0; i + 2 < w.size(); ++i) {
        const uint32_t member_offset = *planned(type, i, spv::Decoration::Offset);
        if (Status ok = leaves(variable, w[2 + i], offset + member_offset, location, false, depth + 1); !ok) return ok;
      }
      return {};
    }
    if (Status ok = shape(shape_type, u); !ok) return ok;
    if (u.scalar == UniformScalar::Bool && (!top_level || u.array_size != 0)) {
      return fail("default-block bool uniforms inside arrays or structures are not supported");
    }
    u.location = location;
    location += std::max<uint32_t>(1, u.array_size);
    out_.uniforms.push_back(u);
    return {};
  }

  // The MatrixStride a member of `type` needs: a matrix's or an array of matrices' column stride, else 0.
  uint32_t matrix_stride(uint32_t type) {
    for (int depth = 0; depth < kMaxDepth; ++depth) {
      auto def = m_.definition(type);
      if (!def) return 0;
      if (m_.opcode(*def) == Op::OpTypeArray) {
        type = m_.words(*def)[2];
        continue;
      }
      if (m_.opcode(*def) != Op::OpTypeMatrix) return 0;
      auto column = layout(m_.words(*def)[2], depth);
      return column ? round_up(column->alignment, 16) : 0;
    }
    return 0;
  }

 private:
  // (kind, bytes) of a scalar type.
  Expected<std::pair<UniformScalar, uint32_t>> scalar(uint32_t type) {
    auto def = m_.definition(type);
    if (!def) return fail("%" + std::to_string(type) + " is not a type");
    const auto w = m_.words(*def);
    switch (m_.opcode(*def)) {
      case Op::OpTypeBool: return std::pair{UniformScalar::Bool, 4u};
      case Op::OpTypeFloat:
        if (w[2] == 32) return std::pair{UniformScalar::Float, 4u};
        if (w[2] == 64) return std::pair{UniformScalar::Double, 8u};
        break;
      case Op::OpTypeInt:
        if (w[2] == 32) return std::pair{w[3] ? UniformScalar::Int : UniformScalar::Uint, 4u};
        if (w[2] == 64) return std::pair{w[3] ? UniformScalar::Int64 : UniformScalar::Uint64, 8u};
        break;
      default: break;
    }
    return fail("a default-block uniform of " + std::to_string(w.size() > 2 ? w[2] : 0) + "-bit " +
                opcode_name(uint32_t(m_.opcode(*def))) + " is not supported");
  }

  // The GL shape (scalar kind, components, columns, matrix stride) of a scalar, vector or matrix.
  Status shape(uint32_t type, DefaultUniform& u) {
    auto def = m_.definition(type);
    const auto w = m_.words(*def);
    uint32_t scalar_type = type;
    if (m_.opcode(*def) == Op::OpTypeMatrix) {
      auto column = m_.definition(w[2]);
      scalar_type = m_.words(*column)[2];
      u.components = m_.words(*column)[3];
      u.columns = w[3];
      u.matrix_stride = matrix_stride(type);
    } else if (m_.opcode(*def) == Op::OpTypeVector) {
      scalar_type = w[2];
      u.components = w[3];
    }
    auto s = scalar(scalar_type);
    if (!s) return s.error();
    u.scalar = s->first;
    return {};
  }

  Expected<uint32_t> array_length(uint32_t length_id) {
    auto def = m_.definition(length_id);
    if (!def || m_.opcode(*def) != Op::OpConstant || m_.words(*def).size() != 4 || m_.words(*def)[3] == 0) {
      return fail("a default-block uniform array's length is not a 32-bit constant");
    }
    return m_.words(*def)[3];
  }

  // Records a decoration explicit layout needs; a different one the module already has is a conflict.
  Status plan(uint32_t target, std::optional<uint32_t> member, spv::Decoration decoration,
              std::optional<uint32_t> value) {
    for (InstructionHandle h : m_.instructions(Section::Annotation)) {
      const auto w = m_.words(h);
      const bool matches =
          member ? (m_.opcode(h) == Op::OpMemberDecorate && w.size() >= 4 && w[1] == target && w[2] == *member &&
                    w[3] == uint32_t(decoration))
                 : (m_.opcode(h) == Op::OpDecorate && w.size() >= 3 && w[1] == target && w[2] == uint32_t(decoration));
      if (!matches) continue;
      const size_t literal = member ? 4 : 3;
      if (value && (w.size() <= literal || w[literal] != *value)) {
        return fail("%" + std::to_string(target) + " already has a layout decoration that contradicts std140 (" +
                    m_.describe(h) + ")");
      }
    }
    for (const auto& d : out_.decorations) {
      if (d.target == target && d.member == member && d.decoration == decoration) return {};
    }
    out_.decorations.push_back({target, member, decoration, value});
    return {};
  }

  std::optional<uint32_t> planned(uint32_t target, std::optional<uint32_t> member, spv::Decoration decoration) const {
    for (const auto& d : out_.decorations) {
      if (d.target == target && d.member == member && d.decoration == decoration) return d.value;
    }
    return std::nullopt;
  }
  std::optional<uint32_t> planned_stride(uint32_t array) const {
    return planned(array, std::nullopt, spv::Decoration::ArrayStride);
  }

  const Module& m_;
  DefaultUniformLayout& out_;
};

// Opaque types stay UniformConstant (samplers, images): they are descriptors, not default-block storage.
bool is_opaque(const Module& m, uint32_t type) {
  for (int depth = 0; depth < kMaxDepth; ++depth) {
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

}  // namespace

std::vector<DefaultUniformCandidate> default_uniform_candidates(const Module& m) {
  std::vector<DefaultUniformCandidate> found;
  for (InstructionHandle h : m.instructions(Section::Global)) {
    const auto w = m.words(h);
    if (m.opcode(h) != Op::OpVariable || w[3] != uint32_t(spv::StorageClass::UniformConstant)) continue;
    auto pointer = pointer_type(m, w[1]);
    if (!pointer || is_opaque(m, pointer->second)) continue;
    found.push_back({h, w[2], pointer->second});
  }
  return found;
}

Expected<DefaultUniformLayout> default_uniform_layout(const Module& m) {
  DefaultUniformLayout layout;
  Planner planner(m, layout);
  std::map<uint32_t, uint32_t> taken;  // first location -> one past the last, for overlap checks
  for (const DefaultUniformCandidate& c : default_uniform_candidates(m)) {
    auto location = m.decoration_literal(c.variable, spv::Decoration::Location);
    if (!location) {
      return fail("the default-block uniform %" + std::to_string(c.variable) +
                  " has no Location (ARB_gl_spirv: uniforms are set by location)");
    }
    auto type = planner.layout(c.pointee, 0);
    if (!type) return type.error();
    DefaultUniformVariable v{c.variable, round_up(layout.size, type->alignment), planner.matrix_stride(c.pointee)};
    if (uint64_t(v.offset) + type->size > kMaxBlockBytes) return fail("the default-block uniforms are too large");
    layout.size = v.offset + type->size;
    uint32_t next_location = *location;
    if (Status ok = planner.leaves(c.variable, c.pointee, v.offset, next_location, true, 0); !ok) return ok.error();
    layout.variables.push_back(v);
    auto next = taken.lower_bound(*location);
    const bool overlaps_next = next != taken.end() && next->first < next_location;
    const bool overlaps_previous = next != taken.begin() && std::prev(next)->second > *location;
    if (overlaps_next || overlaps_previous) {
      return fail("default-block uniforms overlap at location " + std::to_string(*location));
    }
    taken[*location] = next_location;
  }
  return layout;
}

}  // namespace bismuth::spirv_patch
