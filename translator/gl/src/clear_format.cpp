// The clear value conversion of glClearBuffer(Sub)Data (clear_format.hpp).
#include "clear_format.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>
#include <vector>

namespace bismuth::gl {
namespace {

enum class Kind { Unorm, Float, Sint, Uint };

struct Internal {
  uint32_t components;
  Kind kind;
  uint32_t bits;  // per component
};

// GL 4.6 table 8.12: the sized internal formats buffer clears (and texture buffers) take.
std::optional<Internal> internal_format(GLenum f) {
  switch (f) {
    case GL_R8: return Internal{1, Kind::Unorm, 8};
    case GL_R16: return Internal{1, Kind::Unorm, 16};
    case GL_R16F: return Internal{1, Kind::Float, 16};
    case GL_R32F: return Internal{1, Kind::Float, 32};
    case GL_R8I: return Internal{1, Kind::Sint, 8};
    case GL_R16I: return Internal{1, Kind::Sint, 16};
    case GL_R32I: return Internal{1, Kind::Sint, 32};
    case GL_R8UI: return Internal{1, Kind::Uint, 8};
    case GL_R16UI: return Internal{1, Kind::Uint, 16};
    case GL_R32UI: return Internal{1, Kind::Uint, 32};
    case GL_RG8: return Internal{2, Kind::Unorm, 8};
    case GL_RG16: return Internal{2, Kind::Unorm, 16};
    case GL_RG16F: return Internal{2, Kind::Float, 16};
    case GL_RG32F: return Internal{2, Kind::Float, 32};
    case GL_RG8I: return Internal{2, Kind::Sint, 8};
    case GL_RG16I: return Internal{2, Kind::Sint, 16};
    case GL_RG32I: return Internal{2, Kind::Sint, 32};
    case GL_RG8UI: return Internal{2, Kind::Uint, 8};
    case GL_RG16UI: return Internal{2, Kind::Uint, 16};
    case GL_RG32UI: return Internal{2, Kind::Uint, 32};
    case GL_RGB32F: return Internal{3, Kind::Float, 32};
    case GL_RGB32I: return Internal{3, Kind::Sint, 32};
    case GL_RGB32UI: return Internal{3, Kind::Uint, 32};
    case GL_RGBA8: return Internal{4, Kind::Unorm, 8};
    case GL_RGBA16: return Internal{4, Kind::Unorm, 16};
    case GL_RGBA16F: return Internal{4, Kind::Float, 16};
    case GL_RGBA32F: return Internal{4, Kind::Float, 32};
    case GL_RGBA8I: return Internal{4, Kind::Sint, 8};
    case GL_RGBA16I: return Internal{4, Kind::Sint, 16};
    case GL_RGBA32I: return Internal{4, Kind::Sint, 32};
    case GL_RGBA8UI: return Internal{4, Kind::Uint, 8};
    case GL_RGBA16UI: return Internal{4, Kind::Uint, 16};
    case GL_RGBA32UI: return Internal{4, Kind::Uint, 32};
    default: return std::nullopt;
  }
}

struct Client {
  uint32_t count = 0;
  std::array<int, 4> slot{};  // the R, G, B, A channel component i goes to
  bool integer = false;
  bool color = true;  // false: depth/stencil formats (valid enums, never compatible with a color buffer format)
};

std::optional<Client> client_format(GLenum f) {
  switch (f) {
    case GL_RED: return Client{1, {0}, false};
    case GL_GREEN: return Client{1, {1}, false};
    case GL_BLUE: return Client{1, {2}, false};
    case GL_RG: return Client{2, {0, 1}, false};
    case GL_RGB: return Client{3, {0, 1, 2}, false};
    case GL_BGR: return Client{3, {2, 1, 0}, false};
    case GL_RGBA: return Client{4, {0, 1, 2, 3}, false};
    case GL_BGRA: return Client{4, {2, 1, 0, 3}, false};
    case GL_RED_INTEGER: return Client{1, {0}, true};
    case GL_GREEN_INTEGER: return Client{1, {1}, true};
    case GL_BLUE_INTEGER: return Client{1, {2}, true};
    case GL_RG_INTEGER: return Client{2, {0, 1}, true};
    case GL_RGB_INTEGER: return Client{3, {0, 1, 2}, true};
    case GL_BGR_INTEGER: return Client{3, {2, 1, 0}, true};
    case GL_RGBA_INTEGER: return Client{4, {0, 1, 2, 3}, true};
    case GL_BGRA_INTEGER: return Client{4, {2, 1, 0, 3}, true};
    case GL_STENCIL_INDEX: case GL_DEPTH_COMPONENT: case GL_DEPTH_STENCIL: return Client{1, {0}, false, false};
    default: return std::nullopt;
  }
}

enum class Scalar { U8, S8, U16, S16, U32, S32, F16, F32, Packed };

struct Type {
  Scalar scalar;
  uint32_t bytes;                  // per component (Packed: the whole pixel)
  std::vector<uint32_t> widths{};  // Packed: component widths in format order
  bool reversed = false;           // Packed: the first component in the least significant bits
  enum Special { None, F11F11F10, E5999 } special = None;
  uint32_t components = 0;         // Packed: the format's component count it needs (3 or 4)
};

std::optional<Type> client_type(GLenum t) {
  switch (t) {
    case GL_UNSIGNED_BYTE: return Type{Scalar::U8, 1};
    case GL_BYTE: return Type{Scalar::S8, 1};
    case GL_UNSIGNED_SHORT: return Type{Scalar::U16, 2};
    case GL_SHORT: return Type{Scalar::S16, 2};
    case GL_UNSIGNED_INT: return Type{Scalar::U32, 4};
    case GL_INT: return Type{Scalar::S32, 4};
    case GL_HALF_FLOAT: return Type{Scalar::F16, 2};
    case GL_FLOAT: return Type{Scalar::F32, 4};
    case GL_UNSIGNED_BYTE_3_3_2: return Type{Scalar::Packed, 1, {3, 3, 2}, false, Type::None, 3};
    case GL_UNSIGNED_BYTE_2_3_3_REV: return Type{Scalar::Packed, 1, {3, 3, 2}, true, Type::None, 3};
    case GL_UNSIGNED_SHORT_5_6_5: return Type{Scalar::Packed, 2, {5, 6, 5}, false, Type::None, 3};
    case GL_UNSIGNED_SHORT_5_6_5_REV: return Type{Scalar::Packed, 2, {5, 6, 5}, true, Type::None, 3};
    case GL_UNSIGNED_SHORT_4_4_4_4: return Type{Scalar::Packed, 2, {4, 4, 4, 4}, false, Type::None, 4};
    case GL_UNSIGNED_SHORT_4_4_4_4_REV: return Type{Scalar::Packed, 2, {4, 4, 4, 4}, true, Type::None, 4};
    case GL_UNSIGNED_SHORT_5_5_5_1: return Type{Scalar::Packed, 2, {5, 5, 5, 1}, false, Type::None, 4};
    case GL_UNSIGNED_SHORT_1_5_5_5_REV: return Type{Scalar::Packed, 2, {5, 5, 5, 1}, true, Type::None, 4};
    case GL_UNSIGNED_INT_8_8_8_8: return Type{Scalar::Packed, 4, {8, 8, 8, 8}, false, Type::None, 4};
    case GL_UNSIGNED_INT_8_8_8_8_REV: return Type{Scalar::Packed, 4, {8, 8, 8, 8}, true, Type::None, 4};
    case GL_UNSIGNED_INT_10_10_10_2: return Type{Scalar::Packed, 4, {10, 10, 10, 2}, false, Type::None, 4};
    case GL_UNSIGNED_INT_2_10_10_10_REV: return Type{Scalar::Packed, 4, {10, 10, 10, 2}, true, Type::None, 4};
    case GL_UNSIGNED_INT_10F_11F_11F_REV: return Type{Scalar::Packed, 4, {11, 11, 10}, true, Type::F11F11F10, 3};
    case GL_UNSIGNED_INT_5_9_9_9_REV: return Type{Scalar::Packed, 4, {9, 9, 9}, true, Type::E5999, 3};
    // Depth/stencil packed types are valid enums, never for color formats.
    case GL_UNSIGNED_INT_24_8: return Type{Scalar::Packed, 4, {24, 8}, false, Type::None, 0};
    case GL_FLOAT_32_UNSIGNED_INT_24_8_REV: return Type{Scalar::Packed, 8, {32, 8}, false, Type::None, 0};
    default: return std::nullopt;
  }
}

float half_to_float(uint16_t h) {
  const uint32_t sign = (h >> 15) & 1, exponent = (h >> 10) & 31, mantissa = h & 1023;
  float v;
  if (exponent == 0) v = std::ldexp(float(mantissa), -24);
  else if (exponent == 31) v = mantissa ? std::nanf("") : INFINITY;
  else v = std::ldexp(float(mantissa | 1024), int(exponent) - 25);
  return sign ? -v : v;
}

// Round to nearest even, overflow to infinity, NaN kept.
uint16_t float_to_half(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  const uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000);
  const uint32_t abs = x & 0x7FFFFFFF;
  if (abs > 0x7F800000) return static_cast<uint16_t>(sign | 0x7E00);
  if (abs >= 0x477FF000) return static_cast<uint16_t>(sign | 0x7C00);  // rounds to >= 65520: infinity
  if (abs < 0x38800000) {  // below the smallest normal half: a subnormal (or zero)
    const float a = std::fabs(f) * 16777216.0f;  // in units of 2^-24, exact
    return static_cast<uint16_t>(sign | static_cast<uint16_t>(std::nearbyint(a)));
  }
  uint32_t m = abs + 0xC8000000u;  // rebias the exponent by -112 (127 - 15), keeping the mantissa
  m = m + 0x0FFF + ((m >> 13) & 1);
  return static_cast<uint16_t>(sign | (m >> 13));
}

// Unsigned small floats of R11F_G11F_B10F (5-bit exponent, no sign).
float small_float(uint32_t bits, uint32_t mantissa_bits) {
  const uint32_t exponent = bits >> mantissa_bits, mantissa = bits & ((1u << mantissa_bits) - 1);
  if (exponent == 31) return mantissa ? std::nanf("") : INFINITY;
  if (exponent == 0) return std::ldexp(float(mantissa), -14 - int(mantissa_bits));
  return std::ldexp(float(mantissa | (1u << mantissa_bits)), int(exponent) - 15 - int(mantissa_bits));
}

template <class T>
T load(const std::byte* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

}  // namespace

ClearValue convert_clear_value(GLenum internalformat, GLenum format, GLenum type, const void* data) {
  ClearValue out;
  auto fail = [&](GLenum error, std::string message) {
    out.error = error;
    out.message = std::move(message);
    return out;
  };
  const auto internal = internal_format(internalformat);
  if (!internal) return fail(GL_INVALID_ENUM, "internalformat is not one of the sized formats of GL 4.6 table 8.12");
  out.element_bytes = internal->components * internal->bits / 8;
  const auto client = client_format(format);
  if (!client) return fail(GL_INVALID_ENUM, "format is not a pixel format");
  const auto t = client_type(type);
  if (!t) return fail(GL_INVALID_ENUM, "type is not a pixel type");
  if (!client->color) return fail(GL_INVALID_OPERATION, "a depth or stencil format cannot clear a color format");
  const bool integer_internal = internal->kind == Kind::Sint || internal->kind == Kind::Uint;
  if (client->integer != integer_internal) {
    return fail(GL_INVALID_OPERATION, integer_internal ? "an integer internalformat needs an integer format (*_INTEGER)"
                                                       : "an integer format (*_INTEGER) cannot clear a non-integer internalformat");
  }
  if (t->scalar == Scalar::Packed && t->components != client->count) {
    return fail(GL_INVALID_OPERATION, "the packed type does not match the number of components of format");
  }
  if (client->integer && (t->scalar == Scalar::F16 || t->scalar == Scalar::F32 || t->special != Type::None)) {
    return fail(GL_INVALID_OPERATION, "a floating-point type cannot be used with an integer format");
  }
  if (data == nullptr) return out;  // zeros

  // Unpack into RGBA: doubles for normalized/float paths, integers for the integer path. Missing G, B are 0 and A
  // is 1 (GL 4.6 §8.4.4.4).
  std::array<double, 4> rgba{0, 0, 0, 1};
  std::array<int64_t, 4> irgba{0, 0, 0, 1};
  const auto* p = static_cast<const std::byte*>(data);
  auto put = [&](uint32_t i, double normalized, int64_t raw) {
    rgba[static_cast<size_t>(client->slot[i])] = normalized;
    irgba[static_cast<size_t>(client->slot[i])] = raw;
  };
  if (t->scalar != Scalar::Packed) {
    for (uint32_t i = 0; i < client->count; ++i) {
      const std::byte* c = p + i * t->bytes;
      switch (t->scalar) {
        case Scalar::U8: { const auto v = load<uint8_t>(c); put(i, v / 255.0, v); break; }
        case Scalar::S8: { const auto v = load<int8_t>(c); put(i, std::max(v / 127.0, -1.0), v); break; }
        case Scalar::U16: { const auto v = load<uint16_t>(c); put(i, v / 65535.0, v); break; }
        case Scalar::S16: { const auto v = load<int16_t>(c); put(i, std::max(v / 32767.0, -1.0), v); break; }
        case Scalar::U32: { const auto v = load<uint32_t>(c); put(i, v / 4294967295.0, v); break; }
        case Scalar::S32: { const auto v = load<int32_t>(c); put(i, std::max(v / 2147483647.0, -1.0), v); break; }
        case Scalar::F16: put(i, half_to_float(load<uint16_t>(c)), 0); break;
        case Scalar::F32: put(i, load<float>(c), 0); break;
        case Scalar::Packed: break;
      }
    }
  } else {
    uint32_t word = 0;
    if (t->bytes == 1) word = load<uint8_t>(p);
    if (t->bytes == 2) word = load<uint16_t>(p);
    if (t->bytes == 4) word = load<uint32_t>(p);
    const uint32_t total = t->bytes * 8;
    uint32_t used = 0;
    std::array<uint32_t, 4> fields{};
    for (size_t i = 0; i < t->widths.size(); ++i) {
      const uint32_t w = t->widths[i];
      const uint32_t shift = t->reversed ? used : total - used - w;
      fields[i] = (word >> shift) & ((1u << w) - 1);
      used += w;
    }
    for (uint32_t i = 0; i < client->count; ++i) {
      const uint32_t w = t->widths[i];
      double v = fields[i] / double((1u << w) - 1);
      if (t->special == Type::F11F11F10) v = small_float(fields[i], w == 11 ? 6 : 5);
      if (t->special == Type::E5999) v = std::ldexp(double(fields[i]), int(word >> 27) - 15 - 9);
      put(i, v, fields[i]);
    }
  }

  // Convert to the internal representation.
  for (uint32_t i = 0; i < internal->components; ++i) {
    std::byte* dst = out.bytes.data() + i * internal->bits / 8;
    auto store = [&](auto value) { std::memcpy(dst, &value, sizeof value); };
    switch (internal->kind) {
      case Kind::Unorm: {
        const double c = std::isnan(rgba[i]) ? 0.0 : std::clamp(rgba[i], 0.0, 1.0);
        const double max = internal->bits == 8 ? 255.0 : 65535.0;
        const auto u = static_cast<uint32_t>(std::nearbyint(c * max));
        if (internal->bits == 8) store(static_cast<uint8_t>(u));
        else store(static_cast<uint16_t>(u));
        break;
      }
      case Kind::Float:
        if (internal->bits == 16) store(float_to_half(static_cast<float>(rgba[i])));
        else store(static_cast<float>(rgba[i]));
        break;
      case Kind::Sint: {
        const int64_t lo = -(int64_t(1) << (internal->bits - 1)), hi = (int64_t(1) << (internal->bits - 1)) - 1;
        const int64_t v = std::clamp(irgba[i], lo, hi);
        if (internal->bits == 8) store(static_cast<int8_t>(v));
        else if (internal->bits == 16) store(static_cast<int16_t>(v));
        else store(static_cast<int32_t>(v));
        break;
      }
      case Kind::Uint: {
        const int64_t hi = (int64_t(1) << internal->bits) - 1;
        const int64_t v = std::clamp<int64_t>(irgba[i], 0, hi);
        if (internal->bits == 8) store(static_cast<uint8_t>(v));
        else if (internal->bits == 16) store(static_cast<uint16_t>(v));
        else store(static_cast<uint32_t>(v));
        break;
      }
    }
  }
  return out;
}

}  // namespace bismuth::gl
