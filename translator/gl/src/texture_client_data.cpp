// Client pixel data of texture transfers: client memory or pixel buffer objects (texture_client_data.hpp).
#include "texture_client_data.hpp"

#include <cstring>
#include <span>

namespace bismuth::gl {
namespace {

// "the number of basic machine units needed to store in memory the corresponding GL data type" (§8.4.4.1).
uint32_t type_bytes(GLenum type) {
  switch (type) {
    case GL_UNSIGNED_BYTE:
    case GL_BYTE:
    case GL_UNSIGNED_BYTE_3_3_2:
    case GL_UNSIGNED_BYTE_2_3_3_REV: return 1;
    case GL_UNSIGNED_SHORT:
    case GL_SHORT:
    case GL_HALF_FLOAT:
    case GL_UNSIGNED_SHORT_5_6_5:
    case GL_UNSIGNED_SHORT_5_6_5_REV:
    case GL_UNSIGNED_SHORT_4_4_4_4:
    case GL_UNSIGNED_SHORT_4_4_4_4_REV:
    case GL_UNSIGNED_SHORT_5_5_5_1:
    case GL_UNSIGNED_SHORT_1_5_5_5_REV: return 2;
    case GL_FLOAT_32_UNSIGNED_INT_24_8_REV: return 8;
    default: return 4;
  }
}

// The bound pixel buffer's range [offset, offset + bytes) checked as GL 4.6 §8.4.4.1 / §18.2.8 say.
bool check_pixel_buffer(Context* ctx, const BufferObject& b, uintptr_t offset, uint64_t bytes, GLenum type,
                        const char* what, const char* func) {
  if (b.mapped && !(b.map_access & GL_MAP_PERSISTENT_BIT)) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": the " + what + " buffer is mapped");
    return false;
  }
  if (offset % type_bytes(type) != 0) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": the " + what + " buffer offset " +
                                             std::to_string(offset) + " is not a multiple of the type's size");
    return false;
  }
  if (offset > static_cast<uint64_t>(b.size) || bytes > static_cast<uint64_t>(b.size) - offset) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": the pixels need " + std::to_string(bytes) +
                                             " bytes at offset " + std::to_string(offset) + " of the " + what +
                                             " buffer of " + std::to_string(b.size) + " bytes");
    return false;
  }
  return true;
}

}  // namespace

bool unpack_source(Context* ctx, GLenum format, GLenum type, const Extent& extent, const void* pixels, const char* func,
                   UnpackSource& out) {
  if (!ctx->pixel_unpack) {
    out.present = pixels != nullptr;
    out.client = pixels;
    return true;
  }
  const auto layout =
      client_layout(format, type, ctx->unpack, extent.width, extent.height, extent.depth, extent.volume);
  if (!layout) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": the pixel layout is too large");
    return false;
  }
  const BufferObject& b = *ctx->pixel_unpack;
  const auto offset = reinterpret_cast<uintptr_t>(pixels);
  if (!check_pixel_buffer(ctx, b, offset, layout->total_bytes, type, "PIXEL_UNPACK", func)) return false;
  out.present = true;
  out.pbo_copy.resize(static_cast<size_t>(layout->total_bytes));
  if (!out.pbo_copy.empty()) {
    if (Status ok = ctx->stream->readback(*b.buffer, offset, out.pbo_copy); !ok) {
      ctx->backend_error(func, ok.error());
      return false;
    }
  }
  out.client = out.pbo_copy.data();
  return true;
}

namespace {

// Moves `bytes` to or from the parts one after the other (upload: true), stopping where the bytes end.
}  // namespace

size_t parts_bytes(std::span<const ImagePart> parts) {
  size_t total = 0;
  for (const ImagePart& part : parts) total += static_cast<size_t>(backend::region_bytes(*part.image, part.region));
  return total;
}

bool upload_parts(Context* ctx, std::span<const ImagePart> parts, std::span<const std::byte> bytes, const char* func) {
  size_t at = 0;
  for (const ImagePart& part : parts) {
    const auto n = static_cast<size_t>(backend::region_bytes(*part.image, part.region));
    if (at + n > bytes.size()) break;
    if (Status ok = ctx->stream->upload_image(*part.image, part.region, bytes.subspan(at, n)); !ok) {
      ctx->backend_error(func, ok.error());
      return false;
    }
    at += n;
  }
  return true;
}

bool readback_parts(Context* ctx, std::span<const ImagePart> parts, std::span<std::byte> bytes, const char* func) {
  size_t at = 0;
  for (const ImagePart& part : parts) {
    const auto n = static_cast<size_t>(backend::region_bytes(*part.image, part.region));
    if (at + n > bytes.size()) break;
    if (Status ok = ctx->stream->readback_image(*part.image, part.region, bytes.subspan(at, n)); !ok) {
      ctx->backend_error(func, ok.error());
      return false;
    }
    at += n;
  }
  return true;
}

