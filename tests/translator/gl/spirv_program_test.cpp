// ARB_gl_spirv / GL 4.6 SPIR-V programs through the GL API: default-block uniforms set by location, atomic
// counters at GL_ATOMIC_COUNTER_BUFFER binding points, unsized arrays, specialization (entry point, constants,
// errors), the SPIR-V queries, link errors, and modules that are corrupt or ask for what the device lacks.
#include <spirv-tools/libspirv.hpp>

#include <algorithm>
#include <cstring>
#include <random>
#include <set>
#include <string>

#include "spirv_patch/gl_spirv_modules.hpp"
#include "translator/gl/gl_fixture.hpp"

using namespace bismuth::gltest;
namespace modules = bismuth::test::gl_spirv;

namespace {

std::vector<uint32_t> assemble(const std::string& text, spv_target_env env = SPV_ENV_UNIVERSAL_1_0) {
  spvtools::SpirvTools tools(env);
  std::string messages;
  tools.SetMessageConsumer([&](spv_message_level_t, const char*, const spv_position_t& p, const char* m) {
    messages += "line " + std::to_string(p.line) + ": " + m + "\n";
  });
  std::vector<uint32_t> words;
  if (!tools.Assemble(text, &words)) FAIL(messages);
  return words;
}

GLuint binary_shader(const std::vector<uint32_t>& words) {
  const GLuint shader = glCreateShader(GL_COMPUTE_SHADER);
  glShaderBinary(1, &shader, GL_SHADER_BINARY_FORMAT_SPIR_V, words.data(), static_cast<GLsizei>(words.size() * 4));
  return shader;
}

std::string shader_log(GLuint shader) {
  char log[1024] = {};
  glGetShaderInfoLog(shader, sizeof log, nullptr, log);
  return log;
}

std::string program_log(GLuint program) {
  char log[2048] = {};
  glGetProgramInfoLog(program, sizeof log, nullptr, log);
  return log;
}

// glShaderBinary + glSpecializeShader + glLinkProgram; REQUIREs each step.
GLuint spirv_program(const std::vector<uint32_t>& words, std::vector<std::pair<GLuint, GLuint>> constants = {}) {
  const GLuint shader = binary_shader(words);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  std::vector<GLuint> ids, values;
  for (auto [id, value] : constants) ids.push_back(id), values.push_back(value);
  glSpecializeShader(shader, "main", static_cast<GLuint>(ids.size()), ids.data(), values.data());
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  GLint ok = 0;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (!ok) FAIL("specialization failed: " << shader_log(shader));
  const GLuint program = glCreateProgram();
  glAttachShader(program, shader);
  glLinkProgram(program);
  glDeleteShader(shader);
  glGetProgramiv(program, GL_LINK_STATUS, &ok);
  if (!ok) FAIL("link failed: " << program_log(program));
  return program;
}


}  // namespace

