// The texel data of shader_runner's generated textures (piglit_textures.hpp) against piglit-util-gl.c's rules:
// piglit_rgbw_image "if (x < w / 2 && y < h / 2) color = red; else if (y < h / 2) color = green; else if (x < w / 2)
// color = blue; else color = white;", piglit_quads_texture "if (row & 1) { col & 1 ? tr : tl } else { col & 1 ? br :
// bl }", piglit_integer_texture "R = x, G = y, B = b, A = a", piglit_depth_texture "(float)(x) / (w - 1)".
#include <catch2/catch.hpp>

#include "piglit_textures.hpp"

using namespace bismuth::tools::runner;

namespace {

Rgba texel(const std::vector<float>& image, int32_t width, int32_t x, int32_t y) {
  const size_t at = (static_cast<size_t>(y) * static_cast<size_t>(width) + static_cast<size_t>(x)) * 4;
  return {image[at], image[at + 1], image[at + 2], image[at + 3]};
}

}  // namespace

TEST_CASE("rgbw_image: red, green, blue and white quadrants from the bottom-left, alpha 1") {
  const auto image = rgbw_image(4, 6);
  REQUIRE(image.size() == 4 * 6 * 4);
  CHECK(texel(image, 4, 0, 0) == Rgba{1, 0, 0, 1});
  CHECK(texel(image, 4, 1, 2) == Rgba{1, 0, 0, 1});
  CHECK(texel(image, 4, 2, 2) == Rgba{0, 1, 0, 1});
  CHECK(texel(image, 4, 1, 3) == Rgba{0, 0, 1, 1});
  CHECK(texel(image, 4, 3, 5) == Rgba{1, 1, 1, 1});
  // Odd sizes: w / 2 rounds down, so the middle column belongs to the right half.
  const auto odd = rgbw_image(3, 1);
  CHECK(texel(odd, 3, 0, 0) == Rgba{0, 0, 1, 1});  // y < 1 / 2 is false: the top half
  CHECK(texel(odd, 3, 1, 0) == Rgba{1, 1, 1, 1});
}

TEST_CASE("quads_image: a checkerboard's black tiles are bottom-left and top-right") {
  TextureSpec t;
  t.width = 4, t.height = 4, t.quad_width = 2, t.quad_height = 2;
  const Rgba black = {0, 0, 0, 1}, white = {1, 1, 1, 1};
  for (int i = 0; i < 4; ++i) {
    t.colors[i] = black[i], t.colors[4 + i] = white[i], t.colors[8 + i] = white[i], t.colors[12 + i] = black[i];
  }
  const auto image = quads_image(t);
  CHECK(texel(image, 4, 1, 1) == black);
  CHECK(texel(image, 4, 2, 1) == white);
  CHECK(texel(image, 4, 1, 2) == white);
  CHECK(texel(image, 4, 3, 3) == black);
  // Tiles repeat past two: column 4 / 2 = 2 is even again.
  t.width = 6;
  CHECK(texel(quads_image(t), 6, 4, 0) == black);
}

TEST_CASE("integer_image, depth_gradient, solid images and the colour wheel") {
  const auto ints = integer_image(3, 2, 7, -1);
  REQUIRE(ints.size() == 3 * 2 * 4);
  CHECK((ints[(1 * 3 + 2) * 4] == 2 && ints[(1 * 3 + 2) * 4 + 1] == 1 && ints[(1 * 3 + 2) * 4 + 2] == 7 &&
         ints[(1 * 3 + 2) * 4 + 3] == -1));
  const auto depth = depth_gradient(5, 2);
  CHECK(depth == std::vector<float>{0, 0.25f, 0.5f, 0.75f, 1, 0, 0.25f, 0.5f, 0.75f, 1});
  CHECK(depth_gradient(1, 1) == std::vector<float>{0});
  CHECK(color_wheel(0) == Rgba{1, 0, 0, 1});
  CHECK(color_wheel(5) == Rgba{0, 1, 0, 1});  // layer i uses color_wheel[i % 4]
  CHECK(solid_image(2, color_wheel(2)) == std::vector<float>{0, 0, 1, 1, 0, 0, 1, 1});
  CHECK(rgbw_1d_image().size() == 16);
  CHECK(rgbw_3d_image().size() == 32);
  CHECK(to_unorm8({1.0f, 0.5f, 0.0f, 0.25f}) == std::vector<uint8_t>{255, 127, 0, 63});
}
