// Uncompressed client data into compressed levels: glTexImage* with a specific compressed internal format and
// glTexSubImage* into a compressed level (GL 4.6 §8.5, §8.7: the GL compresses the image itself). The client
// pixels are unpacked to RGBA floats (pixel_transfer.hpp, as into an RGBA32F texture), encoded block by block
// (compressed_encode.hpp; a partial block at the level's edge repeats the last column / row) and stored as if
// CompressedTexSubImage had brought those blocks: the kept blocks are what glGetCompressedTexImage returns and
// the image holds their decoding. docs/gl_shim.md "Compressed textures".
#include "texture_compress_online.hpp"

#include <algorithm>
#include <vector>

#include "compressed_encode.hpp"
#include "texture_client_data.hpp"

namespace bismuth::gl {

bool online_compression(const CompressedFormat& f) {
  return can_encode(f);
}

bool compress_client_pixels(Context* ctx, TextureObject& t, uint32_t face, uint32_t level, bool whole_cube, uint32_t x,
                            uint32_t y, uint32_t z, const Extent& extent, GLenum format, GLenum type,
                            const UnpackSource& source, const char* func) {
  const uint32_t w = extent.width, h = extent.height, d = extent.depth;
  if (!source.present || w == 0 || h == 0 || d == 0) return true;
  const CompressedFormat& f = *find_compressed_format(t.levels[face][level].internalformat);
  std::vector<float> rgba(static_cast<size_t>(w) * h * d * 4);
  const TransferResult unpacked = unpack_pixels(*find_sized_format(GL_RGBA32F), format, type, ctx->unpack, extent,
                                                source.client, std::as_writable_bytes(std::span(rgba)));
  if (!unpacked.ok()) {
    ctx->set_error(unpacked.error, std::string(func) + ": " + unpacked.message);
    return false;
  }
  const uint32_t bw = (w + kBlockWidth - 1) / kBlockWidth, bh = (h + kBlockHeight - 1) / kBlockHeight;
  std::vector<uint8_t> blocks(static_cast<size_t>(bw) * bh * d * f.block_bytes);
  std::array<Texel, 16> texels;
  uint8_t* out = blocks.data();
  for (uint32_t s = 0; s < d; ++s) {
    for (uint32_t by = 0; by < bh; ++by) {
      for (uint32_t bx = 0; bx < bw; ++bx, out += f.block_bytes) {
        for (uint32_t ty = 0; ty < kBlockHeight; ++ty) {
          for (uint32_t tx = 0; tx < kBlockWidth; ++tx) {
            const uint32_t px = std::min(bx * kBlockWidth + tx, w - 1), py = std::min(by * kBlockHeight + ty, h - 1);
            const float* p = rgba.data() + ((static_cast<size_t>(s) * h + py) * w + px) * 4;
            texels[ty * 4 + tx] = Texel{p[0], p[1], p[2], p[3]};
          }
        }
        encode_block(f, texels, out);
      }
    }
  }
  return write_compressed_box(ctx, t, face, level, whole_cube, x, y, z, w, h, d, blocks.data(), func);
}

}  // namespace bismuth::gl
