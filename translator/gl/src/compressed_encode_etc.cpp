// ETC2 / EAC block encoders (compressed_encode.hpp): the GL compresses uncompressed client data into these formats
// as into the RGTC, S3TC and BPTC ones. GL 4.3+ lists ETC2/EAC in table 8.14 with the other specific compressed
// formats, and "If the internal format of the texture image being modified is one of the specific compressed
// formats described in table 8.14, the texture is stored using the corresponding compressed texture image encoding"
// (KhronosGroup/OpenGL-API issue 11: desktop GL requires online compression for them; OpenGL ES does not, and ES
// contexts compress nothing). Block modes written, simple and valid rather than best:
//  - EAC channels (R11 / RG11, signed or not) and RGBA8_ETC2_EAC's 8-bit alpha: the base codeword, multiplier and
//    modifier table whose palette has the least squared error over the block (bases within 4 of the block's mid
//    value, every table, the multipliers whose palette spans about the block's range).
//  - ETC2 RGB8 and RGBA8_ETC2_EAC's colour: the differential mode only, both flips tried: each half's 5-bit base
//    the rounded mean of its texels, the second base's delta clamped to [-4, 3] (so the block never becomes a T,
//    H or planar one), each half's modifier table the one of least error.
//  - RGB8_PUNCHTHROUGH_ALPHA1: the same, with the "opaque" bit clear when a texel has alpha below one half (those
//    texels take index 2, transparent black; the others 0, 1 or 3, whose modifiers are then 0, +b and -b).
// The indices are chosen against palettes read from the decoder (decode_block of the block with every index set to
// one value; the EAC search itself uses the modifier tables read back from the decoder once), so the encoder never
// disagrees with what is sampled. CPU-only.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "compressed_encode.hpp"

