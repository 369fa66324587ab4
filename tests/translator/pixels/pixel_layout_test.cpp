// The client memory layout of pixel transfers under glPixelStorei (GL 4.6 §8.4.4.1 "Unpacking"; packing uses the
// same rules, §18.2.6). Expected offsets are worked out by hand from the spec's formula.
#include <catch2/catch.hpp>

#include <array>
#include <cstring>
#include <vector>

#include "pixel_transfer.hpp"

using namespace bismuth::gl;

namespace {

ClientLayout layout(GLenum format, GLenum type, const PixelStore& s, uint32_t w, uint32_t h, uint32_t d = 1,
                    bool volume = false) {
  const auto l = client_layout(format, type, s, w, h, d, volume);
  REQUIRE(l.has_value());
  return *l;
}

PixelStore aligned(int32_t a) {
  PixelStore s;
  s.alignment = a;
  return s;
}

}  // namespace

// "If the number of bits per element is not 1, 2, 4, or 8 times the number of bits in a GL ubyte, then k = nl for
// all values of a. ... k = nl if s >= a, k = (a/s) * ceil(snl/a) if s < a" where n is the number of elements in a
// group, l the number of groups in a row (ROW_LENGTH if positive, else the width), a the alignment, s the element
// size in units of GL ubytes.
TEST_CASE("row stride follows UNPACK_ALIGNMENT for odd widths", "[pixels][layout]") {
  // RGB/UNSIGNED_BYTE, width 3: snl = 9 bytes.
  CHECK(layout(GL_RGB, GL_UNSIGNED_BYTE, aligned(1), 3, 2).row_stride == 9);
  CHECK(layout(GL_RGB, GL_UNSIGNED_BYTE, aligned(2), 3, 2).row_stride == 10);
  CHECK(layout(GL_RGB, GL_UNSIGNED_BYTE, aligned(4), 3, 2).row_stride == 12);
  CHECK(layout(GL_RGB, GL_UNSIGNED_BYTE, aligned(8), 3, 2).row_stride == 16);
  // RED/UNSIGNED_SHORT, width 5: s = 2, snl = 10 bytes.
  CHECK(layout(GL_RED, GL_UNSIGNED_SHORT, aligned(1), 5, 1).row_stride == 10);
  CHECK(layout(GL_RED, GL_UNSIGNED_SHORT, aligned(2), 5, 1).row_stride == 10);
  CHECK(layout(GL_RED, GL_UNSIGNED_SHORT, aligned(4), 5, 1).row_stride == 12);
  CHECK(layout(GL_RED, GL_UNSIGNED_SHORT, aligned(8), 5, 1).row_stride == 16);
  // RED/FLOAT, width 3, a = 8 > s = 4: k = (8/4) * ceil(12/8) = 4 elements = 16 bytes; a = 4 = s: k = nl = 3.
  CHECK(layout(GL_RED, GL_FLOAT, aligned(8), 3, 1).row_stride == 16);
  CHECK(layout(GL_RED, GL_FLOAT, aligned(4), 3, 1).row_stride == 12);
  // RGBA/FLOAT, width 3, a = 8: k = 2 * ceil(48/8) = 12 elements = 48 bytes.
  CHECK(layout(GL_RGBA, GL_FLOAT, aligned(8), 3, 1).row_stride == 48);
  // A packed type is one element per group: RGBA/UNSIGNED_SHORT_4_4_4_4, width 3 = 6 bytes, a = 4 → 8.
  const auto packed = layout(GL_RGBA, GL_UNSIGNED_SHORT_4_4_4_4, aligned(4), 3, 1);
  CHECK(packed.group_bytes == 2);
  CHECK(packed.row_stride == 8);
}

// The last row is not padded: the bytes a transfer touches end at the last group of the last row.
TEST_CASE("total bytes end at the last pixel", "[pixels][layout]") {
  const auto l = layout(GL_RGB, GL_UNSIGNED_BYTE, aligned(4), 3, 2);
  CHECK(l.group_bytes == 3);
  CHECK(l.start_offset == 0);
  CHECK(l.total_bytes == 12 + 9);
  CHECK(layout(GL_RGB, GL_UNSIGNED_BYTE, aligned(4), 0, 2).total_bytes == 0);
  CHECK(layout(GL_RGB, GL_UNSIGNED_BYTE, aligned(4), 3, 0).total_bytes == 0);
}

