// `bismuth compile FILE.comp|FILE.nvcp5|FILE.spv -o OUT.spv [--disasm] [--target vulkan1.1|vulkan1.3]
//  [--variable-group-size] [--group-size-form workgroup-size|local-size-id] [--entry NAME]`:
// GLSL (the GL shim's front, as glCompileShader takes it), NV assembly or a SPIR-V binary in; ballot/vote
// lowering, optionally the workgroup size as spec constants; validated for the target; written out. Diagnostics are "file:line:column: severity: text".
#pragma once

#include <CLI/CLI.hpp>

namespace bismuth::tools {

// Registers the subcommand on `app`. Its exit code lands in `*exit_code`.
void add_compile_command(CLI::App& app, int* exit_code);

}  // namespace bismuth::tools
