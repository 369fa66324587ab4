// Framebuffer objects (GL 4.6 §9.2 - §9.4, §17.4.1, §18.2.1; OpenGL ES 3.2 chapter 9): names, binding, texture
// attachments, completeness, draw and read buffers, framebuffer parameters and the queries (framebuffers.hpp).
#include <algorithm>
#include <bit>

#include "framebuffers.hpp"
#include "pixel_transfer.hpp"
#include "texture_multisample.hpp"

namespace bismuth::gl {
namespace {

std::shared_ptr<FramebufferObject>* binding_slot(Context* ctx, GLenum target) {
  switch (target) {
    case GL_FRAMEBUFFER:
    case GL_DRAW_FRAMEBUFFER: return &ctx->draw_framebuffer;
    case GL_READ_FRAMEBUFFER: return &ctx->read_framebuffer;
    default: return nullptr;
  }
}

// The DSA forms: GL 4.6 §9.2: "An INVALID_OPERATION error is generated if framebuffer is not zero or the name of
// an existing framebuffer object" (zero: the default framebuffer, null here with `ok` true).
FramebufferObject* named_framebuffer(Context* ctx, GLuint name, const char* func, bool& ok) {
  ok = true;
  if (name == 0) return nullptr;
  auto it = ctx->framebuffers.find(name);
  if (it == ctx->framebuffers.end() || !it->second) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": " + std::to_string(name) +
                                             " is not the name of an existing framebuffer object");
    ok = false;
    return nullptr;
  }
  return it->second.get();
}

// The attachment point an enum names, null (with the error set) when none: GL 4.6 §9.2.7: "An INVALID_OPERATION
// error is generated if attachment is COLOR_ATTACHMENTm where m is greater than or equal to the value of
// MAX_COLOR_ATTACHMENTS"; any other enum outside table 9.2 is INVALID_ENUM. DEPTH_STENCIL_ATTACHMENT returns the
// depth point (the caller sets both).
FramebufferAttachment* attachment_point(Context* ctx, FramebufferObject& fb, GLenum attachment, const char* func) {
  if (attachment >= GL_COLOR_ATTACHMENT0 && attachment <= GL_COLOR_ATTACHMENT31) {
    const uint32_t i = attachment - GL_COLOR_ATTACHMENT0;
    if (i >= kMaxColorAttachments) {
      ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": COLOR_ATTACHMENT" + std::to_string(i) +
                                               " is not below MAX_COLOR_ATTACHMENTS (8)");
      return nullptr;
    }
    return &fb.color[i];
  }
  if (attachment == GL_DEPTH_ATTACHMENT || attachment == GL_DEPTH_STENCIL_ATTACHMENT) return &fb.depth;
  if (attachment == GL_STENCIL_ATTACHMENT) return &fb.stencil;
  ctx->set_error(GL_INVALID_ENUM, std::string(func) + ": invalid attachment " + hex(attachment));
  return nullptr;
}

// GL 4.6 §9.2.8: "An INVALID_VALUE error is generated if ... level is greater than the log2 of the largest
// texture size for the target" (rectangle and multisample textures: level must be 0), or negative.
bool level_ok(Context* ctx, const TextureObject& t, GLint level, const char* func) {
  const TextureSizeLimits limits = texture_size_limits(*ctx->device_state.device);
  uint32_t max_size = limits.max_texture_size;
  if (t.target == GL_TEXTURE_3D) max_size = limits.max_3d_size;
  if (t.target == GL_TEXTURE_CUBE_MAP || t.target == GL_TEXTURE_CUBE_MAP_ARRAY) max_size = limits.max_cube_size;
  const auto max_level = static_cast<GLint>(std::bit_width(max_size) - 1);
  if (level < 0 || level > max_level || (!has_mipmaps(t.target) && level != 0)) {
    ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": invalid level " + std::to_string(level) + " for a " +
                                         target_name(t.target) + " texture");
    return false;
  }
  return true;
}

// glFramebufferTexture*'s common part: `texture` 0 detaches. `textarget` is GL_NONE for the forms without one.
enum class AttachKind { Texture, Texture1D, Texture2D, Texture3D, Layer };

void attach(Context* ctx, FramebufferObject* fb, GLenum attachment, AttachKind kind, GLenum textarget, GLuint texture,
            GLint level, GLint layer, const char* func) {
  // §9.2.8: "An INVALID_OPERATION error is generated if zero is bound to target" (the default framebuffer).
  if (fb == nullptr) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": the default framebuffer is bound to target");
    return;
  }
  FramebufferAttachment* point = attachment_point(ctx, *fb, attachment, func);
  if (point == nullptr) return;
  // FramebufferTexture1D/2D/3D: "An INVALID_ENUM error is generated if textarget is not" one of the targets each
  // takes (1D: TEXTURE_1D; 2D: 2D, RECTANGLE, 2D_MULTISAMPLE, the cube map faces; 3D: TEXTURE_3D), checked when
  // texture is not zero as well.
  if (kind == AttachKind::Texture1D || kind == AttachKind::Texture2D || kind == AttachKind::Texture3D) {
    bool ok = false;
    if (kind == AttachKind::Texture1D) ok = textarget == GL_TEXTURE_1D && !ctx->version.es;
    if (kind == AttachKind::Texture3D) ok = textarget == GL_TEXTURE_3D && !ctx->version.es;
    if (kind == AttachKind::Texture2D) {
      ok = textarget == GL_TEXTURE_2D || is_cube_face(textarget) || textarget == GL_TEXTURE_2D_MULTISAMPLE ||
           (textarget == GL_TEXTURE_RECTANGLE && !ctx->version.es);
    }
    if (!ok && texture != 0) {
      ctx->set_error(GL_INVALID_ENUM, std::string(func) + ": invalid textarget " + hex(textarget));
      return;
    }
  }
  FramebufferAttachment next;
  if (texture != 0) {
    std::shared_ptr<TextureObject> t;
    {
      std::lock_guard lock(ctx->share->mutex);
      auto it = ctx->share->textures.find(texture);
      if (it != ctx->share->textures.end()) t = it->second;
    }
    // §9.2.8: "An INVALID_OPERATION error is generated if texture is not zero or the name of an existing texture
    // object" (a name from GenTextures that was never bound is not an object yet).
    if (!t || t->target == GL_NONE) {
      ctx->set_error(GL_INVALID_OPERATION,
                     std::string(func) + ": " + std::to_string(texture) + " is not the name of an existing texture");
      return;
    }
    if (t->target == GL_TEXTURE_BUFFER) {
      ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": buffer textures cannot be attached");
      return;
    }
    // "An INVALID_OPERATION error is generated if textarget is not compatible with texture's target" (a cube map
    // face for a cube map texture, else the same target).
    if (kind == AttachKind::Texture1D || kind == AttachKind::Texture2D || kind == AttachKind::Texture3D) {
      const GLenum expect = is_cube_face(textarget) ? GL_TEXTURE_CUBE_MAP : textarget;
      if (t->target != expect) {
        ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": textarget " + hex(textarget) +
                                                 " does not match the texture's target " + target_name(t->target));
        return;
      }
    }
    if (kind == AttachKind::Layer) {
      // §9.2.8 FramebufferTextureLayer: "An INVALID_OPERATION error is generated if texture is not the name of a
      // three-dimensional, two-dimensional multisample array, one- or two-dimensional array, or cube map array
      // texture" (GL 4.6 also takes a cube map, its layers the faces).
      switch (t->target) {
        case GL_TEXTURE_3D:
        case GL_TEXTURE_1D_ARRAY:
        case GL_TEXTURE_2D_ARRAY:
        case GL_TEXTURE_CUBE_MAP_ARRAY:
        case GL_TEXTURE_2D_MULTISAMPLE_ARRAY:
        case GL_TEXTURE_CUBE_MAP: break;
        default:
          ctx->set_error(GL_INVALID_OPERATION,
                         std::string(func) + ": a " + std::string(target_name(t->target)) + " texture has no layers");
          return;
      }
    }
    if (!level_ok(ctx, *t, level, func)) return;
    if (kind == AttachKind::Layer || kind == AttachKind::Texture3D) {
      // "An INVALID_VALUE error is generated if texture is a three-dimensional texture and layer is larger than
      // the value of MAX_3D_TEXTURE_SIZE minus one; ... an array texture and layer is larger than
      // MAX_ARRAY_TEXTURE_LAYERS minus one"; and if layer is negative.
      const TextureSizeLimits limits = texture_size_limits(*ctx->device_state.device);
      const uint32_t max = t->target == GL_TEXTURE_3D         ? limits.max_3d_size
                           : t->target == GL_TEXTURE_CUBE_MAP ? 6
                                                              : limits.max_array_layers;
      if (layer < 0 || static_cast<uint32_t>(layer) >= max) {
        ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": invalid layer " + std::to_string(layer));
        return;
      }
    }
    next.texture = std::move(t);
    next.level = level;
    if (kind == AttachKind::Texture2D && is_cube_face(textarget)) next.face = face_index(textarget);
    if (kind == AttachKind::Layer || kind == AttachKind::Texture3D) next.layer = layer;
    if (kind == AttachKind::Texture) {
      // §9.8 "Layered Framebuffers": FramebufferTexture of a 3D, array or cube map texture attaches all layers.
      const GLenum tt = next.texture->target;
      next.layered = tt == GL_TEXTURE_3D || is_array(tt) || tt == GL_TEXTURE_CUBE_MAP;
    }
  }
  *point = next;
  if (attachment == GL_DEPTH_STENCIL_ATTACHMENT) fb->stencil = next;
}

