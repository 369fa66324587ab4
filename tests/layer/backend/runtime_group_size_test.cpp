// Runtime group size (docs/backend.md, "Runtime group size"): a variable-size shader's variant, whose pipelines
// depend on the total invocation count only, gives the same results as per-size pipelines; shapes of one total
// share one pipeline; a never-seen size of a barrier-free program runs on a larger ready pipeline while its own
// compiles in the background; programs with barriers only ever run on their exact total.
#include "bismuth/spirv_patch/passes/workgroup_size_to_runtime.hpp"
#include "backend_fixture.hpp"

using namespace bismuth;
using namespace bismuth::backend;
using bismuth::test::make_stream;
using bismuth::test::read_words;
using bismuth::test::ValidatedVulkan;

namespace {

// Every invocation writes its built-ins, indexed by its global linear index.
constexpr const char* kIdsShader = R"(#version 450
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;
layout(std430, binding = 0) buffer Out { uint words[]; };
uint pack(uvec3 v) { return v.x | v.y << 10 | v.z << 20; }
void main() {
  uvec3 n = gl_NumWorkGroups * gl_WorkGroupSize;
  uint g = gl_GlobalInvocationID.x + n.x * (gl_GlobalInvocationID.y + n.y * gl_GlobalInvocationID.z);
  words[g * 5 + 0] = pack(gl_LocalInvocationID);
  words[g * 5 + 1] = gl_LocalInvocationIndex;
  words[g * 5 + 2] = pack(gl_WorkGroupSize);
  words[g * 5 + 3] = pack(gl_WorkGroupID);
  words[g * 5 + 4] = pack(gl_GlobalInvocationID);
}
)";

// A shared-memory reduction with a barrier: out[group] = 1 + 2 + ... + invocations.
constexpr const char* kBarrierShader = R"(#version 450
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;
layout(std430, binding = 0) buffer Out { uint words[]; };
shared uint values[1024];
void main() {
  values[gl_LocalInvocationIndex] = gl_LocalInvocationIndex + 1;
  barrier();
  if (gl_LocalInvocationIndex == 0) {
    uint total = 0;
    for (uint i = 0; i < gl_WorkGroupSize.x * gl_WorkGroupSize.y * gl_WorkGroupSize.z; ++i) total += values[i];
    words[gl_WorkGroupID.x] = total;
  }
}
)";

std::shared_ptr<Shader> make_with_variant(Device& device, const char* source, const BindingLayout& layout,
                                          bool expect_exact_only) {
  const std::vector<uint32_t>& spirv = test::spirv_of(source);
  spirv_patch::RuntimeGroupSizeOptions options;
  options.push_constant_offset = (layout.push_constant_bytes + 15) / 16 * 16;
  auto patched = spirv_patch::workgroup_size_to_runtime(spirv, options);
  if (!patched) FAIL(patched.error().message);
  CHECK(patched->report.exact_only == expect_exact_only);
  ShaderDesc desc;
  desc.spirv = spirv;
  desc.layout = layout;
  desc.name = "runtime size test";
  desc.runtime_group_size =
      ShaderDesc::RuntimeGroupSize{patched->words, patched->report.push_constant_offset, patched->report.exact_only};
  auto shader = Shader::create(device, desc);
  if (!shader) FAIL(shader.error().message);
  REQUIRE((*shader)->runtime_variant() != nullptr);
  return std::move(*shader);
}

uint32_t pack(uint32_t x, uint32_t y, uint32_t z) {
  return x | y << 10 | z << 20;
}

// What kIdsShader writes for `size` and `groups`, computed on the CPU from the GLSL definitions.
std::vector<uint32_t> expected_ids(GroupSize size, std::array<uint32_t, 3> groups) {
  const uint32_t nx = groups[0] * size.x, ny = groups[1] * size.y, nz = groups[2] * size.z;
  std::vector<uint32_t> words(size_t(nx) * ny * nz * 5);
  for (uint32_t gz = 0; gz < nz; ++gz) {
    for (uint32_t gy = 0; gy < ny; ++gy) {
      for (uint32_t gx = 0; gx < nx; ++gx) {
        const uint32_t lx = gx % size.x, ly = gy % size.y, lz = gz % size.z;
        const size_t g = gx + size_t(nx) * (gy + size_t(ny) * gz);
        words[g * 5 + 0] = pack(lx, ly, lz);
        words[g * 5 + 1] = lx + size.x * (ly + size.y * lz);
        words[g * 5 + 2] = pack(size.x, size.y, size.z);
        words[g * 5 + 3] = pack(gx / size.x, gy / size.y, gz / size.z);
        words[g * 5 + 4] = pack(gx, gy, gz);
      }
    }
  }
  return words;
}

void check_ids(CommandStream& stream, const Shader& shader, GroupSize size, std::array<uint32_t, 3> groups,
               Device& device) {
  const std::vector<uint32_t> expected = expected_ids(size, groups);
  auto out = test::make_buffer(device, expected.size());
  BufferBinding binding{out.get(), 0, VK_WHOLE_SIZE, Access::Write};
  REQUIRE_OK(stream.dispatch({.shader = &shader, .size = size, .groups = groups, .bindings = {&binding, 1}}));
  const auto words = read_words(stream, *out, expected.size());
  INFO("size " << size.x << "x" << size.y << "x" << size.z);
  CHECK(words == expected);
}

}  // namespace

