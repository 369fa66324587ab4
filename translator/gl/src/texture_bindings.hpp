// Binding sampler and image uniforms at dispatch (issue 18): what each texture or image unit holds when the dispatch
// is recorded becomes a backend::ImageBinding (docs/gl_shim.md, "Textures and images at dispatch").
//
//   sampler*        the texture bound to the uniform's target on the texture unit that is the uniform's value, its
//                   effective sampler state (the unit's sampler object, else the texture's own: GL 4.6 §8.2) as a
//                   deduplicated VkSampler, viewed from its base level to its effective top level (§8.14.3);
//                   an incomplete texture (§8.17) or none samples as (0, 0, 0, 1) (§11.1.3.5) from a placeholder
//   samplerBuffer   the buffer texture's buffer, format, offset and size (§8.9)
//   image*          the level (and layer) of the image unit, in the unit's format (§8.26); a unit whose binding is
//                   not valid (§8.26.1) loads zero from a placeholder cleared before the dispatch, which takes the
//                   stores
//   imageBuffer     the buffer texture on the image unit, in the unit's format
// The dispatch is skipped with a KHR_debug message only where GL leaves the result undefined and Vulkan could not
// run it (a buffer texture without a buffer, a sampled type that does not match the format's).
#pragma once

#include <cstdint>

#include "bismuth/backend/command_stream.hpp"
#include "bismuth/translator/gl_program.hpp"

namespace bismuth::gl {

class Context;
struct ShadowSamplerState;

// One use of a texture or image unit by a program: what the unit must hold for the descriptor.
struct OpaqueUse {
  translator::GlResourceKind kind = translator::GlResourceKind::Texture;
  uint32_t target = 0;  // GL_TEXTURE_2D, ... of the uniform's type
  bool shadow = false;
  translator::GlSampledType sampled = translator::GlSampledType::Float;
  uint32_t format = 0;  // images: the format qualifier (0: none)
  backend::Access access = backend::Access::Read;
  uint32_t unit = 0;
  // Shadow samplers on textures the device cannot compare (colour-stored depth textures: shadow_lowering.cpp).
  // `can_lower_shadow`: the program can be lowered (GLSL programs, assembly programs with SHADOW targets); the binding
  // then sets ctx->shadow_needs_lowering and fails instead of skipping with a message. `shadow_state` non-null: the
  // dispatch runs the lowered module; the binding gets a sampler without comparison, filtering, LOD bias or LOD
  // clamps and writes its state word (spirv_patch kShadowState*) and LOD parameters there.
  bool can_lower_shadow = false;
  ShadowSamplerState* shadow_state = nullptr;
  // Plain samplers in the lowered module (shadow_lowering.cpp), on a device without VK_EXT_border_color_swizzle:
  // non-null, a swizzled texture sampled with CLAMP_TO_BORDER is bound through an identity view and its swizzle
  // written here (spirv_patch swizzle_word) for the shader to apply; null, such a binding sets
  // ctx->shadow_needs_lowering and fails where `can_lower_shadow`.
  uint32_t* swizzle_word = nullptr;
};

// Appends the binding of `use` to ctx->image_bindings_scratch; false (with a KHR_debug message or a GL error) when
// the dispatch must be skipped.
bool push_opaque_binding(Context* ctx, const OpaqueUse& use, const char* func);

}  // namespace bismuth::gl