bool upload_texels(Context* ctx, const SizedFormat& format, GLenum client_format, GLenum type, const Extent& extent,
                   const UnpackSource& source, std::span<const ImagePart> parts, const char* func,
                   std::span<const ImagePart> stencil_parts) {
  if (!source.present || extent.width == 0 || extent.height == 0 || extent.depth == 0) return true;
  if (!stencil_parts.empty()) {
    // The stencil plane's R8_UINT texels: the indices of the DEPTH_STENCIL groups.
    std::vector<std::byte> indices(size_t{extent.width} * extent.height * extent.depth);
    if (TransferResult r = unpack_stencil_indices(client_format, type, ctx->unpack, extent, source.client, indices);
        !r.ok()) {
      ctx->set_error(r.error, std::string(func) + ": " + r.message);
      return false;
    }
    if (!upload_parts(ctx, stencil_parts, indices, func)) return false;
  }
  std::vector<std::byte> converted;
  std::span<const std::byte> texels;
  if (client_pixels_are_texels(format, client_format, type, ctx->unpack, extent, /*pack=*/false)) {
    texels = std::span(static_cast<const std::byte*>(source.client), static_cast<size_t>(texel_bytes(format, extent)));
  } else {
    converted.resize(static_cast<size_t>(texel_bytes(format, extent)));
    if (TransferResult r = unpack_pixels(format, client_format, type, ctx->unpack, extent, source.client, converted);
        !r.ok()) {
      ctx->set_error(r.error, std::string(func) + ": " + r.message);
      return false;
    }
    texels = converted;
  }
  return upload_parts(ctx, parts, texels, func);
}

bool pack_texels(Context* ctx, const SizedFormat& format, GLenum client_format, GLenum type, const Extent& extent,
                 std::span<const ImagePart> parts, void* pixels, int64_t buf_size, const char* func,
                 std::span<const ImagePart> stencil_parts, const std::vector<std::byte>* given) {
  const auto layout =
      client_layout(client_format, type, ctx->pack, extent.width, extent.height, extent.depth, extent.volume);
  if (!layout) {
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": the pixel layout is too large");
    return false;
  }
  const BufferObject* pbo = ctx->pixel_pack.get();
  const auto offset = reinterpret_cast<uintptr_t>(pixels);
  if (pbo != nullptr) {
    if (!check_pixel_buffer(ctx, *pbo, offset, layout->total_bytes, type, "PIXEL_PACK", func)) return false;
  } else if (buf_size >= 0 && layout->total_bytes > static_cast<uint64_t>(buf_size)) {
    // GL 4.6 §8.11: "An INVALID_OPERATION error is generated if ... the buffer size required to store the
    // requested data is greater than bufSize."
    ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": the pixels need " +
                                             std::to_string(layout->total_bytes) + " bytes, bufSize is " +
                                             std::to_string(buf_size));
    return false;
  }
  if (extent.width == 0 || extent.height == 0 || extent.depth == 0) return true;
  if (pbo == nullptr && pixels == nullptr) return true;
  const auto size = static_cast<size_t>(texel_bytes(format, extent));
  // Client memory that is the texels themselves takes the read-back directly: no zeroed staging vector, no copy.
  const bool direct = pbo == nullptr && client_pixels_are_texels(format, client_format, type, ctx->pack, extent, true);
  std::vector<std::byte> staged(direct ? 0 : size);
  const std::span<std::byte> texels = direct ? std::span(static_cast<std::byte*>(pixels), size) : std::span(staged);
  if (given != nullptr) {
    if (given->size() != texels.size()) {
      ctx->set_error(GL_INVALID_OPERATION, std::string(func) + ": internal: decoded texels of the wrong size");
      return false;
    }
    std::memcpy(texels.data(), given->data(), texels.size());
  } else if (!readback_parts(ctx, parts, texels, func)) {
    return false;
  }
  if (direct) return true;
  std::vector<std::byte> indices;
  if (!stencil_parts.empty()) {
    indices.resize(size_t{extent.width} * extent.height * extent.depth);
    if (!readback_parts(ctx, stencil_parts, indices, func)) return false;
  }
  if (pbo == nullptr) {
    if (TransferResult r = pack_pixels(format, client_format, type, ctx->pack, extent, texels, pixels, indices);
        !r.ok()) {
      ctx->set_error(r.error, std::string(func) + ": " + r.message);
      return false;
    }
    return true;
  }
  // Into the pack buffer: its bytes between the pixels (padding, skipped pixels) keep their values.
  std::vector<std::byte> bytes(static_cast<size_t>(layout->total_bytes));
  if (Status ok = ctx->stream->readback(*pbo->buffer, offset, bytes); !ok) {
    ctx->backend_error(func, ok.error());
    return false;
  }
  if (TransferResult r = pack_pixels(format, client_format, type, ctx->pack, extent, texels, bytes.data(), indices);
      !r.ok()) {
    ctx->set_error(r.error, std::string(func) + ": " + r.message);
    return false;
  }
  if (Status ok = ctx->stream->upload(*pbo->buffer, offset, bytes); !ok) {
    ctx->backend_error(func, ok.error());
    return false;
  }
  return true;
}

}  // namespace bismuth::gl
