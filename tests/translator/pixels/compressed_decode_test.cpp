// The compressed block decoders (translator/gl/src/compressed_formats.cpp) against texels worked out by hand from
// the Khronos Data Format Specification 1.3 (chapters "S3TC Compressed Texture Image Formats", "RGTC Compressed
// Texture Image Formats", "ETC2 Compressed Texture Image Formats"). Each block is written byte by byte from the
// spec's bit layout; the comments give the fields and the arithmetic that yields the expected texels.
#include <catch2/catch.hpp>

#include <array>
#include <cstdint>

#include "compressed_formats.hpp"

using namespace bismuth::gl;

namespace {

std::array<Texel, 16> decode(GLenum internalformat, const std::array<uint8_t, 16>& block) {
  const CompressedFormat* f = find_compressed_format(internalformat);
  REQUIRE(f != nullptr);
  std::array<Texel, 16> out{};
  decode_block(*f, block.data(), out);
  return out;
}

// Texel (x, y) against 8-bit values c / 255.
void require_rgba8(const std::array<Texel, 16>& t, int x, int y, int r, int g, int b, int a) {
  INFO("texel (" << x << ", " << y << ")");
  const Texel& v = t[static_cast<size_t>(y * 4 + x)];
  CHECK(v[0] == Approx(r / 255.0).margin(1e-6));
  CHECK(v[1] == Approx(g / 255.0).margin(1e-6));
  CHECK(v[2] == Approx(b / 255.0).margin(1e-6));
  CHECK(v[3] == Approx(a / 255.0).margin(1e-6));
}

}  // namespace

TEST_CASE("S3TC DXT1: four-colour and three-colour blocks", "[compressed]") {
  // "color0 and color1 ... RGB 5:6:5"; "if color0 > color1": RGB2 = (2*RGB0 + RGB1)/3, RGB3 = (RGB0 + 2*RGB1)/3.
  // color0 = 0xF800 (pure red), color1 = 0x001F (pure blue); each row's index byte 0xE4 = codes 0,1,2,3 for
  // x = 0..3 (texel t's 2-bit code at bits 2t of the 32-bit index word).
  const std::array<uint8_t, 16> four{0x00, 0xF8, 0x1F, 0x00, 0xE4, 0xE4, 0xE4, 0xE4};
  const auto t = decode(GL_COMPRESSED_RGB_S3TC_DXT1_EXT, four);
  for (int y = 0; y < 4; ++y) {
    CHECK(t[y * 4 + 0] == Texel{1, 0, 0, 1});
    CHECK(t[y * 4 + 1] == Texel{0, 0, 1, 1});
    CHECK(t[y * 4 + 2][0] == Approx(2.0 / 3.0));
    CHECK(t[y * 4 + 2][2] == Approx(1.0 / 3.0));
    CHECK(t[y * 4 + 3][0] == Approx(1.0 / 3.0));
    CHECK(t[y * 4 + 3][2] == Approx(2.0 / 3.0));
  }
  // color0 <= color1: RGB2 = (RGB0 + RGB1)/2, RGB3 = black; with the RGBA format code 3 has alpha 0 ("transparent
  // black"), the RGB format reads it as opaque black.
  const std::array<uint8_t, 16> three{0x1F, 0x00, 0x00, 0xF8, 0xE4, 0xE4, 0xE4, 0xE4};
  const auto rgb = decode(GL_COMPRESSED_RGB_S3TC_DXT1_EXT, three);
  const auto rgba = decode(GL_COMPRESSED_RGBA_S3TC_DXT1_EXT, three);
  CHECK(rgba[0] == Texel{0, 0, 1, 1});
  CHECK(rgba[1] == Texel{1, 0, 0, 1});
  CHECK(rgba[2] == Texel{0.5f, 0, 0.5f, 1});
  CHECK(rgba[3] == Texel{0, 0, 0, 0});
  CHECK(rgb[3] == Texel{0, 0, 0, 1});
}

