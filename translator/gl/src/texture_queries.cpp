// Texture queries: glGetTexLevelParameter* / glGetTextureLevelParameter* (GL 4.6 §8.11.3, OpenGL ES 3.2 §8.11.3),
// and the glGet* state of textures, samplers, image units, pixel storage and texture limits (GL 4.6 tables 23.5,
// 23.14, 23.35, 23.45, 23.53), which state_queries.cpp asks through get_texture_state.
#include <cmath>

#include "compressed_formats.hpp"
#include "framebuffers.hpp"
#include "texture_access.hpp"
#include "texture_formats.hpp"
#include "texture_multisample.hpp"

namespace bismuth::gl {
namespace {

GLenum component_type(const SizedFormat& f) {
  switch (f.numeric) {
    case Numeric::Unorm:
    case Numeric::Depth: return GL_UNSIGNED_NORMALIZED;
    case Numeric::Snorm: return GL_SIGNED_NORMALIZED;
    case Numeric::Uint: return GL_UNSIGNED_INT;
    case Numeric::Sint: return GL_INT;
    default: return GL_FLOAT;
  }
}

// The bytes a buffer texture reads: its range, or the whole buffer (glTexBuffer), 0 without a buffer.
GLsizeiptr buffer_range(const TextureObject& t) {
  if (!t.buffer) return 0;
  return t.buffer_size != 0 ? t.buffer_size : t.buffer->size;
}

// GL 4.6 table 23.17's level state; false for a pname that is not level state.
bool level_parameter(const Context* ctx, const TextureObject& t, const TextureLevel& l, GLenum pname, double& out) {
  const SizedFormat* f = l.format;
  auto component = [&](int i) -> double {
    if (f == nullptr || is_depth_or_stencil(*f) || i >= f->components) return 0;
    return f->bits[static_cast<size_t>(i)];
  };
  auto type_of = [&](int i) -> double { return component(i) != 0 ? component_type(*f) : GL_NONE; };
  switch (pname) {
    case GL_TEXTURE_WIDTH: out = l.width; return true;
    case GL_TEXTURE_HEIGHT: out = l.height; return true;
    case GL_TEXTURE_DEPTH: out = l.depth; return true;
    // The initial TEXTURE_INTERNAL_FORMAT of a level with no image is RGBA (table 23.17).
    case GL_TEXTURE_INTERNAL_FORMAT: out = f != nullptr ? l.internalformat : GL_RGBA; return true;
    case GL_TEXTURE_RED_SIZE: out = component(0); return true;
    case GL_TEXTURE_GREEN_SIZE: out = component(1); return true;
    case GL_TEXTURE_BLUE_SIZE: out = component(2); return true;
    case GL_TEXTURE_ALPHA_SIZE: out = component(3); return true;
    case GL_TEXTURE_RED_TYPE: out = type_of(0); return true;
    case GL_TEXTURE_GREEN_TYPE: out = type_of(1); return true;
    case GL_TEXTURE_BLUE_TYPE: out = type_of(2); return true;
    case GL_TEXTURE_ALPHA_TYPE: out = type_of(3); return true;
    case GL_TEXTURE_DEPTH_SIZE: out = f != nullptr && is_depth(*f) ? f->bits[0] : 0; return true;
    case GL_TEXTURE_STENCIL_SIZE:
      out = f != nullptr && (f->base_format == GL_DEPTH_STENCIL || is_stencil_index(*f)) ? 8 : 0;
      return true;
    case GL_TEXTURE_DEPTH_TYPE:
      out = f != nullptr && is_depth(*f) ? (f->bits[0] == 32 ? GL_FLOAT : GL_UNSIGNED_NORMALIZED) : GL_NONE;
      return true;
    case GL_TEXTURE_SHARED_SIZE: out = f != nullptr && f->numeric == Numeric::SharedExp ? 5 : 0; return true;
    // §8.11.3: TRUE for an image of a compressed internal format (compressed_formats.hpp).
    case GL_TEXTURE_COMPRESSED: out = is_compressed_level(l) ? 1 : 0; return true;
    // Multisample textures have level 0 only; every other texture has no samples and fixed locations (table 23.17).
    case GL_TEXTURE_SAMPLES: out = is_multisample(t.target) && l.defined() ? t.samples : 0; return true;
    case GL_TEXTURE_FIXED_SAMPLE_LOCATIONS:
      out = is_multisample(t.target) && l.defined() ? t.fixed_sample_locations : 1;
      return true;
    case GL_TEXTURE_BUFFER_DATA_STORE_BINDING: out = t.buffer ? t.buffer->name : 0; return true;
    case GL_TEXTURE_BUFFER_OFFSET: out = static_cast<double>(t.buffer_offset); return true;
    case GL_TEXTURE_BUFFER_SIZE: out = static_cast<double>(buffer_range(t)); return true;
    default: (void)ctx; return false;
  }
}

void level_query(Context* ctx, const TextureObject& t, GLenum target, GLint level, GLenum pname, double& out, bool& ok,
                 const char* func) {
  ok = false;
  // GL 4.6 §8.11.3: "An INVALID_VALUE error is generated if level is negative or larger than the maximum
  // allowable level-of-detail"; COMPRESSED_IMAGE_SIZE of an uncompressed image is INVALID_OPERATION.
  if (level < 0 || static_cast<uint32_t>(level) >= kMaxTextureLevels) {
    ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": invalid level " + std::to_string(level));
    return;
  }
  const uint32_t face = is_cube_face(target) ? face_index(target) : 0;
  TextureLevel l = t.levels.empty() ? TextureLevel{} : t.levels[face][static_cast<uint32_t>(level)];
  if (pname == GL_TEXTURE_COMPRESSED_IMAGE_SIZE) {
    // The bytes of the level's blocks (what GetCompressedTexImage returns with the default pixel storage).
    const CompressedFormat* c =
        t.target != GL_TEXTURE_BUFFER && l.defined() ? find_compressed_format(l.internalformat) : nullptr;
    if (c == nullptr) {
      ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": the image is not compressed");
      return;
    }
    out = static_cast<double>(compressed_size(*c, l.width, l.height, l.depth));
    ok = true;
    return;
  }
  if (t.target == GL_TEXTURE_BUFFER) {
    // §8.9: a buffer texture's one level is the buffer range read as texels of its internal format.
    l = TextureLevel{};
    if (t.buffer && level == 0) {
      l.format = find_sized_format(t.buffer_format);
      l.internalformat = t.buffer_format;
      l.width = static_cast<uint32_t>(static_cast<uint64_t>(buffer_range(t)) / (gl_texel_bits(*l.format) / 8));
      l.height = l.depth = 1;
    }
  }
  if (!level_parameter(ctx, t, l, pname, out)) {
    ctx->set_error(GL_INVALID_ENUM, std::string(func) + ": invalid pname " + hex(pname));
    return;
  }
  ok = true;
}

