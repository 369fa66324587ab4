// The pure texture helpers of textures.hpp: targets, level sizes, device limits, texture completeness (GL 4.6
// §8.17), the effective sampler state of a unit (§8.2) and image-unit validity (§8.26.1).
#include "textures.hpp"

#include <algorithm>
#include <bit>

#include "compressed_formats.hpp"
#include "texture_formats.hpp"

namespace bismuth::gl {
namespace {

constexpr GLenum kTargets[TextureUnit::kTargets] = {GL_TEXTURE_1D,
                                                    GL_TEXTURE_2D,
                                                    GL_TEXTURE_3D,
                                                    GL_TEXTURE_1D_ARRAY,
                                                    GL_TEXTURE_2D_ARRAY,
                                                    GL_TEXTURE_RECTANGLE,
                                                    GL_TEXTURE_CUBE_MAP,
                                                    GL_TEXTURE_CUBE_MAP_ARRAY,
                                                    GL_TEXTURE_BUFFER,
                                                    GL_TEXTURE_2D_MULTISAMPLE,
                                                    GL_TEXTURE_2D_MULTISAMPLE_ARRAY};

uint32_t log2_floor(uint32_t v) {
  return v == 0 ? 0 : static_cast<uint32_t>(std::bit_width(v) - 1);
}

bool filter_needs_mipmaps(GLenum min_filter) {
  return min_filter != GL_NEAREST && min_filter != GL_LINEAR;
}

void set_why(std::string* why, const std::string& text) {
  if (why != nullptr) *why = text;
}

// The base and top levels a texture's levels are read from (§8.14.3 / §8.17): for immutable textures, BASE_LEVEL
// is clamped to [0, levels - 1] and MAX_LEVEL to [base, levels - 1].
std::pair<uint32_t, uint32_t> level_range(const TextureObject& t, const TextureLevel& base_level) {
  uint32_t base = static_cast<uint32_t>(std::max(t.base_level, 0));
  uint32_t max_level = static_cast<uint32_t>(std::max(t.max_level, 0));
  if (t.immutable && t.immutable_levels > 0) {
    base = std::min(base, t.immutable_levels - 1);
    max_level = std::clamp(max_level, base, t.immutable_levels - 1);
  }
  const uint32_t p = base + full_level_count(t.target, base_level.width, base_level.height, base_level.depth) - 1;
  return {base, std::min(p, max_level)};
}

}  // namespace

int target_index(GLenum target, bool es, int es_minor) {
  if (es) {
    switch (target) {
      case GL_TEXTURE_1D:
      case GL_TEXTURE_1D_ARRAY:
      case GL_TEXTURE_RECTANGLE: return -1;
      case GL_TEXTURE_CUBE_MAP_ARRAY:
      case GL_TEXTURE_BUFFER:
      case GL_TEXTURE_2D_MULTISAMPLE_ARRAY:
        if (es_minor < 2) return -1;
        break;
      default: break;
    }
  }
  for (size_t i = 0; i < TextureUnit::kTargets; ++i) {
    if (kTargets[i] == target) return static_cast<int>(i);
  }
  return -1;
}

GLenum target_of_index(int index) {
  return kTargets[index];
}

GLenum binding_pname(GLenum target) {
  switch (target) {
    case GL_TEXTURE_1D: return GL_TEXTURE_BINDING_1D;
    case GL_TEXTURE_2D: return GL_TEXTURE_BINDING_2D;
    case GL_TEXTURE_3D: return GL_TEXTURE_BINDING_3D;
    case GL_TEXTURE_1D_ARRAY: return GL_TEXTURE_BINDING_1D_ARRAY;
    case GL_TEXTURE_2D_ARRAY: return GL_TEXTURE_BINDING_2D_ARRAY;
    case GL_TEXTURE_RECTANGLE: return GL_TEXTURE_BINDING_RECTANGLE;
    case GL_TEXTURE_CUBE_MAP: return GL_TEXTURE_BINDING_CUBE_MAP;
    case GL_TEXTURE_CUBE_MAP_ARRAY: return GL_TEXTURE_BINDING_CUBE_MAP_ARRAY;
    case GL_TEXTURE_BUFFER: return GL_TEXTURE_BINDING_BUFFER;
    case GL_TEXTURE_2D_MULTISAMPLE: return GL_TEXTURE_BINDING_2D_MULTISAMPLE;
    case GL_TEXTURE_2D_MULTISAMPLE_ARRAY: return GL_TEXTURE_BINDING_2D_MULTISAMPLE_ARRAY;
    default: return GL_NONE;
  }
}

const char* target_name(GLenum target) {
  switch (target) {
    case GL_TEXTURE_1D: return "GL_TEXTURE_1D";
    case GL_TEXTURE_2D: return "GL_TEXTURE_2D";
    case GL_TEXTURE_3D: return "GL_TEXTURE_3D";
    case GL_TEXTURE_1D_ARRAY: return "GL_TEXTURE_1D_ARRAY";
    case GL_TEXTURE_2D_ARRAY: return "GL_TEXTURE_2D_ARRAY";
    case GL_TEXTURE_RECTANGLE: return "GL_TEXTURE_RECTANGLE";
    case GL_TEXTURE_CUBE_MAP: return "GL_TEXTURE_CUBE_MAP";
    case GL_TEXTURE_CUBE_MAP_ARRAY: return "GL_TEXTURE_CUBE_MAP_ARRAY";
    case GL_TEXTURE_BUFFER: return "GL_TEXTURE_BUFFER";
    case GL_TEXTURE_2D_MULTISAMPLE: return "GL_TEXTURE_2D_MULTISAMPLE";
    case GL_TEXTURE_2D_MULTISAMPLE_ARRAY: return "GL_TEXTURE_2D_MULTISAMPLE_ARRAY";
    default: return is_cube_face(target) ? "a cube map face" : "an unknown target";
  }
}

bool is_cube_face(GLenum target) {
  return target >= GL_TEXTURE_CUBE_MAP_POSITIVE_X && target <= GL_TEXTURE_CUBE_MAP_NEGATIVE_Z;
}
bool is_get_tex_image_target(GLenum target) {
  switch (target) {
    case GL_TEXTURE_1D:
    case GL_TEXTURE_2D:
    case GL_TEXTURE_3D:
    case GL_TEXTURE_1D_ARRAY:
    case GL_TEXTURE_2D_ARRAY:
    case GL_TEXTURE_CUBE_MAP_ARRAY:
    case GL_TEXTURE_RECTANGLE: return true;
    default: return is_cube_face(target);
  }
}
uint32_t face_index(GLenum face_target) {
  return face_target - GL_TEXTURE_CUBE_MAP_POSITIVE_X;
}
uint32_t face_count(GLenum target) {
  return target == GL_TEXTURE_CUBE_MAP ? 6 : 1;
}
bool is_array(GLenum target) {
  return target == GL_TEXTURE_1D_ARRAY || target == GL_TEXTURE_2D_ARRAY || target == GL_TEXTURE_CUBE_MAP_ARRAY ||
         target == GL_TEXTURE_2D_MULTISAMPLE_ARRAY;
}
uint32_t dimensions(GLenum target) {
  switch (target) {
    case GL_TEXTURE_1D:
    case GL_TEXTURE_BUFFER: return 1;
    case GL_TEXTURE_3D:
    case GL_TEXTURE_2D_ARRAY:
    case GL_TEXTURE_CUBE_MAP_ARRAY:
    case GL_TEXTURE_2D_MULTISAMPLE_ARRAY: return 3;
    default: return 2;
  }
}
bool has_mipmaps(GLenum target) {
  return target != GL_TEXTURE_RECTANGLE && target != GL_TEXTURE_BUFFER && target != GL_TEXTURE_2D_MULTISAMPLE &&
         target != GL_TEXTURE_2D_MULTISAMPLE_ARRAY;
}

uint32_t full_level_count(GLenum target, uint32_t width, uint32_t height, uint32_t depth) {
  if (!has_mipmaps(target)) return 1;
  uint32_t largest = width;
  if (target != GL_TEXTURE_1D_ARRAY) largest = std::max(largest, height);
  if (target == GL_TEXTURE_3D) largest = std::max(largest, depth);
  if (target == GL_TEXTURE_1D) largest = width;
  return log2_floor(std::max(largest, 1u)) + 1;
}

TextureLevel level_of(GLenum target, const TextureLevel& base, uint32_t level) {
  TextureLevel out = base;
  auto halve = [level](uint32_t v) { return std::max(1u, v >> std::min(level, 31u)); };
  out.width = halve(base.width);
  if (target != GL_TEXTURE_1D_ARRAY && target != GL_TEXTURE_1D) out.height = halve(base.height);
  if (target == GL_TEXTURE_3D) out.depth = halve(base.depth);
  return out;
}

std::string check_level_size(GLenum target, const TextureSizeLimits& limits, GLint level, GLsizei width, GLsizei height,
                             GLsizei depth) {
  if (width < 0 || height < 0 || depth < 0) return "width, height and depth must not be negative";
  const uint64_t w = static_cast<uint64_t>(width), h = static_cast<uint64_t>(height), d = static_cast<uint64_t>(depth);
  // §8.5: the maximum of a level is the maximum for level 0 shifted right by the level.
  const uint32_t shift = static_cast<uint32_t>(std::clamp(level, 0, 31));
  auto too_big = [&](uint64_t v, uint32_t max, const char* what) -> std::string {
    if (v > (static_cast<uint64_t>(max) >> shift)) {
      return std::string(what) + " " + std::to_string(v) + " is larger than the level's maximum " +
             std::to_string(max >> shift);
    }
    return {};
  };
  std::string e;
  switch (target) {
    case GL_TEXTURE_1D: return too_big(w, limits.max_texture_size, "width");
    case GL_TEXTURE_1D_ARRAY:
      if (!(e = too_big(w, limits.max_texture_size, "width")).empty()) return e;
      return h > limits.max_array_layers ? "height (layers) is larger than MAX_ARRAY_TEXTURE_LAYERS" : "";
    case GL_TEXTURE_2D:
    case GL_TEXTURE_2D_MULTISAMPLE:
      if (!(e = too_big(w, limits.max_texture_size, "width")).empty()) return e;
      return too_big(h, limits.max_texture_size, "height");
    case GL_TEXTURE_RECTANGLE:
      if (level != 0) return "rectangle textures have level 0 only";
      if (w > limits.max_rectangle_size || h > limits.max_rectangle_size) {
        return "width or height is larger than MAX_RECTANGLE_TEXTURE_SIZE";
      }
      return {};
    case GL_TEXTURE_CUBE_MAP:
      if (w != h) return "cube map faces must be square (width == height)";
      return too_big(w, limits.max_cube_size, "width");
    case GL_TEXTURE_3D:
      if (!(e = too_big(w, limits.max_3d_size, "width")).empty()) return e;
      if (!(e = too_big(h, limits.max_3d_size, "height")).empty()) return e;
      return too_big(d, limits.max_3d_size, "depth");
    case GL_TEXTURE_2D_ARRAY:
    case GL_TEXTURE_2D_MULTISAMPLE_ARRAY:
      if (!(e = too_big(w, limits.max_texture_size, "width")).empty()) return e;
      if (!(e = too_big(h, limits.max_texture_size, "height")).empty()) return e;
      return d > limits.max_array_layers ? "depth (layers) is larger than MAX_ARRAY_TEXTURE_LAYERS" : "";
    case GL_TEXTURE_CUBE_MAP_ARRAY:
      if (w != h) return "cube map array faces must be square (width == height)";
      if (d % 6 != 0) return "the depth of a cube map array (layer-faces) must be a multiple of 6";
      if (!(e = too_big(w, limits.max_cube_size, "width")).empty()) return e;
      return d > limits.max_array_layers ? "depth (layer-faces) is larger than MAX_ARRAY_TEXTURE_LAYERS" : "";
    default: return {};
  }
}

uint32_t gl_texel_bits(const SizedFormat& format) {
  uint32_t bits = 0;
  for (int i = 0; i < format.components; ++i) bits += format.bits[static_cast<size_t>(i)];
  // RGB9_E5's shared exponent is part of its 32-bit texel; RGB10_A2's alpha is counted above.
  if (format.numeric == Numeric::SharedExp) bits += 5;
  return bits;
}

bool copy_compatible(const SizedFormat& a, const SizedFormat& b) {
  // Depth and stencil formats are in no view class of table 8.22: each is compatible with itself only.
  if (is_depth_or_stencil(a) || is_depth_or_stencil(b)) return a.internalformat == b.internalformat;
  return gl_texel_bits(a) == gl_texel_bits(b);
}

bool buffer_texture_format(GLenum f) {
  switch (f) {
    case GL_R8:
    case GL_R16:
    case GL_R16F:
    case GL_R32F:
    case GL_R8I:
    case GL_R16I:
    case GL_R32I:
    case GL_R8UI:
    case GL_R16UI:
    case GL_R32UI:
    case GL_RG8:
    case GL_RG16:
    case GL_RG16F:
    case GL_RG32F:
    case GL_RG8I:
    case GL_RG16I:
    case GL_RG32I:
    case GL_RG8UI:
    case GL_RG16UI:
    case GL_RG32UI:
    case GL_RGB32F:
    case GL_RGB32I:
    case GL_RGB32UI:
    case GL_RGBA8:
    case GL_RGBA16:
    case GL_RGBA16F:
    case GL_RGBA32F:
    case GL_RGBA8I:
    case GL_RGBA16I:
    case GL_RGBA32I:
    case GL_RGBA8UI:
    case GL_RGBA16UI:
    case GL_RGBA32UI: return true;
    default: return false;
  }
}

const TextureLevel* base_level_of(const TextureObject& texture) {
  if (texture.levels.empty()) return nullptr;
  const size_t base = static_cast<size_t>(std::max(texture.base_level, 0));
  const size_t index = texture.immutable ? std::min<size_t>(base, texture.immutable_levels - 1) : base;
  if (index >= texture.levels[0].size() || !texture.levels[0][index].defined()) return nullptr;
  return &texture.levels[0][index];
}

uint32_t effective_top_level(const TextureObject& texture) {
  const TextureLevel* base = base_level_of(texture);
  if (base == nullptr) return 0;
  return level_range(texture, *base).second;
}

bool texture_complete(const TextureObject& t, const SamplerState& sampler, std::string* why) {
  // Buffer textures have no levels: complete when a buffer is attached (§8.17 does not apply to them).
  if (t.target == GL_TEXTURE_BUFFER) return true;
  if (!t.immutable && t.base_level > t.max_level) {
    set_why(why, "TEXTURE_BASE_LEVEL is greater than TEXTURE_MAX_LEVEL");
    return false;
  }
  const TextureLevel* base = base_level_of(t);
  if (base == nullptr || base->width == 0 || base->height == 0 || base->depth == 0) {
    set_why(why, "the base level is not defined or has a zero dimension");
    return false;
  }
  // Multisample textures have one level and no sampler state that applies to them (GL 4.6 §8.10: "the sampler
  // state ... is ignored" for TEXTURE_2D_MULTISAMPLE(_ARRAY); texelFetch is their only lookup): complete with a
  // defined level 0, whatever the filters say.
  if (t.target == GL_TEXTURE_2D_MULTISAMPLE || t.target == GL_TEXTURE_2D_MULTISAMPLE_ARRAY) return true;
  const auto [base_index, top] = level_range(t, *base);
  // Cube completeness (§8.17): the base level of all six faces defined, square, of one format and size.
  for (size_t face = 1; face < t.levels.size(); ++face) {
    const TextureLevel& f = t.levels[face][base_index];
    if (!f.defined() || f.format != base->format || f.width != base->width || f.height != base->height) {
      set_why(why, "the cube map is not cube complete: face " + std::to_string(face) +
                       " of the base level differs from face 0");
      return false;
    }
  }
  if (filter_needs_mipmaps(sampler.min_filter) && has_mipmaps(t.target)) {
    // Mipmap completeness: levels base+1 .. q defined with the halved sizes and the base level's format.
    for (uint32_t level = base_index + 1; level <= top; ++level) {
      const TextureLevel expected = level_of(t.target, *base, level - base_index);
      for (const auto& face : t.levels) {
        const TextureLevel& l = level < face.size() ? face[level] : TextureLevel{};
        if (!l.defined() || l.format != base->format || l.width != expected.width || l.height != expected.height ||
            l.depth != expected.depth) {
          set_why(why, "the minification filter uses mipmaps and level " + std::to_string(level) +
                           " is missing or inconsistent with the base level (not mipmap complete)");
          return false;
        }
      }
    }
  }
  const SizedFormat& format = *base->format;
  const bool nearest = sampler.mag_filter == GL_NEAREST &&
                       (sampler.min_filter == GL_NEAREST || sampler.min_filter == GL_NEAREST_MIPMAP_NEAREST);
  // §8.17: "The internal format of the texture is integer ... and either the magnification filter is not NEAREST
  // or the minification filter is neither NEAREST nor NEAREST_MIPMAP_NEAREST."
  if (is_integer(format) && !nearest) {
    set_why(why, "an integer format is sampled with a LINEAR filter");
    return false;
  }
  // §8.17: "The texture is not multisample; either the magnification filter is not NEAREST, or the minification
  // filter is neither NEAREST nor NEAREST_MIPMAP_NEAREST; and any of ... The internal format is DEPTH_STENCIL, and
  // the value of DEPTH_STENCIL_TEXTURE_MODE for the texture is STENCIL_INDEX" (multisample textures returned
  // complete above).
  if (format.base_format == GL_DEPTH_STENCIL && t.depth_stencil_mode == GL_STENCIL_INDEX && !nearest) {
    set_why(why, "a depth/stencil texture is read as stencil indices with a LINEAR filter");
    return false;
  }
  return true;
}

EffectiveSampler effective_sampler(const TextureObject& texture, const SamplerObject* sampler) {
  EffectiveSampler out;
  out.sampler = sampler != nullptr ? sampler->state : texture.sampler;
  out.swizzle = texture.swizzle;
  out.depth_stencil_mode = texture.depth_stencil_mode;
  const TextureLevel* base = base_level_of(texture);
  if (base != nullptr) {
    const auto [b, q] = level_range(texture, *base);
    out.base_level = static_cast<GLint>(b);
    out.max_level = static_cast<GLint>(q);
  } else {
    out.base_level = texture.base_level;
    out.max_level = texture.max_level;
  }
  return out;
}

bool image_unit_valid(const ImageUnit& unit, std::string* why) {
  if (!unit.texture) {
    set_why(why, "no texture is bound to the image unit");
    return false;
  }
  const TextureObject& t = *unit.texture;
  const TextureLevel* base = base_level_of(t);
  if (base == nullptr) {
    set_why(why, "the texture has no base level");
    return false;
  }
  const auto [base_index, top] = level_range(t, *base);
  const uint32_t level = static_cast<uint32_t>(std::max(unit.level, 0));
  // §8.26.1: "the texture level bound to the image unit is less than the base level or greater than the maximum
  // level of the texture", and "the texture bound to the image unit is incomplete": the base level must be
  // complete for itself, any other level as part of a mipmap-complete texture.
  if (unit.level < 0 || level < base_index || level > top) {
    set_why(why, "level " + std::to_string(unit.level) + " is outside the texture's levels [" +
                     std::to_string(base_index) + ", " + std::to_string(top) + "]");
    return false;
  }
  SamplerState nearest;
  nearest.min_filter = level == base_index ? GL_NEAREST : GL_NEAREST_MIPMAP_NEAREST;
  nearest.mag_filter = GL_NEAREST;
  std::string reason;
  if (!texture_complete(t, nearest, &reason)) {
    set_why(why, "the texture is incomplete: " + reason);
    return false;
  }
  // "the internal format of the texture bound to the image unit is not found in table 8.26": compressed formats
  // never are (their decoded storage format, base->format, would be).
  if (const CompressedFormat* c = find_compressed_format(base->internalformat)) {
    set_why(why, std::string("the texture's internal format ") + c->name + " is compressed, not an image unit format");
    return false;
  }
  const SizedFormat& format = *base->format;
  if (format.image_class == ImageClass::None) {
    set_why(why, std::string("the texture's internal format ") + format.name + " is not an image unit format");
    return false;
  }
  // "... is incompatible with the specified format according to table 8.27" (by size: see textures.hpp).
  const SizedFormat* unit_format = find_sized_format(unit.format);
  if (unit_format == nullptr || unit_format->vk_texel_bytes != format.vk_texel_bytes) {
    set_why(why, std::string("the image unit format is not compatible by size with the texture's ") + format.name);
    return false;
  }
  // "the texture bound to the image unit has layers, and the selected layer or cube map face doesn't exist"
  if (!unit.layered) {
    const TextureLevel l = level < t.levels[0].size() && t.levels[0][level].defined() ? t.levels[0][level] : *base;
    uint32_t layers = 1;
    switch (t.target) {
      case GL_TEXTURE_1D_ARRAY: layers = l.height; break;
      case GL_TEXTURE_2D_ARRAY:
      case GL_TEXTURE_CUBE_MAP_ARRAY:
      case GL_TEXTURE_2D_MULTISAMPLE_ARRAY: layers = l.depth; break;
      case GL_TEXTURE_3D: layers = l.depth; break;
      case GL_TEXTURE_CUBE_MAP: layers = 6; break;
      default: break;
    }
    if (unit.layer < 0 || static_cast<uint32_t>(unit.layer) >= layers) {
      if (layers > 1 || t.target == GL_TEXTURE_2D_ARRAY || t.target == GL_TEXTURE_1D_ARRAY ||
          t.target == GL_TEXTURE_CUBE_MAP_ARRAY || t.target == GL_TEXTURE_3D) {
        set_why(why, "layer " + std::to_string(unit.layer) + " does not exist (the level has " +
                         std::to_string(layers) + ")");
        return false;
      }
    }
  }
  return true;
}

}  // namespace bismuth::gl
