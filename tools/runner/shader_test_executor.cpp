#include "shader_test_executor.hpp"

#include <algorithm>
#include <array>
#include <climits>
#include <cmath>
#include <cstring>
#include <map>
#include <regex>
#include <sstream>
#include <type_traits>

#include "bismuth/gl/bismuth_gl.h"
#include "gl_enum_names.hpp"
#include "interface_query.hpp"
#include "spirv_assembly.hpp"
#include "texture_commands.hpp"

namespace bismuth::tools::runner {

namespace {

std::string location(const ShaderTest& test, int line) {
  return test.path + ":" + std::to_string(line);
}

// GL info logs say "0:LINE(COLUMN): ..." relative to the shader text; rewrite to the test file's lines.
std::string remap_log(const std::string& log, const ShaderTest& test, const ShaderSource& source) {
  static const std::regex kPosition(R"(\b0:(\d+)\((\d+)\))");
  std::string out;
  auto begin = std::sregex_iterator(log.begin(), log.end(), kPosition);
  size_t last = 0;
  for (auto it = begin; it != std::sregex_iterator(); ++it) {
    const auto& m = *it;
    out.append(log, last, static_cast<size_t>(m.position()) - last);
    const long line = std::stol(m[1].str()) + source.first_line - 1;
    out += test.path + ":" + std::to_string(line) + ":" + m[2].str();
    last = static_cast<size_t>(m.position() + m.length());
  }
  out.append(log, last);
  while (!out.empty() && (out.back() == '\n' || out.back() == '\0')) out.pop_back();
  return out;
}

std::string version_text(double v) {
  const int n = static_cast<int>(v);
  return std::to_string(n / 100) + "." + std::to_string(n % 100 / 10) + (n % 10 ? std::to_string(n % 10) : "");
}

// Limits print as integers when they are (1073741824, not 1.07374e+09). Only magnitudes below 2^53 are cast: the
// cast of a double outside int64_t's range is undefined (C++ [conv.fpint]).
std::string number_text(double v) {
  if (std::fabs(v) < 0x1p53 && v == std::trunc(v)) return std::to_string(static_cast<int64_t>(v));
  std::ostringstream s;
  s << v;
  return s.str();
}

template <class T>
bool compare(T observed, CompareOp op, T expected) {
  switch (op) {
    case CompareOp::Equal:
    case CompareOp::FuzzyEqual:  // probe_value applies the tolerance before; here (integers) it is equality
      return observed == expected;
    case CompareOp::NotEqual: return observed != expected;
    case CompareOp::Less: return observed < expected;
    case CompareOp::LessEqual: return observed <= expected;
    case CompareOp::Greater: return observed > expected;
    case CompareOp::GreaterEqual: return observed >= expected;
  }
  return false;
}

// Compares a value read back (`bytes`, scalar_size(type) of them) with the expected scalar; `observed_text`
// gets the value as text for the message.
bool probe_value(ScalarType type, const unsigned char* bytes, CompareOp op, const Scalar& want, double tolerance,
                 bool relative, std::string* observed_text) {
  // "~=" on floating point: |observed - expected| <= tolerance, or <= tolerance * |expected| when relative.
  auto fuzzy = [&](double observed, double expected) {
    const double allowed = relative ? tolerance * std::fabs(expected) : tolerance;
    return std::fabs(observed - expected) <= allowed;
  };
  std::ostringstream text;
  bool ok = false;
  switch (type) {
    case ScalarType::Uint: {
      uint32_t v;
      std::memcpy(&v, bytes, 4);
      text << v;
      ok = compare<uint32_t>(v, op, static_cast<uint32_t>(want.bits));
      break;
    }
    case ScalarType::Int: {
      int32_t v;
      std::memcpy(&v, bytes, 4);
      text << v;
      ok = compare<int32_t>(v, op, static_cast<int32_t>(static_cast<uint32_t>(want.bits)));
      break;
    }
    case ScalarType::Uint64: {
      uint64_t v;
      std::memcpy(&v, bytes, 8);
      text << v;
      ok = compare<uint64_t>(v, op, want.bits);
      break;
    }
    case ScalarType::Int64: {
      int64_t v;
      std::memcpy(&v, bytes, 8);
      text << v;
      ok = compare<int64_t>(v, op, static_cast<int64_t>(want.bits));
      break;
    }
    case ScalarType::Float: {
      float v, w;
      std::memcpy(&v, bytes, 4);
      const uint32_t wb = static_cast<uint32_t>(want.bits);
      std::memcpy(&w, &wb, 4);
      text.precision(9);
      text << v;
      ok = op == CompareOp::FuzzyEqual ? fuzzy(v, w) : compare<float>(v, op, w);
      break;
    }
    case ScalarType::Double: {
      double v, w;
      std::memcpy(&v, bytes, 8);
      std::memcpy(&w, &want.bits, 8);
      text.precision(17);
      text << v;
      ok = op == CompareOp::FuzzyEqual ? fuzzy(v, w) : compare<double>(v, op, w);
      break;
    }
  }
  *observed_text = text.str();
  return ok;
}

struct Buffer {
  GLuint name = 0;
  size_t size = 0;
};

class Execution {
 public:
  Execution(const ShaderTest& test, GlSession& gl) : test_(test), gl_(gl), textures_(gl.is_es()) {}
  ~Execution() {
    for (auto& [binding, b] : ssbos_) glDeleteBuffers(1, &b.name);
    for (auto& [binding, b] : atomics_) glDeleteBuffers(1, &b.name);
    for (auto& [index, b] : uniform_blocks_) glDeleteBuffers(1, &b.name);
    if (test_.sso) {
      for (GLuint p : stage_programs_) {
        if (p != 0) glDeleteProgram(p);
      }
      if (pipeline_ != 0) glDeleteProgramPipelines(1, &pipeline_);
    } else if (program_ != 0) {
      glDeleteProgram(program_);
    }
  }

