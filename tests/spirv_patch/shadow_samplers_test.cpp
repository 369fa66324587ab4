// lower_shadow_samplers (passes/shadow_samplers.hpp): GL 4.6 §8.23.1's texture comparison done in the shader for the
// shadow samplers named, so that a device without SAMPLED_IMAGE_DEPTH_COMPARISON on a colour format runs them. The
// rules held here: no depth-comparison instruction is left on a named binding and its image type is no depth image
// (SPIR-V 3.42.10: Dref lookups need a depth image, plain lookups of a Depth 0 one are what the device can run); each
// named binding gets a state word (a spec constant with its own SpecId); texture-size queries stay; every output
// passes spirv-val. What the lowered code computes is held by the GL tests (tests/translator/gl/
// shadow_lowering_test.cpp), which run it against the depth path and CPU expectations.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include "bismuth/spirv_patch/passes/set_spec_constant_defaults.hpp"
#include "bismuth/spirv_patch/passes/shadow_samplers.hpp"
#include "bismuth/spirv_patch/pipeline.hpp"
#include "shader_sources.hpp"

using bismuth::spirv_patch::lower_shadow_samplers;
using bismuth::spirv_patch::Module;
using bismuth::spirv_patch::Section;
using bismuth::spirv_patch::ShadowSamplerOptions;
using bismuth::spirv_patch::TargetEnv;
using bismuth::test::compile_or_fail;
using bismuth::test::count_op;

namespace {

size_t dref_lookups(const std::vector<uint32_t>& words) {
  return count_op(words, spv::Op::OpImageSampleDrefImplicitLod) +
         count_op(words, spv::Op::OpImageSampleDrefExplicitLod) +
         count_op(words, spv::Op::OpImageSampleProjDrefImplicitLod) +
         count_op(words, spv::Op::OpImageSampleProjDrefExplicitLod) + count_op(words, spv::Op::OpImageDrefGather);
}

size_t depth_images(const std::vector<uint32_t>& words) {
  auto module = Module::parse(words);
  REQUIRE(module);
  size_t n = 0;
  for (auto h : module->instructions(Section::Global)) {
    n += module->opcode(h) == spv::Op::OpTypeImage && module->words(h)[4] != 0 ? 1 : 0;
  }
  return n;
}

ShadowSamplerOptions bindings(std::initializer_list<uint32_t> list) {
  ShadowSamplerOptions options;
  for (uint32_t b : list) options.bindings.push_back({0, b});
  return options;
}

// Every GLSL shadow lookup of the 2D family, a 1D, array, cube and cube-array sampler, a plain sampler2D
// of the same shape (its image type becomes the lowered one's twin), a shadow sampler passed to a function, and the
// size queries.
const char* kAllForms = R"(#version 450
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) uniform sampler2DShadow s2;
layout(set = 0, binding = 1) uniform sampler1DShadow s1;
layout(set = 0, binding = 2) uniform sampler2DArrayShadow s2a;
layout(set = 0, binding = 3) uniform samplerCubeShadow sc;
layout(set = 0, binding = 4) uniform samplerCubeArrayShadow sca;
layout(set = 0, binding = 6) uniform sampler2D plain;
layout(std430, set = 0, binding = 7) buffer Out { float r[16]; ivec4 sizes; vec4 g; };
float through(sampler2DShadow s, vec3 p) { return texture(s, p); }
void main() {
  r[0] = texture(s2, vec3(0.3, 0.6, 0.5));
  r[1] = textureLod(s2, vec3(0.3, 0.6, 0.5), 1.0);
  r[2] = textureOffset(s2, vec3(0.3, 0.6, 0.5), ivec2(1, -1));
  r[3] = textureProj(s2, vec4(0.3, 0.6, 0.5, 2.0));
  r[4] = textureProjLod(s2, vec4(0.3, 0.6, 0.5, 2.0), 0.0);
  r[5] = texture(s1, vec3(0.3, 0.0, 0.5));
  r[6] = texture(s2a, vec4(0.3, 0.6, 1.0, 0.5));
  r[7] = texture(sc, vec4(0.3, 0.6, 0.1, 0.5));
  r[8] = texture(sca, vec4(0.3, 0.6, 0.1, 1.0), 0.5);
  r[9] = textureGrad(s1, vec3(0.3, 0.0, 0.5), 0.1, 0.1);
  r[10] = through(s2, vec3(0.1, 0.2, 0.3));
  r[11] = texture(plain, vec2(0.5)).x;
  r[12] = textureLodOffset(s2, vec3(0.3, 0.6, 0.5), 0.0, ivec2(1, 0));
  r[13] = textureGrad(s2, vec3(0.3, 0.6, 0.5), vec2(0.1), vec2(0.1));
  g = textureGather(s2, vec2(0.3, 0.6), 0.5) + textureGatherOffset(s2a, vec3(0.3, 0.6, 1.0), 0.5, ivec2(1, 0));
  sizes = ivec4(textureSize(s2, 0), textureSize(s2a, 1).z, textureSize(sc, 0).x);
}
)";

}  // namespace

