// ARB_gl_spirv (GL 4.6 §7.2.1): SPIR-V modules through glShaderBinary(GL_SHADER_BINARY_FORMAT_SPIR_V) and
// glSpecializeShader, linked into the same executable form as GLSL programs.
//
// GL SPIR-V uses GL's binding namespaces (storage block 2 and uniform block 2 are different bindings) and no
// descriptor sets; the link gives the statically used buffer variables compact Vulkan bindings of set 0, exactly as
// the GLSL front does for GLSL programs (GlLinkedProgram::resources), so dispatch binds them the same way. The
// SPIR-V edits are spirv_patch passes: set_spec_constant_defaults here, the bindings in the link's pipeline.
#include "gl_spirv.hpp"

#include <algorithm>

#include "bismuth/spirv_patch/module.hpp"
#include "bismuth/spirv_patch/passes/set_spec_constant_defaults.hpp"

namespace bismuth::gl {

using spirv_patch::InstructionHandle;
using spirv_patch::Module;
using spirv_patch::Section;

Expected<std::vector<uint32_t>> specialize_spirv(std::span<const uint32_t> words, const std::string& entry,
                                                 std::span<const GLuint> ids, std::span<const GLuint> values) {
  auto parsed = Module::parse(words);
  if (!parsed) return fail("error: the SPIR-V module is malformed: " + parsed.error().message);
  Module& m = *parsed;
  bool found = false;
  for (const auto& e : m.entry_points()) found = found || (e.model == spv::ExecutionModel::GLCompute && e.name == entry);
  if (!found) return fail("error: the module has no GLCompute entry point named \"" + entry + "\"");
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
  linked.group_size = translator::GroupSize::None;

  uint32_t entry_id = 0;
  for (const auto& e : m.entry_points()) {
    if (e.model == spv::ExecutionModel::GLCompute && e.name == entry) entry_id = e.function_id;
  }
  if (entry_id == 0) return fail("error: the module has no GLCompute entry point named \"" + entry + "\"");
  for (InstructionHandle h : m.instructions(Section::ExecutionMode)) {
    auto w = m.words(h);
    if (m.opcode(h) == spv::Op::OpExecutionMode && w.size() >= 6 && w[1] == entry_id &&
        w[2] == uint32_t(spv::ExecutionMode::LocalSize)) {
      linked.group_size = translator::GroupSize::Fixed;
      linked.fixed_size = {w[3], w[4], w[5]};
    }
  }
  if (linked.group_size != translator::GroupSize::Fixed) {
    return fail("error: the SPIR-V entry point declares no LocalSize (LocalSizeId is not supported)");
  }

  // Ids the functions use (a literal equal to an id only keeps an unused variable).
  std::vector<bool> used(m.bound(), false);
  for (InstructionHandle h : m.instructions(Section::Function)) {
    auto w = m.words(h);
    for (size_t i = 1; i < w.size(); ++i) {
      if (w[i] < used.size()) used[w[i]] = true;
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
  };
  std::vector<Found> found;
  for (InstructionHandle h : m.instructions(Section::Global)) {
    if (m.opcode(h) != spv::Op::OpVariable) continue;
    const std::vector<uint32_t> w(m.words(h).begin(), m.words(h).end());
    const auto storage = spv::StorageClass(w[3]);
    const uint32_t variable = w[2];
    if (storage == spv::StorageClass::AtomicCounter) {
      return fail("error: atomic counters in SPIR-V modules are not supported by this shim");
    }
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
    found.push_back({variable,
                     storage_block ? translator::GlResourceKind::ShaderStorageBuffer
                                   : translator::GlResourceKind::UniformBuffer,
                     *binding, name_of(block)});
  }

  // Compact Vulkan bindings in set 0, written by the pipeline.
  linked.bindings.descriptor_set = 0;
  for (uint32_t i = 0; i < found.size(); ++i) {
    const Found& f = found[i];
    linked.bindings.by_variable.emplace_back(f.variable, i);
    linked.resources.push_back({f.kind, f.gl_binding});
    translator::GlBufferBinding b{f.name, f.gl_binding, i, 0};
    (f.kind == translator::GlResourceKind::ShaderStorageBuffer ? linked.storage_blocks : linked.uniform_blocks)
        .push_back(b);
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
