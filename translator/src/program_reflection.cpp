#include "program_reflection.hpp"

#include <glslang/Include/Types.h>
#include <glslang/Public/ShaderLang.h>

#include <algorithm>
#include <charconv>
#include <unordered_map>

#include "bismuth/spirv_patch/module.hpp"
#include "opaque_uniforms.hpp"

namespace bismuth::translator {

namespace {

// GL_MATRIX_STRIDE of a block member (GL 4.6 §7.6.2.2): a column-major matrix is an array of its columns, a
// row-major one of its rows, each vector laid out as the block's rules say — std140 rounds every vector up to a
// vec4's alignment, std430 keeps vec2 at two components; a three-component vector takes four. 0 for non-matrices.
uint32_t member_matrix_stride(const glslang::TType& type, glslang::TLayoutPacking packing) {
  if (!type.isMatrix()) return 0;
  const bool row_major = type.getQualifier().layoutMatrix == glslang::ElmRowMajor;
  const uint32_t components = row_major ? type.getMatrixCols() : type.getMatrixRows();
  const uint32_t scalar = type.getBasicType() == glslang::EbtDouble ? 8 : 4;
  if (packing == glslang::ElpScalar) return components * scalar;
  uint32_t stride = (components == 2 ? 2 : 4) * scalar;
  if (packing != glslang::ElpStd430) stride = (stride + 15) & ~15u;  // std140, shared and packed (as std140)
  return stride;
}

// TOP_LEVEL_ARRAY_SIZE / _STRIDE (GL 4.6 §7.3.1.1): only a top-level block member "declared as an array of an
// aggregate type" has them — an array of structures ("a[0].b") or of arrays ("grid[0][0]", ARB_arrays_of_arrays);
// any other buffer variable reports 1 and 0. `path` is the name without the block name.
bool in_top_level_aggregate_array(std::string_view path) {
  const size_t bracket = path.find('[');
  const size_t dot = path.find('.');
  if (bracket == std::string_view::npos || (dot != std::string_view::npos && dot < bracket)) return false;
  const size_t close = path.find(']', bracket);
  return close != std::string_view::npos && close + 1 < path.size() &&
         (path[close + 1] == '.' || path[close + 1] == '[');
}

GlBlockMember block_member(const glslang::TObjectReflection& v, uint32_t block, glslang::TLayoutPacking packing) {
  GlBlockMember m;
  m.name = v.name;
  m.gl_type = static_cast<uint32_t>(v.glDefineType);
  m.array_size = static_cast<uint32_t>(std::max(v.size, 0));
  m.offset = static_cast<uint32_t>(std::max(v.offset, 0));
  m.block = block;
  m.array_stride = static_cast<uint32_t>(std::max(v.arrayStride, 0));
  m.stages = v.stages;
  if (const glslang::TType* type = v.getType()) {
    m.matrix_stride = member_matrix_stride(*type, packing);
    m.row_major = type->isMatrix() && type->getQualifier().layoutMatrix == glslang::ElmRowMajor;
  }
  return m;
}

glslang::TLayoutPacking packing_of(const glslang::TObjectReflection& block) {
  return block.getType() ? block.getType()->getQualifier().layoutPacking : glslang::ElpStd140;
}

// Index of the block named `name` in `blocks`; the first element's for an array of blocks.
uint32_t block_index(const std::vector<GlBufferBinding>& blocks, const std::string& name) {
  for (size_t i = 0; i < blocks.size(); ++i) {
    if (blocks[i].name == name || block_base_name(blocks[i].name) == block_base_name(name))
      return static_cast<uint32_t>(i);
  }
  return 0;
}

void add_opaque_uniform(GlLinkedProgram& linked, const DeclaredBindings& declared, const glslang::TObjectReflection& u,
                        GlOpaqueInfo info) {
  GlUniform uniform;
  uniform.name = u.name;
  uniform.gl_type = static_cast<uint32_t>(u.glDefineType);
  uniform.array_size = static_cast<uint32_t>(std::max(u.size, 1));
  uniform.location = declared_uniform_location(declared, u.name);
  uniform.stages = u.stages;
  const std::string base = block_base_name(u.name);
  if (auto binding = declared.opaque_bindings.find(base); binding != declared.opaque_bindings.end()) {
    info.declared_binding = binding->second;
  }
  uniform.opaque = info;
  linked.uniforms.push_back(std::move(uniform));
}

}  // namespace

uint32_t std140_matrix_stride(uint32_t gl_type) {
  switch (gl_type) {
    case 0x8B5A:
    case 0x8B5B:
    case 0x8B5C:  // GL_FLOAT_MAT2/3/4
    case 0x8B65:
    case 0x8B66:
    case 0x8B67:
    case 0x8B68:
    case 0x8B69:
    case 0x8B6A:  // GL_FLOAT_MATnxm
      return 16;
    case 0x8F46:
    case 0x8F4C:
    case 0x8F4D:  // GL_DOUBLE_MAT2, GL_DOUBLE_MAT3x2, GL_DOUBLE_MAT4x2: 2 rows
      return 16;
    case 0x8F47:
    case 0x8F48:
    case 0x8F49:
    case 0x8F4A:
    case 0x8F4B:
    case 0x8F4E:  // other double matrices
      return 32;
    default: return 0;
  }
}

std::optional<uint32_t> atomic_counter_block_binding(std::string_view name) {
  if (!name.starts_with(kAtomicCounterBlockPrefix)) return std::nullopt;
  name.remove_prefix(kAtomicCounterBlockPrefix.size());
  uint32_t binding = 0;
  auto [ptr, ec] = std::from_chars(name.data(), name.data() + name.size(), binding);
  if (ec != std::errc() || ptr != name.data() + name.size()) return std::nullopt;
  return binding;
}

std::string block_base_name(const std::string& name) {
  const size_t bracket = name.find('[');
  return bracket == std::string::npos ? name : name.substr(0, bracket);
}

uint32_t block_element(const std::string& name) {
  const size_t bracket = name.find('[');
  if (bracket == std::string::npos) return 0;
  uint32_t element = 0;
  std::from_chars(name.data() + bracket + 1, name.data() + name.size(), element);
  return element;
}

int32_t declared_uniform_location(const DeclaredBindings& declared, const std::string& name) {
  const std::string base = name.ends_with("[0]") ? name.substr(0, name.size() - 3) : name;
  if (base.find('.') != std::string::npos) return -1;
  auto location = declared.uniform_locations.find(base);
  return location == declared.uniform_locations.end() ? -1 : static_cast<int32_t>(location->second);
}

void add_atomic_counter(GlLinkedProgram& linked, const std::string& reflected_name, uint32_t gl_binding,
                        uint32_t offset, uint32_t array_size, uint32_t stages) {
  const std::string name =
      reflected_name.ends_with("[0]") ? reflected_name.substr(0, reflected_name.size() - 3) : reflected_name;
  linked.atomic_counters.push_back({name, gl_binding, offset, std::max<uint32_t>(array_size, 1), stages});
}

void reflect_program_interface(glslang::TProgram& program, const DeclaredBindings& declared, GlLinkedProgram& linked,
                               int io_options) {
  // GL's naming rules (GL 4.6 §7.3.1.1): "[0]" on arrays of basic types, only element 0 of top-level arrays of
  // structures in storage blocks.
  program.buildReflection(EShReflectionSeparateBuffers | EShReflectionAllBlockVariables |
                          EShReflectionStrictArraySuffix | EShReflectionBasicArraySuffix | io_options);
  for (int i = 0; i < program.getNumUniformBlocks(); ++i) {
    const glslang::TObjectReflection& block = program.getUniformBlock(i);
    if (block.name == kDefaultUniformBlockName) {
      linked.default_uniform_block_size = static_cast<uint32_t>(block.size);
      continue;
    }
    const uint32_t binding =
        DeclaredBindings::binding(declared.uniform_blocks, block_base_name(block.name), block_element(block.name));
    linked.uniform_blocks.push_back({block.name, binding, 0, static_cast<uint32_t>(block.size), block.stages});
  }
  for (int i = 0; i < program.getNumBufferBlocks(); ++i) {
    const glslang::TObjectReflection& block = program.getBufferBlock(i);
    if (auto gl_binding = atomic_counter_block_binding(block.name)) {
      linked.atomic_counter_buffers.push_back(
          {std::to_string(*gl_binding), *gl_binding, 0, static_cast<uint32_t>(std::max(block.size, 0)), block.stages});
      continue;
    }
    const uint32_t binding =
        DeclaredBindings::binding(declared.storage_blocks, block_base_name(block.name), block_element(block.name));
    linked.storage_blocks.push_back({block.name, binding, 0, static_cast<uint32_t>(block.size), block.stages});
  }
  auto by_binding = [](const GlBufferBinding& a, const GlBufferBinding& b) { return a.gl_binding < b.gl_binding; };
  std::stable_sort(linked.storage_blocks.begin(), linked.storage_blocks.end(), by_binding);
  std::stable_sort(linked.uniform_blocks.begin(), linked.uniform_blocks.end(), by_binding);
  std::stable_sort(linked.atomic_counter_buffers.begin(), linked.atomic_counter_buffers.end(), by_binding);

  for (int i = 0; i < program.getNumUniformVariables(); ++i) {
    const glslang::TObjectReflection& u = program.getUniform(i);
    if (u.index < 0) {
      // Samplers and images have no block: a unit number is their value (GL 4.6 §7.6).
      if (const glslang::TType* type = u.getType()) {
        if (auto info = opaque_info(*type)) add_opaque_uniform(linked, declared, u, *info);
      }
      continue;
    }
    if (u.index >= program.getNumUniformBlocks()) continue;
    const glslang::TObjectReflection& block = program.getUniformBlock(u.index);
    if (block.name == kDefaultUniformBlockName) {
      const auto gl_type = static_cast<uint32_t>(u.glDefineType);
      GlUniform uniform{u.name,
                        gl_type,
                        static_cast<uint32_t>(std::max(u.size, 1)),
                        static_cast<uint32_t>(u.offset),
                        static_cast<uint32_t>(std::max(u.arrayStride, 0)),
                        std140_matrix_stride(gl_type)};
      // `layout(location = N)` on a uniform that is not a structure (GLSL 4.60 §4.4.3).
      uniform.location = declared_uniform_location(declared, u.name);
      uniform.stages = u.stages;
      linked.uniforms.push_back(std::move(uniform));
    } else {
      linked.uniform_block_members.push_back(
          block_member(u, block_index(linked.uniform_blocks, block.name), packing_of(block)));
    }
  }
  // Atomic counters live in storage blocks under relaxed rules, so reflection lists them as buffer variables.
  for (int i = 0; i < program.getNumBufferVariables(); ++i) {
    const glslang::TObjectReflection& v = program.getBufferVariable(i);
    if (v.index < 0 || v.index >= program.getNumBufferBlocks()) continue;
    const glslang::TObjectReflection& block = program.getBufferBlock(v.index);
    if (auto gl_binding = atomic_counter_block_binding(block.name)) {
      add_atomic_counter(linked, v.name, *gl_binding, static_cast<uint32_t>(v.offset),
                         static_cast<uint32_t>(std::max(v.size, 1)), v.stages);
      continue;
    }
    GlBlockMember m = block_member(v, block_index(linked.storage_blocks, block.name), packing_of(block));
    const std::string prefix = block_base_name(block.name) + ".";
    const std::string_view path =
        std::string_view(v.name).starts_with(prefix) ? std::string_view(v.name).substr(prefix.size()) : v.name;
    if (in_top_level_aggregate_array(path)) {
      m.top_level_array_size = static_cast<uint32_t>(std::max(v.topLevelArraySize, 0));
      m.top_level_array_stride = static_cast<uint32_t>(std::max(v.topLevelArrayStride, 0));
    }
    linked.buffer_variables.push_back(std::move(m));
  }
}

Status layout_default_uniforms(GlLinkedProgram& linked, const spirv_patch::Module& module) {
  if (linked.default_uniform_block_size == 0) return {};
  uint32_t block_type = 0;
  std::unordered_map<uint32_t, std::string> member_names;  // member index -> name
  for (spirv_patch::InstructionHandle h : module.instructions(spirv_patch::Section::Debug)) {
    if (module.opcode(h) == spv::Op::OpName && module.string_operand(h, 2) == kDefaultUniformBlockName) {
      block_type = module.words(h)[1];
    }
  }
  if (block_type == 0) return {};
  for (spirv_patch::InstructionHandle h : module.instructions(spirv_patch::Section::Debug)) {
    const auto w = module.words(h);
    if (module.opcode(h) == spv::Op::OpMemberName && w[1] == block_type) {
      member_names[w[2]] = std::string(module.string_operand(h, 3));
    }
  }
  struct MemberLayout {
    uint32_t offset = 0, array_stride = 0, matrix_stride = 0;
  };
  std::unordered_map<std::string, MemberLayout> members;
  std::unordered_map<uint32_t, uint32_t> array_strides;  // array type id -> ArrayStride
  for (spirv_patch::InstructionHandle h : module.instructions(spirv_patch::Section::Annotation)) {
    const auto w = module.words(h);
    if (module.opcode(h) == spv::Op::OpDecorate && w.size() == 4 &&
        static_cast<spv::Decoration>(w[2]) == spv::Decoration::ArrayStride) {
      array_strides[w[1]] = w[3];
    } else if (module.opcode(h) == spv::Op::OpMemberDecorate && w.size() == 5 && w[1] == block_type) {
      auto name = member_names.find(w[2]);
      if (name == member_names.end()) continue;
      if (static_cast<spv::Decoration>(w[3]) == spv::Decoration::Offset) members[name->second].offset = w[4];
      if (static_cast<spv::Decoration>(w[3]) == spv::Decoration::MatrixStride)
        members[name->second].matrix_stride = w[4];
    }
  }
  if (auto block = module.definition(block_type); block && module.opcode(*block) == spv::Op::OpTypeStruct) {
    const auto w = module.words(*block);
    for (size_t m = 2; m < w.size(); ++m) {
      auto name = member_names.find(static_cast<uint32_t>(m - 2));
      auto stride = array_strides.find(w[m]);
      if (name != member_names.end() && stride != array_strides.end())
        members[name->second].array_stride = stride->second;
    }
  }
  for (GlUniform& u : linked.uniforms) {
    if (u.opaque) continue;  // no storage in the block
    std::string base = u.name;
    if (base.ends_with("[0]")) base.resize(base.size() - 3);
    if (auto member = members.find(base); member != members.end()) {
      u.offset = member->second.offset;
      if (member->second.array_stride != 0) u.array_stride = member->second.array_stride;
      if (member->second.matrix_stride != 0) u.matrix_stride = member->second.matrix_stride;
    } else if (u.array_size > 1 && u.matrix_stride == 0) {
      u.array_stride = std::max<uint32_t>(16, (u.array_stride + 15) & ~15u);
    }
    const uint32_t element = u.matrix_stride != 0 ? u.matrix_stride * 4 : std::max<uint32_t>(u.array_stride, 16);
    const uint32_t end = u.offset + (u.array_size - 1) * u.array_stride + element;
    linked.default_uniform_block_size = std::max(linked.default_uniform_block_size, end);
  }
  return {};
}

}  // namespace bismuth::translator
