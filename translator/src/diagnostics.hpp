// Compiler diagnostics with positions in the user's source, and the two ways Bismuth prints them:
// "file:line:column: error: text" (CLI, errors as values) and GL info-log style "0:line(column): error: text".
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace bismuth::translator {

struct Diagnostic {
  enum class Severity { Error, Warning };
  Severity severity = Severity::Error;
  std::string source_name;  // file name, or the GL source string number
  int line = 1;
  int column = 1;
  std::string message;
};

// Parses a glslang info log for `source`. glslang reports lines but not columns: the column is that of the
// quoted token on the reported line when it can be found there, else 1. `fallback_name` names the source when
// a line carries no location.
std::vector<Diagnostic> parse_glslang_log(std::string_view log, std::string_view source,
                                          std::string_view fallback_name);

// "name:line:column: error: text", one per line.
std::string format_file_line_column(const std::vector<Diagnostic>& diagnostics);
// GL info-log style, as Mesa prints it: "0:line(column): error: text", one per line.
std::string format_gl_info_log(const std::vector<Diagnostic>& diagnostics);

bool has_errors(const std::vector<Diagnostic>& diagnostics);

}  // namespace bismuth::translator
