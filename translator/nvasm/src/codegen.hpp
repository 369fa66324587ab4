#pragma once

#include <cstdint>
#include <vector>

#include "ast.hpp"
#include "bismuth/nvasm/assembler.hpp"

namespace bismuth::nvasm::detail {

// Straightforward SPIR-V for a parsed program: one Private variable per register, every instruction as
// load operands -> convert to the opcode's type -> compute on four components -> convert back -> masked store.
bool generate_spirv(const ParsedProgram& program, const AssembleOptions& options, std::vector<uint32_t>& words,
                    ProgramInfo& info, Failure& failure);

}  // namespace bismuth::nvasm::detail
