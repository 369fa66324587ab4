// shader_runner's texture, texparameter, image texture, fb, clear and pixel probe commands: every form of
// piglit's tests/shaders/shader_runner.c (its sscanf formats quoted per test) parsed into its Command, and
// malformed lines rejected as "file:line: message".
#include <GL/glcorearb.h>

#include <catch2/catch.hpp>

#include "shader_test.hpp"

using namespace bismuth::tools::runner;

namespace {

const std::string kHead =
    "[require]\nGL >= 4.3\nGLSL >= 4.30\n\n[compute shader]\n#version 430\nlayout(local_size_x = 1) in;\nvoid main() "
    "{}\n\n[test]\n";

Command one(const std::string& line) {
  auto parsed = parse_shader_test(kHead + line + "\n", "t.shader_test");
  INFO(line << ": " << (parsed ? std::string() : parsed.error().message));
  REQUIRE(parsed);
  REQUIRE(parsed->commands.size() == 1);
  CHECK(parsed->commands[0].line == 11);
  return parsed->commands[0];
}

std::string error_of(const std::string& line) {
  auto parsed = parse_shader_test(kHead + line + "\n", "bad.shader_test");
  INFO(line);
  REQUIRE_FALSE(parsed);
  CHECK_THAT(parsed.error().message, Catch::StartsWith("bad.shader_test:11: "));
  return parsed.error().message;
}

}  // namespace

TEST_CASE("texture rgbw: \"texture rgbw %d ( %d , %d ) %31s\" and the 1D, 3D, 2DArray, 1DArray forms") {
  auto c = one("texture rgbw 0 ( 8 , 4 )");
  CHECK(c.kind == Command::Kind::Texture);
  CHECK(c.texture.content == TextureSpec::Content::Rgbw);
  CHECK(c.texture.target == GL_TEXTURE_2D);
  CHECK(c.texture.internal_format == GL_RGBA);  // piglit_rgbw_texture(GL_RGBA, ...) without a format word
  CHECK(c.texture.unit == 0);
  CHECK(c.texture.width == 8);
  CHECK(c.texture.height == 4);
  c = one("texture rgbw 3 (16,16) GL_RGBA8");
  CHECK(c.texture.unit == 3);
  CHECK(c.texture.internal_format == GL_RGBA8);
  c = one("texture rgbw 1D 2");
  CHECK(c.texture.target == GL_TEXTURE_1D);
  CHECK(c.texture.width == 4);  // piglit_rgbw_texture_1d: four texels
  c = one("texture rgbw 3D 1");
  CHECK(c.texture.target == GL_TEXTURE_3D);
  CHECK((c.texture.width == 2 && c.texture.height == 2 && c.texture.depth == 2));
  c = one("texture rgbw 2DArray 4 ( 4 , 2 , 3 )");
  CHECK(c.texture.target == GL_TEXTURE_2D_ARRAY);
  CHECK((c.texture.unit == 4 && c.texture.width == 4 && c.texture.height == 2 && c.texture.depth == 3));
  c = one("texture rgbw 1DArray 0 ( 4 , 5 )");
  CHECK(c.texture.target == GL_TEXTURE_1D_ARRAY);
  CHECK((c.texture.width == 4 && c.texture.height == 1 && c.texture.depth == 5));
}

TEST_CASE("texture checkerboard and quads: tiles of half the texture, black bottom-left and top-right") {
  // "texture checkerboard %d %d ( %d , %d ) ( %f , %f , %f , %f ) ( %f , %f , %f , %f )":
  // piglit_checkerboard_texture(0, level, w, h, w / 2, h / 2, black, white) = quads(black, white, white, black).
  auto c = one("texture checkerboard 1 0 (8, 6) (0.5, 0.0, 0.0, 1.0) (0.0, 0.25, 1.0, 1.0)");
  CHECK(c.texture.content == TextureSpec::Content::Quads);
  CHECK((c.texture.unit == 1 && c.texture.level == 0 && c.texture.width == 8 && c.texture.height == 6));
  CHECK((c.texture.quad_width == 4 && c.texture.quad_height == 3));
  CHECK(c.texture.colors[0] == 0.5f);   // bottom-left: black
  CHECK(c.texture.colors[5] == 0.25f);  // bottom-right: white
  CHECK(c.texture.colors[9] == 0.25f);  // top-left: white
  CHECK(c.texture.colors[12] == 0.5f);  // top-right: black
  // "texture quads %d %d ( %d , %d ) ( %d , %d ) ( %f , ... ) x4": bl, br, tl, tr.
  c = one("texture quads 0 2 (8, 8) (2, 4) (1, 0, 0, 1) (0, 1, 0, 1) (0, 0, 1, 1) (1, 1, 1, 1)");
  CHECK((c.texture.level == 2 && c.texture.quad_width == 2 && c.texture.quad_height == 4));
  CHECK(
      (c.texture.colors[0] == 1 && c.texture.colors[5] == 1 && c.texture.colors[10] == 1 && c.texture.colors[15] == 1));
}

