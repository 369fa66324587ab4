// Parser of piglit's shader_test format, compute subset. Syntax and meaning follow piglit's
// tests/shaders/shader_runner.c (sections in brackets; [require] lines; [test] commands one per line, '#' starts a
// comment line). Every rejection names the file and line.
#include "shader_test.hpp"

#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>
#include <utility>

#include "texture_command_parser.hpp"

namespace bismuth::tools::runner {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

std::vector<std::string> split_words(std::string_view s) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r')) ++i;
    size_t j = i;
    while (j < s.size() && s[j] != ' ' && s[j] != '\t' && s[j] != '\r') ++j;
    if (j > i) out.emplace_back(s.substr(i, j - i));
    i = j;
  }
  return out;
}

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

// Unsigned integer, decimal or 0x hex; false on anything else (no sign, no trailing text, no overflow).
bool parse_u64(std::string_view text, uint64_t* out) {
  int base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    text.remove_prefix(2);
    base = 16;
  }
  if (text.empty()) return false;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), *out, base);
  return ec == std::errc() && end == text.data() + text.size();
}

bool parse_i64(std::string_view text, int64_t* out) {
  const bool negative = !text.empty() && text[0] == '-';
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) text.remove_prefix(1);
  uint64_t magnitude = 0;
  if (!parse_u64(text, &magnitude)) return false;
  if (negative) {
    if (magnitude > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) + 1) return false;
    *out = static_cast<int64_t>(0 - magnitude);
  } else {
    if (magnitude > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) return false;
    *out = static_cast<int64_t>(magnitude);
  }
  return true;
}

bool parse_double(std::string_view text, double* out) {
  if (text.empty()) return false;
  // from_chars for double is in libstdc++ 12 (Debian 12); it rejects a leading '+', which strtod takes.
  if (text[0] == '+') text.remove_prefix(1);
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), *out);
  return ec == std::errc() && end == text.data() + text.size();
}

// The smallest magnitude that rounds to float infinity: halfway between FLT_MAX and 2^128 (FLT_MAX's odd last bit
// makes the tie round up). Everything below rounds to a finite float, FLT_MAX printed as 3.4028235e38 included.
constexpr double kFloatOverflow = 0x1.ffffffp127;

bool is_hex(std::string_view text) {
  if (!text.empty() && text[0] == '-') text.remove_prefix(1);
  return text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
}

// One value of `type`: integers in decimal or hex; floats as decimals, or as hex bit patterns.
std::optional<Scalar> parse_scalar(ScalarType type, std::string_view text) {
  Scalar s{type, 0, std::string(text)};
  switch (type) {
    case ScalarType::Uint: {
      uint64_t v = 0;
      if (!parse_u64(text, &v) || v > 0xFFFFFFFFu) {
        int64_t i = 0;  // piglit's sscanf %d accepts negative numbers for uint too; keep the bit pattern
        if (!parse_i64(text, &i) || i < std::numeric_limits<int32_t>::min() || i > 0xFFFFFFFFll) return std::nullopt;
        v = static_cast<uint32_t>(static_cast<int32_t>(i));
      }
      s.bits = v;
      return s;
    }
    case ScalarType::Int: {
      int64_t v = 0;
      if (!parse_i64(text, &v)) return std::nullopt;
      if (is_hex(text) && v >= 0 && v <= 0xFFFFFFFFll) v = static_cast<int32_t>(static_cast<uint32_t>(v));
      if (v < std::numeric_limits<int32_t>::min() || v > std::numeric_limits<int32_t>::max()) return std::nullopt;
      s.bits = static_cast<uint32_t>(static_cast<int32_t>(v));
      return s;
    }
    case ScalarType::Uint64: {
      uint64_t v = 0;
      if (!parse_u64(text, &v)) return std::nullopt;
      s.bits = v;
      return s;
    }
    case ScalarType::Int64: {
      int64_t v = 0;
      if (!parse_i64(text, &v)) {
        uint64_t u = 0;  // hex bit patterns above INT64_MAX
        if (!is_hex(text) || !parse_u64(text, &u)) return std::nullopt;
        s.bits = u;
        return s;
      }
      s.bits = static_cast<uint64_t>(v);
      return s;
    }
    case ScalarType::Float: {
      if (is_hex(text)) {
        uint64_t v = 0;
        if (!parse_u64(text, &v) || v > 0xFFFFFFFFu) return std::nullopt;
        s.bits = v;
        return s;
      }
      double d = 0;
      if (!parse_double(text, &d)) return std::nullopt;
      // A finite value past the float range is an error, as "1e999" is for double: it would silently become
      // infinity (and the conversion is undefined, C++ [conv.double]). "inf" and "nan" stay as written.
      if (std::isfinite(d) && std::fabs(d) >= kFloatOverflow) return std::nullopt;
      const float f = static_cast<float>(d);
      uint32_t u = 0;
      std::memcpy(&u, &f, 4);
      s.bits = u;
      return s;
    }
    case ScalarType::Double: {
      if (is_hex(text)) {
        uint64_t v = 0;
        if (!parse_u64(text, &v)) return std::nullopt;
        s.bits = v;
        return s;
      }
      double d = 0;
      if (!parse_double(text, &d)) return std::nullopt;
      std::memcpy(&s.bits, &d, 8);
      return s;
    }
  }
  return std::nullopt;
}

// "4.3" -> 430, "4.30" -> 430, "1.10" -> 110: GL and GLSL versions compared on one scale.
std::optional<double> parse_version(std::string_view text) {
  const size_t dot = text.find('.');
  if (dot == std::string_view::npos || dot == 0 || dot + 1 >= text.size()) return std::nullopt;
  uint64_t major = 0, minor = 0;
  const std::string_view minor_text = text.substr(dot + 1);
  if (!parse_u64(text.substr(0, dot), &major) || minor_text.size() > 2 || !parse_u64(minor_text, &minor) ||
      is_hex(text) || major > 99) {
    return std::nullopt;
  }
  return static_cast<double>(major * 100 + (minor_text.size() == 1 ? minor * 10 : minor));
}