TEST_CASE("S3TC DXT3 / DXT5 alpha", "[compressed]") {
  // DXT3: 64 bits of 4-bit alpha, texel t's at bits 4t, value a / 15; the colour block (color0 = color1 = white)
  // follows.
  const std::array<uint8_t, 16> dxt3{0x0F, 0x50, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0};
  const auto t3 = decode(GL_COMPRESSED_RGBA_S3TC_DXT3_EXT, dxt3);
  CHECK(t3[0][3] == Approx(1.0));        // 0xF
  CHECK(t3[1][3] == Approx(0.0));        // 0x0
  CHECK(t3[3][3] == Approx(5.0 / 15.0));  // 0x5
  CHECK(t3[0][0] == Approx(1.0));
  // DXT5: alpha0 = 255 > alpha1 = 0: ALPHA2..7 = ((8-k)*alpha0 + (k-1)*alpha1)/7 for codes k = 2..7; 3-bit codes
  // at bits 3t of the 48 bits after the endpoints: t0 = 0, t1 = 1, t2 = 2, t3 = 7 (0x0E88), the rest 0.
  const std::array<uint8_t, 16> dxt5{0xFF, 0x00, 0x88, 0x0E, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0};
  const auto t5 = decode(GL_COMPRESSED_RGBA_S3TC_DXT5_EXT, dxt5);
  CHECK(t5[0][3] == Approx(1.0));
  CHECK(t5[1][3] == Approx(0.0));
  CHECK(t5[2][3] == Approx(6.0 / 7.0));
  CHECK(t5[3][3] == Approx(1.0 / 7.0));
  CHECK(t5[4][3] == Approx(1.0));
}

TEST_CASE("RGTC1 / RGTC2, unsigned and signed", "[compressed]") {
  // Unsigned, red0 = 0 <= red1 = 255: the six-value mode, RED2..5 = ((6-k)*red0 + (k-1)*red1)/5, RED6 = 0,
  // RED7 = 1. Codes: t0 = 2, t1 = 6, t2 = 7, others 0 (48-bit word 2 | 6 << 3 | 7 << 6 = 0x1F2).
  const std::array<uint8_t, 16> red{0x00, 0xFF, 0xF2, 0x01, 0, 0, 0, 0};
  const auto r = decode(GL_COMPRESSED_RED_RGTC1, red);
  CHECK(r[0][0] == Approx(0.2));
  CHECK(r[1][0] == Approx(0.0));
  CHECK(r[2][0] == Approx(1.0));
  CHECK(r[3][0] == Approx(0.0));
  CHECK(r[0][1] == 0.0f);
  CHECK(r[0][3] == 1.0f);
  // Signed: red0 = -128 (read as -127, i.e. -1.0) and red1 = 127: red0 <= red1 so the six-value mode with
  // RED6 = -1.0, RED7 = 1.0; code 2 = (4 * -1 + 1) / 5 = -0.6.
  const std::array<uint8_t, 16> signed_red{0x80, 0x7F, 0xF2, 0x01, 0, 0, 0, 0};
  const auto s = decode(GL_COMPRESSED_SIGNED_RED_RGTC1, signed_red);
  CHECK(s[0][0] == Approx(-0.6));
  CHECK(s[1][0] == Approx(-1.0));
  CHECK(s[2][0] == Approx(1.0));
  CHECK(s[3][0] == Approx(-1.0));
  // RGTC2: the red block, then the green block (red0 = 255 > red1 = 0, code 2 = 6/7).
  const std::array<uint8_t, 16> rg{0x00, 0xFF, 0xF2, 0x01, 0, 0, 0, 0, 0xFF, 0x00, 0x02, 0, 0, 0, 0, 0};
  const auto t = decode(GL_COMPRESSED_RG_RGTC2, rg);
  CHECK(t[0][0] == Approx(0.2));
  CHECK(t[0][1] == Approx(6.0 / 7.0));
  CHECK(t[1][1] == Approx(1.0));
}

