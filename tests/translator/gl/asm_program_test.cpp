// NV assembly compute programs through the GL API (ARB_vertex_program program objects, NV_gpu_program4
// parameters, NV_compute_program5): the whole reference corpus through glProgramStringARB, load errors (position,
// string, previous program kept), program.local / program.env in every form, which program a dispatch runs,
// glGetProgramivARB / glGetProgramStringARB, and the GL_EXTENSIONS rules.
#include "translator/gl/gl_fixture.hpp"
#include "corpus_case.hpp"
#include "translator/gl/corpus_paths.hpp"
#include <GL/glext.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "bismuth/gl/bismuth_gl.h"

using namespace bismuth::gltest;

namespace {

bool has_extension(const char* name) {
  GLint n = 0;
  glGetIntegerv(GL_NUM_EXTENSIONS, &n);
  for (GLint i = 0; i < n; ++i) {
    if (std::strcmp(reinterpret_cast<const char*>(glGetStringi(GL_EXTENSIONS, static_cast<GLuint>(i))), name) == 0) return true;
  }
  return false;
}

// Loads `source` into the program bound to GL_COMPUTE_PROGRAM_NV; returns the GL error.
GLenum load(const std::string& source) {
  glProgramStringARB(GL_COMPUTE_PROGRAM_NV, GL_PROGRAM_FORMAT_ASCII_ARB, static_cast<GLsizei>(source.size()), source.data());
  return glGetError();
}

std::string error_string() {
  const GLubyte* s = glGetString(GL_PROGRAM_ERROR_STRING_ARB);
  return s ? reinterpret_cast<const char*>(s) : "<null>";
}

GLint error_position() {
  GLint p = -2;
  glGetIntegerv(GL_PROGRAM_ERROR_POSITION_ARB, &p);
  return p;
}

GLuint new_program() {
  GLuint name = 0;
  glGenProgramsARB(1, &name);
  glBindProgramARB(GL_COMPUTE_PROGRAM_NV, name);
  return name;
}

void run_case(const std::string& name) {
  const auto dir = corpus_dir() / name;
  REQUIRE(std::filesystem::exists(dir / "case.json"));
  const auto spec = nlohmann::json::parse(read_text(dir / "case.json"));
  const std::string source = read_text(dir / "program.nvcp5");
  GlContext gl;
  REQUIRE(has_extension("GL_NV_compute_program5"));

  new_program();
  const GLenum loaded = load(source);
  if (loaded != GL_NO_ERROR) {
    // Only the cases that need NVIDIA's 32-lane warps may fail, only where the device cannot run them, and with
    // the clear error.
    INFO(error_string());
    CHECK(loaded == GL_INVALID_OPERATION);
    REQUIRE_FALSE(spec["requires_subgroup_size"].is_null());
    CHECK_FALSE(has_extension("GL_NV_shader_thread_group"));
    CHECK(error_string().find("need a subgroup size of 32") != std::string::npos);
    CHECK(error_string().rfind("line ", 0) == 0);
    CHECK(error_position() > 0);
    CHECK(error_position() < static_cast<GLint>(source.size()));
    WARN(name << ": fails to load on this device, as expected: " << error_string());
    return;
  }
  REQUIRE(error_position() == -1);
  REQUIRE(error_string().empty());

  // The corpus rules every front shares (input words, comparison) come from the runner's corpus_case.
  auto corpus = bismuth::tools::runner::load_corpus_case(dir.string());
  INFO((corpus ? std::string() : corpus.error().message));
  REQUIRE(corpus);
  const std::vector<uint32_t> input = bismuth::tools::runner::corpus_input(*corpus);
  const uint32_t output_words = corpus->output_words;
  const uint32_t init = corpus->output_init;
  std::vector<uint32_t> output(output_words, init);
  const GLuint in_buffer = make_buffer(static_cast<GLsizeiptr>(input.size() * 4), input.data());
  const GLuint out_buffer = make_buffer(static_cast<GLsizeiptr>(output.size() * 4), output.data());
  // program.storage[k] is GL_SHADER_STORAGE_BUFFER binding point k (NV_shader_storage_buffer_object); the map
  // says which of the case's buffers (by their GLSL binding) each program.storage index is.
  for (const auto& m : spec["nv_storage_map"]) {
    const uint32_t g = m["gl_binding"].get<uint32_t>();
    const GLuint buffer = g == spec["input"].value("binding", 0u) ? in_buffer : out_buffer;
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, m["program_storage"].get<GLuint>(), buffer);
  }
  for (const auto& u : spec["uniforms"]) {
    const GLuint index = u["program_local"].get<GLuint>();
    const std::string type = u["type"];
    if (type == "float") {
      glProgramLocalParameter4fARB(GL_COMPUTE_PROGRAM_NV, index, u["value"].get<float>(), 0, 0, 0);
    } else if (type == "uint") {
      glProgramLocalParameterI4uiNV(GL_COMPUTE_PROGRAM_NV, index, u["value"].get<uint32_t>(), 0, 0, 0);
    } else if (type == "int") {
      glProgramLocalParameterI4iNV(GL_COMPUTE_PROGRAM_NV, index, u["value"].get<int32_t>(), 0, 0, 0);
    } else {
      FAIL("uniform type " << type);
    }
  }
  glEnable(GL_COMPUTE_PROGRAM_NV);
  REQUIRE_GL_ERROR(GL_NO_ERROR);

