// Syntax of shader_runner's texture, image, framebuffer, clear and pixel probe commands, as its sscanf formats and
// parse_* helpers read them: "( 8 , 8 )" needs its parentheses and commas (spaces are free), colours of `clear
// color` and the probes without parentheses are space-separated numbers, `texture storage` sizes are
// space-separated inside one pair of parentheses. Texture units are those of piglit's texture_bindings[32].
#include "texture_command_parser.hpp"

#include <GL/glcorearb.h>

#include <charconv>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "gl_enum_names.hpp"

namespace bismuth::tools::runner {

namespace {

constexpr int32_t kTextureUnits = 32;  // shader_runner's texture_bindings[32]

// The words of a line, with '(' ')' ',' as words of their own.
class Tokens {
 public:
  explicit Tokens(std::string_view line) {
    std::string current;
    auto flush = [&] {
      if (!current.empty()) words_.push_back(std::move(current));
      current.clear();
    };
    for (const char ch : line) {
      if (ch == ' ' || ch == '\t' || ch == '\r') {
        flush();
      } else if (ch == '(' || ch == ')' || ch == ',') {
        flush();
        words_.emplace_back(1, ch);
      } else {
        current.push_back(ch);
      }
    }
    flush();
  }

  bool word(std::string_view w) {
    if (next_ >= words_.size() || words_[next_] != w) return false;
    ++next_;
    return true;
  }
  bool any(std::string* out) {
    if (next_ >= words_.size() || words_[next_] == "(" || words_[next_] == ")" || words_[next_] == ",") return false;
    *out = words_[next_++];
    return true;
  }
  bool integer(int32_t* out) {
    if (next_ >= words_.size()) return false;
    const std::string& w = words_[next_];
    const char* begin = w.data() + (!w.empty() && w[0] == '+' ? 1 : 0);
    const auto [end, ec] = std::from_chars(begin, w.data() + w.size(), *out);
    if (ec != std::errc() || end != w.data() + w.size()) return false;
    ++next_;
    return true;
  }
  bool number(float* out) {
    if (next_ >= words_.size()) return false;
    const std::string& w = words_[next_];
    const char* begin = w.data() + (!w.empty() && w[0] == '+' ? 1 : 0);
    double d = 0;
    const auto [end, ec] = std::from_chars(begin, w.data() + w.size(), d);
    // A finite float: piglit reads these with strtof; infinities and NaN are no colours or coordinates.
    if (ec != std::errc() || end != w.data() + w.size() || !std::isfinite(d) || std::fabs(d) > 3.4e38) return false;
    *out = static_cast<float>(d);
    ++next_;
    return true;
  }
  // "( I , I , ... )" with `count` integers.
  bool integers(size_t count, int32_t* out) {
    if (!word("(")) return false;
    for (size_t i = 0; i < count; ++i) {
      if ((i > 0 && !word(",")) || !integer(&out[i])) return false;
    }
    return word(")");
  }
  // "( F , F , ... )" with `count` numbers.
  bool numbers(size_t count, float* out) {
    if (!word("(")) return false;
    for (size_t i = 0; i < count; ++i) {
      if ((i > 0 && !word(",")) || !number(&out[i])) return false;
    }
    return word(")");
  }
  bool at_end() const { return next_ == words_.size(); }

