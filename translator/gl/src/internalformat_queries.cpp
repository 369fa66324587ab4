// glGetInternalformativ / glGetInternalformati64v for textures and images (GL 4.6 §22.3 "Internal Format
// Queries"; OpenGL ES 3.2 §20.3): what this shim and the Vulkan device support for an internal format and target,
// from the format table (pixel_formats.hpp) and the device's optimal-tiling format features.
#include <algorithm>
#include <vector>

#include "compressed_formats.hpp"
#include "framebuffers.hpp"
#include "texture_access.hpp"
#include "texture_formats.hpp"
#include "texture_multisample.hpp"

namespace bismuth::gl {
namespace {

// Every pname of GL 4.6 table 22.? (§22.3.2) this query accepts; those the shim has nothing to say about answer
// the "unsupported" value of their kind (NONE, 0 or FALSE) rather than INVALID_ENUM.
bool known_pname(GLenum pname) {
  switch (pname) {
    case GL_NUM_SAMPLE_COUNTS:
    case GL_SAMPLES:
    case GL_INTERNALFORMAT_SUPPORTED:
    case GL_INTERNALFORMAT_PREFERRED:
    case GL_INTERNALFORMAT_RED_SIZE:
    case GL_INTERNALFORMAT_GREEN_SIZE:
    case GL_INTERNALFORMAT_BLUE_SIZE:
    case GL_INTERNALFORMAT_ALPHA_SIZE:
    case GL_INTERNALFORMAT_DEPTH_SIZE:
    case GL_INTERNALFORMAT_STENCIL_SIZE:
    case GL_INTERNALFORMAT_SHARED_SIZE:
    case GL_INTERNALFORMAT_RED_TYPE:
    case GL_INTERNALFORMAT_GREEN_TYPE:
    case GL_INTERNALFORMAT_BLUE_TYPE:
    case GL_INTERNALFORMAT_ALPHA_TYPE:
    case GL_INTERNALFORMAT_DEPTH_TYPE:
    case GL_INTERNALFORMAT_STENCIL_TYPE:
    case GL_MAX_WIDTH:
    case GL_MAX_HEIGHT:
    case GL_MAX_DEPTH:
    case GL_MAX_LAYERS:
    case GL_MAX_COMBINED_DIMENSIONS:
    case GL_COLOR_COMPONENTS:
    case GL_DEPTH_COMPONENTS:
    case GL_STENCIL_COMPONENTS:
    case GL_COLOR_RENDERABLE:
    case GL_DEPTH_RENDERABLE:
    case GL_STENCIL_RENDERABLE:
    case GL_FRAMEBUFFER_RENDERABLE:
    case GL_FRAMEBUFFER_RENDERABLE_LAYERED:
    case GL_FRAMEBUFFER_BLEND:
    case GL_READ_PIXELS:
    case GL_READ_PIXELS_FORMAT:
    case GL_READ_PIXELS_TYPE:
    case GL_TEXTURE_IMAGE_FORMAT:
    case GL_TEXTURE_IMAGE_TYPE:
    case GL_GET_TEXTURE_IMAGE_FORMAT:
    case GL_GET_TEXTURE_IMAGE_TYPE:
    case GL_MIPMAP:
    case GL_MANUAL_GENERATE_MIPMAP:
    case GL_AUTO_GENERATE_MIPMAP:
    case GL_COLOR_ENCODING:
    case GL_SRGB_READ:
    case GL_SRGB_WRITE:
    case GL_FILTER:
    case GL_VERTEX_TEXTURE:
    case GL_TESS_CONTROL_TEXTURE:
    case GL_TESS_EVALUATION_TEXTURE:
    case GL_GEOMETRY_TEXTURE:
    case GL_FRAGMENT_TEXTURE:
    case GL_COMPUTE_TEXTURE:
    case GL_TEXTURE_SHADOW:
    case GL_TEXTURE_GATHER:
    case GL_TEXTURE_GATHER_SHADOW:
    case GL_SHADER_IMAGE_LOAD:
    case GL_SHADER_IMAGE_STORE:
    case GL_SHADER_IMAGE_ATOMIC:
    case GL_IMAGE_TEXEL_SIZE:
    case GL_IMAGE_COMPATIBILITY_CLASS:
    case GL_IMAGE_PIXEL_FORMAT:
    case GL_IMAGE_PIXEL_TYPE:
    case GL_IMAGE_FORMAT_COMPATIBILITY_TYPE:
    case GL_SIMULTANEOUS_TEXTURE_AND_DEPTH_TEST:
    case GL_SIMULTANEOUS_TEXTURE_AND_STENCIL_TEST:
    case GL_SIMULTANEOUS_TEXTURE_AND_DEPTH_WRITE:
    case GL_SIMULTANEOUS_TEXTURE_AND_STENCIL_WRITE:
    case GL_TEXTURE_COMPRESSED:
    case GL_TEXTURE_COMPRESSED_BLOCK_WIDTH:
    case GL_TEXTURE_COMPRESSED_BLOCK_HEIGHT:
    case GL_TEXTURE_COMPRESSED_BLOCK_SIZE:
    case GL_CLEAR_BUFFER:
    case GL_CLEAR_TEXTURE:
    case GL_TEXTURE_VIEW:
    case GL_VIEW_COMPATIBILITY_CLASS: return true;
    default: return false;
  }
}

GLenum image_class_enum(ImageClass c) {
  switch (c) {
    case ImageClass::C4x32: return GL_IMAGE_CLASS_4_X_32;
    case ImageClass::C2x32: return GL_IMAGE_CLASS_2_X_32;
    case ImageClass::C1x32: return GL_IMAGE_CLASS_1_X_32;
    case ImageClass::C4x16: return GL_IMAGE_CLASS_4_X_16;
    case ImageClass::C2x16: return GL_IMAGE_CLASS_2_X_16;
    case ImageClass::C1x16: return GL_IMAGE_CLASS_1_X_16;
    case ImageClass::C4x8: return GL_IMAGE_CLASS_4_X_8;
    case ImageClass::C2x8: return GL_IMAGE_CLASS_2_X_8;
    case ImageClass::C1x8: return GL_IMAGE_CLASS_1_X_8;
    case ImageClass::C11_11_10: return GL_IMAGE_CLASS_11_11_10;
    case ImageClass::C10_10_10_2: return GL_IMAGE_CLASS_10_10_10_2;
    default: return GL_NONE;
  }
}

GLenum view_class(uint32_t bits) {
  switch (bits) {
    case 128: return GL_VIEW_CLASS_128_BITS;
    case 96: return GL_VIEW_CLASS_96_BITS;
    case 64: return GL_VIEW_CLASS_64_BITS;
    case 48: return GL_VIEW_CLASS_48_BITS;
    case 32: return GL_VIEW_CLASS_32_BITS;
    case 24: return GL_VIEW_CLASS_24_BITS;
    case 16: return GL_VIEW_CLASS_16_BITS;
    case 8: return GL_VIEW_CLASS_8_BITS;
    default: return GL_NONE;
  }
}

GLenum component_type(const SizedFormat& f) {
  switch (f.numeric) {
    case Numeric::Unorm: return GL_UNSIGNED_NORMALIZED;
    case Numeric::Snorm: return GL_SIGNED_NORMALIZED;
    case Numeric::Uint: return GL_UNSIGNED_INT;
    case Numeric::Sint: return GL_INT;
    default: return GL_FLOAT;
  }
}

// glGetTexImage's (and glReadPixels') preferred pair for a format: DEPTH_COMPONENT with the depth's own type for the
// depth formats, DEPTH_STENCIL with its packed type for the depth-stencil ones (depth and stencil index in one
// group, §8.11.4), the natural format / type otherwise (STENCIL_INDEX / UNSIGNED_BYTE for STENCIL_INDEX8).
GLenum get_image_format(const SizedFormat& f) {
  return is_depth(f) && !is_depth_stencil(f) ? GL_DEPTH_COMPONENT : f.natural_format;
}
GLenum get_image_type(const SizedFormat& f) {
  if (!is_depth(f) || is_depth_stencil(f)) return f.natural_type;
  return f.bits[0] == 32 ? GL_FLOAT : f.bits[0] == 16 ? GL_UNSIGNED_SHORT : GL_UNSIGNED_INT;
}

bool storage_target(GLenum target) {
  switch (target) {
    case GL_TEXTURE_1D:
    case GL_TEXTURE_2D:
    case GL_TEXTURE_3D:
    case GL_TEXTURE_1D_ARRAY:
    case GL_TEXTURE_2D_ARRAY:
    case GL_TEXTURE_RECTANGLE:
    case GL_TEXTURE_CUBE_MAP:
    case GL_TEXTURE_CUBE_MAP_ARRAY:
    case GL_TEXTURE_2D_MULTISAMPLE:  // texture_multisample.cpp
    case GL_TEXTURE_2D_MULTISAMPLE_ARRAY: return true;
    default: return false;
  }
}

// The answer for one pname; an empty vector writes nothing (SAMPLES of a target without samples).
std::vector<int64_t> answer(Context* ctx, GLenum target, GLenum internalformat, GLenum pname) {
  // A compressed format (compressed_formats.hpp) answers from the format its texels are decoded into, on the
  // targets of two-dimensional blocks (GL 4.6 table 8.14: 2D, cube maps, 2D and cube map arrays; 3D for the formats
  // of its "3D Tex." column, BPTC), with the compressed rows below.
  const CompressedFormat* compressed = find_compressed_format(internalformat);
  const SizedFormat* f =
      compressed != nullptr ? find_sized_format(compressed->storage) : find_sized_format(internalformat);
  const bool buffer = target == GL_TEXTURE_BUFFER;
  // Supported: a format this shim stores, on a target with storage here (buffer textures: table 8.18); depth
  // formats on the targets GL 4.6 §8.5 allows them (not 3D, not buffer).
  const bool depth = f != nullptr && is_depth(*f);
  const bool compressed_target = target == GL_TEXTURE_2D || target == GL_TEXTURE_2D_ARRAY ||
                                 target == GL_TEXTURE_CUBE_MAP || target == GL_TEXTURE_CUBE_MAP_ARRAY;
  const bool stencil = f != nullptr && is_stencil_index(*f);  // STENCIL_INDEX8: §8.5's targets, as depth
  const bool renderbuffer = target == GL_RENDERBUFFER;
  // §9.4's renderable formats (the framebuffer completeness rules of framebuffer_objects.cpp): colour-renderable
  // (table 8.12's "CR" column; ES 3.2 table 8.10), depth-renderable (the depth and depth-stencil formats) and
  // stencil-renderable (the stencil and depth-stencil formats). No compressed format is renderable.
  const bool color_rend =
      f != nullptr && compressed == nullptr && color_renderable(*f, ctx->version.es, ctx->version.minor);
  bool supported = false;
  if (f != nullptr && compressed != nullptr) {
    supported = compressed_target || (target == GL_TEXTURE_3D && compressed->texture_3d);
  } else if (f != nullptr && renderbuffer) {
    // Renderbuffers (renderbuffer_objects.cpp) take the renderable formats (§9.2.4).
    supported = color_rend || is_depth_or_stencil(*f);
  } else if (f != nullptr) {
    supported = depth || stencil ? storage_target(target) && target != GL_TEXTURE_3D
                                 : storage_target(target) || (buffer && buffer_texture_format(internalformat));
  }
  backend::Device& device = *ctx->device_state.device;
  VkFormatProperties properties{};
  if (supported) {
    // The Vulkan format textures of this format get on this device (24-bit depth may fall back to a wider one).
    // A natively stored compressed format: its block format's features (compressed_native).
    const VkFormat vk = compressed != nullptr && compressed_native(device, *compressed, target)
                            ? compressed->vk_native
                            : storage_format(device, *f).vk_format;
    device.vki().vkGetPhysicalDeviceFormatProperties(device.physical_device(), vk, &properties);
  }
  const VkFormatFeatureFlags features = buffer ? properties.bufferFeatures : properties.optimalTilingFeatures;
  const bool sampled =
      supported && !renderbuffer &&
      (features & (buffer ? VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT : VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT));
  // §8.26: no compressed format is an image unit format (table 8.26).
  const bool storage =
      supported && !renderbuffer && compressed == nullptr && f->image_class != ImageClass::None &&
      (features & (buffer ? VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_BIT : VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT));
  const bool atomic = storage && (internalformat == GL_R32I || internalformat == GL_R32UI) &&
                      (features & (buffer ? VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_ATOMIC_BIT
                                          : VK_FORMAT_FEATURE_STORAGE_IMAGE_ATOMIC_BIT));
  const int64_t full = GL_FULL_SUPPORT;
  const TextureSizeLimits limits = texture_size_limits(device);
  auto component = [&](int i) -> int64_t {
    return supported && !depth && !stencil && i < f->components ? f->bits[static_cast<size_t>(i)] : 0;
  };
  auto type_of = [&](int i) -> int64_t { return component(i) != 0 ? component_type(*f) : GL_NONE; };
  if (compressed != nullptr) {
    switch (pname) {
      // §22.3.2: "TEXTURE_COMPRESSED: If internalformat is a compressed format that is supported for this type of
      // resource, TRUE is returned"; the block's width and height in texels and its size in bytes.
      case GL_TEXTURE_COMPRESSED: return {supported ? 1 : 0};
      case GL_TEXTURE_COMPRESSED_BLOCK_WIDTH: return {supported ? kBlockWidth : 0};
      case GL_TEXTURE_COMPRESSED_BLOCK_HEIGHT: return {supported ? kBlockHeight : 0};
      case GL_TEXTURE_COMPRESSED_BLOCK_SIZE: return {supported ? compressed->block_bytes : 0};
      // Texture views of compressed textures (texture_view.cpp): the format's class of table 8.22's compressed
      // rows (compressed_view_class).
      case GL_TEXTURE_VIEW: return {supported ? full : GL_NONE};
      case GL_VIEW_COMPATIBILITY_CLASS: return {supported ? compressed_view_class(*compressed) : GL_NONE};
      // Not for compressed textures here: glGenerateMipmap (§8.14.4: not colour-renderable), glClearTexImage, and
      // the image format / type of uncompressed transfers.
      case GL_MANUAL_GENERATE_MIPMAP:
      case GL_CLEAR_TEXTURE: return {GL_NONE};
      case GL_COLOR_ENCODING: return {supported ? (f->srgb ? GL_SRGB : GL_LINEAR) : GL_NONE};
      default: break;
    }
  }
  switch (pname) {
    // GL 4.6 §22.3.2: NUM_SAMPLE_COUNTS "the number of sample counts that would be returned by querying SAMPLES";
    // SAMPLES "the sample counts supported for internalformat and target ... in descending order". The multisample
    // targets and renderbuffers: the counts the device has for the format (texture_multisample.hpp); other targets
    // one (single-sampled) and no SAMPLES values.
    case GL_NUM_SAMPLE_COUNTS:
    case GL_SAMPLES: {
      // Renderbuffers (renderbuffer_objects.cpp): the same counts, for every renderable format (colour, depth,
      // stencil; texture_sample_counts has none for the others).
      const bool renderbuffer_format = renderbuffer && f != nullptr;
      if (target == GL_TEXTURE_2D_MULTISAMPLE || target == GL_TEXTURE_2D_MULTISAMPLE_ARRAY || renderbuffer_format) {
        std::vector<int64_t> counts;
        if (supported || renderbuffer_format) {
          for (uint32_t n : texture_sample_counts(device, *f, ctx->version.es, ctx->version.minor)) counts.push_back(n);
        }
        if (pname == GL_SAMPLES) return counts;
        return {static_cast<int64_t>(counts.size())};
      }
      if (pname == GL_SAMPLES) return {};
      return {target == GL_RENDERBUFFER ? 0 : 1};
    }
    case GL_INTERNALFORMAT_SUPPORTED: return {supported ? 1 : 0};
    case GL_INTERNALFORMAT_PREFERRED: return {supported ? static_cast<int64_t>(internalformat) : GL_NONE};
    case GL_INTERNALFORMAT_RED_SIZE: return {component(0)};
    case GL_INTERNALFORMAT_GREEN_SIZE: return {component(1)};
    case GL_INTERNALFORMAT_BLUE_SIZE: return {component(2)};
    case GL_INTERNALFORMAT_ALPHA_SIZE: return {component(3)};
    case GL_INTERNALFORMAT_SHARED_SIZE: return {supported && f->numeric == Numeric::SharedExp ? 5 : 0};
    case GL_INTERNALFORMAT_RED_TYPE: return {type_of(0)};
    case GL_INTERNALFORMAT_GREEN_TYPE: return {type_of(1)};
    case GL_INTERNALFORMAT_BLUE_TYPE: return {type_of(2)};
    case GL_INTERNALFORMAT_ALPHA_TYPE: return {type_of(3)};
    case GL_MAX_WIDTH:
      if (!supported) return {0};
      if (buffer) return {limits.max_texture_buffer_size};
      return {target == GL_TEXTURE_3D                                                ? limits.max_3d_size
              : target == GL_TEXTURE_CUBE_MAP || target == GL_TEXTURE_CUBE_MAP_ARRAY ? limits.max_cube_size
              : target == GL_TEXTURE_RECTANGLE                                       ? limits.max_rectangle_size
                                                                                     : limits.max_texture_size};
    case GL_MAX_HEIGHT:
      if (!supported || dimensions(target) < 2 || target == GL_TEXTURE_1D_ARRAY) return {0};
      return {target == GL_TEXTURE_3D                                                ? limits.max_3d_size
              : target == GL_TEXTURE_CUBE_MAP || target == GL_TEXTURE_CUBE_MAP_ARRAY ? limits.max_cube_size
              : target == GL_TEXTURE_RECTANGLE                                       ? limits.max_rectangle_size
                                                                                     : limits.max_texture_size};
    case GL_MAX_DEPTH: return {supported && target == GL_TEXTURE_3D ? limits.max_3d_size : 0};
    case GL_MAX_LAYERS: return {supported && is_array(target) ? limits.max_array_layers : 0};
    case GL_COLOR_COMPONENTS: return {supported && !depth && !stencil ? 1 : 0};
    // Depth (table 8.13): the depth bits and type; the stencil of the DEPTH*_STENCIL8 formats is 8-bit unsigned
    // integer.
    case GL_INTERNALFORMAT_DEPTH_SIZE: return {supported && depth ? f->bits[0] : 0};
    case GL_INTERNALFORMAT_DEPTH_TYPE:
      return {supported && depth ? (f->bits[0] == 32 ? GL_FLOAT : GL_UNSIGNED_NORMALIZED) : GL_NONE};
    case GL_INTERNALFORMAT_STENCIL_SIZE: return {supported && (f->base_format == GL_DEPTH_STENCIL || stencil) ? 8 : 0};
    case GL_INTERNALFORMAT_STENCIL_TYPE:
      return {supported && (f->base_format == GL_DEPTH_STENCIL || stencil) ? GL_UNSIGNED_INT : GL_NONE};
    case GL_DEPTH_COMPONENTS: return {supported && depth ? 1 : 0};
    case GL_STENCIL_COMPONENTS: return {supported && (f->base_format == GL_DEPTH_STENCIL || stencil) ? 1 : 0};
    // Shadow lookups: a depth format the device samples (Vulkan: a sampled depth format takes comparison samplers
    // unless format features 2 say otherwise; the dispatch binding checks that feature).
    case GL_TEXTURE_SHADOW: return {sampled && depth ? full : GL_NONE};
    // Renderbuffers take no TexImage / GetTexImage, mipmaps, clears of texture images or views: the texture rows
    // below answer NONE / FALSE for them ("NONE if the resource is not supported for this operation").
    case GL_TEXTURE_IMAGE_FORMAT: return {supported && !renderbuffer ? f->natural_format : GL_NONE};
    case GL_TEXTURE_IMAGE_TYPE: return {supported && !renderbuffer ? f->natural_type : GL_NONE};
    // ARB_internalformat_query2: "READ_PIXELS: The support for reading pixels from the resource when it is attached
    // to a framebuffer"; READ_PIXELS_FORMAT / TYPE "The <format> / <type> to pass to ReadPixels to obtain the best
    // performance and image quality ... or NONE if <internalformat> is not supported or can never be a valid
    // source for ReadPixels". glReadPixels (read_pixels.cpp) reads single-sampled colour-renderable, depth and
    // stencil attachments (§18.2.1: a multisample read buffer is INVALID_OPERATION), in the pair glGetTexImage
    // prefers (GET_TEXTURE_IMAGE_FORMAT / TYPE below: DEPTH_COMPONENT, DEPTH_STENCIL with its packed type,
    // STENCIL_INDEX).
    case GL_READ_PIXELS:
    case GL_READ_PIXELS_FORMAT:
    case GL_READ_PIXELS_TYPE: {
      const bool readable = supported && !buffer && target != GL_TEXTURE_2D_MULTISAMPLE &&
                            target != GL_TEXTURE_2D_MULTISAMPLE_ARRAY && (color_rend || is_depth_or_stencil(*f));
      if (pname == GL_READ_PIXELS) return {readable ? full : GL_NONE};
      if (!readable) return {GL_NONE};
      return {pname == GL_READ_PIXELS_FORMAT ? get_image_format(*f) : get_image_type(*f)};
    }
    // glGetTexImage's own pair: DEPTH_COMPONENT for depth formats, DEPTH_STENCIL with its packed type for the
    // depth-stencil ones (depth and stencil index in one group, §8.11.4; the stencil is the texture's plane).
    case GL_GET_TEXTURE_IMAGE_FORMAT: return {supported && !renderbuffer ? get_image_format(*f) : GL_NONE};
    case GL_GET_TEXTURE_IMAGE_TYPE: return {supported && !renderbuffer ? get_image_type(*f) : GL_NONE};
    case GL_MIPMAP: return {supported && !renderbuffer && has_mipmaps(target) ? 1 : 0};
    // glGenerateMipmap (texture_mipmaps.cpp) takes every stored colour format but the integer ones, on the targets
    // with mipmaps (§8.14.4).
    case GL_MANUAL_GENERATE_MIPMAP:
      return {supported && !renderbuffer && has_mipmaps(target) && !buffer && !depth && !is_integer(*f) ? full
                                                                                                        : GL_NONE};
    case GL_COLOR_ENCODING: return {supported && !depth && !stencil ? (f->srgb ? GL_SRGB : GL_LINEAR) : GL_NONE};
    case GL_FILTER:
      return {sampled && !is_integer(*f) && (features & VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT) ? full
                                                                                                           : GL_NONE};
    case GL_COMPUTE_TEXTURE: return {sampled ? full : GL_NONE};
    case GL_SHADER_IMAGE_LOAD:
    case GL_SHADER_IMAGE_STORE: return {storage ? full : GL_NONE};
    case GL_SHADER_IMAGE_ATOMIC: return {atomic ? 1 : 0};
    case GL_IMAGE_TEXEL_SIZE: return {storage ? gl_texel_bits(*f) : 0};
    case GL_IMAGE_COMPATIBILITY_CLASS: return {storage ? image_class_enum(f->image_class) : GL_NONE};
    case GL_IMAGE_PIXEL_FORMAT: return {storage ? f->natural_format : GL_NONE};
    case GL_IMAGE_PIXEL_TYPE: return {storage ? f->natural_type : GL_NONE};
    case GL_IMAGE_FORMAT_COMPATIBILITY_TYPE: return {storage ? GL_IMAGE_FORMAT_COMPATIBILITY_BY_SIZE : GL_NONE};
    case GL_CLEAR_TEXTURE: return {supported && !buffer && !renderbuffer ? full : GL_NONE};
    case GL_VIEW_COMPATIBILITY_CLASS:
      return {supported && !depth && !renderbuffer ? view_class(gl_texel_bits(*f)) : GL_NONE};
    // ARB_internalformat_query2: "TEXTURE_VIEW: The support for using the resource with the TextureView command"
    // (texture_view.cpp: the textures of table 8.21's targets, in the format's view class of table 8.22, a depth
    // format viewed as itself); renderbuffers and buffer textures are no TextureView originals.
    case GL_TEXTURE_VIEW: return {supported && !renderbuffer && !buffer ? full : GL_NONE};
    case GL_TEXTURE_COMPRESSED: return {0};
    // §22.3.2: "DEPTH_RENDERABLE: ... TRUE if the format is supported as a depth attachment", STENCIL_RENDERABLE
    // likewise for the stencil attachment: framebuffers clear and read them (framebuffer_objects.cpp; table 8.13's
    // depth, depth-stencil and stencil formats), on the texture targets that hold them and renderbuffers.
    // COLOR_RENDERABLE: "If <internalformat> is color-renderable (as defined in section 4.4.4 [GL 4.6 §9.4]),
    // TRUE is returned in <params>. If the internal format is unsupported, or the internal format is not
    // color-renderable, FALSE is returned" (ARB_internalformat_query2): a property of the format, which
    // framebuffer completeness uses (color_renderable), on every resource that supports the format.
    case GL_COLOR_RENDERABLE: return {supported && color_rend ? 1 : 0};
    case GL_DEPTH_RENDERABLE: return {supported && depth && !buffer ? 1 : 0};
    case GL_STENCIL_RENDERABLE: return {supported && (stencil || (depth && is_depth_stencil(*f))) && !buffer ? 1 : 0};
    default:
      // Graphics-stage sampling, FRAMEBUFFER_RENDERABLE(_LAYERED) and FRAMEBUFFER_BLEND ("The support for
      // rendering to the resource via framebuffer attachment"), sRGB read/write and automatic mipmap generation
      // answer NONE: no draws (framebuffers are cleared and read, never rendered to), no stages but compute.
      return {pname == GL_TEXTURE_COMPRESSED_BLOCK_WIDTH || pname == GL_TEXTURE_COMPRESSED_BLOCK_HEIGHT ||
                      pname == GL_TEXTURE_COMPRESSED_BLOCK_SIZE || pname == GL_MAX_COMBINED_DIMENSIONS ||
                      pname == GL_INTERNALFORMAT_DEPTH_SIZE || pname == GL_INTERNALFORMAT_STENCIL_SIZE ||
                      pname == GL_DEPTH_COMPONENTS || pname == GL_STENCIL_COMPONENTS || pname == GL_COLOR_RENDERABLE ||
                      pname == GL_DEPTH_RENDERABLE || pname == GL_STENCIL_RENDERABLE
                  ? 0
                  : GL_NONE};
  }
}

template <class T>
void internalformat_query(GLenum target, GLenum internalformat, GLenum pname, GLsizei count, T* params,
                          const char* func) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  // GL 4.6 §22.3: "An INVALID_ENUM error is generated if target is not a valid target (table 22.2)", "... if
  // pname is not one of the values in table 22.3"; "An INVALID_VALUE error is generated if bufSize is negative."
  // OpenGL ES 3.2 §20.3: targets RENDERBUFFER, TEXTURE_2D_MULTISAMPLE(_ARRAY), pnames NUM_SAMPLE_COUNTS and
  // SAMPLES only.
  const bool es = ctx->version.es;
  const bool target_ok = es ? (target == GL_RENDERBUFFER || target == GL_TEXTURE_2D_MULTISAMPLE ||
                               (target == GL_TEXTURE_2D_MULTISAMPLE_ARRAY && ctx->version.minor >= 2))
                            : (target == GL_RENDERBUFFER || target_index(target, false, 2) >= 0);
  if (!target_ok) {
    ctx->set_error(GL_INVALID_ENUM, std::string(func) + ": invalid target " + hex(target));
    return;
  }
  if (!known_pname(pname) || (es && pname != GL_NUM_SAMPLE_COUNTS && pname != GL_SAMPLES)) {
    ctx->set_error(GL_INVALID_ENUM, std::string(func) + ": invalid pname " + hex(pname));
    return;
  }
  if (count < 0) {
    ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": bufSize is negative");
    return;
  }
  const std::vector<int64_t> values = answer(ctx, target, internalformat, pname);
  for (size_t i = 0; i < values.size() && static_cast<GLsizei>(i) < count && params != nullptr; ++i) {
    params[i] = static_cast<T>(values[i]);
  }
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

}  // namespace
}  // namespace bismuth::gl

using namespace bismuth::gl;

extern "C" {

GLAPI void APIENTRY glGetInternalformativ(GLenum target, GLenum internalformat, GLenum pname, GLsizei count,
                                          GLint* params) {
  internalformat_query(target, internalformat, pname, count, params, "glGetInternalformativ");
}

GLAPI void APIENTRY glGetInternalformati64v(GLenum target, GLenum internalformat, GLenum pname, GLsizei count,
                                            GLint64* params) {
  internalformat_query(target, internalformat, pname, count, params, "glGetInternalformati64v");
}

}  // extern "C"