  const auto groups = spec["num_groups"];
  if (spec["group_size"].is_null()) {
    glDispatchCompute(groups[0], groups[1], groups[2]);
  } else {
    const auto size = spec["group_size"];
    glDispatchComputeGroupSizeARB(groups[0], groups[1], groups[2], size[0], size[1], size[2]);
  }
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  const std::vector<uint32_t> got = read_words(out_buffer, output_words);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
  CHECK_FALSE(gl.saw_message_containing("dispatch was skipped"));

  auto expected = bismuth::tools::runner::corpus_expected(*corpus);
  INFO((expected ? std::string() : expected.error().message));
  REQUIRE(expected);
  const auto compared = bismuth::tools::runner::corpus_compare(*corpus, got, *expected);
  INFO(compared.error().message);
  CHECK(compared.has_value());
}

// Writes `value` (a uvec4 of program.local[0]) to out[0..3]: one invocation.
std::string store_program(const std::string& value, const std::string& extra = "") {
  return "!!NVcp5.0\nOPTION NV_shader_storage_buffer;\nGROUP_SIZE 1;\nSTORAGE out[] = { program.storage[0] };\n"
         "TEMP R0;\n" + extra + "MOV.U R0, " + value + ";\nSTB.U32X4 R0, out[0];\nEND\n";
}

constexpr uint32_t kPoison = 0xDEADBEEFu;

std::vector<uint32_t> dispatch_and_read(GLuint buffer, size_t words) {
  glDispatchCompute(1, 1, 1);
  return read_words(buffer, words);
}

GLuint poisoned_buffer(size_t words, GLuint binding = 0) {
  std::vector<uint32_t> init(words, kPoison);
  const GLuint b = make_buffer(static_cast<GLsizeiptr>(words * 4), init.data());
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, binding, b);
  return b;
}

uint32_t bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

}  // namespace

#define ASM_CORPUS_CASE(name) \
  TEST_CASE("Assembly corpus case " name " runs through glProgramStringARB", "[asm][corpus]") { run_case(name); }

ASM_CORPUS_CASE("ballot_arb")
ASM_CORPUS_CASE("dispatch3d")
ASM_CORPUS_CASE("float_atomic_nv")
ASM_CORPUS_CASE("float_math")
ASM_CORPUS_CASE("fp64_math")
ASM_CORPUS_CASE("histogram_atomic")
ASM_CORPUS_CASE("int_bits")
ASM_CORPUS_CASE("iota_store")
ASM_CORPUS_CASE("saxpy_uniform")
ASM_CORPUS_CASE("shared_atomics")
ASM_CORPUS_CASE("shared_reduce")
ASM_CORPUS_CASE("subgroup_khr")
ASM_CORPUS_CASE("thread_group_nv")
ASM_CORPUS_CASE("transpose_tile")
ASM_CORPUS_CASE("var_size_ids")
ASM_CORPUS_CASE("var_size_ids_b")
ASM_CORPUS_CASE("var_size_reduce")

