// Shared variants (docs/backend.md, "Runtime group size"; issue 17 item 3): programs generated from one template,
// whose variants read their integer literals from push constants, share the variant's pipelines — a second program
// compiles nothing — and each still computes with its own literals; a program that keeps being dispatched moves to
// its own module's exact-size pipeline, compiled in the background.
#include "backend_fixture.hpp"
#include "bismuth/spirv_patch/pipeline.hpp"
#include "bismuth/translator/glsl_compiler.hpp"

using namespace bismuth;
using namespace bismuth::backend;
using bismuth::test::make_stream;
using bismuth::test::read_words;
using bismuth::test::ValidatedVulkan;

namespace {

// A template: `scale` and `bias` are baked into each program's source, as a generator writes them.
std::string templated(uint32_t scale, uint32_t bias) {
  return R"(#version 450
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;
layout(std430, binding = 0) buffer Out { uint words[]; };
void main() {
  uvec3 n = gl_NumWorkGroups * gl_WorkGroupSize;
  uint g = gl_GlobalInvocationID.x + n.x * (gl_GlobalInvocationID.y + n.y * gl_GlobalInvocationID.z);
  words[g] = gl_LocalInvocationIndex * )" +
         std::to_string(scale) + "u + " + std::to_string(bias) + R"(u;
}
)";
}

struct Program {
  std::vector<uint32_t> spirv;
  spirv_patch::PipelineResult piped;
  std::shared_ptr<Shader> shader;
  uint32_t scale = 0, bias = 0;
};

Program make_program(Device& device, uint32_t scale, uint32_t bias) {
  Program p;
  p.scale = scale;
  p.bias = bias;
  auto spirv = translator::compile_glsl_compute(templated(scale, bias), {.source_name = "template.comp"});
  if (!spirv) FAIL(spirv.error().message);
  p.spirv = std::move(*spirv);
  spirv_patch::PipelineOptions options;
  options.runtime_group_size = spirv_patch::RuntimeGroupSizeOptions{};
  options.literals_to_push_constants = spirv_patch::LiteralsToPushConstantsOptions{};
  auto piped = spirv_patch::run_pipeline(p.spirv, options);
  if (!piped) FAIL(piped.error().message);
  p.piped = std::move(*piped);
  REQUIRE(p.piped.runtime_group_size);
  const auto& variant = *p.piped.runtime_group_size;
  REQUIRE_FALSE(variant.literals.values.empty());
  ShaderDesc desc;
  desc.spirv = p.piped.words;
  desc.layout = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}, 0};
  desc.name = "template " + std::to_string(scale);
  desc.runtime_group_size =
      ShaderDesc::RuntimeGroupSize{variant.words, variant.report.push_constant_offset, variant.report.exact_only,
                                   variant.literals.values, variant.literals.push_constant_offset};
  auto shader = Shader::create(device, desc);
  if (!shader) FAIL(shader.error().message);
  REQUIRE((*shader)->runtime_variant() != nullptr);
  REQUIRE_FALSE((*shader)->runtime_variant()->runtime_literals().empty());
  p.shader = std::move(*shader);
  return p;
}

// Dispatches `p` at `size` with 2x1x1 groups and checks every word against the GLSL computed here.
void check(CommandStream& stream, Device& device, const Program& p, GroupSize size) {
  const uint32_t total = size.x * size.y * size.z;
  std::vector<uint32_t> expected(2 * total);
  for (uint32_t group = 0; group < 2; ++group) {
    for (uint32_t z = 0; z < size.z; ++z) {
      for (uint32_t y = 0; y < size.y; ++y) {
        for (uint32_t x = 0; x < size.x; ++x) {
          const uint32_t g = group * size.x + x + 2 * size.x * (y + size.y * z);
          expected[g] = (x + size.x * (y + size.y * z)) * p.scale + p.bias;
        }
      }
    }
  }
  auto out = test::make_buffer(device, expected.size());
  BufferBinding binding{out.get(), 0, VK_WHOLE_SIZE, Access::Write};
  REQUIRE_OK(stream.dispatch({.shader = p.shader.get(), .size = size, .groups = {2, 1, 1}, .bindings = {&binding, 1}}));
  INFO("program " << p.scale << ", size " << size.x << "x" << size.y << "x" << size.z);
  CHECK(read_words(stream, *out, expected.size()) == expected);
}

}  // namespace

