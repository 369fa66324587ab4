// A compute shader ready for the pipeline cache: its SPIR-V (already patched so that the workgroup size is
// specialization constants with known SpecIds), its content hash, its VkShaderModule and its pipeline layout.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "bismuth/backend/device.hpp"

namespace bismuth::backend {

// Descriptor set 0: binding i has type bindings[i] and counts[i] descriptors (1 when `counts` is shorter or holds 0:
// an array of blocks has one descriptor per element); plus push constants. Types: storage or uniform buffers, which
// a dispatch binds from DispatchInfo::bindings, and storage images, sampled images, combined image samplers,
// samplers, uniform and storage texel buffers, which it binds from DispatchInfo::images (command_stream.hpp); each
// list in binding order, element by element.
struct BindingLayout {
  std::vector<VkDescriptorType> bindings;
  uint32_t push_constant_bytes = 0;
  std::vector<uint32_t> counts;

  uint32_t count(size_t binding) const { return binding < counts.size() && counts[binding] != 0 ? counts[binding] : 1; }
  size_t descriptor_count() const {
    size_t n = 0;
    for (size_t i = 0; i < bindings.size(); ++i) n += count(i);
    return n;
  }
  // What a pipeline layout is made from, as words: the push-descriptor flag, the push-constant bytes, then type and
  // count per binding. Equal words make identically defined, so compatible, layouts (Device::pipeline_layouts keys
  // its shared pairs by them, Shader's layout identity hashes them).
  std::vector<uint32_t> description(bool push_descriptors) const {
    std::vector<uint32_t> words;
    words.reserve(2 + 2 * bindings.size());
    words.push_back(push_descriptors ? 1u : 0u);
    words.push_back(push_constant_bytes);
    for (size_t i = 0; i < bindings.size(); ++i) {
      words.push_back(static_cast<uint32_t>(bindings[i]));
      words.push_back(count(i));
    }
    return words;
  }
};

// A 128-bit content hash (XXH3-128).
struct Hash128 {
  uint64_t low = 0;
  uint64_t high = 0;
  friend bool operator==(const Hash128&, const Hash128&) = default;
};
Hash128 hash128(const void* data, size_t bytes);

struct ShaderDesc {
  std::span<const uint32_t> spirv;
  std::string entry_point = "main";
  BindingLayout layout;
  // SpecIds of the workgroup size x/y/z (spirv_patch's WorkgroupSizeToSpecConstants; GLSL local_size_x_id).
  std::array<uint32_t, 3> group_size_spec_ids = {0, 1, 2};
  // The Vulkan layer passes the application's pipeline layout instead of `layout`: Bismuth then neither
  // creates nor destroys it, and `external_layout_identity` (unique per compatible layout) goes into the key.
  VkPipelineLayout external_layout = VK_NULL_HANDLE;
  uint64_t external_layout_identity = 0;
  std::string name;  // for messages
  // Fixed parts of every pipeline of this shader (the Vulkan layer passes the application's): specialization
  // constants other than the group size (map entries with offsets into `specialization_data`), the pipeline's
  // create flags and the stage's flags. They are part of the key (folded into layout_identity()).
  std::vector<VkSpecializationMapEntry> specialization_entries;
  std::vector<uint8_t> specialization_data;
  VkPipelineCreateFlags pipeline_flags = 0;
  VkPipelineShaderStageCreateFlags stage_flags = 0;
  // Optional, for variable-size programs: the same program rewritten by spirv_patch::workgroup_size_to_runtime
  // (spirv_patch/passes/workgroup_size_to_runtime.hpp). Its pipelines depend only on the total invocation count L (the
  // size spec constants are specialised to (L,1,1)) and read the logical size (x,y,z) from 12 bytes of push constants
  // at `push_constant_offset`, so one pipeline serves every shape of the same total and, unless `exact_only`, any
  // request of at most L invocations (the others return at once). CommandStream prefers it (docs/backend.md,
  // "Runtime group size"). Ignored with an external layout. When its layout does not fit the device (push
  // constant limit) or its module is rejected, the shader simply has no variant.
  //
  // With `literal_values`, the variant also reads the program's integer literals from push constants (4 bytes each
  // from `literal_offset`, after the logical size: spirv_patch literals_to_push_constants), so programs generated
  // from one template have the same variant words and share its pipelines. Such a variant is only a stand-in: the
  // stream compiles the original module at the exact size in the background and switches to it when it is ready.
  struct RuntimeGroupSize {
    std::span<const uint32_t> spirv;
    uint32_t push_constant_offset = 0;
    bool exact_only = true;  // barriers or subgroup operations: only L == x*y*z
    std::span<const uint32_t> literal_values;
    uint32_t literal_offset = 0;
    // The variant only stands in for the original module's exact-size pipeline (for fixed-size programs, whose
    // variant serves other programs' sizes; implied by `literal_values`): streams move to the latter once it is ready.
    bool stand_in = false;
    // The variant reads the bytes the offsets above describe from a uniform buffer at this binding of set 0 (one past
    // `layout`'s: spirv_patch push_constants_to_uniform_block), `parameters_bytes` of them, instead of push
    // constants: the command stream writes them into a small buffer per batch and binds it (docs/backend.md).
    std::optional<uint32_t> parameters_binding;
    uint32_t parameters_bytes = 0;
  };
  std::optional<RuntimeGroupSize> runtime_group_size;
};

class Shader : public std::enable_shared_from_this<Shader> {
 public:
  static Expected<std::shared_ptr<Shader>> create(Device& device, const ShaderDesc& desc);
  ~Shader();  // destroys the module and the layouts once every submission so far completed
  Shader(const Shader&) = delete;
  Shader& operator=(const Shader&) = delete;

