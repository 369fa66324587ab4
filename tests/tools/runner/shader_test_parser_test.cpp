// The shader_test parser: one test per supported [require] line and [test] command, and malformed files that
// must give "file:line: message" (never a crash).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <limits>

#include "shader_test.hpp"

using namespace bismuth::tools::runner;

namespace {

const std::string kHead =
    "[require]\nGL >= 4.3\nGLSL >= 4.30\n\n[compute shader]\n#version 430\nlayout(local_size_x = 1) in;\nvoid main() "
    "{}\n\n[test]\n";

ShaderTest parse_ok(const std::string& text) {
  auto parsed = parse_shader_test(text, "t.shader_test");
  INFO((parsed ? std::string() : parsed.error().message));
  REQUIRE(parsed);
  return *parsed;
}

Command one_command(const std::string& line) {
  const auto test = parse_ok(kHead + line + "\n");
  REQUIRE(test.commands.size() == 1);
  CHECK(test.commands[0].line == 11);
  CHECK(test.commands[0].text == line);
  return test.commands[0];
}

std::string parse_error(const std::string& text) {
  auto parsed = parse_shader_test(text, "bad.shader_test");
  REQUIRE_FALSE(parsed);
  return parsed.error().message;
}

float as_float(uint64_t bits) {
  const uint32_t b = static_cast<uint32_t>(bits);
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}

}  // namespace

TEST_CASE("Sections: compute shader text keeps its lines and the file line of its first line") {
  const auto t = parse_ok(kHead + "compute 1 1 1\n");
  REQUIRE(t.glsl_shaders.size() == 1);
  CHECK(t.glsl_shaders[0].first_line == 6);
  CHECK(t.glsl_shaders[0].text == "#version 430\nlayout(local_size_x = 1) in;\nvoid main() {}\n\n");
  CHECK_FALSE(t.unsupported);
}

TEST_CASE("Several compute shader sections are kept in order for one link") {
  const auto t = parse_ok("[require]\nGL >= 4.3\n[compute shader]\nA\n[compute shader]\nB\n[test]\ncompute 1 1 1\n");
  REQUIRE(t.glsl_shaders.size() == 2);
  CHECK(t.glsl_shaders[0].text == "A\n");
  CHECK(t.glsl_shaders[1].text == "B\n");
  CHECK(t.glsl_shaders[1].first_line == 6);
}

TEST_CASE("Require: GL and GLSL versions with every comparison") {
  const auto t = parse_ok(
      "[require]\nGL >= 4.3\nGLSL < 4.60\nGL CORE == 4.6\nGLSL != 1.10\nGL > 3.0\nGLSL <= 4.5\n"
      "[compute shader]\nx\n");
  REQUIRE(t.requirements.size() == 6);
  CHECK(t.requirements[0].kind == Requirement::Kind::GlVersion);
  CHECK(t.requirements[0].value == 430);
  CHECK(t.requirements[0].op == CompareOp::GreaterEqual);
  CHECK(t.requirements[1].kind == Requirement::Kind::GlslVersion);
  CHECK(t.requirements[1].value == 460);
  CHECK(t.requirements[1].op == CompareOp::Less);
  CHECK(t.requirements[2].value == 460);
  CHECK(t.requirements[2].op == CompareOp::Equal);
  CHECK(t.requirements[3].value == 110);
  CHECK(t.requirements[3].op == CompareOp::NotEqual);
  CHECK(t.requirements[4].op == CompareOp::Greater);
  CHECK(t.requirements[5].value == 450);
  CHECK(t.requirements[5].op == CompareOp::LessEqual);
  CHECK(t.requirements[1].line == 3);
}

TEST_CASE("Require: extensions, absent extensions and limits") {
  const auto t = parse_ok(
      "[require]\nGL_ARB_compute_shader\n!GL_ARB_foo\nINT GL_MAX_COMPUTE_SHARED_MEMORY_SIZE >= 1024\n"
      "FLOAT GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS > 1.5\nGL_MAX_UNIFORM_BLOCK_SIZE >= 16384\n[compute shader]\nx\n");
  REQUIRE(t.requirements.size() == 5);
  CHECK(t.requirements[0].kind == Requirement::Kind::Extension);
  CHECK(t.requirements[0].name == "GL_ARB_compute_shader");
  CHECK(t.requirements[1].kind == Requirement::Kind::NotExtension);
  CHECK(t.requirements[1].name == "GL_ARB_foo");
  CHECK(t.requirements[2].kind == Requirement::Kind::IntLimit);
  CHECK(t.requirements[2].name == "GL_MAX_COMPUTE_SHARED_MEMORY_SIZE");
  CHECK(t.requirements[2].value == 1024);
  CHECK(t.requirements[3].kind == Requirement::Kind::FloatLimit);
  CHECK(t.requirements[3].value == 1.5);
  CHECK(t.requirements[4].kind == Requirement::Kind::IntLimit);
  CHECK(t.requirements[4].value == 16384);
}

