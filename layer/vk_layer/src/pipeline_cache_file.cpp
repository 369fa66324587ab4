// BISMUTH_CACHE_DIR: the VkPipelineCache that size pipelines are compiled through, read at vkCreateDevice and
// written at vkDestroyDevice. The file holds the driver's blob as is; the driver checks its own header
// (VkPipelineCacheHeaderVersionOne: vendor, device, pipelineCacheUUID) and ignores data from another device or
// driver (spec "Pipeline Cache"), and the file name carries the same identity so devices do not overwrite each other.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "hooks.hpp"

namespace bismuth::layer {
namespace {

constexpr size_t kMaxFileBytes = 64u << 20;

std::string cache_dir(const Settings& settings) {
  if (!settings.cache_dir.empty()) return settings.cache_dir == "off" ? std::string() : settings.cache_dir;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) return std::string(xdg) + "/bismuth";
  if (const char* home = std::getenv("HOME"); home && *home) return std::string(home) + "/.cache/bismuth";
  return {};
}

std::string cache_file(const DeviceData& d, const std::string& dir) {
  VkPhysicalDeviceProperties p{};
  d.instance->GetPhysicalDeviceProperties(d.physical_device, &p);
  char name[160];
  std::snprintf(name, sizeof(name), "layer-pipelines-%08x-%08x-%08x-", p.vendorID, p.deviceID, p.driverVersion);
  std::string path = dir + "/" + name;
  for (uint8_t b : p.pipelineCacheUUID) {
    char hex[3];
    std::snprintf(hex, sizeof(hex), "%02x", b);
    path += hex;
  }
  return path + ".bin";
}

}  // namespace

void open_pipeline_cache(DeviceData& d) {
  if (d.CreatePipelineCache == nullptr) return;
  const std::string dir = cache_dir(d.instance->settings);
  std::vector<char> data;
  if (!dir.empty()) {
    d.cache_path = cache_file(d, dir);
    std::ifstream in(d.cache_path, std::ios::binary);
    if (in) {
      data.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
      if (data.size() > kMaxFileBytes) data.clear();
    }
  }
  VkPipelineCacheCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO;
  info.initialDataSize = data.size();
  info.pInitialData = data.empty() ? nullptr : data.data();
  if (d.CreatePipelineCache(d.device, &info, nullptr, &d.pipeline_cache) != VK_SUCCESS && !data.empty()) {
    info.initialDataSize = 0;
    info.pInitialData = nullptr;
    if (d.CreatePipelineCache(d.device, &info, nullptr, &d.pipeline_cache) != VK_SUCCESS)
      d.pipeline_cache = VK_NULL_HANDLE;
  }
}

void close_pipeline_cache(DeviceData& d) {
  if (d.pipeline_cache == VK_NULL_HANDLE) return;
  if (!d.cache_path.empty() && d.stats.size_pipelines_compiled.load() > 0) try {
    size_t size = 0;
    std::vector<char> data;
    if (d.GetPipelineCacheData(d.device, d.pipeline_cache, &size, nullptr) == VK_SUCCESS && size <= kMaxFileBytes) {
      data.resize(size);
      if (d.GetPipelineCacheData(d.device, d.pipeline_cache, &size, data.data()) == VK_SUCCESS) {
        data.resize(size);
        std::error_code ec;
        const std::filesystem::path path(d.cache_path);
        std::filesystem::create_directories(path.parent_path(), ec);
        // Write a temporary file in the same folder and rename it over the target: readers never see half a file.
        const std::string temporary = d.cache_path + ".tmp" + std::to_string(reinterpret_cast<uintptr_t>(d.device));
        {
          std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
          out.write(data.data(), static_cast<std::streamsize>(data.size()));
        }
        std::filesystem::rename(temporary, path, ec);
        if (ec) {
          std::filesystem::remove(temporary, ec);
          report(*d.instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT, "BISMUTH-pipeline-cache-not-saved",
                 "vkDestroyDevice: cannot write " + d.cache_path);
        }
      }
    }
  } catch (...) {
    // Saving is an optimisation: without memory for it, the cache is just not written.
  }
  d.DestroyPipelineCache(d.device, d.pipeline_cache, nullptr);
  d.pipeline_cache = VK_NULL_HANDLE;
}

}  // namespace bismuth::layer
