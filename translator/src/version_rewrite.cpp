#include "version_rewrite.hpp"

#include <algorithm>
#include <optional>

#include "glsl_lexer.hpp"
#include "source_edits.hpp"

namespace bismuth::translator {

namespace {

constexpr std::string_view kComputeShader = "GL_ARB_compute_shader";
constexpr std::string_view kPack420 = "GL_ARB_shading_language_420pack";
constexpr std::string_view kAtomicCounters = "GL_ARB_shader_atomic_counters";
constexpr std::string_view kStorageBuffers = "GL_ARB_shader_storage_buffer_object";
constexpr std::string_view kImageLoadStore = "GL_ARB_shader_image_load_store";
constexpr std::string_view kFp64 = "GL_ARB_gpu_shader_fp64";
constexpr std::string_view kArraysOfArrays = "GL_ARB_arrays_of_arrays";
constexpr std::string_view kUniformLocation = "GL_ARB_explicit_uniform_location";
constexpr std::string_view kQueryLevels = "GL_ARB_texture_query_levels";

// glslang allows arrays of arrays from desktop GLSL 4.30 only and does not know GL_ARB_arrays_of_arrays; a shader
// below 4.30 that enables it is parsed at 430.
constexpr int kArraysOfArraysVersion = 430;

// Versions below 420 whose compute shaders glslang refuses and the front raises. All three digits wide, as 420 is.
bool is_raised_version(int version) {
  return version == 140 || version == 150 || version == 330 || version == 400 || version == 410;
}

struct ExtensionDirective {
  size_t offset;
  std::string_view name;  // or "all"
  bool enabled;           // enable, require or warn
};

bool is_image_type(std::string_view t) {
  if (t.starts_with("i") || t.starts_with("u")) t.remove_prefix(1);
  if (!t.starts_with("image")) return false;
  t.remove_prefix(5);
  static constexpr std::string_view kShapes[] = {"1D",      "2D",        "3D",     "Cube", "2DRect",   "1DArray",
                                                 "2DArray", "CubeArray", "Buffer", "2DMS", "2DMSArray"};
  return std::find(std::begin(kShapes), std::end(kShapes), t) != std::end(kShapes);
}

bool is_double_type(std::string_view t) {
  static constexpr std::string_view kTypes[] = {"double",  "dvec2",   "dvec3",   "dvec4",   "dmat2",   "dmat3",
                                                "dmat4",   "dmat2x2", "dmat2x3", "dmat2x4", "dmat3x2", "dmat3x3",
                                                "dmat3x4", "dmat4x2", "dmat4x3", "dmat4x4"};
  return std::find(std::begin(kTypes), std::end(kTypes), t) != std::end(kTypes);
}

// One rewrite: the #version and #extension directives, the GL rules a raised version must still enforce (each
// reported at the user's line), and the width-preserving text replacements.
class VersionRewriter {
 public:
  VersionRewriter(std::string_view source, std::string_view source_name)
      : source_(source), source_name_(source_name), tokens_(lex_glsl(source)) {
    result_.source = std::string(source);
  }

  VersionRewrite run() {
    scan_directives();
    if (version_token_ == nullptr || !read_version()) return std::move(result_);
    result_.user_version = version_;
    result_.glslang_version = version_;
    result_.es = profile_ && profile_->text == "es";
    if (result_.es) return std::move(result_);
    if (version_ >= 430) return std::move(result_);
    if (version_ < 140) {
      // glslang would fail to set up its built-ins for these versions; say plainly what the front accepts.
      diagnose(version_token_->line, part_column(version_number_),
               "compute shaders require #version 430, or #version 140 to 420 with #extension " +
                   std::string(kComputeShader) + " (this shader declares #version " + std::to_string(version_) + ")");
      return std::move(result_);
    }
    check_compute_and_atomics();
    const bool arrays_of_arrays = enabled(kArraysOfArrays, source_.size());
    if (!arrays_of_arrays && !is_raised_version(version_)) return std::move(result_);  // 420: compiled as written
    if (version_ < kLowestGlslangComputeVersion) check_raised_features();
    if (arrays_of_arrays) check_430_features();
    replace_version(arrays_of_arrays ? kArraysOfArraysVersion : kLowestGlslangComputeVersion);
    sort_by_position(result_.diagnostics);
    return std::move(result_);
  }

