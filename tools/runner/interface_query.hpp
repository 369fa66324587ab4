// shader_runner's `verify program_interface_query` (ARB_program_interface_query, GL 4.6 §7.3.1) against a program:
// glGetProgramInterfaceiv, glGetProgramResourceIndex / Name / iv / Location / LocationIndex, the resource found by
// name or, for SPIR-V programs without names, by its data (binding, offset, location).
#pragma once

#define GL_GLEXT_PROTOTYPES 1
#include <GL/glcorearb.h>

#include <optional>
#include <string>

#include "shader_test.hpp"

namespace bismuth::tools::runner {

struct QueryResult {
  std::optional<std::string> failure;  // what did not hold (the caller adds file:line)
  std::optional<std::string> skip;     // what this libbismuth-gl lacks for the query
};

// Runs one InterfaceQuery command on `program`.
QueryResult run_interface_query(const Command& c, GLuint program);

}  // namespace bismuth::tools::runner
