// choose_wave_size (layer/backend/include/bismuth/backend/wave_size_choice.hpp) against synthetic devices.
// Rules checked: HLSL proposal 0054 ("the implementation commits to a single wave size"; hints prefer small/large),
// SM 6.6/6.8 [WaveSize(min, max, preferred)], and Vulkan 1.3: requiredSubgroupSize is a power of two in
// [minSubgroupSize, maxSubgroupSize] (VUID-VkPipelineShaderStageRequiredSubgroupSizeCreateInfo-requiredSubgroupSize-
// 02760/02761/02762) and the group is at most requiredSubgroupSize * maxComputeWorkgroupSubgroups
// (VUID-VkPipelineShaderStageCreateInfo-pNext-02756).
#include <catch2/catch.hpp>

#include "backend_fixture.hpp"
#include "bismuth/backend/device_info.hpp"
#include "bismuth/backend/wave_size_choice.hpp"

using bismuth::backend::choose_wave_size;
using bismuth::backend::WaveSizeCaps;
using bismuth::backend::WaveSizePreference;
using bismuth::backend::WaveSizeRequest;

namespace {

WaveSizeCaps device(const char* name, uint32_t size, uint32_t min, uint32_t max, bool control,
                    uint32_t max_subgroups = 0, uint32_t max_invocations = 1024) {
  WaveSizeCaps caps;
  caps.device_name = name;
  caps.subgroup_size = size;
  caps.min_subgroup_size = min;
  caps.max_subgroup_size = max;
  caps.size_control_in_compute = control;
  caps.full_subgroups = control;
  caps.max_invocations = max_invocations;
  caps.max_size_x = max_invocations;
  caps.max_subgroups_per_workgroup = max_subgroups;
  return caps;
}

const WaveSizeCaps kLavapipe = device("llvmpipe (LLVM 15.0.6, 256 bits)", 8, 8, 8, true, 128);
const WaveSizeCaps kNvidia = device("NVIDIA H100 80GB HBM3", 32, 32, 32, true, 32);
const WaveSizeCaps kAmd = device("AMD Radeon RX 7900 XTX", 64, 32, 64, true, 32);
const WaveSizeCaps kIntel = device("Intel(R) Arc(tm) A770", 32, 8, 32, true, 64);
const WaveSizeCaps kNoControl = device("old GPU", 32, 32, 32, false);

uint32_t chosen(const WaveSizeRequest& request, const WaveSizeCaps& caps) {
  auto choice = choose_wave_size(request, caps);
  if (!choice) FAIL(choice.error().message);
  return choice->wave_size;
}

std::string refusal(const WaveSizeRequest& request, const WaveSizeCaps& caps) {
  auto choice = choose_wave_size(request, caps);
  REQUIRE_FALSE(choice);
  return choice.error().message;
}

}  // namespace

TEST_CASE("wave size: fixed-size devices commit to their one size", "[wave_size]") {
  for (auto hint : {WaveSizePreference::None, WaveSizePreference::Small, WaveSizePreference::Large}) {
    CHECK(chosen({.num_waves = 4, .hint = hint}, kLavapipe) == 8);
    CHECK(chosen({.num_waves = 4, .hint = hint}, kNvidia) == 32);
  }
  auto choice = choose_wave_size({.num_waves = 2}, kNvidia);
  REQUIRE(choice);
  CHECK(choice->require_size);
  CHECK(choice->require_full_subgroups);
}

TEST_CASE("wave size: hints and the preferred size choose within the device's range", "[wave_size]") {
  CHECK(chosen({.num_waves = 4, .hint = WaveSizePreference::Small}, kAmd) == 32);
  CHECK(chosen({.num_waves = 4, .hint = WaveSizePreference::Large}, kAmd) == 64);
  CHECK(chosen({.num_waves = 4}, kAmd) == 64);  // no hint: the device's subgroupSize
  CHECK(chosen({.num_waves = 4, .preferred = 32}, kAmd) == 32);
  CHECK(chosen({.num_waves = 4, .min = 32, .max = 64, .preferred = 32, .hint = WaveSizePreference::Large}, kAmd) ==
        64);  // the application's hint wins over the shader's preference

  CHECK(chosen({.num_waves = 2, .hint = WaveSizePreference::Small}, kIntel) == 8);
  CHECK(chosen({.num_waves = 2, .hint = WaveSizePreference::Large}, kIntel) == 32);
  CHECK(chosen({.num_waves = 2}, kIntel) == 32);
  CHECK(chosen({.num_waves = 2, .preferred = 16}, kIntel) == 16);
}

TEST_CASE("wave size: the request's range intersects the device's sizes", "[wave_size]") {
  CHECK(chosen({.num_waves = 1, .min = 16, .max = 16}, kIntel) == 16);
  CHECK(chosen({.num_waves = 1, .min = 8, .max = 16}, kIntel) == 16);  // default 32 out of range: the largest
  CHECK(chosen({.num_waves = 1, .min = 8, .max = 16, .hint = WaveSizePreference::Small}, kIntel) == 8);
  CHECK(chosen({.num_waves = 1, .min = 16}, kIntel) == 32);
  CHECK(chosen({.num_waves = 1, .max = 32}, kAmd) == 32);
  CHECK(chosen({.num_waves = 1, .min = 4, .max = 128}, kLavapipe) == 8);
  // Preferred outside what the device keeps: the other rules decide.
  CHECK(chosen({.num_waves = 1, .min = 8, .max = 64, .preferred = 64}, kIntel) == 32);
}

