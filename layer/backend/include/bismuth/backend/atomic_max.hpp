// A monotonic maximum several threads raise: the last timeline value of a submission that used a buffer, image or
// pipeline (raised by whichever thread submits it, read to defer destruction and to wait before host access), and
// the highest completed timeline value seen.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>

namespace bismuth::backend {

// Raises `value` to `candidate` unless it already holds as much; returns what it holds afterwards (at least
// `candidate`).
inline uint64_t raise_to(std::atomic<uint64_t>& value, uint64_t candidate) {
  uint64_t previous = value.load(std::memory_order_relaxed);
  while (candidate > previous && !value.compare_exchange_weak(previous, candidate, std::memory_order_acq_rel)) {
  }
  return std::max(previous, candidate);
}

}  // namespace bismuth::backend
