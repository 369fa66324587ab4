// What NV assembly programs read and write: program.local / program.env in every form, parameter buffers,
// 64-bit ATOMB and sub-word stores racing on the same words.
#include <algorithm>

#include "translator/gl/asm_program_support.hpp"

using namespace bismuth::gltest;
using namespace bismuth::gltest::asm_program;

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

TEST_CASE("Parameter buffers: program.buffer reads up to GL_MAX_PROGRAM_PARAMETER_BUFFER_SIZE_NV words of the binding",
          "[asm]") {
  // NV_parameter_buffer_object: GetProgramivARB(MAX_PROGRAM_PARAMETER_BUFFER_SIZE_NV) is the words a parameter
  // buffer reads. Bismuth's is the device's maxUniformBufferRange up to NVIDIA's 64 KiB (16384 words), at least
  // Vulkan's 16 KiB (4096 words); LDC reads that far into a 64 KiB binding, and clamps past it.
  GlContext gl;
  new_program();
  GLint size = 0, bindings = 0;
  glGetProgramivARB(GL_COMPUTE_PROGRAM_NV, GL_MAX_PROGRAM_PARAMETER_BUFFER_SIZE_NV, &size);
  glGetProgramivARB(GL_COMPUTE_PROGRAM_NV, GL_MAX_PROGRAM_PARAMETER_BUFFER_BINDINGS_NV, &bindings);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  CHECK(bindings == 32);
  INFO("GL_MAX_PROGRAM_PARAMETER_BUFFER_SIZE_NV " << size);
  REQUIRE(size >= 4096);
  REQUIRE(size <= 16384);
  std::vector<uint32_t> words(16384);
  for (uint32_t i = 0; i < words.size(); ++i) words[i] = 0x7000000u + i;
  const GLuint buffer = make_buffer(static_cast<GLsizeiptr>(words.size() * 4), words.data());
  glBindBufferBase(GL_UNIFORM_BUFFER, 1, buffer);
  const GLuint out = poisoned_buffer(4);
  const std::string source =
      "!!NVcp5.0\nGROUP_SIZE 1;\nSTORAGE out[] = { program.storage[0] };\nCBUFFER cb[] = { program.buffer[1] };\n"
      "BUFFER w[] = program.buffer[1];\nTEMP R0, A, B;\nMOV.U A.x, {40000}.x;\nLDC.U32 R0.x, cb[A.x];\n"
      "LDC.U32 B.x, cb[65532];\nMOV.U R0.y, B.x;\nLDC.U32 B.x, cb[16380];\nMOV.U R0.z, B.x;\n"
      "MOV.U A.y, {9000}.x;\nMOV.U R0.w, w[A.y];\n"
      "STB.U32X4 R0, out[0];\nEND\n";
  REQUIRE(load(source) == GL_NO_ERROR);
  glEnable(GL_COMPUTE_PROGRAM_NV);
  const auto got = dispatch_and_read(out, 4);
  REQUIRE_GL_ERROR(GL_NO_ERROR);
  const uint32_t last = static_cast<uint32_t>(size) - 1;
  CHECK(got == std::vector<uint32_t>{0x7000000u + std::min(10000u, last), 0x7000000u + std::min(16383u, last),
                                     0x7000000u + 4095u, 0x7000000u + std::min(9000u, last)});
  glDeleteBuffers(1, &buffer);
  glDeleteBuffers(1, &out);
  REQUIRE_NO_GL_VALIDATION_MESSAGES(gl);
}
