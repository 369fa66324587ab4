// The compressed block decoders (translator/gl/src/compressed_formats.cpp) against texels worked out by hand from
// the Khronos Data Format Specification 1.3 (chapters "S3TC Compressed Texture Image Formats", "RGTC Compressed
// Texture Image Formats", "ETC2 Compressed Texture Image Formats"). Each block is written byte by byte from the
// spec's bit layout; the comments give the fields and the arithmetic that yields the expected texels.
#include <catch2/catch.hpp>

#include <array>
#include <cstdint>

#include "compressed_bptc.hpp"
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
  CHECK(t3[0][3] == Approx(1.0));         // 0xF
  CHECK(t3[1][3] == Approx(0.0));         // 0x0
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
                                     0x81, 0x00, 0xFF, 0x03, 0,    0,    0,    0};
  const auto a = decode(GL_COMPRESSED_RGBA8_ETC2_EAC, rgba);
  CHECK(a[0][3] == Approx(122 / 255.0));  // (0,0): 128 - 3 * 2
  CHECK(a[4][3] == Approx(156 / 255.0));  // (0,1): 128 + 14 * 2
  CHECK(a[1][3] == Approx(98 / 255.0));   // (1,0): 128 - 15 * 2
  CHECK(a[5][3] == Approx(132 / 255.0));  // (1,1): 128 + 2 * 2
  CHECK(a[0][0] == Approx(134 / 255.0));  // the RGB block's (0,0)
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

TEST_CASE("BPTC BC7: modes 6, 5 (rotation, secondary indices) and 1 (two subsets, shared P-bits)", "[compressed]") {
  // The fields follow the mode bits from the lowest bit on ("partition number, rotation, index selection, color,
  // alpha, per-endpoint P-bit, shared P-bit, primary indices, and secondary indices"); the bytes below pack them
  // LSB first.
  //
  // Mode 6 (bits 0-6 = 0000001): R0 = 127, R1 = 0, G0 = 0, G1 = 127, B0 = B1 = 64, A0 = A1 = 127 (7 bits each),
  // P0 = 1, P1 = 0; 4-bit indices (texel 0, the anchor, 3 bits): t1 = 15, t2 = 8, the rest 0. With the P-bit below
  // the 7 colour bits: endpoint 0 = (255, 1, 129, 255), endpoint 1 = (0, 254, 128, 254). Index 8 has weight 34:
  // ((64 - 34) * e0 + 34 * e1 + 32) >> 6 = (120, 135, 128, 254).
  const std::array<uint8_t, 16> mode6{0xC0, 0x3F, 0x00, 0xF0, 0x07, 0x02, 0xFF, 0xFF,
                                      0xF0, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};
  const auto t6 = decode(GL_COMPRESSED_RGBA_BPTC_UNORM, mode6);
  require_rgba8(t6, 0, 0, 255, 1, 129, 255);
  require_rgba8(t6, 1, 0, 0, 254, 128, 254);
  require_rgba8(t6, 2, 0, 120, 135, 128, 254);
  require_rgba8(t6, 3, 3, 255, 1, 129, 255);
  // Mode 5 (000001): rotation 1 (swap(a, r)); R0 = 0, R1 = 127 (7 bits: 127 -> 255 by replication), G = B = 0,
  // A0 = 0, A1 = 200 (8 bits); 2-bit colour indices t1 = 3, t2 = 1 (weight 21); 2-bit alpha indices t2 = 3, t3 = 2
  // (weight 43). Before the rotation: t1 = (255, 0, 0, 0), t2 = (84, 0, 0, 200), t3 = (0, 0, 0, 134).
  const std::array<uint8_t, 16> mode5{0x60, 0x80, 0x3F, 0x00, 0x00, 0x00, 0x00, 0x20,
                                      0x3B, 0x00, 0x00, 0x00, 0xB0, 0x00, 0x00, 0x00};
  const auto t5 = decode(GL_COMPRESSED_RGBA_BPTC_UNORM, mode5);
  require_rgba8(t5, 0, 0, 0, 0, 0, 0);
  require_rgba8(t5, 1, 0, 0, 0, 0, 255);
  require_rgba8(t5, 2, 0, 200, 0, 0, 84);
  require_rgba8(t5, 3, 0, 134, 0, 0, 0);
  // Mode 1 (01), partition 0 (columns x >= 2 are subset 1): subset 0's endpoints red (63, 0, 0), subset 1's blue
  // (0, 0, 63), 6 bits; shared P-bits 1 (subset 0) and 0 (subset 1); all indices 0. (63 << 1 | 1) = 127 and
  // (0 << 1 | 1) = 1 as 7 bits -> 255 and 2; (63 << 1 | 0) = 126 -> 253.
  const std::array<uint8_t, 16> mode1{0x02, 0xFF, 0x0F, 0x00, 0x00, 0x00, 0x00, 0x00,
                                      0xF0, 0xFF, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00};
  const auto t1 = decode(GL_COMPRESSED_SRGB_ALPHA_BPTC_UNORM, mode1);
  for (int y = 0; y < 4; ++y) {
    require_rgba8(t1, 0, y, 255, 2, 2, 255);
    require_rgba8(t1, 1, y, 255, 2, 2, 255);
    require_rgba8(t1, 2, y, 0, 0, 253, 255);
    require_rgba8(t1, 3, y, 0, 0, 253, 255);
  }
  // A zero first byte is a reserved mode.
  const std::array<uint8_t, 16> reserved{};
  require_rgba8(decode(GL_COMPRESSED_RGBA_BPTC_UNORM, reserved), 1, 1, 0, 0, 0, 0);
}

