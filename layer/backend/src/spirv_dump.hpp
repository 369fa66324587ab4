// BISMUTH_DUMP_SPIRV=<dir>: every module the backend hands vkCreateShaderModule is also written to
// <dir>/<shader name>.spv (the name with every character outside [A-Za-z0-9._-] turned into '_'), so the words a
// GL program or a layer pipeline gives the driver can be compared with `bismuth compile` and read with spirv-dis.
// A debugging aid: a write that fails is ignored.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace bismuth::backend {

void dump_spirv_if_asked(std::string_view shader_name, std::span<const uint32_t> words);

}  // namespace bismuth::backend