// glFramebufferRenderbuffer (GL 4.6 §9.2.7): `renderbuffer` 0 detaches.
void attach_renderbuffer(Context* ctx, FramebufferObject* fb, GLenum attachment, GLenum renderbuffertarget,
                         GLuint renderbuffer, const char* func) {
  // "An INVALID_ENUM error is generated if renderbuffertarget is not RENDERBUFFER"; "An INVALID_OPERATION error is
  // generated if zero is bound to target"; "... if renderbuffer is not zero or the name of an existing
  // renderbuffer object" (a generated name never bound is not an object yet).
  if (renderbuffertarget != GL_RENDERBUFFER) {
    ctx->set_error(GL_INVALID_ENUM, std::string(func) + ": renderbuffertarget must be RENDERBUFFER");
    return;
  }
  if (fb == nullptr) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": the default framebuffer is bound to target");
    return;
  }
  FramebufferAttachment* point = attachment_point(ctx, *fb, attachment, func);
  if (point == nullptr) return;
  FramebufferAttachment next;
  if (renderbuffer != 0) {
    std::lock_guard lock(ctx->share->mutex);
    auto it = ctx->share->renderbuffers.find(renderbuffer);
    if (it == ctx->share->renderbuffers.end() || !it->second) {
      ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": " + std::to_string(renderbuffer) +
                                               " is not the name of an existing renderbuffer object");
      return;
    }
    next.renderbuffer = it->second;
  }
  *point = next;
  if (attachment == GL_DEPTH_STENCIL_ATTACHMENT) fb->stencil = next;
}

const char* status_name(GLenum s) {
  switch (s) {
    case GL_FRAMEBUFFER_COMPLETE: return "FRAMEBUFFER_COMPLETE";
    case GL_FRAMEBUFFER_UNDEFINED: return "FRAMEBUFFER_UNDEFINED";
    case GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT: return "FRAMEBUFFER_INCOMPLETE_ATTACHMENT";
    case GL_FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT: return "FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT";
    case GL_FRAMEBUFFER_INCOMPLETE_DRAW_BUFFER: return "FRAMEBUFFER_INCOMPLETE_DRAW_BUFFER";
    case GL_FRAMEBUFFER_INCOMPLETE_READ_BUFFER: return "FRAMEBUFFER_INCOMPLETE_READ_BUFFER";
    case GL_FRAMEBUFFER_UNSUPPORTED: return "FRAMEBUFFER_UNSUPPORTED";
    case GL_FRAMEBUFFER_INCOMPLETE_MULTISAMPLE: return "FRAMEBUFFER_INCOMPLETE_MULTISAMPLE";
    case GL_FRAMEBUFFER_INCOMPLETE_LAYER_TARGETS: return "FRAMEBUFFER_INCOMPLETE_LAYER_TARGETS";
    default: return "?";
  }
}

GLenum check_status(Context* ctx, FramebufferObject* fb, const char* func) {
  std::string why;
  const GLenum s = framebuffer_status(*ctx, fb, &why);
  if (s != GL_FRAMEBUFFER_COMPLETE) {
    ctx->debug(GL_DEBUG_SOURCE_API, GL_DEBUG_TYPE_OTHER, 0, GL_DEBUG_SEVERITY_NOTIFICATION,
               std::string(func) + ": " + status_name(s) + ": " + why);
  }
  return s;
}

// A draw or read buffer value of a framebuffer object: NONE or COLOR_ATTACHMENTi. §17.4.1: "An INVALID_OPERATION
// error is generated if ... any value in bufs is ... COLOR_ATTACHMENTm where m is greater than or equal to the value
// of MAX_COLOR_ATTACHMENTS"; "An INVALID_ENUM error is generated if any value in bufs is not one of the values in
// tables 17.5 or 17.6" — the default framebuffer's values (FRONT, BACK_LEFT ...) are INVALID_OPERATION for a
// framebuffer object.
bool fbo_buffer_ok(Context* ctx, GLenum buf, const char* func) {
  if (buf == GL_NONE) return true;
  if (buf >= GL_COLOR_ATTACHMENT0 && buf <= GL_COLOR_ATTACHMENT31) {
    if (buf - GL_COLOR_ATTACHMENT0 < kMaxColorAttachments) return true;
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": " + hex(buf) + " is not below MAX_COLOR_ATTACHMENTS");
    return false;
  }
  switch (buf) {
    case GL_FRONT_LEFT:
    case GL_FRONT_RIGHT:
    case GL_BACK_LEFT:
    case GL_BACK_RIGHT:
    case GL_FRONT:
    case GL_BACK:
    case GL_LEFT:
    case GL_RIGHT:
    case GL_FRONT_AND_BACK:
      ctx->set_error(GL_INVALID_OPERATION,
                     std::string(func) + ": " + hex(buf) + " names a default-framebuffer buffer, not an attachment");
      return false;
    default: ctx->set_error(GL_INVALID_ENUM, std::string(func) + ": invalid buffer " + hex(buf)); return false;
  }
}

// The default framebuffer does not exist: only NONE is a valid buffer (GL 4.6 §17.4.1 "If the GL is bound to the
// default framebuffer and ... buf names a buffer that does not exist", INVALID_OPERATION).
bool default_buffer_ok(Context* ctx, GLenum buf, const char* func) {
  if (buf == GL_NONE) return true;
  if (buf >= GL_COLOR_ATTACHMENT0 && buf <= GL_COLOR_ATTACHMENT31) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": the default framebuffer has no color attachments");
    return false;
  }
  switch (buf) {
    case GL_FRONT_LEFT:
    case GL_FRONT_RIGHT:
    case GL_BACK_LEFT:
    case GL_BACK_RIGHT:
    case GL_FRONT:
    case GL_BACK:
    case GL_LEFT:
    case GL_RIGHT:
    case GL_FRONT_AND_BACK:
      ctx->set_error(GL_INVALID_OPERATION, std::string(func) +
                                               ": the context has no default framebuffer (surfaceless): " + hex(buf) +
                                               " does not exist");
      return false;
    default: ctx->set_error(GL_INVALID_ENUM, std::string(func) + ": invalid buffer " + hex(buf)); return false;
  }
}

