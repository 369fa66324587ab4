// The BPTC block decoders (BC7: RGBA_BPTC_UNORM / SRGB_ALPHA_BPTC_UNORM; BC6H: RGB_BPTC_SIGNED_FLOAT /
// RGB_BPTC_UNSIGNED_FLOAT), written from the Khronos Data Format Specification's chapter "BPTC Compressed Texture
// Image Formats" (derived from GL 4.5's section of that name). Its tables are transcribed below; the block
// formats of BC6H are the spec's format strings, read by a small interpreter (bptc_field_layout).
#include "compressed_bptc.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <string_view>
#include <vector>

#include "pixel_float_codecs.hpp"

namespace bismuth::gl {
namespace {

// One partition a line, as the spec lists them.
// clang-format off
// Khronos Data Format Specification, "BPTC Compressed Texture Image Formats": the partition tables (subset of
// texel 4y + x, row by row) and the anchor indices, as the spec lists them.
constexpr const char* kPartition2[64] = {
    "0011001100110011",
    "0001000100010001",
    "0111011101110111",
    "0001001100110111",
    "0000000100010011",
    "0011011101111111",
    "0001001101111111",
    "0000000100110111",
    "0000000000010011",
    "0011011111111111",
    "0000000101111111",
    "0000000000010111",
    "0001011111111111",
    "0000000011111111",
    "0000111111111111",
    "0000000000001111",
    "0000100011101111",
    "0111000100000000",
    "0000000010001110",
    "0111001100010000",
    "0011000100000000",
    "0000100011001110",
    "0000000010001100",
    "0111001100110001",
    "0011000100010000",
    "0000100010001100",
    "0110011001100110",
    "0011011001101100",
    "0001011111101000",
    "0000111111110000",
    "0111000110001110",
    "0011100110011100",
    "0101010101010101",
    "0000111100001111",
    "0101101001011010",
    "0011001111001100",
    "0011110000111100",
    "0101010110101010",
    "0110100101101001",
    "0101101010100101",
    "0111001111001110",
    "0001001111001000",
    "0011001001001100",
    "0011101111011100",
    "0110100110010110",
    "0011110011000011",
    "0110011010011001",
    "0000011001100000",
    "0100111001000000",
    "0010011100100000",
    "0000001001110010",
    "0000010011100100",
    "0110110010010011",
    "0011011011001001",
    "0110001110011100",
    "0011100111000110",
    "0110110011001001",
    "0110001100111001",
    "0111111010000001",
    "0001100011100111",
    "0000111100110011",
    "0011001111110000",
    "0010001011101110",
    "0100010001110111"};
constexpr const char* kPartition3[64] = {
    "0011001102212222",
    "0001001122112221",
    "0000200122112211",
    "0222002200110111",
    "0000000011221122",
    "0011001100220022",
    "0022002211111111",
    "0011001122112211",
    "0000000011112222",
    "0000111111112222",
    "0000111122222222",
    "0012001200120012",
    "0112011201120112",
    "0122012201220122",
    "0011011211221222",
    "0011200122002220",
    "0001001101121122",
    "0111001120012200",
    "0000112211221122",
    "0022002200221111",
    "0111011102220222",
    "0001000122212221",
    "0000001101220122",
    "0000110022102210",
    "0122012200110000",
    "0012001211222222",
    "0110122112210110",
    "0000011012211221",
    "0022110211020022",
    "0110011020022222",
    "0011012201220011",
    "0000200022112221",
    "0000000211221222",
    "0222002200120011",
    "0011001200220222",
    "0120012001200120",
    "0000111122220000",
    "0120120120120120",
    "0120201212010120",
    "0011220011220011",
    "0011112222000011",
    "0101010122222222",
    "0000000021212121",
    "0022112200221122",
    "0022001100220011",
    "0220122102201221",
    "0101222222220101",
    "0000212121212121",
    "0101010101012222",
    "0222011102220111",
    "0002111200021112",
    "0000211221122112",
    "0222011101110222",
    "0002111211120002",
    "0110011001102222",
    "0000000021122112",
    "0110011022222222",
    "0022001100110022",
    "0022112211220022",
    "0000000000002112",
    "0002000100020001",
    "0222122202221222",
    "0101222222222222",
    "0111201122012220"};
constexpr uint8_t kAnchor2[64] = {15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 2, 8, 2, 2, 8, 8, 15, 2, 8, 2, 2, 8, 8, 2, 2, 15, 15, 6, 8, 2, 8, 15, 15, 2, 8, 2, 2, 2, 15, 15, 6, 6, 2, 6, 8, 15, 15, 2, 2, 15, 15, 15, 15, 15, 2, 2, 15};
constexpr uint8_t kAnchor3Second[64] = {3, 3, 15, 15, 8, 3, 15, 15, 8, 8, 6, 6, 6, 5, 3, 3, 3, 3, 8, 15, 3, 3, 6, 10, 5, 8, 8, 6, 8, 5, 15, 15, 8, 15, 3, 5, 6, 10, 8, 15, 15, 3, 15, 5, 15, 15, 15, 15, 3, 15, 5, 5, 5, 8, 5, 10, 5, 10, 8, 13, 15, 12, 3, 3};
constexpr uint8_t kAnchor3Third[64] = {15, 8, 8, 3, 15, 15, 3, 8, 15, 15, 15, 15, 15, 15, 15, 8, 15, 8, 15, 3, 15, 8, 15, 8, 3, 15, 6, 10, 15, 15, 10, 8, 15, 3, 15, 10, 10, 8, 9, 10, 6, 15, 8, 15, 3, 6, 6, 8, 15, 3, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 3, 15, 15, 8};
// clang-format on

// "BPTC interpolation factors" for 2-, 3- and 4-bit indices.
constexpr uint8_t kWeights2[4] = {0, 21, 43, 64};
constexpr uint8_t kWeights3[8] = {0, 9, 18, 27, 37, 46, 55, 64};
constexpr uint8_t kWeights4[16] = {0, 4, 9, 13, 17, 21, 26, 30, 34, 38, 43, 47, 51, 55, 60, 64};

int weight(uint32_t bits, uint32_t index) {
  return bits == 2 ? kWeights2[index] : bits == 3 ? kWeights3[index] : kWeights4[index];
}

int interpolate(int e0, int e1, int w) {
  return ((64 - w) * e0 + w * e1 + 32) >> 6;
}

// The block's bits from the least significant bit of byte 0 on.
class BitReader {
 public:
  explicit BitReader(const uint8_t* block) : block_(block) {}
  uint32_t read(uint32_t n) {
    uint32_t v = 0;
    for (uint32_t i = 0; i < n; ++i, ++at_) v |= static_cast<uint32_t>((block_[at_ / 8] >> (at_ % 8)) & 1) << i;
    return v;
  }
  uint32_t position() const { return at_; }