TEST_CASE("Runtime group size: every shape of one total shares one pipeline and sees its own built-ins",
          "[vulkan][runtime_group_size]") {
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk);
    auto options = test::quiet_cache_options();
    auto cache = test::make_cache(*device, options);
    auto stream = make_stream(*device, *cache);
    auto shader = make_with_variant(*device, kIdsShader, {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}, 0}, false);
    for (GroupSize size :
         {GroupSize{8, 8, 1}, GroupSize{16, 4, 1}, GroupSize{64, 1, 1}, GroupSize{2, 4, 8}, GroupSize{1, 1, 64}}) {
      check_ids(*stream, *shader, size, {3, 2, 2}, *device);
    }
    // One compile for the five shapes of 64 invocations (the original module compiled nothing).
    CHECK(cache->stats().compiles == 1);
    CHECK(stream->stats().runtime_size_dispatches == 5);
    CHECK(stream->stats().masked_dispatches == 0);
    // Other totals: odd shapes, one invocation.
    for (GroupSize size : {GroupSize{7, 3, 1}, GroupSize{5, 1, 3}, GroupSize{1, 1, 1}, GroupSize{3, 5, 7}}) {
      check_ids(*stream, *shader, size, {2, 3, 1}, *device);
    }
  }
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("Runtime group size: a never-seen size runs at once on a larger ready pipeline, then on its own",
          "[vulkan][runtime_group_size]") {
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk);
    auto cache = test::make_cache(*device);
    REQUIRE(cache->has_workers());
    auto stream = make_stream(*device, *cache);
    auto shader = make_with_variant(*device, kIdsShader, {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}, 0}, false);
    cache->prewarm(shader->runtime_variant_ref(), {GroupSize{64, 1, 1}});
    cache->wait_prewarm_idle();
    REQUIRE(cache->stats().compiles == 1);
    // 21 invocations: no pipeline of 21 exists, the 64-invocation one runs it (43 surplus invocations return).
    check_ids(*stream, *shader, {7, 3, 1}, {2, 2, 3}, *device);
    CHECK(stream->stats().masked_dispatches == 1);
    CHECK(cache->stats().misses == 0);  // the dispatch did not wait for a compile
    // The exact pipeline was queued ahead of everything; once it is ready the next dispatch uses it.
    cache->wait_prewarm_idle();
    CHECK(cache->stats().compiles == 2);
    check_ids(*stream, *shader, {7, 3, 1}, {2, 2, 3}, *device);
    CHECK(stream->stats().masked_dispatches == 1);
    // A shape of 21 never seen before: the exact pipeline, no masking.
    check_ids(*stream, *shader, {3, 7, 1}, {2, 2, 3}, *device);
    CHECK(stream->stats().masked_dispatches == 1);
    CHECK(cache->stats().compiles == 2);
  }
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("Runtime group size: programs with barriers run only on their exact total", "[vulkan][runtime_group_size]") {
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk);
    auto cache = test::make_cache(*device);
    auto stream = make_stream(*device, *cache);
    auto shader = make_with_variant(*device, kBarrierShader, {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}, 0}, true);
    REQUIRE(shader->runtime_variant()->runtime_exact_only());
    cache->prewarm(shader->runtime_variant_ref(), {GroupSize{64, 1, 1}});
    cache->wait_prewarm_idle();
    auto out = test::make_buffer(*device, 4);
    BufferBinding binding{out.get(), 0, VK_WHOLE_SIZE, Access::Write};
    for (GroupSize size : {GroupSize{7, 3, 1}, GroupSize{4, 4, 4}, GroupSize{16, 4, 1}, GroupSize{3, 1, 1}}) {
      REQUIRE_OK(
          stream->dispatch({.shader = shader.get(), .size = size, .groups = {4, 1, 1}, .bindings = {&binding, 1}}));
      const uint32_t n = size.x * size.y * size.z;
      const auto words = read_words(*stream, *out, 4);
      for (uint32_t w : words) CHECK(w == n * (n + 1) / 2);
    }
    CHECK(stream->stats().masked_dispatches == 0);
    CHECK(stream->stats().runtime_size_dispatches == 4);
    // 21, 3 compiled in the foreground; 64 served 4x4x4 and 16x4x1.
    CHECK(cache->stats().compiles == 3);
  }
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("Runtime group size: the caller's push constants stay below the logical size",
          "[vulkan][runtime_group_size]") {
  ValidatedVulkan vk;
  {
    auto device = test::make_device(vk);
    auto cache = test::make_cache(*device);
    auto stream = make_stream(*device, *cache);
    struct Push {
      uint32_t count, add;
    };
    auto shader = make_with_variant(*device, test::kAddShader,
                                    {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}, 8}, false);
    CHECK(shader->runtime_variant()->runtime_size_offset() == 16);
    constexpr uint32_t n = 1000;
    std::vector<uint32_t> input(n);
    for (uint32_t i = 0; i < n; ++i) input[i] = i * 3;
    auto src = test::make_buffer(*device, n);
    auto dst = test::make_buffer(*device, n);
    REQUIRE_OK(stream->upload(*src, 0, test::bytes_of(input)));
    BufferBinding bindings[2] = {{src.get(), 0, VK_WHOLE_SIZE, Access::Read},
                                 {dst.get(), 0, VK_WHOLE_SIZE, Access::Write}};
    uint32_t add = 1;
    for (uint32_t x : {64u, 48u, 7u, 256u, 64u}) {
      const Push push{n, add};
      REQUIRE_OK(stream->dispatch({.shader = shader.get(),
                                   .size = {x, 1, 1},
                                   .groups = {(n + x - 1) / x, 1, 1},
                                   .bindings = bindings,
                                   .push_constants = test::bytes_of(push)}));
      const auto words = read_words(*stream, *dst, n);
      for (uint32_t i = 0; i < n; ++i) {
        if (words[i] != input[i] + add) FAIL("x = " << x << ", dst[" << i << "] = " << words[i]);
      }
      ++add;
    }
  }
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}
