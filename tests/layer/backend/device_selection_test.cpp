// BISMUTH_DEVICE selection rules (issue: foundation): an index, `cpu` / `gpu`, or a case-insensitive substring of
// the device name; default: the first discrete or integrated GPU, else the first CPU device.
#include <catch2/catch.hpp>

#include <cstdlib>

#include "bismuth/backend/device_selection.hpp"
#include "support/validated_vulkan.hpp"

using bismuth::backend::DeviceInfo;
using bismuth::backend::DeviceSelector;
using bismuth::backend::select_device;

namespace {

DeviceInfo fake(uint32_t index, const char* name, VkPhysicalDeviceType type) {
  DeviceInfo d;
  d.index = index;
  d.name = name;
  d.type = type;
  return d;
}

const std::vector<DeviceInfo> kCpuThenGpu = {
    fake(0, "llvmpipe (LLVM 15.0.6, 256 bits)", VK_PHYSICAL_DEVICE_TYPE_CPU),
    fake(1, "NVIDIA H100 80GB HBM3", VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU),
};

}  // namespace

TEST_CASE("An empty or blank selector is the default rule") {
  CHECK(DeviceSelector::parse("").kind == DeviceSelector::Kind::Default);
  CHECK(DeviceSelector::parse("   ").kind == DeviceSelector::Kind::Default);
}

TEST_CASE("Digits select a device by enumeration index") {
  auto s = DeviceSelector::parse(" 1 ");
  REQUIRE(s.kind == DeviceSelector::Kind::Index);
  CHECK(s.index == 1);
  CHECK(*select_device(kCpuThenGpu, s) == 1);
}

TEST_CASE("cpu and gpu select by device type, in any case") {
  CHECK(DeviceSelector::parse("CPU").kind == DeviceSelector::Kind::Cpu);
  CHECK(DeviceSelector::parse("Gpu").kind == DeviceSelector::Kind::Gpu);
  CHECK(*select_device(kCpuThenGpu, DeviceSelector::parse("cpu")) == 0);
  CHECK(*select_device(kCpuThenGpu, DeviceSelector::parse("gpu")) == 1);
}

TEST_CASE("Anything else is a case-insensitive substring of the device name") {
  auto s = DeviceSelector::parse("h100");
  REQUIRE(s.kind == DeviceSelector::Kind::NameSubstring);
  CHECK(*select_device(kCpuThenGpu, s) == 1);
  CHECK(*select_device(kCpuThenGpu, DeviceSelector::parse("LLVMPIPE")) == 0);
}

TEST_CASE("The default is the first discrete or integrated GPU") {
  CHECK(*select_device(kCpuThenGpu, DeviceSelector{}) == 1);
  const std::vector<DeviceInfo> integrated_first = {
      fake(0, "cpu", VK_PHYSICAL_DEVICE_TYPE_CPU), fake(1, "igpu", VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU),
      fake(2, "dgpu", VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU)};
  CHECK(*select_device(integrated_first, DeviceSelector{}) == 1);
}

TEST_CASE("Without a GPU the default is the first CPU device") {
  const std::vector<DeviceInfo> devices = {fake(0, "virtual", VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU),
                                           fake(1, "llvmpipe", VK_PHYSICAL_DEVICE_TYPE_CPU)};
  CHECK(*select_device(devices, DeviceSelector{}) == 1);
}

TEST_CASE("A selector that matches nothing is an error listing the devices") {
  for (const char* text : {"7", "gpu", "radeon", "99999999999999999999"}) {
    const std::vector<DeviceInfo> only_cpu = {kCpuThenGpu[0]};
    auto result = select_device(only_cpu, DeviceSelector::parse(text));
    REQUIRE_FALSE(result);
    CHECK_THAT(result.error().message, Catch::Contains("BISMUTH_DEVICE") && Catch::Contains("[0] llvmpipe"));
  }
}

TEST_CASE("BISMUTH_DEVICE is read from the environment") {
  setenv("BISMUTH_DEVICE", "cpu", 1);
  CHECK(DeviceSelector::from_environment().kind == DeviceSelector::Kind::Cpu);
  unsetenv("BISMUTH_DEVICE");
  CHECK(DeviceSelector::from_environment().kind == DeviceSelector::Kind::Default);
}

TEST_CASE("Enumeration describes the real devices", "[vulkan]") {
  bismuth::test::ValidatedVulkan vk;
  REQUIRE_FALSE(vk.devices().empty());
  for (const DeviceInfo& d : vk.devices()) {
    INFO(d.name);
    CHECK_FALSE(d.name.empty());
    CHECK(d.api_version >= VK_API_VERSION_1_1);
    CHECK(d.subgroup_size >= 1);
    CHECK(d.min_subgroup_size <= d.subgroup_size);
    CHECK(d.subgroup_size <= d.max_subgroup_size);
    // Vulkan's required minimums (Table "Required Limits").
    CHECK(d.max_compute_work_group_invocations >= 128);
    CHECK(d.max_compute_work_group_size[0] >= 128);
    CHECK(d.max_compute_work_group_count[0] >= 65535);
    CHECK(d.max_compute_shared_memory_size >= 16384);
    CHECK(std::is_sorted(d.extensions.begin(), d.extensions.end()));
  }
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}
