#include "bismuth/backend/shader.hpp"

#include <xxhash.h>

#include "spirv_dump.hpp"

namespace bismuth::backend {

Hash128 hash128(const void* data, size_t bytes) {
  const XXH128_hash_t h = XXH3_128bits(data, bytes);
  return Hash128{h.low64, h.high64};
}

namespace {

// The variant's push constants: the logical size (12 bytes at its offset), then its literals.
uint64_t runtime_push_end(const ShaderDesc::RuntimeGroupSize& variant) {
  if (variant.literal_values.empty()) return uint64_t(variant.push_constant_offset) + 12;
  return uint64_t(variant.literal_offset) + 4 * uint64_t(variant.literal_values.size());
}

// Both must fit below maxPushConstantsSize (push constant ranges are multiples of 4), after the caller's.
bool runtime_size_fits(const Device& device, const ShaderDesc& desc, const ShaderDesc::RuntimeGroupSize& variant) {
  const bool literals_placed =
      variant.literal_values.empty() ||
      (variant.literal_offset % 4 == 0 && variant.literal_offset >= uint64_t(variant.push_constant_offset) + 12);
  // Uniform parameters: one uniform buffer right after the program's bindings, which covers the size and literals.
  const bool parameters_placed =
      !variant.parameters_binding || (*variant.parameters_binding == desc.layout.bindings.size() &&
                                      variant.parameters_bytes >= runtime_push_end(variant) &&
                                      variant.parameters_bytes <= device.info().max_uniform_buffer_range);
  return variant.push_constant_offset % 4 == 0 && variant.push_constant_offset >= desc.layout.push_constant_bytes &&
         literals_placed && parameters_placed && runtime_push_end(variant) <= device.info().max_push_constants_size;
}

// The fixed pipeline parts of `desc` (specialization constants other than the size, create flags), 0 when none.
uint64_t fixed_parts_hash(const ShaderDesc& desc) {
  if (desc.specialization_entries.empty() && desc.pipeline_flags == 0 && desc.stage_flags == 0) return 0;
  std::vector<uint8_t> bytes(desc.specialization_data);
  for (const VkSpecializationMapEntry& e : desc.specialization_entries) {
    const uint32_t words[3] = {e.constantID, e.offset, static_cast<uint32_t>(e.size)};
    bytes.insert(bytes.end(), reinterpret_cast<const uint8_t*>(words), reinterpret_cast<const uint8_t*>(words + 3));
  }
  const uint32_t flags[2] = {desc.pipeline_flags, desc.stage_flags};
  bytes.insert(bytes.end(), reinterpret_cast<const uint8_t*>(flags), reinterpret_cast<const uint8_t*>(flags + 2));
  return XXH3_64bits(bytes.data(), bytes.size()) | 1;  // never zero
}

// The description a pipeline layout is made from.
uint64_t layout_hash(const BindingLayout& layout, bool push_descriptors) {
  const std::vector<uint32_t> words = layout.description(push_descriptors);
  return XXH3_64bits(words.data(), words.size() * sizeof(uint32_t));
}

// What makes two stand-in variants interchangeable: their words and everything their pipelines and layouts are made
// from (the literal values are the programs' own: each program pushes its own).
std::pair<uint64_t, uint64_t> variant_key(const ShaderDesc& child, const ShaderDesc::RuntimeGroupSize& variant) {
  const Hash128 words = hash128(child.spirv.data(), child.spirv.size_bytes());
  const auto& ids = child.group_size_spec_ids;
  const uint64_t parts[] = {words.low,
                            words.high,
                            XXH3_64bits(child.entry_point.data(), child.entry_point.size()),
                            layout_hash(child.layout, false),
                            fixed_parts_hash(child),
                            uint64_t(ids[0]) << 32 | ids[1],
                            uint64_t(ids[2]) << 32 | variant.push_constant_offset,
                            uint64_t(variant.exact_only) << 32 | variant.literal_offset,
                            variant.literal_values.size(),
                            uint64_t(variant.parameters_bytes) << 32 | variant.parameters_binding.value_or(UINT32_MAX)};
  const Hash128 h = hash128(parts, sizeof parts);
  return {h.low, h.high};
}

}  // namespace

Expected<std::shared_ptr<Shader>> Shader::create(Device& device, const ShaderDesc& desc) {
  if (Status ok = device.alive(); !ok) return ok.error();
  if (desc.spirv.size() < 5 || desc.spirv[0] != 0x07230203u) {
    return fail("Shader::create(" + desc.name + "): not a SPIR-V module (bad magic or too short)");
  }
  std::shared_ptr<Shader> self(new Shader(device));
  self->spirv_hash_ = hash128(desc.spirv.data(), desc.spirv.size_bytes());
  self->entry_point_ = desc.entry_point;
  self->entry_hash_ = XXH3_64bits(desc.entry_point.data(), desc.entry_point.size());
  self->name_ = desc.name;
  self->spec_ids_ = desc.group_size_spec_ids;
  self->layout_ = desc.layout;
  for (size_t i = 0; i < desc.layout.bindings.size(); ++i) {
    switch (desc.layout.bindings[i]) {
      case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER:
      case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER: self->buffer_descriptors_ += desc.layout.count(i); break;
      case VK_DESCRIPTOR_TYPE_STORAGE_IMAGE:
      case VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE:
      case VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER:
      case VK_DESCRIPTOR_TYPE_SAMPLER:
      case VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER:
      case VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER: self->image_descriptors_ += desc.layout.count(i); break;
      default:
        if (desc.external_layout == VK_NULL_HANDLE) {
          return fail("Shader::create(" + desc.name + "): binding " + std::to_string(i) + " has descriptor type " +
                      std::to_string(int(desc.layout.bindings[i])) + ", which CommandStream cannot bind");
        }
    }
  }
  self->spirv_bytes_ = desc.spirv.size_bytes();
  self->spec_entries_ = desc.specialization_entries;
  self->spec_data_ = desc.specialization_data;
  self->pipeline_flags_ = desc.pipeline_flags;
  self->stage_flags_ = desc.stage_flags;
  for (const VkSpecializationMapEntry& e : desc.specialization_entries) {
    if (e.offset > desc.specialization_data.size() || e.size > desc.specialization_data.size() - e.offset) {
      return fail("Shader::create(" + desc.name + "): a specialization map entry lies outside the data");
    }
  }
  // The fixed pipeline parts, when any, are folded into the layout identity: pipelines that differ in them
  // never share a key.
  const uint64_t fixed_parts = fixed_parts_hash(desc);

  dump_spirv_if_asked(desc.name, desc.spirv);
  self->spirv_.assign(desc.spirv.begin(), desc.spirv.end());

  if (desc.external_layout != VK_NULL_HANDLE) {
    self->pipeline_layout_ = desc.external_layout;
    // The top bit keeps external identities apart from the hashed descriptions below.
    self->layout_identity_ = (desc.external_layout_identity ^ fixed_parts) | (1ull << 63);
    return self;
  }

  const uint32_t binding_count = static_cast<uint32_t>(desc.layout.bindings.size());
  const size_t descriptor_count = desc.layout.descriptor_count();
  self->push_descriptors_ =
      device.uses_push_descriptors() && binding_count > 0 && descriptor_count <= device.info().max_push_descriptors;
  if (desc.layout.push_constant_bytes > device.info().max_push_constants_size) {
    return fail("Shader::create(" + desc.name + "): " + std::to_string(desc.layout.push_constant_bytes) +
                " bytes of push constants exceed maxPushConstantsSize");
  }
  // Shared by description (Device::pipeline_layouts): a warm link creates no Vulkan object.
  auto layouts = device.pipeline_layouts(desc.layout, self->push_descriptors_);
  if (!layouts) return layouts.error();
  self->set_layout_ = layouts->set;
  self->pipeline_layout_ = layouts->pipeline;
  self->owns_layout_ = !layouts->shared;
  if (desc.runtime_group_size) {
    const ShaderDesc::RuntimeGroupSize& variant = *desc.runtime_group_size;
    self->runtime_literals_.assign(variant.literal_values.begin(), variant.literal_values.end());
    if (!runtime_size_fits(device, desc, variant)) {
      self->runtime_variant_note_ = "the logical size does not fit into maxPushConstantsSize";
    } else {
      ShaderDesc child = desc;
      child.spirv = variant.spirv;
      if (variant.parameters_binding) {
        // The size and literals come from a uniform buffer bound after the program's buffers; the program's own push
        // constants (none: the pass moves only a block at offset 0) stay as they are.
        child.layout.bindings.push_back(VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER);
        if (!child.layout.counts.empty()) child.layout.counts.push_back(1);
      } else {
        child.layout.push_constant_bytes = static_cast<uint32_t>(runtime_push_end(variant));
      }
      child.runtime_group_size.reset();
      child.name = desc.name + " (runtime group size)";
      // A stand-in is shared by content: the next program of the template takes this one's (no module, no layouts).
      const bool shared = variant.stand_in || !variant.literal_values.empty();  // literals: always a stand-in
      const auto key = shared ? variant_key(child, variant) : std::pair<uint64_t, uint64_t>{};
      if (shared) {
        self->runtime_variant_ = device.shared_variant(key);
        if (self->runtime_variant_) dump_spirv_if_asked(child.name, child.spirv);  // as if made for this program
      }
      if (!self->runtime_variant_) {
        auto created = Shader::create(device, child);
        if (!created) {
          // Not the caller's error: the per-size pipelines of the original module still work.
          self->runtime_variant_note_ = created.error().message;
        } else {
          (*created)->is_runtime_variant_ = true;
          (*created)->runtime_size_offset_ = variant.push_constant_offset;
          (*created)->runtime_exact_only_ = variant.exact_only;
          (*created)->runtime_literals_.assign(variant.literal_values.begin(), variant.literal_values.end());
          (*created)->runtime_literal_offset_ = variant.literal_offset;
          (*created)->runtime_stand_in_ = shared;
          (*created)->runtime_parameters_bytes_ = variant.parameters_binding ? variant.parameters_bytes : 0;
          self->runtime_variant_ = shared ? device.share_variant(key, std::move(*created)) : std::move(*created);
        }
      }
    }
  }
  // Identically defined layouts are compatible (Vulkan spec, "Pipeline Layout Compatibility"), so a pipeline
  // cached for one shader object serves another with the same SPIR-V and the same layout description.
  self->layout_identity_ = (layout_hash(desc.layout, self->push_descriptors_) ^ fixed_parts) & ~(1ull << 63);
  return self;
}

Expected<VkShaderModule> Shader::module() const {
  if (VkShaderModule ready = module_.load(std::memory_order_acquire); ready != VK_NULL_HANDLE) return ready;
  std::lock_guard lock(module_mutex_);
  if (VkShaderModule ready = module_.load(std::memory_order_relaxed); ready != VK_NULL_HANDLE) return ready;
  VkShaderModuleCreateInfo module_info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  module_info.codeSize = spirv_.size() * sizeof(uint32_t);
  module_info.pCode = spirv_.data();
  VkShaderModule created = VK_NULL_HANDLE;
  if (Status ok = device_->call("vkCreateShaderModule", device_->vk().vkCreateShaderModule, device_->handle(),
                                &module_info, nullptr, &created);
      !ok) {
    return ok.error();
  }
  module_.store(created, std::memory_order_release);
  return created;
}

Shader::~Shader() {
  Device* device = device_;
  VkShaderModule module = module_.load(std::memory_order_acquire);
  VkDescriptorSetLayout set_layout = owns_layout_ ? set_layout_ : VK_NULL_HANDLE;
  VkPipelineLayout pipeline_layout = owns_layout_ ? pipeline_layout_ : VK_NULL_HANDLE;
  // A CommandStream keeps the shader alive while a dispatch using it is recorded; after submission the
  // layout may still be referenced by in-flight command buffers, so wait for everything submitted so far.
  device->defer(device->last_submitted(), [device, module, set_layout, pipeline_layout] {
    const auto& vk = device->vk();
    if (module != VK_NULL_HANDLE) vk.vkDestroyShaderModule(device->handle(), module, nullptr);
    if (pipeline_layout != VK_NULL_HANDLE) vk.vkDestroyPipelineLayout(device->handle(), pipeline_layout, nullptr);
    if (set_layout != VK_NULL_HANDLE) vk.vkDestroyDescriptorSetLayout(device->handle(), set_layout, nullptr);
  });
}

}  // namespace bismuth::backend
