// GL enum names to values (every `#define GL_... 0x...` of GL/glcorearb.h, generated at configure time), for the
// [require] lines that name the enum to query.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace bismuth::tools::runner {

std::optional<uint32_t> gl_enum_value(std::string_view name);

}  // namespace bismuth::tools::runner