  Outcome run() {
    if (test_.unsupported) return skip(*test_.unsupported);
    if (auto reason = unmet_requirement()) return skip(*reason);
    if (auto failed = build_program()) return *failed;
    for (const auto& c : test_.commands) {
      if (c.kind == Command::Kind::Unsupported) {
        // Drawing cannot run: what ran before decides nothing more than a failure did.
        if (!first_probe_failure_.empty()) return {Status::Fail, first_probe_failure_, {}};
        return skip(c.reason);
      }
      if (auto failed = execute(c)) return *failed;
      if (!skip_reason_.empty()) {
        if (!first_probe_failure_.empty()) return {Status::Fail, first_probe_failure_, {}};
        return skip(skip_reason_);
      }
    }
    if (!first_probe_failure_.empty()) return {Status::Fail, first_probe_failure_, {}};
    return {Status::Pass, {}, {}};
  }

 private:
  static Outcome skip(std::string reason) { return {Status::Skip, std::move(reason), {}}; }
  Outcome failure(int line, const std::string& text) const {
    return {Status::Fail, location(test_, line) + ": " + text, {}};
  }

  std::optional<std::string> unmet_requirement() const {
    for (const auto& r : test_.requirements) {
      const std::string where = " (" + location(test_, r.line) + ")";
      switch (r.kind) {
        case Requirement::Kind::Unsupported: return r.reason;
        case Requirement::Kind::GlVersion:
        case Requirement::Kind::GlslVersion: {
          // As shader_runner's version_compare: an ES version is met by ES contexts only, a desktop one by
          // desktop contexts only.
          const bool glsl = r.kind == Requirement::Kind::GlslVersion;
          const int have = glsl ? gl_.glsl_version() : gl_.gl_version();
          const std::string api = std::string(glsl ? "GLSL" : "GL") + (r.es ? " ES" : "");
          const std::string context = std::string(gl_.is_es() ? "OpenGL ES " : "OpenGL ") + version_text(have);
          if (r.es != gl_.is_es() || !compare<double>(have, r.op, r.value)) {
            return "requires " + api + " " + to_string(r.op) + " " + version_text(r.value) + ", context is " + context +
                   where;
          }
          break;
        }
        case Requirement::Kind::Extension:
          if (!gl_.has_extension(r.name))
            return "requires " + r.name + ", not supported on " + gl_.device_name() + where;
          break;
        case Requirement::Kind::NotExtension:
          if (gl_.has_extension(r.name)) return "requires " + r.name + " to be absent" + where;
          break;
        case Requirement::Kind::IntLimit:
        case Requirement::Kind::FloatLimit: {
          const auto value = gl_.limit(r.name, r.kind == Requirement::Kind::FloatLimit);
          if (!value) {
            return "requires " + r.name + " " + to_string(r.op) + " " + number_text(r.value) + ": " +
                   value.error().message + where;
          }
          if (!compare<double>(*value, r.op, r.value)) {
            return "requires " + r.name + " " + to_string(r.op) + " " + number_text(r.value) + ", context has " +
                   number_text(*value) + where;
          }
          break;
        }
      }
    }
    return std::nullopt;
  }

  static GLenum shader_type(Stage stage) {
    switch (stage) {
      case Stage::Vertex: return GL_VERTEX_SHADER;
      case Stage::TessControl: return GL_TESS_CONTROL_SHADER;
      case Stage::TessEvaluation: return GL_TESS_EVALUATION_SHADER;
      case Stage::Geometry: return GL_GEOMETRY_SHADER;
      case Stage::Fragment: return GL_FRAGMENT_SHADER;
      case Stage::Compute: return GL_COMPUTE_SHADER;
    }
    return GL_COMPUTE_SHADER;
  }
  static const char* shader_type_name(Stage stage) {
    switch (stage) {
      case Stage::Vertex: return "GL_VERTEX_SHADER";
      case Stage::TessControl: return "GL_TESS_CONTROL_SHADER";
      case Stage::TessEvaluation: return "GL_TESS_EVALUATION_SHADER";
      case Stage::Geometry: return "GL_GEOMETRY_SHADER";
      case Stage::Fragment: return "GL_FRAGMENT_SHADER";
      case Stage::Compute: return "GL_COMPUTE_SHADER";
    }
    return "?";
  }

  // The section's text as glShaderSource gets it: shader_runner adds "#version N" (N es) from [require]'s GLSL
  // line to a section without a #version directive. `line_shift` is 1 then (GLSL line 2 is the section's first).
  std::string glsl_text(const ShaderSource& source, int* line_shift) const {
    *line_shift = 0;
    if (test_.glsl_required == 0 || source.text.find("#version ") != std::string::npos) return source.text;
    *line_shift = 1;
    std::string version = "#version " + std::to_string(test_.glsl_required);
    if (test_.glsl_required_es && test_.glsl_required != 100) version += " es";
    return version + "\n" + source.text;
  }