TEST_CASE("SPIR-V default-block uniforms are set by location with glUniform* and glProgramUniform*") {
  GlContext gl;
  const GLuint program = spirv_program(assemble(modules::kDefaultUniforms));
  // ARB_gl_spirv: "the uniform's location is the one given by the Location decoration"; names are not used, so
  // glGetUniformLocation finds nothing.
  CHECK(glGetUniformLocation(program, "mul") == -1);
  glUseProgram(program);
  glUniform1ui(0, 3);
  const GLfloat offs[8] = {0, 10, 0, 0, 0, 20, 0, 0};
  glUniform4fv(2, 2, offs);
  GLfloat matrix[9] = {};
  matrix[1 * 3 + 2] = 7.0f;  // column 1, row 2
  glUniformMatrix3fv(4, 1, GL_FALSE, matrix);
  glUniform1i(7, 1);  // bool: GL 4.6 §7.6.1 takes the i forms, non-zero is true
  glProgramUniform2i(program, 8, -1, 5);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  // Location 1 lies between `mul` (0) and `offs` (2, 3): no uniform has it.
  glUniform1ui(1, 1);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  GLuint mul = 0;
  glGetUniformuiv(program, 0, &mul);
  CHECK(mul == 3);
  GLfloat second[4] = {};
  glGetUniformfv(program, 3, second);  // offs[1]
  CHECK(second[1] == 20.0f);

  const GLuint out = make_buffer(8 * 4);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, out);
  glDispatchCompute(2, 1, 1);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  const auto words = read_words(out, 8);
  for (uint32_t i = 0; i < 8; ++i) CHECK(words[i] == i * 3 + ((i & 1) ? 20 : 10) + 7 + 1000 + 5);

  // The GL_UNIFORM interface reports each uniform with its location (GL 4.6 §7.3.1.1, GL_LOCATION).
  GLint count = 0;
  glGetProgramInterfaceiv(program, GL_UNIFORM, GL_ACTIVE_RESOURCES, &count);
  std::set<GLint> locations;
  for (GLint i = 0; i < count; ++i) {
    const GLenum prop = GL_LOCATION;
    GLint location = -1;
    glGetProgramResourceiv(program, GL_UNIFORM, static_cast<GLuint>(i), 1, &prop, 1, nullptr, &location);
    locations.insert(location);
  }
  CHECK(locations == std::set<GLint>{0, 2, 4, 7, 8});
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("SPIR-V structure uniforms: one location per member, set with glUniform*") {
  // GLSL 4.60 §4.4.3 (the locations ARB_gl_spirv uses): a structure takes consecutive locations, one per member,
  // an array of structures one set per element: s.a 1, s.b[] 2-3, s.c 4, s.inner[0].x 5, .m 6, s.inner[1].x 7, .m 8.
  GlContext gl;
  const GLuint program = spirv_program(assemble(modules::kStructUniforms));
  glUseProgram(program);
  glUniform1i(0, 1);
  glUniform1f(1, 2.0f);
  const GLfloat b[4] = {0, 10, 0, 20};
  glUniform2fv(2, 2, b);
  glUniform1ui(4, 100);
  const GLfloat m0[4] = {0, 0, 1000, 0}, m1[4] = {0, 0, 2000, 0};  // column 1, row 0
  glUniformMatrix2fv(6, 1, GL_FALSE, m0);
  glUniform1f(7, 5.0f);
  glUniformMatrix2fv(8, 1, GL_FALSE, m1);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  // A matrix location takes only glUniformMatrix2fv (GL 4.6 §7.6.1: the command must match the uniform's type).
  glUniform1f(6, 1.0f);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  const GLuint out = make_buffer(4 * 4);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, out);
  glDispatchCompute(1, 1, 1);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  const auto words = read_words(out, 4);
  for (uint32_t i = 0; i < 4; ++i)
    CHECK(words[i] == 1u + 2u + ((i & 1) ? 20u : 10u) + 100u + ((i & 1) ? 2000u : 1000u) + 5u);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("SPIR-V atomic counters count in the buffers at GL_ATOMIC_COUNTER_BUFFER binding points") {
  GlContext gl;
  const GLuint program = spirv_program(assemble(modules::kAtomicCounters));
  const uint32_t first[4] = {0, 5, 0, 0};
  const uint32_t second[4] = {0, 0, 100, 200};
  const GLuint counters0 = make_buffer(16, first), counters2 = make_buffer(16, second);
  glBindBufferBase(GL_ATOMIC_COUNTER_BUFFER, 0, counters0);
  glBindBufferBase(GL_ATOMIC_COUNTER_BUFFER, 2, counters2);
  const GLuint out = make_buffer(16 * 4);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, out);
  glUseProgram(program);
  glDispatchCompute(1, 1, 1);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  // GL 4.6 §7.7: a counter is the uint at its offset in the buffer bound to its binding point.
  CHECK(read_words(counters0, 4) == std::vector<uint32_t>{0, 13, 0, 0});
  CHECK(read_words(counters2, 4) == std::vector<uint32_t>{0, 0, 96, 196});
  // Unsized arrays: o.length() (OpArrayLength) is the bound range's size / 4 = 16.
  auto seen = read_words(out, 8);
  std::sort(seen.begin(), seen.end());
  for (uint32_t k = 0; k < 8; ++k) CHECK(seen[k] == 5 + k + 16000);

  GLint buffers = 0;
  glGetProgramInterfaceiv(program, GL_ATOMIC_COUNTER_BUFFER, GL_ACTIVE_RESOURCES, &buffers);
  CHECK(buffers == 2);
  std::set<GLint> bindings;
  for (GLint i = 0; i < buffers; ++i) {
    const GLenum prop = GL_BUFFER_BINDING;
    GLint binding = -1;
    glGetProgramResourceiv(program, GL_ATOMIC_COUNTER_BUFFER, static_cast<GLuint>(i), 1, &prop, 1, nullptr, &binding);
    bindings.insert(binding);
  }
  CHECK(bindings == std::set<GLint>{0, 2});
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("glSpecializeShader: a specialized local size is the program's GL_COMPUTE_WORK_GROUP_SIZE") {
  GlContext gl;
  for (const bool local_size_id : {false, true}) {
    // LocalSizeId (SPIR-V 1.2) and the WorkgroupSize built-in state the same size through SpecId 4.
    const auto words =
        local_size_id ? assemble(modules::kLocalSizeId, SPV_ENV_UNIVERSAL_1_2) : assemble(modules::kSpecializedSize);
    const GLuint program = spirv_program(words, {{4, 16}});
    GLint size[3] = {};
    glGetProgramiv(program, GL_COMPUTE_WORK_GROUP_SIZE, size);
    CHECK((size[0] == 16 && size[1] == 1 && size[2] == 1));
    const GLuint out = make_buffer(32 * 4);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, out);
    glUseProgram(program);
    glDispatchCompute(2, 1, 1);
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    const auto words_out = read_words(out, 32);
    for (uint32_t i = 0; i < 32; ++i) CHECK(words_out[i] == 1600 + i % 16);
    // GL SPIR-V has no variable group size (ARB_gl_spirv's environment requires LocalSize or WorkgroupSize), so a
    // SPIR-V program is fixed-size: ARB_compute_variable_group_size, "An INVALID_OPERATION error is generated by
    // DispatchComputeGroupSizeARB if the active program for the compute shader stage has a fixed work group size."
    if (has_extension("GL_ARB_compute_variable_group_size")) {
      glDispatchComputeGroupSizeARB(1, 1, 1, 16, 1, 1);
      REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
    }
  }
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("glSpecializeShader: an unknown entry point or SpecId is INVALID_VALUE and leaves the shader unspecialized") {
  GlContext gl;
  const GLuint shader = binary_shader(assemble(modules::kSpecializedSize));
  // ARB_gl_spirv (revision 36): "INVALID_VALUE is generated if <pEntryPoint> does not match the <Name> of any
  // OpEntryPoint declaration in the SPIR-V module associated with <shader>."
  glSpecializeShader(shader, "nope", 0, nullptr, nullptr);
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  // "INVALID_VALUE is generated if any element of <pConstantIndex> refers to a specialization constant that does
  // not exist in the shader module contained in <shader>."
  const GLuint unknown = 99, value = 1;
  glSpecializeShader(shader, "main", 1, &unknown, &value);
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  GLint status = 1;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &status);
  CHECK(status == GL_FALSE);
  // Neither error specialized the shader, so a correct call still may.
  const GLuint known = 4;
  glSpecializeShader(shader, "main", 1, &known, &value);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  glGetShaderiv(shader, GL_COMPILE_STATUS, &status);
  CHECK(status == GL_TRUE);
}

