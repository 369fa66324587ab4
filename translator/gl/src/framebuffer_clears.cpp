// Clearing the draw framebuffer's color, depth and stencil buffers (GL 4.6 §17.4.3; OpenGL ES 3.2 §15.2.3):
// glClearColor, glClearDepth(f), glClearStencil, glClear, glClearBuffer{f,i,ui}v / fi and the
// glClearNamedFramebuffer* forms. The stencil buffer is a STENCIL_INDEX8 attachment or a depth-stencil level's stencil
// plane, an R8_UINT image (textures.hpp): its clear is a colour clear of the masked index. The depth buffer is cleared
// with CommandStream::clear_image (a depth clear of a depth-format image, a colour clear of the colour storage of
// depth_textures_as_color) to the depth value rounded as an upload rounds it. A color attachment is
// cleared in stream order with CommandStream::clear_image (vkCmdClearColorImage) over its level and layer(s) —
// all layers of a layered attachment (§9.8); a slice of a 3D texture, and an sRGB attachment of a desktop context
// (GL writes the clear value unconverted while FRAMEBUFFER_SRGB is disabled, which is the only state here, where
// Vulkan would encode it), are written as converted texels instead (the glClearTexSubImage path).
//
// Not modelled: the scissor test, color masks and FRAMEBUFFER_SRGB (Bismuth has no such state); §17.4.3 applies
// them to clears.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "framebuffers.hpp"
#include "texture_client_data.hpp"