  // Compiles and links; returns an outcome only when the test is decided here (a link result it did not expect,
  // or a stage this libbismuth-gl cannot create: Skip).
  std::optional<Outcome> build_program() {
    const bool use_spirv = test_.spirv_mode == ShaderTest::SpirvMode::Only;
    if (!test_.sso) {
      program_ = glCreateProgram();
      if (test_.separable_program) glProgramParameteri(program_, GL_PROGRAM_SEPARABLE, GL_TRUE);
    }
    std::string log_text;
    bool compiled = true;
    const auto& sources = use_spirv ? test_.spirv_shaders : test_.glsl_shaders;
    for (const auto& source : sources) {
      while (glGetError() != GL_NO_ERROR) {
      }
      const GLuint shader = glCreateShader(shader_type(source.stage));
      if (shader == 0) {
        // GL 4.6 §7.1: glCreateShader returns 0 on error (GL_INVALID_ENUM for a type the context does not take).
        const GLenum e = glGetError();
        return skip(std::string("[") + section_name(source.stage) + (source.spirv ? " spirv" : "") + "] at " +
                    location(test_, source.section_line) + ": glCreateShader(" + shader_type_name(source.stage) +
                    ") returned 0" + (e != GL_NO_ERROR ? " (" + gl_error_name(e) + ")" : std::string()) +
                    ": this libbismuth-gl cannot create " + section_name(source.stage) + "s");
      }
      int line_shift = 0;
      if (use_spirv) {
        auto words = assemble_spirv(source.text);
        if (!words) {
          glDeleteShader(shader);
          // The message is relative to the section: make it a file position.
          const std::string& m = words.error().message;
          const size_t colon = m.find(':');
          int line = source.first_line;
          try {
            line += std::stoi(m.substr(0, colon)) - 1;
          } catch (...) {
          }
          return failure(line, "SPIR-V assembly: " + m.substr(colon == std::string::npos ? 0 : colon + 1));
        }
        glShaderBinary(1, &shader, GL_SHADER_BINARY_FORMAT_SPIR_V, words->data(),
                       static_cast<GLsizei>(words->size() * 4));
        // [X shader specializations]: glSpecializeShader's constant indices and values (32-bit patterns).
        const auto& specs = test_.specializations[static_cast<size_t>(source.stage)];
        std::vector<GLuint> indices, values;
        for (const auto& sp : specs) {
          indices.push_back(sp.index);
          values.push_back(sp.bits);
        }
        glSpecializeShader(shader, "main", static_cast<GLuint>(specs.size()), indices.data(), values.data());
      } else {
        const std::string text = glsl_text(source, &line_shift);
        const char* chars = text.c_str();
        glShaderSource(shader, 1, &chars, nullptr);
        glCompileShader(shader);
      }
      GLint ok = 0;
      glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
      if (!ok) {
        compiled = false;
        ShaderSource shifted = source;
        shifted.first_line -= line_shift;
        log_text += remap_log(shader_log(shader), test_, shifted) + "\n";
      }
      glAttachShader(program_of(source.stage), shader);
      glDeleteShader(shader);  // flagged; freed with the program
    }
    GLint linked = 0;
    if (compiled) linked = test_.sso ? link_sso_programs(log_text) : link_one(program_, log_text);
    while (!log_text.empty() && log_text.back() == '\n') log_text.pop_back();
    linked_ = linked != 0;
    // A shader that fails to compile makes the link fail too (GL 4.6 §7.3): "link error" expects either.
    if (!linked_ && !test_.expect_link_error) {
      return Outcome{
          Status::Fail, test_.path + ": " + (compiled ? "link failed: " : "compile failed: ") + log_text, {}};
    }
    if (linked_) {
      if (test_.sso) {
        glBindProgramPipeline(pipeline_);
      } else {
        glUseProgram(program_);
      }
      setup_uniform_blocks(use_spirv);
    }
    if (const GLenum e = glGetError(); e != GL_NO_ERROR && linked_) {
      return Outcome{Status::Fail, test_.path + ": building the program raised " + gl_error_name(e), {}};
    }
    while (glGetError() != GL_NO_ERROR) {
    }
    return std::nullopt;
  }

  // The program a section's shader is attached to: the test's one program, or with SSO ENABLED the separable
  // program of the section's stage (created on first use).
  GLuint program_of(Stage stage) {
    if (!test_.sso) return program_;
    GLuint& p = stage_programs_[static_cast<size_t>(stage)];
    if (p == 0) {
      p = glCreateProgram();
      glProgramParameteri(p, GL_PROGRAM_SEPARABLE, GL_TRUE);
    }
    return p;
  }

  static GLint link_one(GLuint program, std::string& log_text) {
    GLint linked = 0;
    glLinkProgram(program);
    glGetProgramiv(program, GL_LINK_STATUS, &linked);
    if (!linked) {
      std::vector<char> log(4096);
      glGetProgramInfoLog(program, static_cast<GLsizei>(log.size()), nullptr, log.data());
      log_text += log.data();
    }
    return linked;
  }

  // SSO ENABLED, as shader_runner does it: each stage's program is linked on its own and becomes that stage of one
  // program pipeline (glUseProgramStages, GL 4.6 §7.4); the pipeline is bound instead of a current program, so a
  // dispatch runs its compute stage (GL 4.6 §19) and glUniform* writes its active program (§7.4.1,
  // glActiveShaderProgram: "active shader program"). Queries read the compute stage's program, or the first one.
  GLint link_sso_programs(std::string& log_text) {
    static constexpr GLbitfield kStageBits[kStageCount] = {GL_VERTEX_SHADER_BIT,          GL_TESS_CONTROL_SHADER_BIT,
                                                           GL_TESS_EVALUATION_SHADER_BIT, GL_GEOMETRY_SHADER_BIT,
                                                           GL_FRAGMENT_SHADER_BIT,        GL_COMPUTE_SHADER_BIT};
    glGenProgramPipelines(1, &pipeline_);
    GLint all_linked = 1;
    for (size_t s = 0; s < kStageCount; ++s) {
      const GLuint p = stage_programs_[s];
      if (p == 0) continue;
      if (!link_one(p, log_text)) {
        all_linked = 0;
        continue;
      }
      glUseProgramStages(pipeline_, kStageBits[s], p);
      if (program_ == 0 || s == static_cast<size_t>(Stage::Compute)) program_ = p;
    }
    return all_linked;
  }

