#include "hlsl_num_waves_rewrite.hpp"

#include <algorithm>
#include <cctype>

#include "glsl_lexer.hpp"
#include "integer_macros.hpp"
#include "source_edits.hpp"

namespace bismuth::translator {

namespace {

constexpr std::string_view kWaveIndexIntrinsics[] = {"GetGroupWaveIndex", "GroupGetWaveIndex", "WaveGetWaveIndex"};
constexpr std::string_view kWaveCountIntrinsics[] = {"GetGroupNumWaves", "GroupGetWaveCount", "GetGroupWaveCount",
                                                     "WaveGetNumWaves"};

// The system values a numWaves entry point may not use (proposal 0054), with what replaces each.
struct ForbiddenSemantic {
  std::string_view name;
  std::string_view replacement;
};
constexpr ForbiddenSemantic kForbiddenSemantics[] = {
    {"SV_DispatchThreadID", "use SV_GroupID, GetGroupWaveIndex() and WaveGetLaneIndex()"},
    {"SV_GroupThreadID", "use GetGroupWaveIndex() and WaveGetLaneIndex()"},
    {"SV_GroupIndex", "use GetGroupWaveIndex() * WaveGetLaneCount() + WaveGetLaneIndex()"}};

// HLSL attribute and semantic names are case-insensitive.
bool same_name(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

template <size_t N>
bool one_of(std::string_view name, const std::string_view (&names)[N]) {
  return std::find(std::begin(names), std::end(names), name) != std::end(names);
}

bool is_power_of_two(uint64_t v) {
  return v != 0 && (v & (v - 1)) == 0;
}

// `[name(args)]`: tokens [open, close] are the brackets; args split at commas.
struct Attribute {
  size_t open;
  size_t close;
  const GlslToken* name;
  std::vector<std::vector<const GlslToken*>> args;
};

}  // namespace

HlslNumWavesRewrite rewrite_hlsl_num_waves(std::string_view source, std::string_view entry_point,
                                           std::string_view source_name) {
  HlslNumWavesRewrite result;
  result.source = std::string(source);
  const std::vector<GlslToken> tokens = lex_glsl(source);
  const IntegerMacros macros(tokens);
  auto error = [&](const GlslToken& at, std::string message) {
    result.diagnostics.push_back(
        {Diagnostic::Severity::Error, std::string(source_name), at.line, at.column, std::move(message)});
  };
  auto warning = [&](const GlslToken& at, std::string message) {
    result.diagnostics.push_back(
        {Diagnostic::Severity::Warning, std::string(source_name), at.line, at.column, std::move(message)});
  };

  // Attributes at file scope attach to the next function; keep the entry point's.
  std::vector<Attribute> pending;
  std::vector<Attribute> entry_attributes;
  std::vector<const GlslToken*> wave_count_uses;
  std::vector<std::pair<const GlslToken*, const ForbiddenSemantic*>> semantic_uses;
  int depth = 0;  // braces, parentheses and brackets
  for (size_t i = 0; i < tokens.size(); ++i) {
    const GlslToken& t = tokens[i];
    if (t.kind == GlslToken::Kind::Directive) continue;
    const bool file_scope = depth == 0;
    // An attribute `[name(...)]` starts where a declaration can: not after an identifier or `]` of an array.
    if (file_scope && t.text == "[" && i + 1 < tokens.size() && tokens[i + 1].kind == GlslToken::Kind::Identifier &&
        (i == 0 || tokens[i - 1].text == ";" || tokens[i - 1].text == "}" || tokens[i - 1].text == "]" ||
         tokens[i - 1].kind == GlslToken::Kind::Directive)) {
      Attribute a{i, i, &tokens[i + 1], {}};
      size_t k = i + 2;
      if (k < tokens.size() && tokens[k].text == "(") {
        a.args.emplace_back();
        int nesting = 0;
        for (++k; k < tokens.size(); ++k) {
          if (tokens[k].text == "(") ++nesting;
          if (tokens[k].text == ")" && nesting-- == 0) break;
          if (tokens[k].text == "," && nesting == 0) {
            a.args.emplace_back();
            continue;
          }
          a.args.back().push_back(&tokens[k]);
        }
        ++k;
      }
      if (k < tokens.size() && tokens[k].text == "]") {
        a.close = k;
        pending.push_back(std::move(a));
        i = k;
        continue;
      }
    }
    if (t.text == "{" || t.text == "(" || t.text == "[") ++depth;
    if (t.text == "}" || t.text == ")" || t.text == "]") --depth;
    if (file_scope && t.kind == GlslToken::Kind::Identifier && i + 1 < tokens.size() && tokens[i + 1].text == "(") {
      // A function declaration or definition at file scope.
      if (t.text == entry_point) {
        result.entry_found = true;
        entry_attributes.insert(entry_attributes.end(), pending.begin(), pending.end());
      }
      pending.clear();
    }
    if (file_scope && t.text == ";") pending.clear();
    if (t.kind != GlslToken::Kind::Identifier) continue;
    if (one_of(t.text, kWaveIndexIntrinsics)) result.uses_wave_index = true;
    if (one_of(t.text, kWaveCountIntrinsics)) wave_count_uses.push_back(&t);
    for (const ForbiddenSemantic& s : kForbiddenSemantics) {
      if (same_name(t.text, s.name)) semantic_uses.emplace_back(&t, &s);
    }
  }

  std::vector<SourceEdit> replacements;
  auto span_of = [&](size_t first, size_t last) {
    const size_t begin = tokens[first].offset;
    return std::pair(begin, tokens[last].offset + tokens[last].text.size() - begin);
  };
  // Blanks tokens [first, last], keeping line breaks.
  auto blank = [&](size_t first, size_t last) {
    auto [offset, length] = span_of(first, last);
    std::string text(source.substr(offset, length));
    for (char& c : text) c = c == '\n' ? '\n' : ' ';
    replacements.push_back({offset, length, std::move(text)});
  };
  auto single_literal = [&](const std::vector<const GlslToken*>& arg, const GlslToken& name,
                            const char* what) -> std::optional<uint64_t> {
    const GlslToken& at = arg.empty() ? name : *arg.front();
    auto v = arg.size() == 1 ? macros.integer_value(*arg.front()) : std::nullopt;
    if (!v) error(at, "'" + std::string(name.text) + "' takes " + what + " as an integer literal or a macro of one");
    return v;
  };

  const Attribute* num_waves = nullptr;
  const Attribute* num_threads = nullptr;
  NumWavesDeclaration declaration;
  bool valid = true;
  std::optional<Attribute> wave_size;
  for (const Attribute& a : entry_attributes) {
    if (same_name(a.name->text, "numWaves")) {
      num_waves = &a;
      if (a.args.size() != 1) {
        error(*a.name, "'numWaves' takes one argument, the number of waves in a group");
        valid = false;
        continue;
      }
      if (!a.args[0].empty() && a.args[0].front()->text == "-") {
        error(*a.args[0].front(), "'numWaves' must be a positive integer");
        valid = false;
        continue;
      }
      auto x = single_literal(a.args[0], *a.name, "the number of waves");
      if (x && (*x == 0 || *x > UINT32_MAX)) {
        error(*a.args[0].front(), "'numWaves' must be a positive integer, not " + std::string(a.args[0].front()->text));
        valid = false;
      } else if (!x) {
        valid = false;
      } else {
        declaration.num_waves = static_cast<uint32_t>(*x);
      }
      // Keep the attribute where it was: glslang gets a 1x1x1 group the caller makes specializable.
      auto [offset, length] = span_of(a.open, a.close);
      std::string text = "[numthreads(1, 1, 1)]";
      replacements.push_back({offset, length, text});
    } else if (same_name(a.name->text, "numthreads")) {
      num_threads = &a;
    } else if (same_name(a.name->text, "WaveSize")) {
      wave_size = a;
    }
  }
  if (num_waves && num_threads) {
    const Attribute& later = num_waves->open > num_threads->open ? *num_waves : *num_threads;
    error(*later.name, "'numWaves' and 'numthreads' cannot both be given on an entry point (proposal 0054)");
    valid = false;
  }
  if (wave_size) {
    blank(wave_size->open, wave_size->close);
    if (!num_waves) {
      warning(*wave_size->name, "'WaveSize' is honoured only on a [numWaves] entry point; ignored");
    } else if (wave_size->args.empty() || wave_size->args.size() > 3) {
      error(*wave_size->name, "'WaveSize' takes one, two or three arguments");
      valid = false;
    } else {
      std::vector<uint32_t> sizes;
      for (const auto& arg : wave_size->args) {
        auto v = single_literal(arg, *wave_size->name, "wave sizes");
        // Shader Model 6.6/6.8: each a power of two from 4 to 128.
        if (v && (!is_power_of_two(*v) || *v < 4 || *v > 128)) {
          error(*arg.front(),
                "'WaveSize' values must be powers of two from 4 to 128, not " + std::string(arg.front()->text));
          v.reset();
        }
        if (!v) {
          valid = false;
          break;
        }
        sizes.push_back(static_cast<uint32_t>(*v));
      }
      if (sizes.size() == wave_size->args.size()) {
        declaration.wave_size_min = sizes[0];
        declaration.wave_size_max = sizes.size() > 1 ? sizes[1] : sizes[0];
        if (sizes.size() > 1 && sizes[0] >= sizes[1]) {
          error(*wave_size->args[1].front(), "'WaveSize' minimum must be less than its maximum");
          valid = false;
        }
        if (sizes.size() == 3) {
          declaration.wave_size_preferred = sizes[2];
          if (sizes[2] < sizes[0] || sizes[2] > sizes[1]) {
            error(*wave_size->args[2].front(), "'WaveSize' preferred size must lie between its minimum and maximum");
            valid = false;
          }
        }
      }
    }
  }
  if (num_waves) {
    for (const auto& [use, semantic] : semantic_uses) {
      error(*use, "'" + std::string(use->text) + "' cannot be used in a [numWaves] entry point (" +
                      std::string(semantic->replacement) + ")");
    }
    if (valid) result.declaration = declaration;
  } else {
    for (const GlslToken* use : wave_count_uses) {
      error(*use, "'" + std::string(use->text) +
                      "' is a constant only in a [numWaves(X)] entry point's shader; the entry point has none");
    }
  }

  for (std::string_view name : kWaveIndexIntrinsics) {
    result.preamble += "#define " + std::string(name) + "() " + std::string(kSubgroupIdMarker) + "\n";
  }
  if (result.declaration) {
    for (std::string_view name : kWaveCountIntrinsics) {
      result.preamble += "#define " + std::string(name) + "() (" + std::to_string(declaration.num_waves) + "u)\n";
    }
  }
  if (result.uses_wave_index) result.preamble += "static uint " + std::string(kSubgroupIdMarker) + ";\n";

  apply_source_edits(result.source, std::move(replacements));
  sort_by_position(result.diagnostics);
  return result;
}

}  // namespace bismuth::translator
