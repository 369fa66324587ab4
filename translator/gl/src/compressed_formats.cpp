// The compressed format table and the block decoders (compressed_formats.hpp). The decoders follow the Khronos
// Data Format Specification 1.3: chapter "S3TC Compressed Texture Image Formats" (BC1-BC3), "RGTC Compressed
// Texture Image Formats" (BC4/BC5) and "ETC2 Compressed Texture Image Formats" (ETC2 RGB modes, punch-through
// alpha, EAC); OpenGL ES 3.2 appendix C has the same ETC2/EAC text. BPTC is compressed_bptc.cpp.
#include "compressed_formats.hpp"

#include <algorithm>
#include <cmath>

#include "compressed_bptc.hpp"
#include "pixel_float_codecs.hpp"

namespace bismuth::gl {
namespace {

using C = BlockCodec;

constexpr CompressedFormat kCompressed[] = {
    {GL_COMPRESSED_RED_RGTC1, "GL_COMPRESSED_RED_RGTC1", C::Rgtc1, false, GL_RED, 8, GL_R16, VK_FORMAT_BC4_UNORM_BLOCK,
     false},
    {GL_COMPRESSED_SIGNED_RED_RGTC1, "GL_COMPRESSED_SIGNED_RED_RGTC1", C::Rgtc1, true, GL_RED, 8, GL_R16_SNORM,
     VK_FORMAT_BC4_SNORM_BLOCK, false},
    {GL_COMPRESSED_RG_RGTC2, "GL_COMPRESSED_RG_RGTC2", C::Rgtc2, false, GL_RG, 16, GL_RG16, VK_FORMAT_BC5_UNORM_BLOCK,
     false},
    {GL_COMPRESSED_SIGNED_RG_RGTC2, "GL_COMPRESSED_SIGNED_RG_RGTC2", C::Rgtc2, true, GL_RG, 16, GL_RG16_SNORM,
     VK_FORMAT_BC5_SNORM_BLOCK, false},
    {GL_COMPRESSED_RGBA_BPTC_UNORM, "GL_COMPRESSED_RGBA_BPTC_UNORM", C::Bc7, false, GL_RGBA, 16, GL_RGBA8,
     VK_FORMAT_BC7_UNORM_BLOCK, true},
    {GL_COMPRESSED_SRGB_ALPHA_BPTC_UNORM, "GL_COMPRESSED_SRGB_ALPHA_BPTC_UNORM", C::Bc7, false, GL_RGBA, 16,
     GL_SRGB8_ALPHA8, VK_FORMAT_BC7_SRGB_BLOCK, true},
    {GL_COMPRESSED_RGB_BPTC_SIGNED_FLOAT, "GL_COMPRESSED_RGB_BPTC_SIGNED_FLOAT", C::Bc6h, true, GL_RGB, 16, GL_RGBA16F,
     VK_FORMAT_BC6H_SFLOAT_BLOCK, true},
    {GL_COMPRESSED_RGB_BPTC_UNSIGNED_FLOAT, "GL_COMPRESSED_RGB_BPTC_UNSIGNED_FLOAT", C::Bc6h, false, GL_RGB, 16,
     GL_RGBA16F, VK_FORMAT_BC6H_UFLOAT_BLOCK, true},
    {GL_COMPRESSED_RGB8_ETC2, "GL_COMPRESSED_RGB8_ETC2", C::Etc2Rgb, false, GL_RGB, 8, GL_RGBA8,
     VK_FORMAT_ETC2_R8G8B8_UNORM_BLOCK, false},
    {GL_COMPRESSED_SRGB8_ETC2, "GL_COMPRESSED_SRGB8_ETC2", C::Etc2Rgb, false, GL_RGB, 8, GL_SRGB8_ALPHA8,
     VK_FORMAT_ETC2_R8G8B8_SRGB_BLOCK, false},
    {GL_COMPRESSED_RGB8_PUNCHTHROUGH_ALPHA1_ETC2, "GL_COMPRESSED_RGB8_PUNCHTHROUGH_ALPHA1_ETC2", C::Etc2Punch, false,
     GL_RGBA, 8, GL_RGBA8, VK_FORMAT_ETC2_R8G8B8A1_UNORM_BLOCK, false},
    {GL_COMPRESSED_SRGB8_PUNCHTHROUGH_ALPHA1_ETC2, "GL_COMPRESSED_SRGB8_PUNCHTHROUGH_ALPHA1_ETC2", C::Etc2Punch, false,
     GL_RGBA, 8, GL_SRGB8_ALPHA8, VK_FORMAT_ETC2_R8G8B8A1_SRGB_BLOCK, false},
    {GL_COMPRESSED_RGBA8_ETC2_EAC, "GL_COMPRESSED_RGBA8_ETC2_EAC", C::Etc2Eac, false, GL_RGBA, 16, GL_RGBA8,
     VK_FORMAT_ETC2_R8G8B8A8_UNORM_BLOCK, false},
    {GL_COMPRESSED_SRGB8_ALPHA8_ETC2_EAC, "GL_COMPRESSED_SRGB8_ALPHA8_ETC2_EAC", C::Etc2Eac, false, GL_RGBA, 16,
     GL_SRGB8_ALPHA8, VK_FORMAT_ETC2_R8G8B8A8_SRGB_BLOCK, false},
    {GL_COMPRESSED_R11_EAC, "GL_COMPRESSED_R11_EAC", C::EacR11, false, GL_RED, 8, GL_R16, VK_FORMAT_EAC_R11_UNORM_BLOCK,
     false},
    {GL_COMPRESSED_SIGNED_R11_EAC, "GL_COMPRESSED_SIGNED_R11_EAC", C::EacR11, true, GL_RED, 8, GL_R16_SNORM,
     VK_FORMAT_EAC_R11_SNORM_BLOCK, false},
    {GL_COMPRESSED_RG11_EAC, "GL_COMPRESSED_RG11_EAC", C::EacRg11, false, GL_RG, 16, GL_RG16,
     VK_FORMAT_EAC_R11G11_UNORM_BLOCK, false},
    {GL_COMPRESSED_SIGNED_RG11_EAC, "GL_COMPRESSED_SIGNED_RG11_EAC", C::EacRg11, true, GL_RG, 16, GL_RG16_SNORM,
     VK_FORMAT_EAC_R11G11_SNORM_BLOCK, false},
    {GL_COMPRESSED_RGB_S3TC_DXT1_EXT, "GL_COMPRESSED_RGB_S3TC_DXT1_EXT", C::Bc1Rgb, false, GL_RGB, 8, GL_RGBA8,
     VK_FORMAT_BC1_RGB_UNORM_BLOCK, false},
    {GL_COMPRESSED_RGBA_S3TC_DXT1_EXT, "GL_COMPRESSED_RGBA_S3TC_DXT1_EXT", C::Bc1Rgba, false, GL_RGBA, 8, GL_RGBA8,
     VK_FORMAT_BC1_RGBA_UNORM_BLOCK, false},
    {GL_COMPRESSED_RGBA_S3TC_DXT3_EXT, "GL_COMPRESSED_RGBA_S3TC_DXT3_EXT", C::Bc2, false, GL_RGBA, 16, GL_RGBA8,
     VK_FORMAT_BC2_UNORM_BLOCK, false},
    {GL_COMPRESSED_RGBA_S3TC_DXT5_EXT, "GL_COMPRESSED_RGBA_S3TC_DXT5_EXT", C::Bc3, false, GL_RGBA, 16, GL_RGBA8,
     VK_FORMAT_BC3_UNORM_BLOCK, false},
};

uint16_t le16(const uint8_t* p) {
  return static_cast<uint16_t>(p[0] | (p[1] << 8));
}

// ETC2/EAC blocks are big-endian 64-bit words: the first byte holds bits 63..56.
uint64_t be64(const uint8_t* p) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v = (v << 8) | p[i];
  return v;
}

uint32_t bits(uint64_t word, int high, int low) {
  return static_cast<uint32_t>((word >> low) & ((uint64_t{1} << (high - low + 1)) - 1));
}

int clamp255(int v) {
  return std::clamp(v, 0, 255);
}

// ---- S3TC (BC1 colour block, BC2 / BC3 alpha) ----

// A BC1 colour block. `four_colour_only`: BC2/BC3 colour blocks are always read in the four-colour mode.
void decode_bc1(const uint8_t* b, bool rgba, bool four_colour_only, std::array<Texel, 16>& out) {
  const uint16_t c0 = le16(b), c1 = le16(b + 2);
  auto rgb = [](uint16_t c) {
    // RGB565: red in bits 15..11, green 10..5, blue 4..0, each a unorm value.
    return Texel{static_cast<float>(c >> 11) / 31.0f, static_cast<float>((c >> 5) & 63) / 63.0f,
                 static_cast<float>(c & 31) / 31.0f, 1.0f};
  };
  std::array<Texel, 4> palette{rgb(c0), rgb(c1), Texel{}, Texel{}};
  const bool four = four_colour_only || c0 > c1;
  for (int i = 0; i < 3; ++i) {
    const float a = palette[0][i], z = palette[1][i];
    if (four) {
      palette[2][i] = (2.0f * a + z) / 3.0f;
      palette[3][i] = (a + 2.0f * z) / 3.0f;
    } else {
      palette[2][i] = (a + z) / 2.0f;
      palette[3][i] = 0.0f;  // black
    }
  }
  palette[2][3] = 1.0f;
  // The fourth colour of the three-colour mode is transparent black in the RGBA format, opaque black otherwise.
  palette[3][3] = (!four && rgba) ? 0.0f : 1.0f;
  const uint32_t indices =
      static_cast<uint32_t>(b[4] | (b[5] << 8) | (b[6] << 16)) | (static_cast<uint32_t>(b[7]) << 24);
  for (int t = 0; t < 16; ++t) out[t] = palette[(indices >> (2 * t)) & 3];
}

// The eight values of a BC3 alpha / BC4 channel block from its two endpoints (already as real values).
std::array<float, 8> bc4_palette(float e0, float e1, bool eight, float lowest, float highest) {
  std::array<float, 8> p{e0, e1};
  if (eight) {
    for (int k = 2; k < 8; ++k) p[k] = (static_cast<float>(8 - k) * e0 + static_cast<float>(k - 1) * e1) / 7.0f;
  } else {
    for (int k = 2; k < 6; ++k) p[k] = (static_cast<float>(6 - k) * e0 + static_cast<float>(k - 1) * e1) / 5.0f;
    p[6] = lowest;
    p[7] = highest;
  }
  return p;
}

// One BC4 channel (also BC3's alpha): two endpoint bytes, then sixteen 3-bit indices, little-endian, texel t at
// bits 3t of the 48 bits. Signed: endpoints are two's complement bytes, -128 reading as -127 (-1.0).
void decode_bc4(const uint8_t* b, bool is_signed, int component, std::array<Texel, 16>& out) {
  float e0, e1;
  bool eight;
  if (is_signed) {
    const int s0 = std::max(static_cast<int>(static_cast<int8_t>(b[0])), -127);
    const int s1 = std::max(static_cast<int>(static_cast<int8_t>(b[1])), -127);
    eight = static_cast<int8_t>(b[0]) > static_cast<int8_t>(b[1]);
    e0 = static_cast<float>(s0) / 127.0f;
    e1 = static_cast<float>(s1) / 127.0f;
  } else {
    eight = b[0] > b[1];
    e0 = static_cast<float>(b[0]) / 255.0f;
    e1 = static_cast<float>(b[1]) / 255.0f;
  }
  const auto palette = bc4_palette(e0, e1, eight, is_signed ? -1.0f : 0.0f, 1.0f);
  uint64_t indices = 0;
  for (int i = 0; i < 6; ++i) indices |= static_cast<uint64_t>(b[2 + i]) << (8 * i);
  for (int t = 0; t < 16; ++t) out[t][component] = palette[(indices >> (3 * t)) & 7];
}

// ---- ETC2 / EAC ----

// ETC1's intensity modifier tables (the "a" and "b" of each codeword; the pixel index picks +a, +b, -a, -b).
constexpr int kEtcModifiers[8][2] = {{2, 8}, {5, 17}, {9, 29}, {13, 42}, {18, 60}, {24, 80}, {33, 106}, {47, 183}};
// The distances of the T and H modes.
constexpr int kEtcDistances[8] = {3, 6, 11, 16, 23, 32, 41, 64};
// EAC's modifier tables.
constexpr int kEacModifiers[16][8] = {
    {-3, -6, -9, -15, 2, 5, 8, 14}, {-3, -7, -10, -13, 2, 6, 9, 12}, {-2, -5, -8, -13, 1, 4, 7, 12},
    {-2, -4, -6, -13, 1, 3, 5, 12}, {-3, -6, -8, -12, 2, 5, 7, 11},  {-3, -7, -9, -11, 2, 6, 8, 10},
    {-4, -7, -8, -11, 3, 6, 7, 10}, {-3, -5, -8, -11, 2, 4, 7, 10},  {-2, -6, -8, -10, 1, 5, 7, 9},
    {-2, -5, -8, -10, 1, 4, 7, 9},  {-2, -4, -8, -10, 1, 3, 7, 9},   {-2, -5, -7, -10, 1, 4, 6, 9},
    {-3, -4, -7, -10, 2, 3, 6, 9},  {-1, -2, -3, -10, 0, 1, 2, 9},   {-4, -6, -8, -9, 3, 5, 7, 8},
    {-3, -5, -7, -9, 2, 4, 6, 8}};

int extend4(uint32_t v) {
  return static_cast<int>((v << 4) | v);
}
int extend5(uint32_t v) {
  return static_cast<int>((v << 3) | (v >> 2));
}
int extend6(uint32_t v) {
  return static_cast<int>((v << 2) | (v >> 4));
}
int extend7(uint32_t v) {
  return static_cast<int>((v << 1) | (v >> 6));
}

// The 2-bit pixel index of texel (x, y): ETC numbers the texels column by column (i = 4x + y); the index's most
// significant bit is bit 16 + i of the low word, its least significant bit i.
uint32_t etc_index(uint64_t word, int x, int y) {
  const int i = 4 * x + y;
  return (((word >> (16 + i)) & 1) << 1) | ((word >> i) & 1);
}

// An ETC2 RGB block into out's RGB (alpha 1). `punch`: RGB8_PUNCHTHROUGH_ALPHA1: bit 33 is the "opaque" flag
// instead of "diff", the individual mode does not exist, and with opaque 0 the index 2 (msb 1, lsb 0) is
// transparent black (in the differential mode the modifiers +a and -a become 0 as well).
void decode_etc2_rgb(const uint8_t* b, bool punch, std::array<Texel, 16>& out) {
  const uint64_t w = be64(b);
  const bool diff = punch || bits(w, 33, 33) != 0;
  const bool opaque = !punch || bits(w, 33, 33) != 0;
  std::array<std::array<int, 4>, 16> rgba{};  // 8-bit results, alpha 255 or 0
  auto set = [&](int x, int y, int r, int g, int bl, bool transparent) {
    rgba[y * 4 + x] =
        transparent ? std::array<int, 4>{0, 0, 0, 0} : std::array<int, 4>{clamp255(r), clamp255(g), clamp255(bl), 255};
  };
  if (diff) {
    const int r1 = static_cast<int>(bits(w, 63, 59)), g1 = static_cast<int>(bits(w, 55, 51)),
              b1 = static_cast<int>(bits(w, 47, 43));
    auto delta = [](uint32_t d) { return static_cast<int>(d) - ((d & 4) ? 8 : 0); };  // 3-bit two's complement
    const int r2 = r1 + delta(bits(w, 58, 56)), g2 = g1 + delta(bits(w, 50, 48)), b2 = b1 + delta(bits(w, 42, 40));
    // T and H modes: each texel's 2-bit index picks one of four paint colours; index 2 is transparent in the
    // punch-through formats.
    auto paint_by_index = [&](const int (&paint)[4][3]) {
      for (int y = 0; y < 4; ++y) {
        for (int x = 0; x < 4; ++x) {
          const uint32_t i = etc_index(w, x, y);
          set(x, y, paint[i][0], paint[i][1], paint[i][2], !opaque && i == 2);
        }
      }
    };
    if (r2 < 0 || r2 > 31) {
      // T mode: R1 from bits 60..59 and 57..56; distance index from bits 35..34 and 32.
      const int cr1 = extend4((bits(w, 60, 59) << 2) | bits(w, 57, 56)), cg1 = extend4(bits(w, 55, 52)),
                cb1 = extend4(bits(w, 51, 48));
      const int cr2 = extend4(bits(w, 47, 44)), cg2 = extend4(bits(w, 43, 40)), cb2 = extend4(bits(w, 39, 36));
      const int d = kEtcDistances[(bits(w, 35, 34) << 1) | bits(w, 32, 32)];
      const int paint[4][3] = {
          {cr1, cg1, cb1}, {cr2 + d, cg2 + d, cb2 + d}, {cr2, cg2, cb2}, {cr2 - d, cg2 - d, cb2 - d}};
      paint_by_index(paint);
    } else if (g2 < 0 || g2 > 31) {
      // H mode: G1 from bits 58..56 and 52, B1 from bits 51 and 49..47; the distance index's lowest bit is
      // whether colour 1 >= colour 2 as 24-bit numbers R << 16 | G << 8 | B.
      const int cr1 = extend4(bits(w, 62, 59)), cg1 = extend4((bits(w, 58, 56) << 1) | bits(w, 52, 52)),
                cb1 = extend4((bits(w, 51, 51) << 3) | bits(w, 49, 47));
      const int cr2 = extend4(bits(w, 46, 43)), cg2 = extend4(bits(w, 42, 39)), cb2 = extend4(bits(w, 38, 35));
      const int v1 = (cr1 << 16) | (cg1 << 8) | cb1, v2 = (cr2 << 16) | (cg2 << 8) | cb2;
      const int d = kEtcDistances[(bits(w, 34, 34) << 2) | (bits(w, 32, 32) << 1) | (v1 >= v2 ? 1 : 0)];
      const int paint[4][3] = {{cr1 + d, cg1 + d, cb1 + d},
                               {cr1 - d, cg1 - d, cb1 - d},
                               {cr2 + d, cg2 + d, cb2 + d},
                               {cr2 - d, cg2 - d, cb2 - d}};
      paint_by_index(paint);
    } else if (b2 < 0 || b2 > 31) {
      // Planar mode: origin O, horizontal H and vertical V colours; always opaque.
      const int ro = extend6(bits(w, 62, 57)), go = extend7((bits(w, 56, 56) << 6) | bits(w, 54, 49)),
                bo = extend6((bits(w, 48, 48) << 5) | (bits(w, 44, 43) << 3) | bits(w, 41, 39));
      const int rh = extend6((bits(w, 38, 34) << 1) | bits(w, 32, 32)), gh = extend7(bits(w, 31, 25)),
                bh = extend6(bits(w, 24, 19));
      const int rv = extend6(bits(w, 18, 13)), gv = extend7(bits(w, 12, 6)), bv = extend6(bits(w, 5, 0));
      auto plane = [](int o, int h, int v, int x, int y) { return (x * (h - o) + y * (v - o) + 4 * o + 2) >> 2; };
      for (int y = 0; y < 4; ++y) {
        for (int x = 0; x < 4; ++x)
          set(x, y, plane(ro, rh, rv, x, y), plane(go, gh, gv, x, y), plane(bo, bh, bv, x, y), false);
      }
    } else {
      // Differential mode: two 5-bit base colours, the second as a delta.
      const int base[2][3] = {
          {extend5(static_cast<uint32_t>(r1)), extend5(static_cast<uint32_t>(g1)), extend5(static_cast<uint32_t>(b1))},
          {extend5(static_cast<uint32_t>(r2)), extend5(static_cast<uint32_t>(g2)), extend5(static_cast<uint32_t>(b2))}};
      const uint32_t tables[2] = {bits(w, 39, 37), bits(w, 36, 34)};
      const bool flip = bits(w, 32, 32) != 0;
      for (int y = 0; y < 4; ++y) {
        for (int x = 0; x < 4; ++x) {
          const int sub = flip ? (y >= 2) : (x >= 2);
          const uint32_t i = etc_index(w, x, y);
          const int a = kEtcModifiers[tables[sub]][0], bb = kEtcModifiers[tables[sub]][1];
          int m = i == 0 ? a : i == 1 ? bb : i == 2 ? -a : -bb;
          if (!opaque && (i == 0 || i == 2)) m = 0;
          set(x, y, base[sub][0] + m, base[sub][1] + m, base[sub][2] + m, !opaque && i == 2);
        }
      }
    }
  } else {
    // Individual mode: two 4-bit base colours.
    const int base[2][3] = {{extend4(bits(w, 63, 60)), extend4(bits(w, 55, 52)), extend4(bits(w, 47, 44))},
                            {extend4(bits(w, 59, 56)), extend4(bits(w, 51, 48)), extend4(bits(w, 43, 40))}};
    const uint32_t tables[2] = {bits(w, 39, 37), bits(w, 36, 34)};
    const bool flip = bits(w, 32, 32) != 0;
    for (int y = 0; y < 4; ++y) {
      for (int x = 0; x < 4; ++x) {
        const int sub = flip ? (y >= 2) : (x >= 2);
        const uint32_t i = etc_index(w, x, y);
        const int a = kEtcModifiers[tables[sub]][0], bb = kEtcModifiers[tables[sub]][1];
        const int m = i == 0 ? a : i == 1 ? bb : i == 2 ? -a : -bb;
        set(x, y, base[sub][0] + m, base[sub][1] + m, base[sub][2] + m, false);
      }
    }
  }
  for (int t = 0; t < 16; ++t) {
    for (int c = 0; c < 4; ++c) out[t][c] = static_cast<float>(rgba[t][c]) / 255.0f;
  }
}

// An EAC block: base codeword (bits 63..56), multiplier (55..52), table (51..48), then sixteen 3-bit indices from
// bit 47 down, texel i = 4x + y (column by column) at bits 47 - 3i .. 45 - 3i.
uint32_t eac_index(uint64_t w, int x, int y) {
  const int i = 4 * x + y;
  return bits(w, 47 - 3 * i, 45 - 3 * i);
}

// EAC's 8-bit alpha (RGBA8_ETC2_EAC).
void decode_eac_alpha(const uint8_t* b, std::array<Texel, 16>& out) {
  const uint64_t w = be64(b);
  const int base = static_cast<int>(bits(w, 63, 56)), mult = static_cast<int>(bits(w, 55, 52));
  const int* table = kEacModifiers[bits(w, 51, 48)];
  for (int y = 0; y < 4; ++y) {
    for (int x = 0; x < 4; ++x) {
      out[y * 4 + x][3] = static_cast<float>(clamp255(base + table[eac_index(w, x, y)] * mult)) / 255.0f;
    }
  }
}

// An 11-bit EAC channel: unsigned clamp(base * 8 + 4 + modifier * multiplier * 8, 0, 2047) / 2047, signed
// clamp(base * 8 + modifier * multiplier * 8, -1023, 1023) / 1023 with the base a two's complement byte (-128 as
// -127); a multiplier of 0 uses the modifier itself (times 1, not times 8).
void decode_eac11(const uint8_t* b, bool is_signed, int component, std::array<Texel, 16>& out) {
  const uint64_t w = be64(b);
  const int mult = static_cast<int>(bits(w, 55, 52));
  const int* table = kEacModifiers[bits(w, 51, 48)];
  for (int y = 0; y < 4; ++y) {
    for (int x = 0; x < 4; ++x) {
      const int m = table[eac_index(w, x, y)];
      const int step = mult == 0 ? m : m * mult * 8;
      float v;
      if (is_signed) {
        const int base = std::max(static_cast<int>(static_cast<int8_t>(bits(w, 63, 56))), -127);
        v = static_cast<float>(std::clamp(base * 8 + step, -1023, 1023)) / 1023.0f;
      } else {
        const int base = static_cast<int>(bits(w, 63, 56));
        v = static_cast<float>(std::clamp(base * 8 + 4 + step, 0, 2047)) / 2047.0f;
      }
      out[y * 4 + x][component] = v;
    }
  }
}

}  // namespace