TEST_CASE("The assembly corpus test covers every case", "[asm]") {
  size_t n = 0;
  for (const auto& entry : std::filesystem::directory_iterator(corpus_dir())) {
    n += entry.is_directory() && std::filesystem::exists(entry.path() / "program.nvcp5");
  }
  CHECK(n == 17);
}

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
        "glProgramBufferParametersIuivNV"}) {
    INFO(name);
    CHECK(bismuthGetProcAddress(name) != nullptr);
    CHECK(eglGetProcAddress(name) != nullptr);
  }
  CHECK(bismuthGetProcAddress("glProgramStringARB") == reinterpret_cast<void (*)(void)>(&glProgramStringARB));
  // Outside the supported surface (separable programs): loaders must see it as absent (issue 5).
  CHECK(bismuthGetProcAddress("glProgramParameteri") == nullptr);
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

TEST_CASE("program.local and program.env through the float and integer forms reach the program", "[asm]") {
  GlContext gl;
  const GLuint out = poisoned_buffer(16);
  const std::string source =
      "!!NVcp5.0\nOPTION NV_shader_storage_buffer;\nGROUP_SIZE 1;\nSTORAGE out[] = { program.storage[0] };\n"
      "PARAM l[2] = { program.local[0..1] };\nPARAM e = program.env[5];\nTEMP R0;\n"
      "MOV.U R0, l[0];\nSTB.U32X4 R0, out[0];\nMOV.U R0, l[1];\nSTB.U32X4 R0, out[16];\n"
      "MOV.U R0, e;\nSTB.U32X4 R0, out[32];\nMOV.U R0, program.env[1023];\nSTB.U32X4 R0, out[48];\nEND\n";
  const GLuint a = new_program();
  REQUIRE(load(source) == GL_NO_ERROR);
  glEnable(GL_COMPUTE_PROGRAM_NV);
  const std::vector<uint32_t> zero(16, 0);

  SECTION("float forms store the float's bits") {
    glProgramLocalParameter4fARB(GL_COMPUTE_PROGRAM_NV, 0, 1.5f, -2.0f, 0.25f, 1e10f);
    const GLfloat lf[4] = {3, 4, 5, 6};
    glProgramLocalParameter4fvARB(GL_COMPUTE_PROGRAM_NV, 1, lf);
    glProgramEnvParameter4dARB(GL_COMPUTE_PROGRAM_NV, 5, 0.5, 1.0 / 3.0, -7, 8);
    const GLdouble ed[4] = {9, 10, 11, 12.5};
    glProgramEnvParameter4dvARB(GL_COMPUTE_PROGRAM_NV, 1023, ed);
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    const auto got = dispatch_and_read(out, 16);
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    CHECK(got == std::vector<uint32_t>{bits(1.5f), bits(-2.0f), bits(0.25f), bits(1e10f), bits(3), bits(4), bits(5),
                                       bits(6), bits(0.5f), bits(float(1.0 / 3.0)), bits(-7), bits(8), bits(9),
                                       bits(10), bits(11), bits(12.5f)});
    GLfloat back[4] = {};
    glGetProgramLocalParameterfvARB(GL_COMPUTE_PROGRAM_NV, 0, back);
    CHECK(back[1] == -2.0f);
    GLdouble backd[4] = {};
    glGetProgramEnvParameterdvARB(GL_COMPUTE_PROGRAM_NV, 1023, backd);
    CHECK(backd[3] == 12.5);
  }
  SECTION("integer forms store the integer's bits") {
    glProgramLocalParameterI4iNV(GL_COMPUTE_PROGRAM_NV, 0, -1, 2, -3, 4);
    const GLuint lu[4] = {0xFFFFFFFFu, 0x80000000u, 7, 8};
    glProgramLocalParameterI4uivNV(GL_COMPUTE_PROGRAM_NV, 1, lu);
    glProgramEnvParameterI4uiNV(GL_COMPUTE_PROGRAM_NV, 5, 100, 200, 300, 400);
    const GLint ei[4] = {-100, -200, 300, 400};
    glProgramEnvParameterI4ivNV(GL_COMPUTE_PROGRAM_NV, 1023, ei);
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    const auto got = dispatch_and_read(out, 16);
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    CHECK(got == std::vector<uint32_t>{0xFFFFFFFFu, 2, 0xFFFFFFFDu, 4, 0xFFFFFFFFu, 0x80000000u, 7, 8, 100, 200, 300,
                                       400, static_cast<uint32_t>(-100), static_cast<uint32_t>(-200), 300, 400});
    GLuint back[4] = {};
    glGetProgramLocalParameterIuivNV(GL_COMPUTE_PROGRAM_NV, 1, back);
    CHECK(back[1] == 0x80000000u);
    GLint backi[4] = {};
    glGetProgramEnvParameterIivNV(GL_COMPUTE_PROGRAM_NV, 1023, backi);
    CHECK(backi[0] == -100);
  }
  SECTION("locals belong to the program object, env parameters to the context") {
    glProgramLocalParameterI4uiNV(GL_COMPUTE_PROGRAM_NV, 0, 1, 1, 1, 1);
    glProgramEnvParameterI4uiNV(GL_COMPUTE_PROGRAM_NV, 5, 5, 5, 5, 5);
    const GLuint b = new_program();
    REQUIRE(load(source) == GL_NO_ERROR);
    glProgramLocalParameterI4uiNV(GL_COMPUTE_PROGRAM_NV, 0, 2, 2, 2, 2);
    auto got = dispatch_and_read(out, 12);
    CHECK(got == std::vector<uint32_t>{2, 2, 2, 2, 0, 0, 0, 0, 5, 5, 5, 5});
    glBindProgramARB(GL_COMPUTE_PROGRAM_NV, a);
    got = dispatch_and_read(out, 12);
    CHECK(got == std::vector<uint32_t>{1, 1, 1, 1, 0, 0, 0, 0, 5, 5, 5, 5});
    // A change between dispatches is seen by the next one only.
    glProgramEnvParameterI4uiNV(GL_COMPUTE_PROGRAM_NV, 5, 6, 6, 6, 6);
    got = dispatch_and_read(out, 12);
    CHECK(got == std::vector<uint32_t>{1, 1, 1, 1, 0, 0, 0, 0, 6, 6, 6, 6});
    // Reloading keeps the locals.
    REQUIRE(load(source) == GL_NO_ERROR);
    got = dispatch_and_read(out, 4);
    CHECK(got == std::vector<uint32_t>{1, 1, 1, 1});
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    glDeleteProgramsARB(1, &b);
  }
  SECTION("the multi-parameter forms") {
    const GLuint two[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    glProgramLocalParametersI4uivNV(GL_COMPUTE_PROGRAM_NV, 0, 2, two);
    const GLfloat f[4] = {1, 2, 3, 4};
    glProgramEnvParameters4fvEXT(GL_COMPUTE_PROGRAM_NV, 5, 1, f);
    const auto got = dispatch_and_read(out, 12);
    CHECK(got == std::vector<uint32_t>{1, 2, 3, 4, 5, 6, 7, 8, bits(1), bits(2), bits(3), bits(4)});
    glProgramLocalParametersI4ivNV(GL_COMPUTE_PROGRAM_NV, 1023, 2, reinterpret_cast<const GLint*>(two));
    REQUIRE_GL_ERROR(GL_INVALID_VALUE);
    glProgramEnvParametersI4uivNV(GL_COMPUTE_PROGRAM_NV, 0, -1, two);
    REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  }
  SECTION("errors") {
    glProgramLocalParameter4fARB(GL_COMPUTE_PROGRAM_NV, 1024, 0, 0, 0, 0);
    REQUIRE_GL_ERROR(GL_INVALID_VALUE);
    glProgramEnvParameterI4iNV(GL_COMPUTE_PROGRAM_NV, 1024, 0, 0, 0, 0);
    REQUIRE_GL_ERROR(GL_INVALID_VALUE);
    glProgramLocalParameter4fARB(GL_VERTEX_PROGRAM_ARB, 0, 0, 0, 0, 0);
    REQUIRE_GL_ERROR(GL_INVALID_ENUM);
    glProgramEnvParameterI4uiNV(GL_FRAGMENT_PROGRAM_ARB, 0, 0, 0, 0, 0);
    REQUIRE_GL_ERROR(GL_INVALID_ENUM);
    GLfloat f[4];
    glGetProgramLocalParameterfvARB(GL_COMPUTE_PROGRAM_NV, 5000, f);
    REQUIRE_GL_ERROR(GL_INVALID_VALUE);
    // Unset parameters read as zero.
    CHECK(dispatch_and_read(out, 16) == zero);
  }
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("Parameter buffers: program.buffer reads GL_UNIFORM_BUFFER bindings and glProgramBufferParameters writes them", "[asm]") {
  GlContext gl;
  const GLuint out = poisoned_buffer(12);
  GLint align = 0;
  glGetIntegerv(GL_UNIFORM_BUFFER_OFFSET_ALIGNMENT, &align);
  REQUIRE(align > 0);
  REQUIRE(align % 4 == 0);
  // Buffer a: words 1000 + i, bound to binding 3 from byte `align` for 256 bytes; buffer b: words 2000 + i, whole.
  const uint32_t skip = static_cast<uint32_t>(align) / 4;
  std::vector<uint32_t> wa(skip + 64), wb(64);
  for (uint32_t i = 0; i < wa.size(); ++i) wa[i] = 1000 + i;
  for (uint32_t i = 0; i < wb.size(); ++i) wb[i] = 2000 + i;
  const GLuint a = make_buffer(static_cast<GLsizeiptr>(wa.size() * 4), wa.data());
  const GLuint b = make_buffer(static_cast<GLsizeiptr>(wb.size() * 4), wb.data());
  glBindBufferRange(GL_UNIFORM_BUFFER, 3, a, align, 256);
  glBindBufferBase(GL_UNIFORM_BUFFER, 5, b);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  const std::string source =
      "!!NVcp5.0\nGROUP_SIZE 1;\nSTORAGE out[] = { program.storage[0] };\nCBUFFER cb[] = { program.buffer[3] };\n"
      "BUFFER4 v[] = { program.buffer[5][0..1] };\nBUFFER w[] = program.buffer[5];\nTEMP R0, A;\n"
      "LDC.U32X4 R0, cb[16];\nSTB.U32X4 R0, out[0];\nMOV.U A.x, {1}.x;\nMOV.U R0, v[A.x];\nSTB.U32X4 R0, out[16];\n"
      "MOV.U R0, w[9];\nSTB.U32X4 R0, out[32];\nEND\n";
  new_program();
  REQUIRE(load(source) == GL_NO_ERROR);
  glEnable(GL_COMPUTE_PROGRAM_NV);
  SECTION("the bound ranges are what the program reads") {
    const auto got = dispatch_and_read(out, 12);
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    const uint32_t r = 1000 + skip;  // word 0 of binding 3's range
    CHECK(got == std::vector<uint32_t>{r + 4, r + 5, r + 6, r + 7, 2004, 2005, 2006, 2007, 2009, 2009, 2009, 2009});
  }
  SECTION("glProgramBufferParameters* write words of the bound range") {
    const GLuint u[2] = {7, 8};
    glProgramBufferParametersIuivNV(GL_COMPUTE_PROGRAM_PARAMETER_BUFFER_NV, 3, 5, 2, u);
    const GLint i[1] = {-9};
    glProgramBufferParametersIivNV(GL_COMPUTE_PROGRAM_PARAMETER_BUFFER_NV, 5, 9, 1, i);
    const GLfloat f[1] = {2.5f};
    glProgramBufferParametersfvNV(GL_COMPUTE_PROGRAM_PARAMETER_BUFFER_NV, 5, 4, 1, f);
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    const auto got = dispatch_and_read(out, 12);
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    const uint32_t r = 1000 + skip;
    const uint32_t m9 = static_cast<uint32_t>(-9);
    CHECK(got == std::vector<uint32_t>{r + 4, 7, 8, r + 7, bits(2.5f), 2005, 2006, 2007, m9, m9, m9, m9});
  }
  SECTION("glProgramBufferParameters* errors") {
    const GLuint u[2] = {7, 8};
    glProgramBufferParametersIuivNV(GL_COMPUTE_PROGRAM_NV, 3, 0, 1, u);
    REQUIRE_GL_ERROR(GL_INVALID_ENUM);
    glProgramBufferParametersIuivNV(GL_COMPUTE_PROGRAM_PARAMETER_BUFFER_NV, 32, 0, 1, u);
    REQUIRE_GL_ERROR(GL_INVALID_VALUE);
    glProgramBufferParametersIuivNV(GL_COMPUTE_PROGRAM_PARAMETER_BUFFER_NV, 7, 0, 1, u);
    REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
    glProgramBufferParametersIuivNV(GL_COMPUTE_PROGRAM_PARAMETER_BUFFER_NV, 3, 63, 2, u);  // 256 bytes bound
    REQUIRE_GL_ERROR(GL_INVALID_VALUE);
    glProgramBufferParametersIuivNV(GL_COMPUTE_PROGRAM_PARAMETER_BUFFER_NV, 3, 0, -1, u);
    REQUIRE_GL_ERROR(GL_INVALID_VALUE);
    // Nothing was written.
    const auto got = dispatch_and_read(out, 4);
    CHECK(got[0] == 1000 + skip + 4);
  }
  glDeleteBuffers(1, &a);
  glDeleteBuffers(1, &b);
}

TEST_CASE("64-bit ATOMB (NV_shader_atomic_int64) runs where the device has shaderBufferInt64Atomics", "[asm]") {
  GlContext gl;
  // 64 invocations on one buffer of 64-bit words: [0] ADD.U64 of i + 2^32, [1] MIN.S64 of -1 - i, [2] MAX.U64 of
  // i << 40, [3] OR.U64 of 1 << i, [4] XOR.U64 of 1 << i (from all ones), [5] AND.U64 of ~(1 << i) (from all
  // ones), [6] EXCH.U64 of i, [7] CSWAP.U64 (compare 0, store i + 1); [8 + i] what invocation i's CSWAP returned.
  const std::string source = R"(!!NVcp5.0
GROUP_SIZE 64;
STORAGE out[] = { program.storage[0] };
TEMP A;
LONG TEMP D, E, F;
MOV.U A.x, invocation.localindex;
MUL.U A.y, A.x, {8}.x;
MOV.U64 D.x, A.x;
ADD.U64 D.y, D.x, {0x100000000}.x;
ATOMB.ADD.U64 F.x, D.y, out[0];
SUB.S64 D.z, {-1}.x, D.x;
ATOMB.MIN.S64 F.x, D.z, out[8];
SHL.U64 D.w, D.x, {40}.x;
ATOMB.MAX.U64 F.x, D.w, out[16];
SHL.U64 E.x, {1}.x, A.x;
ATOMB.OR.U64 F.x, E.x, out[24];
ATOMB.XOR.U64 F.x, E.x, out[32];
SUB.U64 E.w, {0xFFFFFFFFFFFFFFFF}.x, E.x;
ATOMB.AND.U64 F.x, E.w, out[40];
ATOMB.EXCH.U64 F.x, D.x, out[48];
MOV.U64 E.x, {0}.x;
ADD.U64 E.y, D.x, {1}.x;
ATOMB.CSWAP.U64 F.x, E, out[56];
STB.U64 F.x, out[A.y + 64];
END
)";
  std::vector<uint64_t> init(72, 0);
  init[4] = init[5] = ~uint64_t(0);
  const GLuint out = make_buffer(static_cast<GLsizeiptr>(init.size() * 8), init.data());
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, out);
  new_program();
  const GLenum loaded = load(source);
  if (loaded != GL_NO_ERROR) {
    CHECK(loaded == GL_INVALID_OPERATION);
    INFO(error_string());
    CHECK(error_string().find("shaderBufferInt64Atomics") != std::string::npos);
    CHECK(error_position() == static_cast<GLint>(source.find("ATOMB.ADD.U64")));
    WARN("64-bit atomics fail to load on this device, as expected without shaderBufferInt64Atomics");
    glDeleteBuffers(1, &out);
    return;
  }
  glEnable(GL_COMPUTE_PROGRAM_NV);
  const auto words = dispatch_and_read(out, 144);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  std::vector<uint64_t> got(72);
  std::memcpy(got.data(), words.data(), 144 * 4);
  CHECK(got[0] == 64 * (uint64_t(1) << 32) + 2016);
  CHECK(static_cast<int64_t>(got[1]) == -64);
  CHECK(got[2] == uint64_t(63) << 40);
  CHECK(got[3] == ~uint64_t(0));
  CHECK(got[4] == 0);
  CHECK(got[5] == 0);
  CHECK(got[6] < 64);
  REQUIRE(got[7] >= 1);
  REQUIRE(got[7] <= 64);
  int winners = 0;
  for (uint32_t i = 0; i < 64; ++i) {
    if (got[8 + i] == 0) {
      ++winners;
      CHECK(got[7] == i + 1);  // the one whose compare matched stored its value
    } else {
      CHECK(got[8 + i] == got[7]);
    }
  }
  CHECK(winners == 1);
  glDeleteBuffers(1, &out);
}

