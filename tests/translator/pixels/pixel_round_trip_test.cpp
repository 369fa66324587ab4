// Round trips through every (format, type) pair GL 4.6 allows for every color format of the table: texels → client
// pixels (pack) → texels (unpack). Where the client type holds every value of the internal format (the
// "lossless" rules below, worked out from the precisions of §2.3.4/§2.3.5), the texels come back bit for bit. For
// every other pair, a second trip reproduces the first trip's client bytes (conversions round to nearest both ways,
// so a value that went through the coarser of the two grids stays put).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <random>
#include <set>
#include <vector>

#include "pixel_transfer.hpp"

using namespace bismuth::gl;

namespace {

const std::vector<GLenum> kFormats = {GL_RED,         GL_GREEN,         GL_BLUE,         GL_RG,
                                      GL_RGB,         GL_BGR,           GL_RGBA,         GL_BGRA,
                                      GL_RED_INTEGER, GL_GREEN_INTEGER, GL_BLUE_INTEGER, GL_RG_INTEGER,
                                      GL_RGB_INTEGER, GL_BGR_INTEGER,   GL_RGBA_INTEGER, GL_BGRA_INTEGER};
const std::vector<GLenum> kTypes = {GL_UNSIGNED_BYTE,
                                    GL_BYTE,
                                    GL_UNSIGNED_SHORT,
                                    GL_SHORT,
                                    GL_UNSIGNED_INT,
                                    GL_INT,
                                    GL_HALF_FLOAT,
                                    GL_FLOAT,
                                    GL_UNSIGNED_BYTE_3_3_2,
                                    GL_UNSIGNED_BYTE_2_3_3_REV,
                                    GL_UNSIGNED_SHORT_5_6_5,
                                    GL_UNSIGNED_SHORT_5_6_5_REV,
                                    GL_UNSIGNED_SHORT_4_4_4_4,
                                    GL_UNSIGNED_SHORT_4_4_4_4_REV,
                                    GL_UNSIGNED_SHORT_5_5_5_1,
                                    GL_UNSIGNED_SHORT_1_5_5_5_REV,
                                    GL_UNSIGNED_INT_8_8_8_8,
                                    GL_UNSIGNED_INT_8_8_8_8_REV,
                                    GL_UNSIGNED_INT_10_10_10_2,
                                    GL_UNSIGNED_INT_2_10_10_10_REV,
                                    GL_UNSIGNED_INT_10F_11F_11F_REV,
                                    GL_UNSIGNED_INT_5_9_9_9_REV};

// The client format's components: which of R, G, B, A it carries.
std::set<int> channels(GLenum format) {
  switch (format) {
    case GL_RED:
    case GL_RED_INTEGER: return {0};
    case GL_GREEN:
    case GL_GREEN_INTEGER: return {1};
    case GL_BLUE:
    case GL_BLUE_INTEGER: return {2};
    case GL_RG:
    case GL_RG_INTEGER: return {0, 1};
    case GL_RGB:
    case GL_BGR:
    case GL_RGB_INTEGER:
    case GL_BGR_INTEGER: return {0, 1, 2};
    default: return {0, 1, 2, 3};
  }
}

// Does every value of a component of `f` survive a trip through `type`?
bool type_holds(const SizedFormat& f, GLenum type) {
  const uint32_t b = f.bits[0];
  // RGB565, RGBA4, RGB5_A1 (components of at most 6 bits): their own packed type, or any type of 8 or more bits per
  // component, or floats.
  if (f.packed && f.vk_texel_bytes == 2) {
    return type == f.natural_type || type == GL_UNSIGNED_BYTE || type == GL_UNSIGNED_SHORT || type == GL_UNSIGNED_INT ||
           type == GL_FLOAT || type == GL_HALF_FLOAT || type == GL_UNSIGNED_INT_8_8_8_8 ||
           type == GL_UNSIGNED_INT_8_8_8_8_REV;
  }
  const bool uniform = f.packed == false;
  switch (f.numeric) {
    case Numeric::Uint:
      if (!uniform)
        return type == GL_UNSIGNED_SHORT || type == GL_UNSIGNED_INT || type == GL_INT || type == f.natural_type;
      if (type == GL_UNSIGNED_INT_8_8_8_8 || type == GL_UNSIGNED_INT_8_8_8_8_REV) return b == 8;
      return (type == GL_UNSIGNED_BYTE && b <= 8) || (type == GL_UNSIGNED_SHORT && b <= 16) ||
             type == GL_UNSIGNED_INT || (type == GL_SHORT && b < 16) || (type == GL_INT && b < 32);
    case Numeric::Sint: return (type == GL_BYTE && b <= 8) || (type == GL_SHORT && b <= 16) || type == GL_INT;
    case Numeric::Unorm:
      if (!uniform)  // RGB10_A2
        return type == GL_UNSIGNED_SHORT || type == GL_UNSIGNED_INT || type == GL_FLOAT || type == GL_HALF_FLOAT ||
               type == GL_UNSIGNED_INT_2_10_10_10_REV;
      if (type == GL_UNSIGNED_INT_8_8_8_8 || type == GL_UNSIGNED_INT_8_8_8_8_REV) return b == 8;
      return (type == GL_UNSIGNED_BYTE && b <= 8) || type == GL_UNSIGNED_SHORT || type == GL_UNSIGNED_INT ||
             type == GL_FLOAT || (type == GL_HALF_FLOAT && b <= 8);
    case Numeric::Snorm:
      return (type == GL_BYTE && b <= 8) || type == GL_SHORT || type == GL_INT || type == GL_FLOAT ||
             (type == GL_HALF_FLOAT && b <= 8);
    case Numeric::Float: return type == GL_FLOAT || (type == GL_HALF_FLOAT && b == 16);
    case Numeric::UFloat: return type == GL_FLOAT || type == GL_HALF_FLOAT || type == GL_UNSIGNED_INT_10F_11F_11F_REV;
    case Numeric::SharedExp: return type == GL_FLOAT || type == GL_HALF_FLOAT || type == GL_UNSIGNED_INT_5_9_9_9_REV;
    default: return false;
  }
}

// Random texels that are canonical: no NaN, no −2^(b−1) in signed normalized formats (it reads as −1.0 and
// stores back as −(2^(b−1) − 1)), the padding alpha of three-component formats is 1 (written out by hand per
// Vulkan format), shared-exponent texels with the exponent GL's encoding picks (§8.5.2).
std::vector<std::byte> random_texels(const SizedFormat& f, size_t count, std::mt19937& rng) {
  std::vector<std::byte> out(count * f.vk_texel_bytes);
  for (auto& b : out) b = std::byte(static_cast<uint8_t>(rng()));
  const uint32_t bytes = f.packed ? 4 : f.bits[0] / 8;
  for (size_t t = 0; t < count; ++t) {
    std::byte* texel = out.data() + t * f.vk_texel_bytes;
    if (f.numeric == Numeric::SharedExp) {
      std::uniform_real_distribution<float> d(0.0f, 300.0f);
      const uint32_t w = rgb_to_rgb9e5(d(rng), d(rng) / 64, d(rng) / 4096);
      std::memcpy(texel, &w, 4);
      continue;
    }
    // An exponent of 31 is infinity or NaN: make it 30. (Infinity through UNSIGNED_INT_5_9_9_9_REV clamps to
    // 65408, above the 11-bit maximum 65024, so a second trip would not reproduce the first; the infinity rules
    // have hand-computed tests.)
    if (f.numeric == Numeric::UFloat) {
      uint32_t w;
      std::memcpy(&w, texel, 4);
      const uint32_t fields[3][2] = {{0, 11}, {11, 11}, {22, 10}};
      for (const auto& [shift, width] : fields) {
        const uint32_t m = width - 5;
        const uint32_t v = (w >> shift) & ((1u << width) - 1);
        if ((v >> m) == 31) w &= ~(1u << (m + shift));
      }
      std::memcpy(texel, &w, 4);
      continue;
    }
    for (uint32_t k = 0; k < f.vk_components && !f.packed; ++k) {
      std::byte* c = texel + k * bytes;
      if (k >= f.components) {  // padding alpha: the Vulkan format's 1
        uint32_t one = 1;
        if (f.numeric == Numeric::Unorm) one = bytes == 1 ? 0xFF : 0xFFFF;
        if (f.numeric == Numeric::Snorm) one = bytes == 1 ? 0x7F : 0x7FFF;
        if (f.numeric == Numeric::Float) one = bytes == 2 ? 0x3C00 : 0x3F800000;
        std::memcpy(c, &one, bytes);  // little-endian host
        continue;
      }
      if (f.numeric == Numeric::Snorm) {
        const uint32_t most_negative = bytes == 1 ? 0x80 : 0x8000;
        uint32_t v = 0;
        std::memcpy(&v, c, bytes);
        if (v == most_negative) std::memset(c, 0, bytes);
      }
      if (f.numeric == Numeric::Float) {
        if (bytes == 2) {
          uint16_t h;
          std::memcpy(&h, c, 2);
          if ((h & 0x7C00) == 0x7C00 && (h & 0x3FF)) h &= 0xFC00;
          std::memcpy(c, &h, 2);
        } else {
          uint32_t u;
          std::memcpy(&u, c, 4);
          if ((u & 0x7F800000) == 0x7F800000 && (u & 0x7FFFFF)) u &= 0xFF800000;
          std::memcpy(c, &u, 4);
        }
      }
    }
  }
  return out;
}

}  // namespace

