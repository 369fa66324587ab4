// Shader and program objects, compile and link errors with the user's line numbers, uniforms, atomic counters,
// program introspection, ballot/vote programs.
#include <cstring>
#include <string>

#include "translator/gl/gl_fixture.hpp"

using namespace bismuth::gltest;

namespace {

std::string shader_log(GLuint shader) {
  GLint length = 0;
  glGetShaderiv(shader, GL_INFO_LOG_LENGTH, &length);
  std::string log(static_cast<size_t>(std::max(length, 1)), '\0');
  glGetShaderInfoLog(shader, length, nullptr, log.data());
  return log.c_str();
}

std::string program_log(GLuint program) {
  GLint length = 0;
  glGetProgramiv(program, GL_INFO_LOG_LENGTH, &length);
  std::string log(static_cast<size_t>(std::max(length, 1)), '\0');
  glGetProgramInfoLog(program, length, nullptr, log.data());
  return log.c_str();
}

GLuint compile(const char* source, bool* ok) {
  const GLuint shader = glCreateShader(GL_COMPUTE_SHADER);
  glShaderSource(shader, 1, &source, nullptr);
  glCompileShader(shader);
  GLint status = 0;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &status);
  *ok = status == GL_TRUE;
  return shader;
}

const char* kUniforms = R"(#version 450
layout(local_size_x = 1) in;
uniform float scale;
uniform uint count;
uniform ivec2 offset;
uniform float weights[3];
layout(std430, binding = 0) buffer Out { float o[]; };
void main() {
  o[0] = scale * float(count) + float(offset.x + offset.y);
  o[1] = weights[0] + weights[1] + weights[2];
}
)";

}  // namespace

TEST_CASE("A compile error is reported in the info log with the user's line number") {
  GlContext gl;
  bool ok = true;
  const GLuint shader = compile("#version 450\nlayout(local_size_x = 1) in;\n\nvoid main() {\n  undeclared = 1;\n}\n", &ok);
  CHECK_FALSE(ok);
  const std::string log = shader_log(shader);
  INFO(log);
  CHECK(log.find("0:5(") != std::string::npos);
  CHECK(log.find("error") != std::string::npos);
  REQUIRE_GL_ERROR(GL_NO_ERROR);  // a failed compile is not a GL error
}

TEST_CASE("Linking a program whose shader failed to compile fails with a log") {
  // GL 4.6 §7.3: linking fails if "one or more of the shader objects attached to program are not compiled
  // successfully".
  GlContext gl;
  bool ok = true;
  const GLuint shader = compile("#version 450\nvoid main() { x; }\n", &ok);
  const GLuint program = glCreateProgram();
  glAttachShader(program, shader);
  glLinkProgram(program);
  GLint status = 1;
  glGetProgramiv(program, GL_LINK_STATUS, &status);
  CHECK(status == GL_FALSE);
  CHECK_FALSE(program_log(program).empty());
  glUseProgram(program);
  // GL 4.6 §7.3: "An INVALID_OPERATION error is generated if program has not been linked successfully"
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
}

TEST_CASE("Linking a compute shader without a local size declaration fails") {
  GlContext gl;
  bool ok = false;
  const GLuint shader = compile("#version 450\nlayout(std430, binding = 0) buffer B { uint v[]; };\nvoid main() { v[0] = 1u; }\n", &ok);
  const GLuint program = glCreateProgram();
  glAttachShader(program, shader);
  glLinkProgram(program);
  GLint status = 1;
  glGetProgramiv(program, GL_LINK_STATUS, &status);
  CHECK(status == GL_FALSE);
  INFO(program_log(program));
  CHECK_FALSE(program_log(program).empty());
}

TEST_CASE("A shader name where a program is expected is INVALID_OPERATION, an unknown name INVALID_VALUE") {
  // GL 4.6 §7.1: "Commands that accept shader or program object names will generate the error INVALID_VALUE if
  // the provided name is not the name of either a shader or program object and INVALID_OPERATION if the provided
  // name identifies an object that is not the expected type."
  GlContext gl;
  const GLuint shader = glCreateShader(GL_COMPUTE_SHADER);
  glLinkProgram(shader);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glLinkProgram(987654);
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  GLint v = 0;
  glGetShaderiv(glCreateProgram(), GL_COMPILE_STATUS, &v);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
}