TEST_CASE("BPTC BC6H: the block formats and unquantization", "[compressed]") {
  // Every two-subset mode's header and endpoints take 82 bits (with the 5 partition bits) and leave 46 index bits;
  // the one-subset modes take 65 and leave 63 (the spec's block format strings, interpreted).
  for (uint32_t i = 0; i < 14; ++i) {
    CAPTURE(i);
    CHECK(bc6h_mode_bits(i) == (i < 10 ? 82u : 65u));
  }
  // Mode 3 (m = 00011, 10-bit endpoints, not transformed): e0 = (512, 0, 1023), e1 = (0, 512, 0); 4-bit indices
  // t1 = 15, t2 = 8. Unsigned unquantization: 512 -> ((512 << 15) + 0x4000) >> 9 = 32800; 1023 (all ones) ->
  // 0xFFFF; then * 31 / 64: 32800 -> 15887 = half 0x3E0F = 1.5146484375, 0xFFFF -> 0x7BFF = 65504. t2: weight 34,
  // (30 * 32800 + 32) >> 6 = 15375 -> 7447 = 0x1D17 = 1.2724609375 * 2^-8.
  const std::array<uint8_t, 16> mode3{0x03, 0x40, 0x00, 0xFE, 0x07, 0x00, 0x40, 0x00,
                                      0xF0, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};
  const auto u = decode(GL_COMPRESSED_RGB_BPTC_UNSIGNED_FLOAT, mode3);
  CHECK(u[0] == Texel{1.5146484375f, 0.0f, 65504.0f, 1.0f});
  CHECK(u[1] == Texel{0.0f, 1.5146484375f, 0.0f, 1.0f});
  CHECK(u[2][0] == 1.2724609375f / 256.0f);
  // Signed: 512 as a 10-bit two's complement value is -512, whose magnitude is >= 2^9 - 1: -0x7FFF; "negates
  // negative components, multiplies by 31/32, then ORs in the sign bit": (32767 * 31) >> 5 = 31743 -> 0xFBFF.
  const auto s = decode(GL_COMPRESSED_RGB_BPTC_SIGNED_FLOAT, mode3);
  CHECK(s[0][0] == -65504.0f);
  // Mode 7 (00111, transformed, 11-bit base, 9-bit deltas): r0 = 1024 (r0[10] = 1), r1 delta = 0x1FF = -1, so
  // r1 = (1024 - 1) & 2047 = 1023. Unquantized with 11 bits: 1024 -> 32784, 1023 -> 32752; * 31 / 64: 15879 =
  // 0x3E07 = 1.5068359375 and 15864 = 0x3DF8 = 1.4921875. Texel 1 has index 15.
  const std::array<uint8_t, 16> mode7{0x07, 0x00, 0x00, 0x00, 0xF8, 0x1F, 0x00, 0x00,
                                      0xF0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};
  const auto t = decode(GL_COMPRESSED_RGB_BPTC_UNSIGNED_FLOAT, mode7);
  CHECK(t[0][0] == 1.5068359375f);
  CHECK(t[1][0] == 1.4921875f);
  CHECK(t[1][1] == 0.0f);
  // Reserved mode 19 (10011): (0, 0, 0, 1).
  std::array<uint8_t, 16> reserved{};
  reserved[0] = 0x13;
  CHECK(decode(GL_COMPRESSED_RGB_BPTC_UNSIGNED_FLOAT, reserved)[5] == Texel{0, 0, 0, 1});
}
