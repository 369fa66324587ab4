// The block encoders of the GL's own compression (translator/gl/src/compressed_encode.cpp) through the decoders:
// every encoded block must decode (Khronos Data Format Specification rules, compressed_formats.cpp) to texels near
// the encoded ones, within what the block mode written can represent.
#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <cstdint>

#include "compressed_encode.hpp"
#include "compressed_formats.hpp"

using namespace bismuth::gl;

namespace {

std::array<Texel, 16> round_trip(GLenum internalformat, const std::array<Texel, 16>& in,
                                 std::array<uint8_t, 16>& block) {
  const CompressedFormat* f = find_compressed_format(internalformat);
  REQUIRE(f != nullptr);
  REQUIRE(can_encode(*f));
  block.fill(0xAA);
  encode_block(*f, in, block.data());
  std::array<Texel, 16> out{};
  decode_block(*f, block.data(), out);
  return out;
}

// Texels on the line between two colours (each channel of `b` at least `a`'s): t = 0, 1/3, 2/3, 1 repeating.
std::array<Texel, 16> line(const Texel& a, const Texel& b) {
  std::array<Texel, 16> t{};
  for (int i = 0; i < 16; ++i) {
    const float s = static_cast<float>(i % 4) / 3.0f;
    for (int c = 0; c < 4; ++c) t[static_cast<size_t>(i)][c] = a[c] + (b[c] - a[c]) * s;
  }
  return t;
}

void require_near(const std::array<Texel, 16>& got, const std::array<Texel, 16>& want, int channels, float tolerance) {
  for (size_t i = 0; i < 16; ++i) {
    for (int c = 0; c < channels; ++c) {
      INFO("texel " << i << " channel " << c);
      CHECK(std::fabs(got[i][c] - want[i][c]) <= tolerance);
    }
  }
}

}  // namespace

TEST_CASE("RGTC encoders: eight-value blocks through the endpoints' interpolants", "[compressed]") {
  std::array<uint8_t, 16> block{};
  // Values on the 1/7 steps between 0.2 and 0.9: BC4's "red0 > red1" palette holds each within the 8-bit endpoint
  // rounding (the endpoints are red0 = max, red1 = min).
  std::array<Texel, 16> in{};
  for (int i = 0; i < 16; ++i)
    in[static_cast<size_t>(i)] =
        Texel{0.2f + 0.1f * static_cast<float>(i % 8), 0.9f - 0.1f * static_cast<float>((i + 3) % 8), 0, 1};
  require_near(round_trip(GL_COMPRESSED_RED_RGTC1, in, block), in, 1, 1.0f / 255);
  CHECK(block[0] > block[1]);
  require_near(round_trip(GL_COMPRESSED_RG_RGTC2, in, block), in, 2, 1.0f / 255);
  // Signed: [-1, 1] through endpoints of -127..127.
  for (auto& t : in) t = Texel{t[0] * 2 - 1, -t[1], 0, 1};
  require_near(round_trip(GL_COMPRESSED_SIGNED_RED_RGTC1, in, block), in, 1, 1.0f / 127);
  require_near(round_trip(GL_COMPRESSED_SIGNED_RG_RGTC2, in, block), in, 2, 1.0f / 127);
}

TEST_CASE("S3TC encoders: four-colour blocks, DXT1 punch-through alpha, DXT3 / DXT5 alpha", "[compressed]") {
  std::array<uint8_t, 16> block{};
  const auto in = line(Texel{0.1f, 0.2f, 0.3f, 0.0f}, Texel{0.7f, 0.9f, 0.6f, 1.0f});
  // RGB565 endpoints: half a step of 1/31 (1/63 for green); the thirds are the palette's interpolants.
  require_near(round_trip(GL_COMPRESSED_RGB_S3TC_DXT1_EXT, in, block), in, 3, 1.0f / 31);
  CHECK((block[0] | (block[1] << 8)) > (block[2] | (block[3] << 8)));  // four-colour order
  require_near(round_trip(GL_COMPRESSED_RGBA_S3TC_DXT3_EXT, in, block), in, 4, 1.0f / 30);
  // DXT5's alpha: eight values between the endpoints (0 and 1 here): within half a step of 1/7.
  const auto dxt5 = round_trip(GL_COMPRESSED_RGBA_S3TC_DXT5_EXT, in, block);
  require_near(dxt5, in, 3, 1.0f / 31);
  for (size_t i = 0; i < 16; ++i) CHECK(std::fabs(dxt5[i][3] - in[i][3]) <= 0.5f / 7 + 1.0f / 255);
  // DXT1 with alpha: texels of alpha below one half become transparent black (the three-colour order).
  const auto out = round_trip(GL_COMPRESSED_RGBA_S3TC_DXT1_EXT, in, block);
  CHECK((block[0] | (block[1] << 8)) <= (block[2] | (block[3] << 8)));
  for (size_t i = 0; i < 16; ++i) {
    INFO("texel " << i);
    if (in[i][3] < 0.5f) {
      CHECK(out[i] == Texel{0, 0, 0, 0});
    } else {
      CHECK(out[i][3] == 1.0f);
      for (int c = 0; c < 3; ++c) CHECK(std::fabs(out[i][c] - in[i][c]) <= 0.2f);  // three colours for two thirds
    }
  }
}

