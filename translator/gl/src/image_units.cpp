// Image units (GL 4.6 §8.26, OpenGL ES 3.2 §8.23): glBindImageTexture and glBindImageTextures. Whether a binding
// gives shaders access is image_unit_valid (textures.hpp), which dispatch asks.
#include "texture_access.hpp"

namespace bismuth::gl {
namespace {

// OpenGL ES 3.2 table 8.27: the image unit formats of OpenGL ES (a subset of desktop GL's table 8.26).
bool es_image_format(GLenum format) {
  switch (format) {
    case GL_RGBA32F:
    case GL_RGBA16F:
    case GL_R32F:
    case GL_RGBA32UI:
    case GL_RGBA16UI:
    case GL_RGBA8UI:
    case GL_R32UI:
    case GL_RGBA32I:
    case GL_RGBA16I:
    case GL_RGBA8I:
    case GL_R32I:
    case GL_RGBA8:
    case GL_RGBA8_SNORM: return true;
    default: return false;
  }
}

bool image_format(const Context* ctx, GLenum format) {
  const SizedFormat* f = find_sized_format(format);
  if (f == nullptr || f->image_class == ImageClass::None) return false;
  return !ctx->version.es || es_image_format(format);
}

// The texture of a name for image binding; null (no error) for zero.
bool image_texture(Context* ctx, GLuint name, GLenum error, const char* func, std::shared_ptr<TextureObject>& out) {
  out.reset();
  if (name == 0) return true;
  std::lock_guard lock(ctx->share->mutex);
  auto it = ctx->share->textures.find(name);
  if (it == ctx->share->textures.end()) {
    ctx->set_error(error, std::string(func) + ": " + std::to_string(name) + " is not an existing texture object");
    return false;
  }
  out = it->second;
  return true;
}

}  // namespace
}  // namespace bismuth::gl

using namespace bismuth::gl;

extern "C" {

GLAPI void APIENTRY glBindImageTexture(GLuint unit, GLuint texture, GLint level, GLboolean layered, GLint layer,
                                       GLenum access, GLenum format) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  constexpr const char* func = "glBindImageTexture";
  // GL 4.6 §8.26: "An INVALID_VALUE error is generated if unit is greater than or equal to the value of
  // MAX_IMAGE_UNITS, if texture is not the name of an existing texture object, or if level or layer is
  // negative"; "An INVALID_ENUM error is generated if access ... is not READ_ONLY, WRITE_ONLY, or READ_WRITE";
  // "An INVALID_VALUE error is generated if format is not one of the formats listed in table 8.26".
  if (unit >= ctx->image_units.size()) {
    ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": unit " + std::to_string(unit) +
                                         " is not below MAX_IMAGE_UNITS (" + std::to_string(ctx->image_units.size()) +
                                         ")");
    return;
  }
  std::shared_ptr<TextureObject> t;
  if (!image_texture(ctx, texture, GL_INVALID_VALUE, func, t)) return;
  if (level < 0 || layer < 0) {
    ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": level and layer must not be negative");
    return;
  }
  if (access != GL_READ_ONLY && access != GL_WRITE_ONLY && access != GL_READ_WRITE) {
    ctx->set_error(GL_INVALID_ENUM, std::string(func) + ": invalid access " + hex(access));
    return;
  }
  if (!image_format(ctx, format)) {
    ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": " + hex(format) + " is not an image unit format");
    return;
  }
  // OpenGL ES 3.2 §8.23: "An INVALID_OPERATION error is generated if texture is not the name of an immutable
  // texture object."
  if (t && ctx->version.es && !t->immutable) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": OpenGL ES binds immutable textures only");
    return;
  }
  ImageUnit& u = ctx->image_units[unit];
  if (!t) {
    u = ImageUnit{};  // "If texture is zero, ... the image unit's state is reset to its initial values"
    return;
  }
  u.texture = std::move(t);
  u.level = level;
  u.layered = layered != GL_FALSE;
  u.layer = layer;
  u.access = access;
  u.format = format;
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glBindImageTextures(GLuint first, GLsizei count, const GLuint* textures) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  constexpr const char* func = "glBindImageTextures";
  // GL 4.6 §8.26: "An INVALID_OPERATION error is generated if first + count is greater than the number of image
  // units"; per texture, INVALID_OPERATION when it is not zero or an existing texture, or its internal format is
  // not in table 8.26 (that unit keeps its binding, the others are still updated). Each binding is level 0,
  // layered TRUE, layer 0, READ_WRITE, the texture's internal format.
  if (count < 0) {
    ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": count is negative");
    return;
  }
  if (static_cast<uint64_t>(first) + static_cast<uint64_t>(count) > ctx->image_units.size()) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": first + count is greater than MAX_IMAGE_UNITS");
    return;
  }
  for (GLsizei i = 0; i < count; ++i) {
    ImageUnit& u = ctx->image_units[first + static_cast<GLuint>(i)];
    std::shared_ptr<TextureObject> t;
    if (!image_texture(ctx, textures != nullptr ? textures[i] : 0, GL_INVALID_OPERATION, func, t)) continue;
    if (!t) {
      u = ImageUnit{};
      continue;
    }
    const TextureLevel& level0 = t->levels.empty() ? TextureLevel{} : t->levels[0][0];
    // Compressed levels are stored decoded: their format row is an image format, their internal format is not.
    if (!level0.defined() || !image_format(ctx, level0.format->internalformat) || is_compressed_level(level0)) {
      ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": texture " + std::to_string(t->name) +
                                               " has no level 0 of an image unit format");
      continue;
    }
    u = ImageUnit{t, 0, true, 0, GL_READ_WRITE, level0.format->internalformat};
  }
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

}  // extern "C"
