// Tokens of a !!NVcp5.0 program: identifiers, numbers, punctuation and `..`; `#` comments and white space dropped.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ast.hpp"

namespace bismuth::nvasm::detail {

enum class Tok : uint8_t { End, Ident, Int, Float, Punct, DotDot };

struct Token {
  Tok kind = Tok::End;
  std::string_view text;
  size_t offset = 0;
  uint64_t int_value = 0;
  double float_value = 0.0;
  char punct = 0;
};

inline bool is_ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$'; }
inline bool is_digit(char c) { return c >= '0' && c <= '9'; }
inline bool is_ident_char(char c) { return is_ident_start(c) || is_digit(c); }

class Lexer {
 public:
  explicit Lexer(std::string_view s) : s_(s) {}

  // Lexes everything after the header; false with a failure on a bad character or number.
  bool run(size_t start, std::vector<Token>& out, Failure& failure);

  static std::string printable(char c);

 private:
  bool number(size_t& i, Token& t, Failure& failure);

  std::string_view s_;
};

}  // namespace bismuth::nvasm::detail
