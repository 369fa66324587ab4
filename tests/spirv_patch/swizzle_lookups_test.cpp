// swizzle_lookups (passes/swizzle_lookups.hpp): GL 4.6 §15.2.1's texture swizzle applied in the shader to the lookups
// of the samplers named ("the swizzle is applied to the result of every texture lookup": texture, textureLod,
// textureProj, texelFetch, textureGather), so that a device without VK_EXT_border_color_swizzle can bind an identity
// view and still give the border colour GL's swizzled value. Held here: every lookup of a named sampler (and only
// those) is rewritten, each named binding gets a swizzle word with its own SpecId, a gather's component becomes a spec
// constant operation, helpers called with one sampler are followed and with two refused, and every output passes
// spirv-val, also specialized. What the rewritten code computes is held by the GL tests (texture_swizzle_test.cpp
// under ctest's gl:no_border_color_swizzle).
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include "bismuth/spirv_patch/passes/set_spec_constant_defaults.hpp"
#include "bismuth/spirv_patch/passes/swizzle_lookups.hpp"
#include "bismuth/spirv_patch/pipeline.hpp"
#include "shader_sources.hpp"

using bismuth::spirv_patch::Module;
using bismuth::spirv_patch::Section;
using bismuth::spirv_patch::SwizzleLookupOptions;
using bismuth::spirv_patch::TargetEnv;
using bismuth::test::compile_or_fail;
using bismuth::test::count_op;

namespace {

SwizzleLookupOptions bindings(std::initializer_list<uint32_t> list) {
  SwizzleLookupOptions options;
  for (uint32_t b : list) options.bindings.push_back({0, b});
  return options;
}

// A float and an unsigned sampler named, one float sampler not; every lookup kind, and a helper function.
constexpr const char* kLookups = R"(#version 450
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) uniform sampler2D s;
layout(set = 0, binding = 1) uniform usampler2D u;
layout(set = 0, binding = 2) uniform sampler2D other;
layout(std430, set = 0, binding = 3) buffer Out { vec4 f[8]; uvec4 g[2]; };
vec4 helper(sampler2D h, vec2 p) { return texture(h, p); }
void main() {
  f[0] = texture(s, vec2(-1.0));
  f[1] = textureLod(s, vec2(0.5), 0.0);
  f[2] = textureProj(s, vec3(0.5, 0.5, 2.0));
  f[3] = texelFetch(s, ivec2(0), 0);
  f[4] = textureGather(s, vec2(0.5), 1);
  f[5] = helper(s, vec2(2.0));
  f[6] = texture(other, vec2(0.5));
  f[7] = textureGather(other, vec2(0.5), 2);
  g[0] = texture(u, vec2(0.5));
  g[1] = textureGather(u, vec2(0.5), 3);
}
)";

}  // namespace

TEST_CASE("the lookups of the samplers named are swizzled by a spec constant each", "[spirv_patch][swizzle_lookups]") {
  for (auto env : {TargetEnv::Vulkan1_1, TargetEnv::Vulkan1_2}) {
    const std::vector<uint32_t> input = compile_or_fail(kLookups, env);
    auto module = Module::parse(input);
    REQUIRE(module);
    auto report = bismuth::spirv_patch::swizzle_lookups(*module, bindings({0, 1}));
    REQUIRE_OK(report);
    const std::vector<uint32_t> words = module->serialize();
    REQUIRE_VALID(words, env);
    // s: texture, textureLod, textureProj, texelFetch, textureGather, the helper's texture; u: texture, gather.
    CHECK(report->swizzled == 8);
    REQUIRE(report->spec_ids.size() == 2);
    CHECK(report->spec_ids[0] != report->spec_ids[1]);
    // The three gathers: two named, each gathering a spec-constant component; `other`'s keeps its constant.
    CHECK(count_op(words, spv::Op::OpImageGather) == 3);
    CHECK(count_op(words, spv::Op::OpSpecConstantOp) >= 2 * 4);
    // A named binding of no variable still gets its word.
    auto again = Module::parse(input);
    REQUIRE(again);
    auto unused = bismuth::spirv_patch::swizzle_lookups(*again, bindings({0, 1, 7}));
    REQUIRE_OK(unused);
    CHECK(unused->spec_ids.size() == 3);
    // Specialized to a swizzle with ZERO and ONE (GL's BLUE, ALPHA, ONE, ZERO), the module still validates.
    const uint32_t word = bismuth::spirv_patch::swizzle_word(
        {2, 3, bismuth::spirv_patch::kSwizzleOne, bismuth::spirv_patch::kSwizzleZero});
    auto specialized = Module::parse(words);
    REQUIRE(specialized);
    const uint32_t values[2] = {word, word};
    REQUIRE_OK(bismuth::spirv_patch::set_spec_constant_defaults(*specialized, report->spec_ids, values));
    REQUIRE_VALID(specialized->serialize(), env);
  }
}

TEST_CASE("a helper called with two different samplers cannot be swizzled", "[spirv_patch][swizzle_lookups]") {
  const std::vector<uint32_t> input = compile_or_fail(R"(#version 450
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) uniform sampler2D a;
layout(set = 0, binding = 1) uniform sampler2D b;
layout(std430, set = 0, binding = 2) buffer Out { vec4 r[2]; };
vec4 helper(sampler2D h) { return texture(h, vec2(0.5)); }
void main() { r[0] = helper(a); r[1] = helper(b); }
)");
  auto module = Module::parse(input);
  REQUIRE(module);
  auto report = bismuth::spirv_patch::swizzle_lookups(*module, bindings({0}));
  REQUIRE_FALSE(report);
  CHECK(report.error().message.find("not traced to one variable") != std::string::npos);
}

// ARB_sparse_texture2's lookups return the residency code with the texel (SPIR-V's OpImageSparse* struct): the texel
// is swizzled and the code kept.
TEST_CASE("sparse lookups keep their residency code and swizzle the texel", "[spirv_patch][swizzle_lookups]") {
  const std::vector<uint32_t> input = compile_or_fail(R"(#version 450
#extension GL_ARB_sparse_texture2 : enable
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) uniform sampler2D s;
layout(std430, set = 0, binding = 1) buffer Out { int codes[3]; vec4 texels[3]; };
void main() {
  codes[0] = sparseTextureLodARB(s, vec2(0.5), 0.0, texels[0]);
  codes[1] = sparseTexelFetchARB(s, ivec2(0), 0, texels[1]);
  codes[2] = sparseTextureGatherARB(s, vec2(0.5), texels[2], 1);
}
)");
  auto module = Module::parse(input);
  REQUIRE(module);
  auto report = bismuth::spirv_patch::swizzle_lookups(*module, bindings({0}));
  REQUIRE_OK(report);
  CHECK(report->swizzled == 3);
  const std::vector<uint32_t> words = module->serialize();
  REQUIRE_VALID(words, TargetEnv::Vulkan1_1);
  CHECK(count_op(words, spv::Op::OpImageSparseSampleExplicitLod) == 1);
  CHECK(count_op(words, spv::Op::OpImageSparseFetch) == 1);
  CHECK(count_op(words, spv::Op::OpImageSparseGather) == 1);
}
