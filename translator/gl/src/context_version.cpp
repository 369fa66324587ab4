// Context versions: the OpenGL ES versions EGL requests get, the version strings, the #version rule per API.
#include "context_version.hpp"

#include <algorithm>
#include <cctype>

namespace bismuth::gl {

std::optional<ContextVersion> es_context_version(int major, int minor) {
  if (major == 2 && minor == 0) return ContextVersion{true, 3, 1};
  if (major == 3 && minor >= 0 && minor <= 1) return ContextVersion{true, 3, 1};
  if (major == 3 && minor == 2) return ContextVersion{true, 3, 2};
  return std::nullopt;
}

std::string version_string(const ContextVersion& version, const Caps& caps) {
  if (!version.es) return caps.version;
  return "OpenGL ES " + std::to_string(version.major) + "." + std::to_string(version.minor) + " Bismuth " +
         std::string(BISMUTH_GL_VERSION) + " (Vulkan: " + caps.device_name + ")";
}

std::string glsl_version_string(const ContextVersion& version) {
  if (!version.es) return "4.60";
  return "OpenGL ES GLSL ES " + std::to_string(version.major) + "." + std::to_string(version.minor) + "0 Bismuth " +
         std::string(BISMUTH_GL_VERSION);
}

std::vector<std::string> context_extensions(const ContextVersion& version, const Caps& caps) {
  if (!version.es) return caps.extensions;
  std::vector<std::string> out;
  for (const std::string& name : caps.extensions) {
    if (name.starts_with("GL_KHR_") || name.starts_with("GL_OES_")) out.push_back(name);
  }
  // Device-backed shader extensions whose specs apply to OpenGL ES too: EXT_shader_realtime_clock (ESSL 3.10,
  // revision 3) and INTEL_shader_atomic_float_minmax ("OpenGL ES 3.1 ... is required"); listed where the desktop
  // context lists them, i.e. where the device backs them.
  // NV_shader_atomic_float's float atomicAdd/atomicExchange are accepted in GLSL ES shaders as NVIDIA's OpenGL ES
  // drivers accept them, so the ES context lists it where the device backs it; NV_compute_shader_derivatives "can be
  // applied to OpenGL ES ESSL versions 3.20 (#version 320) and higher", so ES 3.2 contexts list it.
  auto listed = [&](const char* name) {
    return std::find(caps.extensions.begin(), caps.extensions.end(), name) != caps.extensions.end();
  };
  for (const char* shared :
       {"GL_EXT_shader_realtime_clock", "GL_INTEL_shader_atomic_float_minmax", "GL_NV_shader_atomic_float"}) {
    if (listed(shared)) out.push_back(shared);
  }
  if (version.minor >= 2 && listed("GL_NV_compute_shader_derivatives")) {
    out.push_back("GL_NV_compute_shader_derivatives");
  }
  // EXT_buffer_storage is ARB_buffer_storage (core in GL 4.4, which every Bismuth device has) for OpenGL ES:
  // glBufferStorageEXT, persistent and coherent maps, CLIENT_MAPPED_BUFFER_BARRIER_BIT_EXT.
  out.push_back("GL_EXT_buffer_storage");
  // EXT_shader_group_vote is ARB_shader_group_vote for GLSL ES (anyInvocationEXT, ...).
  if (caps.ballot_vote) out.push_back("GL_EXT_shader_group_vote");
  // EXT_color_buffer_float makes the 16F/32F float formats and R11F_G11F_B10F color-renderable in ES 3.0/3.1 (core
  // in ES 3.2), so an ES 3.1 program can read a float texture it computed through a framebuffer (glReadPixels
  // RGBA/FLOAT): framebuffers.hpp.
  out.push_back("GL_EXT_color_buffer_float");
  return out;
}

namespace {

// The #version directive of a source: where it is and what it says. GLSL (4.60 and ES 3.20 §3.3) allows only
// comments and white space before it; a source whose first token is anything else has none.
struct VersionDirective {
  bool present = false;
  int line = 1, column = 1;  // of the version number (of the source's first token when absent)
  std::string number;
  std::string profile;
};

class DirectiveScanner {
 public:
  explicit DirectiveScanner(std::string_view source) : s_(source) {}

  VersionDirective scan() {
    VersionDirective d;
    skip_blank_and_comments(true);
    d.line = line_, d.column = column();
    if (at_end() || s_[i_] != '#') return d;
    advance();
    skip_blank_and_comments(false);
    if (word() != "version") return d;
    skip_blank_and_comments(false);
    d.present = true;
    d.line = line_, d.column = column();
    d.number = word();
    skip_blank_and_comments(false);
    d.profile = word();
    return d;
  }

