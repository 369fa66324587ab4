// Block encoders for the compressed formats the GL compresses itself (glTexImage* / glTexSubImage* with a specific
// compressed internal format and uncompressed client data, GL 4.6 §8.5 / §8.7): RGTC, S3TC, BPTC and ETC2/EAC
// (compressed_encode_etc.cpp). Any block the decoder reads back to an approximation of the texels is a valid result;
// these are simple single-partition encoders (compressed_encode.cpp and compressed_encode_etc.cpp say which block
// modes they write). The indices are chosen against palettes the
// decoder itself produces (decode_block), so what is sampled is exactly the decoding of the kept blocks. CPU-only.
#pragma once

#include <array>
#include <cstdint>

#include "compressed_formats.hpp"

namespace bismuth::gl {

// Whether encode_block handles the format (every format of compressed_formats(): RGTC, S3TC, BPTC, ETC2/EAC).
bool can_encode(const CompressedFormat& f);
// The ETC2 / EAC part of the two above (compressed_encode_etc.cpp).
bool can_encode_etc(const CompressedFormat& f);
void encode_etc_block(const CompressedFormat& f, const std::array<Texel, 16>& texels, uint8_t* out);

// Encodes 16 texels (texel (x, y) of the block is texels[y * 4 + x]; RGBA, unorm formats in [0, 1], signed ones in
// [-1, 1], BPTC float as linear values; values outside the format's range are clamped) into one block of
// f.block_bytes bytes at `out`.
void encode_block(const CompressedFormat& f, const std::array<Texel, 16>& texels, uint8_t* out);

}  // namespace bismuth::gl
