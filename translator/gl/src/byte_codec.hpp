// Little-endian byte encoding shared by the formats the GL shim writes and reads back: program binaries
// (program_binary_format.cpp) and the program cache's records (program_cache.cpp). A string or word array is a u32
// count followed by its bytes or words. The reader is defensive: it never reads past its span and never allocates
// more than the bytes left can fill.
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "bismuth/backend/shader.hpp"

namespace bismuth::gl {

class Writer {
 public:
  void bytes(const void* data, size_t n) {
    const auto* p = static_cast<const std::byte*>(data);
    out_.insert(out_.end(), p, p + n);
  }
  void u8(uint8_t v) { out_.push_back(std::byte{v}); }
  void u32(uint32_t v) {
    for (int i = 0; i < 4; ++i) u8(static_cast<uint8_t>(v >> (8 * i)));
  }
  void u64(uint64_t v) {
    u32(static_cast<uint32_t>(v));
    u32(static_cast<uint32_t>(v >> 32));
  }
  void str(const std::string& s) {
    u32(static_cast<uint32_t>(s.size()));
    bytes(s.data(), s.size());
  }
  void words(const std::vector<uint32_t>& w) {
    u32(static_cast<uint32_t>(w.size()));
    if constexpr (std::endian::native == std::endian::little) {
      bytes(w.data(), w.size() * 4);
    } else {
      for (uint32_t x : w) u32(x);
    }
  }
  std::vector<std::byte>& out() { return out_; }
  // A record's fields (the *Fields lists below): the same list writes and reads.
  void operator()(uint32_t v) { u32(v); }
  void operator()(int32_t v) { u32(static_cast<uint32_t>(v)); }
  void operator()(bool v) { u8(v ? 1 : 0); }
  void operator()(const std::string& v) { str(v); }

 private:
  std::vector<std::byte> out_;
};

// Reads from a span; the first read past the end (or an over-long count) sets `failed` and every later read gives
// zeros, so a parse runs to its end and is judged once.
class Reader {
 public:
  explicit Reader(std::span<const std::byte> in) : in_(in) {}
  bool failed() const { return failed_; }
  bool at_end() const { return pos_ == in_.size(); }
  size_t left() const { return in_.size() - pos_; }
  bool take(void* out, size_t n) {
    if (failed_ || n > left()) {
      failed_ = true;
      std::memset(out, 0, n);
      return false;
    }
    std::memcpy(out, in_.data() + pos_, n);
    pos_ += n;
    return true;
  }
  uint8_t u8() {
    uint8_t v = 0;
    take(&v, 1);
    return v;
  }
  uint32_t u32() {
    uint8_t b[4];
    take(b, 4);
    return uint32_t(b[0]) | uint32_t(b[1]) << 8 | uint32_t(b[2]) << 16 | uint32_t(b[3]) << 24;
  }
  uint64_t u64() {
    const uint64_t low = u32();
    return low | uint64_t(u32()) << 32;
  }
  // A count of elements of at least `min_bytes` each: more than the bytes left can hold is a failure (no huge
  // allocation from a corrupted count).
  uint32_t count(size_t min_bytes) {
    const uint32_t n = u32();
    if (min_bytes > 0 && n > left() / min_bytes) failed_ = true;
    return failed_ ? 0 : n;
  }
  std::string str() {
    const uint32_t n = count(1);
    std::string s(n, '\0');
    take(s.data(), n);
    return s;
  }
  std::vector<uint32_t> words() {
    const uint32_t n = count(4);
    std::vector<uint32_t> w(n);
    if constexpr (std::endian::native == std::endian::little) {
      take(w.data(), size_t(n) * 4);  // a SPIR-V module is thousands of words: one copy, not a loop of reads
    } else {
      for (uint32_t& x : w) x = u32();
    }
    return w;
  }
  void operator()(uint32_t& v) { v = u32(); }
  void operator()(int32_t& v) { v = static_cast<int32_t>(u32()); }
  void operator()(bool& v) { v = u8() != 0; }
  void operator()(std::string& v) { v = str(); }

 private:
  std::span<const std::byte> in_;
  size_t pos_ = 0;
  bool failed_ = false;
};

template <size_t N>
std::array<uint8_t, N> hash_bytes(const backend::Hash128& h) {
  std::array<uint8_t, N> out{};
  for (size_t i = 0; i < 8 && i < N; ++i) out[i] = static_cast<uint8_t>(h.low >> (8 * i));
  for (size_t i = 8; i < 16 && i < N; ++i) out[i] = static_cast<uint8_t>(h.high >> (8 * (i - 8)));
  return out;
}

}  // namespace bismuth::gl
