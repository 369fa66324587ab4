// The floating-point encodings of pixel transfers (pixel_float_codecs.hpp).
#include "pixel_float_codecs.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace bismuth::gl {
namespace {

// Encodes a finite non-negative value as a float with a 5-bit exponent (bias 15) and `mantissa_bits` bits, rounding
// to nearest even. Returns the exponent/mantissa bits; an exponent of 31 means the value rounded past the largest
// finite value.
uint32_t encode_e5(double value, uint32_t mantissa_bits) {
  if (value == 0.0) return 0;
  int e2 = 0;
  std::frexp(value, &e2);  // value = m * 2^e2, m in [0.5, 1)
  int biased = e2 - 1 + 15;
  if (biased <= 0) {  // denormal: units of 2^(-14 - mantissa_bits); a carry makes the smallest normal by itself
    return static_cast<uint32_t>(std::nearbyint(std::ldexp(value, 14 + static_cast<int>(mantissa_bits))));
  }
  const double scaled = std::ldexp(value, static_cast<int>(mantissa_bits) - (biased - 15));  // in [2^m, 2^(m+1))
  auto mantissa = static_cast<uint32_t>(std::nearbyint(scaled)) - (1u << mantissa_bits);
  if (mantissa == (1u << mantissa_bits)) {
    mantissa = 0;
    ++biased;
  }
  if (biased >= 31) return 31u << mantissa_bits;
  return static_cast<uint32_t>(biased) << mantissa_bits | mantissa;
}

double decode_e5(uint32_t bits, uint32_t mantissa_bits) {
  const uint32_t exponent = bits >> mantissa_bits;
  const uint32_t mantissa = bits & ((1u << mantissa_bits) - 1);
  if (exponent == 31)
    return mantissa ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
  if (exponent == 0) return std::ldexp(double(mantissa), -14 - static_cast<int>(mantissa_bits));
  return std::ldexp(double(mantissa | (1u << mantissa_bits)),
                    static_cast<int>(exponent) - 15 - static_cast<int>(mantissa_bits));
}

double largest_ufloat(uint32_t mantissa_bits) {
  return std::ldexp(double((2u << mantissa_bits) - 1), 15 - static_cast<int>(mantissa_bits));
}

}  // namespace

uint16_t float_to_half(float value) {
  const bool negative = std::signbit(value);
  const uint16_t sign = negative ? 0x8000 : 0;
  if (std::isnan(value)) return static_cast<uint16_t>(sign | 0x7E00);
  if (std::isinf(value)) return static_cast<uint16_t>(sign | 0x7C00);
  return static_cast<uint16_t>(sign | encode_e5(std::fabs(double(value)), 10));  // exponent 31 = infinity
}

float half_to_float(uint16_t bits) {
  const double magnitude = decode_e5(bits & 0x7FFFu, 10);
  return static_cast<float>((bits & 0x8000u) ? -magnitude : magnitude);
}

// EXT_packed_float's rules, which GL 4.6 §2.3.4.3/4 keep: negative values and -infinity become 0, +infinity stays,
// NaN becomes NaN, finite values above the largest finite value become the largest finite value.
uint32_t float_to_ufloat(float value, uint32_t mantissa_bits) {
  const uint32_t infinity = 31u << mantissa_bits;
  if (std::isnan(value)) return infinity | 1u;
  if (value <= 0.0f) return 0;
  if (std::isinf(value)) return infinity;
  const double v = std::min(double(value), largest_ufloat(mantissa_bits));
  return encode_e5(v, mantissa_bits);
}

float ufloat_to_float(uint32_t bits, uint32_t mantissa_bits) {
  return static_cast<float>(decode_e5(bits & ((32u << mantissa_bits) - 1), mantissa_bits));
}

// GL 4.6 §8.5.2 (shared exponent texture color conversion) with N = 9 mantissa bits, B = 15, Emax = 31.
uint32_t rgb_to_rgb9e5(float r, float g, float b) {
  constexpr int N = 9, B = 15, Emax = 31;
  const double sharedexp_max = double((1 << N) - 1) / double(1 << N) * std::ldexp(1.0, Emax - B);
  auto clamp = [&](float c) { return std::isnan(c) ? 0.0 : std::clamp(double(c), 0.0, sharedexp_max); };
  const double rc = clamp(r), gc = clamp(g), bc = clamp(b);
  const double maxc = std::max({rc, gc, bc});
  int floor_log2 = -B - 1;
  if (maxc > 0.0) {
    int e2 = 0;
    std::frexp(maxc, &e2);
    floor_log2 = std::max(-B - 1, e2 - 1);
  }
  int exp_shared = floor_log2 + 1 + B;
  const double maxs = std::floor(maxc / std::ldexp(1.0, exp_shared - B - N) + 0.5);
  if (maxs == double(1 << N)) ++exp_shared;
  auto mantissa = [&](double c) {
    return static_cast<uint32_t>(std::floor(c / std::ldexp(1.0, exp_shared - B - N) + 0.5));
  };
  return mantissa(rc) | mantissa(gc) << 9 | mantissa(bc) << 18 | static_cast<uint32_t>(exp_shared) << 27;
}

void rgb9e5_to_rgb(uint32_t word, float out[3]) {
  const int exponent = static_cast<int>(word >> 27);
  for (int i = 0; i < 3; ++i)
    out[i] = static_cast<float>(std::ldexp(double((word >> (9 * i)) & 511u), exponent - 15 - 9));
}

}  // namespace bismuth::gl
