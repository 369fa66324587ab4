#include "bismuth/spirv_patch/variant_memo.hpp"

#include <xxhash.h>

#include <algorithm>
#include <unordered_map>

#include "bismuth/spirv_patch/pipeline.hpp"

namespace bismuth::spirv_patch {

namespace {

constexpr size_t kHeaderWords = 5;
constexpr uint32_t kOpConstant = 43;

// The word index of each one-word OpConstant's value, by result id; nothing where the words are not a sequence of
// instructions (run_pipeline's words always are: the memo then stays out of the way).
std::optional<std::unordered_map<uint32_t, uint32_t>> constant_value_positions(std::span<const uint32_t> words) {
  std::unordered_map<uint32_t, uint32_t> positions;
  for (size_t at = kHeaderWords; at < words.size();) {
    const uint32_t count = words[at] >> 16;
    if (count == 0 || at + count > words.size()) return std::nullopt;
    if ((words[at] & 0xffffu) == kOpConstant && count == 4) positions.emplace(words[at + 2], uint32_t(at + 3));
    at += count;
  }
  return positions;
}

// A hash of `words` without the value of any one-word OpConstant: every module a kept variant may serve (those that
// differ from its own in some of those values) has its hash.
std::optional<uint64_t> shape_hash(std::span<const uint32_t> words, std::vector<uint32_t>& scratch) {
  if (words.size() < kHeaderWords) return std::nullopt;
  scratch.assign(words.begin(), words.end());
  for (size_t at = kHeaderWords; at < scratch.size();) {
    const uint32_t count = scratch[at] >> 16;
    if (count == 0 || at + count > scratch.size()) return std::nullopt;
    if ((scratch[at] & 0xffffu) == kOpConstant && count == 4) scratch[at + 3] = 0;
    at += count;
  }
  return XXH3_64bits(scratch.data(), scratch.size() * sizeof(uint32_t));
}

}  // namespace

struct VariantMemo::Entry {
  uint64_t hash = 0;
  std::string options_key;
  std::vector<uint32_t> words;            // the module it was made from, 0 at the masked positions
  std::vector<uint32_t> masked;           // ascending: the value words of the constants step 8 removed
  std::vector<uint32_t> value_positions;  // per literal: the word its value is read from
  RuntimeGroupSizeVariant variant;        // without literal values
};

VariantMemo::VariantMemo(size_t capacity) : capacity_(std::max<size_t>(capacity, 1)) {}
VariantMemo::~VariantMemo() = default;

std::shared_ptr<const VariantMemo::Entry> VariantMemo::match(uint64_t hash, std::span<const uint32_t> words,
                                                             const std::string& options_key) const {
  auto candidates = by_hash_.find(hash);
  if (candidates == by_hash_.end()) return nullptr;
  for (const std::shared_ptr<const Entry>& entry : candidates->second) {
    if (entry->options_key != options_key || entry->words.size() != words.size()) continue;
    // Equal everywhere but at the masked positions.
    bool same = true;
    size_t from = 0;
    for (size_t m = 0; same && m <= entry->masked.size(); ++m) {
      const size_t to = m < entry->masked.size() ? entry->masked[m] : words.size();
      same = std::equal(words.begin() + from, words.begin() + to, entry->words.begin() + from);
      from = to + 1;
    }
    if (same) return entry;
  }
  return nullptr;
}

std::optional<RuntimeGroupSizeVariant> VariantMemo::find(std::span<const uint32_t> words,
                                                         const std::string& options_key) {
  thread_local std::vector<uint32_t> scratch;
  const std::optional<uint64_t> hash = shape_hash(words, scratch);
  std::shared_ptr<const Entry> entry;
  {
    const std::lock_guard lock(mutex_);
    if (hash) entry = match(*hash, words, options_key);
    ++(entry ? hits_ : misses_);
  }
  if (!entry) return std::nullopt;
  RuntimeGroupSizeVariant variant = entry->variant;
  variant.literals.values.reserve(entry->value_positions.size());
  for (uint32_t at : entry->value_positions) variant.literals.values.push_back(words[at]);
  return variant;
}

void VariantMemo::remember(std::span<const uint32_t> words, const std::string& options_key,
                           const RuntimeGroupSizeVariant& variant) {
  const LiteralsToPushConstantsReport& literals = variant.literals;
  if (literals.value_constants.size() != literals.values.size()) return;
  thread_local std::vector<uint32_t> scratch;
  const std::optional<uint64_t> hash = shape_hash(words, scratch);
  const auto positions = constant_value_positions(words);
  if (!hash || !positions) return;

  auto entry = std::make_shared<Entry>();
  entry->hash = *hash;
  entry->options_key = options_key;
  for (uint32_t id : literals.removed_constants) {
    auto at = positions->find(id);
    if (at == positions->end()) return;  // not a one-word constant of these words: not a variant this memo knows
    entry->masked.push_back(at->second);
  }
  std::sort(entry->masked.begin(), entry->masked.end());
  for (uint32_t id : literals.value_constants) {
    auto at = positions->find(id);
    if (at == positions->end()) return;
    entry->value_positions.push_back(at->second);
  }
  entry->words.assign(words.begin(), words.end());
  for (uint32_t at : entry->masked) entry->words[at] = 0;
  entry->variant = variant;
  entry->variant.literals.values.clear();

  const std::lock_guard lock(mutex_);
  if (match(*hash, words, options_key)) return;  // another thread kept it first
  if (age_.size() >= capacity_) {
    const std::shared_ptr<const Entry> oldest = std::move(age_.front());
    age_.pop_front();
    auto& bucket = by_hash_[oldest->hash];
    std::erase(bucket, oldest);
    if (bucket.empty()) by_hash_.erase(oldest->hash);
  }
  by_hash_[*hash].push_back(entry);
  age_.push_back(std::move(entry));
}

VariantMemo::Stats VariantMemo::stats() const {
  const std::lock_guard lock(mutex_);
  return Stats{hits_, misses_, age_.size()};
}

}  // namespace bismuth::spirv_patch