void draw_buffers(Context* ctx, FramebufferObject* fb, GLsizei n, const GLenum* bufs, const char* func) {
  // §17.4.1: "An INVALID_VALUE error is generated if n is negative, or greater than the value of
  // MAX_DRAW_BUFFERS"; "An INVALID_OPERATION error is generated if a buffer other than NONE is specified more than
  // once".
  if (n < 0 || static_cast<uint32_t>(n) > kMaxColorAttachments) {
    ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": n " + std::to_string(n) + " is outside [0, 8]");
    return;
  }
  if (n > 0 && bufs == nullptr) return;
  for (GLsizei i = 0; i < n; ++i) {
    if (!(fb ? fbo_buffer_ok(ctx, bufs[i], func) : default_buffer_ok(ctx, bufs[i], func))) return;
    // ES 3.2 §15.2.1: "If the GL is bound to a framebuffer object, the ith buffer listed in bufs must be
    // COLOR_ATTACHMENTi or NONE", INVALID_OPERATION otherwise.
    if (ctx->version.es && bufs[i] != GL_NONE && bufs[i] != GL_COLOR_ATTACHMENT0 + static_cast<GLenum>(i)) {
      ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": OpenGL ES: bufs[" + std::to_string(i) +
                                               "] must be COLOR_ATTACHMENT" + std::to_string(i) + " or NONE");
      return;
    }
    for (GLsizei j = 0; j < i; ++j) {
      if (bufs[i] != GL_NONE && bufs[j] == bufs[i]) {
        ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": " + hex(bufs[i]) + " is named twice");
        return;
      }
    }
  }
  if (fb == nullptr) return;  // only NONE reaches here: the default framebuffer's buffers stay NONE
  fb->draw_buffers.fill(GL_NONE);
  for (GLsizei i = 0; i < n; ++i) fb->draw_buffers[static_cast<size_t>(i)] = bufs[i];
}

void read_buffer(Context* ctx, FramebufferObject* fb, GLenum src, const char* func) {
  // §18.2.1: "An INVALID_ENUM error is generated if src is not one of the values in tables 17.4 or 17.5";
  // "An INVALID_OPERATION error is generated if the GL is bound to ... a framebuffer object and src is ... a
  // default-framebuffer buffer, or COLOR_ATTACHMENTm where m >= MAX_COLOR_ATTACHMENTS".
  if (!(fb ? fbo_buffer_ok(ctx, src, func) : default_buffer_ok(ctx, src, func))) return;
  if (fb) fb->read_buffer = src;
}

void set_parameter(Context* ctx, FramebufferObject* fb, GLenum pname, GLint param, const char* func) {
  if (fb == nullptr) {
    // §9.2.1: "An INVALID_OPERATION error is generated by FramebufferParameteri if the default framebuffer is
    // bound to target".
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": the default framebuffer is bound");
    return;
  }
  // "An INVALID_VALUE error is generated if pname is FRAMEBUFFER_DEFAULT_WIDTH and param is less than zero or
  // greater than the value of MAX_FRAMEBUFFER_WIDTH" (height, layers, samples alike).
  auto in_range = [&](uint32_t max) {
    if (param >= 0 && static_cast<uint32_t>(param) <= max) return true;
    ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": " + std::to_string(param) + " is outside [0, " +
                                         std::to_string(max) + "] for " + hex(pname));
    return false;
  };
  switch (pname) {
    case GL_FRAMEBUFFER_DEFAULT_WIDTH:
      if (in_range(kMaxFramebufferSize)) fb->default_width = param;
      return;
    case GL_FRAMEBUFFER_DEFAULT_HEIGHT:
      if (in_range(kMaxFramebufferSize)) fb->default_height = param;
      return;
    case GL_FRAMEBUFFER_DEFAULT_LAYERS:
      if (in_range(kMaxFramebufferLayers)) fb->default_layers = param;
      return;
    case GL_FRAMEBUFFER_DEFAULT_SAMPLES:
      if (in_range(kMaxFramebufferSamples)) fb->default_samples = param;
      return;
    case GL_FRAMEBUFFER_DEFAULT_FIXED_SAMPLE_LOCATIONS: fb->default_fixed_sample_locations = param != 0; return;
    default: ctx->set_error(GL_INVALID_ENUM, std::string(func) + ": invalid pname " + hex(pname)); return;
  }
}

void get_parameter(Context* ctx, FramebufferObject* fb, GLenum pname, GLint* out, const char* func) {
  // GL 4.6 §9.2.3: the FRAMEBUFFER_DEFAULT_* of a framebuffer object, and SAMPLES, SAMPLE_BUFFERS,
  // IMPLEMENTATION_COLOR_READ_FORMAT/TYPE, DOUBLEBUFFER, STEREO of either; "An INVALID_OPERATION error is generated
  // if a default framebuffer is queried, and pname is not one of DOUBLEBUFFER, IMPLEMENTATION_COLOR_READ_FORMAT,
  // IMPLEMENTATION_COLOR_READ_TYPE, SAMPLES, SAMPLE_BUFFERS or STEREO".
  GLint v = 0;
  switch (pname) {
    case GL_FRAMEBUFFER_DEFAULT_WIDTH:
    case GL_FRAMEBUFFER_DEFAULT_HEIGHT:
    case GL_FRAMEBUFFER_DEFAULT_LAYERS:
    case GL_FRAMEBUFFER_DEFAULT_SAMPLES:
    case GL_FRAMEBUFFER_DEFAULT_FIXED_SAMPLE_LOCATIONS:
      if (fb == nullptr) {
        ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": the default framebuffer has no " + hex(pname));
        return;
      }
      v = pname == GL_FRAMEBUFFER_DEFAULT_WIDTH     ? fb->default_width
          : pname == GL_FRAMEBUFFER_DEFAULT_HEIGHT  ? fb->default_height
          : pname == GL_FRAMEBUFFER_DEFAULT_LAYERS  ? fb->default_layers
          : pname == GL_FRAMEBUFFER_DEFAULT_SAMPLES ? fb->default_samples
                                                    : fb->default_fixed_sample_locations;
      break;
    case GL_DOUBLEBUFFER:
    case GL_STEREO: v = 0; break;
    case GL_SAMPLES: v = static_cast<GLint>(framebuffer_samples(*ctx, fb)); break;
    case GL_SAMPLE_BUFFERS: v = framebuffer_samples(*ctx, fb) > 0 ? 1 : 0; break;
    case GL_IMPLEMENTATION_COLOR_READ_FORMAT:
    case GL_IMPLEMENTATION_COLOR_READ_TYPE: {
      TextureStateValues t;
      // Answered for the read framebuffer's read buffer, as glGetIntegerv does (§18.2.2).
      if (!get_framebuffer_state(ctx, pname, t)) return;
      v = static_cast<GLint>(t.v[0]);
      break;
    }
    default: ctx->set_error(GL_INVALID_ENUM, std::string(func) + ": invalid pname " + hex(pname)); return;
  }
  if (out) *out = v;
}