std::span<const CompressedFormat> compressed_formats() {
  return kCompressed;
}

const CompressedFormat* find_compressed_format(GLenum internalformat) {
  for (const CompressedFormat& f : kCompressed) {
    if (f.internalformat == internalformat) return &f;
  }
  return nullptr;
}

bool compressed_format_available(const CompressedFormat& f, bool es) {
  if (!es) return true;
  switch (f.codec) {
    case C::Etc2Rgb:
    case C::Etc2Punch:
    case C::Etc2Eac:
    case C::EacR11:
    case C::EacRg11: return true;
    default: return false;
  }
}

const CompressedFormat* find_compressed_format(GLenum internalformat, bool es) {
  const CompressedFormat* f = find_compressed_format(internalformat);
  return f != nullptr && compressed_format_available(*f, es) ? f : nullptr;
}

bool is_generic_compressed(GLenum internalformat) {
  switch (internalformat) {
    case GL_COMPRESSED_RED:
    case GL_COMPRESSED_RG:
    case GL_COMPRESSED_RGB:
    case GL_COMPRESSED_RGBA:
    case GL_COMPRESSED_SRGB:
    case GL_COMPRESSED_SRGB_ALPHA: return true;
    default: return false;
  }
}

GLenum generic_compressed_base(GLenum internalformat) {
  switch (internalformat) {
    case GL_COMPRESSED_RED: return GL_RED;
    case GL_COMPRESSED_RG: return GL_RG;
    case GL_COMPRESSED_RGB: return GL_RGB;
    case GL_COMPRESSED_RGBA: return GL_RGBA;
    case GL_COMPRESSED_SRGB: return GL_SRGB;
    case GL_COMPRESSED_SRGB_ALPHA: return GL_SRGB_ALPHA;
    default: return internalformat;
  }
}

