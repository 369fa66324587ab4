// Program binaries (GL 4.6 §7.5 "Program Binaries", OpenGL ES 3.2 §7.5) through libbismuth-gl's public API: the
// format queries, glGetProgramBinary / glProgramBinary round trips of compute programs (dispatch results and
// introspection identical, uniforms reset), every error rule, and loads that must fail without a crash: corrupted,
// truncated and foreign-device binaries (docs/gl_shim.md, "Program binaries"). Under the validation layer.
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

// The fixture first: it asks glcorearb.h for prototypes, which glext_bismuth.h includes too.
#include <spirv-tools/libspirv.hpp>

#include "spirv_patch/gl_spirv_modules.hpp"
#include "translator/gl/gl_fixture.hpp"

#include "bismuth/gl/glext_bismuth.h"

#include <xxhash.h>

using namespace bismuth::gltest;

namespace {

// Default-block uniforms (a scalar, an array and a matrix), a uniform block, a shader storage block and an atomic
// counter: every kind of reflection the binary carries.
const char* kBlocks = R"(#version 450
layout(local_size_x = 32) in;
uniform uint scale;
uniform vec2 offsets[3];
uniform mat2 m;
layout(std140, binding = 1) uniform Params { uint add; uint mul; } params;
layout(std430, binding = 2) buffer Out { uint values[]; } result;
layout(binding = 0, offset = 4) uniform atomic_uint counter;
void main() {
  uint i = gl_GlobalInvocationID.x;
  atomicCounterIncrement(counter);
  result.values[i] = i * scale * params.mul + params.add + uint(offsets[2].y) + uint(m[1][0]);
}
)";

const char* kVariable = R"(#version 450
#extension GL_ARB_compute_variable_group_size : require
layout(local_size_variable) in;
layout(std430, binding = 0) buffer Out { uint values[]; };
uniform uint base;
void main() {
  uint flat_id = gl_GlobalInvocationID.y * (gl_NumWorkGroups.x * gl_LocalGroupSizeARB.x) + gl_GlobalInvocationID.x;
  values[flat_id] = base + gl_LocalGroupSizeARB.x * 1000u + gl_LocalGroupSizeARB.y;
}
)";

const char* kWaves = R"(#version 450
#extension GL_BISMUTH_num_waves : require
layout(num_waves = 2) in;
layout(std430, binding = 0) buffer Out { uvec2 v[]; };
void main() {
  uint flat_id = gl_WorkGroupID.x * gl_NumWaves * gl_WaveSize + gl_WaveIndex * gl_WaveSize + gl_WaveLaneIndex;
  v[flat_id] = uvec2(gl_WaveIndex, gl_WaveSize);
}
)";

GLint program_int(GLuint program, GLenum pname) {
  GLint v = -1;
  glGetProgramiv(program, pname, &v);
  return v;
}

std::string info_log(GLuint program) {
  char log[4096] = {};
  glGetProgramInfoLog(program, sizeof log, nullptr, log);
  return log;
}

struct Binary {
  GLenum format = 0;
  std::vector<uint8_t> bytes;
};

Binary get_binary(GLuint program) {
  Binary b;
  const GLint length = program_int(program, GL_PROGRAM_BINARY_LENGTH);
  REQUIRE(length > 0);
  b.bytes.resize(static_cast<size_t>(length));
  GLsizei written = -1;
  glGetProgramBinary(program, length, &written, &b.format, b.bytes.data());
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  REQUIRE(written == length);
  return b;
}

// A new program object loaded with `bytes`; its LINK_STATUS says whether the load worked.
GLuint load(const std::vector<uint8_t>& bytes, GLsizei length = -1) {
  const GLuint program = glCreateProgram();
  glProgramBinary(program, GL_PROGRAM_BINARY_FORMAT_BISMUTH, bytes.data(),
                  length >= 0 ? length : static_cast<GLsizei>(bytes.size()));
  return program;
}