void attachment_parameter(Context* ctx, FramebufferObject* fb, GLenum attachment, GLenum pname, GLint* out,
                          const char* func) {
  // GL 4.6 §9.2.3: with no default framebuffer its attachments have FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE NONE.
  const FramebufferAttachment* a = nullptr;
  FramebufferAttachment none;
  if (fb == nullptr) {
    switch (attachment) {
      case GL_FRONT_LEFT:
      case GL_FRONT_RIGHT:
      case GL_BACK_LEFT:
      case GL_BACK_RIGHT:
      case GL_DEPTH:
      case GL_STENCIL:
      case GL_BACK: a = &none; break;
      default:
        ctx->set_error(GL_INVALID_ENUM,
                       std::string(func) + ": invalid attachment " + hex(attachment) + " of the default framebuffer");
        return;
    }
  } else {
    if (attachment == GL_DEPTH_STENCIL_ATTACHMENT) {
      // "An INVALID_OPERATION error is generated if attachment is DEPTH_STENCIL_ATTACHMENT and different objects
      // are bound to the depth and stencil attachment points".
      if (fb->depth.texture != fb->stencil.texture || fb->depth.renderbuffer != fb->stencil.renderbuffer ||
          fb->depth.level != fb->stencil.level) {
        ctx->set_error(GL_INVALID_OPERATION,
                       std::string(func) + ": different images are attached to DEPTH and STENCIL");
        return;
      }
    }
    a = attachment_point(ctx, *fb, attachment, func);
    if (a == nullptr) return;
  }
  GLint v = 0;
  if (pname == GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE) {
    v = a->renderbuffer ? GL_RENDERBUFFER : a->texture ? GL_TEXTURE : GL_NONE;
  } else if (pname == GL_FRAMEBUFFER_ATTACHMENT_OBJECT_NAME) {
    v = a->renderbuffer ? static_cast<GLint>(a->renderbuffer->name)
        : a->texture    ? static_cast<GLint>(a->texture->name)
                        : 0;
  } else if (!a->attached()) {
    // "If the value of FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE is NONE, ... querying pname
    // FRAMEBUFFER_ATTACHMENT_OBJECT_NAME will return zero, and all other queries will generate an INVALID_OPERATION
    // error" (the default framebuffer's text; OpenGL ES 3.2 §9.2.3 says the same for framebuffer objects).
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": nothing is attached to " + hex(attachment));
    return;
  } else {
    const TextureObject* image = a->image_texture();
    const TextureLevel* base = nullptr;
    if (image && static_cast<uint32_t>(a->level) < kMaxTextureLevels && a->face < image->levels.size()) {
      const TextureLevel& l = image->levels[a->face][static_cast<uint32_t>(a->level)];
      if (l.defined()) base = &l;
    }
    if (base == nullptr && image) base = base_level_of(*image);
    const SizedFormat* f = base ? base->format : nullptr;
    if (a->renderbuffer && !a->renderbuffer->storage) f = find_sized_format(a->renderbuffer->internalformat);
    // Texture-only pnames of a renderbuffer attachment: "If the value of FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE is
    // RENDERBUFFER, ... querying any other pname [than the listed ones] generates INVALID_ENUM".
    if (a->renderbuffer &&
        (pname == GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_LEVEL || pname == GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_CUBE_MAP_FACE ||
         pname == GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_LAYER || pname == GL_FRAMEBUFFER_ATTACHMENT_LAYERED)) {
      ctx->set_error(GL_INVALID_ENUM, std::string(func) + ": " + hex(pname) + " of a renderbuffer attachment");
      return;
    }
    auto bits = [&](int i) { return f && i < f->components ? static_cast<GLint>(f->bits[static_cast<size_t>(i)]) : 0; };
    switch (pname) {
      case GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_LEVEL: v = a->level; break;
      case GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_CUBE_MAP_FACE:
        v = image && image->target == GL_TEXTURE_CUBE_MAP && !a->layered && a->layer == 0
                ? static_cast<GLint>(GL_TEXTURE_CUBE_MAP_POSITIVE_X + a->face)
                : 0;
        break;
      case GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_LAYER: v = a->layer; break;
      case GL_FRAMEBUFFER_ATTACHMENT_LAYERED: v = a->layered ? GL_TRUE : GL_FALSE; break;
      case GL_FRAMEBUFFER_ATTACHMENT_RED_SIZE: v = f && !is_depth_or_stencil(*f) ? bits(0) : 0; break;
      case GL_FRAMEBUFFER_ATTACHMENT_GREEN_SIZE: v = f && !is_depth_or_stencil(*f) ? bits(1) : 0; break;
      case GL_FRAMEBUFFER_ATTACHMENT_BLUE_SIZE: v = f && !is_depth_or_stencil(*f) ? bits(2) : 0; break;
      case GL_FRAMEBUFFER_ATTACHMENT_ALPHA_SIZE: v = f && !is_depth_or_stencil(*f) ? bits(3) : 0; break;
      case GL_FRAMEBUFFER_ATTACHMENT_DEPTH_SIZE: v = f && is_depth(*f) ? bits(0) : 0; break;
      case GL_FRAMEBUFFER_ATTACHMENT_STENCIL_SIZE:
        v = f && (f->base_format == GL_DEPTH_STENCIL || is_stencil_index(*f)) ? 8 : 0;
        break;
      case GL_FRAMEBUFFER_ATTACHMENT_COMPONENT_TYPE:
        if (attachment == GL_DEPTH_STENCIL_ATTACHMENT) {
          // "This query cannot be performed for a combined depth+stencil attachment, since it does not have a
          // single format" (GL 4.4+ §9.2.3; INVALID_OPERATION, as Mesa quotes it).
          ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": COMPONENT_TYPE of DEPTH_STENCIL_ATTACHMENT");
          return;
        }
        // "... the format of components of the specified attachment, one of FLOAT, INT, UNSIGNED_INT,
        // SIGNED_NORMALIZED, or UNSIGNED_NORMALIZED ... Only color buffers may have integer components. If no data
        // storage or texture image has been specified for the attachment, then params will contain NONE": the
        // stencil point of a depth-stencil image answers its depth's type (never UNSIGNED_INT; Mesa and ANGLE
        // likewise); STENCIL_INDEX8 answers UNSIGNED_INT as both do (the sentence leaves it no listed type).
        if (f == nullptr) break;
        switch (f->numeric) {
          case Numeric::Unorm:
          case Numeric::Depth: v = GL_UNSIGNED_NORMALIZED; break;
          case Numeric::Snorm: v = GL_SIGNED_NORMALIZED; break;
          case Numeric::Uint: v = GL_UNSIGNED_INT; break;
          case Numeric::Sint: v = GL_INT; break;
          default: v = GL_FLOAT; break;
        }
        if (f->internalformat == GL_DEPTH_COMPONENT32F || f->internalformat == GL_DEPTH32F_STENCIL8) v = GL_FLOAT;
        break;
      case GL_FRAMEBUFFER_ATTACHMENT_COLOR_ENCODING: v = f && f->srgb ? GL_SRGB : GL_LINEAR; break;
      default: ctx->set_error(GL_INVALID_ENUM, std::string(func) + ": invalid pname " + hex(pname)); return;
    }
  }
  if (out) *out = v;
}

void gen_framebuffers(Context* ctx, GLsizei n, GLuint* names, bool create, const char* func) {
  if (n < 0) {
    ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": n is negative");
    return;
  }
  for (GLsizei i = 0; i < n && names != nullptr; ++i) {
    while (ctx->framebuffers.count(ctx->next_framebuffer) || ctx->next_framebuffer == 0) ++ctx->next_framebuffer;
    const GLuint name = ctx->next_framebuffer++;
    std::shared_ptr<FramebufferObject> fb;
    if (create) {
      fb = std::make_shared<FramebufferObject>();
      fb->name = name;
      fb->created = true;
    }
    ctx->framebuffers[name] = fb;
    names[i] = name;
  }
}

}  // namespace

FramebufferObject* bound_framebuffer(Context* ctx, GLenum target, const char* func, bool& ok) {
  auto* slot = binding_slot(ctx, target);
  ok = slot != nullptr;
  if (!ok) {
    ctx->set_error(GL_INVALID_ENUM, std::string(func) + ": invalid framebuffer target " + hex(target));
    return nullptr;
  }
  return slot->get();
}

const FramebufferAttachment* color_buffer(const FramebufferObject& fb, GLenum buffer) {
  if (buffer < GL_COLOR_ATTACHMENT0 || buffer - GL_COLOR_ATTACHMENT0 >= kMaxColorAttachments) return nullptr;
  return &fb.color[buffer - GL_COLOR_ATTACHMENT0];
}

