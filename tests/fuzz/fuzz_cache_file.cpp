// cache_file: the persistent pipeline cache's reader (read_cache_file, decode_cache_file) over arbitrary bytes as
// the file's contents. It returns the data or a reason, never crashes, and returns data only for a file whose
// header names the identity, whose size and checksum match, and whose data starts with a VkPipelineCache header
// of the same device. Encoding the input as data and decoding it again gives the input back.
#include <sys/mman.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "bismuth/backend/disk_cache.hpp"
#include "fuzz_target.hpp"

namespace {

bismuth::backend::CacheIdentity identity() {
  bismuth::backend::CacheIdentity id;
  id.vendor_id = 0x10de;
  id.device_id = 0x2330;
  id.driver_version = 42;
  for (size_t i = 0; i < id.uuid.size(); ++i) id.uuid[i] = static_cast<uint8_t>(i * 7);
  return id;
}

// The file the reader reads: an in-memory file of this process (memfd), opened again through /proc by path.
struct ScratchFile {
  int fd = ::memfd_create("bismuth_fuzz_cache_file", MFD_CLOEXEC);
  std::string path = "/proc/self/fd/" + std::to_string(fd);
  ~ScratchFile() { ::close(fd); }
  void hold(const uint8_t* data, size_t size) const {
    if (::ftruncate(fd, 0) != 0 || ::pwrite(fd, data, size, 0) != static_cast<ssize_t>(size)) std::abort();
  }
};

}  // namespace

BISMUTH_FUZZ_TARGET(cache_file) {
  using namespace bismuth::backend;
  static const CacheIdentity id = identity();
  static const ScratchFile scratch;
  const std::vector<uint8_t> bytes(data, data + size);

  auto decoded = decode_cache_file(bytes, id);
  if (decoded) {
    if (decoded->size() < 32 || decoded->size() + 60 != bytes.size()) std::abort();
    if (std::memcmp(decoded->data() + 16, id.uuid.data(), id.uuid.size()) != 0) std::abort();
  } else if (decoded.error().message.empty()) {
    std::abort();
  }

  scratch.hold(data, size);
  auto read = read_cache_file(scratch.path, id, 1 << 16);
  if (read) {
    if (!read->has_value() || !decoded || **read != *decoded) std::abort();  // same bytes, same verdict
  } else if (bytes.size() <= (1 << 16) + 60 && decoded) {
    std::abort();
  }

  // The input as data: a VkPipelineCache header of this device in front, so the whole file is valid.
  // Sized once and filled with memcpy: GCC 12 at -O2 warns (-Warray-bounds, a false positive) on inserting into a
  // 32-byte vector.
  std::vector<uint8_t> payload(32 + bytes.size(), 0);
  const uint32_t header[4] = {32, 1 /* VK_PIPELINE_CACHE_HEADER_VERSION_ONE */, id.vendor_id, id.device_id};
  std::memcpy(payload.data(), header, sizeof header);
  std::memcpy(payload.data() + 16, id.uuid.data(), id.uuid.size());
  if (!bytes.empty()) std::memcpy(payload.data() + 32, bytes.data(), bytes.size());
  auto round_trip = decode_cache_file(encode_cache_file(id, payload), id);
  if (!round_trip || *round_trip != payload) std::abort();
  return 0;
}