// Everything introspection says about a program's interfaces, as text (names, types, offsets, locations, bindings,
// sizes), so two programs can be compared whole.
std::string describe(GLuint program) {
  std::string out;
  auto add = [&](const std::string& s) { out += s + "\n"; };
  for (GLenum pname : {GL_ACTIVE_UNIFORMS, GL_ACTIVE_UNIFORM_BLOCKS, GL_ACTIVE_ATOMIC_COUNTER_BUFFERS}) {
    add("program " + std::to_string(pname) + " = " + std::to_string(program_int(program, pname)));
  }
  GLint size[3] = {-1, -1, -1};
  glGetProgramiv(program, GL_COMPUTE_WORK_GROUP_SIZE, size);
  if (glGetError() == GL_NO_ERROR) {
    add("work group size " + std::to_string(size[0]) + " " + std::to_string(size[1]) + " " + std::to_string(size[2]));
  }
  struct Interface {
    GLenum name;
    bool named;
    std::vector<GLenum> props;
  };
  const std::vector<Interface> interfaces = {
      {GL_UNIFORM,
       true,
       {GL_TYPE, GL_ARRAY_SIZE, GL_OFFSET, GL_BLOCK_INDEX, GL_ARRAY_STRIDE, GL_MATRIX_STRIDE, GL_IS_ROW_MAJOR,
        GL_ATOMIC_COUNTER_BUFFER_INDEX, GL_LOCATION}},
      {GL_UNIFORM_BLOCK, true, {GL_BUFFER_BINDING, GL_BUFFER_DATA_SIZE, GL_NUM_ACTIVE_VARIABLES}},
      {GL_SHADER_STORAGE_BLOCK, true, {GL_BUFFER_BINDING, GL_BUFFER_DATA_SIZE, GL_NUM_ACTIVE_VARIABLES}},
      {GL_BUFFER_VARIABLE,
       true,
       {GL_TYPE, GL_ARRAY_SIZE, GL_OFFSET, GL_BLOCK_INDEX, GL_ARRAY_STRIDE, GL_TOP_LEVEL_ARRAY_SIZE,
        GL_TOP_LEVEL_ARRAY_STRIDE}},
      {GL_ATOMIC_COUNTER_BUFFER, false, {GL_BUFFER_BINDING, GL_BUFFER_DATA_SIZE, GL_NUM_ACTIVE_VARIABLES}},
  };
  for (const Interface& itf : interfaces) {
    GLint count = -1;
    glGetProgramInterfaceiv(program, itf.name, GL_ACTIVE_RESOURCES, &count);
    add("interface " + std::to_string(itf.name) + " resources " + std::to_string(count));
    for (GLint i = 0; i < count; ++i) {
      std::string line = "  ";
      if (itf.named) {
        char name[256] = {};
        glGetProgramResourceName(program, itf.name, static_cast<GLuint>(i), sizeof name, nullptr, name);
        line += name;
        if (itf.name == GL_UNIFORM) line += " @" + std::to_string(glGetUniformLocation(program, name));
      }
      std::vector<GLint> values(itf.props.size(), -7);
      glGetProgramResourceiv(program, itf.name, static_cast<GLuint>(i), static_cast<GLsizei>(itf.props.size()),
                             itf.props.data(), static_cast<GLsizei>(values.size()), nullptr, values.data());
      for (GLint v : values) line += " " + std::to_string(v);
      add(line);
    }
  }
  add("error " + std::to_string(glGetError()));
  return out;
}

// Runs kBlocks with fixed inputs: the output words and the atomic counter's final value.
std::vector<uint32_t> run_blocks(GLuint program) {
  constexpr uint32_t kGroups = 3, kInvocations = kGroups * 32;
  glUseProgram(program);
  glUniform1ui(glGetUniformLocation(program, "scale"), 3);
  const GLfloat offsets[6] = {0, 0, 0, 0, 0, 7};
  glUniform2fv(glGetUniformLocation(program, "offsets"), 3, offsets);
  const GLfloat m[4] = {0, 0, 5, 0};
  glUniformMatrix2fv(glGetUniformLocation(program, "m"), 1, GL_FALSE, m);
  const uint32_t params[4] = {11, 2, 0, 0};
  const GLuint ubo = make_buffer(sizeof params, params);
  glBindBufferBase(GL_UNIFORM_BUFFER, 1, ubo);
  const GLuint out = make_buffer(kInvocations * 4);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 2, out);
  const uint32_t counters[2] = {0, 100};
  const GLuint acb = make_buffer(sizeof counters, counters);
  glBindBufferBase(GL_ATOMIC_COUNTER_BUFFER, 0, acb);
  glDispatchCompute(kGroups, 1, 1);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  std::vector<uint32_t> words = read_words(out, kInvocations);
  words.push_back(read_words(acb, 2)[1]);
  const GLuint buffers[3] = {ubo, out, acb};
  glDeleteBuffers(3, buffers);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  return words;
}

}  // namespace

