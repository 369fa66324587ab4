#include "bismuth/backend/device_selection.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>

#include "bismuth/backend/vk_strings.hpp"

namespace bismuth::backend {

namespace {

std::string lowercase(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
  return out;
}

std::string device_list(const std::vector<DeviceInfo>& devices) {
  std::string list;
  for (const DeviceInfo& d : devices) {
    list += "\n  [" + std::to_string(d.index) + "] " + d.name + " (" + std::string(device_type_string(d.type)) + ")";
  }
  return list;
}

}  // namespace

DeviceSelector DeviceSelector::parse(std::string_view text) {
  DeviceSelector selector;
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  if (text.empty()) return selector;
  const std::string lower = lowercase(text);
  if (lower == "cpu") {
    selector.kind = Kind::Cpu;
  } else if (lower == "gpu") {
    selector.kind = Kind::Gpu;
  } else if (std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c); })) {
    uint32_t value = 0;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec == std::errc() && ptr == text.data() + text.size()) {
      selector.kind = Kind::Index;
      selector.index = value;
    } else {  // too large to be an index: it can only match a name
      selector.kind = Kind::NameSubstring;
      selector.substring = std::string(text);
    }
  } else {
    selector.kind = Kind::NameSubstring;
    selector.substring = std::string(text);
  }
  return selector;
}

DeviceSelector DeviceSelector::from_environment() {
  const char* value = std::getenv("BISMUTH_DEVICE");
  return parse(value != nullptr ? value : "");
}

std::string DeviceSelector::describe() const {
  switch (kind) {
    case Kind::Default: return "default (first GPU, else first CPU device)";
    case Kind::Index: return "index " + std::to_string(index);
    case Kind::Cpu: return "cpu";
    case Kind::Gpu: return "gpu";
    case Kind::NameSubstring: return "name containing \"" + substring + "\"";
  }
  return "unknown";
}

Expected<size_t> select_device(const std::vector<DeviceInfo>& devices, const DeviceSelector& selector) {
  if (devices.empty()) return fail("no Vulkan physical device to select from");
  auto find = [&](auto&& predicate) -> std::optional<size_t> {
    auto it = std::find_if(devices.begin(), devices.end(), predicate);
    if (it == devices.end()) return std::nullopt;
    return static_cast<size_t>(it - devices.begin());
  };
  std::optional<size_t> found;
  switch (selector.kind) {
    case DeviceSelector::Kind::Default:
      found = find([](const DeviceInfo& d) { return d.is_gpu(); });
      if (!found) found = find([](const DeviceInfo& d) { return d.type == VK_PHYSICAL_DEVICE_TYPE_CPU; });
      if (!found) found = 0;
      break;
    case DeviceSelector::Kind::Index:
      if (selector.index < devices.size()) found = selector.index;
      break;
    case DeviceSelector::Kind::Cpu:
      found = find([](const DeviceInfo& d) { return d.type == VK_PHYSICAL_DEVICE_TYPE_CPU; });
      break;
    case DeviceSelector::Kind::Gpu:
      found = find([](const DeviceInfo& d) { return d.is_gpu(); });
      break;
    case DeviceSelector::Kind::NameSubstring: {
      const std::string needle = lowercase(selector.substring);
      found = find([&](const DeviceInfo& d) { return lowercase(d.name).find(needle) != std::string::npos; });
      break;
    }
  }
  if (!found) {
    return fail("BISMUTH_DEVICE: no device matches " + selector.describe() + "; devices:" + device_list(devices));
  }
  return *found;
}

}  // namespace bismuth::backend
