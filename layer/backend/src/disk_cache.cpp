#include "bismuth/backend/disk_cache.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

namespace bismuth::backend {

namespace {

constexpr char kMagic[8] = {'B', 'I', 'S', 'M', 'U', 'T', 'H', 'P'};
constexpr uint32_t kFormatVersion = 1;
constexpr size_t kHeaderBytes = 8 + 4 * 5 + VK_UUID_SIZE + 8 + 8;  // 60
constexpr size_t kVulkanHeaderBytes = 16 + VK_UUID_SIZE;         // VkPipelineCacheHeaderVersionOne

void set32(uint8_t* p, uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}
void set64(uint8_t* p, uint64_t v) {
  for (int i = 0; i < 8; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}
uint32_t get32(const uint8_t* p) {
  return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}
uint64_t get64(const uint8_t* p) { return uint64_t(get32(p)) | uint64_t(get32(p + 4)) << 32; }

std::string hex(const uint8_t* data, size_t n) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  for (size_t i = 0; i < n; ++i) {
    s += digits[data[i] >> 4];
    s += digits[data[i] & 15];
  }
  return s;
}

// Why a cache path that exists is not a cache file.
std::string not_a_regular_file(mode_t mode) {
  const char* kind = S_ISDIR(mode)    ? "a directory"
                     : S_ISFIFO(mode) ? "a FIFO"
                     : S_ISCHR(mode)  ? "a character device"
                     : S_ISBLK(mode)  ? "a block device"
                     : S_ISSOCK(mode) ? "a socket"
                                      : "not a file";
  return std::string("not a regular file (") + kind + ")";
}

std::string hex32(uint32_t v) {
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "%08x", v);
  return buffer;
}

}  // namespace

CacheIdentity CacheIdentity::of(const DeviceInfo& info) {
  CacheIdentity id;
  id.vendor_id = info.vendor_id;
  id.device_id = info.device_id;
  id.driver_version = info.driver_version;
  id.uuid = info.pipeline_cache_uuid;
  return id;
}

std::optional<std::string> cache_dir_from_environment() {
  if (const char* dir = std::getenv("BISMUTH_CACHE_DIR"); dir != nullptr) {
    if (std::strcmp(dir, "off") == 0 || dir[0] == '\0') return std::nullopt;
    return std::string(dir);
  }
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg != nullptr && xdg[0] == '/') {
    return std::string(xdg) + "/bismuth";
  }
  if (const char* home = std::getenv("HOME"); home != nullptr && home[0] != '\0') {
    return std::string(home) + "/.cache/bismuth";
  }
  return std::nullopt;
}

std::string cache_file_path(const std::string& dir, const CacheIdentity& id) {
  return dir + "/pipelines-" + hex32(id.vendor_id) + "-" + hex32(id.device_id) + "-" + hex32(id.driver_version) + "-" +
         hex(id.uuid.data(), id.uuid.size()) + ".bin";
}

std::vector<uint8_t> encode_cache_file(const CacheIdentity& id, const std::vector<uint8_t>& data) {
  std::vector<uint8_t> out(kHeaderBytes + data.size());
  uint8_t* p = out.data();
  std::memcpy(p, kMagic, sizeof kMagic);
  const uint32_t words[5] = {kFormatVersion, static_cast<uint32_t>(kHeaderBytes), id.vendor_id, id.device_id,
                             id.driver_version};
  for (int i = 0; i < 5; ++i) set32(p + 8 + 4 * i, words[i]);
  std::memcpy(p + 28, id.uuid.data(), VK_UUID_SIZE);
  set64(p + 28 + VK_UUID_SIZE, data.size());
  set64(p + 36 + VK_UUID_SIZE, XXH3_64bits(data.data(), data.size()));
  if (!data.empty()) std::memcpy(p + kHeaderBytes, data.data(), data.size());
  return out;
}

Expected<std::vector<uint8_t>> decode_cache_file(const std::vector<uint8_t>& file, const CacheIdentity& id) {
  if (file.size() < kHeaderBytes) return fail("truncated header (" + std::to_string(file.size()) + " bytes)");
  const uint8_t* p = file.data();
  if (std::memcmp(p, kMagic, sizeof kMagic) != 0) return fail("not a Bismuth pipeline cache file (bad magic)");
  if (get32(p + 8) != kFormatVersion) return fail("unsupported format version " + std::to_string(get32(p + 8)));
  if (get32(p + 12) != kHeaderBytes) return fail("bad header size");
  if (get32(p + 16) != id.vendor_id || get32(p + 20) != id.device_id) {
    return fail("written for another device (vendor " + hex32(get32(p + 16)) + ", device " + hex32(get32(p + 20)) + ")");
  }
  if (get32(p + 24) != id.driver_version) return fail("written by another driver version");
  if (std::memcmp(p + 28, id.uuid.data(), VK_UUID_SIZE) != 0) return fail("pipelineCacheUUID differs");
  const uint64_t size = get64(p + 28 + VK_UUID_SIZE);
  const uint64_t checksum = get64(p + 36 + VK_UUID_SIZE);
  if (size != file.size() - kHeaderBytes) {
    return fail("truncated or padded: header says " + std::to_string(size) + " data bytes, file has " +
                std::to_string(file.size() - kHeaderBytes));
  }
  std::vector<uint8_t> data(file.begin() + kHeaderBytes, file.end());
  if (XXH3_64bits(data.data(), data.size()) != checksum) return fail("checksum mismatch (corrupted)");
  // The driver's own header (VkPipelineCacheHeaderVersionOne) must name this device too.
  if (data.size() < kVulkanHeaderBytes) return fail("VkPipelineCache data shorter than its header");
  const uint8_t* v = data.data();
  if (get32(v) < kVulkanHeaderBytes || get32(v + 4) != VK_PIPELINE_CACHE_HEADER_VERSION_ONE ||
      get32(v + 8) != id.vendor_id || get32(v + 12) != id.device_id ||
      std::memcmp(v + 16, id.uuid.data(), VK_UUID_SIZE) != 0) {
    return fail("VkPipelineCache header does not match this device");
  }
  return data;
}

