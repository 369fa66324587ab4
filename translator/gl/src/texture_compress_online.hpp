// The GL compressing uncompressed client data itself (texture_compress_online.cpp): glTexImage* with a specific
// compressed internal format, glTexSubImage* into a compressed level.
#pragma once

#include "compressed_formats.hpp"
#include "pixel_transfer.hpp"
#include "texture_access.hpp"

namespace bismuth::gl {

struct UnpackSource;

// Whether the GL compresses client data into `f` (RGTC, S3TC, BPTC: an encoder exists); the ETC2/EAC formats
// are CompressedTexImage-only here.
bool online_compression(const CompressedFormat& f);

// Encodes the client pixels of `extent` (format / type under the UNPACK state, from `source`) into blocks of the
// compressed level (face, level) at the texel offset (x, y: multiples of 4; z), and stores them as
// write_compressed_box does. The caller checked format / type and the box. False after a GL error (recorded).
bool compress_client_pixels(Context* ctx, TextureObject& texture, uint32_t face, uint32_t level, bool whole_cube,
                            uint32_t x, uint32_t y, uint32_t z, const Extent& extent, GLenum format, GLenum type,
                            const UnpackSource& source, const char* func);

}  // namespace bismuth::gl