namespace bismuth::gl {
namespace {

// The value a clear writes and which command gave it (the §17.4.3.1 type rules compare it with the buffer's).
struct ClearValue {
  enum class Kind { Float, Int, Uint } kind = Kind::Float;
  std::array<float, 4> f{};
  std::array<int32_t, 4> i{};
  std::array<uint32_t, 4> u{};
};

// `stencil_plane`: the attachment's stencil buffer (attached_image).
bool clear_attachment(Context* ctx, const FramebufferAttachment& a, const ClearValue& value, const char* func,
                      bool stencil_plane = false) {
  // A layered cube map: face by face, since a mutable cube map may keep each face's level in an image of its own.
  if (a.layered && a.texture && a.texture->target == GL_TEXTURE_CUBE_MAP) {
    for (uint32_t face = 0; face < 6; ++face) {
      FramebufferAttachment one = a;
      one.layered = false;
      one.face = face;
      if (!clear_attachment(ctx, one, value, func, stencil_plane)) return false;
    }
    return true;
  }
  AttachedImage img;
  if (!attached_image(a, img, stencil_plane)) return true;
  const SizedFormat& f = *img.level->format;
  // §17.4.3.1: "If the buffer is a fixed- or floating-point buffer, ClearBufferfv must be used; signed integer:
  // ClearBufferiv; unsigned integer: ClearBufferuiv ... Otherwise the results are undefined" (glClear of an
  // integer buffer too): such a buffer is left as it is.
  const ClearValue::Kind want = f.numeric == Numeric::Sint   ? ClearValue::Kind::Int
                                : f.numeric == Numeric::Uint ? ClearValue::Kind::Uint
                                                             : ClearValue::Kind::Float;
  if (want != value.kind) {
    ctx->debug(GL_DEBUG_SOURCE_API, GL_DEBUG_TYPE_UNDEFINED_BEHAVIOR, 0, GL_DEBUG_SEVERITY_MEDIUM,
               std::string(func) + ": the clear value's type does not match the " + f.name +
                   " buffer's (GL 4.6 §17.4.3.1: undefined); the buffer is left unchanged");
    return true;
  }
  ClearValue v = value;
  if (is_depth(f)) {
    // §17.4.3: "When clearing a fixed-point depth buffer, d is clamped to the range [0, 1] and converted to
    // fixed-point"; the depth texel an upload of d as DEPTH_COMPONENT/FLOAT makes (pixel_transfer.hpp: clamped to
    // [0, 1] for float depth too, which Vulkan's depth images need) read back as the float the clear writes, so a
    // 24-bit format kept in 32-bit storage keeps 24 bits.
    std::vector<std::byte> texel(f.vk_texel_bytes);
    PixelStore one;
    one.alignment = 1;
    float d = std::isnan(v.f[0]) ? 0.0f : std::clamp(v.f[0], 0.0f, 1.0f);
    TransferResult r = unpack_pixels(f, GL_DEPTH_COMPONENT, GL_FLOAT, one, Extent{1, 1, 1, false}, &d, texel);
    if (r.ok()) r = pack_pixels(f, GL_DEPTH_COMPONENT, GL_FLOAT, one, Extent{1, 1, 1, false}, texel, &d);
    if (!r.ok()) {
      ctx->set_error(r.error, std::string(func) + ": " + r.message);
      return false;
    }
    const backend::ImageRegion region = attached_region(img, 0, 0, img.width, img.height, 0, img.layers);
    const backend::ImageSubresources range{region.mip_level, 1, region.base_layer, region.layer_count};
    VkClearColorValue color{};
    color.float32[0] = d;
    if (Status ok = ctx->stream->clear_image(*img.store.image, range, color); !ok) {
      ctx->backend_error(func, ok.error());
      return false;
    }
    return true;
  }
  if (f.numeric == Numeric::Unorm) {
    // "Unsigned normalized fixed-point RGBA color buffers are cleared to color values derived by clamping each
    // component of the clear color to the range [0, 1], then converting to fixed-point".
    for (float& c : v.f) c = std::clamp(c, 0.0f, 1.0f);
  }
  if (f.components == 3) v.f[3] = 1.0f, v.i[3] = 1, v.u[3] = 1;  // the RGBA storage's alpha of an RGB format
  const backend::ImageRegion region = attached_region(img, 0, 0, img.width, img.height, 0, img.layers);
  const bool texels = img.target == GL_TEXTURE_3D || (f.srgb && !ctx->version.es);
  if (!texels) {
    VkClearColorValue color{};
    if (v.kind == ClearValue::Kind::Float) std::memcpy(color.float32, v.f.data(), sizeof color.float32);
    if (v.kind == ClearValue::Kind::Int) std::memcpy(color.int32, v.i.data(), sizeof color.int32);
    if (v.kind == ClearValue::Kind::Uint) std::memcpy(color.uint32, v.u.data(), sizeof color.uint32);
    const backend::ImageSubresources range{region.mip_level, 1, region.base_layer, region.layer_count};
    if (Status ok = ctx->stream->clear_image(*img.store.image, range, color); !ok) {
      ctx->backend_error(func, ok.error());
      return false;
    }
    return true;
  }
  // One texel converted as an upload converts (RGBA / RGBA_INTEGER of the value's type), repeated over the region.
  std::vector<std::byte> texel(f.vk_texel_bytes);
  PixelStore one;
  one.alignment = 1;
  const GLenum format = v.kind == ClearValue::Kind::Float ? GL_RGBA : GL_RGBA_INTEGER;
  const GLenum type = v.kind == ClearValue::Kind::Float ? GL_FLOAT
                      : v.kind == ClearValue::Kind::Int ? GL_INT
                                                        : GL_UNSIGNED_INT;
  const void* data = v.kind == ClearValue::Kind::Float ? static_cast<const void*>(v.f.data())
                     : v.kind == ClearValue::Kind::Int ? static_cast<const void*>(v.i.data())
                                                       : static_cast<const void*>(v.u.data());
  if (TransferResult r = unpack_pixels(f, format, type, one, Extent{1, 1, 1, false}, data, texel); !r.ok()) {
    ctx->set_error(r.error, std::string(func) + ": " + r.message);
    return false;
  }
  const auto bytes = static_cast<size_t>(backend::region_bytes(*img.store.image, region));
  std::vector<std::byte> fill(bytes);
  for (size_t at = 0; at + texel.size() <= bytes; at += texel.size())
    std::memcpy(fill.data() + at, texel.data(), texel.size());
  if (Status ok = ctx->stream->upload_image(*img.store.image, region, fill); !ok) {
    ctx->backend_error(func, ok.error());
    return false;
  }
  return true;
}

// Clears the stencil buffer, if the framebuffer has one, to `index`. §17.4.3: "ClearStencil takes a single integer
// argument that is the value to which to clear the stencil buffer. s is masked to the number of bitplanes in the
// stencil buffer" (8); ClearBuffer's stencil value likewise. A complete framebuffer's stencil attachment is a
// STENCIL_INDEX8 image (framebuffer_status): its R8_UINT texels are the indices. Not modelled: the stencil write
// mask (Bismuth has no glStencilMask state) and the scissor test.
bool clear_stencil(Context* ctx, const FramebufferObject& fb, GLint index, const char* func) {
  if (!fb.stencil.attached()) return true;  // "If no stencil buffer is present, ... no effect"
  ClearValue v;
  v.kind = ClearValue::Kind::Uint;
  v.u[0] = static_cast<uint32_t>(index) & 0xFFu;
  return clear_attachment(ctx, fb.stencil, v, func, true);
}

// Clears the depth buffer, if the framebuffer has one, to `depth` (§17.4.3; "If no depth buffer is present, ... no
// effect"). Not modelled: the depth write mask (no glDepthMask state) and the scissor test.
bool clear_depth(Context* ctx, const FramebufferObject& fb, double depth, const char* func) {
  if (!fb.depth.attached()) return true;
  ClearValue v;
  v.f[0] = static_cast<float>(depth);
  return clear_attachment(ctx, fb.depth, v, func);
}

// §9.4.4: "An INVALID_FRAMEBUFFER_OPERATION error is generated by commands that ... write to the framebuffer
// (Clear, ClearBuffer*) ... if the current draw framebuffer is not framebuffer complete" (the default framebuffer of
// a surfaceless context: FRAMEBUFFER_UNDEFINED).
FramebufferObject* complete_draw_framebuffer(Context* ctx, FramebufferObject* fb, const char* func) {
  std::string why;
  if (framebuffer_status(*ctx, fb, &why) != GL_FRAMEBUFFER_COMPLETE) {
    ctx->set_error(GL_INVALID_FRAMEBUFFER_OPERATION,
                   std::string(func) + ": the draw framebuffer is not framebuffer complete: " + why);
    return nullptr;
  }
  return fb;
}

// glClearBuffer*: `buffer` and `drawbuffer` per §17.4.3.1, the type rules of each command.
void clear_buffer(Context* ctx, FramebufferObject* fb, GLenum buffer, GLint drawbuffer, const ClearValue& value,
                  const char* func) {
  // "An INVALID_ENUM error is generated by ClearBufferiv and ClearNamedFramebufferiv if buffer is not COLOR or
  // STENCIL; ... ClearBufferuiv ... if buffer is not COLOR; ... ClearBufferfv ... if buffer is not COLOR or DEPTH".
  const bool ok_enum = buffer == GL_COLOR || (value.kind == ClearValue::Kind::Int && buffer == GL_STENCIL) ||
                       (value.kind == ClearValue::Kind::Float && buffer == GL_DEPTH);
  if (!ok_enum) {
    ctx->set_error(GL_INVALID_ENUM, std::string(func) + ": invalid buffer " + hex(buffer));
    return;
  }
  // "An INVALID_VALUE error is generated if buffer is COLOR and drawbuffer is negative, or greater than the value
  // of MAX_DRAW_BUFFERS minus one; or if buffer is DEPTH, STENCIL, or DEPTH_STENCIL and drawbuffer is not zero."
  if (buffer == GL_COLOR ? (drawbuffer < 0 || static_cast<uint32_t>(drawbuffer) >= kMaxColorAttachments)
                         : drawbuffer != 0) {
    ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": invalid drawbuffer " + std::to_string(drawbuffer));
    return;
  }
  if (complete_draw_framebuffer(ctx, fb, func) == nullptr) return;
  // "If buffer is STENCIL, ... value is a pointer to a single stencil value to clear the stencil buffer to".
  if (buffer == GL_STENCIL) {
    clear_stencil(ctx, *fb, value.i[0], func);
    return;
  }
  // "If buffer is DEPTH, drawbuffer must be zero, and value points to the single depth value to clear the depth
  // buffer to."
  if (buffer == GL_DEPTH) {
    clear_depth(ctx, *fb, value.f[0], func);
    return;
  }
  // "If the value of DRAW_BUFFERi is NONE, the command has no effect."
  const FramebufferAttachment* a = color_buffer(*fb, fb->draw_buffers[static_cast<size_t>(drawbuffer)]);
  if (a != nullptr) clear_attachment(ctx, *a, value, func);
}

void clear_bufferfi(Context* ctx, FramebufferObject* fb, GLenum buffer, GLint drawbuffer, GLfloat depth, GLint stencil,
                    const char* func) {
  // "An INVALID_ENUM error is generated by ClearBufferfi and ClearNamedFramebufferfi if buffer is not
  // DEPTH_STENCIL"; drawbuffer must be zero (INVALID_VALUE).
  if (buffer != GL_DEPTH_STENCIL) {
    ctx->set_error(GL_INVALID_ENUM, std::string(func) + ": buffer must be DEPTH_STENCIL, not " + hex(buffer));
    return;
  }
  if (drawbuffer != 0) {
    ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": drawbuffer must be zero");
    return;
  }
  // "ClearBufferfi ... clears both depth and stencil buffers ... The result of ClearBufferfi is the same as
  // clearing the depth and stencil buffers separately" (each only where present).
  if (complete_draw_framebuffer(ctx, fb, func) == nullptr) return;
  if (clear_depth(ctx, *fb, depth, func)) clear_stencil(ctx, *fb, stencil, func);
}