 private:
  bool at_end() const { return i_ >= s_.size(); }
  int column() const { return static_cast<int>(i_ - line_start_) + 1; }
  void advance() {
    if (s_[i_] == '\n') ++line_, line_start_ = i_ + 1;
    ++i_;
  }
  // White space and comments; newlines too when `across_lines` (a directive ends at its line's end).
  void skip_blank_and_comments(bool across_lines) {
    while (!at_end()) {
      const char c = s_[i_];
      if (c == '\n' && !across_lines) return;
      if (c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f' || c == '\n') {
        advance();
      } else if (s_.compare(i_, 2, "//") == 0) {
        while (!at_end() && s_[i_] != '\n') advance();
      } else if (s_.compare(i_, 2, "/*") == 0) {
        advance(), advance();
        while (!at_end() && s_.compare(i_, 2, "*/") != 0) advance();
        if (!at_end()) advance(), advance();
      } else {
        return;
      }
    }
  }
  std::string word() {
    std::string w;
    while (!at_end() && (std::isalnum(static_cast<unsigned char>(s_[i_])) || s_[i_] == '_')) {
      w += s_[i_];
      advance();
    }
    return w;
  }

  std::string_view s_;
  size_t i_ = 0;
  size_t line_start_ = 0;
  int line_ = 1;
};

std::string error_line(const VersionDirective& d, const std::string& message) {
  return "0:" + std::to_string(d.line) + "(" + std::to_string(d.column) + "): error: " + message + "\n";
}

}  // namespace

std::optional<std::string> check_glsl_version(const ContextVersion& version, std::string_view source) {
  const VersionDirective d = DirectiveScanner(source).scan();
  const bool es_profile = d.profile == "es";
  if (version.es) {
    const std::string accepted =
        version.minor >= 2 ? "\"#version 310 es\" or \"#version 320 es\"" : "\"#version 310 es\"";
    const std::string context =
        "this OpenGL ES " + std::to_string(version.major) + "." + std::to_string(version.minor) + " context";
    if (!d.present || d.number == "100") {
      return error_line(d, "compute shaders need " + accepted + " in " + context +
                               " (a shader without #version is GLSL ES 1.00, which has no compute shaders)");
    }
    if (es_profile && d.number == "300") {
      return error_line(d, "GLSL ES 3.00 has no compute shaders; " + context + " accepts " + accepted);
    }
    if (es_profile && (d.number == "310" || (d.number == "320" && version.minor >= 2))) return std::nullopt;
    if (es_profile) {
      return error_line(
          d, "#version " + d.number + " es is not supported by " + context + " (it accepts " + accepted + ")");
    }
    return error_line(d, "#version " + d.number + (d.profile.empty() ? "" : " " + d.profile) +
                             " is desktop GLSL, which an OpenGL ES context does not compile (GLSL ES 3.20 §3.4); " +
                             context + " accepts " + accepted);
  }
  if (es_profile && d.number == "320") {
    return error_line(d,
                      "#version 320 es needs GL_ARB_ES3_2_compatibility, which this OpenGL 4.6 context does not "
                      "support (it accepts #version 310 es through ARB_ES3_1_compatibility, core since GL 4.5)");
  }
  return std::nullopt;
}

EsExtensionCheck check_es_extension_directives(const ContextVersion& version, std::string_view source,
                                               const std::vector<std::string>& context_extensions) {
  EsExtensionCheck out;
  if (!version.es) return out;
  std::string rewritten(source);
  bool blanked = false;
  int line = 1;
  size_t start = 0;
  while (start < source.size()) {
    const size_t end = std::min(source.find('\n', start), source.size());
    const std::string_view text = source.substr(start, end - start);
    // `#extension NAME : behavior` on one line (a directive ends at its line's end).
    size_t i = text.find_first_not_of(" \t");
    const bool hash = i != std::string_view::npos && text[i] == '#';
    if (hash) i = text.find_first_not_of(" \t", i + 1);
    const bool directive = hash && i != std::string_view::npos && text.substr(i, 9) == "extension";
    const size_t n = directive ? text.find_first_not_of(" \t", i + 9) : std::string_view::npos;
    if (n != std::string_view::npos) {
      const size_t n_end = text.find_first_of(" \t:", n);
      const std::string name(text.substr(n, n_end == std::string_view::npos ? std::string_view::npos : n_end - n));
      const size_t colon = text.find(':', n);
      const size_t b = colon == std::string_view::npos ? colon : text.find_first_not_of(" \t", colon + 1);
      const std::string_view behavior =
          b == std::string_view::npos ? std::string_view{} : text.substr(b, text.find_first_of(" \t/\r", b) - b);
      const bool desktop_only = name.starts_with("GL_ARB_") || name == "GL_NV_shader_atomic_int64";
      const bool known_behavior =
          behavior == "require" || behavior == "enable" || behavior == "warn" || behavior == "disable";
      if (desktop_only && known_behavior &&
          std::find(context_extensions.begin(), context_extensions.end(), name) == context_extensions.end()) {
        const bool required = behavior == "require";
        const std::string message = "0:" + std::to_string(line) + "(" + std::to_string(n + 1) +
                                    "): " + (required ? "error" : "warning") + ": extension '" + name +
                                    "' is not supported in this OpenGL ES " + std::to_string(version.major) + "." +
                                    std::to_string(version.minor) + " context (a desktop OpenGL extension)\n";
        if (required) {
          out.error = message;
          return out;
        }
        out.warnings += message;
        for (size_t k = start; k < end; ++k) rewritten[k] = ' ';
        blanked = true;
      }
    }
    start = end + 1;
    ++line;
  }
  if (blanked) out.rewritten = std::move(rewritten);
  return out;
}

}  // namespace bismuth::gl
