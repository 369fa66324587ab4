// Block encoders (compressed_encode.hpp). Each picks the endpoints of one line through the block's colours (the
// per-channel minimum and maximum, quantized to the format's endpoint precision), then, for every texel, the index
// whose palette entry is nearest. The palette is read from the decoder (decode_block of the block with every
// index set to one value), so the encoder never disagrees with what is sampled. Block modes written:
//  - RGTC1 / RGTC2 (BC4 / BC5) and BC3's alpha: endpoint 0 the maximum, 1 the minimum (the eight-value mode when
//    they differ).
//  - S3TC colour blocks: RGB565 endpoints in the four-colour order (c0 > c1); DXT1 with alpha: the three-colour
//    order (c0 <= c1) when a texel has alpha below one half, those texels taking index 3 (transparent black).
//    DXT3: alpha in 4 bits per texel, rounded.
//  - BPTC unorm (BC7): mode 6 (one subset, RGBA endpoints of 7 bits plus a p-bit each, 4-bit indices).
//  - BPTC float (BC6H): mode 11 (block mode number 3: one subset, 10-bit endpoints without transform, 4-bit
//    indices); each endpoint component the 10-bit value whose decoding is nearest (a search through the decoder).
// A BPTC anchor index (texel 0) has no most significant bit: when the chosen one needs it, the endpoints are
// swapped and every index mirrored (the weights are symmetric: w[15 - k] = 64 - w[k]).
#include "compressed_encode.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace bismuth::gl {
namespace {

using C = BlockCodec;

float finite_or_zero(float v) {
  return std::isnan(v) ? 0.0f : v;
}

// Writes the n low bits of v at bit `at` of a block, least significant bit of byte 0 first (BPTC's bit order).
void put_bits(uint8_t* block, uint32_t& at, uint32_t v, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i, ++at) {
    const auto bit = static_cast<uint8_t>(1u << (at % 8));
    if ((v >> i) & 1) {
      block[at / 8] |= bit;
    } else {
      block[at / 8] &= static_cast<uint8_t>(~bit);
    }
  }
}

float distance2(const Texel& a, const Texel& b, int channels) {
  float d = 0;
  for (int c = 0; c < channels; ++c) {
    const float e = finite_or_zero(a[c]) - b[c];
    d += e * e;
  }
  return d;
}

// ---- BC4 channels (RGTC, BC3 alpha) ----