  // shader_runner's setup_ubos: a zeroed buffer of GL_BUFFER_DATA_SIZE bytes for every active uniform block, so
  // that `uniform` lines can fill block members. Block i is bound to binding i with glUniformBlockBinding (GLSL), or
  // stays at its own binding (SPIR-V, whose blocks are known by binding only).
  void setup_uniform_blocks(bool spirv) {
    GLint blocks = 0;
    glGetProgramiv(program_, GL_ACTIVE_UNIFORM_BLOCKS, &blocks);
    for (GLint i = 0; i < blocks; ++i) {
      const GLenum props[] = {GL_BUFFER_DATA_SIZE, GL_BUFFER_BINDING};
      GLint values[2] = {0, 0};
      glGetProgramResourceiv(program_, GL_UNIFORM_BLOCK, static_cast<GLuint>(i), 2, props, 2, nullptr, values);
      GLuint binding = static_cast<GLuint>(i);
      if (spirv) {
        binding = static_cast<GLuint>(std::max(values[1], 0));
      } else {
        glUniformBlockBinding(program_, static_cast<GLuint>(i), binding);
      }
      Buffer b;
      b.size = static_cast<size_t>(std::max(values[0], 0));
      glGenBuffers(1, &b.name);
      glBindBufferBase(GL_UNIFORM_BUFFER, binding, b.name);
      const std::vector<unsigned char> zeros(std::max<size_t>(b.size, 1), 0);
      glBufferData(GL_UNIFORM_BUFFER, static_cast<GLsizeiptr>(zeros.size()), zeros.data(), GL_DYNAMIC_DRAW);
      uniform_blocks_[static_cast<GLuint>(i)] = b;
      block_by_binding_.emplace(binding, static_cast<GLuint>(i));
    }
  }

  // A `uniform` line naming a member of a uniform block (shader_runner's set_ubo_uniform): the member's offset,
  // array and matrix strides from the program interface (GL 4.6 §7.3.1), the values written into the block's
  // buffer, matrices given column by column whatever the member's row_major layout. nullopt when NAME is no
  // block member.
  std::optional<std::optional<Outcome>> set_block_uniform(const Command& c) {
    std::string base = c.name;
    uint64_t element = 0;
    if (!base.empty() && base.back() == ']') {
      const size_t open = base.rfind('[');
      if (open == std::string::npos) return std::nullopt;
      try {
        element = std::stoull(base.substr(open + 1, base.size() - open - 2));
      } catch (...) {
        return std::nullopt;
      }
      base.resize(open);
    }
    GLuint index = glGetProgramResourceIndex(program_, GL_UNIFORM, base.c_str());
    if (index == GL_INVALID_INDEX) index = glGetProgramResourceIndex(program_, GL_UNIFORM, (base + "[0]").c_str());
    while (glGetError() != GL_NO_ERROR) {
    }
    if (index == GL_INVALID_INDEX) return std::nullopt;
    const GLenum props[] = {GL_BLOCK_INDEX, GL_OFFSET, GL_ARRAY_STRIDE, GL_MATRIX_STRIDE, GL_IS_ROW_MAJOR};
    GLint v[5] = {-1, 0, 0, 0, 0};
    glGetProgramResourceiv(program_, GL_UNIFORM, index, 5, props, 5, nullptr, v);
    const auto block = uniform_blocks_.find(static_cast<GLuint>(v[0]));
    if (v[0] < 0 || block == uniform_blocks_.end()) return std::nullopt;
    return std::optional<std::optional<Outcome>>(write_block_values(
        c, block->second, static_cast<uint64_t>(v[1]), element, static_cast<uint64_t>(std::max(v[2], 0)),
        static_cast<uint64_t>(std::max(v[3], 0)), v[4] != 0));
  }

  // The values of a `uniform` line into a block's buffer: element `element` + i / components at `offset` +
  // element × `array_stride`, matrices column by column (`matrix_stride` apart, transposed when `row_major`).
  std::optional<Outcome> write_block_values(const Command& c, const Buffer& buffer, uint64_t offset, uint64_t element,
                                            uint64_t array_stride, uint64_t matrix_stride, bool row_major) {
    const size_t size = scalar_size(c.scalar);
    const uint32_t rows = c.matrix_columns != 0 ? c.matrix_rows : c.components;
    for (size_t i = 0; i < c.values.size(); ++i) {
      const uint64_t e = element + i / c.components;
      const uint64_t k = i % c.components;
      uint64_t at = offset + e * array_stride;
      if (c.matrix_columns != 0) {
        const uint64_t column = k / rows, row = k % rows;
        at += row_major ? row * matrix_stride + column * size : column * matrix_stride + row * size;
      } else {
        at += k * size;
      }
      if (at + size > buffer.size) {
        return failure(c.line, "uniform \"" + c.name + "\" writes bytes " + std::to_string(at) + ".." +
                                   std::to_string(at + size) + " of its " + std::to_string(buffer.size) +
                                   "-byte uniform block");
      }
      const uint32_t word = static_cast<uint32_t>(c.values[i].bits);
      glNamedBufferSubData(buffer.name, static_cast<GLintptr>(at), static_cast<GLsizeiptr>(size),
                           size == 4 ? static_cast<const void*>(&word) : &c.values[i].bits);
    }
    return std::nullopt;
  }

