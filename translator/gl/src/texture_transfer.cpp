// Sub-image uploads and texture image reads (GL 4.6 §8.6 "Alternate Texture Image Specification", §8.11.4
// "Texture Image Queries"; OpenGL ES 3.2 §8.6): glTexSubImage*, glTextureSubImage*, glGetTexImage,
// glGetnTexImage, glGetTextureImage, glGetTextureSubImage. Pixels are converted on the CPU (pixel_transfer.hpp) and
// move through the context's CommandStream in stream order.
#include <algorithm>
#include <vector>

#include "compressed_formats.hpp"
#include "texture_client_data.hpp"
#include "texture_compress_online.hpp"

namespace bismuth::gl {
namespace {

// glTexSubImage*D's targets (GL 4.6 §8.6: those of the TexImage*D of the same dimension count; the DSA
// TextureSubImage3D takes a cube map too, its z selecting faces).
bool sub_image_target_ok(uint32_t dims, GLenum target, bool dsa) {
  switch (dims) {
    case 1: return target == GL_TEXTURE_1D;
    case 2:
      return target == GL_TEXTURE_2D || target == GL_TEXTURE_1D_ARRAY || target == GL_TEXTURE_RECTANGLE ||
             (!dsa && is_cube_face(target));
    default:
      return target == GL_TEXTURE_3D || target == GL_TEXTURE_2D_ARRAY || target == GL_TEXTURE_CUBE_MAP_ARRAY ||
             (dsa && target == GL_TEXTURE_CUBE_MAP);
  }
}

// The texture's level as the call addresses it; `face` for a cube face target. Null after an error.
struct Addressed {
  const TextureLevel* level = nullptr;  // face 0's (or the face's) level
  uint32_t face = 0;
  uint32_t width = 0, height = 0, depth = 0;  // the addressable box (cube maps through DSA: depth 6 faces)
};

bool address_level(Context* ctx, const TextureObject& t, GLenum target, GLint level, const char* func, Addressed& out) {
  if (level < 0 || static_cast<uint32_t>(level) >= kMaxTextureLevels || (!has_mipmaps(t.target) && level != 0)) {
    ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": invalid level " + std::to_string(level));
    return false;
  }
  out.face = is_cube_face(target) ? face_index(target) : 0;
  const TextureLevel& l = t.levels[out.face][static_cast<uint32_t>(level)];
  out.level = &l;
  out.width = l.width;
  out.height = l.height;
  out.depth = l.depth;
  if (t.target == GL_TEXTURE_CUBE_MAP && !is_cube_face(target)) out.depth = 6;
  return true;
}

// The image parts of the box (x, y, z, w, h, d) of a level: one part, or for a cube map addressed as a whole
// (z = face) one part per face, since a mutable cube map's faces may live in images of their own.
bool level_parts(Context* ctx, const TextureObject& t, GLenum target, uint32_t face, uint32_t level, GLint x, GLint y,
                 GLint z, GLsizei w, GLsizei h, GLsizei d, const char* func, std::vector<ImagePart>& parts) {
  auto missing = [&] {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": level " + std::to_string(level) +
                                             " of the texture has no image (not defined by glTexImage*/glTexStorage*)");
    return false;
  };
  if (t.target == GL_TEXTURE_CUBE_MAP && !is_cube_face(target)) {
    for (GLsizei i = 0; i < d; ++i) {
      const LevelStore store = level_store(t, static_cast<uint32_t>(z + i), level);
      if (store.image == nullptr) return missing();
      parts.push_back({store.image, sub_region(GL_TEXTURE_CUBE_MAP, store, x, y, 0, w, h, 1)});
    }
    return true;
  }
  const LevelStore store = level_store(t, face, level);
  if (store.image == nullptr) return missing();
  parts.push_back({store.image, sub_region(t.target, store, x, y, z, w, h, d)});
  return true;
}