// The BC4 channel block at block + offset for component `comp` of the texels; `f` decodes the whole block.
void encode_bc4(const CompressedFormat& f, uint8_t* block, int offset, int comp, bool is_signed,
                const std::array<Texel, 16>& texels) {
  const float low = is_signed ? -1.0f : 0.0f;
  float lo = 1.0f, hi = low;
  for (const Texel& t : texels) {
    const float v = std::clamp(finite_or_zero(t[comp]), low, 1.0f);
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  uint8_t* b = block + offset;
  if (is_signed) {
    b[0] = static_cast<uint8_t>(static_cast<int8_t>(std::lround(hi * 127.0f)));
    b[1] = static_cast<uint8_t>(static_cast<int8_t>(std::lround(lo * 127.0f)));
  } else {
    b[0] = static_cast<uint8_t>(std::lround(hi * 255.0f));
    b[1] = static_cast<uint8_t>(std::lround(lo * 255.0f));
  }
  auto set_indices = [&](const uint32_t(&index)[16]) {
    uint64_t bits = 0;
    for (int t = 0; t < 16; ++t) bits |= static_cast<uint64_t>(index[t] & 7) << (3 * t);
    for (int i = 0; i < 6; ++i) b[2 + i] = static_cast<uint8_t>(bits >> (8 * i));
  };
  float palette[8];
  std::array<Texel, 16> decoded;
  for (uint32_t k = 0; k < 8; ++k) {
    uint32_t all[16];
    std::fill(std::begin(all), std::end(all), k);
    set_indices(all);
    decode_block(f, block, decoded);
    palette[k] = decoded[0][comp];
  }
  uint32_t index[16];
  for (int t = 0; t < 16; ++t) {
    const float v = std::clamp(finite_or_zero(texels[t][comp]), low, 1.0f);
    uint32_t best = 0;
    for (uint32_t k = 1; k < 8; ++k) {
      if (std::fabs(palette[k] - v) < std::fabs(palette[best] - v)) best = k;
    }
    index[t] = best;
  }
  set_indices(index);
}

// ---- S3TC colour blocks ----

uint16_t rgb565(float r, float g, float b) {
  auto q = [](float v, int max) { return static_cast<uint16_t>(std::lround(std::clamp(v, 0.0f, 1.0f) * max)); };
  return static_cast<uint16_t>((q(r, 31) << 11) | (q(g, 63) << 5) | q(b, 31));
}

// The BC1 colour block at block + offset. `punch`: DXT1 with alpha, texels with alpha below one half transparent.
void encode_bc1(const CompressedFormat& f, uint8_t* block, int offset, bool punch,
                const std::array<Texel, 16>& texels) {
  Texel lo{1, 1, 1, 1}, hi{0, 0, 0, 1};
  bool transparent = false, any = false;
  for (const Texel& t : texels) {
    if (punch && finite_or_zero(t[3]) < 0.5f) {
      transparent = true;
      continue;
    }
    any = true;
    for (int c = 0; c < 3; ++c) {
      const float v = std::clamp(finite_or_zero(t[c]), 0.0f, 1.0f);
      lo[c] = std::min(lo[c], v);
      hi[c] = std::max(hi[c], v);
    }
  }
  if (!any) lo = hi = Texel{0, 0, 0, 1};
  uint16_t c0 = rgb565(hi[0], hi[1], hi[2]), c1 = rgb565(lo[0], lo[1], lo[2]);
  // Four colours need c0 > c1; the three-colour mode with transparent black needs c0 <= c1.
  if (transparent ? c0 > c1 : c0 < c1) std::swap(c0, c1);
  uint8_t* b = block + offset;
  b[0] = static_cast<uint8_t>(c0);
  b[1] = static_cast<uint8_t>(c0 >> 8);
  b[2] = static_cast<uint8_t>(c1);
  b[3] = static_cast<uint8_t>(c1 >> 8);
  auto set_indices = [&](const uint32_t(&index)[16]) {
    uint32_t bits = 0;
    for (int t = 0; t < 16; ++t) bits |= (index[t] & 3) << (2 * t);
    for (int i = 0; i < 4; ++i) b[4 + i] = static_cast<uint8_t>(bits >> (8 * i));
  };
  std::array<Texel, 4> palette;
  std::array<Texel, 16> decoded;
  for (uint32_t k = 0; k < 4; ++k) {
    uint32_t all[16];
    std::fill(std::begin(all), std::end(all), k);
    set_indices(all);
    decode_block(f, block, decoded);
    palette[k] = decoded[0];
  }
  // DXT1 compares alpha too (index 3 may be transparent); DXT3 / DXT5 take alpha from their alpha blocks.
  const int channels = f.codec == C::Bc1Rgba ? 4 : 3;
  uint32_t index[16];
  for (int t = 0; t < 16; ++t) {
    if (transparent && finite_or_zero(texels[t][3]) < 0.5f) {
      index[t] = 3;
      continue;
    }
    Texel want = texels[t];
    if (punch) want[3] = 1.0f;
    uint32_t best = 0;
    for (uint32_t k = 1; k < 4; ++k) {
      if (distance2(want, palette[k], channels) < distance2(want, palette[best], channels)) best = k;
    }
    index[t] = best;
  }
  set_indices(index);
}

// ---- BPTC: one subset, 4-bit indices from bit 65 (BC7 mode 6, BC6H mode 11) ----

struct BptcEndpoints {
  // BC7: 8-bit RGBA targets; BC6H: the 10-bit field values (two's complement for the signed format).
  std::array<int32_t, 4> e[2];
};

void write_bptc_header(const CompressedFormat& f, const BptcEndpoints& ep, uint8_t* block) {
  uint32_t at = 0;
  if (f.codec == C::Bc7) {
    put_bits(block, at, 1u << 6, 7);  // mode 6: six zeros, then a one
    // Each endpoint: 7 bits per channel and one p-bit, whichever p reproduces its 8-bit values best.
    uint32_t c7[2][4], p[2];
    for (int i = 0; i < 2; ++i) {
      int best_error = std::numeric_limits<int>::max();
      for (uint32_t pb = 0; pb < 2; ++pb) {
        int error = 0;
        uint32_t c[4];
        for (int ch = 0; ch < 4; ++ch) {
          c[ch] = static_cast<uint32_t>(
              std::clamp(static_cast<int>(std::lround((ep.e[i][ch] - static_cast<int>(pb)) / 2.0)), 0, 127));
          error += std::abs(static_cast<int>((c[ch] << 1) | pb) - ep.e[i][ch]);
        }
        if (error < best_error) {
          best_error = error;
          p[i] = pb;
          std::memcpy(c7[i], c, sizeof c);
        }
      }
    }
    for (int ch = 0; ch < 4; ++ch) {
      put_bits(block, at, c7[0][ch], 7);
      put_bits(block, at, c7[1][ch], 7);
    }
    put_bits(block, at, p[0], 1);
    put_bits(block, at, p[1], 1);
  } else {
    put_bits(block, at, 3, 5);  // mode 11: "m[4:0], r0[9:0], g0[9:0], b0[9:0], r1[9:0], g1[9:0], b1[9:0]"
    for (int i = 0; i < 2; ++i) {
      for (int ch = 0; ch < 3; ++ch) put_bits(block, at, static_cast<uint32_t>(ep.e[i][ch]) & 1023u, 10);
    }
  }
}

void write_bptc_indices(const uint32_t (&index)[16], uint8_t* block) {
  uint32_t at = 65;
  for (int t = 0; t < 16; ++t) put_bits(block, at, index[t], t == 0 ? 3 : 4);
}

// BC6H: the 10-bit endpoint field whose decoding (a block of that endpoint only) is nearest to `target`. The
// decoded value grows with the field (as a two's complement number for the signed format).
int32_t bc6h_endpoint(const CompressedFormat& f, float target) {
  uint8_t probe[16];
  std::array<Texel, 16> decoded;
  auto value = [&](int32_t field) {
    std::memset(probe, 0, sizeof probe);
    BptcEndpoints ep;
    for (auto& e : ep.e) e = {field, field, field, 0};
    write_bptc_header(f, ep, probe);
    decode_block(f, probe, decoded);
    return decoded[0][0];
  };
  int32_t lo = f.is_signed ? -512 : 0, hi = f.is_signed ? 511 : 1023;
  while (lo < hi) {  // the first field whose value reaches the target
    const int32_t mid = lo + (hi - lo) / 2;
    if (value(mid) < target) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  const int32_t first = f.is_signed ? -512 : 0;
  if (lo > first && std::fabs(value(lo - 1) - target) <= std::fabs(value(lo) - target)) return lo - 1;
  return lo;
}

void encode_bptc(const CompressedFormat& f, const std::array<Texel, 16>& texels, uint8_t* block) {
  const bool bc7 = f.codec == C::Bc7;
  const int channels = bc7 ? 4 : 3;
  const float low = bc7 || !f.is_signed ? 0.0f : -65504.0f, high = bc7 ? 1.0f : 65504.0f;
  Texel lo{high, high, high, high}, hi{low, low, low, low};
  for (const Texel& t : texels) {
    for (int c = 0; c < channels; ++c) {
      const float v = std::clamp(finite_or_zero(t[c]), low, high);
      lo[c] = std::min(lo[c], v);
      hi[c] = std::max(hi[c], v);
    }
  }
  BptcEndpoints ep;
  for (int c = 0; c < 4; ++c) {
    if (c >= channels) {
      ep.e[0][c] = ep.e[1][c] = 0;
    } else if (bc7) {
      ep.e[0][c] = static_cast<int32_t>(std::lround(lo[c] * 255.0f));
      ep.e[1][c] = static_cast<int32_t>(std::lround(hi[c] * 255.0f));
    } else {
      ep.e[0][c] = bc6h_endpoint(f, lo[c]);
      ep.e[1][c] = bc6h_endpoint(f, hi[c]);
    }
  }
  std::memset(block, 0, f.block_bytes);
  write_bptc_header(f, ep, block);
  std::array<Texel, 16> palette;
  std::array<Texel, 16> decoded;
  for (uint32_t k = 0; k < 16; ++k) {
    uint32_t all[16];
    std::fill(std::begin(all), std::end(all), k);
    all[0] = k & 7;  // the anchor's index has three bits; texel 15 shows index k
    write_bptc_indices(all, block);
    decode_block(f, block, decoded);
    palette[k] = decoded[15];
  }
  uint32_t index[16];
  for (int t = 0; t < 16; ++t) {
    Texel want = texels[t];
    for (int c = 0; c < channels; ++c) want[c] = std::clamp(finite_or_zero(want[c]), low, high);
    uint32_t best = 0;
    for (uint32_t k = 1; k < 16; ++k) {
      if (distance2(want, palette[k], channels) < distance2(want, palette[best], channels)) best = k;
    }
    index[t] = best;
  }
  if (index[0] >= 8) {
    std::swap(ep.e[0], ep.e[1]);
    write_bptc_header(f, ep, block);
    for (uint32_t& i : index) i = 15 - i;
  }
  write_bptc_indices(index, block);
}

}  // namespace

bool can_encode(const CompressedFormat& f) {
  switch (f.codec) {
    case C::Bc1Rgb:
    case C::Bc1Rgba:
    case C::Bc2:
    case C::Bc3:
    case C::Rgtc1:
    case C::Rgtc2:
    case C::Bc7:
    case C::Bc6h: return true;
    default: return can_encode_etc(f);
  }
}

void encode_block(const CompressedFormat& f, const std::array<Texel, 16>& texels, uint8_t* out) {
  std::memset(out, 0, f.block_bytes);
  switch (f.codec) {
    case C::Rgtc1: encode_bc4(f, out, 0, 0, f.is_signed, texels); break;
    case C::Rgtc2:
      encode_bc4(f, out, 0, 0, f.is_signed, texels);
      encode_bc4(f, out, 8, 1, f.is_signed, texels);
      break;
    case C::Bc1Rgb: encode_bc1(f, out, 0, false, texels); break;
    case C::Bc1Rgba: encode_bc1(f, out, 0, true, texels); break;
    case C::Bc2: {
      // Explicit alpha: texel t's 4 bits at bits 4t of the first 64 bits.
      for (int t = 0; t < 16; ++t) {
        const auto a = static_cast<uint8_t>(std::lround(std::clamp(finite_or_zero(texels[t][3]), 0.0f, 1.0f) * 15));
        out[t / 2] |= static_cast<uint8_t>(a << (4 * (t % 2)));
      }
      encode_bc1(f, out, 8, false, texels);
      break;
    }
    case C::Bc3:
      encode_bc4(f, out, 0, 3, false, texels);
      encode_bc1(f, out, 8, false, texels);
      break;
    case C::Bc7:
    case C::Bc6h: encode_bptc(f, texels, out); break;
    default: encode_etc_block(f, texels, out); break;
  }
}

}  // namespace bismuth::gl