// "The value of UNPACK_ROW_LENGTH, if positive, is the number of groups in a row"; SKIP_PIXELS and SKIP_ROWS are
// "equivalent to ... advancing the pointer by SKIP_PIXELS * n elements and SKIP_ROWS * k elements".
TEST_CASE("ROW_LENGTH, SKIP_PIXELS and SKIP_ROWS", "[pixels][layout]") {
  PixelStore s;
  s.row_length = 7;
  s.skip_pixels = 2;
  s.skip_rows = 1;
  const auto l = layout(GL_RGBA, GL_UNSIGNED_BYTE, s, 3, 2);
  CHECK(l.row_stride == 28);
  CHECK(l.start_offset == 2 * 4 + 28);
  CHECK(l.total_bytes == 36 + 28 + 12);
}

// "IMAGE_HEIGHT ... if positive, is the number of rows in an image"; SKIP_IMAGES skips whole images. Both apply
// to three-dimensional transfers only.
TEST_CASE("IMAGE_HEIGHT and SKIP_IMAGES apply to volumes only", "[pixels][layout]") {
  PixelStore s = aligned(1);
  s.image_height = 5;
  s.skip_images = 1;
  const auto v = layout(GL_RED, GL_UNSIGNED_BYTE, s, 2, 3, 2, true);
  CHECK(v.row_stride == 2);
  CHECK(v.image_stride == 10);
  CHECK(v.start_offset == 10);
  CHECK(v.total_bytes == 10 + 10 + 2 * 2 + 2);
  const auto flat = layout(GL_RED, GL_UNSIGNED_BYTE, s, 2, 3, 1, false);
  CHECK(flat.image_stride == 6);
  CHECK(flat.start_offset == 0);
  CHECK(flat.total_bytes == 6);
}

TEST_CASE("layouts that overflow 64 bits and unknown enums are refused", "[pixels][layout]") {
  PixelStore s;
  CHECK_FALSE(client_layout(GL_RGBA, GL_FLOAT, s, 0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu, true).has_value());
  s.skip_images = 0x7FFFFFFF;
  s.image_height = 0x7FFFFFFF;
  CHECK_FALSE(client_layout(GL_RGBA, GL_FLOAT, s, 0x10000000u, 1, 1, true).has_value());
  CHECK_FALSE(client_layout(GL_RGBA8, GL_FLOAT, PixelStore{}, 1, 1, 1, false).has_value());
  CHECK_FALSE(client_layout(GL_RGBA, GL_RGBA, PixelStore{}, 1, 1, 1, false).has_value());
}

// GL 4.6 §8.4.1: "An INVALID_VALUE error is generated if ... pname is one of the ALIGNMENT parameters and param is
// not 1, 2, 4 or 8" and for "a negative value" of the length and skip parameters; an unknown pname is INVALID_ENUM.
TEST_CASE("glPixelStorei's parameter checks", "[pixels][layout][errors]") {
  PixelStore pack, unpack;
  CHECK(set_pixel_store(pack, unpack, GL_UNPACK_ALIGNMENT, 8).ok());
  CHECK(unpack.alignment == 8);
  CHECK(pack.alignment == 4);
  CHECK(set_pixel_store(pack, unpack, GL_PACK_ALIGNMENT, 3).error == GL_INVALID_VALUE);
  CHECK(set_pixel_store(pack, unpack, GL_PACK_ALIGNMENT, 16).error == GL_INVALID_VALUE);
  CHECK(pack.alignment == 4);
  CHECK(set_pixel_store(pack, unpack, GL_UNPACK_ROW_LENGTH, -1).error == GL_INVALID_VALUE);
  CHECK(set_pixel_store(pack, unpack, GL_PACK_SKIP_IMAGES, 3).ok());
  CHECK(pack.skip_images == 3);
  CHECK(set_pixel_store(pack, unpack, GL_UNPACK_SWAP_BYTES, 1).ok());
  CHECK(unpack.swap_bytes);
  CHECK(set_pixel_store(pack, unpack, GL_TEXTURE_2D, 1).error == GL_INVALID_ENUM);
}

