// The glPixelStorei state of one direction (pixel_transfer.hpp reads it; the context holds a pack and an unpack
// copy, pixel_store.cpp sets them). Its own header so that gl_internal.hpp needs no pixel-transfer declarations.
#pragma once

#include <cstdint>

namespace bismuth::gl {

// One direction's glPixelStorei state (GL 4.6 table 8.1 for UNPACK_*, table 18.1 for PACK_*), initial values.
struct PixelStore {
  int32_t alignment = 4;
  int32_t row_length = 0;
  int32_t image_height = 0;
  int32_t skip_pixels = 0;
  int32_t skip_rows = 0;
  int32_t skip_images = 0;
  bool swap_bytes = false;
  bool lsb_first = false;  // bitmaps only: no effect on the formats here
  // *_COMPRESSED_BLOCK_WIDTH / HEIGHT / DEPTH / SIZE (GL 4.6 §8.4.1, ARB_compressed_texture_pixel_storage):
  // the block layout glCompressedTex*Image* / glGetCompressedTex*Image apply the row length and skips in.
  int32_t block_width = 0, block_height = 0, block_depth = 0, block_size = 0;
};

}  // namespace bismuth::gl
