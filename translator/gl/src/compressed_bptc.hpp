// The BPTC block decoders (compressed_bptc.cpp): BC7 (RGBA_BPTC_UNORM, SRGB_ALPHA_BPTC_UNORM) and BC6H
// (RGB_BPTC_SIGNED_FLOAT, RGB_BPTC_UNSIGNED_FLOAT), for compressed_formats.cpp's decode_block.
#pragma once

#include <array>
#include <cstdint>

#include "compressed_formats.hpp"

namespace bismuth::gl {

// Decodes one 16-byte block: BC6H when `float_format` (RGB halves as floats, alpha 1; `is_signed` for
// RGB_BPTC_SIGNED_FLOAT), else BC7 (RGBA in [0, 1]). Texel (x, y) is out[y * 4 + x].
void decode_bptc_block(bool float_format, bool is_signed, const uint8_t* block, std::array<Texel, 16>& out);

// The bits BC6H mode `index` (in table-bptcblockmodes order) uses before its indices: header and partition bits
// (82 for the two-subset modes, 65 for the others: 128 bits with 46 or 63 index bits). For tests of the table.
uint32_t bc6h_mode_bits(uint32_t index);

}  // namespace bismuth::gl
