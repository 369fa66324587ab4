#include <catch2/catch.hpp>

#include "bismuth/backend/device_selection.hpp"
#include "support/run_process.hpp"
#include "support/validated_vulkan.hpp"

TEST_CASE("The default selection is a GPU when one is present", "[gpu]") {
  bismuth::test::ValidatedVulkan vk;
  auto selected = bismuth::backend::select_device(vk.devices(), bismuth::backend::DeviceSelector{});
  REQUIRE(selected);
  CHECK(vk.devices()[*selected].is_gpu());
  REQUIRE_NO_VALIDATION_MESSAGES(vk);
}

TEST_CASE("hello_dispatch passes on the GPU under the validation layer", "[gpu]") {
  auto result = bismuth::test::run_process({bismuth::test::tool_path(BISMUTH_HELLO_DISPATCH_PATH), "--validate"}, {"BISMUTH_DEVICE=gpu"});
  INFO(result.out << result.err);
  CHECK(result.exit_code == 0);
  CHECK_THAT(result.out, Catch::Contains("hello_dispatch: OK"));
}