bool box_inside(Context* ctx, const Addressed& a, GLint x, GLint y, GLint z, GLsizei w, GLsizei h, GLsizei d,
                const char* func) {
  // GL 4.6 §8.6: "An INVALID_VALUE error is generated if xoffset < 0, xoffset + width > w, yoffset < 0 ... or
  // zoffset + depth > d", and width, height or depth negative.
  auto outside = [](GLint o, GLsizei n, uint32_t size) {
    return o < 0 || n < 0 || static_cast<int64_t>(o) + n > static_cast<int64_t>(size);
  };
  if (outside(x, w, a.width) || outside(y, h, a.height) || outside(z, d, a.depth)) {
    ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": the region (" + std::to_string(x) + ", " +
                                         std::to_string(y) + ", " + std::to_string(z) + ") + (" + std::to_string(w) +
                                         ", " + std::to_string(h) + ", " + std::to_string(d) +
                                         ") is not inside the level (" + std::to_string(a.width) + ", " +
                                         std::to_string(a.height) + ", " + std::to_string(a.depth) + ")");
    return false;
  }
  return true;
}

void sub_image(Context* ctx, const std::shared_ptr<TextureObject>& t, GLenum target, uint32_t dims, GLint level,
               GLint x, GLint y, GLint z, GLsizei w, GLsizei h, GLsizei d, GLenum format, GLenum type,
               const void* pixels, const char* func) {
  Addressed a;
  if (!address_level(ctx, *t, target, level, func, a)) return;
  const TextureLevel& l = *a.level;
  // §8.6: INVALID_OPERATION "if the texture array has not been defined by a previous TexImage* or TexStorage*".
  if (!l.defined()) {
    ctx->set_error(GL_INVALID_OPERATION,
                   std::string(func) + ": level " + std::to_string(level) + " of the texture is not defined");
    return;
  }
  // Compressed levels: the GL compresses the pixels of a block-aligned box itself (compress_sub_image; every format
  // of table 8.14 and S3TC); in OpenGL ES (table 8.2 has no row for them, and ES requires no online compression)
  // they take blocks through CompressedTexSubImage* only: INVALID_OPERATION.
  const CompressedFormat* compressed = find_compressed_format(l.internalformat);
  if (compressed != nullptr && (ctx->version.es || !online_compression(*compressed))) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": level " + std::to_string(level) + " is compressed (" +
                                             compressed->name + "): use glCompressedTexSubImage*");
    return;
  }
  // Format and type against the level's internal format: desktop GL §8.4.4 / §8.5 rules, or OpenGL ES 3.2
  // table 8.2's combinations ("An INVALID_OPERATION error is generated if the combination of the internal format
  // of the texture, format and type is not one of those in table 8.2").
  const TransferResult check = ctx->version.es ? check_unpack_es(l.internalformat, format, type)
                                               : check_unpack_gl(l.format->internalformat, format, type);
  if (!check.ok()) {
    ctx->set_error(check.error, std::string(func) + ": " + check.message);
    return;
  }
  if (!box_inside(ctx, a, x, y, z, w, h, d, func)) return;
  // A compressed level is written in whole blocks (ARB_texture_compression_rgtc / _bptc, the S3TC formats likewise):
  // TexSubImage* "will result in an INVALID_OPERATION error only if one of the following conditions occurs: width
  // is not a multiple of four, width plus xoffset is not equal to TEXTURE_WIDTH, and either xoffset or yoffset is
  // non-zero; height [likewise]; or xoffset or yoffset is not a multiple of four". The blocks the box touches are
  // replaced (texels of theirs outside the box are not preserved: "The contents of any 4x4 block of texels ...
  // that does not intersect the area being modified are preserved").
  const bool at_origin = x == 0 && y == 0;
  if (compressed != nullptr &&
      (x % 4 != 0 || y % 4 != 0 || (w % 4 != 0 && static_cast<uint32_t>(x + w) != a.width && !at_origin) ||
       (h % 4 != 0 && static_cast<uint32_t>(y + h) != a.height && !at_origin))) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": the region is not aligned to " + compressed->name +
                                             "'s 4x4 blocks");
    return;
  }
  const Extent extent{static_cast<uint32_t>(w), static_cast<uint32_t>(h), static_cast<uint32_t>(d), dims == 3};
  UnpackSource source;
  if (!unpack_source(ctx, format, type, extent, pixels, func, source)) return;
  if (w == 0 || h == 0 || d == 0) return;
  if (compressed != nullptr) {
    const bool whole_cube = t->target == GL_TEXTURE_CUBE_MAP && !is_cube_face(target);
    compress_client_pixels(ctx, *t, a.face, static_cast<uint32_t>(level), whole_cube, static_cast<uint32_t>(x),
                           static_cast<uint32_t>(y), static_cast<uint32_t>(z), extent, format, type, source, func);
    return;
  }
  std::vector<ImagePart> parts, stencil_parts;
  if (!level_parts(ctx, *t, target, a.face, static_cast<uint32_t>(level), x, y, z, w, h, d, func, parts)) return;
  // DEPTH_STENCIL pixels also replace the region's stencil indices (the level's stencil plane); DEPTH_COMPONENT
  // pixels leave them as they are.
  if (format == GL_DEPTH_STENCIL && is_depth_stencil(*l.format) && t->stencil_plane &&
      !level_parts(ctx, *t->stencil_plane, target, a.face, static_cast<uint32_t>(level), x, y, z, w, h, d, func,
                   stencil_parts)) {
    return;
  }
  upload_texels(ctx, *l.format, format, type, extent, source, parts, func, stencil_parts);
}

