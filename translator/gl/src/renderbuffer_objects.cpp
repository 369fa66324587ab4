// Renderbuffer objects (GL 4.6 §9.2.4 - §9.2.6; OpenGL ES 3.2 §9.2.4): names, binding, storage and the queries.
// A renderbuffer's storage is a one-level 2D texture object of its own (framebuffers.hpp), so that glReadPixels
// and the clears read and write it like a texture attachment; multisample storage is a 2D multisample texture
// (texture_multisample.hpp).
#include <algorithm>
#include <vector>

#include "framebuffers.hpp"
#include "texture_multisample.hpp"

namespace bismuth::gl {
namespace {

constexpr size_t kMaxLevels = 20;

std::shared_ptr<RenderbufferObject> named_renderbuffer(Context* ctx, GLuint name, const char* func) {
  std::lock_guard lock(ctx->share->mutex);
  auto it = ctx->share->renderbuffers.find(name);
  if (it == ctx->share->renderbuffers.end() || !it->second) {
    // GL 4.6 §9.2.4: "An INVALID_OPERATION error is generated if renderbuffer is not the name of an existing
    // renderbuffer object."
    ctx->set_error(GL_INVALID_OPERATION,
                   std::string(func) + ": " + std::to_string(name) + " is not the name of an existing renderbuffer");
    return nullptr;
  }
  return it->second;
}

std::shared_ptr<RenderbufferObject> bound_renderbuffer(Context* ctx, GLenum target, const char* func) {
  // "An INVALID_ENUM error is generated if target is not RENDERBUFFER"; "An INVALID_OPERATION error is generated
  // if zero is bound to target".
  if (target != GL_RENDERBUFFER) {
    ctx->set_error(GL_INVALID_ENUM, std::string(func) + ": target must be RENDERBUFFER, not " + hex(target));
    return nullptr;
  }
  if (!ctx->renderbuffer) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": no renderbuffer is bound");
    return nullptr;
  }
  return ctx->renderbuffer;
}

void storage(Context* ctx, RenderbufferObject& rb, GLsizei samples, GLenum internalformat, GLsizei width,
             GLsizei height, const char* func) {
  // §9.2.4: "An INVALID_ENUM error is generated if internalformat is not one of the color-renderable,
  // depth-renderable, or stencil-renderable formats" (sized ones here; the base formats RGBA ... as well in GL).
  const SizedFormat* format = find_sized_format(internalformat);
  if (format == nullptr && !ctx->version.es) format = resolve_internal_format(internalformat, GL_UNSIGNED_BYTE);
  if (format == nullptr ||
      (!is_depth_or_stencil(*format) && !color_renderable(*format, ctx->version.es, ctx->version.minor))) {
    ctx->set_error(GL_INVALID_ENUM, std::string(func) + ": " + hex(internalformat) + " is not a renderable format");
    return;
  }
  // "An INVALID_VALUE error is generated if either of width or height is negative, or greater than the value of
  // MAX_RENDERBUFFER_SIZE"; "... if samples is negative"; "An INVALID_OPERATION error is generated if samples is
  // greater than the maximum number of samples supported for internalformat" (below: the format's counts on the
  // device, which may be above MAX_SAMPLES, the largest count every non-integer format has).
  const uint32_t max = texture_size_limits(*ctx->device_state.device).max_texture_size;
  if (width < 0 || height < 0 || static_cast<uint32_t>(width) > max || static_cast<uint32_t>(height) > max ||
      samples < 0) {
    ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": invalid size or sample count");
    return;
  }
  // Depth formats are stored as depth textures are (storage_format: a depth format the device samples, or the
  // colour format of depth_textures_as_color on a compute-only queue). BISMUTH_DEPTH_TEXTURES=depth on a
  // compute-only queue leaves them without storage, as it leaves depth textures.
  const SizedFormat* stored = format;
  if (is_depth(*format)) {
    const backend::Device& device = *ctx->device_state.device;
    if (!device.graphics_queue() && !depth_textures_as_color(device)) {
      ctx->set_error(GL_OUT_OF_MEMORY, std::string(func) + ": " + format->name +
                                           ": depth renderbuffers need a Vulkan queue with graphics for their "
                                           "depth-aspect copies and clears (BISMUTH_DEPTH_TEXTURES=depth)");
      return;
    }
    stored = &storage_format(device, *format);
  }
  // Multisample storage (§9.2.4): "samples represents a request for a desired minimum number of samples"; the
  // resulting RENDERBUFFER_SAMPLES is the smallest count the device has for the format that is at least that
  // (texture_multisample.hpp: the counts GetInternalformativ(RENDERBUFFER, SAMPLES) reports); more than the largest
  // is the INVALID_OPERATION quoted above.
  uint32_t actual = 0;
  if (samples > 0) {
    const std::vector<uint32_t> counts =
        texture_sample_counts(*ctx->device_state.device, *format, ctx->version.es, ctx->version.minor);
    if (counts.empty() || static_cast<uint32_t>(samples) > counts.front()) {
      ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": " + std::to_string(samples) +
                                               " samples are more than " + format->name + " supports here (" +
                                               std::to_string(counts.empty() ? 0 : counts.front()) + ")");
      return;
    }
    for (uint32_t n : counts) {
      if (n >= static_cast<uint32_t>(samples)) actual = n;
    }
  }
  std::shared_ptr<TextureObject> t;
  if (width > 0 && height > 0) {
    backend::ImageDesc desc;
    desc.type = backend::ImageType::Image2D;
    desc.format = stored->vk_format;
    desc.extent = {static_cast<uint32_t>(width), static_cast<uint32_t>(height), 1};
    desc.samples = std::max(actual, 1u);
    // The usage the device allows, down to transfers only: reads and clears still work.
    auto image = create_texture_image(ctx, desc, *stored, func);
    if (!image) return;
    t = std::make_shared<TextureObject>();
    // A multisample renderbuffer's storage is a 2D multisample texture: reads refuse it (§18.2.1), clears and
    // framebuffer completeness see its samples.
    t->target = actual > 0 ? GL_TEXTURE_2D_MULTISAMPLE : GL_TEXTURE_2D;
    t->samples = actual;
    t->immutable = true;
    t->immutable_levels = 1;
    t->view_num_levels = 1;
    t->view_num_layers = 1;
    t->levels.assign(1, std::vector<TextureLevel>(kMaxLevels));
    t->levels[0][0] =
        TextureLevel{stored, internalformat, static_cast<uint32_t>(width), static_cast<uint32_t>(height), 1};
    t->image = std::move(image);
    // DEPTH*_STENCIL8: the stencil buffer is the storage texture's stencil plane (texture_stencil_plane.cpp).
    if (!make_immutable_stencil_plane(ctx, *t, nullptr, func)) return;
  }
  // §9.2.4: the previous contents are lost ("the contents of the data store are undefined"); attachments keep
  // pointing at the renderbuffer and see the new storage.
  rb.storage = std::move(t);
  rb.internalformat = internalformat;
  rb.width = width;
  rb.height = height;
  rb.samples = static_cast<GLsizei>(actual);
}