TEST_CASE("shadow lookups of named bindings become plain lookups compared in the shader (GL 4.6 §8.23.1)",
          "[spirv_patch][shadow_samplers]") {
  const std::vector<uint32_t> input = compile_or_fail(kAllForms);
  REQUIRE(dref_lookups(input) == 15);
  const size_t size_queries = count_op(input, spv::Op::OpImageQuerySizeLod);
  auto patch = lower_shadow_samplers(input, bindings({0, 1, 2, 3, 4}));
  REQUIRE_OK(patch);
  REQUIRE_VALID(patch->words, TargetEnv::Vulkan1_1);
  CHECK(patch->report.lowered == 15);
  CHECK(dref_lookups(patch->words) == 0);
  CHECK(depth_images(patch->words) == 0);
  // The gathers stay gathers (of component 0): textureGather compares four texels, unfiltered.
  CHECK(count_op(patch->words, spv::Op::OpImageGather) == 2);
  // Five state words, SpecIds after the group size's.
  REQUIRE(patch->report.spec_ids.size() == 5);
  auto module = Module::parse(patch->words);
  REQUIRE(module);
  const std::vector<uint32_t> in_use = module->spec_ids_in_use();
  for (uint32_t id : patch->report.spec_ids) CHECK(std::count(in_use.begin(), in_use.end(), id) == 1);
  // textureSize keeps its queries (the linear footprint adds its own OpImageQuerySizeLod and OpImageQueryLevels).
  CHECK(count_op(patch->words, spv::Op::OpImageQuerySizeLod) >= size_queries);
  // SPIR-V 2.8: the lowered 2D image type and sampler2D's are one declaration.
  size_t image_types = 0;
  for (auto h : module->instructions(Section::Global)) {
    const auto w = module->words(h);
    image_types += module->opcode(h) == spv::Op::OpTypeImage && w[3] == uint32_t(spv::Dim::Dim2D) && w[5] == 0 ? 1 : 0;
  }
  CHECK(image_types == 1);
}

TEST_CASE("the lowering runs in the pipeline and for one binding of several", "[spirv_patch][shadow_samplers]") {
  const std::vector<uint32_t> input = compile_or_fail(R"(#version 450
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) uniform sampler2DShadow a;
layout(set = 0, binding = 1) uniform sampler2DArrayShadow b;
layout(std430, set = 0, binding = 2) buffer Out { float r[2]; };
void main() { r[0] = texture(a, vec3(0.5)); r[1] = texture(b, vec4(0.5)); }
)");
  bismuth::spirv_patch::PipelineOptions options;
  options.shadow_samplers = bindings({1});
  options.shadow_samplers->first_spec_id = 40;
  auto piped = bismuth::spirv_patch::run_pipeline(input, options);
  REQUIRE_OK(piped);
  REQUIRE(piped->shadow_samplers);
  CHECK(piped->shadow_samplers->lowered == 1);
  CHECK(piped->shadow_samplers->spec_ids == std::vector<uint32_t>{40});
  CHECK(dref_lookups(piped->words) == 1);  // binding 0 keeps its depth comparison
  CHECK(depth_images(piped->words) == 1);
}