  Device& device() const { return *device_; }
  const Hash128& spirv_hash() const { return spirv_hash_; }
  uint64_t entry_point_hash() const { return entry_hash_; }
  uint64_t layout_identity() const { return layout_identity_; }
  const std::string& entry_point() const { return entry_point_; }
  const std::string& name() const { return name_; }
  const std::array<uint32_t, 3>& group_size_spec_ids() const { return spec_ids_; }
  // The VkShaderModule, created by the first call (the first pipeline compile of this shader, usually), not by
  // create(): a GL program that only ever runs on a shared stand-in variant, or is deleted before its first
  // dispatch, never pays for it (on the H100 a shader's module and layouts cost ~16 µs, most of a warm link).
  // Thread-safe; fails only when vkCreateShaderModule does (then the next call tries again).
  Expected<VkShaderModule> module() const;
  VkPipelineLayout pipeline_layout() const { return pipeline_layout_; }
  VkDescriptorSetLayout set_layout() const { return set_layout_; }
  const BindingLayout& binding_layout() const { return layout_; }
  // Of its descriptors, those that take a DispatchInfo::bindings entry (storage and uniform buffers) and those that
  // take a DispatchInfo::images entry (images, samplers, texel buffers).
  size_t buffer_descriptor_count() const { return buffer_descriptors_; }
  size_t image_descriptor_count() const { return image_descriptors_; }
  // Binding goes through vkCmdPushDescriptorSetKHR (else descriptor sets from a pool).
  bool uses_push_descriptors() const { return push_descriptors_; }
  size_t spirv_bytes() const { return spirv_bytes_; }
  const std::vector<VkSpecializationMapEntry>& specialization_entries() const { return spec_entries_; }
  const std::vector<uint8_t>& specialization_data() const { return spec_data_; }
  VkPipelineCreateFlags pipeline_flags() const { return pipeline_flags_; }
  VkPipelineShaderStageCreateFlags stage_flags() const { return stage_flags_; }

  // The runtime-group-size variant (ShaderDesc::runtime_group_size), or null. It has its own module and layout;
  // the owner keeps it alive.
  const Shader* runtime_variant() const { return runtime_variant_.get(); }
  std::shared_ptr<const Shader> runtime_variant_ref() const { return runtime_variant_; }
  // On a variant: where the logical size goes in the push constants, and whether only L == x*y*z may run it.
  bool is_runtime_variant() const { return is_runtime_variant_; }
  uint32_t runtime_size_offset() const { return runtime_size_offset_; }
  bool runtime_exact_only() const { return runtime_exact_only_; }
  // The program's literals its variant reads from push constants (empty: none), at the variant's
  // runtime_literal_offset(). On a shared variant itself: the literals of the program that created it (a variant
  // is shared by the programs of a template, each pushing its own).
  std::span<const uint32_t> runtime_literals() const { return runtime_literals_; }
  uint32_t runtime_literal_offset() const { return runtime_literal_offset_; }
  // On a variant: it stands in for the original module's exact-size pipeline (ShaderDesc::RuntimeGroupSize).
  bool runtime_stand_in() const { return runtime_stand_in_; }
  // On a variant that reads its size and literals from a uniform buffer (its layout's last binding): the buffer's
  // bytes, laid out as the push constants would be; 0 for a variant that reads push constants.
  uint32_t runtime_parameters_bytes() const { return runtime_parameters_bytes_; }
  // Why a requested variant was not created (empty when it was, or none was requested).
  const std::string& runtime_variant_note() const { return runtime_variant_note_; }

 private:
  explicit Shader(Device& device) : device_(&device) {}
  Device* device_;
  Hash128 spirv_hash_;
  uint64_t entry_hash_ = 0;
  uint64_t layout_identity_ = 0;
  std::string entry_point_;
  std::string name_;
  std::array<uint32_t, 3> spec_ids_{};
  BindingLayout layout_;
  size_t buffer_descriptors_ = 0;
  size_t image_descriptors_ = 0;
  std::vector<uint32_t> spirv_;  // the words, for module()
  mutable std::mutex module_mutex_;
  mutable std::atomic<VkShaderModule> module_{VK_NULL_HANDLE};
  VkDescriptorSetLayout set_layout_ = VK_NULL_HANDLE;
  VkPipelineLayout pipeline_layout_ = VK_NULL_HANDLE;
  bool owns_layout_ = false;
  bool push_descriptors_ = false;
  size_t spirv_bytes_ = 0;
  std::vector<VkSpecializationMapEntry> spec_entries_;
  std::vector<uint8_t> spec_data_;
  VkPipelineCreateFlags pipeline_flags_ = 0;
  VkPipelineShaderStageCreateFlags stage_flags_ = 0;
  std::shared_ptr<const Shader> runtime_variant_;
  bool is_runtime_variant_ = false;
  uint32_t runtime_size_offset_ = 0;
  bool runtime_exact_only_ = true;
  std::vector<uint32_t> runtime_literals_;
  uint32_t runtime_literal_offset_ = 0;
  bool runtime_stand_in_ = false;
  uint32_t runtime_parameters_bytes_ = 0;
  std::string runtime_variant_note_;
};

}  // namespace bismuth::backend