template <class T>
void tex_level(GLenum target, GLint level, GLenum pname, T* params, const char* func) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  // GetTexLevelParameter takes the face targets, not CUBE_MAP itself (GL 4.6 §8.11.3).
  auto t = bound_texture(ctx, target, true, func);
  if (!t) return;
  if (target == GL_TEXTURE_CUBE_MAP) {
    ctx->set_error(GL_INVALID_ENUM, std::string(func) + ": use a cube map face target");
    return;
  }
  double v = 0;
  bool ok = false;
  level_query(ctx, *t, target, level, pname, v, ok, func);
  if (ok && params != nullptr) *params = static_cast<T>(v);
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

template <class T>
void texture_level(GLuint texture, GLint level, GLenum pname, T* params, const char* func) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  auto t = named_texture(ctx, texture, func);
  if (!t) return;
  double v = 0;
  bool ok = false;
  level_query(ctx, *t, t->target, level, pname, v, ok, func);
  if (ok && params != nullptr) *params = static_cast<T>(v);
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLint name_of(const std::shared_ptr<TextureObject>& t) {
  return t ? static_cast<GLint>(t->name) : 0;
}

// The texture-binding pname's target, or GL_NONE.
GLenum target_of_binding(GLenum pname) {
  for (int i = 0; i < static_cast<int>(TextureUnit::kTargets); ++i) {
    if (binding_pname(target_of_index(i)) == pname) return target_of_index(i);
  }
  return GL_NONE;
}