TEST_CASE("BPTC encoders: BC7 mode 6 and BC6H mode 11", "[compressed]") {
  std::array<uint8_t, 16> block{};
  // BC7 mode 6: "zero or more zeros followed by a one" — six zeros then a one: byte 0 is 0x40.
  const auto in = line(Texel{0.1f, 0.25f, 0.5f, 0.4f}, Texel{0.6f, 0.75f, 0.9f, 1.0f});
  const auto out = round_trip(GL_COMPRESSED_RGBA_BPTC_UNORM, in, block);
  CHECK((block[0] & 0x7F) == 0x40);
  // 16 interpolants between 7-bit-plus-p-bit endpoints: within 1/255 of the endpoints, a few 1/255 between.
  require_near(out, in, 4, 4.0f / 255);
  // BC6H mode 11: the five mode bits 00011.
  std::array<Texel, 16> hdr{};
  for (int i = 0; i < 16; ++i) {
    const float s = static_cast<float>(i % 4) / 3.0f;
    hdr[static_cast<size_t>(i)] = Texel{2.0f + 1.5f * s, 1.0f + 0.75f * s, 4.0f + 3.0f * s, 1};
  }
  for (GLenum format : {GL_COMPRESSED_RGB_BPTC_UNSIGNED_FLOAT, GL_COMPRESSED_RGB_BPTC_SIGNED_FLOAT}) {
    const auto got = round_trip(format, hdr, block);
    CHECK((block[0] & 31) == 3);
    for (size_t i = 0; i < 16; ++i) {
      for (int c = 0; c < 3; ++c) {
        INFO("texel " << i << " channel " << c);
        // Interpolation happens on the half floats' bit patterns, linear within one exponent (each channel's
        // range here); the 10-bit endpoints are within a few per cent.
        CHECK(std::fabs(got[i][c] - hdr[i][c]) <= 0.03f * hdr[i][c] + 0.01f);
      }
    }
  }
  // Signed BC6H keeps negative values.
  std::array<Texel, 16> negative{};
  for (auto& t : negative) t = Texel{-2.0f, -0.5f, 1.0f, 1};
  const auto got = round_trip(GL_COMPRESSED_RGB_BPTC_SIGNED_FLOAT, negative, block);
  for (const Texel& t : got) {
    CHECK(t[0] == Approx(-2.0f).epsilon(0.02));
    CHECK(t[1] == Approx(-0.5f).epsilon(0.02));
    CHECK(t[2] == Approx(1.0f).epsilon(0.02));
  }
}

namespace {

// ETC2 colour blocks are big-endian words: bit 33 (byte 3, 0x02) is "diff" (RGB8) or "opaque" (punch-through);
// the differential mode's 5-bit bases plus their 3-bit deltas must stay within 0..31, else the block is a T, H or
// planar one.
bool differential_in_range(const uint8_t* b) {
  for (int c = 0; c < 3; ++c) {
    const int base = b[c] >> 3, delta = (b[c] & 4) ? (b[c] & 7) - 8 : (b[c] & 7);
    if (base + delta < 0 || base + delta > 31) return false;
  }
  return true;
}

float max_error(const std::array<Texel, 16>& got, const std::array<Texel, 16>& want, int first, int channels) {
  float e = 0;
  for (size_t i = 0; i < 16; ++i) {
    for (int c = first; c < first + channels; ++c) e = std::max(e, std::fabs(got[i][c] - want[i][c]));
  }
  return e;
}

}  // namespace

