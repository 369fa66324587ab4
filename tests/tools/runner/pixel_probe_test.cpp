// Pixel probes on pixels already read back (pixel_probe.hpp), as piglit-util-gl.c compares them:
// piglit_probe_pixel_rgba fails when "fabs(probe[i] - expected[i]) > piglit_tolerance[i]", piglit_probe_rect_rgba
// when "fabs(probe[p] - expected[p]) >= piglit_tolerance[p]"; shader_runner's relative probes take
// "x = c[0] * read_width", clamped to read_width - 1.
#include <catch2/catch.hpp>

#include <vector>

#include "pixel_probe.hpp"

using namespace bismuth::tools::runner;

namespace {

const std::array<double, 4> kTolerance = {0.01, 0.01, 0.01, 0.01};
const std::array<bool, 4> kAbsolute = {false, false, false, false};

PixelProbeSpec probe(PixelProbeSpec::Region region, std::array<float, 4> area, std::array<float, 4> expected,
                     bool relative = false, uint32_t components = 4) {
  PixelProbeSpec p;
  p.region = region;
  p.area = area;
  p.expected = expected;
  p.relative = relative;
  p.components = components;
  return p;
}

}  // namespace

TEST_CASE("probe_region: absolute pixels, the whole framebuffer, relative coordinates clamped to the last pixel") {
  using R = PixelProbeSpec::Region;
  auto r = probe_region(probe(R::Pixel, {3.9f, 2, 0, 0}, {}), 8, 8);
  REQUIRE(r);
  CHECK((r->x == 3 && r->y == 2 && r->width == 1 && r->height == 1));  // (int) c[0]
  r = probe_region(probe(R::All, {}, {}), 16, 4);
  REQUIRE(r);
  CHECK((r->x == 0 && r->y == 0 && r->width == 16 && r->height == 4));
  r = probe_region(probe(R::Pixel, {1.0f, 0.5f, 0, 0}, {}, true), 8, 6);
  REQUIRE(r);
  CHECK((r->x == 7 && r->y == 3));  // 1.0 * 8 = 8, clamped to 7
  r = probe_region(probe(R::Rect, {0.5f, 0.25f, 0.5f, 0.5f}, {}, true), 8, 8);
  REQUIRE(r);
  CHECK((r->x == 4 && r->y == 2 && r->width == 4 && r->height == 4));
  r = probe_region(probe(R::Rect, {2, 2, 3, 1}, {}), 8, 8);
  REQUIRE(r);
  CHECK((r->x == 2 && r->width == 3 && r->height == 1));
}

TEST_CASE("probe_region: a region outside the read framebuffer, or empty, is an error naming both") {
  using R = PixelProbeSpec::Region;
  auto r = probe_region(probe(R::Pixel, {8, 0, 0, 0}, {}), 8, 8);
  REQUIRE_FALSE(r);
  CHECK_THAT(r.error().message, Catch::Contains("(8, 0)") && Catch::Contains("outside the 8x8 read framebuffer"));
  CHECK_FALSE(probe_region(probe(R::Pixel, {-1, 0, 0, 0}, {}), 8, 8));
  CHECK_FALSE(probe_region(probe(R::Rect, {4, 4, 5, 1}, {}), 8, 8));
  CHECK_FALSE(probe_region(probe(R::Rect, {0, 0, 0, 1}, {}), 8, 8));
  CHECK_FALSE(probe_region(probe(R::Rect, {0, 0, 1e30f, 1}, {}), 8, 8));
}

TEST_CASE("compare_probe: one pixel holds at the tolerance, a rectangle does not (> versus >=)") {
  using R = PixelProbeSpec::Region;
  const std::vector<float> pixel = {0.5f, 0.25f, 1.0f, 1.0f};
  PixelRect one;
  // Differences of exactly 0.25 against a tolerance of 0.25 (both exact in binary).
  const std::array<double, 4> quarter = {0.25, 0.25, 0.25, 0.25};
  CHECK_FALSE(compare_probe(probe(R::Pixel, {}, {0.75f, 0.25f, 1, 1}), one, pixel.data(), quarter, kAbsolute));
  const auto rect =
      compare_probe(probe(R::Rect, {0, 0, 1, 1}, {0.75f, 0.25f, 1, 1}), one, pixel.data(), quarter, kAbsolute);
  REQUIRE(rect);
  CHECK_THAT(*rect, Catch::Contains("probe color at (0, 0)") && Catch::Contains("expected 0.75 0.25 1 1") &&
                        Catch::Contains("observed 0.5 0.25 1 1"));
  CHECK_FALSE(compare_probe(probe(R::All, {}, {0.505f, 0.25f, 1, 1}), one, pixel.data(), kTolerance, kAbsolute));
}

TEST_CASE("compare_probe: rgb ignores alpha, the first failing pixel is named, relative tolerances scale") {
  using R = PixelProbeSpec::Region;
  // A 2x2 region at (4, 6): the pixel at (5, 7) is wrong in green.
  const std::vector<float> pixels = {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0.5f, 0, 0};
  const PixelRect rect{4, 6, 2, 2};
  CHECK_FALSE(compare_probe(probe(R::Rect, {}, {1, 0, 0, 9}, false, 3), PixelRect{4, 6, 2, 1}, pixels.data(),
                            kTolerance, kAbsolute));
  const auto failed =
      compare_probe(probe(R::Rect, {}, {1, 0, 0, 9}, false, 3), rect, pixels.data(), kTolerance, kAbsolute);
  REQUIRE(failed);
  CHECK_THAT(*failed, Catch::Contains("(5, 7)") && Catch::Contains("observed 1 0.5 0"));
  // 10% of 1.0 allows 0.05 off; 1% does not.
  const std::vector<float> near = {0.95f, 0, 0, 1};
  CHECK_FALSE(compare_probe(probe(R::Pixel, {}, {1, 0, 0, 1}), PixelRect{}, near.data(), {0.1, 0.1, 0.1, 0.1},
                            {true, true, true, true}));
  CHECK(compare_probe(probe(R::Pixel, {}, {1, 0, 0, 1}), PixelRect{}, near.data(), {0.01, 0.01, 0.01, 0.01},
                      {true, true, true, true}));
}
