// The program cache's storage (program_cache.hpp says what is kept and under which keys): records in a bounded
// in-memory map, and one file per record in the cache folder the pipeline cache uses (disk_cache.hpp:
// $BISMUTH_CACHE_DIR, else $XDG_CACHE_HOME/bismuth, else ~/.cache/bismuth; BISMUTH_CACHE_DIR=off: memory only).
//
// File: <dir>/programs/<key as 32 hex digits>.bin. Layout (little-endian): "BISMPRGC" magic, u32 format version,
// u32 record kind, u8[16] key, u64 payload bytes, u8[16] XXH3-128 of the payload, then the payload. A file whose
// magic, version, kind, key, length or hash does not match — truncated, corrupted, renamed, written by another
// format — or that is not a regular file (never opened: a FIFO could block) is ignored with a reason and removed
// when it is a regular file, so the next link writes a good one. Writes go to a new temporary file in the same
// folder and are renamed over the record's name, so a reader (in this process or another) never sees half a
// record. The folder is bounded: when its records pass max_disk_bytes the least recently used (file mtime, which a
// hit refreshes when it is more than ten minutes old) are removed down to three quarters of it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "bismuth/backend/shader.hpp"

namespace bismuth::gl {

enum class ProgramCacheRecordKind : uint32_t { Compile = 1, Link = 2 };

struct ProgramCacheStoreOptions {
  std::optional<std::string> dir;  // the cache folder (records go to <dir>/programs); nullopt: memory only
  uint64_t max_memory_bytes = 64ull << 20;
  uint64_t max_disk_bytes = 256ull << 20;
  uint64_t max_record_bytes = 64ull << 20;  // a larger file is not read (and a larger record not written)
};

struct ProgramCacheStats {
  uint64_t memory_hits = 0;
  uint64_t disk_hits = 0;
  uint64_t misses = 0;
  uint64_t stores = 0;
  uint64_t files_written = 0;
  uint64_t files_ignored = 0;  // unusable files found (then removed)
  uint64_t files_evicted = 0;
  uint64_t write_failures = 0;
};

class ProgramCacheStore {
 public:
  using Payload = std::shared_ptr<const std::vector<std::byte>>;
  explicit ProgramCacheStore(ProgramCacheStoreOptions options);

  struct Found {
    Payload payload;      // null: no usable record
    std::string ignored;  // why a file for the key was ignored (for a KHR_debug message); empty if none was
  };
  Found find(ProgramCacheRecordKind kind, const backend::Hash128& key);
  // Keeps the record in memory and, when a folder is set, writes its file. A failed write loses nothing but the
  // record (and is counted): the program was linked already.
  void insert(ProgramCacheRecordKind kind, const backend::Hash128& key, std::vector<std::byte> payload);
  // Forgets a record (after its payload turned out unusable), in memory and on disk.
  void erase(const backend::Hash128& key);

  ProgramCacheStats stats() const;
  const std::optional<std::string>& folder() const { return folder_; }

 private:
  struct KeyHash {
    size_t operator()(const backend::Hash128& k) const { return static_cast<size_t>(k.low ^ (k.high * 31)); }
  };
  struct Entry {
    ProgramCacheRecordKind kind;
    Payload payload;
  };
  std::string file_of(const backend::Hash128& key) const;
  void remember(const backend::Hash128& key, ProgramCacheRecordKind kind, Payload payload);  // mutex_ held
  Found read_file(ProgramCacheRecordKind kind, const backend::Hash128& key);
  bool write_file(ProgramCacheRecordKind kind, const backend::Hash128& key, const std::vector<std::byte>& payload);
  void evict_files();  // disk_mutex_ held

  ProgramCacheStoreOptions options_;
  std::optional<std::string> folder_;  // <dir>/programs

  mutable std::mutex mutex_;
  std::unordered_map<backend::Hash128, Entry, KeyHash> memory_;
  std::deque<backend::Hash128> memory_order_;  // insertion order: the oldest go first when over budget
  uint64_t memory_bytes_ = 0;
  ProgramCacheStats stats_;

  std::mutex disk_mutex_;
  std::optional<uint64_t> disk_bytes_;  // the folder's record bytes, counted on the first write
};

// The record file's bytes, and its payload back (an error says why the file is unusable).
std::vector<std::byte> encode_program_cache_file(ProgramCacheRecordKind kind, const backend::Hash128& key,
                                                 const std::vector<std::byte>& payload);
Expected<std::vector<std::byte>> decode_program_cache_file(std::span<const std::byte> file, ProgramCacheRecordKind kind,
                                                           const backend::Hash128& key);

}  // namespace bismuth::gl
