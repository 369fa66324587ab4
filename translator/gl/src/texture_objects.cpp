// Texture objects (GL 4.6 §8.1, OpenGL ES 3.2 §8.1): names, creation, deletion, glBindTexture and the texture
// units (glActiveTexture, glBindTextures, glBindTextureUnit). A name from glGenTextures has no object until it is
// first bound, which fixes the object's target; glCreateTextures makes the object with its target at once. Each
// target of each context has a default texture, name 0.
#include <string>

#include "framebuffers.hpp"
#include "texture_access.hpp"

namespace bismuth::gl {
namespace {

// Levels a texture records per face: more than log2 of any Vulkan device's largest image dimension + 1.
constexpr size_t kMaxLevels = 20;

std::shared_ptr<TextureObject> make_texture(GLuint name, GLenum target) {
  auto t = std::make_shared<TextureObject>();
  t->name = name;
  t->target = target;
  t->levels.assign(face_count(target), std::vector<TextureLevel>(kMaxLevels));
  // §8.14 / table 23.16: a rectangle texture's initial minification filter is LINEAR and its wrap modes
  // CLAMP_TO_EDGE (its REPEAT and mipmap filters are errors).
  if (target == GL_TEXTURE_RECTANGLE) {
    t->sampler.min_filter = GL_LINEAR;
    t->sampler.wrap_s = t->sampler.wrap_t = t->sampler.wrap_r = GL_CLAMP_TO_EDGE;
  }
  return t;
}

int checked_target(Context* ctx, GLenum target, const char* func) {
  const int index = target_index(target, ctx->version.es, ctx->version.minor);
  if (index < 0) ctx->set_error(GL_INVALID_ENUM, std::string(func) + ": invalid texture target " + hex(target));
  return index;
}

// glBindTexture's object for `name`: the existing object, or a new one for a generated name (OpenGL ES: for any
// unused name, ES 3.2 §8.1 has no error for it). Null and an error otherwise.
std::shared_ptr<TextureObject> object_for_bind(Context* ctx, GLenum target, GLuint name, const char* func) {
  std::lock_guard lock(ctx->share->mutex);
  auto it = ctx->share->textures.find(name);
  if (it != ctx->share->textures.end()) {
    if (it->second->target != target) {
      ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": texture " + std::to_string(name) + " is a " +
                                               target_name(it->second->target) + " texture, not " +
                                               target_name(target));
      return nullptr;
    }
    return it->second;
  }
  // GL 4.6 §8.1: "An INVALID_OPERATION error is generated if texture is not zero or a name returned from a
  // previous call to GenTextures, or if such a name has since been deleted."
  if (!ctx->share->texture_names.count(name) && !ctx->version.es) {
    ctx->set_error(GL_INVALID_OPERATION,
                   std::string(func) + ": " + std::to_string(name) + " is not a name returned by glGenTextures");
    return nullptr;
  }
  auto t = make_texture(name, target);
  ctx->share->texture_names.insert(name);
  ctx->share->textures[name] = t;
  if (name >= ctx->share->next_texture) ctx->share->next_texture = name + 1;
  return t;
}

std::shared_ptr<TextureObject> default_texture(Context* ctx, int index) {
  auto& slot = ctx->default_textures[static_cast<size_t>(index)];
  if (!slot) slot = make_texture(0, target_of_index(index));
  return slot;
}

// Binds `t` (null: the default texture) to its target's slot of `unit`.
void bind_to_unit(TextureUnit& unit, int index, std::shared_ptr<TextureObject> t) {
  unit.textures[static_cast<size_t>(index)] = std::move(t);
}

}  // namespace

std::shared_ptr<TextureObject> bound_texture(Context* ctx, GLenum target, bool faces, const char* func) {
  GLenum object_target = target;
  if (faces && is_cube_face(target)) object_target = GL_TEXTURE_CUBE_MAP;
  const int index = target_index(object_target, ctx->version.es, ctx->version.minor);
  if (index < 0 || (!faces && is_cube_face(target))) {
    ctx->set_error(GL_INVALID_ENUM, std::string(func) + ": invalid texture target " + hex(target));
    return nullptr;
  }
  auto& bound = ctx->texture_units[ctx->active_texture].textures[static_cast<size_t>(index)];
  return bound ? bound : default_texture(ctx, index);
}

std::shared_ptr<TextureObject> named_texture(Context* ctx, GLuint name, const char* func) {
  std::lock_guard lock(ctx->share->mutex);
  auto it = ctx->share->textures.find(name);
  if (name == 0 || it == ctx->share->textures.end()) {
    ctx->set_error(GL_INVALID_OPERATION,
                   std::string(func) + ": " + std::to_string(name) + " is not the name of an existing texture object");
    return nullptr;
  }
  return it->second;
}

}  // namespace bismuth::gl

using namespace bismuth::gl;

