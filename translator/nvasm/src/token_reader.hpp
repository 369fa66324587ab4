// A cursor over the lexed tokens with the parser's error reporting: the base of the parser's layers
// (declarations, instructions, the program). Every error is the first Failure, with the offset it points at.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ast.hpp"
#include "lexer.hpp"

namespace bismuth::nvasm::detail {

class TokenReader {
 public:
  TokenReader(std::vector<Token> tokens, Failure& failure) : toks_(std::move(tokens)), failure_(failure) {}

 protected:
  const Token& peek(size_t ahead = 0) const { return toks_[std::min(pos_ + ahead, toks_.size() - 1)]; }
  const Token& next() {
    const Token& t = peek();
    if (pos_ < toks_.size() - 1) ++pos_;
    return t;
  }
  bool is_punct(char c, size_t ahead = 0) const { return peek(ahead).kind == Tok::Punct && peek(ahead).punct == c; }
  bool accept(char c) {
    if (!is_punct(c)) return false;
    next();
    return true;
  }
  bool expect(char c, const char* what = nullptr) {
    if (accept(c)) return true;
    return error(peek().offset, "unexpected " + describe(peek()) + ", expected " +
                                    (what ? std::string(what) : "'" + std::string(1, c) + "'"));
  }
  bool expect_ident(std::string_view& out, const char* what);
  bool expect_uint(uint64_t& v, const char* what);
  std::string describe(const Token& t) const;
  // Records the failure; false, so that parse steps can `return error(...)`.
  bool error(size_t offset, std::string text);

 private:
  std::vector<Token> toks_;
  size_t pos_ = 0;
  Failure& failure_;
};

}  // namespace bismuth::nvasm::detail
