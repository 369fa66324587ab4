// The GLSL front's documented limits on how deeply a shader nests (docs/gl_shim.md, "Limits"). glslang builds a
// syntax tree as deep as the source nests and walks it recursively; a deep enough source overflows any stack.
// These checks bound the depth from the tokens before glslang sees them, so a shader beyond a limit is a compile
// error at its line and column, and one within the limits always fits the compiler thread's stack
// (large_stack.hpp).
//
// The measure is an upper bound of the depth of glslang's syntax tree:
//   nesting depth     parentheses, brackets and braces, plus the control statements (if, for, while, do, switch)
//                     whose body nests inside them — an `else if` chain nests one level per `if`;
//   expression depth  the nesting depth plus every operator (`.`, `?` and indexing included) on the way down:
//                     a chain `a + b + c` is a left-leaning tree as deep as it has operators. Commas between a call's
//                     arguments or an initializer list's elements separate siblings; other commas (the comma
//                     operator, declarator lists) count as operators.
// An `#if`/`#elif` expression counts its parentheses and operators, those of every macro it expands included
// (glslang evaluates them recursively too).
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

#include "diagnostics.hpp"

namespace bismuth::translator {

// Below glslang's own parser limits (its parser stack holds 10,000 entries: about 1,400 nested `else if`, 2,000
// nested `if`, 5,000 nested calls), so the limit a shader meets is this one, with its position, rather than
// glslang's "memory exhausted".
inline constexpr int kMaxNestingDepth = 1024;
// 15,000-term sums compile; a 100,000-term sum is an error. At the 1.7 KiB of stack glslang needs per level at
// worst (nested user-function calls), 64 Ki levels need 112 MiB of the compiler thread's 256 MiB.
inline constexpr int kMaxExpressionDepth = 65536;

// Stack glslang needs at most (glslang 12, measured): about 100 KiB for a shallow shader, then per level of
// expression depth 0.8 KiB (operator chains) to 1.7 KiB (nested user-function calls), and 0.2 KiB per level of an
// `#if` expression. These bounds round each up generously.
inline constexpr size_t kBaseStackBytes = size_t{512} << 10;
inline constexpr size_t kStackBytesPerLevel = 2048;
inline constexpr size_t kStackBytesPerDirectiveLevel = 256;

struct NestingReport {
  // The first place where a limit is exceeded, as an error diagnostic; nullopt when within both limits.
  std::optional<Diagnostic> error;
  int expression_depth = 0;  // deepest level the code reaches (an upper bound of glslang's tree depth)
  int directive_depth = 0;   // largest #if/#elif count, macros expanded
  // The source's depth is known only once preprocessed: it compiles code conditionally (a closing bracket in a
  // branch not compiled would end a group the compiled code keeps open), or has function-like macros (an argument
  // used twice doubles an operator chain it joins), or macros that are recursive, unbalanced or paste tokens. The
  // preprocessed source must be checked too (`expanded`).
  bool needs_expansion = false;
  // Stack glslang may need for a source this deep (for one that needs expansion, once the expansion is checked).
  size_t stack_bytes() const;
};

// Checks `source` against both limits; the diagnostic is named `source_name`. `expanded` says that `source` is
// glslang's preprocessed output, whose columns are approximate: the message then says the depth comes from macro
// expansion. Object-like macros count for what they expand to (unless the source needs expansion).
NestingReport check_nesting_limits(std::string_view source, std::string_view source_name, bool expanded = false);

}  // namespace bismuth::translator
