// Client pixel data of texture transfers (GL 4.6 §8.4.4 and §8.11; §6.3 for pixel buffer objects): where the
// pixels of a glTexImage*/glTexSubImage* come from — client memory, or an offset into the buffer bound to
// PIXEL_UNPACK_BUFFER — and where a glGetTex*Image* writes them — client memory or PIXEL_PACK_BUFFER — with the
// checks GL makes on each, and the conversion to and from a texture's texels (pixel_transfer.hpp). Buffer contents
// are read and written in stream order through the context's CommandStream.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "pixel_transfer.hpp"
#include "texture_access.hpp"

namespace bismuth::gl {

// One piece of a transfer's texels: a region of an image. A transfer's texels are its parts' texels one after
// the other (a whole cube map of a mutable texture: one part per face image).
struct ImagePart {
  backend::Image* image = nullptr;
  backend::ImageRegion region;
};

struct UnpackSource {
  bool present = false;             // false: no data (a null pointer without a PIXEL_UNPACK_BUFFER)
  std::vector<std::byte> pbo_copy;  // the bytes read from the unpack buffer, from the offset on
  const void* client = nullptr;     // the first byte of the client layout (client memory or pbo_copy)
};

// Resolves `pixels` for an unpack of `extent` under the context's UNPACK state. With a PIXEL_UNPACK_BUFFER bound,
// INVALID_OPERATION when the buffer is mapped, when the offset is not a multiple of the type's size, or when the
// reads would exceed the buffer (GL 4.6 §8.4.4.1 "Unpacking"); the bytes are read back then. False after an error.
bool unpack_source(Context* ctx, GLenum format, GLenum type, const Extent& extent, const void* pixels, const char* func,
                   UnpackSource& out);

// The parts' texels in order (rows, then slices/layers/faces), to or from `bytes`; parts beyond the bytes are left
// alone. False after a backend error (reported for `func`).
size_t parts_bytes(std::span<const ImagePart> parts);
bool upload_parts(Context* ctx, std::span<const ImagePart> parts, std::span<const std::byte> bytes, const char* func);
bool readback_parts(Context* ctx, std::span<const ImagePart> parts, std::span<std::byte> bytes, const char* func);

// Converts the source's pixels to `format`'s texels and uploads them to the parts. `stencil_parts` (a
// depth-stencil level's stencil plane, textures.hpp) take the stencil indices of DEPTH_STENCIL pixels.
bool upload_texels(Context* ctx, const SizedFormat& format, GLenum client_format, GLenum type, const Extent& extent,
                   const UnpackSource& source, std::span<const ImagePart> parts, const char* func,
                   std::span<const ImagePart> stencil_parts = {});

// Reads the parts and writes it to `pixels` as (client_format, type) under the PACK state: an offset
// into PIXEL_PACK_BUFFER when one is bound (INVALID_OPERATION: mapped, misaligned offset, writes past the end),
// else client memory of `buf_size` bytes (glGetnTexImage & co: INVALID_OPERATION when the pixels need more; -1:
// unlimited).
// DEPTH_STENCIL reads take the stencil indices from `stencil_parts` (R8_UINT: a depth-stencil level's stencil plane,
// or a framebuffer's stencil buffer). `given`: the texels themselves (a compressed level's, decoded on the CPU from
// its blocks), read instead of the parts.
bool pack_texels(Context* ctx, const SizedFormat& format, GLenum client_format, GLenum type, const Extent& extent,
                 std::span<const ImagePart> parts, void* pixels, int64_t buf_size, const char* func,
                 std::span<const ImagePart> stencil_parts = {}, const std::vector<std::byte>* given = nullptr);

}  // namespace bismuth::gl