void tex_sub_image(GLenum target, uint32_t dims, GLint level, GLint x, GLint y, GLint z, GLsizei w, GLsizei h,
                   GLsizei d, GLenum format, GLenum type, const void* pixels, const char* func) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (!sub_image_target_ok(dims, target, false)) {
    ctx->set_error(GL_INVALID_ENUM, std::string(func) + ": invalid target " + hex(target));
    return;
  }
  auto t = bound_texture(ctx, target, true, func);
  if (t) sub_image(ctx, t, target, dims, level, x, y, z, w, h, d, format, type, pixels, func);
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

void texture_sub_image(GLuint texture, uint32_t dims, GLint level, GLint x, GLint y, GLint z, GLsizei w, GLsizei h,
                       GLsizei d, GLenum format, GLenum type, const void* pixels, const char* func) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  auto t = named_texture(ctx, texture, func);
  if (!t) return;
  // GL 4.6 §8.6: "An INVALID_OPERATION error is generated by TextureSubImage*D if the effective target of
  // texture is not one of the targets" the TexSubImage*D of its dimension count takes.
  if (!sub_image_target_ok(dims, t->target, true)) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": the texture's target " + target_name(t->target) +
                                             " does not take this command");
    return;
  }
  sub_image(ctx, t, t->target, dims, level, x, y, z, w, h, d, format, type, pixels, func);
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

