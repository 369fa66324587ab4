// The HLSL compute front (glslang's HLSL parser) with hlsl-specs proposal 0054 "numWaves": the proposal's rules,
// quoted per test, and its three examples. Every module is checked with spirv-val.
#include <catch2/catch.hpp>

#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "bismuth/spirv_patch/validate.hpp"
#include "bismuth/translator/gl_program.hpp"
#include "bismuth/translator/hlsl_compiler.hpp"

using namespace bismuth::translator;
using bismuth::spirv_patch::TargetEnv;

namespace {

HlslComputeModule compile_valid(const std::string& source, const std::string& entry = "main") {
  auto module = compile_hlsl_compute(source, {.source_name = "shader.hlsl", .entry_point = entry});
  if (!module) FAIL(module.error().message);
  auto valid = bismuth::spirv_patch::validate(module->words, TargetEnv::Vulkan1_1);
  if (!valid) FAIL(valid.error().message);
  return std::move(*module);
}

std::string error_of(const std::string& source, const std::string& entry = "main") {
  auto module = compile_hlsl_compute(source, {.source_name = "shader.hlsl", .entry_point = entry});
  REQUIRE_FALSE(module);
  return module.error().message;
}

std::string disassembly(const std::vector<uint32_t>& words) {
  auto text = bismuth::spirv_patch::disassemble(words);
  REQUIRE(text);
  return *text;
}

std::string read_example(const std::string& name) {
  std::ifstream in(std::string(BISMUTH_SOURCE_DIR) + "/examples/num_waves/" + name);
  REQUIRE(in);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

const std::string kBuffer = "RWStructuredBuffer<uint> o : register(u0);\n";

}  // namespace

TEST_CASE("hlsl: [numWaves(X)] gives spec-constant group sizes and folds the wave count") {
  // Proposal 0054: "'numWaves(X)' ... launches X waves to execute the thread group. The number of threads per wave
  // is determined by the hardware wave size" and "Arrays allocations, and particularly groupshared allocations can
  // be sized by GetGroupWaveCount".
  const HlslComputeModule m = compile_valid(kBuffer +
                                            "groupshared uint s[GetGroupNumWaves() - 1];\n"
                                            "[numWaves(4)]\n"
                                            "void main(uint3 g : SV_GroupID) {\n"
                                            "  s[0] = GetGroupNumWaves();\n"
                                            "  GroupMemoryBarrierWithGroupSync();\n"
                                            "  o[g.x] = s[0] + WaveGetLaneCount() + WaveGetLaneIndex();\n"
                                            "}\n");
  REQUIRE(m.num_waves);
  CHECK(*m.num_waves == NumWavesDeclaration{4, 0, 0, 0});
  const std::string text = disassembly(m.words);
  for (uint32_t id : kVariableGroupSizeSpecIds) CHECK_THAT(text, Catch::Contains("SpecId " + std::to_string(id)));
  CHECK_THAT(text, Catch::Contains("BuiltIn WorkgroupSize"));
  CHECK_THAT(text, Catch::Contains("OpTypeArray %uint %uint_3"));  // s[GetGroupNumWaves() - 1]
  CHECK_THAT(text, Catch::Contains("BuiltIn SubgroupSize"));
  CHECK_THAT(text, Catch::Contains("BuiltIn SubgroupLocalInvocationId"));
}

TEST_CASE("hlsl: every spelling of the wave intrinsics") {
  // Issue 16: the proposal's GetGroupWaveIndex/GroupGetWaveIndex and GetGroupNumWaves/GroupGetWaveCount, SM 6.10's
  // GetGroupWaveCount, Slang's WaveGetWaveIndex/WaveGetNumWaves.
  const HlslComputeModule m = compile_valid(kBuffer +
                                            "static const uint kCounts = GetGroupNumWaves() + GroupGetWaveCount() +\n"
                                            "    GetGroupWaveCount() + WaveGetNumWaves();\n"
                                            "[numWaves(2)] [WaveSize(16, 64, 32)]\n"
                                            "void main(uint3 g : SV_GroupID) {\n"
                                            "  uint a[kCounts];\n"
                                            "  a[0] = GetGroupWaveIndex() + GroupGetWaveIndex() + WaveGetWaveIndex();\n"
                                            "  o[g.x] = a[0];\n"
                                            "}\n");
  CHECK(*m.num_waves == NumWavesDeclaration{2, 16, 64, 32});
  const std::string text = disassembly(m.words);
  CHECK_THAT(text, Catch::Contains("OpTypeArray %uint %uint_8"));  // 4 spellings x 2 waves
  // docs/hlsl.md, "Wave index": the marker becomes the SubgroupId built-in, and the output names no marker.
  CHECK_THAT(text, Catch::Contains("BuiltIn SubgroupId") && !Catch::Contains("bismuth_builtin_"));
}

TEST_CASE("hlsl: numWaves and WaveSize arguments may be object-like macros of integer literals") {
  const HlslComputeModule m = compile_valid(kBuffer +
                                            "#define NUM_WAVES 4\n#define MIN_WAVE 16\n#define MAX_WAVE 64\n"
                                            "groupshared uint s[GetGroupNumWaves()];\n"
                                            "[numWaves(NUM_WAVES)]\n[WaveSize(MIN_WAVE, MAX_WAVE)]\n"
                                            "void main(uint3 g : SV_GroupID) { s[0] = 1; o[g.x] = s[0]; }\n");
  CHECK(*m.num_waves == NumWavesDeclaration{4, 16, 64, 0});
  CHECK_THAT(disassembly(m.words), Catch::Contains("OpTypeArray %uint %uint_4"));
  CHECK_THAT(error_of(kBuffer + "[numWaves(COUNT)]\nvoid main() {}\n"),
             Catch::StartsWith("shader.hlsl:2:11: error: 'numWaves' takes the number of waves as an integer literal "
                               "or a macro of one"));
}

TEST_CASE("hlsl: [WaveSize] forms") {
  // SM 6.6 [WaveSize(n)], SM 6.8 [WaveSize(min, max)] and [WaveSize(min, max, preferred)]: powers of two from 4
  // to 128, min < max, preferred within.
  const std::string body = "void main(uint3 g : SV_GroupID) { o[g.x] = GetGroupWaveIndex(); }\n";
  CHECK(*compile_valid(kBuffer + "[numWaves(1)][WaveSize(32)]\n" + body).num_waves ==
        NumWavesDeclaration{1, 32, 32, 0});
  CHECK(*compile_valid(kBuffer + "[WaveSize(8, 64)]\n[numWaves(3)]\n" + body).num_waves ==
        NumWavesDeclaration{3, 8, 64, 0});
  CHECK_THAT(error_of(kBuffer + "[numWaves(1)]\n[WaveSize(24)]\n" + body),
             Catch::StartsWith("shader.hlsl:3:11: error: 'WaveSize' values must be powers of two from 4 to 128"));
  CHECK_THAT(error_of(kBuffer + "[numWaves(1)]\n[WaveSize(64, 32)]\n" + body),
             Catch::StartsWith("shader.hlsl:3:15: error: 'WaveSize' minimum must be less than its maximum"));
  CHECK_THAT(error_of(kBuffer + "[numWaves(1)]\n[WaveSize(16, 32, 64)]\n" + body),
             Catch::StartsWith("shader.hlsl:3:19: error: 'WaveSize' preferred size must lie between"));
}

TEST_CASE("hlsl: numWaves compile errors name the position and the replacement") {
  // Proposal 0054, "Diagnostic Changes": "Using SV_DispatchThreadID, SV_GroupThreadID, SV_GroupIndex in a shader
  // using 'numWaves', the program should use SV_GroupID, GetGroupWaveIndex and WaveGetLaneIndex instead"; "Using
  // both 'numWaves' and 'numThreads' in the same shader"; "'numWaves(X)', X must be an integer greater than zero".
  CHECK_THAT(error_of(kBuffer + "[numWaves(2)]\nvoid main(uint3 t : SV_DispatchThreadID) { o[t.x] = 1; }\n"),
             Catch::StartsWith("shader.hlsl:3:21: error: 'SV_DispatchThreadID' cannot be used in a [numWaves] entry "
                               "point (use SV_GroupID, GetGroupWaveIndex() and WaveGetLaneIndex())"));
  CHECK_THAT(error_of(kBuffer + "[numWaves(2)]\nvoid main(uint3 g : SV_GroupID,\n          uint3 t : sv_groupthreadid) "
                                "{ o[t.x] = 1; }\n"),
             Catch::StartsWith("shader.hlsl:4:21: error: 'sv_groupthreadid' cannot be used"));
  CHECK_THAT(
      error_of(kBuffer + "struct In { uint i : SV_GroupIndex; };\n[numWaves(2)]\nvoid main(In i) { o[i.i] = 1; }\n"),
      Catch::StartsWith("shader.hlsl:2:22: error: 'SV_GroupIndex' cannot be used") &&
          Catch::Contains("GetGroupWaveIndex() * WaveGetLaneCount() + WaveGetLaneIndex()"));
  CHECK_THAT(error_of(kBuffer + "[numthreads(64, 1, 1)]\n[numWaves(2)]\nvoid main() {}\n"),
             Catch::StartsWith("shader.hlsl:3:2: error: 'numWaves' and 'numthreads' cannot both be given"));
  CHECK_THAT(error_of(kBuffer + "[numWaves(0)]\nvoid main() {}\n"),
             Catch::StartsWith("shader.hlsl:2:11: error: 'numWaves' must be a positive integer, not 0"));
  CHECK_THAT(error_of(kBuffer + "[numWaves(-1)]\nvoid main() {}\n"),
             Catch::StartsWith("shader.hlsl:2:11: error: 'numWaves' must be a positive integer"));
  CHECK_THAT(error_of(kBuffer + "[numthreads(8, 1, 1)]\nvoid main() { o[0] = GetGroupNumWaves(); }\n"),
             Catch::StartsWith("shader.hlsl:3:22: error: 'GetGroupNumWaves' is a constant only in a [numWaves(X)]"));
  // glslang's own errors keep the user's lines.
  CHECK_THAT(error_of(kBuffer + "[numWaves(1)]\n[WaveSize(32)]\nvoid main() {\n  o[0] = undeclared;\n}\n"),
             Catch::Contains("shader.hlsl:5:10: error:") && Catch::Contains("undeclared"));
  CHECK_THAT(error_of(kBuffer + "[numthreads(1, 1, 1)]\nvoid main() {}\n", "Other"),
             Catch::Contains("no function named 'Other'"));
}

TEST_CASE("hlsl: plain [numthreads] compute shaders compile as glslang compiles them") {
  const HlslComputeModule m = compile_valid(kBuffer +
                                                "cbuffer C : register(b2) { uint add; };\n"
                                                "[numthreads(8, 4, 1)]\nvoid CSMain(uint3 t : SV_DispatchThreadID) { "
                                                "o[t.x] = t.y + add + WaveActiveCountBits(true); }\n",
                                            "CSMain");
  CHECK_FALSE(m.num_waves);
  CHECK(m.fixed_size == std::array<uint32_t, 3>{8, 4, 1});
  CHECK(m.entry_point == "CSMain");
  const std::string text = disassembly(m.words);
  CHECK_THAT(text, Catch::Contains("OpEntryPoint GLCompute %CSMain \"CSMain\""));
  CHECK_THAT(text, Catch::Contains("Binding 2"));  // register(b2)
}

TEST_CASE("hlsl: the proposal's three examples compile to valid modules") {
  const HlslComputeModule one = compile_valid(read_example("tile_minmax_1wave.hlsl"), "ComputeMinMaxZ");
  CHECK(*one.num_waves == NumWavesDeclaration{1, 8, 64, 0});
  const HlslComputeModule two = compile_valid(read_example("tile_minmax_2wave.hlsl"), "ComputeMinMaxZ");
  CHECK(*two.num_waves == NumWavesDeclaration{2, 8, 32, 0});
  const HlslComputeModule four = compile_valid(read_example("compaction_4wave.hlsl"), "Main");
  CHECK(*four.num_waves == NumWavesDeclaration{4, 8, 64, 0});
  CHECK_THAT(disassembly(four.words), Catch::Contains("OpTypeArray %uint %uint_3"));
  CHECK_THAT(disassembly(four.words), Catch::Contains("OpAtomicIAdd"));
}

TEST_CASE("hlsl in the GL front: GlShader from HLSL, linked, with GL binding points from the registers") {
  // docs/hlsl.md, "In the GL shim": register(uN) -> shader-storage binding N, register(bN) -> uniform-buffer
  // binding N; the program's entry point is the HLSL function.
  const std::string source =
      "RWStructuredBuffer<uint> Out : register(u3);\n"
      "RWByteAddressBuffer Raw : register(u1);\n"
      "cbuffer Params : register(b2) { uint add; };\n"
      "groupshared uint s[GetGroupNumWaves()];\n"
      "[numWaves(2)] [WaveSize(8, 64)]\n"
      "void CSMain(uint3 g : SV_GroupID) {\n"
      "  s[GetGroupWaveIndex()] = WaveActiveCountBits(true);\n"
      "  GroupMemoryBarrierWithGroupSync();\n"
      "  Out[g.x * GetGroupNumWaves() + GetGroupWaveIndex()] = s[0] + add + Raw.Load(0);\n"
      "}\n";
  auto shader = GlShader::compile(source, {.language = GlShaderLanguage::Hlsl, .entry_point = "CSMain"});
  INFO(shader->info_log());
  REQUIRE(shader->ok());
  CHECK(shader->group_size() == GroupSize::NumWaves);
  std::vector<std::shared_ptr<const GlShader>> shaders{shader};
  auto linked = link_gl_program(shaders);
  if (!linked) FAIL(linked.error().message);
  CHECK(linked->entry_point == "CSMain");
  CHECK(linked->group_size == GroupSize::NumWaves);
  CHECK(*linked->num_waves == NumWavesDeclaration{2, 8, 64, 0});
  CHECK(linked->shared_memory_bytes == 2 * 4);
  // Reflection names are glslang's: the block of a RWStructuredBuffer / RWByteAddressBuffer / cbuffer is named
  // after the variable / the cbuffer.
  std::map<uint32_t, std::string> storage, uniform;
  for (const GlBufferBinding& b : linked->storage_blocks) storage[b.gl_binding] = b.name;
  for (const GlBufferBinding& b : linked->uniform_blocks) uniform[b.gl_binding] = b.name;
  CHECK(storage == std::map<uint32_t, std::string>{{1, "Raw"}, {3, "Out"}});
  CHECK(uniform == std::map<uint32_t, std::string>{{2, "Params"}});
  CHECK_THAT(disassembly(linked->spirv), Catch::Contains("SpecId 31488"));
  auto valid = bismuth::spirv_patch::validate(linked->spirv, TargetEnv::Vulkan1_1);
  if (!valid) FAIL(valid.error().message);
  // Errors in GL info-log form, at the user's line and column.
  auto bad =
      GlShader::compile("[numWaves(2)]\nvoid main(uint i : SV_GroupIndex) {}\n", {.language = GlShaderLanguage::Hlsl});
  CHECK_FALSE(bad->ok());
  CHECK_THAT(bad->info_log(), Catch::StartsWith("0:2(20): error: 'SV_GroupIndex' cannot be used"));
  // An HLSL shader holds the program's entry point: it is linked alone.
  auto glsl = GlShader::compile("#version 450\nuint helper() { return 1u; }\n");
  std::vector<std::shared_ptr<const GlShader>> mixed{shader, glsl};
  CHECK_FALSE(link_gl_program(mixed));
}

TEST_CASE("hlsl in the GL front: buffers of one element type are separate blocks, each at its own register") {
  // glslang gives every RWStructuredBuffer<uint> one shared struct type (named after the first), so the GL link
  // finds an HLSL buffer's variable by the variable's name: each register(uN) is GL shader-storage binding N with a
  // Vulkan descriptor of its own.
  const std::string source =
      "RWStructuredBuffer<uint> Counts : register(u1);\n"
      "RWStructuredBuffer<uint> Items : register(u2);\n"
      "cbuffer Params : register(b3) { uint width; };\n"
      "[numthreads(8, 1, 1)]\n"
      "void main(uint3 id : SV_DispatchThreadID) {\n"
      "  uint at;\n"
      "  InterlockedAdd(Counts[0], 1, at);\n"
      "  Items[at] = id.x + width;\n"
      "}\n";
  auto shader = GlShader::compile(source, {.language = GlShaderLanguage::Hlsl});
  INFO(shader->info_log());
  REQUIRE(shader->ok());
  std::vector<std::shared_ptr<const GlShader>> shaders{shader};
  auto linked = link_gl_program(shaders);
  if (!linked) FAIL(linked.error().message);
  std::map<uint32_t, std::string> storage;
  std::set<uint32_t> descriptors;
  for (const GlBufferBinding& b : linked->storage_blocks) {
    storage[b.gl_binding] = b.name;
    descriptors.insert(b.vk_binding);
  }
  CHECK(storage == std::map<uint32_t, std::string>{{1, "Counts"}, {2, "Items"}});
  CHECK(descriptors.size() == 2);
  REQUIRE(linked->uniform_blocks.size() == 1);
  CHECK(linked->uniform_blocks[0].gl_binding == 3);
  auto valid = bismuth::spirv_patch::validate(linked->spirv, TargetEnv::Vulkan1_1);
  if (!valid) FAIL(valid.error().message);
}
