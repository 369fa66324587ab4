// glReadPixels / glReadnPixels (GL 4.6 §18.2; OpenGL ES 3.2 §16.1): the read framebuffer's read buffer — a texture
// level attached to a framebuffer object — read in stream order and packed under the PACK pixel-store state into
// client memory or PIXEL_PACK_BUFFER (texture_client_data.hpp's pack_texels, the path glGetTexImage takes).
//
// Pixels of the rectangle outside the attachment: GL 4.6 §18.2.8 calls their values undefined; they are left
// unwritten (only the part inside the attachment is read and packed, at its place in the client layout).
#include <algorithm>

#include "framebuffers.hpp"
#include "texture_client_data.hpp"

namespace bismuth::gl {
namespace {

void read_pixels(GLint x, GLint y, GLsizei width, GLsizei height, GLenum format, GLenum type, int64_t buf_size,
                 void* pixels, const char* func) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  // GL 4.6 §18.2: "An INVALID_VALUE error is generated if either width or height is negative."
  if (width < 0 || height < 0) {
    ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": width or height is negative");
    return;
  }
  // §18.2: "An INVALID_FRAMEBUFFER_OPERATION error is generated if the object bound to READ_FRAMEBUFFER_BINDING is
  // not framebuffer complete" — the default framebuffer of a surfaceless context included (FRAMEBUFFER_UNDEFINED).
  FramebufferObject* fb = ctx->read_framebuffer.get();
  std::string why;
  if (framebuffer_status(*ctx, fb, &why) != GL_FRAMEBUFFER_COMPLETE) {
    ctx->set_error(GL_INVALID_FRAMEBUFFER_OPERATION,
                   std::string(func) + ": the read framebuffer is not framebuffer complete: " + why);
    return;
  }
  // §18.2.1: "If the format is DEPTH_COMPONENT, then values are taken from the depth buffer"; "If the format is
  // STENCIL_INDEX, the stencil buffer is used"; "If the format is DEPTH_STENCIL, then values are taken from both
  // the depth buffer and the stencil buffer". "An INVALID_OPERATION error is generated if format is DEPTH_COMPONENT
  // and there is no depth buffer; if format is STENCIL_INDEX and there is no stencil buffer; if format is
  // DEPTH_STENCIL and there is not both a depth buffer and a stencil buffer", and "... if format is a color format
  // and the read buffer is NONE". The depth buffer is the depth attachment's level, the stencil buffer a
  // STENCIL_INDEX8 level or a depth-stencil level's stencil plane (attached_image). OpenGL ES reads colour only
  // (§16.1.2).
  const bool es = ctx->version.es;
  const bool stencil = format == GL_STENCIL_INDEX && !es;
  const bool depth = format == GL_DEPTH_COMPONENT && !es;
  const bool depth_stencil = format == GL_DEPTH_STENCIL && !es;
  if ((depth || depth_stencil) && !fb->depth.attached()) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": the read framebuffer has no depth buffer");
    return;
  }
  if ((stencil || depth_stencil) && !fb->stencil.attached()) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": the read framebuffer has no stencil buffer");
    return;
  }
  const FramebufferAttachment* a = stencil                  ? &fb->stencil
                                   : depth || depth_stencil ? &fb->depth
                                                            : color_buffer(*fb, fb->read_buffer);
  if (a == nullptr || !a->attached()) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": the read buffer is NONE");
    return;
  }
  AttachedImage img, stencil_img;
  if (!attached_image(*a, img, stencil) || (depth_stencil && !attached_image(fb->stencil, stencil_img, true))) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": the read buffer has no image");
    return;
  }
  // "An INVALID_OPERATION error is generated if ... the value of SAMPLE_BUFFERS for the read framebuffer is
  // greater than zero."
  if (img.target == GL_TEXTURE_2D_MULTISAMPLE || img.target == GL_TEXTURE_2D_MULTISAMPLE_ARRAY) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": the read framebuffer is multisampled");
    return;
  }
  const SizedFormat& f = *img.level->format;
  // Format and type: GL 4.6 §18.2.4 (the §8.4.4 rules against the read buffer's format: an integer buffer needs an
  // integer format, and the other way round, INVALID_OPERATION); OpenGL ES 3.2 §16.1.2: "Only two combinations of
  // format and type are accepted in most cases": RGBA/UNSIGNED_BYTE (normalized fixed point), RGBA_INTEGER/INT
  // (signed integer), RGBA_INTEGER/UNSIGNED_INT (unsigned integer), RGBA/FLOAT (floating point), "the second is an
  // implementation-chosen format" — IMPLEMENTATION_COLOR_READ_FORMAT/TYPE; anything else INVALID_OPERATION.
  // DEPTH_STENCIL from a depth buffer beside a separate stencil buffer takes the depth-stencil types all the same.
  const GLenum checked_as = depth_stencil && !is_depth_stencil(f) ? GL_DEPTH24_STENCIL8 : f.internalformat;
  const TransferResult check =
      ctx->version.es ? check_read_pixels_es(f.internalformat, format, type) : check_pack_gl(checked_as, format, type);
  if (!check.ok()) {
    ctx->set_error(check.error, std::string(func) + ": " + check.message);
    return;
  }
  // The whole rectangle's client layout decides the buffer checks (bufSize, pack buffer size), as GL sizes the
  // written range by width and height: §18.2.8 "An INVALID_OPERATION error is generated if a pixel pack buffer
  // object is bound and ... the data would be packed to the buffer object such that the memory writes required
  // would exceed the data store size"; glReadnPixels: "if the buffer size required to store the requested data is
  // greater than bufSize".
  const Extent full{static_cast<uint32_t>(width), static_cast<uint32_t>(height), 1, false};
  const auto layout = client_layout(format, type, ctx->pack, full.width, full.height, 1, false);
  if (!layout) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": the pixel layout is too large");
    return;
  }
  const auto offset = reinterpret_cast<uintptr_t>(pixels);
  if (ctx->pixel_pack) {
    if (offset > static_cast<uint64_t>(ctx->pixel_pack->size) ||
        layout->total_bytes > static_cast<uint64_t>(ctx->pixel_pack->size) - offset) {
      ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": the pixels need " +
                                               std::to_string(layout->total_bytes) + " bytes at offset " +
                                               std::to_string(offset) + " of the PIXEL_PACK buffer of " +
                                               std::to_string(ctx->pixel_pack->size) + " bytes");
      return;
    }
  } else if (buf_size >= 0 && layout->total_bytes > static_cast<uint64_t>(buf_size)) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": the pixels need " +
                                             std::to_string(layout->total_bytes) + " bytes, bufSize is " +
                                             std::to_string(buf_size));
    return;
  }
  // The part of the rectangle inside the attachment, packed at its place: the same layout with the first
  // (x0 - x) pixels and (y0 - y) rows skipped and the full width as the row length.
  const int64_t x0 = std::max<int64_t>(x, 0), y0 = std::max<int64_t>(y, 0);
  int64_t x1 = std::min<int64_t>(int64_t{x} + width, img.width),
          y1 = std::min<int64_t>(int64_t{y} + height, img.height);
  if (depth_stencil) {  // inside both buffers (GL 4.6 lets their sizes differ: §9.4.2 has no size rule)
    x1 = std::min<int64_t>(x1, stencil_img.width);
    y1 = std::min<int64_t>(y1, stencil_img.height);
  }
  if (x1 <= x0 || y1 <= y0) return;
  // pack_texels reads the context's PACK state: it gets the adjusted copy for this call and the application's
  // state back afterwards, also when the call throws.
  struct RestorePack {
    Context* ctx;
    PixelStore saved;
    ~RestorePack() { ctx->pack = saved; }
  } restore{ctx, ctx->pack};
  PixelStore inside = restore.saved;
  if (inside.row_length == 0) inside.row_length = width;
  inside.skip_pixels += static_cast<int32_t>(x0 - x);
  inside.skip_rows += static_cast<int32_t>(y0 - y);
  const Extent extent{static_cast<uint32_t>(x1 - x0), static_cast<uint32_t>(y1 - y0), 1, false};
  const ImagePart part{img.store.image, attached_region(img, static_cast<uint32_t>(x0), static_cast<uint32_t>(y0),
                                                        extent.width, extent.height)};
  ImagePart stencil_part;
  if (depth_stencil) {
    stencil_part = {stencil_img.store.image, attached_region(stencil_img, static_cast<uint32_t>(x0),
                                                             static_cast<uint32_t>(y0), extent.width, extent.height)};
  }
  ctx->pack = inside;
  pack_texels(ctx, f, format, type, extent, std::span(&part, 1), pixels, -1, func,
              depth_stencil ? std::span(&stencil_part, 1) : std::span<const ImagePart>{});
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

}  // namespace
}  // namespace bismuth::gl

using namespace bismuth::gl;

extern "C" {

GLAPI void APIENTRY glReadPixels(GLint x, GLint y, GLsizei width, GLsizei height, GLenum format, GLenum type,
                                 void* pixels) {
  read_pixels(x, y, width, height, format, type, -1, pixels, "glReadPixels");
}

GLAPI void APIENTRY glReadnPixels(GLint x, GLint y, GLsizei width, GLsizei height, GLenum format, GLenum type,
                                  GLsizei bufSize, void* data) {
  read_pixels(x, y, width, height, format, type, std::max<int64_t>(bufSize, 0), data, "glReadnPixels");
}

}  // extern "C"