TEST_CASE("Sub-word stores from many invocations into the same words keep every byte", "[asm]") {
  // libbismuth-gl assembles U8/U16 stores as byte / half-word stores where the device has 8/16-bit storage, else
  // as a compare-and-swap loop on the word. 4 groups x 64 invocations: invocation i of group g stores 1 << g into
  // byte i and half-word i, 8 times over, so four invocations race on every byte and up to sixteen on every
  // word. Every byte and half-word must end as one of the stored values.
  GlContext gl;
  const GLuint out = make_buffer(48 * 4, std::vector<uint32_t>(48, 0).data());
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, out);
  const std::string source = R"(!!NVcp5.0
GROUP_SIZE 64;
STORAGE out[] = { program.storage[0] };
TEMP R0, A;
MOV.U A.x, invocation.localindex;
SHL.U R0.x, {1}.x, invocation.groupid.x;
MUL.U A.y, A.x, {2}.x;
REP {8}.x;
STB.U8 R0.x, out[A.x];
STB.U16 R0.x, out[A.y + 64];
ENDREP;
END
)";
  new_program();
  REQUIRE(load(source) == GL_NO_ERROR);
  glEnable(GL_COMPUTE_PROGRAM_NV);
  glDispatchCompute(4, 1, 1);
  const auto got = read_words(out, 48);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  auto one_of = [](uint32_t v) { return v == 1 || v == 2 || v == 4 || v == 8; };
  for (uint32_t i = 0; i < 64; ++i) {
    INFO("byte " << i);
    CHECK(one_of((got[i / 4] >> ((i % 4) * 8)) & 0xFF));
    INFO("half-word " << i);
    CHECK(one_of((got[16 + i / 2] >> ((i % 2) * 16)) & 0xFFFF));
  }
  glDeleteBuffers(1, &out);
}

