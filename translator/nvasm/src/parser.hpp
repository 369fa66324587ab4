// The !!NVcp5.0 parser: the header, then statements up to END. Declarations and instructions are the layers below
// (declarations.hpp, instructions.hpp); this one adds the statement loop, labels (one subroutine each) and the
// checks that need the whole program: blocks closed, GROUP_SIZE present, calls resolved, no recursion.
// Every load error is a Failure with the byte offset it points at; the parser never throws, never recurses on
// input structure, and bounds every size it allocates from the input.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "ast.hpp"
#include "instructions.hpp"

namespace bismuth::nvasm::detail {

class Parser : public InstructionParser {
 public:
  using InstructionParser::InstructionParser;

  bool run();

 private:
  bool statement();
  bool label();
  bool finish();
  bool resolve_subroutine_types();
  bool check_recursion();

  std::unordered_map<std::string, size_t> labels_;
  size_t end_offset_ = 0;
};

// Parses and checks a program; Failure on the first load error.
bool parse_program(std::string_view source, ParsedProgram& out, Failure& failure);

}  // namespace bismuth::nvasm::detail
