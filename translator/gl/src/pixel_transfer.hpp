// GL pixel transfers on the CPU (GL 4.6 §8.4 "Pixel Rectangles", §8.4.4 "Transfer of Pixel Rectangles", §18.2
// "Reading Pixels"): the (internalformat, format, type) checks of desktop GL 4.6 and of OpenGL ES 3.2, the byte
// layout of client memory under the glPixelStorei state, and the conversions between client pixels and the
// tightly packed texels of a sized format's Vulkan format (pixel_formats.hpp). Used by glTexImage*,
// glTexSubImage*, glGetTexImage, glReadPixels and glClearTexImage (texture_client_data.cpp, read_pixels.cpp,
// texture_clear.cpp).
//
// Conversions the spec leaves open, and what is done here:
//  - NaN to a normalized or integer-valued component: the spec calls the result undefined (§2.3.4.1: it "must not
//    lead to GL interruption or termination"); it is stored as 0.
//  - Float to a normalized component: §2.3.5.1 lets either nearest value be chosen and prefers round to nearest;
//    ties round up (0.5 → 128 for 8 bits), for signed values away from zero.
//  - Integer client values to an integer internal format of another size or signedness: clamped to the internal
//    format's range (GL 4.6 does not say; ES 3.2 only allows matching types).
//  - sRGB formats: the client's values are the encoded values (no conversion either way), as GL specifies for
//    TexImage; GetTexImage/ReadPixels of an sRGB texture return them unconverted too.
#pragma once

#include <GL/glcorearb.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "pixel_float_codecs.hpp"
#include "pixel_formats.hpp"
#include "pixel_store.hpp"

