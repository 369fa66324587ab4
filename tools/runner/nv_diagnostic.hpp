// NV assembly load errors in the form every other front prints: "FILE:LINE:COLUMN: error: TEXT". The assembler
// and GL_PROGRAM_ERROR_STRING_ARB say "line L, column C: error: TEXT" (NVIDIA's driver form, which GL programs
// parse, so the GL string keeps it); `bismuth compile` and `bismuth run` rewrite it here.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace bismuth::tools::runner {

// `message` is the assembler's / GL's error string; `offset` the byte offset of the error in `source`
// (GL_PROGRAM_ERROR_POSITION_ARB), used when the message does not start with "line L, column C: ".
std::string nv_file_diagnostic(const std::string& path, std::string_view source, int64_t offset,
                               std::string_view message);

}  // namespace bismuth::tools::runner
