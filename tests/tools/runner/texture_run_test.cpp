// shader_runner's texture, image, framebuffer, clear and pixel probe commands end to end (`bismuth run` with
// BISMUTH_VALIDATION=1): tests/conformance/compute_textures passes where libbismuth-gl has the texture entry
// points and otherwise skips naming the ones it lacks; the failure paths that do not depend on them are checked
// in small files written here.
#include <catch2/catch.hpp>

#include "runner_test_support.hpp"

using namespace bismuth::runnertest;

namespace {

const std::string kHead =
    "[require]\nGL >= 4.3\nGLSL >= 4.30\n\n[compute shader]\n#version 430\nlayout(local_size_x = 1) in;\n"
    "void main() {}\n\n[test]\n";  // the first [test] command is line 11

}  // namespace

TEST_CASE("tests/conformance/compute_textures: each test passes, or skips naming the entry points it lacks",
          "[vulkan]") {
  const auto r = run_json({(source_dir() / "tests/conformance/compute_textures").string()});
  for (const char* name : {"image_store_probe_all", "image_store_gradient", "sampler_rgbw_to_ssbo",
                           "texture_integer_to_ssbo", "miptree_levels", "checkerboard_and_quads", "shadow_texparameter",
                           "clear_framebuffer", "array_layers", "gles31_sampler_to_image"}) {
    INFO(name << ": " << message(r, name));
    const std::string s = status(r, name);
    if (s == "Skip") {
      // The ES test may also stop at the context: libbismuth-gl's EGL without OpenGL ES contexts.
      CHECK_THAT(message(r, name),
                 Catch::Contains("which this libbismuth-gl lacks") || Catch::Contains("an OpenGL ES 3.1 context: egl"));
    } else {
      CHECK(s == "Pass");
    }
  }
}

TEST_CASE("Texture commands: malformed lines fail at parse time, missing textures fail, window probes skip",
          "[vulkan]") {
  TempDir dir;
  dir.write("malformed.shader_test", kHead + "texture rgbw 0 (8 8)\n");
  dir.write("fb_without_texture.shader_test", kHead + "fb tex 2d 3\n");
  dir.write("image_without_texture.shader_test", kHead + "image texture 1 GL_R32F\n");
  dir.write("probe_without_fb.shader_test", kHead + "probe all rgba 0 0 0 0\n");
  dir.write("depth_mode.shader_test", kHead + "texparameter 2D depth_mode red\n");
  dir.write("draw.shader_test", kHead + "draw rect -1 -1 2 2\n");
  dir.write("huge_texture.shader_test", kHead + "texture rgbw 0 (2147483647, 2147483647)\n");
  const auto r = run_json({dir.path().string()});
  CHECK(status(r, "malformed") == "Fail");
  CHECK_THAT(message(r, "malformed"),
             Catch::Contains("malformed.shader_test:11: expected \"texture rgbw UNIT ( W , H ) [GL_FORMAT]\""));
  // shader_runner's get_texture_binding: "No texture bound at %d".
  CHECK(status(r, "fb_without_texture") == "Fail");
  CHECK_THAT(message(r, "fb_without_texture"),
             Catch::Contains("fb_without_texture.shader_test:11: \"fb tex 2d 3\": no texture at unit 3"));
  CHECK(status(r, "image_without_texture") == "Fail");
  CHECK_THAT(message(r, "image_without_texture"), Catch::Contains("no texture at unit 1"));
  CHECK(status(r, "probe_without_fb") == "Skip");
  CHECK_THAT(message(r, "probe_without_fb"),
             Catch::Contains("probe_without_fb.shader_test:11") && Catch::Contains("window system framebuffer"));
  CHECK(status(r, "depth_mode") == "Skip");
  CHECK_THAT(message(r, "depth_mode"), Catch::Contains("GL_DEPTH_TEXTURE_MODE, a compatibility-profile parameter"));
  // The runner builds generated images in memory: a size no test needs is refused before any allocation.
  CHECK(status(r, "huge_texture") == "Fail");
  CHECK_THAT(message(r, "huge_texture"),
             Catch::Contains("huge_texture.shader_test:11:") && Catch::Contains("texels: more than the 33554432"));
  // Rasterization stays a Skip naming the command.
  CHECK(status(r, "draw") == "Skip");
  CHECK_THAT(message(r, "draw"),
             Catch::Contains("\"draw rect -1 -1 2 2\" at ") && Catch::Contains("draw.shader_test:11"));
}
