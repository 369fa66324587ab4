// NV assembly programs as GL objects: the entry points and the GL_EXTENSIONS rules, generation, binding and
// deletion, glGetProgramivARB / glGetProgramStringARB, load errors (position, string, previous program kept) and
// programs that need 32-lane warps.
#include "translator/gl/asm_program_support.hpp"

#include "bismuth/gl/bismuth_gl.h"

using namespace bismuth::gltest;
using namespace bismuth::gltest::asm_program;

TEST_CASE("Assembly program entry points are supported and resolvable", "[asm]") {
  GlContext gl;
  for (const char* name :
       {"glGenProgramsARB", "glDeleteProgramsARB", "glBindProgramARB", "glProgramStringARB", "glIsProgramARB",
        "glGetProgramivARB", "glGetProgramStringARB", "glProgramLocalParameter4fARB", "glProgramLocalParameter4fvARB",
        "glProgramLocalParameter4dARB", "glProgramLocalParameter4dvARB", "glProgramEnvParameter4fARB",
        "glProgramEnvParameter4fvARB", "glProgramEnvParameter4dARB", "glProgramEnvParameter4dvARB",
        "glProgramLocalParameterI4iNV", "glProgramLocalParameterI4ivNV", "glProgramLocalParameterI4uiNV",
        "glProgramLocalParameterI4uivNV", "glProgramEnvParameterI4iNV", "glProgramEnvParameterI4ivNV",
        "glProgramEnvParameterI4uiNV", "glProgramEnvParameterI4uivNV", "glGetProgramLocalParameterfvARB",
        "glGetProgramEnvParameterIuivNV", "glProgramBufferParametersfvNV", "glProgramBufferParametersIivNV",
        "glProgramBufferParametersIuivNV", "glProgramSubroutineParametersuivNV",
        "glGetProgramSubroutineParameteruivNV"}) {
    INFO(name);
    CHECK(bismuthGetProcAddress(name) != nullptr);
    CHECK(eglGetProcAddress(name) != nullptr);
  }
  CHECK(bismuthGetProcAddress("glProgramStringARB") == reinterpret_cast<void (*)(void)>(&glProgramStringARB));
  // Outside the supported surface (rasterization state): loaders must see it as absent.
  CHECK(bismuthGetProcAddress("glPolygonMode") == nullptr);
}