 private:
  void diagnose(int line, int column, std::string message) {
    result_.diagnostics.push_back(
        {Diagnostic::Severity::Error, std::string(source_name_), line, column, std::move(message)});
  }

  // The #version directive and the #extension directives, in source order.
  void scan_directives() {
    for (const GlslToken& token : tokens_) {
      if (token.kind != GlslToken::Kind::Directive) continue;
      std::vector<GlslToken> parts = lex_glsl(token.text.substr(1));  // drop '#'
      if (parts.empty()) continue;
      if (parts[0].text == "version" && version_token_ == nullptr && parts.size() >= 2 &&
          parts[1].kind == GlslToken::Kind::Number) {
        version_token_ = &token;
        version_number_ = parts[1];
        if (parts.size() >= 3) profile_ = parts[2];
      } else if (parts[0].text == "extension" && parts.size() == 4 && parts[2].text == ":") {
        const std::string_view behavior = parts[3].text;
        extensions_.push_back(
            {token.offset, parts[1].text, behavior == "enable" || behavior == "require" || behavior == "warn"});
      }
    }
  }

  bool read_version() {
    for (char c : version_number_.text) {
      if (c < '0' || c > '9' || version_ > 10000) return false;  // glslang reports a malformed #version itself
      version_ = version_ * 10 + (c - '0');
    }
    return true;
  }

  // Positions of parts of the #version directive in the user's source (a directive starts its line's tokens).
  int part_column(const GlslToken& part) const { return version_token_->column + 1 + part.column - 1; }

  bool enabled(std::string_view name, size_t at) const {
    bool on = false;
    for (const ExtensionDirective& d : extensions_) {
      if (d.offset < at && (d.name == name || d.name == "all")) on = d.enabled;
    }
    return on;
  }

  std::string requires_message(std::string_view what, int core, std::string_view extensions_text) const {
    return "'" + std::string(what) + "' requires #version " + std::to_string(core) + " or #extension " +
           std::string(extensions_text) + " (this shader declares #version " + std::to_string(version_) + ")";
  }

  void check_compute_and_atomics() {
    // GL 4.6 / ARB_compute_shader: a compute shader needs GLSL 4.30 or the extension.
    if (!enabled(kComputeShader, source_.size())) {
      diagnose(version_token_->line, part_column(version_number_),
               "compute shaders require #version 430, or #extension " + std::string(kComputeShader) +
                   " below #version 430 (this shader declares #version " + std::to_string(version_) + ")");
    }
    // Atomic memory functions: GL gives them to every compute shader; glslang below 430 only with the SSBO
    // extension.
    if (enabled(kStorageBuffers, source_.size())) return;
    // atomicAdd() ... atomicCompSwap(), and the atomic-counter functions, which glslang's relaxed Vulkan rules
    // turn into atomicAdd() etc. on a storage block.
    const bool uses_atomics = std::any_of(tokens_.begin(), tokens_.end(), [&](const GlslToken& t) {
      return t.kind == GlslToken::Kind::Identifier && t.text.starts_with("atomic") && t.text != "atomic_uint";
    });
    if (!uses_atomics) return;
    result_.preamble = "#extension " + std::string(kStorageBuffers) + " : enable\n";
    // With the extension on, glslang would take `buffer` blocks the user did not enable.
    for (const GlslToken& t : tokens_) {
      if (t.kind == GlslToken::Kind::Identifier && t.text == "buffer" && !enabled(kStorageBuffers, t.offset)) {
        diagnose(t.line, t.column,
                 "'buffer' requires #version 430 or #extension " + std::string(kStorageBuffers) +
                     " (this shader declares #version " + std::to_string(version_) + ")");
      }
    }
  }