// Memory barrier bit names of glMemoryBarrier (GL 4.6 core, table 7.x), with or without the GL_ prefix.
std::optional<uint32_t> barrier_bit(std::string_view name) {
  if (starts_with(name, "GL_")) name.remove_prefix(3);
  static const struct {
    const char* name;
    uint32_t bit;
  } kBits[] = {
      {"VERTEX_ATTRIB_ARRAY_BARRIER_BIT", 0x1},
      {"ELEMENT_ARRAY_BARRIER_BIT", 0x2},
      {"UNIFORM_BARRIER_BIT", 0x4},
      {"TEXTURE_FETCH_BARRIER_BIT", 0x8},
      {"SHADER_IMAGE_ACCESS_BARRIER_BIT", 0x20},
      {"COMMAND_BARRIER_BIT", 0x40},
      {"PIXEL_BUFFER_BARRIER_BIT", 0x80},
      {"TEXTURE_UPDATE_BARRIER_BIT", 0x100},
      {"BUFFER_UPDATE_BARRIER_BIT", 0x200},
      {"FRAMEBUFFER_BARRIER_BIT", 0x400},
      {"TRANSFORM_FEEDBACK_BARRIER_BIT", 0x800},
      {"ATOMIC_COUNTER_BARRIER_BIT", 0x1000},
      {"SHADER_STORAGE_BARRIER_BIT", 0x2000},
      {"CLIENT_MAPPED_BUFFER_BARRIER_BIT", 0x4000},
      {"QUERY_BUFFER_BARRIER_BIT", 0x8000},
      {"ALL_BARRIER_BITS", 0xFFFFFFFFu},
  };
  for (const auto& b : kBits) {
    if (name == b.name) return b.bit;
  }
  return std::nullopt;
}

// GLSL uniform types the GL shim can set (glUniform{1,2,3,4}{i,ui,f,d}); bool vectors go through the int form.
// GLSL uniform types and how they are set: glUniform{1,2,3,4}{f,i,ui,d}v (bool vectors through the int form),
// glUniform{1,2,3,4}{i64,ui64}vARB, glUniformMatrix{C}[x{R}]{f,d}v. `columns`/`rows` are 0 for non-matrices.
bool uniform_type(std::string_view name, ScalarType* scalar, uint32_t* components, uint32_t* columns, uint32_t* rows) {
  *columns = *rows = 0;
  static const struct {
    const char* prefix;
    ScalarType scalar;
  } kVectors[] = {{"vec", ScalarType::Float},    {"ivec", ScalarType::Int}, {"uvec", ScalarType::Uint},
                  {"dvec", ScalarType::Double},  {"bvec", ScalarType::Int}, {"i64vec", ScalarType::Int64},
                  {"u64vec", ScalarType::Uint64}};
  auto dimension = [](char c) { return c >= '2' && c <= '4' ? static_cast<uint32_t>(c - '0') : 0u; };
  if (name == "float") return *scalar = ScalarType::Float, *components = 1, true;
  if (name == "int" || name == "bool") return *scalar = ScalarType::Int, *components = 1, true;
  if (name == "uint") return *scalar = ScalarType::Uint, *components = 1, true;
  if (name == "double") return *scalar = ScalarType::Double, *components = 1, true;
  if (name == "int64_t") return *scalar = ScalarType::Int64, *components = 1, true;
  if (name == "uint64_t") return *scalar = ScalarType::Uint64, *components = 1, true;
  for (const auto& t : kVectors) {
    const size_t n = std::strlen(t.prefix);
    if (name.size() == n + 1 && name.substr(0, n) == t.prefix && dimension(name[n]) != 0) {
      *scalar = t.scalar;
      *components = dimension(name[n]);
      return true;
    }
  }
  // matN, matCxR, dmatN, dmatCxR: C columns of R components, given column by column as GL stores them.
  const bool dmat = starts_with(name, "dmat");
  if (dmat || starts_with(name, "mat")) {
    const std::string_view shape = name.substr(dmat ? 4 : 3);
    uint32_t c = 0, r = 0;
    if (shape.size() == 1) {
      c = r = dimension(shape[0]);
    } else if (shape.size() == 3 && shape[1] == 'x') {
      c = dimension(shape[0]);
      r = dimension(shape[2]);
    }
    if (c == 0 || r == 0) return false;
    *scalar = dmat ? ScalarType::Double : ScalarType::Float;
    *columns = c;
    *rows = r;
    *components = c * r;
    return true;
  }
  return false;
}

// The std430 layout of a probe / subdata type: the scalar types by name (int, uint, float, double, int64[_t],
// uint64[_t]) and the GLSL scalar, vector and matrix types (bool and bvecN are 32-bit words, as in a buffer).
std::optional<DataLayout> data_layout(std::string_view name) {
  DataLayout l;
  if (const auto scalar = parse_scalar_type(name)) {
    l.scalar = *scalar;
  } else {
    uint32_t components = 0, columns = 0, rows = 0;
    if (!uniform_type(name, &l.scalar, &components, &columns, &rows)) return std::nullopt;
    if (name == "bool" || starts_with(name, "bvec")) l.scalar = ScalarType::Uint;
    l.columns = columns == 0 ? 1 : columns;
    l.rows = columns == 0 ? components : rows;
  }
  const uint32_t size = static_cast<uint32_t>(scalar_size(l.scalar));
  // std430 (GL 4.6 §7.6.2.2): a vector of 2 or 4 components aligns to 2 or 4 times its component, one of 3 to 4
  // times; a matrix is an array of column vectors; array strides are the element's size rounded up to its
  // alignment (no rounding to vec4, unlike std140).
  const uint32_t column = l.rows == 1 ? size : size * (l.rows == 3 ? 4 : l.rows);
  l.column_stride = column;
  l.element_stride = l.columns * column;
  return l;
}

