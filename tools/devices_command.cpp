#include "devices_command.hpp"

#include <cstdio>
#include <memory>

#include "bismuth/backend/device_info.hpp"
#include "bismuth/backend/device_selection.hpp"
#include "bismuth/backend/instance.hpp"
#include "device_report.hpp"

namespace bismuth::tools {

namespace {

// Exit code for "no Vulkan driver at all": distinct from 1 (other failures) so scripts can tell them apart.
constexpr int kExitNoDriver = 2;

struct DevicesOptions {
  bool json = false;
};

int run_devices(const DevicesOptions& options) {
  auto instance = backend::Instance::create({.application_name = "bismuth devices"});
  if (!instance) {
    std::fprintf(stderr, "bismuth devices: %s\n", instance.error().message.c_str());
    return kExitNoDriver;
  }
  auto devices = backend::enumerate_devices(**instance);
  if (!devices) {
    std::fprintf(stderr, "bismuth devices: %s\n", devices.error().message.c_str());
    return kExitNoDriver;
  }
  const backend::DeviceSelector selector = backend::DeviceSelector::from_environment();
  auto selected = backend::select_device(*devices, selector);

  if (options.json) {
    nlohmann::json out;
    out["selector"] = selector.describe();
    out["selected"] = selected ? nlohmann::json(*selected) : nlohmann::json(nullptr);
    if (!selected) out["selection_error"] = selected.error().message;
    out["devices"] = nlohmann::json::array();
    for (const auto& device : *devices) {
      out["devices"].push_back(device_to_json(device, selected && *selected == device.index));
    }
    std::printf("%s\n", out.dump(2).c_str());
  } else {
    std::printf("Vulkan devices (%zu); selection: %s\n", devices->size(), selector.describe().c_str());
    for (const auto& device : *devices) {
      std::printf("%s", device_to_text(device, selected && *selected == device.index).c_str());
    }
    if (!selected) std::fprintf(stderr, "bismuth devices: %s\n", selected.error().message.c_str());
  }
  return selected ? 0 : 1;
}

}  // namespace

void add_devices_command(CLI::App& app, int* exit_code) {
  auto options = std::make_shared<DevicesOptions>();
  CLI::App* command = app.add_subcommand(
      "devices", "List every Vulkan physical device and the one Bismuth selects (BISMUTH_DEVICE)");
  command->add_flag("--json", options->json, "Print the same information as JSON");
  command->callback([options, exit_code] { *exit_code = run_devices(*options); });
}

}  // namespace bismuth::tools