// glGetTex*Image*: the whole level (`whole`) or a box of it.
void get_image(Context* ctx, const TextureObject& t, GLenum target, GLint level, bool whole, GLint x, GLint y, GLint z,
               GLsizei w, GLsizei h, GLsizei d, GLenum format, GLenum type, int64_t buf_size, void* pixels,
               const char* func) {
  // GL 4.6 §8.11.4: buffer and multisample textures have no images to get: INVALID_OPERATION.
  if (t.target == GL_TEXTURE_BUFFER || t.target == GL_TEXTURE_2D_MULTISAMPLE ||
      t.target == GL_TEXTURE_2D_MULTISAMPLE_ARRAY) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": " + target_name(t.target) + " textures have no image");
    return;
  }
  Addressed a;
  if (!address_level(ctx, t, target, level, func, a)) return;
  const TextureLevel& l = *a.level;
  if (!l.defined()) {
    // A level with no image: GL returns no pixels. The format and type are still checked where known.
    return;
  }
  const TransferResult check = check_pack_gl(l.format->internalformat, format, type);
  if (!check.ok()) {
    ctx->set_error(check.error, std::string(func) + ": " + check.message);
    return;
  }
  if (whole) {
    x = y = z = 0;
    w = static_cast<GLsizei>(a.width);
    h = static_cast<GLsizei>(a.height);
    d = static_cast<GLsizei>(a.depth);
    // GL 4.6 §8.11.4: "An INVALID_OPERATION error is generated by GetTextureImage if the effective target is
    // TEXTURE_CUBE_MAP ... and the texture object is not cube complete".
    if (t.target == GL_TEXTURE_CUBE_MAP && !is_cube_face(target)) {
      for (const auto& face : t.levels) {
        const TextureLevel& f = face[static_cast<uint32_t>(level)];
        if (!f.defined() || f.format != l.format || f.width != l.width || f.height != l.height) {
          ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": the cube map's faces differ (not cube complete)");
          return;
        }
      }
    }
  } else if (!box_inside(ctx, a, x, y, z, w, h, d, func)) {
    return;
  }
  const bool volume = t.target == GL_TEXTURE_3D || t.target == GL_TEXTURE_2D_ARRAY ||
                      t.target == GL_TEXTURE_CUBE_MAP_ARRAY ||
                      (t.target == GL_TEXTURE_CUBE_MAP && !is_cube_face(target));
  const Extent extent{static_cast<uint32_t>(w), static_cast<uint32_t>(h), static_cast<uint32_t>(d), volume};
  std::vector<ImagePart> parts, stencil_parts;
  const auto lvl = static_cast<uint32_t>(level);
  // A depth-stencil level's stencil indices are its stencil plane's STENCIL_INDEX8 texels (textures.hpp): §8.11.4
  // reads them with STENCIL_INDEX, and with the depth values for DEPTH_STENCIL.
  const bool planed = is_depth_stencil(*l.format) && t.stencil_plane != nullptr;
  if (format == GL_STENCIL_INDEX && planed) {
    if (w > 0 && h > 0 && d > 0 &&
        !level_parts(ctx, *t.stencil_plane, target, a.face, lvl, x, y, z, w, h, d, func, parts)) {
      return;
    }
    pack_texels(ctx, stencil_plane_format(), format, type, extent, parts, pixels, buf_size, func);
    return;
  }
  // Compressed levels decode on read, from the kept blocks on the CPU: a natively stored image holds blocks, which
  // Vulkan cannot read back as texels; a decoded one holds the same texels (docs/gl_shim.md "Compressed textures").
  if (is_compressed_level(l)) {
    std::vector<std::byte> decoded;
    const bool whole_cube = t.target == GL_TEXTURE_CUBE_MAP && !is_cube_face(target);
    if (w > 0 && h > 0 && d > 0) {
      read_compressed_texels(t, a.face, lvl, whole_cube, static_cast<uint32_t>(x), static_cast<uint32_t>(y),
                             static_cast<uint32_t>(z), static_cast<uint32_t>(w), static_cast<uint32_t>(h),
                             static_cast<uint32_t>(d), decoded);
    }
    pack_texels(ctx, *l.format, format, type, extent, parts, pixels, buf_size, func, {}, &decoded);
    return;
  }
  if (w > 0 && h > 0 && d > 0 && !level_parts(ctx, t, target, a.face, lvl, x, y, z, w, h, d, func, parts)) return;
  if (format == GL_DEPTH_STENCIL && planed && w > 0 && h > 0 && d > 0 &&
      !level_parts(ctx, *t.stencil_plane, target, a.face, lvl, x, y, z, w, h, d, func, stencil_parts)) {
    return;
  }
  pack_texels(ctx, *l.format, format, type, extent, parts, pixels, buf_size, func, stencil_parts);
}

void get_tex_image(GLenum target, GLint level, GLenum format, GLenum type, int64_t buf_size, void* pixels,
                   const char* func) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  if (ctx->version.es || !is_get_tex_image_target(target)) {
    ctx->set_error(GL_INVALID_ENUM, std::string(func) + ": invalid target " + hex(target));
    return;
  }
  auto t = bound_texture(ctx, target, true, func);
  if (t) get_image(ctx, *t, target, level, true, 0, 0, 0, 0, 0, 0, format, type, buf_size, pixels, func);
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

}  // namespace
}  // namespace bismuth::gl