TEST_CASE("texture integer, miptree, junk, shadow*, storage") {
  // "texture integer %d ( %d , %d ) ( %d, %d ) %31s"
  auto c = one("texture integer 2 (4, 3) (7, -9) GL_RGBA32I");
  CHECK(c.texture.content == TextureSpec::Content::Integer);
  CHECK((c.texture.unit == 2 && c.texture.width == 4 && c.texture.height == 3));
  CHECK((c.texture.blue == 7 && c.texture.alpha == -9));
  CHECK(c.texture.internal_format == GL_RGBA32I);
  // "texture miptree %d": 8x8, four levels.
  c = one("texture miptree 5");
  CHECK(c.texture.content == TextureSpec::Content::Miptree);
  CHECK((c.texture.unit == 5 && c.texture.width == 8 && c.texture.levels == 4));
  // "texture junk 2DArray %d ( %d , %d , %d )"
  c = one("texture junk 2DArray 0 (2, 3, 4)");
  CHECK(c.texture.content == TextureSpec::Content::Junk);
  CHECK(c.texture.target == GL_TEXTURE_2D_ARRAY);
  CHECK((c.texture.width == 2 && c.texture.height == 3 && c.texture.depth == 4));
  // "texture shadow2D %d ( %d , %d )", shadowRect, "shadow1D %d ( %d )", "shadow1DArray %d ( %d , %d )",
  // "shadow2DArray %d ( %d , %d , %d )"
  c = one("texture shadow2D 1 (4, 2)");
  CHECK(c.texture.content == TextureSpec::Content::Depth);
  CHECK(c.texture.target == GL_TEXTURE_2D);
  CHECK(c.texture.internal_format == GL_DEPTH_COMPONENT);
  CHECK((c.texture.width == 4 && c.texture.height == 2));
  CHECK(one("texture shadowRect 0 (4, 4)").texture.target == GL_TEXTURE_RECTANGLE);
  c = one("texture shadow1D 0 (8)");
  CHECK((c.texture.target == GL_TEXTURE_1D && c.texture.width == 8 && c.texture.height == 1));
  c = one("texture shadow1DArray 0 (8, 3)");
  CHECK((c.texture.target == GL_TEXTURE_1D_ARRAY && c.texture.width == 8 && c.texture.depth == 3));
  c = one("texture shadow2DArray 0 (8, 4, 3)");
  CHECK((c.texture.target == GL_TEXTURE_2D_ARRAY && c.texture.height == 4 && c.texture.depth == 3));
  // "texture storage %d TARGET FORMAT ( LEVELS W [H [D]] )": glTexStorage1D, 2D or 3D by the sizes given.
  c = one("texture storage 0 2D GL_RGBA8 (1 16 8)");
  CHECK(c.texture.content == TextureSpec::Content::Storage);
  CHECK((c.texture.target == GL_TEXTURE_2D && c.texture.internal_format == GL_RGBA8));
  CHECK((c.texture.levels == 1 && c.texture.width == 16 && c.texture.height == 8 && c.texture.dimensions == 2));
  c = one("texture storage 3 2DArray GL_R32UI (2 4 4 6)");
  CHECK((c.texture.target == GL_TEXTURE_2D_ARRAY && c.texture.depth == 6 && c.texture.dimensions == 3));
  c = one("texture storage 0 1D GL_RGBA32F (1 64)");
  CHECK((c.texture.target == GL_TEXTURE_1D && c.texture.dimensions == 1 && c.texture.width == 64));
  CHECK(one("texture storage 0 CubeArray GL_RGBA8 (1 4 4 6)").texture.target == GL_TEXTURE_CUBE_MAP_ARRAY);
}

