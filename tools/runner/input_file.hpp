// Reading the files a test is made of (.shader_test, case.json, shader.comp, program.nvcp5, expected.bin, list
// files). A path that names a directory, a symlink loop, a FIFO or a device is an error that says so: opening a
// directory with std::ifstream "succeeds" and reads nothing, which turned such inputs into misleading parse errors.
#pragma once

#include <cstdint>
#include <string>

#include "bismuth/common/expected.hpp"

namespace bismuth::tools::runner {

// Test inputs are text or small binaries; a larger file is refused before it is read into memory.
inline constexpr uint64_t kMaxInputFileBytes = uint64_t{256} << 20;

// The size of the regular file at `path`; errors are "PATH: why" (no such file, is a directory, too many levels
// of symbolic links, not a regular file, permission denied).
Expected<uint64_t> input_file_size(const std::string& path);

// The whole regular file at `path`, at most `max_bytes`; errors as input_file_size, or "PATH: N bytes, more than
// the M bytes a test input may have".
Expected<std::string> read_input_file(const std::string& path, uint64_t max_bytes = kMaxInputFileBytes);

}  // namespace bismuth::tools::runner
