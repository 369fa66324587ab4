// Texture completeness (GL 4.6 §8.17), level sizes (§8.14.3) and the effective sampler state of a texture unit
// (§8.2) — textures.hpp's pure helpers, which dispatch asks before binding a texture.
#include <catch2/catch.hpp>

#include "textures.hpp"

using namespace bismuth::gl;

namespace {

// A mutable texture of `target` whose levels [0, count) are the full chain from a w × h × d base of `format`.
TextureObject make(GLenum target, GLenum format, uint32_t w, uint32_t h, uint32_t d, uint32_t count) {
  TextureObject t;
  t.target = target;
  t.levels.assign(face_count(target), std::vector<TextureLevel>(kMaxTextureLevels));
  const TextureLevel base{find_sized_format(format), format, w, h, d};
  for (auto& face : t.levels) {
    for (uint32_t i = 0; i < count; ++i) face[i] = level_of(target, base, i);
  }
  return t;
}

SamplerState filters(GLenum min, GLenum mag) {
  SamplerState s;
  s.min_filter = min;
  s.mag_filter = mag;
  return s;
}

}  // namespace

TEST_CASE("level sizes halve per level and keep array layers (GL 4.6 §8.14.3)", "[textures]") {
  // "the dimensions of the array at level i+1 are floor(w/2) x floor(h/2) x floor(d/2), at least 1; for array
  // textures the layer count stays".
  const TextureLevel base{find_sized_format(GL_RGBA8), GL_RGBA8, 17, 5, 6};
  const TextureLevel a = level_of(GL_TEXTURE_2D_ARRAY, base, 2);
  CHECK(a.width == 4);
  CHECK(a.height == 1);
  CHECK(a.depth == 6);
  const TextureLevel v = level_of(GL_TEXTURE_3D, base, 2);
  CHECK(v.depth == 1);
  const TextureLevel l = level_of(GL_TEXTURE_1D_ARRAY, base, 3);
  CHECK(l.width == 2);
  CHECK(l.height == 5);  // 1D arrays: height counts layers
  // floor(log2(max(w, h, d))) + 1, layers excluded.
  CHECK(full_level_count(GL_TEXTURE_2D, 17, 5, 1) == 5);
  CHECK(full_level_count(GL_TEXTURE_2D_ARRAY, 4, 4, 1000) == 3);
  CHECK(full_level_count(GL_TEXTURE_3D, 2, 2, 64) == 7);
  CHECK(full_level_count(GL_TEXTURE_1D_ARRAY, 8, 1000, 1) == 4);
  CHECK(full_level_count(GL_TEXTURE_RECTANGLE, 64, 64, 1) == 1);
}

TEST_CASE("a level larger than the target's maximum is an error (GL 4.6 §8.5)", "[textures]") {
  TextureSizeLimits limits;
  limits.max_texture_size = 1024;
  limits.max_array_layers = 16;
  CHECK(check_level_size(GL_TEXTURE_2D, limits, 0, 1024, 1024, 1).empty());
  CHECK_FALSE(check_level_size(GL_TEXTURE_2D, limits, 0, 1025, 4, 1).empty());
  // The maximum of level i is the maximum shifted right by i.
  CHECK_FALSE(check_level_size(GL_TEXTURE_2D, limits, 1, 513, 4, 1).empty());
  CHECK_FALSE(check_level_size(GL_TEXTURE_2D_ARRAY, limits, 0, 4, 4, 17).empty());
  CHECK_FALSE(check_level_size(GL_TEXTURE_CUBE_MAP, limits, 0, 4, 8, 1).empty());        // faces must be square
  CHECK_FALSE(check_level_size(GL_TEXTURE_CUBE_MAP_ARRAY, limits, 0, 4, 4, 8).empty());  // layer-faces % 6
  CHECK_FALSE(check_level_size(GL_TEXTURE_2D, limits, 0, -1, 4, 1).empty());
}

