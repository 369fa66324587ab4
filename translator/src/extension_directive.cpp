#include "extension_directive.hpp"

namespace bismuth::translator {

std::optional<std::pair<std::string_view, std::string_view>> parse_extension_directive(std::string_view line) {
  std::vector<GlslToken> parts = lex_glsl(line.substr(1));  // drop '#': the rest lexes as ordinary tokens
  if (parts.size() != 4 || parts[0].text != "extension" || parts[2].text != ":") return std::nullopt;
  return std::make_pair(parts[1].text, parts[3].text);
}

std::optional<ExtensionBehavior> parse_extension_behavior(std::string_view text) {
  if (text == "require") return ExtensionBehavior::Require;
  if (text == "enable") return ExtensionBehavior::Enable;
  if (text == "warn") return ExtensionBehavior::Warn;
  if (text == "disable") return ExtensionBehavior::Disable;
  return std::nullopt;
}

ExtensionDirectives::ExtensionDirectives(const std::vector<GlslToken>& tokens, std::string_view extension,
                                         std::vector<const GlslToken*>* directive_tokens) {
  for (const GlslToken& token : tokens) {
    if (token.kind != GlslToken::Kind::Directive) continue;
    auto directive = parse_extension_directive(token.text);
    if (!directive) continue;
    const auto [name, behavior_text] = *directive;
    if (name != extension && name != "all") continue;
    auto behavior = parse_extension_behavior(behavior_text);
    if (!behavior) continue;  // glslang reports malformed directives itself
    if (name == "all" && (*behavior == ExtensionBehavior::Enable || *behavior == ExtensionBehavior::Require)) continue;
    directives_.push_back({token.offset, *behavior});
    if (name == extension && directive_tokens != nullptr) directive_tokens->push_back(&token);
  }
}

ExtensionBehavior ExtensionDirectives::behavior_at(size_t offset) const {
  ExtensionBehavior behavior = ExtensionBehavior::Disable;
  for (const Directive& d : directives_) {
    if (d.offset < offset) behavior = d.behavior;
  }
  return behavior;
}

bool ExtensionDirectives::ever_enabled() const {
  for (const Directive& d : directives_) {
    if (d.behavior != ExtensionBehavior::Disable) return true;
  }
  return false;
}

}  // namespace bismuth::translator