  // A `uniform` line of a SPIR-V program (shader_runner's force_no_names mode): the member is where the `block`
  // commands say: the block at `block binding` (+ `block array index`), byte `block offset`.
  std::optional<Outcome> set_block_uniform_by_data(const Command& c) {
    if (block_binding_ < 0 || block_offset_ < 0) {
      return failure(c.line, "uniform \"" + c.name +
                                 "\" of a SPIR-V program needs \"block binding N\" and \"block offset N\" first "
                                 "(SPIR-V has no names)");
    }
    if (c.values.size() != c.components) {
      return failure(c.line, "one element per uniform line in a SPIR-V program (no array stride without names)");
    }
    const auto first = block_by_binding_.find(static_cast<GLuint>(block_binding_));
    if (first == block_by_binding_.end()) {
      return failure(c.line, "no active uniform block at binding " + std::to_string(block_binding_));
    }
    const auto block =
        uniform_blocks_.find(first->second + static_cast<GLuint>(std::max<int64_t>(block_array_index_, 0)));
    if (block == uniform_blocks_.end()) {
      return failure(c.line, "no uniform block at binding " + std::to_string(block_binding_) + " array index " +
                                 std::to_string(block_array_index_));
    }
    return write_block_values(c, block->second, static_cast<uint64_t>(block_offset_), 0, 0,
                              static_cast<uint64_t>(std::max<int64_t>(block_matrix_stride_, 0)), block_row_major_ != 0);
  }

  static std::string shader_log(GLuint shader) {
    GLint length = 0;
    glGetShaderiv(shader, GL_INFO_LOG_LENGTH, &length);
    std::vector<char> log(static_cast<size_t>(std::max(length, 1)) + 1);
    glGetShaderInfoLog(shader, static_cast<GLsizei>(log.size()), nullptr, log.data());
    return log.data();
  }

  std::optional<Outcome> execute(const Command& c) {
    using K = Command::Kind;
    switch (c.kind) {
      case K::LinkError:
        if (linked_) return failure(c.line, "link error expected, but the program linked");
        return std::nullopt;
      case K::LinkSuccess:
        if (!linked_) return failure(c.line, "link success expected, but the link failed");
        return std::nullopt;
      case K::Compute:
      case K::ComputeGroupSize:
      case K::ComputeIndirect:
      case K::Uniform:
        if (!linked_) return failure(c.line, "\"" + c.text + "\" needs a linked program");
        break;
      default: break;
    }
    switch (c.kind) {
      case K::Compute:
        glMemoryBarrier(GL_ALL_BARRIER_BITS);
        glDispatchCompute(static_cast<GLuint>(c.a[0]), static_cast<GLuint>(c.a[1]), static_cast<GLuint>(c.a[2]));
        glMemoryBarrier(GL_ALL_BARRIER_BITS);
        break;
      case K::ComputeGroupSize:
        glMemoryBarrier(GL_ALL_BARRIER_BITS);
        glDispatchComputeGroupSizeARB(static_cast<GLuint>(c.a[0]), static_cast<GLuint>(c.a[1]),
                                      static_cast<GLuint>(c.a[2]), static_cast<GLuint>(c.a[3]),
                                      static_cast<GLuint>(c.a[4]), static_cast<GLuint>(c.a[5]));
        glMemoryBarrier(GL_ALL_BARRIER_BITS);
        break;
      case K::ComputeIndirect: {
        // The DispatchIndirectCommand (three uints) is read from the ssbo at binding a[0], at byte a[1].
        const auto it = ssbos_.find(static_cast<GLuint>(c.a[0]));
        if (it == ssbos_.end()) {
          return failure(c.line, "no ssbo at binding " + std::to_string(c.a[0]) + " (create it first)");
        }
        glMemoryBarrier(GL_ALL_BARRIER_BITS);
        glBindBuffer(GL_DISPATCH_INDIRECT_BUFFER, it->second.name);
        glDispatchComputeIndirect(static_cast<GLintptr>(c.a[1]));
        glBindBuffer(GL_DISPATCH_INDIRECT_BUFFER, 0);
        glMemoryBarrier(GL_ALL_BARRIER_BITS);
        break;
      }
      case K::ActiveShaderProgram: {
        const GLuint p = stage_programs_[static_cast<size_t>(c.a[0])];
        if (!test_.sso || p == 0) {
          return failure(c.line, "\"" + c.text + "\" needs SSO ENABLED and a shader of that stage");
        }
        glActiveShaderProgram(pipeline_, p);
        program_ = p;  // uniform locations and queries are the active program's, as shader_runner reads them
        break;
      }
      case K::Tolerance:
        tolerance_ = c.tolerance;
        tolerance_relative_ = c.tolerance_relative;
        break;
      case K::Unsupported: break;  // run() skips before
      case K::VerifyProgramQuery:
      case K::ActiveUniform:
        if (auto failed = verify_query(c)) return failed;
        break;
      case K::BlockData: {
        const auto v = static_cast<int64_t>(c.a[0]);
        if (c.name == "binding")
          block_binding_ = v;
        else if (c.name == "offset")
          block_offset_ = v;
        else if (c.name == "array index")
          block_array_index_ = v;
        else if (c.name == "matrix stride")
          block_matrix_stride_ = v;
        else
          block_row_major_ = v;
        break;
      }
      case K::InterfaceQuery: {
        const QueryResult q = run_interface_query(c, program_);
        if (q.failure) return failure(c.line, *q.failure);
        if (q.skip) skip_reason_ = location(test_, c.line) + ": " + *q.skip;
        break;
      }
      case K::Ssbo: create_buffer(ssbos_, GL_SHADER_STORAGE_BUFFER, static_cast<GLuint>(c.a[0]), c.a[1]); break;
      case K::AtomicCounters: create_buffer(atomics_, GL_ATOMIC_COUNTER_BUFFER, 0, c.a[0] * 4); break;
      case K::AtomicCounterBuffer:
        create_buffer(atomics_, GL_ATOMIC_COUNTER_BUFFER, static_cast<GLuint>(c.a[0]), c.a[1] * 4);
        break;
      case K::SsboSubdata:
      case K::AtomicCounterSet: {
        const bool ssbo = c.kind == K::SsboSubdata;
        auto& buffers = ssbo ? ssbos_ : atomics_;
        const auto it = buffers.find(static_cast<GLuint>(c.a[0]));
        if (it == buffers.end()) {
          return failure(c.line, std::string("no ") + (ssbo ? "ssbo" : "atomic counter buffer") + " at binding " +
                                     std::to_string(c.a[0]) + " (create it first)");
        }
        if (ssbo) {
          // Each component at its std430 place (padding of vec3 arrays and matrix columns left as it is).
          const size_t size = scalar_size(c.scalar);
          const uint64_t end = c.a[1] + c.layout.offset_of(c.values.size() - 1) + size;
          if (end > it->second.size) {
            return failure(c.line, "writes bytes " + std::to_string(c.a[1]) + ".." + std::to_string(end) + " of a " +
                                       std::to_string(it->second.size) + "-byte buffer");
          }
          for (size_t i = 0; i < c.values.size(); ++i) {
            unsigned char bytes[8];
            const uint32_t word = static_cast<uint32_t>(c.values[i].bits);
            std::memcpy(bytes, size == 4 ? static_cast<const void*>(&word) : &c.values[i].bits, size);
            glNamedBufferSubData(it->second.name, static_cast<GLintptr>(c.a[1] + c.layout.offset_of(i)),
                                 static_cast<GLsizeiptr>(size), bytes);
          }
        } else {
          const uint64_t offset = c.a[1] * 4;
          const uint32_t word = static_cast<uint32_t>(c.a[2]);
          if (offset + 4 > it->second.size) {
            return failure(c.line, "writes bytes " + std::to_string(offset) + ".." + std::to_string(offset + 4) +
                                       " of a " + std::to_string(it->second.size) + "-byte buffer");
          }
          glNamedBufferSubData(it->second.name, static_cast<GLintptr>(offset), 4, &word);
        }
        break;
      }
      case K::Uniform:
        if (auto failed = set_uniform(c)) return failed;
        break;
      case K::MemoryBarrier: glMemoryBarrier(c.barrier_bits); break;
      case K::ProbeSsbo:
      case K::ProbeAtomicCounter:
        if (auto failed = probe(c)) return failed;
        break;
      case K::LinkError:
      case K::LinkSuccess: break;
      case K::Texture:
      case K::TexParameter:
      case K::ImageTexture:
      case K::FramebufferTexture:
      case K::ClearColor:
      case K::Clear:
      case K::ProbePixels: {
        const auto result = textures_.run(c, tolerance_, tolerance_relative_);
        using R = TextureCommandResult::Kind;
        if (result.kind == R::Skip) {
          skip_reason_ = location(test_, c.line) + ": \"" + c.text + "\" " + result.message;
          return std::nullopt;
        }
        if (result.kind == R::Fail) return failure(c.line, "\"" + c.text + "\": " + result.message);
        if (result.kind == R::ProbeFailed && first_probe_failure_.empty()) {
          first_probe_failure_ = location(test_, c.line) + ": " + result.message;
        }
        break;
      }
    }
    if (const GLenum e = glGetError(); e != GL_NO_ERROR) {
      return failure(c.line, "\"" + c.text + "\" raised " + gl_error_name(e));
    }
    return std::nullopt;
  }