uint64_t compressed_size(const CompressedFormat& f, uint32_t width, uint32_t height, uint32_t depth) {
  const uint64_t bx = (uint64_t{width} + kBlockWidth - 1) / kBlockWidth;
  const uint64_t by = (uint64_t{height} + kBlockHeight - 1) / kBlockHeight;
  return bx * by * depth * f.block_bytes;
}

void decode_block(const CompressedFormat& f, const uint8_t* block, std::array<Texel, 16>& out) {
  for (Texel& t : out) t = Texel{0.0f, 0.0f, 0.0f, 1.0f};
  switch (f.codec) {
    case C::Bc1Rgb: decode_bc1(block, false, false, out); break;
    case C::Bc1Rgba: decode_bc1(block, true, false, out); break;
    case C::Bc2:
      decode_bc1(block + 8, false, true, out);
      // 64 bits of 4-bit alpha, little-endian, texel t at bits 4t.
      for (int t = 0; t < 16; ++t) {
        const uint8_t byte = block[t / 2];
        out[t][3] = static_cast<float>((t & 1) ? byte >> 4 : byte & 15) / 15.0f;
      }
      break;
    case C::Bc3:
      decode_bc1(block + 8, false, true, out);
      decode_bc4(block, false, 3, out);
      break;
    case C::Rgtc1: decode_bc4(block, f.is_signed, 0, out); break;
    case C::Rgtc2:
      decode_bc4(block, f.is_signed, 0, out);
      decode_bc4(block + 8, f.is_signed, 1, out);
      break;
    case C::Etc2Rgb: decode_etc2_rgb(block, false, out); break;
    case C::Etc2Punch: decode_etc2_rgb(block, true, out); break;
    case C::Etc2Eac:
      decode_etc2_rgb(block + 8, false, out);
      decode_eac_alpha(block, out);
      break;
    case C::EacR11: decode_eac11(block, f.is_signed, 0, out); break;
    case C::EacRg11:
      decode_eac11(block, f.is_signed, 0, out);
      decode_eac11(block + 8, f.is_signed, 1, out);
      break;
    case C::Bc7: decode_bptc_block(false, false, block, out); break;
    case C::Bc6h: decode_bptc_block(true, f.is_signed, block, out); break;
  }
}

