// glCopyImageSubData between textures (GL 4.6 §18.3.3): a box of texels of one level to a box of another,
// formats compatible by texel size (table 8.22's view classes), no conversion. Same backend image types: a
// CommandStream::copy_image per part; otherwise (a 3D texture's slices to a 2D array's layers, or a cube map's
// faces, which a mutable texture keeps in images of their own) the texels go through the host. Renderbuffers are
// not objects of this shim yet: RENDERBUFFER is INVALID_ENUM.
#include <vector>

#include "texture_client_data.hpp"
#include "texture_formats.hpp"

namespace bismuth::gl {
namespace {

struct CopySide {
  std::shared_ptr<TextureObject> texture;
  const TextureLevel* level = nullptr;
  uint32_t depth = 1;  // the z range: slices, layers or faces
};

bool resolve_side(Context* ctx, GLuint name, GLenum target, GLint level, const char* which, CopySide& out) {
  constexpr const char* func = "glCopyImageSubData";
  // "An INVALID_ENUM error is generated if either target is not RENDERBUFFER or a valid non-proxy texture target,
  // ... is TEXTURE_BUFFER, or is one of the cubemap face selectors"; "An INVALID_VALUE error is generated if either
  // name does not correspond to a valid renderbuffer or texture object according to the corresponding target".
  const int index = target_index(target, ctx->version.es, ctx->version.minor);
  if (index < 0 || target == GL_TEXTURE_BUFFER) {
    ctx->set_error(GL_INVALID_ENUM, std::string(func) + ": invalid " + which + " target " + hex(target) +
                                        (target == GL_RENDERBUFFER ? " (renderbuffers are not supported yet)" : ""));
    return false;
  }
  {
    std::lock_guard lock(ctx->share->mutex);
    auto it = ctx->share->textures.find(name);
    if (it == ctx->share->textures.end() || it->second->target != target) {
      ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": " + which + " name " + std::to_string(name) +
                                           " is not a texture of target " + target_name(target));
      return false;
    }
    out.texture = it->second;
  }
  // "An INVALID_VALUE error is generated if the specified level is not a valid level for the image".
  if (level < 0 || static_cast<uint32_t>(level) >= kMaxTextureLevels ||
      !out.texture->levels[0][static_cast<uint32_t>(level)].defined()) {
    ctx->set_error(GL_INVALID_VALUE,
                   std::string(func) + ": " + which + " level " + std::to_string(level) + " does not exist");
    return false;
  }
  out.level = &out.texture->levels[0][static_cast<uint32_t>(level)];
  out.depth = target == GL_TEXTURE_CUBE_MAP ? 6 : target == GL_TEXTURE_1D_ARRAY ? 1 : out.level->depth;
  return true;
}

// The parts of a box, z (faces of a cube map) one part each where needed.
bool parts_of(Context* ctx, const CopySide& s, uint32_t level, GLint x, GLint y, GLint z, GLsizei w, GLsizei h,
              GLsizei d, std::vector<ImagePart>& parts) {
  const TextureObject& t = *s.texture;
  const bool faces = t.target == GL_TEXTURE_CUBE_MAP;
  for (GLsizei i = 0; i < (faces ? d : 1); ++i) {
    const LevelStore store = level_store(t, faces ? static_cast<uint32_t>(z + i) : 0, level);
    if (store.image == nullptr) {
      ctx->set_error(GL_INVALID_OPERATION, "glCopyImageSubData: a level has no image");
      return false;
    }
    parts.push_back({store.image, faces ? sub_region(GL_TEXTURE_CUBE_MAP, store, x, y, 0, w, h, 1)
                                        : sub_region(t.target, store, x, y, z, w, h, d)});
  }
  return true;
}

// Copies the texels of `from` to `to` (the same box on both sides).
bool copy_parts(Context* ctx, const std::vector<ImagePart>& from, const std::vector<ImagePart>& to, const char* func) {
  // Direct copies where both sides are one part of one image type and one texel size, and not the same image
  // (vkCmdCopyImage regions within one image must not overlap: the host path handles that case).
  const bool direct = from.size() == 1 && to.size() == 1 && from[0].image != to[0].image &&
                      from[0].image->desc().type == to[0].image->desc().type &&
                      from[0].image->texel_bytes() == to[0].image->texel_bytes() &&
                      from[0].region.layer_count == to[0].region.layer_count &&
                      from[0].region.extent == to[0].region.extent;
  if (direct) {
    if (Status ok = ctx->stream->copy_image(*from[0].image, from[0].region, *to[0].image, to[0].region); !ok) {
      ctx->backend_error(func, ok.error());
      return false;
    }
    return true;
  }
  // Through the host: every texel of the box in order (rows, then slices/layers/faces), same texel size on both
  // sides (compatible formats of this shim store texels of equal size).
  std::vector<std::byte> texels;
  for (const ImagePart& part : from) {
    const size_t at = texels.size();
    texels.resize(at + static_cast<size_t>(backend::region_bytes(*part.image, part.region)));
    if (Status ok = ctx->stream->readback_image(*part.image, part.region, std::span(texels).subspan(at)); !ok) {
      ctx->backend_error(func, ok.error());
      return false;
    }
  }
  size_t at = 0;
  for (const ImagePart& part : to) {
    const auto bytes = static_cast<size_t>(backend::region_bytes(*part.image, part.region));
    if (at + bytes > texels.size()) break;
    if (Status ok = ctx->stream->upload_image(*part.image, part.region, std::span(texels).subspan(at, bytes)); !ok) {
      ctx->backend_error(func, ok.error());
      return false;
    }
    at += bytes;
  }
  return true;
}

}  // namespace
}  // namespace bismuth::gl