// [test] commands of shader_runner that need rasterization or state of other stages: the test is skipped when one
// is reached, with the command as the reason. Matched as word prefixes of the line, after the texture, image,
// framebuffer, clear and pixel probe commands (texture_command_parser.hpp) had their turn: what is left of those
// prefixes here are the forms the runner does not do (probe depth, clear depth, relative probe rect rgba int).
// clang-format off
constexpr const char* kGraphicsCommands[] = {
    "draw ",
    "probe depth",
    "probe warn",
    "relative probe rect rgba int",
    "clear depth",
    "blit ",
    "viewport",
    "ortho",
    "frustum",
    "depthfunc",
    "resident ",
    "vertex attrib",
    "polygon mode",
    "patch parameter",
    "provoking vertex",
    "shade model",
    "blend barrier",
    "enable ",
    "disable ",
    "hint ",
    "texcoord ",
    "clip plane",
    "point size",
    "line width",
    "subuniform ",
    "parameter ",
    "transform feedback",
    "xfb ",
    "bind ",
    "primitive restart",
    "vertex data",
};
// clang-format on

struct Parser {
  std::string path;
  ShaderTest test;

  Error error(int line, const std::string& message) const {
    return fail(path + ":" + std::to_string(line) + ": " + message);
  }

  void mark_unsupported(const std::string& reason) {
    if (!test.unsupported) test.unsupported = reason;
  }

  Expected<void> require_line(std::string_view line, int n) {
    const auto words = split_words(line);
    Requirement r;
    r.line = n;
    auto version = [&](size_t op_at, Requirement::Kind kind) -> Expected<void> {
      if (words.size() != op_at + 2) return error(n, "expected \"" + words[0] + " <op> <major.minor>\"");
      const auto op = parse_compare_op(words[op_at]);
      if (!op) return error(n, "unknown comparison \"" + words[op_at] + "\"");
      const auto v = parse_version(words[op_at + 1]);
      if (!v) return error(n, "bad version \"" + words[op_at + 1] + "\"");
      r.kind = kind;
      r.op = *op;
      r.value = *v;
      test.requirements.push_back(r);
      return {};
    };
    if (words[0] == "GL" || words[0] == "GLSL") {
      const bool glsl = words[0] == "GLSL";
      size_t at = 1;
      // shader_runner's parse_version_comparison: optional CORE, COMPAT and ES words before the operator.
      bool compat = false;
      while (at < words.size() && (words[at] == "CORE" || words[at] == "COMPAT" || words[at] == "ES")) {
        if (words[at] == "ES") r.es = true;
        if (words[at] == "COMPAT") compat = true;
        ++at;
      }
      if (compat) {
        r.kind = Requirement::Kind::Unsupported;
        r.reason = "needs a compatibility profile (" + std::string(line) + " at " + path + ":" + std::to_string(n) +
                   "); Bismuth offers core and ES contexts";
        test.requirements.push_back(r);
        return {};
      }
      if (auto v = version(at, glsl ? Requirement::Kind::GlslVersion : Requirement::Kind::GlVersion); !v) return v;
      const Requirement& added = test.requirements.back();
      if (glsl && added.op == CompareOp::GreaterEqual) {
        test.glsl_required = static_cast<int>(added.value);
        test.glsl_required_es = added.es;
      }
      if (!glsl && added.es &&
          (added.op == CompareOp::GreaterEqual || added.op == CompareOp::Equal || added.op == CompareOp::Greater)) {
        test.es_context_version = static_cast<int>(added.value) / 10;  // 310 -> 31
      }
      return {};
    }
    if (words[0] == "INT" || words[0] == "FLOAT" || (starts_with(words[0], "GL_") && words.size() == 3)) {
      const size_t at = (words[0] == "INT" || words[0] == "FLOAT") ? 1 : 0;
      if (words.size() != at + 3) return error(n, "expected \"INT GL_... <op> <value>\"");
      if (!starts_with(words[at], "GL_")) return error(n, "expected a GL enum name, got \"" + words[at] + "\"");
      r.kind = words[0] == "FLOAT" ? Requirement::Kind::FloatLimit : Requirement::Kind::IntLimit;
      r.name = words[at];
      const auto op = parse_compare_op(words[at + 1]);
      if (!op) return error(n, "unknown comparison \"" + words[at + 1] + "\"");
      r.op = *op;
      if (r.kind == Requirement::Kind::IntLimit) {
        // glGetInteger64v answers integers: "1.5" or "1e3" would be compared as numbers no integer limit has.
        int64_t i = 0;
        if (!parse_i64(words[at + 2], &i)) {
          return error(n, "bad limit value \"" + words[at + 2] + "\" (an integer, decimal or 0x hex)");
        }
        r.value = static_cast<double>(i);
      } else if (!parse_double(words[at + 2], &r.value) || !std::isfinite(r.value)) {
        // NaN compares false with everything and infinity with nothing a context has: neither is a limit.
        return error(n, "bad limit value \"" + words[at + 2] + "\" (a finite number)");
      }
      test.requirements.push_back(r);
      return {};
    }
    if (words[0] == "SPIRV") {
      if (words.size() != 2) return error(n, "expected \"SPIRV YES|ONLY|NO\"");
      if (words[1] == "YES")
        test.spirv_mode = ShaderTest::SpirvMode::Yes;
      else if (words[1] == "ONLY")
        test.spirv_mode = ShaderTest::SpirvMode::Only;
      else if (words[1] == "NO")
        test.spirv_mode = ShaderTest::SpirvMode::No;
      else
        return error(n, "expected \"SPIRV YES|ONLY|NO\", got \"" + words[1] + "\"");
      return {};
    }
    // Window size, visuals and resource limits of the process matter to drawing tests only.
    if (words[0] == "SIZE" || words[0] == "rlimit" || words[0] == "depthbuffer" || words[0] == "DEPTHBUFFER") {
      return {};
    }
    if (words.size() == 1 && words[0] == "ignore_missing_uniforms") {
      test.ignore_missing_uniforms = true;
      return {};
    }
    if (words.size() == 3 && words[0] == "SEPARABLE" && words[1] == "PROGRAM" && words[2] == "ENABLED") {
      test.separable_program = true;
      return {};
    }
    // shader_runner: every shader section is linked into a separable program of its own stage, bound to one
    // program pipeline (glUseProgramStages); uniforms go to the pipeline's active program ("active shader
    // program"). Program pipelines are core in GL 4.1 and OpenGL ES 3.1, the contexts the runner makes.
    if (words.size() == 2 && words[0] == "SSO" && words[1] == "ENABLED") {
      test.sso = true;
      return {};
    }
    // GL_ARB_foo, and its absence as !GL_ARB_foo or -GL_ARB_foo.
    if (words.size() == 1 &&
        (starts_with(words[0], "GL_") || starts_with(words[0], "!GL_") || starts_with(words[0], "-GL_"))) {
      const bool negated = words[0][0] != 'G';
      r.kind = negated ? Requirement::Kind::NotExtension : Requirement::Kind::Extension;
      r.name = negated ? words[0].substr(1) : words[0];
      test.requirements.push_back(r);
      return {};
    }
    return error(n, "unknown requirement \"" + std::string(line) + "\"");
  }

