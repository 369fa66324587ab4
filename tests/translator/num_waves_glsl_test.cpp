// GL_BISMUTH_num_waves in the GL shim's GLSL front: the rules of docs/GL_BISMUTH_num_waves.txt (quoted per test),
// which carry those of hlsl-specs proposal 0054 ("numWaves") to GLSL. Every module is checked with spirv-val.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "bismuth/spirv_patch/pipeline.hpp"
#include "bismuth/spirv_patch/validate.hpp"
#include "bismuth/translator/gl_program.hpp"
#include "bismuth/translator/gl_program_pipeline.hpp"

using namespace bismuth::translator;
using bismuth::spirv_patch::TargetEnv;

namespace {

std::shared_ptr<const GlShader> compile(const std::string& source) {
  return GlShader::compile(source);
}

bismuth::Expected<GlLinkedProgram> link(std::initializer_list<std::shared_ptr<const GlShader>> shaders) {
  std::vector<std::shared_ptr<const GlShader>> list(shaders);
  return link_gl_program(list);
}

bool has_spec_id(const std::vector<uint32_t>& words, uint32_t spec_id) {
  for (size_t at = 5; at < words.size() && (words[at] >> 16) != 0; at += words[at] >> 16) {
    if ((words[at] & 0xffff) == 71 /* OpDecorate */ && (words[at] >> 16) == 4 && words[at + 2] == 1 /* SpecId */ &&
        words[at + 3] == spec_id) {
      return true;
    }
  }
  return false;
}

bool decorates_builtin(const std::vector<uint32_t>& words, uint32_t builtin) {
  for (size_t at = 5; at < words.size() && (words[at] >> 16) != 0; at += words[at] >> 16) {
    if ((words[at] & 0xffff) == 71 && (words[at] >> 16) == 4 && words[at + 2] == 11 /* BuiltIn */ &&
        words[at + 3] == builtin) {
      return true;
    }
  }
  return false;
}

constexpr uint32_t kBuiltInSubgroupSize = 36, kBuiltInSubgroupLocalInvocationId = 41, kBuiltInSubgroupId = 40;

// Links one shader, runs the GL pipeline and checks the module with spirv-val.
GlLinkedProgram link_valid(const std::string& source) {
  auto shader = compile(source);
  INFO(shader->info_log());
  REQUIRE(shader->ok());
  auto linked = link({shader});
  if (!linked) FAIL(linked.error().message);
  auto piped = bismuth::spirv_patch::run_pipeline(linked->spirv, gl_program_pipeline(*linked, {}));
  if (!piped) FAIL(piped.error().message);
  auto valid = bismuth::spirv_patch::validate(piped->words, TargetEnv::Vulkan1_1);
  if (!valid) FAIL(valid.error().message);
  return std::move(*linked);
}

std::string error_of(const std::string& source) {
  auto shader = compile(source);
  REQUIRE_FALSE(shader->ok());
  return shader->info_log();
}

std::string read_example(const std::string& name) {
  std::ifstream in(std::string(BISMUTH_SOURCE_DIR) + "/examples/num_waves/" + name);
  REQUIRE(in);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

const std::string kHeader = "#version 450\n#extension GL_BISMUTH_num_waves : require\n";

}  // namespace

TEST_CASE("num_waves: the group size is specialization constants at kVariableGroupSizeSpecIds, default 1x1x1") {
  // Spec, "Modifications to the GLSL spec", 4.4.1.4: "layout(num_waves = X) in; declares a workgroup of X waves
  // ... its size is (X * gl_WaveSize, 1, 1), fixed when the pipeline commits to a wave size" — the module itself
  // names no size (docs/GL_BISMUTH_num_waves.txt, "Implementation").
  const GlLinkedProgram p = link_valid(kHeader +
                                       "layout(num_waves = 4) in;\n"
                                       "layout(std430, binding = 0) buffer B { uint o[]; };\n"
                                       "void main() { o[gl_WorkGroupID.x] = gl_WaveIndex; }\n");
  CHECK(p.group_size == GroupSize::NumWaves);
  REQUIRE(p.num_waves);
  CHECK(p.num_waves->num_waves == 4);
  CHECK(p.num_waves->wave_size_min == 0);
  CHECK(p.num_waves->wave_size_max == 0);
  for (uint32_t id : kVariableGroupSizeSpecIds) CHECK(has_spec_id(p.spirv, id));
  CHECK(p.size_spec_ids == kVariableGroupSizeSpecIds);
}

TEST_CASE("num_waves: gl_WaveIndex, gl_WaveLaneIndex and gl_WaveSize are the subgroup built-ins") {
  // Spec 7.1: "gl_WaveIndex, gl_WaveLaneIndex and gl_WaveSize have the values gl_SubgroupID,
  // gl_SubgroupInvocationID and gl_SubgroupSize have (GL_KHR_shader_subgroup_basic)".
  const GlLinkedProgram p = link_valid(kHeader +
                                       "layout(num_waves = 2) in;\n"
                                       "layout(std430, binding = 0) buffer B { uint o[]; };\n"
                                       "void main() { o[gl_WaveIndex * gl_WaveSize + gl_WaveLaneIndex] = 1u; }\n");
  CHECK(decorates_builtin(p.spirv, kBuiltInSubgroupId));
  CHECK(decorates_builtin(p.spirv, kBuiltInSubgroupLocalInvocationId));
  CHECK(decorates_builtin(p.spirv, kBuiltInSubgroupSize));
}

TEST_CASE("num_waves: used with GL_KHR_shader_subgroup_basic, the wave built-ins and the subgroup ones agree") {
  // Spec 7.1: "A shader may use both; gl_WaveIndex == gl_SubgroupID ... hold for every invocation."
  const GlLinkedProgram p =
      link_valid(kHeader +
                 "#extension GL_KHR_shader_subgroup_basic : require\n"
                 "layout(num_waves = 3) in;\n"
                 "layout(std430, binding = 0) buffer B { uint o[]; };\n"
                 "void main() { o[0] = uint(gl_WaveIndex == gl_SubgroupID) + gl_NumSubgroups; }\n");
  CHECK(decorates_builtin(p.spirv, kBuiltInSubgroupId));
}

TEST_CASE("num_waves: gl_NumWaves is a constant expression that sizes shared arrays") {
  // Spec 7.1: "gl_NumWaves is a constant integral expression (const uint) whose value is X; it may size arrays,
  // including shared ones". Three waves: shared uint s[gl_NumWaves - 1u] takes 2 * 4 bytes, c[gl_NumWaves * 2u]
  // 6 * 4 bytes.
  const GlLinkedProgram p = link_valid(kHeader +
                                       "layout(num_waves = 3) in;\n"
                                       "shared uint s[gl_NumWaves - 1u];\n"
                                       "const uint kTwice = gl_NumWaves * 2u;\n"
                                       "shared float c[kTwice];\n"
                                       "layout(std430, binding = 0) buffer B { uint o[]; };\n"
                                       "void main() { s[0] = 1u; c[1] = 2.0; barrier(); o[0] = s[0] + uint(c[1]) + "
                                       "uint(s.length()); }\n");
  CHECK(p.shared_memory_bytes == (3 - 1) * 4 + 6 * 4);
}

TEST_CASE("num_waves: the wave-size range is recorded, in the num_waves declaration or one of its own") {
  // Spec 4.4.1.4: "wave_size_min = a and wave_size_max = b bound the wave size the pipeline may commit to".
  const GlLinkedProgram a =
      link_valid(kHeader + "layout(num_waves = 2, wave_size_min = 8, wave_size_max = 32) in;\nvoid main() {}\n");
  REQUIRE(a.num_waves);
  CHECK(*a.num_waves == NumWavesDeclaration{2, 8, 32, 0});
  const GlLinkedProgram b =
      link_valid(kHeader + "layout(wave_size_max = 64) in;\nlayout(num_waves = 1) in;\nvoid main() {}\n");
  REQUIRE(b.num_waves);
  CHECK(*b.num_waves == NumWavesDeclaration{1, 0, 64, 0});
}

TEST_CASE("num_waves: X may be an object-like macro of an integer literal") {
  // Spec 4.4.1.4: "X must be an integer literal ... or an object-like macro defined as one".
  const GlLinkedProgram p = link_valid(kHeader +
                                       "#define NUM_WAVES 0x3u\n#define MAX_WAVE 64\n"
                                       "layout(num_waves = NUM_WAVES, wave_size_max = MAX_WAVE) in;\n"
                                       "void main() {}\n");
  CHECK(*p.num_waves == NumWavesDeclaration{3, 0, 64, 0});
  CHECK_THAT(error_of(kHeader + "#define N 2\n#undef N\nlayout(num_waves = N) in;\nvoid main() {}\n"),
             Catch::StartsWith("0:5(20): error: 'num_waves' must be an integer literal or a macro of one"));
  CHECK_THAT(error_of(kHeader + "#define N (1 + 1)\nlayout(num_waves = N) in;\nvoid main() {}\n"),
             Catch::StartsWith("0:4(20): error: 'num_waves' must be an integer literal or a macro of one"));
}

TEST_CASE("num_waves: compiles at every compute GLSL version the front takes") {
  // Spec, "Dependencies": "This extension can be used with GLSL 1.50 with ARB_compute_shader and later, and with
  // GLSL ES 3.10 and later" — the versions the GL shim takes compute shaders at.
  const char* versions[] = {
      "150\n#extension GL_ARB_compute_shader : require\n"
      "#extension GL_ARB_shader_storage_buffer_object : require\n"
      "#extension GL_ARB_shading_language_420pack : require",
      "330\n#extension GL_ARB_compute_shader : require\n"
      "#extension GL_ARB_shader_storage_buffer_object : require\n"
      "#extension GL_ARB_shading_language_420pack : require",
      "420\n#extension GL_ARB_compute_shader : require\n"
      "#extension GL_ARB_shader_storage_buffer_object : require",
      "430",
      "440",
      "450",
      "460",
      "310 es",
      "320 es"};
  for (const char* version : versions) {
    INFO(version);
    const bool es = std::string(version).find("es") != std::string::npos;
    const GlLinkedProgram p = link_valid(std::string("#version ") + version +
                                         "\n#extension GL_BISMUTH_num_waves : enable\n"
                                         "layout(num_waves = 2) in;\n" +
                                         (es ? "precision highp float;\n" : "") +
                                         "shared uint s[gl_NumWaves];\n"
                                         "layout(std430, binding = 0) buffer B { uint o[]; };\n"
                                         "void main() { s[gl_WaveIndex] = gl_WaveLaneIndex; barrier();\n"
                                         "  o[gl_WorkGroupID.x * gl_NumWaves * gl_WaveSize] = s[1]; }\n");
    CHECK(p.group_size == GroupSize::NumWaves);
    CHECK(p.shared_memory_bytes == 8);
  }
}

TEST_CASE("num_waves: compile errors at the user's line and column") {
  // Spec, "Errors".
  SECTION("num_waves together with a local size") {
    // "It is a compile-time error to declare num_waves and any of local_size_x, local_size_y, local_size_z (or
    // their _id forms) or local_size_variable in one shader."
    CHECK_THAT(error_of(kHeader + "layout(num_waves = 2) in;\nlayout(local_size_x = 64) in;\nvoid main() {}\n"),
               Catch::StartsWith("0:4(8): error: a compute shader cannot declare both 'num_waves'"));
    CHECK_THAT(error_of(kHeader + "#extension GL_ARB_compute_variable_group_size : require\n"
                                  "layout(local_size_variable) in;\nlayout(num_waves = 2) in;\nvoid main() {}\n"),
               Catch::StartsWith("0:5(8): error: a compute shader cannot declare both 'num_waves'"));
  }
  SECTION("X not a positive integer") {
    // "It is a compile-time error if X is not an integer literal greater than zero."
    CHECK_THAT(error_of(kHeader + "layout(num_waves = 0) in;\nvoid main() {}\n"),
               Catch::StartsWith("0:3(20): error: 'num_waves' must be a positive integer, not 0"));
    CHECK_THAT(error_of(kHeader + "layout(num_waves = -2) in;\nvoid main() {}\n"),
               Catch::StartsWith("0:3(20): error: 'num_waves' must be a positive integer"));
    CHECK_THAT(error_of(kHeader + "const int n = 2;\nlayout(num_waves = n) in;\nvoid main() {}\n"),
               Catch::StartsWith("0:4(20): error: 'num_waves' must be an integer literal"));
  }
  SECTION("num_waves without the extension") {
    // "... without #extension GL_BISMUTH_num_waves : enable (or require) is a compile-time error."
    CHECK_THAT(error_of("#version 450\nlayout(num_waves = 2) in;\nvoid main() {}\n"),
               Catch::StartsWith("0:2(8): error: 'num_waves' requires #extension GL_BISMUTH_num_waves"));
    CHECK_THAT(
        error_of("#version 450\nlayout(local_size_x = 8) in;\nlayout(std430, binding = 0) buffer B { uint o[]; };\n"
                 "void main() { o[0] = gl_NumWaves; }\n"),
        Catch::Contains("0:4(22): error: 'gl_NumWaves' requires #extension GL_BISMUTH_num_waves"));
    CHECK_THAT(
        error_of("#version 450\nlayout(local_size_x = 8) in;\nlayout(std430, binding = 0) buffer B { uint o[]; };\n"
                 "void main() { o[0] = gl_WaveIndex + gl_WaveSize; }\n"),
        Catch::StartsWith("0:4(22): error: 'gl_WaveIndex' requires #extension GL_BISMUTH_num_waves\n"
                          "0:4(37): error: 'gl_WaveSize' requires #extension GL_BISMUTH_num_waves"));
  }
  SECTION("the invocation-indexed built-ins in a num_waves shader, naming the replacement") {
    // "A num_waves shader that statically uses gl_GlobalInvocationID, gl_LocalInvocationID,
    // gl_LocalInvocationIndex or gl_WorkGroupSize is a compile-time error; the error names the replacement."
    const std::string head =
        kHeader + "layout(num_waves = 2) in;\nlayout(std430, binding = 0) buffer B { uint o[]; };\n";
    CHECK_THAT(error_of(head + "void main() { o[0] = gl_GlobalInvocationID.x; }\n"),
               Catch::StartsWith("0:5(22): error: 'gl_GlobalInvocationID' cannot be used in a shader that declares "
                                 "num_waves (use gl_WorkGroupID, gl_WaveIndex and gl_WaveLaneIndex)"));
    CHECK_THAT(error_of(head + "void main() {\n  o[0] = gl_LocalInvocationID.x; }\n"),
               Catch::StartsWith("0:6(10): error: 'gl_LocalInvocationID' cannot be used") &&
                   Catch::Contains("use gl_WaveIndex and gl_WaveLaneIndex"));
    CHECK_THAT(error_of(head + "void main() { o[0] = gl_LocalInvocationIndex; }\n"),
               Catch::StartsWith("0:5(22): error: 'gl_LocalInvocationIndex' cannot be used") &&
                   Catch::Contains("gl_WaveIndex * gl_WaveSize + gl_WaveLaneIndex"));
    CHECK_THAT(error_of(head + "void main() { o[0] = gl_WorkGroupSize.x; }\n"),
               Catch::StartsWith("0:5(22): error: 'gl_WorkGroupSize' cannot be used") &&
                   Catch::Contains("gl_NumWaves * gl_WaveSize"));
  }
  SECTION("gl_NumWaves without a num_waves declaration") {
    CHECK_THAT(error_of(kHeader + "layout(local_size_x = 8) in;\nshared uint s[gl_NumWaves];\nvoid main() {}\n"),
               Catch::StartsWith("0:4(15): error: 'gl_NumWaves' needs a 'num_waves' declaration"));
  }
  SECTION("wave-size range") {
    // "wave_size_min and wave_size_max are powers of two, and wave_size_min <= wave_size_max."
    CHECK_THAT(error_of(kHeader + "layout(num_waves = 1, wave_size_min = 24) in;\nvoid main() {}\n"),
               Catch::StartsWith("0:3(39): error: 'wave_size_min' must be a power of two, not 24"));
    CHECK_THAT(
        error_of(kHeader + "layout(num_waves = 1, wave_size_min = 64, wave_size_max = 32) in;\nvoid main() {}\n"),
        Catch::StartsWith("0:3(23): error: 'wave_size_min' (64) is larger than 'wave_size_max' (32)"));
    CHECK_THAT(error_of(kHeader + "layout(local_size_x = 1) in;\nlayout(wave_size_min = 32) in;\nvoid main() {}\n"),
               Catch::StartsWith("0:4(8): error: 'wave_size_min' needs a 'num_waves' declaration"));
  }
  SECTION("conflicting declarations in one shader") {
    CHECK_THAT(error_of(kHeader + "layout(num_waves = 2) in;\nlayout(num_waves = 4) in;\nvoid main() {}\n"),
               Catch::StartsWith("0:4(1): error: conflicting 'num_waves' declarations: 2 and 4"));
  }
}

TEST_CASE("num_waves: the directive's behaviours") {
  // GLSL 4.60 §3.3: `warn` behaves as enable and warns on use; `disable` (the default) makes use an error.
  auto warned =
      compile("#version 450\n#extension GL_BISMUTH_num_waves : warn\nlayout(num_waves = 1) in;\nvoid main() {}\n");
  CHECK(warned->ok());
  CHECK_THAT(warned->info_log(), Catch::Contains("0:3(8): warning: 'num_waves' uses extension GL_BISMUTH_num_waves"));
  CHECK_THAT(error_of("#version 450\n#extension GL_BISMUTH_num_waves : enable\n#extension GL_BISMUTH_num_waves : "
                      "disable\nlayout(num_waves = 1) in;\nvoid main() {}\n"),
             Catch::StartsWith("0:4(8): error: 'num_waves' requires"));
  // GLSL 3.3: "#define GL_BISMUTH_num_waves 1" whether or not the shader enables it.
  CHECK(compile("#version 450\n#ifndef GL_BISMUTH_num_waves\n#error no macro\n#endif\nlayout(local_size_x = 1) in;\n"
                "void main() {}\n")
            ->ok());
}

TEST_CASE("num_waves: linking") {
  // Spec 4.4.1.4: "All shaders of a program that declare num_waves declare the same X and wave-size range; a
  // program mixing num_waves with local_size_* or local_size_variable fails to link."
  auto two = compile(kHeader + "layout(num_waves = 2) in;\nvoid main() {}\n");
  auto two_helper = compile(kHeader + "layout(num_waves = 2) in;\nuint helper() { return gl_NumWaves; }\n");
  auto four = compile(kHeader + "layout(num_waves = 4) in;\nuint helper() { return gl_NumWaves; }\n");
  auto fixed = compile("#version 450\nlayout(local_size_x = 64) in;\nuint helper() { return 1u; }\n");
  auto plain = compile("#version 450\nuint helper() { return 1u; }\n");
  auto ranged = compile(kHeader + "layout(num_waves = 2, wave_size_max = 32) in;\nuint helper() { return 1u; }\n");
  REQUIRE((two->ok() && two_helper->ok() && four->ok() && fixed->ok() && plain->ok() && ranged->ok()));
  auto same = link({two, two_helper});
  REQUIRE(same);
  CHECK(same->group_size == GroupSize::NumWaves);
  // "A program whose shaders declare num_waves may contain shaders that declare no workgroup size at all."
  for (auto& program : {link({two, plain}), link({plain, two})}) {
    INFO((program ? std::string() : program.error().message));
    CHECK(program);
  }
  auto differ = link({two, four});
  REQUIRE_FALSE(differ);
  CHECK_THAT(differ.error().message, Catch::Contains("different num_waves"));
  CHECK_FALSE(link({two, ranged}));
  auto mixed = link({two, fixed});
  REQUIRE_FALSE(mixed);
  CHECK_THAT(mixed.error().message, Catch::Contains("both num_waves and a local group size"));
}

TEST_CASE("num_waves: the proposal's three examples, ported to GLSL, compile to valid modules") {
  const GlLinkedProgram one = link_valid(read_example("tile_minmax_1wave.comp"));
  CHECK(*one.num_waves == NumWavesDeclaration{1, 8, 64, 0});
  const GlLinkedProgram two = link_valid(read_example("tile_minmax_2wave.comp"));
  CHECK(*two.num_waves == NumWavesDeclaration{2, 8, 32, 0});
  const GlLinkedProgram four = link_valid(read_example("compaction_4wave.comp"));
  CHECK(*four.num_waves == NumWavesDeclaration{4, 8, 64, 0});
  CHECK(four.shared_memory_bytes == 3 * 4);  // shared uint wave_store[gl_NumWaves - 1]
}