bool pixel_store_state(const Context* ctx, GLenum pname, TextureStateValues& out) {
  const bool es = ctx->version.es;
  auto set = [&](int64_t v) {
    out.count = 1;
    out.v[0] = v;
    return true;
  };
  auto flag = [&](bool v) {
    if (es) return false;  // OpenGL ES has no SWAP_BYTES / LSB_FIRST
    out.is_boolean = true;
    return set(v ? 1 : 0);
  };
  const PixelStore& p = ctx->pack;
  const PixelStore& u = ctx->unpack;
  switch (pname) {
    case GL_PACK_ALIGNMENT: return set(p.alignment);
    case GL_PACK_ROW_LENGTH: return set(p.row_length);
    case GL_PACK_SKIP_PIXELS: return set(p.skip_pixels);
    case GL_PACK_SKIP_ROWS: return set(p.skip_rows);
    case GL_PACK_IMAGE_HEIGHT: return !es && set(p.image_height);
    case GL_PACK_SKIP_IMAGES: return !es && set(p.skip_images);
    case GL_PACK_SWAP_BYTES: return flag(p.swap_bytes);
    case GL_PACK_LSB_FIRST: return flag(p.lsb_first);
    case GL_UNPACK_ALIGNMENT: return set(u.alignment);
    case GL_UNPACK_ROW_LENGTH: return set(u.row_length);
    case GL_UNPACK_SKIP_PIXELS: return set(u.skip_pixels);
    case GL_UNPACK_SKIP_ROWS: return set(u.skip_rows);
    case GL_UNPACK_IMAGE_HEIGHT: return set(u.image_height);
    case GL_UNPACK_SKIP_IMAGES: return set(u.skip_images);
    case GL_UNPACK_SWAP_BYTES: return flag(u.swap_bytes);
    case GL_UNPACK_LSB_FIRST: return flag(u.lsb_first);
    // GL 4.6 table 23.3 / 23.4 (OpenGL ES has no compressed block storage modes).
    case GL_PACK_COMPRESSED_BLOCK_WIDTH: return !es && set(p.block_width);
    case GL_PACK_COMPRESSED_BLOCK_HEIGHT: return !es && set(p.block_height);
    case GL_PACK_COMPRESSED_BLOCK_DEPTH: return !es && set(p.block_depth);
    case GL_PACK_COMPRESSED_BLOCK_SIZE: return !es && set(p.block_size);
    case GL_UNPACK_COMPRESSED_BLOCK_WIDTH: return !es && set(u.block_width);
    case GL_UNPACK_COMPRESSED_BLOCK_HEIGHT: return !es && set(u.block_height);
    case GL_UNPACK_COMPRESSED_BLOCK_DEPTH: return !es && set(u.block_depth);
    case GL_UNPACK_COMPRESSED_BLOCK_SIZE: return !es && set(u.block_size);
    default: return false;
  }
}

}  // namespace

TextureSizeLimits texture_size_limits(const backend::Device& device) {
  VkPhysicalDeviceProperties properties{};
  device.vki().vkGetPhysicalDeviceProperties(device.physical_device(), &properties);
  const VkPhysicalDeviceLimits& l = properties.limits;
  TextureSizeLimits out;
  out.max_texture_size = std::min(l.maxImageDimension1D, l.maxImageDimension2D);
  out.max_3d_size = l.maxImageDimension3D;
  out.max_cube_size = l.maxImageDimensionCube;
  out.max_rectangle_size = l.maxImageDimension2D;
  out.max_array_layers = l.maxImageArrayLayers;
  out.max_texture_buffer_size = l.maxTexelBufferElements;
  out.texture_buffer_offset_alignment = static_cast<uint32_t>(l.minTexelBufferOffsetAlignment);
  out.max_lod_bias = l.maxSamplerLodBias;
  out.max_anisotropy = l.maxSamplerAnisotropy;
  return out;
}

