// The compute subset of piglit's shader_runner format (`.shader_test`), as a parsed value. The parser never
// touches GL: it turns text into sections, requirements and [test] commands, and reports malformed input as
// "file:line: message". Running the commands is the executor's job (shader_test_executor.hpp).
//
// Other stages ([vertex shader], [fragment shader], ...) are compiled and linked like compute ones (link tests);
// texture, image, framebuffer, clear and pixel probe commands are parsed (texture_command_parser.hpp) and run through
// GL (texture_commands.hpp); what needs rasterization (draw, depth probes, ...) is not an error: such a [test]
// command is kept as Kind::Unsupported and the test is reported as SKIP naming it when it is reached, and a
// section the runner cannot run ([vertex program], [shader include]) is recorded in `unsupported`.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bismuth/common/expected.hpp"

namespace bismuth::tools::runner {

// Comparison operators of [require] lines and probes; FuzzyEqual is the probes' "~=" (within the `tolerance`).
enum class CompareOp { Equal, NotEqual, Less, LessEqual, Greater, GreaterEqual, FuzzyEqual };
std::optional<CompareOp> parse_compare_op(std::string_view text);  // == != < <= > >=
std::optional<CompareOp> parse_probe_op(std::string_view text);    // those and ~=
const char* to_string(CompareOp op);

struct Requirement {
  enum class Kind {
    GlVersion,     // GL >= 4.3, GL CORE >= 4.3, GL ES >= 3.1 (es)
    GlslVersion,   // GLSL >= 4.30, GLSL ES >= 3.10 (es)
    Extension,     // GL_ARB_compute_shader
    NotExtension,  // !GL_ARB_foo, -GL_ARB_foo
    IntLimit,      // INT GL_... >= N, or the bare form GL_... >= N (any enum: GL_SUBGROUP_SIZE_KHR >= 32)
    FloatLimit,    // FLOAT GL_... >= X
    Unsupported,   // GL COMPAT: `reason` says why the test is skipped
  };
  Kind kind = Kind::Extension;
  bool es = false;   // GlVersion / GlslVersion of OpenGL ES
  std::string name;  // extension or limit name
  CompareOp op = CompareOp::GreaterEqual;
  double value = 0;  // version as major.minor (4.3, 4.30 -> 4.3) or the limit
  std::string reason;
  int line = 0;
};

// Scalar types of `ssbo N subdata TYPE`, `uniform TYPE` components and `probe ssbo TYPE`.
enum class ScalarType { Int, Uint, Float, Double, Int64, Uint64 };
std::optional<ScalarType> parse_scalar_type(std::string_view text);
size_t scalar_size(ScalarType type);
const char* to_string(ScalarType type);

// A value as written in the file, kept as the bit pattern of its type (hex integers for float types are bit
// patterns too, as piglit allows).
struct Scalar {
  ScalarType type = ScalarType::Uint;
  uint64_t bits = 0;
  std::string text;  // as written, for messages
};

// The std430 layout of a `probe ssbo` / `ssbo subdata` type: a scalar, a vector (columns = 1) or a matrix of
// `columns` columns of `rows` components, elements of an array at `element_stride` bytes.
struct DataLayout {
  ScalarType scalar = ScalarType::Uint;
  uint32_t columns = 1;
  uint32_t rows = 1;
  uint32_t column_stride = 4;
  uint32_t element_stride = 4;
  uint32_t components() const { return columns * rows; }
  // Byte offset of component `i` (counting across elements) from the start of the array.
  uint64_t offset_of(uint64_t i) const;
};

// `texture ...` commands: which of piglit's generated textures (piglit-util-gl.c) or storage to create.
struct TextureSpec {
  enum class Content { Rgbw, Quads, Integer, Miptree, Junk, Depth, Storage };
  Content content = Content::Rgbw;
  uint32_t unit = 0;
  uint32_t target = 0;           // GL_TEXTURE_2D, GL_TEXTURE_2D_ARRAY, ...
  uint32_t internal_format = 0;  // GL_RGBA unless the command names one
  std::string format_name;
  int32_t width = 1, height = 1, depth = 1;  // depth: layers of array targets, slices of 3D ones
  int32_t levels = 1;                        // texture storage LEVELS
  int32_t dimensions = 2;                    // texture storage: glTexStorage1D, 2D or 3D (sizes given)
  int32_t level = 0;                         // checkerboard / quads: the level written
  int32_t quad_width = 1, quad_height = 1;   // quads: tile size (checkerboard: half the texture)
  std::array<float, 16> colors{};            // quads: bottom-left, bottom-right, top-left, top-right RGBA
  int32_t blue = 0, alpha = 0;               // integer: the B and A of every texel
};

// `texparameter TARGET NAME VALUE...`, piglit's handle_texparameter.
struct TexParameterSpec {
  uint32_t target = 0;
  uint32_t pname = 0;
  std::string name;  // the piglit parameter word (compare_func, min, wrap_s, ...)
  enum class Value { Enum, Int, Float, FloatVector } value_kind = Value::Enum;
  int32_t int_value = 0;  // Enum or Int
  std::array<float, 4> floats{};
  bool compat_only = false;  // depth_mode: GL_DEPTH_TEXTURE_MODE is not in core profiles
};

// `fb [draw|read] tex 2d UNIT...` or `fb [draw|read] tex layered [2DArray] UNIT`.
struct FramebufferSpec {
  uint32_t target = 0;  // GL_FRAMEBUFFER, GL_DRAW_FRAMEBUFFER or GL_READ_FRAMEBUFFER
  bool layered = false;
  std::vector<int32_t> units;  // colour attachment i is the texture at unit units[i]; -1 attaches none
};

// Pixel probes (piglit_probe_pixel_rgb[a], piglit_probe_rect_rgb[a]) and `clear color`.
struct PixelProbeSpec {
  enum class Region { Pixel, Rect, All } region = Region::Pixel;
  bool relative = false;        // coordinates are fractions of the read framebuffer's size
  uint32_t components = 4;      // 3 (rgb) or 4 (rgba)
  std::array<float, 4> area{};  // x, y (and w, h for Rect); pixels, or fractions when relative
  std::array<float, 4> expected{};
};

struct Command {
  enum class Kind {
    Compute,              // compute X Y Z
    ComputeGroupSize,     // compute group size X Y Z W H D
    Ssbo,                 // ssbo N SIZE
    SsboSubdata,          // ssbo N subdata TYPE OFFSET VALUES...
    AtomicCounters,       // atomic counters N   (a buffer of N zeroed counters at binding 0)
    AtomicCounterBuffer,  // atomic counter buffer B N
    AtomicCounterSet,     // atomic counter B INDEX VALUE
    Uniform,              // uniform TYPE NAME VALUES...
    MemoryBarrier,        // memory barrier GL_..._BARRIER_BIT[|...]
    ProbeSsbo,            // probe ssbo TYPE BINDING OFFSET OP VALUES...
    ProbeAtomicCounter,   // probe atomic counter INDEX OP VALUE, probe atomic counter buffer B OFFSET OP VALUE
    LinkError,            // link error
    LinkSuccess,          // link success
    ComputeIndirect,      // compute indirect BINDING OFFSET (the ssbo at BINDING as GL_DISPATCH_INDIRECT_BUFFER)
    Tolerance,            // tolerance T [T T T], each absolute or N% (relative), for "~=" probes
    Unsupported,          // a command that needs rasterization or textures: SKIP when reached (`text`, `reason`)
    VerifyProgramQuery,   // verify program_query GL_PNAME VALUE... (glGetProgramiv)
    ActiveUniform,        // active uniform NAME GL_PNAME VALUE (glGetActiveUniform / glGetActiveUniformsiv)
    InterfaceQuery,       // verify program_interface_query [QUERY] GL_INTERFACE ... (interface_query.hpp)
    BlockData,            // block binding|offset|array index|matrix stride|row major N (`name`, a[0] as int64)
    ActiveShaderProgram,  // active shader program GL_<STAGE>_SHADER (a[0]: the Stage)
    Texture,              // texture rgbw|checkerboard|quads|integer|miptree|junk|shadow*|storage ... (`texture`)
    TexParameter,         // texparameter TARGET NAME VALUE... (`texparameter`)
    ImageTexture,         // image texture UNIT [FORMAT] (`a[0]` the unit, `a[1]` the format enum)
    FramebufferTexture,   // fb [draw|read] tex 2d UNIT... / fb [draw|read] tex layered [2DArray] UNIT (`framebuffer`)
    ClearColor,           // clear color R G B A (`pixel_probe.expected` holds the colour)
    Clear,                // clear
    ProbePixels,          // probe rgb[a], probe all rgb[a], probe rect rgb[a], relative probe ... (`pixel_probe`)
  };
  Kind kind = Kind::Compute;
  int line = 0;
  std::string text;                    // the line, for messages
  uint64_t a[6] = {0, 0, 0, 0, 0, 0};  // numeric operands in order (counts, binding, offset, size, ...)
  std::string type_name;               // uniform GLSL type ("vec4") or probe/subdata scalar type
  std::string name;                    // uniform name
  ScalarType scalar = ScalarType::Uint;
  uint32_t components = 1;      // uniform: values per element (vector width, or columns * rows)
  uint32_t matrix_columns = 0;  // uniform matCxR: C and R; 0 for scalars and vectors
  uint32_t matrix_rows = 0;
  CompareOp op = CompareOp::Equal;
  std::vector<Scalar> values;
  uint32_t barrier_bits = 0;
  DataLayout layout;                 // probe ssbo / ssbo subdata: the layout of `values`
  bool uniform_by_location = false;  // uniform TYPE LOCATION ...: `a[0]` is the location (SPIR-V programs)
  std::array<double, 4> tolerance = {0, 0, 0, 0};
  std::array<bool, 4> tolerance_relative = {false, false, false, false};
  std::string reason;  // Unsupported: why the test is skipped
  // VerifyProgramQuery / ActiveUniform: the pname (in `type_name`) and the expected values, each an integer or a
  // GL enum name (GL_TRUE, GL_FLOAT_VEC4), resolved when the command runs.
  std::vector<std::string> expected;
  // InterfaceQuery: the query form ("interface", "resourceByName" for shader_runner's unnamed default,
  // "resourceByData", "resourceIndex", "resourceLocation", "resourceLocationIndex", "resourceName"), the interface
  // enum name, the resource name ("" for shader_runner's `""`), the words of its "(resource data)", and the
  // property or pname (in `type_name`); the expected values are in `expected`.
  std::string query;
  std::string interface_name;
  std::string resource_name;
  std::vector<std::string> resource_data;
  TextureSpec texture;
  TexParameterSpec texparameter;
  FramebufferSpec framebuffer;
  PixelProbeSpec pixel_probe;
};

// Shader stages of the sections, in GL's pipeline order.
enum class Stage { Vertex, TessControl, TessEvaluation, Geometry, Fragment, Compute };
constexpr size_t kStageCount = 6;
const char* section_name(Stage stage);  // "vertex shader"

// [X shader specializations] lines: "uint INDEX VALUE" / "float INDEX VALUE", for glSpecializeShader.
struct Specialization {
  uint32_t index = 0;
  uint32_t bits = 0;
};

struct ShaderSource {
  std::string text;
  int first_line = 0;  // file line of the section's first text line (GLSL line 1)
  bool spirv = false;  // [compute shader spirv]: SPIR-V assembly text
  Stage stage = Stage::Compute;
  int section_line = 0;  // the [section] header's line
};

struct ShaderTest {
  std::string path;
  std::vector<Requirement> requirements;
  std::vector<ShaderSource> glsl_shaders;   // [X shader] sections of every stage, linked together
  std::vector<ShaderSource> spirv_shaders;  // [X shader spirv] sections
  std::array<std::vector<Specialization>, kStageCount> specializations;  // by Stage
  // [require] GLSL >= N: a section without #version gets "#version N" (ES: "N es"), as shader_runner does.
  int glsl_required = 0;
  bool glsl_required_es = false;
  // [require] GL ES >= M.m: the test needs an OpenGL ES context of that version (M * 10 + m); 0: desktop GL.
  int es_context_version = 0;
  bool separable_program = false;  // SEPARABLE PROGRAM ENABLED: GL_PROGRAM_SEPARABLE before the link
  bool sso = false;  // SSO ENABLED: each stage a separable program of its own, in a bound program pipeline
  bool ignore_missing_uniforms = false;  // ignore_missing_uniforms: a uniform that is not active is no failure
  enum class SpirvMode { No, Yes, Only } spirv_mode = SpirvMode::No;  // [require] SPIRV YES|ONLY
  std::vector<Command> commands;
  bool expect_link_error = false;
  // Set when the test needs something outside GL compute (a graphics stage, drawing, textures): SKIP reason.
  std::optional<std::string> unsupported;
};

// Parses `text` (the contents of `path`). Errors are "path:line: message".
Expected<ShaderTest> parse_shader_test(std::string_view text, const std::string& path);

}  // namespace bismuth::tools::runner