TEST_CASE("program binaries: one binary format in GL 4.6 and OpenGL ES 3.2") {
  // GL 4.6 §7.5: "the number of available program binary formats ... NUM_PROGRAM_BINARY_FORMATS ... the list of
  // available formats ... PROGRAM_BINARY_FORMATS". Bismuth has one, GL_PROGRAM_BINARY_FORMAT_BISMUTH.
  {
    GlContext gl;
    GLint n = -1, format = -1;
    glGetIntegerv(GL_NUM_PROGRAM_BINARY_FORMATS, &n);
    glGetIntegerv(GL_PROGRAM_BINARY_FORMATS, &format);
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    CHECK(n == 1);
    CHECK(static_cast<GLenum>(format) == GL_PROGRAM_BINARY_FORMAT_BISMUTH);
    // Core since GL 4.1; listed too, as applications that support older contexts look for the extension.
    CHECK(has_extension("GL_ARB_get_program_binary"));
  }
  // OpenGL ES 3.2 §7.5 has the same queries; an ES context round-trips a program too.
  EGLDisplay display = eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, nullptr, nullptr);
  REQUIRE(eglInitialize(display, nullptr, nullptr) == EGL_TRUE);
  REQUIRE(eglBindAPI(EGL_OPENGL_ES_API) == EGL_TRUE);
  const EGLint attribs[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 2, EGL_NONE};
  EGLContext es = eglCreateContext(display, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, attribs);
  REQUIRE(es != EGL_NO_CONTEXT);
  REQUIRE(eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, es) == EGL_TRUE);
  GLint n = -1, format = -1;
  glGetIntegerv(GL_NUM_PROGRAM_BINARY_FORMATS, &n);
  glGetIntegerv(GL_PROGRAM_BINARY_FORMATS, &format);
  CHECK(n == 1);
  CHECK(static_cast<GLenum>(format) == GL_PROGRAM_BINARY_FORMAT_BISMUTH);
  const GLuint program = make_program(
      "#version 320 es\nlayout(local_size_x = 8) in;\n"
      "layout(std430, binding = 0) buffer B { uint v[]; };\n"
      "void main() { v[gl_LocalInvocationIndex] = gl_LocalInvocationIndex * 2u; }\n");
  const Binary binary = get_binary(program);
  CHECK(binary.format == GL_PROGRAM_BINARY_FORMAT_BISMUTH);
  const GLuint loaded = load(binary.bytes);
  CHECK(program_int(loaded, GL_LINK_STATUS) == GL_TRUE);
  const GLuint out = make_buffer(8 * 4);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, out);
  glUseProgram(loaded);
  glDispatchCompute(1, 1, 1);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  const std::vector<uint32_t> words = read_words(out, 8);
  for (uint32_t i = 0; i < 8; ++i) CHECK(words[i] == i * 2);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  glUseProgram(0);
  glDeleteProgram(program);
  glDeleteProgram(loaded);
  eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  eglDestroyContext(display, es);
  eglBindAPI(EGL_OPENGL_API);
}