  // What GLSL 4.20 (and 4.00 for doubles) brings that a raised shader may only use with its extension.
  void check_raised_features() {
    if (profile_ && version_ < 150) {
      diagnose(version_token_->line, part_column(*profile_),
               "'" + std::string(profile_->text) + "' : versions before 150 do not allow a profile token");
    }
    for (size_t i = 0; i < tokens_.size(); ++i) {
      const GlslToken& token = tokens_[i];
      if (token.kind == GlslToken::Kind::Identifier) {
        if (token.text == "layout" && i + 1 < tokens_.size() && tokens_[i + 1].text == "(") {
          i = check_layout_qualifiers(i + 2);
          continue;
        }
        if (token.text == "atomic_uint" && !enabled(kAtomicCounters, token.offset)) {
          diagnose(token.line, token.column, requires_message(token.text, 420, kAtomicCounters));
        } else if (is_image_type(token.text) && !enabled(kImageLoadStore, token.offset)) {
          diagnose(token.line, token.column, requires_message(token.text, 420, kImageLoadStore));
        } else if (version_ < 400 && is_double_type(token.text) && !enabled(kFp64, token.offset)) {
          diagnose(token.line, token.column, requires_message(token.text, 400, kFp64));
        }
      } else if (token.text == "=" && i + 1 < tokens_.size() && tokens_[i + 1].text == "{" &&
                 !enabled(kPack420, token.offset)) {
        // `= {`: an initializer list (no other GLSL construct puts a brace after '='); GLSL 4.20 / 420pack.
        const GlslToken& brace = tokens_[i + 1];
        diagnose(brace.line, brace.column, requires_message("initializer list", 420, kPack420));
      }
    }
  }

  // The qualifiers of `layout(` from token `first` on; returns the index of the closing parenthesis.
  size_t check_layout_qualifiers(size_t first) {
    size_t close = first;
    for (; close < tokens_.size() && tokens_[close].text != ")"; ++close) {
      const GlslToken& q = tokens_[close];
      // Mesa accepts `binding` with any of the three extensions (glsl_parser.yy, layout_qualifier_id).
      if (q.text == "binding" && !enabled(kPack420, q.offset) && !enabled(kAtomicCounters, q.offset) &&
          !enabled(kStorageBuffers, q.offset)) {
        diagnose(q.line, q.column,
                 requires_message(q.text, 420,
                                  std::string(kPack420) + ", " + std::string(kAtomicCounters) + " or " +
                                      std::string(kStorageBuffers)));
      }
    }
    return close;
  }

  // What GLSL 4.30 brings that a shader raised to 430 for GL_ARB_arrays_of_arrays may only use with its extension
  // (Mesa's rules): `buffer` blocks (GL_ARB_shader_storage_buffer_object), `location` on uniforms (the only
  // variables of a compute shader that take one; GL_ARB_explicit_uniform_location) and textureQueryLevels
  // (GL_ARB_texture_query_levels). The other 4.30 features (compute shaders) are checked for every raised shader.
  void check_430_features() {
    const bool buffer_reported = !result_.preamble.empty();  // check_compute_and_atomics reported `buffer` already
    for (size_t i = 0; i < tokens_.size(); ++i) {
      const GlslToken& t = tokens_[i];
      if (t.kind != GlslToken::Kind::Identifier) continue;
      if (t.text == "buffer" && !buffer_reported && !enabled(kStorageBuffers, t.offset)) {
        diagnose(t.line, t.column, requires_message(t.text, 430, kStorageBuffers));
      } else if (t.text == "textureQueryLevels" && !enabled(kQueryLevels, t.offset)) {
        diagnose(t.line, t.column, requires_message(t.text, 430, kQueryLevels));
      } else if (t.text == "layout" && i + 1 < tokens_.size() && tokens_[i + 1].text == "(") {
        for (size_t q = i + 2; q < tokens_.size() && tokens_[q].text != ")"; ++q) {
          if (tokens_[q].text == "location" && !enabled(kUniformLocation, tokens_[q].offset)) {
            diagnose(tokens_[q].line, tokens_[q].column, requires_message("location", 430, kUniformLocation));
          }
        }
      }
    }
  }