  Expected<std::vector<Scalar>> values(const std::vector<std::string>& words, size_t from, ScalarType type,
                                       int n) const {
    std::vector<Scalar> out;
    for (size_t i = from; i < words.size(); ++i) {
      auto v = parse_scalar(type, words[i]);
      if (!v) return error(n, "bad " + std::string(to_string(type)) + " value \"" + words[i] + "\"");
      out.push_back(*v);
    }
    return out;
  }

  // Numeric operands words[from..from+count) into c.a[]; "what" names the expected form for the message.
  Expected<void> numbers(const std::vector<std::string>& words, size_t from, size_t count, Command& c, int n,
                         const char* what) const {
    if (words.size() != from + count) return error(n, std::string("expected \"") + what + "\"");
    for (size_t i = 0; i < count; ++i) {
      if (!parse_u64(words[from + i], &c.a[i]) || c.a[i] > 0xFFFFFFFFu) {
        return error(n, "bad number \"" + words[from + i] + "\" in \"" + what + "\"");
      }
    }
    return {};
  }

  // ssbo N subdata TYPE OFFSET VALUES...: TYPE a scalar, vector or matrix type, values in std430 array layout.
  Expected<void> ssbo_subdata(const std::vector<std::string>& words, Command& c, int n) const {
    if (words.size() < 6) return error(n, "expected \"ssbo N subdata TYPE OFFSET VALUES...\"");
    if (!parse_u64(words[1], &c.a[0]) || c.a[0] > 0xFFFFFFFFu) return error(n, "bad binding \"" + words[1] + "\"");
    const auto layout = data_layout(words[3]);
    if (!layout) {
      return error(n, "unknown subdata type \"" + words[3] +
                          "\" (int, uint, float, double, int64, uint64, or a GLSL vector or matrix type)");
    }
    if (!parse_u64(words[4], &c.a[1]) || c.a[1] > 0xFFFFFFFFu) return error(n, "bad offset \"" + words[4] + "\"");
    c.layout = *layout;
    c.scalar = layout->scalar;
    c.type_name = words[3];
    auto v = values(words, 5, layout->scalar, n);
    if (!v) return v.error();
    if (v->size() % layout->components() != 0) {
      return error(n, words[3] + " needs a multiple of " + std::to_string(layout->components()) + " values, got " +
                          std::to_string(v->size()));
    }
    c.values = std::move(*v);
    return {};
  }

  // uniform TYPE NAME VALUES..., or uniform TYPE LOCATION VALUES... (a number: SPIR-V programs have no names).
  Expected<void> uniform(const std::vector<std::string>& words, Command& c, int n) const {
    if (words.size() < 4) return error(n, "expected \"uniform TYPE NAME VALUES...\"");
    c.type_name = words[1];
    c.name = words[2];
    if (!uniform_type(words[1], &c.scalar, &c.components, &c.matrix_columns, &c.matrix_rows)) {
      return error(n, "unknown uniform type \"" + words[1] + "\"");
    }
    if (std::isdigit(static_cast<unsigned char>(words[2][0]))) {
      if (!parse_u64(words[2], &c.a[0]) || c.a[0] > 0x7FFFFFFFu) {
        return error(n, "bad uniform location \"" + words[2] + "\"");
      }
      c.uniform_by_location = true;
    }
    auto v = values(words, 3, c.scalar, n);
    if (!v) return v.error();
    if (v->empty() || v->size() % c.components != 0) {
      return error(n, "uniform " + words[1] + " needs a multiple of " + std::to_string(c.components) + " values, got " +
                          std::to_string(v->size()));
    }
    c.values = std::move(*v);
    return {};
  }

  // tolerance T or tolerance T0 T1 T2 T3: each a number >= 0, absolute, or with a % suffix relative to the
  // expected value. Component i of a "~=" probe uses T[i % 4].
  Expected<void> tolerance(const std::vector<std::string>& words, Command& c, int n) const {
    if (words.size() != 2 && words.size() != 5) return error(n, "expected \"tolerance T\" or \"tolerance T T T T\"");
    for (size_t i = 0; i < 4; ++i) {
      std::string_view text = words[words.size() == 2 ? 1 : i + 1];
      const bool relative = !text.empty() && text.back() == '%';
      if (relative) text.remove_suffix(1);
      double t = 0;
      if (!parse_double(text, &t) || !std::isfinite(t) || t < 0) {
        return error(n, "bad tolerance \"" + words[words.size() == 2 ? 1 : i + 1] + "\" (a number >= 0, or N%)");
      }
      c.tolerance[i] = relative ? t / 100 : t;
      c.tolerance_relative[i] = relative;
    }
    return {};
  }