  void create_buffer(std::map<GLuint, Buffer>& buffers, GLenum target, GLuint binding, uint64_t size) {
    if (auto it = buffers.find(binding); it != buffers.end()) glDeleteBuffers(1, &it->second.name);
    Buffer b;
    b.size = static_cast<size_t>(size);
    glGenBuffers(1, &b.name);
    glBindBufferBase(target, binding, b.name);
    // Zero-filled like shader_runner's calloc'd initial data.
    const std::vector<unsigned char> zeros(b.size, 0);
    glBufferData(target, static_cast<GLsizeiptr>(b.size), zeros.data(), GL_DYNAMIC_DRAW);
    buffers[binding] = b;
  }

  // The values as T (their bit patterns), passed through `proc` called with its exact GL signature.
  template <class T>
  static void set_values(void (*proc)(), const Command& c, GLint loc, GLsizei count) {
    std::vector<T> values;
    for (const auto& v : c.values) {
      T value;
      if constexpr (sizeof(T) == 8) {
        std::memcpy(&value, &v.bits, 8);
      } else {
        const uint32_t bits = static_cast<uint32_t>(v.bits);
        std::memcpy(&value, &bits, 4);
      }
      values.push_back(value);
    }
    if constexpr (std::is_floating_point_v<T>) {
      if (c.matrix_columns != 0) {
        reinterpret_cast<void(APIENTRY*)(GLint, GLsizei, GLboolean, const T*)>(proc)(loc, count, GL_FALSE,
                                                                                     values.data());
        return;
      }
    }
    reinterpret_cast<void(APIENTRY*)(GLint, GLsizei, const T*)>(proc)(loc, count, values.data());
  }