TEST_CASE("Require: GL ES and GLSL ES versions (shader_runner's parse_version_comparison) ask for an ES context") {
  const auto t = parse_ok("[require]\nGL ES >= 3.1\nGLSL ES >= 3.10\n[compute shader]\nx\n");
  REQUIRE(t.requirements.size() == 2);
  CHECK(t.requirements[0].kind == Requirement::Kind::GlVersion);
  CHECK(t.requirements[0].es);
  CHECK(t.requirements[0].value == 310);
  CHECK(t.requirements[1].kind == Requirement::Kind::GlslVersion);
  CHECK(t.requirements[1].es);
  CHECK(t.requirements[1].value == 310);
  CHECK(t.es_context_version == 31);
  // "GLSL ES >= 3.10" is also the #version a section without one gets: "#version 310 es".
  CHECK(t.glsl_required == 310);
  CHECK(t.glsl_required_es);
  // Desktop requirements leave the context desktop GL.
  const auto desktop = parse_ok("[require]\nGL CORE >= 4.3\nGLSL >= 4.30\n[compute shader]\nx\n");
  CHECK(desktop.es_context_version == 0);
  CHECK_FALSE(desktop.requirements[0].es);
  CHECK(desktop.glsl_required == 430);
  CHECK_FALSE(desktop.glsl_required_es);
}

TEST_CASE("Require: a compatibility profile is a skip reason, not an error") {
  const auto t = parse_ok("[require]\nGL COMPAT >= 4.3\n[compute shader]\nx\n");
  REQUIRE(t.requirements.size() == 1);
  CHECK(t.requirements[0].kind == Requirement::Kind::Unsupported);
  CHECK_THAT(t.requirements[0].reason, Catch::Contains("GL COMPAT >= 4.3") && Catch::Contains("t.shader_test:2"));
}

TEST_CASE("SSO ENABLED: each stage a program in a pipeline, active shader program names a stage by shader type") {
  const auto t = parse_ok(
      "[require]\nSSO ENABLED\n[compute shader]\nx\n[test]\nactive shader program GL_COMPUTE_SHADER\n"
      "active shader program GL_VERTEX_SHADER\n");
  CHECK(t.sso);
  CHECK(t.requirements.empty());
  REQUIRE(t.commands.size() == 2);
  CHECK(t.commands[0].kind == Command::Kind::ActiveShaderProgram);
  CHECK(t.commands[0].a[0] == static_cast<uint64_t>(Stage::Compute));
  CHECK(t.commands[1].a[0] == static_cast<uint64_t>(Stage::Vertex));
  CHECK_THAT(parse_error("[require]\n[compute shader]\nx\n[test]\nactive shader program compute\n"),
             Catch::Contains("GL_<STAGE>_SHADER"));
}

TEST_CASE("Require: any GL enum as a bare or INT limit (GL_SUBGROUP_SIZE_KHR >= 32), !GL_ and -GL_ negations") {
  const auto t = parse_ok(
      "[require]\nGL_SUBGROUP_SIZE_KHR >= 32\nINT GL_SUBGROUP_SUPPORTED_FEATURES_KHR >= 0x7\n!GL_ARB_a\n-GL_ARB_b\n"
      "SEPARABLE PROGRAM ENABLED\nignore_missing_uniforms\n[compute shader]\nx\n");
  REQUIRE(t.requirements.size() == 4);
  CHECK(t.requirements[0].kind == Requirement::Kind::IntLimit);
  CHECK(t.requirements[0].name == "GL_SUBGROUP_SIZE_KHR");
  CHECK(t.requirements[0].value == 32);
  CHECK(t.requirements[1].name == "GL_SUBGROUP_SUPPORTED_FEATURES_KHR");
  CHECK(t.requirements[1].value == 7);
  CHECK(t.requirements[2].kind == Requirement::Kind::NotExtension);
  CHECK(t.requirements[2].name == "GL_ARB_a");
  CHECK(t.requirements[3].kind == Requirement::Kind::NotExtension);
  CHECK(t.requirements[3].name == "GL_ARB_b");
  CHECK(t.separable_program);
  CHECK(t.ignore_missing_uniforms);
}

TEST_CASE("Require: SPIRV YES, ONLY and NO, while SIZE and rlimit are accepted and ignored") {
  CHECK(parse_ok("[require]\nSPIRV YES\nSIZE 16 16\nrlimit 1000\n[compute shader]\nx\n").spirv_mode ==
        ShaderTest::SpirvMode::Yes);
  const auto only = parse_ok("[require]\nSPIRV ONLY\n[compute shader spirv]\nOpCapability Shader\n");
  CHECK(only.spirv_mode == ShaderTest::SpirvMode::Only);
  REQUIRE(only.spirv_shaders.size() == 1);
  CHECK(only.spirv_shaders[0].spirv);
  CHECK(only.spirv_shaders[0].text == "OpCapability Shader\n");
}

TEST_CASE("compute X Y Z") {
  const auto c = one_command("compute 4 2 1");
  CHECK(c.kind == Command::Kind::Compute);
  CHECK((c.a[0] == 4 && c.a[1] == 2 && c.a[2] == 1));
}

TEST_CASE("compute group size X Y Z W H D") {
  const auto c = one_command("compute group size 3 1 1 100 2 1");
  CHECK(c.kind == Command::Kind::ComputeGroupSize);
  CHECK((c.a[0] == 3 && c.a[1] == 1 && c.a[2] == 1 && c.a[3] == 100 && c.a[4] == 2 && c.a[5] == 1));
}

TEST_CASE("ssbo N SIZE") {
  const auto c = one_command("ssbo 2 1024");
  CHECK(c.kind == Command::Kind::Ssbo);
  CHECK((c.a[0] == 2 && c.a[1] == 1024));
}