  // memory barrier BIT|BIT...
  Expected<void> memory_barrier(const std::vector<std::string>& words, Command& c, int n) const {
    if (words.size() != 3) return error(n, "expected \"memory barrier GL_..._BARRIER_BIT\"");
    std::string_view bits = words[2];
    while (!bits.empty()) {
      const size_t bar = bits.find('|');
      const auto name = bits.substr(0, bar);
      const auto bit = barrier_bit(name);
      if (!bit) return error(n, "unknown memory barrier bit \"" + std::string(name) + "\"");
      c.barrier_bits |= *bit;
      bits = bar == std::string_view::npos ? std::string_view() : bits.substr(bar + 1);
    }
    return {};
  }

  // probe ssbo TYPE BINDING OFFSET OP VALUES...: TYPE as for subdata; OP one of == != < <= > >= ~=.
  Expected<void> probe_ssbo(const std::vector<std::string>& words, Command& c, int n) const {
    if (words.size() < 7) return error(n, "expected \"probe ssbo TYPE BINDING OFFSET OP VALUE...\"");
    const auto layout = data_layout(words[2]);
    if (!layout) {
      return error(n, "unknown probe type \"" + words[2] +
                          "\" (int, uint, float, double, int64, uint64, or a GLSL vector or matrix type)");
    }
    if (!parse_u64(words[3], &c.a[0]) || c.a[0] > 0xFFFFFFFFu) return error(n, "bad binding \"" + words[3] + "\"");
    if (!parse_u64(words[4], &c.a[1]) || c.a[1] > 0xFFFFFFFFu) return error(n, "bad offset \"" + words[4] + "\"");
    const auto op = parse_probe_op(words[5]);
    if (!op) return error(n, "unknown comparison \"" + words[5] + "\"");
    c.layout = *layout;
    c.scalar = layout->scalar;
    c.type_name = words[2];
    c.op = *op;
    auto v = values(words, 6, layout->scalar, n);
    if (!v) return v.error();
    if (v->size() % layout->components() != 0) {
      return error(n, words[2] + " needs a multiple of " + std::to_string(layout->components()) + " values, got " +
                          std::to_string(v->size()));
    }
    c.values = std::move(*v);
    return {};
  }

  // probe atomic counter [buffer B] INDEX|OFFSET OP VALUE
  Expected<void> probe_atomic_counter(const std::vector<std::string>& words, Command& c, int n) const {
    const bool buffer = words.size() > 3 && words[3] == "buffer";
    const size_t at = buffer ? 4 : 3;
    if (words.size() != at + (buffer ? 4 : 3)) {
      return error(n, buffer ? "expected \"probe atomic counter buffer BINDING OFFSET OP VALUE\""
                             : "expected \"probe atomic counter INDEX OP VALUE\"");
    }
    size_t i = at;
    if (buffer) {
      if (!parse_u64(words[i], &c.a[0]) || c.a[0] > 0xFFFFFFFFu) return error(n, "bad binding \"" + words[i] + "\"");
      ++i;
      if (!parse_u64(words[i], &c.a[1]) || c.a[1] > 0xFFFFFFFFu) return error(n, "bad offset \"" + words[i] + "\"");
    } else {
      uint64_t index = 0;
      if (!parse_u64(words[i], &index) || index > 0x3FFFFFFFu) return error(n, "bad counter \"" + words[i] + "\"");
      c.a[0] = 0;
      c.a[1] = index * 4;  // counter N of buffer 0 is the word at byte 4N
    }
    ++i;
    const auto op = parse_compare_op(words[i]);
    if (!op) return error(n, "unknown comparison \"" + words[i] + "\"");
    c.op = *op;
    c.scalar = ScalarType::Uint;
    auto v = values(words, i + 1, ScalarType::Uint, n);
    if (!v) return v.error();
    c.values = std::move(*v);
    return {};
  }

  // verify program_interface_query [QUERY] GL_INTERFACE PARAMS... EXPECTED..., shader_runner's grammar:
  //   interface GL_INTERFACE GL_PNAME int
  //   [resourceByName] GL_INTERFACE NAME GL_PROP int|GL_TYPE      (no QUERY word: by name)
  //   resourceByData GL_INTERFACE (DATA...) GL_PROP int|GL_TYPE
  //   resourceIndex GL_INTERFACE NAME uint|GL_INVALID_INDEX
  //   resourceLocation / resourceLocationIndex GL_INTERFACE NAME int
  //   resourceName GL_INTERFACE (DATA...) LENGTH NAME
  // NAME `""` is the empty name. Parentheses may touch their words ("(0 4)").
  Expected<void> interface_query(std::string_view line, Command& c, int n) const {
    std::string spaced;
    for (char ch : line) {
      if (ch == '(' || ch == ')') {
        spaced += ' ';
        spaced += ch;
        spaced += ' ';
      } else {
        spaced += ch;
      }
    }
    const auto words = split_words(spaced);
    const std::string usage = "expected \"verify program_interface_query [QUERY] GL_INTERFACE ...\"";
    size_t at = 2;
    static const char* const kQueries[] = {"interface",        "resourceByData",        "resourceIndex",
                                           "resourceLocation", "resourceLocationIndex", "resourceName"};
    c.query = "resourceByName";
    for (const char* q : kQueries) {
      if (at < words.size() && words[at] == q) {
        c.query = q;
        ++at;
      }
    }
    if (at >= words.size() || !starts_with(words[at], "GL_")) return error(n, usage + ": no GL_ interface");
    c.interface_name = words[at++];
    auto word = [&](const char* what) -> Expected<std::string> {
      if (at >= words.size()) return error(n, usage + ": " + what + " missing");
      return words[at++];
    };
    auto name = [&]() -> Expected<std::string> {
      auto w = word("resource name");
      if (!w) return w;
      return *w == "\"\"" ? std::string() : *w;
    };
    auto data = [&]() -> Expected<void> {
      if (at >= words.size() || words[at] != "(") return error(n, usage + ": \"(\" of the resource data missing");
      ++at;
      while (at < words.size() && words[at] != ")") c.resource_data.push_back(words[at++]);
      if (at >= words.size()) return error(n, usage + ": \")\" of the resource data missing");
      ++at;
      return {};
    };
    if (c.query == "interface") {
      auto pname = word("pname");
      if (!pname) return pname.error();
      c.type_name = *pname;
    } else if (c.query == "resourceByName" || c.query == "resourceByData") {
      if (c.query == "resourceByName") {
        auto r = name();
        if (!r) return r.error();
        c.resource_name = *r;
      } else if (auto d = data(); !d) {
        return d.error();
      }
      auto prop = word("property");
      if (!prop) return prop.error();
      c.type_name = *prop;
    } else if (c.query == "resourceName") {
      if (auto d = data(); !d) return d.error();
    } else {
      auto r = name();
      if (!r) return r.error();
      c.resource_name = *r;
    }
    const size_t values = c.query == "resourceName" ? 2 : 1;
    if (words.size() != at + values) {
      return error(n, usage + ": expected " + std::to_string(values) + " value(s) after the " +
                          (c.query == "resourceName" ? "resource data" : "parameters"));
    }
    c.expected.assign(words.begin() + static_cast<long>(at), words.end());
    if (c.query == "resourceName" && c.expected[1] == "\"\"") c.expected[1].clear();
    if (!c.type_name.empty() && !starts_with(c.type_name, "GL_")) {
      return error(n, "expected a GL_ property or pname, got \"" + c.type_name + "\"");
    }
    return {};
  }

