// The on-disk form of a device's VkPipelineCache blob.
//
// File: <dir>/pipelines-<vendorID>-<deviceID>-<driverVersion>-<pipelineCacheUUID>.bin, where <dir> is
// $BISMUTH_CACHE_DIR, else $XDG_CACHE_HOME/bismuth, else ~/.cache/bismuth (BISMUTH_CACHE_DIR=off: none).
// Layout (little-endian): "BISMUTHP" magic, u32 format version, u32 header bytes, u32 vendorID, u32 deviceID,
// u32 driverVersion, u8[16] pipelineCacheUUID, u64 data bytes, u64 XXH3-64 of the data, then the data, which
// must itself start with a VkPipelineCacheHeaderVersionOne naming the same device (Vulkan spec, "Pipeline
// Cache"). Anything that does not match — another device or driver, a truncated or corrupted file, anything but
// a regular file (a FIFO, a directory, a device: never opened, as reading one could block forever) — is ignored
// with a reason, never passed to the driver. Writes go to a new temporary file in the same directory (never an
// existing one, never through a symlink), then rename(2), so a reader never sees a half-written file; the rename
// replaces whatever non-directory was at the path without opening it.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bismuth/backend/device_info.hpp"
#include "bismuth/common/expected.hpp"

namespace bismuth::backend {

struct CacheIdentity {
  uint32_t vendor_id = 0;
  uint32_t device_id = 0;
  uint32_t driver_version = 0;
  std::array<uint8_t, VK_UUID_SIZE> uuid{};
  static CacheIdentity of(const DeviceInfo& info);
};

// The cache directory from the environment; nullopt when disabled (BISMUTH_CACHE_DIR=off) or no home exists.
std::optional<std::string> cache_dir_from_environment();
std::string cache_file_path(const std::string& dir, const CacheIdentity& identity);

std::vector<uint8_t> encode_cache_file(const CacheIdentity& identity, const std::vector<uint8_t>& data);
// The VkPipelineCache data of a file's bytes, or an error saying why the file is not usable.
Expected<std::vector<uint8_t>> decode_cache_file(const std::vector<uint8_t>& file, const CacheIdentity& identity);

// Reads `path`: nullopt data when the file does not exist; an error when it exists but is unusable (not a regular
// file included).
Expected<std::optional<std::vector<uint8_t>>> read_cache_file(const std::string& path, const CacheIdentity& identity,
                                                              size_t max_bytes);
// Creates the directory if needed and replaces `path` atomically (temporary file + rename).
Status write_cache_file(const std::string& path, const CacheIdentity& identity, const std::vector<uint8_t>& data);

}  // namespace bismuth::backend