TEST_CASE("ssbo N subdata TYPE OFFSET VALUES of every type") {
  auto c = one_command("ssbo 1 subdata uint 8 1 0xFFFFFFFF -1");
  CHECK(c.kind == Command::Kind::SsboSubdata);
  CHECK((c.a[0] == 1 && c.a[1] == 8));
  REQUIRE(c.values.size() == 3);
  CHECK(c.values[1].bits == 0xFFFFFFFFu);
  CHECK(c.values[2].bits == 0xFFFFFFFFu);
  c = one_command("ssbo 0 subdata int 0 -5");
  CHECK(c.values[0].bits == 0xFFFFFFFBu);
  c = one_command("ssbo 0 subdata float 0 1.5 0x3f800000");
  CHECK(as_float(c.values[0].bits) == 1.5f);
  CHECK(as_float(c.values[1].bits) == 1.0f);
  c = one_command("ssbo 0 subdata double 0 0.25");
  double d;
  std::memcpy(&d, &c.values[0].bits, 8);
  CHECK(d == 0.25);
  c = one_command("ssbo 0 subdata int64 0 -2");
  CHECK(c.values[0].bits == 0xFFFFFFFFFFFFFFFEull);
  c = one_command("ssbo 0 subdata uint64 0 18446744073709551615");
  CHECK(c.values[0].bits == ~0ull);
}

TEST_CASE("atomic counters N, atomic counter buffer B N, atomic counter B INDEX VALUE") {
  auto c = one_command("atomic counters 3");
  CHECK(c.kind == Command::Kind::AtomicCounters);
  CHECK(c.a[0] == 3);
  c = one_command("atomic counter buffer 2 4");
  CHECK(c.kind == Command::Kind::AtomicCounterBuffer);
  CHECK((c.a[0] == 2 && c.a[1] == 4));
  c = one_command("atomic counter 2 1 10");
  CHECK(c.kind == Command::Kind::AtomicCounterSet);
  CHECK((c.a[0] == 2 && c.a[1] == 1 && c.a[2] == 10));
}

TEST_CASE("uniform TYPE NAME VALUES for scalars, vectors and arrays") {
  auto c = one_command("uniform vec3 dir 0.5 -1 2");
  CHECK(c.kind == Command::Kind::Uniform);
  CHECK(c.name == "dir");
  CHECK(c.scalar == ScalarType::Float);
  CHECK(c.components == 3);
  REQUIRE(c.values.size() == 3);
  CHECK(as_float(c.values[1].bits) == -1.0f);
  c = one_command("uniform ivec2 arr[1] 1 2 3 4");
  CHECK(c.scalar == ScalarType::Int);
  CHECK(c.components == 2);
  CHECK(c.values.size() == 4);
  CHECK(one_command("uniform uint u 7").scalar == ScalarType::Uint);
  CHECK(one_command("uniform uvec4 u 1 2 3 4").components == 4);
  CHECK(one_command("uniform double d 0.5").scalar == ScalarType::Double);
  CHECK(one_command("uniform dvec2 d 0.5 1").components == 2);
  CHECK(one_command("uniform bool b 1").scalar == ScalarType::Int);
  CHECK(one_command("uniform int i -3").values[0].bits == 0xFFFFFFFDu);
}

TEST_CASE("Matrix uniforms: matN, matCxR and dmat, values column by column") {
  auto c = one_command("uniform mat2x3 m 1 2 3 4 5 6");
  CHECK(c.scalar == ScalarType::Float);
  CHECK((c.matrix_columns == 2 && c.matrix_rows == 3 && c.components == 6));
  CHECK(as_float(c.values[5].bits) == 6.0f);
  c = one_command("uniform mat4 m 1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1");
  CHECK((c.matrix_columns == 4 && c.matrix_rows == 4));
  c = one_command("uniform dmat3x2 d 1 2 3 4 5 6");
  CHECK(c.scalar == ScalarType::Double);
  CHECK((c.matrix_columns == 3 && c.matrix_rows == 2));
  CHECK(one_command("uniform vec2 v 1 2").matrix_columns == 0);
  CHECK_THAT(parse_error(kHead + "uniform mat3 m 1 2 3\n"), Catch::Contains("needs a multiple of 9 values"));
  CHECK_THAT(parse_error(kHead + "uniform mat5 m 1\n"), Catch::Contains("unknown uniform type \"mat5\""));
  CHECK_THAT(parse_error(kHead + "uniform mat2x m 1\n"), Catch::Contains("unknown uniform type"));
}

TEST_CASE("64-bit integer uniforms: int64_t, uint64_t, i64vecN, u64vecN") {
  auto c = one_command("uniform int64_t v -2");
  CHECK(c.scalar == ScalarType::Int64);
  CHECK(c.values[0].bits == 0xFFFFFFFFFFFFFFFEull);
  c = one_command("uniform u64vec2 v 1 18446744073709551615");
  CHECK(c.scalar == ScalarType::Uint64);
  CHECK(c.components == 2);
  CHECK(c.values[1].bits == ~0ull);
  CHECK(one_command("uniform i64vec3 v 1 2 3").components == 3);
  CHECK(one_command("uniform uint64_t v 7").scalar == ScalarType::Uint64);
}