  // One [X shader specializations] line: "uint INDEX VALUE" or "float INDEX VALUE" (shader_runner's
  // process_specialization), the constant with SpecId INDEX set to VALUE by glSpecializeShader.
  Expected<void> specialization_line(std::string_view line, int n, Stage stage) {
    const auto words = split_words(line);
    if (words.size() != 3 || (words[0] != "uint" && words[0] != "float" && words[0] != "int" && words[0] != "bool")) {
      return error(n, "expected \"uint INDEX VALUE\" or \"float INDEX VALUE\"");
    }
    Specialization sp;
    uint64_t index = 0;
    if (!parse_u64(words[1], &index) || index > 0xFFFFFFFFu)
      return error(n, "bad specialization index \"" + words[1] + "\"");
    sp.index = static_cast<uint32_t>(index);
    const ScalarType type = words[0] == "float" ? ScalarType::Float
                            : words[0] == "int" ? ScalarType::Int
                                                : ScalarType::Uint;
    const auto value = parse_scalar(type, words[2]);
    if (!value) return error(n, "bad " + words[0] + " value \"" + words[2] + "\"");
    sp.bits = static_cast<uint32_t>(value->bits);
    test.specializations[static_cast<size_t>(stage)].push_back(sp);
    return {};
  }

  // One [test] line: the command it names, checked and parsed, appended to test.commands.
  Expected<void> test_line(std::string_view line, int n) {
    const auto words = split_words(line);
    Command c;
    c.line = n;
    c.text = std::string(line);
    using K = Command::Kind;
    auto push = [&](K kind) -> Expected<void> {
      c.kind = kind;
      if (kind == K::LinkError) test.expect_link_error = true;
      test.commands.push_back(std::move(c));
      return {};
    };
    auto parsed_as = [&](Expected<void> parsed, K kind) -> Expected<void> {
      if (!parsed) return parsed;
      return push(kind);
    };
    auto w = [&](size_t i) -> std::string_view { return i < words.size() ? std::string_view(words[i]) : ""; };

    if (w(0) == "compute" && w(1) == "group" && w(2) == "size") {
      return parsed_as(numbers(words, 3, 6, c, n, "compute group size X Y Z W H D"), K::ComputeGroupSize);
    }
    if (w(0) == "compute" && w(1) == "indirect") {
      return parsed_as(numbers(words, 2, 2, c, n, "compute indirect BINDING OFFSET"), K::ComputeIndirect);
    }
    if (w(0) == "compute") return parsed_as(numbers(words, 1, 3, c, n, "compute X Y Z"), K::Compute);
    if (w(0) == "tolerance") return parsed_as(tolerance(words, c, n), K::Tolerance);
    if (w(0) == "ssbo" && w(2) == "subdata") return parsed_as(ssbo_subdata(words, c, n), K::SsboSubdata);
    if (w(0) == "ssbo") return parsed_as(numbers(words, 1, 2, c, n, "ssbo N SIZE"), K::Ssbo);
    if (w(0) == "atomic" && w(1) == "counters") {
      return parsed_as(numbers(words, 2, 1, c, n, "atomic counters N"), K::AtomicCounters);
    }
    if (w(0) == "atomic" && w(1) == "counter" && w(2) == "buffer") {
      return parsed_as(numbers(words, 3, 2, c, n, "atomic counter buffer BINDING N"), K::AtomicCounterBuffer);
    }
    if (w(0) == "atomic" && w(1) == "counter") {
      return parsed_as(numbers(words, 2, 3, c, n, "atomic counter BINDING INDEX VALUE"), K::AtomicCounterSet);
    }
    if (w(0) == "uniform") return parsed_as(uniform(words, c, n), K::Uniform);
    if (w(0) == "memory" && w(1) == "barrier") return parsed_as(memory_barrier(words, c, n), K::MemoryBarrier);
    if (w(0) == "probe" && w(1) == "ssbo") return parsed_as(probe_ssbo(words, c, n), K::ProbeSsbo);
    if (w(0) == "probe" && w(1) == "atomic" && w(2) == "counter") {
      return parsed_as(probe_atomic_counter(words, c, n), K::ProbeAtomicCounter);
    }
    if (w(0) == "verify" && w(1) == "program_query") {
      // shader_runner: "verify program_query GL_PNAME_ENUM integer|enum"; several values for the pnames that
      // have several (GL_COMPUTE_WORK_GROUP_SIZE X Y Z).
      if (words.size() < 4 || !starts_with(words[2], "GL_")) {
        return error(n, "expected \"verify program_query GL_PNAME VALUE...\"");
      }
      c.type_name = words[2];
      c.expected.assign(words.begin() + 3, words.end());
      if (c.expected.size() > 3) return error(n, "verify program_query takes at most three values");
      return push(K::VerifyProgramQuery);
    }
    // shader_runner's block_data: where the next `uniform` lines of a SPIR-V program (no names) write into a
    // uniform block: "block binding N", "block offset N", "block array index N" (also "ubo array index N"),
    // "block matrix stride N", "block row major 0|1".
    if (w(0) == "block" || (w(0) == "ubo" && w(1) == "array" && w(2) == "index")) {
      const bool two_words = w(1) == "array" || w(1) == "matrix" || w(1) == "row";
      const std::string field = two_words ? std::string(w(1)) + " " + std::string(w(2)) : std::string(w(1));
      if (field != "binding" && field != "offset" && field != "array index" && field != "matrix stride" &&
          field != "row major") {
        return error(n, "unknown block command \"" + std::string(line) + "\"");
      }
      const size_t at = two_words ? 3 : 2;
      int64_t v = 0;
      if (words.size() != at + 1 || !parse_i64(words[at], &v) || v < -1 || v > 0x7FFFFFFF) {
        return error(n, "expected \"" + std::string(w(0)) + " " + field + " N\"");
      }
      c.name = field;
      c.a[0] = static_cast<uint64_t>(v);
      return push(K::BlockData);
    }
    if (w(0) == "verify" && w(1) == "program_interface_query") {
      return parsed_as(interface_query(line, c, n), K::InterfaceQuery);
    }
    if (w(0) == "active" && w(1) == "uniform") {
      // shader_runner: "active uniform NAME GL_PNAME_ENUM integer|GL_TYPE_ENUM".
      if (words.size() != 5 || !starts_with(words[3], "GL_")) {
        return error(n, "expected \"active uniform NAME GL_PNAME VALUE\"");
      }
      c.name = words[2];
      c.type_name = words[3];
      c.expected = {words[4]};
      return push(K::ActiveUniform);
    }
    if (w(0) == "active" && w(1) == "shader" && w(2) == "program") {
      // shader_runner names the stage by its shader type ("active shader program GL_COMPUTE_SHADER"):
      // glActiveShaderProgram(pipeline, that stage's program).
      static constexpr std::pair<const char*, Stage> kStages[] = {{"GL_VERTEX_SHADER", Stage::Vertex},
                                                                  {"GL_TESS_CONTROL_SHADER", Stage::TessControl},
                                                                  {"GL_TESS_EVALUATION_SHADER", Stage::TessEvaluation},
                                                                  {"GL_GEOMETRY_SHADER", Stage::Geometry},
                                                                  {"GL_FRAGMENT_SHADER", Stage::Fragment},
                                                                  {"GL_COMPUTE_SHADER", Stage::Compute}};
      for (const auto& [stage_name, stage] : kStages) {
        if (words.size() == 4 && words[3] == stage_name) {
          c.a[0] = static_cast<uint64_t>(stage);
          return push(K::ActiveShaderProgram);
        }
      }
      return error(n, "expected \"active shader program GL_<STAGE>_SHADER\"");
    }
    if (line == "link error") return push(K::LinkError);
    if (line == "link success") return push(K::LinkSuccess);
    if (auto kind = parse_texture_command(line, c)) {
      if (!*kind) return error(n, kind->error().message);
      if (**kind == K::Unsupported) {
        c.reason = "\"" + std::string(line) + "\" at " + path + ":" + std::to_string(n) +
                   " needs renderbuffers, a window system framebuffer or texture slices (not done)";
      }
      return push(**kind);
    }
    for (const char* graphics : kGraphicsCommands) {
      if (starts_with(line, graphics) || line == trim(graphics)) {
        c.reason = "\"" + std::string(line) + "\" at " + path + ":" + std::to_string(n) +
                   " needs GL state outside compute (rasterization, textures or images)";
        return push(K::Unsupported);
      }
    }
    return error(n, "unknown command \"" + std::string(line) + "\"");
  }
};

}  // namespace