TEST_CASE("glSpecializeShader: a compute shader object with a module of another stage is INVALID_OPERATION") {
  // ARB_gl_spirv: "INVALID_OPERATION is generated if the <Execution Mode> of the OpEntryPoint indicated by
  // <pEntryPoint> does not match the type of <shader>."
  GlContext gl;
  const char* vertex = R"(
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint Vertex %main "main"
       %void = OpTypeVoid
          %3 = OpTypeFunction %void
       %main = OpFunction %void None %3
          %5 = OpLabel
               OpReturn
               OpFunctionEnd)";
  const GLuint shader = binary_shader(assemble(vertex));
  glSpecializeShader(shader, "main", 0, nullptr, nullptr);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
}

TEST_CASE("SPIR-V queries: binary formats and GL_SPIR_V_EXTENSIONS") {
  GlContext gl;
  // GL 4.6 §7.2: SHADER_BINARY_FORMAT_SPIR_V is among the SHADER_BINARY_FORMATS when SPIR-V is supported.
  GLint formats = 0;
  glGetIntegerv(GL_NUM_SHADER_BINARY_FORMATS, &formats);
  REQUIRE(formats >= 1);
  std::vector<GLint> list(static_cast<size_t>(formats));
  glGetIntegerv(GL_SHADER_BINARY_FORMATS, list.data());
  CHECK(std::find(list.begin(), list.end(), GL_SHADER_BINARY_FORMAT_SPIR_V) != list.end());
  // GL 4.6 §22.2: glGetStringi(SPIR_V_EXTENSIONS, i) for i below NUM_SPIR_V_EXTENSIONS; INVALID_VALUE beyond.
  GLint n = 0;
  glGetIntegerv(GL_NUM_SPIR_V_EXTENSIONS, &n);
  std::set<std::string> names;
  for (GLint i = 0; i < n; ++i) {
    const auto* name = glGetStringi(GL_SPIR_V_EXTENSIONS, static_cast<GLuint>(i));
    REQUIRE(name != nullptr);
    names.insert(reinterpret_cast<const char*>(name));
  }
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  CHECK(names.count("SPV_KHR_shader_atomic_counter_ops") == 1);
  CHECK(names.count("SPV_KHR_shader_ballot") == (has_extension("GL_ARB_shader_ballot") ? 1u : 0u));
  CHECK(glGetStringi(GL_SPIR_V_EXTENSIONS, static_cast<GLuint>(n)) == nullptr);
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
}