void parameter(Context* ctx, const RenderbufferObject& rb, GLenum pname, GLint* out, const char* func) {
  // GL 4.6 §9.2.6 / table 23.27.
  const SizedFormat* f = rb.storage ? rb.storage->levels[0][0].format : find_sized_format(rb.internalformat);
  auto bits = [&](int i) {
    return f && !is_depth_or_stencil(*f) && i < f->components ? static_cast<GLint>(f->bits[static_cast<size_t>(i)])
                                                               : 0;
  };
  GLint v = 0;
  switch (pname) {
    case GL_RENDERBUFFER_WIDTH: v = rb.width; break;
    case GL_RENDERBUFFER_HEIGHT: v = rb.height; break;
    case GL_RENDERBUFFER_INTERNAL_FORMAT: v = static_cast<GLint>(rb.internalformat); break;
    case GL_RENDERBUFFER_SAMPLES: v = rb.samples; break;
    case GL_RENDERBUFFER_RED_SIZE: v = rb.storage ? bits(0) : 0; break;
    case GL_RENDERBUFFER_GREEN_SIZE: v = rb.storage ? bits(1) : 0; break;
    case GL_RENDERBUFFER_BLUE_SIZE: v = rb.storage ? bits(2) : 0; break;
    case GL_RENDERBUFFER_ALPHA_SIZE: v = rb.storage ? bits(3) : 0; break;
    case GL_RENDERBUFFER_DEPTH_SIZE: v = rb.storage && f && is_depth(*f) ? f->bits[0] : 0; break;
    case GL_RENDERBUFFER_STENCIL_SIZE:
      v = rb.storage && f && (is_stencil_index(*f) || f->base_format == GL_DEPTH_STENCIL) ? 8 : 0;
      break;
    default: ctx->set_error(GL_INVALID_ENUM, std::string(func) + ": invalid pname " + hex(pname)); return;
  }
  if (out) *out = v;
}

void gen(Context* ctx, GLsizei n, GLuint* names, bool create, const char* func) {
  if (n < 0) {
    ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": n is negative");
    return;
  }
  std::lock_guard lock(ctx->share->mutex);
  auto& map = ctx->share->renderbuffers;
  for (GLsizei i = 0; i < n && names != nullptr; ++i) {
    while (ctx->share->next_renderbuffer == 0 || map.count(ctx->share->next_renderbuffer)) {
      ++ctx->share->next_renderbuffer;
    }
    const GLuint name = ctx->share->next_renderbuffer++;
    std::shared_ptr<RenderbufferObject> rb;
    if (create) {
      rb = std::make_shared<RenderbufferObject>();
      rb->name = name;
    }
    map[name] = rb;
    names[i] = name;
  }
}

}  // namespace
}  // namespace bismuth::gl

using namespace bismuth::gl;