bool color_renderable(const SizedFormat& f, bool es, int es_minor) {
  if (is_depth_or_stencil(f) || f.numeric == Numeric::SharedExp || f.numeric == Numeric::Snorm) return false;
  if (!es) return !(f.srgb && f.components == 3);  // GL 4.6 table 8.12: SRGB8 is not color-renderable
  // OpenGL ES 3.2 table 8.10: R8, RG8, RGB8, RGB565, RGBA4, RGB5_A1, RGBA8, SRGB8_ALPHA8, RGB10_A2, RGB10_A2UI, the
  // R/RG/RGBA integer formats; the float formats R16F ... RGBA32F and R11F_G11F_B10F from ES 3.2 on (no
  // RGB16F/RGB32F), and in ES 3.1 through EXT_color_buffer_float, which ES contexts expose (context_version.cpp).
  (void)es_minor;
  if (f.components == 3 && f.internalformat != GL_RGB8 && f.internalformat != GL_RGB565 &&
      f.numeric != Numeric::UFloat) {
    return false;
  }
  if (f.numeric == Numeric::Unorm && !f.srgb && f.bits[0] == 16) return false;  // EXT_texture_norm16 not exposed
  return true;
}

bool attached_image(const FramebufferAttachment& a, AttachedImage& out, bool stencil_plane) {
  const TextureObject* texture = a.image_texture();
  if (texture == nullptr || a.level < 0 || static_cast<uint32_t>(a.level) >= kMaxTextureLevels) return false;
  const auto level = static_cast<uint32_t>(a.level);
  uint32_t face = a.face;
  uint32_t layer = static_cast<uint32_t>(a.layer);
  // A cube map attached by FramebufferTextureLayer: the layer is the face.
  if (texture->target == GL_TEXTURE_CUBE_MAP && !a.layered && a.layer > 0) face = layer, layer = 0;
  if (face >= texture->levels.size()) return false;
  // A depth-stencil level's stencil buffer: the same level of its stencil plane (same target, size and layers).
  const TextureLevel& own = texture->levels[face][level];
  if (stencil_plane && own.defined() && is_depth_stencil(*own.format)) {
    if (!texture->stencil_plane) return false;
    texture = texture->stencil_plane.get();
  }
  const TextureObject& t = *texture;
  const TextureLevel& l = t.levels[face][level];
  if (!l.defined()) return false;
  out.level = &l;
  out.target = t.target;
  out.width = l.width;
  out.height = t.target == GL_TEXTURE_1D || t.target == GL_TEXTURE_1D_ARRAY ? 1 : l.height;
  out.layers = a.layered ? (t.target == GL_TEXTURE_CUBE_MAP ? 6 : level_layers(t.target, l)) : 1;
  if (a.layered && t.target == GL_TEXTURE_3D) out.layers = l.depth;
  out.first_layer = a.layered ? 0 : (t.target == GL_TEXTURE_CUBE_MAP ? face : layer);
  out.store = level_store(t, t.target == GL_TEXTURE_CUBE_MAP ? face : 0, level);
  return out.store.image != nullptr;
}

backend::ImageRegion attached_region(const AttachedImage& image, uint32_t x, uint32_t y, uint32_t w, uint32_t h,
                                     uint32_t layer_offset, uint32_t layer_count) {
  const auto ix = static_cast<GLint>(x), iy = static_cast<GLint>(y);
  const auto iw = static_cast<GLsizei>(w), ih = static_cast<GLsizei>(h);
  const auto layer = static_cast<GLint>(image.first_layer + layer_offset);
  const auto n = static_cast<GLsizei>(layer_count);
  switch (image.target) {
    case GL_TEXTURE_1D: return sub_region(GL_TEXTURE_1D, image.store, ix, 0, 0, iw, 1, 1);
    case GL_TEXTURE_1D_ARRAY: return sub_region(GL_TEXTURE_1D_ARRAY, image.store, ix, layer, 0, iw, n, 1);
    case GL_TEXTURE_3D:
    case GL_TEXTURE_2D_ARRAY:
    case GL_TEXTURE_CUBE_MAP_ARRAY:
    case GL_TEXTURE_2D_MULTISAMPLE_ARRAY: return sub_region(image.target, image.store, ix, iy, layer, iw, ih, n);
    case GL_TEXTURE_CUBE_MAP: {
      // The store addresses one face (level_store with the face); a layered cube map spans six layers of one
      // image when the texture is one image.
      backend::ImageRegion r = sub_region(GL_TEXTURE_CUBE_MAP, image.store, ix, iy, 0, iw, ih, 1);
      r.layer_count = layer_count;
      r.base_layer += layer_offset;
      return r;
    }
    default: return sub_region(image.target, image.store, ix, iy, 0, iw, ih, 1);
  }
}