bool get_texture_state(Context* ctx, GLenum pname, TextureStateValues& out) {
  if (pixel_store_state(ctx, pname, out)) return true;
  if (get_framebuffer_state(ctx, pname, out)) return true;  // framebuffers.hpp
  auto set = [&](int64_t v) {
    out.count = 1;
    out.v[0] = v;
    return true;
  };
  const TextureUnit& unit = ctx->texture_units[ctx->active_texture];
  if (const GLenum target = target_of_binding(pname); target != GL_NONE) {
    const int index = target_index(target, ctx->version.es, ctx->version.minor);
    if (index < 0) return false;
    return set(name_of(unit.textures[static_cast<size_t>(index)]));
  }
  const bool es = ctx->version.es;
  switch (pname) {
    case GL_ACTIVE_TEXTURE: return set(GL_TEXTURE0 + ctx->active_texture);
    case GL_SAMPLER_BINDING: return set(unit.sampler ? unit.sampler->name : 0);
    case GL_MAX_IMAGE_UNITS: return set(static_cast<int64_t>(ctx->image_units.size()));
    // GL 4.6 table 23.64 (multisample textures; texture_multisample.hpp): from the device's sampled-image sample
    // counts. MAX_SAMPLE_MASK_WORDS: Vulkan's maxSampleMaskWords (the words of gl_SampleMask; 1 covers 32 samples).
    case GL_MAX_COLOR_TEXTURE_SAMPLES: return set(multisample_limits(*ctx->device_state.device).color);
    case GL_MAX_DEPTH_TEXTURE_SAMPLES: return set(multisample_limits(*ctx->device_state.device).depth);
    case GL_MAX_INTEGER_SAMPLES: return set(multisample_limits(*ctx->device_state.device).integer);
    case GL_MAX_SAMPLE_MASK_WORDS: {
      VkPhysicalDeviceProperties properties{};
      const backend::Device& device = *ctx->device_state.device;
      device.vki().vkGetPhysicalDeviceProperties(device.physical_device(), &properties);
      return set(std::max<uint32_t>(1, properties.limits.maxSampleMaskWords));
    }
    default: break;
  }
  // Texture limits (GL 4.6 table 23.53), from the Vulkan device's image limits. GL_MAX_TEXTURE_LOD_BIAS is a float:
  // the integer state here holds its integer part (MAX_TEXTURE_LOD_BIAS through glGetFloatv reports it too).
  switch (pname) {
    case GL_MAX_TEXTURE_SIZE:
    case GL_MAX_3D_TEXTURE_SIZE:
    case GL_MAX_ARRAY_TEXTURE_LAYERS:
    case GL_MAX_CUBE_MAP_TEXTURE_SIZE:
    case GL_MAX_RECTANGLE_TEXTURE_SIZE:
    case GL_MAX_TEXTURE_BUFFER_SIZE:
    case GL_TEXTURE_BUFFER_OFFSET_ALIGNMENT:
    case GL_MAX_TEXTURE_LOD_BIAS: break;
    default: return false;
  }
  if (es && (pname == GL_MAX_RECTANGLE_TEXTURE_SIZE || pname == GL_MAX_TEXTURE_LOD_BIAS)) return false;
  if (es && ctx->version.minor < 2 &&
      (pname == GL_MAX_TEXTURE_BUFFER_SIZE || pname == GL_TEXTURE_BUFFER_OFFSET_ALIGNMENT)) {
    return false;
  }
  const TextureSizeLimits l = texture_size_limits(*ctx->device_state.device);
  switch (pname) {
    case GL_MAX_TEXTURE_SIZE: return set(l.max_texture_size);
    case GL_MAX_3D_TEXTURE_SIZE: return set(l.max_3d_size);
    case GL_MAX_ARRAY_TEXTURE_LAYERS: return set(l.max_array_layers);
    case GL_MAX_CUBE_MAP_TEXTURE_SIZE: return set(l.max_cube_size);
    case GL_MAX_RECTANGLE_TEXTURE_SIZE: return set(l.max_rectangle_size);
    case GL_MAX_TEXTURE_BUFFER_SIZE: return set(l.max_texture_buffer_size);
    case GL_TEXTURE_BUFFER_OFFSET_ALIGNMENT: return set(l.texture_buffer_offset_alignment);
    default: return set(static_cast<int64_t>(std::floor(l.max_lod_bias)));
  }
}