TEST_CASE("texparameter: handle_texparameter's parameters and value names") {
  auto c = one("texparameter 2D min linear_mipmap_nearest");
  CHECK(c.kind == Command::Kind::TexParameter);
  CHECK((c.texparameter.target == GL_TEXTURE_2D && c.texparameter.pname == GL_TEXTURE_MIN_FILTER));
  CHECK(c.texparameter.int_value == GL_LINEAR_MIPMAP_NEAREST);
  c = one("texparameter 2DArray compare_func greater");
  CHECK((c.texparameter.target == GL_TEXTURE_2D_ARRAY && c.texparameter.pname == GL_TEXTURE_COMPARE_FUNC));
  CHECK(c.texparameter.int_value == GL_GREATER);
  CHECK(one("texparameter Rect wrap_s clamp_to_border").texparameter.int_value == GL_CLAMP_TO_BORDER);
  CHECK(one("texparameter 3D wrap_r repeat").texparameter.pname == GL_TEXTURE_WRAP_R);
  CHECK(one("texparameter 2D mag linear").texparameter.int_value == GL_LINEAR);
  CHECK(one("texparameter 2D swizzle_r green").texparameter.int_value == GL_GREEN);
  c = one("texparameter 2D depth_mode red");
  CHECK(c.texparameter.compat_only);  // GL_DEPTH_TEXTURE_MODE: compatibility profile only
  c = one("texparameter 2D max_level 3");
  CHECK((c.texparameter.pname == GL_TEXTURE_MAX_LEVEL && c.texparameter.int_value == 3));
  CHECK(c.texparameter.value_kind == TexParameterSpec::Value::Int);
  CHECK(one("texparameter 2D base_level 1").texparameter.pname == GL_TEXTURE_BASE_LEVEL);
  c = one("texparameter 2D lod_bias -1.5");
  CHECK((c.texparameter.pname == GL_TEXTURE_LOD_BIAS && c.texparameter.floats[0] == -1.5f));
  c = one("texparameter Cube border_color 1 0 0.5 1");
  CHECK((c.texparameter.target == GL_TEXTURE_CUBE_MAP && c.texparameter.pname == GL_TEXTURE_BORDER_COLOR));
  CHECK(c.texparameter.floats[2] == 0.5f);
}

TEST_CASE("image texture, fb, clear") {
  // "image texture %d %31s": glBindImageTexture(unit, the unit's texture, 0, GL_FALSE, 0, GL_READ_WRITE, fmt).
  auto c = one("image texture 1 GL_R32UI");
  CHECK(c.kind == Command::Kind::ImageTexture);
  CHECK((c.a[0] == 1 && c.a[1] == GL_R32UI));
  CHECK(one("image texture 0").a[1] == GL_RGBA8);  // older shader_runner: no format, GL_RGBA8
  // fb [draw|read] tex 2d UNIT...: colour attachment i is the texture of the i-th unit (-1: none).
  c = one("fb tex 2d 0");
  CHECK(c.kind == Command::Kind::FramebufferTexture);
  CHECK((c.framebuffer.target == GL_FRAMEBUFFER && !c.framebuffer.layered));
  CHECK(c.framebuffer.units == std::vector<int32_t>{0});
  CHECK(one("fb tex 2d 2 -1 1").framebuffer.units == std::vector<int32_t>{2, -1, 1});
  CHECK(one("fb draw tex 2d 0").framebuffer.target == GL_DRAW_FRAMEBUFFER);
  CHECK(one("fb read tex 2d 0").framebuffer.target == GL_READ_FRAMEBUFFER);
  c = one("fb tex layered 2DArray 3");  // older spelling; the newer one has no target
  CHECK((c.framebuffer.layered && c.framebuffer.units == std::vector<int32_t>{3}));
  CHECK(one("fb tex layered 1").framebuffer.layered);
  // Renderbuffers, window framebuffers and slices are not done: Skip when reached.
  c = one("fb tex slice 2DArray 0 0 1");
  CHECK(c.kind == Command::Kind::Unsupported);
  CHECK_THAT(c.reason, Catch::Contains("fb tex slice") && Catch::Contains("t.shader_test:11"));
  CHECK(one("fb ms GL_RGBA8 4 4 2").kind == Command::Kind::Unsupported);
  CHECK(one("fb winsys").kind == Command::Kind::Unsupported);
  // "clear color" sets glClearColor and GL_COLOR_BUFFER_BIT; "clear" calls glClear.
  c = one("clear color 0.25 0.5 0.75 1.0");
  CHECK(c.kind == Command::Kind::ClearColor);
  CHECK((c.pixel_probe.expected[0] == 0.25f && c.pixel_probe.expected[3] == 1.0f));
  CHECK(one("clear").kind == Command::Kind::Clear);
}