GLenum framebuffer_status(const Context& ctx, const FramebufferObject* fb, std::string* why) {
  auto fail = [&](GLenum s, const std::string& text) {
    if (why) *why = text;
    return s;
  };
  if (fb == nullptr) {
    return fail(GL_FRAMEBUFFER_UNDEFINED, "the context is surfaceless: the default framebuffer does not exist");
  }
  bool any = false, any_layered = false, any_unlayered = false;
  GLenum layer_target = GL_NONE;
  // §9.4.2's sample rules: the first attached image's samples, fixed locations and kind (texture or renderbuffer).
  bool sampled_seen = false, seen_renderbuffer = false, seen_texture = false;
  uint32_t seen_samples = 0;
  bool seen_fixed = true;
  enum class Point { Color, Depth, Stencil };
  auto check = [&](const FramebufferAttachment& a, const char* point, Point kind) -> GLenum {
    if (!a.attached()) return GL_FRAMEBUFFER_COMPLETE;
    // §9.4.1 "Framebuffer Attachment Completeness": the image must exist with non-zero width and height, a layer
    // below the depth/layer count, and a color-renderable format for a color attachment (depth-renderable for
    // depth).
    AttachedImage img;
    if (!attached_image(a, img) || img.width == 0 || img.height == 0) {
      return fail(GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT,
                  std::string(point) + ": the attached texture level has no image (not defined, or zero size)");
    }
    const TextureObject& t = *a.image_texture();  // attached_image succeeded: not null
    if (!a.layered && a.layer > 0) {
      const uint32_t count = t.target == GL_TEXTURE_3D         ? img.level->depth
                             : t.target == GL_TEXTURE_CUBE_MAP ? 6
                                                               : level_layers(t.target, *img.level);
      if (static_cast<uint32_t>(a.layer) >= count) {
        return fail(GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT, std::string(point) + ": layer " + std::to_string(a.layer) +
                                                              " is not below the texture's " + std::to_string(count));
      }
    }
    // Immutable textures: "if the texture is immutable, level must be in [0, TEXTURE_IMMUTABLE_LEVELS - 1]"
    // (covered by the level having an image); mutable ones: a level in [base, q] or consistent — the level is
    // defined, which this shim needs.
    // §9.4.1: "If attachment is DEPTH_ATTACHMENT, then image must have a depth-renderable internal format"
    // (DEPTH_COMPONENT and DEPTH_STENCIL formats); "If attachment is STENCIL_ATTACHMENT, then image must have a
    // stencil-renderable internal format" (STENCIL_INDEX and DEPTH_STENCIL formats, §9.4).
    const SizedFormat& f = *img.level->format;
    // Compressed levels hold decoded texels in an uncompressed row (texture_compressed.cpp); their formats are not
    // color-renderable (GL 4.6 §9.4: table 8.14's formats are not in table 8.12's renderable rows).
    if (is_compressed_level(*img.level)) {
      return fail(GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT, std::string(point) + ": a compressed internal format (" +
                                                            hex(img.level->internalformat) + ") is not renderable");
    }
    const bool renderable = kind == Point::Color   ? color_renderable(f, ctx.version.es, ctx.version.minor)
                            : kind == Point::Depth ? is_depth(f)
                                                   : is_stencil_index(f) || f.base_format == GL_DEPTH_STENCIL;
    if (!renderable) {
      const char* what = kind == Point::Color ? "color" : kind == Point::Depth ? "depth" : "stencil";
      return fail(GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT,
                  std::string(point) + ": " + f.name + " is not " + what + "-renderable");
    }
    // A depth-stencil level at the stencil attachment: its stencil buffer is the level's stencil plane.
    if (kind == Point::Stencil && is_depth_stencil(f)) {
      AttachedImage plane;
      if (!attached_image(a, plane, true)) {
        return fail(GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT, std::string(point) + ": the level has no stencil plane");
      }
    }
    any = true;
    // §9.4.2 (FRAMEBUFFER_INCOMPLETE_MULTISAMPLE): "The value of RENDERBUFFER_SAMPLES is the same for all attached
    // renderbuffers; the value of TEXTURE_SAMPLES is the same for all attached textures; and, if the attached images
    // are a mix of renderbuffers and textures, the value of RENDERBUFFER_SAMPLES matches the value of
    // TEXTURE_SAMPLES", and "The value of TEXTURE_FIXED_SAMPLE_LOCATIONS is the same for all attached textures; and,
    // if the attached images are a mix of renderbuffers and textures, the value of TEXTURE_FIXED_SAMPLE_LOCATIONS
    // must be TRUE for all attached textures". A renderbuffer's samples are its storage texture's
    // (renderbuffer_objects.cpp); it has no fixed-location choice.
    {
      const bool is_renderbuffer = a.renderbuffer != nullptr;
      const uint32_t samples = t.samples;
      const bool fixed = is_renderbuffer || t.fixed_sample_locations;
      if (sampled_seen && samples != seen_samples) {
        return fail(GL_FRAMEBUFFER_INCOMPLETE_MULTISAMPLE, std::string(point) + ": " + std::to_string(samples) +
                                                               " samples, another attachment has " +
                                                               std::to_string(seen_samples));
      }
      if ((seen_texture && !is_renderbuffer && fixed != seen_fixed) ||
          (((is_renderbuffer && seen_texture) || (!is_renderbuffer && seen_renderbuffer)) && (!fixed || !seen_fixed))) {
        return fail(GL_FRAMEBUFFER_INCOMPLETE_MULTISAMPLE,
                    std::string(point) +
                        ": TEXTURE_FIXED_SAMPLE_LOCATIONS differs between the attached textures, or "
                        "is FALSE beside a renderbuffer");
      }
      sampled_seen = true;
      seen_samples = samples;
      seen_fixed = seen_fixed && fixed;
      (is_renderbuffer ? seen_renderbuffer : seen_texture) = true;
    }
    if (a.layered) {
      any_layered = true;
      // "If any framebuffer attachment is layered, ... all color attachments must be from textures of the same
      // target."
      if (layer_target != GL_NONE && layer_target != t.target) {
        return fail(GL_FRAMEBUFFER_INCOMPLETE_LAYER_TARGETS, "layered attachments of different texture targets");
      }
      layer_target = t.target;
    } else {
      any_unlayered = true;
    }
    return GL_FRAMEBUFFER_COMPLETE;
  };
  for (uint32_t i = 0; i < kMaxColorAttachments; ++i) {
    const std::string point = "COLOR_ATTACHMENT" + std::to_string(i);
    if (GLenum s = check(fb->color[i], point.c_str(), Point::Color); s != GL_FRAMEBUFFER_COMPLETE) return s;
  }
  if (GLenum s = check(fb->depth, "DEPTH_ATTACHMENT", Point::Depth); s != GL_FRAMEBUFFER_COMPLETE) return s;
  if (GLenum s = check(fb->stencil, "STENCIL_ATTACHMENT", Point::Stencil); s != GL_FRAMEBUFFER_COMPLETE) return s;
  // "There is at least one image attached to the framebuffer, or the value of FRAMEBUFFER_DEFAULT_WIDTH and
  // FRAMEBUFFER_DEFAULT_HEIGHT are both not zero" (FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT).
  if (!any && (fb->default_width == 0 || fb->default_height == 0)) {
    return fail(GL_FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT, "no image is attached and the default size is zero");
  }
  // "If any framebuffer attachment is layered, all populated attachments must be layered."
  if (any_layered && any_unlayered) {
    return fail(GL_FRAMEBUFFER_INCOMPLETE_LAYER_TARGETS, "some attachments are layered and some are not");
  }
  // OpenGL ES 3.2 §9.4.2: "Depth and stencil attachments, if present, are the same image"
  // (FRAMEBUFFER_UNSUPPORTED). Desktop GL 4.6 has no such rule: a depth texture beside a STENCIL_INDEX8 one is fine.
  if (ctx.version.es && fb->depth.attached() && fb->stencil.attached()) {
    const FramebufferAttachment &d = fb->depth, &s = fb->stencil;
    if (d.texture != s.texture || d.renderbuffer != s.renderbuffer || d.level != s.level || d.face != s.face ||
        d.layer != s.layer || d.layered != s.layered) {
      return fail(GL_FRAMEBUFFER_UNSUPPORTED, "the depth and stencil attachments are different images");
    }
  }
  if (!ctx.version.es) {
    // GL 4.6 only (ES 3.2 has no such rule): "The value of FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE must not be NONE for
    // any color attachment point(s) named by DRAW_BUFFERi" (INCOMPLETE_DRAW_BUFFER), and "If READ_BUFFER is not
    // NONE, then the value of FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE must not be NONE for the color attachment point
    // named by READ_BUFFER" (INCOMPLETE_READ_BUFFER).
    for (GLenum b : fb->draw_buffers) {
      const FramebufferAttachment* a = color_buffer(*fb, b);
      if (a && !a->attached()) {
        return fail(GL_FRAMEBUFFER_INCOMPLETE_DRAW_BUFFER, "the draw buffer " + hex(b) + " has nothing attached");
      }
    }
    const FramebufferAttachment* r = color_buffer(*fb, fb->read_buffer);
    if (r && !r->attached()) {
      return fail(GL_FRAMEBUFFER_INCOMPLETE_READ_BUFFER,
                  "the read buffer " + hex(fb->read_buffer) + " has nothing attached");
    }
  }
  return GL_FRAMEBUFFER_COMPLETE;
}

uint32_t framebuffer_samples(const Context& ctx, const FramebufferObject* fb) {
  if (fb == nullptr || framebuffer_status(ctx, fb) != GL_FRAMEBUFFER_COMPLETE) return 0;
  for (const FramebufferAttachment& a : fb->color) {
    if (!a.attached()) continue;
    const TextureObject* t = a.image_texture();
    return t != nullptr ? t->samples : 0;
  }
  return static_cast<uint32_t>(std::max(fb->default_samples, 0));
}

void detach_deleted_texture(Context* ctx, const TextureObject* texture) {
  for (FramebufferObject* fb : {ctx->draw_framebuffer.get(), ctx->read_framebuffer.get()}) {
    if (fb == nullptr) continue;
    for (FramebufferAttachment& a : fb->color) {
      if (a.texture.get() == texture) a = {};
    }
    if (fb->depth.texture.get() == texture) fb->depth = {};
    if (fb->stencil.texture.get() == texture) fb->stencil = {};
  }
}

void detach_deleted_renderbuffer(Context* ctx, const RenderbufferObject* renderbuffer) {
  for (FramebufferObject* fb : {ctx->draw_framebuffer.get(), ctx->read_framebuffer.get()}) {
    if (fb == nullptr) continue;
    for (FramebufferAttachment& a : fb->color) {
      if (a.renderbuffer.get() == renderbuffer) a = {};
    }
    if (fb->depth.renderbuffer.get() == renderbuffer) fb->depth = {};
    if (fb->stencil.renderbuffer.get() == renderbuffer) fb->stencil = {};
  }
}