 private:
  const uint8_t* block_;
  uint32_t at_ = 0;
};

// The subset of texel t (4y + x) and whether it is its subset's anchor (whose index has one bit less).
uint32_t subset_of(uint32_t subsets, uint32_t partition, uint32_t t) {
  if (subsets == 1) return 0;
  return static_cast<uint32_t>((subsets == 2 ? kPartition2 : kPartition3)[partition][t] - '0');
}
bool is_anchor(uint32_t subsets, uint32_t partition, uint32_t t) {
  if (t == 0) return true;
  if (subsets == 2) return t == kAnchor2[partition];
  if (subsets == 3) return t == kAnchor3Second[partition] || t == kAnchor3Third[partition];
  return false;
}

// ---- BC7 ----

// table-bptcmodes: NS, PB, RB, ISB, CB, AB, EPB, SPB, IB, IB2.
struct Bc7Mode {
  uint32_t ns, pb, rb, isb, cb, ab, epb, spb, ib, ib2;
};
constexpr Bc7Mode kBc7Modes[8] = {{3, 4, 0, 0, 4, 0, 1, 0, 3, 0}, {2, 6, 0, 0, 6, 0, 0, 1, 3, 0},
                                  {3, 6, 0, 0, 5, 0, 0, 0, 2, 0}, {2, 6, 0, 0, 7, 0, 1, 0, 2, 0},
                                  {1, 0, 2, 1, 5, 6, 0, 0, 2, 3}, {1, 0, 2, 0, 7, 8, 0, 0, 2, 2},
                                  {1, 0, 0, 0, 7, 7, 1, 0, 4, 0}, {2, 6, 0, 0, 5, 5, 1, 0, 2, 0}};

// A value of `bits` bits as the high bits of a byte, its top bits replicated into the rest.
int expand_to_8(uint32_t value, uint32_t bits) {
  const uint32_t v = value << (8 - bits);
  return static_cast<int>(v | (v >> bits));
}

void decode_bc7(const uint8_t* block, std::array<Texel, 16>& out) {
  // "The mode is identified by the lowest bits of the lowest byte ... zero or more zeros followed by a one";
  // a zero byte is reserved: transparent black.
  uint32_t mode = 0;
  while (mode < 8 && !((block[0] >> mode) & 1)) ++mode;
  if (mode == 8) {
    for (Texel& t : out) t = Texel{0, 0, 0, 0};
    return;
  }
  const Bc7Mode& m = kBc7Modes[mode];
  BitReader r(block);
  r.read(mode + 1);
  const uint32_t partition = r.read(m.pb);
  const uint32_t rotation = r.read(m.rb);
  const uint32_t index_selection = r.read(m.isb);
  // "stored first by endpoint, then by subset, then by color": for each channel, for each subset, endpoints 0, 1.
  uint32_t colour[3][2][4] = {};  // [subset][endpoint][channel]
  for (uint32_t c = 0; c < 3; ++c) {
    for (uint32_t s = 0; s < m.ns; ++s) {
      for (uint32_t e = 0; e < 2; ++e) colour[s][e][c] = r.read(m.cb);
    }
  }
  for (uint32_t s = 0; s < m.ns; ++s) {
    for (uint32_t e = 0; e < 2; ++e) colour[s][e][3] = r.read(m.ab);
  }
  // P-bits: per endpoint (2 x subsets, in the same order), or one shared by both endpoints of a subset; "added as a
  // bit below the color data".
  uint32_t pbit[3][2] = {};
  bool has_pbit = false;
  if (m.epb) {
    has_pbit = true;
    for (uint32_t s = 0; s < m.ns; ++s) {
      for (uint32_t e = 0; e < 2; ++e) pbit[s][e] = r.read(1);
    }
  } else if (m.spb) {
    has_pbit = true;
    for (uint32_t s = 0; s < m.ns; ++s) pbit[s][0] = pbit[s][1] = r.read(1);
  }
  int endpoint[3][2][4] = {};
  for (uint32_t s = 0; s < m.ns; ++s) {
    for (uint32_t e = 0; e < 2; ++e) {
      for (uint32_t c = 0; c < 4; ++c) {
        const uint32_t bits = c < 3 ? m.cb : m.ab;
        if (bits == 0) {
          endpoint[s][e][c] = 255;  // "If not, alpha is overridden to 1.0."
          continue;
        }
        const uint32_t v = has_pbit ? (colour[s][e][c] << 1) | pbit[s][e] : colour[s][e][c];
        endpoint[s][e][c] = expand_to_8(v, has_pbit ? bits + 1 : bits);
      }
    }
  }
  uint32_t primary[16] = {}, secondary[16] = {};
  for (uint32_t t = 0; t < 16; ++t) primary[t] = r.read(is_anchor(m.ns, partition, t) ? m.ib - 1 : m.ib);
  if (m.ib2 != 0) {
    for (uint32_t t = 0; t < 16; ++t) secondary[t] = r.read(t == 0 ? m.ib2 - 1 : m.ib2);
  }
  for (uint32_t t = 0; t < 16; ++t) {
    const uint32_t s = subset_of(m.ns, partition, t);
    // "The index value for interpolating color comes from the secondary index ... if the format has an index
    // selection bit and its value is one"; alpha from the secondary index if there is one and the selection bit is
    // absent or zero.
    const bool colour_secondary = m.isb && index_selection == 1;
    const bool alpha_secondary = m.ib2 != 0 && !(m.isb && index_selection == 1);
    const int wc = colour_secondary ? weight(m.ib2, secondary[t]) : weight(m.ib, primary[t]);
    const int wa = alpha_secondary ? weight(m.ib2, secondary[t]) : weight(m.ib, primary[t]);
    int rgba[4];
    for (uint32_t c = 0; c < 4; ++c) rgba[c] = interpolate(endpoint[s][0][c], endpoint[s][1][c], c < 3 ? wc : wa);
    // "BPTC Rotation bits": 1 swap(a, r), 2 swap(a, g), 3 swap(a, b).
    if (rotation != 0) std::swap(rgba[3], rgba[rotation - 1]);
    for (uint32_t c = 0; c < 4; ++c) out[t][c] = static_cast<float>(rgba[c]) / 255.0f;
  }
}

// ---- BC6H ----

// table-bptcblockmodes and table-bptcblockformat: mode number, transformed endpoints, partition bits, endpoint
// bits, delta bits {r, g, b}, and the block format (LSB first; "v[a:b]" moves |a - b| + 1 bits, the first to bit b).
// Modes 0 and 2 end with b3[3], which the spec's table leaves out (mode 0's row ends in a dangling comma): without
// it they are 81 bits, one short of the 82 their partition and 46 index bits need (compressed_decode_test.cpp).
struct Bc6Mode {
  uint32_t number;
  bool transformed;
  uint32_t pb, epb;
  uint32_t delta[3];
  const char* format;
};
constexpr Bc6Mode kBc6Modes[14] = {
    {0,
     true,
     5,
     10,
     {5, 5, 5},
     "m[1:0], g2[4], b2[4], b3[4], r0[9:0], g0[9:0], b0[9:0], r1[4:0], g3[4], g2[3:0], g1[4:0], b3[0], g3[3:0], "
     "b1[4:0], b3[1], b2[3:0], r2[4:0], b3[2], r3[4:0], b3[3]"},
    {1,
     true,
     5,
     7,
     {6, 6, 6},
     "m[1:0], g2[5], g3[4], g3[5], r0[6:0], b3[0], b3[1], b2[4], g0[6:0], b2[5], b3[2], g2[4], b0[6:0], b3[3], "
     "b3[5], b3[4], r1[5:0], g2[3:0], g1[5:0], g3[3:0], b1[5:0], b2[3:0], r2[5:0], r3[5:0]"},
    {2,
     true,
     5,
     11,
     {5, 4, 4},
     "m[4:0], r0[9:0], g0[9:0], b0[9:0], r1[4:0], r0[10], g2[3:0], g1[3:0], g0[10], b3[0], g3[3:0], b1[3:0], "
     "b0[10], b3[1], b2[3:0], r2[4:0], b3[2], r3[4:0], b3[3]"},
    {6,
     true,
     5,
     11,
     {4, 5, 4},
     "m[4:0], r0[9:0], g0[9:0], b0[9:0], r1[3:0], r0[10], g3[4], g2[3:0], g1[4:0], g0[10], g3[3:0], b1[3:0], "
     "b0[10], b3[1], b2[3:0], r2[3:0], b3[0], b3[2], r3[3:0], g2[4], b3[3]"},
    {10,
     true,
     5,
     11,
     {4, 4, 5},
     "m[4:0], r0[9:0], g0[9:0], b0[9:0], r1[3:0], r0[10], b2[4], g2[3:0], g1[3:0], g0[10], b3[0], g3[3:0], "
     "b1[4:0], b0[10], b2[3:0], r2[3:0], b3[1], b3[2], r3[3:0], b3[4], b3[3]"},
    {14,
     true,
     5,
     9,
     {5, 5, 5},
     "m[4:0], r0[8:0], b2[4], g0[8:0], g2[4], b0[8:0], b3[4], r1[4:0], g3[4], g2[3:0], g1[4:0], b3[0], g3[3:0], "
     "b1[4:0], b3[1], b2[3:0], r2[4:0], b3[2], r3[4:0], b3[3]"},
    {18,
     true,
     5,
     8,
     {6, 5, 5},
     "m[4:0], r0[7:0], g3[4], b2[4], g0[7:0], b3[2], g2[4], b0[7:0], b3[3], b3[4], r1[5:0], g2[3:0], g1[4:0], "
     "b3[0], g3[3:0], b1[4:0], b3[1], b2[3:0], r2[5:0], r3[5:0]"},
    {22,
     true,
     5,
     8,
     {5, 6, 5},
     "m[4:0], r0[7:0], b3[0], b2[4], g0[7:0], g2[5], g2[4], b0[7:0], g3[5], b3[4], r1[4:0], g3[4], g2[3:0], "
     "g1[5:0], g3[3:0], b1[4:0], b3[1], b2[3:0], r2[4:0], b3[2], r3[4:0], b3[3]"},
    {26,
     true,
     5,
     8,
     {5, 5, 6},
     "m[4:0], r0[7:0], b3[1], b2[4], g0[7:0], b2[5], g2[4], b0[7:0], b3[5], b3[4], r1[4:0], g3[4], g2[3:0], "
     "g1[4:0], b3[0], g3[3:0], b1[5:0], b2[3:0], r2[4:0], b3[2], r3[4:0], b3[3]"},
    {30,
     false,
     5,
     6,
     {6, 6, 6},
     "m[4:0], r0[5:0], g3[4], b3[0], b3[1], b2[4], g0[5:0], g2[5], b2[5], b3[2], g2[4], b0[5:0], g3[5], b3[3], "
     "b3[5], b3[4], r1[5:0], g2[3:0], g1[5:0], g3[3:0], b1[5:0], b2[3:0], r2[5:0], r3[5:0]"},
    {3, false, 0, 10, {10, 10, 10}, "m[4:0], r0[9:0], g0[9:0], b0[9:0], r1[9:0], g1[9:0], b1[9:0]"},
    {7, true, 0, 11, {9, 9, 9}, "m[4:0], r0[9:0], g0[9:0], b0[9:0], r1[8:0], r0[10], g1[8:0], g0[10], b1[8:0], b0[10]"},
    {11,
     true,
     0,
     12,
     {8, 8, 8},
     "m[4:0], r0[9:0], g0[9:0], b0[9:0], r1[7:0], r0[10:11], g1[7:0], g0[10:11], b1[7:0], b0[10:11]"},
    {15,
     true,
     0,
     16,
     {4, 4, 4},
     "m[4:0], r0[9:0], g0[9:0], b0[9:0], r1[3:0], r0[10:15], g1[3:0], g0[10:15], b1[3:0], b0[10:15]"},
};

// Reads a mode's fields into v[endpoint][channel] (channel 0..2 = r, g, b; the "m" field is skipped) as the format
// string says. Returns the bits read.
uint32_t read_fields(const char* format, BitReader& r, int32_t v[4][3]) {
  std::string_view f(format);
  size_t at = 0;
  while (at < f.size()) {
    while (at < f.size() && (f[at] == ' ' || f[at] == ',')) ++at;
    if (at >= f.size()) break;
    const char name = f[at++];
    int endpoint = -1;
    if (name != 'm') endpoint = f[at++] - '0';
    ++at;  // '['
    auto number = [&] {
      int n = 0;
      while (at < f.size() && f[at] >= '0' && f[at] <= '9') n = n * 10 + (f[at++] - '0');
      return n;
    };
    const int a = number();
    int b = a;
    if (f[at] == ':') {
      ++at;
      b = number();
    }
    ++at;  // ']'
    const int count = (a >= b ? a - b : b - a) + 1;
    for (int k = 0; k < count; ++k) {
      const uint32_t bit = r.read(1);
      const int target = a >= b ? b + k : b - k;
      if (endpoint < 0) continue;
      const int channel = name == 'r' ? 0 : name == 'g' ? 1 : 2;
      v[endpoint][channel] |= static_cast<int32_t>(bit << target);
    }
  }
  return r.position();
}

int32_t sign_extend(int32_t v, uint32_t bits) {
  const int32_t sign = 1 << (bits - 1);
  v &= (1 << bits) - 1;
  return (v ^ sign) - sign;
}

// The spec's unquantization of an endpoint component of `epb` bits.
int32_t unquantize(int32_t x, uint32_t epb, bool is_signed) {
  if (!is_signed) {
    if (epb >= 15) return x;
    if (x == 0) return 0;
    if (x == (1 << epb) - 1) return 0xFFFF;
    return ((x << 15) + 0x4000) >> (epb - 1);
  }
  if (epb >= 16) return x;
  bool negative = false;
  if (x < 0) {
    negative = true;
    x = -x;
  }
  int32_t unq;
  if (x == 0) {
    unq = 0;
  } else if (x >= (1 << (epb - 1)) - 1) {
    unq = 0x7FFF;
  } else {
    unq = ((x << 15) + 0x4000) >> (epb - 1);
  }
  return negative ? -unq : unq;
}

// "The interpolated values are passed through a final unquantization step. For the unsigned format, this step
// simply multiplies by 31/64. The signed format negates negative components, multiplies by 31/32, then ORs in the
// sign bit if the original value was negative." The result is a 16-bit half float.
uint16_t finish(int32_t v, bool is_signed) {
  if (!is_signed) return static_cast<uint16_t>((v * 31) >> 6);
  if (v < 0) return static_cast<uint16_t>((((-v) * 31) >> 5) | 0x8000);
  return static_cast<uint16_t>((v * 31) >> 5);
}

void decode_bc6h(const uint8_t* block, bool is_signed, std::array<Texel, 16>& out) {
  // "If the low two bits are less than two, that is the mode number, otherwise the low five bits"; reserved modes
  // (19, 23, 27, 31) decode as (0, 0, 0, 1).
  const uint32_t low2 = block[0] & 3;
  const uint32_t number = low2 < 2 ? low2 : block[0] & 31;
  const Bc6Mode* m = nullptr;
  for (const Bc6Mode& candidate : kBc6Modes) {
    if (candidate.number == number) m = &candidate;
  }
  if (m == nullptr) {
    for (Texel& t : out) t = Texel{0, 0, 0, 1};
    return;
  }
  BitReader r(block);
  int32_t e[4][3] = {};
  read_fields(m->format, r, e);
  const uint32_t subsets = m->pb != 0 ? 2 : 1;
  const uint32_t partition = r.read(m->pb);
  const uint32_t ib = subsets == 2 ? 3 : 4;
  uint32_t index[16] = {};
  for (uint32_t t = 0; t < 16; ++t) index[t] = r.read(is_anchor(subsets, partition, t) ? ib - 1 : ib);
  const uint32_t endpoints = subsets * 2;
  // "The value in e0 is sign-extended if the format of the texture is signed. The values in e1 (and e2 and e3 if
  // the block is two-subset) are sign-extended if the format of the texture is signed or if the block mode has
  // transformed endpoints. If the mode has transformed endpoints, the values from e0 are used as a base to offset
  // all other endpoints, wrapped at the number of endpoint bits."
  for (uint32_t c = 0; c < 3; ++c) {
    if (is_signed) e[0][c] = sign_extend(e[0][c], m->epb);
    for (uint32_t i = 1; i < endpoints; ++i) {
      if (is_signed || m->transformed) e[i][c] = sign_extend(e[i][c], m->delta[c]);
      if (m->transformed) {
        e[i][c] = (e[0][c] + e[i][c]) & ((1 << m->epb) - 1);
        if (is_signed) e[i][c] = sign_extend(e[i][c], m->epb);
      }
    }
  }
  for (uint32_t i = 0; i < endpoints; ++i) {
    for (uint32_t c = 0; c < 3; ++c) e[i][c] = unquantize(e[i][c], m->epb, is_signed);
  }
  for (uint32_t t = 0; t < 16; ++t) {
    const uint32_t s = subset_of(subsets, partition, t);
    const int w = weight(ib, index[t]);
    for (uint32_t c = 0; c < 3; ++c) {
      out[t][c] = half_to_float(finish(interpolate(e[2 * s][c], e[2 * s + 1][c], w), is_signed));
    }
    out[t][3] = 1.0f;
  }
}

}  // namespace

void decode_bptc_block(bool float_format, bool is_signed, const uint8_t* block, std::array<Texel, 16>& out) {
  if (float_format) {
    decode_bc6h(block, is_signed, out);
  } else {
    decode_bc7(block, out);
  }
}

uint32_t bc6h_mode_bits(uint32_t index) {
  if (index >= 14) return 0;
  uint8_t zero[16] = {};
  BitReader r(zero);
  int32_t e[4][3] = {};
  return read_fields(kBc6Modes[index].format, r, e) + kBc6Modes[index].pb;
}

}  // namespace bismuth::gl
