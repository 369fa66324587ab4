#include "diagnostics.hpp"

#include <algorithm>
#include <charconv>

namespace bismuth::translator {

namespace {

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    size_t end = text.find('\n');
    lines.push_back(text.substr(0, end));
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return lines;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\r' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\r' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// Column (1-based) of the first quoted token of `text` ('tok' : ...) on `source_line`, or 1.
int column_of_quoted_token(std::string_view text, std::string_view source_line) {
  size_t open = text.find('\'');
  if (open == std::string_view::npos) return 1;
  size_t close = text.find('\'', open + 1);
  if (close == std::string_view::npos || close == open + 1) return 1;
  std::string_view token = text.substr(open + 1, close - open - 1);
  size_t at = source_line.find(token);
  return at == std::string_view::npos ? 1 : static_cast<int>(at) + 1;
}

std::string_view severity_name(Diagnostic::Severity severity) {
  return severity == Diagnostic::Severity::Error ? "error" : "warning";
}

}  // namespace

std::vector<Diagnostic> parse_glslang_log(std::string_view log, std::string_view source,
                                          std::string_view fallback_name) {
  const std::vector<std::string_view> source_lines = split_lines(source);
  std::vector<Diagnostic> diagnostics;
  for (std::string_view line : split_lines(log)) {
    line = trim(line);
    Diagnostic d;
    if (line.starts_with("ERROR: ")) {
      d.severity = Diagnostic::Severity::Error;
      line.remove_prefix(7);
    } else if (line.starts_with("WARNING: ")) {
      d.severity = Diagnostic::Severity::Warning;
      line.remove_prefix(9);
    } else {
      continue;  // glslang's summary lines and notes carry nothing new
    }
    // "name:LINE: text" — the name may itself contain ':' so take the first ":<digits>:" as the location.
    d.source_name = std::string(fallback_name);
    d.line = 0;
    std::string_view text = line;
    for (size_t colon = line.find(':'); colon != std::string_view::npos; colon = line.find(':', colon + 1)) {
      size_t next = line.find(':', colon + 1);
      if (next == std::string_view::npos) break;
      std::string_view digits = line.substr(colon + 1, next - colon - 1);
      int value = 0;
      auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
      if (ec == std::errc() && ptr == digits.data() + digits.size() && !digits.empty()) {
        d.source_name = std::string(line.substr(0, colon));
        d.line = value;
        text = trim(line.substr(next + 1));
        break;
      }
    }
    if (d.line == 0 && (text.find("compilation errors") != std::string_view::npos ||
                        text.find("compilation terminated") != std::string_view::npos)) {
      continue;
    }
    if (text.find("compilation terminated") != std::string_view::npos) continue;
    if (d.line > 0 && static_cast<size_t>(d.line) <= source_lines.size()) {
      d.column = column_of_quoted_token(text, source_lines[d.line - 1]);
    }
    d.line = std::max(d.line, 1);
    d.message = std::string(text);
    diagnostics.push_back(std::move(d));
  }
  return diagnostics;
}

std::string format_file_line_column(const std::vector<Diagnostic>& diagnostics) {
  std::string out;
  for (const Diagnostic& d : diagnostics) {
    if (!out.empty()) out += '\n';
    out += d.source_name + ':' + std::to_string(d.line) + ':' + std::to_string(d.column) + ": " +
           std::string(severity_name(d.severity)) + ": " + d.message;
  }
  return out;
}

std::string format_gl_info_log(const std::vector<Diagnostic>& diagnostics) {
  std::string out;
  for (const Diagnostic& d : diagnostics) {
    out += "0:" + std::to_string(d.line) + '(' + std::to_string(d.column) + "): " +
           std::string(severity_name(d.severity)) + ": " + d.message + '\n';
  }
  return out;
}

bool has_errors(const std::vector<Diagnostic>& diagnostics) {
  return std::any_of(diagnostics.begin(), diagnostics.end(),
                     [](const Diagnostic& d) { return d.severity == Diagnostic::Severity::Error; });
}

}  // namespace bismuth::translator