std::optional<CompareOp> parse_compare_op(std::string_view text) {
  if (text == "~=") return std::nullopt;  // probes only: parse_probe_op
  if (text == "==") return CompareOp::Equal;
  if (text == "!=") return CompareOp::NotEqual;
  if (text == "<") return CompareOp::Less;
  if (text == "<=") return CompareOp::LessEqual;
  if (text == ">") return CompareOp::Greater;
  if (text == ">=") return CompareOp::GreaterEqual;
  return std::nullopt;
}

std::optional<CompareOp> parse_probe_op(std::string_view text) {
  if (text == "~=") return CompareOp::FuzzyEqual;
  return parse_compare_op(text);
}

uint64_t DataLayout::offset_of(uint64_t i) const {
  const uint64_t element = i / components();
  const uint64_t k = i % components();
  return element * element_stride + (k / rows) * column_stride + (k % rows) * scalar_size(scalar);
}

const char* section_name(Stage stage) {
  switch (stage) {
    case Stage::Vertex: return "vertex shader";
    case Stage::TessControl: return "tessellation control shader";
    case Stage::TessEvaluation: return "tessellation evaluation shader";
    case Stage::Geometry: return "geometry shader";
    case Stage::Fragment: return "fragment shader";
    case Stage::Compute: return "compute shader";
  }
  return "?";
}

const char* to_string(CompareOp op) {
  switch (op) {
    case CompareOp::FuzzyEqual: return "~=";
    case CompareOp::Equal: return "==";
    case CompareOp::NotEqual: return "!=";
    case CompareOp::Less: return "<";
    case CompareOp::LessEqual: return "<=";
    case CompareOp::Greater: return ">";
    case CompareOp::GreaterEqual: return ">=";
  }
  return "?";
}

std::optional<ScalarType> parse_scalar_type(std::string_view text) {
  if (text == "int") return ScalarType::Int;
  if (text == "uint") return ScalarType::Uint;
  if (text == "float") return ScalarType::Float;
  if (text == "double") return ScalarType::Double;
  if (text == "int64" || text == "int64_t") return ScalarType::Int64;
  if (text == "uint64" || text == "uint64_t") return ScalarType::Uint64;
  return std::nullopt;
}

