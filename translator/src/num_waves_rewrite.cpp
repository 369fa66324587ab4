#include "num_waves_rewrite.hpp"

#include <algorithm>

#include "extension_directive.hpp"
#include "glsl_lexer.hpp"
#include "integer_macros.hpp"
#include "source_edits.hpp"

namespace bismuth::translator {

namespace {

constexpr std::string_view kExtension = "GL_BISMUTH_num_waves";

// The built-ins the extension adds, and what each stands for in the module (the wave count is the preamble's
// literal, declared separately).
struct WaveBuiltin {
  std::string_view name;
  std::string_view subgroup_name;
};
constexpr WaveBuiltin kWaveBuiltins[] = {{"gl_WaveIndex", "gl_SubgroupID"},
                                         {"gl_WaveLaneIndex", "gl_SubgroupInvocationID"},
                                         {"gl_WaveSize", "gl_SubgroupSize"}};

// The built-ins a num_waves shader may not use, each with what replaces it.
struct ForbiddenBuiltin {
  std::string_view name;
  std::string_view replacement;
};
constexpr ForbiddenBuiltin kForbiddenBuiltins[] = {
    {"gl_GlobalInvocationID", "use gl_WorkGroupID, gl_WaveIndex and gl_WaveLaneIndex"},
    {"gl_LocalInvocationID", "use gl_WaveIndex and gl_WaveLaneIndex"},
    {"gl_LocalInvocationIndex", "use gl_WaveIndex * gl_WaveSize + gl_WaveLaneIndex"},
    {"gl_WorkGroupSize", "the group has gl_NumWaves * gl_WaveSize invocations along x"}};

bool is_group_size_qualifier(std::string_view q) {
  return q == "local_size_x" || q == "local_size_y" || q == "local_size_z" || q == "local_size_x_id" ||
         q == "local_size_y_id" || q == "local_size_z_id" || q == "local_size_variable";
}

bool is_num_waves_qualifier(std::string_view q) {
  return q == "num_waves" || q == "wave_size_min" || q == "wave_size_max";
}

bool is_power_of_two(uint64_t v) {
  return v != 0 && (v & (v - 1)) == 0;
}

// One qualifier of a layout list: `name` or `name = value...`, tokens [first, end).
struct Qualifier {
  size_t first;
  size_t end;
};

}  // namespace

NumWavesRewrite rewrite_num_waves(std::string_view source, std::string_view size_layout, std::string_view source_name) {
  NumWavesRewrite result;
  result.source = std::string(source);
  result.preamble = "#define " + std::string(kExtension) + " 1\n";
  const std::vector<GlslToken> tokens = lex_glsl(source);
  const IntegerMacros macros(tokens);

  auto error = [&](const GlslToken& at, std::string message) {
    result.diagnostics.push_back(
        {Diagnostic::Severity::Error, std::string(source_name), at.line, at.column, std::move(message)});
  };
  std::vector<SourceEdit> replacements;  // applied back to front so earlier offsets stay valid

  std::vector<const GlslToken*> directive_tokens;
  const ExtensionDirectives directives(tokens, kExtension, &directive_tokens);
  for (const GlslToken* token : directive_tokens) {
    // glslang does not know the extension: hide the directive from it, keeping the line (spaces only).
    replacements.push_back({token->offset, token->text.size(), std::string(token->text.size(), ' ')});
  }
  auto check_enabled = [&](const GlslToken& token) {
    const ExtensionBehavior behavior = directives.behavior_at(token.offset);
    if (behavior == ExtensionBehavior::Disable) {
      error(token, "'" + std::string(token.text) + "' requires #extension " + std::string(kExtension));
    } else if (behavior == ExtensionBehavior::Warn) {
      result.diagnostics.push_back({Diagnostic::Severity::Warning, std::string(source_name), token.line, token.column,
                                    "'" + std::string(token.text) + "' uses extension " + std::string(kExtension)});
    }
  };

  const GlslToken* num_waves_token = nullptr;   // the first num_waves qualifier
  const GlslToken* group_size_token = nullptr;  // the first local_size_* qualifier
  const GlslToken* wave_size_token = nullptr;   // the first wave_size_min/max qualifier
  std::optional<NumWavesDeclaration> declared;
  std::vector<const GlslToken*> num_waves_uses;
  std::vector<std::pair<const GlslToken*, const ForbiddenBuiltin*>> forbidden_uses;

  // `layout(q, ...) in;`: the value of `name = value` as a positive integer literal, or an error at the value.
  auto literal_value = [&](const Qualifier& q, const char* what) -> std::optional<uint64_t> {
    const GlslToken& name = tokens[q.first];
    if (q.end - q.first < 3 || tokens[q.first + 1].text != "=") {
      error(name, "'" + std::string(name.text) + "' needs a value (" + what + ")");
      return std::nullopt;
    }
    const GlslToken& value = tokens[q.first + 2];
    if (value.text == "-" || value.text == "+") {
      error(value, "'" + std::string(name.text) + "' must be " + what);
      return std::nullopt;
    }
    auto v = q.end - q.first == 3 ? macros.integer_value(value) : std::nullopt;
    if (!v) {
      error(value, "'" + std::string(name.text) + "' must be an integer literal or a macro of one (" + what + ")");
      return std::nullopt;
    }
    return v;
  };

  for (size_t i = 0; i < tokens.size(); ++i) {
    const GlslToken& token = tokens[i];
    if (token.kind != GlslToken::Kind::Identifier) continue;

    if (token.text == "layout" && i + 1 < tokens.size() && tokens[i + 1].text == "(") {
      size_t close = i + 2;
      while (close < tokens.size() && tokens[close].text != ")") ++close;
      const bool applies_to_input =
          close + 2 < tokens.size() && tokens[close + 1].text == "in" && tokens[close + 2].text == ";";
      if (!applies_to_input) continue;
      std::vector<Qualifier> qualifiers;
      for (size_t k = i + 2; k < close;) {
        size_t end = k;
        while (end < close && tokens[end].text != ",") ++end;
        if (end > k) qualifiers.push_back({k, end});
        k = end + 1;
      }
      bool has_ours = false;
      std::vector<std::string> kept;
      NumWavesDeclaration here;
      bool here_num_waves = false;
      for (const Qualifier& q : qualifiers) {
        const GlslToken& name = tokens[q.first];
        if (is_group_size_qualifier(name.text) && group_size_token == nullptr) group_size_token = &name;
        if (!is_num_waves_qualifier(name.text)) {
          const GlslToken& last = tokens[q.end - 1];
          kept.emplace_back(source.substr(name.offset, last.offset + last.text.size() - name.offset));
          continue;
        }
        has_ours = true;
        check_enabled(name);
        if (name.text == "num_waves") {
          if (num_waves_token == nullptr) num_waves_token = &name;
          here_num_waves = true;
          auto v = literal_value(q, "a positive integer");
          if (v && (*v == 0 || *v > UINT32_MAX)) {
            error(tokens[q.first + 2],
                  "'num_waves' must be a positive integer, not " + std::string(tokens[q.first + 2].text));
          } else if (v) {
            here.num_waves = static_cast<uint32_t>(*v);
          }
        } else {
          if (wave_size_token == nullptr) wave_size_token = &name;
          auto v = literal_value(q, "a power of two");
          if (v && (!is_power_of_two(*v) || *v > UINT32_MAX)) {
            error(tokens[q.first + 2], "'" + std::string(name.text) + "' must be a power of two, not " +
                                           std::string(tokens[q.first + 2].text));
          } else if (v) {
            (name.text == "wave_size_min" ? here.wave_size_min : here.wave_size_max) = static_cast<uint32_t>(*v);
          }
        }
      }
      if (has_ours) {
        // Every num_waves declaration of a shader states the same values (as GLSL 4.60 §4.4.1.4 asks of the
        // local size); a later one may add the wave-size range.
        NumWavesDeclaration merged = declared.value_or(NumWavesDeclaration{});
        const GlslToken& at = tokens[i];
        auto merge = [&](uint32_t& into, uint32_t value, const char* name) {
          if (value == 0) return;
          if (into != 0 && into != value) {
            error(at, std::string("conflicting '") + name + "' declarations: " + std::to_string(into) + " and " +
                          std::to_string(value));
          }
          into = value;
        };
        merge(merged.num_waves, here.num_waves, "num_waves");
        merge(merged.wave_size_min, here.wave_size_min, "wave_size_min");
        merge(merged.wave_size_max, here.wave_size_max, "wave_size_max");
        declared = merged;  // a wave-size range alone is checked below against the num_waves declaration
        if (here_num_waves) kept.emplace_back(size_layout);
        const GlslToken& semicolon = tokens[close + 2];
        const std::string_view original =
            source.substr(token.offset, semicolon.offset + semicolon.text.size() - token.offset);
        std::string text;
        if (!kept.empty()) {
          text = "layout(";
          for (size_t k = 0; k < kept.size(); ++k) text += (k ? ", " : "") + kept[k];
          text += ") in;";
        }
        // Keep the statement's line breaks so the lines after it stay where the user wrote them.
        text.append(static_cast<size_t>(std::count(original.begin(), original.end(), '\n')), '\n');
        replacements.push_back({token.offset, original.size(), std::move(text)});
      }
      i = close;
      continue;
    }

    if (token.text == "gl_NumWaves") {
      check_enabled(token);
      num_waves_uses.push_back(&token);
      continue;
    }
    for (const WaveBuiltin& b : kWaveBuiltins) {
      if (token.text == b.name) check_enabled(token);
    }
    for (const ForbiddenBuiltin& f : kForbiddenBuiltins) {
      if (token.text == f.name) forbidden_uses.emplace_back(&token, &f);
    }
  }

  if (num_waves_token != nullptr) {
    if (group_size_token != nullptr) {
      const GlslToken& later =
          group_size_token->offset > num_waves_token->offset ? *group_size_token : *num_waves_token;
      error(later,
            "a compute shader cannot declare both 'num_waves' and a local group size (local_size_x/y/z, "
            "local_size_x/y/z_id or local_size_variable)");
    }
    for (const auto& [use, forbidden] : forbidden_uses) {
      error(*use, "'" + std::string(forbidden->name) + "' cannot be used in a shader that declares num_waves (" +
                      std::string(forbidden->replacement) + ")");
    }
    if (declared && declared->wave_size_min != 0 && declared->wave_size_max != 0 &&
        declared->wave_size_min > declared->wave_size_max) {
      error(wave_size_token != nullptr ? *wave_size_token : *num_waves_token,
            "'wave_size_min' (" + std::to_string(declared->wave_size_min) + ") is larger than 'wave_size_max' (" +
                std::to_string(declared->wave_size_max) + ")");
    }
    if (declared && declared->num_waves != 0) result.declaration = declared;
  } else {
    if (wave_size_token != nullptr) {
      error(*wave_size_token, "'" + std::string(wave_size_token->text) +
                                  "' needs a 'num_waves' declaration in the same shader (layout(num_waves = X) in;)");
    }
    for (const GlslToken* use : num_waves_uses) {
      if (directives.behavior_at(use->offset) == ExtensionBehavior::Disable) continue;  // reported above
      error(*use, "'gl_NumWaves' needs a 'num_waves' declaration in the same shader (layout(num_waves = X) in;)");
    }
  }

  if (directives.ever_enabled()) {
    result.preamble += "#extension GL_KHR_shader_subgroup_basic : enable\n";
    for (const WaveBuiltin& b : kWaveBuiltins) {
      result.preamble += "#define " + std::string(b.name) + " " + std::string(b.subgroup_name) + "\n";
    }
    if (result.declaration)
      result.preamble += "#define gl_NumWaves " + std::to_string(result.declaration->num_waves) + "u\n";
  }

  apply_source_edits(result.source, std::move(replacements));
  sort_by_position(result.diagnostics);
  return result;
}

}  // namespace bismuth::translator