  std::optional<Outcome> set_uniform(const Command& c) {
    if (!c.uniform_by_location && test_.spirv_mode == ShaderTest::SpirvMode::Only) {
      return set_block_uniform_by_data(c);
    }
    const GLint loc =
        c.uniform_by_location ? static_cast<GLint>(c.a[0]) : glGetUniformLocation(program_, c.name.c_str());
    if (loc < 0 && !c.uniform_by_location) {
      if (auto in_block = set_block_uniform(c)) return *in_block;
    }
    if (loc < 0) {
      if (test_.ignore_missing_uniforms) return std::nullopt;  // [require] ignore_missing_uniforms
      return failure(c.line, "uniform \"" + c.name +
                                 "\" is not an active uniform of the program (glGetUniformLocation gives -1 and "
                                 "glGetProgramResourceIndex(GL_UNIFORM) knows no block member of that name)");
    }
    const GLsizei count = static_cast<GLsizei>(c.values.size() / c.components);
    // The entry point by name ("glUniform3fv", "glUniformMatrix2x3dv", "glUniform2i64vARB"), so that a
    // libbismuth-gl without it is a clear failure rather than a stub's GL error.
    std::string suffix;
    switch (c.scalar) {
      case ScalarType::Float: suffix = "fv"; break;
      case ScalarType::Double: suffix = "dv"; break;
      case ScalarType::Int: suffix = "iv"; break;
      case ScalarType::Uint: suffix = "uiv"; break;
      case ScalarType::Int64: suffix = "i64vARB"; break;
      case ScalarType::Uint64: suffix = "ui64vARB"; break;
    }
    std::string name;
    if (c.matrix_columns != 0) {
      name = "glUniformMatrix" + std::to_string(c.matrix_columns);
      if (c.matrix_rows != c.matrix_columns) name += "x" + std::to_string(c.matrix_rows);
      name += suffix;
    } else {
      name = "glUniform" + std::to_string(c.components) + suffix;
    }
    // GL 4.6 §7.6.1: "Only the Uniform1i{v} commands can be used to load sampler values"; a single int (a texture
    // or image unit, `uniform int tex 0`) goes through glUniform1i, the plainest of them.
    if (name == "glUniform1iv" && count == 1) {
      const auto one = reinterpret_cast<void(APIENTRY*)(GLint, GLint)>(bismuthGetProcAddress("glUniform1i"));
      if (one == nullptr) return failure(c.line, "glUniform1i is not available in this libbismuth-gl");
      one(loc, static_cast<GLint>(static_cast<uint32_t>(c.values[0].bits)));
      return std::nullopt;
    }
    const auto proc = bismuthGetProcAddress(name.c_str());
    if (proc == nullptr) return failure(c.line, name + " is not available in this libbismuth-gl");
    switch (c.scalar) {
      case ScalarType::Float: set_values<GLfloat>(proc, c, loc, count); break;
      case ScalarType::Double: set_values<GLdouble>(proc, c, loc, count); break;
      case ScalarType::Int: set_values<GLint>(proc, c, loc, count); break;
      case ScalarType::Uint: set_values<GLuint>(proc, c, loc, count); break;
      case ScalarType::Int64: set_values<GLint64>(proc, c, loc, count); break;
      case ScalarType::Uint64: set_values<GLuint64>(proc, c, loc, count); break;
    }
    return std::nullopt;
  }

  // An expected value of a query command: an integer (decimal, 0x hex, negative) or a GL enum name.
  std::optional<GLint> expected_value(const std::string& text) const {
    if (text.rfind("GL_", 0) == 0) {
      const auto v = gl_enum_value(text);
      if (!v) return std::nullopt;
      return static_cast<GLint>(*v);
    }
    try {
      size_t used = 0;
      const long long v = std::stoll(text, &used, 0);
      if (used != text.size() || v < INT32_MIN || v > INT32_MAX) return std::nullopt;
      return static_cast<GLint>(v);
    } catch (...) {
      return std::nullopt;
    }
  }

  // verify program_query (glGetProgramiv) and active uniform (glGetActiveUniform + glGetActiveUniformsiv, looked up
  // with bismuthGetProcAddress: a libbismuth-gl without them makes the test Skip). A mismatch is a Fail with both
  // values, like shader_runner's.
  std::optional<Outcome> verify_query(const Command& c) {
    const auto pname = gl_enum_value(c.type_name);
    if (!pname) return failure(c.line, c.type_name + " is not a GL enum");
    std::vector<GLint> want;
    for (const auto& text : c.expected) {
      const auto v = expected_value(text);
      if (!v) return failure(c.line, "bad expected value \"" + text + "\" (an integer or a GL enum name)");
      want.push_back(*v);
    }
    while (glGetError() != GL_NO_ERROR) {
    }
    GLint got[4] = {~want[0], 0, 0, 0};
    std::string call;
    if (c.kind == Command::Kind::VerifyProgramQuery) {
      call = "glGetProgramiv(" + c.type_name + ")";
      glGetProgramiv(program_, *pname, got);
    } else {
      using ActiveUniformProc = void(APIENTRY*)(GLuint, GLuint, GLsizei, GLsizei*, GLint*, GLenum*, GLchar*);
      using ActiveUniformsivProc = void(APIENTRY*)(GLuint, GLsizei, const GLuint*, GLenum, GLint*);
      const auto active = reinterpret_cast<ActiveUniformProc>(bismuthGetProcAddress("glGetActiveUniform"));
      const auto activeiv = reinterpret_cast<ActiveUniformsivProc>(bismuthGetProcAddress("glGetActiveUniformsiv"));
      if (active == nullptr || activeiv == nullptr) {
        skip_reason_ = location(test_, c.line) + ": \"" + c.text +
                       "\" needs glGetActiveUniform and glGetActiveUniformsiv, which this libbismuth-gl lacks";
        return std::nullopt;
      }
      GLint count = 0;
      glGetProgramiv(program_, GL_ACTIVE_UNIFORMS, &count);
      GLint found = -1;
      for (GLint i = 0; i < count && found < 0; ++i) {
        char name[512] = {};
        GLint size = 0;
        GLenum type = 0;
        active(program_, static_cast<GLuint>(i), sizeof name, nullptr, &size, &type, name);
        if (c.name == name) found = i;
      }
      if (found < 0) return failure(c.line, "no active uniform named \"" + c.name + "\"");
      const GLuint index = static_cast<GLuint>(found);
      call = "glGetActiveUniformsiv(" + c.name + ", " + c.type_name + ")";
      activeiv(program_, 1, &index, *pname, got);
    }
    if (const GLenum e = glGetError(); e != GL_NO_ERROR) return failure(c.line, call + " raised " + gl_error_name(e));
    if (std::equal(want.begin(), want.end(), got)) return std::nullopt;
    std::string expected, observed;
    for (size_t i = 0; i < want.size(); ++i) {
      expected += (i ? " " : "") + c.expected[i];
      observed += (i ? " " : "") + std::to_string(got[i]);
    }
    return failure(c.line, call + ": expected " + expected + ", got " + observed);
  }