TEST_CASE("Attaching a shader twice is INVALID_OPERATION, detaching one not attached too") {
  // GL 4.6 §7.3: "An INVALID_OPERATION error is generated if shader is already attached to program." /
  // "... if shader is not attached to program."
  GlContext gl;
  const GLuint shader = glCreateShader(GL_COMPUTE_SHADER);
  const GLuint program = glCreateProgram();
  glAttachShader(program, shader);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  glAttachShader(program, shader);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glDetachShader(program, shader);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  glDetachShader(program, shader);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  GLint attached = -1;
  glGetProgramiv(program, GL_ATTACHED_SHADERS, &attached);
  CHECK(attached == 0);
}

TEST_CASE("glGetShaderSource returns the concatenated source") {
  GlContext gl;
  const GLuint shader = glCreateShader(GL_COMPUTE_SHADER);
  const char* parts[] = {"#version 450\n", "void main() {}XX"};
  const GLint lengths[] = {-1, 14};
  glShaderSource(shader, 2, parts, lengths);
  char out[64] = {};
  GLsizei length = 0;
  glGetShaderSource(shader, sizeof out, &length, out);
  CHECK(std::string(out) == "#version 450\nvoid main() {}");
  CHECK(length == 27);
  glShaderSource(shader, -1, parts, nullptr);
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
}

TEST_CASE("Uniforms set with glUniform* reach the shader, and glGetUniform* reads them back") {
  GlContext gl;
  const GLuint program = make_program(kUniforms);
  glUseProgram(program);
  const GLint scale = glGetUniformLocation(program, "scale");
  const GLint count = glGetUniformLocation(program, "count");
  const GLint offset = glGetUniformLocation(program, "offset");
  const GLint weights = glGetUniformLocation(program, "weights");
  REQUIRE(scale >= 0);
  REQUIRE(count >= 0);
  REQUIRE(offset >= 0);
  REQUIRE(weights >= 0);
  CHECK(glGetUniformLocation(program, "weights[2]") == weights + 2);
  CHECK(glGetUniformLocation(program, "missing") == -1);
  glUniform1f(scale, 2.5f);
  glUniform1ui(count, 4);
  glUniform2i(offset, 3, -1);
  const float w[3] = {0.5f, 0.25f, 0.125f};
  glUniform1fv(weights, 3, w);
  glProgramUniform1f(program, glGetUniformLocation(program, "weights[1]"), 1.0f);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  const float zeros[2] = {0, 0};
  const GLuint out = make_buffer(sizeof zeros, zeros);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, out);
  glDispatchCompute(1, 1, 1);
  const auto words = read_words(out, 2);
  float result[2];
  std::memcpy(result, words.data(), sizeof result);
  CHECK(result[0] == 12.0f);
  CHECK(result[1] == 1.625f);
  GLfloat f = 0;
  glGetUniformfv(program, scale, &f);
  CHECK(f == 2.5f);
  GLuint u = 0;
  glGetUniformuiv(program, count, &u);
  CHECK(u == 4);
  GLint iv[2] = {};
  glGetUniformiv(program, offset, iv);
  CHECK(iv[0] == 3);
  CHECK(iv[1] == -1);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("A glUniform* call whose type or size does not match the uniform is INVALID_OPERATION") {
  // GL 4.6 §7.6.1: "An INVALID_OPERATION error is generated if the size indicated in the name of the Uniform*
  // command used does not match the size of the uniform declared in the shader" and "... if the component type
  // and count indicated in the name of the Uniform* command used do not match".
  GlContext gl;
  const GLuint program = make_program(kUniforms);
  glUseProgram(program);
  glUniform1i(glGetUniformLocation(program, "scale"), 1);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glUniform2f(glGetUniformLocation(program, "scale"), 1, 2);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glUniform1f(glGetUniformLocation(program, "count"), 1);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
}