using namespace bismuth::gl;

extern "C" {

GLAPI void APIENTRY glTexSubImage1D(GLenum target, GLint level, GLint xoffset, GLsizei width, GLenum format,
                                    GLenum type, const void* pixels) {
  tex_sub_image(target, 1, level, xoffset, 0, 0, width, 1, 1, format, type, pixels, "glTexSubImage1D");
}
GLAPI void APIENTRY glTexSubImage2D(GLenum target, GLint level, GLint xoffset, GLint yoffset, GLsizei width,
                                    GLsizei height, GLenum format, GLenum type, const void* pixels) {
  tex_sub_image(target, 2, level, xoffset, yoffset, 0, width, height, 1, format, type, pixels, "glTexSubImage2D");
}
GLAPI void APIENTRY glTexSubImage3D(GLenum target, GLint level, GLint xoffset, GLint yoffset, GLint zoffset,
                                    GLsizei width, GLsizei height, GLsizei depth, GLenum format, GLenum type,
                                    const void* pixels) {
  tex_sub_image(target, 3, level, xoffset, yoffset, zoffset, width, height, depth, format, type, pixels,
                "glTexSubImage3D");
}
GLAPI void APIENTRY glTextureSubImage1D(GLuint texture, GLint level, GLint xoffset, GLsizei width, GLenum format,
                                        GLenum type, const void* pixels) {
  texture_sub_image(texture, 1, level, xoffset, 0, 0, width, 1, 1, format, type, pixels, "glTextureSubImage1D");
}
GLAPI void APIENTRY glTextureSubImage2D(GLuint texture, GLint level, GLint xoffset, GLint yoffset, GLsizei width,
                                        GLsizei height, GLenum format, GLenum type, const void* pixels) {
  texture_sub_image(texture, 2, level, xoffset, yoffset, 0, width, height, 1, format, type, pixels,
                    "glTextureSubImage2D");
}
GLAPI void APIENTRY glTextureSubImage3D(GLuint texture, GLint level, GLint xoffset, GLint yoffset, GLint zoffset,
                                        GLsizei width, GLsizei height, GLsizei depth, GLenum format, GLenum type,
                                        const void* pixels) {
  texture_sub_image(texture, 3, level, xoffset, yoffset, zoffset, width, height, depth, format, type, pixels,
                    "glTextureSubImage3D");
}

GLAPI void APIENTRY glGetTexImage(GLenum target, GLint level, GLenum format, GLenum type, void* pixels) {
  get_tex_image(target, level, format, type, -1, pixels, "glGetTexImage");
}
GLAPI void APIENTRY glGetnTexImage(GLenum target, GLint level, GLenum format, GLenum type, GLsizei bufSize,
                                   void* pixels) {
  get_tex_image(target, level, format, type, bufSize, pixels, "glGetnTexImage");
}

GLAPI void APIENTRY glGetTextureImage(GLuint texture, GLint level, GLenum format, GLenum type, GLsizei bufSize,
                                      void* pixels) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  auto t = named_texture(ctx, texture, "glGetTextureImage");
  if (t)
    get_image(ctx, *t, t->target, level, true, 0, 0, 0, 0, 0, 0, format, type, bufSize, pixels, "glGetTextureImage");
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

GLAPI void APIENTRY glGetTextureSubImage(GLuint texture, GLint level, GLint xoffset, GLint yoffset, GLint zoffset,
                                         GLsizei width, GLsizei height, GLsizei depth, GLenum format, GLenum type,
                                         GLsizei bufSize, void* pixels) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  auto t = named_texture(ctx, texture, "glGetTextureSubImage");
  if (t) {
    get_image(ctx, *t, t->target, level, false, xoffset, yoffset, zoffset, width, height, depth, format, type, bufSize,
              pixels, "glGetTextureSubImage");
  }
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

}  // extern "C"