TEST_CASE("memory barrier with one bit, several bits and all bits") {
  CHECK(one_command("memory barrier GL_SHADER_STORAGE_BARRIER_BIT").barrier_bits == 0x2000u);
  CHECK(one_command("memory barrier GL_ATOMIC_COUNTER_BARRIER_BIT|GL_BUFFER_UPDATE_BARRIER_BIT").barrier_bits ==
        0x1200u);
  CHECK(one_command("memory barrier GL_ALL_BARRIER_BITS").barrier_bits == 0xFFFFFFFFu);
  CHECK(one_command("memory barrier SHADER_STORAGE_BARRIER_BIT").barrier_bits == 0x2000u);
}

TEST_CASE("probe ssbo TYPE BINDING OFFSET OP VALUE with every comparison") {
  const std::pair<const char*, CompareOp> ops[] = {{"==", CompareOp::Equal},  {"!=", CompareOp::NotEqual},
                                                   {"<", CompareOp::Less},    {"<=", CompareOp::LessEqual},
                                                   {">", CompareOp::Greater}, {">=", CompareOp::GreaterEqual}};
  for (const auto& [text, op] : ops) {
    const auto c = one_command(std::string("probe ssbo uint 1 16 ") + text + " 0x10");
    CHECK(c.kind == Command::Kind::ProbeSsbo);
    CHECK(c.op == op);
    CHECK((c.a[0] == 1 && c.a[1] == 16));
    CHECK(c.values[0].bits == 16);
  }
  CHECK(one_command("probe ssbo float 0 0 == 4.5").scalar == ScalarType::Float);
  CHECK(one_command("probe ssbo int 0 0 == -4").values[0].bits == 0xFFFFFFFCu);
  CHECK(one_command("probe ssbo double 0 0 == 1.0").scalar == ScalarType::Double);
  CHECK(one_command("probe ssbo int64 0 0 == -1").scalar == ScalarType::Int64);
  CHECK(one_command("probe ssbo uint64 0 0 == 1").scalar == ScalarType::Uint64);
}

TEST_CASE("probe atomic counter INDEX OP VALUE and probe atomic counter buffer B OFFSET OP VALUE") {
  auto c = one_command("probe atomic counter 3 == 128");
  CHECK(c.kind == Command::Kind::ProbeAtomicCounter);
  CHECK((c.a[0] == 0 && c.a[1] == 12));  // counter 3 of buffer 0 is byte 12
  CHECK(c.values[0].bits == 128);
  c = one_command("probe atomic counter buffer 2 8 != 5");
  CHECK((c.a[0] == 2 && c.a[1] == 8));
  CHECK(c.op == CompareOp::NotEqual);
}

TEST_CASE("link error and link success") {
  const auto t = parse_ok(kHead + "link error\n");
  CHECK(t.expect_link_error);
  CHECK(t.commands[0].kind == Command::Kind::LinkError);
  CHECK(one_command("link success").kind == Command::Kind::LinkSuccess);
}

TEST_CASE("Comments and blank lines in [require] and [test] are ignored") {
  const auto t =
      parse_ok("# header\n\n[require]\n# c\nGL >= 4.3\n\n[compute shader]\nx\n[test]\n# c\n\ncompute 1 1 1\n");
  CHECK(t.requirements.size() == 1);
  CHECK(t.commands.size() == 1);
}

TEST_CASE("Graphics stages are shaders of their stage, drawing commands are Unsupported commands naming file:line") {
  auto t = parse_ok(
      "[require]\nGL >= 4.3\n[vertex shader]\nvoid main() {}\n[fragment shader]\nx\n[vertex "
      "data]\npiglit_vertex/float/2\n"
      "[test]\nlink success\ndraw rect -1 -1 2 2\n");
  CHECK_FALSE(t.unsupported);
  REQUIRE(t.glsl_shaders.size() == 2);
  CHECK(t.glsl_shaders[0].stage == Stage::Vertex);
  CHECK(t.glsl_shaders[0].section_line == 3);
  CHECK(t.glsl_shaders[0].text == "void main() {}\n");
  CHECK(t.glsl_shaders[1].stage == Stage::Fragment);
  REQUIRE(t.commands.size() == 2);
  CHECK(t.commands[1].kind == Command::Kind::Unsupported);
  CHECK_THAT(t.commands[1].reason, Catch::Contains("draw rect") && Catch::Contains("t.shader_test:11"));
  t = parse_ok(kHead + "compute 1 1 1\nprobe depth 0 0 1\n");
  REQUIRE(t.commands.size() == 2);
  CHECK(t.commands[1].kind == Command::Kind::Unsupported);
  CHECK_THAT(t.commands[1].reason, Catch::Contains("probe depth") && Catch::Contains("t.shader_test:12"));
  // Texture, clear and pixel probe commands are commands of their own (texture_command_parser_test.cpp).
  CHECK(parse_ok(kHead + "texture rgbw 0 (8, 8)\n").commands[0].kind == Command::Kind::Texture);
  CHECK(parse_ok(kHead + "clear color 0 0 0 0\n").commands[0].kind == Command::Kind::ClearColor);
  CHECK(parse_ok(kHead + "clear depth 1\n").commands[0].kind == Command::Kind::Unsupported);
  // Every stage section of shader_runner, and the passthrough vertex shader.
  t = parse_ok(
      "[require]\nGL >= 4.3\n[vertex shader passthrough]\n[tessellation control shader]\na\n"
      "[tessellation evaluation shader]\nb\n[geometry shader]\nc\n[geometry layout]\ninput type GL_POINTS\n"
      "[fragment shader]\nd\n");
  REQUIRE(t.glsl_shaders.size() == 5);
  CHECK(t.glsl_shaders[0].stage == Stage::Vertex);
  CHECK_THAT(t.glsl_shaders[0].text, Catch::Contains("gl_Position = piglit_vertex"));
  CHECK(t.glsl_shaders[1].stage == Stage::TessControl);
  CHECK(t.glsl_shaders[2].stage == Stage::TessEvaluation);
  CHECK(t.glsl_shaders[3].stage == Stage::Geometry);
  CHECK(t.glsl_shaders[4].stage == Stage::Fragment);
  // ARB assembly programs of drawing stages and shader includes cannot run: the whole test is a skip.
  t = parse_ok("[require]\nGL >= 4.3\n[vertex program]\n!!ARBvp1.0\nEND\n");
  REQUIRE(t.unsupported);
  CHECK_THAT(*t.unsupported, Catch::Contains("[vertex program]") && Catch::Contains("t.shader_test:3"));
}

