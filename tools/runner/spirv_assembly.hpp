// SPIR-V assembly text (the body of a [compute shader spirv] section) to a binary, through SPIRV-Tools.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "bismuth/common/expected.hpp"

namespace bismuth::tools::runner {

// Errors are "line:column: message" relative to `text`.
Expected<std::vector<uint32_t>> assemble_spirv(std::string_view text);

}  // namespace bismuth::tools::runner