bool get_framebuffer_state(Context* ctx, GLenum pname, TextureStateValues& out) {
  auto set = [&](int64_t v) {
    out.count = 1;
    out.v[0] = v;
    return true;
  };
  auto name = [](const std::shared_ptr<FramebufferObject>& fb) { return fb ? static_cast<int64_t>(fb->name) : 0; };
  if (pname >= GL_DRAW_BUFFER0 && pname < GL_DRAW_BUFFER0 + kMaxColorAttachments) {
    const FramebufferObject* fb = ctx->draw_framebuffer.get();
    return set(fb ? fb->draw_buffers[pname - GL_DRAW_BUFFER0] : GL_NONE);
  }
  switch (pname) {
    case GL_DRAW_FRAMEBUFFER_BINDING: return set(name(ctx->draw_framebuffer));  // == FRAMEBUFFER_BINDING
    case GL_READ_FRAMEBUFFER_BINDING: return set(name(ctx->read_framebuffer));
    case GL_READ_BUFFER: return set(ctx->read_framebuffer ? ctx->read_framebuffer->read_buffer : GL_NONE);
    case GL_DRAW_BUFFER: return set(ctx->draw_framebuffer ? ctx->draw_framebuffer->draw_buffers[0] : GL_NONE);
    case GL_MAX_COLOR_ATTACHMENTS:
    case GL_MAX_DRAW_BUFFERS: return set(kMaxColorAttachments);
    case GL_MAX_FRAMEBUFFER_WIDTH:
    case GL_MAX_FRAMEBUFFER_HEIGHT: return set(kMaxFramebufferSize);
    case GL_MAX_FRAMEBUFFER_LAYERS: return set(kMaxFramebufferLayers);
    case GL_MAX_FRAMEBUFFER_SAMPLES: return set(kMaxFramebufferSamples);
    // GL 4.6 table 23.73: SAMPLES of the draw framebuffer, SAMPLE_BUFFERS 1 when it has samples.
    case GL_SAMPLE_BUFFERS: return set(framebuffer_samples(*ctx, ctx->draw_framebuffer.get()) > 0 ? 1 : 0);
    case GL_SAMPLES: return set(framebuffer_samples(*ctx, ctx->draw_framebuffer.get()));
    case GL_RENDERBUFFER_BINDING: return set(ctx->renderbuffer ? ctx->renderbuffer->name : 0);
    case GL_MAX_RENDERBUFFER_SIZE: return set(texture_size_limits(*ctx->device_state.device).max_texture_size);
    // Table 23.73: "maximum number of samples supported for all non-integer formats", from the device
    // (texture_multisample.hpp); GL's minimum is 4, which Vulkan's required sampled-image counts (1 and 4) meet.
    case GL_MAX_SAMPLES: return set(multisample_limits(*ctx->device_state.device).samples);
    case GL_IMPLEMENTATION_COLOR_READ_FORMAT:
    case GL_IMPLEMENTATION_COLOR_READ_TYPE: {
      // GL 4.6 §18.2.2: "An INVALID_OPERATION error is generated by GetIntegerv if pname is
      // IMPLEMENTATION_COLOR_READ_FORMAT or _TYPE and any of: the read framebuffer is not framebuffer complete; the
      // read framebuffer's read buffer is NONE" (ES 3.2 §16.1.2 likewise).
      FramebufferObject* fb = ctx->read_framebuffer.get();
      const FramebufferAttachment* a = fb ? color_buffer(*fb, fb->read_buffer) : nullptr;
      AttachedImage img;
      if (framebuffer_status(*ctx, fb) != GL_FRAMEBUFFER_COMPLETE || a == nullptr || !attached_image(*a, img)) {
        ctx->set_error(GL_INVALID_OPERATION,
                       "glGet: IMPLEMENTATION_COLOR_READ_FORMAT/TYPE need a complete read "
                       "framebuffer with a read buffer");
        out.count = 0;
        return true;
      }
      const FormatType ft = es_implementation_read_format(img.level->format->internalformat);
      return set(pname == GL_IMPLEMENTATION_COLOR_READ_FORMAT ? ft.format : ft.type);
    }
    default: return false;
  }
}

}  // namespace bismuth::gl

using namespace bismuth::gl;