// A 3×2 RGB/UNSIGNED_BYTE image with the default alignment 4: rows start at 0 and 12; the padding bytes (0xEE)
// are never read, and RGB8 texels (stored as RGBA8) get alpha 1.
TEST_CASE("unpack reads rows at the aligned stride", "[pixels][layout]") {
  const std::vector<uint8_t> client = {1, 2, 3, 4, 5, 6, 7, 8, 9, 0xEE, 0xEE, 0xEE, 10, 11, 12, 13, 14, 15, 16, 17, 18};
  std::vector<std::byte> texels(6 * 4);
  const auto r = unpack_pixels(*find_sized_format(GL_RGB8), GL_RGB, GL_UNSIGNED_BYTE, PixelStore{}, {3, 2, 1},
                               client.data(), texels);
  REQUIRE(r.ok());
  const std::vector<uint8_t> expected = {1,  2,  3,  255, 4,  5,  6,  255, 7,  8,  9,  255,
                                         10, 11, 12, 255, 13, 14, 15, 255, 16, 17, 18, 255};
  std::vector<uint8_t> got(texels.size());
  std::memcpy(got.data(), texels.data(), got.size());
  CHECK(got == expected);
}

// Packing writes only the groups: alignment padding and pixels outside the region keep their bytes.
TEST_CASE("pack leaves padding and skipped pixels untouched", "[pixels][layout]") {
  PixelStore s;
  s.alignment = 8;
  s.skip_pixels = 1;
  const std::array<uint8_t, 3> texels = {7, 8, 9};  // R8, 3×1
  std::vector<uint8_t> client(8, 0xAA);
  REQUIRE(pack_pixels(*find_sized_format(GL_R8), GL_RED, GL_UNSIGNED_BYTE, s, {3, 1, 1},
                      std::as_bytes(std::span(texels)), client.data())
              .ok());
  CHECK(client == std::vector<uint8_t>{0xAA, 7, 8, 9, 0xAA, 0xAA, 0xAA, 0xAA});
}

// "If SWAP_BYTES is enabled, the bytes of each element are swapped": an element is a component, or the whole
// group of a packed type.
TEST_CASE("SWAP_BYTES reverses the bytes of each element", "[pixels][layout]") {
  PixelStore s;
  s.swap_bytes = true;
  const std::array<uint8_t, 2> client = {0x12, 0x34};
  std::array<std::byte, 2> texel{};
  REQUIRE(unpack_pixels(*find_sized_format(GL_R16), GL_RED, GL_UNSIGNED_SHORT, s, {}, client.data(), texel).ok());
  CHECK(std::to_integer<int>(texel[0]) == 0x34);  // the value 0x1234, stored little-endian
  CHECK(std::to_integer<int>(texel[1]) == 0x12);
  REQUIRE(unpack_pixels(*find_sized_format(GL_R16), GL_RED, GL_UNSIGNED_SHORT, PixelStore{}, {}, client.data(), texel)
              .ok());
  CHECK(std::to_integer<int>(texel[0]) == 0x12);
  CHECK(std::to_integer<int>(texel[1]) == 0x34);
  // RGBA/UNSIGNED_INT_8_8_8_8 (R in the most significant byte) read as one swapped 32-bit element: the bytes
  // {R, G, B, A} in memory are the word 0xRRGGBBAA only when swapped on a little-endian host.
  const std::array<uint8_t, 4> packed = {0x11, 0x22, 0x33, 0x44};
  std::array<std::byte, 4> rgba{};
  REQUIRE(
      unpack_pixels(*find_sized_format(GL_RGBA8), GL_RGBA, GL_UNSIGNED_INT_8_8_8_8, s, {}, packed.data(), rgba).ok());
  CHECK(std::to_integer<int>(rgba[0]) == 0x11);
  CHECK(std::to_integer<int>(rgba[3]) == 0x44);
  REQUIRE(unpack_pixels(*find_sized_format(GL_RGBA8), GL_RGBA, GL_UNSIGNED_INT_8_8_8_8, PixelStore{}, {}, packed.data(),
                        rgba)
              .ok());
  CHECK(std::to_integer<int>(rgba[0]) == 0x44);
  CHECK(std::to_integer<int>(rgba[3]) == 0x11);
}