TEST_CASE("GL_EXTENSIONS lists the NV assembly extensions only where they work", "[asm]") {
  GlContext gl;
  REQUIRE(has_extension("GL_NV_compute_program5"));
  CHECK(has_extension("GL_NV_gpu_program5"));
  CHECK(has_extension("GL_NV_gpu_program4"));
  CHECK(has_extension("GL_NV_shader_storage_buffer_object"));
  CHECK(has_extension("GL_ARB_gpu_shader_int64"));  // NV_gpu_program5's 64-bit integers need shaderInt64
  // The thread-group extensions are listed exactly when their programs load.
  const std::string tg = "!!NVcp5.0\nOPTION NV_shader_storage_buffer;\nOPTION NV_shader_thread_group;\nGROUP_SIZE 32;\n"
                         "STORAGE out[] = { program.storage[0] };\nTEMP R0;\nTGBALLOT.U R0.x, {1}.x;\n"
                         "STB.U32 R0.x, out[0];\nEND\n";
  const std::string shf = "!!NVcp5.0\nOPTION NV_shader_storage_buffer;\nOPTION NV_shader_thread_shuffle;\nGROUP_SIZE 32;\n"
                          "STORAGE out[] = { program.storage[0] };\nTEMP R0;\n"
                          "SHFIDX.U R0.x, invocation.localid.x, {0}.x, {31}.x;\nSTB.U32 R0.x, out[0];\nEND\n";
  new_program();
  const GLenum tg_loaded = load(tg);
  INFO(error_string());
  CHECK((tg_loaded == GL_NO_ERROR) == has_extension("GL_NV_shader_thread_group"));
  const GLenum shf_loaded = load(shf);
  INFO(error_string());
  CHECK((shf_loaded == GL_NO_ERROR) == has_extension("GL_NV_shader_thread_shuffle"));
  // Parameter buffers always work; 64-bit buffer atomics are listed exactly when a 64-bit ATOMB loads.
  CHECK(has_extension("GL_NV_parameter_buffer_object"));
  CHECK(has_extension("GL_NV_parameter_buffer_object2"));
  const std::string atom64 = "!!NVcp5.0\nOPTION NV_shader_storage_buffer;\nOPTION NV_shader_atomic_int64;\nGROUP_SIZE 1;\n"
                             "STORAGE out[] = { program.storage[0] };\nLONG TEMP R0;\n"
                             "ATOMB.ADD.U64 R0.x, {1}.x, out[0];\nEND\n";
  const GLenum atom64_loaded = load(atom64);
  INFO(error_string());
  CHECK((atom64_loaded == GL_NO_ERROR) == has_extension("GL_NV_shader_atomic_int64"));
  GLint subgroup = 0;
  glGetIntegerv(GL_SUBGROUP_SIZE_KHR, &subgroup);
  if (subgroup != 32) WARN("subgroup size " << subgroup << ": thread-group extensions listed: " << has_extension("GL_NV_shader_thread_group"));
  glGetError();
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("Program objects: generation, binding, deletion, glIsProgramARB", "[asm]") {
  GlContext gl;
  GLuint names[3] = {};
  glGenProgramsARB(3, names);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  CHECK(names[0] != 0);
  CHECK(names[0] != names[1]);
  CHECK(names[1] != names[2]);
  // A generated name is a program only once bound.
  CHECK(glIsProgramARB(names[0]) == GL_FALSE);
  glBindProgramARB(GL_COMPUTE_PROGRAM_NV, names[0]);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  CHECK(glIsProgramARB(names[0]) == GL_TRUE);
  CHECK(glIsProgramARB(0) == GL_FALSE);
  GLint binding = -1;
  glGetProgramivARB(GL_COMPUTE_PROGRAM_NV, GL_PROGRAM_BINDING_ARB, &binding);
  CHECK(binding == static_cast<GLint>(names[0]));
  // Deleting the bound program reverts the binding to 0.
  glDeleteProgramsARB(1, names);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  CHECK(glIsProgramARB(names[0]) == GL_FALSE);
  glGetProgramivARB(GL_COMPUTE_PROGRAM_NV, GL_PROGRAM_BINDING_ARB, &binding);
  CHECK(binding == 0);
  // Errors.
  glGenProgramsARB(-1, names);
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  glDeleteProgramsARB(-1, names);
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  glBindProgramARB(GL_VERTEX_PROGRAM_ARB, names[1]);
  REQUIRE_GL_ERROR(GL_INVALID_ENUM);
  CHECK(glIsProgramARB(names[1]) == GL_FALSE);
  glBindProgramARB(GL_COMPUTE_PROGRAM_NV, 0);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  // Program names are not GLSL program names and vice versa.
  glBindProgramARB(GL_COMPUTE_PROGRAM_NV, names[2]);
  CHECK(glIsProgram(names[2]) == GL_FALSE);
  glGetError();
  glDeleteProgramsARB(2, names + 1);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("glGetProgramivARB and glGetProgramStringARB report the loaded program", "[asm]") {
  GlContext gl;
  new_program();
  GLint v = -1;
  glGetProgramivARB(GL_COMPUTE_PROGRAM_NV, GL_PROGRAM_LENGTH_ARB, &v);
  CHECK(v == 0);
  glGetProgramivARB(GL_COMPUTE_PROGRAM_NV, GL_PROGRAM_UNDER_NATIVE_LIMITS_ARB, &v);
  CHECK(v == GL_FALSE);
  const std::string source = store_program("program.local[3]", "TEMP R1, R2;\nPARAM k = {1, 2, 3, 4};\n");
  REQUIRE(load(source) == GL_NO_ERROR);
  glGetProgramivARB(GL_COMPUTE_PROGRAM_NV, GL_PROGRAM_LENGTH_ARB, &v);
  CHECK(v == static_cast<GLint>(source.size()));
  glGetProgramivARB(GL_COMPUTE_PROGRAM_NV, GL_PROGRAM_FORMAT_ARB, &v);
  CHECK(v == GL_PROGRAM_FORMAT_ASCII_ARB);
  glGetProgramivARB(GL_COMPUTE_PROGRAM_NV, GL_PROGRAM_INSTRUCTIONS_ARB, &v);
  CHECK(v == 2);
  glGetProgramivARB(GL_COMPUTE_PROGRAM_NV, GL_PROGRAM_TEMPORARIES_ARB, &v);
  CHECK(v == 3);
  glGetProgramivARB(GL_COMPUTE_PROGRAM_NV, GL_PROGRAM_PARAMETERS_ARB, &v);
  CHECK(v == 1);
  glGetProgramivARB(GL_COMPUTE_PROGRAM_NV, GL_PROGRAM_UNDER_NATIVE_LIMITS_ARB, &v);
  CHECK(v == GL_TRUE);
  glGetProgramivARB(GL_COMPUTE_PROGRAM_NV, GL_MAX_PROGRAM_LOCAL_PARAMETERS_ARB, &v);
  CHECK(v == 1024);
  glGetProgramivARB(GL_COMPUTE_PROGRAM_NV, GL_MAX_PROGRAM_ENV_PARAMETERS_ARB, &v);
  CHECK(v == 1024);
  glGetProgramivARB(GL_COMPUTE_PROGRAM_NV, GL_MAX_PROGRAM_INSTRUCTIONS_ARB, &v);
  CHECK(v >= 4096);
  glGetProgramivARB(GL_COMPUTE_PROGRAM_NV, GL_MAX_PROGRAM_TEMPORARIES_ARB, &v);
  CHECK(v >= 32);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  std::string back(source.size() + 4, '#');
  glGetProgramStringARB(GL_COMPUTE_PROGRAM_NV, GL_PROGRAM_STRING_ARB, back.data());
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  CHECK(back.substr(0, source.size()) == source);
  CHECK(back.substr(source.size()) == "####");  // no terminator written
  // Errors.
  glGetProgramivARB(GL_COMPUTE_PROGRAM_NV, GL_PROGRAM_STRING_ARB, &v);
  REQUIRE_GL_ERROR(GL_INVALID_ENUM);
  glGetProgramivARB(GL_FRAGMENT_PROGRAM_ARB, GL_PROGRAM_LENGTH_ARB, &v);
  REQUIRE_GL_ERROR(GL_INVALID_ENUM);
  glGetProgramStringARB(GL_COMPUTE_PROGRAM_NV, GL_PROGRAM_LENGTH_ARB, back.data());
  REQUIRE_GL_ERROR(GL_INVALID_ENUM);
  glGetProgramStringARB(GL_VERTEX_PROGRAM_ARB, GL_PROGRAM_STRING_ARB, back.data());
  REQUIRE_GL_ERROR(GL_INVALID_ENUM);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("Load errors report the position and the driver's message and keep the previous program", "[asm]") {
  GlContext gl;
  new_program();
  const std::string good = store_program("{7, 8, 9, 10}");
  REQUIRE(load(good) == GL_NO_ERROR);
  CHECK(error_position() == -1);
  CHECK(error_string().empty());
  const GLuint out = poisoned_buffer(4);
  glEnable(GL_COMPUTE_PROGRAM_NV);

  struct Bad {
    const char* what;
    std::string source;
    std::string at;  // the text the position points at
    const char* message;
  };
  const std::string header = "!!NVcp5.0\nOPTION NV_shader_storage_buffer;\nGROUP_SIZE 1;\n"
                             "STORAGE out[] = { program.storage[0] };\nTEMP R0;\n";
  const std::vector<Bad> cases = {
      {"unknown opcode", header + "FROB R0, R0;\nEND\n", "FROB", "FROB"},
      {"undeclared variable", header + "MOV.U R7, {1}.x;\nEND\n", "R7", "R7"},
      {"wrong header", "!!ARBvp1.0\nEND\n", "!!ARBvp1.0", "!!NVcp5.0"},
      {"missing END", header + "MOV.U R0, {1}.x;\n", "", ""},
      {"storage index above GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS",
       "!!NVcp5.0\nOPTION NV_shader_storage_buffer;\nGROUP_SIZE 1;\nSTORAGE big[] = { program.storage[40] };\nTEMP R0;\n"
       "STB.U32 R0.x, big[0];\nEND\n",
       "program.storage[40]", "GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS"},
      {"group size above the device limit", "!!NVcp5.0\nGROUP_SIZE 65535 65535;\nEND\n", "GROUP_SIZE", "GROUP_SIZE"},
  };
  for (const Bad& bad : cases) {
    INFO(bad.what);
    CHECK(load(bad.source) == GL_INVALID_OPERATION);
    const std::string message = error_string();
    INFO(message);
    const GLint position = error_position();
    CHECK(position >= 0);
    CHECK(position <= static_cast<GLint>(bad.source.size()));
    if (!bad.at.empty()) CHECK(position == static_cast<GLint>(bad.source.find(bad.at)));
    // "line L, column C: error: ..." with L and C those of the position.
    int line = 1, column = 1;
    for (GLint i = 0; i < position && i < static_cast<GLint>(bad.source.size()); ++i) {
      if (bad.source[static_cast<size_t>(i)] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
    CHECK(message.rfind("line " + std::to_string(line) + ", column " + std::to_string(column) + ": error: ", 0) == 0);
    CHECK(message.find(bad.message) != std::string::npos);
    CHECK(gl.saw_message_containing(message));
    // The previous program is still there and still runs.
    GLint length = 0;
    glGetProgramivARB(GL_COMPUTE_PROGRAM_NV, GL_PROGRAM_LENGTH_ARB, &length);
    CHECK(length == static_cast<GLint>(good.size()));
    glDispatchCompute(1, 1, 1);
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    CHECK(read_words(out, 4) == std::vector<uint32_t>{7, 8, 9, 10});
  }
  // A successful load clears the error state.
  REQUIRE(load(good) == GL_NO_ERROR);
  CHECK(error_position() == -1);
  CHECK(error_string().empty());

  // Argument errors are not load errors.
  glProgramStringARB(GL_VERTEX_PROGRAM_ARB, GL_PROGRAM_FORMAT_ASCII_ARB, static_cast<GLsizei>(good.size()), good.data());
  REQUIRE_GL_ERROR(GL_INVALID_ENUM);
  glProgramStringARB(GL_COMPUTE_PROGRAM_NV, GL_PROGRAM_STRING_ARB, static_cast<GLsizei>(good.size()), good.data());
  REQUIRE_GL_ERROR(GL_INVALID_ENUM);
  glProgramStringARB(GL_COMPUTE_PROGRAM_NV, GL_PROGRAM_FORMAT_ASCII_ARB, -1, good.data());
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  CHECK(error_position() == -1);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("A program that needs 32-lane warps loads exactly where the device can run it", "[asm]") {
  GlContext gl;
  new_program();
  const std::string source = "!!NVcp5.0\nOPTION NV_shader_storage_buffer;\nOPTION NV_shader_thread_group;\n"
                             "GROUP_SIZE 32;\nSTORAGE out[] = { program.storage[0] };\nTEMP R0;\n"
                             "MOV.U R0.x, invocation.localid.x;\nMOV.U R0.y, state.thread.warpsize;\n"
                             "SHL.U R0.x, R0.x, 2;\nSTB.U32 R0.y, out[R0.x];\nEND\n";  // STB takes a byte address
  const GLenum loaded = load(source);
  if (has_extension("GL_NV_shader_thread_group")) {
    INFO(error_string());
    REQUIRE(loaded == GL_NO_ERROR);
    const GLuint out = poisoned_buffer(32);
    glEnable(GL_COMPUTE_PROGRAM_NV);
    CHECK(dispatch_and_read(out, 32) == std::vector<uint32_t>(32, 32u));
  } else {
    CHECK(loaded == GL_INVALID_OPERATION);
    CHECK(error_position() == static_cast<GLint>(source.find("state.thread.warpsize")));
    CHECK(error_string().find("need a subgroup size of 32") != std::string::npos);
  }
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}
