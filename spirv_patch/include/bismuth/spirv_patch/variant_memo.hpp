// Steps 7-9 of run_pipeline (the run-time group size variant, its hoisted literals, its uniform parameters) done once
// per template instead of once per program (issue 17, docs/spirv_patch.md "The variant memo").
//
// Programs generated from one template differ only in the literals baked into them; step 8 exists so that their
// variants are the same words. Those words are a function of the module without the values of the constants step 8
// removed: it reads them only into the report's values, and every other word of the module reaches the variant or
// decides how it is made. So a module equal, word for word, to one seen before except in the values of the constants
// step 8 removed from that one has that one's variant, with its own values read from those constants. A module that
// differs anywhere else (another constant, a size, one literal equal to another so that glslang gave both one id) is a
// miss, and the pipeline makes its variant as always.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

namespace bismuth::spirv_patch {

struct RuntimeGroupSizeVariant;

class VariantMemo {
 public:
  // At most `capacity` variants are kept (the oldest goes first).
  explicit VariantMemo(size_t capacity = 512);
  ~VariantMemo();
  VariantMemo(const VariantMemo&) = delete;
  VariantMemo& operator=(const VariantMemo&) = delete;

  // The variant of `words` (run_pipeline's main module) made with the options `options_key` describes, where an
  // earlier module differing from `words` only in the values of the constants its step 8 removed gave one; the
  // literal values are `words`' own. Thread-safe.
  std::optional<RuntimeGroupSizeVariant> find(std::span<const uint32_t> words, const std::string& options_key);

  // Keeps `variant`, made from `words` with those options, for later modules. A variant whose literal report does not
  // name its constants (step 8 skipped) is kept for these exact words only. Thread-safe.
  void remember(std::span<const uint32_t> words, const std::string& options_key,
                const RuntimeGroupSizeVariant& variant);

  struct Stats {
    uint64_t hits = 0;
    uint64_t misses = 0;
    size_t entries = 0;
  };
  Stats stats() const;

 private:
  struct Entry;
  std::shared_ptr<const Entry> match(uint64_t hash, std::span<const uint32_t> words,
                                     const std::string& options_key) const;

  size_t capacity_;
  mutable std::mutex mutex_;
  std::unordered_map<uint64_t, std::vector<std::shared_ptr<const Entry>>> by_hash_;
  std::deque<std::shared_ptr<const Entry>> age_;  // oldest first
  uint64_t hits_ = 0;
  uint64_t misses_ = 0;
};

}  // namespace bismuth::spirv_patch