 private:
  std::vector<std::string> words_;
  size_t next_ = 0;
};

using Result = std::optional<Expected<Command::Kind>>;

Result malformed(const std::string& form) {
  return Result(fail("expected \"" + form + "\""));
}

// parse_tex_target's names (piglit's parser_utils.c).
std::optional<uint32_t> texture_target(std::string_view name) {
  static constexpr std::pair<const char*, uint32_t> kTargets[] = {{"1D", GL_TEXTURE_1D},
                                                                  {"2D", GL_TEXTURE_2D},
                                                                  {"3D", GL_TEXTURE_3D},
                                                                  {"Rect", GL_TEXTURE_RECTANGLE},
                                                                  {"Cube", GL_TEXTURE_CUBE_MAP},
                                                                  {"1DArray", GL_TEXTURE_1D_ARRAY},
                                                                  {"2DArray", GL_TEXTURE_2D_ARRAY},
                                                                  {"CubeArray", GL_TEXTURE_CUBE_MAP_ARRAY}};
  for (const auto& [n, target] : kTargets) {
    if (name == n) return target;
  }
  return std::nullopt;
}

std::optional<std::string> check_unit(int32_t unit) {
  if (unit < 0 || unit >= kTextureUnits) {
    return "texture unit " + std::to_string(unit) + " out of range (shader_runner has units 0.." +
           std::to_string(kTextureUnits - 1) + ")";
  }
  return std::nullopt;
}

std::optional<std::string> check_sizes(std::initializer_list<int32_t> sizes) {
  for (const int32_t s : sizes) {
    if (s < 1) return "texture size " + std::to_string(s) + " is not positive";
  }
  return std::nullopt;
}

Result texture_error(const std::optional<std::string>& message) {
  return Result(fail(*message));
}

// texture rgbw|checkerboard|quads|integer|miptree|junk|shadow*|storage ...
Result texture(Tokens& t, Command& c) {
  TextureSpec& s = c.texture;
  int32_t unit = 0;
  s.internal_format = GL_RGBA;
  s.target = GL_TEXTURE_2D;
  auto done = [&](const std::string& form) -> Result {
    if (!t.at_end()) return malformed(form);
    if (auto bad = check_unit(unit)) return texture_error(bad);
    if (auto bad = check_sizes({s.width, s.height, s.depth, s.levels})) return texture_error(bad);
    s.unit = static_cast<uint32_t>(unit);
    return Result(Command::Kind::Texture);
  };
  if (t.word("rgbw")) {
    s.content = TextureSpec::Content::Rgbw;
    int32_t v[3] = {1, 1, 1};
    if (t.word("1D")) {
      // piglit_rgbw_texture_1d: four texels red, green, blue, white.
      s.target = GL_TEXTURE_1D;
      s.width = 4;
      if (!t.integer(&unit)) return malformed("texture rgbw 1D UNIT");
      return done("texture rgbw 1D UNIT");
    }
    if (t.word("3D")) {
      // piglit_rgbw_texture_3d: 2x2x2 texels.
      s.target = GL_TEXTURE_3D;
      s.width = s.height = s.depth = 2;
      if (!t.integer(&unit)) return malformed("texture rgbw 3D UNIT");
      return done("texture rgbw 3D UNIT");
    }
    if (t.word("2DArray")) {
      s.target = GL_TEXTURE_2D_ARRAY;
      if (!t.integer(&unit) || !t.integers(3, v)) return malformed("texture rgbw 2DArray UNIT ( W , H , LAYERS )");
      s.width = v[0], s.height = v[1], s.depth = v[2];
      return done("texture rgbw 2DArray UNIT ( W , H , LAYERS )");
    }
    if (t.word("1DArray")) {
      s.target = GL_TEXTURE_1D_ARRAY;
      if (!t.integer(&unit) || !t.integers(2, v)) return malformed("texture rgbw 1DArray UNIT ( W , LAYERS )");
      s.width = v[0], s.depth = v[1];
      return done("texture rgbw 1DArray UNIT ( W , LAYERS )");
    }
    const char* form = "texture rgbw UNIT ( W , H ) [GL_FORMAT]";
    if (!t.integer(&unit) || !t.integers(2, v)) return malformed(form);
    s.width = v[0], s.height = v[1];
    if (t.any(&s.format_name)) {
      const auto format = gl_enum_value(s.format_name);
      if (!format) return Result(fail("unknown texture format \"" + s.format_name + "\" (a GL enum name)"));
      s.internal_format = *format;
    }
    return done(form);
  }
  const bool checkerboard = t.word("checkerboard");
  if (checkerboard || t.word("quads")) {
    // piglit_checkerboard_texture is piglit_quads_texture with tiles of half the texture: black at the bottom
    // left and top right, white at the other two.
    const char* form = checkerboard ? "texture checkerboard UNIT LEVEL ( W , H ) ( R , G , B , A ) ( R , G , B , A )"
                                    : "texture quads UNIT LEVEL ( W , H ) ( TILE_W , TILE_H ) ( R , G , B , A ) x4";
    s.content = TextureSpec::Content::Quads;
    int32_t size[2] = {0, 0};
    if (!t.integer(&unit) || !t.integer(&s.level) || !t.integers(2, size)) return malformed(form);
    s.width = size[0], s.height = size[1];
    if (checkerboard) {
      float black[4], white[4];
      if (!t.numbers(4, black) || !t.numbers(4, white)) return malformed(form);
      s.quad_width = s.width / 2, s.quad_height = s.height / 2;
      for (int i = 0; i < 4; ++i) {
        s.colors[i] = black[i], s.colors[4 + i] = white[i], s.colors[8 + i] = white[i], s.colors[12 + i] = black[i];
      }
    } else {
      int32_t tile[2] = {0, 0};
      if (!t.integers(2, tile)) return malformed(form);
      s.quad_width = tile[0], s.quad_height = tile[1];
      for (int q = 0; q < 4; ++q) {
        if (!t.numbers(4, &s.colors[static_cast<size_t>(q) * 4])) return malformed(form);
      }
    }
    if (s.level < 0 || s.level > 15) return Result(fail("mipmap level " + std::to_string(s.level) + " out of range"));
    if (s.quad_width < 1 || s.quad_height < 1) {
      return Result(fail("tiles of " + std::to_string(s.quad_width) + "x" + std::to_string(s.quad_height) +
                         " texels (a checkerboard needs W and H of 2 or more)"));
    }
    return done(form);
  }
  if (t.word("integer")) {
    // piglit_integer_texture: texel (x, y) is (x, y, B, A), uploaded as GL_RGBA_INTEGER / GL_INT.
    const char* form = "texture integer UNIT ( W , H ) ( B , A ) GL_FORMAT";
    s.content = TextureSpec::Content::Integer;
    int32_t size[2] = {0, 0}, ba[2] = {0, 0};
    if (!t.integer(&unit) || !t.integers(2, size) || !t.integers(2, ba) || !t.any(&s.format_name)) {
      return malformed(form);
    }
    s.width = size[0], s.height = size[1], s.blue = ba[0], s.alpha = ba[1];
    const auto format = gl_enum_value(s.format_name);
    if (!format) return Result(fail("unknown texture format \"" + s.format_name + "\" (a GL enum name)"));
    s.internal_format = *format;
    return done(form);
  }
  if (t.word("miptree")) {
    // piglit_miptree_texture: 8x8, four levels of solid red, green, blue, white.
    s.content = TextureSpec::Content::Miptree;
    s.width = s.height = 8;
    s.levels = 4;
    if (!t.integer(&unit)) return malformed("texture miptree UNIT");
    return done("texture miptree UNIT");
  }
  if (t.word("junk")) {
    const char* form = "texture junk 2DArray UNIT ( W , H , LAYERS )";
    s.content = TextureSpec::Content::Junk;
    s.target = GL_TEXTURE_2D_ARRAY;
    int32_t v[3] = {0, 0, 0};
    if (!t.word("2DArray") || !t.integer(&unit) || !t.integers(3, v)) return malformed(form);
    s.width = v[0], s.height = v[1], s.depth = v[2];
    return done(form);
  }
  // piglit_depth_texture: a GL_DEPTH_COMPONENT gradient from 0 at the left to 1 at the right, compared with
  // GL_GREATER.
  static constexpr struct {
    const char* name;
    uint32_t target;
    size_t sizes;  // W; W , H; W , LAYERS; W , H , LAYERS
    const char* form;
  } kShadows[] = {
      {"shadow2D", GL_TEXTURE_2D, 2, "texture shadow2D UNIT ( W , H )"},
      {"shadowRect", GL_TEXTURE_RECTANGLE, 2, "texture shadowRect UNIT ( W , H )"},
      {"shadow1D", GL_TEXTURE_1D, 1, "texture shadow1D UNIT ( W )"},
      {"shadow1DArray", GL_TEXTURE_1D_ARRAY, 2, "texture shadow1DArray UNIT ( W , LAYERS )"},
      {"shadow2DArray", GL_TEXTURE_2D_ARRAY, 3, "texture shadow2DArray UNIT ( W , H , LAYERS )"},
  };
  for (const auto& shadow : kShadows) {
    if (!t.word(shadow.name)) continue;
    s.content = TextureSpec::Content::Depth;
    s.target = shadow.target;
    s.internal_format = GL_DEPTH_COMPONENT;
    int32_t v[3] = {1, 1, 1};
    if (!t.integer(&unit) || !t.integers(shadow.sizes, v)) return malformed(shadow.form);
    s.width = v[0];
    if (shadow.target == GL_TEXTURE_1D_ARRAY) {
      s.depth = v[1];
    } else {
      s.height = v[1], s.depth = v[2];
    }
    return done(shadow.form);
  }
  if (t.word("storage")) {
    // glTexStorage{1,2,3}D by the number of sizes: ( LEVELS W ), ( LEVELS W H ), ( LEVELS W H D ).
    const char* form = "texture storage UNIT TARGET GL_FORMAT ( LEVELS W [H [D]] )";
    s.content = TextureSpec::Content::Storage;
    std::string target_name;
    if (!t.integer(&unit) || !t.any(&target_name) || !t.any(&s.format_name) || !t.word("(")) return malformed(form);
    const auto target = texture_target(target_name);
    if (!target) {
      return Result(
          fail("unknown texture target \"" + target_name + "\" (1D 2D 3D Rect Cube 1DArray 2DArray CubeArray)"));
    }
    s.target = *target;
    const auto format = gl_enum_value(s.format_name);
    if (!format) return Result(fail("unknown texture format \"" + s.format_name + "\" (a GL enum name)"));
    s.internal_format = *format;
    int32_t v[4] = {0, 0, 0, 0};
    size_t count = 0;
    while (count < 4 && t.integer(&v[count])) ++count;
    if (count < 2 || !t.word(")")) return malformed(form);
    s.levels = v[0], s.width = v[1];
    s.height = count >= 3 ? v[2] : 1;
    s.depth = count >= 4 ? v[3] : 1;
    s.dimensions = static_cast<int32_t>(count - 1);
    return done(form);
  }
  return Result(fail("unknown texture command \"" + c.text +
                     "\" (rgbw, checkerboard, quads, integer, miptree, junk, shadow*, storage)"));
}

// texparameter TARGET NAME VALUE: handle_texparameter's names and value tables.
Result texparameter(Tokens& t, Command& c) {
  TexParameterSpec& p = c.texparameter;
  const char* form = "texparameter TARGET NAME VALUE";
  std::string target_name;
  if (!t.any(&target_name) || !t.any(&p.name)) return malformed(form);
  const auto target = texture_target(target_name);
  if (!target) {
    return Result(
        fail("unknown texture target \"" + target_name + "\" (1D 2D 3D Rect Cube 1DArray 2DArray CubeArray)"));
  }
  p.target = *target;
  using Table = std::vector<std::pair<const char*, uint32_t>>;
  static const Table kCompareFuncs = {{"greater", GL_GREATER}, {"gequal", GL_GEQUAL}, {"less", GL_LESS},
                                      {"lequal", GL_LEQUAL},   {"equal", GL_EQUAL},   {"notequal", GL_NOTEQUAL},
                                      {"never", GL_NEVER},     {"always", GL_ALWAYS}};
  // GL_INTENSITY, GL_LUMINANCE and GL_DEPTH_TEXTURE_MODE are compatibility-profile enums (glext.h values).
  static const Table kDepthModes = {{"intensity", 0x8049}, {"luminance", 0x1909}, {"alpha", GL_ALPHA}, {"red", GL_RED}};
  static const Table kMinFilters = {{"nearest_mipmap_nearest", GL_NEAREST_MIPMAP_NEAREST},
                                    {"linear_mipmap_nearest", GL_LINEAR_MIPMAP_NEAREST},
                                    {"nearest_mipmap_linear", GL_NEAREST_MIPMAP_LINEAR},
                                    {"linear_mipmap_linear", GL_LINEAR_MIPMAP_LINEAR},
                                    {"nearest", GL_NEAREST},
                                    {"linear", GL_LINEAR}};
  static const Table kMagFilters = {{"nearest", GL_NEAREST}, {"linear", GL_LINEAR}};
  static const Table kWraps = {
      {"repeat", GL_REPEAT}, {"clamp_to_edge", GL_CLAMP_TO_EDGE}, {"clamp_to_border", GL_CLAMP_TO_BORDER}};
  static const Table kSwizzles = {{"red", GL_RED}, {"green", GL_GREEN}, {"blue", GL_BLUE}, {"alpha", GL_ALPHA}};
  static const struct {
    const char* name;
    uint32_t pname;
    const Table* values;
  } kEnumParameters[] = {
      {"compare_func", GL_TEXTURE_COMPARE_FUNC, &kCompareFuncs},
      {"depth_mode", 0x884B, &kDepthModes},
      {"min", GL_TEXTURE_MIN_FILTER, &kMinFilters},
      {"mag", GL_TEXTURE_MAG_FILTER, &kMagFilters},
      {"wrap_s", GL_TEXTURE_WRAP_S, &kWraps},
      {"wrap_t", GL_TEXTURE_WRAP_T, &kWraps},
      {"wrap_r", GL_TEXTURE_WRAP_R, &kWraps},
      {"swizzle_r", GL_TEXTURE_SWIZZLE_R, &kSwizzles},
  };
  for (const auto& parameter : kEnumParameters) {
    if (p.name != parameter.name) continue;
    p.pname = parameter.pname;
    p.value_kind = TexParameterSpec::Value::Enum;
    p.compat_only = p.name == "depth_mode";
    std::string value;
    std::string choices;
    for (const auto& [n, v] : *parameter.values) choices += std::string(choices.empty() ? "" : " ") + n;
    if (!t.any(&value) || !t.at_end()) return malformed("texparameter " + target_name + " " + p.name + " VALUE");
    for (const auto& [n, v] : *parameter.values) {
      if (value == n) {
        p.int_value = static_cast<int32_t>(v);
        return Result(Command::Kind::TexParameter);
      }
    }
    return Result(fail("bad " + p.name + " \"" + value + "\" (" + choices + ")"));
  }
  if (p.name == "max_level" || p.name == "base_level") {
    p.pname = p.name == "max_level" ? GL_TEXTURE_MAX_LEVEL : GL_TEXTURE_BASE_LEVEL;
    p.value_kind = TexParameterSpec::Value::Int;
    if (!t.integer(&p.int_value) || !t.at_end()) return malformed("texparameter " + target_name + " " + p.name + " N");
    return Result(Command::Kind::TexParameter);
  }
  if (p.name == "lod_bias") {
    p.pname = GL_TEXTURE_LOD_BIAS;
    p.value_kind = TexParameterSpec::Value::Float;
    if (!t.number(&p.floats[0]) || !t.at_end()) return malformed("texparameter " + target_name + " lod_bias F");
    return Result(Command::Kind::TexParameter);
  }
  if (p.name == "border_color") {
    p.pname = GL_TEXTURE_BORDER_COLOR;
    p.value_kind = TexParameterSpec::Value::FloatVector;
    for (float& f : p.floats) {
      if (!t.number(&f)) return malformed("texparameter " + target_name + " border_color R G B A");
    }
    if (!t.at_end()) return malformed("texparameter " + target_name + " border_color R G B A");
    return Result(Command::Kind::TexParameter);
  }
  return Result(fail("unknown texture parameter \"" + p.name +
                     "\" (compare_func depth_mode min mag wrap_s wrap_t wrap_r lod_bias max_level base_level "
                     "border_color swizzle_r)"));
}

// fb [draw|read] tex 2d UNIT... | fb [draw|read] tex layered [2DArray] UNIT; other fb forms are Unsupported.
Result framebuffer(Tokens& t, Command& c) {
  FramebufferSpec& f = c.framebuffer;
  f.target = t.word("draw") ? GL_DRAW_FRAMEBUFFER : t.word("read") ? GL_READ_FRAMEBUFFER : GL_FRAMEBUFFER;
  if (t.word("tex") && t.word("2d")) {
    int32_t unit = 0;
    while (t.integer(&unit)) {
      if (unit != -1) {
        if (auto bad = check_unit(unit)) return texture_error(bad);
      }
      f.units.push_back(unit);
    }
    if (f.units.empty() || !t.at_end() || f.units.size() > 8) return malformed("fb [draw|read] tex 2d UNIT...");
    return Result(Command::Kind::FramebufferTexture);
  }
  if (c.text.find(" tex layered") != std::string::npos) {
    // Older shader_runners spell the target: "fb tex layered 2DArray UNIT".
    const char* form = "fb [draw|read] tex layered [2DArray] UNIT";
    t.word("layered");
    t.word("2DArray");
    int32_t unit = 0;
    if (!t.integer(&unit) || !t.at_end()) return malformed(form);
    if (auto bad = check_unit(unit)) return texture_error(bad);
    f.layered = true;
    f.units.push_back(unit);
    return Result(Command::Kind::FramebufferTexture);
  }
  return Result(Command::Kind::Unsupported);  // fb ms, fb winsys, fb tex slice: renderbuffers, windows, slices
}

// probe [all|rect] rgb[a] ... and relative probe [rect] rgb[a] ( ... ) ( ... ).
Result probe(Tokens& t, Command& c, bool relative) {
  PixelProbeSpec& p = c.pixel_probe;
  p.relative = relative;
  p.region = t.word("all")    ? PixelProbeSpec::Region::All
             : t.word("rect") ? PixelProbeSpec::Region::Rect
                              : PixelProbeSpec::Region::Pixel;
  if (t.word("rgba")) {
    p.components = 4;
  } else if (t.word("rgb")) {
    p.components = 3;
  } else {
    return std::nullopt;  // probe depth, probe warn, ...: not a colour probe
  }
  const std::string prefix = std::string(relative ? "relative " : "") + "probe " +
                             (p.region == PixelProbeSpec::Region::All    ? "all "
                              : p.region == PixelProbeSpec::Region::Rect ? "rect "
                                                                         : "") +
                             (p.components == 4 ? "rgba" : "rgb");
  const std::string colour = p.components == 4 ? "R G B A" : "R G B";
  const std::string colour_parens = p.components == 4 ? "( R , G , B , A )" : "( R , G , B )";
  std::string form;
  bool ok = false;
  if (p.region == PixelProbeSpec::Region::All) {
    if (relative) return std::nullopt;
    form = prefix + " " + colour;
    ok = true;
    for (uint32_t i = 0; i < p.components && ok; ++i) ok = t.number(&p.expected[i]);
  } else if (p.region == PixelProbeSpec::Region::Rect) {
    form = prefix + " ( X , Y , W , H ) " + colour_parens;
    ok = t.numbers(4, p.area.data()) && t.numbers(p.components, p.expected.data());
    if (ok && !relative) {
      for (const float v : p.area) ok = ok && v == std::trunc(v);  // "( %d , %d , %d , %d )"
    }
  } else if (relative) {
    form = prefix + " ( X , Y ) " + colour_parens;
    ok = t.numbers(2, p.area.data()) && t.numbers(p.components, p.expected.data());
  } else {
    // "probe rgba X Y R G B A": parse_floats, the coordinates cast to int.
    form = prefix + " X Y " + colour;
    ok = t.number(&p.area[0]) && t.number(&p.area[1]);
    for (uint32_t i = 0; i < p.components && ok; ++i) ok = t.number(&p.expected[i]);
  }
  if (!ok || !t.at_end()) return malformed(form);
  return Result(Command::Kind::ProbePixels);
}

}  // namespace

std::optional<Expected<Command::Kind>> parse_texture_command(std::string_view line, Command& c) {
  Tokens t(line);
  if (t.word("texture")) return texture(t, c);
  if (t.word("texparameter")) return texparameter(t, c);
  if (t.word("image")) {
    if (!t.word("texture")) return std::nullopt;
    // "image texture UNIT FORMAT"; older shader_runners had no FORMAT and bound GL_RGBA8.
    int32_t unit = 0;
    std::string format_name = "GL_RGBA8";
    if (!t.integer(&unit)) return malformed("image texture UNIT [GL_FORMAT]");
    t.any(&format_name);
    if (!t.at_end()) return malformed("image texture UNIT [GL_FORMAT]");
    if (auto bad = check_unit(unit)) return texture_error(bad);
    const auto format = gl_enum_value(format_name);
    if (!format) return Result(fail("unknown image format \"" + format_name + "\" (a GL enum name)"));
    c.a[0] = static_cast<uint64_t>(unit);
    c.a[1] = *format;
    c.type_name = format_name;
    return Result(Command::Kind::ImageTexture);
  }
  if (t.word("fb")) return framebuffer(t, c);
  if (t.word("clear")) {
    if (t.at_end()) return Result(Command::Kind::Clear);
    if (!t.word("color")) return std::nullopt;  // clear depth: a depth buffer, which compute tests do not have
    for (float& f : c.pixel_probe.expected) {
      if (!t.number(&f)) return malformed("clear color R G B A");
    }
    if (!t.at_end()) return malformed("clear color R G B A");
    return Result(Command::Kind::ClearColor);
  }
  if (t.word("probe")) return probe(t, c, false);
  if (t.word("relative")) {
    if (!t.word("probe")) return std::nullopt;
    if (line.find(" int ") != std::string_view::npos || line.find(" int(") != std::string_view::npos) {
      return std::nullopt;  // relative probe rect rgba int: integer read-back, not done
    }
    return probe(t, c, true);
  }
  return std::nullopt;
}

}  // namespace bismuth::tools::runner
