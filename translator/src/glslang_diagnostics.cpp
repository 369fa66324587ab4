#include "glslang_diagnostics.hpp"

#include <charconv>
#include <vector>

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

}  // namespace

std::string format_glslang_log(std::string_view log, std::string_view source, std::string_view fallback_name) {
  const std::vector<std::string_view> source_lines = split_lines(source);
  std::string out;
  for (std::string_view line : split_lines(log)) {
    line = trim(line);
    if (line.empty()) continue;
    std::string_view severity;
    if (line.starts_with("ERROR: ")) {
      severity = "error";
      line.remove_prefix(7);
    } else if (line.starts_with("WARNING: ")) {
      severity = "warning";
      line.remove_prefix(9);
    } else {
      continue;  // glslang's own summary lines and notes carry nothing new
    }
    // "name:LINE: text" — the name may itself contain ':' so take the last ":<digits>:" before the text.
    std::string_view name = fallback_name;
    int line_number = 0;
    std::string_view text = line;
    for (size_t colon = line.find(':'); colon != std::string_view::npos; colon = line.find(':', colon + 1)) {
      size_t next = line.find(':', colon + 1);
      if (next == std::string_view::npos) break;
      std::string_view digits = line.substr(colon + 1, next - colon - 1);
      int value = 0;
      auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
      if (ec == std::errc() && ptr == digits.data() + digits.size() && !digits.empty()) {
        name = line.substr(0, colon);
        line_number = value;
        text = trim(line.substr(next + 1));
        break;
      }
    }
    if (line_number == 0 && text.find("compilation errors") != std::string_view::npos) continue;
    int column = 1;
    if (line_number > 0 && static_cast<size_t>(line_number) <= source_lines.size()) {
      column = column_of_quoted_token(text, source_lines[line_number - 1]);
    }
    if (!out.empty()) out += '\n';
    out += std::string(name) + ':' + std::to_string(line_number > 0 ? line_number : 1) + ':' +
           std::to_string(column) + ": " + std::string(severity) + ": " + std::string(text);
  }
  return out;
}

}  // namespace bismuth::translator
