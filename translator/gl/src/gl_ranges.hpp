// Range checks of GL calls that take an offset and a size (glBufferSubData, glMapBufferRange, glBindBufferRange at
// dispatch, glDispatchComputeIndirect, ...). GL compares offset + size with a limit, but the sum of two
// GLintptr/GLsizeiptr values can wrap — signed overflow, undefined behaviour, which in practice let a range such as
// (INT64_MAX - 8, 16) pass as inside a 64-byte buffer. These compare without forming the sum.
#pragma once

#include <cstdint>

namespace bismuth::gl {

// Whether [offset, offset + size) lies inside [0, limit): offset and size non-negative, offset + size <= limit.
constexpr bool range_inside(int64_t offset, int64_t size, int64_t limit) {
  return offset >= 0 && size >= 0 && offset <= limit && size <= limit - offset;
}

}  // namespace bismuth::gl
