// The #version rewrite of the GLSL front (shaders at #version 140 .. 410 are compiled at 420) on version numbers
// with leading zeros: "#version 0000000000000000150" threw std::out_of_range out of glCompileShader
// (GL_OUT_OF_MEMORY with an empty info log), "#version 00150" turned __VERSION__ into an undeclared "__150". The
// rewrites replaced text at offsets taken before an earlier replacement changed the width.
#include <catch2/catch.hpp>

#include <string>

#include "bismuth/translator/gl_program.hpp"

using namespace bismuth::translator;

namespace {

// A raised compute shader that compiles only if __VERSION__, in code and in directives, is `expected`.
std::string checking_version(const std::string& version_text, int expected) {
  const std::string v = std::to_string(expected);
  return "#version " + version_text +
         "\n#extension GL_ARB_compute_shader : require\n"
         "#if __VERSION__ != " +
         v +
         "\n#error wrong __VERSION__\n#endif\n"
         "layout(local_size_x = 1) in;\n"
         "const int v = __VERSION__;\n"
         "void main() { int check[v == " +
         v + " ? 1 : -1]; }\n";
}

}  // namespace

TEST_CASE("A #version number with leading zeros is the same version") {
  // GLSL 4.60 §3.3: "#version number" where number is the version as __VERSION__ gives it, a decimal integer;
  // glslang reads "#version 00450" as 450 and so does the front for the versions it raises.
  for (const char* text : {"0150", "00150", "0000000000000000150", "000330", "0410"}) {
    const std::string digits(text);
    const int expected = std::stoi(digits);
    INFO(text);
    auto shader = GlShader::compile(checking_version(digits, expected));
    INFO(shader->info_log());
    CHECK(shader->ok());
  }
}

TEST_CASE("Rewrites that change a line's width keep later replacements in place") {
  // The variable-group-size rewrite widens the layout line; __VERSION__ and gl_LocalGroupSizeARB follow it on the
  // same line, behind a #version of another width than the 420 it becomes.
  auto shader = GlShader::compile(
      "#version 00000150\n"
      "#extension GL_ARB_compute_shader : require\n"
      "#extension GL_ARB_compute_variable_group_size : require\n"
      "#extension GL_ARB_shader_storage_buffer_object : require\n"
      "layout(std430, binding = 0) buffer B { uint b[]; };\n"
      "layout(local_size_variable) in; const uint v = uint(__VERSION__); void main() { b[0] = v + "
      "gl_LocalGroupSizeARB.x; }\n");
  INFO(shader->info_log());
  CHECK(shader->ok());
}

TEST_CASE("No #version text makes the compile throw or fail without a log") {
  // Whatever the number, the compile returns: a shader, or a failure whose info log says why (GL 4.6 §7.1: the
  // info log of a failed compile holds its errors). An exception out of glCompileShader became GL_OUT_OF_MEMORY.
  for (const char* text : {"0000000000000000150", "00000000000000000000000000000000000000000420", "0x96", "0226",
                           "150u", "99999999999999999999999", "1.50", "0150 core", "00150 es", "000"}) {
    INFO(text);
    std::shared_ptr<const GlShader> shader;
    REQUIRE_NOTHROW(shader = GlShader::compile(std::string("#version ") + text +
                                               "\n#extension GL_ARB_compute_shader : require\n"
                                               "layout(local_size_x = 1) in;\nvoid main() { int v = __VERSION__; }\n"));
    CHECK((shader->ok() || !shader->info_log().empty()));
  }
}
