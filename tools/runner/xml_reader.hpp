// A small XML reader, enough for JUnit reports (merge_results.cpp): elements with attributes, text with the five
// entities and character references, comments, CDATA, processing instructions and declarations skipped. Not a
// validating parser: it reports the first thing it cannot read, with the byte offset.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "bismuth/common/expected.hpp"

namespace bismuth::tools::runner {

class XmlReader {
 public:
  XmlReader(std::string_view text, std::string path) : text_(text), path_(std::move(path)) {}

  struct Tag {
    enum class Kind { Start, End, Empty } kind = Kind::Start;
    std::string name;
    std::map<std::string, std::string> attributes;
  };
  // The next event: a tag (returned), or text (appended to `text_out`, entities decoded); nullopt at the end.
  Expected<std::optional<Tag>> next(std::string* text_out);
  // "PATH: not well-formed XML at byte N: what".
  Error error(const std::string& what) const;

 private:
  static Expected<std::string> decode(std::string_view raw);
  static bool name_char(char c);
  void spaces();
  std::string name();
  Expected<std::optional<Tag>> tag();

  std::string_view text_;
  std::string path_;
  size_t pos_ = 0;
};

}  // namespace bismuth::tools::runner