// The DSA forms' framebuffer (zero: the default framebuffer).
bool named(Context* ctx, GLuint name, const char* func, FramebufferObject*& out) {
  out = nullptr;
  if (name == 0) return true;
  auto it = ctx->framebuffers.find(name);
  if (it == ctx->framebuffers.end() || !it->second) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": " + std::to_string(name) +
                                             " is not the name of an existing framebuffer object");
    return false;
  }
  out = it->second.get();
  return true;
}

ClearValue float_value(const GLfloat* v, GLenum buffer) {
  ClearValue c;
  if (v) std::copy_n(v, buffer == GL_COLOR ? 4 : 1, c.f.begin());
  return c;
}
ClearValue int_value(const GLint* v, GLenum buffer) {
  ClearValue c;
  c.kind = ClearValue::Kind::Int;
  if (v) std::copy_n(v, buffer == GL_COLOR ? 4 : 1, c.i.begin());
  return c;
}
ClearValue uint_value(const GLuint* v) {
  ClearValue c;
  c.kind = ClearValue::Kind::Uint;
  if (v) std::copy_n(v, 4, c.u.begin());
  return c;
}

}  // namespace
}  // namespace bismuth::gl

using namespace bismuth::gl;

extern "C" {

GLAPI void APIENTRY glClearColor(GLfloat red, GLfloat green, GLfloat blue, GLfloat alpha) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  // GL 4.6 §17.4.3: the clear color is stored unclamped (clamping happens per buffer at clear time).
  ctx->clear_color = {red, green, blue, alpha};
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

// §17.4.3: "ClearDepth ... sets the depth value used when clearing the depth buffer" (DEPTH_CLEAR_VALUE, initially
// 1.0); kept as given here, clamped to [0, 1] when a clear writes it (clear_attachment).
GLAPI void APIENTRY glClearDepth(GLdouble depth) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  ctx->clear_depth = depth;
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glClearDepthf(GLfloat depth) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  ctx->clear_depth = depth;
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glClearStencil(GLint s) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  // §17.4.3: stored as given; masked to the stencil buffer's bitplanes when a clear writes it.
  ctx->clear_stencil = s;
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glClear(GLbitfield mask) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  // §17.4.3: "An INVALID_VALUE error is generated if any bits other than COLOR_BUFFER_BIT, DEPTH_BUFFER_BIT, or
  // STENCIL_BUFFER_BIT are set in mask."
  if (mask & ~GLbitfield{GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT}) {
    ctx->set_error(GL_INVALID_VALUE, "glClear: invalid bits in mask " + hex(mask));
    return;
  }
  FramebufferObject* fb = complete_draw_framebuffer(ctx, ctx->draw_framebuffer.get(), "glClear");
  if (fb == nullptr) return;
  if ((mask & GL_DEPTH_BUFFER_BIT) && !clear_depth(ctx, *fb, ctx->clear_depth, "glClear")) return;
  if ((mask & GL_STENCIL_BUFFER_BIT) && !clear_stencil(ctx, *fb, ctx->clear_stencil, "glClear")) return;
  if (!(mask & GL_COLOR_BUFFER_BIT)) return;
  ClearValue v;
  v.f = ctx->clear_color;
  // "When Clear is called, the only per-fragment operations that are applied (if enabled) are the pixel ownership
  // test, the scissor test, sRGB conversion, and dithering"; every draw buffer is cleared (integer buffers:
  // undefined, left unchanged in clear_attachment).
  for (GLenum b : fb->draw_buffers) {
    if (const FramebufferAttachment* a = color_buffer(*fb, b)) {
      if (!clear_attachment(ctx, *a, v, "glClear")) return;
    }
  }
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glClearBufferfv(GLenum buffer, GLint drawbuffer, const GLfloat* value) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  clear_buffer(ctx, ctx->draw_framebuffer.get(), buffer, drawbuffer, float_value(value, buffer), "glClearBufferfv");
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glClearBufferiv(GLenum buffer, GLint drawbuffer, const GLint* value) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  clear_buffer(ctx, ctx->draw_framebuffer.get(), buffer, drawbuffer, int_value(value, buffer), "glClearBufferiv");
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glClearBufferuiv(GLenum buffer, GLint drawbuffer, const GLuint* value) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  clear_buffer(ctx, ctx->draw_framebuffer.get(), buffer, drawbuffer, uint_value(value), "glClearBufferuiv");
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glClearBufferfi(GLenum buffer, GLint drawbuffer, GLfloat depth, GLint stencil) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  clear_bufferfi(ctx, ctx->draw_framebuffer.get(), buffer, drawbuffer, depth, stencil, "glClearBufferfi");
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glClearNamedFramebufferfv(GLuint framebuffer, GLenum buffer, GLint drawbuffer,
                                              const GLfloat* value) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  FramebufferObject* fb = nullptr;
  if (named(ctx, framebuffer, "glClearNamedFramebufferfv", fb)) {
    clear_buffer(ctx, fb, buffer, drawbuffer, float_value(value, buffer), "glClearNamedFramebufferfv");
  }
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glClearNamedFramebufferiv(GLuint framebuffer, GLenum buffer, GLint drawbuffer, const GLint* value) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  FramebufferObject* fb = nullptr;
  if (named(ctx, framebuffer, "glClearNamedFramebufferiv", fb)) {
    clear_buffer(ctx, fb, buffer, drawbuffer, int_value(value, buffer), "glClearNamedFramebufferiv");
  }
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glClearNamedFramebufferuiv(GLuint framebuffer, GLenum buffer, GLint drawbuffer,
                                               const GLuint* value) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  FramebufferObject* fb = nullptr;
  if (named(ctx, framebuffer, "glClearNamedFramebufferuiv", fb)) {
    clear_buffer(ctx, fb, buffer, drawbuffer, uint_value(value), "glClearNamedFramebufferuiv");
  }
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glClearNamedFramebufferfi(GLuint framebuffer, GLenum buffer, GLint drawbuffer, GLfloat depth,
                                              GLint stencil) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  FramebufferObject* fb = nullptr;
  if (named(ctx, framebuffer, "glClearNamedFramebufferfi", fb)) {
    clear_bufferfi(ctx, fb, buffer, drawbuffer, depth, stencil, "glClearNamedFramebufferfi");
  }
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

}  // extern "C"
