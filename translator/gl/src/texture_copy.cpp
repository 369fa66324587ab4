// glCopyImageSubData between textures (GL 4.6 §18.3.3): a box of texels of one level to a box of another,
// formats compatible by texel size (table 8.22's view classes), no conversion. Same backend image types: a
// CommandStream::copy_image per part; otherwise (a 3D texture's slices to a 2D array's layers, or a cube map's
// faces, which a mutable texture keeps in images of their own) the texels go through the host. A compressed side
// (copy_compressed) copies its kept blocks through the host. Renderbuffers are
// not objects of this shim yet: RENDERBUFFER is INVALID_ENUM.
#include <span>
#include <vector>

#include "compressed_formats.hpp"
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
  std::vector<std::byte> texels(parts_bytes(from));
  return readback_parts(ctx, from, texels, func) && upload_parts(ctx, to, texels, func);
}

// GL 4.6 §18.3.3 with a compressed side. Formats: "two internal formats are considered compatible if ... the formats
// are the same, ... the formats are considered compatible according to the compatibility rules used for texture
// views ... (table 8.22), or one format is compressed and the other is uncompressed and table 18.4 lists the two
// formats in the same row"; "An INVALID_OPERATION error is generated if the texel size of the uncompressed image is
// not equal to the block size of the compressed image". Regions: "The dimensions are always specified in texels,
// even for compressed texture formats. However, it should be noted that if only one of the source and destination
// textures is compressed then the number of texels touched in the compressed image will be a factor of the block
// size larger than in the uncompressed image"; INVALID_VALUE "if the image format is compressed and the dimensions
// of the subregion fail to meet the alignment constraints of the format" (§8.7's: offsets multiples of the 4x4
// block, sizes too unless the region ends at the level's edge). An uncompressed-to-compressed destination box may
// end in the partial blocks at the level's edge: it is clipped there (4 texels per source texel otherwise).
// The blocks are copied byte for byte; a compressed destination keeps them and decodes them as an upload would.
void copy_compressed(Context* ctx, const CopySide& src, const CopySide& dst, GLint srcLevel, GLint srcX, GLint srcY,
                     GLint srcZ, GLint dstLevel, GLint dstX, GLint dstY, GLint dstZ, GLsizei width, GLsizei height,
                     GLsizei depth) {
  constexpr const char* func = "glCopyImageSubData";
  const CompressedFormat* sf = find_compressed_format(src.level->internalformat);
  const CompressedFormat* df = find_compressed_format(dst.level->internalformat);
  // The uncompressed side's internal format as table 18.4 names it (the sized row an unsized format resolved to).
  auto table_format = [](const TextureLevel& l) {
    return find_sized_format(l.internalformat) != nullptr ? l.internalformat : l.format->internalformat;
  };
  const CompressedFormat& cf = sf != nullptr ? *sf : *df;
  bool compatible = false;
  if (sf != nullptr && df != nullptr) {
    compatible = sf->internalformat == df->internalformat || compressed_view_class(*sf) == compressed_view_class(*df);
  } else {
    compatible = block_copy_compatible(cf, table_format(sf != nullptr ? *dst.level : *src.level));
  }
  if (!compatible) {
    ctx->set_error(GL_INVALID_OPERATION,
                   std::string(func) + ": " + hex(src.level->internalformat) + " and " +
                       hex(dst.level->internalformat) +
                       " are not compatible (one view class of table 8.22, or a row of table 18.4)");
    return;
  }
  if (src.texture->samples != dst.texture->samples) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": the numbers of samples differ");
    return;
  }
  auto outside = [](GLint o, GLsizei n, uint32_t size) {
    return o < 0 || n < 0 || static_cast<int64_t>(o) + n > static_cast<int64_t>(size);
  };
  auto misaligned = [](GLint o, GLsizei n, uint32_t size, uint32_t block) {
    return o % static_cast<GLint>(block) != 0 ||
           (n % static_cast<GLsizei>(block) != 0 && static_cast<int64_t>(o) + n != static_cast<int64_t>(size));
  };
  if (outside(srcX, width, src.level->width) || outside(srcY, height, src.level->height) ||
      outside(srcZ, depth, src.depth) || outside(dstZ, depth, dst.depth)) {
    ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": a region exceeds its image");
    return;
  }
  if (sf != nullptr && (misaligned(srcX, width, src.level->width, kBlockWidth) ||
                        misaligned(srcY, height, src.level->height, kBlockHeight))) {
    ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": the source region is not aligned to " + sf->name +
                                         "'s 4x4 blocks");
    return;
  }
  // The box in blocks (an uncompressed texel is one block).
  const auto bw = static_cast<uint32_t>(sf != nullptr ? (width + 3) / 4 : width);
  const auto bh = static_cast<uint32_t>(sf != nullptr ? (height + 3) / 4 : height);
  // The destination box in its texels.
  GLsizei dw = static_cast<GLsizei>(bw), dh = static_cast<GLsizei>(bh);
  if (df != nullptr) {
    dw = sf != nullptr ? width : static_cast<GLsizei>(bw * 4);
    dh = sf != nullptr ? height : static_cast<GLsizei>(bh * 4);
    if (sf == nullptr && dstX >= 0 && dstY >= 0) {
      // Clipped to the level at its partial edge blocks: the box's last block must start inside the level.
      const auto edge = [](GLint o, GLsizei n, uint32_t size) {
        return n > 0 && static_cast<int64_t>(o) + n > size && static_cast<int64_t>(o) + n - 4 < size
                   ? static_cast<GLsizei>(size - static_cast<uint32_t>(o))
                   : n;
      };
      dw = edge(dstX, dw, dst.level->width);
      dh = edge(dstY, dh, dst.level->height);
    }
  }
  if (outside(dstX, dw, dst.level->width) || outside(dstY, dh, dst.level->height)) {
    ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": the destination region exceeds its image");
    return;
  }
  if (df != nullptr && (misaligned(dstX, dw, dst.level->width, kBlockWidth) ||
                        misaligned(dstY, dh, dst.level->height, kBlockHeight))) {
    ctx->set_error(GL_INVALID_VALUE, std::string(func) + ": the destination region is not aligned to " + df->name +
                                         "'s 4x4 blocks");
    return;
  }
  if (width == 0 || height == 0 || depth == 0) return;
  const auto d = static_cast<uint32_t>(depth);
  // The uncompressed side's texels are the compressed side's blocks (table 18.4: texel size = block size).
  auto texels_are_blocks = [&](const std::vector<ImagePart>& parts, const char* side) {
    for (const ImagePart& part : parts) {
      if (part.image->texel_bytes() != cf.block_bytes) {
        ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": the " + side + "'s texels are not " +
                                                 std::to_string(cf.block_bytes) + "-byte blocks here");
        return false;
      }
    }
    return true;
  };
  // The blocks, rows of blocks slice after slice.
  std::vector<uint8_t> blocks;
  if (sf != nullptr) {
    read_compressed_box(*src.texture, static_cast<uint32_t>(srcLevel), static_cast<uint32_t>(srcX),
                        static_cast<uint32_t>(srcY), static_cast<uint32_t>(srcZ), static_cast<uint32_t>(width),
                        static_cast<uint32_t>(height), d, blocks);
  } else {
    std::vector<ImagePart> from;
    if (!parts_of(ctx, src, static_cast<uint32_t>(srcLevel), srcX, srcY, srcZ, width, height, depth, from) ||
        !texels_are_blocks(from, "source")) {
      return;
    }
    blocks.resize(parts_bytes(from));
    if (!readback_parts(ctx, from, std::as_writable_bytes(std::span(blocks)), func)) return;
  }
  if (df != nullptr) {
    write_compressed_box(ctx, *dst.texture, 0, static_cast<uint32_t>(dstLevel),
                         dst.texture->target == GL_TEXTURE_CUBE_MAP, static_cast<uint32_t>(dstX),
                         static_cast<uint32_t>(dstY), static_cast<uint32_t>(dstZ), static_cast<uint32_t>(dw),
                         static_cast<uint32_t>(dh), d, blocks.data(), func);
    return;
  }
  std::vector<ImagePart> to;
  if (!parts_of(ctx, dst, static_cast<uint32_t>(dstLevel), dstX, dstY, dstZ, dw, dh, depth, to) ||
      !texels_are_blocks(to, "destination")) {
    return;
  }
  (void)upload_parts(ctx, to, std::as_bytes(std::span(blocks)), func);
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
  // A compressed side copies blocks (copy_compressed): its image holds decoded texels, its blocks are kept apart.
  if (is_compressed_level(*src.level) || is_compressed_level(*dst.level)) {
    copy_compressed(ctx, src, dst, srcLevel, srcX, srcY, srcZ, dstLevel, dstX, dstY, dstZ, srcWidth, srcHeight,
                    srcDepth);
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