TEST_CASE("Any text before the first section is ignored, as shader_runner ignores it") {
  const auto t = parse_ok(
      "/* Copyright notice\n * of the test\n */\nThis test checks [something].\n  [indented] is no section\n"
      "[require]\nGL >= 4.3\n[compute shader]\nx\n[test]\ncompute 1 1 1\n");
  CHECK(t.requirements.size() == 1);
  REQUIRE(t.commands.size() == 1);
  CHECK(t.commands[0].line == 11);
}

TEST_CASE("Malformed files give file:line errors") {
  const std::pair<std::string, std::string> cases[] = {
      {kHead + "frobnicate 1 2\n", "bad.shader_test:11: unknown command \"frobnicate 1 2\""},
      {kHead + "compute 1 1\n", "bad.shader_test:11: expected \"compute X Y Z\""},
      {kHead + "compute 1 1 x\n", "bad.shader_test:11: bad number \"x\""},
      {kHead + "compute 1 1 1 1\n", "bad.shader_test:11: expected \"compute X Y Z\""},
      {kHead + "compute group size 1 1 1 1 1\n", "bad.shader_test:11: expected \"compute group size"},
      {kHead + "compute 99999999999 1 1\n", "bad.shader_test:11: bad number"},
      {kHead + "ssbo 0\n", "bad.shader_test:11: expected \"ssbo N SIZE\""},
      {kHead + "ssbo 0 subdata half 0 1\n", "bad.shader_test:11: unknown subdata type \"half\""},
      {kHead + "ssbo 0 subdata uint 0\n", "bad.shader_test:11: expected \"ssbo N subdata"},
      {kHead + "ssbo 0 subdata int 0 12abc\n", "bad.shader_test:11: bad int value \"12abc\""},
      {kHead + "ssbo 0 subdata int 0 4294967296\n", "bad.shader_test:11: bad int value"},
      {kHead + "ssbo 0 subdata float 0 one\n", "bad.shader_test:11: bad float value \"one\""},
      {kHead + "uniform vec3 v 1 2\n", "bad.shader_test:11: uniform vec3 needs a multiple of 3 values"},
      {kHead + "uniform quat q 1\n", "bad.shader_test:11: unknown uniform type \"quat\""},
      {kHead + "uniform float\n", "bad.shader_test:11: expected \"uniform TYPE NAME VALUES...\""},
      {kHead + "memory barrier GL_NOPE_BIT\n", "bad.shader_test:11: unknown memory barrier bit \"GL_NOPE_BIT\""},
      {kHead + "probe ssbo uint 0 0 =~ 1\n", "bad.shader_test:11: unknown comparison \"=~\""},
      {kHead + "probe ssbo quat 0 0 == 1\n", "bad.shader_test:11: unknown probe type \"quat\""},
      {kHead + "probe ssbo vec4 0 0 == 1\n", "bad.shader_test:11: vec4 needs a multiple of 4 values, got 1"},
      {kHead + "probe ssbo uint 0 0 ~ 1\n", "bad.shader_test:11: unknown comparison \"~\""},
      {kHead + "ssbo 0 subdata dvec3 0 1 2\n", "bad.shader_test:11: dvec3 needs a multiple of 3 values, got 2"},
      {kHead + "compute indirect 0\n", "bad.shader_test:11: expected \"compute indirect BINDING OFFSET\""},
      {kHead + "tolerance 1 2\n", "bad.shader_test:11: expected \"tolerance T\" or \"tolerance T T T T\""},
      {kHead + "tolerance -1\n", "bad.shader_test:11: bad tolerance \"-1\""},
      {kHead + "tolerance 1%%\n", "bad.shader_test:11: bad tolerance \"1%%\""},
      {kHead + "uniform int 99999999999 1\n", "bad.shader_test:11: bad uniform location \"99999999999\""},
      {"[require]\nGL >= 4.3\n[compute shader specializations]\nhalf 0 1\n",
       "bad.shader_test:4: expected \"uint INDEX VALUE\" or \"float INDEX VALUE\""},
      {"[require]\nGL >= 4.3\n[compute shader specializations]\nuint 0 -x\n",
       "bad.shader_test:4: bad uint value \"-x\""},
      {"[require]\nGL_MAX_FOO >= 1 2\n", "bad.shader_test:2: unknown requirement"},
      {"[require]\nINT MAX_FOO >= 1\n", "bad.shader_test:2: expected a GL enum name, got \"MAX_FOO\""},
      {"[require]\nGL >= 4.3\n~= 1\n", "bad.shader_test:3: unknown requirement"},
      {"[require]\nGL ~= 4.3\n", "bad.shader_test:2: unknown comparison \"~=\""},
      {kHead + "probe ssbo uint 0 0 ==\n", "bad.shader_test:11: expected \"probe ssbo"},
      {kHead + "probe atomic counter 0 == \n", "bad.shader_test:11: expected \"probe atomic counter INDEX OP VALUE\""},
      {kHead + "atomic counters\n", "bad.shader_test:11: expected \"atomic counters N\""},
      {"[require]\nGL >= four\n[compute shader]\nx\n", "bad.shader_test:2: bad version \"four\""},
      {"[require]\nGL => 4.3\n", "bad.shader_test:2: unknown comparison \"=>\""},
      {"[require]\nGL 4.3\n", "bad.shader_test:2: expected \"GL <op> <major.minor>\""},
      {"[require]\nINT GL_MAX_FOO >= lots\n", "bad.shader_test:2: bad limit value \"lots\""},
      {"[require]\nSPIRV MAYBE\n", "bad.shader_test:2: expected \"SPIRV YES|ONLY|NO\""},
      {"[require]\nwhatever this is\n", "bad.shader_test:2: unknown requirement"},
      {"[require]\nGL >= 4.3\n[compute shader\nx\n", "bad.shader_test:3: section header"},
      {"[require]\nGL >= 4.3\n[bogus]\n", "bad.shader_test:3: unknown section [bogus]"},
      {"[compute shader]\nx\n[test]\ncompute 1 1 1\n", "bad.shader_test:1: no [require] section"},
      {"[require]\nGL >= 4.3\n[test]\ncompute 1 1 1\n", "bad.shader_test:4: no shader section"},
      {"[require]\nSPIRV ONLY\n[compute shader]\nx\n", "SPIRV ONLY but no [compute shader spirv] section"},
      {std::string("[require]\nGL >= 4.3\0\n", 21), "bad.shader_test:1: the file contains a NUL byte"},
      {"", "bad.shader_test:1: no [require] section"},
  };
  for (const auto& [text, expected] : cases) {
    INFO(text);
    CHECK_THAT(parse_error(text), Catch::StartsWith(expected) || Catch::Contains(expected));
  }
}

