// CommandStream's barrier decisions: which buffer ranges the commands since the last barrier read and wrote, and
// whether the next access needs a barrier first — a read or write of a range written since then, or a write of a
// range read since then. Part of CommandStream (command_stream.hpp says what its barriers guarantee); inline
// because every dispatch with new bindings asks it.
#pragma once

#include <algorithm>
#include <vector>

#include "bismuth/backend/vk_functions.hpp"

namespace bismuth::backend {

class HazardTracker {
 public:
  // The barrier a hazard calls for: compute/transfer writes → compute/transfer reads and writes.
  static constexpr VkPipelineStageFlags kStages = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;
  static constexpr VkAccessFlags kWriteAccess = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
  static constexpr VkAccessFlags kAllAccess = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT |
                                              VK_ACCESS_UNIFORM_READ_BIT | VK_ACCESS_TRANSFER_READ_BIT |
                                              VK_ACCESS_TRANSFER_WRITE_BIT;

  bool needs_barrier(VkBuffer buffer, VkDeviceSize begin, VkDeviceSize end, bool writes) const {
    for (const Range& r : written_) {
      if (r.buffer == buffer && r.begin < end && begin < r.end) return true;  // read/write after write
    }
    if (writes) {
      for (const Range& r : read_) {
        if (r.buffer == buffer && r.begin < end && begin < r.end) return true;  // write after read
      }
    }
    return false;
  }

  void note_access(VkBuffer buffer, VkDeviceSize begin, VkDeviceSize end, bool writes) {
    std::vector<Range>& ranges = writes ? written_ : read_;
    for (Range& r : ranges) {
      if (r.buffer == buffer) {  // one conservative range per buffer keeps the check linear in buffers
        r.begin = std::min(r.begin, begin);
        r.end = std::max(r.end, end);
        return;
      }
    }
    ranges.push_back(Range{buffer, begin, end});
  }

  // A barrier was recorded: no earlier access is a hazard any more.
  void clear() {
    written_.clear();
    read_.clear();
  }

 private:
  struct Range {
    VkBuffer buffer;
    VkDeviceSize begin, end;
  };
  // Accesses since the last barrier (one merged range per buffer and kind).
  std::vector<Range> written_;
  std::vector<Range> read_;
};

}  // namespace bismuth::backend