TEST_CASE("A count above one for a non-array uniform is INVALID_OPERATION") {
  // GL 4.6 §7.6.1: "An INVALID_OPERATION error is generated if count is greater than one and the indicated
  // uniform variable is not an array variable."
  GlContext gl;
  const GLuint program = make_program(kUniforms);
  glUseProgram(program);
  const float v[2] = {1, 2};
  glUniform1fv(glGetUniformLocation(program, "scale"), 2, v);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
}

TEST_CASE("Location -1 is silently ignored, an invalid location is INVALID_OPERATION") {
  // GL 4.6 §7.6.1: "If the value of location is -1, the Uniform* commands will silently ignore the data passed
  // in"; "An INVALID_OPERATION error is generated if location is an invalid uniform location".
  GlContext gl;
  const GLuint program = make_program(kUniforms);
  glUseProgram(program);
  glUniform1f(-1, 1.0f);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  glUniform1f(1000, 1.0f);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
}

TEST_CASE("glUniform* with no current program is INVALID_OPERATION") {
  // GL 4.6 §7.6.1: "An INVALID_OPERATION error is generated if there is no current program object."
  GlContext gl;
  glUseProgram(0);
  glUniform1f(0, 1.0f);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
}

TEST_CASE("Atomic counters count through the buffer bound to their binding") {
  GlContext gl;
  const GLuint program = make_program(R"(#version 450
layout(local_size_x = 8) in;
layout(binding = 2, offset = 4) uniform atomic_uint hits;
void main() { atomicCounterIncrement(hits); }
)");
  const uint32_t init[2] = {0xAAAAAAAAu, 10};
  GLuint counters = 0;
  glGenBuffers(1, &counters);
  glBindBuffer(GL_ATOMIC_COUNTER_BUFFER, counters);
  glBufferData(GL_ATOMIC_COUNTER_BUFFER, sizeof init, init, GL_DYNAMIC_COPY);
  glBindBufferBase(GL_ATOMIC_COUNTER_BUFFER, 2, counters);
  glUseProgram(program);
  glDispatchCompute(4, 1, 1);
  const auto words = read_words(counters, 2);
  CHECK(words[0] == 0xAAAAAAAAu);
  CHECK(words[1] == 10u + 32u);
  GLint buffers = 0;
  glGetProgramiv(program, GL_ACTIVE_ATOMIC_COUNTER_BUFFERS, &buffers);
  CHECK(buffers == 1);
  const GLenum props[] = {GL_BUFFER_BINDING, GL_NUM_ACTIVE_VARIABLES};
  GLint values[2] = {};
  glGetProgramResourceiv(program, GL_ATOMIC_COUNTER_BUFFER, 0, 2, props, 2, nullptr, values);
  CHECK(values[0] == 2);
  CHECK(values[1] == 1);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("Program introspection names uniforms and storage blocks with their GL bindings") {
  GlContext gl;
  const GLuint program = make_program(kUniforms);
  GLint active = 0;
  glGetProgramInterfaceiv(program, GL_UNIFORM, GL_ACTIVE_RESOURCES, &active);
  CHECK(active == 4);
  glGetProgramiv(program, GL_ACTIVE_UNIFORMS, &active);
  CHECK(active == 4);
  const GLuint index = glGetProgramResourceIndex(program, GL_UNIFORM, "weights");
  REQUIRE(index != GL_INVALID_INDEX);
  char name[32] = {};
  glGetProgramResourceName(program, GL_UNIFORM, index, sizeof name, nullptr, name);
  CHECK(std::string(name) == "weights[0]");
  const GLenum props[] = {GL_TYPE, GL_ARRAY_SIZE, GL_LOCATION};
  GLint values[3] = {};
  glGetProgramResourceiv(program, GL_UNIFORM, index, 3, props, 3, nullptr, values);
  CHECK(values[0] == GL_FLOAT);
  CHECK(values[1] == 3);
  CHECK(values[2] == glGetUniformLocation(program, "weights"));
  glGetProgramInterfaceiv(program, GL_SHADER_STORAGE_BLOCK, GL_ACTIVE_RESOURCES, &active);
  CHECK(active == 1);
  const GLuint block = glGetProgramResourceIndex(program, GL_SHADER_STORAGE_BLOCK, "Out");
  REQUIRE(block == 0);
  const GLenum binding_prop = GL_BUFFER_BINDING;
  GLint binding = -1;
  glGetProgramResourceiv(program, GL_SHADER_STORAGE_BLOCK, block, 1, &binding_prop, 1, nullptr, &binding);
  CHECK(binding == 0);
  glShaderStorageBlockBinding(program, block, 5);
  glGetProgramResourceiv(program, GL_SHADER_STORAGE_BLOCK, block, 1, &binding_prop, 1, nullptr, &binding);
  CHECK(binding == 5);
  glShaderStorageBlockBinding(program, 7, 0);
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("glShaderStorageBlockBinding moves the block to another binding point at dispatch") {
  GlContext gl;
  const GLuint program = make_program("#version 450\nlayout(local_size_x = 1) in;\n"
                                      "layout(std430, binding = 0) buffer Out { uint o[]; };\nvoid main() { o[0] = 5u; }\n");
  glShaderStorageBlockBinding(program, 0, 3);
  const uint32_t zero = 0;
  const GLuint at0 = make_buffer(4, &zero);
  const GLuint at3 = make_buffer(4, &zero);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, at0);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 3, at3);
  glUseProgram(program);
  glDispatchCompute(1, 1, 1);
  CHECK(read_words(at0, 1)[0] == 0u);
  CHECK(read_words(at3, 1)[0] == 5u);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("Uniform blocks are read from the buffer bound to their binding") {
  GlContext gl;
  const GLuint program = make_program(R"(#version 450
layout(local_size_x = 1) in;
layout(std140, binding = 4) uniform Params { uint a; uint b; };
layout(std430, binding = 0) buffer Out { uint o[]; };
void main() { o[0] = a * b; }
)");
  CHECK(glGetUniformBlockIndex(program, "Params") == 0);
  const uint32_t params[4] = {6, 7, 0, 0};
  GLuint ubo = 0;
  glGenBuffers(1, &ubo);
  glBindBuffer(GL_UNIFORM_BUFFER, ubo);
  glBufferData(GL_UNIFORM_BUFFER, sizeof params, params, GL_STATIC_DRAW);
  glBindBufferBase(GL_UNIFORM_BUFFER, 4, ubo);
  const uint32_t zero = 0;
  const GLuint out = make_buffer(4, &zero);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, out);
  glUseProgram(program);
  glDispatchCompute(1, 1, 1);
  CHECK(read_words(out, 1)[0] == 42u);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("glCreateShaderProgramv compiles and links in one call") {
  GlContext gl;
  const char* source = "#version 450\nlayout(local_size_x = 2) in;\nvoid main() {}\n";
  const GLuint program = glCreateShaderProgramv(GL_COMPUTE_SHADER, 1, &source);
  GLint status = 0;
  glGetProgramiv(program, GL_LINK_STATUS, &status);
  CHECK(status == GL_TRUE);
  const char* bad = "#version 450\nvoid main() { nope; }\n";
  const GLuint failed = glCreateShaderProgramv(GL_COMPUTE_SHADER, 1, &bad);
  glGetProgramiv(failed, GL_LINK_STATUS, &status);
  CHECK(status == GL_FALSE);
  CHECK(program_log(failed).find("0:2(") != std::string::npos);
}

TEST_CASE("Ballot programs link when GL_ARB_shader_ballot is advertised, and fail with a clear log otherwise") {
  GlContext gl;
  GLint n = 0;
  glGetIntegerv(GL_NUM_EXTENSIONS, &n);
  bool ballot = false;
  for (GLint i = 0; i < n; ++i) {
    ballot = ballot || std::string(reinterpret_cast<const char*>(glGetStringi(GL_EXTENSIONS, static_cast<GLuint>(i)))) == "GL_ARB_shader_ballot";
  }
  const char* source = R"(#version 450
#extension GL_ARB_shader_ballot : require
#extension GL_ARB_gpu_shader_int64 : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Out { uint o[]; };
void main() {
  uint64_t b = ballotARB(gl_LocalInvocationID.x % 2u == 0u);
  o[gl_LocalInvocationID.x] = uint(bitCount(uvec2(unpackUint2x32(b)).x) + bitCount(unpackUint2x32(b).y));
}
)";
  bool compiled = false;
  const GLuint shader = compile(source, &compiled);
  REQUIRE(compiled);
  const GLuint program = glCreateProgram();
  glAttachShader(program, shader);
  glLinkProgram(program);
  GLint status = 0;
  glGetProgramiv(program, GL_LINK_STATUS, &status);
  INFO(program_log(program));
  CHECK((status == GL_TRUE) == ballot);
  if (!ballot) {
    CHECK(program_log(program).find("at most 64") != std::string::npos);
    return;
  }
  std::vector<uint32_t> zeros(64, 0);
  const GLuint out = make_buffer(64 * 4, zeros.data());
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, out);
  glUseProgram(program);
  glDispatchCompute(1, 1, 1);
  GLint subgroup = 0;
  glGetIntegerv(GL_SUBGROUP_SIZE_KHR, &subgroup);
  const auto words = read_words(out, 64);
  // Half of each subgroup votes; with subgroups <= 64 the ballot holds subgroup/2 bits.
  for (uint32_t w : words) CHECK(w == static_cast<uint32_t>(std::min(subgroup, 64) / 2));
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("COMPUTE_WORK_GROUP_SIZE of a program that is not linked is INVALID_OPERATION") {
  // GL 4.6 §7.13: "An INVALID_OPERATION error is generated if COMPUTE_WORK_GROUP_SIZE is queried for a program
  // which has not been linked successfully, or which does not contain objects to form a compute shader."
  GlContext gl;
  GLint size[3] = {7, 7, 7};
  glGetProgramiv(glCreateProgram(), GL_COMPUTE_WORK_GROUP_SIZE, size);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  CHECK(size[0] == 7);  // an erroneous call writes nothing
}

