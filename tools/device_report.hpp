// How `bismuth devices` presents a DeviceInfo: a text block per device, or a JSON object.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

#include "bismuth/backend/device_info.hpp"

namespace bismuth::tools {

nlohmann::json device_to_json(const backend::DeviceInfo& device, bool selected);
std::string device_to_text(const backend::DeviceInfo& device, bool selected);

}  // namespace bismuth::tools
