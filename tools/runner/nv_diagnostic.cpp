#include "nv_diagnostic.hpp"

#include <charconv>

namespace bismuth::tools::runner {

namespace {

// Reads a decimal number at the front of `text` and removes it; false when there is none.
bool take_number(std::string_view& text, uint64_t* out) {
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), *out);
  if (ec != std::errc() || end == text.data()) return false;
  text.remove_prefix(static_cast<size_t>(end - text.data()));
  return true;
}

bool take(std::string_view& text, std::string_view prefix) {
  if (text.substr(0, prefix.size()) != prefix) return false;
  text.remove_prefix(prefix.size());
  return true;
}

}  // namespace

std::string nv_file_diagnostic(const std::string& path, std::string_view source, int64_t offset,
                               std::string_view message) {
  std::string_view rest = message;
  uint64_t line = 0, column = 0;
  if (take(rest, "line ") && take_number(rest, &line) && take(rest, ", column ") && take_number(rest, &column) &&
      take(rest, ": ")) {
    message = rest;
  } else {
    // No position in the text: the byte offset gives it (lines and columns 1-based, columns in bytes).
    line = column = 1;
    const size_t end = offset < 0 ? 0 : std::min(static_cast<size_t>(offset), source.size());
    for (size_t i = 0; i < end; ++i) {
      if (source[i] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
  }
  std::string out = path + ":" + std::to_string(line) + ":" + std::to_string(column) + ": ";
  if (message.substr(0, 7) != "error: ") out += "error: ";
  out += message;
  return out;
}

}  // namespace bismuth::tools::runner
