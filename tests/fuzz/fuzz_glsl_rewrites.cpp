// glsl_rewrites: the GLSL front's token-level rewrites (GL_NV extensions, #version below 420, local_size_variable)
// and its nesting-limit check, over arbitrary bytes as GLSL source — the steps before glslang. Each returns
// without crashing; each rewrite keeps every line where it was (same number of lines, the lines' order) and
// reports diagnostics on lines of the input; a #version rewrite keeps the width of every line it touches.
#include <cstdlib>
#include <string>
#include <string_view>

#include "fuzz_target.hpp"
#include "glsl_lexer.hpp"
#include "nesting_limits.hpp"
#include "nv_extension_rewrite.hpp"
#include "variable_group_size_rewrite.hpp"
#include "version_rewrite.hpp"

namespace {

size_t line_count(std::string_view text) {
  size_t lines = 1;
  for (char c : text) lines += c == '\n';
  return lines;
}

void check_diagnostics(const std::vector<bismuth::translator::Diagnostic>& diagnostics, size_t lines) {
  for (const auto& d : diagnostics) {
    if (d.line < 1 || static_cast<size_t>(d.line) > lines || d.column < 1 || d.message.empty()) std::abort();
  }
}

// Lines of `a` and `b` have the same lengths (the #version and __VERSION__ replacements are padded to width).
bool same_line_widths(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if ((a[i] == '\n') != (b[i] == '\n')) return false;
  }
  return true;
}

}  // namespace

BISMUTH_FUZZ_TARGET(glsl_rewrites) {
  using namespace bismuth::translator;
  const std::string_view source(reinterpret_cast<const char*>(data), size);
  const size_t lines = line_count(source);

  for (const GlslToken& t : lex_glsl(source)) {
    if (t.offset + t.text.size() > source.size() || source.substr(t.offset, t.text.size()) != t.text) std::abort();
    if (t.line < 1 || static_cast<size_t>(t.line) > lines || t.column < 1) std::abort();
  }

  const NvExtensionRewrite nv = rewrite_nv_extensions(source, "0");
  if (line_count(nv.source) != lines) std::abort();
  check_diagnostics(nv.diagnostics, lines);

  const VersionRewrite version = rewrite_compute_version(nv.source, "0");
  if (!same_line_widths(version.source, nv.source)) std::abort();
  if (version.raised && version.user_version == 0) std::abort();
  check_diagnostics(version.diagnostics, lines);

  for (std::string_view layout : {std::string_view("local_size_x = 1, local_size_y = 1, local_size_z = 1"),
                                  std::string_view("local_size_x_id = 31488, local_size_y_id = 31489, "
                                                   "local_size_z_id = 31490")}) {
    const VariableGroupSizeRewrite rewritten = rewrite_variable_group_size(version.source, layout, "0");
    if (line_count(rewritten.source) != lines) std::abort();
    check_diagnostics(rewritten.diagnostics, lines);
  }

  const NestingReport nesting = check_nesting_limits(source, "0");
  if (nesting.error) {
    if (nesting.error->line < 1 || static_cast<size_t>(nesting.error->line) > lines) std::abort();
  } else if (nesting.expression_depth > kMaxExpressionDepth || nesting.directive_depth > kMaxExpressionDepth) {
    std::abort();
  }
  return 0;
}