TextureIndexed get_texture_indexed_state(Context* ctx, GLenum pname, GLuint index, TextureStateValues& out) {
  auto set = [&](int64_t v) {
    out.count = 1;
    out.v[0] = v;
    return TextureIndexed::Ok;
  };
  switch (pname) {
    case GL_IMAGE_BINDING_NAME:
    case GL_IMAGE_BINDING_LEVEL:
    case GL_IMAGE_BINDING_LAYERED:
    case GL_IMAGE_BINDING_LAYER:
    case GL_IMAGE_BINDING_ACCESS:
    case GL_IMAGE_BINDING_FORMAT: {
      if (index >= ctx->image_units.size()) return TextureIndexed::BadIndex;
      const ImageUnit& u = ctx->image_units[index];
      switch (pname) {
        case GL_IMAGE_BINDING_NAME: return set(name_of(u.texture));
        case GL_IMAGE_BINDING_LEVEL: return set(u.level);
        case GL_IMAGE_BINDING_LAYERED: out.is_boolean = true; return set(u.layered ? 1 : 0);
        case GL_IMAGE_BINDING_LAYER: return set(u.layer);
        case GL_IMAGE_BINDING_ACCESS: return set(u.access);
        default: return set(u.format);
      }
    }
    case GL_SAMPLER_BINDING:
      if (index >= ctx->texture_units.size()) return TextureIndexed::BadIndex;
      return set(ctx->texture_units[index].sampler ? ctx->texture_units[index].sampler->name : 0);
    default: break;
  }
  // GL 4.6 table 23.14: TEXTURE_BINDING_* per texture unit through GetIntegeri_v (desktop GL).
  const GLenum target = target_of_binding(pname);
  if (target == GL_NONE || ctx->version.es) return TextureIndexed::BadEnum;
  if (index >= ctx->texture_units.size()) return TextureIndexed::BadIndex;
  const int slot = target_index(target, false, 2);
  return set(name_of(ctx->texture_units[index].textures[static_cast<size_t>(slot)]));
}

}  // namespace bismuth::gl

using namespace bismuth::gl;

extern "C" {

GLAPI void APIENTRY glGetTexLevelParameteriv(GLenum target, GLint level, GLenum pname, GLint* params) {
  tex_level(target, level, pname, params, "glGetTexLevelParameteriv");
}
GLAPI void APIENTRY glGetTexLevelParameterfv(GLenum target, GLint level, GLenum pname, GLfloat* params) {
  tex_level(target, level, pname, params, "glGetTexLevelParameterfv");
}
GLAPI void APIENTRY glGetTextureLevelParameteriv(GLuint texture, GLint level, GLenum pname, GLint* params) {
  texture_level(texture, level, pname, params, "glGetTextureLevelParameteriv");
}
GLAPI void APIENTRY glGetTextureLevelParameterfv(GLuint texture, GLint level, GLenum pname, GLfloat* params) {
  texture_level(texture, level, pname, params, "glGetTextureLevelParameterfv");
}

}  // extern "C"
