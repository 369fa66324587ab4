#include "variable_group_size_rewrite.hpp"

#include <algorithm>

#include "extension_directive.hpp"
#include "glsl_lexer.hpp"
#include "source_edits.hpp"

namespace bismuth::translator {

namespace {

constexpr std::string_view kExtension = "GL_ARB_compute_variable_group_size";

bool is_type_keyword(std::string_view t) {
  static constexpr std::string_view kTypes[] = {
      "bool",  "int",   "uint",    "float", "double",   "vec2",     "vec3",     "vec4",     "ivec2",     "ivec3",
      "ivec4", "uvec2", "uvec3",   "uvec4", "bvec2",    "bvec3",    "bvec4",    "dvec2",    "dvec3",     "dvec4",
      "mat2",  "mat3",  "mat4",    "dmat2", "dmat3",    "dmat4",    "int64_t",  "uint64_t", "float16_t", "shared",
      "const", "highp", "mediump", "lowp",  "coherent", "volatile", "restrict", "readonly", "writeonly"};
  return std::find(std::begin(kTypes), std::end(kTypes), t) != std::end(kTypes);
}

bool is_statement_keyword(std::string_view t) {
  return t == "return" || t == "else" || t == "case" || t == "do";
}

}  // namespace

std::string spec_constant_size_layout(const std::array<uint32_t, 3>& spec_ids) {
  return "local_size_x_id = " + std::to_string(spec_ids[0]) + ", local_size_y_id = " + std::to_string(spec_ids[1]) +
         ", local_size_z_id = " + std::to_string(spec_ids[2]);
}

VariableGroupSizeRewrite rewrite_variable_group_size(std::string_view source, std::string_view variable_size_layout,
                                                     std::string_view source_name) {
  VariableGroupSizeRewrite result;
  result.source = std::string(source);
  const std::vector<GlslToken> tokens = lex_glsl(source);

  auto diagnose = [&](Diagnostic::Severity severity, const GlslToken& at, std::string message) {
    result.diagnostics.push_back({severity, std::string(source_name), at.line, at.column, std::move(message)});
  };
  // Replacements are applied back to front at the end so earlier offsets stay valid.
  std::vector<SourceEdit> replacements;

  std::vector<const GlslToken*> directive_tokens;
  const ExtensionDirectives directives(tokens, kExtension, &directive_tokens);
  for (const GlslToken* token : directive_tokens) {
    // glslang does not know the extension: hide the directive from it, keeping the line (spaces only).
    replacements.push_back({token->offset, token->text.size(), std::string(token->text.size(), ' ')});
  }
  // Uses of the extension's features: an error when disabled, a warning under `warn`.
  auto check_enabled = [&](const GlslToken& token) {
    const ExtensionBehavior behavior = directives.behavior_at(token.offset);
    if (behavior == ExtensionBehavior::Disable) {
      diagnose(Diagnostic::Severity::Error, token,
               "'" + std::string(token.text) + "' requires #extension " + std::string(kExtension));
    } else if (behavior == ExtensionBehavior::Warn) {
      diagnose(Diagnostic::Severity::Warning, token,
               "'" + std::string(token.text) + "' uses extension " + std::string(kExtension));
    }
  };

  const GlslToken* fixed_declaration = nullptr;
  const GlslToken* variable_declaration = nullptr;
  std::vector<const GlslToken*> work_group_size_uses;

  for (size_t i = 0; i < tokens.size(); ++i) {
    const GlslToken& token = tokens[i];
    if (token.kind != GlslToken::Kind::Identifier) continue;

    if (token.text == "layout" && i + 1 < tokens.size() && tokens[i + 1].text == "(") {
      // Find the closing parenthesis and what the qualifier applies to (`in` for the group size).
      size_t close = i + 2;
      while (close < tokens.size() && tokens[close].text != ")") ++close;
      const bool applies_to_input =
          close + 2 < tokens.size() && tokens[close + 1].text == "in" && tokens[close + 2].text == ";";
      if (!applies_to_input) continue;
      for (size_t k = i + 2; k < close; ++k) {
        const GlslToken& q = tokens[k];
        if (q.text == "local_size_variable") {
          check_enabled(q);
          if (!variable_declaration) variable_declaration = &q;
          replacements.push_back({q.offset, q.text.size(), std::string(variable_size_layout)});
        } else if (q.text == "local_size_x" || q.text == "local_size_y" || q.text == "local_size_z" ||
                   q.text == "local_size_x_id" || q.text == "local_size_y_id" || q.text == "local_size_z_id") {
          if (!fixed_declaration) fixed_declaration = &q;
        }
      }
      i = close;
      continue;
    }

    if (token.text == "gl_WorkGroupSize") {
      work_group_size_uses.push_back(&token);
      continue;
    }

    if (token.text == "gl_LocalGroupSizeARB") {
      check_enabled(token);
      // gl_LocalGroupSizeARB is an input, never a constant expression: it cannot size an array. Catch the
      // declaration form `type name[ ... gl_LocalGroupSizeARB ... ]` (indexing, `a[gl_LocalGroupSizeARB.x]` in
      // an expression, stays legal).
      int depth = 0;
      for (size_t k = i; k-- > 0;) {
        const std::string_view t = tokens[k].text;
        if (t == "]") ++depth;
        if (t == ";" || t == "{" || t == "}") break;
        if (t == "[" && depth-- == 0) {
          const bool declares =
              k >= 2 && tokens[k - 1].kind == GlslToken::Kind::Identifier &&
              !is_statement_keyword(tokens[k - 2].text) &&
              (tokens[k - 2].kind == GlslToken::Kind::Identifier || is_type_keyword(tokens[k - 2].text));
          const bool unnamed = k >= 1 && is_type_keyword(tokens[k - 1].text);  // `uint[gl_LocalGroupSizeARB.x]`
          if (declares || unnamed) {
            diagnose(Diagnostic::Severity::Error, token,
                     "'gl_LocalGroupSizeARB' is not a constant expression and cannot size an array "
                     "(use gl_WorkGroupSize in a shader with a fixed local group size)");
          }
          break;
        }
      }
      // Same length as the original token, so columns after it on the line stay where they were.
      std::string replacement = "gl_WorkGroupSize";
      replacement.resize(token.text.size(), ' ');
      replacements.push_back({token.offset, token.text.size(), std::move(replacement)});
    }
  }

  if (fixed_declaration && variable_declaration) {
    const GlslToken& later =
        fixed_declaration->offset > variable_declaration->offset ? *fixed_declaration : *variable_declaration;
    diagnose(Diagnostic::Severity::Error, later,
             "a compute shader cannot declare both a fixed (local_size_x/y/z) and a variable "
             "(local_size_variable) local group size");
  }
  if (variable_declaration) {
    result.declaration = GroupSizeDeclaration::Variable;
    for (const GlslToken* use : work_group_size_uses) {
      diagnose(Diagnostic::Severity::Error, *use,
               "'gl_WorkGroupSize' cannot be used in a shader with a variable local group size "
               "(use gl_LocalGroupSizeARB)");
    }
  } else if (fixed_declaration) {
    result.declaration = GroupSizeDeclaration::Fixed;
  }

  apply_source_edits(result.source, std::move(replacements));
  sort_by_position(result.diagnostics);
  return result;
}

}  // namespace bismuth::translator
