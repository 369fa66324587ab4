// The lexer: the only pass over the program text. Numbers are range-checked here (integers up to 64 bits).
#include "lexer.hpp"

#include <cctype>
#include <cstdlib>

namespace bismuth::nvasm::detail {

bool Lexer::run(size_t start, std::vector<Token>& out, Failure& failure) {
  size_t i = start;
  out.reserve(s_.size() / 3 + 16);
  while (true) {
    while (i < s_.size()) {
      const char c = s_[i];
      if (c == '#') {
        while (i < s_.size() && s_[i] != '\n') ++i;
      } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
        ++i;
      } else {
        break;
      }
    }
    Token t;
    t.offset = i;
    if (i >= s_.size()) {
      t.kind = Tok::End;
      out.push_back(t);
      return true;
    }
    const char c = s_[i];
    if (is_ident_start(c)) {
      size_t j = i;
      while (j < s_.size() && is_ident_char(s_[j])) ++j;
      t.kind = Tok::Ident;
      t.text = s_.substr(i, j - i);
      i = j;
    } else if (is_digit(c)) {
      if (!number(i, t, failure)) return false;
    } else if (c == '.' && i + 1 < s_.size() && s_[i + 1] == '.') {
      t.kind = Tok::DotDot;
      t.text = s_.substr(i, 2);
      i += 2;
    } else if (std::string_view(";,.[]{}()|-+=:").find(c) != std::string_view::npos) {
      t.kind = Tok::Punct;
      t.punct = c;
      t.text = s_.substr(i, 1);
      ++i;
    } else {
      failure = {i, std::string("unexpected character '") + printable(c) + "'"};
      return false;
    }
    out.push_back(t);
    if (out.size() > (1u << 22)) {
      failure = {t.offset, "program too long"};
      return false;
    }
  }
}

std::string Lexer::printable(char c) {
  const auto u = static_cast<unsigned char>(c);
  if (u >= 0x20 && u < 0x7f) return std::string(1, c);
  static const char* hex = "0123456789abcdef";
  return std::string("\\x") + hex[u >> 4] + hex[u & 15];
}

bool Lexer::number(size_t& i, Token& t, Failure& failure) {
  const size_t start = i;
  if (s_[i] == '0' && i + 1 < s_.size() && (s_[i + 1] == 'x' || s_[i + 1] == 'X')) {
    size_t j = i + 2;
    uint64_t v = 0;
    size_t digits = 0;
    while (j < s_.size() && std::isxdigit(static_cast<unsigned char>(s_[j]))) {
      const char c = s_[j];
      const uint64_t d = is_digit(c) ? uint64_t(c - '0') : uint64_t((c | 0x20) - 'a' + 10);
      if (v >> 60) {
        failure = {start, "integer constant out of range"};
        return false;
      }
      v = v * 16 + d;
      ++j;
      ++digits;
    }
    if (digits == 0) {
      failure = {start, "malformed hexadecimal constant"};
      return false;
    }
    t.kind = Tok::Int;
    t.int_value = v;
    t.text = s_.substr(start, j - start);
    i = j;
    return true;
  }
  size_t j = i;
  while (j < s_.size() && is_digit(s_[j])) ++j;
  bool is_float = false;
  if (j < s_.size() && s_[j] == '.' && !(j + 1 < s_.size() && s_[j + 1] == '.')) {
    is_float = true;
    ++j;
    while (j < s_.size() && is_digit(s_[j])) ++j;
  }
  if (j < s_.size() && (s_[j] == 'e' || s_[j] == 'E')) {
    size_t k = j + 1;
    if (k < s_.size() && (s_[k] == '+' || s_[k] == '-')) ++k;
    if (k < s_.size() && is_digit(s_[k])) {
      is_float = true;
      while (k < s_.size() && is_digit(s_[k])) ++k;
      j = k;
    }
  }
  t.text = s_.substr(start, j - start);
  if (is_float) {
    const std::string copy(t.text);
    t.kind = Tok::Float;
    t.float_value = std::strtod(copy.c_str(), nullptr);
  } else {
    uint64_t v = 0;
    for (size_t k = start; k < j; ++k) {
      const uint64_t d = uint64_t(s_[k] - '0');
      if (v > (UINT64_MAX - d) / 10) {
        failure = {start, "integer constant out of range"};
        return false;
      }
      v = v * 10 + d;
    }
    t.kind = Tok::Int;
    t.int_value = v;
  }
  i = j;
  return true;
}

}  // namespace bismuth::nvasm::detail
