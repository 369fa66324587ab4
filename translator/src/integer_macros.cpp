#include "integer_macros.hpp"

#include <charconv>

namespace bismuth::translator {

IntegerMacros::IntegerMacros(const std::vector<GlslToken>& tokens) {
  for (const GlslToken& token : tokens) {
    if (token.kind != GlslToken::Kind::Directive) continue;
    const std::vector<GlslToken> parts = lex_glsl(token.text.substr(1));  // drop '#'
    if (parts.size() < 2 || parts[1].kind != GlslToken::Kind::Identifier) continue;
    if (parts[0].text == "undef") {
      definitions_.push_back({token.offset, parts[1].text, std::nullopt});
    } else if (parts[0].text == "define") {
      // `#define N(x) ...` is function-like only when '(' follows the name directly.
      const bool function_like =
          parts.size() > 2 && parts[2].text == "(" && parts[2].offset == parts[1].offset + parts[1].text.size();
      const bool one_literal = !function_like && parts.size() == 3 && parts[2].kind == GlslToken::Kind::Number;
      definitions_.push_back(
          {token.offset, parts[1].text, one_literal ? std::optional<std::string_view>(parts[2].text) : std::nullopt});
    }
  }
}

std::optional<uint64_t> IntegerMacros::integer_value(const GlslToken& token) const {
  if (token.kind == GlslToken::Kind::Number) return parse_integer_literal(token.text);
  if (token.kind != GlslToken::Kind::Identifier) return std::nullopt;
  auto literal = literal_at(token.text, token.offset);
  return literal ? parse_integer_literal(*literal) : std::nullopt;
}

std::optional<std::string_view> IntegerMacros::literal_at(std::string_view name, size_t offset) const {
  std::optional<std::string_view> literal;
  for (const Definition& d : definitions_) {
    if (d.offset < offset && d.name == name) literal = d.literal;
  }
  return literal;
}

std::optional<uint64_t> parse_integer_literal(std::string_view text) {
  while (!text.empty() && (text.back() == 'u' || text.back() == 'U' || text.back() == 'l' || text.back() == 'L')) {
    text.remove_suffix(1);
  }
  int base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    base = 16;
    text.remove_prefix(2);
  } else if (text.size() > 1 && text[0] == '0') {
    base = 8;
    text.remove_prefix(1);
  }
  uint64_t value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value, base);
  if (text.empty() || error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

}  // namespace bismuth::translator
