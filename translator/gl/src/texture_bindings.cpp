// Sampler and image uniforms at dispatch: texture_bindings.hpp says what each kind binds.
#include "texture_bindings.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <string>

#include "bismuth/backend/sampler.hpp"
#include "bismuth/spirv_patch/passes/shadow_samplers.hpp"
#include "bismuth/spirv_patch/passes/swizzle_lookups.hpp"
#include "gl_internal.hpp"
#include "texture_access.hpp"
#include "texture_multisample.hpp"
#include "textures.hpp"

namespace bismuth::gl {
namespace {

using translator::GlResourceKind;
using translator::GlSampledType;

VkImageViewType view_type(uint32_t target) {
  switch (target) {
    case GL_TEXTURE_1D: return VK_IMAGE_VIEW_TYPE_1D;
    case GL_TEXTURE_1D_ARRAY: return VK_IMAGE_VIEW_TYPE_1D_ARRAY;
    case GL_TEXTURE_3D: return VK_IMAGE_VIEW_TYPE_3D;
    case GL_TEXTURE_CUBE_MAP: return VK_IMAGE_VIEW_TYPE_CUBE;
    case GL_TEXTURE_CUBE_MAP_ARRAY: return VK_IMAGE_VIEW_TYPE_CUBE_ARRAY;
    case GL_TEXTURE_2D_ARRAY:
    case GL_TEXTURE_2D_MULTISAMPLE_ARRAY: return VK_IMAGE_VIEW_TYPE_2D_ARRAY;
    default: return VK_IMAGE_VIEW_TYPE_2D;  // 2D, RECTANGLE, 2D_MULTISAMPLE
  }
}

// The sampled type a format's texels read as: GLSL's isampler/usampler need SINT/UINT formats, samplers the rest
// (Vulkan: the image's numeric format must match the shader's sampled type).
GlSampledType sampled_type_of(const SizedFormat& format) {
  switch (format.numeric) {
    case Numeric::Uint: return GlSampledType::Uint;
    case Numeric::Sint: return GlSampledType::Int;
    default: return GlSampledType::Float;
  }
}

const char* sampled_name(GlSampledType t) {
  return t == GlSampledType::Int ? "signed integer" : t == GlSampledType::Uint ? "unsigned integer" : "float";
}

// Buffer textures of three-component formats read tightly packed texels (GL 4.6 table 8.18), unlike the RGBA
// storage the table gives textures of those formats.
VkFormat texel_buffer_format(const SizedFormat& format) {
  switch (format.internalformat) {
    case GL_RGB32F: return VK_FORMAT_R32G32B32_SFLOAT;
    case GL_RGB32I: return VK_FORMAT_R32G32B32_SINT;
    case GL_RGB32UI: return VK_FORMAT_R32G32B32_UINT;
    default: return format.vk_format;
  }
}

void skip_message(Context* ctx, const char* func, const std::string& text) {
  ctx->debug(GL_DEBUG_SOURCE_API, GL_DEBUG_TYPE_UNDEFINED_BEHAVIOR, 1, GL_DEBUG_SEVERITY_HIGH,
             std::string(func) + ": " + text + "; the dispatch was skipped");
}

void note(Context* ctx, const char* func, const std::string& text) {
  ctx->debug(GL_DEBUG_SOURCE_API, GL_DEBUG_TYPE_UNDEFINED_BEHAVIOR, 2, GL_DEBUG_SEVERITY_MEDIUM,
             std::string(func) + ": " + text);
}

// ---- placeholders ----

// A small image of the view type that stands for a texture or image GL reads as constant: an incomplete texture
// samples (0, 0, 0, 1) (GL 4.6 §11.1.3.5), an invalid image unit loads zero (§8.26.1). Made once per context and
// kind; storage placeholders are cleared before each dispatch that binds them, so stores into them never show.
// texelFetch and imageLoad take integer coordinates that no sampler clamps, so the placeholder has room for the
// coordinates programs use (64 texels a side, 16 in 3D, 4 layers); beyond them the read is Vulkan's out-of-bounds
// read (zero, or undefined without robustness).
backend::Image* placeholder(Context* ctx, VkImageViewType type, VkFormat format, bool storage, const char* func,
                            uint32_t samples = 1) {
  const uint64_t key = uint64_t(type) | (uint64_t(storage) << 8) | (uint64_t(format) << 16) | (uint64_t(samples) << 48);
  auto& slot = ctx->placeholder_images[key];
  if (!slot) {
    backend::ImageDesc desc;
    const bool cube = type == VK_IMAGE_VIEW_TYPE_CUBE || type == VK_IMAGE_VIEW_TYPE_CUBE_ARRAY;
    desc.type = type == VK_IMAGE_VIEW_TYPE_1D || type == VK_IMAGE_VIEW_TYPE_1D_ARRAY ? backend::ImageType::Image1D
                : type == VK_IMAGE_VIEW_TYPE_3D                                      ? backend::ImageType::Image3D
                                                                                     : backend::ImageType::Image2D;
    desc.format = format;
    const bool three_d = desc.type == backend::ImageType::Image3D;
    desc.extent.width = three_d ? 16 : 64;
    desc.extent.height = desc.type == backend::ImageType::Image1D ? 1 : desc.extent.width;
    desc.extent.depth = three_d ? 16 : 1;
    const bool arrayed = type == VK_IMAGE_VIEW_TYPE_1D_ARRAY || type == VK_IMAGE_VIEW_TYPE_2D_ARRAY ||
                         type == VK_IMAGE_VIEW_TYPE_CUBE_ARRAY;
    desc.array_layers = (cube ? 6 : 1) * (arrayed ? 4 : 1);
    desc.cube_compatible = cube;
    desc.usage = storage ? backend::kImageStorage : backend::kImageSampled;
    // Multisample uniforms (sampler2DMS, image2DMS...) need a multisample image (SPIR-V MS 1 views): 2D, one level.
    desc.samples = samples;
    if (samples > 1) desc.extent.height = desc.extent.width = 16;
    auto created = backend::Image::create(*ctx->device_state.device, desc);
    if (!created) {
      ctx->backend_error(func, created.error());
      return nullptr;
    }
    slot = std::move(*created);
    if (!storage) {
      // (0, 0, 0, 1) in the format's numeric type.
      VkClearColorValue color{};
      if (format == VK_FORMAT_R32G32B32A32_SINT || format == VK_FORMAT_R32G32B32A32_UINT) {
        color.uint32[3] = 1;
      } else {
        color.float32[3] = 1.0f;
      }
      if (Status ok = ctx->stream->clear_image(*slot, {0, 1, 0, desc.array_layers}, color); !ok) {
        ctx->backend_error(func, ok.error());
        slot.reset();
        return nullptr;
      }
    }
  }
  if (storage) {
    if (Status ok = ctx->stream->clear_image(*slot, {0, 1, 0, slot->desc().array_layers}, VkClearColorValue{}); !ok) {
      ctx->backend_error(func, ok.error());
      return nullptr;
    }
  }
  return slot.get();
}

bool push_placeholder(Context* ctx, const OpaqueUse& use, bool storage, const char* func) {
  const VkImageViewType type = view_type(use.target);
  VkFormat format = use.sampled == GlSampledType::Int    ? VK_FORMAT_R32G32B32A32_SINT
                    : use.sampled == GlSampledType::Uint ? VK_FORMAT_R32G32B32A32_UINT
                    : storage                            ? VK_FORMAT_R32G32B32A32_SFLOAT
                                                         : VK_FORMAT_R8G8B8A8_UNORM;
  // Shadow placeholders are depth images, or colour ones where depth images cannot be cleared (a compute-only queue:
  // depth_textures_as_color).
  if (use.shadow) {
    format = depth_textures_as_color(*ctx->device_state.device) ? VK_FORMAT_R32_SFLOAT : VK_FORMAT_D32_SFLOAT;
  }
  if (storage && use.format != 0) {
    if (const SizedFormat* f = find_sized_format(use.format)) format = f->vk_format;
  }
  // A multisample uniform's placeholder: the device's largest sample count for it (texture_multisample.hpp).
  uint32_t samples = 1;
  if (is_multisample(use.target)) {
    const MultisampleLimits limits = multisample_limits(*ctx->device_state.device);
    if (storage) {
      samples = limits.image;
    } else if (use.shadow) {
      samples = limits.depth;
    } else {
      samples = use.sampled == GlSampledType::Float ? limits.color : limits.integer;
    }
    if (samples < 2) {
      skip_message(ctx, func,
                   std::string(storage ? "image" : "texture") + " unit " + std::to_string(use.unit) +
                       " is a multisample uniform and the device has no multisample " +
                       (storage ? "storage images (shaderStorageImageMultisample)" : "sampled images") +
                       " to stand in for a missing texture");
      return false;
    }
  }
  backend::Image* image = placeholder(ctx, type, format, storage, func, samples);
  if (image == nullptr) return false;
  backend::ImageBinding b;
  b.image = image;
  b.view.type = type;
  b.view.layer_count = image->desc().array_layers;
  b.access = use.access;
  if (!storage) {
    if (use.shadow && use.shadow_state == nullptr && use.can_lower_shadow) {
      // A colour placeholder the device cannot compare: the dispatch runs the lowered module instead.
      auto view = image->view_info(b.view);
      if (view && !view->depth_compare) {
        ctx->shadow_needs_lowering = true;
        return false;
      }
    }
    // Lowered: GL 4.6 §11.1.3.5's (0, 0, 0, 1) compares as 0.0 (NEVER), like the red component of a plain lookup.
    if (use.shadow_state != nullptr) *use.shadow_state = ShadowSamplerState{};
    backend::SamplerDesc s;
    s.compare_enable = use.shadow && use.shadow_state == nullptr;
    auto sampler = ctx->device_state.device->sampler(s);
    if (!sampler) {
      ctx->backend_error(func, sampler.error());
      return false;
    }
    b.sampler = *sampler;
  }
  ctx->image_bindings_scratch.push_back(b);
  return true;
}

// ---- sampler state ----

VkSamplerAddressMode address_mode(GLenum wrap) {
  switch (wrap) {
    case GL_MIRRORED_REPEAT: return VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT;
    case GL_CLAMP_TO_EDGE: return VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
    case GL_CLAMP_TO_BORDER: return VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER;
    case GL_MIRROR_CLAMP_TO_EDGE: return VK_SAMPLER_ADDRESS_MODE_MIRROR_CLAMP_TO_EDGE;
    default: return VK_SAMPLER_ADDRESS_MODE_REPEAT;
  }
}

VkCompareOp compare_op(GLenum func) {
  switch (func) {
    case GL_NEVER: return VK_COMPARE_OP_NEVER;
    case GL_LESS: return VK_COMPARE_OP_LESS;
    case GL_EQUAL: return VK_COMPARE_OP_EQUAL;
    case GL_GREATER: return VK_COMPARE_OP_GREATER;
    case GL_NOTEQUAL: return VK_COMPARE_OP_NOT_EQUAL;
    case GL_GEQUAL: return VK_COMPARE_OP_GREATER_OR_EQUAL;
    case GL_ALWAYS: return VK_COMPARE_OP_ALWAYS;
    default: return VK_COMPARE_OP_LESS_OR_EQUAL;
  }
}

// GL's sampler state as a Vulkan sampler (GL 4.6 §8.14-8.16). `linear`: the view's format can be filtered linearly
// (else LINEAR filters sample NEAREST, with a message: GL 4.6 filters every float format, Vulkan does not promise it).
backend::SamplerDesc sampler_desc(const EffectiveSampler& e, const OpaqueUse& use, bool linear,
                                  const backend::DeviceInfo& device) {
  const SamplerState& s = e.sampler;
  backend::SamplerDesc d;
  auto filter = [&](bool is_linear) { return is_linear && linear ? VK_FILTER_LINEAR : VK_FILTER_NEAREST; };
  d.mag_filter = filter(s.mag_filter == GL_LINEAR);
  const GLenum min = s.min_filter;
  d.min_filter = filter(min == GL_LINEAR || min == GL_LINEAR_MIPMAP_NEAREST || min == GL_LINEAR_MIPMAP_LINEAR);
  const bool mipmapped = min != GL_NEAREST && min != GL_LINEAR;
  d.mipmap_mode = (min == GL_NEAREST_MIPMAP_LINEAR || min == GL_LINEAR_MIPMAP_LINEAR) && linear
                      ? VK_SAMPLER_MIPMAP_MODE_LINEAR
                      : VK_SAMPLER_MIPMAP_MODE_NEAREST;
  d.address_u = address_mode(s.wrap_s);
  d.address_v = address_mode(s.wrap_t);
  d.address_w = address_mode(s.wrap_r);
  d.mip_lod_bias = std::clamp(s.lod_bias, -device.max_sampler_lod_bias, device.max_sampler_lod_bias);
  d.min_lod = s.min_lod;
  // Without a mipmap filter only the base level is sampled (§8.14.2); clamping λ below 0.5 keeps Vulkan there while
  // it still tells magnification (λ <= 0) from minification.
  d.max_lod = mipmapped ? s.max_lod : std::min(s.max_lod, 0.25f);
  d.min_lod = std::min(d.min_lod, d.max_lod);
  const bool border = d.address_u == VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER ||
                      d.address_v == VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER ||
                      d.address_w == VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER;
  const bool integer = use.sampled != GlSampledType::Float;
  d.border_color = integer ? VK_BORDER_COLOR_INT_TRANSPARENT_BLACK : VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK;
  if (border) {
    if (integer) {
      std::array<uint32_t, 4> c = s.border_integer;
      if (!s.border_is_integer) {
        for (int i = 0; i < 4; ++i) c[i] = static_cast<uint32_t>(static_cast<int32_t>(s.border_color[i]));
      }
      if (c == std::array<uint32_t, 4>{0, 0, 0, 1}) {
        d.border_color = VK_BORDER_COLOR_INT_OPAQUE_BLACK;
      } else if (c == std::array<uint32_t, 4>{1, 1, 1, 1}) {
        d.border_color = VK_BORDER_COLOR_INT_OPAQUE_WHITE;
      } else if (c != std::array<uint32_t, 4>{0, 0, 0, 0}) {
        d.border_color = VK_BORDER_COLOR_INT_CUSTOM_EXT;
        std::memcpy(d.custom_border_color.uint32, c.data(), sizeof c);
      }
    } else {
      const std::array<float, 4>& c = s.border_color;
      if (c == std::array<float, 4>{0, 0, 0, 1}) {
        d.border_color = VK_BORDER_COLOR_FLOAT_OPAQUE_BLACK;
      } else if (c == std::array<float, 4>{1, 1, 1, 1}) {
        d.border_color = VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE;
      } else if (c != std::array<float, 4>{0, 0, 0, 0}) {
        d.border_color = VK_BORDER_COLOR_FLOAT_CUSTOM_EXT;
        std::memcpy(d.custom_border_color.float32, c.data(), sizeof c);
      }
    }
  }
  // A shadow sampler compares with the texture's compare function; Vulkan's Dref lookups need compareEnable (with
  // GL's COMPARE_MODE NONE the result is undefined in GL: §8.23.1).
  d.compare_enable = use.shadow && use.shadow_state == nullptr;
  d.compare_op = compare_op(s.compare_func);
  if (s.max_anisotropy > 1.0f && device.max_sampler_anisotropy > 1.0f) {
    d.max_anisotropy = std::min(s.max_anisotropy, device.max_sampler_anisotropy);
  }
  return d;
}

// GL's TEXTURE_SWIZZLE_R/G/B/A values (RED, GREEN, BLUE, ALPHA, ZERO, ONE; §8.10) as a Vulkan component mapping,
// IDENTITY where a component maps to itself so that unswizzled textures share one view.
std::array<VkComponentSwizzle, 4> swizzle_components(const std::array<GLenum, 4>& swizzle) {
  std::array<VkComponentSwizzle, 4> out{};
  for (size_t i = 0; i < 4; ++i) {
    VkComponentSwizzle c = VK_COMPONENT_SWIZZLE_IDENTITY;
    switch (swizzle[i]) {
      case GL_RED: c = VK_COMPONENT_SWIZZLE_R; break;
      case GL_GREEN: c = VK_COMPONENT_SWIZZLE_G; break;
      case GL_BLUE: c = VK_COMPONENT_SWIZZLE_B; break;
      case GL_ALPHA: c = VK_COMPONENT_SWIZZLE_A; break;
      case GL_ZERO: c = VK_COMPONENT_SWIZZLE_ZERO; break;
      case GL_ONE: c = VK_COMPONENT_SWIZZLE_ONE; break;
      default: break;
    }
    if (c == static_cast<VkComponentSwizzle>(VK_COMPONENT_SWIZZLE_R + i)) c = VK_COMPONENT_SWIZZLE_IDENTITY;
    out[i] = c;
  }
  return out;
}

// The state word of a shadow sampler compared in the shader (spirv_patch/passes/shadow_samplers.hpp): GL 4.6
// §8.23.1's compare function, the filters of §8.14.2 and whether the format is fixed-point ("If the texture's
// internal format indicates a fixed-point depth texture, then D_t and D_ref are clamped to the range [0, 1]").
// Cube maps: kShadowStateCubeNonSeamless where `non_seamless` (TEXTURE_CUBE_MAP_SEAMLESS disabled, §8.13.1).
uint32_t shadow_state_word(const SamplerState& s, const SizedFormat& format, bool non_seamless) {
  uint32_t word = static_cast<uint32_t>(s.compare_func - GL_NEVER) & spirv_patch::kShadowStateCompareMask;
  const GLenum min = s.min_filter;
  if (s.mag_filter == GL_LINEAR) word |= spirv_patch::kShadowStateMagLinear;
  if (min == GL_LINEAR || min == GL_LINEAR_MIPMAP_NEAREST || min == GL_LINEAR_MIPMAP_LINEAR) {
    word |= spirv_patch::kShadowStateMinLinear;
  }
  if (min != GL_NEAREST && min != GL_LINEAR) word |= spirv_patch::kShadowStateMipmapped;
  if (min == GL_NEAREST_MIPMAP_LINEAR || min == GL_LINEAR_MIPMAP_LINEAR) word |= spirv_patch::kShadowStateMipLinear;
  if (format.internalformat != GL_DEPTH_COMPONENT32F && format.internalformat != GL_DEPTH32F_STENCIL8) {
    word |= spirv_patch::kShadowStateClampRef;
  }
  if (non_seamless) word |= spirv_patch::kShadowStateCubeNonSeamless;
  return word;
}

// GL 4.6 table 8.20's wrap mode of a lowered non-seamless cube face, as spirv_patch's kShadowWrap* value.
float shadow_wrap(GLenum wrap) {
  switch (wrap) {
    case GL_REPEAT: return spirv_patch::kShadowWrapRepeat;
    case GL_MIRRORED_REPEAT: return spirv_patch::kShadowWrapMirroredRepeat;
    case GL_CLAMP_TO_BORDER: return spirv_patch::kShadowWrapClampToBorder;
    case GL_MIRROR_CLAMP_TO_EDGE: return spirv_patch::kShadowWrapMirrorClampToEdge;
    default: return spirv_patch::kShadowWrapClampToEdge;
  }
}

// spirv_patch's swizzle word of a view's component mapping (swizzle_lookups.hpp): R..A 0..3, ZERO, ONE.
uint32_t swizzle_word_of(const std::array<VkComponentSwizzle, 4>& components) {
  std::array<uint32_t, 4> sources{};
  for (uint32_t c = 0; c < 4; ++c) {
    switch (components[c]) {
      case VK_COMPONENT_SWIZZLE_ZERO: sources[c] = spirv_patch::kSwizzleZero; break;
      case VK_COMPONENT_SWIZZLE_ONE: sources[c] = spirv_patch::kSwizzleOne; break;
      case VK_COMPONENT_SWIZZLE_R:
      case VK_COMPONENT_SWIZZLE_G:
      case VK_COMPONENT_SWIZZLE_B:
      case VK_COMPONENT_SWIZZLE_A: sources[c] = uint32_t(components[c] - VK_COMPONENT_SWIZZLE_R); break;
      default: sources[c] = c; break;  // IDENTITY
    }
  }
  return spirv_patch::swizzle_word(sources);
}

// ---- each kind ----

bool push_texture(Context* ctx, const OpaqueUse& use, const char* func) {
  const int index = target_index(use.target, ctx->version.es, ctx->version.minor);
  if (index < 0) return push_placeholder(ctx, use, false, func);
  const TextureUnit& unit = ctx->texture_units[use.unit];
  TextureObject* texture = unit.textures[index] ? unit.textures[index].get() : ctx->default_textures[index].get();
  if (texture == nullptr) return push_placeholder(ctx, use, false, func);
  const EffectiveSampler e = effective_sampler(*texture, unit.sampler.get());
  std::string why;
  if (!texture_complete(*texture, e.sampler, &why)) {
    note(ctx, func,
         "texture " + std::to_string(texture->name) + " on unit " + std::to_string(use.unit) + " is not complete (" +
             why + "): it samples as (0, 0, 0, 1)");
    return push_placeholder(ctx, use, false, func);
  }
  if (!make_texture_image(ctx, *texture, func)) return false;
  const TextureLevel* base = base_level_of(*texture);
  if (base == nullptr || !texture->image) return push_placeholder(ctx, use, false, func);
  // GL 4.6 §8.10 / table 15.1: a depth-stencil texture with DEPTH_STENCIL_TEXTURE_MODE STENCIL_INDEX is read as its
  // stencil indices, (S, 0, 0, 1) through an unsigned integer sampler: the texture's stencil plane (textures.hpp),
  // whose levels and layers are the texture's. The texture's own state (levels, swizzle, view range) still applies.
  const TextureObject* levels_of = texture;
  if (is_depth_stencil(*base->format) && e.depth_stencil_mode == GL_STENCIL_INDEX) {
    if (!texture->stencil_plane || !texture->stencil_plane->image) return push_placeholder(ctx, use, false, func);
    texture = texture->stencil_plane.get();
  }
  const SizedFormat& format = texture == levels_of ? *base->format : stencil_plane_format();
  if (sampled_type_of(format) != use.sampled) {
    skip_message(ctx, func,
                 std::string("a ") + sampled_name(use.sampled) + " sampler on unit " + std::to_string(use.unit) +
                     " reads texture " + std::to_string(levels_of->name) + " of " + format.name +
                     ", whose texels are " + sampled_name(sampled_type_of(format)));
    return false;
  }
  if (!(texture->image->desc().usage & backend::kImageSampled)) {
    skip_message(ctx, func, std::string(format.name) + " textures cannot be sampled on this device");
    return false;
  }
  // The levels the view reaches: the effective ones (§8.14.3) that the image holds (a mutable texture sampled
  // without mipmaps is complete with its base level alone, which may be all its image has).
  const uint32_t image_top = texture->image->desc().mip_levels - 1 - texture->view_min_level;
  const uint32_t top = std::min(effective_top_level(*levels_of), image_top);
  const uint32_t base_level = std::min<uint32_t>(static_cast<uint32_t>(std::max(e.base_level, 0)), top);
  backend::ImageBinding b;
  b.image = texture->image.get();
  b.view.type = view_type(use.target);
  b.view.format = format.vk_format;
  b.view.base_mip = texture->view_min_level + base_level;
  b.view.mip_count = top - base_level + 1;
  b.view.base_layer = texture->view_min_layer;
  b.view.layer_count = use.target == GL_TEXTURE_CUBE_MAP ? 6 : std::max(1u, level_layers(use.target, *base));
  b.access = backend::Access::Read;
  // GL 4.6 §15.2.1: the swizzle applies to every texture lookup result, texelFetch included; Vulkan's component
  // mapping does the same for every sampled-image access. Shadow lookups keep the identity: their result is the
  // comparison (§8.23.1), and Vulkan does not promise the mapping on depth comparisons.
  if (!use.shadow) b.view.components = swizzle_components(e.swizzle);
  auto view = b.image->view_info(b.view);
  if (!view) {
    ctx->backend_error(func, view.error());
    return false;
  }
  // Depth textures stored in a colour format (compute-only queues, BISMUTH_DEPTH_TEXTURES=color) compare only where
  // the device can compare that format (VkFormatProperties3 SAMPLED_IMAGE_DEPTH_COMPARISON).
  if (use.shadow && !view->depth_compare && use.shadow_state == nullptr) {
    if (use.can_lower_shadow) {
      ctx->shadow_needs_lowering = true;  // run() gathers again for the lowered module (shadow_lowering.cpp)
      return false;
    }
    skip_message(ctx, func,
                 "texture " + std::to_string(levels_of->name) + " on unit " + std::to_string(use.unit) + " (" +
                     format.name + ") is stored as " + backend::format_name(view->format) +
                     " (depth textures in a colour format: docs/gl_shim.md, \"Depth textures\"), which this device "
                     "cannot sample with a depth comparison: shadow samplers are not supported on it");
    return false;
  }
  // Multisample textures ignore the sampler state (GL 4.6 §8.10; texelFetch only): a NEAREST sampler. Lowered
  // shadow lookups filter in the shader: the sampler reads single texels (NEAREST, one level).
  const bool lowered = use.shadow && use.shadow_state != nullptr;
  // GL 4.6 §8.13.1: with TEXTURE_CUBE_MAP_SEAMLESS disabled (desktop GL's initial state) "each face of the texture is
  // treated as an independent two-dimensional texture" (ARB_seamless_cube_map) and its wrap modes apply per face.
  // OpenGL ES 3.x cube maps are always seamless, as are Vulkan's unless the device has
  // VK_EXT_non_seamless_cube_map: without it a non-seamless cube samples seamlessly (docs/gl_shim.md).
  const bool cube = use.target == GL_TEXTURE_CUBE_MAP || use.target == GL_TEXTURE_CUBE_MAP_ARRAY;
  const bool non_seamless = cube && !ctx->version.es && !ctx->cube_map_seamless;
  if (lowered) {
    // GL 4.6 §8.14.1's bias_texobj, bias_max and the λ clamps, applied in the shader (the sampler gets none).
    use.shadow_state->word = shadow_state_word(e.sampler, format, non_seamless);
    // Non-seamless cube faces are sampled as 2D textures by the shader: their wrap modes (table 8.20) and the border
    // texel's depth, "the first component of TEXTURE_BORDER_COLOR ... interpreted as a depth value" (§8.14.2).
    use.shadow_state->lod = {e.sampler.lod_bias,
                             ctx->device_state.device->info().max_sampler_lod_bias,
                             e.sampler.min_lod,
                             e.sampler.max_lod,
                             shadow_wrap(e.sampler.wrap_s),
                             shadow_wrap(e.sampler.wrap_t),
                             e.sampler.border_color[0],
                             0.0f};
  }
  const bool linear = !lowered && (view->features & VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT) != 0 &&
                      !is_multisample(use.target);
  backend::SamplerDesc desc = sampler_desc(e, use, linear, ctx->device_state.device->info());
  // Lowered lookups read single texels by direction; the shader keeps them within the face (shadow_samplers.hpp).
  desc.non_seamless_cube = non_seamless && !lowered && ctx->device_state.device->features().non_seamless_cube_map;
  if (lowered) {
    // The shader's explicit Lod is the level to read: no bias, no clamps (GL's default range, ±1000, so that a
    // derivative group's OpImageQueryLod is not clamped either).
    desc.mip_lod_bias = 0.0f;
    desc.min_lod = -1000.0f;
    desc.max_lod = 1000.0f;
  }
  // GL swizzles a border colour like a texel: the border colour takes the place of a texel outside the image
  // (§8.14.2) and §15.2.1 applies TEXTURE_SWIZZLE_* to the lookup's result. Vulkan swizzles custom and opaque-black
  // border colours through a non-identity view only with VK_EXT_border_color_swizzle; where the device needs the
  // mapping on the sampler (no borderColorSwizzleFromImage), the backend puts it there.
  const bool border = desc.address_u == VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER ||
                      desc.address_v == VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER ||
                      desc.address_w == VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER;
  if (border && !use.shadow && !ctx->device_state.device->features().border_color_swizzle &&
      !b.view.identity_components()) {
    // Without VK_EXT_border_color_swizzle a custom or opaque-black border colour through a swizzled view is undefined
    // in Vulkan: the lowered module swizzles the lookups' results in the shader instead (spirv_patch
    // swizzle_lookups), through an identity view, which gives the texels and the border GL's swizzled values.
    if (use.swizzle_word == nullptr) {
      if (use.can_lower_shadow) {
        ctx->shadow_needs_lowering = true;  // run() gathers again for the lowered module
        return false;
      }
    } else {
      *use.swizzle_word = swizzle_word_of(b.view.components);
      b.view.components = {};
    }
  }
  if (border) {
    desc.border_swizzle = b.view.components;
    desc.border_srgb = format.srgb;
  }
  auto sampler = ctx->device_state.device->sampler(desc);
  if (!sampler) {
    ctx->backend_error(func, sampler.error());
    return false;
  }
  b.sampler = *sampler;
  ctx->image_bindings_scratch.push_back(b);
  return true;
}

bool push_texel_buffer(Context* ctx, const OpaqueUse& use, const TextureObject* texture, GLenum gl_format,
                       const char* func) {
  const BufferObject* buffer = texture ? texture->buffer.get() : nullptr;
  const SizedFormat* format = find_sized_format(gl_format);
  if (buffer == nullptr || !buffer->buffer || format == nullptr) {
    // GL 4.6 §8.9: texel fetches from a buffer texture without a buffer are undefined.
    skip_message(ctx, func,
                 std::string(use.kind == GlResourceKind::ImageBuffer ? "image" : "texture") + " unit " +
                     std::to_string(use.unit) + " has no buffer texture with a buffer attached");
    return false;
  }
  if (sampled_type_of(*format) != use.sampled) {
    skip_message(ctx, func,
                 std::string("a ") + sampled_name(use.sampled) + " buffer texture on unit " + std::to_string(use.unit) +
                     " has the format " + format->name);
    return false;
  }
  backend::ImageBinding b;
  b.texel_buffer = buffer->buffer.get();
  b.texel_format = texel_buffer_format(*format);
  b.offset = static_cast<VkDeviceSize>(texture->buffer_offset);
  b.range = texture->buffer_size > 0 ? static_cast<VkDeviceSize>(texture->buffer_size) : VK_WHOLE_SIZE;
  b.access = use.access;
  ctx->image_bindings_scratch.push_back(b);
  return true;
}

bool push_image(Context* ctx, const OpaqueUse& use, const char* func) {
  const ImageUnit& unit = ctx->image_units[use.unit];
  std::string why;
  if (!unit.texture || !image_unit_valid(unit, &why)) {
    if (unit.texture) note(ctx, func, "image unit " + std::to_string(use.unit) + " is not valid (" + why + ")");
    return push_placeholder(ctx, use, true, func);
  }
  TextureObject& texture = *unit.texture;
  const SizedFormat* format = find_sized_format(unit.format);
  if (format == nullptr || sampled_type_of(*format) != use.sampled || (use.format != 0 && use.format != unit.format)) {
    note(ctx, func,
         "image unit " + std::to_string(use.unit) + "'s format does not match the image uniform's " +
             "(GL 4.6 §8.26: undefined): loads return zero");
    return push_placeholder(ctx, use, true, func);
  }
  if (!make_texture_image(ctx, texture, func)) return false;
  const TextureLevel* base = base_level_of(texture);
  if (base == nullptr || !texture.image) return push_placeholder(ctx, use, true, func);
  if (!(texture.image->desc().usage & backend::kImageStorage)) {
    skip_message(ctx, func,
                 std::string(base->format->name) + " textures cannot be bound to image units on this device");
    return false;
  }
  // The binding's own view (§8.26): the whole level when layered (or when the target has no layers), else one layer
  // as a texture of one dimension less (a cube map face or cube map array layer-face as 2D).
  const GLenum target = texture.target;
  const bool has_layers = is_array(target) || target == GL_TEXTURE_CUBE_MAP || target == GL_TEXTURE_3D;
  backend::ImageBinding b;
  b.image = texture.image.get();
  b.view.format = format->vk_format;
  b.view.base_mip = texture.view_min_level + static_cast<uint32_t>(unit.level);
  b.view.mip_count = 1;
  b.view.base_layer = texture.view_min_layer;
  if (!has_layers || unit.layered) {
    b.view.type = view_type(target);
    b.view.layer_count = target == GL_TEXTURE_CUBE_MAP ? 6
                         : target == GL_TEXTURE_3D     ? 1
                                                       : std::max(1u, level_layers(target, *base));
  } else if (target == GL_TEXTURE_3D) {
    skip_message(ctx, func,
                 "image unit " + std::to_string(use.unit) +
                     " binds one slice of a 3D texture (layered FALSE), which this libbismuth-gl cannot "
                     "view yet");
    return false;
  } else {
    b.view.type = target == GL_TEXTURE_1D_ARRAY ? VK_IMAGE_VIEW_TYPE_1D : VK_IMAGE_VIEW_TYPE_2D;
    b.view.base_layer += static_cast<uint32_t>(unit.layer);
    b.view.layer_count = 1;
  }
  // GL 4.6 §8.26: image2DMS / image2DMSArray uniforms take multisample textures, the others single-sample ones
  // (undefined otherwise; Vulkan needs the view's samples to match the shader's MS operand).
  if (b.view.type != view_type(use.target) || (texture.samples > 1) != is_multisample(use.target)) {
    note(ctx, func,
         "image unit " + std::to_string(use.unit) + " binds a " + target_name(target) + (unit.layered ? "" : " layer") +
             " to an image uniform of another dimensionality " + "(GL 4.6 §8.26: undefined): loads return zero");
    return push_placeholder(ctx, use, true, func);
  }
  b.access = use.access;
  ctx->image_bindings_scratch.push_back(b);
  return true;
}

}  // namespace

bool push_opaque_binding(Context* ctx, const OpaqueUse& use, const char* func) {
  switch (use.kind) {
    case GlResourceKind::Texture: return push_texture(ctx, use, func);
    case GlResourceKind::TextureBuffer: {
      const int index = target_index(GL_TEXTURE_BUFFER, ctx->version.es, ctx->version.minor);
      const TextureUnit& unit = ctx->texture_units[use.unit];
      const TextureObject* texture = index >= 0 ? unit.textures[index].get() : nullptr;
      return push_texel_buffer(ctx, use, texture, texture ? texture->buffer_format : GL_NONE, func);
    }
    case GlResourceKind::Image: return push_image(ctx, use, func);
    case GlResourceKind::ImageBuffer: {
      const ImageUnit& unit = ctx->image_units[use.unit];
      const TextureObject* texture =
          unit.texture && unit.texture->target == GL_TEXTURE_BUFFER ? unit.texture.get() : nullptr;
      return push_texel_buffer(ctx, use, texture, unit.format, func);
    }
    default: return false;
  }
}

}  // namespace bismuth::gl