TEST_CASE("ETC2 RGB8: individual and differential modes", "[compressed]") {
  // Individual mode (diff bit 33 = 0): R1 = 8, R2 = 0, G1 = 8, G2 = 0, B1 = 8, B2 = 15 (4 bits each, extended by
  // replication: 8 -> 0x88 = 136, 15 -> 255); table codeword 1 = {5, 17} for sub-block 1, 0 = {2, 8} for
  // sub-block 2; flip 0 (sub-block 1 is x < 2). Pixel indices (msb at bit 16 + i, lsb at bit i, i = 4x + y):
  // (0,0) i0 = 0 -> +a; (1,0) i4 = 1 -> +b; (0,1) i1 = 2 -> -a; (1,1) i5 = 3 -> -b; (2,0) i8 = 0; (3,0) i12 = 3.
  // lsb bits {4, 5, 12} = 0x1030, msb bits {1, 5, 12} = 0x1022.
  const std::array<uint8_t, 16> individual{0x80, 0x80, 0x8F, 0x20, 0x10, 0x22, 0x10, 0x30};
  const auto t = decode(GL_COMPRESSED_RGB8_ETC2, individual);
  require_rgba8(t, 0, 0, 141, 141, 141, 255);  // 136 + 5
  require_rgba8(t, 1, 0, 153, 153, 153, 255);  // 136 + 17
  require_rgba8(t, 0, 1, 131, 131, 131, 255);  // 136 - 5
  require_rgba8(t, 1, 1, 119, 119, 119, 255);  // 136 - 17
  require_rgba8(t, 2, 0, 2, 2, 255, 255);      // (0, 0, 255) + 2, clamped
  require_rgba8(t, 3, 0, 0, 0, 247, 255);      // (0, 0, 255) - 8, clamped
  // Differential mode (diff = 1): R1 = 16, dR = +1; G1 = 0, dG = 0; B1 = 31, dB = -1 (0b111); tables 0, 0;
  // flip 1 (sub-block 1 is y < 2). 5-bit extension (x << 3 | x >> 2): 16 -> 132, 17 -> 140, 31 -> 255, 30 -> 247.
  // All indices 0: +2.
  const std::array<uint8_t, 16> differential{0x81, 0x00, 0xFF, 0x03, 0, 0, 0, 0};
  const auto d = decode(GL_COMPRESSED_SRGB8_ETC2, differential);
  for (int x = 0; x < 4; ++x) {
    require_rgba8(d, x, 0, 134, 2, 255, 255);
    require_rgba8(d, x, 3, 142, 2, 249, 255);
  }
}