TEST_CASE("texture completeness follows GL 4.6 §8.17", "[textures]") {
  SECTION("a mipmap filter needs every level from base to q") {
    TextureObject t = make(GL_TEXTURE_2D, GL_RGBA8, 8, 8, 1, 3);  // levels 0..2 of 0..3
    std::string why;
    CHECK_FALSE(texture_complete(t, filters(GL_NEAREST_MIPMAP_NEAREST, GL_NEAREST), &why));
    CHECK(why.find("level 3") != std::string::npos);
    // "If the minification filter does not require mipmaps, only the base level matters."
    CHECK(texture_complete(t, filters(GL_LINEAR, GL_LINEAR)));
    // MAX_LEVEL 2 ends the chain at level 2.
    t.max_level = 2;
    CHECK(texture_complete(t, filters(GL_LINEAR_MIPMAP_LINEAR, GL_LINEAR)));
  }
  SECTION("a level with the wrong size or format breaks mipmap completeness") {
    TextureObject t = make(GL_TEXTURE_2D, GL_RGBA8, 4, 4, 1, 3);
    CHECK(texture_complete(t, filters(GL_NEAREST_MIPMAP_LINEAR, GL_LINEAR)));
    t.levels[0][1].width = 3;
    CHECK_FALSE(texture_complete(t, filters(GL_NEAREST_MIPMAP_LINEAR, GL_LINEAR)));
    t.levels[0][1].width = 2;
    t.levels[0][1].format = find_sized_format(GL_RGBA16F);
    CHECK_FALSE(texture_complete(t, filters(GL_NEAREST_MIPMAP_LINEAR, GL_LINEAR)));
  }
  SECTION("BASE_LEVEL selects the chain; BASE_LEVEL > MAX_LEVEL is incomplete") {
    TextureObject t = make(GL_TEXTURE_2D, GL_RGBA8, 8, 8, 1, 4);
    t.levels[0][0] = TextureLevel{};  // level 0 undefined
    t.base_level = 1;
    CHECK(texture_complete(t, filters(GL_NEAREST_MIPMAP_NEAREST, GL_NEAREST)));
    t.max_level = 0;
    CHECK_FALSE(texture_complete(t, filters(GL_NEAREST, GL_NEAREST)));
  }
  SECTION("an undefined or empty base level is incomplete") {
    TextureObject t = make(GL_TEXTURE_2D, GL_RGBA8, 4, 4, 1, 0);
    CHECK_FALSE(texture_complete(t, filters(GL_NEAREST, GL_NEAREST)));
  }
  SECTION("integer formats with a LINEAR filter are incomplete") {
    TextureObject t = make(GL_TEXTURE_2D, GL_RGBA32UI, 4, 4, 1, 1);
    CHECK(texture_complete(t, filters(GL_NEAREST, GL_NEAREST)));
    CHECK_FALSE(texture_complete(t, filters(GL_NEAREST, GL_LINEAR)));
    CHECK_FALSE(texture_complete(t, filters(GL_LINEAR, GL_NEAREST)));
    t.levels[0][0] = level_of(GL_TEXTURE_2D, TextureLevel{find_sized_format(GL_R32I), GL_R32I, 4, 4, 1}, 0);
    CHECK_FALSE(texture_complete(t, filters(GL_LINEAR, GL_NEAREST)));
  }
  SECTION("a cube map needs six equal faces at the base level (cube complete)") {
    TextureObject t = make(GL_TEXTURE_CUBE_MAP, GL_RGBA8, 4, 4, 1, 1);
    CHECK(texture_complete(t, filters(GL_LINEAR, GL_LINEAR)));
    t.levels[3][0].width = t.levels[3][0].height = 2;
    CHECK_FALSE(texture_complete(t, filters(GL_LINEAR, GL_LINEAR)));
    t.levels[3][0] = TextureLevel{};
    CHECK_FALSE(texture_complete(t, filters(GL_LINEAR, GL_LINEAR)));
  }
  SECTION("immutable textures clamp BASE_LEVEL and MAX_LEVEL to their levels") {
    TextureObject t = make(GL_TEXTURE_2D, GL_RGBA8, 8, 8, 1, 2);
    t.immutable = true;
    t.immutable_levels = 2;
    // With MAX_LEVEL 1000 a mutable texture would need levels up to 3; an immutable one stops at level 1.
    CHECK(texture_complete(t, filters(GL_LINEAR_MIPMAP_LINEAR, GL_LINEAR)));
    CHECK(effective_top_level(t) == 1);
    t.base_level = 5;  // clamped to 1
    CHECK(texture_complete(t, filters(GL_LINEAR_MIPMAP_LINEAR, GL_LINEAR)));
  }
}

TEST_CASE("a sampler object on the unit overrides the texture's sampler state (GL 4.6 §8.2)", "[textures]") {
  TextureObject t = make(GL_TEXTURE_2D, GL_RGBA8, 8, 8, 1, 4);
  t.sampler.min_filter = GL_NEAREST;
  t.sampler.wrap_s = GL_CLAMP_TO_EDGE;
  t.swizzle = {GL_BLUE, GL_GREEN, GL_RED, GL_ONE};
  t.base_level = 1;
  EffectiveSampler own = effective_sampler(t, nullptr);
  CHECK(own.sampler.min_filter == GL_NEAREST);
  CHECK(own.sampler.wrap_s == GL_CLAMP_TO_EDGE);
  CHECK(own.base_level == 1);
  CHECK(own.max_level == 3);
  SamplerObject s;
  s.state.min_filter = GL_LINEAR_MIPMAP_LINEAR;
  s.state.compare_mode = GL_COMPARE_REF_TO_TEXTURE;
  EffectiveSampler with = effective_sampler(t, &s);
  CHECK(with.sampler.min_filter == GL_LINEAR_MIPMAP_LINEAR);
  CHECK(with.sampler.wrap_s == GL_REPEAT);  // the sampler's own initial value, not the texture's
  CHECK(with.sampler.compare_mode == GL_COMPARE_REF_TO_TEXTURE);
  // Swizzle and the levels are texture state, not sampler state (table 23.16 vs 23.18).
  CHECK(with.swizzle[0] == GL_BLUE);
  CHECK(with.base_level == 1);
}