TEST_CASE("Numbers outside their type are errors: fractional or non-finite limits, floats past the float range") {
  // An INT limit is read with glGetInteger64v: 1.5 is no integer limit; NaN and infinity are no FLOAT limit (NaN
  // compares false with everything). A float value past FLT_MAX became infinity silently, while "1e999" for a
  // double was already an error.
  const std::pair<std::string, std::string> cases[] = {
      {"[require]\nINT GL_MAX_COMPUTE_SHARED_MEMORY_SIZE >= 1.5\n", "bad.shader_test:2: bad limit value \"1.5\""},
      {"[require]\nINT GL_MAX_COMPUTE_SHARED_MEMORY_SIZE >= 1e3\n", "bad.shader_test:2: bad limit value \"1e3\""},
      {"[require]\nGL_MAX_COMPUTE_SHARED_MEMORY_SIZE >= 0.5\n", "bad.shader_test:2: bad limit value \"0.5\""},
      {"[require]\nFLOAT GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS >= nan\n", "bad.shader_test:2: bad limit value \"nan\""},
      {"[require]\nFLOAT GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS < inf\n", "bad.shader_test:2: bad limit value \"inf\""},
      {kHead + "ssbo 0 subdata float 0 1e39\n", "bad.shader_test:11: bad float value \"1e39\""},
      {kHead + "uniform vec2 v 1 -3.5e38\n", "bad.shader_test:11: bad float value \"-3.5e38\""},
      {kHead + "probe ssbo float 0 0 == 3.402824e38\n", "bad.shader_test:11: bad float value \"3.402824e38\""},
  };
  for (const auto& [text, expected] : cases) {
    INFO(text);
    CHECK_THAT(parse_error(text), Catch::StartsWith(expected));
  }
  // FLT_MAX as printed ("3.4028235e38", just above it as a double) rounds to FLT_MAX; inf and nan stay allowed.
  const auto c = one_command("uniform vec4 v 3.4028235e38 -3.4028235e38 inf nan");
  CHECK(as_float(c.values[0].bits) == std::numeric_limits<float>::max());
  CHECK(as_float(c.values[1].bits) == -std::numeric_limits<float>::max());
  CHECK(std::isinf(as_float(c.values[2].bits)));
  CHECK(std::isnan(as_float(c.values[3].bits)));
  const auto t = parse_ok("[require]\nINT GL_MAX_COMPUTE_SHARED_MEMORY_SIZE >= 0x400\n[compute shader]\nx\n");
  CHECK(t.requirements[0].value == 1024);
}

TEST_CASE("CRLF line endings parse like LF") {
  const auto t = parse_ok("[require]\r\nGL >= 4.3\r\n[compute shader]\r\nx\r\n[test]\r\ncompute 1 2 3\r\n");
  REQUIRE(t.commands.size() == 1);
  CHECK(t.commands[0].a[2] == 3);
}

