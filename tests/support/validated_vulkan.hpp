// A Vulkan instance for tests with VK_LAYER_KHRONOS_validation enabled and every message it reports recorded.
// A test that creates Vulkan objects ends with REQUIRE_NO_VALIDATION_MESSAGES(vk).
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "bismuth/backend/device_info.hpp"
#include "bismuth/backend/instance.hpp"

namespace bismuth::test {

class ValidatedVulkan {
 public:
  // Fails the current test (REQUIRE) when the loader, a driver or the validation layer is missing.
  ValidatedVulkan();

  backend::Instance& instance() { return *instance_; }
  const std::vector<backend::DeviceInfo>& devices() const { return devices_; }
  // The device BISMUTH_DEVICE selects (default rules when unset).
  const backend::DeviceInfo& selected_device() const { return devices_[selected_]; }

  std::vector<std::string> messages() const;

 private:
  struct Recorder {
    mutable std::mutex mutex;
    std::vector<std::string> messages;
  };
  std::shared_ptr<Recorder> recorder_ = std::make_shared<Recorder>();
  std::unique_ptr<backend::Instance> instance_;
  std::vector<backend::DeviceInfo> devices_;
  size_t selected_ = 0;
};

}  // namespace bismuth::test

// Prints every recorded validation message and fails the test if there is any.
#define REQUIRE_NO_VALIDATION_MESSAGES(vk)            \
  do {                                                \
    const auto bismuth_messages_ = (vk).messages();   \
    for (const auto& m : bismuth_messages_) UNSCOPED_INFO(m); \
    REQUIRE(bismuth_messages_.empty());               \
  } while (false)