TEST_CASE("ETC2 / EAC encoders: differential blocks and EAC channels", "[compressed]") {
  std::array<uint8_t, 16> block{};
  // One hue with a brightness ramp down each column (-51, -17, +17, +51 over a 8-bit base): each half holds each
  // offset twice, so its mean is the base; table 4 (18, 60) is within 9 of every offset, the 5-bit base within
  // 4.2 of the mean.
  std::array<Texel, 16> ramp{};
  constexpr float kOffsets[4] = {-51, -17, 17, 51};
  for (int y = 0; y < 4; ++y) {
    for (int x = 0; x < 4; ++x) {
      const float o = kOffsets[y] / 255.0f;
      ramp[static_cast<size_t>(y * 4 + x)] = Texel{0.3f + o, 0.45f + o, 0.6f + o, 1};
    }
  }
  for (GLenum format : {GL_COMPRESSED_RGB8_ETC2, GL_COMPRESSED_SRGB8_ETC2}) {
    const auto got = round_trip(format, ramp, block);
    CHECK((block[3] & 0x02) != 0);  // the differential mode
    CHECK(differential_in_range(block.data()));
    CHECK(max_error(got, ramp, 0, 3) <= 14.0f / 255);
    for (const Texel& t : got) CHECK(t[3] == 1.0f);
  }
  // Two halves of very different colours: the delta is clamped, the block stays a differential one (never T, H or
  // planar), and the first half is still near its colour.
  std::array<Texel, 16> split{};
  for (int i = 0; i < 16; ++i)
    split[static_cast<size_t>(i)] = (i % 4) < 2 ? Texel{0.9f, 0.1f, 0.1f, 1} : Texel{0.1f, 0.1f, 0.9f, 1};
  round_trip(GL_COMPRESSED_RGB8_ETC2, split, block);
  CHECK((block[3] & 0x02) != 0);
  CHECK(differential_in_range(block.data()));
  // Punch-through: alpha below one half is transparent black, with the "opaque" bit clear; an all-opaque block
  // keeps it set.
  auto punched = ramp;
  for (size_t i = 0; i < 16; i += 5) punched[i][3] = 0.25f;
  const auto p = round_trip(GL_COMPRESSED_RGB8_PUNCHTHROUGH_ALPHA1_ETC2, punched, block);
  CHECK((block[3] & 0x02) == 0);
  CHECK(differential_in_range(block.data()));
  for (size_t i = 0; i < 16; ++i) {
    INFO("texel " << i);
    if (i % 5 == 0) {
      CHECK(p[i] == Texel{0, 0, 0, 0});
    } else {
      CHECK(p[i][3] == 1.0f);
      // Modifiers 0, +b, -b only (the +-a ones become 0): within the larger of the table steps.
      for (int c = 0; c < 3; ++c) CHECK(std::fabs(p[i][c] - punched[i][c]) <= 40.0f / 255);
    }
  }
  round_trip(GL_COMPRESSED_RGB8_PUNCHTHROUGH_ALPHA1_ETC2, ramp, block);
  CHECK((block[3] & 0x02) != 0);
  // EAC: a smooth ramp over 0.2 .. 0.35 (unsigned) / -0.3 .. 0.3 (signed); RGBA8_ETC2_EAC's alpha over 0 .. 1.
  // Eight palette values, not evenly spaced (the modifier tables): every texel within a thirteenth of the range.
  std::array<Texel, 16> eac{};
  for (int i = 0; i < 16; ++i) {
    const float s = static_cast<float>(i) / 15.0f;
    eac[static_cast<size_t>(i)] = Texel{0.2f + 0.15f * s, 0.35f - 0.15f * s, 0.5f, s};
  }
  CHECK(max_error(round_trip(GL_COMPRESSED_R11_EAC, eac, block), eac, 0, 1) <= 0.15f / 13);
  CHECK(max_error(round_trip(GL_COMPRESSED_RG11_EAC, eac, block), eac, 0, 2) <= 0.15f / 13);
  auto signed_eac = eac;
  for (auto& t : signed_eac) t = Texel{t[0] * 4 - 1.1f, 1.1f - t[1] * 4, 0, 1};
  CHECK(max_error(round_trip(GL_COMPRESSED_SIGNED_R11_EAC, signed_eac, block), signed_eac, 0, 1) <= 0.6f / 13);
  CHECK(max_error(round_trip(GL_COMPRESSED_SIGNED_RG11_EAC, signed_eac, block), signed_eac, 0, 2) <= 0.6f / 13);
  const auto rgba = round_trip(GL_COMPRESSED_RGBA8_ETC2_EAC, eac, block);
  CHECK(max_error(rgba, eac, 3, 1) <= 1.0f / 13);
}