TEST_CASE("wave size: limits remove sizes, and nothing left is an error naming the device", "[wave_size]") {
  // 32 waves of 64 exceed 1024 invocations on the AMD-like device; 32 of 32 fit.
  CHECK(chosen({.num_waves = 32, .hint = WaveSizePreference::Large}, kAmd) == 32);
  CHECK(refusal({.num_waves = 32, .min = 64, .max = 64}, kAmd) ==
        "cannot honour 32 waves of size in [64,64] on AMD Radeon RX 7900 XTX: supported sizes 32, 64, max "
        "invocations 1024");
  CHECK(refusal({.num_waves = 2, .min = 16, .max = 16}, kLavapipe) ==
        "cannot honour 2 waves of size in [16,16] on llvmpipe (LLVM 15.0.6, 256 bits): supported sizes 8, max "
        "invocations 1024");
  CHECK(refusal({.num_waves = 129}, kLavapipe) ==
        "cannot honour 129 waves of any size on llvmpipe (LLVM 15.0.6, 256 bits): supported sizes 8, max "
        "invocations 1024, max waves per group 128");
  CHECK_THAT(refusal({.num_waves = 2, .max = 16}, kNvidia),
             Catch::Contains("of size at most 16") && Catch::Contains("supported sizes 32"));
  CHECK_THAT(refusal({.num_waves = 2, .min = 64}, kNvidia), Catch::Contains("of size at least 64"));
  WaveSizeCaps narrow = kNvidia;
  narrow.max_size_x = 64;
  CHECK(chosen({.num_waves = 2}, narrow) == 32);
  CHECK_THAT(refusal({.num_waves = 3}, narrow), Catch::Contains("max group size x 64"));
}

TEST_CASE("wave size: without size control only subgroupSize, no required size", "[wave_size]") {
  auto choice = choose_wave_size({.num_waves = 4, .hint = WaveSizePreference::Small}, kNoControl);
  REQUIRE(choice);
  CHECK(choice->wave_size == 32);
  CHECK_FALSE(choice->require_size);
  CHECK_FALSE(choice->require_full_subgroups);
  // maxComputeWorkgroupSubgroups binds only a required size.
  CHECK(chosen({.num_waves = 32}, kNoControl) == 32);
  CHECK_THAT(refusal({.num_waves = 1, .min = 8, .max = 16}, kNoControl), Catch::Contains("supported sizes 32"));
}

TEST_CASE("wave size: malformed requests", "[wave_size]") {
  CHECK_THAT(refusal({.num_waves = 0}, kNvidia), Catch::Contains("wave count must be greater than 0"));
  CHECK_THAT(refusal({.num_waves = 1, .min = 64, .max = 32}, kAmd), Catch::Contains("[64,32] is empty"));
  CHECK_THAT(refusal({.num_waves = 1, .min = 32, .max = 64, .preferred = 16}, kAmd),
             Catch::Contains("preferred wave size 16"));
  CHECK_THAT(refusal({.num_waves = 1, .preferred = 48}, kAmd), Catch::Contains("not a power of two"));
  // A count whose product overflows 32 bits is a refusal, not a wrap-around.
  CHECK_THAT(refusal({.num_waves = 0x80000000u}, kAmd), Catch::Contains("cannot honour 2147483648 waves"));
}

TEST_CASE("wave size: caps from DeviceInfo and the enabled features", "[wave_size]") {
  bismuth::backend::DeviceInfo info;
  info.name = "AMD-like";
  info.subgroup_size = 64;
  info.subgroup_size_control = true;
  info.min_subgroup_size = 32;
  info.max_subgroup_size = 64;
  info.required_subgroup_size_stages = VK_SHADER_STAGE_COMPUTE_BIT;
  info.max_compute_work_group_invocations = 1024;
  info.max_compute_work_group_size = {1024, 1024, 64};
  info.max_compute_workgroup_subgroups = 32;
  const auto enabled = bismuth::backend::wave_size_caps(info, true, true);
  CHECK(enabled.size_control_in_compute);
  CHECK(enabled.full_subgroups);
  CHECK(chosen({.num_waves = 2, .hint = WaveSizePreference::Small}, enabled) == 32);
  // The feature not enabled on the VkDevice: as if the device had no size control.
  const auto disabled = bismuth::backend::wave_size_caps(info, false, false);
  CHECK_FALSE(disabled.size_control_in_compute);
  CHECK(chosen({.num_waves = 2, .hint = WaveSizePreference::Small}, disabled) == 64);
  // Compute not among requiredSubgroupSizeStages.
  info.required_subgroup_size_stages = VK_SHADER_STAGE_FRAGMENT_BIT;
  CHECK_FALSE(bismuth::backend::wave_size_caps(info, true, true).size_control_in_compute);
}

TEST_CASE("wave size: caps of a real device follow its info and enabled features", "[wave_size][vulkan]") {
  bismuth::test::ValidatedVulkan vk;
  {
    auto device = bismuth::test::make_device(vk);
    const auto& info = device->info();
    const WaveSizeCaps caps = bismuth::backend::wave_size_caps(*device);
    CHECK(caps.device_name == info.name);
    CHECK(caps.subgroup_size == info.subgroup_size);
    CHECK(caps.size_control_in_compute == (device->features().subgroup_size_control &&
                                           (info.required_subgroup_size_stages & VK_SHADER_STAGE_COMPUTE_BIT) != 0));
    CHECK(caps.full_subgroups == device->features().compute_full_subgroups);
    CHECK(caps.max_invocations == info.max_compute_work_group_invocations);
    // Without a hint or range the device's own subgroup size is committed (it is always a candidate).
    auto choice = choose_wave_size({.num_waves = 2}, caps);
    REQUIRE(choice);
    CHECK(choice->wave_size == info.subgroup_size);
  }
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}
