// Device selection used by every Bismuth component: BISMUTH_DEVICE = an index, `cpu`, `gpu`, or a
// case-insensitive substring of the device name. Default: the first discrete or integrated GPU, else the first
// CPU device (lavapipe), else the first device.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bismuth/backend/device_info.hpp"
#include "bismuth/common/expected.hpp"

namespace bismuth::backend {

struct DeviceSelector {
  enum class Kind { Default, Index, Cpu, Gpu, NameSubstring };
  Kind kind = Kind::Default;
  uint32_t index = 0;     // Kind::Index
  std::string substring;  // Kind::NameSubstring, as given

  // Parses a selector string; empty means Default. Digits only is an index, "cpu"/"gpu" (any case) a type.
  static DeviceSelector parse(std::string_view text);
  // The selector from the BISMUTH_DEVICE environment variable (Default when unset or empty).
  static DeviceSelector from_environment();
  std::string describe() const;
};

// Index into `devices` of the device `selector` names. The error message lists the devices that were seen.
Expected<size_t> select_device(const std::vector<DeviceInfo>& devices, const DeviceSelector& selector);

}  // namespace bismuth::backend