  void replace_version(int glslang_version) {
    result_.source = set_glslang_version(result_.source, glslang_version, version_);
    result_.raised = true;
    result_.glslang_version = glslang_version;
  }

  std::string_view source_;
  std::string_view source_name_;
  std::vector<GlslToken> tokens_;
  VersionRewrite result_;
  const GlslToken* version_token_ = nullptr;
  GlslToken version_number_{};
  std::optional<GlslToken> profile_;
  std::vector<ExtensionDirective> extensions_;
  int version_ = 0;
};

}  // namespace

// Every replacement keeps the width of what it replaces, so later columns stay where they were, and they are
// applied back to front, so no offset goes stale whatever the widths. The version number is an integer (GLSL
// 4.60 §3.3): "00150" is 150, as glslang itself reads it; it becomes "420" and spaces.
std::string set_glslang_version(std::string_view source, int glslang_version, int user_version) {
  std::vector<SourceEdit> replacements;
  auto padded = [](std::string text, size_t width) {
    if (text.size() < width) text.resize(width, ' ');
    return text;
  };
  // __VERSION__ is predefined (it can be neither defined nor undefined), so every occurrence of the identifier,
  // in code or in a directive, is the macro: replace it with the user's version, padded to its width.
  const std::string user_text = padded(std::to_string(user_version), std::string_view("__VERSION__").size());
  bool version_seen = false;
  for (const GlslToken& token : lex_glsl(source)) {
    if (token.kind == GlslToken::Kind::Identifier && token.text == "__VERSION__") {
      replacements.push_back({token.offset, token.text.size(), user_text});
    } else if (token.kind == GlslToken::Kind::Directive) {
      const std::vector<GlslToken> parts = lex_glsl(token.text.substr(1));
      if (!version_seen && parts.size() >= 2 && parts[0].text == "version" &&
          parts[1].kind == GlslToken::Kind::Number) {
        version_seen = true;
        replacements.push_back({token.offset + 1 + parts[1].offset, parts[1].text.size(),
                                padded(std::to_string(glslang_version), parts[1].text.size())});
        continue;
      }
      for (const GlslToken& part : parts) {
        if (part.kind == GlslToken::Kind::Identifier && part.text == "__VERSION__") {
          replacements.push_back({token.offset + 1 + part.offset, part.text.size(), user_text});
        }
      }
    }
  }
  std::string result(source);
  apply_source_edits(result, std::move(replacements));
  return result;
}

std::string set_glslang_desktop_version(std::string_view source, int glslang_version, int user_version) {
  std::string result = set_glslang_version(source, glslang_version, user_version);
  for (const GlslToken& token : lex_glsl(result)) {
    if (token.kind != GlslToken::Kind::Directive) continue;
    const std::vector<GlslToken> parts = lex_glsl(token.text.substr(1));
    if (parts.size() < 2 || parts[0].text != "version") continue;
    if (parts.size() >= 3 && parts[2].kind == GlslToken::Kind::Identifier) {
      apply_source_edits(
          result, {{token.offset + 1 + parts[2].offset, parts[2].text.size(), std::string(parts[2].text.size(), ' ')}});
    }
    break;
  }
  return result;
}

VersionRewrite rewrite_compute_version(std::string_view source, std::string_view source_name) {
  return VersionRewriter(source, source_name).run();
}

}  // namespace bismuth::translator
