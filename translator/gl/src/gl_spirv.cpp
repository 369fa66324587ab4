// ARB_gl_spirv (GL 4.6 §7.2.1): SPIR-V modules through glShaderBinary(GL_SHADER_BINARY_FORMAT_SPIR_V) and
// glSpecializeShader, linked into the same executable form as GLSL programs.
//
// GL SPIR-V uses GL's binding namespaces (storage block 2 and uniform block 2 are different bindings) and no
// descriptor sets; the link gives the statically used buffer variables compact Vulkan bindings of set 0, exactly as
// the GLSL front does for GLSL programs (GlLinkedProgram::resources), so dispatch binds them the same way. GL SPIR-V
// also has storage Vulkan lacks: default-block uniforms (UniformConstant + Location, set by location with
// glUniform*) and atomic counters (AtomicCounter + Binding/Offset). The link gives each its Vulkan binding and the
// GL view (GlUniform by location, GlAtomicCounter), and the pipeline's passes turn them into buffers. The SPIR-V
// edits are spirv_patch passes: set_spec_constant_defaults here, the rest in the link's pipeline.
#include "gl_spirv.hpp"

#include <algorithm>
#include <map>

#include "bismuth/spirv_patch/analysis/type_layout.hpp"
#include "bismuth/spirv_patch/analysis/workgroup_size.hpp"
#include "bismuth/spirv_patch/module.hpp"
#include "bismuth/spirv_patch/passes/atomic_counters_to_storage_buffers.hpp"
#include "bismuth/spirv_patch/passes/default_uniforms_to_uniform_block.hpp"
#include "bismuth/spirv_patch/passes/set_spec_constant_defaults.hpp"

