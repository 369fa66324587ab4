// shadow_lowering.hpp: the lowered module of a GLSL program and the state words of a dispatch.
#include "shadow_lowering.hpp"

#include <algorithm>
#include <cstring>
#include <string>

#include "bismuth/nvasm/gl_program_layout.hpp"
#include "bismuth/spirv_patch/pipeline.hpp"
#include "device_state.hpp"
#include "program_link.hpp"

namespace bismuth::gl {
namespace {

void skip(Context* ctx, const char* func, const std::string& text) {
  ctx->debug(GL_DEBUG_SOURCE_API, GL_DEBUG_TYPE_UNDEFINED_BEHAVIOR, 1, GL_DEBUG_SEVERITY_HIGH,
             std::string(func) + ": " + text + "; the dispatch was skipped");
}

// The Vulkan binding of each resource (program_shader_desc: one binding per resource, or per group of
// descriptor_counts).
std::vector<uint32_t> resource_bindings(const translator::GlLinkedProgram& p) {
  std::vector<uint32_t> out(p.resources.size());
  if (p.descriptor_counts.empty()) {
    for (uint32_t i = 0; i < out.size(); ++i) out[i] = i;
    return out;
  }
  size_t first = 0;
  for (uint32_t b = 0; b < p.descriptor_counts.size(); ++b) {
    for (uint32_t k = 0; k < p.descriptor_counts[b] && first + k < out.size(); ++k) out[first + k] = b;
    first += p.descriptor_counts[b];
  }
  return out;
}

// Runs the pass over `spirv` for lowering.bindings (set by the caller) and creates the backend shader from `desc`;
// sets lowering.error on failure.
void make(Context* ctx, std::span<const uint32_t> spirv, backend::ShaderDesc desc, ShadowLowering& lowering) {
  lowering.made = true;
  spirv_patch::ShadowSamplerOptions options;
  for (const ShadowLowering::Binding& b : lowering.bindings) options.bindings.push_back({0, b.binding});
  // The backend specializes the group size at these SpecIds whether or not the module decorates them.
  for (uint32_t id : desc.group_size_spec_ids) options.first_spec_id = std::max(options.first_spec_id, id + 1);
  // The LOD parameters go in push constants (no pipeline per value) where the module has none of its own: the
  // lowered shader has no run-time group size variant, whose push constants the backend would write.
  options.max_push_constant_bytes =
      desc.layout.push_constant_bytes == 0 ? ctx->device_state.device->info().max_push_constants_size : 0;
  spirv_patch::PipelineOptions pipeline;
  pipeline.lower_float_compare_swap = false;  // done at link
  pipeline.lower_khr_subgroup_ops = false;
  pipeline.shadow_samplers = options;
  if (!lowering.swizzle_bindings.empty()) {
    spirv_patch::SwizzleLookupOptions swizzle;
    for (const ShadowLowering::Binding& b : lowering.swizzle_bindings) swizzle.bindings.push_back({0, b.binding});
    swizzle.first_spec_id = options.first_spec_id;
    pipeline.swizzle_lookups = swizzle;
  }
  if (!validation_requested()) pipeline.validate.reset();
  auto piped = spirv_patch::run_pipeline(spirv, pipeline);
  if (!piped && spirv_patch::failed_stage(piped.error()) == spirv_patch::PipelineStage::SwizzleLookups) {
    // The shadow comparisons still work without the swizzles; only a dispatch that needs one is skipped (finish()).
    lowering.swizzle_error =
        "the program's texture swizzles cannot be applied in the shader (for the border colour "
        "of a swizzled texture on a device without VK_EXT_border_color_swizzle): " +
        piped.error().message;
    lowering.swizzle_bindings.clear();
    pipeline.swizzle_lookups.reset();
    piped = spirv_patch::run_pipeline(spirv, pipeline);
  }
  if (!piped) {
    lowering.error = "the program's shadow samplers cannot be compared in the shader: " + piped.error().message;
    return;
  }
  const spirv_patch::ShadowSamplerReport& report = *piped->shadow_samplers;
  for (size_t k = 0; k < lowering.bindings.size(); ++k) {
    lowering.bindings[k].spec_id = report.spec_ids[k];
    if (k < report.lod_spec_ids.size()) lowering.bindings[k].lod_spec_ids = report.lod_spec_ids[k];
  }
  lowering.lod_specialized = !report.lod_spec_ids.empty();
  if (piped->swizzle_lookups) {
    for (size_t k = 0; k < lowering.swizzle_bindings.size(); ++k) {
      lowering.swizzle_bindings[k].spec_id = piped->swizzle_lookups->spec_ids[k];
    }
  }
  lowering.lod_push_bytes = report.lod_push_constant_bytes;
  desc.layout.push_constant_bytes = report.lod_push_constant_bytes;
  lowering.spirv = std::move(piped->words);
  desc.spirv = lowering.spirv;
  desc.runtime_group_size.reset();
  desc.name += " with shadow comparisons in the shader";
  auto shader = backend::Shader::create(*ctx->device_state.device, desc);
  if (!shader) {
    lowering.error =
        "the Vulkan driver rejected the program with its shadow comparisons in the shader: " + shader.error().message;
    return;
  }
  lowering.shader = std::move(*shader);
  if (!lowering.swizzle_bindings.empty()) {
    ctx->debug(GL_DEBUG_SOURCE_API, GL_DEBUG_TYPE_PERFORMANCE, 2, GL_DEBUG_SEVERITY_NOTIFICATION,
               desc.name +
                   ": the texture swizzles in the shader (a swizzled texture sampled with CLAMP_TO_BORDER on "
                   "a device without VK_EXT_border_color_swizzle): a second module of the program");
  }
}

// Whether the lowered module swizzles plain samplers' lookups: on devices without VK_EXT_border_color_swizzle
// (texture_bindings.cpp binds a swizzled texture sampled with CLAMP_TO_BORDER through an identity view there).
bool swizzles_in_shader(const Context* ctx) {
  return !ctx->device_state.device->features().border_color_swizzle;
}

// The GLSL executable's shadow bindings: every Texture resource of a shadow sampler uniform, an array's elements
// sharing their binding; and where `swizzle`, the other Texture resources' bindings alike.
void glsl_bindings(const translator::GlLinkedProgram& p, ShadowLowering& lowering, bool swizzle) {
  const std::vector<uint32_t> bindings = resource_bindings(p);
  for (uint32_t i = 0; i < p.resources.size(); ++i) {
    const translator::GlResource& r = p.resources[i];
    if (r.kind != translator::GlResourceKind::Texture) continue;
    const bool shadow = p.uniforms[r.uniform].opaque->shadow;
    if (!shadow && !swizzle) continue;
    std::vector<ShadowLowering::Binding>& list = shadow ? lowering.bindings : lowering.swizzle_bindings;
    if (!list.empty() && list.back().binding == bindings[i]) {
      ++list.back().resources;
      continue;
    }
    list.push_back({bindings[i], 0, i, 1});
  }
}

// The shader, or null with the dispatch skipped; the spec values of the dispatch's state words.
const backend::Shader* finish(Context* ctx, ShadowLowering& lowering, const backend::Shader* shader, const char* func) {
  if (shader == nullptr) {
    skip(ctx, func, lowering.error);
    return nullptr;
  }
  ctx->spec_values_scratch.clear();
  ctx->shadow_push_scratch.clear();
  for (const ShadowLowering::Binding& b : lowering.bindings) {
    const ShadowSamplerState& state = ctx->shadow_states_scratch[b.first_resource];
    // One state word per binding: the elements of a shadow sampler array share it.
    for (uint32_t k = 1; k < b.resources; ++k) {
      if (ctx->shadow_states_scratch[b.first_resource + k] != state) {
        skip(ctx, func,
             "the elements of a shadow sampler array read textures of different comparison state (compare "
             "function, filters, LOD bias and clamps, wrap modes, border depth or fixed-point/float format), which "
             "the comparison in the shader (depth textures in a colour format this device cannot compare) does not "
             "support");
        return nullptr;
      }
    }
    ctx->spec_values_scratch.push_back({b.spec_id, state.word});
    if (lowering.lod_push_bytes > 0) {
      ctx->shadow_push_scratch.insert(ctx->shadow_push_scratch.end(), state.lod.begin(), state.lod.end());
    } else if (lowering.lod_specialized) {
      for (size_t k = 0; k < state.lod.size(); ++k) {
        uint32_t bits = 0;
        std::memcpy(&bits, &state.lod[k], sizeof bits);
        ctx->spec_values_scratch.push_back({b.lod_spec_ids[k], bits});
      }
    }
  }
  if (!lowering.swizzle_error.empty()) {
    for (uint32_t word : ctx->swizzle_words_scratch) {
      if (word != spirv_patch::kSwizzleIdentity) {
        skip(ctx, func, lowering.swizzle_error);
        return nullptr;
      }
    }
  }
  for (const ShadowLowering::Binding& b : lowering.swizzle_bindings) {
    const uint32_t word = ctx->swizzle_words_scratch[b.first_resource];
    for (uint32_t k = 1; k < b.resources; ++k) {
      if (ctx->swizzle_words_scratch[b.first_resource + k] != word) {
        skip(ctx, func,
             "the elements of a sampler array read textures of different TEXTURE_SWIZZLE_* with CLAMP_TO_BORDER, "
             "whose swizzle this device (without VK_EXT_border_color_swizzle) applies in the shader, one per array");
        return nullptr;
      }
    }
    ctx->spec_values_scratch.push_back({b.spec_id, word});
  }
  return shader;
}

}  // namespace

const backend::Shader* shadow_lowered_shader(Context* ctx, Executable& exe, const char* func) {
  ShadowLowering& lowering = *exe.shadow_lowering;
  const backend::Shader* shader = nullptr;
  {
    std::lock_guard lock(lowering.mutex);
    if (!lowering.made) {
      glsl_bindings(exe.program, lowering, swizzles_in_shader(ctx));
      make(ctx, exe.program.spirv, program_shader_desc(exe, 0), lowering);
    }
    shader = lowering.shader.get();
  }
  return finish(ctx, lowering, shader, func);
}

const backend::Shader* shadow_lowered_shader(Context* ctx, AsmExecutable& exe, const char* func) {
  ShadowLowering& lowering = *exe.shadow_lowering;
  const backend::Shader* shader = nullptr;
  {
    std::lock_guard lock(lowering.mutex);
    if (!lowering.made) {
      // texture[n] at texture_binding_base() + i (gl_program_layout.hpp), i its place in info.textures.
      const uint32_t base = nvasm::gl_program_layout(exe.info).texture_binding_base();
      for (uint32_t i = 0; i < exe.info.textures.size(); ++i) {
        const nvasm::TextureBinding& t = exe.info.textures[i];
        if (t.shadow) {
          lowering.bindings.push_back({base + i, 0, i, 1});
        } else if (t.target != nvasm::TextureTarget::Buffer && swizzles_in_shader(ctx)) {
          lowering.swizzle_bindings.push_back({base + i, 0, i, 1});
        }
      }
      if (exe.spirv.empty()) {
        lowering.made = true;
        lowering.error = "internal: the assembly program kept no module for its shadow or swizzled textures";
      } else {
        make(ctx, exe.spirv, exe.desc, lowering);
      }
    }
    shader = lowering.shader.get();
  }
  return finish(ctx, lowering, shader, func);
}

}  // namespace bismuth::gl
