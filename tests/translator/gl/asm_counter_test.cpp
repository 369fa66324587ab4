// NV_shader_atomic_counters through the GL API: "The extension uses the same set of atomic counter buffer binding
// points as the ARB_shader_atomic_counters extension; applications using this extension should use the APIs
// specified there to bind buffers." A COUNTER over program.counter[b] reads the range bound with
// glBindBufferBase/Range(GL_ATOMIC_COUNTER_BUFFER, b, ...). The runs reproduce NVIDIA's probe runs
// (tests/data/nv_reference: the same buffers, the same programs, NVIDIA's H100 words), through assembly programs
// and, for the GLSL probes, through the GLSL front as well.
#include "translator/gl/asm_program_support.hpp"
#include "translator/nvasm/nv_reference_support.hpp"

#include <algorithm>

using namespace bismuth::gltest;
using namespace bismuth::gltest::asm_program;
namespace ref = bismuth::test::nv_reference;

namespace {

struct ProbeBuffers {
  std::array<GLuint, 2> counters{};
  GLuint storage = 0;
};

// The probe's buffers (tests/gpu/nv_reference_probe.c): counter buffers at GL_ATOMIC_COUNTER_BUFFER 0 and 1, 16
// poisoned words at GL_SHADER_STORAGE_BUFFER 0.
ProbeBuffers probe_buffers() {
  ProbeBuffers b;
  for (GLuint i = 0; i < 2; ++i) {
    const auto words = ref::initial_counters(i);
    b.counters[i] = make_buffer(static_cast<GLsizeiptr>(words.size() * 4), words.data());
    glBindBufferBase(GL_ATOMIC_COUNTER_BUFFER, i, b.counters[i]);
  }
  b.storage = poisoned_buffer(ref::kWords);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  return b;
}

void check_like_nvidia(const std::string& name, const ProbeBuffers& b) {
  const auto nvidia = ref::nvidia_run(name);
  REQUIRE(nvidia);
  CHECK(read_words(b.counters[0], ref::kWords) == nvidia->counters[0]);
  CHECK(read_words(b.counters[1], ref::kWords) == nvidia->counters[1]);
  CHECK(read_words(b.storage, ref::kWords) == nvidia->storage);
}

}  // namespace

TEST_CASE("Assembly counters: GL_EXTENSIONS lists GL_NV_shader_atomic_counters with the assembler", "[asm][counters]") {
  GlContext gl;
  CHECK(has_extension("GL_NV_shader_atomic_counters") == has_extension("GL_NV_compute_program5"));
}

