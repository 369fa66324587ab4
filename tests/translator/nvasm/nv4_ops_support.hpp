// CPU models for the NV_gpu_program4/5 instruction tests: IEEE half encoding by exhaustive search (so the model
// never shares an algorithm with the assembler's), and SPIR-V word scans.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

namespace bismuth::test::nv4_ops {

// The value of an IEEE half (binary16).
inline double half_value(uint16_t h) {
  const int sign = h >> 15, exponent = (h >> 10) & 0x1F, mantissa = h & 0x3FF;
  double v;
  if (exponent == 0x1F)
    v = mantissa ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
  else if (exponent == 0)
    v = std::ldexp(double(mantissa), -24);
  else
    v = std::ldexp(double(mantissa | 0x400), exponent - 25);
  return sign ? -v : v;
}

enum class Mode { Round, Trunc, Floor, Ceil };

// The half `x` converts to under `mode`, found by looking at every finite half and the infinities (NV_gpu_program5
// CVT: "rounded to one of the two nearest values in the destination type according to the rounding modifier";
// ROUND: the nearer, ties to the even encoding; values past the largest half go to infinity under ROUND, and to
// the largest half when the mode rounds toward it).
inline uint16_t half_of(double x, Mode mode) {
  uint16_t below = 0xFC00, above = 0x7C00;  // -inf, +inf
  double vb = -std::numeric_limits<double>::infinity(), va = std::numeric_limits<double>::infinity();
  for (uint32_t h = 0; h < 0x10000; ++h) {
    const double v = half_value(uint16_t(h));
    if (std::isnan(v)) continue;
    if (v == x) {
      if (x == 0) return std::signbit(x) ? 0x8000 : 0;
      return uint16_t(h);
    }
    if (v < x && v > vb) vb = v, below = uint16_t(h);
    if (v > x && v < va) va = v, above = uint16_t(h);
  }
  switch (mode) {
    case Mode::Floor: return below;
    case Mode::Ceil: return above;
    case Mode::Trunc: return x > 0 ? below : above;
    case Mode::Round:
      if (std::fabs(x) >= 65520.0) return x > 0 ? 0x7C00 : 0xFC00;  // IEEE overflow threshold of binary16
      if (x - vb < va - x) return below;
      if (va - x < x - vb) return above;
      return (below & 1) ? above : below;
  }
  return 0;
}

inline uint32_t fbits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

// SPIR-V words: how many OpDecorate <id> NoContraction the module has; whether an OpLoopMerge has DontUnroll.
inline size_t count_decorations(const std::vector<uint32_t>& words, uint32_t decoration) {
  size_t n = 0;
  for (size_t i = 5; i < words.size();) {
    const uint32_t count = words[i] >> 16, op = words[i] & 0xFFFF;
    if (count == 0) break;
    if (op == 71 /* OpDecorate */ && count >= 3 && words[i + 2] == decoration) ++n;
    i += count;
  }
  return n;
}

inline bool loop_merge_has(const std::vector<uint32_t>& words, uint32_t control) {
  for (size_t i = 5; i < words.size();) {
    const uint32_t count = words[i] >> 16, op = words[i] & 0xFFFF;
    if (count == 0) break;
    if (op == 246 /* OpLoopMerge */ && count >= 4 && (words[i + 3] & control)) return true;
    i += count;
  }
  return false;
}

}  // namespace bismuth::test::nv4_ops
