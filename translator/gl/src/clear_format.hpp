// glClearBuffer(Sub)Data's clear value (GL 4.6 §6.2.2): the client value in `format`/`type` converted to the
// buffer's sized internal format (table 8.12) as pixel transfers convert texel data (§8.4.4: unpacking, conversion
// to floating point for normalized types, then to the internal representation).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

#include "gl_internal.hpp"

namespace bismuth::gl {

struct ClearValue {
  GLenum error = GL_NO_ERROR;  // INVALID_ENUM / INVALID_OPERATION with `message` when the arguments are wrong
  std::string message;
  uint32_t element_bytes = 0;  // bytes of one element of the internal format
  std::array<std::byte, 16> bytes{};  // the converted element (zero when data is NULL)
};

// Checks internalformat, format and type and converts `data` (may be null: zeros).
ClearValue convert_clear_value(GLenum internalformat, GLenum format, GLenum type, const void* data);

}  // namespace bismuth::gl