TEST_CASE("Dispatch runs the current GLSL program, else the enabled assembly program", "[asm]") {
  GlContext gl;
  const GLuint out = poisoned_buffer(4);
  // Nothing to run.
  glDispatchCompute(1, 1, 1);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  CHECK(glIsEnabled(GL_COMPUTE_PROGRAM_NV) == GL_FALSE);
  // Enabled, but the bound program has no valid string.
  glEnable(GL_COMPUTE_PROGRAM_NV);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  CHECK(glIsEnabled(GL_COMPUTE_PROGRAM_NV) == GL_TRUE);
  GLboolean enabled = GL_FALSE;
  glGetBooleanv(GL_COMPUTE_PROGRAM_NV, &enabled);
  CHECK(enabled == GL_TRUE);
  const GLuint program = new_program();
  glDispatchCompute(1, 1, 1);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  CHECK(load("!!NVcp5.0\nBAD\n") == GL_INVALID_OPERATION);
  glDispatchCompute(1, 1, 1);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  REQUIRE(load(store_program("{1, 1, 1, 1}")) == GL_NO_ERROR);
  CHECK(dispatch_and_read(out, 4) == std::vector<uint32_t>{1, 1, 1, 1});
  REQUIRE_GL_ERROR(GL_NO_ERROR);

  // A current GLSL program wins.
  const GLuint glsl = make_program(R"(#version 430
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer Out { uint v[]; };
void main() { v[0] = 2u; v[1] = 2u; v[2] = 2u; v[3] = 2u; }
)");
  glUseProgram(glsl);
  CHECK(dispatch_and_read(out, 4) == std::vector<uint32_t>{2, 2, 2, 2});
  glUseProgram(0);
  CHECK(dispatch_and_read(out, 4) == std::vector<uint32_t>{1, 1, 1, 1});
  // The default program (0) is a program too.
  glBindProgramARB(GL_COMPUTE_PROGRAM_NV, 0);
  glDispatchCompute(1, 1, 1);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  REQUIRE(load(store_program("{3, 3, 3, 3}")) == GL_NO_ERROR);
  CHECK(dispatch_and_read(out, 4) == std::vector<uint32_t>{3, 3, 3, 3});
  glBindProgramARB(GL_COMPUTE_PROGRAM_NV, program);
  CHECK(dispatch_and_read(out, 4) == std::vector<uint32_t>{1, 1, 1, 1});
  // Disabled again: nothing to run.
  glDisable(GL_COMPUTE_PROGRAM_NV);
  CHECK(glIsEnabled(GL_COMPUTE_PROGRAM_NV) == GL_FALSE);
  glDispatchCompute(1, 1, 1);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);

  // Indirect dispatch of an assembly program.
  glEnable(GL_COMPUTE_PROGRAM_NV);
  REQUIRE(load(store_program("{4, 4, 4, 4}")) == GL_NO_ERROR);
  const GLuint counts[3] = {1, 1, 1};
  GLuint indirect = 0;
  glGenBuffers(1, &indirect);
  glBindBuffer(GL_DISPATCH_INDIRECT_BUFFER, indirect);
  glBufferData(GL_DISPATCH_INDIRECT_BUFFER, sizeof counts, counts, GL_STATIC_DRAW);
  glDispatchComputeIndirect(0);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  CHECK(read_words(out, 4) == std::vector<uint32_t>{4, 4, 4, 4});
  // A missing storage buffer skips the dispatch with a message (as for GLSL programs).
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, 0);
  glDispatchCompute(1, 1, 1);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  CHECK(gl.saw_message_containing("program.storage binding 0 has no buffer"));
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

