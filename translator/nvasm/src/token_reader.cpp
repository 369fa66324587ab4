#include "token_reader.hpp"

namespace bismuth::nvasm::detail {

std::string TokenReader::describe(const Token& t) const {
  if (t.kind == Tok::End) return "end of program";
  return "'" + std::string(t.text) + "'";
}

bool TokenReader::error(size_t offset, std::string text) {
  failure_ = {offset, std::move(text)};
  return false;
}

bool TokenReader::expect_ident(std::string_view& out, const char* what) {
  if (peek().kind != Tok::Ident) return error(peek().offset, "unexpected " + describe(peek()) + ", expected " + what);
  out = next().text;
  return true;
}

bool TokenReader::expect_uint(uint64_t& v, const char* what) {
  if (peek().kind != Tok::Int) return error(peek().offset, "unexpected " + describe(peek()) + ", expected " + what);
  v = next().int_value;
  return true;
}

}  // namespace bismuth::nvasm::detail
