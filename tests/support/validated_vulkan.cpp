#include "support/validated_vulkan.hpp"

#include <catch2/catch.hpp>

#include "bismuth/backend/device_selection.hpp"

namespace bismuth::test {

ValidatedVulkan::ValidatedVulkan() {
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
