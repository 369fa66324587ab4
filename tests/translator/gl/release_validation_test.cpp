// spirv-val in the GL shim's links (docs/gl_shim.md, "Contexts, EGL, validation"): a GLSL link runs it only where
// BISMUTH_VALIDATION=1 asks (its module and run-time group-size variant come from glslang and passes the tests hold
// to spirv-val), an ARB_gl_spirv link always (its module is the application's). A debug context hears of each link
// that ran it (GL_DEBUG_SOURCE_SHADER_COMPILER, id 0x7B13). The contexts run under the validation layer throughout:
// the device is made while BISMUTH_VALIDATION=1, the variable is read again at each link.
#include <cstdlib>
#include <optional>
#include <string>

#include <spirv-tools/libspirv.hpp>

#include "spirv_patch/gl_spirv_modules.hpp"
#include "translator/gl/gl_fixture.hpp"

using namespace bismuth::gltest;

namespace {

constexpr GLuint kSpirvValidatedId = 0x7B13;

// Sets BISMUTH_VALIDATION for a scope (unset: nullptr) and restores what it was; the program cache is off, so every
// link runs from source.
class ValidationSetting {
 public:
  explicit ValidationSetting(const char* value) {
    if (const char* was = std::getenv("BISMUTH_VALIDATION")) saved_ = was;
    value ? setenv("BISMUTH_VALIDATION", value, 1) : unsetenv("BISMUTH_VALIDATION");
    setenv("BISMUTH_PROGRAM_CACHE", "0", 1);
  }
  ~ValidationSetting() {
    saved_ ? setenv("BISMUTH_VALIDATION", saved_->c_str(), 1) : unsetenv("BISMUTH_VALIDATION");
    unsetenv("BISMUTH_PROGRAM_CACHE");
  }
  ValidationSetting(const ValidationSetting&) = delete;
  ValidationSetting& operator=(const ValidationSetting&) = delete;

 private:
  std::optional<std::string> saved_;
};

// A variable-size program (it has a run-time group-size variant where the device takes one) writing
// index * `factor` + 1 for each invocation.
std::string variable_source(uint32_t factor) {
  return "#version 450\n"
         "#extension GL_ARB_compute_variable_group_size : require\n"
         "layout(local_size_variable) in;\n"
         "layout(std430, binding = 0) buffer Out { uint v[]; };\n"
         "void main() { v[gl_GlobalInvocationID.x] = gl_GlobalInvocationID.x * " +
         std::to_string(factor) + "u + 1u; }\n";
}

size_t spirv_val_notes(const GlContext& gl) {
  size_t n = 0;
  for (const DebugRecord& m : gl.messages())
    n += m.id == kSpirvValidatedId && m.source == GL_DEBUG_SOURCE_SHADER_COMPILER;
  return n;
}

// Links the variable-size program, dispatches 2 groups of 32 and checks every word.
void link_and_check(uint32_t factor) {
  const GLuint program = make_program(variable_source(factor));
  const GLuint out = make_buffer(64 * 4);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, out);
  glUseProgram(program);
  glDispatchComputeGroupSizeARB(2, 1, 1, 32, 1, 1);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  const auto words = read_words(out, 64);
  for (uint32_t i = 0; i < 64; ++i) CHECK(words[i] == i * factor + 1);
  glUseProgram(0);
  glDeleteProgram(program);
  glDeleteBuffers(1, &out);
}

}  // namespace

TEST_CASE("A GLSL link runs spirv-val only where BISMUTH_VALIDATION=1 asks", "[validation]") {
  GlContext gl(4, 6, true);
  REQUIRE(has_extension("GL_ARB_compute_variable_group_size"));
  {
    ValidationSetting on("1");
    link_and_check(3);
    CHECK(spirv_val_notes(gl) == 1);
  }
  gl.clear_messages();
  for (const char* off : {static_cast<const char*>(nullptr), "0"}) {
    ValidationSetting release(off);
    link_and_check(off ? 5 : 7);
    CHECK(spirv_val_notes(gl) == 0);
  }
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("An ARB_gl_spirv link runs spirv-val without BISMUTH_VALIDATION", "[validation]") {
  GlContext gl(4, 6, true);
  ValidationSetting release(nullptr);
  spvtools::SpirvTools tools(SPV_ENV_UNIVERSAL_1_0);
  std::vector<uint32_t> words;
  REQUIRE(tools.Assemble(bismuth::test::gl_spirv::kSpecializedSize, &words));
  const GLuint shader = glCreateShader(GL_COMPUTE_SHADER);
  glShaderBinary(1, &shader, GL_SHADER_BINARY_FORMAT_SPIR_V, words.data(), static_cast<GLsizei>(words.size() * 4));
  const GLuint id = 4, value = 16;
  glSpecializeShader(shader, "main", 1, &id, &value);
  const GLuint program = glCreateProgram();
  glAttachShader(program, shader);
  glLinkProgram(program);
  GLint ok = 0;
  glGetProgramiv(program, GL_LINK_STATUS, &ok);
  REQUIRE(ok == GL_TRUE);
  CHECK(spirv_val_notes(gl) == 1);
  glDeleteShader(shader);
  glDeleteProgram(program);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}
