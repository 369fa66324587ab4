// Component conversions of pixel transfers, against values worked out by hand from the spec: GL 4.6 §2.3.4
// (16-bit and unsigned 11/10-bit floats), §2.3.5 (fixed-point ↔ floating-point), §8.4.4 (unpacking), §8.5.2
// (shared exponent), §18.2.8 (final conversion of reads).
#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "pixel_transfer.hpp"

using namespace bismuth::gl;

namespace {

template <class Out, size_t N, class In, size_t M>
std::array<Out, N> unpack(GLenum internalformat, GLenum format, GLenum type, const std::array<In, M>& client) {
  std::array<Out, N> texels{};
  const auto r = unpack_pixels(*find_sized_format(internalformat), format, type, PixelStore{}, {}, client.data(),
                               std::as_writable_bytes(std::span(texels)));
  INFO(r.message);
  REQUIRE(r.ok());
  return texels;
}

template <class Out, size_t N, class In, size_t M>
std::array<Out, N> pack(GLenum internalformat, GLenum format, GLenum type, const std::array<In, M>& texels) {
  std::array<Out, N> client{};
  const auto r = pack_pixels(*find_sized_format(internalformat), format, type, PixelStore{}, {},
                             std::as_bytes(std::span(texels)), client.data());
  INFO(r.message);
  REQUIRE(r.ok());
  return client;
}

float bits_float(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

}  // namespace

// §2.3.5.1: "f' = clamp(f, 0, 1) ... c = convert_float_uint(f' × (2^b − 1), b)", the nearest value preferred:
// 0.5 × 255 = 127.5 → 128 (the tie goes up), 1e9 clamps to 1.0 → 255. NaN: "the result of providing a value that
// is not a floating-point number ... is unspecified" but must not terminate; Bismuth stores 0.
TEST_CASE("float to unsigned normalized 8-bit", "[pixels][convert]") {
  const auto t = unpack<uint8_t, 4>(GL_RGBA8, GL_RGBA, GL_FLOAT, std::array<float, 4>{0.5f, 1e9f, -1.0f, kNaN});
  CHECK(t == std::array<uint8_t, 4>{128, 255, 0, 0});
  const auto u = unpack<uint8_t, 4>(GL_RGBA8, GL_RGBA, GL_FLOAT, std::array<float, 4>{0.2f, 0.998f, 1.0f, 0.0f});
  CHECK(u == std::array<uint8_t, 4>{51, 254, 255, 0});  // 0.2 × 255 = 51, 0.998 × 255 = 254.49
}

// §2.3.5.2: "f' = clamp(f, −1, 1) ... c = convert_float_int(f' × (2^(b−1) − 1), b)": −1.0 → −127, 0.5 × 127 =
// 63.5 → 64, 2.0 → 127. §2.3.5.2 (to float): "f = max(c / (2^(b−1) − 1), −1.0)": both −128 and −127 are −1.0, so a
// BYTE −128 stores as −127.
TEST_CASE("float and bytes to signed normalized 8-bit", "[pixels][convert]") {
  const auto t = unpack<int8_t, 4>(GL_RGBA8_SNORM, GL_RGBA, GL_FLOAT, std::array<float, 4>{-1.0f, 0.5f, 2.0f, -0.0f});
  CHECK(t == std::array<int8_t, 4>{-127, 64, 127, 0});
  const auto b = unpack<int8_t, 1>(GL_R8_SNORM, GL_RED, GL_BYTE, std::array<int8_t, 1>{-128});
  CHECK(b[0] == -127);
  // UNSIGNED_BYTE 255 is 1.0 → 127; 128/255 × 127 = 63.75 → 64.
  const auto u = unpack<int8_t, 2>(GL_RG8_SNORM, GL_RG, GL_UNSIGNED_BYTE, std::array<uint8_t, 2>{255, 128});
  CHECK(u == std::array<int8_t, 2>{127, 64});
}

// §2.3.5.1 (to float): "f = c / (2^b − 1)".
TEST_CASE("unsigned bytes to float formats", "[pixels][convert]") {
  const auto t = unpack<float, 4>(GL_RGBA32F, GL_RGBA, GL_UNSIGNED_BYTE, std::array<uint8_t, 4>{0, 255, 51, 128});
  CHECK(t[0] == 0.0f);
  CHECK(t[1] == 1.0f);
  CHECK(t[2] == float(51.0 / 255.0));
  CHECK(t[3] == float(128.0 / 255.0));
  // UNSIGNED_SHORT 65535 → 1.0, 32768 → 32768/65535.
  const auto s = unpack<float, 2>(GL_RG32F, GL_RG, GL_UNSIGNED_SHORT, std::array<uint16_t, 2>{65535, 32768});
  CHECK(s[0] == 1.0f);
  CHECK(s[1] == float(32768.0 / 65535.0));
}

// "the components ... are assigned R, G, B, A ... [missing] G and B are set to 0 and A to 1" (§8.4.4.4, conversion
// to RGB/RGBA), and BGRA's first component is blue.
TEST_CASE("missing components and BGRA order on unpack", "[pixels][convert]") {
  const auto bgra = unpack<uint8_t, 4>(GL_RGBA8, GL_BGRA, GL_UNSIGNED_BYTE, std::array<uint8_t, 4>{10, 20, 30, 40});
  CHECK(bgra == std::array<uint8_t, 4>{30, 20, 10, 40});
  const auto red = unpack<uint8_t, 4>(GL_RGBA8, GL_RED, GL_UNSIGNED_BYTE, std::array<uint8_t, 1>{77});
  CHECK(red == std::array<uint8_t, 4>{77, 0, 0, 255});
  const auto green = unpack<float, 4>(GL_RGBA32F, GL_GREEN, GL_FLOAT, std::array<float, 1>{0.25f});
  CHECK(green == std::array<float, 4>{0.0f, 0.25f, 0.0f, 1.0f});
  const auto bgr = unpack<uint8_t, 4>(GL_RGBA8UI, GL_BGR_INTEGER, GL_UNSIGNED_BYTE, std::array<uint8_t, 3>{1, 2, 3});
  CHECK(bgr == std::array<uint8_t, 4>{3, 2, 1, 1});
}

// UNSIGNED_INT_2_10_10_10_REV with RGBA: R in bits 0-9, G 10-19, B 20-29, A 30-31, each unsigned normalized to its
// own width; A2B10G10R10 in Vulkan is the same word. 0.5 × 1023 = 511.5 → 512, 1/3 × 3 = 1.
TEST_CASE("RGB10_A2 from floats and from its packed type", "[pixels][convert]") {
  const auto t = unpack<uint32_t, 1>(GL_RGB10_A2, GL_RGBA, GL_FLOAT, std::array<float, 4>{1.0f, 0.0f, 0.5f, 1.0f / 3});
  CHECK(t[0] == (1023u | 0u << 10 | 512u << 20 | 1u << 30));
  const auto p =
      unpack<uint32_t, 1>(GL_RGB10_A2, GL_RGBA, GL_UNSIGNED_INT_2_10_10_10_REV, std::array<uint32_t, 1>{0xC0100401u});
  CHECK(p[0] == 0xC0100401u);
  // RGBA/UNSIGNED_BYTE into 10 bits: 255 → 1.0 → 1023, 128 → 128/255 × 1023 = 513.5 → 514, alpha 85/255 × 3 = 1.
  const auto b = unpack<uint32_t, 1>(GL_RGB10_A2, GL_RGBA, GL_UNSIGNED_BYTE, std::array<uint8_t, 4>{255, 128, 0, 85});
  CHECK(b[0] == (1023u | 514u << 10 | 0u << 20 | 1u << 30));
}

// §2.3.4.2 16-bit floats: 1 sign, 5 exponent (bias 15), 10 mantissa bits. 65520 is halfway between 65504 (the
// largest finite) and 65536, and ties to even go to infinity; 2^-25 ties between 0 and 2^-24 and goes to 0.
TEST_CASE("half-float encoding", "[pixels][convert]") {
  CHECK(float_to_half(1.0f) == 0x3C00);
  CHECK(float_to_half(-2.0f) == 0xC000);
  CHECK(float_to_half(0.5f) == 0x3800);
  CHECK(float_to_half(65504.0f) == 0x7BFF);
  CHECK(float_to_half(65519.0f) == 0x7BFF);
  CHECK(float_to_half(65520.0f) == 0x7C00);
  CHECK(float_to_half(1.0f / 3.0f) == 0x3555);
  CHECK(float_to_half(std::ldexp(1.0f, -24)) == 0x0001);
  CHECK(float_to_half(std::ldexp(1.0f, -25)) == 0x0000);
  CHECK(float_to_half(std::ldexp(3.0f, -25)) == 0x0002);
  CHECK(float_to_half(std::ldexp(1.0f, -14)) == 0x0400);
  CHECK(float_to_half(-0.0f) == 0x8000);
  CHECK(float_to_half(kInf) == 0x7C00);
  CHECK((float_to_half(kNaN) & 0x7C00) == 0x7C00);
  CHECK((float_to_half(kNaN) & 0x03FF) != 0);
  CHECK(half_to_float(0x3555) == float(0x155 + 1024) / 1024.0f / 4.0f);  // exponent 13, mantissa 0x155
  CHECK(half_to_float(0x0001) == std::ldexp(1.0f, -24));
  CHECK(half_to_float(0xFC00) == -kInf);
  CHECK(std::isnan(half_to_float(0x7E00)));
  const auto t =
      unpack<float, 4>(GL_RGBA32F, GL_RGBA, GL_HALF_FLOAT, std::array<uint16_t, 4>{0x3C00, 0xC000, 0x3800, 0x7C00});
  CHECK(t == std::array<float, 4>{1.0f, -2.0f, 0.5f, kInf});
  const auto h = unpack<uint16_t, 4>(GL_RGBA16F, GL_RGBA, GL_FLOAT, std::array<float, 4>{1.0f, 65504.0f, 1e9f, -0.5f});
  CHECK(h == std::array<uint16_t, 4>{0x3C00, 0x7BFF, 0x7C00, 0xB800});
}

// §2.3.4.3/4 (EXT_packed_float): unsigned 11-bit floats (5-bit exponent, 6-bit mantissa) and 10-bit ones (5-bit
// mantissa). "negative values are converted to zero ... finite positive values greater than 65024 (the maximum
// finite representable unsigned 11-bit floating-point value) are converted to 65024 ... negative infinity is
// converted to zero. Positive infinity is converted to positive infinity; and both positive and negative NaN are
// converted to positive NaN." The 10-bit maximum is 64512.
TEST_CASE("unsigned 11- and 10-bit float encoding", "[pixels][convert]") {
  CHECK(float_to_ufloat(1.0f, 6) == 15u << 6);
  CHECK(float_to_ufloat(1.0f, 5) == 15u << 5);
  CHECK(float_to_ufloat(65024.0f, 6) == 0x7BF);
  CHECK(float_to_ufloat(1e9f, 6) == 0x7BF);
  CHECK(float_to_ufloat(1e9f, 5) == 0x3DF);
  CHECK(float_to_ufloat(-5.0f, 6) == 0);
  CHECK(float_to_ufloat(-kInf, 6) == 0);
  CHECK(float_to_ufloat(kInf, 6) == 0x7C0);
  CHECK((float_to_ufloat(kNaN, 6) >> 6) == 31);
  CHECK((float_to_ufloat(-kNaN, 5) & 31) != 0);
  CHECK(float_to_ufloat(std::ldexp(1.0f, -20), 6) == 1);  // the smallest denormal: 2^-14 × 1/64
  CHECK(ufloat_to_float(0x7BF, 6) == 65024.0f);
  CHECK(ufloat_to_float(0x3DF, 5) == 64512.0f);
  CHECK(ufloat_to_float(0x7C0, 6) == kInf);
  // RGB/UNSIGNED_BYTE white into R11F_G11F_B10F: 1.0 in each field, R in bits 0-10, G 11-21, B 22-31.
  const auto t =
      unpack<uint32_t, 1>(GL_R11F_G11F_B10F, GL_RGB, GL_UNSIGNED_BYTE, std::array<uint8_t, 3>{255, 255, 255});
  CHECK(t[0] == (0x3C0u | 0x3C0u << 11 | 0x1E0u << 22));
  CHECK(t[0] == 0x781E03C0u);
}

// §8.5.2 with N = 9, B = 15, Emax = 31: sharedexp_max = 511/512 × 2^16 = 65408; exp_shared = max(−16,
// floor(log2(max_c))) + 16, raised by one when max_c rounds to 2^9; each mantissa floor(c / 2^(exp_shared − 24) +
// 0.5). (1.0, 0.5, 0): exp 16, mantissas 256, 128, 0.
TEST_CASE("shared-exponent RGB9_E5 encoding", "[pixels][convert]") {
  CHECK(rgb_to_rgb9e5(1.0f, 0.5f, 0.0f) == (256u | 128u << 9 | 0u << 18 | 16u << 27));
  CHECK(rgb_to_rgb9e5(65408.0f, 0.0f, 0.0f) == (511u | 31u << 27));
  CHECK(rgb_to_rgb9e5(1e9f, -1.0f, kNaN) == (511u | 31u << 27));
  CHECK(rgb_to_rgb9e5(0.0f, 0.0f, 0.0f) == 0u);
  // 0.99999 rounds up to 2^9 at exponent 15, so the exponent becomes 16: mantissa 256.
  CHECK(rgb_to_rgb9e5(0.99999f, 0.0f, 0.0f) == (256u | 16u << 27));
  float rgb[3];
  rgb9e5_to_rgb(256u | 128u << 9 | 3u << 18 | 16u << 27, rgb);
  CHECK(rgb[0] == 1.0f);
  CHECK(rgb[1] == 0.5f);
  CHECK(rgb[2] == 3.0f / 256.0f);
}

// Integer formats take the client integers unconverted; values outside the internal format's range are clamped
// (GL leaves this to the implementation; ES allows only matching types).
TEST_CASE("integer transfers", "[pixels][convert]") {
  const auto u8 = unpack<uint8_t, 4>(GL_RGBA8UI, GL_RGBA_INTEGER, GL_INT, std::array<int32_t, 4>{-5, 300, 70000, 7});
  CHECK(u8 == std::array<uint8_t, 4>{0, 255, 255, 7});
  const auto i16 =
      unpack<int16_t, 4>(GL_RGBA16I, GL_RGBA_INTEGER, GL_INT, std::array<int32_t, 4>{-5, 300, 70000, -70000});
  CHECK(i16 == std::array<int16_t, 4>{-5, 300, 32767, -32768});
  const auto i32 = unpack<int32_t, 1>(GL_R32I, GL_RED_INTEGER, GL_UNSIGNED_INT, std::array<uint32_t, 1>{0xFFFFFFFFu});
  CHECK(i32[0] == 2147483647);
  // RGB integer formats are stored with alpha 1 (an integer 1, not a normalized one).
  const auto rgb =
      unpack<uint16_t, 4>(GL_RGB16UI, GL_RGB_INTEGER, GL_UNSIGNED_SHORT, std::array<uint16_t, 3>{1, 2, 65535});
  CHECK(rgb == std::array<uint16_t, 4>{1, 2, 65535, 1});
  const auto a2 =
      unpack<uint32_t, 1>(GL_RGB10_A2UI, GL_RGBA_INTEGER, GL_UNSIGNED_BYTE, std::array<uint8_t, 4>{200, 1, 2, 9});
  CHECK(a2[0] == (200u | 1u << 10 | 2u << 20 | 3u << 30));  // alpha 9 clamps to the 2-bit maximum 3
}

// §18.2.8: "For an integer RGBA color, each component is clamped to the representable range of type."
TEST_CASE("integer reads clamp to the type", "[pixels][convert][pack]") {
  const auto c =
      pack<uint8_t, 4>(GL_RGBA32I, GL_RGBA_INTEGER, GL_UNSIGNED_BYTE, std::array<int32_t, 4>{-5, 300, 70000, 7});
  CHECK(c == std::array<uint8_t, 4>{0, 255, 255, 7});
  const auto s = pack<int8_t, 2>(GL_RG32UI, GL_RG_INTEGER, GL_BYTE, std::array<uint32_t, 2>{200, 3});
  CHECK(s == std::array<int8_t, 2>{127, 3});
}

// §18.2.8: "For a floating-point RGBA color, if type is not one of FLOAT, HALF_FLOAT, UNSIGNED_INT_5_9_9_9_REV, or
// UNSIGNED_INT_10F_11F_11F_REV, each component is first clamped to [0, 1] if type is unsigned, or [−1, 1] if type
// is signed, and then converted [per §2.3.5]". Texture reads of missing components give 0, 0, 1 (§8.11: R →
// (R, 0, 0, 1)).
TEST_CASE("reads of normalized and float textures", "[pixels][convert][pack]") {
  const std::array<uint8_t, 4> rgba8 = {255, 0, 128, 64};
  const auto f = pack<float, 4>(GL_RGBA8, GL_RGBA, GL_FLOAT, rgba8);
  CHECK(f == std::array<float, 4>{1.0f, 0.0f, float(128.0 / 255.0), float(64.0 / 255.0)});
  const auto us = pack<uint16_t, 1>(GL_RGBA8, GL_RED, GL_UNSIGNED_SHORT, rgba8);
  CHECK(us[0] == 65535);
  // To BYTE: 1.0 → 127, 128/255 × 127 = 63.75 → 64, 64/255 × 127 = 31.87 → 32.
  const auto b = pack<int8_t, 4>(GL_RGBA8, GL_RGBA, GL_BYTE, rgba8);
  CHECK(b == std::array<int8_t, 4>{127, 0, 64, 32});
  const auto clamped =
      pack<uint8_t, 4>(GL_RGBA32F, GL_RGBA, GL_UNSIGNED_BYTE, std::array<float, 4>{-1.0f, 2.0f, 0.5f, 0.25f});
  CHECK(clamped == std::array<uint8_t, 4>{0, 255, 128, 64});
  const auto r8 = pack<uint8_t, 4>(GL_R8, GL_RGBA, GL_UNSIGNED_BYTE, std::array<uint8_t, 1>{200});
  CHECK(r8 == std::array<uint8_t, 4>{200, 0, 0, 255});
  const auto rg = pack<float, 4>(GL_RG32F, GL_RGBA, GL_FLOAT, std::array<float, 2>{-3.0f, 5.0f});
  CHECK(rg == std::array<float, 4>{-3.0f, 5.0f, 0.0f, 1.0f});  // FLOAT: no clamp
  // An RGB8 texture reads alpha 1 whatever its Vulkan texel's padding byte holds.
  const auto rgb = pack<uint8_t, 4>(GL_RGB8, GL_RGBA, GL_UNSIGNED_BYTE, std::array<uint8_t, 4>{1, 2, 3, 7});
  CHECK(rgb == std::array<uint8_t, 4>{1, 2, 3, 255});
  // sRGB textures read back their encoded values.
  const auto srgb =
      pack<uint8_t, 4>(GL_SRGB8_ALPHA8, GL_RGBA, GL_UNSIGNED_BYTE, std::array<uint8_t, 4>{10, 20, 30, 40});
  CHECK(srgb == std::array<uint8_t, 4>{10, 20, 30, 40});
  // Signed normalized reads to FLOAT: max(c / 127, −1).
  const auto sn = pack<float, 2>(GL_RG8_SNORM, GL_RG, GL_FLOAT, std::array<int8_t, 2>{-128, 127});
  CHECK(sn == std::array<float, 2>{-1.0f, 1.0f});
}

TEST_CASE("reads into packed types", "[pixels][convert][pack]") {
  // BGRA/UNSIGNED_INT_8_8_8_8_REV: the first component (B) in the least significant byte.
  const auto bgra =
      pack<uint32_t, 1>(GL_RGBA8, GL_BGRA, GL_UNSIGNED_INT_8_8_8_8_REV, std::array<uint8_t, 4>{1, 2, 3, 4});
  CHECK(bgra[0] == 0x04010203u);
  // RGB/UNSIGNED_SHORT_5_6_5: R in bits 11-15, G in 5-10, B in 0-4.
  const auto rgb565 =
      pack<uint16_t, 1>(GL_RGBA8, GL_RGB, GL_UNSIGNED_SHORT_5_6_5, std::array<uint8_t, 4>{255, 0, 255, 0});
  CHECK(rgb565[0] == 0xF81F);
  const auto f11 =
      pack<uint32_t, 1>(GL_RGBA32F, GL_RGB, GL_UNSIGNED_INT_10F_11F_11F_REV, std::array<float, 4>{1, 1, 1, 0});
  CHECK(f11[0] == 0x781E03C0u);
  const auto e5 =
      pack<uint32_t, 1>(GL_RGBA32F, GL_RGB, GL_UNSIGNED_INT_5_9_9_9_REV, std::array<float, 4>{1, 0.5f, 0, 0});
  CHECK(e5[0] == (256u | 128u << 9 | 16u << 27));
  const auto rgba4 =
      pack<uint16_t, 1>(GL_RGBA8, GL_RGBA, GL_UNSIGNED_SHORT_4_4_4_4, std::array<uint8_t, 4>{255, 0, 136, 17});
  CHECK(rgba4[0] == 0xF081);  // 136/255 × 15 = 8, 17/255 × 15 = 1
  const auto half = pack<uint16_t, 3>(GL_R11F_G11F_B10F, GL_RGB, GL_HALF_FLOAT, std::array<uint32_t, 1>{0x781E03C0u});
  CHECK(half == std::array<uint16_t, 3>{0x3C00, 0x3C00, 0x3C00});
  CHECK(bits_float(0x3F800000u) == 1.0f);
}

// Depth (GL 4.6 §8.4.4.2: unsigned types by equation 2.1, floats as they are; fixed-point depth is clamped to
// [0, 1] and takes the nearest k / (2^b - 1)). The texels are the Vulkan depth aspect's (Vulkan 1.3 §20.4: D16 a
// 16-bit unorm, X8_D24 a 32-bit word with the depth in bits 0-23, D32 a float).
TEST_CASE("depth values unpack to depth-aspect texels and pack back", "[pixels][convert]") {
  // (The helpers transfer one pixel.) 0.5 × 65535 = 32767.5 → 32768; −2 and 7 are clamped.
  auto d16 = [](float v) {
    return unpack<uint16_t, 1>(GL_DEPTH_COMPONENT16, GL_DEPTH_COMPONENT, GL_FLOAT, std::array<float, 1>{v})[0];
  };
  CHECK(d16(-2.0f) == 0);
  CHECK(d16(0.5f) == 32768);
  CHECK(d16(7.0f) == 65535);
  CHECK(unpack<uint32_t, 1>(GL_DEPTH_COMPONENT24, GL_DEPTH_COMPONENT, GL_UNSIGNED_INT,
                            std::array<uint32_t, 1>{0xFFFFFFFFu}) == std::array<uint32_t, 1>{0xFFFFFFu});
  // UNSIGNED_INT_24_8: the depth is the 24 most significant bits, the stencil index (the stencil plane's, below) the
  // 8 least.
  CHECK(unpack<uint32_t, 1>(GL_DEPTH24_STENCIL8, GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8,
                            std::array<uint32_t, 1>{0x123456u << 8 | 0xAB}) == std::array<uint32_t, 1>{0x123456u});
  // FLOAT_32_UNSIGNED_INT_24_8_REV: a float depth, then the stencil word.
  const auto d32 = unpack<float, 1>(GL_DEPTH32F_STENCIL8, GL_DEPTH_STENCIL, GL_FLOAT_32_UNSIGNED_INT_24_8_REV,
                                    std::array<float, 2>{0.375f, 0.0f});
  CHECK(d32[0] == 0.375f);
  CHECK(unpack<float, 1>(GL_DEPTH_COMPONENT32F, GL_DEPTH_COMPONENT, GL_UNSIGNED_SHORT,
                         std::array<uint16_t, 1>{65535})[0] == 1.0f);
  // §18.2.8: DEPTH_COMPONENT reads convert the depth value to the type (UNSIGNED_SHORT: the nearest of 2^16 - 1).
  CHECK(pack<uint16_t, 1>(GL_DEPTH_COMPONENT24, GL_DEPTH_COMPONENT, GL_UNSIGNED_SHORT,
                          std::array<uint32_t, 1>{0xFFFFFFu}) == std::array<uint16_t, 1>{65535});
  CHECK(pack<float, 1>(GL_DEPTH_COMPONENT16, GL_DEPTH_COMPONENT, GL_FLOAT, std::array<uint16_t, 1>{65535})[0] == 1.0f);
  // The top 8 bits of an X8_D24 texel are undefined (Vulkan): they do not change the depth read.
  CHECK(pack<uint32_t, 1>(GL_DEPTH_COMPONENT24, GL_DEPTH_COMPONENT, GL_UNSIGNED_INT,
                          std::array<uint32_t, 1>{0xFF000000u}) == std::array<uint32_t, 1>{0});
}

// A 24-bit depth format stored in a wider Vulkan format where the device cannot sample X8_D24 / D24S8 (both are
// optional in Vulkan) keeps GL's 24-bit depth: table 8.13 gives DEPTH_COMPONENT24 24 depth bits, and §8.5 converts
// a fixed-point depth value to the nearest k / (2^24 - 1) whatever holds it.
TEST_CASE("24-bit depth formats fall back to wider Vulkan formats with 24-bit values", "[pixels][convert]") {
  const SizedFormat& d24 = *find_sized_format(GL_DEPTH_COMPONENT24);
  const auto choices = storage_choices(d24);
  REQUIRE(choices.size() == 3);
  CHECK(choices[0] == &d24);
  CHECK(choices[1]->vk_format == VK_FORMAT_D24_UNORM_S8_UINT);
  CHECK(choices[2]->vk_format == VK_FORMAT_D32_SFLOAT);
  const auto d24s8 = storage_choices(*find_sized_format(GL_DEPTH24_STENCIL8));
  REQUIRE(d24s8.size() == 2);
  CHECK(d24s8[1]->vk_format == VK_FORMAT_D32_SFLOAT_S8_UINT);
  CHECK(storage_choices(*find_sized_format(GL_DEPTH_COMPONENT32F)).size() == 1);
  CHECK(storage_choices(*find_sized_format(GL_RGBA8)).size() == 1);
  // Through the D32_SFLOAT row: UNSIGNED_INT 0x80000000 → 0x80000000 / (2^32 - 1), the nearest 24-bit value is
  // 0x800000 (2^31 / (2^32 - 1) × (2^24 - 1) = 8388607.502), which reads back as UNSIGNED_INT
  // round(0x800000 / (2^24 - 1) × (2^32 - 1)).
  const SizedFormat& wide = *choices[2];
  std::array<std::byte, 4> texel{};
  const uint32_t in = 0x80000000u;
  REQUIRE(unpack_pixels(wide, GL_DEPTH_COMPONENT, GL_UNSIGNED_INT, PixelStore{}, {}, &in, texel).ok());
  float stored = 0;
  std::memcpy(&stored, texel.data(), 4);
  CHECK(double(stored) == Approx(double(0x800000) / double(0xFFFFFF)).epsilon(1e-7));
  uint32_t out = 0;
  REQUIRE(pack_pixels(wide, GL_DEPTH_COMPONENT, GL_UNSIGNED_INT, PixelStore{}, {}, texel, &out).ok());
  CHECK(out == static_cast<uint32_t>(std::llround(double(0x800000) / double(0xFFFFFF) * 4294967295.0)));
}

// The stencil plane of the depth-stencil formats (textures.hpp): GL 4.6 table 8.8's DEPTH_STENCIL groups hold the
// stencil index in the 8 least significant bits of UNSIGNED_INT_24_8's word, and of FLOAT_32_UNSIGNED_INT_24_8_REV's
// second word ("the 24 most significant bits of the second word are unused"); §18.2.8 packs them the same way.
TEST_CASE("stencil indices of DEPTH_STENCIL groups unpack and pack beside the depth", "[pixels][convert]") {
  const uint32_t words[2] = {0x123456u << 8 | 0xAB, 0xFFFFFFu << 8 | 0x01};
  std::array<std::byte, 2> indices{};
  REQUIRE(unpack_stencil_indices(GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8, PixelStore{}, Extent{2, 1, 1, false}, words,
                                 indices)
              .ok());
  CHECK(std::to_integer<int>(indices[0]) == 0xAB);
  CHECK(std::to_integer<int>(indices[1]) == 0x01);
  // The unused bits of the second word do not reach the index; SWAP_BYTES swaps each word.
  uint32_t rev[2] = {0, 0xDEAD00C3u};
  std::memcpy(&rev[0], &kInf, 4);
  REQUIRE(unpack_stencil_indices(GL_DEPTH_STENCIL, GL_FLOAT_32_UNSIGNED_INT_24_8_REV, PixelStore{},
                                 Extent{1, 1, 1, false}, rev, indices)
              .ok());
  CHECK(std::to_integer<int>(indices[0]) == 0xC3);
  PixelStore swapped;
  swapped.swap_bytes = true;
  const uint32_t swapped_word = 0xAB563412u;  // 0x123456AB with its bytes swapped
  REQUIRE(unpack_stencil_indices(GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8, swapped, Extent{1, 1, 1, false}, &swapped_word,
                                 indices)
              .ok());
  CHECK(std::to_integer<int>(indices[0]) == 0xAB);
  // Only DEPTH_STENCIL (with its types) and STENCIL_INDEX hold indices.
  CHECK(unpack_stencil_indices(GL_DEPTH_COMPONENT, GL_FLOAT, PixelStore{}, Extent{1, 1, 1, false}, words, indices)
            .error == GL_INVALID_OPERATION);
  CHECK(
      unpack_stencil_indices(GL_DEPTH_STENCIL, GL_FLOAT, PixelStore{}, Extent{1, 1, 1, false}, words, indices).error ==
      GL_INVALID_OPERATION);

  // Packing: D24S8 depth texels (depth in bits 0-23) and their indices → (depth << 8) | index.
  const uint32_t d24[2] = {0x123456u, 0xFFFFFFu};
  const std::array<std::byte, 2> s{std::byte{0xAB}, std::byte{0x01}};
  uint32_t out[2] = {};
  REQUIRE(pack_pixels(*find_sized_format(GL_DEPTH24_STENCIL8), GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8, PixelStore{},
                      Extent{2, 1, 1, false}, std::as_bytes(std::span(d24)), out, s)
              .ok());
  CHECK(out[0] == words[0]);
  CHECK(out[1] == words[1]);
  // FLOAT_32_UNSIGNED_INT_24_8_REV from D32S8 texels: the float, then the index with the unused bits 0.
  const float d32[1] = {0.375f};
  uint32_t out_rev[2] = {0xFFFFFFFFu, 0xFFFFFFFFu};
  REQUIRE(pack_pixels(*find_sized_format(GL_DEPTH32F_STENCIL8), GL_DEPTH_STENCIL, GL_FLOAT_32_UNSIGNED_INT_24_8_REV,
                      PixelStore{}, Extent{1, 1, 1, false}, std::as_bytes(std::span(d32)), out_rev, s)
              .ok());
  CHECK(bits_float(out_rev[0]) == 0.375f);
  CHECK(out_rev[1] == 0xABu);
  // Without the indices a DEPTH_STENCIL read cannot be packed.
  CHECK(pack_pixels(*find_sized_format(GL_DEPTH24_STENCIL8), GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8, PixelStore{},
                    Extent{2, 1, 1, false}, std::as_bytes(std::span(d24)), out)
            .error == GL_INVALID_OPERATION);
  // A depth buffer beside a separate stencil buffer (glReadPixels): DEPTH_COMPONENT16 texels with indices.
  const uint16_t d16[1] = {0xFFFF};
  REQUIRE(pack_pixels(*find_sized_format(GL_DEPTH_COMPONENT16), GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8, PixelStore{},
                      Extent{1, 1, 1, false}, std::as_bytes(std::span(d16)), out, s)
              .ok());
  CHECK(out[0] == (0xFFFFFFu << 8 | 0xAB));
}
