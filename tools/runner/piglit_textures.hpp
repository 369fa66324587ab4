// The texel data of piglit's generated textures (tests/util/piglit-util-gl.c), which shader_runner's `texture`
// commands upload: CPU only, so that tests check the contents without GL. Images are RGBA, row 0 first (GL's
// bottom row), as glTexImage reads them.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "shader_test.hpp"

namespace bismuth::tools::runner {

using Rgba = std::array<float, 4>;

// piglit's color_wheel: red, green, blue, white (miptree levels, array layers i % 4).
Rgba color_wheel(int index);

// piglit_rgbw_image (alpha false, GL_UNSIGNED_NORMALIZED): red where x < w/2 and y < h/2, green where only
// y < h/2, blue where only x < w/2, white elsewhere; alpha 1.
std::vector<float> rgbw_image(int32_t width, int32_t height);

// piglit_rgbw_texture_1d (red, green, blue, white) and piglit_rgbw_texture_3d (2x2x2: red, green, blue, white,
// yellow, magenta, cyan, black).
std::vector<float> rgbw_1d_image();
std::vector<float> rgbw_3d_image();

// piglit_quads_texture: tile row y / quad_height, column x / quad_width; even rows bottom-left (even column) and
// bottom-right (odd) colours, odd rows top-left and top-right. `texture.colors` holds bl, br, tl, tr.
std::vector<float> quads_image(const TextureSpec& texture);

// `count` texels of one colour (miptree levels, array layers).
std::vector<float> solid_image(int64_t count, const Rgba& colour);

// piglit_integer_texture: texel (x, y) = (x, y, blue, alpha), as GL_RGBA_INTEGER / GL_INT.
std::vector<int32_t> integer_image(int32_t width, int32_t height, int32_t blue, int32_t alpha);

// piglit_depth_texture: depth x / (width - 1) at column x, every row alike (0 for a 1-texel-wide texture, where
// piglit divides by zero).
std::vector<float> depth_gradient(int32_t width, int32_t height);

// OpenGL ES uploads of rgbw and quads textures are GL_UNSIGNED_BYTE: each component * 255, truncated as piglit's
// float to GLubyte conversion does.
std::vector<uint8_t> to_unorm8(const std::vector<float>& rgba);

}  // namespace bismuth::tools::runner