TEST_CASE("Shared variants: programs of one template share pipelines, each with its own literals",
          "[vulkan][runtime_group_size]") {
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk);
    auto options = test::quiet_cache_options();
    auto cache = test::make_cache(*device, options);
    auto stream = make_stream(*device, *cache);
    std::vector<Program> programs;
    for (uint32_t k = 0; k < 6; ++k) programs.push_back(make_program(*device, 3 + 7 * k, 1000 * k + 1));
    // Without hoisting the variants would differ in their literals (the pass's own tests check that); with it they
    // are one module.
    for (size_t i = 1; i < programs.size(); ++i) {
      CHECK(programs[i].shader->runtime_variant()->spirv_hash() == programs[0].shader->runtime_variant()->spirv_hash());
      CHECK(programs[i].shader->spirv_hash() != programs[0].shader->spirv_hash());
      // One variant object, its layouts and module made once (Device::share_variant).
      CHECK(programs[i].shader->runtime_variant() == programs[0].shader->runtime_variant());
    }
    // The first dispatch compiles the variant's pipeline of 64 invocations (a size of the prewarm set) ...
    check(*stream, *device, programs[0], GroupSize{8, 8, 1});
    CHECK(cache->stats().compiles == 1);
    // ... which every other program of the template runs at once, at that total or below it.
    for (size_t i = 1; i < programs.size(); ++i) {
      check(*stream, *device, programs[i], GroupSize{8, 8, 1});
      check(*stream, *device, programs[i], GroupSize{4, 4, 4});
      check(*stream, *device, programs[i], GroupSize{7, 3, 1});  // 21 invocations on the 64-invocation pipeline
    }
    check(*stream, *device, programs[0], GroupSize{5, 1, 3});
    const PipelineCacheStats stats = cache->stats();
    CHECK(stats.misses - stats.prewarm_joins >= 1);
    // Nothing else compiled in the foreground, and no program was dispatched often enough to get its own.
    CHECK(stats.compiles - stats.prewarm_compiles == 1);
    CHECK(stats.prewarm_compiles == 0);
    CHECK(stream->stats().shared_variant_dispatches == stream->stats().dispatches);
  }
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("Shared variants: a program dispatched again and again moves to its own exact-size pipeline",
          "[vulkan][runtime_group_size]") {
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk);
    auto cache = test::make_cache(*device);
    REQUIRE(cache->has_workers());
    auto stream = make_stream(*device, *cache);
    const Program a = make_program(*device, 5, 9);
    const Program b = make_program(*device, 11, 2);
    const GroupSize size{4, 2, 3};
    for (uint32_t i = 0; i < PipelineFrontTable::kStandInHitsBeforeCompile + 1; ++i) check(*stream, *device, a, size);
    check(*stream, *device, b, size);
    cache->wait_prewarm_idle();
    // `a` was queued for its own module at 4x2x3 (the original module, not the variant), `b` was not.
    CHECK(cache->stats().prewarm_compiles == 1);
    const uint64_t shared_before = stream->stats().shared_variant_dispatches;
    const uint64_t runtime_before = stream->stats().runtime_size_dispatches;
    check(*stream, *device, a, size);
    CHECK(stream->stats().shared_variant_dispatches == shared_before);
    CHECK(stream->stats().runtime_size_dispatches == runtime_before);
    check(*stream, *device, b, size);
    CHECK(stream->stats().shared_variant_dispatches == shared_before + 1);
  }
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}