namespace bismuth::gl {

// GL_NO_ERROR, or the GL error to report with a KHR_debug message.
struct TransferResult {
  GLenum error = GL_NO_ERROR;
  std::string message;
  bool ok() const { return error == GL_NO_ERROR; }
};

// glPixelStorei(pname, value) into `pack` or `unpack` by pname: INVALID_ENUM for an unknown pname, INVALID_VALUE
// for a negative length/skip or an alignment other than 1, 2, 4, 8 (GL 4.6 §8.4.1).
TransferResult set_pixel_store(PixelStore& pack, PixelStore& unpack, GLenum pname, int32_t value);

// Client data → texture (glTexImage*, glTexSubImage*, glClearTexImage) under desktop GL 4.6 rules: `format` and
// `type` enums (INVALID_ENUM), then the INVALID_OPERATION rules (packed types and component counts, integer
// formats against integer internal formats and float types, depth/stencil against color). An unknown
// internalformat is INVALID_ENUM.
TransferResult check_unpack_gl(GLenum internalformat, GLenum format, GLenum type);

// Texture → client data (glGetTexImage, glReadPixels of a texture's level) under GL 4.6 §8.11 / §18.2 rules.
TransferResult check_pack_gl(GLenum internalformat, GLenum format, GLenum type);

// OpenGL ES 3.2 glTexImage*/glTexSubImage*: only the (internalformat, format, type) rows of ES 3.2 table 8.2
// (sized internal formats) are valid, anything else is INVALID_OPERATION; a format or type outside ES's lists is
// INVALID_ENUM; an internalformat ES does not have (R16, RGBA16 ... without GL_EXT_texture_norm16) INVALID_VALUE.
// The unsized internal formats (RGB, RGBA, LUMINANCE_ALPHA, LUMINANCE, ALPHA) take the rows of table 8.3; the
// sized formats this shim does not store (R3_G3_B2, RGB10, ...) are INVALID_VALUE.
TransferResult check_unpack_es(GLenum internalformat, GLenum format, GLenum type, bool ext_texture_norm16 = false);

// OpenGL ES 3.2 glReadPixels (§16.1.2): RGBA/UNSIGNED_BYTE for normalized fixed-point buffers, RGBA/FLOAT for
// float, RGBA_INTEGER/INT or UNSIGNED_INT for integer buffers, and the implementation-chosen pair
// (es_implementation_read_format); anything else INVALID_OPERATION.
TransferResult check_read_pixels_es(GLenum internalformat, GLenum format, GLenum type);

// GL_IMPLEMENTATION_COLOR_READ_FORMAT / _TYPE for a buffer of `internalformat`: the format's natural pair.
struct FormatType {
  GLenum format = GL_NONE;
  GLenum type = GL_NONE;
};
FormatType es_implementation_read_format(GLenum internalformat);

// Where a width × height × depth region lies in client memory (GL 4.6 §8.4.4.1): the first byte of pixel (x, y, z)
// is start_offset + z * image_stride + y * row_stride + x * group_bytes. IMAGE_HEIGHT and SKIP_IMAGES apply only to
// three-dimensional transfers (`volume`: 3D textures and 2D arrays). total_bytes is the end of the last pixel (the
// last row is not padded to the alignment), 0 for an empty region: the buffer size a PIXEL_UNPACK/PACK_BUFFER
// offset plus this must not exceed.
struct ClientLayout {
  uint64_t group_bytes = 0;
  uint64_t row_stride = 0;
  uint64_t image_stride = 0;
  uint64_t start_offset = 0;
  uint64_t total_bytes = 0;
};
// nullopt for an unknown format/type enum or sizes that overflow 64 bits.
std::optional<ClientLayout> client_layout(GLenum format, GLenum type, const PixelStore& store, uint32_t width,
                                          uint32_t height, uint32_t depth, bool volume);

struct Extent {
  uint32_t width = 1;
  uint32_t height = 1;
  uint32_t depth = 1;
  bool volume = false;  // IMAGE_HEIGHT / SKIP_IMAGES apply (see client_layout)
};

// Bytes of the tightly packed texels of `extent` in `format`'s Vulkan format.
uint64_t texel_bytes(const SizedFormat& format, const Extent& extent);

// Unpack: client pixels (`client`, laid out per `store`) → texels of `format.vk_format`, tightly packed, row by row
// (`texels` holds texel_bytes). Checks with check_unpack_gl first. Depth formats: the texels are the depth
// aspect's (D16 16-bit unorm, X8_D24/D24S8 a 32-bit word with the depth in bits 0-23, D32 a float); the client's
// depth (DEPTH_COMPONENT with any scalar type, DEPTH_STENCIL with UNSIGNED_INT_24_8 or
// FLOAT_32_UNSIGNED_INT_24_8_REV) is converted to float (§8.4.4.2), clamped to [0, 1] and rounded to the GL
// format's precision (float formats too: Vulkan's depth copies need [0, 1]); a DEPTH_STENCIL group's stencil
// index is not part of these texels (unpack_stencil_indices: the depth-stencil formats keep their indices in a
// STENCIL_INDEX8 plane, textures.hpp). STENCIL_INDEX8 (an R8_UINT texel): format STENCIL_INDEX with any scalar type,
// the index's 8 least significant bits (floats truncated first).
TransferResult unpack_pixels(const SizedFormat& format, GLenum client_format, GLenum type, const PixelStore& store,
                             const Extent& extent, const void* client, std::span<std::byte> texels);

// The stencil indices of client pixels of format DEPTH_STENCIL (UNSIGNED_INT_24_8: bits 0-7 of the word;
// FLOAT_32_UNSIGNED_INT_24_8_REV: bits 0-7 of the second word) or STENCIL_INDEX (any scalar type), as the 8-bit
// indices of STENCIL_INDEX8 (R8_UINT texels, one byte each, tightly packed): the stencil plane of a depth-stencil
// texture.
TransferResult unpack_stencil_indices(GLenum client_format, GLenum type, const PixelStore& store, const Extent& extent,
                                      const void* client, std::span<std::byte> indices);

// Whether the client pixels of `extent` are exactly its tightly packed texels, byte for byte (the format's natural
// client format and type, no conversion, no swap, no row or image padding, no skipped pixels), after the checks
// unpack_pixels / pack_pixels make: then a transfer can copy straight between client memory and the image, without
// a staging vector in between (a 64 MiB read-back left the GPU idle long enough to lower its clocks,
// docs/performance.md "Image filter").
bool client_pixels_are_texels(const SizedFormat& format, GLenum client_format, GLenum type, const PixelStore& store,
                              const Extent& extent, bool pack);

// Pack: texels → client pixels, converted to (client_format, type) as GL 4.6 §18.2.8 says; bytes between groups and
// rows (alignment padding, ROW_LENGTH beyond the width, skipped pixels) are left as they are. Depth formats read
// with DEPTH_COMPONENT (§18.2.6: the depth value, then §18.2.8's conversion) or DEPTH_STENCIL, whose indices come
// from `stencil` (one byte per pixel, the stencil plane's R8_UINT texels; §18.2.8: UNSIGNED_INT_24_8 packs the
// depth as 24-bit unsigned normalized above the index, FLOAT_32_UNSIGNED_INT_24_8_REV the float depth and a word
// with the index); a depth format that is not a depth-stencil one takes DEPTH_STENCIL only with `stencil` (a
// framebuffer's separate stencil buffer). STENCIL_INDEX8 reads with STENCIL_INDEX, the index masked by the type's
// table 18.4 mask (FLOAT, HALF_FLOAT: the index as a number); a depth-stencil texture's STENCIL_INDEX reads are its
// plane's (STENCIL_INDEX8).
TransferResult pack_pixels(const SizedFormat& format, GLenum client_format, GLenum type, const PixelStore& store,
                           const Extent& extent, std::span<const std::byte> texels, void* client,
                           std::span<const std::byte> stencil = {});

}  // namespace bismuth::gl