TEST_CASE("round trips of every color format through every allowed format/type", "[pixels][round_trip]") {
  std::mt19937 rng(18);
  constexpr uint32_t kWidth = 5, kHeight = 3;  // odd width: rows are padded at alignment 4 for most pairs
  size_t pairs = 0, lossless = 0;
  for (const SizedFormat& f : sized_formats()) {
    if (is_depth_or_stencil(f)) continue;  // their own tests: depth values, stencil indices
    const Extent extent{kWidth, kHeight, 1};
    const auto texels = random_texels(f, kWidth * kHeight, rng);
    // The natural pair of every format (its table 8.28 / ES table 8.2 row) must be valid both ways.
    CHECK(check_unpack_gl(f.internalformat, f.natural_format, f.natural_type).ok());
    CHECK(check_pack_gl(f.internalformat, f.natural_format, f.natural_type).ok());
    size_t pairs_of_format = 0;
    for (GLenum format : kFormats)
      for (GLenum type : kTypes) {
        if (!check_unpack_gl(f.internalformat, format, type).ok()) continue;
        REQUIRE(check_pack_gl(f.internalformat, format, type).ok());
        ++pairs;
        ++pairs_of_format;
        INFO(f.name << " format 0x" << std::hex << format << " type 0x" << type);
        PixelStore store;
        const auto layout = client_layout(format, type, store, kWidth, kHeight, 1, false);
        REQUIRE(layout);
        std::vector<std::byte> client(layout->total_bytes, std::byte{0xCD});
        REQUIRE(pack_pixels(f, format, type, store, extent, texels, client.data()).ok());
        std::vector<std::byte> back(texels.size());
        REQUIRE(unpack_pixels(f, format, type, store, extent, client.data(), back).ok());
        std::set<int> need;
        for (int k = 0; k < f.components; ++k) need.insert(k);
        const auto have = channels(format);
        const bool covers = std::includes(have.begin(), have.end(), need.begin(), need.end());
        if (covers && type_holds(f, type)) {
          ++lossless;
          CHECK(back == texels);
        }
        std::vector<std::byte> again(client.size(), std::byte{0xCD});
        REQUIRE(pack_pixels(f, format, type, store, extent, back, again.data()).ok());
        CHECK(again == client);
      }
    // Every color format takes at least the eight array types with the formats of its kind.
    CHECK(pairs_of_format >= 8);
  }
  CHECK(lossless > 100);
  INFO(pairs << " pairs, " << lossless << " lossless");
  CHECK(pairs > 1000);
}

