// The program cache's memory map and record files (program_cache_store.hpp describes the format and the rules).
#include "program_cache_store.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <ctime>
#include <filesystem>

#include "byte_codec.hpp"

namespace bismuth::gl {

namespace {

constexpr char kMagic[8] = {'B', 'I', 'S', 'M', 'P', 'R', 'G', 'C'};
constexpr uint32_t kFormatVersion = 1;
constexpr size_t kHeaderBytes = 8 + 4 + 4 + 16 + 8 + 16;

std::array<uint8_t, 16> key_bytes(const backend::Hash128& key) {
  return hash_bytes<16>(key);
}

std::string key_hex(const backend::Hash128& key) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string s;
  for (uint8_t b : key_bytes(key)) {
    s += kDigits[b >> 4];
    s += kDigits[b & 15];
  }
  return s;
}

bool write_all(int fd, const std::byte* data, size_t n) {
  while (n > 0) {
    const ssize_t w = ::write(fd, data, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    data += w;
    n -= static_cast<size_t>(w);
  }
  return true;
}

}  // namespace

std::vector<std::byte> encode_program_cache_file(ProgramCacheRecordKind kind, const backend::Hash128& key,
                                                 const std::vector<std::byte>& payload) {
  Writer w;
  w.bytes(kMagic, sizeof kMagic);
  w.u32(kFormatVersion);
  w.u32(static_cast<uint32_t>(kind));
  const auto k = key_bytes(key);
  w.bytes(k.data(), k.size());
  w.u64(payload.size());
  const auto h = hash_bytes<16>(backend::hash128(payload.data(), payload.size()));
  w.bytes(h.data(), h.size());
  w.bytes(payload.data(), payload.size());
  return std::move(w.out());
}

Expected<std::vector<std::byte>> decode_program_cache_file(std::span<const std::byte> file, ProgramCacheRecordKind kind,
                                                           const backend::Hash128& key) {
  if (file.size() < kHeaderBytes) return Error{"truncated (no complete header)"};
  Reader r(file.first(kHeaderBytes));
  char magic[8];
  r.take(magic, sizeof magic);
  if (std::memcmp(magic, kMagic, sizeof magic) != 0) return Error{"not a Bismuth program cache record (bad magic)"};
  if (r.u32() != kFormatVersion) return Error{"another record format version"};
  if (r.u32() != static_cast<uint32_t>(kind)) return Error{"a record of another kind"};
  std::array<uint8_t, 16> k{};
  r.take(k.data(), k.size());
  if (k != key_bytes(key)) return Error{"a record of another key (a renamed or misplaced file)"};
  const uint64_t bytes = r.u64();
  std::array<uint8_t, 16> h{};
  r.take(h.data(), h.size());
  if (bytes != file.size() - kHeaderBytes) return Error{"truncated or extended (its length does not match)"};
  const std::span<const std::byte> payload = file.subspan(kHeaderBytes);
  if (h != hash_bytes<16>(backend::hash128(payload.data(), payload.size())))
    return Error{"corrupted (its checksum does not match)"};
  return std::vector<std::byte>(payload.begin(), payload.end());
}

ProgramCacheStore::ProgramCacheStore(ProgramCacheStoreOptions options) : options_(std::move(options)) {
  if (options_.dir) folder_ = *options_.dir + "/programs";
}

std::string ProgramCacheStore::file_of(const backend::Hash128& key) const {
  return *folder_ + "/" + key_hex(key) + ".bin";
}

ProgramCacheStore::Found ProgramCacheStore::find(ProgramCacheRecordKind kind, const backend::Hash128& key) {
  {
    std::lock_guard lock(mutex_);
    if (auto it = memory_.find(key); it != memory_.end() && it->second.kind == kind) {
      ++stats_.memory_hits;
      return {it->second.payload, {}};
    }
  }
  Found found;
  if (folder_) found = read_file(kind, key);
  std::lock_guard lock(mutex_);
  if (found.payload) {
    ++stats_.disk_hits;
    remember(key, kind, found.payload);
  } else {
    ++stats_.misses;
    if (!found.ignored.empty()) ++stats_.files_ignored;
  }
  return found;
}

void ProgramCacheStore::insert(ProgramCacheRecordKind kind, const backend::Hash128& key,
                               std::vector<std::byte> payload) {
  if (payload.size() > options_.max_record_bytes) return;
  auto shared = std::make_shared<const std::vector<std::byte>>(std::move(payload));
  {
    std::lock_guard lock(mutex_);
    ++stats_.stores;
    remember(key, kind, shared);
  }
  if (!folder_) return;
  const bool written = write_file(kind, key, *shared);
  std::lock_guard lock(mutex_);
  ++(written ? stats_.files_written : stats_.write_failures);
}

void ProgramCacheStore::erase(const backend::Hash128& key) {
  {
    std::lock_guard lock(mutex_);
    if (auto it = memory_.find(key); it != memory_.end()) {
      memory_bytes_ -= it->second.payload->size();
      memory_.erase(it);
      memory_order_.erase(std::remove(memory_order_.begin(), memory_order_.end(), key), memory_order_.end());
    }
  }
  if (folder_) ::unlink(file_of(key).c_str());
}

void ProgramCacheStore::remember(const backend::Hash128& key, ProgramCacheRecordKind kind, Payload payload) {
  if (payload->size() > options_.max_memory_bytes) return;  // (with 0 bytes of memory every lookup reads the folder)
  if (auto it = memory_.find(key); it != memory_.end()) {
    memory_bytes_ -= it->second.payload->size();
    memory_bytes_ += payload->size();
    it->second = Entry{kind, std::move(payload)};
    return;
  }
  memory_bytes_ += payload->size();
  memory_.emplace(key, Entry{kind, std::move(payload)});
  memory_order_.push_back(key);
  while (memory_bytes_ > options_.max_memory_bytes && !memory_order_.empty()) {
    auto it = memory_.find(memory_order_.front());
    memory_order_.pop_front();
    if (it == memory_.end()) continue;
    memory_bytes_ -= it->second.payload->size();
    memory_.erase(it);
  }
}

namespace {

constexpr time_t kRecentSeconds = 600;

bool stale_mtime(const struct stat& st) {
  timespec now{};
  if (::clock_gettime(CLOCK_REALTIME, &now) != 0) return true;
  return st.st_mtim.tv_sec + kRecentSeconds < now.tv_sec || st.st_mtim.tv_sec > now.tv_sec;
}

}  // namespace

ProgramCacheStore::Found ProgramCacheStore::read_file(ProgramCacheRecordKind kind, const backend::Hash128& key) {
  const std::string path = file_of(key);
  // O_NONBLOCK: opening a FIFO put in the record's place must not wait for a writer; O_NOFOLLOW: a symlink is not a
  // record.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  if (fd < 0) {
    if (errno == ENOENT || errno == ENOTDIR) return {};
    return {nullptr, path + ": cannot be opened (" + std::string(std::strerror(errno)) + ")"};
  }
  struct stat st {};
  Found found;
  auto ignore = [&](const std::string& why, bool remove) {
    found.ignored = path + ": " + why;
    if (remove) ::unlink(path.c_str());
  };
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ignore("not a regular file", false);
  } else if (static_cast<uint64_t>(st.st_size) > options_.max_record_bytes + kHeaderBytes) {
    ignore("larger than a record may be", true);
  } else {
    std::vector<std::byte> bytes(static_cast<size_t>(st.st_size));
    size_t at = 0;
    while (at < bytes.size()) {
      const ssize_t n = ::read(fd, bytes.data() + at, bytes.size() - at);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      at += static_cast<size_t>(n);
    }
    bytes.resize(at);
    auto payload = decode_program_cache_file(bytes, kind, key);
    if (!payload) {
      ignore(payload.error().message, true);
    } else {
      found.payload = std::make_shared<const std::vector<std::byte>>(std::move(*payload));
      // A hit makes the record the most recently used (eviction goes by mtime). Eviction needs no finer order than
      // minutes, so a record touched in the last kRecentSeconds keeps its mtime: a warm program's two hits then
      // cost no metadata write each (a syscall of every ~five, and a journal write on some filesystems).
      if (stale_mtime(st)) ::futimens(fd, nullptr);
    }
  }
  ::close(fd);
  return found;
}

