// `#extension NAME : BEHAVIOR` directives as the source-level rewrites read them (GLSL 4.60 §3.3): which behaviour
// an extension has at a point of the source, the last directive naming it (or `all`) before that point deciding.
#pragma once

#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "glsl_lexer.hpp"

namespace bismuth::translator {

enum class ExtensionBehavior { Disable, Warn, Enable, Require };

// Splits a directive line "#extension NAME : BEHAVIOR" into its parts; nullopt for any other directive.
std::optional<std::pair<std::string_view, std::string_view>> parse_extension_directive(std::string_view line);

std::optional<ExtensionBehavior> parse_extension_behavior(std::string_view text);

// The directives of one extension in source order; `all : disable|warn` counts too (`all : enable|require` is an
// error glslang reports). `directive_tokens` gets the directives that name the extension itself, for blanking.
class ExtensionDirectives {
 public:
  ExtensionDirectives(const std::vector<GlslToken>& tokens, std::string_view extension,
                      std::vector<const GlslToken*>* directive_tokens = nullptr);
  ExtensionBehavior behavior_at(size_t offset) const;
  bool ever_enabled() const;  // some directive enables, requires or warns about the extension

 private:
  struct Directive {
    size_t offset;
    ExtensionBehavior behavior;
  };
  std::vector<Directive> directives_;
};

}  // namespace bismuth::translator
