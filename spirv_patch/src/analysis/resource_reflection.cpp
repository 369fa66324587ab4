#include "analysis/resource_reflection.hpp"

#include <spirv_cross_c.h>

#include <algorithm>
#include <memory>

namespace bismuth::spirv_patch {

namespace {

struct ContextDeleter {
  void operator()(spvc_context_s* context) const { spvc_context_destroy(context); }
};

// NonWritable / NonReadable on the variable, or on every member of its block.
bool declared(spvc_compiler compiler, const spvc_reflected_resource& resource, SpvDecoration decoration) {
  if (spvc_compiler_has_decoration(compiler, resource.id, decoration)) return true;
  spvc_type base = spvc_compiler_get_type_handle(compiler, resource.base_type_id);
  const unsigned members = spvc_type_get_num_member_types(base);
  if (members == 0) return false;
  for (unsigned i = 0; i < members; ++i) {
    if (!spvc_compiler_has_member_decoration(compiler, resource.base_type_id, i, decoration)) return false;
  }
  return true;
}

uint32_t array_size(spvc_compiler compiler, const spvc_reflected_resource& resource) {
  spvc_type type = spvc_compiler_get_type_handle(compiler, resource.type_id);
  uint32_t size = 1;
  for (unsigned d = 0; d < spvc_type_get_num_array_dimensions(type); ++d) {
    // A dimension sized by a spec constant counts as its default; 0 marks a runtime array.
    SpvId length = spvc_type_get_array_dimension(type, d);
    if (!spvc_type_array_dimension_is_literal(type, d)) {
      length = spvc_constant_get_scalar_u32(spvc_compiler_get_constant_handle(compiler, length), 0, 0);
    }
    size *= length;
  }
  return size;
}

}  // namespace

Expected<EntryPointResources> reflect_resources(std::span<const uint32_t> words, const std::string& name,
                                                uint32_t model) {
  spvc_context raw = nullptr;
  if (spvc_context_create(&raw) != SPVC_SUCCESS) return fail("SPIRV-Cross: cannot create a context");
  std::unique_ptr<spvc_context_s, ContextDeleter> context(raw);
  auto error = [&](const char* step) {
    return fail(std::string("SPIRV-Cross ") + step + ": " + spvc_context_get_last_error_string(context.get()));
  };
  spvc_parsed_ir ir = nullptr;
  if (spvc_context_parse_spirv(context.get(), words.data(), words.size(), &ir) != SPVC_SUCCESS) return error("parse");
  spvc_compiler compiler = nullptr;
  if (spvc_context_create_compiler(context.get(), SPVC_BACKEND_NONE, ir, SPVC_CAPTURE_MODE_TAKE_OWNERSHIP,
                                   &compiler) != SPVC_SUCCESS) {
    return error("compiler");
  }
  if (spvc_compiler_set_entry_point(compiler, name.c_str(), static_cast<SpvExecutionModel>(model)) != SPVC_SUCCESS) {
    return error("entry point");
  }
  spvc_set active = nullptr;
  spvc_resources resources = nullptr;
  if (spvc_compiler_get_active_interface_variables(compiler, &active) != SPVC_SUCCESS ||
      spvc_compiler_create_shader_resources_for_active_variables(compiler, &resources, active) != SPVC_SUCCESS) {
    return error("resources");
  }

  EntryPointResources out;
  struct Kind {
    spvc_resource_type type;
    DescriptorType descriptor;
  };
  const Kind kinds[] = {
      {SPVC_RESOURCE_TYPE_UNIFORM_BUFFER, DescriptorType::UniformBuffer},
      {SPVC_RESOURCE_TYPE_STORAGE_BUFFER, DescriptorType::StorageBuffer},
      {SPVC_RESOURCE_TYPE_SAMPLED_IMAGE, DescriptorType::SampledImage},
      {SPVC_RESOURCE_TYPE_SEPARATE_IMAGE, DescriptorType::SeparateImage},
      {SPVC_RESOURCE_TYPE_SEPARATE_SAMPLERS, DescriptorType::SeparateSampler},
      {SPVC_RESOURCE_TYPE_STORAGE_IMAGE, DescriptorType::StorageImage},
      {SPVC_RESOURCE_TYPE_ACCELERATION_STRUCTURE, DescriptorType::AccelerationStructure},
  };
  for (const Kind& kind : kinds) {
    const spvc_reflected_resource* list = nullptr;
    size_t count = 0;
    if (spvc_resources_get_resource_list_for_type(resources, kind.type, &list, &count) != SPVC_SUCCESS) {
      return error("resource list");
    }
    for (size_t i = 0; i < count; ++i) {
      const spvc_reflected_resource& resource = list[i];
      DescriptorBinding binding;
      binding.set = spvc_compiler_get_decoration(compiler, resource.id, SpvDecorationDescriptorSet);
      binding.binding = spvc_compiler_get_decoration(compiler, resource.id, SpvDecorationBinding);
      binding.type = kind.descriptor;
      spvc_type type = spvc_compiler_get_type_handle(compiler, resource.base_type_id);
      // samplerBuffer / textureBuffer are uniform texel buffers in Vulkan, imageBuffer a storage texel buffer.
      if ((kind.descriptor == DescriptorType::SeparateImage || kind.descriptor == DescriptorType::SampledImage) &&
          spvc_type_get_image_dimension(type) == SpvDimBuffer) {
        binding.type = DescriptorType::UniformTexelBuffer;
      }
      if (kind.descriptor == DescriptorType::StorageImage && spvc_type_get_image_dimension(type) == SpvDimBuffer) {
        binding.type = DescriptorType::StorageTexelBuffer;
      }
      binding.array_size = array_size(compiler, resource);
      const bool may_write = binding.type == DescriptorType::StorageBuffer ||
                             binding.type == DescriptorType::StorageImage ||
                             binding.type == DescriptorType::StorageTexelBuffer;
      binding.writable = may_write && !declared(compiler, resource, SpvDecorationNonWritable);
      binding.readable = !declared(compiler, resource, SpvDecorationNonReadable);
      binding.name = resource.name ? resource.name : "";
      out.bindings.push_back(std::move(binding));
    }
  }
  std::sort(out.bindings.begin(), out.bindings.end(), [](const DescriptorBinding& a, const DescriptorBinding& b) {
    return a.set != b.set ? a.set < b.set : a.binding < b.binding;
  });

  const spvc_reflected_resource* push = nullptr;
  size_t push_count = 0;
  if (spvc_resources_get_resource_list_for_type(resources, SPVC_RESOURCE_TYPE_PUSH_CONSTANT, &push, &push_count) !=
      SPVC_SUCCESS) {
    return error("push constants");
  }
  if (push_count > 0) {
    spvc_type block = spvc_compiler_get_type_handle(compiler, push[0].base_type_id);
    if (spvc_type_get_basetype(block) != SPVC_BASETYPE_STRUCT || spvc_type_get_num_member_types(block) == 0) {
      return fail("the push constant variable %" + std::to_string(push[0].id) + " is not a block");
    }
    size_t size = 0;
    if (spvc_compiler_get_declared_struct_size(compiler, block, &size) != SPVC_SUCCESS) {
      return error("push constant size");
    }
    out.push_constants = PushConstantBlock{static_cast<uint32_t>(size), push[0].name ? push[0].name : ""};
  }
  return out;
}

}  // namespace bismuth::spirv_patch