TEST_CASE("glGetUniformLocation on a program that is not linked is INVALID_OPERATION") {
  // GL 4.6 §7.6: "An INVALID_OPERATION error is generated if program has not been linked successfully."
  GlContext gl;
  CHECK(glGetUniformLocation(glCreateProgram(), "x") == -1);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
}

TEST_CASE("A program deleted while in use stays usable until it is no longer current") {
  // GL 4.6 §7.3: "If program is in use [...] it is flagged for deletion [and] deleted when it is no longer part of
  // the current rendering state."
  GlContext gl;
  const GLuint program = make_program("#version 450\nlayout(local_size_x = 1) in;\n"
                                      "layout(std430, binding = 0) buffer B { uint v[]; };\nvoid main() { v[0] = 9u; }\n");
  glUseProgram(program);
  glDeleteProgram(program);
  GLint flagged = 0;
  glGetProgramiv(program, GL_DELETE_STATUS, &flagged);
  CHECK(flagged == GL_TRUE);
  const uint32_t zero = 0;
  const GLuint buffer = make_buffer(4, &zero);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, buffer);
  glDispatchCompute(1, 1, 1);
  CHECK(read_words(buffer, 1)[0] == 9u);
  glUseProgram(0);
  CHECK(glIsProgram(program) == GL_FALSE);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("A relink that fails keeps the current executable in use") {
  // GL 4.6 §7.3: "If LinkProgram failed, any information about a previous link of that program object is lost
  // [...] the executables and uniform state in use remain in effect until the program is made current again."
  GlContext gl;
  const char* good = "#version 450\nlayout(local_size_x = 1) in;\n"
                     "layout(std430, binding = 0) buffer B { uint v[]; };\nvoid main() { v[0] = 4u; }\n";
  const GLuint shader = glCreateShader(GL_COMPUTE_SHADER);
  glShaderSource(shader, 1, &good, nullptr);
  glCompileShader(shader);
  const GLuint program = glCreateProgram();
  glAttachShader(program, shader);
  glLinkProgram(program);
  glUseProgram(program);
  const char* bad = "#version 450\nvoid main() { broken }\n";
  glShaderSource(shader, 1, &bad, nullptr);
  glCompileShader(shader);
  glLinkProgram(program);
  GLint status = 1;
  glGetProgramiv(program, GL_LINK_STATUS, &status);
  CHECK(status == GL_FALSE);
  const uint32_t zero = 0;
  const GLuint buffer = make_buffer(4, &zero);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, buffer);
  glDispatchCompute(1, 1, 1);
  CHECK(read_words(buffer, 1)[0] == 4u);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("Default-block uniform arrays of vectors keep std140 strides") {
  GlContext gl;
  const GLuint program = make_program(R"(#version 450
layout(local_size_x = 1) in;
uniform uvec2 pairs[3];
uniform double scale;
layout(std430, binding = 0) buffer Out { uint o[]; };
void main() { o[0] = pairs[0].x + pairs[1].y + pairs[2].x + uint(scale); }
)");
  glUseProgram(program);
  const GLuint v[6] = {1, 2, 30, 40, 500, 600};
  glUniform2uiv(glGetUniformLocation(program, "pairs"), 3, v);
  glUniform1d(glGetUniformLocation(program, "scale"), 7000.0);
  const uint32_t zero = 0;
  const GLuint buffer = make_buffer(4, &zero);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, buffer);
  glDispatchCompute(1, 1, 1);
  CHECK(read_words(buffer, 1)[0] == 1u + 40u + 500u + 7000u);
  GLuint back[2] = {};
  glGetUniformuiv(program, glGetUniformLocation(program, "pairs[2]"), back);
  CHECK(back[0] == 500u);
  CHECK(back[1] == 600u);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("Compute shaders at #version 140 to 420 with GL_ARB_compute_shader dispatch as at 430") {
  GlContext gl;
  for (const char* version : {"140", "150 core", "330 compatibility", "400", "410 core", "420"}) {
    INFO(version);
    const std::string source = std::string("#version ") + version + R"(
#extension GL_ARB_compute_shader: require
#extension GL_ARB_shader_storage_buffer_object: require
#extension GL_ARB_shader_atomic_counters: require
layout(local_size_x = 8) in;
layout(std430, binding = 1) buffer Out { uint o[]; };
layout(binding = 0, offset = 0) uniform atomic_uint hits;
uniform uint bias;
shared uint total;
void main() {
  if (gl_LocalInvocationIndex == 0u) total = 0u;
  barrier();
  atomicAdd(total, gl_LocalInvocationIndex + 1u);
  barrier();
  o[gl_GlobalInvocationID.x] = total + bias + 0u * atomicCounterIncrement(hits) + uint(__VERSION__) * 1000u;
}
)";
    const GLuint program = make_program(source);
    REQUIRE(program != 0);
    glUseProgram(program);
    glUniform1ui(glGetUniformLocation(program, "bias"), 5u);
    const std::vector<uint32_t> zeros(16, 0u);
    const GLuint out = make_buffer(16 * 4, zeros.data());
    const GLuint counter = make_buffer(4, zeros.data());
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, out);
    glBindBufferBase(GL_ATOMIC_COUNTER_BUFFER, 0, counter);
    glDispatchCompute(2, 1, 1);
    const uint32_t expected = 36u + 5u + static_cast<uint32_t>(std::stoi(version)) * 1000u;  // 1 + ... + 8
    const auto words = read_words(out, 16);
    for (uint32_t w : words) CHECK(w == expected);
    CHECK(read_words(counter, 1)[0] == 16u);
    REQUIRE_GL_ERROR(GL_NO_ERROR);
  }
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("A #version 330 compute shader without GL_ARB_compute_shader fails to compile at its version line") {
  GlContext gl;
  bool ok = true;
  const GLuint shader = compile("\n#version 330\nlayout(local_size_x = 1) in;\nvoid main() {}\n", &ok);
  CHECK_FALSE(ok);
  const std::string log = shader_log(shader);
  INFO(log);
  CHECK(log.rfind("0:2(10): error: compute shaders require #version 430", 0) == 0);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
}
