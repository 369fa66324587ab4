// The compute subset of piglit's shader_runner format (`.shader_test`), as a parsed value. The parser never
// touches GL: it turns text into sections, requirements and [test] commands, and reports malformed input as
// "file:line: message". Running the commands is the executor's job (shader_test_executor.hpp).
//
// What is outside compute (vertex/fragment stages, drawing, pixel probes, textures) is not an error: it is
// recorded in `unsupported` so that the test is reported as SKIP with that reason, never FAIL or PASS.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bismuth/common/expected.hpp"

namespace bismuth::tools::runner {

// Comparison operators of [require] lines and probes.
enum class CompareOp { Equal, NotEqual, Less, LessEqual, Greater, GreaterEqual };
std::optional<CompareOp> parse_compare_op(std::string_view text);
const char* to_string(CompareOp op);

struct Requirement {
  enum class Kind {
    GlVersion,     // GL >= 4.3 (optionally "GL CORE >= 4.3")
    GlslVersion,   // GLSL >= 4.30
    Extension,     // GL_ARB_compute_shader
    NotExtension,  // !GL_ARB_foo
    IntLimit,      // INT GL_MAX_... >= N, or the older bare form GL_MAX_... >= N
    FloatLimit,    // FLOAT GL_MAX_... >= X
    Unsupported,   // GL ES, GLSL ES, GL COMPAT: `reason` says why the test is skipped
  };
  Kind kind = Kind::Extension;
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
};

struct ShaderSource {
  std::string text;
  int first_line = 0;  // file line of the section's first text line (GLSL line 1)
  bool spirv = false;  // [compute shader spirv]: SPIR-V assembly text
};

struct ShaderTest {
  std::string path;
  std::vector<Requirement> requirements;
  std::vector<ShaderSource> glsl_shaders;                             // [compute shader] sections, linked together
  std::vector<ShaderSource> spirv_shaders;                            // [compute shader spirv] sections
  enum class SpirvMode { No, Yes, Only } spirv_mode = SpirvMode::No;  // [require] SPIRV YES|ONLY
  std::vector<Command> commands;
  bool expect_link_error = false;
  // Set when the test needs something outside GL compute (a graphics stage, drawing, textures): SKIP reason.
  std::optional<std::string> unsupported;
};

// Parses `text` (the contents of `path`). Errors are "path:line: message".
Expected<ShaderTest> parse_shader_test(std::string_view text, const std::string& path);

}  // namespace bismuth::tools::runner
