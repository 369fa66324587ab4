// shader_runner's colour probes (piglit_probe_pixel_rgb[a], piglit_probe_rect_rgb[a] of piglit-util-gl.c) on
// pixels already read back: which pixels a probe reads and how it compares them. CPU only; texture_commands.cpp
// reads the pixels.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "bismuth/common/expected.hpp"
#include "shader_test.hpp"

namespace bismuth::tools::runner {

struct PixelRect {
  int32_t x = 0, y = 0, width = 1, height = 1;
};

// The pixels `probe` reads from a read framebuffer of `width` x `height`, with shader_runner's arithmetic:
// `probe rgba X Y` one pixel (X, Y truncated); `probe all` the whole framebuffer; `relative probe rgba (x, y)` the
// pixel (int)(x * width), (int)(y * height), clamped to the last column and row; `relative probe rect` every value
// times the width or height, truncated. A region outside the framebuffer (or empty) is an error saying so.
Expected<PixelRect> probe_region(const PixelProbeSpec& probe, int32_t width, int32_t height);

// Compares `rgba` (rect.width * rect.height RGBA floats, row by row) with the probe's colour, component i within
// `tolerance[i]` (times |expected| when `relative[i]`): a single-pixel probe fails when a difference is above the
// tolerance, a rectangle probe when one is at or above it (piglit's `>` and `>=`). nullopt when every pixel holds;
// otherwise the first failing pixel with both colours.
std::optional<std::string> compare_probe(const PixelProbeSpec& probe, const PixelRect& rect, const float* rgba,
                                         const std::array<double, 4>& tolerance, const std::array<bool, 4>& relative);

}  // namespace bismuth::tools::runner