extern "C" {

GLAPI void APIENTRY glGenRenderbuffers(GLsizei n, GLuint* renderbuffers) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  gen(ctx, n, renderbuffers, false, "glGenRenderbuffers");
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glCreateRenderbuffers(GLsizei n, GLuint* renderbuffers) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  gen(ctx, n, renderbuffers, true, "glCreateRenderbuffers");
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glDeleteRenderbuffers(GLsizei n, const GLuint* renderbuffers) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (n < 0) {
    ctx->set_error(GL_INVALID_VALUE, "glDeleteRenderbuffers: n is negative");
    return;
  }
  for (GLsizei i = 0; i < n && renderbuffers != nullptr; ++i) {
    if (renderbuffers[i] == 0) continue;  // "zero and names that do not correspond ... are silently ignored"
    std::shared_ptr<RenderbufferObject> rb;
    {
      std::lock_guard lock(ctx->share->mutex);
      auto it = ctx->share->renderbuffers.find(renderbuffers[i]);
      if (it == ctx->share->renderbuffers.end()) continue;
      rb = it->second;
      ctx->share->renderbuffers.erase(it);
    }
    if (!rb) continue;
    // §9.2.4: a deleted bound renderbuffer is unbound (RENDERBUFFER_BINDING zero); §9.2.7: it is detached from the
    // currently bound framebuffers.
    if (ctx->renderbuffer == rb) ctx->renderbuffer.reset();
    detach_deleted_renderbuffer(ctx, rb.get());
  }
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI GLboolean APIENTRY glIsRenderbuffer(GLuint renderbuffer) {
  BISMUTH_GL_BEGIN(GL_FALSE)
  std::lock_guard lock(ctx->share->mutex);
  auto it = ctx->share->renderbuffers.find(renderbuffer);
  return it != ctx->share->renderbuffers.end() && it->second ? GL_TRUE : GL_FALSE;
  BISMUTH_GL_END(GL_FALSE)
}

GLAPI void APIENTRY glBindRenderbuffer(GLenum target, GLuint renderbuffer) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (target != GL_RENDERBUFFER) {
    ctx->set_error(GL_INVALID_ENUM, "glBindRenderbuffer: target must be RENDERBUFFER, not " + hex(target));
    return;
  }
  if (renderbuffer == 0) {
    ctx->renderbuffer.reset();
    return;
  }
  std::lock_guard lock(ctx->share->mutex);
  auto it = ctx->share->renderbuffers.find(renderbuffer);
  // GL 4.6 §9.2.4: "An INVALID_OPERATION error is generated if renderbuffer is not zero or a name returned from a
  // previous call to GenRenderbuffers, or if such a name has since been deleted" (ES 3.2: any name creates one).
  if (it == ctx->share->renderbuffers.end() && !ctx->version.es) {
    ctx->set_error(GL_INVALID_OPERATION,
                   "glBindRenderbuffer: " + std::to_string(renderbuffer) + " is not a name from glGenRenderbuffers");
    return;
  }
  auto& slot = ctx->share->renderbuffers[renderbuffer];
  if (!slot) {
    slot = std::make_shared<RenderbufferObject>();
    slot->name = renderbuffer;
  }
  ctx->renderbuffer = slot;
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glRenderbufferStorage(GLenum target, GLenum internalformat, GLsizei width, GLsizei height) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (auto rb = bound_renderbuffer(ctx, target, "glRenderbufferStorage")) {
    storage(ctx, *rb, 0, internalformat, width, height, "glRenderbufferStorage");
  }
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glRenderbufferStorageMultisample(GLenum target, GLsizei samples, GLenum internalformat,
                                                     GLsizei width, GLsizei height) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (auto rb = bound_renderbuffer(ctx, target, "glRenderbufferStorageMultisample")) {
    storage(ctx, *rb, samples, internalformat, width, height, "glRenderbufferStorageMultisample");
  }
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glNamedRenderbufferStorage(GLuint renderbuffer, GLenum internalformat, GLsizei width,
                                               GLsizei height) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (auto rb = named_renderbuffer(ctx, renderbuffer, "glNamedRenderbufferStorage")) {
    storage(ctx, *rb, 0, internalformat, width, height, "glNamedRenderbufferStorage");
  }
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glNamedRenderbufferStorageMultisample(GLuint renderbuffer, GLsizei samples, GLenum internalformat,
                                                          GLsizei width, GLsizei height) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (auto rb = named_renderbuffer(ctx, renderbuffer, "glNamedRenderbufferStorageMultisample")) {
    storage(ctx, *rb, samples, internalformat, width, height, "glNamedRenderbufferStorageMultisample");
  }
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glGetRenderbufferParameteriv(GLenum target, GLenum pname, GLint* params) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (auto rb = bound_renderbuffer(ctx, target, "glGetRenderbufferParameteriv")) {
    parameter(ctx, *rb, pname, params, "glGetRenderbufferParameteriv");
  }
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glGetNamedRenderbufferParameteriv(GLuint renderbuffer, GLenum pname, GLint* params) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (auto rb = named_renderbuffer(ctx, renderbuffer, "glGetNamedRenderbufferParameteriv")) {
    parameter(ctx, *rb, pname, params, "glGetNamedRenderbufferParameteriv");
  }
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

}  // extern "C"