extern "C" {

GLAPI void APIENTRY glGenTextures(GLsizei n, GLuint* textures) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (n < 0) {
    ctx->set_error(GL_INVALID_VALUE, "glGenTextures: n is negative");
    return;
  }
  std::lock_guard lock(ctx->share->mutex);
  for (GLsizei i = 0; i < n; ++i) {
    GLuint name = ctx->share->next_texture++;
    while (ctx->share->texture_names.count(name)) name = ctx->share->next_texture++;
    ctx->share->texture_names.insert(name);
    if (textures) textures[i] = name;
  }
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glCreateTextures(GLenum target, GLsizei n, GLuint* textures) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  // GL 4.6 §8.1: "An INVALID_ENUM error is generated if target is not one of the allowable values" (table 8.2).
  if (checked_target(ctx, target, "glCreateTextures") < 0) return;
  if (n < 0) {
    ctx->set_error(GL_INVALID_VALUE, "glCreateTextures: n is negative");
    return;
  }
  std::lock_guard lock(ctx->share->mutex);
  for (GLsizei i = 0; i < n; ++i) {
    GLuint name = ctx->share->next_texture++;
    while (ctx->share->texture_names.count(name)) name = ctx->share->next_texture++;
    ctx->share->texture_names.insert(name);
    ctx->share->textures[name] = make_texture(name, target);
    if (textures) textures[i] = name;
  }
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glDeleteTextures(GLsizei n, const GLuint* textures) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (n < 0) {
    ctx->set_error(GL_INVALID_VALUE, "glDeleteTextures: n is negative");
    return;
  }
  for (GLsizei i = 0; i < n && textures != nullptr; ++i) {
    const GLuint name = textures[i];
    if (name == 0) continue;  // "unused names and zero are silently ignored"
    std::shared_ptr<TextureObject> t;
    {
      std::lock_guard lock(ctx->share->mutex);
      auto it = ctx->share->textures.find(name);
      if (it != ctx->share->textures.end()) t = it->second;
      ctx->share->textures.erase(name);
      ctx->share->texture_names.erase(name);
    }
    if (!t) continue;
    // GL 4.6 §8.1: "If a texture that is currently bound to any of the target bindings of BindTexture is deleted,
    // it is as though BindTexture had been executed with the same target and texture zero"; and "a texture object
    // bound to one or more image units ... is unbound from each image unit, as though BindImageTexture were
    // called with unit and texture zero" (§8.26) — in the current context (other contexts keep their bindings,
    // §5.1.2).
    for (TextureUnit& unit : ctx->texture_units) {
      for (auto& slot : unit.textures) {
        if (slot == t) slot.reset();
      }
    }
    for (ImageUnit& unit : ctx->image_units) {
      if (unit.texture == t) unit = ImageUnit{};
    }
    detach_deleted_texture(ctx, t.get());  // §9.2.8: detached from the bound framebuffers (framebuffers.hpp)
  }
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI GLboolean APIENTRY glIsTexture(GLuint texture) {
  BISMUTH_GL_BEGIN(GL_FALSE)
  std::lock_guard lock(ctx->share->mutex);
  return ctx->share->textures.count(texture) ? GL_TRUE : GL_FALSE;
  BISMUTH_GL_END(GL_FALSE)
}

GLAPI void APIENTRY glActiveTexture(GLenum texture) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  // GL 4.6 §8.1: "An INVALID_ENUM error is generated if an invalid texture is specified": TEXTURE0 + i, i below
  // MAX_COMBINED_TEXTURE_IMAGE_UNITS.
  if (texture < GL_TEXTURE0 || texture - GL_TEXTURE0 >= ctx->texture_units.size()) {
    ctx->set_error(GL_INVALID_ENUM, "glActiveTexture: " + hex(texture) + " is not GL_TEXTURE0 + i with i below " +
                                        std::to_string(ctx->texture_units.size()));
    return;
  }
  ctx->active_texture = texture - GL_TEXTURE0;
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glBindTexture(GLenum target, GLuint texture) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  const int index = checked_target(ctx, target, "glBindTexture");
  if (index < 0) return;
  TextureUnit& unit = ctx->texture_units[ctx->active_texture];
  if (texture == 0) {
    bind_to_unit(unit, index, nullptr);
    return;
  }
  auto t = object_for_bind(ctx, target, texture, "glBindTexture");
  if (t) bind_to_unit(unit, index, std::move(t));
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glBindTextureUnit(GLuint unit, GLuint texture) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  // GL 4.6 §8.1: "An INVALID_VALUE error is generated if unit is greater than or equal to the value of
  // MAX_COMBINED_TEXTURE_IMAGE_UNITS"; "An INVALID_OPERATION error is generated if texture is not zero or the name
  // of an existing texture object."
  if (unit >= ctx->texture_units.size()) {
    ctx->set_error(GL_INVALID_VALUE, "glBindTextureUnit: unit " + std::to_string(unit) +
                                         " is not below MAX_COMBINED_TEXTURE_IMAGE_UNITS");
    return;
  }
  if (texture == 0) {
    // "If texture is zero, each of the targets ... is reset to its default texture."
    for (auto& slot : ctx->texture_units[unit].textures) slot.reset();
    return;
  }
  auto t = named_texture(ctx, texture, "glBindTextureUnit");
  if (!t) return;
  bind_to_unit(ctx->texture_units[unit], target_index(t->target, false, 2), t);
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glBindTextures(GLuint first, GLsizei count, const GLuint* textures) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  // GL 4.6 §8.1: "An INVALID_OPERATION error is generated if first + count is greater than the number of texture
  // image units"; each name that is not zero or an existing texture is an INVALID_OPERATION error for that unit
  // only: "the binding points of the other units are still updated".
  if (count < 0) {
    ctx->set_error(GL_INVALID_VALUE, "glBindTextures: count is negative");
    return;
  }
  if (static_cast<uint64_t>(first) + static_cast<uint64_t>(count) > ctx->texture_units.size()) {
    ctx->set_error(GL_INVALID_OPERATION, "glBindTextures: first + count is greater than the number of texture units (" +
                                             std::to_string(ctx->texture_units.size()) + ")");
    return;
  }
  for (GLsizei i = 0; i < count; ++i) {
    TextureUnit& unit = ctx->texture_units[first + static_cast<GLuint>(i)];
    const GLuint name = textures != nullptr ? textures[i] : 0;
    if (name == 0) {
      for (auto& slot : unit.textures) slot.reset();
      continue;
    }
    auto t = named_texture(ctx, name, "glBindTextures");
    if (t) bind_to_unit(unit, target_index(t->target, false, 2), t);
  }
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

}  // extern "C"