extern "C" {

GLAPI void APIENTRY glGenFramebuffers(GLsizei n, GLuint* framebuffers) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  gen_framebuffers(ctx, n, framebuffers, false, "glGenFramebuffers");
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glCreateFramebuffers(GLsizei n, GLuint* framebuffers) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  gen_framebuffers(ctx, n, framebuffers, true, "glCreateFramebuffers");
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glDeleteFramebuffers(GLsizei n, const GLuint* framebuffers) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (n < 0) {
    ctx->set_error(GL_INVALID_VALUE, "glDeleteFramebuffers: n is negative");
    return;
  }
  for (GLsizei i = 0; i < n && framebuffers != nullptr; ++i) {
    const GLuint name = framebuffers[i];
    if (name == 0) continue;  // GL 4.6 §9.2.1: "zero and names that do not correspond ... are silently ignored"
    auto it = ctx->framebuffers.find(name);
    if (it == ctx->framebuffers.end()) continue;
    // "If a framebuffer object that is bound to one or more targets is deleted, it is as though BindFramebuffer
    // had been executed with the corresponding target and framebuffer zero."
    if (it->second && ctx->draw_framebuffer == it->second) ctx->draw_framebuffer.reset();
    if (it->second && ctx->read_framebuffer == it->second) ctx->read_framebuffer.reset();
    ctx->framebuffers.erase(it);
  }
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI GLboolean APIENTRY glIsFramebuffer(GLuint framebuffer) {
  BISMUTH_GL_BEGIN(GL_FALSE)
  auto it = ctx->framebuffers.find(framebuffer);
  return it != ctx->framebuffers.end() && it->second ? GL_TRUE : GL_FALSE;
  BISMUTH_GL_END(GL_FALSE)
}

GLAPI void APIENTRY glBindFramebuffer(GLenum target, GLuint framebuffer) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (binding_slot(ctx, target) == nullptr) {
    ctx->set_error(GL_INVALID_ENUM, "glBindFramebuffer: invalid target " + hex(target));
    return;
  }
  std::shared_ptr<FramebufferObject> fb;
  if (framebuffer != 0) {
    // GL 4.6 §9.2.1: "An INVALID_OPERATION error is generated if framebuffer is not zero or a name returned from a
    // previous call to GenFramebuffers, or if such a name has since been deleted" (ES 3.2 allows any name: it
    // creates the object).
    auto it = ctx->framebuffers.find(framebuffer);
    if (it == ctx->framebuffers.end() && !ctx->version.es) {
      ctx->set_error(GL_INVALID_OPERATION,
                     "glBindFramebuffer: " + std::to_string(framebuffer) + " is not a name from glGenFramebuffers");
      return;
    }
    auto& slot = ctx->framebuffers[framebuffer];
    if (!slot) {
      slot = std::make_shared<FramebufferObject>();
      slot->name = framebuffer;
      slot->created = true;
    }
    fb = slot;
  }
  if (target == GL_FRAMEBUFFER || target == GL_DRAW_FRAMEBUFFER) ctx->draw_framebuffer = fb;
  if (target == GL_FRAMEBUFFER || target == GL_READ_FRAMEBUFFER) ctx->read_framebuffer = fb;
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glFramebufferTexture(GLenum target, GLenum attachment, GLuint texture, GLint level) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  bool ok = false;
  FramebufferObject* fb = bound_framebuffer(ctx, target, "glFramebufferTexture", ok);
  if (ok) attach(ctx, fb, attachment, AttachKind::Texture, GL_NONE, texture, level, 0, "glFramebufferTexture");
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glFramebufferTexture1D(GLenum target, GLenum attachment, GLenum textarget, GLuint texture,
                                           GLint level) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  bool ok = false;
  FramebufferObject* fb = bound_framebuffer(ctx, target, "glFramebufferTexture1D", ok);
  if (ok) attach(ctx, fb, attachment, AttachKind::Texture1D, textarget, texture, level, 0, "glFramebufferTexture1D");
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glFramebufferTexture2D(GLenum target, GLenum attachment, GLenum textarget, GLuint texture,
                                           GLint level) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  bool ok = false;
  FramebufferObject* fb = bound_framebuffer(ctx, target, "glFramebufferTexture2D", ok);
  if (ok) attach(ctx, fb, attachment, AttachKind::Texture2D, textarget, texture, level, 0, "glFramebufferTexture2D");
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glFramebufferTexture3D(GLenum target, GLenum attachment, GLenum textarget, GLuint texture,
                                           GLint level, GLint zoffset) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  bool ok = false;
  FramebufferObject* fb = bound_framebuffer(ctx, target, "glFramebufferTexture3D", ok);
  if (ok) {
    attach(ctx, fb, attachment, AttachKind::Texture3D, textarget, texture, level, zoffset, "glFramebufferTexture3D");
  }
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glFramebufferTextureLayer(GLenum target, GLenum attachment, GLuint texture, GLint level,
                                              GLint layer) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  bool ok = false;
  FramebufferObject* fb = bound_framebuffer(ctx, target, "glFramebufferTextureLayer", ok);
  if (ok) attach(ctx, fb, attachment, AttachKind::Layer, GL_NONE, texture, level, layer, "glFramebufferTextureLayer");
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glNamedFramebufferTexture(GLuint framebuffer, GLenum attachment, GLuint texture, GLint level) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  bool ok = false;
  FramebufferObject* fb = named_framebuffer(ctx, framebuffer, "glNamedFramebufferTexture", ok);
  if (ok) attach(ctx, fb, attachment, AttachKind::Texture, GL_NONE, texture, level, 0, "glNamedFramebufferTexture");
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glNamedFramebufferTextureLayer(GLuint framebuffer, GLenum attachment, GLuint texture, GLint level,
                                                   GLint layer) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  bool ok = false;
  FramebufferObject* fb = named_framebuffer(ctx, framebuffer, "glNamedFramebufferTextureLayer", ok);
  if (ok) {
    attach(ctx, fb, attachment, AttachKind::Layer, GL_NONE, texture, level, layer, "glNamedFramebufferTextureLayer");
  }
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glFramebufferRenderbuffer(GLenum target, GLenum attachment, GLenum renderbuffertarget,
                                              GLuint renderbuffer) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  bool ok = false;
  FramebufferObject* fb = bound_framebuffer(ctx, target, "glFramebufferRenderbuffer", ok);
  if (ok) attach_renderbuffer(ctx, fb, attachment, renderbuffertarget, renderbuffer, "glFramebufferRenderbuffer");
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glNamedFramebufferRenderbuffer(GLuint framebuffer, GLenum attachment, GLenum renderbuffertarget,
                                                   GLuint renderbuffer) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  bool ok = false;
  FramebufferObject* fb = named_framebuffer(ctx, framebuffer, "glNamedFramebufferRenderbuffer", ok);
  if (ok) {
    attach_renderbuffer(ctx, fb, attachment, renderbuffertarget, renderbuffer, "glNamedFramebufferRenderbuffer");
  }
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI GLenum APIENTRY glCheckFramebufferStatus(GLenum target) {
  BISMUTH_GL_BEGIN(0)
  // GL 4.6 §9.4.2: "An INVALID_ENUM error is generated if target is not DRAW_FRAMEBUFFER, READ_FRAMEBUFFER or
  // FRAMEBUFFER", and zero is returned then.
  bool ok = false;
  FramebufferObject* fb = bound_framebuffer(ctx, target, "glCheckFramebufferStatus", ok);
  if (!ok) return 0;
  return check_status(ctx, fb, "glCheckFramebufferStatus");
  BISMUTH_GL_END(0)
}

GLAPI GLenum APIENTRY glCheckNamedFramebufferStatus(GLuint framebuffer, GLenum target) {
  BISMUTH_GL_BEGIN(0)
  if (binding_slot(ctx, target) == nullptr) {
    ctx->set_error(GL_INVALID_ENUM, "glCheckNamedFramebufferStatus: invalid target " + hex(target));
    return 0;
  }
  bool ok = false;
  FramebufferObject* fb = named_framebuffer(ctx, framebuffer, "glCheckNamedFramebufferStatus", ok);
  if (!ok) return 0;
  return check_status(ctx, fb, "glCheckNamedFramebufferStatus");
  BISMUTH_GL_END(0)
}

GLAPI void APIENTRY glGetFramebufferAttachmentParameteriv(GLenum target, GLenum attachment, GLenum pname,
                                                          GLint* params) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  bool ok = false;
  FramebufferObject* fb = bound_framebuffer(ctx, target, "glGetFramebufferAttachmentParameteriv", ok);
  if (ok) attachment_parameter(ctx, fb, attachment, pname, params, "glGetFramebufferAttachmentParameteriv");
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glGetNamedFramebufferAttachmentParameteriv(GLuint framebuffer, GLenum attachment, GLenum pname,
                                                               GLint* params) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  bool ok = false;
  FramebufferObject* fb = named_framebuffer(ctx, framebuffer, "glGetNamedFramebufferAttachmentParameteriv", ok);
  if (ok) attachment_parameter(ctx, fb, attachment, pname, params, "glGetNamedFramebufferAttachmentParameteriv");
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glDrawBuffers(GLsizei n, const GLenum* bufs) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  draw_buffers(ctx, ctx->draw_framebuffer.get(), n, bufs, "glDrawBuffers");
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glDrawBuffer(GLenum buf) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  draw_buffers(ctx, ctx->draw_framebuffer.get(), 1, &buf, "glDrawBuffer");
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glNamedFramebufferDrawBuffers(GLuint framebuffer, GLsizei n, const GLenum* bufs) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  bool ok = false;
  FramebufferObject* fb = named_framebuffer(ctx, framebuffer, "glNamedFramebufferDrawBuffers", ok);
  if (ok) draw_buffers(ctx, fb, n, bufs, "glNamedFramebufferDrawBuffers");
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glNamedFramebufferDrawBuffer(GLuint framebuffer, GLenum buf) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  bool ok = false;
  FramebufferObject* fb = named_framebuffer(ctx, framebuffer, "glNamedFramebufferDrawBuffer", ok);
  if (ok) draw_buffers(ctx, fb, 1, &buf, "glNamedFramebufferDrawBuffer");
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glReadBuffer(GLenum src) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  read_buffer(ctx, ctx->read_framebuffer.get(), src, "glReadBuffer");
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glNamedFramebufferReadBuffer(GLuint framebuffer, GLenum src) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  bool ok = false;
  FramebufferObject* fb = named_framebuffer(ctx, framebuffer, "glNamedFramebufferReadBuffer", ok);
  if (ok) read_buffer(ctx, fb, src, "glNamedFramebufferReadBuffer");
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glFramebufferParameteri(GLenum target, GLenum pname, GLint param) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  bool ok = false;
  FramebufferObject* fb = bound_framebuffer(ctx, target, "glFramebufferParameteri", ok);
  if (ok) set_parameter(ctx, fb, pname, param, "glFramebufferParameteri");
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glNamedFramebufferParameteri(GLuint framebuffer, GLenum pname, GLint param) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  bool ok = false;
  FramebufferObject* fb = named_framebuffer(ctx, framebuffer, "glNamedFramebufferParameteri", ok);
  if (ok) set_parameter(ctx, fb, pname, param, "glNamedFramebufferParameteri");
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glGetFramebufferParameteriv(GLenum target, GLenum pname, GLint* params) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  bool ok = false;
  FramebufferObject* fb = bound_framebuffer(ctx, target, "glGetFramebufferParameteriv", ok);
  if (ok) get_parameter(ctx, fb, pname, params, "glGetFramebufferParameteriv");
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glGetNamedFramebufferParameteriv(GLuint framebuffer, GLenum pname, GLint* params) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  bool ok = false;
  FramebufferObject* fb = named_framebuffer(ctx, framebuffer, "glGetNamedFramebufferParameteriv", ok);
  if (ok) get_parameter(ctx, fb, pname, params, "glGetNamedFramebufferParameteriv");
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

}  // extern "C"
