// The floating-point encodings of GL pixel transfers (GL 4.6 §2.3.4 16-bit and unsigned 11-/10-bit floats, §8.5.2
// shared-exponent RGB9_E5), written for pixel_transfer.cpp and its tests.
#pragma once

#include <cstdint>

namespace bismuth::gl {

uint16_t float_to_half(float value);  // round to nearest even; overflow → infinity; NaN stays NaN
float half_to_float(uint16_t bits);
uint32_t float_to_ufloat(float value, uint32_t mantissa_bits);  // 11-bit (6) or 10-bit (5) unsigned floats
float ufloat_to_float(uint32_t bits, uint32_t mantissa_bits);
uint32_t rgb_to_rgb9e5(float r, float g, float b);  // §8.5.2, UNSIGNED_INT_5_9_9_9_REV layout
void rgb9e5_to_rgb(uint32_t word, float out[3]);

}  // namespace bismuth::gl
