// The functions of a module and which of them an entry point reaches through OpFunctionCall.
#pragma once

#include <cstdint>
#include <set>
#include <vector>

#include "bismuth/common/expected.hpp"
#include "bismuth/spirv_patch/module.hpp"

namespace bismuth::spirv_patch {

struct Function {
  uint32_t id = 0;
  uint32_t type = 0;         // OpTypeFunction
  uint32_t result_type = 0;  // return type
  InstructionHandle header = 0;
  std::vector<InstructionHandle> body;  // after OpFunction, OpFunctionEnd included
  bool has_blocks = false;
  // First instruction of the first block after its OpVariables: where per-function code goes.
  InstructionHandle insert_point = 0;
  std::vector<uint32_t> callees;
};

// Every function, in module order. Fails when the function section is not a sequence of whole functions (debug
// lines and non-semantic instructions may sit between them) or a first block has nothing after its variables.
Expected<std::vector<Function>> collect_functions(const Module& module);

// The function `id`, or nullptr.
const Function* find_function(const std::vector<Function>& functions, uint32_t id);

// Ids of the functions `root` calls, directly or not, `root` included.
std::set<uint32_t> reachable_functions(const std::vector<Function>& functions, uint32_t root);

}  // namespace bismuth::spirv_patch
