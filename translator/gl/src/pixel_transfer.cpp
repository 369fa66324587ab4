// GL pixel transfers on the CPU (pixel_transfer.hpp).
#include "pixel_transfer.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

// ES 3.2's luminance/alpha client formats; glcorearb.h (core profile) leaves them out.
#ifndef GL_LUMINANCE
#define GL_LUMINANCE 0x1909
#endif
#ifndef GL_LUMINANCE_ALPHA
#define GL_LUMINANCE_ALPHA 0x190A
#endif

namespace bismuth::gl {
namespace {

// ---- Client formats and types (GL 4.6 §8.4.4, the format and type tables) ----

enum class FormatKind : uint8_t { Color, Depth, Stencil, DepthStencil };

struct ClientFormat {
  uint8_t count = 0;
  std::array<uint8_t, 4> slot{};  // the RGBA channel (0..3) client component i holds
  bool integer = false;
  FormatKind kind = FormatKind::Color;
};

std::optional<ClientFormat> client_format(GLenum f) {
  switch (f) {
    case GL_RED: return ClientFormat{1, {0}};
    case GL_GREEN: return ClientFormat{1, {1}};
    case GL_BLUE: return ClientFormat{1, {2}};
    case GL_RG: return ClientFormat{2, {0, 1}};
    case GL_RGB: return ClientFormat{3, {0, 1, 2}};
    case GL_BGR: return ClientFormat{3, {2, 1, 0}};
    case GL_RGBA: return ClientFormat{4, {0, 1, 2, 3}};
    case GL_BGRA: return ClientFormat{4, {2, 1, 0, 3}};
    case GL_RED_INTEGER: return ClientFormat{1, {0}, true};
    case GL_GREEN_INTEGER: return ClientFormat{1, {1}, true};
    case GL_BLUE_INTEGER: return ClientFormat{1, {2}, true};
    case GL_RG_INTEGER: return ClientFormat{2, {0, 1}, true};
    case GL_RGB_INTEGER: return ClientFormat{3, {0, 1, 2}, true};
    case GL_BGR_INTEGER: return ClientFormat{3, {2, 1, 0}, true};
    case GL_RGBA_INTEGER: return ClientFormat{4, {0, 1, 2, 3}, true};
    case GL_BGRA_INTEGER: return ClientFormat{4, {2, 1, 0, 3}, true};
    case GL_DEPTH_COMPONENT: return ClientFormat{1, {0}, false, FormatKind::Depth};
    case GL_STENCIL_INDEX: return ClientFormat{1, {0}, true, FormatKind::Stencil};
    case GL_DEPTH_STENCIL: return ClientFormat{2, {0, 1}, false, FormatKind::DepthStencil};
    default: return std::nullopt;
  }
}

enum class Scalar : uint8_t { U8, S8, U16, S16, U32, S32, F16, F32, Packed };
enum class Special : uint8_t { None, UFloat, SharedExp, DepthStencil };

struct ClientType {
  Scalar scalar;
  uint8_t bytes;                    // one component; Packed: the whole group
  std::array<uint8_t, 4> widths{};  // Packed: widths of the format's components in format order
  bool reversed = false;            // Packed _REV: the first component in the least significant bits
  uint8_t components = 0;           // Packed: the component count the matching formats have
  Special special = Special::None;
};

std::optional<ClientType> client_type(GLenum t) {
  using S = Scalar;
  switch (t) {
    case GL_UNSIGNED_BYTE: return ClientType{S::U8, 1};
    case GL_BYTE: return ClientType{S::S8, 1};
    case GL_UNSIGNED_SHORT: return ClientType{S::U16, 2};
    case GL_SHORT: return ClientType{S::S16, 2};
    case GL_UNSIGNED_INT: return ClientType{S::U32, 4};
    case GL_INT: return ClientType{S::S32, 4};
    case GL_HALF_FLOAT: return ClientType{S::F16, 2};
    case GL_FLOAT: return ClientType{S::F32, 4};
    case GL_UNSIGNED_BYTE_3_3_2: return ClientType{S::Packed, 1, {3, 3, 2}, false, 3};
    case GL_UNSIGNED_BYTE_2_3_3_REV: return ClientType{S::Packed, 1, {3, 3, 2}, true, 3};
    case GL_UNSIGNED_SHORT_5_6_5: return ClientType{S::Packed, 2, {5, 6, 5}, false, 3};
    case GL_UNSIGNED_SHORT_5_6_5_REV: return ClientType{S::Packed, 2, {5, 6, 5}, true, 3};
    case GL_UNSIGNED_SHORT_4_4_4_4: return ClientType{S::Packed, 2, {4, 4, 4, 4}, false, 4};
    case GL_UNSIGNED_SHORT_4_4_4_4_REV: return ClientType{S::Packed, 2, {4, 4, 4, 4}, true, 4};
    case GL_UNSIGNED_SHORT_5_5_5_1: return ClientType{S::Packed, 2, {5, 5, 5, 1}, false, 4};
    case GL_UNSIGNED_SHORT_1_5_5_5_REV: return ClientType{S::Packed, 2, {5, 5, 5, 1}, true, 4};
    case GL_UNSIGNED_INT_8_8_8_8: return ClientType{S::Packed, 4, {8, 8, 8, 8}, false, 4};
    case GL_UNSIGNED_INT_8_8_8_8_REV: return ClientType{S::Packed, 4, {8, 8, 8, 8}, true, 4};
    case GL_UNSIGNED_INT_10_10_10_2: return ClientType{S::Packed, 4, {10, 10, 10, 2}, false, 4};
    case GL_UNSIGNED_INT_2_10_10_10_REV: return ClientType{S::Packed, 4, {10, 10, 10, 2}, true, 4};
    case GL_UNSIGNED_INT_10F_11F_11F_REV: return ClientType{S::Packed, 4, {11, 11, 10}, true, 3, Special::UFloat};
    case GL_UNSIGNED_INT_5_9_9_9_REV: return ClientType{S::Packed, 4, {9, 9, 9}, true, 3, Special::SharedExp};
    case GL_UNSIGNED_INT_24_8: return ClientType{S::Packed, 4, {24, 8}, false, 2, Special::DepthStencil};
    case GL_FLOAT_32_UNSIGNED_INT_24_8_REV: return ClientType{S::Packed, 8, {32, 8}, false, 2, Special::DepthStencil};
    default: return std::nullopt;
  }
}

bool is_float_type(const ClientType& t) {
  return t.scalar == Scalar::F16 || t.scalar == Scalar::F32 || t.special == Special::UFloat ||
         t.special == Special::SharedExp;
}

TransferResult error(GLenum e, std::string message) {
  return TransferResult{e, std::move(message)};
}

// The checks GL 4.6 shares between unpacking into a texture and packing out of one (§8.4.4, §8.5, §8.11.4,
// §18.2). `format`, `type` are known enums here.
TransferResult check_combination(const SizedFormat& f, GLenum format, const ClientFormat& cf, const ClientType& ct,
                                 bool pack) {
  // Packed types and their formats (the packed-type table: 3-component types with RGB (and BGR), 4-component types
  // with RGBA and BGRA, the integer forms allowed for the integer-valued ones; depth-stencil types with
  // DEPTH_STENCIL only).
  if (ct.special == Special::DepthStencil) {
    if (cf.kind != FormatKind::DepthStencil)
      return error(GL_INVALID_OPERATION,
                   "UNSIGNED_INT_24_8 and FLOAT_32_UNSIGNED_INT_24_8_REV need format DEPTH_STENCIL");
  } else if (cf.kind == FormatKind::DepthStencil) {
    return error(GL_INVALID_OPERATION,
                 "format DEPTH_STENCIL needs type UNSIGNED_INT_24_8 or "
                 "FLOAT_32_UNSIGNED_INT_24_8_REV");
  } else if (ct.scalar == Scalar::Packed) {
    const bool matches =
        ct.components == 3
            ? format == GL_RGB || (format == GL_RGB_INTEGER && ct.special == Special::None)
            : format == GL_RGBA || format == GL_BGRA || format == GL_RGBA_INTEGER || format == GL_BGRA_INTEGER;
    if (!matches)
      return error(GL_INVALID_OPERATION,
                   ct.components == 3
                       ? "a packed type of three components needs format RGB (or RGB_INTEGER)"
                       : "a packed type of four components needs format RGBA, BGRA or their _INTEGER forms");
  }
  // Depth and stencil formats against color internal formats (§8.5 for TexImage, §8.11.4 for GetTexImage).
  const bool depth_internal = is_depth(f);
  const bool stencil_internal = f.base_format == GL_DEPTH_STENCIL;
  switch (cf.kind) {
    case FormatKind::Color:
      if (is_depth_or_stencil(f))
        return error(GL_INVALID_OPERATION,
                     "a color format cannot transfer a depth, depth-stencil or stencil internal format");
      break;
    case FormatKind::Depth:
    case FormatKind::DepthStencil:
      if (!depth_internal)
        return error(GL_INVALID_OPERATION, "format DEPTH_COMPONENT or DEPTH_STENCIL needs a depth internal format");
      if (pack && cf.kind == FormatKind::DepthStencil && !stencil_internal)
        return error(GL_INVALID_OPERATION, "format DEPTH_STENCIL needs a depth-stencil internal format");
      break;
    case FormatKind::Stencil:
      // GL 4.4+ §8.5 (ARB_texture_stencil8's Errors): "An INVALID_OPERATION error is generated by TexImage*, ...
      // TexSubImage* if <format> is STENCIL_INDEX and the base internal format is not <STENCIL_INDEX>"; reads take
      // the stencil of a DEPTH_STENCIL texture too (§8.11.4: "... GetTexImage if <format> is STENCIL_INDEX and the
      // base internal format is not STENCIL_INDEX or DEPTH_STENCIL"; §18.2).
      if (!(is_stencil_index(f) || (pack && stencil_internal)))
        return error(GL_INVALID_OPERATION, "format STENCIL_INDEX needs a stencil internal format");
      break;
  }
  if (cf.kind == FormatKind::Color) {
    if (is_integer(f) && !cf.integer)
      return error(GL_INVALID_OPERATION,
                   std::string(f.name) + " is an integer format: format must be one of the *_INTEGER formats");
    if (!is_integer(f) && cf.integer)
      return error(GL_INVALID_OPERATION,
                   std::string(f.name) + " is not an integer format: format must not be a *_INTEGER format");
    if (cf.integer && is_float_type(ct))
      return error(GL_INVALID_OPERATION, "an integer format (*_INTEGER) cannot take a floating-point type");
  }
  return {};
}

TransferResult check_gl(GLenum internalformat, GLenum format, GLenum type, bool pack) {
  const SizedFormat* f = find_sized_format(internalformat);
  if (!f) return error(GL_INVALID_VALUE, "internalformat is not a sized internal format of GL 4.6 tables 8.12/8.13");
  const auto cf = client_format(format);
  if (!cf) return error(GL_INVALID_ENUM, "format is not a pixel format of GL 4.6 table 8.3");
  const auto ct = client_type(type);
  if (!ct) return error(GL_INVALID_ENUM, "type is not a pixel type of GL 4.6 table 8.2");
  return check_combination(*f, format, *cf, *ct, pack);
}

// ---- One pixel in RGBA ----

// A pixel between client and texel: `f` for floating-point / normalized paths, `i` for integer formats. Missing
// components are (0, 0, 0, 1) (GL 4.6 §8.4.4.4 "Conversion to RGB/RGBA"; the same defaults for reads).
struct Rgba {
  std::array<double, 4> f{0, 0, 0, 1};
  std::array<int64_t, 4> i{0, 0, 0, 1};
};

double unorm_to_float(uint64_t c, uint32_t bits) {
  return double(c) / double((uint64_t(1) << bits) - 1);
}
double snorm_to_float(int64_t c, uint32_t bits) {
  return std::max(double(c) / double((int64_t(1) << (bits - 1)) - 1), -1.0);
}
// §2.3.5.1: clamp to [0, 1], then the nearest of the 2^b values (ties up); NaN → 0.
uint64_t float_to_unorm(double f, uint32_t bits) {
  if (std::isnan(f)) return 0;
  return static_cast<uint64_t>(std::floor(std::clamp(f, 0.0, 1.0) * double((uint64_t(1) << bits) - 1) + 0.5));
}
// §2.3.5.2: clamp to [-1, 1], then the nearest value (ties away from zero); NaN → 0.
int64_t float_to_snorm(double f, uint32_t bits) {
  if (std::isnan(f)) return 0;
  return static_cast<int64_t>(std::round(std::clamp(f, -1.0, 1.0) * double((int64_t(1) << (bits - 1)) - 1)));
}
int64_t clamp_int(int64_t v, bool is_signed, uint32_t bits) {
  const int64_t lo = is_signed ? -(int64_t(1) << (bits - 1)) : 0;
  const int64_t hi = is_signed ? (int64_t(1) << (bits - 1)) - 1 : int64_t((uint64_t(1) << bits) - 1);
  return std::clamp(v, lo, hi);
}

uint64_t load_le(const std::byte* p, uint32_t bytes, bool swap) {
  uint64_t v = 0;
  for (uint32_t k = 0; k < bytes; ++k) {
    const uint32_t source = swap ? bytes - 1 - k : k;
    v |= uint64_t(std::to_integer<uint8_t>(p[source])) << (8 * k);
  }
  return v;
}
void store_le(std::byte* p, uint32_t bytes, uint64_t v, bool swap) {
  for (uint32_t k = 0; k < bytes; ++k) {
    const uint32_t target = swap ? bytes - 1 - k : k;
    p[target] = std::byte(static_cast<uint8_t>(v >> (8 * k)));
  }
}
int64_t sign_extend(uint64_t v, uint32_t bits) {
  const uint64_t m = uint64_t(1) << (bits - 1);
  return static_cast<int64_t>((v ^ m) - m);
}

// The shift of packed component i (format order).
uint32_t packed_shift(const ClientType& t, uint32_t i) {
  uint32_t before = 0;
  for (uint32_t k = 0; k < i; ++k) before += t.widths[k];
  if (t.reversed) return before;
  return t.bytes * 8 - before - t.widths[i];
}

// Client group → RGBA (§8.4.4.1 unpacking, §8.4.4.2 conversion to floating point for non-integer formats).
Rgba read_client(const ClientFormat& cf, const ClientType& t, const std::byte* p, bool swap) {
  Rgba out;
  if (t.scalar == Scalar::Packed) {
    const uint64_t word = load_le(p, t.bytes, swap);
    float shared[3]{};
    if (t.special == Special::SharedExp) rgb9e5_to_rgb(static_cast<uint32_t>(word), shared);
    for (uint32_t k = 0; k < cf.count; ++k) {
      const uint32_t w = t.widths[k];
      const uint64_t field = (word >> packed_shift(t, k)) & ((uint64_t(1) << w) - 1);
      const uint8_t s = cf.slot[k];
      out.i[s] = static_cast<int64_t>(field);
      if (t.special == Special::UFloat)
        out.f[s] = ufloat_to_float(static_cast<uint32_t>(field), w - 5);
      else if (t.special == Special::SharedExp)
        out.f[s] = shared[k];
      else
        out.f[s] = unorm_to_float(field, w);
    }
    return out;
  }
  for (uint32_t k = 0; k < cf.count; ++k) {
    const uint64_t raw = load_le(p + k * t.bytes, t.bytes, swap);
    const uint8_t s = cf.slot[k];
    const uint32_t bits = t.bytes * 8u;
    switch (t.scalar) {
      case Scalar::U8:
      case Scalar::U16:
      case Scalar::U32:
        out.i[s] = static_cast<int64_t>(raw);
        out.f[s] = unorm_to_float(raw, bits);
        break;
      case Scalar::S8:
      case Scalar::S16:
      case Scalar::S32:
        out.i[s] = sign_extend(raw, bits);
        out.f[s] = snorm_to_float(out.i[s], bits);
        break;
      case Scalar::F16: out.f[s] = half_to_float(static_cast<uint16_t>(raw)); break;
      case Scalar::F32: out.f[s] = std::bit_cast<float>(static_cast<uint32_t>(raw)); break;
      case Scalar::Packed: break;
    }
  }
  return out;
}

// RGBA → client group (§18.2.8 final conversion): floating-point values to unsigned/signed types clamped to [0, 1]
// / [-1, 1] and converted by §2.3.5; integer values clamped to the type's range.
void write_client(const ClientFormat& cf, const ClientType& t, const Rgba& v, bool integer, std::byte* p, bool swap) {
  if (t.scalar == Scalar::Packed) {
    uint64_t word = 0;
    if (t.special == Special::SharedExp) {
      word = rgb_to_rgb9e5(float(v.f[cf.slot[0]]), float(v.f[cf.slot[1]]), float(v.f[cf.slot[2]]));
    } else {
      for (uint32_t k = 0; k < cf.count; ++k) {
        const uint32_t w = t.widths[k];
        const uint8_t s = cf.slot[k];
        uint64_t field;
        if (integer)
          field = static_cast<uint64_t>(clamp_int(v.i[s], false, w));
        else if (t.special == Special::UFloat)
          field = float_to_ufloat(float(v.f[s]), w - 5);
        else
          field = float_to_unorm(v.f[s], w);
        word |= field << packed_shift(t, k);
      }
    }
    store_le(p, t.bytes, word, swap);
    return;
  }
  for (uint32_t k = 0; k < cf.count; ++k) {
    const uint8_t s = cf.slot[k];
    const uint32_t bits = t.bytes * 8u;
    uint64_t raw = 0;
    switch (t.scalar) {
      case Scalar::U8:
      case Scalar::U16:
      case Scalar::U32:
        raw = integer ? static_cast<uint64_t>(clamp_int(v.i[s], false, bits)) : float_to_unorm(v.f[s], bits);
        break;
      case Scalar::S8:
      case Scalar::S16:
      case Scalar::S32:
        raw = static_cast<uint64_t>(integer ? clamp_int(v.i[s], true, bits) : float_to_snorm(v.f[s], bits));
        break;
      case Scalar::F16: raw = float_to_half(float(v.f[s])); break;
      case Scalar::F32: raw = std::bit_cast<uint32_t>(float(v.f[s])); break;
      case Scalar::Packed: break;
    }
    store_le(p + k * t.bytes, t.bytes, raw, swap);
  }
}

// The bit position of R, G, B and A in the 16-bit Vulkan texels of RGB565, RGBA4 and RGB5_A1 (Vulkan names
// *_PACK16 components from the most significant bit down: R5G6B5 has R in bits 11-15, B4G4R4A4 B in 12-15 and A in
// 0-3, A1R5G5B5 A in bit 15 and B in 0-4).
std::array<uint32_t, 4> packed16_shifts(VkFormat format) {
  switch (format) {
    case VK_FORMAT_R5G6B5_UNORM_PACK16: return {11, 5, 0, 0};
    case VK_FORMAT_B4G4R4A4_UNORM_PACK16: return {4, 8, 12, 0};
    default: return {10, 5, 0, 15};  // A1R5G5B5_UNORM_PACK16
  }
}

// Texel of a sized format → RGBA (the components the base format lacks read as (0, 0, 0, 1)).
Rgba read_texel(const SizedFormat& f, const std::byte* p) {
  Rgba out;
  if (f.packed && f.vk_texel_bytes == 2) {
    const auto word = static_cast<uint32_t>(load_le(p, 2, false));
    const std::array<uint32_t, 4> shift = packed16_shifts(f.vk_format);
    for (uint32_t k = 0; k < f.components; ++k) {
      const uint32_t w = f.bits[k];
      out.f[k] = unorm_to_float((word >> shift[k]) & ((1u << w) - 1), w);
    }
    return out;
  }
  if (f.packed) {
    const auto word = static_cast<uint32_t>(load_le(p, 4, false));
    float shared[3]{};
    if (f.numeric == Numeric::SharedExp) rgb9e5_to_rgb(word, shared);
    uint32_t shift = 0;
    for (uint32_t k = 0; k < f.components; ++k) {
      const uint32_t w = f.bits[k];
      const uint32_t field = (word >> shift) & ((1u << w) - 1);
      shift += w;
      out.i[k] = field;
      if (f.numeric == Numeric::UFloat)
        out.f[k] = ufloat_to_float(field, w - 5);
      else if (f.numeric == Numeric::SharedExp)
        out.f[k] = shared[k];
      else
        out.f[k] = unorm_to_float(field, w);
    }
    return out;
  }
  const uint32_t bits = f.bits[0], bytes = bits / 8;
  for (uint32_t k = 0; k < f.components; ++k) {
    const uint64_t raw = load_le(p + k * bytes, bytes, false);
    switch (f.numeric) {
      case Numeric::Unorm: out.f[k] = unorm_to_float(raw, bits); break;
      case Numeric::Snorm: out.f[k] = snorm_to_float(sign_extend(raw, bits), bits); break;
      case Numeric::Float:
        out.f[k] =
            bits == 16 ? half_to_float(static_cast<uint16_t>(raw)) : std::bit_cast<float>(static_cast<uint32_t>(raw));
        break;
      case Numeric::Uint: out.i[k] = static_cast<int64_t>(raw); break;
      case Numeric::Sint: out.i[k] = sign_extend(raw, bits); break;
      default: break;
    }
  }
  return out;
}

// RGBA → texel of a sized format; components of the Vulkan format beyond the base format's are 1.
void write_texel(const SizedFormat& f, const Rgba& v, std::byte* p) {
  if (f.packed && f.vk_texel_bytes == 2) {
    const std::array<uint32_t, 4> shift = packed16_shifts(f.vk_format);
    uint32_t word = 0;
    for (uint32_t k = 0; k < f.components; ++k) {
      word |= static_cast<uint32_t>(float_to_unorm(v.f[k], f.bits[k])) << shift[k];
    }
    store_le(p, 2, word, false);
    return;
  }
  if (f.packed) {
    uint32_t word = 0;
    if (f.numeric == Numeric::SharedExp) {
      word = rgb_to_rgb9e5(float(v.f[0]), float(v.f[1]), float(v.f[2]));
    } else {
      uint32_t shift = 0;
      for (uint32_t k = 0; k < f.components; ++k) {
        const uint32_t w = f.bits[k];
        uint64_t field;
        if (f.numeric == Numeric::Uint)
          field = static_cast<uint64_t>(clamp_int(v.i[k], false, w));
        else if (f.numeric == Numeric::UFloat)
          field = float_to_ufloat(float(v.f[k]), w - 5);
        else
          field = float_to_unorm(v.f[k], w);
        word |= static_cast<uint32_t>(field) << shift;
        shift += w;
      }
    }
    store_le(p, 4, word, false);
    return;
  }
  const uint32_t bits = f.bits[0], bytes = bits / 8;
  for (uint32_t k = 0; k < f.vk_components; ++k) {
    const bool padding = k >= f.components;  // the alpha of a three-component format: 1
    uint64_t raw = 0;
    switch (f.numeric) {
      case Numeric::Unorm: raw = float_to_unorm(padding ? 1.0 : v.f[k], bits); break;
      case Numeric::Snorm: raw = static_cast<uint64_t>(float_to_snorm(padding ? 1.0 : v.f[k], bits)); break;
      case Numeric::Float: {
        const float value = padding ? 1.0f : float(v.f[k]);
        raw = bits == 16 ? float_to_half(value) : std::bit_cast<uint32_t>(value);
        break;
      }
      case Numeric::Uint: raw = static_cast<uint64_t>(padding ? 1 : clamp_int(v.i[k], false, bits)); break;
      case Numeric::Sint: raw = static_cast<uint64_t>(padding ? 1 : clamp_int(v.i[k], true, bits)); break;
      default: break;
    }
    store_le(p + k * bytes, bytes, raw, false);
  }
}

// ---- Depth (GL 4.6 §8.4.4.2, §8.5, §18.2.6; the texels are the depth aspect's, pixel_formats.hpp) ----

// DEPTH_COMPONENT32F and DEPTH32F_STENCIL8 hold float depth; the others unsigned normalized depth (table 8.13).
bool float_depth(const SizedFormat& f) {
  return f.internalformat == GL_DEPTH_COMPONENT32F || f.internalformat == GL_DEPTH32F_STENCIL8;
}

// A client group's depth value (§8.4.4.2: unsigned types by equation 2.1, signed by 2.2, floats as they are). The
// stencil index of a DEPTH_STENCIL group goes to the stencil plane (unpack_stencil_indices).
double read_client_depth(const ClientFormat& cf, const ClientType& t, const std::byte* p, bool swap) {
  // FLOAT_32_UNSIGNED_INT_24_8_REV: the first 32-bit word is the float depth, the second holds the stencil index
  // in its 8 least significant bits (SWAP_BYTES swaps each word).
  if (t.special == Special::DepthStencil && t.bytes == 8)
    return std::bit_cast<float>(static_cast<uint32_t>(load_le(p, 4, swap)));
  // UNSIGNED_INT_24_8 (depth in the 24 most significant bits) and the scalar types read as color components do.
  return read_client(cf, t, p, swap).f[0];
}

// The format's precision on a depth value: fixed-point formats clamp to [0, 1] and hold k / (2^b - 1); float
// depth is clamped to [0, 1] too, because Vulkan leaves depth-aspect copies of values outside [0, 1] undefined
// (without VK_EXT_depth_range_unrestricted). NaN becomes 0.
double depth_value(const SizedFormat& f, double d) {
  const double v = std::isnan(d) ? 0.0 : std::clamp(d, 0.0, 1.0);
  if (float_depth(f)) return double(float(v));
  return unorm_to_float(float_to_unorm(v, f.bits[0]), f.bits[0]);
}

// Depth value → the depth-aspect texel of f.vk_format (Vulkan 1.3 §20.4: D16 a 16-bit unorm, X8_D24 / D24S8 a
// 32-bit word with the depth in its 24 least significant bits, D32 a float).
void write_depth_texel(const SizedFormat& f, double d, std::byte* p) {
  const double v = depth_value(f, d);
  switch (f.vk_format) {
    case VK_FORMAT_D16_UNORM:
    case VK_FORMAT_R16_UNORM: store_le(p, 2, float_to_unorm(v, 16), false); break;  // R16: depth_color_storage
    case VK_FORMAT_X8_D24_UNORM_PACK32:
    case VK_FORMAT_D24_UNORM_S8_UINT: store_le(p, 4, float_to_unorm(v, 24), false); break;
    default: store_le(p, 4, std::bit_cast<uint32_t>(float(v)), false); break;  // D32_SFLOAT(_S8_UINT), R32_SFLOAT
  }
}

double read_depth_texel(const SizedFormat& f, const std::byte* p) {
  switch (f.vk_format) {
    case VK_FORMAT_D16_UNORM:
    case VK_FORMAT_R16_UNORM: return unorm_to_float(load_le(p, 2, false), 16);
    case VK_FORMAT_X8_D24_UNORM_PACK32:
    case VK_FORMAT_D24_UNORM_S8_UINT: return unorm_to_float(load_le(p, 4, false) & 0xFFFFFFu, 24);  // top 8: undefined
    default: return depth_value(f, std::bit_cast<float>(static_cast<uint32_t>(load_le(p, 4, false))));
  }
}

// ---- Stencil indices (STENCIL_INDEX8; GL 4.6 §8.4.4, §8.5, §18.2.8) ----

// A client stencil index → the 8-bit index of STENCIL_INDEX8. Indices are not normalized (§8.4.4.2's conversion to
// floating point "is not performed on indices"); the integer index keeps its 8 least significant bits, as the
// stencil buffer's s bits hold an index masked to 2^s - 1 (§17.4.5's clear and the stencil operations write the
// value so); float types are truncated to an integer first (NaN: 0).
uint8_t read_client_stencil(const ClientType& t, const std::byte* p, bool swap) {
  int64_t index = 0;
  switch (t.scalar) {
    case Scalar::U8:
    case Scalar::U16:
    case Scalar::U32: index = static_cast<int64_t>(load_le(p, t.bytes, swap)); break;
    case Scalar::S8:
    case Scalar::S16:
    case Scalar::S32: index = sign_extend(load_le(p, t.bytes, swap), t.bytes * 8u); break;
    case Scalar::F16:
    case Scalar::F32: {
      const double v = t.scalar == Scalar::F16 ? double(half_to_float(static_cast<uint16_t>(load_le(p, 2, swap))))
                                               : double(std::bit_cast<float>(uint32_t(load_le(p, 4, swap))));
      index = std::isnan(v) ? 0 : static_cast<int64_t>(std::clamp(v, -2147483648.0, 4294967295.0));
      break;
    }
    case Scalar::Packed:
      // UNSIGNED_INT_24_8: the index in the 8 least significant bits; FLOAT_32_UNSIGNED_INT_24_8_REV: in those of
      // the second word.
      index = static_cast<int64_t>(t.bytes == 8 ? load_le(p + 4, 4, swap) : load_le(p, 4, swap));
      break;
  }
  return static_cast<uint8_t>(index & 0xFF);
}

// An 8-bit stencil index → a client element (§18.2.8, final conversion: "For an index, if the type is not FLOAT
// or HALF_FLOAT, final conversion consists of masking the index with the value given in table 18.4" — 2^8 - 1
// for UNSIGNED_BYTE, 2^7 - 1 for BYTE, 2^16 - 1, 2^15 - 1, 2^32 - 1, 2^31 - 1 for the wider types; FLOAT and
// HALF_FLOAT take the index as a number).
void write_client_stencil(const ClientType& t, uint8_t index, std::byte* p, bool swap) {
  switch (t.scalar) {
    case Scalar::S8: store_le(p, 1, index & 0x7Fu, swap); break;
    case Scalar::F16: store_le(p, 2, float_to_half(float(index)), swap); break;
    case Scalar::F32: store_le(p, 4, std::bit_cast<uint32_t>(float(index)), swap); break;
    default: store_le(p, t.bytes, index, swap); break;  // every other mask keeps all 8 bits
  }
}

// A DEPTH_STENCIL group (GL 4.6 table 8.8 / §18.2.8): UNSIGNED_INT_24_8 is one word with the depth as a 24-bit
// unsigned normalized value in bits 8-31 and the stencil index in bits 0-7; FLOAT_32_UNSIGNED_INT_24_8_REV is a
// 32-bit float depth, then a word whose 8 least significant bits hold the index (its other 24 bits are unused:
// written as 0). SWAP_BYTES swaps each word.
void write_client_depth_stencil(const ClientType& t, double depth, uint8_t index, std::byte* p, bool swap) {
  if (t.bytes == 8) {
    store_le(p, 4, std::bit_cast<uint32_t>(float(depth)), swap);
    store_le(p + 4, 4, index, swap);
    return;
  }
  store_le(p, 4, (float_to_unorm(depth, 24) << 8) | index, swap);
}

bool mul_add(uint64_t a, uint64_t b, uint64_t c, uint64_t& out) {
  uint64_t product;
  return !__builtin_mul_overflow(a, b, &product) && !__builtin_add_overflow(product, c, &out);
}

// The layout and the byte range of the client region, checked against nothing but overflow.
TransferResult layout_for(GLenum format, GLenum type, const PixelStore& store, const Extent& e, ClientLayout& layout) {
  const auto l = client_layout(format, type, store, e.width, e.height, e.depth, e.volume);
  if (!l) return error(GL_INVALID_VALUE, "the pixel region's size overflows");
  layout = *l;
  return {};
}

}  // namespace

TransferResult set_pixel_store(PixelStore& pack, PixelStore& unpack, GLenum pname, int32_t value) {
  PixelStore* s = nullptr;
  int32_t PixelStore::*field = nullptr;
  bool* flag = nullptr;
  switch (pname) {
    case GL_PACK_ALIGNMENT: s = &pack, field = &PixelStore::alignment; break;
    case GL_PACK_ROW_LENGTH: s = &pack, field = &PixelStore::row_length; break;
    case GL_PACK_IMAGE_HEIGHT: s = &pack, field = &PixelStore::image_height; break;
    case GL_PACK_SKIP_PIXELS: s = &pack, field = &PixelStore::skip_pixels; break;
    case GL_PACK_SKIP_ROWS: s = &pack, field = &PixelStore::skip_rows; break;
    case GL_PACK_SKIP_IMAGES: s = &pack, field = &PixelStore::skip_images; break;
    case GL_PACK_SWAP_BYTES: flag = &pack.swap_bytes; break;
    case GL_PACK_LSB_FIRST: flag = &pack.lsb_first; break;
    case GL_UNPACK_ALIGNMENT: s = &unpack, field = &PixelStore::alignment; break;
    case GL_UNPACK_ROW_LENGTH: s = &unpack, field = &PixelStore::row_length; break;
    case GL_UNPACK_IMAGE_HEIGHT: s = &unpack, field = &PixelStore::image_height; break;
    case GL_UNPACK_SKIP_PIXELS: s = &unpack, field = &PixelStore::skip_pixels; break;
    case GL_UNPACK_SKIP_ROWS: s = &unpack, field = &PixelStore::skip_rows; break;
    case GL_UNPACK_SKIP_IMAGES: s = &unpack, field = &PixelStore::skip_images; break;
    case GL_UNPACK_SWAP_BYTES: flag = &unpack.swap_bytes; break;
    case GL_UNPACK_LSB_FIRST: flag = &unpack.lsb_first; break;
    case GL_PACK_COMPRESSED_BLOCK_WIDTH: s = &pack, field = &PixelStore::block_width; break;
    case GL_PACK_COMPRESSED_BLOCK_HEIGHT: s = &pack, field = &PixelStore::block_height; break;
    case GL_PACK_COMPRESSED_BLOCK_DEPTH: s = &pack, field = &PixelStore::block_depth; break;
    case GL_PACK_COMPRESSED_BLOCK_SIZE: s = &pack, field = &PixelStore::block_size; break;
    case GL_UNPACK_COMPRESSED_BLOCK_WIDTH: s = &unpack, field = &PixelStore::block_width; break;
    case GL_UNPACK_COMPRESSED_BLOCK_HEIGHT: s = &unpack, field = &PixelStore::block_height; break;
    case GL_UNPACK_COMPRESSED_BLOCK_DEPTH: s = &unpack, field = &PixelStore::block_depth; break;
    case GL_UNPACK_COMPRESSED_BLOCK_SIZE: s = &unpack, field = &PixelStore::block_size; break;
    default: return error(GL_INVALID_ENUM, "pname is not a pixel storage parameter");
  }
  if (flag) {
    *flag = value != 0;
    return {};
  }
  if (field == &PixelStore::alignment) {
    if (value != 1 && value != 2 && value != 4 && value != 8)
      return error(GL_INVALID_VALUE, "the alignment must be 1, 2, 4 or 8");
  } else if (value < 0) {
    return error(GL_INVALID_VALUE, "a pixel storage length or skip must not be negative");
  }
  s->*field = value;
  return {};
}

TransferResult check_unpack_gl(GLenum internalformat, GLenum format, GLenum type) {
  return check_gl(internalformat, format, type, false);
}

TransferResult check_pack_gl(GLenum internalformat, GLenum format, GLenum type) {
  return check_gl(internalformat, format, type, true);
}

TransferResult check_unpack_es(GLenum internalformat, GLenum format, GLenum type, bool ext_texture_norm16) {
  switch (format) {
    case GL_RED:
    case GL_RED_INTEGER:
    case GL_RG:
    case GL_RG_INTEGER:
    case GL_RGB:
    case GL_RGB_INTEGER:
    case GL_RGBA:
    case GL_RGBA_INTEGER:
    case GL_DEPTH_COMPONENT:
    case GL_DEPTH_STENCIL:
    case GL_STENCIL_INDEX:
    case GL_LUMINANCE_ALPHA:
    case GL_LUMINANCE:
    case GL_ALPHA: break;
    default: return error(GL_INVALID_ENUM, "format is not one of OpenGL ES 3.2's pixel formats");
  }
  switch (type) {
    case GL_UNSIGNED_BYTE:
    case GL_BYTE:
    case GL_UNSIGNED_SHORT:
    case GL_SHORT:
    case GL_UNSIGNED_INT:
    case GL_INT:
    case GL_HALF_FLOAT:
    case GL_FLOAT:
    case GL_UNSIGNED_SHORT_5_6_5:
    case GL_UNSIGNED_SHORT_4_4_4_4:
    case GL_UNSIGNED_SHORT_5_5_5_1:
    case GL_UNSIGNED_INT_2_10_10_10_REV:
    case GL_UNSIGNED_INT_10F_11F_11F_REV:
    case GL_UNSIGNED_INT_5_9_9_9_REV:
    case GL_UNSIGNED_INT_24_8:
    case GL_FLOAT_32_UNSIGNED_INT_24_8_REV: break;
    default: return error(GL_INVALID_ENUM, "type is not one of OpenGL ES 3.2's pixel types");
  }
  // Table 8.3: the unsized internal formats take their own format and these types.
  switch (internalformat) {
    case GL_RGB:
    case GL_RGBA:
    case GL_LUMINANCE_ALPHA:
    case GL_LUMINANCE:
    case GL_ALPHA: {
      const bool valid =
          format == internalformat &&
          (type == GL_UNSIGNED_BYTE || (format == GL_RGB && type == GL_UNSIGNED_SHORT_5_6_5) ||
           (format == GL_RGBA && (type == GL_UNSIGNED_SHORT_4_4_4_4 || type == GL_UNSIGNED_SHORT_5_5_5_1)));
      if (!valid)
        return error(
            GL_INVALID_OPERATION,
            "format and type are not a combination OpenGL ES 3.2 table 8.3 allows for an unsized internalformat");
      return {};
    }
    default: break;
  }
  const SizedFormat* f = find_sized_format(internalformat);
  const bool norm16 = f && (f->numeric == Numeric::Unorm || f->numeric == Numeric::Snorm) && f->bits[0] == 16;
  if (!f || (norm16 && !ext_texture_norm16))
    return error(GL_INVALID_VALUE, "internalformat is not a sized internal format of OpenGL ES 3.2 table 8.2");
  // Table 8.2: each sized format takes the client layout of its own precision; 16-bit float formats also take
  // FLOAT, R11F_G11F_B10F and RGB9_E5 also HALF_FLOAT and FLOAT, DEPTH_COMPONENT16 also UNSIGNED_INT (and the
  // 16-bit packed formats below).
  bool valid = format == f->natural_format && type == f->natural_type;
  if (format == f->natural_format) {
    if (f->numeric == Numeric::Float && f->bits[0] == 16) valid |= type == GL_FLOAT;
    if (f->numeric == Numeric::UFloat || f->numeric == Numeric::SharedExp)
      valid |= type == GL_HALF_FLOAT || type == GL_FLOAT;
    if (f->internalformat == GL_DEPTH_COMPONENT16) valid |= type == GL_UNSIGNED_INT;
    // RGB565, RGBA4 and RGB5_A1 also take UNSIGNED_BYTE, RGB5_A1 also UNSIGNED_INT_2_10_10_10_REV.
    if (f->packed && f->vk_texel_bytes == 2) {
      valid |= type == GL_UNSIGNED_BYTE || (f->internalformat == GL_RGB5_A1 && type == GL_UNSIGNED_INT_2_10_10_10_REV);
    }
  }
  if (!valid)
    return error(GL_INVALID_OPERATION,
                 std::string("format and type are not a combination OpenGL ES 3.2 table 8.2 allows for ") + f->name);
  return {};
}

FormatType es_implementation_read_format(GLenum internalformat) {
  const SizedFormat* f = find_sized_format(internalformat);
  if (!f || is_depth(*f)) return {};
  return {f->natural_format, f->natural_type};
}

TransferResult check_read_pixels_es(GLenum internalformat, GLenum format, GLenum type) {
  const SizedFormat* f = find_sized_format(internalformat);
  if (!f || is_depth(*f)) return error(GL_INVALID_OPERATION, "the read buffer is not a color buffer");
  const FormatType implementation = es_implementation_read_format(internalformat);
  if (format == implementation.format && type == implementation.type) return {};
  bool valid = false;
  switch (f->numeric) {
    case Numeric::Unorm: valid = format == GL_RGBA && type == GL_UNSIGNED_BYTE; break;
    case Numeric::Float:
    case Numeric::UFloat:
    case Numeric::SharedExp: valid = format == GL_RGBA && type == GL_FLOAT; break;
    case Numeric::Sint: valid = format == GL_RGBA_INTEGER && type == GL_INT; break;
    case Numeric::Uint: valid = format == GL_RGBA_INTEGER && type == GL_UNSIGNED_INT; break;
    default: break;
  }
  if (!valid)
    return error(GL_INVALID_OPERATION,
                 std::string("format and type are neither the pair OpenGL ES 3.2 §16.1.2 requires for ") + f->name +
                     " nor IMPLEMENTATION_COLOR_READ_FORMAT/TYPE");
  return {};
}

std::optional<ClientLayout> client_layout(GLenum format, GLenum type, const PixelStore& store, uint32_t width,
                                          uint32_t height, uint32_t depth, bool volume) {
  const auto cf = client_format(format);
  const auto ct = client_type(type);
  if (!cf || !ct) return std::nullopt;
  ClientLayout l;
  // §8.4.4.1: a group is n elements of s bytes (a packed type: one element of its size); a row of l groups is
  // padded to a multiple of the alignment a: k = nl when s >= a, else (a/s) * ceil(snl / a) elements.
  l.group_bytes = ct->scalar == Scalar::Packed ? ct->bytes : uint64_t(ct->bytes) * cf->count;
  const uint64_t row_groups = store.row_length > 0 ? uint64_t(store.row_length) : width;
  const uint64_t a = uint64_t(std::max(store.alignment, 1));
  uint64_t row_bytes;
  if (!mul_add(row_groups, l.group_bytes, a - 1, row_bytes)) return std::nullopt;
  l.row_stride = row_bytes / a * a;
  const uint64_t rows = volume && store.image_height > 0 ? uint64_t(store.image_height) : height;
  if (!mul_add(l.row_stride, rows, 0, l.image_stride)) return std::nullopt;
  uint64_t start = 0;
  if (!mul_add(uint64_t(store.skip_pixels), l.group_bytes, 0, start)) return std::nullopt;
  if (!mul_add(uint64_t(store.skip_rows), l.row_stride, start, start)) return std::nullopt;
  if (volume && !mul_add(uint64_t(store.skip_images), l.image_stride, start, start)) return std::nullopt;
  l.start_offset = start;
  if (width == 0 || height == 0 || depth == 0) return l;
  uint64_t end = 0;
  if (!mul_add(uint64_t(depth - 1), l.image_stride, start, end)) return std::nullopt;
  if (!mul_add(uint64_t(height - 1), l.row_stride, end, end)) return std::nullopt;
  if (!mul_add(uint64_t(width), l.group_bytes, end, end)) return std::nullopt;
  l.total_bytes = end;
  return l;
}

uint64_t texel_bytes(const SizedFormat& format, const Extent& e) {
  return uint64_t(format.vk_texel_bytes) * e.width * e.height * e.depth;
}

// Whether the client bytes of `client_format_enum`/`type` are the texel bytes themselves, so rows copy unchanged:
// the format's natural pair (table 8.28), no byte swapping, as many components as the Vulkan texel, not a packed
// word, and a conversion that is the identity for every value. Signed normalized formats are left out (-128 reads
// as -1.0, GL 4.6 §2.3.5.2, and goes back as -127), and so are depth formats. Why it matters: a 64 MiB RGBA8
// read-back texel by texel took about a second of CPU time, long enough for NVIDIA's GPU to drop its clocks for
// the dispatches that followed (docs/performance.md, "Image filter").
namespace {

bool bytes_are_texels(const SizedFormat& f, GLenum client_format_enum, GLenum type, const PixelStore& store,
                      const ClientLayout& layout) {
  const bool identity = f.numeric == Numeric::Unorm || f.numeric == Numeric::Uint || f.numeric == Numeric::Sint ||
                        f.numeric == Numeric::Float;
  return identity && client_format_enum == f.natural_format && type == f.natural_type && !store.swap_bytes &&
         !f.packed && f.vk_components == f.components && layout.group_bytes == f.vk_texel_bytes;
}

}  // namespace

bool client_pixels_are_texels(const SizedFormat& f, GLenum client_format_enum, GLenum type, const PixelStore& store,
                              const Extent& e, bool pack) {
  const TransferResult checked =
      pack ? check_pack_gl(f.internalformat, client_format_enum, type) : check_unpack_gl(f.internalformat, client_format_enum, type);
  if (!checked.ok() || is_depth(f)) return false;
  ClientLayout layout;
  if (!layout_for(client_format_enum, type, store, e, layout).ok()) return false;
  if (!bytes_are_texels(f, client_format_enum, type, store, layout)) return false;
  const uint64_t row_bytes = uint64_t{e.width} * f.vk_texel_bytes;
  return layout.start_offset == 0 && (e.height <= 1 || layout.row_stride == row_bytes) &&
         (e.depth <= 1 || layout.image_stride == row_bytes * e.height);
}

TransferResult unpack_pixels(const SizedFormat& f, GLenum client_format_enum, GLenum type, const PixelStore& store,
                             const Extent& e, const void* client, std::span<std::byte> texels) {
  if (auto r = check_unpack_gl(f.internalformat, client_format_enum, type); !r.ok()) return r;
  ClientLayout layout;
  if (auto r = layout_for(client_format_enum, type, store, e, layout); !r.ok()) return r;
  if (texels.size() < texel_bytes(f, e)) return error(GL_INVALID_OPERATION, "the texel span is too small");
  const auto* base = static_cast<const std::byte*>(client);
  std::byte* out = texels.data();
  if (bytes_are_texels(f, client_format_enum, type, store, layout)) {
    const size_t row_bytes = size_t{e.width} * f.vk_texel_bytes;
    for (uint32_t z = 0; z < e.depth; ++z)
      for (uint32_t y = 0; y < e.height; ++y, out += row_bytes)
        std::memcpy(out, base + layout.start_offset + z * layout.image_stride + y * layout.row_stride, row_bytes);
    return {};
  }
  const auto cf = *client_format(client_format_enum);
  const auto ct = *client_type(type);
  for (uint32_t z = 0; z < e.depth; ++z)
    for (uint32_t y = 0; y < e.height; ++y) {
      const std::byte* row = base + layout.start_offset + z * layout.image_stride + y * layout.row_stride;
      for (uint32_t x = 0; x < e.width; ++x, out += f.vk_texel_bytes) {
        const std::byte* group = row + x * layout.group_bytes;
        if (is_depth(f))
          write_depth_texel(f, read_client_depth(cf, ct, group, store.swap_bytes), out);
        else if (is_stencil_index(f))
          *out = std::byte{read_client_stencil(ct, group, store.swap_bytes)};
        else
          write_texel(f, read_client(cf, ct, group, store.swap_bytes), out);
      }
    }
  return {};
}

TransferResult unpack_stencil_indices(GLenum client_format_enum, GLenum type, const PixelStore& store, const Extent& e,
                                      const void* client, std::span<std::byte> indices) {
  if (client_format_enum != GL_DEPTH_STENCIL && client_format_enum != GL_STENCIL_INDEX)
    return error(GL_INVALID_OPERATION, "only DEPTH_STENCIL and STENCIL_INDEX pixels hold stencil indices");
  const GLenum checked_as = client_format_enum == GL_DEPTH_STENCIL ? GL_DEPTH24_STENCIL8 : GL_STENCIL_INDEX8;
  if (auto r = check_unpack_gl(checked_as, client_format_enum, type); !r.ok()) return r;
  ClientLayout layout;
  if (auto r = layout_for(client_format_enum, type, store, e, layout); !r.ok()) return r;
  if (indices.size() < uint64_t{e.width} * e.height * e.depth)
    return error(GL_INVALID_OPERATION, "the index span is too small");
  const auto* base = static_cast<const std::byte*>(client);
  const auto ct = *client_type(type);
  std::byte* out = indices.data();
  for (uint32_t z = 0; z < e.depth; ++z)
    for (uint32_t y = 0; y < e.height; ++y) {
      const std::byte* row = base + layout.start_offset + z * layout.image_stride + y * layout.row_stride;
      for (uint32_t x = 0; x < e.width; ++x)
        *out++ = std::byte{read_client_stencil(ct, row + x * layout.group_bytes, store.swap_bytes)};
    }
  return {};
}

TransferResult pack_pixels(const SizedFormat& f, GLenum client_format_enum, GLenum type, const PixelStore& store,
                           const Extent& e, std::span<const std::byte> texels, void* client,
                           std::span<const std::byte> stencil) {
  // DEPTH_STENCIL from a depth buffer and a separate stencil buffer (glReadPixels, §18.2.1: "values are taken from
  // both the depth buffer and the stencil buffer") follows the type rules of a depth-stencil internal format.
  const bool depth_stencil = client_format_enum == GL_DEPTH_STENCIL && is_depth(f);
  const GLenum checked_as = depth_stencil && !stencil.empty() ? GL_DEPTH24_STENCIL8 : f.internalformat;
  if (auto r = check_pack_gl(checked_as, client_format_enum, type); !r.ok()) return r;
  if (is_depth(f) && client_format_enum == GL_STENCIL_INDEX)
    return error(GL_INVALID_OPERATION, "stencil indices of a depth-stencil format are read from its stencil plane");
  const uint64_t count = uint64_t{e.width} * e.height * e.depth;
  if (depth_stencil && stencil.size() < count)
    return error(GL_INVALID_OPERATION, "DEPTH_STENCIL pixels need the stencil indices beside the depth texels");
  ClientLayout layout;
  if (auto r = layout_for(client_format_enum, type, store, e, layout); !r.ok()) return r;
  if (texels.size() < texel_bytes(f, e)) return error(GL_INVALID_OPERATION, "the texel span is too small");
  auto* base = static_cast<std::byte*>(client);
  const std::byte* in = texels.data();
  if (bytes_are_texels(f, client_format_enum, type, store, layout)) {
    const size_t row_bytes = size_t{e.width} * f.vk_texel_bytes;
    for (uint32_t z = 0; z < e.depth; ++z)
      for (uint32_t y = 0; y < e.height; ++y, in += row_bytes)
        std::memcpy(base + layout.start_offset + z * layout.image_stride + y * layout.row_stride, in, row_bytes);
    return {};
  }
  const auto cf = *client_format(client_format_enum);
  const auto ct = *client_type(type);
  for (uint32_t z = 0; z < e.depth; ++z)
    for (uint32_t y = 0; y < e.height; ++y) {
      std::byte* row = base + layout.start_offset + z * layout.image_stride + y * layout.row_stride;
      for (uint32_t x = 0; x < e.width; ++x, in += f.vk_texel_bytes) {
        if (is_stencil_index(f)) {
          write_client_stencil(ct, std::to_integer<uint8_t>(*in), row + x * layout.group_bytes, store.swap_bytes);
          continue;
        }
        if (depth_stencil) {
          const uint64_t i = (uint64_t{z} * e.height + y) * e.width + x;
          write_client_depth_stencil(ct, read_depth_texel(f, in), std::to_integer<uint8_t>(stencil[i]),
                                     row + x * layout.group_bytes, store.swap_bytes);
          continue;
        }
        Rgba v;
        if (is_depth(f))
          v.f[0] = read_depth_texel(f, in);  // §18.2.6: DEPTH_COMPONENT reads the depth value
        else
          v = read_texel(f, in);
        write_client(cf, ct, v, is_integer(f), row + x * layout.group_bytes, store.swap_bytes);
      }
    }
  return {};
}

}  // namespace bismuth::gl
