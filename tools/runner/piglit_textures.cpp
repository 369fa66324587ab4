#include "piglit_textures.hpp"

#include <cstddef>

namespace bismuth::tools::runner {

namespace {

void put(std::vector<float>& image, const Rgba& colour) {
  image.insert(image.end(), colour.begin(), colour.end());
}

}  // namespace

Rgba color_wheel(int index) {
  static constexpr Rgba kWheel[4] = {{1, 0, 0, 1}, {0, 1, 0, 1}, {0, 0, 1, 1}, {1, 1, 1, 1}};
  return kWheel[index % 4];
}

std::vector<float> rgbw_image(int32_t width, int32_t height) {
  static constexpr Rgba kRed = {1, 0, 0, 1}, kGreen = {0, 1, 0, 1}, kBlue = {0, 0, 1, 1}, kWhite = {1, 1, 1, 1};
  std::vector<float> image;
  image.reserve(static_cast<size_t>(width) * static_cast<size_t>(height) * 4);
  for (int32_t y = 0; y < height; ++y) {
    for (int32_t x = 0; x < width; ++x) {
      const bool left = x < width / 2, bottom = y < height / 2;
      put(image, left && bottom ? kRed : bottom ? kGreen : left ? kBlue : kWhite);
    }
  }
  return image;
}

std::vector<float> rgbw_1d_image() {
  return {1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1, 1, 1, 1, 1};
}

std::vector<float> rgbw_3d_image() {
  return {1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 0, 1, 1, 0, 1, 1, 1, 0, 0, 0, 1};
}

std::vector<float> quads_image(const TextureSpec& texture) {
  std::vector<float> image;
  image.reserve(static_cast<size_t>(texture.width) * static_cast<size_t>(texture.height) * 4);
  for (int32_t y = 0; y < texture.height; ++y) {
    const int32_t row = y / texture.quad_height;
    for (int32_t x = 0; x < texture.width; ++x) {
      const int32_t column = x / texture.quad_width;
      // colors: bottom-left, bottom-right, top-left, top-right.
      const size_t quad = (row & 1 ? 2u : 0u) + (column & 1 ? 1u : 0u);
      image.insert(image.end(), texture.colors.begin() + static_cast<std::ptrdiff_t>(quad * 4),
                   texture.colors.begin() + static_cast<std::ptrdiff_t>(quad * 4 + 4));
    }
  }
  return image;
}

std::vector<float> solid_image(int64_t count, const Rgba& colour) {
  std::vector<float> image;
  image.reserve(static_cast<size_t>(count) * 4);
  for (int64_t i = 0; i < count; ++i) put(image, colour);
  return image;
}

std::vector<int32_t> integer_image(int32_t width, int32_t height, int32_t blue, int32_t alpha) {
  std::vector<int32_t> image;
  image.reserve(static_cast<size_t>(width) * static_cast<size_t>(height) * 4);
  for (int32_t y = 0; y < height; ++y) {
    for (int32_t x = 0; x < width; ++x) image.insert(image.end(), {x, y, blue, alpha});
  }
  return image;
}

std::vector<float> depth_gradient(int32_t width, int32_t height) {
  std::vector<float> image;
  image.reserve(static_cast<size_t>(width) * static_cast<size_t>(height));
  for (int32_t y = 0; y < height; ++y) {
    for (int32_t x = 0; x < width; ++x) {
      image.push_back(width > 1 ? static_cast<float>(x) / static_cast<float>(width - 1) : 0.0f);
    }
  }
  return image;
}

std::vector<uint8_t> to_unorm8(const std::vector<float>& rgba) {
  std::vector<uint8_t> bytes;
  bytes.reserve(rgba.size());
  for (const float f : rgba) {
    const float scaled = f * 255.0f;
    bytes.push_back(static_cast<uint8_t>(scaled <= 0 ? 0 : scaled >= 255 ? 255 : scaled));
  }
  return bytes;
}

}  // namespace bismuth::tools::runner