TEST_CASE("program binaries: a program with uniforms, blocks and atomic counters round-trips") {
  GlContext gl;
  const GLuint program = make_program(kBlocks);
  const std::vector<uint32_t> before = run_blocks(program);
  // The shader's own arithmetic, so that "identical" is not "identically wrong".
  for (uint32_t i = 0; i < 96; ++i) REQUIRE(before[i] == i * 3 * 2 + 11 + 7 + 5);
  REQUIRE(before[96] == 100 + 96);
  const std::string description = describe(program);
  for (const char* name : {"scale", "offsets[0]", "m", "Params", "Params.add", "Out", "Out.values[0]", "counter"}) {
    INFO(description);
    CHECK(description.find(std::string("  ") + name) != std::string::npos);
  }

  const Binary binary = get_binary(program);
  // GL 4.6 §7.5: "the format of the program binary is returned in binaryFormat" — one of PROGRAM_BINARY_FORMATS.
  CHECK(binary.format == GL_PROGRAM_BINARY_FORMAT_BISMUTH);
  const GLuint loaded = load(binary.bytes);
  INFO(info_log(loaded));
  REQUIRE(program_int(loaded, GL_LINK_STATUS) == GL_TRUE);
  // OpenGL ES 3.2 §7.5: "A successful call to ProgramBinary will reset all uniform variables to their initial
  // values" (zero: kBlocks has no initializers).
  GLuint scale = 99;
  glGetUniformuiv(loaded, glGetUniformLocation(loaded, "scale"), &scale);
  CHECK(scale == 0);
  GLfloat matrix[4] = {1, 1, 1, 1};
  glGetUniformfv(loaded, glGetUniformLocation(loaded, "m"), matrix);
  CHECK((matrix[0] == 0 && matrix[1] == 0 && matrix[2] == 0 && matrix[3] == 0));
  CHECK(describe(loaded) == description);
  CHECK(run_blocks(loaded) == before);
  // A binary of the loaded program is the same binary.
  CHECK(get_binary(loaded).bytes == binary.bytes);

  // Loading into the current program replaces its executable: "If ProgramBinary successfully loads a program
  // binary into a program object that is in use ... the new executable ... is installed" (GL 4.6 §7.5 by way of
  // §7.3).
  const GLuint other = make_program("#version 450\nlayout(local_size_x = 32) in;\nvoid main() {}\n");
  glUseProgram(other);
  glProgramBinary(other, binary.format, binary.bytes.data(), static_cast<GLsizei>(binary.bytes.size()));
  REQUIRE(program_int(other, GL_LINK_STATUS) == GL_TRUE);
  CHECK(run_blocks(other) == before);
  glUseProgram(0);
  for (GLuint p : {program, loaded, other}) glDeleteProgram(p);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("program binaries: a variable-group-size program round-trips") {
  GlContext gl;
  if (!has_extension("GL_ARB_compute_variable_group_size")) {
    WARN("skipped: GL_ARB_compute_variable_group_size is not advertised on this device");
    return;
  }
  const GLuint program = make_program(kVariable);
  auto run = [](GLuint p) {
    glUseProgram(p);
    glUniform1ui(glGetUniformLocation(p, "base"), 5);
    const GLuint out = make_buffer(2 * 8 * 4 * 4);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, out);
    glDispatchComputeGroupSizeARB(2, 1, 1, 8, 4, 1);
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    std::vector<uint32_t> words = read_words(out, 2 * 8 * 4);
    glDeleteBuffers(1, &out);
    return words;
  };
  const std::vector<uint32_t> before = run(program);
  for (uint32_t w : before) REQUIRE(w == 5 + 8000 + 4);
  const GLuint loaded = load(get_binary(program).bytes);
  INFO(info_log(loaded));
  REQUIRE(program_int(loaded, GL_LINK_STATUS) == GL_TRUE);
  CHECK(describe(loaded) == describe(program));
  CHECK(run(loaded) == before);
  glUseProgram(0);
  glDeleteProgram(program);
  glDeleteProgram(loaded);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("program binaries: a GL_BISMUTH_num_waves program keeps its committed wave size") {
  GlContext gl;
  const GLuint program = make_program(kWaves);
  const GLint wave = program_int(program, GL_COMPUTE_WAVE_SIZE_BISMUTH);
  REQUIRE(wave > 0);
  auto run = [wave](GLuint p) {
    glUseProgram(p);
    const GLuint out = make_buffer(2 * 2 * wave * 8);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, out);
    glDispatchCompute(2, 1, 1);
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    std::vector<uint32_t> words = read_words(out, static_cast<size_t>(2 * 2 * wave * 2));
    glDeleteBuffers(1, &out);
    return words;
  };
  const std::vector<uint32_t> before = run(program);
  for (size_t i = 0; i < before.size(); i += 2) {
    CHECK(before[i] == (i / 2 / static_cast<size_t>(wave)) % 2);
    CHECK(before[i + 1] == static_cast<uint32_t>(wave));
  }
  const GLuint loaded = load(get_binary(program).bytes);
  INFO(info_log(loaded));
  REQUIRE(program_int(loaded, GL_LINK_STATUS) == GL_TRUE);
  // docs/GL_BISMUTH_num_waves.txt: COMPUTE_WAVE_SIZE_BISMUTH is "the wave size the program committed to at its
  // last successful link" — a load is one.
  CHECK(program_int(loaded, GL_COMPUTE_WAVE_SIZE_BISMUTH) == wave);
  CHECK(program_int(loaded, GL_COMPUTE_NUM_WAVES_BISMUTH) == 2);
  CHECK(describe(loaded) == describe(program));
  CHECK(run(loaded) == before);
  glUseProgram(0);
  glDeleteProgram(program);
  glDeleteProgram(loaded);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("program binaries: an ARB_gl_spirv program and an HLSL program round-trip") {
  GlContext gl;
  // ARB_gl_spirv (tests/spirv_patch/gl_spirv_modules.hpp, kDefaultUniforms): uniforms by location only.
  spvtools::SpirvTools tools(SPV_ENV_UNIVERSAL_1_0);
  std::vector<uint32_t> words;
  REQUIRE(tools.Assemble(bismuth::test::gl_spirv::kDefaultUniforms, &words));
  const GLuint shader = glCreateShader(GL_COMPUTE_SHADER);
  glShaderBinary(1, &shader, GL_SHADER_BINARY_FORMAT_SPIR_V, words.data(), static_cast<GLsizei>(words.size() * 4));
  glSpecializeShader(shader, "main", 0, nullptr, nullptr);
  const GLuint spirv = glCreateProgram();
  glAttachShader(spirv, shader);
  glLinkProgram(spirv);
  glDeleteShader(shader);
  REQUIRE(program_int(spirv, GL_LINK_STATUS) == GL_TRUE);
  auto run_spirv = [](GLuint p) {
    glUseProgram(p);
    glUniform1ui(0, 3);
    const GLfloat offs[8] = {0, 10, 0, 0, 0, 20, 0, 0};
    glUniform4fv(2, 2, offs);
    glUniform1i(7, 1);
    const GLuint out = make_buffer(8 * 4);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, out);
    glDispatchCompute(2, 1, 1);
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    std::vector<uint32_t> result = read_words(out, 8);
    glDeleteBuffers(1, &out);
    return result;
  };
  const std::vector<uint32_t> before = run_spirv(spirv);
  for (uint32_t i = 0; i < 8; ++i) REQUIRE(before[i] == i * 3 + ((i & 1) ? 20 : 10) + 1000);
  const GLuint spirv_loaded = load(get_binary(spirv).bytes);
  INFO(info_log(spirv_loaded));
  REQUIRE(program_int(spirv_loaded, GL_LINK_STATUS) == GL_TRUE);
  CHECK(describe(spirv_loaded) == describe(spirv));
  CHECK(run_spirv(spirv_loaded) == before);

  // HLSL (glShaderSourceHLSLBISMUTH) with an entry point of its own name.
  const char* hlsl =
      "RWStructuredBuffer<uint> Out : register(u0);\n"
      "[numthreads(4, 1, 1)] void Entry(uint3 id : SV_DispatchThreadID) { Out[id.x] = id.x * 7 + 1; }\n";
  const GLuint hlsl_shader = glCreateShader(GL_COMPUTE_SHADER);
  glShaderSourceHLSLBISMUTH(hlsl_shader, 1, &hlsl, nullptr, "Entry");
  glCompileShader(hlsl_shader);
  const GLuint from_hlsl = glCreateProgram();
  glAttachShader(from_hlsl, hlsl_shader);
  glLinkProgram(from_hlsl);
  glDeleteShader(hlsl_shader);
  INFO(info_log(from_hlsl));
  REQUIRE(program_int(from_hlsl, GL_LINK_STATUS) == GL_TRUE);
  auto run_hlsl = [](GLuint p) {
    glUseProgram(p);
    const GLuint out = make_buffer(8 * 4);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, out);
    glDispatchCompute(2, 1, 1);
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    std::vector<uint32_t> result = read_words(out, 8);
    glDeleteBuffers(1, &out);
    return result;
  };
  const std::vector<uint32_t> hlsl_before = run_hlsl(from_hlsl);
  for (uint32_t i = 0; i < 8; ++i) REQUIRE(hlsl_before[i] == i * 7 + 1);
  const GLuint hlsl_loaded = load(get_binary(from_hlsl).bytes);
  REQUIRE(program_int(hlsl_loaded, GL_LINK_STATUS) == GL_TRUE);
  CHECK(run_hlsl(hlsl_loaded) == hlsl_before);
  glUseProgram(0);
  for (GLuint p : {spirv, spirv_loaded, from_hlsl, hlsl_loaded}) glDeleteProgram(p);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("program binaries: the error rules of GL 4.6 §7.5") {
  GlContext gl;
  const GLuint linked = make_program(kBlocks);
  const Binary binary = get_binary(linked);
  const GLuint unlinked = glCreateProgram();
  std::vector<uint8_t> buffer(binary.bytes.size() + 16);
  GLsizei length = -1;
  GLenum format = 0;

  // "An INVALID_OPERATION error is generated if LINK_STATUS of program is FALSE" (GetProgramBinary).
  glGetProgramBinary(unlinked, static_cast<GLsizei>(buffer.size()), &length, &format, buffer.data());
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  CHECK(length == -1);
  // PROGRAM_BINARY_LENGTH of a program without an executable: no binary, 0.
  CHECK(program_int(unlinked, GL_PROGRAM_BINARY_LENGTH) == 0);

  // "An INVALID_OPERATION error is generated if bufSize is less than the value of PROGRAM_BINARY_LENGTH for
  // program" — and nothing is written.
  std::fill(buffer.begin(), buffer.end(), uint8_t{0xAB});
  glGetProgramBinary(linked, static_cast<GLsizei>(binary.bytes.size()) - 1, &length, &format, buffer.data());
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  CHECK(length == -1);
  CHECK(buffer[0] == 0xAB);
  glGetProgramBinary(linked, 0, &length, &format, nullptr);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  // A larger buffer is fine: "the actual number of bytes written into binary is returned in length".
  glGetProgramBinary(linked, static_cast<GLsizei>(buffer.size()), &length, &format, buffer.data());
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  CHECK(length == static_cast<GLsizei>(binary.bytes.size()));

  // GL 4.6 §7.1 / §7.5: a name that is no object is INVALID_VALUE, a shader's name INVALID_OPERATION.
  glGetProgramBinary(9999, static_cast<GLsizei>(buffer.size()), &length, &format, buffer.data());
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  glProgramBinary(9999, GL_PROGRAM_BINARY_FORMAT_BISMUTH, binary.bytes.data(),
                  static_cast<GLsizei>(binary.bytes.size()));
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  const GLuint shader = glCreateShader(GL_COMPUTE_SHADER);
  glGetProgramBinary(shader, static_cast<GLsizei>(buffer.size()), &length, &format, buffer.data());
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glProgramBinary(shader, GL_PROGRAM_BINARY_FORMAT_BISMUTH, binary.bytes.data(),
                  static_cast<GLsizei>(binary.bytes.size()));
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glDeleteShader(shader);

  // "An INVALID_ENUM error is generated if the format indicated by binaryFormat is not one of those in
  // PROGRAM_BINARY_FORMATS" — and the program is not touched.
  const GLuint target = make_program(kBlocks);
  for (GLenum bad : {GLenum(0), GLenum(GL_SHADER_BINARY_FORMAT_SPIR_V), GLenum(GL_PROGRAM_BINARY_FORMAT_BISMUTH + 1)}) {
    glProgramBinary(target, bad, binary.bytes.data(), static_cast<GLsizei>(binary.bytes.size()));
    REQUIRE_GL_ERROR(GL_INVALID_ENUM);
  }
  CHECK(program_int(target, GL_LINK_STATUS) == GL_TRUE);

  // A load that fails is no error: "LINK_STATUS will be set to FALSE" and the info log says why; a program
  // whose load failed cannot be made current (§7.3: "INVALID_OPERATION ... if program has not been successfully
  // linked").
  glProgramBinary(target, GL_PROGRAM_BINARY_FORMAT_BISMUTH, binary.bytes.data(), 10);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  CHECK(program_int(target, GL_LINK_STATUS) == GL_FALSE);
  CHECK(info_log(target).find("fails to link") != std::string::npos);
  // "any information about a previous link or load of that program object is lost"
  CHECK(program_int(target, GL_ACTIVE_UNIFORMS) == 0);
  CHECK(program_int(target, GL_PROGRAM_BINARY_LENGTH) == 0);
  glUseProgram(target);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  for (GLsizei bad_length : {GLsizei(-1), GLsizei(0)}) {
    glProgramBinary(target, GL_PROGRAM_BINARY_FORMAT_BISMUTH, binary.bytes.data(), bad_length);
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    CHECK(program_int(target, GL_LINK_STATUS) == GL_FALSE);
  }
  // The hint is state of its own ("PROGRAM_BINARY_RETRIEVABLE_HINT ... is queried with GetProgramiv"): set, it
  // reads back; binaries are retrievable either way.
  glProgramParameteri(target, GL_PROGRAM_BINARY_RETRIEVABLE_HINT, GL_TRUE);
  CHECK(program_int(target, GL_PROGRAM_BINARY_RETRIEVABLE_HINT) == GL_TRUE);
  glProgramBinary(target, GL_PROGRAM_BINARY_FORMAT_BISMUTH, binary.bytes.data(),
                  static_cast<GLsizei>(binary.bytes.size()));
  CHECK(program_int(target, GL_LINK_STATUS) == GL_TRUE);
  CHECK(program_int(target, GL_PROGRAM_BINARY_LENGTH) == static_cast<GLint>(binary.bytes.size()));
  for (GLuint p : {linked, unlinked, target}) glDeleteProgram(p);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("program binaries: corrupted and truncated binaries fail to load, never crash") {
  // GL 4.6 §7.5: "Loading the program binary will fail, setting the LINK_STATUS of program to FALSE, if the
  // contents of binary have been modified since being returned by GetProgramBinary" (or it is not what was
  // returned: its length differs).
  GlContext gl;
  const GLuint program = make_program(kBlocks);
  const Binary binary = get_binary(program);
  const GLuint target = glCreateProgram();
  auto fails = [&](const std::vector<uint8_t>& bytes, size_t length) {
    glProgramBinary(target, GL_PROGRAM_BINARY_FORMAT_BISMUTH, bytes.data(), static_cast<GLsizei>(length));
    return program_int(target, GL_LINK_STATUS) == GL_FALSE && !info_log(target).empty();
  };
  uint64_t state = 0x9E3779B97F4A7C15ull;  // xorshift64: a fixed, reproducible sequence of mutations
  auto next = [&] {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  };
  size_t undetected = 0;
  // Every byte changed, one at a time.
  for (size_t at = 0; at < binary.bytes.size(); ++at) {
    std::vector<uint8_t> bytes = binary.bytes;
    bytes[at] ^= static_cast<uint8_t>(1 + at % 255);
    if (!fails(bytes, bytes.size())) ++undetected;
  }
  CHECK(undetected == 0);
  // Random changes of one to three bytes.
  for (int i = 0; i < 4000; ++i) {
    std::vector<uint8_t> bytes = binary.bytes;
    const size_t flips = 1 + next() % 3;
    for (size_t f = 0; f < flips; ++f) {
      const size_t at = next() % bytes.size();
      bytes[at] ^= static_cast<uint8_t>(1 + next() % 255);
    }
    if (!fails(bytes, bytes.size())) ++undetected;
  }
  CHECK(undetected == 0);
  for (size_t length = 1; length < binary.bytes.size(); ++length) {
    if (!fails(binary.bytes, length)) ++undetected;
  }
  CHECK(undetected == 0);
  std::vector<uint8_t> longer = binary.bytes;
  longer.push_back(0);
  CHECK(fails(longer, longer.size()));
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  // The unchanged binary still loads into the same object.
  glProgramBinary(target, binary.format, binary.bytes.data(), static_cast<GLsizei>(binary.bytes.size()));
  CHECK(program_int(target, GL_LINK_STATUS) == GL_TRUE);
  glDeleteProgram(program);
  glDeleteProgram(target);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("program binaries: corrupted binaries with a matching checksum load or fail, never crash") {
  // The checksum catches accidental corruption; behind it the reader checks every length, count, index and size
  // itself (docs/gl_shim.md, "Program binaries"). Here the payload is corrupted and the checksum (XXH3-128 of the
  // payload, header bytes 88..103) recomputed, so every change reaches the reader: each load either fails with an
  // info log or gives a program whose introspection answers — no crash, no GL error, no validation message.
  GlContext gl;
  const GLuint program = make_program(kBlocks);
  const Binary binary = get_binary(program);
  constexpr size_t kPayload = 104, kHash = 88;
  REQUIRE(binary.bytes.size() > kPayload);
  const GLuint target = glCreateProgram();
  uint64_t state = 0x2545F4914F6CDD1Dull;
  auto next = [&] {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  };
  size_t loaded = 0, refused = 0;
  for (int i = 0; i < 3000; ++i) {
    std::vector<uint8_t> bytes = binary.bytes;
    const size_t flips = 1 + next() % 4;
    for (size_t f = 0; f < flips; ++f) {
      const size_t at = kPayload + next() % (bytes.size() - kPayload);
      // Small values, large values and bit flips: counts and sizes near their limits as well as noise.
      switch (next() % 3) {
        case 0: bytes[at] ^= static_cast<uint8_t>(1u << (next() % 8)); break;
        case 1: bytes[at] = 0xFF; break;
        default: bytes[at] = static_cast<uint8_t>(next() % 4); break;
      }
    }
    const XXH128_hash_t h = XXH3_128bits(bytes.data() + kPayload, bytes.size() - kPayload);
    for (size_t b = 0; b < 8; ++b) {
      bytes[kHash + b] = static_cast<uint8_t>(h.low64 >> (8 * b));
      bytes[kHash + 8 + b] = static_cast<uint8_t>(h.high64 >> (8 * b));
    }
    glProgramBinary(target, GL_PROGRAM_BINARY_FORMAT_BISMUTH, bytes.data(), static_cast<GLsizei>(bytes.size()));
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    if (program_int(target, GL_LINK_STATUS) == GL_TRUE) {
      ++loaded;
      (void)describe(target);
      // Every location read and written (under a sanitizer, any access outside the uniform storage shows).
      GLfloat values[64] = {};
      for (GLint location = 0; location < 32; ++location) {
        glGetUniformfv(target, location, values);
        glProgramUniform1f(target, location, 1.0f);
        glProgramUniformMatrix4fv(target, location, 1, GL_FALSE, values);
      }
      while (glGetError() != GL_NO_ERROR) {
      }
    } else {
      ++refused;
      CHECK(!info_log(target).empty());
    }
  }
  // Most changes land in the SPIR-V and are refused; some (a name, the info log) give a program that still loads.
  INFO("loaded " << loaded << ", refused " << refused);
  CHECK(refused > 0);
  glDeleteProgram(program);
  glDeleteProgram(target);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("program binaries: a binary of another device, driver or Bismuth version fails to load") {
  // GL 4.6 §7.5: "Loading a program binary may also fail if the implementation determines that there has been a
  // change in hardware or software configuration from when the program binary was produced". The header's
  // fingerprint (docs/gl_shim.md, "Program binaries": deviceUUID at byte 12, driverUUID at 28, driverVersion at
  // 44, the Bismuth version's hash at 48, the target's at 64) stands for that configuration.
  GlContext gl;
  const GLuint program = make_program(kBlocks);
  const Binary binary = get_binary(program);
  struct Case {
    size_t offset;
    const char* reason;
  };
  for (const Case& c : {Case{12, "another device"}, Case{28, "another driver"}, Case{44, "another driver"},
                        Case{48, "another Bismuth version"}, Case{64, "other device settings"}}) {
    std::vector<uint8_t> foreign = binary.bytes;
    foreign[c.offset] ^= 0x5A;
    const GLuint loaded = load(foreign);
    INFO("offset " << c.offset);
    CHECK(program_int(loaded, GL_LINK_STATUS) == GL_FALSE);
    CHECK(info_log(loaded).find(c.reason) != std::string::npos);
    glDeleteProgram(loaded);
  }
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  glDeleteProgram(program);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("program binaries: programs of graphics stages have none") {
  // Bismuth makes no binaries of programs of graphics stages (docs/gl_shim.md, "Program binaries"):
  // PROGRAM_BINARY_LENGTH is 0, and the empty binary fails to load like any binary that is not one (§7.5).
  GlContext gl;
  auto stage = [](GLenum type, const char* source) {
    const GLuint s = glCreateShader(type);
    glShaderSource(s, 1, &source, nullptr);
    glCompileShader(s);
    return s;
  };
  const GLuint vs =
      stage(GL_VERTEX_SHADER, "#version 450\nlayout(location = 0) in vec4 p;\nvoid main() { gl_Position = p; }\n");
  const GLuint fs =
      stage(GL_FRAGMENT_SHADER, "#version 450\nlayout(location = 0) out vec4 c;\nvoid main() { c = vec4(1); }\n");
  const GLuint program = glCreateProgram();
  glAttachShader(program, vs);
  glAttachShader(program, fs);
  glLinkProgram(program);
  REQUIRE(program_int(program, GL_LINK_STATUS) == GL_TRUE);
  CHECK(program_int(program, GL_PROGRAM_BINARY_LENGTH) == 0);
  GLsizei length = -1;
  GLenum format = 0;
  uint8_t byte = 0;
  glGetProgramBinary(program, 1, &length, &format, &byte);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  CHECK(length == 0);
  glProgramBinary(program, format, &byte, length);
  CHECK(program_int(program, GL_LINK_STATUS) == GL_FALSE);
  for (GLuint s : {vs, fs}) glDeleteShader(s);
  glDeleteProgram(program);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
}