TEST_CASE("shadow lowering refusals name the variable or instruction", "[spirv_patch][shadow_samplers]") {
  const std::vector<uint32_t> shared = compile_or_fail(R"(#version 450
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) uniform sampler2DShadow a;
layout(set = 0, binding = 1) uniform sampler2DShadow b;
layout(std430, set = 0, binding = 2) buffer Out { float r[2]; };
void main() { r[0] = texture(a, vec3(0.5)); r[1] = texture(b, vec3(0.5)); }
)");
  // Both samplers have one image type: lowering one alone would retype the other.
  auto one = lower_shadow_samplers(shared, bindings({0}));
  REQUIRE_FALSE(one);
  CHECK(one.error().message.find("name its binding too") != std::string::npos);
  auto both = lower_shadow_samplers(shared, bindings({0, 1}));
  REQUIRE_OK(both);
  REQUIRE_VALID(both->words, TargetEnv::Vulkan1_1);
  CHECK(dref_lookups(both->words) == 0);

  // A binding that is no shadow sampler.
  auto plain = lower_shadow_samplers(shared, bindings({2}));
  REQUIRE_FALSE(plain);
  CHECK(plain.error().message.find("set 0 binding 2") != std::string::npos);

  // A function called with two different shadow samplers: the lookup inside cannot be given one state word.
  const std::vector<uint32_t> ambiguous = compile_or_fail(R"(#version 450
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) uniform sampler2DShadow a;
layout(set = 0, binding = 1) uniform sampler2DShadow b;
layout(std430, set = 0, binding = 2) buffer Out { float r[2]; };
float look(sampler2DShadow s) { return texture(s, vec3(0.5)); }
void main() { r[0] = look(a); r[1] = look(b); }
)");
  auto traced = lower_shadow_samplers(ambiguous, bindings({0, 1}));
  REQUIRE_FALSE(traced);
  CHECK(traced.error().message.find("does not come from one named variable") != std::string::npos);
}

TEST_CASE("arrays of shadow samplers are lowered through their access chains", "[spirv_patch][shadow_samplers]") {
  const std::vector<uint32_t> input = compile_or_fail(R"(#version 450
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) uniform sampler2DShadow s[3];
layout(std430, set = 0, binding = 1) buffer Out { float r[3]; };
void main() { for (int i = 0; i < 3; ++i) r[i] = texture(s[i], vec3(0.5)); }
)");
  auto patch = lower_shadow_samplers(input, bindings({0}));
  REQUIRE_OK(patch);
  REQUIRE_VALID(patch->words, TargetEnv::Vulkan1_1);
  CHECK(dref_lookups(patch->words) == 0);
  CHECK(patch->report.lowered == 1);
}

TEST_CASE("sparse shadow lookups keep their residency code (ARB_sparse_texture2)", "[spirv_patch][shadow_samplers]") {
  const std::vector<uint32_t> input = compile_or_fail(R"(#version 450
#extension GL_ARB_sparse_texture2 : enable
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) uniform sampler2DShadow s;
layout(std430, set = 0, binding = 1) buffer Out { float r; vec4 g; int codes[2]; };
void main() {
  float texel;
  vec4 texels;
  codes[0] = sparseTextureLodARB(s, vec3(0.5, 0.5, 0.25), 0.0, texel);
  codes[1] = sparseTextureGatherARB(s, vec2(0.5), 0.25, texels);
  r = texel;
  g = texels;
}
)");
  REQUIRE(count_op(input, spv::Op::OpImageSparseSampleDrefExplicitLod) == 1);
  REQUIRE(count_op(input, spv::Op::OpImageSparseDrefGather) == 1);
  auto patch = lower_shadow_samplers(input, bindings({0}));
  REQUIRE_OK(patch);
  REQUIRE_VALID(patch->words, TargetEnv::Vulkan1_1);
  CHECK(patch->report.lowered == 2);
  CHECK(count_op(patch->words, spv::Op::OpImageSparseSampleDrefExplicitLod) == 0);
  CHECK(count_op(patch->words, spv::Op::OpImageSparseDrefGather) == 0);
  // The plain sparse lookups give the residency code.
  CHECK(count_op(patch->words, spv::Op::OpImageSparseSampleExplicitLod) == 1);
  CHECK(count_op(patch->words, spv::Op::OpImageSparseGather) == 1);
  CHECK(depth_images(patch->words) == 0);
}

