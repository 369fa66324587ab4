// workgroup_size_to_runtime on the selected device (lavapipe on CI, validation layer on): a word-for-word comparison
// with the input module specialized to the logical size, for physical sizes L == x*y*z and L > x*y*z.
#include <catch2/catch.hpp>

#include <volk.h>

#include <algorithm>

#include "runtime_group_size_support.hpp"
#include "support/buffer_dispatch.hpp"
#include "support/validated_vulkan.hpp"

using bismuth::spirv_patch::RuntimeGroupSizePatch;
using bismuth::spirv_patch::TargetEnv;
using bismuth::test::BufferDevice;
using bismuth::test::MultiBufferDispatch;
using bismuth::test::ValidatedVulkan;
using namespace bismuth::test::runtime_group_size;

namespace {

using Size = std::array<uint32_t, 3>;

std::string describe(const Size& s) {
  return std::to_string(s[0]) + "x" + std::to_string(s[1]) + "x" + std::to_string(s[2]);
}

constexpr uint32_t kSentinel = 0xdeadbeef;

// Runs `original` specialized to `size` and `patched` specialized to (L,1,1) with the size pushed at `offset`, with
// the same workgroup counts and user push constants, and compares every word of the buffer.
void compare(BufferDevice& device, const std::vector<uint32_t>& original, const RuntimeGroupSizePatch& patched,
             const Size& size, uint32_t physical, const std::array<uint32_t, 3>& groups, uint32_t buffer_words,
             const std::vector<uint32_t>& user_push = {}) {
  INFO("logical size " << describe(size) << ", physical size " << physical << ", groups " << describe(groups));
  const auto& ids = patched.report.spec_ids;
  std::vector<uint32_t> initial(buffer_words, kSentinel);
  initial[0] = 0;
  MultiBufferDispatch reference;
  reference.spirv = original;
  reference.specialization = {{ids[0], size[0]}, {ids[1], size[1]}, {ids[2], size[2]}};
  reference.group_count = groups;
  reference.buffers = {{0, false, initial}};
  reference.push_words = user_push;
  REQUIRE_OK(device.run(reference));

  MultiBufferDispatch runtime = reference;
  runtime.spirv = patched.words;
  runtime.specialization = {{ids[0], physical}, {ids[1], 1}, {ids[2], 1}};
  runtime.buffers = {{0, false, initial}};
  runtime.push_words = user_push;
  runtime.push_words.resize(patched.report.push_constant_offset / 4, 0);
  runtime.push_words.insert(runtime.push_words.end(), size.begin(), size.end());
  REQUIRE_OK(device.run(runtime));

  const std::vector<uint32_t>& expected = reference.buffers[0].words;
  const std::vector<uint32_t>& got = runtime.buffers[0].words;
  size_t mismatches = 0;
  for (size_t i = 0; i < expected.size(); ++i) {
    if (expected[i] == got[i]) continue;
    if (++mismatches <= 8) UNSCOPED_INFO("word " << i << ": original " << expected[i] << ", runtime size " << got[i]);
  }
  CHECK(mismatches == 0);
}

uint32_t volume(const Size& s) {
  return s[0] * s[1] * s[2];
}

}  // namespace

TEST_CASE("Runtime group size: on the device every built-in matches the module specialized to the logical size") {
  ValidatedVulkan vk;
  auto device = BufferDevice::create(vk);
  REQUIRE_OK(device);
  const uint32_t max_invocations = vk.selected_device().max_compute_work_group_invocations;
  std::vector<TargetEnv> envs{TargetEnv::Vulkan1_0, TargetEnv::Vulkan1_1};
  if ((*device)->maintenance4()) {
    envs.push_back(TargetEnv::Vulkan1_3);
  } else {
    WARN("the selected device lacks maintenance4: the SPIR-V 1.6 (LocalSizeId) form is not dispatched");
  }
  const std::array<uint32_t, 3> groups{2, 2, 2};
  for (TargetEnv env : envs) {
    INFO("target " << bismuth::spirv_patch::to_string(env));
    const auto original = prepared(shader(kRecorder), env);
    const auto patched = runtime_or_fail(original, env);
    REQUIRE_FALSE(patched.report.exact_only);
    for (const Size& size : std::vector<Size>{{7, 3, 1}, {4, 4, 2}, {64, 1, 1}, {5, 1, 3}, {1, 1, 1}, {3, 5, 7}}) {
      const uint32_t t = volume(size);
      const uint32_t words = 1 + t * 8 * 16;
      for (uint32_t physical : {t, t + 1, std::max(t, 64u) + 36, std::min(max_invocations, 256u)}) {
        if (physical < t || physical > max_invocations) continue;
        compare(**device, original, patched, size, physical, groups, words);
      }
    }
  }
  device->reset();
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("Runtime group size: on the device a user push-constant block keeps working next to the size") {
  ValidatedVulkan vk;
  auto device = BufferDevice::create(vk);
  REQUIRE_OK(device);
  const auto original = prepared(shader(kWithPushConstants));
  const auto patched = runtime_or_fail(original, TargetEnv::Vulkan1_1, {.push_constant_offset = 16});
  for (const Size& size : std::vector<Size>{{7, 3, 1}, {4, 4, 2}, {5, 1, 3}}) {
    const uint32_t t = volume(size);
    for (uint32_t physical : {t, t + 9, 128u}) {
      if (physical < t) continue;
      compare(**device, original, patched, size, physical, {3, 1, 2}, 1 + t * 6, {3, 11});
    }
  }
  device->reset();
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("Runtime group size: on the device a shared-memory reduction with barriers matches at L == x*y*z") {
  ValidatedVulkan vk;
  auto device = BufferDevice::create(vk);
  REQUIRE_OK(device);
  const auto original = prepared(shader(kReduction));
  const auto patched = runtime_or_fail(original, TargetEnv::Vulkan1_1);
  REQUIRE(patched.report.exact_only);
  const std::array<uint32_t, 3> groups{3, 2, 1};
  for (const Size& size : std::vector<Size>{{7, 3, 1}, {4, 4, 2}, {64, 1, 1}, {5, 1, 3}, {16, 16, 1}}) {
    const uint32_t t = volume(size);
    compare(**device, original, patched, size, t, groups, 1 + groups[0] * groups[1]);
    // And against the sum computed here.
    MultiBufferDispatch run;
    run.spirv = patched.words;
    run.specialization = {
        {patched.report.spec_ids[0], t}, {patched.report.spec_ids[1], 1}, {patched.report.spec_ids[2], 1}};
    run.group_count = groups;
    run.buffers = {{0, false, std::vector<uint32_t>(1 + groups[0] * groups[1], 0)}};
    run.push_words = {size[0], size[1], size[2]};
    REQUIRE_OK((*device)->run(run));
    const std::vector<uint32_t>& result = run.buffers[0].words;
    CHECK(result[0] == groups[0] * groups[1]);
    for (uint32_t gy = 0; gy < groups[1]; ++gy) {
      for (uint32_t gx = 0; gx < groups[0]; ++gx) {
        uint32_t sum = 0;
        for (uint32_t z = 0; z < size[2]; ++z) {
          for (uint32_t y = 0; y < size[1]; ++y) {
            for (uint32_t x = 0; x < size[0]; ++x) {
              sum += (gx * size[0] + x) * 3 + (gy * size[1] + y) * 5 + z * 7 + 1;
            }
          }
        }
        CHECK(result[1 + gx + gy * groups[0]] == sum);
      }
    }
  }
  device->reset();
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}