TEST_CASE("SPIR-V ballot and vote modules go through the same lowering as GLSL programs") {
  GlContext gl;
  const auto words = assemble(modules::kBallotVote);
  if (!has_extension("GL_ARB_shader_ballot")) {
    // Without ballot/vote on the device the extensions are not in GL_SPIR_V_EXTENSIONS, so specialization fails.
    const GLuint shader = binary_shader(words);
    glSpecializeShader(shader, "main", 0, nullptr, nullptr);
    GLint status = 1;
    glGetShaderiv(shader, GL_COMPILE_STATUS, &status);
    CHECK(status == GL_FALSE);
    CHECK_THAT(shader_log(shader), Catch::Contains("SPV_KHR_shader_ballot"));
    return;
  }
  const GLuint program = spirv_program(words);
  const GLuint out = make_buffer(64 * 4);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, out);
  glUseProgram(program);
  glDispatchCompute(1, 1, 1);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  // ARB_shader_group_vote: allInvocationsARB(i < 64) is true and anyInvocationARB(i >= 64) false in every
  // subgroup; readFirstInvocationARB gives the first active invocation's value: 64 / subgroup size subgroups,
  // each reading its lowest invocation's i + 7.
  GLint subgroup = 0;
  glGetIntegerv(GL_SUBGROUP_SIZE_KHR, &subgroup);
  const auto o = read_words(out, 64);
  for (uint32_t i = 0; i < 64; ++i) {
    const uint32_t first = subgroup > 0 && subgroup < 64 ? i / uint32_t(subgroup) * uint32_t(subgroup) : 0;
    CHECK(o[i] == 1 + ((first + 7) << 4));
  }
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("Linking SPIR-V: GLSL and SPIR-V mixed, or a SPIR-V shader not specialized, fails with a log") {
  // GL 4.6 §7.3 (LinkProgram): linking fails if "the program object contains a mix of shader objects that have
  // and do not have SPIR_V_BINARY", or "one or more of the shader objects ... were not specialized".
  GlContext gl;
  const auto words = assemble(modules::kSpecializedSize);
  GLuint shader = binary_shader(words);
  GLuint program = glCreateProgram();
  glAttachShader(program, shader);
  glLinkProgram(program);
  GLint status = 1;
  glGetProgramiv(program, GL_LINK_STATUS, &status);
  CHECK(status == GL_FALSE);
  CHECK_FALSE(program_log(program).empty());

  glSpecializeShader(shader, "main", 0, nullptr, nullptr);
  const GLuint glsl = glCreateShader(GL_COMPUTE_SHADER);
  const char* source = "#version 450\nlayout(local_size_x = 1) in;\nvoid helper() {}\n";
  glShaderSource(glsl, 1, &source, nullptr);
  glCompileShader(glsl);
  glAttachShader(program, glsl);
  glLinkProgram(program);
  glGetProgramiv(program, GL_LINK_STATUS, &status);
  CHECK(status == GL_FALSE);
  CHECK_FALSE(program_log(program).empty());
  REQUIRE_GL_ERROR(GL_NO_ERROR);
}

TEST_CASE("A SPIR-V module needing what the device lacks is a compile failure with a log") {
  GlContext gl;
  // Int8 arithmetic and a SPIR-V version above what Bismuth passes to Vulkan 1.1 (1.3).
  std::string int8 = modules::kSpecializedSize;
  int8.insert(int8.find("OpCapability Shader"), "OpCapability Int8\n");
  std::vector<std::vector<uint32_t>> modules_needing_more = {
      assemble(int8), assemble(modules::kSpecializedSize, SPV_ENV_UNIVERSAL_1_4)};
  for (const auto& words : modules_needing_more) {
    const GLuint shader = binary_shader(words);
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    glSpecializeShader(shader, "main", 0, nullptr, nullptr);
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    GLint status = 1;
    glGetShaderiv(shader, GL_COMPILE_STATUS, &status);
    CHECK(status == GL_FALSE);
    CHECK_FALSE(shader_log(shader).empty());
  }
}