TEST_CASE("Pixel probes: probe rgb[a], probe all, probe rect rgba, relative probe") {
  using R = PixelProbeSpec::Region;
  auto c = one("probe rgba 1 2 0.0 1.0 0.0 1.0");
  CHECK(c.kind == Command::Kind::ProbePixels);
  CHECK((c.pixel_probe.region == R::Pixel && !c.pixel_probe.relative && c.pixel_probe.components == 4));
  CHECK((c.pixel_probe.area[0] == 1 && c.pixel_probe.area[1] == 2 && c.pixel_probe.expected[1] == 1.0f));
  c = one("probe rgb 3 4 1 0 0");
  CHECK((c.pixel_probe.components == 3 && c.pixel_probe.expected[0] == 1.0f));
  c = one("probe all rgba 0.5 0.5 0.5 1");
  CHECK((c.pixel_probe.region == R::All && c.pixel_probe.components == 4));
  CHECK(one("probe all rgb 0 0 1").pixel_probe.components == 3);
  // "probe rect rgba ( %d , %d , %d , %d ) ( %f , %f , %f , %f )"
  c = one("probe rect rgba (0, 4, 8, 2) (1.0, 0.0, 0.0, 1.0)");
  CHECK(c.pixel_probe.region == R::Rect);
  CHECK((c.pixel_probe.area[1] == 4 && c.pixel_probe.area[2] == 8 && c.pixel_probe.area[3] == 2));
  CHECK(one("probe rect rgb (0, 0, 2, 2) (1, 0, 0)").pixel_probe.components == 3);
  // "relative probe rgba ( %f , %f ) ( %f , %f , %f , %f )" and the rect forms.
  c = one("relative probe rgba (0.25, 0.75) (0.0, 0.0, 1.0, 1.0)");
  CHECK((c.pixel_probe.relative && c.pixel_probe.region == R::Pixel && c.pixel_probe.area[1] == 0.75f));
  CHECK(one("relative probe rgb (0.5, 0.5) (1, 1, 1)").pixel_probe.components == 3);
  c = one("relative probe rect rgb (0.0, 0.0, 0.5, 0.5) (1, 0, 0)");
  CHECK((c.pixel_probe.relative && c.pixel_probe.region == R::Rect && c.pixel_probe.area[2] == 0.5f));
  CHECK(one("relative probe rect rgba (0.5, 0.5, 0.5, 0.5) (1, 1, 1, 1)").pixel_probe.components == 4);
  // Integer and depth probes are not done: Skip when reached.
  CHECK(one("relative probe rect rgba int (0, 0, 1, 1) (1, 2, 3, 4)").kind == Command::Kind::Unsupported);
  CHECK(one("probe depth 0 0 1.0").kind == Command::Kind::Unsupported);
}