namespace {

size_t push_constant_variables(const std::vector<uint32_t>& words) {
  auto module = Module::parse(words);
  REQUIRE(module);
  size_t n = 0;
  for (auto h : module->instructions(Section::Global)) {
    const auto w = module->words(h);
    n += module->opcode(h) == spv::Op::OpVariable && w[3] == uint32_t(spv::StorageClass::PushConstant) ? 1 : 0;
  }
  return n;
}

}  // namespace

// GL 4.6 §8.14.1: λ' = λ_base + clamp(bias_texobj + bias_shader) and λ = clamp(λ', min_lod, max_lod) take sampler
// state of any float value, as are the wrap modes and border depth of a non-seamless cube face (table 8.20): each
// binding's kShadowLodCount parameters are two vec4 of push constants where 32 bytes a binding fit (no pipeline per
// value), else float spec constants; both forms pass spirv-val, in SPIR-V 1.3 and 1.5 (where the entry point lists the
// push-constant variable).
TEST_CASE("the LOD parameters are push constants where they fit, else spec constants",
          "[spirv_patch][shadow_samplers]") {
  for (auto env : {TargetEnv::Vulkan1_1, TargetEnv::Vulkan1_2}) {
    const std::vector<uint32_t> input = compile_or_fail(kAllForms, env);
    ShadowSamplerOptions options = bindings({0, 1, 2, 3, 4});
    options.max_push_constant_bytes = 160;
    auto pushed = lower_shadow_samplers(input, options);
    REQUIRE_OK(pushed);
    REQUIRE_VALID(pushed->words, env);
    CHECK(pushed->report.lod_push_constant_bytes == 5 * 32);
    CHECK(pushed->report.lod_spec_ids.empty());
    CHECK(push_constant_variables(pushed->words) == 1);

    options.max_push_constant_bytes = 128;  // 160 bytes do not fit
    auto specialized = lower_shadow_samplers(input, options);
    REQUIRE_OK(specialized);
    REQUIRE_VALID(specialized->words, env);
    CHECK(specialized->report.lod_push_constant_bytes == 0);
    CHECK(push_constant_variables(specialized->words) == 0);
    REQUIRE(specialized->report.lod_spec_ids.size() == 5);
    auto module = Module::parse(specialized->words);
    REQUIRE(module);
    const std::vector<uint32_t> in_use = module->spec_ids_in_use();
    for (const auto& ids : specialized->report.lod_spec_ids) {
      for (uint32_t id : ids) CHECK(std::count(in_use.begin(), in_use.end(), id) == 1);
    }
  }
}

// A module with push constants of its own keeps them alone (Vulkan: one push-constant block per entry point): the
// LOD parameters become spec constants.
TEST_CASE("a module with its own push constants gets the LOD parameters as spec constants",
          "[spirv_patch][shadow_samplers]") {
  const std::vector<uint32_t> input = compile_or_fail(R"(#version 450
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) uniform samplerCubeShadow s;
layout(push_constant) uniform P { float ref; } p;
layout(std430, set = 0, binding = 1) buffer Out { float r; };
void main() { r = texture(s, vec4(0.3, 0.6, 0.1, p.ref)); }
)");
  ShadowSamplerOptions options = bindings({0});
  options.max_push_constant_bytes = 128;
  auto patch = lower_shadow_samplers(input, options);
  REQUIRE_OK(patch);
  REQUIRE_VALID(patch->words, TargetEnv::Vulkan1_1);
  CHECK(patch->report.lod_push_constant_bytes == 0);
  CHECK(patch->report.lod_spec_ids.size() == 1);
  CHECK(push_constant_variables(patch->words) == 1);
}

