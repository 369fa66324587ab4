#include "xml_reader.hpp"

#include <cctype>
#include <cstdlib>

namespace bismuth::tools::runner {

Error XmlReader::error(const std::string& what) const {
  return fail(path_ + ": not well-formed XML at byte " + std::to_string(pos_) + ": " + what);
}

Expected<std::string> XmlReader::decode(std::string_view raw) {
  std::string out;
  for (size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] != '&') {
      out.push_back(raw[i]);
      continue;
    }
    const size_t semi = raw.find(';', i);
    if (semi == std::string_view::npos) return fail("an '&' without ';'");
    const std::string_view entity = raw.substr(i + 1, semi - i - 1);
    if (entity == "lt")
      out += '<';
    else if (entity == "gt")
      out += '>';
    else if (entity == "amp")
      out += '&';
    else if (entity == "quot")
      out += '"';
    else if (entity == "apos")
      out += '\'';
    else if (entity.size() > 1 && entity[0] == '#') {
      const bool hex = entity[1] == 'x';
      const std::string digits(entity.substr(hex ? 2 : 1));
      char* end = nullptr;
      const unsigned long code = std::strtoul(digits.c_str(), &end, hex ? 16 : 10);
      if (digits.empty() || *end != '\0' || code == 0 || code > 0x10FFFF) {
        return fail("bad character reference &" + std::string(entity) + ";");
      }
      // UTF-8 encoding of the code point.
      if (code < 0x80) {
        out.push_back(static_cast<char>(code));
      } else if (code < 0x800) {
        out.push_back(static_cast<char>(0xC0 | (code >> 6)));
        out.push_back(static_cast<char>(0x80 | (code & 0x3F)));
      } else if (code < 0x10000) {
        out.push_back(static_cast<char>(0xE0 | (code >> 12)));
        out.push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (code & 0x3F)));
      } else {
        out.push_back(static_cast<char>(0xF0 | (code >> 18)));
        out.push_back(static_cast<char>(0x80 | ((code >> 12) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (code & 0x3F)));
      }
    } else {
      return fail("unknown entity &" + std::string(entity) + ";");
    }
    i = semi;
  }
  return out;
}

Expected<std::optional<XmlReader::Tag>> XmlReader::next(std::string* text_out) {
  while (pos_ < text_.size()) {
    if (text_[pos_] != '<') {
      const size_t lt = text_.find('<', pos_);
      const std::string_view raw =
          text_.substr(pos_, lt == std::string_view::npos ? std::string_view::npos : lt - pos_);
      auto decoded = decode(raw);
      if (!decoded) return error(decoded.error().message);
      *text_out += *decoded;
      pos_ = lt == std::string_view::npos ? text_.size() : lt;
      continue;
    }
    auto skip_to = [&](std::string_view end, const char* what) -> Expected<void> {
      const size_t at = text_.find(end, pos_);
      if (at == std::string_view::npos) return error(std::string("unterminated ") + what);
      pos_ = at + end.size();
      return {};
    };
    if (text_.substr(pos_, 4) == "<!--") {
      if (auto e = skip_to("-->", "comment"); !e) return e.error();
      continue;
    }
    if (text_.substr(pos_, 9) == "<![CDATA[") {
      const size_t at = text_.find("]]>", pos_);
      if (at == std::string_view::npos) return error("unterminated CDATA section");
      *text_out += std::string(text_.substr(pos_ + 9, at - pos_ - 9));
      pos_ = at + 3;
      continue;
    }
    if (text_.substr(pos_, 2) == "<?") {
      if (auto e = skip_to("?>", "processing instruction"); !e) return e.error();
      continue;
    }
    if (text_.substr(pos_, 2) == "<!") {
      if (auto e = skip_to(">", "declaration"); !e) return e.error();
      continue;
    }
    return tag();
  }
  return std::optional<Tag>();
}

bool XmlReader::name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.' || c == ':';
}
void XmlReader::spaces() {
  while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
}
std::string XmlReader::name() {
  const size_t start = pos_;
  while (pos_ < text_.size() && name_char(text_[pos_])) ++pos_;
  return std::string(text_.substr(start, pos_ - start));
}

Expected<std::optional<XmlReader::Tag>> XmlReader::tag() {
  Tag t;
  ++pos_;  // '<'
  if (pos_ < text_.size() && text_[pos_] == '/') {
    t.kind = Tag::Kind::End;
    ++pos_;
  }
  t.name = name();
  if (t.name.empty()) return error("a tag without a name");
  while (true) {
    spaces();
    if (pos_ >= text_.size()) return error("unterminated tag <" + t.name + ">");
    if (text_[pos_] == '>') {
      ++pos_;
      return std::optional<Tag>(std::move(t));
    }
    if (text_.substr(pos_, 2) == "/>" && t.kind == Tag::Kind::Start) {
      pos_ += 2;
      t.kind = Tag::Kind::Empty;
      return std::optional<Tag>(std::move(t));
    }
    if (t.kind == Tag::Kind::End) return error("attributes in the end tag </" + t.name + ">");
    const std::string key = name();
    if (key.empty()) return error("bad attribute in <" + t.name + ">");
    spaces();
    if (pos_ >= text_.size() || text_[pos_] != '=') return error("attribute " + key + " without a value");
    ++pos_;
    spaces();
    if (pos_ >= text_.size() || (text_[pos_] != '"' && text_[pos_] != '\'')) return error("unquoted attribute " + key);
    const char quote = text_[pos_++];
    const size_t end = text_.find(quote, pos_);
    if (end == std::string_view::npos) return error("unterminated attribute " + key);
    auto value = decode(text_.substr(pos_, end - pos_));
    if (!value) return error(value.error().message);
    t.attributes[key] = *value;
    pos_ = end + 1;
  }
}

}  // namespace bismuth::tools::runner