TEST_CASE("ETC2 RGB8: T, H and planar modes", "[compressed]") {
  // T mode: R (bits 63..59) = 0 plus dR (bits 58..56) = -1 overflows. R1 = R1a (bits 60..59) << 2 | R1b (bits
  // 57..56) = 3 -> 0x33; G1 = 0xA -> 170; B1 = 5 -> 85; R2 = G2 = B2 = 8 -> 136; distance index (bits 35..34 << 1
  // | bit 32) = 2 -> 11. Paint colours: P0 = C1, P1 = C2 + d, P2 = C2, P3 = C2 - d. Indices (0,0) 0, (1,0) 1,
  // (2,0) 2, (3,0) 3 (lsb {4, 12}, msb {8, 12}), others 0.
  const std::array<uint8_t, 16> tmode{0x07, 0xA5, 0x88, 0x86, 0x11, 0x00, 0x10, 0x10};
  const auto t = decode(GL_COMPRESSED_RGB8_ETC2, tmode);
  require_rgba8(t, 0, 0, 51, 170, 85, 255);
  require_rgba8(t, 1, 0, 147, 147, 147, 255);
  require_rgba8(t, 2, 0, 136, 136, 136, 255);
  require_rgba8(t, 3, 0, 125, 125, 125, 255);
  require_rgba8(t, 0, 3, 51, 170, 85, 255);
  // RGB8_PUNCHTHROUGH_ALPHA1: bit 33 is "opaque"; with it 0, index 2 of the T mode is transparent black.
  const std::array<uint8_t, 16> punch{0x07, 0xA5, 0x88, 0x84, 0x11, 0x00, 0x10, 0x10};
  const auto p = decode(GL_COMPRESSED_RGB8_PUNCHTHROUGH_ALPHA1_ETC2, punch);
  require_rgba8(p, 0, 0, 51, 170, 85, 255);
  require_rgba8(p, 1, 0, 147, 147, 147, 255);
  require_rgba8(p, 2, 0, 0, 0, 0, 0);
  require_rgba8(p, 3, 0, 125, 125, 125, 255);
  // H mode: G (bits 55..51) = 0 plus dG (bits 50..48) = -2 overflows, R = 4 + 2 does not. R1 = 4, G1 = G1a (bits
  // 58..56 = 2) << 1 | G1b (bit 52 = 0) = 4, B1 = B1a (bit 51 = 0) << 3 | B1b (bits 49..47 = 4) = 4: C1 = 68 each;
  // C2 = 2 -> 34 each. C1 >= C2, so the distance index is da (1) << 2 | db (0) << 1 | 1 = 5 -> 32. P0 = C1 + d,
  // P1 = C1 - d, P2 = C2 + d, P3 = C2 - d.
  const std::array<uint8_t, 16> hmode{0x22, 0x06, 0x11, 0x16, 0x11, 0x00, 0x10, 0x10};
  const auto h = decode(GL_COMPRESSED_RGB8_ETC2, hmode);
  require_rgba8(h, 0, 0, 100, 100, 100, 255);
  require_rgba8(h, 1, 0, 36, 36, 36, 255);
  require_rgba8(h, 2, 0, 66, 66, 66, 255);
  require_rgba8(h, 3, 0, 2, 2, 2, 255);
  // Planar mode: B (bits 47..43) = 0 plus dB (bits 42..40) = -4 overflows, R and G do not. RO = GO = BO = 0,
  // RH = 63 (RH1 bits 38..34 = 31, RH2 bit 32 = 1) -> 255, GV = 127 (bits 12..6) -> 255, the rest 0.
  // R(x, y) = (x * (RH - RO) + y * (RV - RO) + 4 * RO + 2) >> 2 = (255x + 2) >> 2 = 0, 64, 128, 191; G likewise in y.
  const std::array<uint8_t, 16> planar{0x00, 0x00, 0x04, 0x7F, 0x00, 0x00, 0x1F, 0xC0};
  const auto q = decode(GL_COMPRESSED_RGB8_ETC2, planar);
  const int ramp[4] = {0, 64, 128, 191};
  for (int y = 0; y < 4; ++y) {
    for (int x = 0; x < 4; ++x) require_rgba8(q, x, y, ramp[x], ramp[y], 0, 255);
  }
}