// STENCIL_INDEX8 (an R8_UINT texel): indices are not normalized (GL 4.6 §8.4.4.2's conversion to floating point "is
// not performed on indices"); reads mask them as §18.2.8 says: "For an index, if the type is not FLOAT or
// HALF_FLOAT, final conversion consists of masking the index with the value given in table 18.4" (2^7 - 1 for
// BYTE, 2^n - 1 or 2^(n-1) - 1 for the wider unsigned and signed types, which keep all 8 bits).
TEST_CASE("stencil indices of every scalar type through STENCIL_INDEX8", "[pixels][round_trip][stencil]") {
  const SizedFormat& f = *find_sized_format(GL_STENCIL_INDEX8);
  const Extent extent{256, 1, 1};
  std::vector<std::byte> texels(256);
  for (size_t i = 0; i < texels.size(); ++i) texels[i] = std::byte(static_cast<uint8_t>(i));
  const GLenum types[] = {GL_UNSIGNED_BYTE, GL_BYTE,       GL_UNSIGNED_SHORT, GL_SHORT,
                          GL_UNSIGNED_INT,  GL_INT,        GL_HALF_FLOAT,     GL_FLOAT};
  for (GLenum type : types) {
    INFO("type 0x" << std::hex << type);
    PixelStore store;
    REQUIRE(check_pack_gl(GL_STENCIL_INDEX8, GL_STENCIL_INDEX, type).ok());
    const auto layout = client_layout(GL_STENCIL_INDEX, type, store, 256, 1, 1, false);
    REQUIRE(layout);
    std::vector<std::byte> client(layout->total_bytes);
    REQUIRE(pack_pixels(f, GL_STENCIL_INDEX, type, store, extent, texels, client.data()).ok());
    std::vector<std::byte> back(texels.size());
    REQUIRE(unpack_pixels(f, GL_STENCIL_INDEX, type, store, extent, client.data(), back).ok());
    for (size_t i = 0; i < texels.size(); ++i) {
      // BYTE's mask 2^7 - 1 drops the top bit; every other type keeps the index.
      const auto expected = static_cast<uint8_t>(type == GL_BYTE ? i & 0x7F : i);
      CHECK(std::to_integer<uint8_t>(back[i]) == expected);
    }
  }
  // Colour and depth formats do not transfer stencil indices, nor STENCIL_INDEX a colour texture (§8.5).
  CHECK(check_unpack_gl(GL_STENCIL_INDEX8, GL_RED_INTEGER, GL_UNSIGNED_BYTE).error == GL_INVALID_OPERATION);
  CHECK(check_unpack_gl(GL_STENCIL_INDEX8, GL_DEPTH_COMPONENT, GL_FLOAT).error == GL_INVALID_OPERATION);
  CHECK(check_unpack_gl(GL_STENCIL_INDEX8, GL_STENCIL_INDEX, GL_UNSIGNED_SHORT_5_6_5).error == GL_INVALID_OPERATION);
  CHECK(check_unpack_gl(GL_R8UI, GL_STENCIL_INDEX, GL_UNSIGNED_BYTE).error == GL_INVALID_OPERATION);
}

