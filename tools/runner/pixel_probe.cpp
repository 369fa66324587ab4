#include "pixel_probe.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace bismuth::tools::runner {

Expected<PixelRect> probe_region(const PixelProbeSpec& probe, int32_t width, int32_t height) {
  PixelRect r;
  // Coordinates are finite floats (the parser's rule); clamp before the cast so that no conversion overflows.
  auto to_int = [](double v) { return static_cast<int32_t>(std::clamp(v, -2147483648.0, 2147483647.0)); };
  const auto& a = probe.area;
  switch (probe.region) {
    case PixelProbeSpec::Region::All: r = {0, 0, width, height}; break;
    case PixelProbeSpec::Region::Pixel:
      if (probe.relative) {
        r.x = std::min(to_int(static_cast<double>(a[0]) * width), width - 1);
        r.y = std::min(to_int(static_cast<double>(a[1]) * height), height - 1);
      } else {
        r.x = to_int(a[0]);
        r.y = to_int(a[1]);
      }
      break;
    case PixelProbeSpec::Region::Rect:
      if (probe.relative) {
        r = {to_int(static_cast<double>(a[0]) * width), to_int(static_cast<double>(a[1]) * height),
             to_int(static_cast<double>(a[2]) * width), to_int(static_cast<double>(a[3]) * height)};
      } else {
        r = {to_int(a[0]), to_int(a[1]), to_int(a[2]), to_int(a[3])};
      }
      break;
  }
  if (r.x < 0 || r.y < 0 || r.width < 1 || r.height < 1 || int64_t{r.x} + r.width > width ||
      int64_t{r.y} + r.height > height) {
    return fail("the probe reads pixels (" + std::to_string(r.x) + ", " + std::to_string(r.y) + ") to (" +
                std::to_string(int64_t{r.x} + r.width - 1) + ", " + std::to_string(int64_t{r.y} + r.height - 1) +
                "), outside the " + std::to_string(width) + "x" + std::to_string(height) + " read framebuffer");
  }
  return r;
}

std::optional<std::string> compare_probe(const PixelProbeSpec& probe, const PixelRect& rect, const float* rgba,
                                         const std::array<double, 4>& tolerance, const std::array<bool, 4>& relative) {
  const bool single = probe.region == PixelProbeSpec::Region::Pixel;
  auto colour = [&](const float* c) {
    std::ostringstream s;
    for (uint32_t i = 0; i < probe.components; ++i) s << (i ? " " : "") << c[i];
    return s.str();
  };
  for (int32_t j = 0; j < rect.height; ++j) {
    for (int32_t i = 0; i < rect.width; ++i) {
      const float* pixel =
          rgba + (static_cast<size_t>(j) * static_cast<size_t>(rect.width) + static_cast<size_t>(i)) * 4;
      for (uint32_t p = 0; p < probe.components; ++p) {
        const double allowed = relative[p] ? tolerance[p] * std::fabs(probe.expected[p]) : tolerance[p];
        const double difference = std::fabs(static_cast<double>(pixel[p]) - probe.expected[p]);
        // NaN observed never holds.
        const bool holds = single ? difference <= allowed : difference < allowed;
        if (holds) continue;
        std::ostringstream tol;
        for (uint32_t k = 0; k < probe.components; ++k) {
          tol << (k ? " " : "") << (relative[k] ? tolerance[k] * 100 : tolerance[k]) << (relative[k] ? "%" : "");
        }
        return "probe color at (" + std::to_string(rect.x + i) + ", " + std::to_string(rect.y + j) + "): expected " +
               colour(probe.expected.data()) + " (tolerance " + tol.str() + (single ? "" : ", exclusive") +
               "), observed " + colour(pixel);
      }
    }
  }
  return std::nullopt;
}

}  // namespace bismuth::tools::runner