using namespace bismuth::gl;
using bismuth::Status;
namespace backend = bismuth::backend;

extern "C" {

GLAPI void APIENTRY glCopyImageSubData(GLuint srcName, GLenum srcTarget, GLint srcLevel, GLint srcX, GLint srcY,
                                       GLint srcZ, GLuint dstName, GLenum dstTarget, GLint dstLevel, GLint dstX,
                                       GLint dstY, GLint dstZ, GLsizei srcWidth, GLsizei srcHeight, GLsizei srcDepth) {
  BISMUTH_GL_BEGIN(BISMUTH_NOTHING)
  constexpr const char* func = "glCopyImageSubData";
  CopySide src, dst;
  if (!resolve_side(ctx, srcName, srcTarget, srcLevel, "source", src)) return;
  if (!resolve_side(ctx, dstName, dstTarget, dstLevel, "destination", dst)) return;
  // "An INVALID_OPERATION error is generated if the formats are not compatible" (§18.3.3: one view class of
  // table 8.22 for uncompressed formats).
  // Compressed levels hold decoded texels here (texture_compressed.cpp): §18.3.3's block-compatible copies between
  // compressed and uncompressed images are not implemented; say so rather than copy decoded texels.
  if (is_compressed_level(*src.level) || is_compressed_level(*dst.level)) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": copies of compressed images are not supported yet");
    return;
  }
  if (!copy_compatible(*src.level->format, *dst.level->format)) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": " + src.level->format->name + " and " +
                                             dst.level->format->name + " are not compatible (texel sizes differ)");
    return;
  }
  // §18.3.3: "An INVALID_OPERATION error is generated if the number of samples do not match" (TEXTURE_SAMPLES:
  // 0 for single-sample textures; Vulkan's vkCmdCopyImage likewise needs equal counts).
  if (src.texture->samples != dst.texture->samples) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": the source has " +
                                             std::to_string(src.texture->samples) + " samples, the destination " +
                                             std::to_string(dst.texture->samples));
    return;
  }
  // "An INVALID_VALUE error is generated if the dimensions of either subregion exceeds the boundaries of the
  // corresponding image object" (negative sizes included).
  auto outside = [](GLint o, GLsizei n, uint32_t size) {
    return o < 0 || n < 0 || static_cast<int64_t>(o) + n > static_cast<int64_t>(size);
  };
  if (outside(srcX, srcWidth, src.level->width) || outside(srcY, srcHeight, src.level->height) ||
      outside(srcZ, srcDepth, src.depth) || outside(dstX, srcWidth, dst.level->width) ||
      outside(dstY, srcHeight, dst.level->height) || outside(dstZ, srcDepth, dst.depth)) {
    ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": a region exceeds its image");
    return;
  }
  if (srcWidth == 0 || srcHeight == 0 || srcDepth == 0) return;
  std::vector<ImagePart> from, to;
  if (!parts_of(ctx, src, static_cast<uint32_t>(srcLevel), srcX, srcY, srcZ, srcWidth, srcHeight, srcDepth, from) ||
      !parts_of(ctx, dst, static_cast<uint32_t>(dstLevel), dstX, dstY, dstZ, srcWidth, srcHeight, srcDepth, to)) {
    return;
  }
  if (!copy_parts(ctx, from, to, func)) return;
  // Depth-stencil levels (one format on both sides, copy_compatible): their stencil indices too, plane to plane.
  if (is_depth_stencil(*src.level->format) && src.texture->stencil_plane && dst.texture->stencil_plane) {
    const CopySide src_plane{src.texture->stencil_plane, src.level, src.depth};
    const CopySide dst_plane{dst.texture->stencil_plane, dst.level, dst.depth};
    std::vector<ImagePart> plane_from, plane_to;
    if (!parts_of(ctx, src_plane, static_cast<uint32_t>(srcLevel), srcX, srcY, srcZ, srcWidth, srcHeight, srcDepth,
                  plane_from) ||
        !parts_of(ctx, dst_plane, static_cast<uint32_t>(dstLevel), dstX, dstY, dstZ, srcWidth, srcHeight, srcDepth,
                  plane_to)) {
      return;
    }
    copy_parts(ctx, plane_from, plane_to, func);
  }
  BISMUTH_GL_END(BISMUTH_NOTHING)
}

}  // extern "C"