TEST_CASE("Malformed texture, texparameter, image, fb, clear and probe lines name the form they miss") {
  CHECK_THAT(error_of("texture rgbw 0 (8 8)"), Catch::Contains("expected \"texture rgbw UNIT ( W , H ) [GL_FORMAT]\""));
  CHECK_THAT(error_of("texture rgbw 0 (8, 8"), Catch::Contains("expected \"texture rgbw UNIT"));
  CHECK_THAT(error_of("texture rgbw 32 (8, 8)"), Catch::Contains("texture unit 32 out of range"));
  CHECK_THAT(error_of("texture rgbw -1 (8, 8)"), Catch::Contains("texture unit -1 out of range"));
  CHECK_THAT(error_of("texture rgbw 0 (0, 8)"), Catch::Contains("texture size 0 is not positive"));
  CHECK_THAT(error_of("texture rgbw 0 (8, 8) GL_NOT_A_FORMAT"),
             Catch::Contains("unknown texture format \"GL_NOT_A_FORMAT\""));
  CHECK_THAT(error_of("texture rgbw 0 (8, 8) GL_RGBA8 extra"), Catch::Contains("expected"));
  CHECK_THAT(error_of("texture rgbw 2DArray 0 (8, 8)"),
             Catch::Contains("texture rgbw 2DArray UNIT ( W , H , LAYERS )"));
  // A checkerboard of 1 texel has tiles of 0 texels (piglit divides by zero there).
  CHECK_THAT(error_of("texture checkerboard 0 0 (1, 1) (0, 0, 0, 1) (1, 1, 1, 1)"), Catch::Contains("tiles of 0x0"));
  CHECK_THAT(error_of("texture checkerboard 0 0 (8, 8) (0, 0, 0) (1, 1, 1, 1)"),
             Catch::Contains("texture checkerboard UNIT LEVEL"));
  CHECK_THAT(error_of("texture checkerboard 0 99 (8, 8) (0, 0, 0, 1) (1, 1, 1, 1)"),
             Catch::Contains("mipmap level 99 out of range"));
  CHECK_THAT(error_of("texture integer 0 (4, 4) (1, 1)"), Catch::Contains("texture integer UNIT ( W , H ) ( B , A )"));
  CHECK_THAT(error_of("texture miptree"), Catch::Contains("expected \"texture miptree UNIT\""));
  CHECK_THAT(error_of("texture junk 0 (2, 2, 2)"), Catch::Contains("texture junk 2DArray UNIT"));
  CHECK_THAT(error_of("texture shadow1D 0 (4, 4)"), Catch::Contains("texture shadow1D UNIT ( W )"));
  CHECK_THAT(error_of("texture storage 0 4D GL_RGBA8 (1 4 4)"), Catch::Contains("unknown texture target \"4D\""));
  CHECK_THAT(error_of("texture storage 0 2D GL_RGBA8 (1)"), Catch::Contains("texture storage UNIT TARGET"));
  CHECK_THAT(error_of("texture storage 0 2D GL_RGBA8 (0 4 4)"), Catch::Contains("texture size 0 is not positive"));
  CHECK_THAT(error_of("texture quads2 0"), Catch::Contains("unknown texture command"));
  CHECK_THAT(error_of("texparameter 2D min bogus"), Catch::Contains("bad min \"bogus\"") && Catch::Contains("linear"));
  CHECK_THAT(error_of("texparameter 9D min linear"), Catch::Contains("unknown texture target \"9D\""));
  CHECK_THAT(error_of("texparameter 2D sharpness 1"), Catch::Contains("unknown texture parameter \"sharpness\""));
  CHECK_THAT(error_of("texparameter 2D border_color 1 0 0"), Catch::Contains("border_color R G B A"));
  CHECK_THAT(error_of("texparameter 2D max_level 1.5"), Catch::Contains("texparameter 2D max_level N"));
  CHECK_THAT(error_of("texparameter 2D"), Catch::Contains("expected \"texparameter TARGET NAME VALUE\""));
  CHECK_THAT(error_of("image texture"), Catch::Contains("expected \"image texture UNIT [GL_FORMAT]\""));
  CHECK_THAT(error_of("image texture 0 GL_BOGUS"), Catch::Contains("unknown image format \"GL_BOGUS\""));
  CHECK_THAT(error_of("image texture 40 GL_R32F"), Catch::Contains("texture unit 40 out of range"));
  CHECK_THAT(error_of("fb tex 2d"), Catch::Contains("expected \"fb [draw|read] tex 2d UNIT...\""));
  CHECK_THAT(error_of("fb tex 2d 40"), Catch::Contains("texture unit 40 out of range"));
  CHECK_THAT(error_of("fb tex layered 2DArray"), Catch::Contains("fb [draw|read] tex layered [2DArray] UNIT"));
  CHECK_THAT(error_of("clear color 1 0 0"), Catch::Contains("expected \"clear color R G B A\""));
  CHECK_THAT(error_of("clear color 1 0 0 inf"), Catch::Contains("expected \"clear color R G B A\""));
  CHECK_THAT(error_of("probe rgba 0 0 1 0 0"), Catch::Contains("expected \"probe rgba X Y R G B A\""));
  CHECK_THAT(error_of("probe rgb 0 0 1 0 0 1"), Catch::Contains("expected \"probe rgb X Y R G B\""));
  CHECK_THAT(error_of("probe all rgba 1 0 0 nan"), Catch::Contains("expected \"probe all rgba R G B A\""));
  CHECK_THAT(error_of("probe rect rgba (0, 0, 4) (1, 0, 0, 1)"),
             Catch::Contains("expected \"probe rect rgba ( X , Y , W , H ) ( R , G , B , A )\""));
  CHECK_THAT(error_of("probe rect rgba (0.5, 0, 4, 4) (1, 0, 0, 1)"), Catch::Contains("probe rect rgba ( X"));
  CHECK_THAT(error_of("relative probe rgba (0.5 0.5) (1, 1, 1, 1)"),
             Catch::Contains("expected \"relative probe rgba ( X , Y ) ( R , G , B , A )\""));
  CHECK_THAT(error_of("relative probe all rgba 1 1 1 1"), Catch::Contains("unknown command"));
}