Expected<std::optional<std::vector<uint8_t>>> read_cache_file(const std::string& path, const CacheIdentity& id,
                                                              size_t max_bytes) {
  // Only a regular file is a cache file. Anything else is never read: opening a FIFO for reading blocks until a
  // writer comes (forever), a device may never end. The type is checked before opening, so nothing else is
  // opened at all, and again on what was opened (O_NONBLOCK: a FIFO swapped in between opens without waiting).
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return std::optional<std::vector<uint8_t>>{};
    return fail("cannot open: " + std::string(std::strerror(errno)));
  }
  if (!S_ISREG(st.st_mode)) return fail(not_a_regular_file(st.st_mode));
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) {
    if (errno == ENOENT) return std::optional<std::vector<uint8_t>>{};
    return fail("cannot open: " + std::string(std::strerror(errno)));
  }
  std::vector<uint8_t> bytes;
  std::string error;
  if (::fstat(fd, &st) != 0) {
    error = "cannot stat: " + std::string(std::strerror(errno));
  } else if (!S_ISREG(st.st_mode)) {
    error = not_a_regular_file(st.st_mode);
  } else if (static_cast<uint64_t>(st.st_size) > max_bytes + kHeaderBytes) {
    error = "larger than the size cap of " + std::to_string(max_bytes) + " bytes";
  } else {
    uint8_t chunk[65536];
    while (true) {
      const ssize_t n = ::read(fd, chunk, sizeof chunk);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) {
        error = "read error: " + std::string(std::strerror(errno));
        break;
      }
      if (n == 0) break;
      bytes.insert(bytes.end(), chunk, chunk + n);
      if (bytes.size() > max_bytes + kHeaderBytes) {  // grew while being read
        error = "larger than the size cap of " + std::to_string(max_bytes) + " bytes";
        break;
      }
    }
  }
  ::close(fd);
  if (!error.empty()) return fail(std::move(error));
  auto data = decode_cache_file(bytes, id);
  if (!data) return data.error();
  return std::optional<std::vector<uint8_t>>(std::move(*data));
}

Status write_cache_file(const std::string& path, const CacheIdentity& id, const std::vector<uint8_t>& data) {
  std::error_code ec;
  const std::filesystem::path target(path);
  std::filesystem::create_directories(target.parent_path(), ec);
  if (ec) return fail("cannot create " + target.parent_path().string() + ": " + ec.message());
  // rename(2) replaces any other entry at `path` without opening it or following it (a FIFO or a device node
  // that a reader ignored, a symlink itself); a directory there cannot be replaced.
  if (struct stat st{}; ::lstat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
    return fail(path + " is a directory; not saved");
  }
  static std::atomic<uint32_t> counter{0};
  const std::vector<uint8_t> bytes = encode_cache_file(id, data);
  // A new file of our own: O_EXCL | O_NOFOLLOW never opens what is already at the temporary name (a FIFO would
  // block, a symlink would lead the write elsewhere); a name taken is skipped for the next.
  std::string temp;
  int fd = -1;
  for (int attempt = 0; attempt < 16 && fd < 0; ++attempt) {
    temp = path + ".tmp." + std::to_string(getpid()) + "." + std::to_string(counter.fetch_add(1));
    fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY, 0644);
    if (fd < 0 && errno != EEXIST) break;
  }
  if (fd < 0) return fail("cannot create " + temp + ": " + std::strerror(errno));
  size_t written = 0;
  while (written < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      const std::string reason = std::strerror(errno);
      ::close(fd);
      ::unlink(temp.c_str());
      return fail("cannot write " + temp + ": " + reason);
    }
    written += static_cast<size_t>(n);
  }
  ::fsync(fd);
  ::close(fd);
  if (std::rename(temp.c_str(), path.c_str()) != 0) {
    const std::string reason = std::strerror(errno);
    ::unlink(temp.c_str());
    return fail("cannot rename " + temp + " to " + path + ": " + reason);
  }
  return {};
}

}  // namespace bismuth::backend
