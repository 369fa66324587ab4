// A small GLSL lexer for source-level rewrites that must keep the user's line numbers: it splits source into
// identifiers, numbers and punctuation with their positions, skips comments, and reports preprocessor directives
// as whole lines. It does not expand macros; the rewrites it serves look only at tokens the user wrote.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace bismuth::translator {

struct GlslToken {
  enum class Kind { Identifier, Number, Punctuation, Directive };
  Kind kind;
  std::string_view text;  // for Directive: the whole directive line, without the newline
  size_t offset;          // byte offset in the source
  int line;               // 1-based
  int column;             // 1-based
};

std::vector<GlslToken> lex_glsl(std::string_view source);

}  // namespace bismuth::translator