namespace bismuth::gl {
namespace {

float finite_clamped(float v, float lo, float hi) {
  return std::isnan(v) ? lo : std::clamp(v, lo, hi);
}

// ETC2/EAC blocks are big-endian 64-bit words.
void store_be64(uint64_t w, uint8_t* out) {
  for (int i = 0; i < 8; ++i) out[i] = static_cast<uint8_t>(w >> (56 - 8 * i));
}

const CompressedFormat& format_of(GLenum internalformat) {
  return *find_compressed_format(internalformat);
}

// ---- EAC ----

// EAC's modifier tables as the decoder applies them: an unsigned R11 block of base 128 and multiplier 1 decodes
// index k of table t to (128 * 8 + 4 + 8 m) / 2047.
const std::array<std::array<int, 8>, 16>& eac_modifiers() {
  static const std::array<std::array<int, 8>, 16> tables = [] {
    std::array<std::array<int, 8>, 16> out{};
    const CompressedFormat& f = format_of(GL_COMPRESSED_R11_EAC);
    uint8_t block[8];
    std::array<Texel, 16> decoded;
    for (uint64_t t = 0; t < 16; ++t) {
      for (uint64_t k = 0; k < 8; ++k) {
        uint64_t w = (uint64_t{128} << 56) | (uint64_t{1} << 52) | (t << 48);
        for (int i = 0; i < 16; ++i) w |= k << (45 - 3 * i);
        store_be64(w, block);
        decode_block(f, block, decoded);
        out[t][k] = static_cast<int>(std::lround((decoded[0][0] * 2047.0f - 1028.0f) / 8.0f));
      }
    }
    return out;
  }();
  return tables;
}

// One EAC channel (8 bytes at `out`) for the values v. `alpha`: RGBA8_ETC2_EAC's 8-bit alpha, else an 11-bit
// channel (signed or not). The palette of a candidate (base, multiplier, table) is decoded from a block whose
// sixteen indices are all k.
void encode_eac(const std::array<float, 16>& v, bool alpha, bool is_signed, uint8_t* out) {
  const float lo = is_signed ? -1.0f : 0.0f;
  float vmin = 1.0f, vmax = lo;
  for (float x : v) vmin = std::min(vmin, x), vmax = std::max(vmax, x);
  const float mid = (vmin + vmax) * 0.5f;
  // The base codeword nearest the mid value: alpha base = 255 a; unsigned 11-bit base * 8 + 4 = 2047 v; signed
  // base * 8 = 1023 v.
  const int centre = alpha       ? static_cast<int>(std::lround(mid * 255.0f))
                     : is_signed ? static_cast<int>(std::lround(mid * 1023.0f / 8.0f))
                                 : static_cast<int>(std::lround((mid * 2047.0f - 4.0f) / 8.0f));
  const int base_lo = is_signed ? -127 : 0, base_hi = is_signed ? 127 : 255;
  const CompressedFormat& f = alpha       ? format_of(GL_COMPRESSED_RGBA8_ETC2_EAC)
                              : is_signed ? format_of(GL_COMPRESSED_SIGNED_R11_EAC)
                                          : format_of(GL_COMPRESSED_R11_EAC);
  const int component = alpha ? 3 : 0;
  auto header = [](int base, int mult, int table) {
    return (static_cast<uint64_t>(static_cast<uint8_t>(base)) << 56) | (static_cast<uint64_t>(mult) << 52) |
           (static_cast<uint64_t>(table) << 48);
  };
  auto palette = [&](uint64_t head, std::array<float, 8>& out_palette) {
    uint8_t block[16] = {};
    std::array<Texel, 16> decoded;
    for (uint32_t k = 0; k < 8; ++k) {
      uint64_t w = head;
      for (int i = 0; i < 16; ++i) w |= static_cast<uint64_t>(k) << (45 - 3 * i);
      store_be64(w, block);
      decode_block(f, block, decoded);
      out_palette[k] = decoded[0][component];
    }
  };
  // The search computes each candidate's palette from the modifier tables (read back from the decoder once,
  // eac_modifiers); the indices are then chosen against the decoded palette of the best candidate.
  const auto& modifiers = eac_modifiers();
  auto value = [&](int base, int mult, int m) {
    if (alpha) return static_cast<float>(std::clamp(base + m * mult, 0, 255)) / 255.0f;
    if (is_signed) return static_cast<float>(std::clamp(base * 8 + m * mult * 8, -1023, 1023)) / 1023.0f;
    return static_cast<float>(std::clamp(base * 8 + 4 + m * mult * 8, 0, 2047)) / 2047.0f;
  };
  float best_error = std::numeric_limits<float>::max();
  uint64_t best_head = header(std::clamp(centre, base_lo, base_hi), 1, 13);
  std::array<float, 8> pal{};
  // The multipliers tried for a table: those whose palette spans about the block's range (the table's modifier span
  // times the multiplier, in units of 1 for alpha and 8 / 2047 or 8 / 1023 for the 11-bit channels), one either side.
  const float unit = alpha ? 1.0f / 255.0f : is_signed ? 8.0f / 1023.0f : 8.0f / 2047.0f;
  for (int base = std::max(centre - 4, base_lo); base <= std::min(centre + 4, base_hi); ++base) {
    for (int table = 0; table < 16; ++table) {
      const auto& mods = modifiers[static_cast<size_t>(table)];
      const int span = *std::max_element(mods.begin(), mods.end()) - *std::min_element(mods.begin(), mods.end());
      const int ideal =
          std::clamp(static_cast<int>(std::lround((vmax - vmin) / (static_cast<float>(span) * unit))), 1, 15);
      for (int mult = std::max(ideal - 1, 1); mult <= std::min(ideal + 1, 15); ++mult) {
        for (size_t k = 0; k < 8; ++k) pal[k] = value(base, mult, modifiers[static_cast<size_t>(table)][k]);
        float error = 0;
        for (float x : v) {
          float e = std::numeric_limits<float>::max();
          for (float p : pal) e = std::min(e, (p - x) * (p - x));
          error += e;
        }
        if (error < best_error) best_error = error, best_head = header(base, mult, table);
      }
    }
  }
  palette(best_head, pal);
  uint64_t w = best_head;
  for (int y = 0; y < 4; ++y) {
    for (int x = 0; x < 4; ++x) {
      const float t = v[static_cast<size_t>(y * 4 + x)];
      uint32_t best = 0;
      for (uint32_t k = 1; k < 8; ++k) {
        if ((pal[k] - t) * (pal[k] - t) < (pal[best] - t) * (pal[best] - t)) best = k;
      }
      const int i = 4 * x + y;  // EAC numbers texels column by column
      w |= static_cast<uint64_t>(best) << (45 - 3 * i);
    }
  }
  store_be64(w, out);
}

std::array<float, 16> channel(const std::array<Texel, 16>& texels, int c, bool is_signed) {
  std::array<float, 16> v{};
  for (size_t t = 0; t < 16; ++t) v[t] = finite_clamped(texels[t][c], is_signed ? -1.0f : 0.0f, 1.0f);
  return v;
}

// ---- ETC2 colour (differential mode) ----

// The ETC2 colour block (8 bytes at `out`) of the texels. `punch`: RGB8_PUNCHTHROUGH_ALPHA1.
void encode_etc2_rgb(const std::array<Texel, 16>& texels, bool punch, uint8_t* out) {
  const CompressedFormat& f =
      punch ? format_of(GL_COMPRESSED_RGB8_PUNCHTHROUGH_ALPHA1_ETC2) : format_of(GL_COMPRESSED_RGB8_ETC2);
  std::array<bool, 16> transparent{};
  bool opaque = true;
  for (size_t t = 0; t < 16; ++t) {
    transparent[t] = punch && finite_clamped(texels[t][3], 0.0f, 1.0f) < 0.5f;
    opaque = opaque && !transparent[t];
  }
  auto half_of = [](bool flip, int x, int y) { return flip ? (y >= 2 ? 1 : 0) : (x >= 2 ? 1 : 0); };
  auto error_of = [&](const Texel& p, const Texel& t) {
    float e = 0;
    for (int c = 0; c < 3; ++c) {
      const float d = p[c] - finite_clamped(t[c], 0.0f, 1.0f);
      e += d * d;
    }
    return e;
  };
  // The indices a texel may take: a transparent one 2; with the opaque bit clear the others 0, 1, 3.
  auto allowed = [&](size_t t, uint32_t k) { return transparent[t] ? k == 2 : (opaque || k != 2); };
  float best_error = std::numeric_limits<float>::max();
  uint64_t best_word = 0;
  for (int flip = 0; flip < 2; ++flip) {
    // Each half's mean colour (of its texels that are not transparent), as 5-bit values.
    int q[2][3] = {};
    for (int h = 0; h < 2; ++h) {
      float sum[3] = {}, n = 0;
      for (int y = 0; y < 4; ++y) {
        for (int x = 0; x < 4; ++x) {
          const auto t = static_cast<size_t>(y * 4 + x);
          if (half_of(flip != 0, x, y) != h || transparent[t]) continue;
          for (int c = 0; c < 3; ++c) sum[c] += finite_clamped(texels[t][c], 0.0f, 1.0f);
          n += 1;
        }
      }
      for (int c = 0; c < 3; ++c) q[h][c] = n > 0 ? static_cast<int>(std::lround(sum[c] / n * 31.0f)) : 0;
    }
    // The second base as a delta of [-4, 3] from the first (it stays within 0..31: no T, H or planar block).
    int delta[3];
    for (int c = 0; c < 3; ++c) delta[c] = std::clamp(q[1][c] - q[0][c], -4, 3);
    uint64_t head = 0;
    for (int c = 0; c < 3; ++c) {
      head |= static_cast<uint64_t>(q[0][c]) << (59 - 8 * c);
      head |= static_cast<uint64_t>(delta[c] & 7) << (56 - 8 * c);
    }
    head |= uint64_t{opaque ? 1u : 0u} << 33;  // "diff" (RGB8) or "opaque" (punch-through)
    head |= static_cast<uint64_t>(flip) << 32;
    // Each half's table: the one whose palette (decoded) fits that half best.
    int table[2] = {0, 0};
    float half_error[2] = {std::numeric_limits<float>::max(), std::numeric_limits<float>::max()};
    std::array<std::array<Texel, 16>, 4> pal;
    uint8_t block[8];
    auto decode_palettes = [&](uint64_t w0) {
      for (uint32_t k = 0; k < 4; ++k) {
        uint64_t w = w0;
        for (int i = 0; i < 16; ++i) w |= (static_cast<uint64_t>(k >> 1) << (16 + i)) | (uint64_t{k & 1u} << i);
        store_be64(w, block);
        decode_block(f, block, pal[k]);
      }
    };
    for (int tb = 0; tb < 8; ++tb) {
      decode_palettes(head | (static_cast<uint64_t>(tb) << 37) | (static_cast<uint64_t>(tb) << 34));
      float e[2] = {};
      for (int y = 0; y < 4; ++y) {
        for (int x = 0; x < 4; ++x) {
          const auto t = static_cast<size_t>(y * 4 + x);
          if (transparent[t]) continue;
          float m = std::numeric_limits<float>::max();
          for (uint32_t k = 0; k < 4; ++k) {
            if (allowed(t, k)) m = std::min(m, error_of(pal[k][t], texels[t]));
          }
          e[half_of(flip != 0, x, y)] += m;
        }
      }
      for (int h = 0; h < 2; ++h) {
        if (e[h] < half_error[h]) half_error[h] = e[h], table[h] = tb;
      }
    }
    const uint64_t w0 = head | (static_cast<uint64_t>(table[0]) << 37) | (static_cast<uint64_t>(table[1]) << 34);
    decode_palettes(w0);
    uint64_t w = w0;
    float error = 0;
    for (int y = 0; y < 4; ++y) {
      for (int x = 0; x < 4; ++x) {
        const auto t = static_cast<size_t>(y * 4 + x);
        uint32_t best = transparent[t] ? 2 : 0;
        float m = std::numeric_limits<float>::max();
        for (uint32_t k = 0; k < 4 && !transparent[t]; ++k) {
          if (allowed(t, k) && error_of(pal[k][t], texels[t]) < m) m = error_of(pal[k][t], texels[t]), best = k;
        }
        if (!transparent[t]) error += m;
        const int i = 4 * x + y;  // ETC numbers texels column by column
        w |= (static_cast<uint64_t>(best >> 1) << (16 + i)) | (uint64_t{best & 1u} << i);
      }
    }
    if (error < best_error) best_error = error, best_word = w;
  }
  store_be64(best_word, out);
}

}  // namespace

bool can_encode_etc(const CompressedFormat& f) {
  switch (f.codec) {
    case BlockCodec::Etc2Rgb:
    case BlockCodec::Etc2Punch:
    case BlockCodec::Etc2Eac:
    case BlockCodec::EacR11:
    case BlockCodec::EacRg11: return true;
    default: return false;
  }
}

void encode_etc_block(const CompressedFormat& f, const std::array<Texel, 16>& texels, uint8_t* out) {
  switch (f.codec) {
    case BlockCodec::Etc2Rgb: encode_etc2_rgb(texels, false, out); break;
    case BlockCodec::Etc2Punch: encode_etc2_rgb(texels, true, out); break;
    case BlockCodec::Etc2Eac:
      encode_eac(channel(texels, 3, false), true, false, out);
      encode_etc2_rgb(texels, false, out + 8);
      break;
    case BlockCodec::EacR11: encode_eac(channel(texels, 0, f.is_signed), false, f.is_signed, out); break;
    case BlockCodec::EacRg11:
      encode_eac(channel(texels, 0, f.is_signed), false, f.is_signed, out);
      encode_eac(channel(texels, 1, f.is_signed), false, f.is_signed, out + 8);
      break;
    default: break;
  }
}

}  // namespace bismuth::gl
