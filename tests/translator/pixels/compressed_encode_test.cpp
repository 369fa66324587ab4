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
