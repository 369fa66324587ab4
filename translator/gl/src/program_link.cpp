// glLinkProgram's work: the GLSL front's link (or ARB_gl_spirv's), the SPIR-V pipeline the front's options describe
// (spirv_patch/pipeline.hpp), the backend shader and the default uniform block's locations and storage.
#include <algorithm>

#include "bismuth/spirv_patch/pipeline.hpp"
#include "bismuth/spirv_patch/validate.hpp"
#include "bismuth/translator/gl_program_pipeline.hpp"
#include "device_state.hpp"
#include "gl_spirv.hpp"
#include "graphics_program.hpp"
#include "num_waves.hpp"
#include "program_cache.hpp"
#include "program_link.hpp"
#include "uniforms.hpp"
#include "variable_size.hpp"

namespace bismuth::gl {

namespace {

VkDescriptorType descriptor_type(translator::GlResourceKind kind) {
  switch (kind) {
    case translator::GlResourceKind::ShaderStorageBuffer:
    case translator::GlResourceKind::AtomicCounterBuffer: return VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    case translator::GlResourceKind::UniformBuffer:
    case translator::GlResourceKind::DefaultUniformBlock: return VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
    case translator::GlResourceKind::Texture: return VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
    case translator::GlResourceKind::TextureBuffer: return VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER;
    case translator::GlResourceKind::Image: return VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
    case translator::GlResourceKind::ImageBuffer: return VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER;
  }
  return VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
}

}  // namespace

void reset_opaque_units(Executable& exe) {
  const translator::GlLinkedProgram& p = exe.program;
  exe.opaque_units.assign(p.resources.size(), 0);
  for (const translator::GlUniform& u : p.uniforms) {
    if (!u.opaque) continue;
    // GLSL 4.60 §4.4.6: a binding qualifier on a sampler or image gives its initial unit, element k of an array
    // the unit after element k-1's; GL 4.6 §7.6: without one, every element starts at 0.
    const uint32_t first = u.opaque->declared_binding >= 0 ? static_cast<uint32_t>(u.opaque->declared_binding) : 0;
    for (uint32_t e = 0; e < u.array_size && u.opaque->resource + e < exe.opaque_units.size(); ++e) {
      exe.opaque_units[u.opaque->resource + e] = u.opaque->declared_binding >= 0 ? first + e : 0;
    }
  }
}

void assign_uniform_locations(Executable& exe) {
  translator::GlLinkedProgram& p = exe.program;
  auto place = [&](uint32_t u, size_t first, uint32_t elements) {
    if (exe.locations.size() < first + elements) exe.locations.resize(first + elements, {Location::kUnused, 0});
    for (uint32_t e = 0; e < elements; ++e) exe.locations[first + e] = {u, e};
  };
  auto elements_of = [](const translator::GlUniform& u) { return std::max<uint32_t>(1, u.array_size); };
  for (uint32_t u = 0; u < p.uniforms.size(); ++u) {
    if (p.uniforms[u].location >= 0) place(u, static_cast<size_t>(p.uniforms[u].location), elements_of(p.uniforms[u]));
  }
  size_t next = 0;  // the lowest location that may be free
  for (uint32_t u = 0; u < p.uniforms.size(); ++u) {
    translator::GlUniform& uniform = p.uniforms[u];
    const uint32_t elements = elements_of(uniform);
    if (uniform.location < 0) {
      auto free_run = [&](size_t first) {
        for (size_t l = first; l < first + elements; ++l) {
          if (l < exe.locations.size() && exe.locations[l].uniform != Location::kUnused) return false;
        }
        return true;
      };
      while (!free_run(next)) ++next;
      uniform.location = static_cast<int32_t>(next);
      place(u, next, elements);
      next += elements;
    }
    if (uniform.name.empty()) continue;  // ARB_gl_spirv: by location only (glGetUniformLocation gives -1)
    const auto base = static_cast<GLint>(uniform.location);
    exe.location_by_name[uniform.name] = base;
    const std::string& n = uniform.name;
    if (n.size() > 3 && n.compare(n.size() - 3, 3, "[0]") == 0) {
      const std::string stem = n.substr(0, n.size() - 3);
      exe.location_by_name[stem] = base;
      for (uint32_t e = 1; e < uniform.array_size; ++e) {
        exe.location_by_name[stem + "[" + std::to_string(e) + "]"] = base + static_cast<GLint>(e);
      }
    }
  }
}

// The backend shader (and its runtime-group-size variant), the prewarm compiles, the default uniform block and the
// locations of an executable whose program, entry point, stage flags and subgroup size are set: glLinkProgram's last
// step and glProgramBinary's whole work.
backend::ShaderDesc program_shader_desc(const Executable& exe, GLuint program_name) {
  const translator::GlLinkedProgram& p = exe.program;
  backend::ShaderDesc desc;
  desc.spirv = p.spirv;
  desc.entry_point = exe.entry_point;
  if (p.descriptor_counts.empty()) {
    for (const auto& r : p.resources) desc.layout.bindings.push_back(descriptor_type(r.kind));
  } else {
    size_t first = 0;
    for (uint32_t count : p.descriptor_counts) {
      desc.layout.bindings.push_back(descriptor_type(p.resources[first].kind));
      first += count;
    }
    desc.layout.counts = p.descriptor_counts;
  }
  desc.group_size_spec_ids = p.size_spec_ids;
  desc.name = "GL program " + std::to_string(program_name);
  desc.stage_flags = exe.stage_flags;
  return desc;
}

Status instantiate(const LinkTarget& target, GLuint program_name, Executable& exe) {
  DeviceState& device_state = *target.device_state;
  translator::GlLinkedProgram& p = exe.program;
  backend::ShaderDesc desc = program_shader_desc(exe, program_name);
  if (exe.runtime_variant) {
    // A fixed-size program's variant stands in for its one exact-size pipeline (literals make any variant one).
    desc.runtime_group_size = backend::ShaderDesc::RuntimeGroupSize{exe.runtime_variant->spirv,
                                                                    exe.runtime_variant->push_constant_offset,
                                                                    exe.runtime_variant->exact_only,
                                                                    exe.runtime_variant->literal_values,
                                                                    exe.runtime_variant->literal_offset,
                                                                    p.group_size == translator::GroupSize::Fixed,
                                                                    exe.runtime_variant->parameters_binding,
                                                                    exe.runtime_variant->parameters_bytes};
  }
  auto shader = backend::Shader::create(*device_state.device, desc);
  if (!shader) return fail("error: the Vulkan driver rejected the program: " + shader.error().message);
  exe.shader = std::move(*shader);
  if (p.group_size == translator::GroupSize::Variable) {
    exe.prewarm = prewarm_variable_size(*device_state.cache, exe.shader, exe.subgroup_size);
  } else if (exe.shader->runtime_variant() != nullptr) {
    exe.prewarm = stand_in_ticket(*device_state.cache, exe.shader);
  }

  for (const translator::GlUniform& uniform : p.uniforms) {
    // Every byte glUniform* may write lies inside the block (never past the CPU copy or the buffer).
    const uint64_t end = uniform_storage_end(uniform);
    if (end > UINT32_MAX) return fail("error: the default uniform block is too large");
    p.default_uniform_block_size = std::max(p.default_uniform_block_size, static_cast<uint32_t>(end));
  }
  assign_uniform_locations(exe);
  reset_opaque_units(exe);
  if (p.default_uniform_block_size > 0) {
    exe.uniform_data.assign(p.default_uniform_block_size, std::byte{0});
    auto buffer = backend::Buffer::create(*device_state.device, p.default_uniform_block_size);
    if (!buffer) return fail("error: allocating the default uniform block: " + buffer.error().message);
    exe.uniform_buffer = std::move(*buffer);
    exe.uniform_dirty = true;
  }
  return {};
}

// glLinkProgram's work: the GLSL front's link, the ballot/vote lowering, the backend shader and the uniform
// storage. On failure the message is the info log.
Expected<std::shared_ptr<Executable>> link(const LinkTarget& target, ProgramObject& program) {
  if (has_graphics_stage(program)) return link_graphics(program, target.es);
  const Caps& caps = target.caps();
  // GL 4.6 §11.1.2.1: the link fails if "the count specified by TransformFeedbackVaryings is non-zero, but the
  // program object has no vertex, tessellation evaluation, or geometry shader".
  if (!program.transform_feedback_varyings.empty()) {
    return fail(
        "error: transform feedback varyings are given but the program has no vertex, tessellation "
        "evaluation or geometry shader\n");
  }
  std::vector<std::shared_ptr<const translator::GlShader>> shaders;
  const ShaderObject* spirv_shader = nullptr;
  for (const auto& s : program.attached) {
    if (s->spirv_binary) {
      // ARB_gl_spirv: linking fails for "a mix of SPIR-V and GLSL shaders" or a SPIR-V shader not specialized.
      if (!s->specialized) return fail("error: SPIR-V shader " + std::to_string(s->name) + " is not specialized");
      if (spirv_shader != nullptr) return fail("error: more than one SPIR-V compute shader is attached");
      spirv_shader = s.get();
      continue;
    }
    auto front = front_shader(*s);
    if (!front) return front.error();
    shaders.push_back(std::move(*front));
  }
  if (spirv_shader != nullptr && !shaders.empty())
    return fail("error: SPIR-V and GLSL shaders cannot be linked together");
  // The device's GL_MAX_COMPUTE_SHARED_MEMORY_SIZE: a program over it fails to link (GLSL 4.60 §4.3.8).
  std::optional<spirv_patch::Module> parsed;  // the GLSL link's parse of its words, for the pipeline
  auto linked = spirv_shader ? link_spirv(spirv_shader->spirv, spirv_shader->spirv_entry)
                             : translator::link_gl_program(
                                   shaders, {.max_compute_shared_memory_size = caps.max_shared_memory}, &parsed);
  if (!linked) return linked.error();
  // "main" for GLSL, the HLSL entry function, or glSpecializeShader's entry point.
  const std::string entry = spirv_shader ? spirv_shader->spirv_entry : linked->entry_point;
  auto exe = std::make_shared<Executable>();
  exe->program = std::move(*linked);
  translator::GlLinkedProgram& p = exe->program;

  spirv_patch::PipelineOptions pipeline =
      translator::gl_program_pipeline(p, caps.compile_target,
                                      {.runtime_group_size = runtime_group_size_enabled(),
                                       .literals_to_push_constants = shared_variants_enabled(),
                                       .uniform_parameters = uniform_parameters_enabled()});
  pipeline.variant_memo = variant_memo();
  // spirv-val on GLSL and HLSL programs only where validation is asked for (BISMUTH_VALIDATION=1, as in every GL
  // test): it would cost more than the rest of the link, for words glslang and the passes made (each held to
  // spirv-val by the tests). An ARB_gl_spirv module is the application's: always validated, never handed to the
  // driver unchecked.
  const uint64_t validations_before = spirv_patch::validations_on_this_thread();
  if (spirv_shader == nullptr && !validation_requested()) {
    pipeline.validate.reset();
    pipeline.validate_runtime_group_size = false;
  }
  auto piped = parsed ? spirv_patch::run_pipeline(p.spirv, pipeline, std::move(*parsed))
                      : spirv_patch::run_pipeline(p.spirv, pipeline);
  exe->spirv_validations = static_cast<uint32_t>(spirv_patch::validations_on_this_thread() - validations_before);
  if (!piped) {
    const std::string& message = piped.error().message;
    switch (spirv_patch::failed_stage(piped.error())) {
      case spirv_patch::PipelineStage::LowerKhrSubgroupOps:
        return fail("error: lowering GL_ARB_shader_ballot/GL_ARB_shader_group_vote: " + message);
      case spirv_patch::PipelineStage::FloatCompareSwap: return fail("error: " + message);
      case spirv_patch::PipelineStage::Validate:
        return fail("error: internal: the program's SPIR-V is invalid: " + message);
      default: return fail("error: internal: " + message);
    }
  }
  if (piped->subgroup_lowering.changed) {
    if (!caps.ballot_vote) {
      return fail("error: GL_ARB_shader_ballot / GL_ARB_shader_group_vote are not supported on " + caps.device_name +
                  ": it cannot guarantee subgroups of at most 64 invocations with ballot and vote in compute "
                  "shaders");
    }
    exe->subgroup_size = piped->subgroup_lowering.requires_subgroup_size_at_most_64 ? caps.ballot_subgroup_size : 0;
  }
  p.spirv = std::move(piped->words);
  exe->entry_point = entry;
  // A fixed size made specializable (for the stand-in variant): the pipelines specialise it at the program's size.
  if (piped->group_size && p.group_size == translator::GroupSize::Fixed) p.size_spec_ids = piped->group_size->spec_ids;

  backend::ShaderDesc wave_desc;
  if (Status waves = commit_wave_size(target, program, *exe, wave_desc); !waves) return waves.error();
  exe->stage_flags = wave_desc.stage_flags;
  if (piped->runtime_group_size) {
    const spirv_patch::RuntimeGroupSizeVariant& variant = *piped->runtime_group_size;
    exe->runtime_variant = Executable::RuntimeVariant{variant.words,
                                                      variant.report.push_constant_offset,
                                                      variant.report.exact_only,
                                                      variant.literals.push_constant_offset,
                                                      variant.literals.values,
                                                      variant.parameters_binding,
                                                      variant.parameters_bytes};
  }
  if (Status made = instantiate(target, program.name, *exe); !made) return made.error();
  return exe;
}

}  // namespace bismuth::gl