// With a compute derivative group, an implicit-LOD lookup's λ_base is the device's (OpImageQueryLod); without one it
// is 0 (GLSL 4.60 §8.9) and no query is made.
TEST_CASE("implicit shadow lookups take λ_base from the derivatives where the stage has them",
          "[spirv_patch][shadow_samplers]") {
  const char* with = R"(#version 450
#extension GL_NV_compute_shader_derivatives : require
layout(local_size_x = 2, local_size_y = 2) in;
layout(derivative_group_quadsNV) in;
layout(set = 0, binding = 0) uniform sampler2DShadow s;
layout(std430, set = 0, binding = 1) buffer Out { float r[4]; };
void main() { r[gl_LocalInvocationIndex] = texture(s, vec3(vec2(gl_LocalInvocationID.xy) * 0.25, 0.5)); }
)";
  const std::vector<uint32_t> derivatives = compile_or_fail(with);
  auto patch = lower_shadow_samplers(derivatives, bindings({0}));
  REQUIRE_OK(patch);
  REQUIRE_VALID(patch->words, TargetEnv::Vulkan1_1);
  CHECK(count_op(patch->words, spv::Op::OpImageQueryLod) == 1);
  const std::vector<uint32_t> plain = compile_or_fail(R"(#version 450
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) uniform sampler2DShadow s;
layout(std430, set = 0, binding = 1) buffer Out { float r; };
void main() { r = texture(s, vec3(0.5)); }
)");
  auto without = lower_shadow_samplers(plain, bindings({0}));
  REQUIRE_OK(without);
  REQUIRE_VALID(without->words, TargetEnv::Vulkan1_1);
  CHECK(count_op(without->words, spv::Op::OpImageQueryLod) == 0);
}

// GL 4.6 §8.13.1 with TEXTURE_CUBE_MAP_SEAMLESS disabled: each cube face "is treated as an independent
// two-dimensional texture" (ARB_seamless_cube_map), so the LINEAR footprint of a lowered cube lookup stays on the
// selected face. That choice is the state word's kShadowStateCubeNonSeamless bit, read by the lowered code (a
// uint constant 256 ANDed with the state word); the module stays valid with the bit set as its default.
TEST_CASE("lowered cube lookups read the state word's non-seamless bit", "[spirv_patch][shadow_samplers]") {
  using namespace bismuth::spirv_patch;
  const std::vector<uint32_t> input = compile_or_fail(R"(#version 450
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) uniform samplerCubeShadow sc;
layout(set = 0, binding = 1) uniform samplerCubeArrayShadow sca;
layout(std430, set = 0, binding = 2) buffer Out { float r[2]; };
void main() {
  r[0] = texture(sc, vec4(1.0, 0.875, 0.125, 0.5));
  r[1] = texture(sca, vec4(1.0, 0.875, 0.125, 1.0), 0.5);
}
)");
  auto patch = lower_shadow_samplers(input, bindings({0, 1}));
  REQUIRE_OK(patch);
  REQUIRE_VALID(patch->words, TargetEnv::Vulkan1_1);
  auto module = Module::parse(patch->words);
  REQUIRE(module);
  // The bit's constant, and a BitwiseAnd that tests it.
  uint32_t bit_id = 0;
  for (auto h : module->instructions(Section::Global)) {
    const auto w = module->words(h);
    if (module->opcode(h) == spv::Op::OpConstant && w.size() == 4 && w[3] == kShadowStateCubeNonSeamless) {
      const auto type = module->definition(w[1]);
      if (type && module->opcode(*type) == spv::Op::OpTypeInt) bit_id = w[2];
    }
  }
  REQUIRE(bit_id != 0);
  size_t tests = 0;
  for (auto h : module->instructions(Section::Function)) {
    const auto w = module->words(h);
    if (module->opcode(h) == spv::Op::OpBitwiseAnd && (w[3] == bit_id || w[4] == bit_id)) ++tests;
  }
  CHECK(tests >= 2);  // each lowered cube lookup's footprint
  // Specialized as a pipeline with TEXTURE_CUBE_MAP_SEAMLESS off would be: still valid.
  const uint32_t word = 3 | kShadowStateMagLinear | kShadowStateMinLinear | kShadowStateCubeNonSeamless;
  const std::vector<uint32_t> values(patch->report.spec_ids.size(), word);
  REQUIRE_OK(set_spec_constant_defaults(*module, patch->report.spec_ids, values));
  REQUIRE_VALID(module->serialize(), TargetEnv::Vulkan1_1);
}