uint32_t storage_texel_bytes(const CompressedFormat& f) {
  switch (f.storage) {
    case GL_R16:
    case GL_R16_SNORM: return 2;
    case GL_RGBA16F: return 8;
    default: return 4;  // RGBA8, SRGB8_ALPHA8, RG16, RG16_SNORM
  }
}

uint32_t encode_storage_texel(const CompressedFormat& f, const Texel& texel, uint8_t* out) {
  auto unorm16 = [](float v) { return static_cast<uint16_t>(std::lround(std::clamp(v, 0.0f, 1.0f) * 65535.0f)); };
  auto snorm16 = [](float v) {
    return static_cast<uint16_t>(static_cast<int16_t>(std::lround(std::clamp(v, -1.0f, 1.0f) * 32767.0f)));
  };
  auto put16 = [&](int at, uint16_t v) {
    out[at] = static_cast<uint8_t>(v & 0xFF);
    out[at + 1] = static_cast<uint8_t>(v >> 8);
  };
  switch (f.storage) {
    case GL_R16: put16(0, unorm16(texel[0])); return 2;
    case GL_R16_SNORM: put16(0, snorm16(texel[0])); return 2;
    case GL_RG16:
      put16(0, unorm16(texel[0]));
      put16(2, unorm16(texel[1]));
      return 4;
    case GL_RG16_SNORM:
      put16(0, snorm16(texel[0]));
      put16(2, snorm16(texel[1]));
      return 4;
    case GL_RGBA16F:
      for (int c = 0; c < 4; ++c) put16(2 * c, float_to_half(texel[c]));
      return 8;
    default:
      for (int c = 0; c < 4; ++c) out[c] = static_cast<uint8_t>(std::lround(std::clamp(texel[c], 0.0f, 1.0f) * 255.0f));
      return 4;
  }
}