  // Records the first failing probe; later commands still run (shader_runner reports all and fails at the end).
  std::optional<Outcome> probe(const Command& c) {
    const bool ssbo = c.kind == Command::Kind::ProbeSsbo;
    auto& buffers = ssbo ? ssbos_ : atomics_;
    const auto it = buffers.find(static_cast<GLuint>(c.a[0]));
    if (it == buffers.end()) {
      return failure(c.line, std::string("no ") + (ssbo ? "ssbo" : "atomic counter buffer") + " at binding " +
                                 std::to_string(c.a[0]));
    }
    const size_t size = scalar_size(c.scalar);
    const uint64_t offset = c.a[1];
    // Atomic counter probes are single uints; ssbo probes follow the std430 layout of their type.
    const DataLayout layout = ssbo ? c.layout : DataLayout{};
    const uint64_t end = offset + layout.offset_of(c.values.size() - 1) + size;
    if (end > it->second.size) {
      return failure(c.line, "probes bytes " + std::to_string(offset) + ".." + std::to_string(end) + " of a " +
                                 std::to_string(it->second.size) + "-byte buffer");
    }
    std::vector<unsigned char> bytes(static_cast<size_t>(end - offset));
    glGetNamedBufferSubData(it->second.name, static_cast<GLintptr>(offset), static_cast<GLsizeiptr>(bytes.size()),
                            bytes.data());
    for (size_t i = 0; i < c.values.size(); ++i) {
      std::string observed;
      const uint64_t at = layout.offset_of(i);
      if (!probe_value(c.scalar, bytes.data() + at, c.op, c.values[i], tolerance_[i % 4], tolerance_relative_[i % 4],
                       &observed)) {
        if (first_probe_failure_.empty()) {
          std::string expected = std::string(to_string(c.op)) + " " + c.values[i].text;
          if (c.op == CompareOp::FuzzyEqual) {
            expected += " (tolerance " +
                        number_text(tolerance_relative_[i % 4] ? tolerance_[i % 4] * 100 : tolerance_[i % 4]) +
                        (tolerance_relative_[i % 4] ? "%)" : ")");
          }
          first_probe_failure_ = location(test_, c.line) + ": probe failed at byte offset " +
                                 std::to_string(offset + at) + ": expected " +
                                 (ssbo ? c.type_name : std::string("uint")) +
                                 (c.values.size() > 1 ? " component " + std::to_string(i) : std::string()) + " " +
                                 expected + ", observed " + observed;
        }
        break;
      }
    }
    return std::nullopt;
  }

  const ShaderTest& test_;
  GlSession& gl_;
  GLuint program_ = 0;
  std::array<GLuint, kStageCount> stage_programs_{};  // SSO ENABLED: each stage's separable program
  GLuint pipeline_ = 0;                               // SSO ENABLED: the program pipeline holding them
  bool linked_ = false;
  std::map<GLuint, Buffer> ssbos_;
  std::map<GLuint, Buffer> atomics_;
  std::map<GLuint, Buffer> uniform_blocks_;    // by block index
  std::map<GLuint, GLuint> block_by_binding_;  // binding -> block index (the first block at that binding)
  // shader_runner's block_data, set by `block ...` commands: where SPIR-V uniform lines write.
  int64_t block_binding_ = -1, block_offset_ = -1, block_array_index_ = 0, block_matrix_stride_ = 0,
          block_row_major_ = 0;
  TextureCommands textures_;  // textures, images, framebuffers, clears and pixel probes
  std::string skip_reason_;   // a command found the context lacking: the test stops as a Skip
  std::string first_probe_failure_;
  // The `tolerance` of "~=" probes; 0.01 absolute until a tolerance command, as shader_runner's default.
  std::array<double, 4> tolerance_ = {0.01, 0.01, 0.01, 0.01};
  std::array<bool, 4> tolerance_relative_ = {false, false, false, false};
};

}  // namespace

Outcome execute_shader_test(const ShaderTest& test, GlSession& gl) {
  Execution execution(test, gl);
  Outcome outcome = execution.run();
  const auto messages = gl.validation_messages();
  if (!messages.empty() && outcome.status != Status::Skip) {
    std::string text = test.path + ": " + std::to_string(messages.size()) + " validation message(s): " + messages[0];
    if (outcome.status == Status::Fail) text = outcome.message + "; " + text;
    outcome = {Status::Fail, text, {}};
  }
  return outcome;
}

}  // namespace bismuth::tools::runner