TEST_CASE("EAC: RGBA8 alpha and R11 / RG11", "[compressed]") {
  // Alpha: base 128, multiplier 2, table 0 = {-3, -6, -9, -15, 2, 5, 8, 14}; 3-bit indices from bit 47 down for
  // i = 4x + y: i0 = 0, i1 = 7, i4 = 3, the rest 4. alpha = clamp(base + modifier * multiplier).
  // The RGB half is a differential block of one colour (all indices 0).
  const std::array<uint8_t, 16> rgba{0x80, 0x20, 0x1E, 0x47, 0x24, 0x92, 0x49, 0x24,
                                     0x81, 0x00, 0xFF, 0x03, 0, 0, 0, 0};
  const auto a = decode(GL_COMPRESSED_RGBA8_ETC2_EAC, rgba);
  CHECK(a[0][3] == Approx(122 / 255.0));   // (0,0): 128 - 3 * 2
  CHECK(a[4][3] == Approx(156 / 255.0));   // (0,1): 128 + 14 * 2
  CHECK(a[1][3] == Approx(98 / 255.0));    // (1,0): 128 - 15 * 2
  CHECK(a[5][3] == Approx(132 / 255.0));   // (1,1): 128 + 2 * 2
  CHECK(a[0][0] == Approx(134 / 255.0));   // the RGB block's (0,0)
  // R11 unsigned: base 100, multiplier 1, table 0, all indices 0: clamp(base * 8 + 4 + (-3) * 1 * 8) = 780.
  const std::array<uint8_t, 16> r11{0x64, 0x10, 0, 0, 0, 0, 0, 0};
  const auto r = decode(GL_COMPRESSED_R11_EAC, r11);
  for (const Texel& v : r) CHECK(v[0] == Approx(780.0 / 2047.0));
  // Multiplier 0: the modifier itself, not times 8: 804 - 3 = 801.
  const std::array<uint8_t, 16> r11_m0{0x64, 0x00, 0, 0, 0, 0, 0, 0};
  CHECK(decode(GL_COMPRESSED_R11_EAC, r11_m0)[0][0] == Approx(801.0 / 2047.0));
  // Signed: base -128 reads as -127; table 13 = {-1, -2, -3, -10, 0, 1, 2, 9}, multiplier 0, every index 4 (0):
  // -127 * 8 = -1016, / 1023.
  const std::array<uint8_t, 16> signed_r11{0x80, 0x0D, 0x92, 0x49, 0x24, 0x92, 0x49, 0x24};
  const auto s = decode(GL_COMPRESSED_SIGNED_R11_EAC, signed_r11);
  for (const Texel& v : s) CHECK(v[0] == Approx(-1016.0 / 1023.0));
  // RG11: red block, then green block (base 255, multiplier 15, table 0, index 7 = +14: 2044 + 1680 clamps to
  // 2047 = 1.0; 0xFF 0xF0 then all-ones indices).
  const std::array<uint8_t, 16> rg11{0x64, 0x10, 0, 0, 0, 0, 0, 0, 0xFF, 0xF0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
  const auto rg = decode(GL_COMPRESSED_RG11_EAC, rg11);
  CHECK(rg[7][0] == Approx(780.0 / 2047.0));
  CHECK(rg[7][1] == Approx(1.0));
}

TEST_CASE("Decoded texels in the storage formats", "[compressed]") {
  // R16 (RGTC1, R11): round(v * 65535); R16_SNORM: round(v * 32767); RGBA8 / SRGB8_ALPHA8: round(v * 255).
  uint8_t out[4] = {};
  const CompressedFormat* r11 = find_compressed_format(GL_COMPRESSED_R11_EAC);
  REQUIRE(encode_storage_texel(*r11, Texel{1.0f, 0, 0, 1}, out) == 2);
  CHECK((out[0] | out[1] << 8) == 65535);
  const CompressedFormat* sr = find_compressed_format(GL_COMPRESSED_SIGNED_RED_RGTC1);
  REQUIRE(encode_storage_texel(*sr, Texel{-1.0f, 0, 0, 1}, out) == 2);
  CHECK(static_cast<int16_t>(out[0] | out[1] << 8) == -32767);
  const CompressedFormat* etc = find_compressed_format(GL_COMPRESSED_RGB8_ETC2);
  REQUIRE(encode_storage_texel(*etc, Texel{134 / 255.0f, 2 / 255.0f, 1.0f, 1.0f}, out) == 4);
  CHECK(out[0] == 134);
  CHECK(out[1] == 2);
  CHECK(out[2] == 255);
  CHECK(out[3] == 255);
  // GL 4.6 §8.7: imageSize = ceil(w/4) * ceil(h/4) * depth * block bytes.
  CHECK(compressed_size(*etc, 5, 3, 2) == 2 * 1 * 2 * 8);
  CHECK(compressed_size(*find_compressed_format(GL_COMPRESSED_RG_RGTC2), 8, 8, 1) == 4 * 16);
}