TEST_CASE("compute indirect BINDING OFFSET") {
  const auto c = one_command("compute indirect 2 12");
  CHECK(c.kind == Command::Kind::ComputeIndirect);
  CHECK(c.a[0] == 2);
  CHECK(c.a[1] == 12);
}

TEST_CASE("uniform TYPE LOCATION VALUES: a leading digit is a location (shader_runner's set_uniform, SPIR-V)") {
  auto c = one_command("uniform uint 3 7");
  CHECK(c.kind == Command::Kind::Uniform);
  CHECK(c.uniform_by_location);
  CHECK(c.a[0] == 3);
  CHECK(c.values.at(0).bits == 7);
  c = one_command("uniform vec2 0x10 1 2");
  CHECK(c.uniform_by_location);
  CHECK(c.a[0] == 16);
  CHECK_FALSE(one_command("uniform uint u3 7").uniform_by_location);
}

TEST_CASE("tolerance T and tolerance T T T T, absolute or N% relative") {
  auto c = one_command("tolerance 0.5");
  CHECK(c.kind == Command::Kind::Tolerance);
  for (int i = 0; i < 4; ++i) {
    CHECK(c.tolerance[i] == 0.5);
    CHECK_FALSE(c.tolerance_relative[i]);
  }
  c = one_command("tolerance 1% 0 2.5% 1e-3");
  CHECK(c.tolerance[0] == Approx(0.01));
  CHECK(c.tolerance_relative[0]);
  CHECK(c.tolerance[1] == 0);
  CHECK(c.tolerance[2] == Approx(0.025));
  CHECK(c.tolerance_relative[2]);
  CHECK(c.tolerance[3] == Approx(0.001));
  CHECK_FALSE(c.tolerance_relative[3]);
}

TEST_CASE("probe ssbo and ssbo subdata take GLSL vector and matrix types in std430 array layout") {
  // GL 4.6 §7.6.2.2 (std430): vec3 aligns to 16 bytes, its array stride is 16; a mat3 is three vec3 columns of
  // 16 bytes; a dvec2 is 16 bytes; scalars are tightly packed.
  auto c = one_command("probe ssbo vec3 1 32 ~= 1 2 3 4 5 6");
  CHECK(c.kind == Command::Kind::ProbeSsbo);
  CHECK(c.op == CompareOp::FuzzyEqual);
  CHECK(c.layout.scalar == ScalarType::Float);
  CHECK(c.layout.components() == 3);
  CHECK(c.layout.element_stride == 16);
  CHECK(c.layout.offset_of(2) == 8);
  CHECK(c.layout.offset_of(3) == 16);  // second element
  CHECK(c.values.size() == 6);
  c = one_command("ssbo 0 subdata mat3 0 1 2 3 4 5 6 7 8 9");
  CHECK(c.kind == Command::Kind::SsboSubdata);
  CHECK(c.layout.columns == 3);
  CHECK(c.layout.rows == 3);
  CHECK(c.layout.offset_of(3) == 16);  // second column
  CHECK(c.layout.offset_of(8) == 40);
  c = one_command("probe ssbo dmat2x3 0 0 == 1 2 3 4 5 6");
  CHECK(c.layout.scalar == ScalarType::Double);
  CHECK(c.layout.column_stride == 32);  // dvec3 aligns to 32
  CHECK(c.layout.offset_of(3) == 32);
  c = one_command("probe ssbo uvec2 0 8 != 1 2 3 4");
  CHECK(c.layout.offset_of(2) == 8);
  c = one_command("probe ssbo i64vec4 0 0 >= -1 0 1 2");
  CHECK(c.layout.scalar == ScalarType::Int64);
  CHECK(c.values[0].bits == ~uint64_t{0});
  c = one_command("probe ssbo float 0 4 ~= 1.5 2.5");
  CHECK(c.layout.offset_of(1) == 4);
  c = one_command("probe ssbo bvec2 0 0 == 1 0");
  CHECK(c.layout.scalar == ScalarType::Uint);
}

TEST_CASE("[compute shader specializations]: uint and float lines, as shader_runner's process_specialization") {
  const auto t = parse_ok(
      "[require]\nSPIRV ONLY\n[compute shader spirv]\nOpCapability Shader\n[compute shader specializations]\n"
      "# comment\nuint 0 42\nfloat 3 1.5\n[vertex shader specializations]\nuint 1 0x10\n");
  const auto& compute = t.specializations[static_cast<size_t>(Stage::Compute)];
  REQUIRE(compute.size() == 2);
  CHECK(compute[0].index == 0);
  CHECK(compute[0].bits == 42);
  CHECK(compute[1].index == 3);
  CHECK(as_float(compute[1].bits) == 1.5f);
  const auto& vertex = t.specializations[static_cast<size_t>(Stage::Vertex)];
  REQUIRE(vertex.size() == 1);
  CHECK(vertex[0].bits == 16);
}

TEST_CASE("[S shader spirv] sections of every stage") {
  const auto t = parse_ok(
      "[require]\nSPIRV ONLY\n[vertex shader spirv]\nA\n[fragment shader spirv]\nB\n[compute shader spirv]\nC\n");
  REQUIRE(t.spirv_shaders.size() == 3);
  CHECK(t.spirv_shaders[0].stage == Stage::Vertex);
  CHECK(t.spirv_shaders[1].stage == Stage::Fragment);
  CHECK(t.spirv_shaders[2].stage == Stage::Compute);
  CHECK(t.spirv_shaders[2].spirv);
}