// The assembly probes and NVIDIA's own assembly of the GLSL probes (p2's ATOMCTROP under OPTION NV_internal).
TEST_CASE("Assembly counters: NVIDIA's probe runs through glProgramStringARB leave NVIDIA's words", "[asm][counters]") {
  GlContext gl;
  REQUIRE(has_extension("GL_NV_shader_atomic_counters"));
  glEnable(GL_COMPUTE_PROGRAM_NV);
  new_program();
  const std::vector<std::pair<std::string, std::string>> probes = {
      {"q_const1.nvcp5", ref::read_file("q_const1.nvcp5")}, {"q_const4.nvcp5", ref::read_file("q_const4.nvcp5")},
      {"q_single.nvcp5", ref::read_file("q_single.nvcp5")}, {"p1.comp", ref::nvidia_assembly("p1.comp")},
      {"p6.comp", ref::nvidia_assembly("p6.comp")},         {"p2.comp", ref::nvidia_assembly("p2.comp")}};
  for (const auto& [name, source] : probes) {
    INFO(name);
    REQUIRE(!source.empty());
    const ProbeBuffers b = probe_buffers();
    const GLenum loaded = load(source);
    INFO(error_string());
    REQUIRE(loaded == GL_NO_ERROR);
    glDispatchCompute(1, 1, 1);
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    check_like_nvidia(name, b);
  }
  // COUNTER is a declaration: q_single has four instructions (two ATOMCTR, two STB).
  REQUIRE(load(ref::read_file("q_single.nvcp5")) == GL_NO_ERROR);
  GLint instructions = 0;
  glGetProgramivARB(GL_COMPUTE_PROGRAM_NV, GL_PROGRAM_INSTRUCTIONS_ARB, &instructions);
  CHECK(instructions == 4);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

// The same GLSL programs through the GLSL front give what NVIDIA's GLSL gave (and what the assembly gives above).
TEST_CASE("Assembly counters: the GLSL probes p1, p2, p6 through the GLSL front leave NVIDIA's words",
          "[asm][counters]") {
  GlContext gl;
  for (const char* name : {"p1.comp", "p2.comp", "p6.comp"}) {
    INFO(name);
    const GLuint program = make_program(ref::read_file(name));
    const ProbeBuffers b = probe_buffers();
    glUseProgram(program);
    glDispatchCompute(1, 1, 1);
    REQUIRE_GL_ERROR(GL_NO_ERROR);
    check_like_nvidia(name, b);
    glUseProgram(0);
    glDeleteProgram(program);
  }
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

// ARB_shader_atomic_counters' glBindBufferRange: the counters start at the bound offset (counter i is the word at
// offset + 4i), and one dispatch of 256 invocations hands out each value once.
TEST_CASE("Assembly counters: glBindBufferRange offsets and contention", "[asm][counters]") {
  GlContext gl;
  glEnable(GL_COMPUTE_PROGRAM_NV);
  new_program();
  const std::string source = R"(!!NVcp5.0
OPTION NV_shader_atomic_counters;
OPTION NV_shader_storage_buffer;
GROUP_SIZE 64;
STORAGE out[] = { program.storage[0] };
COUNTER c[] = { program.counter[3] };
TEMP G, R0;
MAD.U G.x, invocation.groupid.x, {64}.x, invocation.localindex.x;
MUL.U G.x, G.x, {8}.x;
ATOMCTR.INCR.U R0.x, c[1];
STB.U32 R0.x, out[G.x];
ATOMCTR.DECR.U R0.x, c[2];
STB.U32 R0.x, out[G.x + 4];
END
)";
  REQUIRE(load(source) == GL_NO_ERROR);
  constexpr GLuint n = 256;
  constexpr GLintptr offset = 256;  // a multiple of every device's storage buffer offset alignment
  std::vector<uint32_t> words(offset / 4 + 8, 0xCAFEu);
  words[offset / 4 + 1] = 40;
  words[offset / 4 + 2] = 1000;
  const GLuint counters = make_buffer(static_cast<GLsizeiptr>(words.size() * 4), words.data());
  glBindBufferRange(GL_ATOMIC_COUNTER_BUFFER, 3, counters, offset, 16);
  const GLuint out = poisoned_buffer(2 * n);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  glDispatchCompute(n / 64, 1, 1);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  const auto got = read_words(out, 2 * n);
  std::vector<uint32_t> incr, decr;
  for (GLuint i = 0; i < n; ++i) {
    incr.push_back(got[2 * i]);
    decr.push_back(got[2 * i + 1]);
  }
  std::sort(incr.begin(), incr.end());
  std::sort(decr.begin(), decr.end());
  for (GLuint k = 0; k < n; ++k) {
    INFO("k " << k);
    CHECK(incr[k] == 40 + k);
    CHECK(decr[k] == 1000 - n + k);
  }
  auto after = read_words(counters, words.size());
  CHECK(after[offset / 4 + 1] == 40 + n);
  CHECK(after[offset / 4 + 2] == 1000 - n);
  after[offset / 4 + 1] = words[offset / 4 + 1];
  after[offset / 4 + 2] = words[offset / 4 + 2];
  CHECK(after == words);  // nothing else, and nothing before the offset, changed
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

// The bindings around the counters: program.storage, the TEMP array scratch buffer (arrays past 4 KiB), then
// program.counter, then program.local; each reaches its own GL binding.
TEST_CASE("Assembly counters: with TEMP arrays in scratch and program.local, each binding keeps its buffer",
          "[asm][counters]") {
  GlContext gl;
  glEnable(GL_COMPUTE_PROGRAM_NV);
  new_program();
  const std::string source = R"(!!NVcp5.0
OPTION NV_shader_atomic_counters;
OPTION NV_shader_storage_buffer;
GROUP_SIZE 1;
STORAGE out[] = { program.storage[0] };
COUNTER c1[] = { program.counter[1] };
COUNTER c0 = program.counter[0][2];
PARAM l = program.local[0];
TEMP a[300];
TEMP R0, R1, R2;
MOV.U a[299], l;
MOV.U R1, a[299];
ATOMCTR.INCR R0.x, c0;
ATOMCTR.DECR R2.x, c1[3];
MOV.U R0.y, R2.x;
MOV.U R0.z, R1.x;
STB.U32X4 R0, out[0];
END
)";
  const GLenum loaded = load(source);
  INFO(error_string());
  REQUIRE(loaded == GL_NO_ERROR);
  glProgramLocalParameterI4uiNV(GL_COMPUTE_PROGRAM_NV, 0, 77, 0, 0, 0);
  const ProbeBuffers b = probe_buffers();
  glDispatchCompute(1, 1, 1);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  const auto got = read_words(b.storage, 4);
  CHECK(got[0] == ref::initial_counters(0)[2]);
  CHECK(got[1] == ref::initial_counters(1)[3] - 1);
  CHECK(got[2] == 77);
  CHECK(got[3] == 0);  // R0.w, never written (registers start at zero)
  CHECK(read_words(b.counters[0], ref::kWords)[2] == ref::initial_counters(0)[2] + 1);
  CHECK(read_words(b.counters[1], ref::kWords)[3] == ref::initial_counters(1)[3] - 1);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}

// NVIDIA's driver refuses these with "line 4, column 1: error: invalid statement" (q_noopt) and "line 13, column 1"
// (q_multi); here the same lines and columns, GL_INVALID_OPERATION and the byte offset as the error position.
TEST_CASE("Assembly counters: load errors name NVIDIA's line and column", "[asm][counters]") {
  GlContext gl;
  new_program();
  struct Case {
    const char* file;
    const char* prefix;
    const char* what;
  };
  for (const Case& c : {Case{"q_noopt.nvcp5", "line 4, column 1: error: ", "NV_shader_atomic_counters"},
                        Case{"q_multi.nvcp5", "line 13, column 1: error: ", "NV_internal"}}) {
    INFO(c.file);
    const std::string source = ref::read_file(c.file);
    REQUIRE(load(source) == GL_INVALID_OPERATION);
    const std::string text = error_string();
    INFO(text);
    CHECK(text.rfind(c.prefix, 0) == 0);
    CHECK(text.find(c.what) != std::string::npos);
    size_t line_start = 0;
    for (int line = 1; line < (std::string(c.file) == "q_noopt.nvcp5" ? 4 : 13); ++line) {
      line_start = source.find('\n', line_start) + 1;
    }
    CHECK(error_position() == static_cast<GLint>(line_start));
  }
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}
