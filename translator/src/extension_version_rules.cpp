#include "extension_version_rules.hpp"

#include <algorithm>
#include <array>

#include "glsl_lexer.hpp"

namespace bismuth::translator {

namespace {

struct VersionRule {
  std::string_view name;
  int lowest_desktop;  // the lowest desktop GLSL version the extension applies to
  int lowest_es;       // the lowest GLSL ES version (0: none)
  std::string_view rule;
};

constexpr std::array kVersionRules = {
    VersionRule{"GL_NV_compute_shader_derivatives", 450, 320,
                "it can be applied to GLSL 4.50 (#version 450) and higher and to GLSL ES 3.20 (#version 320 es) and "
                "higher (NV_compute_shader_derivatives, Dependencies)"},
};

}  // namespace

ExtensionVersionCheck check_extension_versions(std::string_view source, int user_version, bool es,
                                               std::string_view source_name) {
  ExtensionVersionCheck result;
  result.source = std::string(source);
  if (user_version == 0) return result;
  for (const GlslToken& token : lex_glsl(source)) {
    if (token.kind != GlslToken::Kind::Directive) continue;
    const std::vector<GlslToken> parts = lex_glsl(token.text.substr(1));
    if (parts.size() != 4 || parts[0].text != "extension" || parts[2].text != ":") continue;
    auto rule = std::find_if(kVersionRules.begin(), kVersionRules.end(),
                             [&](const VersionRule& r) { return r.name == parts[1].text; });
    if (rule == kVersionRules.end()) continue;
    const int lowest = es ? rule->lowest_es : rule->lowest_desktop;
    if (lowest != 0 && user_version >= lowest) continue;
    const std::string_view behavior = parts[3].text;
    // A behavior GLSL does not have is glslang's error to report; `disable` of an extension that is off is no news.
    if (behavior != "require" && behavior != "enable" && behavior != "warn") continue;
    result.diagnostics.push_back({behavior == "require" ? Diagnostic::Severity::Error : Diagnostic::Severity::Warning,
                                  std::string(source_name), token.line, token.column + 1 + parts[1].column - 1,
                                  "extension '" + std::string(rule->name) + "' is not supported at #version " +
                                      std::to_string(user_version) + (es ? " es" : "") + ": " +
                                      std::string(rule->rule)});
    std::string blank(token.text);  // a continued directive keeps its newlines
    std::replace_if(
        blank.begin(), blank.end(), [](char c) { return c != '\n'; }, ' ');
    result.source.replace(token.offset, token.text.size(), blank);
  }
  return result;
}

}  // namespace bismuth::translator
