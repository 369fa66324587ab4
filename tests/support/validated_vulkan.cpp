#include "support/validated_vulkan.hpp"

#include <catch2/catch.hpp>

#include "bismuth/backend/device_selection.hpp"

namespace bismuth::test {

namespace {

// One instance with the validation layer kept for the whole test process. The loader loads the driver and layer
// libraries at vkCreateInstance and unloads them at the last vkDestroyInstance; NVIDIA's driver fails to load
// again (VK_ERROR_INCOMPATIBLE_DRIVER) after a few dozen such cycles in one process. With this instance alive,
// the later create/destroy pairs only change reference counts.
void keep_driver_and_layers_loaded() {
  static std::unique_ptr<backend::Instance> keep_alive = [] {
    backend::InstanceOptions options;
    options.application_name = "bismuth-tests-keep-alive";
    options.enable_validation = true;
    auto instance = backend::Instance::create(options);
    return instance ? std::move(*instance) : nullptr;
  }();
  (void)keep_alive;
}

}  // namespace

ValidatedVulkan::ValidatedVulkan() {
  keep_driver_and_layers_loaded();
  backend::InstanceOptions options;
  options.application_name = "bismuth-tests";
  options.enable_validation = true;
  options.on_debug_message = [recorder = recorder_](const backend::DebugMessage& message) {
    std::lock_guard lock(recorder->mutex);
    recorder->messages.push_back(message.id_name + ": " + message.text);
  };
  auto instance = backend::Instance::create(options);
  if (!instance) FAIL(instance.error().message);
  instance_ = std::move(*instance);
  auto devices = backend::enumerate_devices(*instance_);
  if (!devices) FAIL(devices.error().message);
  devices_ = std::move(*devices);
  auto selected = backend::select_device(devices_, backend::DeviceSelector::from_environment());
  if (!selected) FAIL(selected.error().message);
  selected_ = *selected;
}

std::vector<std::string> ValidatedVulkan::messages() const {
  std::lock_guard lock(recorder_->mutex);
  return recorder_->messages;
}

}  // namespace bismuth::test