TEST_CASE("Variable group size assembly programs follow the ARB_compute_variable_group_size rules", "[asm]") {
  GlContext gl;
  REQUIRE(has_extension("GL_ARB_compute_variable_group_size"));
  const GLuint out = poisoned_buffer(64 * 4);
  const std::string variable = R"(!!NVcp5.0
OPTION NV_shader_storage_buffer;
OPTION ARB_compute_variable_group_size;
STORAGE out[] = { program.storage[0] };
TEMP A, R0;
MAD.U A.x, invocation.groupid.x, invocation.groupsize.x, invocation.localid.x;
MUL.U A.x, A.x, {16}.x;
MOV.U R0, invocation.groupsize;
MOV.U R0.w, invocation.globalid.x;
STB.U32X4 R0, out[A.x];
END
)";
  new_program();
  REQUIRE(load(variable) == GL_NO_ERROR);
  glEnable(GL_COMPUTE_PROGRAM_NV);
  glDispatchCompute(1, 1, 1);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  glDispatchComputeGroupSizeARB(2, 1, 1, 0, 1, 1);
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  GLint max_size = 0;
  glGetIntegeri_v(GL_MAX_COMPUTE_VARIABLE_GROUP_SIZE_ARB, 0, &max_size);
  glDispatchComputeGroupSizeARB(1, 1, 1, static_cast<GLuint>(max_size) + 1, 1, 1);
  REQUIRE_GL_ERROR(GL_INVALID_VALUE);
  GLuint indirect = 0;
  glGenBuffers(1, &indirect);
  glBindBuffer(GL_DISPATCH_INDIRECT_BUFFER, indirect);
  const GLuint counts[3] = {1, 1, 1};
  glBufferData(GL_DISPATCH_INDIRECT_BUFFER, sizeof counts, counts, GL_STATIC_DRAW);
  glDispatchComputeIndirect(0);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  // Two sizes: each selects its own pipeline.
  for (GLuint size : {8u, 32u}) {
    INFO("size " << size);
    glDispatchComputeGroupSizeARB(2, 1, 1, size, 1, 1);
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    const auto got = read_words(out, 64 * 4);
    for (GLuint i = 0; i < 2 * size; ++i) {
      CHECK(got[i * 4 + 0] == size);
      CHECK(got[i * 4 + 1] == 1);
      CHECK(got[i * 4 + 2] == 1);
      CHECK(got[i * 4 + 3] == i);
    }
  }
  // A fixed-size program rejects glDispatchComputeGroupSizeARB.
  REQUIRE(load(store_program("{1, 1, 1, 1}")) == GL_NO_ERROR);
  glDispatchComputeGroupSizeARB(1, 1, 1, 1, 1, 1);
  REQUIRE_GL_ERROR(GL_INVALID_OPERATION);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}
