// Image-unit validity (GL 4.6 §8.26.1, "an access is considered invalid if ..."): textures.hpp's image_unit_valid,
// which dispatch asks before binding an image unit (an invalid unit reads zero and ignores stores).
#include <catch2/catch.hpp>

#include <memory>

#include "textures.hpp"

using namespace bismuth::gl;

namespace {

std::shared_ptr<TextureObject> texture(GLenum target, GLenum format, uint32_t w, uint32_t h, uint32_t d,
                                       uint32_t levels) {
  auto t = std::make_shared<TextureObject>();
  t->target = target;
  t->levels.assign(face_count(target), std::vector<TextureLevel>(kMaxTextureLevels));
  const TextureLevel base{find_sized_format(format), format, w, h, d};
  for (auto& face : t->levels) {
    for (uint32_t i = 0; i < levels; ++i) face[i] = level_of(target, base, i);
  }
  t->immutable = true;
  t->immutable_levels = levels;
  return t;
}

ImageUnit unit(std::shared_ptr<TextureObject> t, GLint level, bool layered, GLint layer, GLenum format) {
  return ImageUnit{std::move(t), level, layered, layer, GL_READ_WRITE, format};
}

}  // namespace

TEST_CASE("an image unit with no texture is invalid", "[images]") {
  CHECK_FALSE(image_unit_valid(ImageUnit{}));
}

TEST_CASE("the bound level must lie in [base level, q] (GL 4.6 §8.26.1)", "[images]") {
  auto t = texture(GL_TEXTURE_2D, GL_RGBA8, 8, 8, 1, 3);
  CHECK(image_unit_valid(unit(t, 0, false, 0, GL_RGBA8)));
  CHECK(image_unit_valid(unit(t, 2, false, 0, GL_RGBA8)));
  std::string why;
  CHECK_FALSE(image_unit_valid(unit(t, 3, false, 0, GL_RGBA8), &why));
  CHECK(why.find("level") != std::string::npos);
  t->base_level = 1;
  CHECK_FALSE(image_unit_valid(unit(t, 0, false, 0, GL_RGBA8)));
  t->base_level = 0;
  t->max_level = 1;
  CHECK_FALSE(image_unit_valid(unit(t, 2, false, 0, GL_RGBA8)));
}

TEST_CASE("the texture's format must be an image format compatible with the unit's (tables 8.26, 8.27)", "[images]") {
  // By size (IMAGE_FORMAT_COMPATIBILITY_BY_SIZE): RGBA8 and R32F are both 32-bit texels.
  auto rgba8 = texture(GL_TEXTURE_2D, GL_RGBA8, 4, 4, 1, 1);
  CHECK(image_unit_valid(unit(rgba8, 0, false, 0, GL_R32F)));
  CHECK(image_unit_valid(unit(rgba8, 0, false, 0, GL_R11F_G11F_B10F)));
  CHECK_FALSE(image_unit_valid(unit(rgba8, 0, false, 0, GL_RGBA16F)));  // 64-bit texels
  // "the internal format of the texture bound to the image unit is not found in table 8.26": RGB8, SRGB8_ALPHA8.
  auto rgb8 = texture(GL_TEXTURE_2D, GL_RGB8, 4, 4, 1, 1);
  CHECK_FALSE(image_unit_valid(unit(rgb8, 0, false, 0, GL_RGBA8)));
  auto srgb = texture(GL_TEXTURE_2D, GL_SRGB8_ALPHA8, 4, 4, 1, 1);
  CHECK_FALSE(image_unit_valid(unit(srgb, 0, false, 0, GL_RGBA8)));
}

TEST_CASE("a single layer must exist in the bound level (GL 4.6 §8.26.1)", "[images]") {
  auto array = texture(GL_TEXTURE_2D_ARRAY, GL_R32UI, 4, 4, 3, 1);
  CHECK(image_unit_valid(unit(array, 0, false, 2, GL_R32UI)));
  CHECK_FALSE(image_unit_valid(unit(array, 0, false, 3, GL_R32UI)));
  CHECK(image_unit_valid(unit(array, 0, true, 3, GL_R32UI)));  // layered: the layer is ignored
  auto cube = texture(GL_TEXTURE_CUBE_MAP, GL_RGBA32F, 4, 4, 1, 1);
  CHECK(image_unit_valid(unit(cube, 0, false, 5, GL_RGBA32F)));
  CHECK_FALSE(image_unit_valid(unit(cube, 0, false, 6, GL_RGBA32F)));
  // A 3D texture's layers are the slices of the bound level: 4 at level 0, 2 at level 1.
  auto volume = texture(GL_TEXTURE_3D, GL_RGBA8, 4, 4, 4, 2);
  CHECK(image_unit_valid(unit(volume, 1, false, 1, GL_RGBA8)));
  CHECK_FALSE(image_unit_valid(unit(volume, 1, false, 2, GL_RGBA8)));
}

TEST_CASE("an incomplete texture gives invalid image accesses (GL 4.6 §8.26.1)", "[images]") {
  auto cube = texture(GL_TEXTURE_CUBE_MAP, GL_RGBA8, 4, 4, 1, 1);
  cube->levels[2][0] = TextureLevel{};  // one face missing: not cube complete
  CHECK_FALSE(image_unit_valid(unit(cube, 0, true, 0, GL_RGBA8)));
}
