#include "nv_extension_rewrite.hpp"

#include "glsl_lexer.hpp"

namespace bismuth::translator {

NvExtensionRewrite rewrite_nv_extensions(std::string_view source, std::string_view source_name) {
  NvExtensionRewrite result;
  result.source = std::string(source);
  struct Edit {
    size_t offset;
    size_t length;
    std::string_view text;
  };
  std::vector<Edit> edits;  // in source order; applied back to front

  // Every name below starts with GL_NV_shader_, and a token's text is a piece of the source: without that text
  // nothing can match, and the source need not be lexed (most shaders; the front compiles every one through here).
  if (source.find("GL_NV_shader_") == std::string_view::npos) return result;
  for (const GlslToken& token : lex_glsl(source)) {
    if (token.kind != GlslToken::Kind::Directive) continue;
    std::vector<GlslToken> parts = lex_glsl(token.text.substr(1));
    if (parts.size() != 4 || parts[0].text != "extension" || parts[2].text != ":") continue;
    const std::string_view name = parts[1].text;
    const std::string_view behavior = parts[3].text;
    const size_t name_offset = token.offset + 1 + parts[1].offset;
    if (name == "GL_NV_shader_atomic_float") {
      edits.push_back({name_offset, name.size(), "GL_EXT_shader_atomic_float"});
    } else if ((name == "GL_NV_shader_thread_group" || name == "GL_NV_shader_thread_shuffle") &&
               (behavior == "require" || behavior == "enable")) {
      result.diagnostics.push_back(
          {Diagnostic::Severity::Error, std::string(source_name), token.line, token.column + 1 + parts[1].column - 1,
           "extension '" + std::string(name) +
               "' is NVIDIA-only and not supported: its functions assume 32-thread warps; use the "
               "GL_KHR_shader_subgroup_* extensions"});
    }
  }
  for (auto edit = edits.rbegin(); edit != edits.rend(); ++edit) {
    result.source.replace(edit->offset, edit->length, edit->text);
  }
  return result;
}

}  // namespace bismuth::translator
