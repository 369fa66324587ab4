// Object-like macros whose value is one integer literal (`#define NUM_WAVES 4`), as the token-level rewrites read
// them: a layout value or attribute argument written with such a macro resolves to the literal, as the preprocessor
// would expand it. Only this form: function-like macros, macros of expressions and conditional code are not
// evaluated (the rewrites report a value they cannot resolve as an error at the user's token).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "glsl_lexer.hpp"

namespace bismuth::translator {

class IntegerMacros {
 public:
  explicit IntegerMacros(const std::vector<GlslToken>& tokens);
  // The literal text `name` stands for at `offset` (the last #define before it, unless #undef'd since).
  std::optional<std::string_view> literal_at(std::string_view name, size_t offset) const;
  // The value of an integer literal token, or of an identifier that is such a macro at the token's offset.
  std::optional<uint64_t> integer_value(const GlslToken& token) const;

 private:
  struct Definition {
    size_t offset;
    std::string_view name;
    std::optional<std::string_view> literal;  // empty: #undef, or a definition that is not one literal
  };
  std::vector<Definition> definitions_;
};

// A GLSL/HLSL integer literal (decimal, octal, hexadecimal; `u`/`U` and `l`/`L` suffixes); nullopt otherwise.
std::optional<uint64_t> parse_integer_literal(std::string_view text);

}  // namespace bismuth::translator