TEST_CASE("Corrupt SPIR-V modules are GL errors or compile/link failures, never a crash") {
  // GL 4.6 §7.2: "An INVALID_VALUE error is generated if the data pointed to by binary does not match the format
  // specified by binaryFormat"; ARB_gl_spirv: an invalid module "can return an error if it discovers anything
  // invalid", and may give undefined results — but Bismuth never lets it reach the driver unchecked.
  GlContext gl;
  const std::vector<std::vector<uint32_t>> seeds = {
      assemble(modules::kDefaultUniforms), assemble(modules::kAtomicCounters), assemble(modules::kSpecializedSize),
      assemble(modules::kStructUniforms)};
  std::mt19937 random(15);
  int linked = 0, refused = 0;
  for (const auto& seed : seeds) {
    for (int round = 0; round < 60; ++round) {
      std::vector<uint32_t> words = seed;
      switch (round % 4) {
        case 0: words[0] ^= 1u << (random() % 32); break;                                   // wrong magic
        case 1: words.resize(5 + random() % (words.size() - 5)); break;                     // truncated
        case 2: words[5 + random() % (words.size() - 5)] = random(); break;                 // a random word
        default: words[5 + random() % (words.size() - 5)] ^= 1u << (random() % 32); break;  // a flipped bit
      }
      const GLuint shader = glCreateShader(GL_COMPUTE_SHADER);
      glShaderBinary(1, &shader, GL_SHADER_BINARY_FORMAT_SPIR_V, words.data(), static_cast<GLsizei>(words.size() * 4));
      const GLenum binary_error = glGetError();
      CHECK((binary_error == GL_NO_ERROR || binary_error == GL_INVALID_VALUE));
      if (binary_error != GL_NO_ERROR) {
        ++refused;
        glDeleteShader(shader);
        continue;
      }
      glSpecializeShader(shader, "main", 0, nullptr, nullptr);
      const GLenum specialize_error = glGetError();
      CHECK((specialize_error == GL_NO_ERROR || specialize_error == GL_INVALID_VALUE ||
             specialize_error == GL_INVALID_OPERATION));
      const GLuint program = glCreateProgram();
      glAttachShader(program, shader);
      glLinkProgram(program);
      GLint status = 0;
      glGetProgramiv(program, GL_LINK_STATUS, &status);
      if (status) {
        ++linked;
      } else {
        ++refused;
        CHECK_FALSE(program_log(program).empty());
      }
      glDeleteProgram(program);
      glDeleteShader(shader);
    }
  }
  CHECK(refused > 0);
  INFO("linked " << linked << ", refused " << refused);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE(
    "Shader objects and SPIR-V: glCompileShader refuses, glShaderBinary drops the source, glShaderSource the module") {
  GlContext gl;
  const GLuint shader = glCreateShader(GL_COMPUTE_SHADER);
  const char* source = "#version 450\nlayout(local_size_x = 1) in;\nvoid main() {}\n";
  glShaderSource(shader, 1, &source, nullptr);
  glCompileShader(shader);
  const auto words = assemble(modules::kSpecializedSize);
  // ARB_gl_spirv (GL 4.6 §7.2): upon ShaderBinary "the COMPILE_STATUS of each of these shaders is set to FALSE,
  // any existing source string (specified by ShaderSource) is removed".
  glShaderBinary(1, &shader, GL_SHADER_BINARY_FORMAT_SPIR_V, words.data(), static_cast<GLsizei>(words.size() * 4));
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  GLint value = -1;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &value);
  CHECK(value == GL_FALSE);
  glGetShaderiv(shader, GL_SHADER_SOURCE_LENGTH, &value);
  CHECK(value == 0);
  char text[64] = "unchanged";
  GLsizei length = -1;
  glGetShaderSource(shader, sizeof text, &length, text);
  CHECK(length == 0);
  // §7.1: "An INVALID_OPERATION error is generated [by CompileShader] if the SPIR_V_BINARY state of shader is TRUE."
  glCompileShader(shader);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  // ShaderSource: "If shader was previously associated with a SPIR-V module (via the ShaderBinary command), that
  // association is broken. Upon successful completion of this command the SPIR_V_BINARY state of shader is set to
  // FALSE."
  glShaderSource(shader, 1, &source, nullptr);
  glGetShaderiv(shader, GL_SPIR_V_BINARY, &value);
  CHECK(value == GL_FALSE);
  glCompileShader(shader);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  glGetShaderiv(shader, GL_COMPILE_STATUS, &value);
  CHECK(value == GL_TRUE);
}
