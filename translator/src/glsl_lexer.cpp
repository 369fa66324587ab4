#include "glsl_lexer.hpp"

#include <array>
#include <string>

namespace bismuth::translator {

namespace {

// ASCII classes, inline: the front lexes every shader about a dozen times, and <cctype>'s calls (a function call and
// a locale table per character) were most of the lexer's instructions. GLSL source is ASCII (GLSL 4.60 §3.1), and
// these classify as <cctype> does in the "C" locale, so the tokens no longer depend on the application's locale.
constexpr bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
constexpr bool is_identifier_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
constexpr bool is_identifier_char(char c) {
  return is_identifier_start(c) || is_digit(c);
}

std::vector<GlslToken> lex_source(std::string_view source);

// The texts this thread lexed last, with their tokens (views into `text`). The front's source rewrites run one after
// the other on one thread, each lexing its input, and most of them pass the text on unchanged (a shader uses few of
// the extensions they handle): the next rewrite then gets a copy of the tokens instead of lexing the text again.
// Directive lines (each rewrite that reads #extension lexes those lines too) take entries as well.
struct LexMemo {
  static constexpr size_t kEntries = 16;
  static constexpr size_t kMaxBytes = size_t(64) << 10;  // a larger shader is lexed each time: no copy kept
  struct Entry {
    std::string text;
    std::vector<GlslToken> tokens;
  };
  std::array<Entry, kEntries> entries;
  size_t next = 0;  // the entry to replace next (round robin)
};

thread_local LexMemo t_memo;

// `tokens` with their views moved into `text`, which holds the same characters as the text they were lexed from.
std::vector<GlslToken> rebased(const std::vector<GlslToken>& tokens, std::string_view text) {
  std::vector<GlslToken> out(tokens);
  for (GlslToken& token : out) token.text = text.substr(token.offset, token.text.size());
  return out;
}

}  // namespace

std::vector<GlslToken> lex_glsl(std::string_view source) {
  if (source.size() > LexMemo::kMaxBytes) return lex_source(source);
  LexMemo& memo = t_memo;
  for (const LexMemo::Entry& entry : memo.entries) {
    if (entry.text == source) {
      return rebased(entry.tokens, source);
    }
  }
  std::vector<GlslToken> tokens = lex_source(source);
  LexMemo::Entry& entry = memo.entries[memo.next];
  memo.next = (memo.next + 1) % LexMemo::kEntries;
  entry.text.assign(source);
  entry.tokens = rebased(tokens, entry.text);
  return tokens;
}

namespace {

std::vector<GlslToken> lex_source(std::string_view source) {
  std::vector<GlslToken> tokens;
  // About one token per four bytes of GLSL: the front lexes each shader once per source rewrite, and growing the
  // vector step by step was most of the lexer's allocations.
  tokens.reserve(source.size() / 4 + 8);
  size_t i = 0;
  int line = 1;
  size_t line_start = 0;
  bool at_line_start = true;  // only whitespace seen on this line so far: a '#' starts a directive
  auto column = [&](size_t at) { return static_cast<int>(at - line_start) + 1; };
  auto newline = [&](size_t at) {
    ++line;
    line_start = at + 1;
    at_line_start = true;
  };

  while (i < source.size()) {
    const char c = source[i];
    if (c == '\n') {
      newline(i);
      ++i;
    } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      ++i;
    } else if (c == '/' && i + 1 < source.size() && source[i + 1] == '/') {
      while (i < source.size() && source[i] != '\n') ++i;
    } else if (c == '/' && i + 1 < source.size() && source[i + 1] == '*') {
      i += 2;
      while (i < source.size() && !(source[i] == '*' && i + 1 < source.size() && source[i + 1] == '/')) {
        if (source[i] == '\n') {
          ++line;
          line_start = i + 1;
        }
        ++i;
      }
      i = i < source.size() ? i + 2 : i;
    } else if (c == '#' && at_line_start) {
      // A directive runs to the end of the line; backslash-newline continues it.
      const size_t start = i;
      const int start_line = line;
      const int start_column = column(i);
      while (i < source.size() && source[i] != '\n') {
        if (source[i] == '\\' && i + 1 < source.size() && source[i + 1] == '\n') {
          ++line;
          line_start = i + 2;
          i += 2;
          continue;
        }
        ++i;
      }
      tokens.push_back({GlslToken::Kind::Directive, source.substr(start, i - start), start, start_line, start_column});
    } else if (is_identifier_start(c)) {
      const size_t start = i;
      while (i < source.size() && is_identifier_char(source[i])) ++i;
      tokens.push_back({GlslToken::Kind::Identifier, source.substr(start, i - start), start, line, column(start)});
      at_line_start = false;
    } else if (is_digit(c) || (c == '.' && i + 1 < source.size() && is_digit(source[i + 1]))) {
      const size_t start = i;
      const bool hex = c == '0' && i + 1 < source.size() && (source[i + 1] == 'x' || source[i + 1] == 'X');
      while (i < source.size() && (is_identifier_char(source[i]) || source[i] == '.' ||
                                   (!hex && (source[i] == '+' || source[i] == '-') &&
                                    (source[i - 1] == 'e' || source[i - 1] == 'E')))) {
        ++i;
      }
      tokens.push_back({GlslToken::Kind::Number, source.substr(start, i - start), start, line, column(start)});
      at_line_start = false;
    } else {
      tokens.push_back({GlslToken::Kind::Punctuation, source.substr(i, 1), i, line, column(i)});
      ++i;
      at_line_start = false;
    }
  }
  return tokens;
}

}  // namespace

}  // namespace bismuth::translator