TEST_CASE("verify program_query GL_PNAME VALUE... and active uniform NAME GL_PNAME VALUE (shader_runner's forms)") {
  auto c = one_command("verify program_query GL_LINK_STATUS GL_TRUE");
  CHECK(c.kind == Command::Kind::VerifyProgramQuery);
  CHECK(c.type_name == "GL_LINK_STATUS");
  CHECK(c.expected == std::vector<std::string>{"GL_TRUE"});
  c = one_command("verify program_query GL_COMPUTE_WORK_GROUP_SIZE 4 2 1");
  CHECK(c.expected == std::vector<std::string>{"4", "2", "1"});
  c = one_command("active uniform a[0] GL_UNIFORM_TYPE GL_FLOAT_VEC4");
  CHECK(c.kind == Command::Kind::ActiveUniform);
  CHECK(c.name == "a[0]");
  CHECK(c.type_name == "GL_UNIFORM_TYPE");
  CHECK(c.expected == std::vector<std::string>{"GL_FLOAT_VEC4"});
  CHECK_THAT(parse_error(kHead + "verify program_query LINK_STATUS 1\n"),
             Catch::Contains("bad.shader_test:11: expected \"verify program_query GL_PNAME VALUE...\""));
  CHECK_THAT(parse_error(kHead + "verify program_query GL_X 1 2 3 4\n"),
             Catch::Contains("bad.shader_test:11: verify program_query takes at most three values"));
  CHECK_THAT(parse_error(kHead + "active uniform a GL_UNIFORM_SIZE\n"),
             Catch::Contains("bad.shader_test:11: expected \"active uniform NAME GL_PNAME VALUE\""));
}

TEST_CASE("verify program_interface_query: every query form of shader_runner's grammar") {
  auto c = one_command("verify program_interface_query interface GL_UNIFORM GL_ACTIVE_RESOURCES 2");
  CHECK(c.kind == Command::Kind::InterfaceQuery);
  CHECK(c.query == "interface");
  CHECK(c.interface_name == "GL_UNIFORM");
  CHECK(c.type_name == "GL_ACTIVE_RESOURCES");
  CHECK(c.expected == std::vector<std::string>{"2"});
  c = one_command("verify program_interface_query GL_BUFFER_VARIABLE B.v[0] GL_TYPE GL_FLOAT_VEC4");
  CHECK(c.query == "resourceByName");
  CHECK(c.resource_name == "B.v[0]");
  CHECK(c.expected == std::vector<std::string>{"GL_FLOAT_VEC4"});
  c = one_command("verify program_interface_query resourceByData GL_UNIFORM (atomic 1 4) GL_OFFSET 4");
  CHECK(c.query == "resourceByData");
  CHECK(c.resource_data == std::vector<std::string>{"atomic", "1", "4"});
  CHECK(c.type_name == "GL_OFFSET");
  c = one_command("verify program_interface_query resourceName GL_UNIFORM_BLOCK ( 2 ) 5 Block");
  CHECK(c.query == "resourceName");
  CHECK(c.resource_data == std::vector<std::string>{"2"});
  CHECK(c.expected == std::vector<std::string>{"5", "Block"});
  c = one_command("verify program_interface_query resourceIndex GL_UNIFORM \"\" GL_INVALID_INDEX");
  CHECK(c.query == "resourceIndex");
  CHECK(c.resource_name.empty());
  c = one_command("verify program_interface_query resourceLocationIndex GL_PROGRAM_OUTPUT color 0");
  CHECK(c.query == "resourceLocationIndex");
  CHECK(c.resource_name == "color");
  CHECK_THAT(parse_error(kHead + "verify program_interface_query resourceByData GL_UNIFORM (1 GL_OFFSET 4\n"),
             Catch::Contains("bad.shader_test:11:") && Catch::Contains("\")\" of the resource data missing"));
  CHECK_THAT(parse_error(kHead + "verify program_interface_query interface GL_UNIFORM GL_ACTIVE_RESOURCES\n"),
             Catch::Contains("bad.shader_test:11:") && Catch::Contains("expected 1 value(s)"));
  CHECK_THAT(parse_error(kHead + "verify program_interface_query UNIFORM x GL_TYPE 1\n"),
             Catch::Contains("bad.shader_test:11:") && Catch::Contains("no GL_ interface"));
}

TEST_CASE("block binding / offset / array index / matrix stride / row major: shader_runner's block_data commands") {
  const auto t = parse_ok(kHead +
                          "block binding 2\nblock offset 16\nblock array index 1\nubo array index 0\n"
                          "block matrix stride 16\nblock row major 1\n");
  REQUIRE(t.commands.size() == 6);
  const char* fields[] = {"binding", "offset", "array index", "array index", "matrix stride", "row major"};
  const uint64_t values[] = {2, 16, 1, 0, 16, 1};
  for (size_t i = 0; i < 6; ++i) {
    CHECK(t.commands[i].kind == Command::Kind::BlockData);
    CHECK(t.commands[i].name == fields[i]);
    CHECK(t.commands[i].a[0] == values[i]);
  }
  CHECK_THAT(parse_error(kHead + "block stride 4\n"), Catch::Contains("bad.shader_test:11: unknown block command"));
  CHECK_THAT(parse_error(kHead + "block offset x\n"),
             Catch::Contains("bad.shader_test:11: expected \"block offset N\""));
}