// Round trips through a layout with every PixelStore parameter set, in a 3D region.
TEST_CASE("round trip through a 3D region with every storage parameter", "[pixels][round_trip]") {
  std::mt19937 rng(46);
  const SizedFormat& f = *find_sized_format(GL_RGBA16F);
  const Extent extent{3, 2, 2, true};
  const auto texels = random_texels(f, 12, rng);
  PixelStore s;
  s.alignment = 8;
  s.row_length = 5;
  s.image_height = 3;
  s.skip_pixels = 1;
  s.skip_rows = 2;
  s.skip_images = 1;
  s.swap_bytes = true;
  const auto l = client_layout(GL_RGBA, GL_HALF_FLOAT, s, 3, 2, 2, true);
  REQUIRE(l);
  // Row: 5 groups of 8 bytes = 40, padded to 8 → 40. Image: 3 rows = 120. Start: 1 × 8 + 2 × 40 + 1 × 120.
  CHECK(l->row_stride == 40);
  CHECK(l->image_stride == 120);
  CHECK(l->start_offset == 208);
  CHECK(l->total_bytes == 208 + 120 + 40 + 24);
  std::vector<std::byte> client(l->total_bytes);
  REQUIRE(pack_pixels(f, GL_RGBA, GL_HALF_FLOAT, s, extent, texels, client.data()).ok());
  // Texel (x=2, y=1, z=1), component G, at 208 + 120 + 40 + 2 × 8 + 2, byte-swapped.
  const size_t at = 208 + 120 + 40 + 16 + 2;
  const size_t texel_g = ((1 * 2 + 1) * 3 + 2) * 8 + 2;
  CHECK(client[at] == texels[texel_g + 1]);
  CHECK(client[at + 1] == texels[texel_g]);
  std::vector<std::byte> back(texels.size());
  REQUIRE(unpack_pixels(f, GL_RGBA, GL_HALF_FLOAT, s, extent, client.data(), back).ok());
  CHECK(back == texels);
}