size_t scalar_size(ScalarType type) {
  return (type == ScalarType::Double || type == ScalarType::Int64 || type == ScalarType::Uint64) ? 8 : 4;
}

const char* to_string(ScalarType type) {
  switch (type) {
    case ScalarType::Int: return "int";
    case ScalarType::Uint: return "uint";
    case ScalarType::Float: return "float";
    case ScalarType::Double: return "double";
    case ScalarType::Int64: return "int64";
    case ScalarType::Uint64: return "uint64";
  }
  return "?";
}

namespace {

// The shader sections shader_runner knows: "[S shader]", "[S shader spirv]", "[S shader specializations]" for the
// six stages.
struct StageSection {
  Stage stage;
  enum class Part { Glsl, Spirv, Specializations } part;
};
std::optional<StageSection> stage_section(const std::string& name) {
  for (size_t i = 0; i < kStageCount; ++i) {
    const Stage stage = static_cast<Stage>(i);
    const std::string base = section_name(stage);
    if (name == base) return StageSection{stage, StageSection::Part::Glsl};
    if (name == base + " spirv") return StageSection{stage, StageSection::Part::Spirv};
    if (name == base + " specializations") return StageSection{stage, StageSection::Part::Specializations};
  }
  return std::nullopt;
}

// piglit's [vertex shader passthrough]: a vertex shader that writes its one attribute, piglit_vertex, to
// gl_Position. GLSL before 1.30 spells the input qualifier "attribute".
constexpr const char* kPassthroughVertexShader =
    "#if __VERSION__ >= 130\n#define INPUT in\n#else\n#define INPUT attribute\n#endif\n"
    "INPUT vec4 piglit_vertex;\nvoid main() { gl_Position = piglit_vertex; }\n";

}  // namespace

Expected<ShaderTest> parse_shader_test(std::string_view text, const std::string& path) {
  Parser p;
  p.path = path;
  p.test.path = path;
  // Data sections are read by drawing commands only, which are skipped: their lines are not needed.
  enum class Section { None, Require, Shader, Specializations, Test, Ignored } section = Section::None;
  ShaderSource* source = nullptr;
  Stage specialized_stage = Stage::Compute;
  bool saw_require = false;
  int n = 0;
  size_t pos = 0;
  if (text.find('\0') != std::string_view::npos) return p.error(1, "the file contains a NUL byte (not a text file)");
  while (pos <= text.size()) {
    const size_t end = text.find('\n', pos);
    const std::string_view raw = text.substr(pos, end == std::string_view::npos ? std::string_view::npos : end - pos);
    if (end == std::string_view::npos && raw.empty() && pos > 0) break;  // the file ended with a newline
    pos = end == std::string_view::npos ? text.size() + 1 : end + 1;
    ++n;
    const std::string_view line = trim(raw);
    // shader_runner starts a section at a '[' in the first column only; an indented '[' is text of the section.
    if (!raw.empty() && raw.front() == '[') {
      if (line.back() != ']') return p.error(n, "section header \"" + std::string(line) + "\" has no closing ']'");
      const std::string name(trim(line.substr(1, line.size() - 2)));
      source = nullptr;
      const std::string where = path + ":" + std::to_string(n);
      if (name == "require") {
        section = Section::Require;
        saw_require = true;
      } else if (const auto stage = stage_section(name)) {
        if (stage->part == StageSection::Part::Specializations) {
          section = Section::Specializations;
          specialized_stage = stage->stage;
        } else {
          const bool spirv = stage->part == StageSection::Part::Spirv;
          section = Section::Shader;
          auto& list = spirv ? p.test.spirv_shaders : p.test.glsl_shaders;
          list.push_back({"", n + 1, spirv, stage->stage, n});
          source = &list.back();
        }
      } else if (name == "vertex shader passthrough") {
        p.test.glsl_shaders.push_back({kPassthroughVertexShader, n + 1, false, Stage::Vertex, n});
        section = Section::Ignored;
      } else if (name == "test") {
        section = Section::Test;
      } else if (name == "vertex data" || name == "elements" || name == "geometry layout") {
        section = Section::Ignored;
      } else if (name == "vertex program" || name == "fragment program") {
        p.mark_unsupported("[" + name + "] at " + where + " (ARB assembly programs of drawing stages)");
        section = Section::Ignored;
      } else if (name == "shader include" || name == "shader include paths") {
        p.mark_unsupported("[" + name + "] at " + where + " (GL_ARB_shading_language_include)");
        section = Section::Ignored;
      } else {
        return p.error(n, "unknown section [" + name + "]");
      }
      continue;
    }
    switch (section) {
      case Section::Shader:
        source->text.append(raw);
        source->text.push_back('\n');
        break;
      case Section::None: break;  // shader_runner ignores everything before the first section (licence headers, notes)
      case Section::Specializations:
      case Section::Require:
      case Section::Test:
        if (line.empty() || line.front() == '#') break;
        if (section == Section::Require) {
          if (auto r = p.require_line(line, n); !r) return r.error();
        } else if (section == Section::Test) {
          if (auto r = p.test_line(line, n); !r) return r.error();
        } else {
          if (auto r = p.specialization_line(line, n, specialized_stage); !r) return r.error();
        }
        break;
      case Section::Ignored: break;
    }
  }
  if (!saw_require) return p.error(1, "no [require] section (shader_runner needs one)");
  if (!p.test.unsupported && p.test.glsl_shaders.empty() && p.test.spirv_shaders.empty()) {
    return p.error(n, "no shader section ([compute shader], [vertex shader], ...)");
  }
  if (!p.test.unsupported && p.test.spirv_mode == ShaderTest::SpirvMode::Only && p.test.spirv_shaders.empty()) {
    return p.error(n, "SPIRV ONLY but no [compute shader spirv] section");
  }
  return std::move(p.test);
}

}  // namespace bismuth::tools::runner