bool ProgramCacheStore::write_file(ProgramCacheRecordKind kind, const backend::Hash128& key,
                                   const std::vector<std::byte>& payload) {
  std::lock_guard lock(disk_mutex_);
  std::error_code ec;
  std::filesystem::create_directories(*folder_, ec);
  if (ec) return false;
  const std::vector<std::byte> file = encode_program_cache_file(kind, key, payload);
  std::string temporary = *folder_ + "/.record-XXXXXX";
  const int fd = ::mkostemp(temporary.data(), O_CLOEXEC);
  if (fd < 0) return false;
  const bool ok = write_all(fd, file.data(), file.size());
  if (::close(fd) != 0 || !ok || ::rename(temporary.c_str(), file_of(key).c_str()) != 0) {
    ::unlink(temporary.c_str());
    return false;
  }
  if (!disk_bytes_) {
    uint64_t total = 0;
    for (const auto& e : std::filesystem::directory_iterator(*folder_, ec)) {
      std::error_code size_ec;
      if (e.path().extension() == ".bin" && e.is_regular_file(size_ec)) total += e.file_size(size_ec);
    }
    disk_bytes_ = total;  // the new file included
  } else {
    *disk_bytes_ += file.size();  // a replaced file is counted twice until the next eviction recounts
  }
  if (*disk_bytes_ > options_.max_disk_bytes) evict_files();
  return true;
}

void ProgramCacheStore::evict_files() {
  struct File {
    std::filesystem::path path;
    std::filesystem::file_time_type used;
    uint64_t bytes;
  };
  std::vector<File> files;
  uint64_t total = 0;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(*folder_, ec)) {
    std::error_code entry_ec;
    if (e.path().extension() != ".bin" || !e.is_regular_file(entry_ec)) continue;
    const uint64_t bytes = e.file_size(entry_ec);
    const auto used = e.last_write_time(entry_ec);
    if (entry_ec) continue;
    files.push_back({e.path(), used, bytes});
    total += bytes;
  }
  std::sort(files.begin(), files.end(), [](const File& a, const File& b) { return a.used < b.used; });
  const uint64_t target = options_.max_disk_bytes / 4 * 3;
  uint64_t evicted = 0;
  for (const File& f : files) {
    if (total <= target) break;
    std::error_code remove_ec;
    if (std::filesystem::remove(f.path, remove_ec)) {
      total -= f.bytes;
      ++evicted;
    }
  }
  disk_bytes_ = total;
  std::lock_guard lock(mutex_);
  stats_.files_evicted += evicted;
}

ProgramCacheStats ProgramCacheStore::stats() const {
  std::lock_guard lock(mutex_);
  return stats_;
}

}  // namespace bismuth::gl
