#include "bismuth/nvasm/gl_program_layout.hpp"

#include <algorithm>

namespace bismuth::nvasm {

namespace {

std::vector<uint32_t> sorted_unique(std::vector<uint32_t> v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

}  // namespace

AssembleOptions gl_assemble_options(const CompileTarget& target) {
  AssembleOptions options;
  options.storage_bindings.resize(kMaxStorageIndex + 1);
  for (uint32_t k = 0; k <= kMaxStorageIndex; ++k) options.storage_bindings[k] = kGlStorageBindingBase + k;
  options.parameter_buffer_bindings.resize(kMaxParameterBuffers);
  for (uint32_t a = 0; a < kMaxParameterBuffers; ++a)
    options.parameter_buffer_bindings[a] = kGlParameterBindingBase + a;
  options.counter_bindings.resize(kMaxCounterBuffers);
  for (uint32_t b = 0; b < kMaxCounterBuffers; ++b) options.counter_bindings[b] = kGlCounterBindingBase + b;
  options.subgroup_size_32_available = target.subgroup_size_32;
  options.exact_float_mad = target.fma_through_double;
  options.int64_buffer_atomics = target.int64_buffer_atomics;
  options.int64_shared_atomics = target.extensions.int64_shared_atomics;
  options.storage_buffer_8bit = target.storage_buffer_8bit;
  options.storage_buffer_16bit = target.storage_buffer_16bit;
  options.texture_bindings.resize(kMaxTextureUnits);
  for (uint32_t n = 0; n < kMaxTextureUnits; ++n) options.texture_bindings[n] = kGlTextureBindingBase + n;
  options.image_bindings.resize(kMaxImageUnits);
  for (uint32_t n = 0; n < kMaxImageUnits; ++n) options.image_bindings[n] = kGlImageBindingBase + n;
  options.storage_image_read_without_format = target.storage_image_read_without_format;
  options.storage_image_write_without_format = target.storage_image_write_without_format;
  options.sparse_residency = target.sparse_residency;
  options.buffer_device_address = target.buffer_device_address;
  options.min_lod = target.min_lod;
  options.image_float32_atomics = target.image_float32_atomics;
  options.image_float32_atomic_add = target.image_float32_atomic_add;
  options.buffer_float32_atomic_add = target.buffer_float32_atomic_add;
  options.buffer_float64_atomic_add = target.buffer_float64_atomic_add;
  options.parameter_buffer_bytes = target.max_uniform_buffer_range;
  options.scratch_binding = kGlScratchBinding;
  return options;
}

GlProgramLayout gl_program_layout(const ProgramInfo& info) {
  GlProgramLayout layout;
  std::vector<uint32_t> storage;
  for (const StorageBinding& s : info.storage_buffers) storage.push_back(s.program_storage);
  layout.storage = sorted_unique(std::move(storage));
  if (info.scratch_bytes_per_invocation > 0) layout.scratch_binding = static_cast<int>(layout.storage.size());
  std::vector<uint32_t> counter;
  for (const CounterBufferBinding& c : info.counter_buffers) counter.push_back(c.program_counter);
  layout.counter = sorted_unique(std::move(counter));
  std::vector<uint32_t> parameter;
  for (const ParameterBufferBinding& b : info.parameter_buffers) parameter.push_back(b.program_buffer);
  layout.parameter = sorted_unique(std::move(parameter));
  int next = static_cast<int>(layout.storage_buffer_count() + layout.parameter.size());
  if (info.local_parameter_count > 0) layout.local_binding = next++;
  if (info.env_parameter_count > 0) layout.env_binding = next++;
  if (!info.subroutine_parameters.empty()) layout.subroutine_binding = next++;
  // info.textures and info.images are in increasing unit order already.
  for (const TextureBinding& t : info.textures) {
    layout.textures.push_back({t.unit, t.target == TextureTarget::Buffer ? GlDescriptorType::UniformTexelBuffer
                                                                         : GlDescriptorType::CombinedImageSampler});
  }
  for (const ImageBinding& i : info.images) {
    layout.images.push_back({i.unit, i.target == TextureTarget::Buffer ? GlDescriptorType::StorageTexelBuffer
                                                                       : GlDescriptorType::StorageImage});
  }
  return layout;
}

spirv_patch::PipelineOptions gl_program_pipeline(const ProgramInfo& info, const GlProgramLayout& layout,
                                                 const GlProgramPipelineChoices& choices) {
  spirv_patch::DescriptorBindingRemap remap;
  remap.unmapped = spirv_patch::DescriptorBindingRemap::Unmapped::Error;
  for (uint32_t i = 0; i < layout.storage.size(); ++i) remap.by_binding[kGlStorageBindingBase + layout.storage[i]] = i;
  if (layout.scratch_binding >= 0)
    remap.by_binding[info.scratch_binding] = static_cast<uint32_t>(layout.scratch_binding);
  for (uint32_t i = 0; i < layout.counter.size(); ++i) {
    remap.by_binding[kGlCounterBindingBase + layout.counter[i]] = layout.counter_binding_base() + i;
  }
  for (uint32_t i = 0; i < layout.parameter.size(); ++i) {
    remap.by_binding[kGlParameterBindingBase + layout.parameter[i]] = layout.storage_buffer_count() + i;
  }
  if (layout.local_binding >= 0) remap.by_binding[kLocalParameterBinding] = static_cast<uint32_t>(layout.local_binding);
  if (layout.env_binding >= 0) remap.by_binding[kEnvParameterBinding] = static_cast<uint32_t>(layout.env_binding);
  if (layout.subroutine_binding >= 0) {
    remap.by_binding[kSubroutineParameterBinding] = static_cast<uint32_t>(layout.subroutine_binding);
  }
  for (uint32_t i = 0; i < layout.textures.size(); ++i) {
    remap.by_binding[kGlTextureBindingBase + layout.textures[i].unit] = layout.texture_binding_base() + i;
  }
  for (uint32_t i = 0; i < layout.images.size(); ++i) {
    remap.by_binding[kGlImageBindingBase + layout.images[i].unit] = layout.image_binding_base() + i;
  }

  spirv_patch::PipelineOptions options;
  options.bindings = std::move(remap);
  // The assembler emits GroupNonUniform instructions itself, computes MAD as `exact_float_mad` says and validates
  // its output: no lowering, no GL arithmetic, no second validation.
  options.lower_khr_subgroup_ops = false;
  options.validate.reset();
  if (info.group_size_form == GroupSizeForm::Variable && choices.runtime_group_size) {
    options.runtime_group_size = spirv_patch::RuntimeGroupSizeOptions{};
    if (choices.literals_to_push_constants) {
      options.literals_to_push_constants = spirv_patch::LiteralsToPushConstantsOptions{};
    }
  }
  return options;
}

}  // namespace bismuth::nvasm
