// The specific compressed internal formats of GL 4.6 table 8.14 (RGTC, BPTC, ETC2/EAC) and
// EXT_texture_compression_s3tc's (DXT1/3/5), with the CPU decoders of their blocks (compressed_formats.cpp and
// compressed_bptc.cpp, written from the Khronos Data Format Specification's chapters on S3TC, RGTC, BPTC and
// ETC2/EAC). CPU-only: no Vulkan calls.
//
// Storage: a compressed texture keeps the application's blocks on the CPU (glGetCompressedTexImage returns them
// unchanged) and its Vulkan image holds them in `vk_native` where the device samples that block format, else the
// texels decoded on the CPU at each upload in `storage` (an uncompressed sized format of pixel_formats.hpp);
// texture_compressed.cpp chooses (docs/gl_shim.md "Compressed textures").
#pragma once

#include <GL/glcorearb.h>
#include <vulkan/vulkan_core.h>

#include <array>
#include <cstdint>
#include <span>

// EXT_texture_compression_s3tc's enums (not in glcorearb.h).
#ifndef GL_COMPRESSED_RGB_S3TC_DXT1_EXT
#define GL_COMPRESSED_RGB_S3TC_DXT1_EXT 0x83F0
#define GL_COMPRESSED_RGBA_S3TC_DXT1_EXT 0x83F1
#define GL_COMPRESSED_RGBA_S3TC_DXT3_EXT 0x83F2
#define GL_COMPRESSED_RGBA_S3TC_DXT5_EXT 0x83F3
#endif

namespace bismuth::gl {

enum class BlockCodec : uint8_t {
  Bc1Rgb,     // DXT1 without alpha (EXT_texture_compression_s3tc)
  Bc1Rgba,    // DXT1 with 1-bit alpha
  Bc2,        // DXT3: explicit 4-bit alpha + a BC1 colour block
  Bc3,        // DXT5: interpolated alpha + a BC1 colour block
  Rgtc1,      // one BC4 channel (RED_RGTC1 / SIGNED_RED_RGTC1)
  Rgtc2,      // two BC4 channels (RG_RGTC2 / SIGNED_RG_RGTC2)
  Etc2Rgb,    // ETC2 RGB8 (individual, differential, T, H, planar modes)
  Etc2Punch,  // ETC2 RGB8 with punch-through alpha
  Etc2Eac,    // EAC alpha block + ETC2 RGB8 block
  EacR11,     // one EAC 11-bit channel
  EacRg11,    // two EAC 11-bit channels
  Bc7,        // BPTC unorm (RGBA_BPTC_UNORM / SRGB_ALPHA_BPTC_UNORM)
  Bc6h,       // BPTC float (RGB_BPTC_SIGNED_FLOAT / RGB_BPTC_UNSIGNED_FLOAT)
};

struct CompressedFormat {
  GLenum internalformat;
  const char* name;  // "GL_COMPRESSED_RGB8_ETC2"
  BlockCodec codec;
  bool is_signed;       // SIGNED_* RGTC / EAC formats: texels in [-1, 1]; RGB_BPTC_SIGNED_FLOAT
  GLenum base_format;   // GL_RED, GL_RG, GL_RGB, GL_RGBA (table 8.14's base internal format)
  uint8_t block_bytes;  // 8 or 16 per 4x4 block
  GLenum storage;       // the sized format the decoded texels are stored in (find_sized_format)
  VkFormat vk_native;   // the Vulkan format of the same blocks (native storage)
  bool texture_3d;      // table 8.14's "3D Tex." column: may be a TEXTURE_3D image (the BPTC formats)
};

inline constexpr uint32_t kBlockWidth = 4, kBlockHeight = 4;

std::span<const CompressedFormat> compressed_formats();
const CompressedFormat* find_compressed_format(GLenum internalformat);
// Whether a context has the format: desktop GL every one; OpenGL ES 3.x the ETC2 / EAC formats of its core
// (OpenGL ES 3.2 table 8.19), not the S3TC and RGTC extensions.
bool compressed_format_available(const CompressedFormat& f, bool es);
// find_compressed_format for a context: nullptr for a format the context does not have.
const CompressedFormat* find_compressed_format(GLenum internalformat, bool es);

// The generic compressed formats of GL 4.6 table 8.14's first rows (COMPRESSED_RED ... COMPRESSED_SRGB_ALPHA):
// CompressedTexImage* refuses them ("An INVALID_ENUM error is generated if internalformat is one of the generic
// compressed internal formats").
bool is_generic_compressed(GLenum internalformat);
// The base internal format a generic compressed format stands for (COMPRESSED_RGBA: RGBA, COMPRESSED_SRGB: SRGB).
GLenum generic_compressed_base(GLenum internalformat);

// The view class of a compressed format (GL 4.6 table 8.22's compressed rows: VIEW_CLASS_RGTC1_RED, RGTC2_RG,
// BPTC_UNORM, BPTC_FLOAT, the S3TC classes; the ETC2/EAC classes of ARB_internalformat_query2 / OES_texture_view:
// VIEW_CLASS_EAC_R11, EAC_RG11, ETC2_RGB, ETC2_RGBA (punch-through), ETC2_EAC_RGBA). Views (§8.18) and
// CopyImageSubData (§18.3.3) between two compressed formats need one class.
GLenum compressed_view_class(const CompressedFormat& f);
// Whether two formats of one view class decode the same blocks to the same stored texels (an sRGB format and its
// linear twin: the same bytes, read differently); false for the signed / unsigned pairs (RGTC, EAC, BC6H).
bool same_decoding(const CompressedFormat& a, const CompressedFormat& b);
// GL 4.6 table 18.4: the uncompressed internal formats whose texel size is a compressed format's block
// (CopyImageSubData between them copies a block per texel): 128-bit RGBA32UI, RGBA32I, RGBA32F; 64-bit RGBA16F,
// RG32F, RGBA16UI, RG32UI, RGBA16I, RG32I, RGBA16, RGBA16_SNORM.
bool block_copy_compatible(const CompressedFormat& f, GLenum uncompressed_internalformat);

// Bytes of `width` x `height` x `depth` texels in 4x4 blocks: ceil(w/4) * ceil(h/4) * depth * block bytes.
uint64_t compressed_size(const CompressedFormat& f, uint32_t width, uint32_t height, uint32_t depth);

// One decoded texel: RGBA, unorm formats in [0, 1] (sRGB formats: the encoded values), signed ones in [-1, 1]; a
// component the format lacks is 0 (G, B) or 1 (A) as GL reads it (§15.2.1 table 15.1).
using Texel = std::array<float, 4>;

// Decodes one block: texel (x, y) of the block is out[y * 4 + x].
void decode_block(const CompressedFormat& f, const uint8_t* block, std::array<Texel, 16>& out);

// Writes a decoded texel in the Vulkan texel layout of the storage format (RGBA8 / SRGB8_ALPHA8: 4 bytes,
// R16/RG16 (SNORM): 2 / 4 bytes, RGBA16F: 8 bytes). Returns the bytes written.
uint32_t encode_storage_texel(const CompressedFormat& f, const Texel& texel, uint8_t* out);
uint32_t storage_texel_bytes(const CompressedFormat& f);

}  // namespace bismuth::gl
