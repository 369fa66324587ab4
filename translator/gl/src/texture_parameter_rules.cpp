// Texture and sampler parameter rules (texture_parameter_rules.hpp).
#include "texture_parameter_rules.hpp"

#include <algorithm>
#include <cmath>

namespace bismuth::gl {
namespace {

ParamError fail(GLenum error, std::string message) {
  return ParamError{error, std::move(message)};
}

std::string hex_of(GLenum e) {
  char b[16];
  std::snprintf(b, sizeof b, "0x%04X", e);
  return b;
}

// The i-th value as a double (integers as they are).
double value_at(const ParamInput& in, int i) {
  switch (in.kind) {
    case ParamKind::Float: return static_cast<const GLfloat*>(in.values)[i];
    case ParamKind::IUint: return static_cast<const GLuint*>(in.values)[i];
    default: return static_cast<const GLint*>(in.values)[i];
  }
}

// An enum passed through any form (a float param holding an enum value: §8.10 converts it to the enum).
GLenum enum_at(const ParamInput& in, int i) {
  const double v = value_at(in, i);
  return v < 0 ? GL_NONE : static_cast<GLenum>(v);
}

bool is_sampler_pname(GLenum pname) {
  switch (pname) {
    case GL_TEXTURE_MIN_FILTER:
    case GL_TEXTURE_MAG_FILTER:
    case GL_TEXTURE_WRAP_S:
    case GL_TEXTURE_WRAP_T:
    case GL_TEXTURE_WRAP_R:
    case GL_TEXTURE_BORDER_COLOR:
    case GL_TEXTURE_MIN_LOD:
    case GL_TEXTURE_MAX_LOD:
    case GL_TEXTURE_LOD_BIAS:
    case GL_TEXTURE_COMPARE_MODE:
    case GL_TEXTURE_COMPARE_FUNC:
    case GL_TEXTURE_MAX_ANISOTROPY: return true;
    default: return false;
  }
}

bool valid_wrap(GLenum v, bool es) {
  switch (v) {
    case GL_CLAMP_TO_EDGE:
    case GL_REPEAT:
    case GL_CLAMP_TO_BORDER:
    case GL_MIRRORED_REPEAT: return true;
    case GL_MIRROR_CLAMP_TO_EDGE: return !es;
    default: return false;
  }
}

bool valid_min_filter(GLenum v) {
  switch (v) {
    case GL_NEAREST:
    case GL_LINEAR:
    case GL_NEAREST_MIPMAP_NEAREST:
    case GL_LINEAR_MIPMAP_NEAREST:
    case GL_NEAREST_MIPMAP_LINEAR:
    case GL_LINEAR_MIPMAP_LINEAR: return true;
    default: return false;
  }
}

bool valid_compare_func(GLenum v) {
  switch (v) {
    case GL_LEQUAL:
    case GL_GEQUAL:
    case GL_LESS:
    case GL_GREATER:
    case GL_EQUAL:
    case GL_NOTEQUAL:
    case GL_ALWAYS:
    case GL_NEVER: return true;
    default: return false;
  }
}

bool valid_swizzle(GLenum v) {
  return v == GL_RED || v == GL_GREEN || v == GL_BLUE || v == GL_ALPHA || v == GL_ZERO || v == GL_ONE;
}

GLenum& swizzle_slot(TextureObject& t, GLenum pname) {
  return t.swizzle[pname - GL_TEXTURE_SWIZZLE_R];
}

}  // namespace

ParamError set_parameter(const ParamTarget& where, TextureObject* texture, SamplerState& s, GLenum pname,
                         const ParamInput& in) {
  const bool rectangle = where.target == GL_TEXTURE_RECTANGLE;
  const bool multisample = where.target == GL_TEXTURE_2D_MULTISAMPLE || where.target == GL_TEXTURE_2D_MULTISAMPLE_ARRAY;
  // GL 4.6 §8.10: "An INVALID_ENUM error is generated if pname is ... BORDER_COLOR or SWIZZLE_RGBA and the
  // command is not one of the vector forms" (TexParameter{if} take one value).
  if (!in.vector && (pname == GL_TEXTURE_BORDER_COLOR || pname == GL_TEXTURE_SWIZZLE_RGBA)) {
    return fail(GL_INVALID_ENUM, hex_of(pname) + " takes four values: use a vector form");
  }
  if (is_sampler_pname(pname)) {
    // "An INVALID_ENUM error is generated if the effective target is either TEXTURE_2D_MULTISAMPLE or
    // TEXTURE_2D_MULTISAMPLE_ARRAY, and pname is any sampler state from table 23.18."
    if (multisample) return fail(GL_INVALID_ENUM, "multisample textures have no sampler state");
    if (where.es && pname == GL_TEXTURE_LOD_BIAS) return fail(GL_INVALID_ENUM, "OpenGL ES has no TEXTURE_LOD_BIAS");
  } else if (texture == nullptr) {
    // §8.2: sampler objects have the sampler state of table 23.18 only.
    return fail(GL_INVALID_ENUM, hex_of(pname) + " is not a sampler parameter");
  }
  switch (pname) {
    case GL_TEXTURE_MIN_FILTER: {
      const GLenum v = enum_at(in, 0);
      if (!valid_min_filter(v)) return fail(GL_INVALID_ENUM, "invalid TEXTURE_MIN_FILTER " + hex_of(v));
      // §8.10: a rectangle texture's minification filter must be NEAREST or LINEAR (INVALID_ENUM).
      if (rectangle && v != GL_NEAREST && v != GL_LINEAR) {
        return fail(GL_INVALID_ENUM, "a rectangle texture's TEXTURE_MIN_FILTER must be NEAREST or LINEAR");
      }
      s.min_filter = v;
      return {};
    }
    case GL_TEXTURE_MAG_FILTER: {
      const GLenum v = enum_at(in, 0);
      if (v != GL_NEAREST && v != GL_LINEAR) return fail(GL_INVALID_ENUM, "invalid TEXTURE_MAG_FILTER " + hex_of(v));
      s.mag_filter = v;
      return {};
    }
    case GL_TEXTURE_WRAP_S:
    case GL_TEXTURE_WRAP_T:
    case GL_TEXTURE_WRAP_R: {
      const GLenum v = enum_at(in, 0);
      if (!valid_wrap(v, where.es)) return fail(GL_INVALID_ENUM, "invalid wrap mode " + hex_of(v));
      // §8.10: rectangle textures take CLAMP_TO_EDGE and CLAMP_TO_BORDER only (INVALID_ENUM otherwise).
      if (rectangle && (v == GL_REPEAT || v == GL_MIRRORED_REPEAT || v == GL_MIRROR_CLAMP_TO_EDGE)) {
        return fail(GL_INVALID_ENUM, "a rectangle texture's wrap mode must be CLAMP_TO_EDGE or CLAMP_TO_BORDER");
      }
      (pname == GL_TEXTURE_WRAP_S ? s.wrap_s : pname == GL_TEXTURE_WRAP_T ? s.wrap_t : s.wrap_r) = v;
      return {};
    }
    case GL_TEXTURE_BORDER_COLOR:
      for (int i = 0; i < 4; ++i) {
        const double v = value_at(in, i);
        switch (in.kind) {
          case ParamKind::Float: s.border_color[i] = static_cast<float>(v); break;
          // TexParameteriv: converted to floating point as signed normalized integers (GL 4.6 §8.10, eq. 2.2).
          case ParamKind::Int: s.border_color[i] = static_cast<float>(std::max(v / 2147483647.0, -1.0)); break;
          default:
            s.border_integer[i] = static_cast<uint32_t>(static_cast<int64_t>(v));
            s.border_color[i] = static_cast<float>(v);
            break;
        }
      }
      s.border_is_integer = in.kind == ParamKind::IInt || in.kind == ParamKind::IUint;
      return {};
    case GL_TEXTURE_MIN_LOD: s.min_lod = static_cast<float>(value_at(in, 0)); return {};
    case GL_TEXTURE_MAX_LOD: s.max_lod = static_cast<float>(value_at(in, 0)); return {};
    case GL_TEXTURE_LOD_BIAS: s.lod_bias = static_cast<float>(value_at(in, 0)); return {};
    case GL_TEXTURE_COMPARE_MODE: {
      const GLenum v = enum_at(in, 0);
      if (v != GL_NONE && v != GL_COMPARE_REF_TO_TEXTURE) {
        return fail(GL_INVALID_ENUM, "invalid TEXTURE_COMPARE_MODE " + hex_of(v));
      }
      s.compare_mode = v;
      return {};
    }
    case GL_TEXTURE_COMPARE_FUNC: {
      const GLenum v = enum_at(in, 0);
      if (!valid_compare_func(v)) return fail(GL_INVALID_ENUM, "invalid TEXTURE_COMPARE_FUNC " + hex_of(v));
      s.compare_func = v;
      return {};
    }
    case GL_TEXTURE_MAX_ANISOTROPY: {
      // GL 4.6 §8.10: "An INVALID_VALUE error is generated if pname is TEXTURE_MAX_ANISOTROPY and param is less
      // than 1.0".
      const double v = value_at(in, 0);
      if (!(v >= 1.0)) return fail(GL_INVALID_VALUE, "TEXTURE_MAX_ANISOTROPY must be at least 1.0");
      s.max_anisotropy = static_cast<float>(v);
      return {};
    }
    case GL_TEXTURE_BASE_LEVEL:
    case GL_TEXTURE_MAX_LEVEL: {
      const double v = std::round(value_at(in, 0));
      // §8.10: "An INVALID_VALUE error is generated if pname is TEXTURE_BASE_LEVEL or TEXTURE_MAX_LEVEL, and
      // param or params is negative."
      if (v < 0) return fail(GL_INVALID_VALUE, "TEXTURE_BASE_LEVEL and TEXTURE_MAX_LEVEL must not be negative");
      // "An INVALID_OPERATION error is generated if the effective target is TEXTURE_2D_MULTISAMPLE,
      // TEXTURE_2D_MULTISAMPLE_ARRAY, or TEXTURE_RECTANGLE, and pname TEXTURE_BASE_LEVEL is set to a value other
      // than zero."
      if (pname == GL_TEXTURE_BASE_LEVEL && v != 0 && (rectangle || multisample)) {
        return fail(GL_INVALID_OPERATION, "this target's TEXTURE_BASE_LEVEL must be zero");
      }
      const auto level = static_cast<GLint>(std::min(v, 2147483647.0));
      (pname == GL_TEXTURE_BASE_LEVEL ? texture->base_level : texture->max_level) = level;
      return {};
    }
    case GL_TEXTURE_SWIZZLE_R:
    case GL_TEXTURE_SWIZZLE_G:
    case GL_TEXTURE_SWIZZLE_B:
    case GL_TEXTURE_SWIZZLE_A: {
      const GLenum v = enum_at(in, 0);
      if (!valid_swizzle(v)) return fail(GL_INVALID_ENUM, "invalid swizzle " + hex_of(v));
      swizzle_slot(*texture, pname) = v;
      return {};
    }
    case GL_TEXTURE_SWIZZLE_RGBA: {
      if (where.es) return fail(GL_INVALID_ENUM, "OpenGL ES has no TEXTURE_SWIZZLE_RGBA");
      for (int i = 0; i < 4; ++i) {
        if (!valid_swizzle(enum_at(in, i))) return fail(GL_INVALID_ENUM, "invalid swizzle " + hex_of(enum_at(in, i)));
      }
      for (int i = 0; i < 4; ++i) texture->swizzle[i] = enum_at(in, i);
      return {};
    }
    case GL_DEPTH_STENCIL_TEXTURE_MODE: {
      const GLenum v = enum_at(in, 0);
      if (v != GL_DEPTH_COMPONENT && v != GL_STENCIL_INDEX) {
        return fail(GL_INVALID_ENUM, "invalid DEPTH_STENCIL_TEXTURE_MODE " + hex_of(v));
      }
      texture->depth_stencil_mode = v;
      return {};
    }
    default: return fail(GL_INVALID_ENUM, hex_of(pname) + " is not a settable texture parameter");
  }
}

ParamError get_parameter(const ParamTarget& where, const TextureObject* t, const SamplerState& s, GLenum pname,
                         ParamOutput& out) {
  out.count = 1;
  auto one = [&](double v) {
    out.values[0] = v;
    return ParamError{};
  };
  if (t == nullptr && !is_sampler_pname(pname))
    return fail(GL_INVALID_ENUM, hex_of(pname) + " is not a sampler parameter");
  if (where.es && (pname == GL_TEXTURE_LOD_BIAS || pname == GL_TEXTURE_SWIZZLE_RGBA)) {
    return fail(GL_INVALID_ENUM, hex_of(pname) + " is not an OpenGL ES texture parameter");
  }
  switch (pname) {
    case GL_TEXTURE_MIN_FILTER: return one(s.min_filter);
    case GL_TEXTURE_MAG_FILTER: return one(s.mag_filter);
    case GL_TEXTURE_WRAP_S: return one(s.wrap_s);
    case GL_TEXTURE_WRAP_T: return one(s.wrap_t);
    case GL_TEXTURE_WRAP_R: return one(s.wrap_r);
    case GL_TEXTURE_BORDER_COLOR:
      out.count = 4;
      out.color = true;
      for (int i = 0; i < 4; ++i) {
        out.values[i] = s.border_color[i];
        out.integer_border[i] =
            s.border_is_integer ? s.border_integer[i] : static_cast<uint32_t>(static_cast<int64_t>(s.border_color[i]));
      }
      return {};
    case GL_TEXTURE_MIN_LOD: return one(s.min_lod);
    case GL_TEXTURE_MAX_LOD: return one(s.max_lod);
    case GL_TEXTURE_LOD_BIAS: return one(s.lod_bias);
    case GL_TEXTURE_COMPARE_MODE: return one(s.compare_mode);
    case GL_TEXTURE_COMPARE_FUNC: return one(s.compare_func);
    case GL_TEXTURE_MAX_ANISOTROPY: return one(s.max_anisotropy);
    case GL_TEXTURE_BASE_LEVEL: return one(t->base_level);
    case GL_TEXTURE_MAX_LEVEL: return one(t->max_level);
    case GL_TEXTURE_SWIZZLE_R:
    case GL_TEXTURE_SWIZZLE_G:
    case GL_TEXTURE_SWIZZLE_B:
    case GL_TEXTURE_SWIZZLE_A: return one(t->swizzle[pname - GL_TEXTURE_SWIZZLE_R]);
    case GL_TEXTURE_SWIZZLE_RGBA:
      out.count = 4;
      for (int i = 0; i < 4; ++i) out.values[i] = t->swizzle[i];
      return {};
    case GL_DEPTH_STENCIL_TEXTURE_MODE: return one(t->depth_stencil_mode);
    case GL_TEXTURE_IMMUTABLE_FORMAT: return one(t->immutable ? 1 : 0);
    case GL_TEXTURE_IMMUTABLE_LEVELS: return one(t->immutable_levels);
    case GL_TEXTURE_VIEW_MIN_LEVEL: return one(t->view_min_level);
    case GL_TEXTURE_VIEW_NUM_LEVELS: return one(t->view_num_levels);
    case GL_TEXTURE_VIEW_MIN_LAYER: return one(t->view_min_layer);
    case GL_TEXTURE_VIEW_NUM_LAYERS: return one(t->view_num_layers);
    case GL_TEXTURE_TARGET:
      if (where.es) break;
      return one(t->target);
    case GL_IMAGE_FORMAT_COMPATIBILITY_TYPE: {
      if (where.es) break;
      // GL 4.6 §8.11.2 / table 8.27: BY_SIZE for the image formats (textures.hpp), NONE otherwise.
      const TextureLevel* base = base_level_of(*t);
      const bool image = base != nullptr && base->format->image_class != ImageClass::None;
      return one(image ? GL_IMAGE_FORMAT_COMPATIBILITY_BY_SIZE : GL_NONE);
    }
    default: break;
  }
  return fail(GL_INVALID_ENUM, hex_of(pname) + " is not a texture parameter");
}

void write_parameter(const ParamOutput& out, ParamKind kind, void* params) {
  if (params == nullptr) return;
  for (int i = 0; i < out.count; ++i) {
    const double v = out.values[i];
    switch (kind) {
      case ParamKind::Float: static_cast<GLfloat*>(params)[i] = static_cast<GLfloat>(v); break;
      case ParamKind::Int:
        if (out.color) {
          // §2.2.2: a colour read as an integer is mapped from [-1, 1] to the full signed range.
          const double c = std::clamp(v, -1.0, 1.0) * 2147483647.0;
          static_cast<GLint*>(params)[i] = static_cast<GLint>(std::llround(c));
        } else {
          static_cast<GLint*>(params)[i] =
              static_cast<GLint>(std::clamp<double>(std::llround(v), INT32_MIN, INT32_MAX));
        }
        break;
      case ParamKind::IInt:
        static_cast<GLint*>(params)[i] =
            out.color ? static_cast<GLint>(out.integer_border[i])
                      : static_cast<GLint>(std::clamp<double>(std::llround(v), INT32_MIN, INT32_MAX));
        break;
      case ParamKind::IUint:
        static_cast<GLuint*>(params)[i] =
            out.color ? out.integer_border[i] : static_cast<GLuint>(std::clamp<double>(std::llround(v), 0, UINT32_MAX));
        break;
    }
  }
}

}  // namespace bismuth::gl