namespace bismuth::gl {

using spirv_patch::InstructionHandle;
using spirv_patch::Module;
using spirv_patch::Section;

namespace {

// The SPIR-V version the pipeline validates for (Vulkan 1.1 takes SPIR-V up to 1.3); GL 4.6 requires 1.0.
constexpr uint32_t kMaxSpirvVersion = 0x00010300;
// GL_MAX_UNIFORM_LOCATIONS and GL_MAX_COMPUTE_UNIFORM_COMPONENTS * 4 as state_queries.cpp reports them.
constexpr uint32_t kMaxUniformLocations = 1024;
constexpr uint32_t kMaxDefaultBlockBytes = 4096 * 4;

spv::ExecutionModel execution_model(GLenum shader_type) {
  switch (shader_type) {
    case GL_VERTEX_SHADER: return spv::ExecutionModel::Vertex;
    case GL_TESS_CONTROL_SHADER: return spv::ExecutionModel::TessellationControl;
    case GL_TESS_EVALUATION_SHADER: return spv::ExecutionModel::TessellationEvaluation;
    case GL_GEOMETRY_SHADER: return spv::ExecutionModel::Geometry;
    case GL_FRAGMENT_SHADER: return spv::ExecutionModel::Fragment;
    default: return spv::ExecutionModel::GLCompute;
  }
}

// Capabilities a GL compute module may declare here: those the passes and the device back. Anything else (Int8,
// Float16, images, ...) is refused at glSpecializeShader with its name instead of reaching the driver.
std::optional<std::string> unsupported_capability(spv::Capability capability, const Caps& caps) {
  switch (capability) {
    case spv::Capability::Shader:
    case spv::Capability::Matrix:
    case spv::Capability::AtomicStorage:
    case spv::Capability::AtomicStorageOps: return std::nullopt;
    // GL 4.6 core has geometry and tessellation shaders (and geometry streams, point size there): modules of those
    // stages link and answer queries; nothing runs them (draw calls are refused).
    case spv::Capability::Geometry:
    case spv::Capability::Tessellation:
    case spv::Capability::GeometryStreams:
    case spv::Capability::GeometryPointSize:
    case spv::Capability::TessellationPointSize: return std::nullopt;
    case spv::Capability::Float64: return caps.float64 ? std::nullopt : std::optional<std::string>("Float64");
    case spv::Capability::Int64: return caps.int64 ? std::nullopt : std::optional<std::string>("Int64");
    case spv::Capability::SubgroupBallotKHR:
    case spv::Capability::SubgroupVoteKHR:
      return caps.ballot_vote ? std::nullopt : std::optional<std::string>("SubgroupBallotKHR/SubgroupVoteKHR");
    default: return "capability " + std::to_string(uint32_t(capability));
  }
}

Expected<const Module::EntryPoint*> find_entry(const std::vector<Module::EntryPoint>& entries, const std::string& name,
                                               spv::ExecutionModel model) {
  const Module::EntryPoint* named = nullptr;
  for (const auto& e : entries) {
    if (e.name != name) continue;
    if (e.model == model) return &e;
    named = &e;
  }
  // ARB_gl_spirv (revision 36): "INVALID_VALUE is generated if <pEntryPoint> does not match the <Name> of any
  // OpEntryPoint declaration in the SPIR-V module associated with <shader>. INVALID_OPERATION is generated if the
  // <Execution Mode> of the OpEntryPoint indicated by <pEntryPoint> does not match the type of <shader>."
  if (named) return fail("the entry point \"" + name + "\" is not of the shader's stage", GL_INVALID_OPERATION);
  return fail("the module has no entry point named \"" + name + "\"", GL_INVALID_VALUE);
}

}  // namespace

GLenum spirv_uniform_gl_type(const spirv_patch::DefaultUniform& u) {
  using spirv_patch::UniformScalar;
  const uint32_t n = u.components;
  if (u.columns != 0) {
    static const GLenum float_matrices[3][3] = {{GL_FLOAT_MAT2, GL_FLOAT_MAT2x3, GL_FLOAT_MAT2x4},
                                                {GL_FLOAT_MAT3x2, GL_FLOAT_MAT3, GL_FLOAT_MAT3x4},
                                                {GL_FLOAT_MAT4x2, GL_FLOAT_MAT4x3, GL_FLOAT_MAT4}};
    static const GLenum double_matrices[3][3] = {{GL_DOUBLE_MAT2, GL_DOUBLE_MAT2x3, GL_DOUBLE_MAT2x4},
                                                 {GL_DOUBLE_MAT3x2, GL_DOUBLE_MAT3, GL_DOUBLE_MAT3x4},
                                                 {GL_DOUBLE_MAT4x2, GL_DOUBLE_MAT4x3, GL_DOUBLE_MAT4}};
    if (u.columns < 2 || u.columns > 4 || n < 2 || n > 4) return 0;
    return (u.scalar == UniformScalar::Double ? double_matrices : float_matrices)[u.columns - 2][n - 2];
  }
  if (n < 1 || n > 4) return 0;
  auto pick = [&](GLenum s, GLenum v2, GLenum v3, GLenum v4) { return n == 1 ? s : n == 2 ? v2 : n == 3 ? v3 : v4; };
  switch (u.scalar) {
    case UniformScalar::Float: return pick(GL_FLOAT, GL_FLOAT_VEC2, GL_FLOAT_VEC3, GL_FLOAT_VEC4);
    case UniformScalar::Double: return pick(GL_DOUBLE, GL_DOUBLE_VEC2, GL_DOUBLE_VEC3, GL_DOUBLE_VEC4);
    case UniformScalar::Int: return pick(GL_INT, GL_INT_VEC2, GL_INT_VEC3, GL_INT_VEC4);
    case UniformScalar::Uint:
      return pick(GL_UNSIGNED_INT, GL_UNSIGNED_INT_VEC2, GL_UNSIGNED_INT_VEC3, GL_UNSIGNED_INT_VEC4);
    case UniformScalar::Bool: return pick(GL_BOOL, GL_BOOL_VEC2, GL_BOOL_VEC3, GL_BOOL_VEC4);
    case UniformScalar::Int64: return pick(GL_INT64_ARB, GL_INT64_VEC2_ARB, GL_INT64_VEC3_ARB, GL_INT64_VEC4_ARB);
    case UniformScalar::Uint64:
      return pick(GL_UNSIGNED_INT64_ARB, GL_UNSIGNED_INT64_VEC2_ARB, GL_UNSIGNED_INT64_VEC3_ARB,
                  GL_UNSIGNED_INT64_VEC4_ARB);
  }
  return 0;
}

namespace {

// GL_BUFFER_DATA_SIZE of a block (GL 4.6 §7.3.1.1): the bytes its explicit layout covers, a final runtime array
// counted "as an array with one element"; 0 when the layout cannot be sized.
uint32_t buffer_data_size(const Module& m, uint32_t block) {
  auto size = spirv_patch::explicit_layout_size(m, block, "buffer block", spirv_patch::RuntimeArraySize::OneElement);
  return size ? static_cast<uint32_t>(std::min<uint64_t>(*size, UINT32_MAX)) : 0;
}

}  // namespace

std::vector<std::string> supported_spirv_extensions(const Caps& caps) {
  std::vector<std::string> extensions = {"SPV_KHR_storage_buffer_storage_class", "SPV_KHR_shader_atomic_counter_ops"};
  if (caps.ballot_vote) {
    extensions.push_back("SPV_KHR_shader_ballot");
    extensions.push_back("SPV_KHR_subgroup_vote");
  }
  return extensions;
}

Expected<std::vector<uint32_t>> specialize_spirv(std::span<const uint32_t> words, GLenum shader_type,
                                                 const std::string& entry, std::span<const GLuint> ids,
                                                 std::span<const GLuint> values, const Caps& caps) {
  auto parsed = Module::parse(words);
  if (!parsed) return fail("error: the SPIR-V module is malformed: " + parsed.error().message);
  Module& m = *parsed;
  const std::vector<Module::EntryPoint> entries = m.entry_points();
  auto found = find_entry(entries, entry, execution_model(shader_type));
  if (!found) return found.error();
  // "INVALID_VALUE is generated if any element of <pConstantIndex> refers to a specialization constant that does
  // not exist in the shader module contained in <shader>."
  const std::vector<uint32_t> declared = m.spec_ids_in_use();
  for (GLuint id : ids) {
    if (std::find(declared.begin(), declared.end(), id) == declared.end()) {
      return fail("the module declares no specialization constant with SpecId " + std::to_string(id), GL_INVALID_VALUE);
    }
  }
  if (m.version() > kMaxSpirvVersion) {
    return fail("error: " + spirv_patch::version_string(m.version()) + " modules are not supported on " +
                caps.device_name + " (GL 4.6 requires SPIR-V 1.0; Bismuth takes up to SPIR-V 1.3)");
  }
  const std::vector<std::string> extensions = supported_spirv_extensions(caps);
  for (InstructionHandle h : m.instructions(Section::Extension)) {
    const std::string name(m.string_operand(h, 1));
    // GL 4.6 §7.2.1 ("SPIR-V extensions"): a module may use the extensions listed in GL_SPIR_V_EXTENSIONS.
    if (std::find(extensions.begin(), extensions.end(), name) == extensions.end()) {
      return fail("error: the module uses the SPIR-V extension " + name + ", which is not in GL_SPIR_V_EXTENSIONS");
    }
  }
  for (InstructionHandle h : m.instructions(Section::Capability)) {
    if (auto missing = unsupported_capability(spv::Capability(m.words(h)[1]), caps)) {
      return fail("error: the module declares " + *missing + ", which " + caps.device_name +
                  " does not support through GL");
    }
  }
  if (Status set = spirv_patch::set_spec_constant_defaults(m, ids, values); !set) {
    return fail("error: " + set.error().message);
  }
  return m.serialize();
}

Expected<translator::GlLinkedProgram> link_spirv(std::span<const uint32_t> words, const std::string& entry) {
  auto parsed = Module::parse(words);
  if (!parsed) return fail("error: the SPIR-V module is malformed: " + parsed.error().message);
  Module& m = *parsed;
  translator::GlLinkedProgram linked;
  const std::vector<Module::EntryPoint> entries = m.entry_points();
  auto found_entry = find_entry(entries, entry, spv::ExecutionModel::GLCompute);
  if (!found_entry) return fail("error: " + found_entry.error().message);
  // The size in force: LocalSize, LocalSizeId or the WorkgroupSize built-in, specialization constants at the values
  // glSpecializeShader gave them (GL_COMPUTE_WORK_GROUP_SIZE reports it).
  auto size = spirv_patch::find_workgroup_size(m, **found_entry);
  if (!size) return fail("error: the compute entry point's local size: " + size.error().message);
  linked.group_size = translator::GroupSize::Fixed;
  linked.fixed_size = size->size;
  linked.spirv_local_size_id = size->form == spirv_patch::WorkgroupSizeForm::LocalSizeId;

  // Ids the functions use (a literal equal to an id only keeps an unused variable).
  std::vector<bool> used(m.bound(), false);
  for (InstructionHandle h : m.instructions(Section::Function)) {
    auto w = m.words(h);
    for (size_t i = 1; i < w.size(); ++i) {
      if (w[i] < used.size()) used[w[i]] = true;
    }
  }
  // Samplers and images (UniformConstant images and sampled images) have no units in SPIR-V programs yet: a clear
  // link error rather than a module whose descriptors the program's layout lacks.
  for (InstructionHandle h : m.instructions(Section::Global)) {
    const auto w = m.words(h);
    if (m.opcode(h) != spv::Op::OpVariable || w.size() < 4 ||
        spv::StorageClass(w[3]) != spv::StorageClass::UniformConstant)
      continue;
    auto pointer = m.definition(w[1]);
    if (!pointer || m.opcode(*pointer) != spv::Op::OpTypePointer) continue;
    auto pointee = m.definition(m.words(*pointer)[3]);
    if (pointee && m.opcode(*pointee) == spv::Op::OpTypeArray) pointee = m.definition(m.words(*pointee)[2]);
    if (pointee && (m.opcode(*pointee) == spv::Op::OpTypeImage || m.opcode(*pointee) == spv::Op::OpTypeSampledImage ||
                    m.opcode(*pointee) == spv::Op::OpTypeSampler)) {
      return fail("error: samplers and images in SPIR-V programs (ARB_gl_spirv) are not supported by Bismuth yet");
    }
  }
  auto has_decoration = [&](uint32_t id, spv::Decoration d) {
    for (InstructionHandle h : m.instructions(Section::Annotation)) {
      auto w = m.words(h);
      if (m.opcode(h) == spv::Op::OpDecorate && w.size() >= 3 && w[1] == id && w[2] == uint32_t(d)) return true;
    }
    return false;
  };
  auto name_of = [&](uint32_t id) -> std::string {
    for (InstructionHandle h : m.instructions(Section::Debug)) {
      if (m.opcode(h) == spv::Op::OpName && m.words(h)[1] == id) return std::string(m.string_operand(h, 2));
    }
    return {};
  };

  struct Found {
    uint32_t variable;
    translator::GlResourceKind kind;
    uint32_t gl_binding;
    std::string name;
    uint32_t data_size;  // GL_BUFFER_DATA_SIZE
  };
  std::vector<Found> found;
  for (InstructionHandle h : m.instructions(Section::Global)) {
    if (m.opcode(h) != spv::Op::OpVariable) continue;
    const std::vector<uint32_t> w(m.words(h).begin(), m.words(h).end());
    const auto storage = spv::StorageClass(w[3]);
    const uint32_t variable = w[2];
    if (storage != spv::StorageClass::Uniform && storage != spv::StorageClass::StorageBuffer) continue;
    if (variable >= used.size() || !used[variable]) continue;
    auto pointer = m.definition(w[1]);
    if (!pointer || m.opcode(*pointer) != spv::Op::OpTypePointer) return fail("error: malformed buffer variable");
    const uint32_t block = m.words(*pointer)[3];
    const bool storage_block =
        storage == spv::StorageClass::StorageBuffer || has_decoration(block, spv::Decoration::BufferBlock);
    auto binding = m.decoration_literal(variable, spv::Decoration::Binding);
    if (!binding) return fail("error: the buffer block \"" + name_of(block) + "\" has no binding");
    const uint32_t max = storage_block ? translator::GlBindingMap::kMaxShaderStorageBufferBindings
                                       : translator::GlBindingMap::kMaxUniformBufferBindings;
    if (*binding >= max) return fail("error: binding " + std::to_string(*binding) + " is out of range");
    found.push_back(
        {variable,
         storage_block ? translator::GlResourceKind::ShaderStorageBuffer : translator::GlResourceKind::UniformBuffer,
         *binding, name_of(block), buffer_data_size(m, block)});
  }

  // Compact Vulkan bindings in set 0, written by the pipeline.
  linked.bindings.descriptor_set = 0;
  for (uint32_t i = 0; i < found.size(); ++i) {
    const Found& f = found[i];
    linked.bindings.by_variable.emplace_back(f.variable, i);
    linked.resources.push_back({f.kind, f.gl_binding});
    translator::GlBufferBinding b{f.name, f.gl_binding, i, f.data_size};
    (f.kind == translator::GlResourceKind::ShaderStorageBuffer ? linked.storage_blocks : linked.uniform_blocks)
        .push_back(b);
  }

  // Atomic counters: one storage buffer per GL binding point (GL 4.6 §7.7), after the blocks.
  auto counters = spirv_patch::atomic_counter_variables(m);
  if (!counters) return fail("error: " + counters.error().message);
  std::map<uint32_t, uint32_t> counter_buffer_end;  // GL binding -> bytes its counters reach
  for (const auto& c : *counters) {
    if (c.gl_binding >= translator::GlBindingMap::kMaxAtomicCounterBufferBindings) {
      return fail("error: atomic counter binding " + std::to_string(c.gl_binding) +
                  " is not below GL_MAX_ATOMIC_COUNTER_BUFFER_BINDINGS (" +
                  std::to_string(translator::GlBindingMap::kMaxAtomicCounterBufferBindings) + ")");
    }
    uint32_t& end = counter_buffer_end[c.gl_binding];
    end = std::max(end, c.offset + 4 * std::max<uint32_t>(1, c.array_size));
    linked.atomic_counters.push_back({"", c.gl_binding, c.offset, std::max<uint32_t>(1, c.array_size)});
  }
  if (!counter_buffer_end.empty()) {
    spirv_patch::AtomicCounterBufferOptions options;
    for (const auto& [gl_binding, end] : counter_buffer_end) {
      const auto vk_binding = static_cast<uint32_t>(linked.resources.size());
      options.vk_binding[gl_binding] = vk_binding;
      linked.resources.push_back({translator::GlResourceKind::AtomicCounterBuffer, gl_binding});
      linked.atomic_counter_buffers.push_back({std::to_string(gl_binding), gl_binding, vk_binding, end});
    }
    linked.spirv_atomic_counter_buffers = options;
  }

  // Default-block uniforms: one uniform buffer the shim owns, set by location.
  auto uniforms = spirv_patch::default_uniform_layout(m);
  if (!uniforms) return fail("error: " + uniforms.error().message);
  // GLSL 4.60 §4.4.3: "it is a compile-time error if [an explicit uniform location] is ... greater than or equal to
  // the value of MAX_UNIFORM_LOCATIONS"; the default block holds at most MAX_COMPUTE_UNIFORM_COMPONENTS (4096)
  // components, 16384 bytes.
  for (const auto& u : uniforms->uniforms) {
    if (u.location + std::max<uint32_t>(1, u.array_size) > kMaxUniformLocations) {
      return fail("error: uniform location " + std::to_string(u.location) + " is not below GL_MAX_UNIFORM_LOCATIONS (" +
                  std::to_string(kMaxUniformLocations) + ")");
    }
  }
  if (uniforms->size > kMaxDefaultBlockBytes) {
    return fail("error: the default-block uniforms take " + std::to_string(uniforms->size) +
                " bytes, more than GL_MAX_COMPUTE_UNIFORM_COMPONENTS (4096) allow");
  }
  if (!uniforms->variables.empty()) {
    const auto vk_binding = static_cast<uint32_t>(linked.resources.size());
    linked.resources.push_back({translator::GlResourceKind::DefaultUniformBlock, 0});
    linked.spirv_default_uniform_block = spirv_patch::DefaultUniformBlockOptions{0, vk_binding};
    for (const auto& u : uniforms->uniforms) {
      translator::GlUniform uniform;
      uniform.gl_type = spirv_uniform_gl_type(u);
      if (uniform.gl_type == 0) return fail("error: a default-block uniform has a type GL does not name");
      uniform.array_size = std::max<uint32_t>(1, u.array_size);
      uniform.offset = u.offset;
      uniform.array_stride = u.array_stride;
      uniform.matrix_stride = u.matrix_stride;
      uniform.location = static_cast<int32_t>(u.location);
      linked.uniforms.push_back(uniform);
    }
  }
  auto by_binding = [](const translator::GlBufferBinding& a, const translator::GlBufferBinding& b) {
    return a.gl_binding < b.gl_binding;
  };
  std::sort(linked.storage_blocks.begin(), linked.storage_blocks.end(), by_binding);
  std::sort(linked.uniform_blocks.begin(), linked.uniform_blocks.end(), by_binding);
  linked.spirv.assign(words.begin(), words.end());
  linked.entry_point = entry;
  return linked;
}

}  // namespace bismuth::gl