GLenum compressed_view_class(const CompressedFormat& f) {
  switch (f.codec) {
    case C::Bc1Rgb: return GL_VIEW_CLASS_S3TC_DXT1_RGB;
    case C::Bc1Rgba: return GL_VIEW_CLASS_S3TC_DXT1_RGBA;
    case C::Bc2: return GL_VIEW_CLASS_S3TC_DXT3_RGBA;
    case C::Bc3: return GL_VIEW_CLASS_S3TC_DXT5_RGBA;
    case C::Rgtc1: return GL_VIEW_CLASS_RGTC1_RED;
    case C::Rgtc2: return GL_VIEW_CLASS_RGTC2_RG;
    case C::Bc7: return GL_VIEW_CLASS_BPTC_UNORM;
    case C::Bc6h: return GL_VIEW_CLASS_BPTC_FLOAT;
    case C::EacR11: return GL_VIEW_CLASS_EAC_R11;
    case C::EacRg11: return GL_VIEW_CLASS_EAC_RG11;
    case C::Etc2Rgb: return GL_VIEW_CLASS_ETC2_RGB;
    case C::Etc2Punch: return GL_VIEW_CLASS_ETC2_RGBA;
    case C::Etc2Eac: return GL_VIEW_CLASS_ETC2_EAC_RGBA;
  }
  return GL_NONE;
}

bool same_decoding(const CompressedFormat& a, const CompressedFormat& b) {
  return a.codec == b.codec && a.is_signed == b.is_signed;
}

bool block_copy_compatible(const CompressedFormat& f, GLenum u) {
  if (f.block_bytes == 16) return u == GL_RGBA32UI || u == GL_RGBA32I || u == GL_RGBA32F;
  return u == GL_RGBA16F || u == GL_RG32F || u == GL_RGBA16UI || u == GL_RG32UI || u == GL_RGBA16I || u == GL_RG32I ||
         u == GL_RGBA16 || u == GL_RGBA16_SNORM;
}

}  // namespace bismuth::gl