TEST_CASE("the natural format and type copy rows unchanged and leave the bytes between them alone",
          "[pixels][round_trip]") {
  // GL_RGBA/GL_HALF_FLOAT is RGBA16F's natural pair (table 8.28) and the texel bytes are the client bytes, so pack and
  // unpack copy whole rows; the layout (§8.4.3.1's row length, skips and alignment) still places them, and the
  // bytes the layout skips keep their values (§18.2.8: only the selected groups are written).
  std::mt19937 rng(47);
  const SizedFormat& f = *find_sized_format(GL_RGBA16F);
  const Extent extent{3, 2, 2, true};
  const auto texels = random_texels(f, 12, rng);
  PixelStore s;
  s.alignment = 8;
  s.row_length = 5;
  s.image_height = 3;
  s.skip_pixels = 1;
  s.skip_rows = 2;
  s.skip_images = 1;
  const auto l = client_layout(GL_RGBA, GL_HALF_FLOAT, s, 3, 2, 2, true);
  REQUIRE(l);
  std::vector<std::byte> client(l->total_bytes, std::byte{0xAB});
  REQUIRE(pack_pixels(f, GL_RGBA, GL_HALF_FLOAT, s, extent, texels, client.data()).ok());
  std::vector<bool> written(client.size(), false);
  for (uint32_t z = 0; z < 2; ++z)
    for (uint32_t y = 0; y < 2; ++y)
      for (uint32_t x = 0; x < 3; ++x)
        for (uint32_t b = 0; b < 8; ++b) {
          const size_t at = 208 + z * 120 + y * 40 + x * 8 + b;  // the offsets of the test above
          CHECK(client[at] == texels[((z * 2 + y) * 3 + x) * 8 + b]);
          written[at] = true;
        }
  for (size_t i = 0; i < client.size(); ++i)
    if (!written[i]) CHECK(client[i] == std::byte{0xAB});
  std::vector<std::byte> back(texels.size());
  REQUIRE(unpack_pixels(f, GL_RGBA, GL_HALF_FLOAT, s, extent, client.data(), back).ok());
  CHECK(back == texels);
}
