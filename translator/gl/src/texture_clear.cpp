// glClearTexImage / glClearTexSubImage (GL 4.6 §8.21): one pixel of (format, type) converted to the level's texels
// as an upload would convert it (no pixel-store state applies: `data` is one element), then written over the
// region in stream order. A null `data` clears to zero.
#include <algorithm>
#include <cstring>
#include <vector>

#include "texture_client_data.hpp"
#include "texture_multisample.hpp"

namespace bismuth::gl {
namespace {

// The parts of `tex`'s level `lvl` that the region covers: one per face of a cube map (z selects faces; the faces
// of a mutable cube map may be images of their own), else one. A face without an image is left out.
std::vector<ImagePart> region_parts(const TextureObject& tex, GLenum target, uint32_t lvl, GLint x, GLint y, GLint z,
                                    GLsizei w, GLsizei h, GLsizei d) {
  std::vector<ImagePart> parts;
  for (GLsizei i = 0; i < (target == GL_TEXTURE_CUBE_MAP ? d : 1); ++i) {
    const uint32_t face = target == GL_TEXTURE_CUBE_MAP ? static_cast<uint32_t>(z + i) : 0;
    const LevelStore store = level_store(tex, face, lvl);
    if (store.image == nullptr) continue;
    parts.push_back({store.image, target == GL_TEXTURE_CUBE_MAP
                                      ? sub_region(GL_TEXTURE_CUBE_MAP, store, x, y, 0, w, h, 1)
                                      : sub_region(target, store, x, y, z, w, h, d)});
  }
  return parts;
}

// Writes `texel` over the parts: every sample of a multisample texture through vkCmdClearColorImage
// (texture_multisample.hpp), else uploads of the repeated texel.
bool fill_parts(Context* ctx, TextureObject& tex, const std::vector<ImagePart>& parts,
                const std::vector<std::byte>& texel, const char* func) {
  if (is_multisample(tex.target)) return parts.empty() || clear_multisample(ctx, tex, texel, parts.front().region, func);
  for (const ImagePart& part : parts) {
    const auto bytes = static_cast<size_t>(backend::region_bytes(*part.image, part.region));
    std::vector<std::byte> texels(bytes);
    for (size_t at = 0; at + texel.size() <= bytes; at += texel.size()) {
      std::memcpy(texels.data() + at, texel.data(), texel.size());
    }
    if (Status ok = ctx->stream->upload_image(*part.image, part.region, texels); !ok) {
      ctx->backend_error(func, ok.error());
      return false;
    }
  }
  return true;
}

void clear_texture(GLuint texture, GLint level, bool whole, GLint x, GLint y, GLint z, GLsizei w, GLsizei h, GLsizei d,
                   GLenum format, GLenum type, const void* data, const char* func) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  // GL 4.6 §8.21: "An INVALID_OPERATION error is generated if texture is zero or not the name of a texture
  // object", "... if texture is a buffer texture", "... if the texture level ... has not been defined"
  // (the image is "the texture image at level" of the texture: every face and layer); "An INVALID_VALUE error is
  // generated if level is negative or greater than log2 of the maximum texture width, height or depth"; a region
  // outside the image is INVALID_VALUE; format and type follow §8.4.4 against the level's internal format.
  auto t = named_texture(ctx, texture, func);
  if (!t) return;
  if (t->target == GL_TEXTURE_BUFFER) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": buffer textures cannot be cleared");
    return;
  }
  if (level < 0 || static_cast<uint32_t>(level) >= kMaxTextureLevels) {
    ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": invalid level " + std::to_string(level));
    return;
  }
  const auto lvl = static_cast<uint32_t>(level);
  const TextureLevel& l = t->levels[0][lvl];
  if (!l.defined()) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": level " + std::to_string(level) + " is not defined");
    return;
  }
  // GL 4.6 §8.21: "An INVALID_OPERATION error is generated if the internal format of the texture image ... is a
  // compressed format".
  if (is_compressed_level(l)) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": level " + std::to_string(level) + " is compressed");
    return;
  }
  const TransferResult check = check_unpack_gl(l.format->internalformat, format, type);
  if (!check.ok()) {
    ctx->set_error(check.error, std::string(func) + ": " + check.message);
    return;
  }
  uint32_t depth = l.depth;
  if (t->target == GL_TEXTURE_CUBE_MAP) depth = 6;
  if (t->target == GL_TEXTURE_1D_ARRAY) depth = 1;
  if (whole) {
    x = y = z = 0;
    w = static_cast<GLsizei>(l.width);
    h = static_cast<GLsizei>(l.height);
    d = static_cast<GLsizei>(depth);
  }
  auto outside = [](GLint o, GLsizei n, uint32_t size) {
    return o < 0 || n < 0 || static_cast<int64_t>(o) + n > static_cast<int64_t>(size);
  };
  if (outside(x, w, l.width) || outside(y, h, l.height) || outside(z, d, depth)) {
    ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": the region is not inside the level");
    return;
  }
  if (w == 0 || h == 0 || d == 0) return;
  const std::vector<ImagePart> parts = region_parts(*t, t->target, lvl, x, y, z, w, h, d);
  if (parts.size() != static_cast<size_t>(t->target == GL_TEXTURE_CUBE_MAP ? d : 1)) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": the level has no image");
    return;
  }
  const SizedFormat& f = *l.format;
  std::vector<std::byte> texel(f.vk_texel_bytes);
  if (data != nullptr) {
    PixelStore one;
    one.alignment = 1;
    const TransferResult r = unpack_pixels(f, format, type, one, Extent{1, 1, 1, false}, data, texel);
    if (!r.ok()) {
      ctx->set_error(r.error, std::string(func) + ": " + r.message);
      return;
    }
  }
  // DEPTH_STENCIL data of a depth-stencil level also sets the stencil indices (the level's stencil plane, an
  // R8_UINT image like STENCIL_INDEX8's); DEPTH_COMPONENT data leaves them.
  if (format == GL_DEPTH_STENCIL && is_depth_stencil(f) && t->stencil_plane) {
    std::vector<std::byte> index(1);
    if (data != nullptr) {
      PixelStore one;
      one.alignment = 1;
      const TransferResult r = unpack_stencil_indices(format, type, one, Extent{1, 1, 1, false}, data, index);
      if (!r.ok()) {
        ctx->set_error(r.error, std::string(func) + ": " + r.message);
        return;
      }
    }
    TextureObject& plane = *t->stencil_plane;
    if (!fill_parts(ctx, plane, region_parts(plane, t->target, lvl, x, y, z, w, h, d), index, func)) return;
  }
  fill_parts(ctx, *t, parts, texel, func);
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

}  // namespace
}  // namespace bismuth::gl

using namespace bismuth::gl;

extern "C" {

GLAPI void APIENTRY glClearTexImage(GLuint texture, GLint level, GLenum format, GLenum type, const void* data) {
  clear_texture(texture, level, true, 0, 0, 0, 0, 0, 0, format, type, data, "glClearTexImage");
}

GLAPI void APIENTRY glClearTexSubImage(GLuint texture, GLint level, GLint xoffset, GLint yoffset, GLint zoffset,
                                       GLsizei width, GLsizei height, GLsizei depth, GLenum format, GLenum type,
                                       const void* data) {
  clear_texture(texture, level, false, xoffset, yoffset, zoffset, width, height, depth, format, type, data,
                "glClearTexSubImage");
}

}  // extern "C"
